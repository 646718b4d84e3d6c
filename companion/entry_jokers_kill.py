"""Jokers Kill at the table: the hand being entered, one tap per physical card (no Flet here).

Every tap goes to the card the table needs next (the up-card, then each player's card in seating order, then the
tie-break cards of the players still tied), cards already used are refused, and the hand is complete when the rules
say it is decided, dead or void. The logic is plain Python over :mod:`scoring.jokers_kill`'s table helpers; the card
picker in :mod:`views.table.games.jokers_kill` only draws it. JK-E5 (up-card 8; 8 8 2 → tie-break between the 8s;
Q and 3 → the 3 wins):

>>> record = {"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]}
>>> draft = empty_draft()
>>> for card in ("8S", "8H", "8D", "2C", "QH", "3D"):
...     draft = place_card(record, draft, card)
>>> need = need_of(record, draft)
>>> need.winner, need.points, finish(draft, need)["tiebreaks"]
('Ben', 3, [{'Ann': 'QH', 'Ben': '3D'}])
>>> place_card(record, draft, "4C")
Traceback (most recent call last):
...
companion.entry_jokers_kill.HandCompleteError: the hand is complete: confirm it, or remove a card first
>>> remove_last(draft)["tiebreaks"]
[{'Ann': 'QH'}]
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing_extensions TypedDicts on 3.11

from companion.entry import EntryTarget, GameEntry
from companion.guides import GameGuide, HouseRule, Section
from companion.i18n import N_, Words
from scoring import Card, Result, ScoringError, find_game
from scoring import jokers_kill as jk
from scoring.base import passes
from scoring.cards import RANKS, Suit
from scoring.errors import IncompleteError
from scoring.jokers_kill import DealNeed, JokersKillResult, Need
from scoring.why import Cards, Note

Draft = dict[str, Any]


class HandCompleteError(ValueError):
    @classmethod
    def now(cls) -> HandCompleteError:
        """The refusal, with its words as data (``why``) for the table's language."""
        note = Note.of(N_("the hand is complete: confirm it, or remove a card first"))
        error = cls(note.text)
        error.why = note
        return error

    why: Note | None = None

    """A card tapped after the hand is already decided, dead or void."""


def empty_draft() -> Draft:
    """A hand with no card yet."""
    return {"up": None, "buried": [], "cards": {}, "tiebreaks": []}


def from_hand(hand: Mapping[str, Any]) -> Draft:
    """A draft holding a saved hand (to correct it)."""
    return {
        "up": hand.get("up"),
        "buried": list(hand.get("buried", [])),
        "cards": dict(hand.get("cards", {})),
        "tiebreaks": [dict(deal) for deal in hand.get("tiebreaks", [])],
    }


def partial(draft: Draft) -> dict[str, Any]:
    """The draft in the shape of a record hand, leaving out what is not entered yet."""
    out: dict[str, Any] = {"cards": dict(draft["cards"])}
    if draft["up"] is not None:
        out["up"] = draft["up"]
    if draft["buried"]:
        out["buried"] = list(draft["buried"])
    deals = [dict(deal) for deal in draft["tiebreaks"] if deal]
    if deals:
        out["tiebreaks"] = deals
    return out


def need_of(record: Mapping[str, Any], draft: Draft, table: jk.NextHand | None = None) -> DealNeed:
    """What the hand needs next (raises :class:`ScoringError` if the draft breaks a rule); ``table`` is ``record``
    replayed once (:class:`scoring.jokers_kill.NextHand`), when the caller has it."""
    return (table or jk.NextHand.of(record)).next_deal(partial(draft))


def hand_players(record: Mapping[str, Any], table: jk.NextHand | None = None) -> list[str]:
    """Who plays the next hand: everyone, or the tied players in a play-off."""
    if (table or jk.NextHand.of(record)).phase is jk.Phase.PLAYOFF:
        pending = find_game("jokers-kill").score(record).pending
        if pending is not None:
            return list(pending.players)
    return list(record["players"])


def place_card(record: Mapping[str, Any], draft: Draft, card: str, table: jk.NextHand | None = None) -> Draft:
    """The draft with ``card`` dealt where the table needs it next (a new draft; ``draft`` is unchanged); ``table``
    as :func:`need_of`."""
    table = table or jk.NextHand.of(record)
    need = need_of(record, draft, table)
    if need.complete:
        raise HandCompleteError.now()
    code = str(table.verify_card(card, partial(draft)))
    new = copy.deepcopy(draft)
    if need.need is Need.UP_CARD:
        if new["up"] is not None:  # a Joker up-card under house rule JK-9 "redraw": bury it
            new["buried"].append(new["up"])
        new["up"] = code
    elif need.need is Need.CARDS:
        new["cards"][need.players[0]] = code
        seats = list(record["players"])
        new["cards"] = dict(sorted(new["cards"].items(), key=lambda item: seats.index(item[0])))
    else:
        who = need.players[0]
        deals = new["tiebreaks"]
        if not deals or who in deals[-1]:
            deals.append({who: code})
        else:
            deals[-1][who] = code
    need_of(record, new, table)
    return new


def remove_last(draft: Draft) -> Draft:
    """The draft without the last card dealt."""
    new = copy.deepcopy(draft)
    if new["tiebreaks"]:
        deal = new["tiebreaks"][-1]
        deal.pop(list(deal)[-1])
        if not deal:
            new["tiebreaks"].pop()
    elif new["cards"]:
        new["cards"].pop(list(new["cards"])[-1])
    elif new["up"] is not None:
        new["up"] = None
    elif new["buried"]:
        new["buried"].pop()
    return new


def clear_slot(draft: Draft, slot: tuple[Any, ...]) -> Draft:
    """The draft without one card, and without the tie-break cards that depended on it.

    >>> draft = {"up": "8S", "buried": [], "cards": {"Ann": "8H", "Ben": "8D"}, "tiebreaks": [{"Ann": "QH"}]}
    >>> clear_slot(draft, ("cards", "Ben"))
    {'up': '8S', 'buried': [], 'cards': {'Ann': '8H'}, 'tiebreaks': []}
    """
    new = copy.deepcopy(draft)
    if slot[0] == "up":
        new["up"] = None
        new["tiebreaks"] = []
    elif slot[0] == "buried":
        new["buried"].pop(slot[1])
    elif slot[0] == "cards":
        new["cards"].pop(slot[1], None)
        new["tiebreaks"] = []
    else:
        k, name = slot[1], slot[2]
        deals = new["tiebreaks"][: k + 1]
        deals[k].pop(name, None)
        new["tiebreaks"] = [deal for deal in deals if deal]
    return new


def finish(draft: Draft, need: DealNeed) -> dict[str, Any]:
    """The hand as the record keeps it (``void`` when the tie-break could not be dealt, JK-7)."""
    hand = partial(draft)
    if need.need is Need.VOID:
        hand["void"] = True
    return hand


@dataclass(frozen=True)
class Slot:
    """One card place of the hand on screen."""

    key: tuple[Any, ...]
    title: str
    card: str | None

    title_note: Note | None = None
    """The place's title as data (the up-card, a buried Joker, a tie-break card), for the table's language."""

    @property
    def label(self) -> str:
        shown = Card.parse(self.card).label if self.card else "—"
        return f"{self.title}: {shown}"

    def label_in(self, words: Words) -> str:
        """:attr:`label` in the table's language and card letters."""
        title = words.note(self.title_note) if self.title_note is not None else self.title
        shown = words.note(Note.of("{card}", card=Cards.of([self.card]))) if self.card else "—"
        return f"{title}: {shown}"


def slots(record: Mapping[str, Any], draft: Draft, players: list[str] | None = None) -> list[Slot]:
    """Every card place of the hand so far, in dealing order; ``players``: :func:`hand_players` when known."""
    buried, up = Note.of(N_("Buried Joker")), Note.of(N_("Up-card"))
    out = [Slot(("buried", i), "Buried Joker", card, buried) for i, card in enumerate(draft["buried"])]
    out.append(Slot(("up",), "Up-card", draft["up"], up))
    seats = players if players is not None else hand_players(record)
    out += [Slot(("cards", name), name, draft["cards"].get(name)) for name in seats]
    for k, deal in enumerate(draft["tiebreaks"]):
        out += [
            Slot(
                ("tiebreaks", k, name),
                f"Tie-break {k + 1}, {name}",
                card,
                Note.of(N_("Tie-break {k}, {name}"), k=k + 1, name=name),
            )
            for name, card in deal.items()
        ]
    return out


def prompt(need: DealNeed, words: Words | None = None) -> str:
    """What the table does next, in words (English unless ``words`` says otherwise).

    >>> prompt(DealNeed(Need.TIEBREAK, ("Ann", "Ben")))
    'Tie-break: deal a card to Ann'
    >>> prompt(DealNeed(Need.UP_CARD), Words.of("de"))
    'Die aufgedeckte Karte umdrehen'
    """
    return (words or Words.of("en")).note(prompt_note(need))


def prompt_note(need: DealNeed) -> Note:
    """:func:`prompt` as data (a :class:`scoring.why.Note`), for the table's language."""
    if need.need is Need.UP_CARD:
        return Note.of(N_("Turn the up-card"))
    if need.need is Need.CARDS:
        return Note.of(N_("{name}'s card"), name=need.players[0])
    if need.need is Need.TIEBREAK:
        return Note.of(N_("Tie-break: deal a card to {name}"), name=need.players[0])
    if need.need is Need.DECIDED:
        if need.points == 1:
            return Note.of(N_("{name} wins 1 point: confirm the hand"), name=need.winner)
        return Note.of(N_("{name} wins {points} points: confirm the hand"), name=need.winner, points=need.points)
    if need.need is Need.DEAD:
        return Note.of(N_("Dead hand (a Joker): confirm the hand"))
    return Note.of(N_("Too few cards for the tie-break: mark the hand void"))


def extras(result: Result) -> list[tuple[str, str]]:
    """Cards and hands left (rule 7); play-off wins once a play-off is on (each label marked for translation: the
    scoreboard says it in the table's language)."""
    if not isinstance(result, JokersKillResult):
        raise TypeError(f"a Jokers Kill result is needed here, not one of {result.game}")
    out = [(N_("Cards left"), str(result.cards_left)), (N_("Hands left"), str(result.hands_left))]
    wins = result.playoff_wins
    if wins:
        out.append((N_("Play-off wins"), ", ".join(f"{name} {count}" for name, count in wins.items())))
    return out


SUIT_ORDER = (Suit("S"), Suit("H"), Suit("D"), Suit("C"))


def card_codes() -> list[str]:
    """The 52 cards, rank by rank (A♠ A♥ A♦ A♣ 2♠ …), as the picker shows them."""
    return [f"{rank}{suit.value}" for rank in RANKS for suit in SUIT_ORDER]


class DraftUnreadableError(ValueError):
    """A kept draft that is not a Jokers Kill hand, or no longer fits the record."""


# --- the entry lifecycle (companion.entry.EntryState) -----------------------------------------------------------


def slot_id(key: tuple[Any, ...]) -> str:
    """A card place as a field id: ``up``, ``cards/Ann``, ``tiebreaks/0/Ann``, ``buried/0``.

    >>> slot_id(("cards", "Ann")), slot_id(("tiebreaks", 0, "Ben"))
    ('cards/Ann', 'tiebreaks/0/Ben')
    """
    return "/".join(str(part) for part in key)


@dataclass(frozen=True)
class JokersKillState:
    """One Jokers Kill hand (or play-off hand) being entered, as :class:`companion.entry.EntryState`: the record
    before it and the cards dealt so far (:func:`empty_draft`'s shape).

    >>> from companion.entry import EntryTarget
    >>> record = {"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]}
    >>> state = JokersKillState.start(record, EntryTarget()).place("9S").place("4H")
    >>> state.focus(), state.can_confirm()
    ('cards/Ben', False)
    >>> JokersKillState.from_draft(record, EntryTarget(), state.to_draft()).focus()
    'cards/Ben'
    """

    record: Mapping[str, Any] = field(repr=False)
    draft: Draft = field(default_factory=empty_draft)
    table: jk.NextHand | None = field(default=None, repr=False, compare=False)
    """``record`` replayed once (made from it when not given): every tap of the hand is checked against this,
    and a tap's new state shares it, so the record is replayed once a hand, not once a tap."""
    players: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """Who plays the hand (:func:`hand_players`), found with :attr:`table`."""

    def __post_init__(self) -> None:
        if self.table is None:
            object.__setattr__(self, "table", jk.NextHand.of(self.record))
        if not self.players:
            object.__setattr__(self, "players", tuple(hand_players(self.record, self.next_hand)))

    @property
    def next_hand(self) -> jk.NextHand:
        table = self.table
        assert table is not None  # set in __post_init__
        return table

    @classmethod
    def start(cls, record: Mapping[str, Any], target: EntryTarget | None = None) -> JokersKillState:
        state = cls(dict(record), empty_draft())
        state.need()  # the record can be entered (raises ScoringError otherwise)
        return state

    @classmethod
    def from_hand(cls, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> JokersKillState:
        """A saved hand, to correct it; one that no longer fits the record starts empty."""
        state = cls(dict(record), from_hand(hand))
        try:
            state.need()
        except ScoringError:
            return cls.start(record, target)
        return state

    @classmethod
    def from_draft(cls, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> JokersKillState:
        """What :meth:`to_draft` kept; :class:`DraftUnreadableError` (or the :class:`ScoringError`) when it no
        longer fits ``record``."""
        try:
            kept = from_hand(draft)
        except (AttributeError, TypeError, ValueError) as exc:
            raise DraftUnreadableError(f"the hand kept from before cannot be read ({exc})") from None
        state = cls(dict(record), kept)
        state.need()
        return state

    def to_draft(self) -> dict[str, Any]:
        return copy.deepcopy(self.draft)

    def need(self) -> DealNeed:
        return self._need

    @cached_property
    def _need(self) -> DealNeed:
        """What the hand needs next, worked out once per state (the state never changes)."""
        return need_of(self.record, self.draft, self.next_hand)

    def verify(self) -> None:
        """Raise :class:`IncompleteError` saying what the table deals next."""
        need = self.need()
        if not need.complete:
            error = IncompleteError(f"the hand is not complete yet: {prompt(need).lower()}")
            error.why = Note.of(N_("the hand is not complete yet: {what}"), what=prompt_note(need))
            raise error

    def can_confirm(self) -> bool:
        return passes(self.verify)

    def to_hand(self) -> dict[str, Any]:
        self.verify()
        return finish(self.draft, self.need())

    def focus(self) -> str | None:
        """The card place the next tap fills (``up``, ``cards/Ben``, ``tiebreaks/0/Ann``); ``None`` once the hand
        is decided, dead or void."""
        need = self.need()
        if need.need is Need.UP_CARD:
            return "up"
        if need.need is Need.CARDS:
            return f"cards/{need.players[0]}"
        if need.need is Need.TIEBREAK:
            who = need.players[0]
            deals = self.draft["tiebreaks"]
            k = len(deals) - 1 if deals and who not in deals[-1] else len(deals)
            return f"tiebreaks/{k}/{who}"
        return None

    # -- taps -------------------------------------------------------------------------------------------------

    def but(self, draft: Draft) -> JokersKillState:
        return JokersKillState(self.record, draft, self.table, self.players)

    def place(self, card: str) -> JokersKillState:
        return self.but(place_card(self.record, self.draft, card, self.next_hand))

    def remove_last(self) -> JokersKillState:
        return self.but(remove_last(self.draft))

    def clear_slot(self, key: tuple[Any, ...]) -> JokersKillState:
        return self.but(clear_slot(self.draft, key))

    def slots(self) -> list[Slot]:
        return slots(self.record, self.draft, list(self.players))

    def legal_cards(self) -> set[str]:
        """The cards that can be tapped now (none once the hand is complete)."""
        if self.need().complete:
            return set()
        return self.unused_cards()

    def unused_cards(self) -> set[str]:
        """The cards not dealt yet in this game (one deck, rule 7) nor in this hand, complete or not: what
        :meth:`legal_cards` allows while the hand still needs a card."""
        return {str(card) for card in self.next_hand.legal_cards(partial(self.draft))}


# --- what the app declares of Jokers Kill: its draft, its Rules page, its entry (companion.games.ENTRIES) ----------


class _JokersKillDraft(TypedDict):
    up: str | None
    buried: list[str]
    cards: dict[str, str]
    tiebreaks: list[dict[str, str]]


GUIDE = GameGuide(
    key="jokers-kill",
    name="Jokers Kill",
    players=N_("2 or more players"),
    summary=N_("One card each against an up-card: match it, or hold the lowest card."),
    sections=(
        Section(
            N_("A hand"),
            (
                N_("Everyone gets one card face down and one card is turned face up."),
                N_("Your Ace is the lowest card; an Ace turned up is above everything."),
            ),
        ),
        Section(
            N_("Who wins the hand"),
            (
                N_("One player matches the up-card's rank: 3 points."),
                N_("Nobody matches: the lowest card wins 2 points if it is below the up-card, 1 if above."),
                N_(
                    "Two or more match, or tie for lowest: they each get another card until one is lowest; "
                    "that player gets 3 points."
                ),
                N_("The winner collects all the cards of the hand into their prize pile."),
            ),
        ),
        Section(
            N_("Jokers"),
            (
                N_(
                    "Playing with Jokers: anyone dealt a Joker kills the hand. Nobody scores; the Joker goes into "
                    "its receiver's prize pile, the other cards are discarded."
                ),
            ),
        ),
        Section(
            N_("End of the game"),
            (
                N_("Play until the deck cannot give everyone a card plus an up-card."),
                N_(
                    "Score your points, plus 2 for the K♥ and 1 each for the J♠ and J♥ in your prize pile, minus "
                    "1 per Joker. Most points wins; tied players play off, first to win 3 hands."
                ),
            ),
        ),
    ),
    options=(
        HouseRule(
            "jokers",
            N_("Jokers in the deck"),
            N_("no Jokers"),
            N_("2 or 4 Jokers"),
            "JK-11",
            ((0, N_("No Jokers")), (2, N_("2 Jokers")), (4, N_("4 Jokers"))),
        ),
        HouseRule("upcard_to_prize", N_("The up-card goes to the winner's prize pile"), N_("yes"), N_("no"), "JK-2"),
        HouseRule("ace_upcard_matches_ace", N_("A player's Ace matches an Ace up-card"), N_("yes"), N_("no"), "JK-1"),
        HouseRule(
            "joker_in_tiebreak",
            N_("A Joker dealt in a tie-break"),
            N_("kills the hand"),
            N_("only that player drops out"),
            "JK-8",
            (("dead", N_("Kills the hand")), ("drop", N_("Only that player drops out"))),
        ),
        HouseRule(
            "joker_upcard",
            N_("A Joker turned up"),
            N_("kills the hand"),
            N_("bury it and turn another"),
            "JK-9",
            (("dead", N_("Kills the hand")), ("redraw", N_("Bury it and turn another"))),
        ),
        HouseRule("playoff_wins", N_("Hands to win a play-off"), N_("3"), N_("any number from 1"), "JK-12"),
    ),
)
"""Jokers Kill in the app's own words: the Rules page (and ``docs/rules/jokers-kill.md``)."""

ENTRY = GameEntry(
    key=jk.GAME.key,
    state=JokersKillState,
    draft=TypeAdapter(_JokersKillDraft),
    guide=GUIDE,
)
"""Jokers Kill in the companion: listed once in :data:`companion.games.ENTRIES`."""
