"""Jokers Kill (Trevin Cowman): one card each against an up-card, lowest card or a match wins.

The rules and the numbered rulings (JK-1 … JK-14) are in ``docs/spec/jokers-kill.md``; the record format is
``records.md``, "jokers-kill". One deck (52 cards plus ``jokers`` Jokers) is used for the whole game; a hand is
started only while at least *players + 1* cards remain (rule 7, JK-6). A tie for the most points at the end is
settled by a play-off (rule 9, JK-12), a fresh deck for every play-off hand.

The seed example (JK-E1): up-card 5, five players hold 7 7 9 K 7, the three 7s get 10 10 Q, the two 10s get 6 6,
then 4 and 5: the 4 wins 3 points and collects all 13 cards, the K♥ included (+2).

>>> record = {"game": "jokers-kill", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "hands": [
...     {"up": "5S", "cards": {"Ann": "7H", "Ben": "7D", "Cat": "9C", "Dan": "KH", "Eve": "7C"},
...      "tiebreaks": [{"Ann": "10H", "Ben": "10D", "Eve": "QC"}, {"Ann": "6H", "Ben": "6D"},
...                    {"Ann": "4H", "Ben": "5D"}]}]}
>>> result = GAME.score(record)
>>> result.hands[0].points["Ann"], result.totals["Ann"], len(result.to_json()["prize"]["Ann"])
(3, 5, 13)
>>> result.hands[0].notes[-2]
'Ann collects 13 cards into their prize pile, the up-card included (rule 5, JK-2).'
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, ValidationError, computed_field, model_validator

from scoring.base import (
    HandResult,
    Model,
    PartProgress,
    Pending,
    PlayerName,
    RecordBase,
    Result,
    join_names,
    parse_record,
    rulings_of,
    validation_error,
    zeros,
)
from scoring.cards import JOKER, Card, CardField, standard_deck
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
from scoring.why import Cards, Items, Names, Note, NoteList, Rank, render, render_all

RULING_PREFIX = "JK"
"""The prefix of Jokers Kill's ruling ids (``JK-3``) in ``shared/rules/jokers-kill.md``."""

# ---------------------------------------------------------------------------------------------------------------
# The record
# ---------------------------------------------------------------------------------------------------------------


def _joker_count(value: Any) -> Any:
    """``jokers`` is a whole number, not true/false or a decimal (``false`` is not "Without Jokers")."""
    if type(value) is not int:
        raise InvalidRecordError(f"'jokers' must be 0, 2 or 4, not {value!r}")
    return value


MAX_PLAYOFF_WINS = 100
"""The most play-off wins a table can ask for (JK-12 house rule): the rules say 3; a play-off to 100 wins is
already hours of one-card hands."""


class Options(Model):
    """The house rules of Jokers Kill (``house-rules.md``); every key is optional.

    >>> Options().jokers, Options().playoff_wins
    (0, 3)
    >>> Options(jokers=3)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for Options
    ...
    """

    jokers: Annotated[Literal[0, 2, 4], BeforeValidator(_joker_count)] = 0
    """Jokers shuffled into the deck: 0 (Without Jokers), 2 or 4 (JK-11)."""
    upcard_to_prize: StrictBool = True
    """The up-card goes to the hand's winner (JK-2); false: it is discarded."""
    ace_upcard_matches_ace: StrictBool = True
    """A player's Ace matches an Ace up-card (JK-1); false: it never does."""
    joker_in_tiebreak: Literal["dead", "drop"] = "dead"
    """A Joker dealt in a tie-break kills the hand (JK-8); "drop": only its receiver drops out."""
    joker_upcard: Literal["dead", "redraw"] = "dead"
    """A Joker turned as the up-card kills the hand (JK-9); "redraw": it is buried and a new up-card turned."""
    playoff_wins: StrictInt = Field(default=3, ge=1, le=MAX_PLAYOFF_WINS)
    """Play-off hands a player must win to win the game (rule 9, JK-12): 1 to :data:`MAX_PLAYOFF_WINS`."""


class _CardMaps(Model):
    """A hand's maps of players to cards, each naming a player once (:func:`_names_once`): a hand as entered
    (:class:`Hand`) and one still being entered."""

    @model_validator(mode="before")
    @classmethod
    def _names_once(cls, data: Any) -> Any:
        return _names_once(data)


class Hand(_CardMaps):
    """One hand as the table entered it (also the shape of a play-off hand)."""

    up: CardField
    """The up-card that decided the hand."""
    buried: tuple[CardField, ...] = ()
    """Joker up-cards buried before ``up`` was turned (house rule JK-9 "redraw" only)."""
    cards: dict[PlayerName, CardField]
    """Every player's card of the first deal."""
    tiebreaks: tuple[dict[PlayerName, CardField], ...] = ()
    """Each tie-break deal in order, to exactly the players still tied (rule 4.4, JK-4)."""
    void: StrictBool = False
    """The tie-break could not be dealt for want of cards: nobody scores and the game ends (JK-7)."""


def _names_once(data: Any) -> Any:
    """Refuse a card map naming a player twice once names are trimmed (``"Ann"`` and ``" Ann"``): nothing is lost."""
    if not isinstance(data, Mapping):
        return data
    maps = [data.get("cards")]
    deals = data.get("tiebreaks")
    if isinstance(deals, list | tuple):
        maps += list(deals)
    for one in maps:
        if isinstance(one, Mapping):
            names = [key.strip() for key in one if isinstance(key, str)]
            if "" in names:
                raise ValueError("a card is entered for a player with an empty name")
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                raise ValueError(f"{twice[0]} has two cards in the same deal")
    return data


class Record(RecordBase):
    """A whole game of Jokers Kill."""

    game: Literal["jokers-kill"]
    options: Options = Field(default_factory=Options)
    hands: tuple[Hand, ...] = ()
    playoff: tuple[Hand, ...] = ()
    """Play-off hands between the players tied for the most points, each with a fresh deck (rule 9, JK-12)."""


# ---------------------------------------------------------------------------------------------------------------
# Cards and comparisons
# ---------------------------------------------------------------------------------------------------------------

BONUS: dict[Card, int] = {Card.parse("KH"): 2, Card.parse("JS"): 1, Card.parse("JH"): 1}
"""The bonus cards of a prize pile (rule 8). Each Joker in a prize pile is −1."""


def deck_size(options: Options) -> int:
    """Cards in the deck: 52 plus the Jokers (rule 1, JK-11).

    >>> deck_size(Options()), deck_size(Options(jokers=4))
    (52, 56)
    """
    return 52 + options.jokers


def player_rank(card: Card) -> int:
    """A player's card for the lowest-card comparison: a player's Ace is below 2 (rule 3, JK-5).

    >>> player_rank(Card.parse("AH")), player_rank(Card.parse("2C")), player_rank(Card.parse("KS"))
    (1, 2, 13)
    """
    return card.rank_index


def upcard_rank(card: Card) -> int:
    """The up-card for the lower/higher comparison: an Ace up-card is above every player's card (rule 3).

    >>> upcard_rank(Card.parse("AS")), upcard_rank(Card.parse("9S"))
    (14, 9)
    """
    return 14 if card.rank == "A" else card.rank_index


def matches(card: Card, up: Card, options: Options | None = None) -> bool:
    """Whether a player's card matches the up-card: same rank, suits irrelevant (rule 3).

    A player's Ace matches an Ace up-card by default (JK-1, JK-E6); with ``ace_upcard_matches_ace`` false it never
    does.

    >>> matches(Card.parse("8D"), Card.parse("8S"))
    True
    >>> matches(Card.parse("AH"), Card.parse("AS")), matches(Card.parse("AH"), Card.parse("AS"),
    ...                                                       Options(ace_upcard_matches_ace=False))
    (True, False)
    """
    if card.is_joker or up.is_joker or card.rank != up.rank:
        return False
    return not (card.rank == "A" and options is not None and not options.ace_upcard_matches_ace)


def bonus_of(pile: Sequence[Card]) -> int:
    """The bonus of a prize pile: K♥ +2, J♠ +1, J♥ +1, −1 per Joker (rule 8, JK-E11).

    >>> bonus_of([Card.parse(c) for c in ("KH", "JS", "JK", "JK", "5C")])
    1
    """
    return sum(-1 if card.is_joker else BONUS.get(card, 0) for card in pile)


def _cards_word(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _cards_note(count: int) -> Note:
    return Note.of("{count} card" if count == 1 else "{count} cards", count=count)


def _left_note(count: int) -> Note:
    """``no card is left``, ``only 1 card is left``, ``only 2 cards are left`` (in the middle of a sentence)."""
    if count <= 0:
        return Note.of("no card is left")
    cards = _cards_note(count)
    return Note.of("only {cards} is left" if count == 1 else "only {cards} are left", cards=cards)


def _left_note_first(count: int) -> Note:
    """``No card is left``, ``Only 1 card is left``, ``Only 2 cards are left`` (a sentence's start)."""
    if count <= 0:
        return Note.of("No card is left")
    cards = _cards_note(count)
    return Note.of("Only {cards} is left" if count == 1 else "Only {cards} are left", cards=cards)


def _dealt(names: Sequence[str], cards: Mapping[str, Card]) -> Items:
    """``Ann 7♥, Ben 9♦``."""
    return Items.of(Note.of("{name} {card}", name=name, card=Cards.of([cards[name]])) for name in names)


def _has(names: Sequence[str]) -> str:
    return "has" if len(names) == 1 else "have"


# ---------------------------------------------------------------------------------------------------------------
# One hand, step by step
# ---------------------------------------------------------------------------------------------------------------


class Need(enum.Enum):
    """What entering a hand needs next, or how it ended."""

    UP_CARD = "up-card"
    """The up-card must be entered (again, after burying a Joker under house rule JK-9 "redraw")."""
    CARDS = "cards"
    """``players`` still need their card of the first deal."""
    TIEBREAK = "tiebreak"
    """``players`` are tied and must each get the next tie-break card (rule 4.4)."""
    DECIDED = "decided"
    """The hand is won: ``winner`` scores ``points``."""
    DEAD = "dead"
    """A Joker killed the hand: nobody scores (rule 6, JK-8, JK-9)."""
    VOID = "void"
    """``players`` are tied but too few cards remain for the tie-break: mark the hand void (JK-7)."""


@dataclass(frozen=True, slots=True)
class DealNeed:
    """The answer of :func:`deal_needed`: what to ask the table next, or how the hand ended."""

    need: Need
    players: tuple[str, ...] = ()
    """Who must get a card next (``CARDS``, ``TIEBREAK``), or who is left tied (``VOID``)."""
    winner: str | None = None
    points: int = 0
    why: tuple[Note, ...] = field(default=(), repr=False)
    """The explanation so far as data (:class:`scoring.why.Note`), with ruling numbers."""

    @property
    def notes(self) -> tuple[str, ...]:
        """``why`` in English words.

        >>> DealNeed(Need.DEAD, why=(Note.of("A Joker kills the hand (rule 6)."),)).notes
        ('A Joker kills the hand (rule 6).',)
        """
        return tuple(render_all(self.why))

    @property
    def complete(self) -> bool:
        """The hand needs no more cards (decided, dead or void).

        >>> DealNeed(Need.TIEBREAK, ("Ann", "Ben")).complete, DealNeed(Need.DEAD).complete
        (False, True)
        """
        return self.need in (Need.DECIDED, Need.DEAD, Need.VOID)


@dataclass
class _Parts:
    up: Card | None
    buried: list[Card]
    cards: dict[str, Card]
    tiebreaks: list[dict[str, Card]]
    void: bool

    @staticmethod
    def of(hand: Hand) -> _Parts:
        return _Parts(hand.up, list(hand.buried), dict(hand.cards), [dict(d) for d in hand.tiebreaks], hand.void)

    def count(self) -> int:
        return len(self.buried) + (self.up is not None) + len(self.cards) + sum(len(d) for d in self.tiebreaks)

    def walk(self, base: str) -> Iterator[tuple[Card, str]]:
        """Every card with its path, in dealing order."""
        for j, card in enumerate(self.buried):
            yield card, f"{base}.buried[{j}]"
        if self.up is not None:
            yield self.up, f"{base}.up"
        for name, card in self.cards.items():
            yield card, f"{base}.cards.{name}"
        for k, deal in enumerate(self.tiebreaks):
            for name, card in deal.items():
                yield card, f"{base}.tiebreaks[{k}].{name}"


@dataclass
class _Outcome:
    need: DealNeed
    prize: dict[str, list[Card]] = field(default_factory=dict)
    used: int = 0


@dataclass(frozen=True)
class _Ctx:
    label: str
    """``hand 3`` or ``play-off hand 2``."""
    base: str
    """``hands[2]`` or ``playoff[1]``."""
    seated: tuple[str, ...]
    playoff: bool = False


def _lowest(names: Sequence[str], dealt: Mapping[str, Card]) -> list[str]:
    low = min(player_rank(dealt[name]) for name in names)
    return [name for name in names if player_rank(dealt[name]) == low]


def _check_names(names: Sequence[str], allowed: Sequence[str], ctx: _Ctx, path: str, why: str) -> None:
    for name in names:
        if name not in ctx.seated:
            raise UnknownPlayerError(f"{name} is not a player in this game", f"{path}.{name}")
        if name not in allowed:
            raise IllegalHandError(f"{name} {why}", f"{path}.{name}")


@dataclass
class _Hand:
    """One hand being replayed by :func:`_resolve`: what was entered, and what the rulings found so far."""

    options: Options
    players: Sequence[str]
    parts: _Parts
    cards_left: int
    ctx: _Ctx
    complete: bool
    """The hand must be fully entered (scoring); otherwise say what is missing."""
    used: int = 0
    notes: list[Note] = field(default_factory=list)
    prize: dict[str, list[Card]] = field(default_factory=dict)
    winner: str | None = None
    points: int = 0
    tied: list[str] = field(default_factory=list)
    collected: list[Card] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.ctx.label

    @property
    def base(self) -> str:
        return self.ctx.base

    def out(self, need: Need, who: Sequence[str] = (), winner: str | None = None, points: int = 0) -> _Outcome:
        """The outcome, its notes as a play-off hand says them (:func:`_jk12_playoff_notes`)."""
        said = _jk12_playoff_notes(self, need, winner) if self.ctx.playoff else self.notes
        return _Outcome(DealNeed(need, tuple(who), winner, points, tuple(said)), self.prize, self.used)


def _jk12_playoff_notes(hand: _Hand, need: Need, winner: str | None) -> list[Note]:
    """JK-12: a play-off hand won (a tie-break too) is one play-off win, a dead or void one is nobody's; points and
    prize piles do not count."""
    if need not in (Need.DECIDED, Need.DEAD, Need.VOID):
        return hand.notes
    said = [note for note in hand.notes if "prize pile" not in render(note)]
    if winner is not None:
        said.append(
            Note.of(
                "{winner} wins this play-off hand: one play-off win; points and cards do not count (JK-12).",
                winner=winner,
            )
        )
    elif need is Need.DEAD:
        said.append(Note.of("A dead play-off hand is nobody's win (JK-12)."))
    else:
        said.append(Note.of("A void play-off hand is nobody's win (JK-12)."))
    return said


def _resolve(
    options: Options, players: Sequence[str], parts: _Parts, cards_left: int, ctx: _Ctx, complete: bool
) -> _Outcome:
    """Replay one hand. ``complete``: the hand must be fully entered (scoring); otherwise say what is missing.

    Each step applies its rulings in the rules' order and either ends the hand (an :class:`_Outcome`) or passes it
    on: the buried Jokers (JK-9), the first deal (rule 2), a Joker dealt or turned up (rule 6, JK-9, JK-10), who
    wins the first deal (rule 4.1 to 4.3, JK-1, JK-5), the tie-breaks (rule 4.4, JK-3, JK-4, JK-8), a tie that the
    deck cannot break (JK-7) and the winner's prize pile (rule 5, JK-2, rule 8).
    """
    hand = _Hand(options, players, parts, cards_left, ctx, complete, used=parts.count())
    _jk9_buried_jokers(hand)
    outcome = _rule2_first_deal_entered(hand) or _rule6_jk9_jk10_dead_hand(hand)
    if outcome is not None:
        return outcome
    _rule4_first_deal(hand)
    for k, deal in enumerate(parts.tiebreaks):
        outcome = _rule4_4_tiebreak(hand, k, deal)
        if outcome is not None:
            return outcome
    if hand.winner is None:
        return _jk7_still_tied(hand)
    return _rule5_prize_pile(hand)


def _jk9_buried_jokers(hand: _Hand) -> None:
    """House rule JK-9 (``joker_upcard`` ``redraw``): a Joker turned as the up-card is buried and a new up-card
    turned; only a Joker, and only under that house rule, is listed as buried."""
    options, parts, label, base = hand.options, hand.parts, hand.label, hand.base
    for j, card in enumerate(parts.buried):
        if options.joker_upcard != "redraw":
            raise IllegalHandError(
                f'{label} lists buried cards, but only the house rule joker_upcard "redraw" buries a Joker up-card '
                "(JK-9)",
                f"{base}.buried",
            )
        if not card.is_joker:
            raise IllegalHandError(
                f"{card.label} is listed as buried in {label}, but only a Joker up-card is buried (JK-9)",
                f"{base}.buried[{j}]",
            )
    if parts.buried:
        n = len(parts.buried)
        hand.notes.append(
            Note.of("A Joker was turned as the up-card and buried, and a new up-card turned (house rule JK-9).")
            if n == 1
            else Note.of(
                "{count} Jokers were turned as the up-card and buried, and a new up-card turned (house rule JK-9).",
                count=n,
            )
        )


def _rule2_first_deal_entered(hand: _Hand) -> _Outcome | None:
    """Rule 2: an up-card (a Joker one buried while a card is left to turn instead, JK-9) and one card for every
    player; until then the hand asks for what is missing."""
    options, players, parts, label, base = hand.options, hand.players, hand.parts, hand.label, hand.base
    _check_names(list(parts.cards), players, hand.ctx, f"{base}.cards", f"does not play {label}")
    up = parts.up
    spare = hand.cards_left - len(parts.buried) - 1 - len(players)
    if up is not None and up.is_joker and options.joker_upcard == "redraw" and spare > 0:
        if not hand.complete:
            hand.notes.append(Note.of("The up-card is a Joker: bury it and turn a new up-card (house rule JK-9)."))
            return hand.out(Need.UP_CARD)
        raise IllegalHandError(
            f"the up-card of {label} is a Joker: under the house rule joker_upcard \"redraw\" it goes into 'buried' "
            "and a new up-card is turned (JK-9)",
            f"{base}.up",
        )
    if up is None:
        return hand.out(Need.UP_CARD)
    missing = [name for name in players if name not in parts.cards]
    if missing:
        if hand.complete:
            raise IllegalHandError(f"{join_names(missing)} {_has(missing)} no card in {label}", f"{base}.cards")
        if parts.tiebreaks:
            raise IllegalHandError(f"{label} has tie-break cards before every player has a card", f"{base}.tiebreaks")
        return hand.out(Need.CARDS, missing)
    return None


def _rule6_jk9_jk10_dead_hand(hand: _Hand) -> _Outcome | None:
    """Rule 6, JK-9, JK-10: a Joker dealt to a player or turned as the up-card kills the hand; nobody scores, each
    player dealt a Joker keeps it (−1 at the end), a Joker up-card is discarded."""
    options, players, parts, label, base = hand.options, hand.players, hand.parts, hand.label, hand.base
    up, cards, notes = parts.up, parts.cards, hand.notes
    assert up is not None  # rule 2 asked for it first
    jokered = [name for name in players if cards[name].is_joker]
    if not (jokered or up.is_joker):
        return None
    reasons = []
    if up.is_joker:
        reasons.append("the up-card is a Joker")
    if jokered:
        reasons.append(f"{join_names(jokered)} {'was' if len(jokered) == 1 else 'were'} dealt a Joker")
    reason = " and ".join(reasons)
    notes.append(Note.of("Up-card {up}; {dealt}.", up=Cards.of([up]), dealt=_dealt(players, cards)))
    if parts.tiebreaks:
        raise IllegalHandError(f"{label} is dead ({reason}), so it has no tie-break", f"{base}.tiebreaks[0]")
    if parts.void:
        raise IllegalHandError(f"{label} is dead ({reason}), so it is not void (JK-7)", f"{base}.void")
    if up.is_joker and options.joker_upcard == "redraw":
        notes.append(
            Note.of(
                "The up-card is a Joker and no card is left to turn instead: the hand is dead and that Joker is "
                "discarded (JK-9)."
            )
        )
    elif up.is_joker:
        notes.append(Note.of("The up-card is a Joker: the hand is dead and that Joker is discarded (JK-9)."))
    if jokered:
        names = Names.of(jokered)
        notes.append(
            Note.of(
                "{names} was dealt a Joker: the hand is dead and nobody scores (rule 6)."
                if len(jokered) == 1
                else "{names} were dealt a Joker: the hand is dead and nobody scores (rule 6).",
                names=names,
            )
        )
        for name in jokered:
            hand.prize[name] = [JOKER]
        notes.append(
            Note.of(
                "{names} puts the Joker in their prize pile, −1 at the end (rule 8, JK-10); the other cards are "
                "discarded."
                if len(jokered) == 1
                else "{names} each put their Joker in their prize pile, −1 at the end (rule 8, JK-10); the other "
                "cards are discarded.",
                names=names,
            )
        )
    else:
        notes.append(Note.of("The players' cards are discarded."))
    return hand.out(Need.DEAD)


def _rule4_first_deal(hand: _Hand) -> None:
    """Rule 4.1 to 4.3 (JK-1, JK-5): one player matching the up-card wins 3 points; several matching go to a
    tie-break; nobody matching, the unique lowest card wins 2 points below the up-card, 1 above it, and a shared
    lowest card goes to a tie-break (JK-4: between those players only). The hand's cards are collected."""
    options, players, notes = hand.options, hand.players, hand.notes
    up, cards = hand.parts.up, hand.parts.cards
    assert up is not None  # rule 2 asked for it first
    notes.append(Note.of("Up-card {up}; {dealt}.", up=Cards.of([up]), dealt=_dealt(players, cards)))
    matchers = [name for name in players if matches(cards[name], up, options)]
    if up.rank == "A" and not options.ace_upcard_matches_ace and any(cards[n].rank == "A" for n in players):
        notes.append(Note.of("House rule JK-1: a player's Ace does not match an Ace up-card."))
    ace_note = Note.of(" (JK-1)" if up.rank == "A" else "")
    if len(matchers) == 1:
        hand.winner, hand.points = matchers[0], 3
        notes.append(
            Note.of(
                "{winner} alone matches the up-card's rank{ace}: 3 points, lower cards do not matter (rule 4.1).",
                winner=hand.winner,
                ace=ace_note,
            )
        )
    elif len(matchers) >= 2:
        hand.tied = matchers
        notes.append(
            Note.of(
                "{names} match the up-card{ace}: a tie-break between them only (rule 4.2, JK-4).",
                names=Names.of(hand.tied),
                ace=ace_note,
            )
        )
    else:
        lowest = _lowest(players, cards)
        low = cards[lowest[0]]
        ace = Note.of(" (a player's Ace is the lowest card, JK-5)" if low.rank == "A" else "")
        if len(lowest) == 1:
            winner = hand.winner = lowest[0]
            if player_rank(low) < upcard_rank(up):
                hand.points = 2
                above = Note.of(" (an Ace up-card is above every player's card, rule 3)" if up.rank == "A" else "")
                notes.append(
                    Note.of(
                        "Nobody matches; {winner}'s {card} is the lowest card{ace} and below the up-card{above}: "
                        "2 points (rule 4.3).",
                        winner=winner,
                        card=Cards.of([low]),
                        ace=ace,
                        above=above,
                    )
                )
            else:
                hand.points = 1
                notes.append(
                    Note.of(
                        "Nobody matches; {winner}'s {card} is the lowest card but above the up-card: 1 point "
                        "(rule 4.3).",
                        winner=winner,
                        card=Cards.of([low]),
                    )
                )
        else:
            hand.tied = lowest
            notes.append(
                Note.of(
                    "Nobody matches; {names} tie for the lowest card ({rank}){ace}: a tie-break between them only "
                    "(rule 4.3, JK-4).",
                    names=Names.of(hand.tied),
                    rank=Rank.of(low),
                    ace=ace,
                )
            )
    hand.collected = ([up] if options.upcard_to_prize else []) + [cards[name] for name in players]


def _rule4_4_tiebreak(hand: _Hand, k: int, deal: Mapping[str, Card]) -> _Outcome | None:
    """Rule 4.4 (JK-3, JK-4): tie-break ``k`` deals one card to each player still tied; the unique lowest wins 3
    points (matching the up-card means nothing), a shared lowest deals again to those players only. A Joker dealt
    here is JK-8's (:func:`_jk8_joker_in_tiebreak`)."""
    parts, label, base, notes = hand.parts, hand.label, hand.base, hand.notes
    up = parts.up
    assert up is not None  # rule 2 asked for it first
    dpath = f"{base}.tiebreaks[{k}]"
    if hand.winner is not None:
        raise IllegalHandError(
            f"{label} was already won by {hand.winner} before tie-break {k + 1}, so that deal is not possible", dpath
        )
    tied = hand.tied
    _check_names(
        list(deal),
        tied,
        hand.ctx,
        dpath,
        f"is not tied in {label}: tie-break {k + 1} is dealt only to {join_names(tied)}",
    )
    gaps = [name for name in tied if name not in deal]
    if gaps:
        if hand.complete or k < len(parts.tiebreaks) - 1:
            raise IllegalHandError(
                f"{join_names(gaps)} {_has(gaps)} no card in tie-break {k + 1} of {label} "
                f"(it is dealt to {join_names(tied)})",
                dpath,
            )
        return hand.out(Need.TIEBREAK, gaps)
    desc = _dealt(tied, deal)
    jokers_here = [name for name in tied if deal[name].is_joker]
    hand.collected += [deal[name] for name in tied if not deal[name].is_joker]
    if jokers_here:
        outcome = _jk8_joker_in_tiebreak(hand, k, desc, jokers_here)
        if outcome is not None or hand.winner is not None:
            return outcome
        tied = hand.tied
    lowest = _lowest(tied, deal)
    low = deal[lowest[0]]
    if len(lowest) == 1:
        winner = hand.winner = lowest[0]
        hand.points = 3
        match = Note.of(
            " (matching the up-card means nothing in a tie-break)" if any(deal[n].rank == up.rank for n in tied) else ""
        )
        ace = Note.of(", a player's Ace being lowest" if low.rank == "A" else "")
        text = Note.of(
            "{first}'s {card} is the lowest{ace}{match}: {winner} wins the tie-break, 3 points (rule 4.4, JK-3).",
            # a sentence of its own starts with a capital, as the name is written or not
            first=winner if not jokers_here else winner[:1].upper() + winner[1:],
            card=Cards.of([low]),
            ace=ace,
            match=match,
            winner=winner,
        )
        hand.tied = []
    else:
        hand.tied = lowest
        text = Note.of(
            "{names} tie again for the lowest ({rank}) and each get another card (rule 4.4).",
            names=Names.of(lowest),
            rank=Rank.of(low),
        )
    notes.append(
        text if jokers_here else Note.of("Tie-break {number}: {dealt}; {text}", number=k + 1, dealt=desc, text=text)
    )
    return None


def _jk8_joker_in_tiebreak(hand: _Hand, k: int, desc: Items, jokers_here: list[str]) -> _Outcome | None:
    """JK-8: a Joker dealt in a tie-break kills the whole hand (each Joker to its receiver's prize pile); under the
    house rule ``joker_in_tiebreak`` ``drop_out`` only its receiver drops out, and the last player left wins 3
    points (JK-3). Every tied player getting a Joker kills the hand under either."""
    options, parts, label, base, notes = hand.options, hand.parts, hand.label, hand.base, hand.notes
    for name in jokers_here:
        hand.prize.setdefault(name, []).append(JOKER)
    one = len(jokers_here) == 1
    names = Names.of(jokers_here)
    if options.joker_in_tiebreak == "dead" or len(jokers_here) == len(hand.tied):
        if k < len(parts.tiebreaks) - 1:
            raise IllegalHandError(
                f"{label} died in tie-break {k + 1} (a Joker was dealt), so tie-break {k + 2} is not possible",
                f"{base}.tiebreaks[{k + 1}]",
            )
        if parts.void:
            raise IllegalHandError(f"{label} is dead (a Joker was dealt), so it is not void (JK-7)", f"{base}.void")
        why = (
            Note.of("the hand is dead (JK-8)")
            if options.joker_in_tiebreak == "dead"
            else Note.of("every tied player got a Joker, so the hand is dead (house rule JK-8)")
        )
        notes.append(
            Note.of(
                "Tie-break {number}: {dealt}; {names} was dealt a Joker: {why}."
                if one
                else "Tie-break {number}: {dealt}; {names} were dealt a Joker: {why}.",
                number=k + 1,
                dealt=desc,
                names=names,
                why=why,
            )
        )
        notes.append(
            Note.of(
                "Nobody scores; each Joker goes to its receiver's prize pile (−1 at the end, rule 8, JK-10) and "
                "every other card of the hand is discarded (rule 6)."
            )
        )
        return hand.out(Need.DEAD)
    hand.tied = [name for name in hand.tied if name not in jokers_here]
    notes.append(
        Note.of(
            "Tie-break {number}: {dealt}; {names} was dealt a Joker and drops out, the Joker going to their prize "
            "pile (house rule JK-8)."
            if one
            else "Tie-break {number}: {dealt}; {names} were dealt a Joker and drop out, the Joker going to their "
            "prize pile (house rule JK-8).",
            number=k + 1,
            dealt=desc,
            names=names,
        )
    )
    if len(hand.tied) == 1:
        hand.winner, hand.points = hand.tied[0], 3
        notes.append(
            Note.of("{winner} is the only player left in the tie-break: 3 points (rule 4.4, JK-3).", winner=hand.winner)
        )
        hand.tied = []
    return None


def _jk7_still_tied(hand: _Hand) -> _Outcome:
    """JK-7: players still tied with fewer cards left than they need make the hand void (nobody scores, its cards
    go to nobody, the game ends); with enough cards left, the hand asks for the next tie-break (rule 4.4)."""
    parts, label, base, tied = hand.parts, hand.label, hand.base, hand.tied
    left = max(0, hand.cards_left - hand.used)
    if left < len(tied):
        kept = [name for name, pile in hand.prize.items() if JOKER in pile]
        if not kept:
            jokers_kept = Note.of("")
        elif len(kept) > 1:
            jokers_kept = Note.of(
                " (the Jokers dealt to {names} in the tie-break stay in their prize pile, house rule JK-8)",
                names=Names.of(kept),
            )
        else:
            jokers_kept = Note.of(
                " (the Joker dealt to {names} in the tie-break stays in their prize pile, house rule JK-8)",
                names=Names.of(kept),
            )
        hand.notes.append(
            Note.of(
                "{names} are still tied and {left}: the hand is void, nobody scores, its cards go to "
                "nobody{kept} and the game ends (JK-7).",
                names=Names.of(tied),
                left=_left_note(left),
                kept=jokers_kept,
            )
        )
        if not parts.void and hand.complete:
            raise IllegalHandError(
                f"{label} ends tied between {join_names(tied)} with only {_cards_word(left)} left for the "
                "tie-break: mark it void (JK-7)",
                f"{base}.void",
            )
        return hand.out(Need.VOID, tied)
    if parts.void:
        raise IllegalHandError(
            f"{label} cannot be void: {_cards_word(left)} are left, enough for the tie-break between "
            f"{join_names(tied)} (JK-7)",
            f"{base}.void",
        )
    if hand.complete:
        raise IllegalHandError(
            f"{label} is still tied between {join_names(tied)}: enter tie-break {len(parts.tiebreaks) + 1} "
            "for them (rule 4.4)",
            f"{base}.tiebreaks",
        )
    return hand.out(Need.TIEBREAK, tied)


def _rule5_prize_pile(hand: _Hand) -> _Outcome:
    """Rule 5 (JK-2) and rule 8: the winner collects the hand's cards, the up-card too unless the house rule
    discards it; the bonus cards among them are said."""
    winner = hand.winner
    assert winner is not None
    if hand.parts.void:
        raise IllegalHandError(f"{hand.label} was won by {winner}, so it cannot be void (JK-7)", f"{hand.base}.void")
    hand.prize.setdefault(winner, []).extend(hand.collected)
    hand.notes.append(
        Note.of(
            "{winner} collects {cards} into their prize pile, the up-card included (rule 5, JK-2)."
            if hand.options.upcard_to_prize
            else "{winner} collects {cards} into their prize pile, the up-card discarded (house rule JK-2).",
            winner=winner,
            cards=_cards_note(len(hand.collected)),
        )
    )
    for name, pile in hand.prize.items():
        for card in pile:
            if card in BONUS:
                hand.notes.append(
                    Note.of(
                        "{card} goes to {name}'s prize pile: +{bonus} at the end (rule 8).",
                        card=Cards.of([card]),
                        name=name,
                        bonus=BONUS[card],
                    )
                )
    return hand.out(Need.DECIDED, (), winner, hand.points)


# ---------------------------------------------------------------------------------------------------------------
# Replaying a game
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _HandOut:
    need: DealNeed
    up: Card
    cards_left: int
    prize: dict[str, list[Card]]


@dataclass
class _State:
    record: Record
    players: list[str]
    deck: int
    left: int
    used: set[Card] = field(default_factory=set)
    jokers_used: int = 0
    hands: list[_HandOut] = field(default_factory=list)
    prize: dict[str, list[Card]] = field(default_factory=dict)
    over: bool = False
    void_end: bool = False
    playoff: list[_HandOut] = field(default_factory=list)
    playoff_wins: dict[str, int] = field(default_factory=dict)
    tied: list[str] = field(default_factory=list)
    champion: str | None = None

    @property
    def hand_points(self) -> dict[str, int]:
        points = zeros(self.players)
        for hand in self.hands:
            if hand.need.winner is not None:
                points[hand.need.winner] += hand.need.points
        return points

    @property
    def bonus(self) -> dict[str, int]:
        return {name: bonus_of(self.prize[name]) for name in self.players}


def _check_cards(
    options: Options, parts: _Parts, base: str, label: str, seen: dict[Card, str], jokers: int, game_wide: bool
) -> int:
    """No card twice (in the game, or in this play-off hand), Jokers within ``options.jokers``; returns Jokers used."""
    for card, path in parts.walk(base):
        if card.is_joker:
            if options.jokers == 0:
                raise InvalidCardError(
                    f"a Joker was entered in {label}, but this game is played without Jokers (options.jokers is 0)",
                    path,
                )
            jokers += 1
            if jokers > options.jokers:
                scope = "the game" if game_wide else label
                raise DuplicateCardError(
                    f"a Joker too many in {label}: the deck has only {options.jokers} Jokers for {scope}", path
                )
            continue
        if card in seen:
            if seen[card] == label:
                message = f"{card.label} appears twice in {label}"
            else:
                message = f"{card.label} appears twice: in {seen[card]} and in {label} (one deck for the whole game)"
            raise DuplicateCardError(message, path)
        seen[card] = label
    return jokers


def _replay(record: Record) -> _State:
    options = record.options
    players = list(record.players)
    if len(players) < 2:
        raise InvalidRecordError("Jokers Kill needs at least 2 players", "players")
    deck = deck_size(options)
    if len(players) + 1 > deck:
        raise InvalidRecordError(
            f"a deck of {deck} cards cannot deal a hand to {len(players)} players (at most {deck - 1})", "players"
        )
    state = _State(record, players, deck, deck, prize={name: [] for name in players})
    seen: dict[Card, str] = {}
    seated = tuple(players)
    for i, hand in enumerate(record.hands):
        base, label = f"hands[{i}]", f"hand {i + 1}"
        if state.over:
            why = "the last hand was void (JK-7)" if state.void_end else f"only {_cards_word(state.left)} were left"
            raise IllegalHandError(f"{label} was entered after the game was over ({why})", base)
        parts = _Parts.of(hand)
        state.jokers_used = _check_cards(options, parts, base, label, seen, state.jokers_used, True)
        outcome = _resolve(options, players, parts, state.left, _Ctx(label, base, seated), True)
        state.left -= outcome.used
        for name, pile in outcome.prize.items():
            state.prize[name].extend(pile)
        state.hands.append(_HandOut(outcome.need, hand.up, state.left, outcome.prize))
        if outcome.need.need is Need.VOID:
            state.over = state.void_end = True
        elif state.left < len(players) + 1:
            state.over = True
    state.used = set(seen)
    if state.over:
        totals = _totals(state)
        best = max(totals.values())
        leaders = [name for name in players if totals[name] == best]
        if len(leaders) == 1:
            state.champion = leaders[0]
        else:
            state.tied = leaders
            state.playoff_wins = dict.fromkeys(leaders, 0)
    for i, hand in enumerate(record.playoff):
        base, label = f"playoff[{i}]", f"play-off hand {i + 1}"
        if not state.over:
            raise IllegalHandError(
                f"{label} was entered before the game was over ({_cards_word(state.left)} are still left)", base
            )
        if state.champion is not None:
            if state.tied:
                raise IllegalHandError(
                    f"{label} was entered after {state.champion} had already won {options.playoff_wins} play-off hands",
                    base,
                )
            raise IllegalHandError(f"no play-off is needed: {state.champion} has the most points", base)
        parts = _Parts.of(hand)
        _check_cards(options, parts, base, label, {}, 0, False)
        why = f"is not in the play-off (only {join_names(state.tied)} play it)"
        _check_names(list(hand.cards), state.tied, _Ctx(label, base, seated), f"{base}.cards", why)
        outcome = _resolve(options, state.tied, parts, deck, _Ctx(label, base, seated, playoff=True), True)
        state.playoff.append(_HandOut(outcome.need, hand.up, deck - outcome.used, outcome.prize))
        if outcome.need.winner is not None:
            state.playoff_wins[outcome.need.winner] += 1
            if state.playoff_wins[outcome.need.winner] >= options.playoff_wins:
                state.champion = outcome.need.winner
    return state


def _totals(state: _State) -> dict[str, int]:
    points, bonus = state.hand_points, state.bonus
    return {name: points[name] + bonus[name] for name in state.players}


class JokersKillHandResult(HandResult):
    """One Jokers Kill hand (or play-off hand): 3, 2 or 1 points to its winner (rule 4), the up-card, and the
    prize piles it filled (rule 5, JK-2)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX

    winner: str | None
    dead: bool
    """A Joker killed the hand (rule 6, JK-8, JK-9)."""
    void: bool
    """The tie-break could not be dealt (JK-7)."""
    up: str
    cards_left: int
    """Cards of the deck left after this hand."""
    prize: dict[str, list[str]]
    """The cards each player collected in this hand."""


class JokersKillResult(Result):
    """A Jokers Kill game: ``totals`` = hand points + prize-pile bonus (rule 8); the play-off once the deck is used
    up with a tie for the most (rule 9, JK-12). ``notes`` (with ``rulings``) say how the game ended."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX
    OMIT_NONE: ClassVar[frozenset[str]] = frozenset({"playoff_wins", "playoff"})
    HAND_LISTS: ClassVar[tuple[str, ...]] = ("hands", "playoff")

    hands: list[JokersKillHandResult] = Field(default_factory=list)  # type: ignore[assignment]
    prize: dict[str, list[str]]
    """Each player's prize pile, in the order collected."""
    bonus: dict[str, int]
    """K♥ +2, J♠ +1, J♥ +1, −1 per Joker (rule 8)."""
    hand_points: dict[str, int]
    winner: str | None = None
    cards_left: int
    hands_left: int
    notes: list[str] = Field(default_factory=list)
    why: NoteList = Field(default_factory=list)
    """``notes`` as data (:class:`scoring.why.Note`)."""
    playoff_wins: dict[str, int] | None = None
    """Play-off hands won; present once a play-off is pending or played (JK-12)."""
    playoff: list[JokersKillHandResult] | None = None
    """The play-off hands' results; present once a play-off is pending or played."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rulings(self) -> list[list[str]]:
        """The rule and ruling ids of each of ``notes`` (:func:`scoring.base.rulings_of`)."""
        return [rulings_of(note, self.RULING_PREFIX) for note in self.notes]

    def part_progress(self) -> dict[str, PartProgress]:
        """The play-off hands each tied player has won (JK-12): ``"2 play-off wins"``; more wins rank first.

        >>> part = JokersKillResult.model_construct(playoff_wins={"Ben": 3, "Cat": 1}).part_progress()["Cat"]
        >>> part.text, part.rank
        ('1 play-off win', (-1,))
        """
        wins = self.playoff_wins or {}
        return {
            name: PartProgress(
                Note.of("{count} play-off win" if count == 1 else "{count} play-off wins", count=count), (-count,)
            )
            for name, count in wins.items()
        }


def _hand_json(state: _State, hand: _HandOut, players: Sequence[str]) -> JokersKillHandResult:
    need = hand.need
    points = zeros(players)
    if need.winner is not None:
        points[need.winner] = need.points
    return JokersKillHandResult.model_validate(
        {
            "points": points,
            "why": list(need.why),
            "winner": need.winner,
            "dead": need.need is Need.DEAD,
            "void": need.need is Need.VOID,
            "up": str(hand.up),
            "cards_left": hand.cards_left,
            "prize": {name: [str(c) for c in pile] for name, pile in hand.prize.items()},
        }
    )


def verdict_of(
    totals: Mapping[str, int], winner: str, playoff_wins: Mapping[str, int] | None = None, target_wins: int = 3
) -> Verdict:
    """Why the game was decided: the most points (rule 9), or the play-off between those tied for the most
    (rule 9, JK-12; ``playoff_wins`` are the play-off hands each won). JK-E11, Ben and Cat tied on 12:

    >>> verdict_of({"Ann": 8, "Ben": 12, "Cat": 12}, "Ben", {"Ben": 3, "Cat": 1}).reasons["Ben"]
    'Ben wins the play-off against Cat, 3 play-off hands to 1, after tying for the most points with 12 (rule 9, \
JK-12).'
    >>> verdict_of({"Ann": 8, "Ben": 12, "Cat": 10}, "Ben").headline
    'Ben wins with 12, the most points.'
    """
    best = totals[winner]
    if playoff_wins is None:
        runner = max((t for n, t in totals.items() if n != winner), default=None)
        ahead = Note.of("")
        if runner is not None:
            ahead = Note.of(
                ", ahead of {names} on {runner}",
                names=Names.of(n for n, t in totals.items() if n != winner and t == runner),
                runner=runner,
            )
        return Verdict.of(
            Decider.MOST_POINTS,
            ["JK-R9"],
            Note.of("{winner} wins with {best}, the most points.", winner=winner, best=best),
            {
                winner: Note.of(
                    "{winner} wins with the most points, {best}{ahead} (rule 9).", winner=winner, best=best, ahead=ahead
                )
            },
        )
    others = [name for name in playoff_wins if name != winner]
    wins = [str(playoff_wins[name]) for name in others]
    score_line: Note | str = wins[-1] if wins else ""
    for count in reversed(wins[:-1]):
        score_line = Note.of("{first} and {last}", first=count, last=score_line)
    return Verdict.of(
        Decider.PLAYOFF,
        ["JK-R9", "JK-12"],
        Note.of(
            "{winner} wins the play-off, first to win {target} play-off hands, after tying for the most points with "
            "{best}.",
            winner=winner,
            target=target_wins,
            best=best,
        ),
        {
            winner: Note.of(
                "{winner} wins the play-off against {others}, {wins} play-off hands to {score}, after tying for the "
                "most points with {best} (rule 9, JK-12).",
                winner=winner,
                others=Names.of(others),
                wins=playoff_wins[winner],
                score=score_line,
                best=best,
            )
        },
    )


def score(record: Record) -> JokersKillResult:
    """Replay a validated record (rules 1-9, JK-1 … JK-13).

    ``hands[i].points`` gives 3, 2 or 1 to the hand's winner and 0 to everyone else (all 0 when dead or void);
    ``prize`` lists each prize pile in the order collected, ``bonus`` its value (rule 8), and ``totals`` = hand points
    + bonus. When the deck is used up (rule 7, JK-6) or a hand is void (JK-7), the most points wins; a tie sets
    ``pending`` to a play-off (rule 9, JK-12), won by the first to win ``playoff_wins`` play-off hands.

    JK-E11, final scoring: Ann 7 + K♥ 2 + J♠ 1 − 2 Jokers = 8; Ben 11 + J♥ = 12; Cat 12 → play-off (see the public
    case ``jokers-kill/13``). A smaller example, JK-E9 (a Joker kills the hand):

    >>> result = GAME.score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"], "options": {"jokers": 2},
    ...                      "hands": [{"up": "7S", "cards": {"Ann": "3H", "Ben": "JK", "Cat": "9C"}}]})
    >>> result.hands[0].points, result.to_json()["totals"]
    ({'Ann': 0, 'Ben': 0, 'Cat': 0}, {'Ann': 0, 'Ben': -1, 'Cat': 0})
    """
    state = _replay(record)
    options = record.options
    players = state.players
    totals = _totals(state)
    hands = [_hand_json(state, hand, players) for hand in state.hands]
    notes: list[Note] = []
    finished = False
    winners: list[str] = []
    pending: Pending | None = None
    if state.over:
        if state.void_end:
            notes.append(Note.of("Hand {number} was void, so the game is over (JK-7).", number=len(state.hands)))
        else:
            notes.append(
                Note.of(
                    "{left}, fewer than {needed} (players + 1): the game is over (rule 7, JK-6).",
                    left=_left_note_first(state.left),
                    needed=len(players) + 1,
                )
            )
        best = max(totals.values())
        if state.tied:
            notes.append(
                Note.of(
                    "{names} tie for the most points with {best}: a play-off, first to win {wins} play-off hands "
                    "(rule 9, JK-12); points and bonuses no longer count.",
                    names=Names.of(state.tied),
                    best=best,
                    wins=options.playoff_wins,
                )
            )
            if state.champion is not None:
                notes.append(
                    Note.of(
                        "{champion} wins {wins} play-off hands and the game (rule 9, JK-12).",
                        champion=state.champion,
                        wins=options.playoff_wins,
                    )
                )
            else:
                pending = Pending(kind="playoff", players=list(state.tied))
        else:
            notes.append(
                Note.of(
                    "{champion} has the most points with {best} and wins (rule 9).",
                    champion=str(state.champion),
                    best=best,
                )
            )
        if state.champion is not None:
            finished = True
            winners = [state.champion]
    extras: dict[str, Any] = {
        "prize": {name: [str(c) for c in state.prize[name]] for name in players},
        "bonus": state.bonus,
        "hand_points": state.hand_points,
        "winner": state.champion if finished else None,
        "cards_left": max(0, state.left),
        "hands_left": 0 if state.over else state.left // (len(players) + 1),
        "notes": render_all(notes),
        "why": notes,
    }
    if state.tied:
        extras["playoff_wins"] = dict(state.playoff_wins)
        extras["playoff"] = [_hand_json(state, hand, state.tied) for hand in state.playoff]
    verdict = None
    if finished and state.champion is not None:
        wins = dict(state.playoff_wins) if state.tied else None
        verdict = verdict_of(totals, state.champion, wins, options.playoff_wins)
    return JokersKillResult.model_validate(
        {
            "verdict": verdict,
            "game": record.game,
            "players": players,
            "hands": hands,
            "totals": totals,
            "finished": finished,
            "winners": winners,
            "pending": pending,
            "cancelled": False,
            **extras,
        }
    )


# ---------------------------------------------------------------------------------------------------------------
# Table helpers for the screens
# ---------------------------------------------------------------------------------------------------------------


def _record(record: Record | Mapping[str, Any]) -> Record:
    if isinstance(record, Record):
        return record
    return parse_record(Record, dict(record) if isinstance(record, Mapping) else record)


def cards_left(record: Record | Mapping[str, Any]) -> int:
    """Cards of the game's deck not dealt yet (never negative; Jokers and buried Jokers count, rule 1).

    >>> cards_left({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]})
    49
    """
    return max(0, _replay(_record(record)).left)


def hands_left(record: Record | Mapping[str, Any]) -> int:
    """Hands the remaining cards allow (rule 7, JK-6): exactly this many if no tie-break or redraw happens, fewer
    otherwise; 0 once the game is over.

    JK-E12: 3 players, 52 cards, 4 cards a hand → 13 hands.

    >>> hands_left({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]})
    13
    """
    state = _replay(_record(record))
    return 0 if state.over else state.left // (len(state.players) + 1)


def used_cards(record: Record | Mapping[str, Any]) -> set[Card]:
    """The cards of the main game already dealt (up-cards, players' and tie-break cards); Jokers are left out
    (there are several; see :func:`jokers_used`).

    >>> sorted(map(str, used_cards({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]})))
    ['4H', '7D', '9S']
    """
    return set(_replay(_record(record)).used)


def jokers_used(record: Record | Mapping[str, Any]) -> int:
    """Jokers of the main game's deck already dealt or buried (JK-11).

    >>> jokers_used({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {"jokers": 2}, "hands": [
    ...     {"up": "9S", "cards": {"Ann": "JK", "Ben": "7D"}}]})
    1
    """
    return _replay(_record(record)).jokers_used


class Phase(enum.Enum):
    """Which part of the game the next hand belongs to."""

    MAIN = "main"
    """The main game: one deck for all hands (rule 7)."""
    PLAYOFF = "playoff"
    """The play-off between the players tied for most points: a fresh deck for every hand (rule 9, JK-12)."""
    FINISHED = "finished"
    """The game is decided; nothing more can be entered."""


def phase(record: Record | Mapping[str, Any]) -> Phase:
    """What the next hand is: a main-game hand, a play-off hand, or nothing.

    >>> phase({"game": "jokers-kill", "players": ["Ann", "Ben"]})
    <Phase.MAIN: 'main'>
    """
    return _phase(_replay(_record(record)))


def _phase(state: _State) -> Phase:
    if not state.over:
        return Phase.MAIN
    return Phase.FINISHED if state.champion is not None else Phase.PLAYOFF


def _partial(data: Mapping[str, Any] | Hand | None, base: str) -> _Parts:
    """Parse a partly entered hand (any key may be missing); problems become :class:`ScoringError`."""
    if data is None:
        return _Parts(None, [], {}, [], False)
    if isinstance(data, Hand):
        return _Parts.of(data)
    if not isinstance(data, Mapping):
        raise InvalidRecordError("a hand must be a JSON object", base)
    try:
        hand = _PartialHand.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, (base,) if base else ()) from None
    return _Parts(hand.up, list(hand.buried), dict(hand.cards), [dict(d) for d in hand.tiebreaks], hand.void)


class _PartialHand(_CardMaps):
    up: CardField | None = None
    buried: tuple[CardField, ...] = ()
    cards: dict[PlayerName, CardField] = Field(default_factory=dict)
    tiebreaks: tuple[dict[PlayerName, CardField], ...] = ()
    void: StrictBool = False


def deal_needed(
    options: Options | Mapping[str, Any],
    players: Sequence[str],
    partial_hand: Mapping[str, Any] | Hand | None,
    *,
    cards_left: int | None = None,
) -> DealNeed:
    """What the table must enter next for one hand, or how the hand ended. The UI calls it after every tap.

    ``players`` are the players of the hand (all players, or the tied ones in a play-off); ``partial_hand`` has the
    keys of a record hand, any of them missing (``cards`` may list only some players, the last tie-break deal only
    some of the tied players). ``cards_left`` is the number of cards in the deck *before* this hand; by default a
    fresh deck (a play-off hand). The answer is the up-card first, then the missing first-deal cards, then the
    tie-break cards (rules 2-6); problems (a card twice, a player who is not tied, ...) raise :class:`ScoringError`.

    JK-E2 (up 9; 4 7 Q → 2 points) and JK-E5 (up 8; 8 8 2 → tie-break between the 8s only; Q and 3 → 3 points):

    >>> deal_needed({}, ["Ann", "Ben", "Cat"], {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}})
    DealNeed(need=<Need.DECIDED: 'decided'>, players=(), winner='Ann', points=2)
    >>> hand = {"up": "8S", "cards": {"Ann": "8H", "Ben": "8D", "Cat": "2C"}}
    >>> deal_needed({}, ["Ann", "Ben", "Cat"], hand).players
    ('Ann', 'Ben')
    >>> deal_needed({}, ["Ann", "Ben", "Cat"], hand | {"tiebreaks": [{"Ann": "QH"}]}).players
    ('Ben',)
    >>> need = deal_needed({}, ["Ann", "Ben", "Cat"], hand | {"tiebreaks": [{"Ann": "QH", "Ben": "3D"}]})
    >>> need.need, need.winner, need.points
    (<Need.DECIDED: 'decided'>, 'Ben', 3)

    JK-E12: the 13th hand of 3 players ties with no card left → void (JK-7):

    >>> need = deal_needed({}, ["Ann", "Ben", "Cat"], {"up": "KS", "cards": {"Ann": "KH", "Ben": "KD", "Cat": "3C"}},
    ...                    cards_left=4)
    >>> need.need, need.players
    (<Need.VOID: 'void'>, ('Ann', 'Ben'))
    >>> deal_needed({}, ["Ann", "Ben"], {"cards": {"Ann": "4H"}}).need
    <Need.UP_CARD: 'up-card'>
    """
    opts = options if isinstance(options, Options) else _options(options)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidRecordError("the players of a hand must be a list of names", "players")
    names = tuple(players)
    if not names or not all(isinstance(name, str) and name for name in names) or len(set(names)) != len(names):
        raise InvalidRecordError("the players of a hand must be listed once each, by name", "players")
    if cards_left is not None and (isinstance(cards_left, bool) or not isinstance(cards_left, int)):
        raise InvalidRecordError("cards_left must be a whole number", "cards_left")
    parts = _partial(partial_hand, "")
    _check_cards(opts, parts, "", "this hand", {}, 0, False)
    left = deck_size(opts) if cards_left is None else cards_left
    return _resolve(opts, names, parts, left, _Ctx("this hand", "hand", names), False).need


def _options(data: Mapping[str, Any]) -> Options:
    if not isinstance(data, Mapping):
        raise InvalidRecordError("options must be a JSON object", "options")
    try:
        return Options.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, ("options",)) from None


class NextHand:
    """The game as its next hand finds it: the record checked and replayed once, so that every card tap of the
    hand is checked against it (one deck for the whole game, rule 7; a fresh deck in a play-off, JK-12) without
    replaying the record again. :func:`next_deal`, :func:`legal_cards` and :func:`verify_card` are these methods
    on a record replayed for the one call.

    >>> table = NextHand.of({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]})
    >>> table.phase, len(table.legal_cards({"up": "AS"}))
    (<Phase.MAIN: 'main'>, 48)
    >>> table.next_deal({"up": "8S", "cards": {"Ann": "8H", "Ben": "2C"}}).winner
    'Ann'
    >>> table.verify_card("4h")
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 4♥ was already dealt in this game (one deck for the whole game, rule 7)
    """

    __slots__ = ("_labels", "_state", "phase")

    def __init__(self, state: _State) -> None:
        self._state = state
        self.phase: Phase = _phase(state)
        """A main-game hand, a play-off hand, or nothing (the game is over)."""
        self._labels: dict[Card, str] | None = None

    @classmethod
    def of(cls, record: Record | Mapping[str, Any]) -> NextHand:
        """Check and replay ``record`` (a :class:`ScoringError` when it breaks a rule)."""
        return cls(_replay(_record(record)))

    def _seen(self) -> dict[Card, str]:
        """Where each card of the game was dealt, found once (a fresh copy: the checks add the hand's cards)."""
        if self._labels is None:
            self._labels = _labels_of(self._state)
        return dict(self._labels)

    def next_deal(self, partial_hand: Mapping[str, Any] | Hand | None) -> DealNeed:
        """What the hand needs next (:func:`next_deal`)."""
        state = self._state
        stage = self.phase
        opts = state.record.options
        if stage is Phase.FINISHED:
            raise IllegalHandError("the game is over: no more hands can be entered", "hands")
        if stage is Phase.MAIN:
            i = len(state.hands)
            base, label, players, left = f"hands[{i}]", f"hand {i + 1}", state.players, state.left
            seen = self._seen()
            jokers = state.jokers_used
        else:
            i = len(state.playoff)
            base, label, players, left = f"playoff[{i}]", f"play-off hand {i + 1}", state.tied, state.deck
            seen, jokers = {}, 0
        parts = _partial(partial_hand, base)
        _check_cards(opts, parts, base, label, seen, jokers, stage is Phase.MAIN)
        ctx = _Ctx(label, base, tuple(state.players), playoff=stage is Phase.PLAYOFF)
        if stage is Phase.PLAYOFF:
            _check_names(
                list(parts.cards),
                players,
                ctx,
                f"{base}.cards",
                f"is not in the play-off (only {join_names(players)} play it)",
            )
        return _resolve(opts, players, parts, left, ctx, False).need

    def legal_cards(self, partial_hand: Mapping[str, Any] | Hand | None = None) -> list[Card]:
        """The cards that may still be entered (:func:`legal_cards`)."""
        state = self._state
        if self.phase is Phase.FINISHED:
            return []
        opts = state.record.options
        parts = _partial(partial_hand, "")
        taken = {card for card, _ in parts.walk("") if not card.is_joker}
        jokers = sum(1 for card, _ in parts.walk("") if card.is_joker)
        if self.phase is Phase.MAIN:
            taken |= state.used
            jokers += state.jokers_used
        cards = [card for card in standard_deck() if card not in taken]
        if jokers < opts.jokers:
            cards.append(JOKER)
        return cards

    def verify_card(self, card: Card | str, partial_hand: Mapping[str, Any] | Hand | None = None) -> Card:
        """Check that ``card`` can be entered next (:func:`verify_card`); returns the parsed card."""
        parsed = Card.parse(card)
        if parsed in self.legal_cards(partial_hand):
            return parsed
        state = self._state
        options = state.record.options
        if self.phase is Phase.FINISHED:
            raise IllegalHandError("the game is over: no more cards can be entered", "hands")
        if parsed.is_joker:
            if options.jokers == 0:
                raise InvalidCardError(Note.of("this game is played without Jokers (options.jokers is 0)"), "")
            raise DuplicateCardError(
                Note.of("all {jokers} Jokers have been dealt already (JK-11)", jokers=options.jokers), ""
            )
        if self.phase is Phase.MAIN and parsed in state.used:
            raise DuplicateCardError(
                Note.of(
                    "{card} was already dealt in this game (one deck for the whole game, rule 7)",
                    card=Cards.of([parsed]),
                ),
                "",
            )
        raise DuplicateCardError(Note.of("{card} is already in this hand", card=Cards.of([parsed])), "")


def next_deal(record: Record | Mapping[str, Any], partial_hand: Mapping[str, Any] | Hand | None) -> DealNeed:
    """:func:`deal_needed` for the next hand of ``record``: the right players, deck and phase, and no card that the
    game already used (one deck for the whole game, rule 7).

    >>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]}
    >>> need = next_deal(record, {"up": "8S", "cards": {"Ann": "8H", "Ben": "2C"}})
    >>> need.need, need.winner, need.points
    (<Need.DECIDED: 'decided'>, 'Ann', 3)
    >>> next_deal(record, {"up": "9S"})
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 9♠ appears twice: in hand 1 and in hand 2 (one deck for the whole game)
    """
    return NextHand.of(record).next_deal(partial_hand)


def _labels_of(state: _State) -> dict[Card, str]:
    """Where each card the game used was dealt (the first hand that holds it), in one pass over the hands: a card
    tap checks against every card of the game (rule 7), and the cost stays linear in the game's length."""
    first: dict[Card, str] = {}
    for i, hand in enumerate(state.record.hands):
        for card, _ in _Parts.of(hand).walk(""):
            first.setdefault(card, f"hand {i + 1}")
    return {card: first.get(card, "an earlier hand") for card in state.used}


def legal_cards(record: Record | Mapping[str, Any], partial_hand: Mapping[str, Any] | Hand | None = None) -> list[Card]:
    """The cards that may still be entered for the next hand, in deck order: the main game's unused cards (one deck,
    rule 7), or a fresh deck in a play-off (JK-12); minus the cards of ``partial_hand``. The Joker is listed once
    while the game has Jokers left (JK-11). Empty once the game is over.

    >>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]}
    >>> cards = legal_cards(record, {"up": "AS"})
    >>> len(cards), Card.parse("9S") in cards, Card.parse("AS") in cards, JOKER in cards
    (48, False, False, False)
    """
    return NextHand.of(record).legal_cards(partial_hand)


def verify_card(
    record: Record | Mapping[str, Any], card: Card | str, partial_hand: Mapping[str, Any] | Hand | None = None
) -> Card:
    """Check that ``card`` can be entered next (the same checks as :func:`legal_cards`); returns the parsed card.

    >>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [
    ...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]}
    >>> verify_card(record, "4h")
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 4♥ was already dealt in this game (one deck for the whole game, rule 7)
    >>> verify_card(record, "JK")
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: this game is played without Jokers (options.jokers is 0)
    """
    return NextHand.of(record).verify_card(card, partial_hand)


def can_enter_card(
    record: Record | Mapping[str, Any], card: Card | str, partial_hand: Mapping[str, Any] | Hand | None = None
) -> bool:
    """Whether :func:`verify_card` accepts ``card`` (for greying out cards on the card picker).

    >>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    >>> can_enter_card(record, "QH"), can_enter_card(record, "QH", {"up": "QH"}), can_enter_card(record, "ZZ")
    (True, False, False)
    """
    try:
        verify_card(record, card, partial_hand)
    except ScoringError:
        return False
    return True


def verify_new_hand(record: Record | Mapping[str, Any]) -> Phase:
    """Check that another hand can be entered; returns whether it is a main-game or a play-off hand.

    >>> verify_new_hand({"game": "jokers-kill", "players": ["Ann", "Ben"]})
    <Phase.MAIN: 'main'>
    """
    stage = phase(record)
    if stage is Phase.FINISHED:
        raise IllegalHandError("the game is over: no more hands can be entered", "hands")
    return stage


def can_add_hand(record: Record | Mapping[str, Any]) -> bool:
    """Whether :func:`verify_new_hand` accepts another hand.

    >>> can_add_hand({"game": "jokers-kill", "players": ["Ann", "Ben"]})
    True
    """
    try:
        verify_new_hand(record)
    except ScoringError:
        return False
    return True


def explain_hand(record: Record | Mapping[str, Any], index: int, *, playoff: bool = False) -> list[str]:
    """The notes of hand ``index`` (0-based; of the play-off with ``playoff``): why it ended as it did.

    JK-E4 (up 8; 2 8 5 → the 8 matches, 3 points):

    >>> explain_hand({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"], "hands": [
    ...     {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}}]}, 0)[1]
    "Ben alone matches the up-card's rank: 3 points, lower cards do not matter (rule 4.1)."
    """
    result = score(_record(record))
    hands: list[Any] = getattr(result, "playoff", []) if playoff else result.hands
    if not 0 <= index < len(hands):
        raise IllegalHandError(f"there is no {'play-off ' if playoff else ''}hand {index + 1}", "hands")
    hand = hands[index]
    return list(hand["notes"] if isinstance(hand, dict) else hand.notes)


GAME = Game(
    key="jokers-kill",
    name="Jokers Kill",
    ruling_prefix=RULING_PREFIX,
    hand_word="hand",
    min_players=2,
    max_players=None,
    record_model=Record,
    scorer=score,
)
