"""Entering a Financial Crisis round at the table: the bank, each player's pile, and the table's own reading.

No Flet in here. A :class:`RoundDraft` is the round entered so far (a frozen value; every change returns a new
one). Cards go to the **target**: the bank (``None``) until its five face-down cards are in, then the players'
piles in seating order. The rules come from :mod:`scoring.financial_crisis` (legal cards, the bank reading with its
reasons, the pile scores); this module only keeps track of what has been entered and builds the record's hand.

A round (the seed's 2♠ 2♥ 1♦ bank reading, BK-E2):

>>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1}}
>>> draft = RoundDraft.empty(record)
>>> for card in ["3S", "7S", "4H", "9H", "6D"]:
...     draft = add_card(record, draft, card)
>>> draft.target  # the bank is complete: the next card goes to Ann's pile
'Ann'
>>> said = reading(record, draft)
>>> said.loss_reason, said.ranked_valuable
('2♠ 2♥ 1♦: the tie reverses, ♦ loses (BK-12).', False)
>>> for card in ["4C", "8S", "9S", "10H"]:
...     draft = add_card(record, draft, card)
>>> can_add_card(record, draft, "8S"), can_add_card(record, draft, "8D")  # 8♠ is used: greyed out
(False, True)
>>> draft = select(record, draft, "Ben")
>>> for card in ["KD", "2D"]:
...     draft = add_card(record, draft, card)
>>> ann, ben = piles(record, draft)
>>> ann.clubs, ann.straights, ann.most_rest, ann.total  # 4♣ +1, the straight 8 9 10 +1, the biggest rest +1
(('4C',), (('8S', '9S', '10H'),), 1, 3)
>>> ben.losses, ben.rest, ben.total  # 2♦ −1; K♦ is a ranked card of the loss suit: 0, into the rest
(('2D',), ('KD',), -1)
>>> verify_round(record, draft)["piles"]
{'Ann': ['4C', '8S', '9S', '10H'], 'Ben': ['KD', '2D']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NotRequired, TypeAlias

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

from companion.entry import EntryTarget, GameEntry
from companion.guides import GameGuide, HouseRule, Section
from companion.i18n import N_, Words
from scoring import Card, ScoringError, find_game
from scoring import financial_crisis as fc
from scoring.base import accepts, passes, validation_error
from scoring.cards import Suit
from scoring.errors import IllegalHandError, IncompleteError, InvalidRecordError, UnknownPlayerError
from scoring.why import Note

__all__ = [
    "ENTRY",
    "GUIDE",
    "LOSS_SUITS",
    "FinancialCrisisIncompleteError",
    "FinancialCrisisState",
    "PileView",
    "RecordLike",
    "RoundContext",
    "RoundDraft",
    "add_card",
    "can_add_card",
    "can_confirm",
    "can_next_pile",
    "can_override",
    "clear_override",
    "computed_reading",
    "legal_codes",
    "next_target",
    "options_of",
    "piles",
    "progress",
    "prompt",
    "reading",
    "remove_card",
    "remove_last",
    "round_title",
    "select",
    "set_ranked_valuable",
    "start_next_pile",
    "target_name",
    "toggle_loss_suit",
    "verify_add_card",
    "verify_hand",
    "verify_next_pile",
    "verify_override",
    "verify_round",
    "warnings",
]

LOSS_SUITS: tuple[Suit, ...] = fc.NON_CLUBS
"""The suits a table can say lose (clubs never do, BK-12), in the order S H D."""

EN = Words.of("en")
"""English, when a caller gives no words (the command line, the tests)."""
BANK_SIZE = 5
LAID_OUT = 27
"""Cards laid out in a round; every one of them ends in a pile (rule 4)."""

RecordLike: TypeAlias = Mapping[str, Any] | fc.Record
"""The game a round is entered into: the raw record, or the record parsed once (:class:`RoundContext`), which
spares every tap a validation of the whole game."""


class FinancialCrisisIncompleteError(IllegalHandError, IncompleteError):
    """The round (or the table's reading) needs the five face-down bank cards first."""


@dataclass(frozen=True)
class RoundDraft:
    """One round as entered so far: the bank, every player's pile (seating order), where the next card goes, and
    the table's override of the reading (``None`` where the table follows the bank)."""

    bank: tuple[str, ...] = ()
    """The face-down bank cards entered, as canonical codes (``"10H"``)."""
    piles: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``(player, cards)`` for every seated player, in seating order."""
    target: str | None = None
    """Who the next tapped card goes to: a player's pile, or ``None`` for the bank."""
    loss_override: tuple[str, ...] | None = None
    """The suits the table says lose (letters S H D), or ``None`` to follow the bank."""
    valuable_override: bool | None = None
    """Whether the table says ranked cards are valuable, or ``None`` to follow the bank."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys of a saved hand this screen does not edit (kept as they were)."""

    @classmethod
    def empty(cls, record: RecordLike) -> RoundDraft:
        """A round with nothing entered: the bank comes first."""
        return cls(piles=tuple((name, ()) for name in _players(record)))

    @classmethod
    def from_hand(cls, record: RecordLike, hand: Mapping[str, Any]) -> RoundDraft:
        """The draft of a saved round (to correct it); every card is checked again.

        >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"]}
        >>> draft = RoundDraft.from_hand(record, {"bank": ["2s", "3S", "4H", "5H", "6D"], "piles": {"Ben": ["KC"]},
        ...                                      "override": {"loss_suits": ["S"]}})
        >>> draft.bank, draft.pile("Ann"), draft.pile("Ben"), draft.loss_override, draft.target
        (('2S', '3S', '4H', '5H', '6D'), (), ('KC',), ('S',), 'Ann')
        """
        players = _players(record)
        bank = hand.get("bank") or []
        given = hand.get("piles") or {}
        if not isinstance(bank, list) or not isinstance(given, Mapping):
            raise InvalidRecordError("a round has a list 'bank' and an object 'piles'")
        for name in given:
            if name not in players:
                raise UnknownPlayerError(Note.of(N_("{name} is not a player in this game"), name=name), f"piles.{name}")
        draft = cls.empty(record)
        for card in bank:
            draft = _add(record, draft, card, None)
        for name in players:
            cards = given.get(name) or []
            if not isinstance(cards, list):
                raise InvalidRecordError(f"{name}'s pile must be a list of cards")
            for card in cards:
                draft = _add(record, draft, card, name)
        override = hand.get("override") or {}
        if not isinstance(override, Mapping):
            raise InvalidRecordError("'override' must be an object")
        try:
            parsed = fc.Override.model_validate(dict(override)) if override else fc.Override()
        except ValidationError as exc:
            raise InvalidRecordError(f"the table's override cannot be read: {exc.errors()[0]['msg']}") from None
        loss = None if parsed.loss_suits is None else tuple(s.value for s in LOSS_SUITS if s in parsed.loss_suits)
        extra = {k: v for k, v in hand.items() if k not in ("bank", "piles", "override")}
        target = players[0] if len(draft.bank) == BANK_SIZE and players else None
        return replace(draft, target=target, loss_override=loss, valuable_override=parsed.ranked_valuable, extra=extra)

    @classmethod
    def from_json(cls, record: RecordLike, data: Mapping[str, Any]) -> RoundDraft:
        """A draft kept by :meth:`to_json` (e.g. in the session while the screen is away), checked again."""
        draft = cls.from_hand(record, data.get("hand") or {})
        target = data.get("target")
        if target is None or target in _players(record):
            draft = replace(draft, target=target)
        return draft

    def to_json(self) -> dict[str, Any]:
        """The draft as plain JSON (the round so far and where the next card goes)."""
        return {"hand": self.to_hand(), "target": self.target}

    # --- reading ---------------------------------------------------------------------------------------------

    def pile(self, name: str) -> tuple[str, ...]:
        """The cards of ``name``'s pile so far."""
        for player, cards in self.piles:
            if player == name:
                return cards
        raise UnknownPlayerError(Note.of(N_("{name} is not a player in this game"), name=name), f"piles.{name}")

    @property
    def bank_complete(self) -> bool:
        return len(self.bank) == BANK_SIZE

    @property
    def overridden(self) -> bool:
        return self.loss_override is not None or self.valuable_override is not None

    @property
    def cards_entered(self) -> int:
        return len(self.bank) + sum(len(cards) for _, cards in self.piles)

    def partial(self) -> dict[str, Any]:
        """The round so far in the record's shape, without the override (for the scoring helpers)."""
        return {"bank": list(self.bank), "piles": {name: list(cards) for name, cards in self.piles}}

    def override(self) -> dict[str, Any] | None:
        """The record's ``override`` (only the keys the table changed), or ``None``."""
        out: dict[str, Any] = {}
        if self.loss_override is not None:
            out["loss_suits"] = list(self.loss_override)
        if self.valuable_override is not None:
            out["ranked_valuable"] = self.valuable_override
        return out or None

    def to_hand(self) -> dict[str, Any]:
        """The round as the record keeps it (every player's pile, empty ones too; the override if any)."""
        hand: dict[str, Any] = {**dict(self.extra), **self.partial()}
        override = self.override()
        if override is not None:
            hand["override"] = override
        return hand


# --- the record ------------------------------------------------------------------------------------------------


def _players(record: RecordLike) -> list[str]:
    if isinstance(record, fc.Record):
        return list(record.players)
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidRecordError("the game's 'players' must be a list of names", "players")
    return list(players)


def options_of(record: RecordLike) -> fc.Options:
    """The game's house rules (defaults where the record says nothing).

    >>> options_of({"players": ["Ann", "Ben"], "options": {"rounds": 2}}).rounds_for(2)
    2
    """
    if isinstance(record, fc.Record):
        return record.options
    try:
        return fc.Options.model_validate(dict(record.get("options") or {}))
    except ValidationError as exc:
        raise InvalidRecordError(f"the game's house rules cannot be read: {exc.errors()[0]['msg']}") from None


def round_title(record: Mapping[str, Any], index: int | None = None, words: Words | None = None) -> str:
    """``Round 2 of 3`` for the round at ``index`` (0-based; ``None``: the next round).

    >>> round_title({"players": ["Ann", "Ben", "Cat"], "hands": [{}]})
    'Round 2 of 3'
    """
    number = len(record.get("hands") or []) if index is None else index
    said = (words or EN).gettext("Round {n} of {rounds}")
    return said.format(n=number + 1, rounds=options_of(record).rounds_for(len(_players(record))))


def target_name(target: str | None, words: Words | None = None) -> str:
    """How a target is called on screen: ``the bank`` or ``Ann's pile``."""
    _ = (words or EN).gettext
    return _("the bank") if target is None else _("{name}'s pile").format(name=target)


# --- cards -----------------------------------------------------------------------------------------------------


def verify_add_card(record: RecordLike, draft: RoundDraft, card: Card | str) -> str:
    """Check that ``card`` may go to the draft's target; its canonical code (raises a :class:`ScoringError`).

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"]}
    >>> verify_add_card(record, RoundDraft.empty(record), "JK")
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: the Joker is not used in Financial Crisis (a 52-card deck, no Jokers)
    """
    return str(fc.verify_add_card(_game(record), draft.partial(), card, draft.target))


def _game(record: RecordLike) -> fc.Record | dict[str, Any]:
    return record if isinstance(record, fc.Record) else dict(record)


def can_add_card(record: RecordLike, draft: RoundDraft, card: Card | str) -> bool:
    """Whether :func:`verify_add_card` accepts ``card`` (the UI greys out the others)."""
    return accepts(verify_add_card, record, draft, card)


def legal_codes(draft: RoundDraft) -> set[str]:
    """The cards not used yet in this round (each round is played with the whole deck).

    >>> len(legal_codes(RoundDraft(bank=("2S",), piles=(("Ann", ("3S",)),))))
    50
    """
    return {str(card) for card in fc.legal_cards(None, draft.partial())}


def _add(record: RecordLike, draft: RoundDraft, card: Card | str, to: str | None) -> RoundDraft:
    code = str(fc.verify_add_card(_game(record), draft.partial(), card, to))
    if to is None:
        return replace(draft, bank=(*draft.bank, code))
    return replace(draft, piles=tuple((name, (*cards, code) if name == to else cards) for name, cards in draft.piles))


def add_card(record: RecordLike, draft: RoundDraft, card: Card | str) -> RoundDraft:
    """The draft with ``card`` added to its target. When the bank gets its fifth card, the target moves on to the
    first player whose pile is still empty (or the first player)."""
    new = _add(record, draft, card, draft.target)
    if draft.target is None and new.bank_complete and new.piles:
        empty = [name for name, cards in new.piles if not cards]
        new = replace(new, target=empty[0] if empty else new.piles[0][0])
    return new


def remove_card(draft: RoundDraft, card: Card | str) -> RoundDraft:
    """The draft without ``card`` (wherever it was); the target moves to where it was, so the next tap replaces it.

    >>> draft = RoundDraft(bank=("2S", "3S"), piles=(("Ann", ("4S", "5S")),), target="Ann")
    >>> gone = remove_card(draft, "3s")
    >>> gone.bank, gone.target
    (('2S',), None)
    """
    code = str(Card.parse(card))
    if code in draft.bank:
        return replace(draft, bank=tuple(c for c in draft.bank if c != code), target=None)
    for name, cards in draft.piles:
        if code in cards:
            piles = tuple(
                (who, tuple(c for c in pile if c != code) if who == name else pile) for who, pile in draft.piles
            )
            return replace(draft, piles=piles, target=name)
    return draft


def remove_last(draft: RoundDraft) -> RoundDraft:
    """The draft without the last card of its target (unchanged if the target holds none)."""
    held = draft.bank if draft.target is None else draft.pile(draft.target)
    return remove_card(draft, held[-1]) if held else draft


def select(record: RecordLike, draft: RoundDraft, target: str | None) -> RoundDraft:
    """The draft with the next cards going to ``target`` (a player's pile, or ``None`` for the bank)."""
    if target is not None and target not in _players(record):
        raise UnknownPlayerError(Note.of(N_("{name} is not a player in this game"), name=target), f"piles.{target}")
    return replace(draft, target=target)


def next_target(draft: RoundDraft) -> str | None:
    """The player after the target in seating order (``None`` after the last one; the first after the bank).

    >>> next_target(RoundDraft(piles=(("Ann", ()), ("Ben", ())), target="Ann"))
    'Ben'
    """
    names = [name for name, _ in draft.piles]
    if draft.target is None:
        return names[0] if names else None
    at = names.index(draft.target)
    return names[at + 1] if at + 1 < len(names) else None


def verify_next_pile(draft: RoundDraft) -> str:
    """The pile that comes next (the player after the target), or :class:`FinancialCrisisIncompleteError` while the bank
    is not complete (its five cards come first) and an :class:`IllegalHandError` after the last pile.

    >>> piles = (("Ann", ()), ("Ben", ()))
    >>> verify_next_pile(RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=piles, target="Ann"))
    'Ben'
    >>> verify_next_pile(RoundDraft(bank=("2S",), piles=piles))
    Traceback (most recent call last):
    ...
    companion.entry_financial_crisis.FinancialCrisisIncompleteError: enter the five face-down bank cards first (1 of 5)
    """
    if not draft.bank_complete:
        raise FinancialCrisisIncompleteError(
            f"enter the five face-down bank cards first ({len(draft.bank)} of 5)", "bank"
        )
    following = next_target(draft)
    if following is None:
        raise IllegalHandError(
            Note.of(N_("{target}'s pile is the last one: tap its cards, then confirm the round"), target=draft.target),
            "piles",
        )
    return following


def can_next_pile(draft: RoundDraft) -> bool:
    """Whether there is a next pile to move on to (never before the bank is complete)."""
    return accepts(verify_next_pile, draft)


def start_next_pile(record: RecordLike, draft: RoundDraft, card: Card | str) -> RoundDraft:
    """``card`` is the first card of the next pile: one gesture moves on and enters it (a card held down on the
    picker), so the piles follow each other at one tap a card.

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"]}
    >>> draft = RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=(("Ann", ("7S",)), ("Ben", ())), target="Ann")
    >>> moved = start_next_pile(record, draft, "8D")
    >>> moved.target, moved.pile("Ann"), moved.pile("Ben")
    ('Ben', ('7S',), ('8D',))
    """
    following = verify_next_pile(draft)
    return add_card(record, select(record, draft, following), card)


# --- the reading -----------------------------------------------------------------------------------------------


def computed_reading(record: RecordLike, draft: RoundDraft) -> fc.BankReading | None:
    """What the bank says (BK-12, BK-13), or ``None`` until its five cards are in."""
    if not draft.bank_complete:
        return None
    return fc.read_bank(draft.bank, options_of(record))


def reading(record: RecordLike, draft: RoundDraft) -> fc.BankReading | None:
    """The reading the round is scored by: the bank's, or the table's where it overrides (``None`` until the bank
    is complete)."""
    said = computed_reading(record, draft)
    if said is None:
        return None
    override = draft.override()
    return fc.apply_override(said, fc.Override.model_validate(override) if override else None)


def verify_override(draft: RoundDraft) -> None:
    """The table reads the bank only once its five cards are in (raises :class:`FinancialCrisisIncompleteError`)."""
    if not draft.bank_complete:
        raise FinancialCrisisIncompleteError(
            f"enter the five face-down bank cards first ({len(draft.bank)} of 5): the table overrides a reading "
            "of the bank",
            "bank",
        )


def can_override(draft: RoundDraft) -> bool:
    return accepts(verify_override, draft)


def _normalised(record: RecordLike, draft: RoundDraft) -> RoundDraft:
    """Drop the parts of an override that say what the bank says anyway."""
    said = computed_reading(record, draft)
    if said is None:
        return draft
    loss, valuable = draft.loss_override, draft.valuable_override
    if loss is not None and set(loss) == set(said.loss_letters):
        loss = None
    if valuable is not None and valuable == said.ranked_valuable:
        valuable = None
    return replace(draft, loss_override=loss, valuable_override=valuable)


def toggle_loss_suit(record: RecordLike, draft: RoundDraft, suit: Suit | str) -> RoundDraft:
    """The table says ``suit`` loses (or no longer loses) this round, whatever the bank says (BK-12).

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"]}
    >>> draft = RoundDraft(bank=("3C", "9C", "5S", "8S", "4H"), piles=(("Ann", ()), ("Ben", ())))
    >>> reading(record, draft).loss_letters  # 2♣ 2♠ 1♥: ♠ loses (reading A)
    ['S']
    >>> draft = toggle_loss_suit(record, toggle_loss_suit(record, draft, "S"), "H")  # the table plays reading B
    >>> draft.override(), reading(record, draft).loss_letters
    ({'loss_suits': ['H']}, ['H'])
    >>> toggle_loss_suit(record, toggle_loss_suit(record, draft, "S"), "H").override() is None  # back to the bank
    True
    """
    verify_override(draft)
    said = reading(record, draft)
    assert said is not None
    letter = suit.value if isinstance(suit, Suit) else str(suit).strip().upper()
    if letter not in [s.value for s in LOSS_SUITS]:
        raise InvalidRecordError(f"{suit!r} is not a suit that can lose (clubs never lose, BK-12): use S, H or D")
    now = set(said.loss_letters) ^ {letter}
    loss = tuple(s.value for s in LOSS_SUITS if s.value in now)
    return _normalised(record, replace(draft, loss_override=loss))


def set_ranked_valuable(record: RecordLike, draft: RoundDraft, valuable: bool) -> RoundDraft:
    """The table says ranked cards are (or are not) valuable this round (BK-13)."""
    verify_override(draft)
    return _normalised(record, replace(draft, valuable_override=bool(valuable)))


def clear_override(draft: RoundDraft) -> RoundDraft:
    """Follow the bank's reading again."""
    return replace(draft, loss_override=None, valuable_override=None)


# --- the breakdown ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PileView:
    """One player's round by rule (rules 8–11): the cards behind each number, for the breakdown on screen."""

    name: str
    clubs: tuple[str, ...]
    """Clubs: +1, ranked +2."""
    clubs_points: int
    ranked: tuple[str, ...]
    """Valuable ranked cards: +3 each."""
    ranked_points: int
    losses: tuple[str, ...]
    """Cards of a loss suit that cost a point."""
    losses_points: int
    straights: tuple[tuple[str, ...], ...]
    """The best straights in the rest, each a run of cards, low to high."""
    straights_points: int
    rest: tuple[str, ...]
    """Every card in the rest (straights included)."""
    leftover: tuple[str, ...]
    """Cards of the rest that are in no straight."""
    outside: tuple[str, ...]
    """Cards that score 0 and stay out of the rest (house rule BK-5)."""
    most_rest: int
    """The most-rest point (BK-11): 1 or 0."""

    @property
    def total(self) -> int:
        """The round score."""
        return self.clubs_points + self.ranked_points + self.losses_points + self.straights_points + self.most_rest

    @property
    def size(self) -> int:
        return len(self.clubs) + len(self.ranked) + len(self.losses) + len(self.rest) + len(self.outside)


def piles(record: RecordLike, draft: RoundDraft) -> list[PileView]:
    """Every player's breakdown under the round's reading, in seating order (empty until the bank is complete)."""
    said = reading(record, draft)
    if said is None:
        return []
    options = options_of(record)
    scored = {name: fc.score_pile(cards, said, options) for name, cards in draft.piles}
    bonus = fc.most_rest_points({name: len(pile.rest) for name, pile in scored.items()}, options)
    out = []
    for name, pile in scored.items():

        def cards(*roles: fc.CardRole, pile: fc.PileScore = pile) -> tuple[str, ...]:
            return tuple(str(card) for card, role in pile.roles if role in roles)

        in_runs = {card for group in pile.straights.groups for card in group}
        out.append(
            PileView(
                name=name,
                clubs=cards(fc.CardRole.CLUB, fc.CardRole.RANKED_CLUB),
                clubs_points=pile.clubs,
                ranked=cards(fc.CardRole.VALUABLE),
                ranked_points=pile.ranked,
                losses=cards(fc.CardRole.LOSS, fc.CardRole.RANKED_LOSS_PENALTY),
                losses_points=pile.losses,
                straights=tuple(tuple(str(card) for card in group) for group in pile.straights.groups),
                straights_points=pile.straights.points,
                rest=tuple(str(card) for card in pile.rest),
                leftover=tuple(str(card) for card in pile.rest if card not in in_runs),
                outside=cards(fc.CardRole.WORTHLESS_OUT),
                most_rest=bonus[name],
            )
        )
    return out


# --- the round as a whole --------------------------------------------------------------------------------------


def prompt(draft: RoundDraft, words: Words | None = None) -> str:
    """What the table enters next, in words.

    >>> prompt(RoundDraft(bank=("2S",), piles=(("Ann", ()),)))
    'Tap the 5 face-down bank cards (1 of 5)'
    >>> prompt(RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=(("Ann", ("7S",)),), target="Ann"))
    "Tap each card of Ann's pile (1 so far)"
    >>> prompt(RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=(("Ann", ()), ("Ben", ())), target="Ann"))
    "Tap each card of Ann's pile (0 so far); hold down the first card of Ben's pile"
    """
    _ = (words or EN).gettext
    if draft.target is None:
        if draft.bank_complete:
            return _("The bank is complete: choose a pile")
        return _("Tap the 5 face-down bank cards ({n} of 5)").format(n=len(draft.bank))
    count = len(draft.pile(draft.target))
    following = next_target(draft)
    if following is None:
        return _("Tap each card of {name}'s pile ({n} so far)").format(name=draft.target, n=count)
    said = _("Tap each card of {name}'s pile ({n} so far); hold down the first card of {following}'s pile")
    return said.format(name=draft.target, n=count, following=following)


def progress(draft: RoundDraft, words: Words | None = None) -> str:
    """How many cards are where (BK-19: the 27 laid-out cards all end in piles, with the bank cards they captured).

    >>> progress(RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=(("Ann", ("7S", "8S")), ("Ben", ()))))
    'Bank 5 of 5 · piles 2 cards · 45 not entered'
    """
    in_piles = sum(len(cards) for _, cards in draft.piles)
    said = (words or EN).ngettext(
        "Bank {bank} of 5 · piles {n} card · {left} not entered",
        "Bank {bank} of 5 · piles {n} cards · {left} not entered",
        in_piles,
    )
    return said.format(bank=len(draft.bank), n=in_piles, left=52 - draft.cards_entered)


def warnings(draft: RoundDraft, words: Words | None = None) -> list[str]:
    """Things worth a second look that the rules allow (pile sizes are not checked): empty piles, fewer pile cards
    than the 27 laid out.

    >>> warnings(RoundDraft(bank=("2S", "3S", "4S", "5S", "6S"), piles=(("Ann", ("7S",)), ("Ben", ()))))
    ["Ben's pile is empty.", 'The piles hold 1 card; all 27 laid-out cards end in piles (rule 4).']
    """
    if not draft.bank_complete:
        return []
    words = words or EN
    out = [words.gettext("{name}'s pile is empty.").format(name=name) for name, cards in draft.piles if not cards]
    in_piles = sum(len(cards) for _, cards in draft.piles)
    if in_piles < LAID_OUT:
        said = words.ngettext(
            "The piles hold {n} card; all {laid} laid-out cards end in piles (rule 4).",
            "The piles hold {n} cards; all {laid} laid-out cards end in piles (rule 4).",
            in_piles,
        )
        out.append(said.format(n=in_piles, laid=LAID_OUT))
    return out


def verify_round(
    record: Mapping[str, Any], draft: RoundDraft, *, later: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """Check the round can be recorded after ``record``'s hands (and before ``later`` ones, for a correction);
    the hand as the record keeps it. Raises the :class:`ScoringError` that names the problem.

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"], "hands": []}
    >>> verify_round(record, RoundDraft(bank=("2S",), piles=(("Ann", ()), ("Ben", ()))))
    Traceback (most recent call last):
    ...
    companion.entry_financial_crisis.FinancialCrisisIncompleteError: the bank has five face-down cards: 1 entered so far
    """
    if not draft.bank_complete:
        raise FinancialCrisisIncompleteError(
            f"the bank has five face-down cards: {len(draft.bank)} entered so far", "bank"
        )
    hand = draft.to_hand()
    candidate = dict(record)
    candidate["hands"] = [*(record.get("hands") or []), hand, *later]
    find_game("financial-crisis").score(candidate)
    return hand


def can_confirm(record: Mapping[str, Any], draft: RoundDraft) -> bool:
    """Whether :func:`verify_round` accepts the round (a check that replays the record: the entry panel asks
    :meth:`FinancialCrisisState.can_confirm`, which does not)."""
    return passes(lambda: verify_round(record, draft), (ScoringError,))


# --- what a round needs from the record, once ------------------------------------------------------------------


@dataclass(frozen=True)
class RoundContext:
    """What entering one round needs from the game, worked out once per record: the record parsed (every card
    check of the round uses it, so a tap never validates the whole game again) and whether another round may be
    recorded at all (BK-14). Nothing here changes while a round is entered: only a change of the session (a
    confirmed round, an undo) makes a new one.

    >>> context = RoundContext.of({"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1},
    ...                            "hands": [{"bank": ["2H", "5H", "JS", "QD", "7C"]}]})
    >>> context.game.players, context.closed
    (('Ann', 'Ben'), 'the game is over after 1 round (BK-14)')
    """

    game: fc.Record
    closed: str | None = None
    """Why no round can be recorded after this record (the game is over), or ``None``."""

    @classmethod
    def of(cls, record: RecordLike) -> RoundContext:
        """Parse and check ``record`` once (raises the :class:`ScoringError` of a record that cannot be read)."""
        game = record if isinstance(record, fc.Record) else find_game("financial-crisis").parse(dict(record))
        assert isinstance(game, fc.Record)
        try:
            fc.verify_add_round(game)
        except ScoringError as exc:
            return cls(game, str(exc))
        return cls(game)


def verify_hand(context: RoundContext, draft: RoundDraft) -> dict[str, Any]:
    """The round as the record keeps it, checked against what :class:`RoundContext` knows of the game and on its
    own (five bank cards, no card twice, seated players: BK-19), without replaying the game's rounds. Raises the
    :class:`ScoringError` naming the problem (:class:`FinancialCrisisIncompleteError` first).

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1}}
    >>> draft = RoundDraft.empty(record)
    >>> for card in ["3S", "7S", "4H", "9H", "6D", "KC"]:
    ...     draft = add_card(record, draft, card)
    >>> verify_hand(RoundContext.of(record), draft)["piles"]
    {'Ann': ['KC'], 'Ben': []}
    >>> verify_hand(RoundContext.of({**record, "hands": [draft.to_hand()]}), draft)
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: the game is over after 1 round (BK-14)
    """
    if not draft.bank_complete:
        raise FinancialCrisisIncompleteError(
            f"the bank has five face-down cards: {len(draft.bank)} entered so far", "bank"
        )
    if context.closed is not None:
        raise IllegalHandError(context.closed, "hands")
    hand = draft.to_hand()
    try:
        parsed = fc.Hand.model_validate(hand)
    except ValidationError as exc:
        raise validation_error(exc) from None
    alone = context.game.model_copy(update={"hands": [parsed]})
    fc.validate(alone)
    return hand


# --- the entry lifecycle (companion.entry.EntryState) -----------------------------------------------------------


@dataclass(frozen=True)
class FinancialCrisisState:
    """A Financial Crisis round as :class:`companion.entry.EntryState`: the record before it, the
    :class:`RoundDraft`, and the :class:`RoundContext` worked out once from the record (carried along by every
    change of the draft, so no tap validates or replays the game).

    >>> from companion.entry import EntryTarget
    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1}}
    >>> state = FinancialCrisisState.start(record, EntryTarget())
    >>> state.focus(), state.can_confirm()
    ('bank', False)
    >>> for card in ["3S", "7S", "4H", "9H", "6D", "4C"]:
    ...     state = state.add(card)
    >>> state.can_confirm(), state.context is FinancialCrisisState.start(record).context
    (True, False)
    >>> FinancialCrisisState.from_draft(record, EntryTarget(), state.to_draft()).focus()
    'pile/Ann'
    """

    record: Mapping[str, Any] = field(repr=False)
    draft: RoundDraft
    context: RoundContext = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    """Made from ``record`` when not given (once: :meth:`but` carries it along)."""

    def __post_init__(self) -> None:
        if self.context is None:
            object.__setattr__(self, "context", RoundContext.of(self.record))

    @property
    def game(self) -> fc.Record:
        """The record parsed once: what every entry function of this module takes in place of ``record``."""
        return self.context.game

    @classmethod
    def start(cls, record: Mapping[str, Any], target: EntryTarget | None = None) -> FinancialCrisisState:
        context = RoundContext.of(record)
        return cls(dict(record), RoundDraft.empty(context.game), context)

    @classmethod
    def from_hand(cls, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> FinancialCrisisState:
        context = RoundContext.of(record)
        return cls(dict(record), RoundDraft.from_hand(context.game, hand), context)

    @classmethod
    def from_draft(
        cls, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]
    ) -> FinancialCrisisState:
        """What :meth:`to_draft` kept (the round so far and the pile being entered), checked again."""
        context = RoundContext.of(record)
        return cls(dict(record), RoundDraft.from_json(context.game, draft), context)

    def to_draft(self) -> dict[str, Any]:
        return self.draft.to_json()

    def verify(self) -> None:
        """Raise the :class:`ScoringError` naming the problem (:class:`FinancialCrisisIncompleteError` first)."""
        verify_hand(self.context, self.draft)

    def can_confirm(self) -> bool:
        return passes(self.verify, (ScoringError,))

    def to_hand(self) -> dict[str, Any]:
        return verify_hand(self.context, self.draft)

    def focus(self) -> str | None:
        """``bank`` until its five cards are in, then ``pile/<name>`` of the pile being entered (``pile`` when
        none is chosen and the round cannot be confirmed yet, ``None`` when it can)."""
        if not self.draft.bank_complete:
            return "bank"
        if self.draft.target is not None:
            return f"pile/{self.draft.target}"
        return None if self.can_confirm() else "pile"

    def but(self, draft: RoundDraft) -> FinancialCrisisState:
        return replace(self, draft=draft)

    def add(self, card: Card | str) -> FinancialCrisisState:
        """The state with ``card`` added to the draft's target (:func:`add_card`)."""
        return self.but(add_card(self.game, self.draft, card))


# --- what the app declares of Financial Crisis: its draft, its Rules page, its entry (companion.games.ENTRIES) -----


class _FinancialCrisisHand(TypedDict):
    bank: NotRequired[list[str] | None]
    piles: NotRequired[dict[str, list[str] | None] | None]
    override: NotRequired[dict[str, Any] | None]


class _FinancialCrisisDraft(TypedDict):
    hand: NotRequired[_FinancialCrisisHand | None]
    target: NotRequired[str | None]


GUIDE = GameGuide(
    key="financial-crisis",
    name="Financial Crisis",
    players=N_("2 to 4 players (up to 9 as a house rule)"),
    summary=N_("Capture cards from five banks; the hidden bank cards decide which suits are losses."),
    sections=(
        Section(
            N_("Set-up and play"),
            (
                N_(
                    "Five banks of 5 cards each: one face down under four face up. The other 27 cards are laid out "
                    "three at a time; you take one and pass two to the next player."
                ),
                N_(
                    "A card captures every top bank card of the same rank, and keeps capturing while the card "
                    "beneath has that rank too. Everything you take, get or capture goes into your pile."
                ),
            ),
        ),
        Section(
            N_("The banks decide"),
            (
                N_("At the end of the round the five face-down bank cards are turned over."),
                N_(
                    "Loss suit: the suit that shows most (clubs never lose). A tie for most reverses the order: "
                    "the suit that shows least loses instead; if no other suit is there, all tied suits lose."
                ),
                N_("Ranked cards (J, Q, K, A) are valuable when two or more of the face-down cards are ranked."),
            ),
        ),
        Section(
            N_("Scoring your pile"),
            (
                N_("Clubs: 1 point each, 2 for a ranked club."),
                N_("Loss suit: minus 1 per card; a ranked card of a loss suit scores 0."),
                N_("Other ranked cards: 3 points each when ranked cards are valuable, otherwise 0."),
                N_(
                    "The rest (cards that scored nothing): each straight of 3 or more ranks scores its length "
                    "minus 2, and the one player with the most cards in the rest gets 1 more point."
                ),
            ),
        ),
        Section(
            N_("End of the game"),
            (N_("One round per player unless agreed otherwise. Highest total wins; equal totals win jointly."),),
        ),
    ),
    options=(
        HouseRule("rounds", N_("Number of rounds"), N_("one per player"), N_("any number from 1"), "BK-14"),
        HouseRule(
            "ace",
            N_("The Ace"),
            N_("a ranked card above the King"),
            N_("a plain 1"),
            "BK-1",
            (("high", N_("A ranked card above the King")), ("one", N_("A plain 1, not ranked"))),
        ),
        HouseRule(
            "straights",
            N_("Repeated ranks in straights"),
            N_("best split into separate straights"),
            N_("repeats ignored"),
            "BK-8",
            (("disjoint", N_("Best split into separate straights")), ("distinct", N_("Repeated ranks ignored"))),
        ),
        HouseRule(
            "ace_in_straights",
            N_("The Ace in straights"),
            N_("high (Q-K-A)"),
            N_("low (A-2-3) or both"),
            "BK-9",
            (
                ("high", N_("High (Q-K-A)")),
                ("low", N_("Low (A-2-3)")),
                ("both", N_("Both ways (Q-K-A and A-2-3, never K-A-2)")),
            ),
        ),
        HouseRule("worthless_ranked_in_rest", N_("Worthless ranked cards join the rest"), N_("yes"), N_("no"), "BK-5"),
        HouseRule(
            "ranked_loss_when_not_valuable",
            N_("Ranked loss-suit card when ranked cards are worthless"),
            N_("0, into the rest"),
            N_("minus 1"),
            "BK-4",
            ((0, N_("0, into the rest")), (-1, N_("Minus 1, not in the rest"))),
        ),
        HouseRule(
            "most_rest_tie",
            N_("Tie for most cards in the rest"),
            N_("nobody scores"),
            N_("all tied score 1"),
            "BK-11",
            (("nobody", N_("Nobody scores")), ("all", N_("All tied score 1"))),
        ),
        HouseRule(
            "clubs_tie_for_most",
            N_("Banks show 2♣, 2 of one suit, 1 of another"),
            N_("the 2-card suit loses"),
            N_("the 1-card suit loses"),
            "BK-12",
            (("set-aside", N_("The 2-card suit loses")), ("reverse", N_("The 1-card suit loses"))),
        ),
        HouseRule(
            "one_club_two_two",
            N_("Banks show 1♣ and two pairs"),
            N_("both pair suits lose"),
            N_("the missing suit loses"),
            "BK-12",
            (("both", N_("Both pair suits lose")), ("absent", N_("The missing suit loses"))),
        ),
        HouseRule("max_players", N_("Most players allowed"), N_("4"), N_("up to 9"), "BK-15"),
    ),
)
"""Financial Crisis in the app's own words: the Rules page (and ``docs/rules/financial-crisis.md``)."""

ENTRY = GameEntry(
    key=fc.GAME.key,
    state=FinancialCrisisState,
    draft=TypeAdapter(_FinancialCrisisDraft),
    guide=GUIDE,
)
"""Financial Crisis in the companion: listed once in :data:`companion.games.ENTRIES`."""
