"""Feast and Famine (Last Hussar): a push-your-luck game scored round by round.

Rules and rulings: ``docs/spec/feast-and-famine.md`` (FF-1 … FF-15); record format: ``shared/spec/records.md``.

Each round one player deals; every player holds an opening card and then Takes or Refuses. A player who Refuses is
**Frozen** and scores the value of their cards (2–10 face value, J/Q/K 10, A 1); a Joker turned on a Take knocks
out everybody not yet Frozen, who score 0. After ``circuits × players`` rounds the highest running total wins; a tie
for the lead is settled by one tie-break round against a Ghost (rule 8).

>>> result = GAME.score({
...     "game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"],
...     "hands": [{"dealer": "Cat", "cards": {"Ann": ["7C", "5S"], "Ben": ["KD"], "Cat": ["3H", "9D", "4C"]},
...                "status": {"Ann": "frozen", "Ben": "frozen", "Cat": "out"}}]})
>>> result.hands[0].points
{'Ann': 12, 'Ben': 10, 'Cat': 0}
>>> result.finished, rounds_left(GAME.parse({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"]}))
(False, 9)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    Tag,
    ValidationError,
    WithJsonSchema,
    computed_field,
)

from scoring.base import (
    OTHERS,
    HandResult,
    Model,
    PartProgress,
    Pending,
    PlayerName,
    RecordBase,
    Result,
    join_names,
    joint_win,
    rulings_of,
    said,
    sole_win,
    validation_error,
    zeros,
)
from scoring.cards import Card, CardField, standard_deck
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
from scoring.why import Cards, Names, Note, NoteList, NoteLists, one_or_more, render, render_all

RULING_PREFIX = "FF"
"""The prefix of Feast and Famine's ruling ids (``FF-3``) in ``shared/rules/feast-and-famine.md``."""

DECK_VALUE = 340
"""What all 52 cards are worth together (4 × (1 + 2 + … + 10 + 10 + 10 + 10)): no hand can total more."""


class Status(enum.Enum):
    """How a player ended a round (rule 5)."""

    FROZEN = "frozen"
    """Refused a card: keeps their cards and scores their value (rule 6)."""
    OUT = "out"
    """Knocked Out by a Joker while not Frozen: scores 0 (rule 6, FF-7)."""


def _status_word(value: Any) -> Any:
    """Statuses are read forgivingly, like cards: ``"Frozen"``, ``" OUT "``."""
    return value.strip().lower() if isinstance(value, str) else value


StatusField = Annotated[Status, BeforeValidator(_status_word)]
"""A status in a record: ``"frozen"`` or ``"out"``, in any case."""


MAX_CIRCUITS = 100
"""The most circuits a game can be set to (FF-5 house rule): every player deals once a circuit, and the suggested
games have 1 to 3."""


class Options(Model):
    """The house rules of Feast and Famine (``house-rules.md``)."""

    jokers: Annotated[StrictInt, Field(ge=1, le=4)] = 2
    """Jokers shuffled into the 52 cards (FF-1): 1 to 4."""
    circuits: Annotated[StrictInt, Field(ge=1, le=MAX_CIRCUITS)] | None = None
    """Circuits in the game (FF-5), 1 to :data:`MAX_CIRCUITS`; ``None``: 3 for 2–3 players, 2 for 4, 1 for 5 or
    more."""
    opening_card_counts: StrictBool = True
    """The opening face-up card counts in a Frozen player's total (FF-2)."""
    all_out_nobody_left: Literal["replay", "joint"] = "replay"
    """Tie-break with every tied player Knocked Out and no other player (FF-10): replay it, or joint winners."""


def _validate_outcome(value: Any) -> int | Literal["out"]:
    if isinstance(value, str) and value.strip().lower() == "out":
        return "out"
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise InvalidRecordError(f'an outcome is a Frozen total (a whole number, 0 or more) or "out", not {value!r}')


Outcome = Annotated[
    int | Literal["out"],
    PlainValidator(_validate_outcome),
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 0}, {"const": "out"}]}),
]
"""A quick-entry outcome: a Frozen player's hand total (≥ 0), or ``"out"``."""


class Hand(Model):
    """One round: its dealer, then either ``cards`` + ``status`` or the quick ``outcome`` (FF-15)."""

    dealer: PlayerName
    cards: dict[str, tuple[CardField, ...]] | None = None
    """Every card each player holds at the end, the opening card first."""
    status: dict[str, StatusField] | None = None
    outcome: dict[str, Outcome] | None = None


class TieBreak(Model):
    """The tie-break round (rule 8): the Ghost's seat (or ``None``: a dummy seat) and the tied players' entries."""

    ghost: PlayerName | None = None
    cards: dict[str, tuple[CardField, ...]] | None = None
    status: dict[str, StatusField] | None = None
    outcome: dict[str, Outcome] | None = None


def _tiebreak_tag(value: Any) -> str | None:
    if isinstance(value, dict | TieBreak):
        return "round"
    if isinstance(value, list | tuple):
        return "rounds"
    return None


TieBreakEntry = Annotated[
    Annotated[TieBreak, Tag("round")] | Annotated[tuple[TieBreak, ...], Tag("rounds")],
    Discriminator(
        _tiebreak_tag,
        custom_error_type="tiebreak_shape",
        custom_error_message="the tie-break must be one round (an object) or a list of rounds",
    ),
]


class Record(RecordBase):
    """A Feast and Famine game record (``records.md``)."""

    game: Literal["feast-and-famine"]
    options: Options = Options()
    hands: tuple[Hand, ...] = ()
    tiebreak: TieBreakEntry | None = None
    """One tie-break round, or a list of them when a round had to be replayed (FF-10)."""

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Self:
        """Validate, reporting the tie-break's path as written (``tiebreak.outcome.Ann``, ``tiebreak[1]...``).

        >>> Record.model_validate({"game": "feast-and-famine", "players": ["A", "B"],
        ...                        "tiebreak": {"outcome": {"A": "gone", "B": 3}}})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        scoring.errors.InvalidRecordError: an outcome is a Frozen total (a whole number, 0 or more) or "out"...
        >>> try:
        ...     Record.model_validate({"game": "feast-and-famine", "players": ["A", "B"], "tiebreak": [{"x": 1}]})
        ... except ScoringError as exc:
        ...     print(exc.path)
        tiebreak[0].x
        """
        try:
            return super().model_validate(obj, **kwargs)
        except ValidationError as exc:
            err = validation_error(exc)
            err.path = re.sub(r"^tiebreak\.rounds?(?=$|[.\[])", "tiebreak", err.path)
            raise err from None

    @property
    def tiebreak_rounds(self) -> tuple[TieBreak, ...]:
        """The tie-break rounds played, in order (empty when none): one round or a list of them (FF-10).

        >>> rec = Record.model_validate({"game": "feast-and-famine", "players": ["A", "B"],
        ...                              "tiebreak": {"outcome": {"A": "out", "B": 3}}})
        >>> len(rec.tiebreak_rounds), rec.tiebreak_rounds[0].outcome
        (1, {'A': 'out', 'B': 3})
        """
        if self.tiebreak is None:
            return ()
        if isinstance(self.tiebreak, TieBreak):
            return (self.tiebreak,)
        return self.tiebreak


# --- values --------------------------------------------------------------------------------------------------------


def card_value(card: Card) -> int:
    """A card's value: 2–10 face value, J, Q, K 10, A 1 (rule 1, FF-3). Jokers are never scored.

    >>> card_value(Card.parse("QS")), card_value(Card.parse("AD")), card_value(Card.parse("9H"))
    (10, 1, 9)
    >>> card_value(Card.parse("JK"))
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: a Joker is never scored: it is put aside or ends the round (rule 5)
    """
    if card.is_joker:
        raise InvalidCardError("a Joker is never scored: it is put aside or ends the round (rule 5)")
    return min(card.rank_index, 10)


def hand_total(cards: Sequence[Card], options: Options | None = None) -> int:
    """What a Frozen player scores for ``cards`` (opening card first): the sum of the values (rule 6), the opening
    card included unless ``opening_card_counts`` is off (FF-2).

    FF-E4: a Frozen A♦ Q♠ 9♥ scores 1 + 10 + 9 = 20.

    >>> hand_total([Card.parse(c) for c in ["AD", "QS", "9H"]])
    20
    >>> hand_total([Card.parse(c) for c in ["AD", "QS", "9H"]], Options(opening_card_counts=False))
    19
    """
    opts = options or Options()
    counted = cards if opts.opening_card_counts else cards[1:]
    return sum(card_value(card) for card in counted)


def circuit_count(players: int, options: Options | None = None) -> int:
    """Circuits in the game: the option, or 3 for 2–3 players, 2 for 4, 1 for 5 or more (FF-5, FF-E5).

    >>> [circuit_count(n) for n in (2, 3, 4, 5, 6, 7)]
    [3, 3, 2, 1, 1, 1]
    >>> circuit_count(4, Options(circuits=5))
    5
    """
    if options is not None and options.circuits is not None:
        return options.circuits
    if players <= 3:
        return 3
    return 2 if players == 4 else 1


def total_rounds(record: Record) -> int:
    """Rounds in the main game: circuits × players (rule 3, FF-E5: 4 players → 8, 5 → 5, 3 → 9).

    >>> total_rounds(GAME.parse({"game": "feast-and-famine", "players": ["A", "B", "C", "D"]}))
    8
    """
    return circuit_count(len(record.players), record.options) * len(record.players)


def rounds_left(record: Record) -> int:
    """Rounds of the main game still to play (0 once the last round is entered; the tie-break is not counted).

    >>> rec = GAME.parse({"game": "feast-and-famine", "players": ["A", "B", "C", "D", "E"],
    ...                   "hands": [{"dealer": "C", "outcome": {"A": 3, "B": 12, "C": "out", "D": 7, "E": 2}}]})
    >>> rounds_left(rec)
    4
    """
    return max(total_rounds(record) - len(record.hands), 0)


def _next_clockwise(players: Sequence[str], name: str) -> str:
    return players[(players.index(name) + 1) % len(players)]


def expected_dealer(record: Record) -> str | None:
    """Who must deal the next round: the player to the left of the last dealer (rule 4); ``None`` when the table
    chooses freely (the first round of every circuit, rule 4) or when the main game is over (the Ghost may be any
    non-tied player, FF-9).

    >>> rec = GAME.parse({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"],
    ...                   "hands": [{"dealer": "Cat", "outcome": {"Ann": 5, "Ben": 6, "Cat": 7}}]})
    >>> expected_dealer(rec)
    'Ann'
    >>> expected_dealer(GAME.parse({"game": "feast-and-famine", "players": ["Ann", "Ben"]})) is None
    True
    """
    done = len(record.hands)
    if done >= total_rounds(record) or done % len(record.players) == 0:
        return None
    return _next_clockwise(record.players, record.hands[-1].dealer)


def verify_deal(record: Record, player: str) -> None:
    """Raise unless ``player`` may deal the next round (rule 4; records.md "Validation").

    >>> rec = GAME.parse({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"],
    ...                   "hands": [{"dealer": "Ann", "outcome": {"Ann": 5, "Ben": 6, "Cat": 7}}]})
    >>> verify_deal(rec, "Cat")
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: Cat cannot deal round 2: the deal passes clockwise from Ann to Ben (rule 4)
    """
    if player not in record.players:
        raise UnknownPlayerError(Note.of("{name} is not a player in this game", name=player), "dealer")
    number = len(record.hands) + 1
    total = total_rounds(record)
    if number > total:
        raise IllegalHandError(
            f"hand {number} was entered after the game was over "
            f"({_rounds_phrase(len(record.players), record.options)}, FF-5)",
            "dealer",
        )
    must = expected_dealer(record)
    if must is not None and player != must:
        raise IllegalHandError(
            f"{player} cannot deal round {number}: the deal passes clockwise from {record.hands[-1].dealer} "
            f"to {must} (rule 4)",
            "dealer",
        )


def can_deal(record: Record, player: str) -> bool:
    """Whether ``player`` may deal the next round (see :func:`verify_deal`).

    >>> rec = GAME.parse({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"],
    ...                   "hands": [{"dealer": "Ann", "outcome": {"Ann": 5, "Ben": 6, "Cat": 7}}]})
    >>> [name for name in rec.players if can_deal(rec, name)]
    ['Ben']
    """
    try:
        verify_deal(record, player)
    except ScoringError:
        return False
    return True


def verify_hold(card: Card, seen: Iterable[Card]) -> None:
    """Raise unless ``card`` can be entered in a hand, given the cards ``seen`` in this round: Jokers never sit in a
    hand (rule 5) and each card exists once (records.md "Validation").

    >>> verify_hold(Card.parse("7C"), [Card.parse("7C")])
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 7♣ is already in this round
    """
    if card.is_joker:
        raise InvalidCardError(Note.of("a Joker never stays in a hand: it is put aside, or it ends the round (rule 5)"))
    if card in set(seen):
        raise DuplicateCardError(Note.of("{card} is already in this round", card=Cards.of([card])))


def can_hold(card: Card, seen: Iterable[Card]) -> bool:
    """Whether ``card`` may be entered in a hand this round (see :func:`verify_hold`).

    >>> can_hold(Card.parse("JK"), []), can_hold(Card.parse("7C"), []), can_hold(Card.parse("7C"), [Card.parse("7C")])
    (False, True, False)
    """
    try:
        verify_hold(card, seen)
    except ScoringError:
        return False
    return True


def legal_cards(seen: Iterable[Card]) -> list[Card]:
    """The cards that can still turn up in a hand this round: the 52 minus those ``seen``, never a Joker (rule 5).

    >>> cards = legal_cards([Card.parse("7C"), Card.parse("KD")])
    >>> len(cards), Card.parse("7C") in cards, any(card.is_joker for card in cards)
    (50, False, False)
    """
    gone = set(seen)
    return [card for card in standard_deck() if card not in gone]


def joker_chance(seen: Sequence[Card], options: Options | None = None) -> Fraction:
    """The chance that the next card turned is a Joker, given the cards ``seen`` this round.

    Deck assumption (rule 1, FF-1, rule 5.1): the deck is 52 cards plus ``options.jokers`` Jokers, well shuffled;
    Jokers met in the opening deal are shuffled back, so leave them out of ``seen``; every card listed in ``seen``
    (a Joker included) is out of the deck. The Ghost's cards in a tie-break count as seen if listed.

    FF-E1, before Ann's first Take: 7♣, K♦, 3♥ are out, 2 Jokers among the 51 cards left.

    >>> joker_chance([Card.parse(c) for c in ["7C", "KD", "3H"]])
    Fraction(2, 51)
    >>> joker_chance([], Options(jokers=1))
    Fraction(1, 53)
    >>> joker_chance([Card.parse("JK")], Options(jokers=1))
    Fraction(0, 1)
    """
    opts = options or Options()
    jokers_seen = sum(1 for card in seen if card.is_joker)
    if jokers_seen > opts.jokers:
        raise InvalidCardError(f"{jokers_seen} Jokers seen, but the deck has only {opts.jokers} (FF-1)")
    plain = [card for card in seen if not card.is_joker]
    if len(set(plain)) != len(plain):
        dup = next(card for card in plain if plain.count(card) > 1)
        raise DuplicateCardError(f"{dup.label} is listed twice among the cards seen")
    left = 52 + opts.jokers - len(seen)
    jokers_left = opts.jokers - jokers_seen
    if left <= 0 or jokers_left <= 0:
        return Fraction(0)
    return Fraction(jokers_left, left)


def ghost_candidates(record: Record, tied: Sequence[str]) -> list[str]:
    """Who may be the Ghost in the tie-break: any player not tied (FF-9); empty: a dummy seat (FF-10).

    >>> rec = GAME.parse({"game": "feast-and-famine", "players": ["A", "B", "C", "D"]})
    >>> ghost_candidates(rec, ["A", "B"])
    ['C', 'D']
    """
    return [name for name in record.players if name not in tied]


# --- validation ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Round:
    """A validated round: each listed player's status, points and (cards form) cards."""

    status: dict[str, Status]
    points: dict[str, int]
    cards: dict[str, tuple[Card, ...]] | None


def _rounds_phrase(players: int, options: Options) -> str:
    return render(_rounds_note(players, options))


def _rounds_note(players: int, options: Options) -> Note:
    circuits = circuit_count(players, options)
    return Note.of(
        "{players} players × {circuits} circuit = {rounds} rounds"
        if circuits == 1
        else "{players} players × {circuits} circuits = {rounds} rounds",
        players=players,
        circuits=circuits,
        rounds=players * circuits,
    )


def _keyed(raw: Mapping[str, Any], who: Sequence[str], seated: Sequence[str], path: str, what: str) -> dict[str, Any]:
    """Map ``raw`` (keys trimmed) onto exactly the players ``who``; errors name the first problem."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.strip()
        if name not in seated:
            raise UnknownPlayerError(f"{name or repr(key)} is not a player in this game", f"{path}.{key}")
        if name not in who:
            raise IllegalHandError(f"{name} does not play {what}", f"{path}.{key}")
        if name in out:
            raise InvalidRecordError(f"{name} is listed twice in {what}", f"{path}.{key}")
        out[name] = value
    missing = [name for name in who if name not in out]
    if missing:
        raise InvalidRecordError(f"{join_names(missing)} missing from {what}: every player appears", path)
    return out


def _check_round(
    entry: Hand | TieBreak, who: Sequence[str], seated: Sequence[str], options: Options, path: str, what: str
) -> _Round:
    """Validate one round's entries for the players ``who`` and score it (rule 6)."""
    if entry.outcome is not None:
        if entry.cards is not None or entry.status is not None:
            raise InvalidRecordError(f"{what} has both 'outcome' and 'cards'/'status': use one form", path)
        outcome = _keyed(entry.outcome, who, seated, f"{path}.outcome", what)
        status: dict[str, Status] = {}
        points: dict[str, int] = {}
        for name in who:
            value = outcome[name]
            where_ = f"{path}.outcome.{name}"
            if isinstance(value, str):
                status[name], points[name] = Status.OUT, 0
            elif value < 0:
                raise InvalidRecordError(f"{name}'s total in {what} cannot be negative ({value})", where_)
            elif value > DECK_VALUE:
                raise IllegalHandError(
                    f"{name}'s total in {what} is {value}, more than the whole deck is worth ({DECK_VALUE})", where_
                )
            else:
                status[name], points[name] = Status.FROZEN, value
        return _Round(status, points, None)
    if entry.cards is None and entry.status is None:
        raise InvalidRecordError(f"{what} needs 'outcome', or 'cards' with 'status'", path)
    if entry.cards is None:
        raise InvalidRecordError(f"'cards' is missing in {what} (it goes with 'status')", f"{path}.cards")
    if entry.status is None:
        raise InvalidRecordError(f"'status' is missing in {what} (it goes with 'cards')", f"{path}.status")
    cards = _keyed(entry.cards, who, seated, f"{path}.cards", what)
    status = _keyed(entry.status, who, seated, f"{path}.status", what)
    raw_keys = {key.strip(): key for key in entry.cards}
    seen: set[Card] = set()
    for name in who:
        held: tuple[Card, ...] = cards[name]
        base = f"{path}.cards.{raw_keys[name]}"
        if not held:
            raise InvalidRecordError(f"{name} holds no cards in {what}: everyone has an opening card (rule 5)", base)
        for i, card in enumerate(held):
            if card.is_joker:
                raise InvalidCardError(
                    f"{name} holds a Joker in {what}: a Joker is put aside in the deal, or it ends the round, "
                    "so it never stays in a hand (rule 5)",
                    f"{base}[{i}]",
                )
            if card in seen:
                raise DuplicateCardError(f"{card.label} appears twice in {what}", f"{base}[{i}]")
            seen.add(card)
    points = {name: hand_total(cards[name], options) if status[name] is Status.FROZEN else 0 for name in who}
    return _Round(status, points, cards)


# --- scoring -----------------------------------------------------------------------------------------------------


def _round_notes(rnd: _Round, who: Sequence[str], options: Options, *, tiebreak: bool = False) -> list[Note]:
    notes: list[Note] = []
    court = False
    for name in who:
        if rnd.status[name] is Status.OUT:
            notes.append(
                Note.of(
                    "{name} was Knocked Out by a Joker: 0 for the round, whatever they held (rule 6, FF-7).", name=name
                )
            )
            continue
        if rnd.cards is None:
            notes.append(Note.of("{name} Froze on {points} (rule 6).", name=name, points=rnd.points[name]))
            continue
        held = rnd.cards[name]
        court = court or any(card.rank in ("A", "J", "Q", "K") for card in held)
        counted = held if options.opening_card_counts else held[1:]
        sums = " + ".join(str(card_value(card)) for card in counted)
        sums = f"{sums} = {rnd.points[name]}" if len(counted) > 1 else str(rnd.points[name])
        if options.opening_card_counts:
            notes.append(
                Note.of(
                    "{name} Froze holding {cards}: {sums}, the opening card included (rule 6, FF-2).",
                    name=name,
                    cards=Cards.of(held),
                    sums=sums,
                )
            )
        else:
            notes.append(
                Note.of(
                    "{name} Froze holding {cards}: the opening card {opening} does not count under the house rule "
                    "(FF-2), so {sums} (rule 6).",
                    name=name,
                    cards=Cards.of(held),
                    opening=Cards.of(held[:1]),
                    sums=sums,
                )
            )
    if court:
        notes.append(Note.of("J, Q and K count 10 and an Ace counts 1 (FF-3)."))
    frozen = [name for name in who if rnd.status[name] is Status.FROZEN]
    if tiebreak:
        if frozen:
            notes.append(
                Note.of("The Ghost kept Taking until a Joker knocked it out; its cards never matter (rule 8.2, FF-E7).")
            )
    elif not frozen:
        notes.append(Note.of("A Joker knocked out every player: everyone scores 0 (rule 5.2, FF-7)."))
    elif len(frozen) == len(who):
        notes.append(Note.of("Everyone Froze, so dealing ended without a Joker (rule 5.3)."))
    else:
        notes.append(Note.of("The round ended on a Joker; the Frozen players still score their cards (FF-8)."))
    return notes


def _tiebreak_verdict(
    rnd: _Round, tied: list[str], record: Record, totals: dict[str, int]
) -> tuple[list[str] | None, list[Note], bool]:
    """Settle one tie-break round (rule 8.3, FF-10…FF-13): (winners or None when it must be replayed, notes,
    whether the tied leaders' totals drop to 0)."""
    notes: list[Note] = []
    frozen = [name for name in tied if rnd.status[name] is Status.FROZEN]
    out = [name for name in tied if rnd.status[name] is Status.OUT]
    if frozen:
        best = max(rnd.points[name] for name in frozen)
        top = [name for name in frozen if rnd.points[name] == best]
        if out:
            notes.append(
                Note.of(
                    "{names} was Knocked Out: 0 for the tie-break; a Frozen player always beats a Knocked-Out one "
                    "(rule 8.3)."
                    if len(out) == 1
                    else "{names} were Knocked Out: 0 for the tie-break; a Frozen player always beats a Knocked-Out "
                    "one (rule 8.3).",
                    names=Names.of(out),
                )
            )
        others = [f"{name} {rnd.points[name]}" for name in frozen if name != top[0]]
        beaten = Note.of(", beating {names}", names=Names.of(others)) if others else Note.of("")
        notes.append(
            one_or_more(
                top,
                "{name} wins the game with the highest tie-break score, {best}{beaten}; tie-break scores are not "
                "added to the totals (rule 8.3, FF-12).",
                "{names} Froze on {best} each: joint winners, no further round (FF-13).",
                best=best,
                beaten=beaten,
            )
        )
        return top, notes, False
    rest = [name for name in record.players if name not in tied]
    if rest:
        best = max(totals[name] for name in rest)
        top = [name for name in rest if totals[name] == best]
        notes.append(
            Note.of(
                "Every tied player was Knocked Out: {names} drop to 0 and are out of contention (rule 8.3, FF-11).",
                names=Names.of(tied),
            )
        )
        notes.append(
            one_or_more(
                top,
                "{name} has the next-highest total, {best}, and wins (rule 8.3, FF-11).",
                "{names} share the next-highest total, {best}: a joint win (rule 8.3, FF-11).",
                best=best,
            )
        )
        return top, notes, True
    notes.append(Note.of("Every tied player was Knocked Out and no other player is left to win (FF-10)."))
    if record.options.all_out_nobody_left == "joint":
        notes.append(Note.of("House rule: {names} are joint winners (FF-10).", names=Names.of(tied)))
        return list(tied), notes, False
    notes.append(Note.of("The tie-break round is replayed (FF-10)."))
    return None, notes, False


def _ahead(totals: Mapping[str, int], winner: str) -> Note:
    rest = [total for name, total in totals.items() if name != winner]
    if not rest:
        return Note.of("")
    runner = max(rest)
    return Note.of(
        ", ahead of {names} on {runner}",
        names=Names.of(n for n, t in totals.items() if n != winner and t == runner),
        runner=runner,
    )


def outright_verdict(totals: Mapping[str, int], winner: str) -> Verdict:
    """The verdict of a game won outright: the highest running total after the last round (rule 7).

    >>> outright_verdict({"Ann": 40, "Ben": 52, "Cat": 31}, "Ben").reasons["Ben"]
    'Ben wins with the highest running total, 52, ahead of Ann on 40 (rule 7).'
    """
    return sole_win(
        Decider.MOST_POINTS,
        ["FF-R7"],
        winner,
        Note.of("{name} wins with {total}, the highest running total.", name=winner, total=totals[winner]),
        "{name} wins with the highest running total, {total}{ahead} (rule 7).",
        name=winner,
        total=totals[winner],
        ahead=_ahead(totals, winner),
    )


# long: one sentence per tie-break outcome of FF-11 to FF-13, each a note with its values, read top to bottom
def tiebreak_verdict(
    points: Mapping[str, int],
    status: Mapping[str, str],
    lead: int,
    totals: Mapping[str, int],
    joint_when_nobody_left: bool = False,
) -> Verdict | None:
    """Why a tie-break round decided the game (rule 8.3, FF-10 … FF-13), or ``None`` when it must be replayed.

    ``points`` and ``status`` (``"frozen"``/``"out"``) are the tied leaders' in this round, ``lead`` the total they
    were tied on, ``totals`` every player's running total. FF-E6 (a) and (d):

    >>> print(tiebreak_verdict({"A": 17, "B": 19}, {"A": "frozen", "B": "frozen"}, 85,
    ...                        {"A": 85, "B": 85, "C": 60, "D": 41}).reasons["B"])
    B wins the tie-break round: tied with A for the lead on 85, B Froze on 19, beating A's 17 (rule 8.3, FF-12).
    >>> verdict = tiebreak_verdict({"A": 0, "B": 0}, {"A": "out", "B": "out"}, 85, {"A": 85, "B": 85, "C": 60,
    ...                            "D": 41})
    >>> verdict.decider, verdict.rulings
    (<Decider.ALL_KNOCKED_OUT: 'all-knocked-out'>, ['FF-R8.3', 'FF-11'])
    >>> print(verdict.reasons["C"])
    C wins with the next-highest running total, 60: A and B, tied for the lead on 85, were all Knocked Out in the \
tie-break round and drop to 0 (rule 8.3, FF-11).
    """
    tied = list(points)
    frozen = [name for name in tied if status[name] == "frozen"]
    out = [name for name in tied if status[name] != "frozen"]
    if frozen:
        best = max(points[name] for name in frozen)
        top = [name for name in frozen if points[name] == best]
        if len(top) == 1:
            (winner,) = top
            others = [name for name in tied if name != winner]
            beaten = Names.of(f"{name}'s {points[name]}" for name in frozen if name != winner)
            outs = Names.of(out)
            if beaten.names and out:
                why = Note.of(
                    ", beating {beaten} while {out} was Knocked Out"
                    if len(out) == 1
                    else ", beating {beaten} while {out} were Knocked Out",
                    beaten=beaten,
                    out=outs,
                )
            elif beaten.names:
                why = Note.of(", beating {beaten}", beaten=beaten)
            elif out:
                why = Note.of(
                    ", while {out} was Knocked Out" if len(out) == 1 else ", while {out} were Knocked Out", out=outs
                )
            else:
                why = Note.of("")
            return sole_win(
                Decider.TIEBREAK,
                ["FF-R8.3", "FF-12"],
                winner,
                Note.of(
                    "{winner} wins the tie-break round with {best}, after tying for the lead on {lead}.",
                    winner=winner,
                    best=best,
                    lead=lead,
                ),
                "{winner} wins the tie-break round: tied with {others} for the lead on {lead}, {winner} Froze on "
                "{best}{why} (rule 8.3, FF-12).",
                winner=winner,
                others=Names.of(others),
                lead=lead,
                best=best,
                why=why,
            )
        return joint_win(
            Decider.JOINT,
            ["FF-R8.3", "FF-13"],
            top,
            Note.of(
                "{names} are joint winners: tied for the lead on {lead}, they Froze on {best} each in the tie-break "
                "round.",
                names=Names.of(top),
                lead=lead,
                best=best,
            ),
            "{name} is a joint winner: tied for the lead on {lead}, then equal highest in the tie-break round, "
            "{best} (rule 8.3, FF-13).",
            lead=lead,
            best=best,
        )
    rest = {name: total for name, total in totals.items() if name not in points}
    leaders = Names.of(tied)
    if rest:
        best = max(rest.values())
        top = [name for name, total in rest.items() if total == best]
        because = Note.of(
            "{leaders}, tied for the lead on {lead}, were all Knocked Out in the tie-break round and drop to 0",
            leaders=leaders,
            lead=lead,
        )
        if len(top) == 1:
            (winner,) = top
            return sole_win(
                Decider.ALL_KNOCKED_OUT,
                ["FF-R8.3", "FF-11"],
                winner,
                Note.of(
                    "{winner} wins with {best}: every tied leader was Knocked Out in the tie-break round.",
                    winner=winner,
                    best=best,
                ),
                "{winner} wins with the next-highest running total, {best}: {because} (rule 8.3, FF-11).",
                winner=winner,
                best=best,
                because=because,
            )
        return joint_win(
            Decider.JOINT,
            ["FF-R8.3", "FF-11"],
            top,
            Note.of(
                "{names} are joint winners on {best}: every tied leader was Knocked Out in the tie-break round.",
                names=Names.of(top),
                best=best,
            ),
            "{name} is a joint winner with the next-highest running total, {best}, shared with {others}: {because} "
            "(rule 8.3, FF-11).",
            best=best,
            others=OTHERS,
            because=because,
        )
    if not joint_when_nobody_left:
        return None
    return joint_win(
        Decider.JOINT,
        ["FF-10"],
        tied,
        Note.of(
            "{leaders} are joint winners: all were Knocked Out in the tie-break round and nobody else is left "
            "(house rule).",
            leaders=leaders,
        ),
        "{name} is a joint winner: tied for the lead on {lead}, all were Knocked Out in the tie-break round and "
        "nobody else is left to win, so under the house rule the tied players share the win (FF-10).",
        lead=lead,
    )


class FeastAndFamineHandResult(HandResult):
    """One Feast and Famine round: round scores (frozen: card total; out: 0, rule 6), its dealer and circuit, and
    each player's status."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX

    dealer: str
    circuit: int
    """1-based circuit of this round (rule 3)."""
    status: dict[str, str]
    """Each player ``"frozen"`` or ``"out"`` (Knocked Out)."""


class FeastAndFamineResult(Result):
    """A Feast and Famine game: running totals, the rounds left, and the tie-break (rule 8, FF-9 … FF-13).

    ``notes`` (with ``rulings`` parallel to them) say how the main game ended; ``tiebreak_notes`` (with
    ``tiebreak_rulings``) explain each tie-break round."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX

    hands: list[FeastAndFamineHandResult] = Field(default_factory=list)  # type: ignore[assignment]
    tiebreak: dict[str, int] | None = None
    """The last tie-break round's points, ``null`` before one is played."""
    tiebreaks: list[dict[str, int]] = Field(default_factory=list)
    """The points of every tie-break round played (FF-10: a round may be replayed)."""
    tiebreak_notes: list[list[str]] = Field(default_factory=list)
    tiebreak_why: NoteLists = Field(default_factory=list)
    """``tiebreak_notes`` as data (:class:`scoring.why.Note`)."""
    notes: list[str] = Field(default_factory=list)
    why: NoteList = Field(default_factory=list)
    """``notes`` as data (:class:`scoring.why.Note`)."""
    main_totals: dict[str, int]
    """The totals at the end of the main game (``totals`` drop the tied leaders to 0 after an all-out tie-break,
    FF-11)."""
    rounds: int
    """Rounds in the main game (players × circuits, rule 3, FF-5)."""
    rounds_left: int
    next_dealer: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rulings(self) -> list[list[str]]:
        """The rule and ruling ids of each of ``notes`` (:func:`scoring.base.rulings_of`)."""
        return [rulings_of(note, self.RULING_PREFIX) for note in self.notes]

    def part_progress(self) -> dict[str, PartProgress]:
        """Each tied leader's score in the last tie-break round (``"tie-break 14"``, ``"tie-break out"``: a Frozen
        player always has 1 point or more, rule 8.3); the higher score ranks first (FF-12). FF-E6 (c):

        >>> part = FeastAndFamineResult.model_construct(tiebreaks=[{"A": 6, "B": 0}], pending=None).part_progress()["B"]
        >>> part.text, part.rank
        ('tie-break out', (0,))
        """
        tied = list(self.tiebreaks[0]) if self.tiebreaks else list(self.pending.players if self.pending else [])
        out: dict[str, PartProgress] = {}
        for name in tied:
            if not self.tiebreaks:
                out[name] = PartProgress(Note.of("in the tie-break"), (0,))
                continue
            points = self.tiebreaks[-1][name]
            note = Note.of("tie-break {points}", points=points) if points else Note.of("tie-break out")
            out[name] = PartProgress(note, (-points,))
        return out

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tiebreak_rulings(self) -> list[list[list[str]]]:
        """The rule and ruling ids of each of ``tiebreak_notes``, round by round."""
        return [[rulings_of(note, self.RULING_PREFIX) for note in notes] for notes in self.tiebreak_notes]


def score(record: Record) -> FeastAndFamineResult:
    """Replay a validated record: round scores, running totals, the end of the game and the tie-break (rules 6–8).

    FF-E6 (c): A and B tied on 85; in the tie-break A Freezes on 6 and B is Knocked Out → A wins.

    >>> hands = [{"dealer": "A", "outcome": {"A": 40, "B": 40, "C": 30, "D": 20}},
    ...          {"dealer": "B", "outcome": {"A": 45, "B": 45, "C": 30, "D": 21}}]
    >>> raw = {"game": "feast-and-famine", "players": ["A", "B", "C", "D"], "options": {"circuits": 1},
    ...        "hands": hands + [{"dealer": "C", "outcome": {"A": "out", "B": "out", "C": "out", "D": "out"}},
    ...                          {"dealer": "D", "outcome": {"A": "out", "B": "out", "C": "out", "D": "out"}}]}
    >>> result = GAME.score(raw)
    >>> result.totals, result.pending.players
    ({'A': 85, 'B': 85, 'C': 60, 'D': 41}, ['A', 'B'])
    >>> GAME.score(raw | {"tiebreak": {"ghost": "C", "outcome": {"A": 6, "B": "out"}}}).winners
    ['A']
    >>> result = GAME.score(raw | {"tiebreak": {"ghost": "C", "outcome": {"A": "out", "B": "out"}}})
    >>> result.winners, result.totals
    (['C'], {'A': 0, 'B': 0, 'C': 60, 'D': 41})
    """
    players = list(record.players)
    if len(players) < 2:
        raise InvalidRecordError("Feast and Famine needs at least 2 players (FF-4)", "players")
    total = total_rounds(record)
    totals = zeros(players)
    hands: list[FeastAndFamineHandResult] = []
    for index in range(len(record.hands)):
        hand = _rule4_6_round(record, index, total)
        for name in players:
            totals[name] += hand.points[name]
        hands.append(hand)
    end = _Ending()
    main_totals = dict(totals)
    if len(record.hands) < total:
        if record.tiebreak_rounds:
            raise IllegalHandError(
                f"the tie-break was entered before the game was over (round {len(record.hands) + 1} of {total} "
                "is next; rule 8)",
                "tiebreak",
            )
    else:
        _rule7_8_game_end(record, totals, end)
    return FeastAndFamineResult(
        verdict=end.verdict if end.finished else None,
        game=record.game,
        players=players,
        hands=hands,
        totals=totals,
        finished=end.finished,
        winners=end.winners,
        pending=end.pending,
        tiebreak=end.tiebreaks[-1] if end.tiebreaks else None,
        tiebreaks=end.tiebreaks,
        tiebreak_notes=[render_all(notes) for notes in end.tiebreak_notes],
        tiebreak_why=end.tiebreak_notes,
        notes=render_all(end.notes),
        why=end.notes,
        main_totals=main_totals,
        rounds=total,
        rounds_left=max(total - len(record.hands), 0),
        next_dealer=expected_dealer(record),
    )


def _rule4_6_round(record: Record, index: int, total: int) -> FeastAndFamineHandResult:
    """Round ``index`` of the main game: one of the ``total`` rounds (rule 3, FF-5), dealt by the player after the
    last dealer except at the start of a circuit (rule 4), scored by rule 6."""
    players, options, hand = list(record.players), record.options, record.hands[index]
    path = f"hands[{index}]"
    number = index + 1
    if index >= total:
        raise IllegalHandError(
            f"hand {number} was entered after the game was over ({_rounds_phrase(len(players), options)}, FF-5)",
            path,
        )
    if hand.dealer not in players:
        raise UnknownPlayerError(f"{hand.dealer} is not a player in this game", f"{path}.dealer")
    circuit = index // len(players) + 1
    notes: list[Note] = []
    if index % len(players) == 0:
        notes.append(
            Note.of(
                "{dealer} dealt the first round of circuit {circuit}: the table chooses (rule 4).",
                dealer=hand.dealer,
                circuit=circuit,
            )
        )
    else:
        must = _next_clockwise(players, record.hands[index - 1].dealer)
        if hand.dealer != must:
            raise IllegalHandError(
                f"{hand.dealer} cannot deal round {number}: the deal passes clockwise from "
                f"{record.hands[index - 1].dealer} to {must}, and each player deals once per circuit (rule 4)",
                f"{path}.dealer",
            )
        notes.append(Note.of("{dealer} dealt: the deal passes to the left (rule 4).", dealer=hand.dealer))
    rnd = _check_round(hand, players, players, options, path, f"hand {number}")
    notes.extend(_round_notes(rnd, players, options))
    if number == total:
        notes.append(
            Note.of("That was the last round ({rounds}, rule 3, FF-5).", rounds=_rounds_note(len(players), options))
        )
    return FeastAndFamineHandResult(
        points=dict(rnd.points),
        **said(notes),
        dealer=hand.dealer,
        circuit=circuit,
        status={name: rnd.status[name].value for name in players},
    )


@dataclass
class _Ending:
    """How the game ends, as :func:`_rule7_8_game_end` finds it (nothing yet while rounds are left)."""

    notes: list[Note] = field(default_factory=list)
    verdict: Verdict | None = None
    winners: list[str] = field(default_factory=list)
    pending: Pending | None = None
    finished: bool = False
    tiebreaks: list[dict[str, int]] = field(default_factory=list)
    tiebreak_notes: list[list[Note]] = field(default_factory=list)


def _rule7_8_game_end(record: Record, totals: dict[str, int], end: _Ending) -> None:
    """Rule 7: the highest running total wins outright; rule 8: players tied for it play a tie-break round (with a
    Ghost dealing, FF-9, FF-10) until it decides the game (:func:`_rule8_tiebreak_round`)."""
    players = list(record.players)
    rounds = record.tiebreak_rounds
    best = max(totals.values())
    tied = [name for name in players if totals[name] == best]
    if len(tied) == 1:
        end.winners = tied
        end.finished = True
        end.verdict = outright_verdict(totals, tied[0])
        end.notes.append(
            Note.of("{name} wins with {best}, the highest running total (rule 7).", name=tied[0], best=best)
        )
        if rounds:
            raise IllegalHandError(
                f"a tie-break was entered, but {tied[0]} won outright with {best} (rule 8)", "tiebreak"
            )
        return
    rest = ghost_candidates(record, tied)
    seat = Note.of("a Ghost (another player's seat) dealing") if rest else Note.of("a dummy Ghost seat dealing (FF-10)")
    end.notes.append(
        Note.of(
            "{names} are tied for the lead on {best}: one tie-break round with just them and {seat} (rule 8).",
            names=Names.of(tied),
            best=best,
            seat=seat,
        )
    )
    decided: list[str] | None = None
    for k in range(len(rounds)):
        tpath = f"tiebreak[{k}]" if isinstance(record.tiebreak, tuple) else "tiebreak"
        if decided is not None:
            raise IllegalHandError(
                f"tie-break round {k + 1} was entered after the tie-break had decided the game (rule 8.4)",
                tpath,
            )
        decided = _rule8_tiebreak_round(record, k, tied, best, bool(rest), totals, end)
    if decided is None:
        end.pending = Pending(kind="tiebreak", players=tied)
    else:
        end.winners = [name for name in players if name in decided]
        end.finished = True


def _rule8_tiebreak_round(
    record: Record, k: int, tied: list[str], best: int, ghost_seat: bool, totals: dict[str, int], end: _Ending
) -> list[str] | None:
    """Tie-break round ``k`` (rule 8.1-8.4, FF-9, FF-10): the Ghost is a seated player not tied for the lead (or a
    dummy seat when nobody else is seated); the players who decide the game, or ``None`` while it is undecided."""
    players, options, tb = list(record.players), record.options, record.tiebreak_rounds[k]
    multi = isinstance(record.tiebreak, tuple)
    tpath = f"tiebreak[{k}]" if multi else "tiebreak"
    if tb.ghost is not None:
        if tb.ghost not in players:
            raise UnknownPlayerError(f"{tb.ghost} is not a player in this game", f"{tpath}.ghost")
        if tb.ghost in tied:
            raise IllegalHandError(
                f"{tb.ghost} is tied for the lead and cannot be the Ghost (rule 8.1, FF-9)",
                f"{tpath}.ghost",
            )
    what = "the tie-break" if not multi else f"tie-break round {k + 1}"
    rnd = _check_round(tb, tied, players, options, tpath, what)
    tnotes: list[Note] = []
    if tb.ghost is not None:
        tnotes.append(
            Note.of(
                "{ghost}'s seat is the Ghost and deals; it always Takes, so it is always Knocked Out and cannot win "
                "(rule 8.1-8.2).",
                ghost=tb.ghost,
            )
        )
    elif not ghost_seat:
        tnotes.append(Note.of("Nobody else is seated: a dummy Ghost seat deals and always Takes (FF-10)."))
    tnotes.extend(_round_notes(rnd, tied, options, tiebreak=True))
    decided, verdict, zero = _tiebreak_verdict(rnd, tied, record, totals)
    if decided is not None:
        end.verdict = tiebreak_verdict(
            {name: rnd.points[name] for name in tied},
            {name: rnd.status[name].value for name in tied},
            best,
            totals,
            record.options.all_out_nobody_left == "joint",
        )
    tnotes.extend(verdict)
    end.tiebreaks.append({name: rnd.points[name] for name in tied})
    end.tiebreak_notes.append(tnotes)
    if zero:
        for name in tied:
            totals[name] = 0
    return decided


GAME = Game(
    key="feast-and-famine",
    name="Feast and Famine",
    ruling_prefix=RULING_PREFIX,
    hand_word="round",
    min_players=2,
    max_players=None,
    record_model=Record,
    scorer=score,
)
