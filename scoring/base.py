"""What every game shares: the record base model, the result model, and turning raw JSON into a record.

A game module defines ``Options``, ``Hand`` and ``Record`` models (frozen pydantic, unknown keys forbidden) on top
of :class:`RecordBase`, and a ``score(record) -> Result`` function. :func:`parse_record` turns a raw dict into a
record and converts every pydantic error into a :class:`~scoring.errors.ScoringError` with a readable message.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, ParamSpec, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)

from scoring.errors import (
    DuplicateCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
    path_of,
    where,
)
from scoring.parts import Part, Step, part_for_step
from scoring.verdict import Decider, Verdict
from scoring.why import Names, Note, NoteList, read_notes, render, render_all

MAX_NAME = 40
"""The longest player's name, in characters: the one limit that every layer enforces on what is typed (a game's
record, the new-game and night screens, an import, a night's seats)."""

PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)]
"""A seated player's name: trimmed, 1 to :data:`MAX_NAME` characters, matched case-sensitively."""


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters a name may not hold: control characters (Unicode category Cc: NUL, BEL, ESC, CR...) and the bidi
marks, embeddings, overrides and isolates that reorder the text around them (U+061C, U+200E/F, U+202A-E,
U+2066-9)."""


def check_name(name: str, index: int) -> None:
    r"""Refuse a player's name with a control or bidi-override character (:class:`InvalidRecordError` naming the
    seat); ``index`` is the 0-based seat.

    >>> check_name("Ann", 0)
    >>> for name in ("Ann\x1b[2J", "\u202eBen"):
    ...     try:
    ...         check_name(name, 1)
    ...     except InvalidRecordError as exc:
    ...         print(exc.message, exc.path)
    player 2's name 'Ann\x1b[2J' holds a control character (U+001B); a name must be plain text players[1]
    player 2's name '\u202eBen' holds a text-direction character (U+202E); a name must be plain text players[1]
    """
    bad = _UNSAFE.search(name)
    if bad is None:
        return
    char = bad.group()
    kind = "a control character" if char <= "\x9f" else "a text-direction character"
    shown = name.encode("unicode_escape").decode("ascii")
    raise InvalidRecordError(
        f"player {index + 1}'s name '{shown}' holds {kind} (U+{ord(char):04X}); a name must be plain text",
        f"players[{index}]",
    )


class Model(BaseModel):
    """Base of every record part: frozen, unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class RecordBase(Model):
    """The fields every game record has. Subclasses narrow ``game``, ``options`` and ``hands``."""

    game: str
    players: tuple[PlayerName, ...] = Field(min_length=1)

    @field_validator("players")
    @classmethod
    def _unique_players(cls, players: tuple[str, ...]) -> tuple[str, ...]:
        seen: set[str] = set()
        for index, name in enumerate(players):
            check_name(name, index)
            if name in seen:
                raise ValueError(f"{name} is seated twice")
            seen.add(name)
        return players


class Pending(Model):
    """The extra part the table must play before the game is decided."""

    kind: Literal["tiebreak", "sudden-death", "playoff"]
    players: list[str]

    @property
    def part(self) -> Part:
        """The record part the pending entries go to.

        >>> Pending(kind="sudden-death", players=["Ben", "Cat"]).part
        <Part.SUDDEN_DEATH: 'sudden_death'>
        """
        return part_for_step(Step(self.kind))


_RULE = re.compile(r"\brules? (\d+(?:\.\d+)*)(?:[-–](\d+(?:\.\d+)*))?")


@functools.cache
def _ruling_ids(prefix: str) -> re.Pattern[str] | None:
    """The ruling ids of the game whose rulings carry ``prefix`` (``BB-2``); ``None`` for no prefix."""
    return re.compile(rf"\b{re.escape(prefix)}-\d+\b") if prefix else None


def _cited(note: str, prefix: str) -> tuple[str, ...]:
    found: list[str] = []
    for match in _RULE.finditer(note):
        found.extend(f"{prefix}-R{number}" for number in match.groups() if number)
    rulings = _ruling_ids(prefix)
    if rulings is not None:
        found.extend(rulings.findall(note))
    return tuple(dict.fromkeys(found))


def rulings_of(note: str, prefix: str) -> list[str]:
    """The ids of the rules and rulings a note of the game whose ruling ids start with ``prefix``
    (:attr:`scoring.game.Game.ruling_prefix`) applies, in the order cited: a ruling keeps its id from the rules
    file (``BB-2``); a numbered rule of the rules file's section 1 is ``<prefix>-R<number>`` (``BB-R5.2`` is rule
    5.2 of Bargain Bin). Every note a game writes cites what it applies in this form, so these ids are the data
    and the prose is for people.

    >>> rulings_of("A and B tie for the highest score (12): both get one game point (rule 5.2, BB-2)", "BB")
    ['BB-R5.2', 'BB-2']
    >>> rulings_of("Card points: A 1 (rule 2, rule 4, BB-1)", "BB")
    ['BB-R2', 'BB-R4', 'BB-1']
    >>> rulings_of("Up-card 5♠; Ann 7♥, Ben 9♦.", "JK")
    []
    """
    return list(_cited(note, prefix))


class PartProgress(NamedTuple):
    """A player's progress in the extra part a tied game plays (:meth:`Result.part_progress`).

    >>> PartProgress(Note.of("tie-break {points}", points=14), (-14,)).text
    'tie-break 14'
    """

    note: Note
    """As data (:class:`scoring.why.Note`), for any language."""
    rank: tuple[int, ...]
    """Sorts the tied players once the part has decided: lower is better."""

    @property
    def text(self) -> str:
        """For people, in English: ``"2 play-off wins"``, ``"tie-break 14"``, ``"sudden death 74"``."""
        return render(self.note)


_DERIVED: dict[type, frozenset[str]] = {}
"""Per result model, the computed keys its JSON has that are derived again when it is read back."""


class _Output(BaseModel):
    """A result model: typed fields only (``extra="forbid"``); :attr:`OMIT_NONE` fields are left out of the JSON
    while they are ``None`` (``records.md``: ``pot`` only with Vegas, ``playoff_wins`` once a play-off is due)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    OMIT_NONE: ClassVar[frozenset[str]] = frozenset()
    RULING_PREFIX: ClassVar[str] = ""
    """The prefix of the game's rule and ruling ids (:attr:`scoring.game.Game.ruling_prefix`, for
    :func:`rulings_of`); each game's result models set it."""

    @model_validator(mode="before")
    @classmethod
    def _without_computed(cls, data: Any) -> Any:
        """Accept a result's own JSON back: its computed keys (``rulings``) are derived again, not read."""
        if isinstance(data, dict):
            derived = _DERIVED.get(cls)
            if derived is None:  # ``notes`` is computed too, but may be handed in (:attr:`HandResult.given_notes`)
                derived = _DERIVED.setdefault(cls, frozenset(cls.model_computed_fields) - {"notes"})
            if not derived.isdisjoint(data):
                data = {key: value for key, value in data.items() if key not in derived}
        return read_notes(data, why=list[Note], tiebreak_why=list[list[Note]])

    def _pruned(self, data: dict[str, Any]) -> dict[str, Any]:
        for key in self.OMIT_NONE:
            if key in data and data[key] is None:
                del data[key]
        return data


class HandResult(_Output):
    """What one hand (or one entry of an extra part) gave; each game's subclass adds its own fields.

    ``rulings`` runs parallel to ``notes``: ``rulings[i]`` lists the ids of the rules and rulings that note ``i``
    applies (:func:`rulings_of`), so a screen picks notes by id, never by their words.

    >>> hand = HandResult(points={"A": 1}, notes=["A scores (rule 5)", "no citation"])
    >>> hand.rulings
    [['-R5'], []]
    """

    points: dict[str, int]
    given_notes: list[str] | None = Field(default=None, alias="notes", exclude=True, repr=False)
    """``notes`` as read (a result's JSON, or sentences handed in); ``None`` when they are rendered from ``why``."""
    why: NoteList = Field(default_factory=list)
    """``notes`` as data (:class:`scoring.why.Note`): rendered in English they are ``notes``, word for word; in
    another language they are that language's notes."""

    @computed_field  # type: ignore[prop-decorator]
    @functools.cached_property
    def notes(self) -> list[str]:
        """The notes in English, rendered from ``why`` when first read (scoring a game renders none of them)."""
        return render_all(self.why) if self.given_notes is None else self.given_notes

    def add_note(self, note: Note) -> None:
        """Add a note after the others (the end of the game, said in the last hand).

        >>> hand = HandResult(points={"A": 1}, why=[Note.of("A scores (rule 5)")])
        >>> hand.add_note(Note.of("Game over."))
        >>> hand.notes
        ['A scores (rule 5)', 'Game over.']
        """
        self.why.append(note)
        if self.given_notes is not None:
            self.given_notes.append(render(note))
        self.__dict__.pop("notes", None)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rulings(self) -> list[list[str]]:
        """One list of rule and ruling ids per note (``BB-R7``, ``BB-13``...), in the notes' order."""
        return [list(_cited(note, self.RULING_PREFIX)) for note in self.notes]

    def noted(self, *ids: str) -> list[str]:
        """The notes that apply any of these rule or ruling ids.

        >>> from scoring.bargain_bin import BargainBinHandResult
        >>> hand = BargainBinHandResult(points={}, card_points={}, notes=["x (rule 7)", "y (BB-10)", "z"])
        >>> hand.noted("BB-R7", "BB-10")
        ['x (rule 7)', 'y (BB-10)']
        """
        wanted = set(ids)
        return [note for note, cited in zip(self.notes, self.rulings, strict=True) if wanted & set(cited)]


class Result(_Output):
    """The result of replaying a record (``records.md``, "Result"). Each game has its own subclass with its own
    fields (``BargainBinResult``...); nothing else is accepted."""

    game: str
    players: list[str]
    hands: list[HandResult] = Field(default_factory=list)
    totals: dict[str, int]
    finished: bool = False
    winners: list[str] = Field(default_factory=list)
    pending: Pending | None = None
    cancelled: bool = False
    verdict: Verdict | None = None
    """Why the game was decided (:class:`~scoring.verdict.Verdict`); ``None`` while it is undecided."""

    def part_progress(self) -> dict[str, PartProgress]:
        """Each player's progress in the play-off, tie-break round or sudden death, for the players in it (empty
        when there is none). Games with an extra part override this.

        >>> Result(game="x", players=["A"], totals={"A": 0}).part_progress()
        {}
        """
        return {}

    HAND_LISTS: ClassVar[tuple[str, ...]] = ("hands",)
    """Fields holding lists of :class:`HandResult` (pruned like the result, :attr:`_Output.OMIT_NONE`)."""

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON data, exactly as ``python -m scoring score`` prints it.

        >>> Result(game="jokers-kill", players=["Ann", "Ben"], totals={"Ann": 2, "Ben": 0}).to_json()["totals"]
        {'Ann': 2, 'Ben': 0}
        """
        data = self._pruned(self.model_dump(mode="json"))
        for key in self.HAND_LISTS:
            models = getattr(self, key, None) or []
            items = data.get(key) or []
            for index, (model, item) in enumerate(zip(models, items, strict=False)):
                if model.OMIT_NONE:
                    model._pruned(item)
                items[index] = _notes_before_why(item)
        return data


def _notes_before_why(item: dict[str, Any]) -> dict[str, Any]:
    """A hand's JSON with ``notes`` where ``records.md`` has it, just before ``why`` (it is computed, so pydantic
    writes it after the fields)."""
    out: dict[str, Any] = {}
    notes = item.pop("notes")
    for key, value in item.items():
        if key == "why":
            out["notes"] = notes
        out[key] = value
    return out


def next_step(result: Result) -> Step:
    """What the table must play next, read off a result.

    >>> next_step(Result(game="x", players=["A"], totals={"A": 0}))
    <Step.HAND: 'hand'>
    >>> next_step(Result(game="x", players=["A"], totals={"A": 0}, pending=Pending(kind="playoff", players=["A"])))
    <Step.PLAYOFF: 'playoff'>
    """
    if result.finished or result.cancelled:
        return Step.FINISHED
    if result.pending is not None:
        return Step(result.pending.kind)
    return Step.HAND


R = TypeVar("R", bound=RecordBase)
P = ParamSpec("P")


_TYPE_WORDS = {
    "dict_type": "an object (a map of names to values)",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "list_type": "a list",
    "tuple_type": "a list",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "none_required": "null",
}


def _shown(value: Any) -> str:
    """A refused value for a message; a huge number is described, not printed.

    >>> _shown(7), _shown(10**40)
    ('7', 'a number of 41 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        try:
            return f"a number of {len(str(abs(value)))} digits"
        except ValueError:  # beyond Python's limit for turning an int into text
            return "a number of more than 4300 digits"
    return repr(value)


def _describe(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    loc = err.get("loc", ())
    key = str(loc[-1]) if loc else "record"
    ctx = err.get("ctx") or {}
    inner = ctx.get("error")
    if isinstance(inner, ScoringError):
        return inner.message
    if kind == "missing":
        return f"'{key}' is missing"
    if kind == "extra_forbidden":
        return f"'{key}' is not a known key here"
    if kind in ("literal_error", "enum"):
        return f"'{key}' must be {ctx.get('expected', 'one of the allowed values')}, not {err.get('input')!r}"
    if (kind == "string_too_short" and key == "players") or (len(loc) >= 2 and loc[0] == "players"):
        if kind == "string_too_short":
            return "a player's name is empty"
        if kind == "string_too_long":
            return f"the name {err.get('input')!r} is longer than {MAX_NAME} characters"
    if kind == "too_short" and loc and loc[0] == "players":
        return "the game has no players"
    expected_type = _TYPE_WORDS.get(kind)
    if expected_type is not None:
        return f"'{key}' must be {expected_type}, not {_shown(err.get('input'))}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = ctx.get("ge", ctx.get("gt", ctx.get("le", ctx.get("lt"))))
        word = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most"}.get(
            kind, "less than"
        )
        return f"'{key}' must be {word} {bound}, not {_shown(err.get('input'))}"
    msg = str(err.get("msg", "is not valid"))
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    return f"'{key}': {msg}" if kind not in ("value_error", "assertion_error") else msg


class Refused:
    """A raw value that a game module refused before pydantic validated it, with the error to report.

    A list-level validator that checks every item in one pass (cheaper than a check per item) puts a ``Refused``
    in place of a bad item; pydantic then fails on that item, at that item's place, and :func:`validation_error`
    reports ``error`` exactly as if the item's own validator had raised it.
    """

    __slots__ = ("error",)

    def __init__(self, error: ScoringError) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Refused({self.error.message!r})"


def validation_error(exc: ValidationError, prefix: tuple[int | str, ...] = ()) -> ScoringError:
    """Convert the first pydantic error into a :class:`ScoringError` with a readable message and path.

    >>> from pydantic import TypeAdapter
    >>> try:
    ...     TypeAdapter(dict[str, int]).validate_python({"Ann": "seven"})
    ... except ValidationError as exc:
    ...     error = validation_error(exc, ("hands", 2, "scores"))
    >>> error.message, error.path
    ("'Ann' must be a whole number, not 'seven' in hand 3", 'hands[2].scores.Ann')
    """
    err = exc.errors(include_url=False)[0]
    loc = tuple(prefix) + tuple(err.get("loc", ()))
    path = path_of(loc)
    inner = (err.get("ctx") or {}).get("error")
    refused = err.get("input")
    if not isinstance(inner, ScoringError) and isinstance(refused, Refused):
        inner = refused.error
        err = {**err, "ctx": {"error": inner}}
    message = _describe(err)
    if not isinstance(inner, ScoringError):
        message = message + where(path) if where(path) and where(path) not in message else message
        return InvalidRecordError(message, path)
    if where(path) and where(path) not in message:
        message += where(path)
    return type(inner)(message, path)


def parse_record(model: type[R], data: Any) -> R:
    """Validate raw JSON data into ``model``; any problem becomes a :class:`ScoringError`.

    >>> parse_record(RecordBase, {"game": "jokers-kill", "players": ["Ann", "Ann"]})
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidRecordError: Ann is seated twice
    """
    if not isinstance(data, dict):
        raise InvalidRecordError("a game record must be a JSON object", "")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc) from None


def check_players(names: Iterable[str], players: Iterable[str], path: str) -> None:
    """Raise :class:`UnknownPlayerError` for the first name that is not seated.

    >>> check_players(["Ann", "Zed"], ["Ann", "Ben"], "hands[0].cards")
    Traceback (most recent call last):
    ...
    scoring.errors.UnknownPlayerError: Zed is not a player in this game
    """
    seated = set(players)
    for name in names:
        if name not in seated:
            raise UnknownPlayerError(Note.of("{name} is not a player in this game", name=name), f"{path}.{name}")


def check_no_duplicates(cards: Iterable[tuple[Any, str]], context: str) -> None:
    """Raise :class:`DuplicateCardError` if a card occurs twice; ``cards`` yields ``(card, path)``.

    >>> from scoring.cards import Card
    >>> check_no_duplicates([(Card.parse("QH"), "a"), (Card.parse("qh"), "b")], "in hand 3")
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: Q♥ appears twice in hand 3
    """
    seen: set[Any] = set()
    for card, path in cards:
        if card in seen:
            raise DuplicateCardError(f"{card.label} appears twice {context}".rstrip(), path)
        seen.add(card)


REFUSED: tuple[type[Exception], ...] = (ValueError,)
"""What a ``verify_`` function raises to say no, by default: every :class:`ScoringError` and every game's entry
error in the companion is a :class:`ValueError`."""


def passes(check: Callable[[], object], refusals: tuple[type[Exception], ...] = REFUSED) -> bool:
    """Whether ``check()`` passes, ``False`` when it raises one of ``refusals``: a ``can_`` question answered by its
    ``verify_`` function (a control is greyed out when it says no). Anything else it raises goes through.

    >>> def verify():
    ...     raise ValueError("Ben's card is missing")
    >>> passes(verify), passes(lambda: None)
    (False, True)
    """
    try:
        check()
    except refusals:
        return False
    return True


def accepts(check: Callable[P, object], /, *args: P.args, **kwargs: P.kwargs) -> bool:
    r"""Whether ``check`` accepts what it is handed: ``False`` when it raises a :class:`ScoringError` (:func:`passes`
    for a ``verify_`` function of the rules).

    >>> accepts(check_name, "Ann", 0), accepts(check_name, "Ann\x1b", 0)
    (True, False)
    """
    return passes(lambda: check(*args, **kwargs), (ScoringError,))


OTHERS: Any = object()
"""A value of :func:`joint_win`'s reason that stands for the other winners' names (:class:`scoring.why.Names`)."""


def sole_win(
    decider: Decider, rulings: Sequence[str], winner: str, headline: Note, reason: str, /, **values: Any
) -> Verdict:
    """A verdict with one winner: the banner's ``headline``, and the ``reason`` (a note's text) filled with
    ``values``.

    >>> verdict = sole_win(Decider.MOST_POINTS, ["X-R7"], "Ann", Note.of("Ann wins."), "{name} wins (rule 7).",
    ...                    name="Ann")
    >>> verdict.reasons
    {'Ann': 'Ann wins (rule 7).'}
    """
    return Verdict.of(decider, rulings, headline, {winner: Note.of(reason, **values)})


def joint_win(
    decider: Decider, rulings: Sequence[str], winners: Sequence[str], headline: Note, reason: str, /, **values: Any
) -> Verdict:
    """A verdict with joint winners: the banner's ``headline``, and for each winner the ``reason`` (a note's text)
    filled with the winner's ``name`` and ``values``, in which :data:`OTHERS` stands for the other winners.

    >>> verdict = joint_win(Decider.JOINT, ["X-R7"], ["Ann", "Ben"], Note.of("A tie."), "{name} ties with {others}.",
    ...                     others=OTHERS)
    >>> verdict.reasons
    {'Ann': 'Ann ties with Ben.', 'Ben': 'Ben ties with Ann.'}
    """
    reasons = {
        name: Note.of(
            reason,
            name=name,
            **{
                key: Names.of(other for other in winners if other != name) if value is OTHERS else value
                for key, value in values.items()
            },
        )
        for name in winners
    }
    return Verdict.of(decider, rulings, headline, reasons)


def zeros(players: Iterable[str]) -> dict[str, int]:
    """A per-player map of zeros, in seating order.

    >>> zeros(["Ann", "Ben", "Cat"])
    {'Ann': 0, 'Ben': 0, 'Cat': 0}
    """
    return {name: 0 for name in players}


def said(notes: Iterable[Note]) -> dict[str, Any]:
    """A hand's notes as data (``why``), for a result's constructor; its English ``notes`` are rendered from them
    when they are first read.

    >>> HandResult(points={}, **said([Note.of("{name} wins (rule 7)", name="Ann")])).notes
    ['Ann wins (rule 7)']
    """
    return {"why": list(notes)}


def join_names(names: Iterable[str]) -> str:
    """``"Ann"``, ``"Ann and Ben"``, ``"Ann, Ben and Cat"``.

    >>> join_names(["Ann", "Ben", "Cat"])
    'Ann, Ben and Cat'
    """
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
