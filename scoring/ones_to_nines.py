"""1111-9999 (Aaron Barnhart): get your four cards as close as possible to the table number; lowest total wins.

Rules and rulings: ``docs/spec/1111-9999.md`` (rules 1-9, rulings OO-1 … OO-16); record format:
``shared/spec/records.md``. A hand records the table row as read from side A and the number each player set down;
scores are always derived by replaying the record.

>>> result = GAME.score({
...     "game": "1111-9999", "players": ["Ann", "Ben"], "sides": {"Ann": "A", "Ben": "B"},
...     "hands": [{"table": "4239", "numbers": {"Ann": "5278", "Ben": "8631"}}],
... })
>>> result.totals, result.finished
({'Ann': 1039, 'Ben': 693}, False)
>>> result.hands[0].notes[1]
'Ann (side A, target 4239) set down 5278: 5278 − 4239 = 1039 (rule 4).'
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Annotated, Any, ClassVar, Literal, TypedDict, Unpack, cast

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, WithJsonSchema

from scoring.base import (
    HandResult,
    Model,
    PartProgress,
    Pending,
    PlayerName,
    RecordBase,
    Result,
    accepts,
    check_players,
    join_names,
    said,
)
from scoring.errors import IllegalHandError, InvalidRecordError, ScoringError, UnknownPlayerError
from scoring.game import Game
from scoring.verdict import Decider, Verdict
from scoring.why import Items, Names, Note

RULING_PREFIX = "OO"
"""The prefix of 1111-9999's ruling ids (``OO-3``) in ``shared/rules/1111-9999.md``."""

__all__ = [
    "DIGITS",
    "GAME",
    "Best",
    "FalseTripleError",
    "Hand",
    "NotANumberError",
    "Options",
    "Record",
    "ScoreMode",
    "Side",
    "SuddenDeathHand",
    "TooManyOfADigitError",
    "available_digits",
    "best_arrangement",
    "can_declare_triple",
    "can_number",
    "default_target",
    "distance",
    "has_triple",
    "normalize_number",
    "score",
    "target_for",
    "target_of",
    "verdict_of",
    "verify_declare_triple",
    "verify_number",
]

DIGITS = "123456789"
"""The digits of the 36-card deck (rule 1): an Ace is 1, tens and court cards are removed."""

COPIES = 4
"""Each digit is in the deck four times (one per suit, rule 1)."""

HAND_LENGTH = 4
"""Digits in a table row and in a number (rule 3)."""

SUDDEN_DEATH_LENGTH = 3
"""Digits in a sudden-death table row and number (rule 9)."""

_WORDS = {3: "three", 4: "four"}


# --------------------------------------------------------------------------------------------------- errors


class NotANumberError(InvalidRecordError):
    """Text that is not a table row or number of the right length in digits 1-9."""


class TooManyOfADigitError(IllegalHandError):
    """A hand that uses some digit more than four times across the table and all numbers (rule 1)."""


class FalseTripleError(IllegalHandError):
    """``first_triple`` names a player whose number holds no three of a kind (records.md; OO-10)."""


# --------------------------------------------------------------------------------------------------- values


class Side(enum.Enum):
    """The side of the row of table cards a player sits on (rule 2, OO-1)."""

    A = "A"
    """Reads the table row as laid out (the row is entered as side A reads it)."""
    B = "B"
    """Reads the table row reversed."""


class ScoreMode(enum.Enum):
    """Which arrangement of a player's cards is scored (OO-3)."""

    AS_DECLARED = "as-declared"
    """The number the player set down (default)."""
    BEST = "best"
    """House rule: the best arrangement of the player's digits, whatever they set down."""


def _digit_name(digit: str) -> str:
    return "1s (Aces)" if digit == "1" else f"{digit}s"


def _length_word(length: int) -> str:
    return {3: "three", 4: "four"}.get(length, str(length))


def normalize_number(text: object, length: int = HAND_LENGTH, *, complete: bool = True) -> str:
    """Check and tidy a table row or number: ``length`` digits 1-9 (spaces are ignored).

    With ``complete=False`` a shorter prefix is accepted (a digit pad while typing).

    >>> normalize_number(" 4 239 ")
    '4239'
    >>> normalize_number("4209")
    Traceback (most recent call last):
    ...
    scoring.ones_to_nines.NotANumberError: '4209' is not four digits 1-9 (an Ace is 1)
    >>> normalize_number("62", 3, complete=False)
    '62'
    """
    if not isinstance(text, str):
        if isinstance(text, int) and not isinstance(text, bool) and len(str(text)) == length:
            raise NotANumberError(f'{text} must be written as text, in quotes: "{text}"')
        raise NotANumberError(f"{_short_repr(text)} is not a number: write {_length_word(length)} digits 1-9")
    digits = "".join(text.split())
    good = all(ch in DIGITS for ch in digits) and (len(digits) == length or (not complete and len(digits) < length))
    if not good:
        raise NotANumberError(f"{_short_repr(text)} is not {_length_word(length)} digits 1-9 (an Ace is 1)")
    return digits


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _four(value: object) -> str:
    return normalize_number(value, HAND_LENGTH)


def _three(value: object) -> str:
    return normalize_number(value, SUDDEN_DEATH_LENGTH)


FourDigits = Annotated[
    str, BeforeValidator(_four), WithJsonSchema({"type": "string", "pattern": "^\\s*([1-9]\\s*){4}$"})
]
"""A table row or number of an ordinary hand: four digits 1-9."""

ThreeDigits = Annotated[
    str, BeforeValidator(_three), WithJsonSchema({"type": "string", "pattern": "^\\s*([1-9]\\s*){3}$"})
]
"""A table row or number of a sudden-death hand: three digits 1-9."""


# --------------------------------------------------------------------------------------------------- record


MAX_TARGET = 1_000_000
"""The highest target a table can set (rule 7, OO-11 house rule): the defaults are 6,000 to 7,500; a million is
hundreds of hands of even the worst scores, and keeps every total a number people can read."""
MAX_TRIPLE_PENALTY = 10_000
"""The largest three-of-a-kind penalty (OO-6 house rule): more than any hand's distance (the default is 250)."""


class Options(Model):
    """House rules of 1111-9999 (house-rules.md)."""

    target: StrictInt | None = Field(default=None, ge=1, le=MAX_TARGET)
    """The total that ends the game (rule 7, OO-11), 1 to :data:`MAX_TARGET`; ``None``: by the number of players
    (:func:`default_target`)."""
    score: ScoreMode = ScoreMode.AS_DECLARED
    """Score the number as declared or each player's best arrangement (OO-3)."""
    triple_penalty: StrictInt = Field(default=250, ge=0, le=MAX_TRIPLE_PENALTY)
    """Added for every holder of three of a kind who was not first to set it down (rule 5.2, OO-6): 0 to
    :data:`MAX_TRIPLE_PENALTY`."""
    triple_rule_in_sudden_death: StrictBool = True
    """Whether the three-of-a-kind rule applies in sudden death (OO-15)."""


class Hand(Model):
    """One ordinary hand: the table row as side A reads it, each player's number, the first triple declarer."""

    table: FourDigits
    numbers: dict[PlayerName, FourDigits]
    """The number each player set down; the first triple declarer may be left out."""
    first_triple: PlayerName | None = None
    """The first player to set down three or four of a kind after the table cards were turned (rule 5.1)."""


class SuddenDeathHand(Model):
    """One sudden-death hand (rule 9): three table cards, three-digit numbers, only the tied players."""

    table: ThreeDigits
    numbers: dict[PlayerName, ThreeDigits]
    first_triple: PlayerName | None = None


class Record(RecordBase):
    """A whole game of 1111-9999."""

    game: Literal["1111-9999"]
    sides: dict[PlayerName, Side]
    """Every player's side of the table (OO-1)."""
    options: Options = Options()
    hands: tuple[Hand, ...] = ()
    sudden_death: tuple[SuddenDeathHand, ...] = ()


# --------------------------------------------------------------------------------------------------- table helpers


def default_target(players: int) -> int:
    """The total that ends the game for this many players (rule 7, OO-E4).

    >>> [default_target(n) for n in (2, 3, 4, 5, 6, 7, 8)]
    [7500, 7000, 7000, 6500, 6500, 6000, 6000]
    """
    if players <= 2:
        return 7500
    if players <= 4:
        return 7000
    if players <= 6:
        return 6500
    return 6000


def target_of(options: Options, players: int) -> int:
    """The target in force: the ``target`` option, or the default for the number of players (OO-11).

    >>> target_of(Options(), 3), target_of(Options(target=500), 3)
    (7000, 500)
    """
    return options.target if options.target is not None else default_target(players)


def target_for(table: str, side: Side | str) -> str:
    """The table number as a player on ``side`` reads it: side B reads the row reversed (rule 2, OO-1, OO-2).

    >>> target_for("4239", "A"), target_for("4239", Side.B)
    ('4239', '9324')
    >>> target_for("518", "B")
    '815'
    """
    return table if Side(side) is Side.A else table[::-1]


def distance(number: str, target: str) -> int:
    """The hand score: the bigger number minus the smaller (rule 4, OO-4).

    >>> distance("5278", "4239"), distance("8631", "9324")
    (1039, 693)
    """
    return abs(int(number) - int(target))


def best_arrangement(digits: str, target: str) -> tuple[str, int]:
    """The arrangement of ``digits`` closest to ``target`` and its distance; the smaller number on equal distance.

    OO-E2, OO-E3 and OO-E8:

    >>> best_arrangement("5872", "4239")
    ('5278', 1039)
    >>> best_arrangement("3861", "9324")
    ('8631', 693)
    >>> best_arrangement("2875", "4239")
    ('5278', 1039)
    >>> best_arrangement("46", "55")
    ('46', 9)
    """
    return _best("".join(sorted(digits)), target)


@lru_cache(maxsize=4096)
def _best(digits: str, target: str) -> tuple[str, int]:
    return min(
        ((number, distance(number, target)) for number in {"".join(p) for p in permutations(digits)}),
        key=lambda pair: (pair[1], pair[0]),
    )


def has_triple(number: str) -> bool:
    """Whether the digits hold three or four of a kind (rule 5; a four of a kind counts, OO-9).

    >>> has_triple("7772"), has_triple("3333"), has_triple("5278"), has_triple("555")
    (True, True, False, True)
    """
    return any(count >= 3 for count in Counter(number).values())


def _triple_words(number: str) -> Note:
    digit, count = Counter(number).most_common(1)[0]
    if digit == "1":
        return Note.of("four 1s (Aces)" if count == 4 else "three 1s (Aces)")
    return Note.of("four {digit}s" if count == 4 else "three {digit}s", digit=digit)


def available_digits(table: str = "", numbers: Iterable[str] = ()) -> dict[str, int]:
    """How many of each digit are still in the deck, given the table row and the numbers entered so far (rule 1).

    >>> available_digits("4239", ["5278"])
    {'1': 4, '2': 2, '3': 3, '4': 3, '5': 3, '6': 4, '7': 3, '8': 3, '9': 3}
    """
    used = Counter("".join([table, *numbers]))
    return {digit: COPIES - used[digit] for digit in DIGITS}


def verify_number(
    number: object,
    table: str = "",
    others: Iterable[str] = (),
    *,
    length: int = HAND_LENGTH,
    complete: bool = True,
) -> None:
    """Raise if ``number`` cannot be set down beside ``table`` and the ``others`` already entered in this hand.

    :class:`NotANumberError` for a wrong shape, :class:`TooManyOfADigitError` when a digit would be used more than
    four times (rule 1). With ``complete=False`` a prefix (a digit pad while typing) is checked.

    >>> verify_number("3333", "4239")
    Traceback (most recent call last):
    ...
    scoring.ones_to_nines.TooManyOfADigitError: there are only four 3s in the deck, but this hand would use 5
    >>> verify_number("527", "4239")
    Traceback (most recent call last):
    ...
    scoring.ones_to_nines.NotANumberError: '527' is not four digits 1-9 (an Ace is 1)
    """
    digits = normalize_number(number, length, complete=complete)
    left = available_digits(table, others)
    for digit, count in Counter(digits).items():
        if count > left[digit]:
            used = COPIES - left[digit] + count
            raise TooManyOfADigitError(
                f"there are only four {_digit_name(digit)} in the deck, but this hand would use {used}"
            )


class NumberShape(TypedDict, total=False):
    """What :func:`verify_number` and :func:`can_number` take by keyword: the number's ``length`` and whether it
    must be ``complete``."""

    length: int
    complete: bool


def can_number(number: object, table: str = "", others: Iterable[str] = (), **shape: Unpack[NumberShape]) -> bool:
    """Whether :func:`verify_number` accepts ``number``; a digit pad greys out digit ``d`` when
    ``can_number(typed + d, ..., complete=False)`` is false.

    >>> can_number("5278", "4239", ["8631"]), can_number("3333", "4239")
    (True, False)
    >>> [d for d in DIGITS if can_number("333" + d, "4239", complete=False)]
    ['1', '2', '4', '5', '6', '7', '8', '9']
    """
    return accepts(verify_number, number, table, others, **shape)


def verify_declare_triple(number: str) -> None:
    """Raise :class:`FalseTripleError` unless ``number`` holds three or four of a kind (rule 5, OO-10).

    >>> verify_declare_triple("7772")
    >>> verify_declare_triple("5278")
    Traceback (most recent call last):
    ...
    scoring.ones_to_nines.FalseTripleError: 5278 holds no three of a kind
    """
    if not has_triple(number):
        raise FalseTripleError(f"{number} holds no three of a kind")


def can_declare_triple(number: str) -> bool:
    """Whether a player with ``number`` may be recorded as the first to set down three of a kind (rule 5).

    >>> can_declare_triple("9333"), can_declare_triple("8631")
    (True, False)
    """
    return has_triple(number)


# --------------------------------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Best:
    """The best arrangement of a player's digits and its plain distance (no triple adjustment)."""

    number: str
    score: int

    def to_json(self) -> dict[str, Any]:
        """``best[player]`` of the result (records.md). OO-E2: 5872 against 4239 is best as 5278, 1039 away.

        >>> Best(*best_arrangement("5872", "4239")).to_json()
        {'number': '5278', 'score': 1039}
        """
        return {"number": self.number, "score": self.score}


@dataclass(frozen=True, slots=True)
class _Scored:
    points: dict[str, int]
    best: dict[str, Best | None]
    targets: dict[str, str]
    notes: list[Note]


def _side_note(table: str, sides: Mapping[str, Side], names: Sequence[str]) -> Note:
    present = {sides[name] for name in names}
    if present == {Side.A}:
        return Note.of("The row reads {table} from side A, where everyone sits (OO-1).", table=table)
    if present == {Side.B}:
        return Note.of(
            "The row {table} reads {reversed} from side B, where everyone sits (OO-1).",
            table=table,
            reversed=table[::-1],
        )
    return Note.of(
        "The row reads {table} from side A and {reversed} from side B (OO-1).", table=table, reversed=table[::-1]
    )


# long: the hand's rules in their order (OO-1 to OO-4, the three-of-a-kind house rule), each decision with its note
def _score_hand(
    table: str,
    numbers: Mapping[str, str],
    first_triple: str | None,
    names: Sequence[str],
    sides: Mapping[str, Side],
    options: Options,
    triple_rule: bool,
) -> _Scored:
    """Score one validated hand for ``names`` (rules 4-5, OO-3, OO-5, OO-6, OO-9, OO-15)."""
    points: dict[str, int] = {}
    best: dict[str, Best | None] = {}
    targets: dict[str, str] = {}
    notes = [_side_note(table, sides, names)]
    declarer = first_triple if triple_rule else None
    holders = [name for name in names if name in numbers and has_triple(numbers[name])]
    for name in names:
        side = sides[name]
        target = target_for(table, side)
        targets[name] = target
        number = numbers.get(name)
        if number is None:
            # Only the first triple declarer may be left out (validated).
            best[name] = None
            points[name] = 0
            notes.append(
                Note.of(
                    "{name} set down three or four of a kind first (cards not entered): 0 for the hand "
                    "(rule 5.1, OO-5).",
                    name=name,
                )
            )
            continue
        best_number, best_score = best_arrangement(number, target)
        best[name] = Best(best_number, best_score)
        declared = distance(number, target)
        if name == declarer:
            points[name] = 0
            notes.append(
                Note.of(
                    "{name} set down {triple} first: 0 for the hand (rule 5.1, OO-5, OO-9).",
                    name=name,
                    triple=_triple_words(number),
                )
            )
            continue
        lead = Note.of("{name} (side {side}, target {target})", name=name, side=side.value, target=target)
        if options.score is ScoreMode.BEST:
            base = best_score
            if best_number == number:
                notes.append(
                    Note.of(
                        "{lead} set down {number}, the best arrangement: {sum} (rule 4, OO-3).",
                        lead=lead,
                        number=number,
                        sum=_sum(number, target),
                    )
                )
            else:
                notes.append(
                    Note.of(
                        "{lead} set down {number} ({declared}), but the best arrangement {best} is scored: {sum} "
                        "(house rule, OO-3).",
                        lead=lead,
                        number=number,
                        declared=declared,
                        best=best_number,
                        sum=_sum(best_number, target),
                    )
                )
        else:
            base = declared
            text = Note.of(
                "{lead} set down {number}: {sum} (rule 4).", lead=lead, number=number, sum=_sum(number, target)
            )
            if best_score < declared:
                text = Note.of(
                    "{lead} set down {number}: {sum}, scored as declared; {best} would have scored {score} (OO-3).",
                    lead=lead,
                    number=number,
                    sum=_sum(number, target),
                    best=best_number,
                    score=best_score,
                )
            notes.append(text)
        if name in holders:
            if not triple_rule:
                notes.append(
                    Note.of(
                        "{name} holds {triple}, but the three-of-a-kind rule is off in sudden death: scored normally "
                        "(house rule, OO-15).",
                        name=name,
                        triple=_triple_words(number),
                    )
                )
            elif declarer is None:
                notes.append(
                    Note.of(
                        "{name} holds {triple}, but nobody set down three of a kind first: no 0 and no penalty this "
                        "hand (OO-6).",
                        name=name,
                        triple=_triple_words(number),
                    )
                )
            else:
                penalty = options.triple_penalty
                notes.append(
                    Note.of(
                        "{name} holds {triple} but {declarer} set theirs down first: {base} + {penalty} = {total} "
                        "(rule 5.2, OO-6, OO-9).",
                        name=name,
                        triple=_triple_words(number),
                        declarer=declarer,
                        base=base,
                        penalty=penalty,
                        total=base + penalty,
                    )
                )
                base += penalty
        points[name] = base
    return _Scored(points, best, targets, notes)


def _and(phrases: list[Note]) -> Note:
    """Phrases joined as names are: ``a``, ``a and b``, ``a, b and c``."""
    if len(phrases) == 1:
        return phrases[0]
    return Note.of("{first} and {last}", first=Items.of(phrases[:-1]), last=phrases[-1])


def _sum(number: str, target: str) -> str:
    high, low = max(number, target, key=int), min(number, target, key=int)
    return f"{high} − {low} = {distance(number, target)}"


# --------------------------------------------------------------------------------------------------- validation


def _check_hand(
    hand: Hand | SuddenDeathHand,
    path: str,
    label: str,
    names: Sequence[str],
    all_players: Sequence[str],
) -> None:
    """Semantic checks of one hand (records.md "Validation"): names, missing numbers, digit counts, first triple."""
    check_players(hand.numbers, all_players, f"{path}.numbers")
    allowed = set(names)
    for name in hand.numbers:
        if name not in allowed:
            raise IllegalHandError(
                f"{name} does not play {label}: only {join_names(names)} play it", f"{path}.numbers.{name}"
            )
    if hand.first_triple is not None:
        if hand.first_triple not in all_players:
            raise UnknownPlayerError(f"{hand.first_triple} is not a player in this game", f"{path}.first_triple")
        if hand.first_triple not in allowed:
            raise IllegalHandError(
                f"{hand.first_triple} does not play {label}: only {join_names(names)} play it", f"{path}.first_triple"
            )
    for name in names:
        if name not in hand.numbers and name != hand.first_triple:
            raise InvalidRecordError(f"{name}'s number is missing in {label}", f"{path}.numbers")
    used: Counter[str] = Counter()
    entries = [("table", hand.table, f"{path}.table")] + [
        (name, hand.numbers[name], f"{path}.numbers.{name}") for name in names if name in hand.numbers
    ]
    totals = Counter("".join(text for _, text, _ in entries))
    for _, text, where_ in entries:
        used.update(text)
        for digit in DIGITS:
            if used[digit] > COPIES:
                parts = ", ".join(f"{who} {text.count(digit)}" for who, text, _ in entries if digit in text)
                raise TooManyOfADigitError(
                    f"there are only four {_digit_name(digit)} in the deck, but {label} uses {totals[digit]} ({parts})",
                    where_,
                )
    left_out = hand.first_triple is not None and hand.first_triple not in hand.numbers
    if left_out and all(totals[digit] > COPIES - 3 for digit in DIGITS):
        raise FalseTripleError(
            f"{hand.first_triple} is recorded as first to set down three of a kind in {label}, but the other "
            "cards leave no digit with three copies for them (OO-10: record the first genuine one)",
            f"{path}.first_triple",
        )
    if hand.first_triple is not None and hand.first_triple in hand.numbers:
        number = hand.numbers[hand.first_triple]
        if not has_triple(number):
            raise FalseTripleError(
                f"{hand.first_triple} is recorded as first to set down three of a kind in {label}, "
                f"but {number} holds none (OO-10: record the first genuine one)",
                f"{path}.first_triple",
            )


def _check_seating(record: Record) -> None:
    count = len(record.players)
    if not 2 <= count <= 8:
        raise InvalidRecordError(f"1111-9999 is for 2 to 8 players (rule 1), this game has {count}", "players")
    for name in record.sides:
        if name not in record.players:
            raise UnknownPlayerError(f"{name} is not a player in this game", f"sides.{name}")
    for name in record.players:
        if name not in record.sides:
            raise InvalidRecordError(f"{name}'s side (A or B) is missing (OO-1)", "sides")


def _lowest(totals: Mapping[str, int], names: Sequence[str]) -> list[str]:
    low = min(totals[name] for name in names)
    return [name for name in names if totals[name] == low]


class OnesToNinesHandResult(HandResult):
    """One 1111-9999 hand (or sudden-death hand): each player's score (rule 4, rule 5), their table number
    (OO-1) and the best number their cards allowed (OO-3)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX
    OMIT_NONE: ClassVar[frozenset[str]] = frozenset({"totals"})

    best: dict[str, dict[str, str | int] | None]
    """``{"number", "score"}``: the plain distance of the best arrangement; ``null`` for a first declarer whose
    number was left out."""
    targets: dict[str, str]
    """Each player's table number, read from their side (OO-1)."""
    totals: dict[str, int] | None = None
    """Main-game hands only: the running totals after this hand."""


class OnesToNinesResult(Result):
    """A 1111-9999 game: running totals (lowest wins, rule 8), the target (rule 7, OO-11) and sudden death
    (rule 9, OO-13, OO-14: not added to the totals)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX
    HAND_LISTS: ClassVar[tuple[str, ...]] = ("hands", "sudden_death_hands")

    hands: list[OnesToNinesHandResult] = Field(default_factory=list)  # type: ignore[assignment]
    target: int
    sudden_death: list[dict[str, int]] = Field(default_factory=list)
    """Points per sudden-death hand."""
    sudden_death_hands: list[OnesToNinesHandResult] = Field(default_factory=list)

    def part_progress(self) -> dict[str, PartProgress]:
        """Each sudden-death player's score in the last sudden-death hand they played (``"sudden death 74"``);
        those who lasted more hands rank first, then the lower score (rule 9, OO-13). OO-E10:

        >>> result = OnesToNinesResult.model_construct(sudden_death=[{"B": 111, "C": 74}], pending=None)
        >>> progress = result.part_progress()
        >>> {name: (part.text, part.rank) for name, part in progress.items()}
        {'B': ('sudden death 111', (-1, 111)), 'C': ('sudden death 74', (-1, 74))}
        """
        tied = list(self.sudden_death[0]) if self.sudden_death else list(self.pending.players if self.pending else [])
        out: dict[str, PartProgress] = {}
        for name in tied:
            played = [points[name] for points in self.sudden_death if name in points]
            if played:
                out[name] = PartProgress(
                    Note.of("sudden death {points}", points=played[-1]), (-len(played), played[-1])
                )
            else:
                out[name] = PartProgress(Note.of("in sudden death"), (0, 0))
        return out


def verdict_of(totals: Mapping[str, int], target: int, sudden: Sequence[Mapping[str, int]] = ()) -> Verdict | None:
    """Why the game was decided, or ``None`` before: the lowest total once a total reached the target (rule 7,
    rule 8, OO-11), or sudden death among those tied for the lowest (rule 9, OO-13, OO-14). OO-E9 and OO-E10:

    >>> print(verdict_of({"A": 7050, "B": 4200, "C": 5100}, 7000).reasons["B"])
    B wins with the lowest total, 4200, after A reached the target of 7000; next lowest is C with 5100 (rule 7, \
rule 8).
    >>> verdict = verdict_of({"A": 7010, "B": 4200, "C": 4200}, 7000, [{"B": 111, "C": 74}])
    >>> verdict.decider, verdict.headline
    (<Decider.SUDDEN_DEATH: 'sudden-death'>, 'C wins sudden death, 74 against 111, after tying for the lowest total.')
    """
    reached = [name for name, total in totals.items() if total >= target]
    if not reached:
        return None
    low = min(totals.values())
    tied = [name for name, total in totals.items() if total == low]
    by = Names.of(reached)
    if len(tied) == 1:
        (winner,) = tied
        runner = min(total for name, total in totals.items() if name != winner)
        nexts = Names.of(name for name, total in totals.items() if name != winner and total == runner)
        return Verdict.of(
            Decider.LOWEST_TOTAL,
            ["OO-R7", "OO-R8", "OO-11"],
            Note.of(
                "{winner} wins with the lowest total, {low}: in 1111-9999 the lowest total wins.",
                winner=winner,
                low=low,
            ),
            {
                winner: Note.of(
                    "{winner} wins with the lowest total, {low}, after {reached} reached the target of {target}; "
                    "next lowest is {nexts} with {runner} (rule 7, rule 8).",
                    winner=winner,
                    low=low,
                    reached=by,
                    target=target,
                    nexts=nexts,
                    runner=runner,
                )
            },
        )
    alive = list(tied)
    for number, points in enumerate(sudden, start=1):
        best = min(points[name] for name in alive)
        lowest = [name for name in alive if points[name] == best]
        if len(lowest) == 1:
            (winner,) = lowest
            beaten = Names.of(str(points[name]) for name in alive if name != winner)
            hands = (
                Note.of("sudden-death hand {number}", number=number) if number > 1 else Note.of("the sudden-death hand")
            )
            return Verdict.of(
                Decider.SUDDEN_DEATH,
                ["OO-R9", "OO-13", "OO-14"],
                Note.of(
                    "{winner} wins sudden death, {best} against {beaten}, after tying for the lowest total.",
                    winner=winner,
                    best=best,
                    beaten=beaten,
                ),
                {
                    winner: Note.of(
                        "{winner} wins sudden death: tied with {others} on the lowest total, {low}, {winner} scored "
                        "the lowest in {hands}, {best} against {beaten} (rule 9, OO-13).",
                        winner=winner,
                        others=Names.of(n for n in tied if n != winner),
                        low=low,
                        hands=hands,
                        best=best,
                        beaten=beaten,
                    )
                },
            )
        alive = lowest
    return None


def score(record: Record) -> OnesToNinesResult:
    """Replay a validated record: hand scores, running totals, game end, sudden death (rules 4-9).

    Each hand is checked before it is scored (records.md "Validation"; a false ``first_triple`` is an error, OO-10);
    the game ends after the hand in which a total reaches the target (rule 7, OO-11, OO-12); a tie for the lowest
    total is settled by sudden-death hands among those still tied, not added to the totals (rule 9, OO-13, OO-14).
    An invalid record raises a :class:`~scoring.errors.ScoringError` and is never scored partially.

    OO-E9: the game ends when a total reaches the target; the lowest total wins.

    >>> hand = {"table": "4239", "numbers": {"Ann": "7764", "Ben": "6339", "Cat": "1689"}}
    >>> result = GAME.score({"game": "1111-9999", "players": ["Ann", "Ben", "Cat"],
    ...     "sides": {"Ann": "A", "Ben": "A", "Cat": "A"}, "hands": [hand, hand]})
    >>> result.totals, result.finished, result.winners
    ({'Ann': 7050, 'Ben': 4200, 'Cat': 5100}, True, ['Ben'])
    >>> for note in result.hands[1].notes[-2:]:
    ...     print(note)
    Ann reached 7050, at or over the target 7000: the game is over (rule 7, OO-11, OO-12).
    Ben has the lowest total, 4200, and wins (rule 8).
    """
    _check_seating(record)
    players = list(record.players)
    options = record.options
    target = target_of(options, len(players))
    totals = dict.fromkeys(players, 0)
    hands: list[OnesToNinesHandResult] = []
    ended = ""
    for i in range(len(record.hands)):
        if ended:
            raise IllegalHandError(f"hand {i + 1} was entered after the game was over ({ended})", f"hands[{i}]")
        result, ended = _rule7_8_hand(record, i, target, totals)
        hands.append(result)
    over = bool(ended)
    tied = _lowest(totals, players) if over else []
    winners: list[str] = tied if len(tied) == 1 else []
    sudden: list[dict[str, int]] = []
    sudden_hands: list[OnesToNinesHandResult] = []
    for j in range(len(record.sudden_death)):
        path, label = f"sudden_death[{j}]", f"sudden-death hand {j + 1}"
        if not over:
            raise IllegalHandError(f"{label} was entered, but the game is not over yet (rule 9)", path)
        if winners:
            raise IllegalHandError(f"{label} was entered, but {winners[0]} has already won (rule 9, OO-13)", path)
        points, tied, result = _rule9_sudden_death_hand(record, j, tied)
        if len(tied) == 1:
            winners = tied
        sudden.append(points)
        sudden_hands.append(result)
    pending = Pending(kind="sudden-death", players=tied) if over and not winners else None
    return OnesToNinesResult(
        verdict=verdict_of(totals, target, sudden) if winners else None,
        game=record.game,
        players=players,
        hands=hands,
        totals=totals,
        finished=bool(winners),
        winners=winners,
        pending=pending,
        target=target,
        sudden_death=sudden,
        sudden_death_hands=sudden_hands,
    )


def _rule7_8_hand(record: Record, i: int, target: int, totals: dict[str, int]) -> tuple[OnesToNinesHandResult, str]:
    """Hand ``i`` of the main game, scored (rules 4-6) and added to ``totals``; rule 7 (OO-11, OO-12): a total at or
    over the target ends the game after this hand, and rule 8 names the lowest total. Returns the hand's result
    and, when the game ended with it, what ended it (else ``""``)."""
    players, options, hand = list(record.players), record.options, record.hands[i]
    path, label = f"hands[{i}]", f"hand {i + 1}"
    _check_hand(hand, path, label, players, players)
    scored = _score_hand(hand.table, hand.numbers, hand.first_triple, players, record.sides, options, True)
    for name in players:
        totals[name] += scored.points[name]
    notes = scored.notes
    ended = ""
    reached = [name for name in players if totals[name] >= target]
    if reached:
        ended = f"{join_names(reached)} reached the target {target} in {label}"
        reaching = [Note.of("{name} reached {total}", name=name, total=totals[name]) for name in reached]
        notes.append(
            Note.of(
                "{reached}, at or over the target {target}: the game is over (rule 7, OO-11, OO-12).",
                reached=_and(reaching),
                target=target,
            )
        )
        low = _lowest(totals, players)
        if len(low) == 1:
            notes.append(
                Note.of("{name} has the lowest total, {total}, and wins (rule 8).", name=low[0], total=totals[low[0]])
            )
        else:
            notes.append(
                Note.of(
                    "{names} share the lowest total, {total}: sudden death decides (rule 8, rule 9).",
                    names=Names.of(low),
                    total=totals[low[0]],
                )
            )
    result = OnesToNinesHandResult(
        points=scored.points,
        **said(notes),
        best={name: (b.to_json() if b else None) for name, b in scored.best.items()},
        targets=scored.targets,
        totals=dict(totals),
    )
    return result, ended


def _rule9_sudden_death_hand(
    record: Record, j: int, tied: list[str]
) -> tuple[dict[str, int], list[str], OnesToNinesHandResult]:
    """Sudden-death hand ``j`` among the ``tied`` players (rule 9, OO-13 to OO-15): its scores are not added to the
    totals; the unique lowest wins, a tie plays again. Returns the scores, the players still tied (one: the
    winner) and the hand's result."""
    options = record.options
    path, label = f"sudden_death[{j}]", f"sudden-death hand {j + 1}"
    hand_sd = record.sudden_death[j]
    if hand_sd.first_triple is not None and not options.triple_rule_in_sudden_death:
        raise IllegalHandError(
            f"{label} names a first three of a kind, but the three-of-a-kind rule is off in sudden death "
            "(house rule, OO-15)",
            f"{path}.first_triple",
        )
    _check_hand(hand_sd, path, label, tied, list(record.players))
    scored = _score_hand(
        hand_sd.table,
        hand_sd.numbers,
        hand_sd.first_triple,
        tied,
        record.sides,
        options,
        options.triple_rule_in_sudden_death,
    )
    notes = [*scored.notes, Note.of("Sudden-death scores are not added to the totals (OO-14).")]
    low = _lowest(scored.points, tied)
    if len(low) == 1:
        notes.append(
            Note.of(
                "{name} has the lowest sudden-death score, {points}, and wins (rule 9).",
                name=low[0],
                points=scored.points[low[0]],
            )
        )
    else:
        notes.append(
            Note.of(
                "{names} tie for the lowest sudden-death score, {points}: they play another sudden-death hand (OO-13).",
                names=Names.of(low),
                points=scored.points[low[0]],
            )
        )
    result = OnesToNinesHandResult(
        points=scored.points,
        **said(notes),
        best={name: (b.to_json() if b else None) for name, b in scored.best.items()},
        targets=scored.targets,
    )
    return scored.points, low, result


@dataclass(frozen=True)
class _OnesToNines(Game):
    """:class:`Game` whose parse errors in a sudden-death hand also say which one, in words."""

    def parse(self, data: Any) -> RecordBase:
        """Validate raw data; also checks the seating (2-8 players, every side given, OO-1) straight away."""
        try:
            record = super().parse(data)
        except ScoringError as exc:
            match = re.match(r"sudden_death\[(\d+)\]", exc.path)
            place = f" in sudden-death hand {int(match.group(1)) + 1}" if match else ""
            if place and place not in exc.message:
                raise type(exc)(exc.message + place, exc.path) from None
            raise
        _check_seating(cast(Record, record))
        return record


GAME: Game = _OnesToNines(
    key="1111-9999",
    name="1111-9999",
    ruling_prefix=RULING_PREFIX,
    hand_word="hand",
    min_players=2,
    max_players=8,
    record_model=Record,
    scorer=score,
    lower_wins=True,
)
"""1111-9999 in the registry."""
