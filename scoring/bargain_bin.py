"""Bargain Bin (Kewlio): card points, the top two of each hand, Vegas money, conduct and cancellation.

The rules are in ``docs/spec/bargain-bin.md``; rule numbers (``rule 5.3``) and rulings (``BB-2``) are quoted
where they are implemented. A record is replayed hand by hand; every hand gives at most two game points (rule 5)
and the first player to reach ``target`` game points ends the game with the next-highest player (rule 7).

>>> result = GAME.score({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
...                      "hands": [{"scores": {"A": 12, "B": 12, "C": 4, "D": -8}}]})
>>> result.hands[0].points
{'A': 1, 'B': 1, 'C': 0, 'D': 0}
>>> result.hands[0].notes[0]
'A and B tie for the highest score (12): both get one game point (rule 5.2, BB-2)'
"""

from __future__ import annotations

import enum
import functools
import operator
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, NamedTuple

from pydantic import (
    BeforeValidator,
    Field,
    GetCoreSchemaHandler,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import core_schema

from scoring.base import (
    MAX_NAME,
    HandResult,
    Model,
    PlayerName,
    RecordBase,
    Refused,
    Result,
    check_no_duplicates,
    check_players,
    parse_record,
    said,
    sole_win,
    validation_error,
    zeros,
)
from scoring.cards import CARD_PATTERN, JOKER, Card, CardText, standard_deck
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from scoring.game import Game
from scoring.verdict import Decider, Verdict
from scoring.why import Cards, Items, Names, Note, render

RULING_PREFIX = "BB"
"""The prefix of Bargain Bin's ruling ids (``BB-3``) in ``shared/rules/bargain-bin.md``."""

KEY = "bargain-bin"
MIN_PLAYERS = 4
MAX_PLAYERS = 10
HAND_SIZE = 5
MAX_TARGET = 1000
"""The highest target a table can set (BB-5 house rule): at most two game points are given a hand, so a target of
1,000 is 500 hands or more, far beyond any game night (the default is 10)."""
MAX_VEGAS_UNIT_CENTS = 100_000
"""The highest Vegas unit (rule 8): $1,000 per card point. A real table plays for cents; the bound keeps the pot a
number people can read (the largest gap in one hand is about 320 card points)."""
"""Cards dealt to each player (rule 3)."""
JOKER_VALUE = 20
"""The Joker's value; its player chooses the sign (rule 2, BB-7)."""


# --------------------------------------------------------------------------------------------------------------
# Cards with the Joker's sign


class Sign(enum.Enum):
    """The sign the player of the Joker chose (BB-7)."""

    PLUS = "+"
    """The Joker counts +20."""
    MINUS = "-"
    """The Joker counts −20."""


_CARD_HINT = "write e.g. 10H, QS, AC, or JK+ / JK- for the Joker"


@dataclass(frozen=True, slots=True)
class BinCard:
    """A card as it lies in front of a player: an ordinary card, or the Joker with its sign (``JK+``/``JK-``).

    >>> BinCard.parse("jk-"), BinCard.parse("t♣")
    (BinCard('JK-'), BinCard('10C'))
    >>> BinCard.parse("JK")
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: the Joker needs the sign its player chose: write JK+ or JK-
    """

    card: Card
    sign: Sign | None = None
    text: str = field(default="", init=False, compare=False, repr=False)
    """Canonical text, ``QH`` or ``JK+`` (computed once: it keys the value table and the duplicate check)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", str(self.card) + (self.sign.value if self.sign is not None else ""))

    @staticmethod
    def parse(text: object) -> BinCard:
        """Parse forgiving card text; the Joker must carry a sign, other cards must not (BB-7)."""
        if isinstance(text, BinCard):
            return text
        if isinstance(text, Card):
            if text.is_joker:
                raise InvalidCardError("the Joker needs the sign its player chose: write JK+ or JK-")
            return BinCard(text)
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card ({_CARD_HINT})")
        return _parse_text(text)

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker

    @property
    def label(self) -> str:
        """Text for people: ``J♥``, ``Joker −20``."""
        if self.sign is None:
            return self.card.label
        return f"Joker {'+' if self.sign is Sign.PLUS else '−'}{JOKER_VALUE}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"BinCard({str(self)!r})"


@functools.lru_cache(maxsize=1024)
def _parse_text(text: str) -> BinCard:
    """Parse card text (cached: a long record repeats the same few dozen spellings)."""
    raw = text.strip().upper().replace("−", "-")
    sign: Sign | None = None
    if raw[-1:] in ("+", "-"):
        sign = Sign(raw[-1])
        raw = raw[:-1].strip()
    try:
        card = Card.parse(raw)
    except InvalidCardError:
        raise InvalidCardError(f"{text!r} is not a card ({_CARD_HINT})") from None
    if card.is_joker and sign is None:
        raise InvalidCardError("the Joker needs the sign its player chose: write JK+ or JK-")
    if not card.is_joker and sign is not None:
        raise InvalidCardError(f"{text!r} is not a card: only the Joker takes a sign ({_CARD_HINT})")
    return BinCard(card, sign)


def _to_bin_card(value: Any) -> BinCard:
    """The record field's parser: card text straight to the cached parser, anything else to :meth:`BinCard.parse`."""
    if type(value) is str:
        return _parse_text(value)
    return BinCard.parse(value)


BinCardField = Annotated[BinCard, CardText(_to_bin_card, CARD_PATTERN + "|^[Jj][Kk][+-]$")]
"""A Bargain Bin card inside a record model: parsed forgivingly, written canonically (``JK+`` for the Joker)."""


# --------------------------------------------------------------------------------------------------------------
# The record


class Action(enum.Enum):
    """What the table decided about a player's conduct (rule 9)."""

    WARN = "warn"
    """First offence: the player's unplayed cards of this hand are discarded (rule 9.1, BB-12)."""
    REMOVE = "remove"
    """Second offence: the player is out of the game from this hand on (rule 9.2, BB-13)."""


def _unique_trimmed_keys(value: Any) -> Any:
    """Refuse a map naming the same player twice once names are trimmed (``"Ann"`` and ``"Ann "``)."""
    if isinstance(value, dict):
        seen: set[str] = set()
        for key in value:
            if isinstance(key, str):
                name = key.strip()
                if name in seen:
                    raise InvalidRecordError(f"{name} is listed twice")
                seen.add(name)
    return value


def _json_kind(value: Any) -> str:
    """Name a raw value's JSON type for messages: ``text 'x'``, ``null``."""
    if value is None:
        return "null"
    kind = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return f"{kind.get(type(value), type(value).__name__)} {value!r:.40}"


def _shape(kind: type, what: str) -> BeforeValidator:
    """A check that raw data has the JSON shape ``kind`` (list or object), with a message saying what is expected."""
    noun = "a list" if kind is list else "an object"

    def check(value: Any) -> Any:
        if not isinstance(value, kind) and not (kind is list and isinstance(value, tuple)):
            raise InvalidRecordError(f"{what} must be {noun}, not {_json_kind(value)}")
        return value

    return BeforeValidator(check)


class _Part(Model):
    """A part of the record that must be a JSON object."""

    @model_validator(mode="before")
    @classmethod
    def _is_object(cls, data: Any) -> Any:
        if not isinstance(data, (dict, cls)):
            what = _PART_NAMES.get(cls.__name__, cls.__name__)
            raise InvalidRecordError(f"{what} must be an object, not {_json_kind(data)}")
        return data


_PART_NAMES = {"Options": "'options'", "Conduct": "each conduct entry", "Hand": "each hand"}


class Options(_Part):
    """The house rules of ``house-rules.md``; every key is optional."""

    king: Literal[12, 13] = 12
    """The King's value: 12 as printed, or 13 (BB-1)."""
    target: StrictInt = Field(default=10, ge=1, le=MAX_TARGET)
    """Game points that end the game (rule 6, BB-5): 1 to :data:`MAX_TARGET`."""
    selfless: StrictBool = False
    """Nobody may play a card in front of themselves (BB-7)."""
    joker: StrictBool = False
    """One Joker in the deck, ±20 as its player chooses (BB-7)."""
    vegas_unit_cents: StrictInt | None = Field(default=None, ge=1, le=MAX_VEGAS_UNIT_CENTS)
    """Vegas Rules: the unit price in cents, 1 to :data:`MAX_VEGAS_UNIT_CENTS`, or ``None`` for off (rule 8,
    BB-9…BB-11)."""

    @property
    def vegas(self) -> bool:
        return self.vegas_unit_cents is not None


class _Json:
    """The JSON shapes behind light values (their schemas keep the names the record format uses)."""

    class Play(Model):
        """One card as it was played: ``by`` puts ``card`` in front of ``to`` (rule 3)."""

        by: PlayerName
        to: PlayerName
        card: BinCardField


class Play(NamedTuple):
    """One card as it was played: ``by`` puts ``card`` in front of ``to`` (rule 3).

    A light tuple rather than a model: a long card-by-card session holds thousands of plays, and building a
    pydantic model for each was most of the time it took to re-derive a session. In a record it is validated
    (by pydantic, when :func:`_quick_plays` refuses a hand's plays) and written as the JSON object
    ``{"by", "to", "card"}``:

    >>> TypeAdapter(Play).validate_python({"by": " Ann", "to": "Ben", "card": "jk-"})
    Play(by='Ann', to='Ben', card=BinCard('JK-'))
    >>> TypeAdapter(Play).dump_python(Play("Ann", "Ben", BinCard.parse("qs")), mode="json")
    {'by': 'Ann', 'to': 'Ben', 'card': 'QS'}
    """

    by: str
    to: str
    card: BinCard

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        def build(value: Any, check: ValidatorFunctionWrapHandler) -> Play:
            if isinstance(value, Play):
                value = {"by": value.by, "to": value.to, "card": value.card}
            checked = check(value)
            return cls(checked.by, checked.to, checked.card)

        return core_schema.no_info_wrap_validator_function(
            build,
            handler.generate_schema(_Json.Play),
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda play: {"by": play.by, "to": play.to, "card": str(play.card)}
            ),
        )


def _not_a_play(value: Any) -> InvalidRecordError:
    return InvalidRecordError(f"each play must be an object, not {_json_kind(value)}")


def _plays_are_objects(value: Any) -> Any:
    """Put a :class:`~scoring.base.Refused` in place of every play that is not an object (one pass per hand)."""
    if set(map(type, value)) <= {dict}:  # the usual case, checked without a Python-level loop
        return value
    return [item if isinstance(item, (dict, Play)) else Refused(_not_a_play(item)) for item in value]


def _plain_name(value: Any) -> bool:
    """True for a name that pydantic's :data:`~scoring.base.PlayerName` would keep as it is (remembered: a table
    has few names)."""
    if value in _PLAIN_NAMES:
        return True
    if type(value) is str and 0 < len(value) <= MAX_NAME and value == value.strip():
        if len(_PLAIN_NAMES) >= 4096:
            _PLAIN_NAMES.clear()
        _PLAIN_NAMES.add(value)
        return True
    return False


_PLAIN_NAMES: set[str] = set()
_new_play = tuple.__new__  # Play(by, to, card) without the Python-level __new__ of a named tuple


def _quick_plays(value: Any, careful: ValidatorFunctionWrapHandler) -> Any:
    """Validate a hand's ``plays`` in one pass of plain Python when every play is a clean ``{"by", "to", "card"}``
    object with card text; anything else (a missing key, a name to trim, an unknown card) goes the ``careful`` way,
    through pydantic, which names the first problem and where it is.

    The quick pass accepts exactly what the careful one would and builds the same plays:

    >>> plays = [{"by": "Ann", "to": "Ben", "card": "q♠"}, {"by": "Ben", "to": "Ann", "card": "JK+"}]
    >>> _quick_plays(plays, None)
    (Play(by='Ann', to='Ben', card=BinCard('QS')), Play(by='Ben', to='Ann', card=BinCard('JK+')))
    """
    if type(value) is list:
        out: list[Play] = []
        append = out.append
        plain = _PLAIN_NAMES
        try:
            for item in value:
                if type(item) is not dict or len(item) != 3:
                    break
                by, to, text = item["by"], item["to"], item["card"]
                if (by in plain or _plain_name(by)) and (to in plain or _plain_name(to)) and type(text) is str:
                    append(_new_play(Play, (by, to, _parse_text(text))))
                else:
                    break
            else:
                return tuple(out)
        except (KeyError, TypeError, ScoringError):
            pass
    return careful(value)


class Conduct(_Part):
    """A warning or a removal decided by the table in this hand (rule 9)."""

    player: PlayerName
    action: Action


class Hand(_Part):
    """One hand: exactly one of ``cards``, ``plays`` or ``scores``, and optionally ``conduct`` (records.md)."""

    cards: (
        Annotated[
            dict[PlayerName, Annotated[tuple[BinCardField, ...], _shape(list, "each player's cards")]],
            _shape(dict, "'cards'"),
            BeforeValidator(_unique_trimmed_keys),
        ]
        | None
    ) = None
    """The cards lying in front of each player when the hand ends (players with none may be left out)."""
    plays: (
        Annotated[
            tuple[Play, ...],
            BeforeValidator(_plays_are_objects),
            _shape(list, "'plays'"),
            WrapValidator(_quick_plays),  # runs first: the careful validators above only if it refuses
        ]
        | None
    ) = None
    """Every card as it was played, in order."""
    scores: (
        Annotated[dict[PlayerName, StrictInt], _shape(dict, "'scores'"), BeforeValidator(_unique_trimmed_keys)] | None
    ) = None
    """Quick entry: each active player's card points."""
    conduct: Annotated[tuple[Conduct, ...], _shape(list, "'conduct'")] = ()

    @model_validator(mode="after")
    def _one_form(self) -> Hand:
        given = [name for name in ("cards", "plays", "scores") if getattr(self, name) is not None]
        if len(given) != 1:
            which = "none" if not given else " and ".join(f"'{name}'" for name in given)
            raise InvalidRecordError(f"a hand needs exactly one of 'cards', 'plays' or 'scores' (it has {which})")
        return self


class Record(RecordBase):
    """A Bargain Bin game record (records.md, "bargain-bin")."""

    game: Literal["bargain-bin"]
    options: Options = Field(default_factory=Options)
    hands: Annotated[tuple[Hand, ...], _shape(list, "'hands'")] = ()

    @field_validator("players")
    @classmethod
    def _player_count(cls, players: tuple[str, ...]) -> tuple[str, ...]:
        """Bargain Bin is for 4 to 10 players (rule 1)."""
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidRecordError(
                f"Bargain Bin is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            )
        return players


def parse(data: Any) -> Record:
    """Validate raw record data (raises :class:`~scoring.errors.ScoringError`). Bargain Bin is for 4 to 10 players
    (rule 1):

    >>> parse({"game": "bargain-bin", "players": ["A", "B", "C"]})
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidRecordError: Bargain Bin is played by 4 to 10 players, not 3
    """
    return data if isinstance(data, Record) else parse_record(Record, data)


# --------------------------------------------------------------------------------------------------------------
# Card values and table helpers


def _options(source: Record | Options | None) -> Options:
    if source is None:
        return Options()
    return source.options if isinstance(source, Record) else source


def card_value(card: BinCard | Card | str, options: Record | Options | None = None) -> int:
    """Card points of one card: black plus, red minus, A = 1, J = 11, Q = 12, K = 12 or 13, Joker ±20.

    Rule 2, BB-1 (King), BB-7 (the Joker's sign). Examples BB-E1 and BB-E7:

    >>> card_value("JH"), card_value("5C")
    (-11, 5)
    >>> card_value("KS"), card_value("KS", Options(king=13)), card_value("JK-", Options(joker=True))
    (12, 13, -20)
    >>> sum(card_value(c) for c in ["KS", "10C", "QD", "AH", "JK-"])
    -11
    """
    king = _options(options).king if options is not None else 12
    return _POINTS[BinCard.parse(card).text, king]


def _build_points() -> dict[tuple[str, int], int]:
    """Card points of every card text for K = 12 and K = 13 (rule 2, BB-1, BB-7)."""
    table: dict[tuple[str, int], int] = {}
    for king in (12, 13):
        for card in standard_deck():
            value = king if card.rank == "K" else card.rank_index
            table[str(card), king] = -value if card.suit is not None and card.suit.is_red else value
        table["JK+", king] = JOKER_VALUE
        table["JK-", king] = -JOKER_VALUE
    return table


_POINTS = _build_points()
_POINTS_BY_KING: dict[int, dict[str, int]] = {
    king: {text: value for (text, k), value in _POINTS.items() if k == king} for king in (12, 13)
}
"""The same table split by the King's value: card text → points (one lookup per card when scoring a hand)."""


def _removed_players(record: Record) -> list[str]:
    out = {c.player for hand in record.hands for c in hand.conduct if c.action is Action.REMOVE}
    return [name for name in record.players if name in out]


def verify_receive(record_or_options: Record | Options, by: str, to: str) -> None:
    """Raise unless ``by`` may put a card in front of ``to`` (Selfless, BB-7; removed players, BB-13).

    With a record, both must be seated and not removed; with options only, just *Selfless* is checked
    (example BB-E12):

    >>> verify_receive(Options(selfless=True), "A", "A")
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: A cannot play a card in front of themselves: Selfless is on (BB-7)
    >>> verify_receive(Options(selfless=True), "A", "B")
    """
    if isinstance(record_or_options, Record):
        record = record_or_options
        check_players([by, to], record.players, "plays")
        removed = _removed_players(record)
        for name in (by, to):
            if name in removed:
                raise IllegalHandError(f"{name} has been removed from the game (BB-13)")
    if _options(record_or_options).selfless and by == to:
        raise IllegalHandError(f"{by} cannot play a card in front of themselves: Selfless is on (BB-7)")


def can_receive(record_or_options: Record | Options, by: str, to: str) -> bool:
    """Whether ``by`` may put a card in front of ``to`` (see :func:`verify_receive`).

    >>> can_receive(Options(selfless=True), "A", "B"), can_receive(Options(selfless=True), "A", "A")
    (True, False)
    >>> can_receive(Options(), "A", "A")
    True
    """
    try:
        verify_receive(record_or_options, by, to)
    except ScoringError:
        return False
    return True


_PLAY = TypeAdapter(Play)


def _as_play(play: Play | Mapping[str, Any]) -> Play:
    if isinstance(play, Play):
        return play
    if not isinstance(play, dict):
        raise _not_a_play(play)
    try:
        return _PLAY.validate_python(play)
    except ValidationError as exc:
        raise validation_error(exc) from None


def hand_card_points(
    plays: Iterable[Play | Mapping[str, Any]],
    players: Iterable[str] = (),
    options: Record | Options | None = None,
) -> dict[str, int]:
    """Running card points of a hand from the plays so far (rule 4), for the live display.

    ``players`` (seating order) are listed first, with 0 if nothing lies in front of them:

    >>> hand_card_points([{"by": "A", "to": "B", "card": "JK+"}, {"by": "C", "to": "B", "card": "4H"}], "ABCD")
    {'A': 0, 'B': 16, 'C': 0, 'D': 0}
    """
    points = zeros(players)
    opts = _options(options)
    for raw in plays:
        play = _as_play(raw)
        points[play.to] = points.get(play.to, 0) + card_value(play.card, opts)
    return points


def _physical(card: BinCard | Card | str | Play) -> Card:
    if isinstance(card, Play):
        return card.card.card
    if isinstance(card, Card):
        return card
    if isinstance(card, str) and card.strip().upper() in ("JK", "JOKER"):
        return JOKER
    return BinCard.parse(card).card


def verify_play(card: BinCard | Card | str, played: Iterable[BinCard | Card | str | Play], options: Options) -> None:
    """Raise unless ``card`` can still be played in this hand: not played yet, and the Joker only with its rule.

    >>> verify_play("QH", ["QH", "2S"], Options())
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: Q♥ has already been played in this hand
    >>> verify_play("JK+", [], Options())
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: the Joker is not in this game: the Joker rule is off (rule 1)
    """
    physical = _physical(card)
    if physical.is_joker and not options.joker:
        raise InvalidCardError(Note.of("the Joker is not in this game: the Joker rule is off (rule 1)"))
    if physical in {_physical(c) for c in played}:
        raise DuplicateCardError(Note.of("{card} has already been played in this hand", card=Cards.of([physical])))


def can_play(card: BinCard | Card | str, played: Iterable[BinCard | Card | str | Play], options: Options) -> bool:
    """Whether ``card`` can still be played in this hand (see :func:`verify_play`).

    >>> can_play("QH", ["2S"], Options()), can_play("JK", [], Options(joker=True))
    (True, True)
    """
    try:
        verify_play(card, played, options)
    except ScoringError:
        return False
    return True


def legal_cards(played: Iterable[BinCard | Card | str | Play] = (), options: Options | None = None) -> list[Card]:
    """The cards that may still be played in this hand, deck order, the Joker last (only with its rule, BB-7).

    >>> len(legal_cards()), len(legal_cards(["QH", "2S"])), str(legal_cards([], Options(joker=True))[-1])
    (52, 50, 'JK')
    """
    opts = options or Options()
    used = {_physical(c) for c in played}
    return [card for card in standard_deck(1 if opts.joker else 0) if card not in used]


def cancel_threshold(players: int) -> int:
    """Removals that cancel the game: 2 in a game that started with 4 players, else 3 (rule 9.3, BB-14).

    >>> cancel_threshold(4), cancel_threshold(7)
    (2, 3)
    """
    return 2 if players == MIN_PLAYERS else 3


@dataclass(frozen=True, slots=True)
class RemovalConsequence:
    """What removing one more player would do (rule 9.3, BB-14)."""

    player: str
    cancels: bool
    """True: this removal cancels the game."""
    removed_so_far: int
    threshold: int
    text: str
    why: Note | None = None
    """``text`` as data, for the table's language."""


def removal_consequence(record: Record | Mapping[str, Any], player: str) -> RemovalConsequence:
    """Say whether removing ``player`` now cancels the game (rule 9.3, BB-14), for the confirm dialog.

    Example BB-E11: in a 4-player game where Ben is already removed, removing Dan cancels the game.

    >>> out = [{"player": "Ben", "action": "remove"}]
    >>> rec = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"],
    ...        "hands": [{"scores": {"Ann": 1, "Cat": 0, "Dan": 2}, "conduct": out}]}
    >>> removal_consequence(rec, "Dan").text
    'Removing Dan is removal 2 of 2 in a game that started with 4 players: the game is cancelled, nobody wins, \
and every payment is refunded (rule 9.3, BB-14).'
    >>> removal_consequence(rec, "Dan").cancels
    True
    """
    rec = parse(dict(record) if not isinstance(record, Record) else record)
    check_players([player], rec.players, "conduct")
    removed = _removed_players(rec)
    if player in removed:
        raise IllegalHandError(f"{player} has already been removed from the game (BB-13)", "conduct")
    threshold = cancel_threshold(len(rec.players))
    count = len(removed) + 1
    seats = len(rec.players)
    if count >= threshold:
        why = Note.of(
            "Removing {player} is removal {count} of {threshold} in a game that started with {seats} players: the "
            "game is cancelled, nobody wins, and every payment is refunded (rule 9.3, BB-14).",
            player=player,
            count=count,
            threshold=threshold,
            seats=seats,
        )
    else:
        left = threshold - count
        why = Note.of(
            "Removing {player} is removal {count} of {threshold} in a game that started with {seats} players: "
            "{player} is out of the ranking and cannot win; {left} more removal would cancel the game "
            "(rule 9.3, BB-13, BB-14)."
            if left == 1
            else "Removing {player} is removal {count} of {threshold} in a game that started with {seats} players: "
            "{player} is out of the ranking and cannot win; {left} more removals would cancel the game "
            "(rule 9.3, BB-13, BB-14).",
            player=player,
            count=count,
            threshold=threshold,
            seats=seats,
            left=left,
        )
    return RemovalConsequence(player, count >= threshold, len(removed), threshold, render(why), why)


def settle_up(net: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Who pays whom (payer, payee, cents) so that everyone ends at ``net``, in the fewest transfers.

    For tables that keep the pot in the app: ``net`` is the result's ``net`` (payouts − payments). Exact for up to
    12 players with a non-zero balance (the fewest transfers is the count minus the most zero-sum groups), greedy
    beyond.

    >>> settle_up({"Ann": 105, "Ben": -60, "Cat": -150, "Dan": 105})
    [('Cat', 'Ann', 105), ('Ben', 'Dan', 60), ('Cat', 'Dan', 45)]
    >>> settle_up({"A": 5, "B": -5, "C": 7, "D": -7})
    [('B', 'A', 5), ('D', 'C', 7)]
    """
    for name, cents in net.items():
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise InvalidRecordError(f"{name}'s balance must be a whole number of cents, not {cents!r}", name)
    total = sum(net.values())
    if total != 0:
        raise InvalidRecordError(f"the balances do not add up to zero (they add up to {total}¢)")
    names = [name for name, cents in net.items() if cents != 0]
    groups = _zero_sum_groups(names, net) if len(names) <= 12 else [names]
    transfers: list[tuple[str, str, int]] = []
    for group in groups:
        transfers.extend(_settle_group(group, net))
    return transfers


def _zero_sum_groups(names: list[str], net: Mapping[str, int]) -> list[list[str]]:
    """Split ``names`` into the most groups that each sum to zero (subset dynamic programming)."""
    n = len(names)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    last = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + net[names[low]]
        choice, score = -1, -1
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > score:
                choice, score = i, best[mask ^ (1 << i)]
        best[mask] = score + (1 if sums[mask] == 0 else 0)
        last[mask] = choice
    order: list[int] = []
    mask = full
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    order.reverse()
    groups: list[list[str]] = []
    current: list[int] = []
    mask = 0
    for i in order:
        current.append(i)
        mask |= 1 << i
        if sums[mask] == 0:
            groups.append([names[j] for j in sorted(current)])
            current = []
    return sorted(groups, key=lambda group: names.index(group[0]))


def _settle_group(group: list[str], net: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor until the group is even: at most ``len(group) - 1`` transfers."""
    balance = {name: net[name] for name in group}
    out: list[tuple[str, str, int]] = []
    while True:
        owing = [name for name in group if balance[name] < 0]
        owed = [name for name in group if balance[name] > 0]
        if not owing or not owed:
            return out
        payer = min(owing, key=lambda name: (balance[name], group.index(name)))
        payee = max(owed, key=lambda name: (balance[name], -group.index(name)))
        cents = min(-balance[payer], balance[payee])
        out.append((payer, payee, cents))
        balance[payer] += cents
        balance[payee] -= cents


# --------------------------------------------------------------------------------------------------------------
# Validation of one hand


def _max_abs_score(options: Options) -> int:
    """The most card points one player can have in a hand: every black card, and the Joker."""
    black = 2 * (sum(range(1, 13)) + options.king)
    return black + (JOKER_VALUE if options.joker else 0)


def _check_cards(items: list[tuple[BinCard, str]], options: Options, number: int) -> None:
    """No card twice, at most one Joker, the Joker only with its rule (rule 1, records.md "Validation")."""
    for card, path in items:
        if card.is_joker and not options.joker:
            raise InvalidCardError(f"the Joker was played in hand {number}, but the Joker rule is off (rule 1)", path)
    if len({card.text.rstrip("+-") for card, _ in items}) < len(items):  # fast path; the check names the card
        check_no_duplicates(((card.card, path) for card, path in items), f"in hand {number}")


def _check_seated(name: str, players: Iterable[str], path: str) -> None:
    """Like :func:`~scoring.base.check_players` for one name, with ``path`` pointing at the name itself."""
    if name not in players:
        raise UnknownPlayerError(f"{name} is not a player in this game", path)


def _check_not_removed(name: str, removed: list[str], number: int, path: str, what: str) -> None:
    if name in removed:
        raise IllegalHandError(f"{name} was removed from the game before hand {number} and {what} (BB-13)", path)


def _cards_surely_valid(
    cards: Mapping[str, tuple[BinCard, ...]], players: tuple[str, ...], removed: list[str], options: Options
) -> bool:
    """The quick check of a ``cards`` hand: True when :func:`_validate_hand` would find nothing wrong with it.

    False means "look closer": the full check then finds the first problem and says where it is.
    """
    seen: set[str] = set()
    count = 0
    for name, held in cards.items():
        if name not in players or (held and name in removed):
            return False
        for card in held:
            if card.card.suit is None:
                if not options.joker:
                    return False
                seen.add("JK")
            else:
                seen.add(card.text)
        count += len(held)
    active = sum(1 for name in players if name not in removed)
    return len(seen) == count and count <= HAND_SIZE * active


def _plays_surely_valid(plays: tuple[Play, ...], active: list[str], short_allowed: set[str], options: Options) -> bool:
    """The quick check of a ``plays`` hand: True when :func:`_validate_hand` would find nothing wrong with it.

    A few passes over the plays without building paths or messages (a long session has thousands of plays); False
    means "look closer": the full check then finds the first problem and says where it is.
    """
    givers, receivers, cards = zip(*plays, strict=True) if plays else ((), (), ())
    seated = set(active)
    if not seated.issuperset(givers) or not seated.issuperset(receivers):
        return False
    if options.selfless and any(map(operator.eq, givers, receivers)):
        return False
    texts = {card.text for card in cards}
    jokers = _JOKER_TEXTS.intersection(texts)
    if len(texts) < len(plays) or (jokers and (len(jokers) > 1 or not options.joker)):
        return False
    counts = Counter(givers)
    return all(counts[name] == HAND_SIZE or (counts[name] < HAND_SIZE and name in short_allowed) for name in active)


_JOKER_TEXTS = frozenset({"JK", "JK+", "JK-"})
"""Every canonical text the Joker can have on a :class:`BinCard` (``JK`` only if built without a sign)."""


def _validate_hand(hand: Hand, index: int, players: tuple[str, ...], removed: list[str], options: Options) -> None:
    """Everything records.md asks of one hand, given the players removed before it."""
    number = index + 1
    at = f"hands[{index}]"
    active = [name for name in players if name not in removed]
    seen_removal: set[str] = set()
    warned_now: set[str] = set()
    for j, entry in enumerate(hand.conduct):
        path = f"{at}.conduct[{j}].player"
        _check_seated(entry.player, players, path)
        _check_not_removed(entry.player, removed, number, path, "cannot be warned or removed again")
        if entry.action is Action.REMOVE:
            if entry.player in seen_removal:
                raise IllegalHandError(f"{entry.player} is removed twice in hand {number}", path)
            seen_removal.add(entry.player)
        else:
            warned_now.add(entry.player)
    short_allowed = warned_now | seen_removal
    if hand.cards is not None:
        if _cards_surely_valid(hand.cards, players, removed, options):
            return
        items: list[tuple[BinCard, str]] = []
        for name, cards in hand.cards.items():
            check_players([name], players, f"{at}.cards")
            if cards:  # an empty list for a removed player says nothing wrong (BB-13)
                _check_not_removed(name, removed, number, f"{at}.cards.{name}", "cannot have cards in front of them")
            items.extend((card, f"{at}.cards.{name}[{k}]") for k, card in enumerate(cards))
        _check_cards(items, options, number)
        limit = HAND_SIZE * len(active)
        if len(items) > limit:
            raise IllegalHandError(
                f"hand {number} has {len(items)} cards, but its {len(active)} players were dealt only {limit}",
                f"{at}.cards",
            )
    elif hand.plays is not None:
        if _plays_surely_valid(hand.plays, active, short_allowed, options):
            return
        counts = dict.fromkeys(active, 0)
        items = []
        for k, play in enumerate(hand.plays):
            path = f"{at}.plays[{k}]"
            for role in ("by", "to"):
                name = getattr(play, role)
                _check_seated(name, players, f"{path}.{role}")
                what = "cannot play a card" if role == "by" else "cannot receive a card"
                _check_not_removed(name, removed, number, f"{path}.{role}", what)
            if options.selfless and play.by == play.to:
                raise IllegalHandError(
                    f"{play.by} played {play.card.label} in front of themselves in hand {number}, "
                    "but Selfless is on (BB-7)",
                    f"{path}.to",
                )
            counts[play.by] += 1
            if counts[play.by] > HAND_SIZE:
                raise IllegalHandError(
                    f"{play.by} played more than {HAND_SIZE} cards in hand {number} (rule 3)", f"{path}.by"
                )
            items.append((play.card, f"{path}.card"))
        _check_cards(items, options, number)
        for name in active:
            if counts[name] < HAND_SIZE and name not in short_allowed:
                raise IllegalHandError(
                    f"{name} played {counts[name]} of {HAND_SIZE} cards in hand {number}; everyone plays all "
                    f"{HAND_SIZE} unless warned or removed in that hand (rule 3, BB-12)",
                    f"{at}.plays",
                )
    elif hand.scores is not None:
        bound = _max_abs_score(options)
        for name, value in hand.scores.items():
            check_players([name], players, f"{at}.scores")
            _check_not_removed(name, removed, number, f"{at}.scores.{name}", "has no score")
            if abs(value) > bound:
                raise InvalidRecordError(
                    f"{name}'s score {value} in hand {number} is beyond what the cards allow (±{bound})",
                    f"{at}.scores.{name}",
                )
        for name in active:
            if name not in hand.scores and name not in seen_removal:
                raise InvalidRecordError(f"{name}'s score is missing in hand {number}", f"{at}.scores")


# --------------------------------------------------------------------------------------------------------------
# Results


class BargainBinHandResult(HandResult):
    """One Bargain Bin hand: game points (0/1, rule 5), every player's card points, and under Vegas the cents each
    paid into the bin (rule 8, BB-9)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX
    OMIT_NONE: ClassVar[frozenset[str]] = frozenset({"payments"})

    card_points: dict[str, int]
    """Each player's card points (rule 4); 0 with no cards."""
    payments: dict[str, int] | None = None
    """Vegas only: cents each player paid after this hand (rule 8, BB-9, BB-13); left out without Vegas."""


class BargainBinResult(Result):
    """A Bargain Bin game: ``totals`` are game points; ``removed``/``warned`` the conduct so far (rule 9); under
    Vegas Rules also the money (rule 8, BB-10, BB-11; all in cents, left out without Vegas)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX
    OMIT_NONE: ClassVar[frozenset[str]] = frozenset({"payments", "pot", "payouts", "net"})

    hands: list[BargainBinHandResult] = Field(default_factory=list)  # type: ignore[assignment]
    removed: list[str] = Field(default_factory=list)
    """Players removed so far, in seating order (rule 9.2, BB-13)."""
    warned: list[str] = Field(default_factory=list)
    """Players warned so far, in seating order (rule 9.1, BB-12)."""
    payments: dict[str, int] | None = None
    """Vegas: the total each player paid in."""
    pot: int | None = None
    """Vegas: everything paid in so far."""
    payouts: dict[str, int] | None = None
    """Vegas: what each player takes from the bin at the end (all 0 until then; refunds when cancelled)."""
    net: dict[str, int] | None = None
    """Vegas: payouts − payments."""


# --------------------------------------------------------------------------------------------------------------
# Scoring


def _card_points(hand: Hand, players: tuple[str, ...], options: Options) -> tuple[dict[str, int], list[Note]]:
    """Each player's card points (rule 4) and notes on the Joker."""
    points = zeros(players)
    notes: list[Note] = []
    if hand.scores is not None:
        points.update(hand.scores)
        return points, notes
    table = _POINTS_BY_KING[options.king]
    if hand.cards is not None:
        for name, cards in hand.cards.items():
            points[name] = sum(table[card.text] for card in cards)
            notes.extend(
                Note.of(
                    "The Joker in front of {name} counts {value:+d}, as its player chose (BB-7)",
                    name=name,
                    value=table[card.text],
                )
                for card in cards
                if card.card.suit is None
            )
    elif hand.plays is not None:
        for by, to, card in hand.plays:
            value = table[card.text]
            points[to] += value
            if card.card.suit is None:
                notes.append(
                    Note.of("{by} played the Joker in front of {to} as {value:+d} (BB-7)", by=by, to=to, value=value)
                )
    values = Items.of(Note.of("{name} {points}", name=name, points=value) for name, value in points.items())
    notes.insert(
        0,
        Note.of(
            "Card points: {values} (black cards count plus, red cards minus, K = {king}; rule 2, rule 4, BB-1)",
            values=values,
            king=options.king,
        ),
    )
    return points, notes


def rank_hand(card_points: Mapping[str, int], ranked: Iterable[str]) -> tuple[dict[str, int], str]:
    """Game points of one hand among the ranked players, and the sentence that explains them (rule 5).

    Examples BB-E3 to BB-E6:

    >>> rank_hand({"A": 15, "B": 9, "C": 9, "D": -3, "E": 0}, "ABCDE")[0]
    {'A': 1, 'B': 0, 'C': 0, 'D': 0, 'E': 0}
    >>> rank_hand({"A": 7, "B": 7, "C": 7, "D": 2}, "ABCD")[1]
    'A, B and C tie for the highest score (7): nobody gets a game point (rule 5.1)'
    >>> rank_hand({"A": -3, "B": -5, "C": -11, "D": -20}, "ABCD")
    ({'A': 1, 'B': 1, 'C': 0, 'D': 0}, 'A -3 and B -5 are the top two: one game point each (rule 5.3; \
scores below zero still rank, BB-4)')
    """
    points, note = _rank_hand(card_points, ranked)
    return points, render(note)


def _rank_hand(card_points: Mapping[str, int], ranked: Iterable[str]) -> tuple[dict[str, int], Note]:
    names = list(ranked)
    points = dict.fromkeys(card_points, 0)
    if not names:
        return points, Note.of("Nobody is ranked in this hand: no game points (BB-13)")
    top = max(card_points[name] for name in names)
    firsts = [name for name in names if card_points[name] == top]
    bb4 = (
        Note.of("; scores below zero still rank, BB-4") if top < 0 else (Note.of("; BB-4") if top == 0 else Note.of(""))
    )
    if len(firsts) >= 3:
        return (
            points,
            Note.of(
                "{names} tie for the highest score ({top}): nobody gets a game point (rule 5.1{bb4})",
                names=Names.of(firsts),
                top=top,
                bb4=bb4,
            ),
        )
    if len(firsts) == 2:
        for name in firsts:
            points[name] = 1
        return (
            points,
            Note.of(
                "{names} tie for the highest score ({top}): both get one game point (rule 5.2, BB-2)",
                names=Names.of(firsts),
                top=top,
            ),
        )
    first = firsts[0]
    points[first] = 1
    rest = [name for name in names if name != first]
    if not rest:
        return points, Note.of("{first} is the only ranked player: one game point (rule 5)", first=first)
    second = max(card_points[name] for name in rest)
    seconds = [name for name in rest if card_points[name] == second]
    if len(seconds) == 1:
        points[seconds[0]] = 1
        return points, Note.of(
            "{first} {top} and {other} {second} are the top two: one game point each (rule 5.3{bb4})",
            first=first,
            top=top,
            other=seconds[0],
            second=second,
            bb4=bb4,
        )
    return points, Note.of(
        "{first} has the highest score ({top}); {names} tie for second ({second}): only {first} gets a game point "
        "(rule 5.4, BB-3)",
        first=first,
        top=top,
        names=Names.of(seconds),
        second=second,
    )


def _points(count: int) -> Note:
    if count == 1:
        return Note.of("{count} game point", count=count)
    return Note.of("{count} game points", count=count)


def winners_of(totals: Mapping[str, int], eligible: Iterable[str], target: int) -> tuple[list[str], str]:
    """The winners once someone has reached ``target`` (rule 7, BB-6, BB-13), in seating order, and why.

    ``eligible`` are the players not removed, in seating order. Examples BB-E8 and BB-E9:

    >>> winners_of({"A": 10, "B": 8, "C": 8, "D": 6}, "ABCD", 10)[0]
    ['A']
    >>> winners_of({"A": 10, "B": 9, "C": 8, "D": 6}, "ABCD", 10)[0]
    ['A', 'B']
    >>> winners_of({"A": 10, "B": 10, "C": 7, "D": 5}, "ABCD", 10)
    (['A', 'B'], 'A and B reach 10 game points in the same hand: both win (rule 7, BB-6)')
    """
    winners, note = _winners_of(totals, eligible, target)
    return winners, render(note) if note else ""


def _winners_of(totals: Mapping[str, int], eligible: Iterable[str], target: int) -> tuple[list[str], Note | None]:
    names = list(eligible)
    reached = [name for name in names if totals[name] >= target]
    if not reached:
        return [], None
    if len(reached) >= 2:
        # Rule 7: nobody had reached the target before this hand and at most two gain a point per hand.
        assert len(reached) == 2, "three players cannot reach the target in the same hand (rule 7)"
        return reached, Note.of(
            "{names} reach {points} in the same hand: both win (rule 7, BB-6)",
            names=Names.of(reached),
            points=_points(target),
        )
    first = reached[0]
    rest = [name for name in names if name != first]
    head = Note.of(
        "{first} reaches {points}: the game is over (rule 6, BB-5)", first=first, points=_points(totals[first])
    )
    if not rest:
        return [first], Note.of("{head}; {first} wins alone", head=head, first=first)
    second = max(totals[name] for name in rest)
    seconds = [name for name in rest if totals[name] == second]
    removed_note = Note.of("" if len(names) == len(totals) else "; removed players are not counted, BB-13")
    if len(seconds) == 1:
        winners = [name for name in names if name in (first, seconds[0])]
        return winners, Note.of(
            "{head}; {other} has the next-highest total ({second}): {names} win (rule 7{removed})",
            head=head,
            other=seconds[0],
            second=second,
            names=Names.of(winners),
            removed=removed_note,
        )
    return [first], Note.of(
        "{head}; {names} share the next-highest total ({second}): only {first} wins (rule 7{removed})",
        head=head,
        names=Names.of(seconds),
        second=second,
        first=first,
        removed=removed_note,
    )


# long: the ending rules 6–7 and BB-13 case by case, each case's verdict with its notes beside it
def verdict_of(
    totals: Mapping[str, int], eligible: Iterable[str], target: int, removed: Iterable[str] = ()
) -> Verdict | None:
    """Why the game was decided once someone has reached ``target`` (rule 7, BB-6, BB-13), or ``None`` before.

    ``eligible`` are the players not removed, in seating order; ``removed`` the players removed (BB-13: they
    cannot win and are not "the next highest"). Examples BB-E9 and BB-E8:

    >>> verdict = verdict_of({"Ivy": 10, "Hal": 7, "Gus": 4, "Fay": 2}, ["Fay", "Gus", "Hal", "Ivy"], 10)
    >>> verdict.decider, verdict.headline
    (<Decider.NEXT_HIGHEST: 'next-highest'>, 'Hal and Ivy win: Ivy reached the target of 10 game points and Hal has \
the next-highest total, 7.')
    >>> print(verdict.reasons["Hal"])
    Hal wins as the next-highest, 7 game points, after Ivy reached the target of 10 (rule 7).
    >>> verdict_of({"A": 10, "B": 8, "C": 8, "D": 6}, "ABCD", 10).reasons
    {'A': 'A wins alone by reaching the target, 10 game points: B and C share the next-highest total, 8, so \
neither wins (rule 7).'}
    >>> verdict_of({"A": 10, "B": 10, "C": 7, "D": 5}, "ABCD", 10).decider
    <Decider.BOTH_REACHED: 'both-reached'>
    """
    names = list(eligible)
    reached = [name for name in names if totals[name] >= target]
    if not reached:
        return None
    out = list(removed)
    bb13 = ["BB-13"] if out else []
    and_bb13 = Note.of(", BB-13" if out else "")
    if len(reached) >= 2:
        a, b = reached[:2]
        return Verdict.of(
            Decider.BOTH_REACHED,
            ["BB-R7", "BB-6"],
            Note.of(
                "{a} and {b} win: both reached the target of {points} in the same hand.",
                a=a,
                b=b,
                points=_points(target),
            ),
            {
                name: Note.of(
                    "{name} wins with {points}, reaching the target in the same hand as {other} (rule 7, BB-6).",
                    name=name,
                    points=_points(totals[name]),
                    other=b if name == a else a,
                )
                for name in reached
            },
        )
    first = reached[0]
    rest = [name for name in names if name != first]
    if not rest:
        return sole_win(
            Decider.TARGET_ALONE,
            ["BB-R6", "BB-R7", "BB-13"],
            first,
            Note.of("{first} wins alone: nobody else is left in the game.", first=first),
            "{first} wins alone by reaching the target, {points}: every other player was removed (rule 7, BB-13).",
            first=first,
            points=_points(totals[first]),
        )
    second = max(totals[name] for name in rest)
    seconds = [name for name in rest if totals[name] == second]
    if len(seconds) == 1:
        other = seconds[0]
        winners = [name for name in names if name in (first, other)]
        return Verdict.of(
            Decider.NEXT_HIGHEST,
            ["BB-R6", "BB-R7", *bb13],
            Note.of(
                "{names} win: {first} reached the target of {points} and {other} has the next-highest total, {second}.",
                names=Names.of(winners),
                first=first,
                points=_points(target),
                other=other,
                second=second,
            ),
            {
                name: (
                    Note.of(
                        "{first} wins by reaching the target, {points} (rule 6, rule 7).",
                        first=first,
                        points=_points(totals[first]),
                    )
                    if name == first
                    else Note.of(
                        "{other} wins as the next-highest, {points}, after {first} reached the target of {target} "
                        "(rule 7{bb13}).",
                        other=other,
                        points=_points(second),
                        first=first,
                        target=target,
                        bb13=and_bb13,
                    )
                )
                for name in winners
            },
        )
    return sole_win(
        Decider.TARGET_ALONE,
        ["BB-R6", "BB-R7", *bb13],
        first,
        Note.of(
            "{first} wins alone: {names} share the next-highest total, {second}.",
            first=first,
            names=Names.of(seconds),
            second=second,
        ),
        (
            "{first} wins alone by reaching the target, {points}: {names} share the next-highest total, {second}, so "
            "neither wins (rule 7{bb13})."
        )
        if len(seconds) == 2
        else (
            "{first} wins alone by reaching the target, {points}: {names} share the next-highest total, {second}, so "
            "none of them wins (rule 7{bb13})."
        ),
        first=first,
        points=_points(totals[first]),
        names=Names.of(seconds),
        second=second,
        bb13=and_bb13,
    )


def cancelled_verdict(removed: list[str], players: int, vegas: bool) -> Verdict:
    """The verdict of a cancelled game (rule 9.3, BB-14). BB-E11:

    >>> cancelled_verdict(["B", "D"], 4, True).headline
    'The game is cancelled: B and D have been removed, 2 removals in a game of 4 players; nobody wins and \
every payment is refunded.'
    """
    return Verdict.of(
        Decider.CANCELLED,
        ["BB-R9.3", "BB-14"],
        Note.of(
            (
                "The game is cancelled: {names} have been removed, {count} removals in a game of {players} players; "
                "nobody wins and every payment is refunded."
            )
            if vegas
            else (
                "The game is cancelled: {names} have been removed, {count} removals in a game of {players} players; "
                "nobody wins."
            ),
            names=Names.of(removed),
            count=len(removed),
            players=players,
        ),
    )


def vegas_payments(card_points: Mapping[str, int], ranked: Iterable[str], unit: int) -> tuple[dict[str, int], str]:
    """What each player pays into the bin after a hand, in cents, and why (rule 8, BB-9, BB-13).

    Every ranked player pays (highest score − own score) × unit, on every hand; the top scorer pays nothing, and so
    does a player removed in this hand (not ranked). Example BB-E2 (highest 10, own −5, unit 10¢):

    >>> vegas_payments({"A": 10, "B": -5, "C": 3, "D": 0}, "ABCD", 10)[0]
    {'A': 0, 'B': 150, 'C': 70, 'D': 100}
    >>> vegas_payments({"A": 10, "B": -5}, "B", 10)[0]
    {'A': 0, 'B': 0}
    """
    payments, note = _vegas_payments(card_points, ranked, unit)
    return payments, render(note) if note else ""


def _vegas_payments(
    card_points: Mapping[str, int], ranked: Iterable[str], unit: int
) -> tuple[dict[str, int], Note | None]:
    payments = dict.fromkeys(card_points, 0)
    names = list(ranked)
    if not names:
        return payments, None
    top = max(card_points[name] for name in names)
    for name in names:
        payments[name] = (top - card_points[name]) * unit
    payers = [Note.of("{name} {cents}¢", name=name, cents=payments[name]) for name in names if payments[name]]
    tops = [name for name in names if payments[name] == 0]
    return payments, Note.of(
        "Vegas: each ranked player pays (highest {top} − own score) × {unit}¢{payers}; {names} {pay}",
        top=top,
        unit=unit,
        payers=Note.of(": {payers}", payers=Items.of(payers)) if payers else Note.of(""),
        names=Names.of(tops),
        pay=Note.of("pays nothing as top scorer (rule 8, BB-9)")
        if len(tops) == 1
        else Note.of("pay nothing as top scorer (rule 8, BB-9)"),
    )


def split_pot(pot: int, winners: list[str], totals: Mapping[str, int]) -> tuple[dict[str, int], str]:
    """The pot's payout among the winners (rule 8, BB-10, BB-11).

    One winner takes it all; two take half each, and an odd cent goes to the one with more game points, or to the
    one seated first when equal:

    >>> split_pot(210, ["A", "D"], {"A": 1, "D": 1})[0]
    {'A': 105, 'D': 105}
    >>> payout, why = split_pot(211, ["A", "D"], {"A": 10, "D": 11})
    >>> payout
    {'A': 105, 'D': 106}
    >>> why
    'Vegas: A and D split the pot of 211¢ (A 105¢, D 106¢); the odd cent goes to D, who has more game points (BB-10)'
    """
    out, note = _split_pot(pot, winners, totals)
    return out, render(note)


def _split_pot(pot: int, winners: list[str], totals: Mapping[str, int]) -> tuple[dict[str, int], Note]:
    if len(winners) == 1:
        return {winners[0]: pot}, Note.of(
            "Vegas: {name} takes the whole pot of {pot}¢ (BB-11)", name=winners[0], pot=pot
        )
    half, odd = divmod(pot, 2)
    out = dict.fromkeys(winners, half)
    note = Note.of(
        "Vegas: {names} split the pot of {pot}¢: {half}¢ each (BB-10)", names=Names.of(winners), pot=pot, half=half
    )
    if odd:
        a, b = winners
        lucky = a if totals[a] >= totals[b] else b
        why = (
            Note.of("who has more game points")
            if totals[a] != totals[b]
            else Note.of("seated first, as game points are equal")
        )
        out[lucky] += 1
        note = Note.of(
            "Vegas: {a} and {b} split the pot of {pot}¢ ({a} {cents_a}¢, {b} {cents_b}¢); the odd cent goes to "
            "{lucky}, {why} (BB-10)",
            a=a,
            b=b,
            pot=pot,
            cents_a=out[a],
            cents_b=out[b],
            lucky=lucky,
            why=why,
        )
    return out, note


class _Tally:
    """What a replay has worked out after some hands: totals, money, conduct, the end. One hand at a time is
    added by :meth:`step` (rules 5-9); :meth:`result` reads it out. Mutable, and private to one replay: a
    :class:`Replay` copies it before adding a hand."""

    __slots__ = ("cancelled", "finished", "hands", "paid", "removed", "totals", "warned", "winners")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.totals = zeros(players)
        self.paid = zeros(players)
        self.removed: list[str] = []
        self.warned: list[str] = []
        self.hands: list[BargainBinHandResult] = []
        self.finished = False
        self.cancelled = False
        self.winners: list[str] = []

    def copy(self) -> _Tally:
        other = _Tally.__new__(_Tally)
        other.totals, other.paid = dict(self.totals), dict(self.paid)
        other.removed, other.warned, other.hands = list(self.removed), list(self.warned), list(self.hands)
        other.finished, other.cancelled, other.winners = self.finished, self.cancelled, list(self.winners)
        return other

    def step(self, hand: Hand, index: int, players: tuple[str, ...], options: Options) -> None:
        """Replay hand ``index`` (0-based); raises :class:`~scoring.ScoringError` (the tally is then unusable)."""
        number = index + 1
        unit = options.vegas_unit_cents
        totals, paid = self.totals, self.paid
        removed = self.removed
        if self.finished:
            over = "cancelled" if self.cancelled else "over"
            raise IllegalHandError(f"hand {number} was entered after the game was {over}", f"hands[{index}]")
        _validate_hand(hand, index, players, removed, options)
        removed_now = [c.player for c in hand.conduct if c.action is Action.REMOVE]
        warned_now = [c.player for c in hand.conduct if c.action is Action.WARN]
        card_points, notes = _card_points(hand, players, options)
        for name in dict.fromkeys(warned_now):
            notes.append(
                Note.of(
                    "{name} is warned: their unplayed cards of this hand are discarded; they are still ranked and "
                    "still pay (rule 9.1, BB-12)"
                    if unit
                    else "{name} is warned: their unplayed cards of this hand are discarded; they are still ranked "
                    "(rule 9.1, BB-12)",
                    name=name,
                )
            )
        for name in removed_now:
            notes.append(
                Note.of(
                    "{name} is removed from the game: out of this hand's ranking, pays nothing and cannot win; their "
                    "game points stay (rule 9.2, BB-13)"
                    if unit
                    else "{name} is removed from the game: out of this hand's ranking and cannot win; their game "
                    "points stay (rule 9.2, BB-13)",
                    name=name,
                )
            )
        ranked = [name for name in players if name not in removed and name not in removed_now]
        points, why = _rank_hand(card_points, ranked)
        notes.append(why)
        extra: dict[str, Any] = {"card_points": card_points}
        if unit is not None:
            payments, why_pay = _vegas_payments(card_points, ranked, unit)
            for name in players:
                paid[name] += payments[name]
            if why_pay:
                notes.append(why_pay)
            extra["payments"] = payments
        for name in players:
            totals[name] += points[name]
        for name in warned_now:
            if name not in self.warned:
                self.warned.append(name)
        removed = self.removed = [name for name in players if name in removed or name in removed_now]
        if removed_now and len(removed) >= cancel_threshold(len(players)):
            self.finished = self.cancelled = True
            notes.append(
                Note.of(
                    "{names} have been removed: {count} removals in a game that started with {players} players "
                    "cancel the game; nobody wins (rule 9.3, BB-14)",
                    names=Names.of(removed),
                    count=len(removed),
                    players=len(players),
                )
            )
            if unit is not None:
                notes.append(Note.of("Vegas: everyone gets back exactly what they paid in (rule 9.3, BB-14)"))
        else:
            eligible = [name for name in players if name not in removed]
            winners, why_end = _winners_of(totals, eligible, options.target)
            self.winners = winners
            if winners and why_end is not None:
                self.finished = True
                notes.append(why_end)
                if unit is not None:
                    _, pot_note = _split_pot(sum(paid.values()), winners, totals)
                    notes.append(pot_note)
        # built from values this module computed: no need to validate them again (the hot path of a long game)
        self.hands.append(BargainBinHandResult.model_construct(points=points, **said(notes), **extra))

    def result(self, players: tuple[str, ...], options: Options) -> BargainBinResult:
        unit = options.vegas_unit_cents
        removed, paid, totals, winners = self.removed, self.paid, self.totals, self.winners
        extras: dict[str, Any] = {"removed": list(removed), "warned": [name for name in players if name in self.warned]}
        if unit is not None:
            pot = sum(paid.values())
            payouts = zeros(players)
            if self.cancelled:
                payouts = dict(paid)
            elif self.finished:
                payouts.update(split_pot(pot, winners, totals)[0])
            extras |= {
                "payments": dict(paid),
                "pot": pot,
                "payouts": payouts,
                "net": {name: payouts[name] - paid[name] for name in players},
            }
        verdict: Verdict | None = None
        if self.cancelled:
            verdict = cancelled_verdict(removed, len(players), unit is not None)
        elif self.finished:
            eligible = [name for name in players if name not in removed]
            verdict = verdict_of(totals, eligible, options.target, removed)
        return BargainBinResult(
            verdict=verdict,
            game=KEY,
            players=list(players),
            hands=list(self.hands),
            totals=dict(totals),
            finished=self.finished,
            winners=[] if self.cancelled else list(winners),
            pending=None,
            cancelled=self.cancelled,
            **extras,
        )


def score(record: Record) -> BargainBinResult:
    """Replay a Bargain Bin record: game points per hand, totals, winners, Vegas money, removals.

    Example BB-E10 with target 1 (two winners split the pot):

    >>> rec = parse({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
    ...              "options": {"vegas_unit_cents": 10, "target": 1},
    ...              "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]})
    >>> result = score(rec)
    >>> result.winners, result.pot, result.payouts, result.net  # type: ignore[attr-defined]
    (['A', 'D'], 210, {'A': 105, 'B': 0, 'C': 0, 'D': 105}, {'A': 105, 'B': -60, 'C': -150, 'D': 105})
    """
    return Replay.of(record).result


_HAND = TypeAdapter(Hand)


@dataclass(frozen=True, slots=True, eq=False)
class Replay:
    """A Bargain Bin record replayed so far. :meth:`add` replays one more hand on top of it, so a long game's next
    hand costs what its first one did; what it gives is what :func:`score` gives for the whole record (a hand it
    refuses raises exactly what :func:`score` would). Each hand is checked and scored in ``_Tally.step``: the end of
    the game (rule 6) and the removals of rule 9.1–9.3 (BB-12, BB-13, BB-14) included.

    Example BB-E10 with target 1, entered hand by hand; the game ends on its first hand (rule 6), so a second
    hand is refused:

    >>> replay = Replay.of(parse({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
    ...                           "options": {"vegas_unit_cents": 10, "target": 1}}))
    >>> replay.result.finished
    False
    >>> after = replay.add({"scores": {"A": 10, "B": 4, "C": -5, "D": 10}})
    >>> after.result.winners, after.result.pot  # type: ignore[attr-defined]
    (['A', 'D'], 210)
    >>> after.result == score(after.record)
    True
    >>> after.add({"scores": {"A": 1, "B": 2, "C": 3, "D": 4}})
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: hand 2 was entered after the game was over
    """

    record: Record
    """The record replayed (validated)."""
    result: BargainBinResult
    """What :func:`score` gives for :attr:`record`."""
    _tally: _Tally

    @classmethod
    def of(cls, record: Record) -> Replay:
        """Replay ``record`` whole (raises :class:`~scoring.ScoringError` as :func:`score` does)."""
        record = parse(record)
        tally = _Tally(record.players)
        for index, hand in enumerate(record.hands):
            tally.step(hand, index, record.players, record.options)
        return cls(record, tally.result(record.players, record.options), tally)

    def add(self, hand: Any) -> Replay:
        """The replay with ``hand`` (raw record data, or a :class:`Hand`) added after the last hand; ``self`` is
        unchanged. Raises :class:`~scoring.ScoringError` naming the problem as :func:`score` of the whole record
        would."""
        record = self.record
        index = len(record.hands)
        try:
            parsed = hand if isinstance(hand, Hand) else _HAND.validate_python(hand)
            tally = self._tally.copy()
            tally.step(parsed, index, record.players, record.options)
        except (ScoringError, ValidationError):
            # Said as the whole record's replay says it (the path of the error, the wording): replayed whole once.
            whole = record.model_dump(mode="json", exclude_defaults=True)
            whole["hands"] = [*whole.get("hands", []), hand]
            score(parse(whole))
            raise  # pragma: no cover - the whole replay refuses what the step refused
        grown = record.model_copy(update={"hands": (*record.hands, parsed)})
        return Replay(grown, tally.result(record.players, record.options), tally)


GAME = Game(
    key=KEY,
    name="Bargain Bin",
    ruling_prefix=RULING_PREFIX,
    hand_word="hand",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    record_model=Record,
    scorer=score,
    replayer=Replay.of,
)
"""Bargain Bin in the registry."""

__all__ = [
    "GAME",
    "Action",
    "BargainBinHandResult",
    "BargainBinResult",
    "BinCard",
    "Conduct",
    "Hand",
    "Options",
    "Play",
    "Record",
    "RemovalConsequence",
    "Replay",
    "Sign",
    "can_play",
    "can_receive",
    "cancel_threshold",
    "cancelled_verdict",
    "card_value",
    "hand_card_points",
    "legal_cards",
    "parse",
    "rank_hand",
    "removal_consequence",
    "score",
    "settle_up",
    "split_pot",
    "vegas_payments",
    "verdict_of",
    "verify_play",
    "verify_receive",
    "winners_of",
]
