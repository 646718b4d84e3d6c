"""1111-9999 at the table: sides at set-up, the table row and each player's number on a digit pad (no Flet here).

The table row is entered once, as side A reads it; each player then enters the number they set down. Digits are
checked as they are typed (:func:`scoring.ones_to_nines.can_number`: a digit is in the deck four times), each
player sees their target as they read it (:func:`scoring.ones_to_nines.target_for`), the first player to set down
three of a kind is recorded, and once the hand is complete every player's best arrangement is shown. A sudden-death
hand is the same with three digits and only the tied players.

OO-E6 (P2's 3 3 3 9 is not first: 9 + 250):

>>> record = {"game": "1111-9999", "players": ["P1", "P2", "P3"], "sides": {"P1": "A", "P2": "B", "P3": "A"}}
>>> entry = HandEntry.start(record)
>>> for digit in "4239" "7772" "9333" "5278":
...     entry = entry.press(digit)
>>> entry.targets()
{'P1': '4239', 'P2': '9324', 'P3': '4239'}
>>> entry = entry.set_first_triple("P1")
>>> entry.to_hand()
{'table': '4239', 'numbers': {'P1': '7772', 'P2': '9333', 'P3': '5278'}, 'first_triple': 'P1'}
>>> [(row.name, row.best, row.best_score) for row in entry.review()][1:]
[('P2', '9333', 9), ('P3', '5278', 1039)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing_extensions TypedDicts on 3.11

from companion.entry import EntryOf, EntryTarget, GameEntry, WordedError
from companion.guides import GameGuide, HouseRule, Section
from companion.i18n import N_, Words
from scoring import IncompleteError, ScoringError, find_game
from scoring import ones_to_nines as oo
from scoring.base import passes
from scoring.ones_to_nines import DIGITS
from scoring.parts import Part
from scoring.why import Note

TABLE = "table"
"""The field of the table row (every other field is a player's name)."""


class EntryError(WordedError):
    """A tap the hand cannot take; the message names the problem."""


class DigitError(EntryError):
    """A digit that cannot be typed here: the field is full, or the deck has no more of it (rule 1)."""


class TripleError(EntryError):
    """A first three-of-a-kind declarer who cannot be recorded (no three of a kind, rule off in sudden death)."""


class OnesToNinesIncompleteError(EntryError, IncompleteError):
    """The hand is confirmed before the table row and every number are entered."""


class SidesError(ValueError):
    """Sides that do not fit the seated players."""


# --- sides at set-up ---------------------------------------------------------------------------------------------


def default_sides(players: Sequence[str]) -> dict[str, str]:
    """Sides for players seated clockwise round the row: the first half on side A, the rest on side B (OO-1).

    >>> default_sides(["Ann", "Ben", "Cat"])
    {'Ann': 'A', 'Ben': 'A', 'Cat': 'B'}
    """
    half = (len(players) + 1) // 2
    return {name: ("A" if i < half else "B") for i, name in enumerate(players)}


def fit_sides(players: Sequence[str], sides: Mapping[str, str]) -> dict[str, str]:
    """``sides`` for exactly ``players``: kept where chosen, the default for newly seated players.

    >>> fit_sides(["Ann", "Ben", "Dan"], {"Ann": "B", "Cat": "A"})
    {'Ann': 'B', 'Ben': 'A', 'Dan': 'B'}
    """
    default = default_sides(players)
    return {name: sides.get(name, default[name]) for name in players}


def toggle_side(sides: Mapping[str, str], name: str) -> dict[str, str]:
    """``sides`` with ``name`` moved to the other side.

    >>> toggle_side({"Ann": "A", "Ben": "A"}, "Ben")
    {'Ann': 'A', 'Ben': 'B'}
    """
    if name not in sides:
        raise SidesError(f"{name} is not seated")
    return {**sides, name: "B" if sides[name] == "A" else "A"}


# --- one hand ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewRow:
    """One player's line after the hand: what they set down, its gap, and the best their digits allowed."""

    name: str
    side: str
    target: str
    number: str | None
    gap: int | None
    best: str | None
    best_score: int | None
    first_triple: bool = False

    @property
    def text(self) -> str:
        """
        >>> ReviewRow("Ann", "A", "4239", "2875", 1364, "5278", 1039).text
        'Ann (side A, target 4239): 2875, gap 1364; best 5278, gap 1039'
        >>> ReviewRow("Ben", "B", "9324", "8631", 693, "8631", 693).text
        'Ben (side B, target 9324): 8631, gap 693, the best arrangement'
        """
        return self.text_in(Words.of("en"))

    def text_in(self, words: Words, *, short: bool = False) -> str:
        """:attr:`text` (or with ``short``, :attr:`short`) in the table's language."""
        _ = words.gettext
        who = self.name if short else _("{name} (side {side}, target {target})")
        who = who.format(name=self.name, side=self.side, target=self.target)
        if self.number is None:
            return _("{who}: set down three of a kind first, 0").format(who=who)
        first = " " + _("(first three of a kind: 0)") if self.first_triple else ""
        if self.best == self.number:
            said = (
                _("{who}: {number}, gap {gap}, the best{first}")
                if short
                else _("{who}: {number}, gap {gap}, the best arrangement{first}")
            )
            return said.format(who=who, number=self.number, gap=self.gap, first=first)
        said = _("{who}: {number}, gap {gap}; best {best}, gap {best_score}{first}")
        return said.format(
            who=who, number=self.number, gap=self.gap, best=self.best, best_score=self.best_score, first=first
        )

    @property
    def short(self) -> str:
        """The line without the side and target (a large table's fields show them), to fit one line of a phone;
        :attr:`text` stays what a screen reader reads.

        >>> ReviewRow("Ann", "A", "4239", "2875", 1364, "5278", 1039).short
        'Ann: 2875, gap 1364; best 5278, gap 1039'
        >>> ReviewRow("Ben", "B", "9324", "8631", 693, "8631", 693, first_triple=True).short
        'Ben: 8631, gap 693, the best (first three of a kind: 0)'
        """
        return self.text_in(Words.of("en"), short=True)


@dataclass(frozen=True)
class HandEntry:
    """One hand (or sudden-death hand) being entered."""

    players: tuple[str, ...]
    """Who plays it, in seating order: everyone, or the players tied in sudden death."""
    sides: dict[str, str]
    length: int = oo.HAND_LENGTH
    triple_rule: bool = True
    """Whether a first three-of-a-kind declarer can be recorded (off in sudden death under OO-15's house rule)."""
    table: str = ""
    numbers: dict[str, str] = field(default_factory=dict)
    first_triple: str | None = None
    focus: str = TABLE
    """The field the digit pad types into."""

    @classmethod
    def start(cls, record: Mapping[str, Any], *, sudden_death: bool = False) -> HandEntry:
        """The next hand of ``record`` (a sudden-death hand when ``sudden_death``)."""
        parsed = find_game("1111-9999").parse(dict(record))
        assert isinstance(parsed, oo.Record)
        sides = {name: side.value for name, side in parsed.sides.items()}
        if not sudden_death:
            return cls(tuple(parsed.players), sides)
        result = find_game("1111-9999").score(dict(record))
        tied = list(result.pending.players) if result.pending is not None else []
        return cls(
            tuple(tied),
            sides,
            length=oo.SUDDEN_DEATH_LENGTH,
            triple_rule=parsed.options.triple_rule_in_sudden_death,
        )

    @classmethod
    def of_hand(cls, blank: HandEntry, hand: Mapping[str, Any]) -> HandEntry:
        """``blank`` filled with a saved hand (to correct it); what does not fit is left out."""
        entry = blank
        for digit in str(hand.get("table", "")):
            if entry.can_press(digit):
                entry = entry.press(digit)
        numbers = hand.get("numbers") or {}
        for name in blank.players:
            entry = entry.with_focus(name)
            for digit in str(numbers.get(name, "")):
                if entry.can_press(digit):
                    entry = entry.press(digit)
        declarer = hand.get("first_triple")
        if isinstance(declarer, str) and entry.can_first_triple(declarer):
            entry = entry.set_first_triple(declarer)
        return entry.with_focus(entry.first_unfinished() or TABLE)

    # --- fields ------------------------------------------------------------------------------------------------

    @property
    def fields(self) -> list[str]:
        return [TABLE, *self.players]

    def value(self, name: str) -> str:
        return self.table if name == TABLE else self.numbers.get(name, "")

    def filled(self, name: str) -> bool:
        return len(self.value(name)) == self.length

    def needed(self, name: str) -> bool:
        """Whether the field must be filled (the first triple declarer's number may be left out)."""
        return not (name == self.first_triple and not self.value(name))

    def next_field(self) -> str | None:
        """The first field still to fill, from the focused one on (``None``: all filled)."""
        order = self.fields
        start = order.index(self.focus) if self.focus in order else 0
        for name in order[start:] + order[:start]:
            if not self.filled(name) and self.needed(name):
                return name
        return None

    def first_unfinished(self) -> str | None:
        """The first field still to fill in order (the table row, then each player in seating order), whatever
        the focus; ``None`` when every needed field is filled.

        >>> players = ["P1", "P2", "P3", "P4"]
        >>> record = {"game": "1111-9999", "players": players, "sides": dict.fromkeys(players, "A")}
        >>> entry = HandEntry.of_hand(HandEntry.start(record), {"table": "4239", "numbers": {"P1": "7772"}})
        >>> entry.first_unfinished(), entry.focus
        ('P2', 'P2')
        """
        for name in self.fields:
            if not self.filled(name) and self.needed(name):
                return name
        return None

    def with_focus(self, name: str) -> HandEntry:
        if name not in self.fields:
            raise EntryError(Note.of(N_("{name} does not play this hand"), name=name))
        return replace(self, focus=name)

    def _others(self, name: str) -> list[str]:
        return [self.numbers[other] for other in self.players if other != name and self.numbers.get(other)]

    # --- the digit pad -----------------------------------------------------------------------------------------

    def verify_press(self, digit: str) -> None:
        """Raise unless ``digit`` can be typed into the focused field (rule 1: four of each digit)."""
        if digit not in DIGITS or len(digit) != 1:
            raise DigitError(f"{digit!r} is not a digit 1-9 (an Ace is 1)")
        name = self.focus
        typed = self.value(name) + digit
        if len(typed) > self.length:
            if name == TABLE:
                raise DigitError(Note.of(N_("the table row already has {length} digits"), length=self.length))
            raise DigitError(Note.of(N_("{name}'s number already has {length} digits"), name=name, length=self.length))
        try:
            if name == TABLE:
                oo.verify_number(typed, "", self._others(name), length=self.length, complete=False)
            else:
                oo.verify_number(typed, self.table, self._others(name), length=self.length, complete=False)
        except ScoringError as exc:
            raise DigitError(str(exc)) from None

    def can_press(self, digit: str) -> bool:
        return passes(lambda: self.verify_press(digit), (EntryError,))

    def press(self, digit: str) -> HandEntry:
        """The entry with ``digit`` typed; a full field moves the focus to the next one to fill."""
        self.verify_press(digit)
        name = self.focus
        new = replace(self, table=self.table + digit) if name == TABLE else self._with_number(name, digit)
        if new.filled(name):
            new = replace(new, focus=new.next_field() or name)
        return new

    def _with_number(self, name: str, digit: str) -> HandEntry:
        numbers = {**self.numbers, name: self.numbers.get(name, "") + digit}
        return replace(self, numbers=numbers)

    def backspace(self) -> HandEntry:
        """Remove the last digit of the focused field (or of the field before it, when it is empty)."""
        name = self.focus
        if not self.value(name):
            order = self.fields
            earlier = [other for other in order[: order.index(name)] if self.value(other)]
            if not earlier:
                return self
            name = earlier[-1]
        if name == TABLE:
            return replace(self, table=self.table[:-1], focus=name)
        return replace(self, numbers={**self.numbers, name: self.numbers[name][:-1]}, focus=name)

    def digits_left(self) -> dict[str, int]:
        """How many of each digit are still in the deck (rule 1)."""
        return oo.available_digits(self.table, self._others(""))

    # --- three of a kind ---------------------------------------------------------------------------------------

    def verify_first_triple(self, name: str) -> None:
        """Raise unless ``name`` can be recorded as the first to set down three of a kind (rule 5.1, OO-10)."""
        if name not in self.players:
            raise TripleError(Note.of(N_("{name} does not play this hand"), name=name))
        if not self.triple_rule:
            raise TripleError(Note.of(N_("the three-of-a-kind rule is off in sudden death (house rule, OO-15)")))
        number = self.numbers.get(name, "")
        if len(number) == self.length:
            try:
                oo.verify_declare_triple(number)
            except ScoringError as exc:
                raise TripleError(str(exc)) from None

    def can_first_triple(self, name: str) -> bool:
        return passes(lambda: self.verify_first_triple(name), (EntryError,))

    def set_first_triple(self, name: str | None) -> HandEntry:
        """Record ``name`` as first to set down three of a kind (``None``: nobody)."""
        if name is not None:
            self.verify_first_triple(name)
        return replace(self, first_triple=name)

    # --- the whole hand -----------------------------------------------------------------------------------------

    def targets(self) -> dict[str, str]:
        """Each player's table number as they read it (once the row is entered; rule 2)."""
        if not self.filled(TABLE):
            return {}
        return {name: oo.target_for(self.table, self.sides[name]) for name in self.players}

    def verify_complete(self) -> None:
        missing = [name for name in self.fields if self.needed(name) and not self.filled(name)]
        if missing:
            what = ["the table row" if name == TABLE else f"{name}'s number" for name in missing]
            raise OnesToNinesIncompleteError(f"enter {_join(what)} ({self.length} digits each)")
        if self.first_triple is not None:
            self.verify_first_triple(self.first_triple)

    @property
    def complete(self) -> bool:
        try:
            self.verify_complete()
        except EntryError:
            return False
        return True

    def to_hand(self) -> dict[str, Any]:
        """The hand as the record keeps it; raises :class:`EntryError` until it is complete."""
        self.verify_complete()
        numbers = {name: self.numbers[name] for name in self.players if self.filled(name)}
        hand: dict[str, Any] = {"table": self.table, "numbers": numbers}
        if self.first_triple is not None:
            hand["first_triple"] = self.first_triple
        return hand

    def review(self) -> list[ReviewRow]:
        """After the hand: each player's number, its gap and the best arrangement of their digits (OO-3)."""
        targets = self.targets()
        rows: list[ReviewRow] = []
        for name in self.players:
            target = targets.get(name, "")
            number = self.numbers.get(name) if self.filled(name) else None
            if number is None or not target:
                rows.append(ReviewRow(name, self.sides[name], target, None, None, None, None, True))
                continue
            best, best_score = oo.best_arrangement(number, target)
            gap = oo.distance(number, target)
            rows.append(
                ReviewRow(name, self.sides[name], target, number, gap, best, best_score, name == self.first_triple)
            )
        return rows

    def to_draft(self) -> dict[str, Any]:
        """Plain data for :meth:`companion.session.TableSession.set_draft`."""
        return {"table": self.table, "numbers": dict(self.numbers), "first_triple": self.first_triple}


# --- the entry lifecycle (companion.entry.EntryState) -----------------------------------------------------------


@dataclass(frozen=True)
class OnesToNinesState(EntryOf[HandEntry]):
    """A 1111-9999 hand or sudden-death hand as :class:`companion.entry.EntryState`: a :class:`HandEntry` whose
    restored focus is the first unfinished field.

    The bug this guards against (issue 13): the table row and two numbers typed, the page reloaded, and the digit
    pad then typing into the *last* player's field. A restored draft types into the third player's field:

    >>> from companion.entry import EntryTarget
    >>> players = ["P1", "P2", "P3", "P4"]
    >>> record = {"game": "1111-9999", "players": players, "sides": dict.fromkeys(players, "A")}
    >>> draft = {"table": "4239", "numbers": {"P1": "7772", "P2": "9333"}, "first_triple": None}
    >>> state = OnesToNinesState.from_draft(record, EntryTarget(), draft)
    >>> state.focus(), state.entry.focus
    ('P3', 'P3')
    """

    @classmethod
    def start(cls, record: Mapping[str, Any], target: EntryTarget) -> OnesToNinesState:
        return cls(HandEntry.start(record, sudden_death=target.part is Part.SUDDEN_DEATH))

    @classmethod
    def from_hand(cls, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> OnesToNinesState:
        return cls(HandEntry.of_hand(cls.start(record, target).entry, hand))

    @classmethod
    def from_draft(cls, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> OnesToNinesState:
        """What :meth:`to_draft` kept (digits that no longer fit the deck are left out)."""
        if not isinstance(draft.get("numbers", {}), Mapping):
            raise EntryError(Note.of(N_("the hand kept from before cannot be read")))
        return cls.from_hand(record, target, draft)

    def can_confirm(self) -> bool:
        return self.entry.complete

    def focus(self) -> str | None:
        """``"table"`` or a player's name: the first field still to fill."""
        return self.entry.first_unfinished()

    def press(self, digit: str) -> OnesToNinesState:
        return self.but(self.entry.press(digit))


def best_lines(result_hand: Mapping[str, Any] | Any) -> list[str]:
    """``Ann 5278 (1039)`` for each player of a scored hand's ``best`` (the scoreboard's "could I have done better").

    >>> best_lines({"best": {"Ann": {"number": "5278", "score": 1039}, "Ben": None}})
    ['Ann 5278 (1039)']
    """
    data = result_hand if isinstance(result_hand, Mapping) else result_hand.model_dump()
    best = data.get("best") or {}
    return [f"{name} {b['number']} ({b['score']})" for name, b in best.items() if b]


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- what the app declares of 1111-9999: its draft, its Rules page, its entry (companion.games.ENTRIES) ------------


class _OnesToNinesDraft(TypedDict):
    table: NotRequired[str | int]
    numbers: NotRequired[dict[str, str | int] | None]
    first_triple: NotRequired[str | None]


GUIDE = GameGuide(
    key="1111-9999",
    name="1111-9999",
    players=N_("2 to 8 players"),
    summary=N_("Arrange your four cards into a number as close as you can to the number on the table."),
    sections=(
        Section(
            N_("Deck and seats"),
            (
                N_("36 cards: Ace (the digit 1) to 9 in four suits."),
                N_(
                    "Four cards lie in a row on the table. Players on one side read them left to right, players on "
                    "the other side read them the other way round: 4 2 3 9 is 4239 from one side, 9324 from the other."
                ),
            ),
        ),
        Section(
            N_("A hand"),
            (
                N_(
                    "Arrange your four cards into a number. Your score is the gap between it and your table "
                    "number. Low is good."
                ),
                N_(
                    "Three or four of a kind: the first player to set one down scores 0; every other player holding "
                    "one adds 250 to their gap."
                ),
            ),
        ),
        Section(
            N_("End of the game"),
            (
                N_(
                    "The game ends after the hand in which someone reaches the target: 7,500 for 2 players, 7,000 "
                    "for 3–4, 6,500 for 5–6, 6,000 for 7–8."
                ),
                N_("Lowest total wins. Tied players play sudden death with three cards each until one is lowest."),
            ),
        ),
    ),
    options=(
        HouseRule(
            "target",
            N_("Target total"),
            N_("7,500 / 7,000 / 6,500 / 6,000 by players"),
            N_("any number from 1"),
            "OO-11",
        ),
        HouseRule(
            "score",
            N_("Which number is scored"),
            N_("the number set down"),
            N_("each player's best arrangement"),
            "OO-3",
            (("as-declared", N_("The number set down")), ("best", N_("Each player's best arrangement"))),
        ),
        HouseRule(
            "triple_penalty", N_("Penalty for a late three of a kind"), N_("250"), N_("any number from 0"), "OO-6"
        ),
        HouseRule(
            "triple_rule_in_sudden_death", N_("Three of a kind rule in sudden death"), N_("on"), N_("off"), "OO-15"
        ),
    ),
)
"""1111-9999 in the app's own words: the Rules page (and ``docs/rules/1111-9999.md``)."""

ENTRY = GameEntry(
    key=oo.GAME.key,
    state=OnesToNinesState,
    draft=TypeAdapter(_OnesToNinesDraft),
    guide=GUIDE,
)
"""1111-9999 in the companion: listed once in :data:`companion.games.ENTRIES`."""
