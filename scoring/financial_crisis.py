"""Financial Crisis: the bank game (``docs/spec/financial-crisis.md``; record format in ``records.md``).

Each round ends with five face-down bank cards turned over. Their suits decide the **loss suit(s)** (BK-12), their
ranks whether **ranked cards are valuable** (BK-13); then every player scores their pile: clubs, ranked cards,
losses, straights in "the rest" (BK-7…BK-10) and one point for the biggest rest (BK-11). The game lasts ``rounds``
rounds (default: one per player, BK-14); the highest total wins and equal highest totals are joint winners.

>>> result = GAME.score({
...     "game": "financial-crisis", "players": ["Ann", "Ben"],
...     "hands": [{"bank": ["2H", "5H", "JS", "QD", "7C"],
...                "piles": {"Ann": ["4C", "QC", "3S", "10S", "KS", "9H", "QH", "8D", "9D"]}}]})
>>> result.hands[0].points, result.totals, result.finished
({'Ann': 7, 'Ben': 0}, {'Ann': 7, 'Ben': 0}, False)

(Ann's 6 is the seed's example, BK-E4; her rest of five cards is the largest, so she also gets the point of BK-11.)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, StrictBool, WithJsonSchema, field_validator

from scoring.base import (
    OTHERS,
    HandResult,
    Model,
    PlayerName,
    RecordBase,
    Result,
    joint_win,
    parse_record,
    said,
    sole_win,
    zeros,
)
from scoring.cards import CARD_PATTERN, RANKS, SUITS, Card, CardText, Suit, standard_deck
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

RULING_PREFIX = "BK"
"""The prefix of Financial Crisis's ruling ids (``BK-3``) in ``shared/rules/financial-crisis.md``."""

__all__ = [
    "GAME",
    "PATTERNS",
    "AceInStraights",
    "AceRank",
    "BankReading",
    "Breakdown",
    "CardRole",
    "ClubsTieForMost",
    "FCCard",
    "Hand",
    "LossRule",
    "LossSuit",
    "MostRestTie",
    "OneClubTwoTwo",
    "Options",
    "Override",
    "PileScore",
    "Record",
    "Straights",
    "StraightsRule",
    "apply_override",
    "best_straights",
    "breakdown",
    "can_add_card",
    "can_add_round",
    "can_bank",
    "card_role",
    "is_ranked",
    "legal_cards",
    "loss_suits_for",
    "most_rest_points",
    "read_bank",
    "score",
    "score_pile",
    "validate",
    "verdict_of",
    "verify_add_card",
    "verify_add_round",
    "verify_bank",
]

NON_CLUBS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
"""The suits that can lose, in the order results list them (S H D)."""

RANKED_FACES: frozenset[str] = frozenset({"J", "Q", "K"})
"""Ranked cards besides the Ace (BK-1: the Ace is ranked unless ``ace`` is ``"one"``)."""


# --------------------------------------------------------------------------------------------------------- options


class AceRank(enum.StrEnum):
    """What an Ace is when cards are scored (BK-1)."""

    HIGH = "high"
    """A ranked card above the King: A♣ +2, another Ace +3 when ranked cards are valuable, counts in BK-13."""
    ONE = "one"
    """A numeral "1": A♣ +1, an Ace of a loss suit −1, never +3, does not count toward the two ranked bank cards."""


class StraightsRule(enum.StrEnum):
    """How repeated ranks in the rest make straights (BK-8)."""

    DISJOINT = "disjoint"
    """Each card in at most one straight; the split with the most points (8 8 9 9 10 10 → two straights)."""
    DISTINCT = "distinct"
    """Duplicate ranks are ignored: one card per rank, then the best split (8 8 9 9 10 10 → one straight)."""


class AceInStraights(enum.StrEnum):
    """Where an Ace sits in a straight (BK-9). Straights never wrap around (no K-A-2)."""

    HIGH = "high"
    """Above the King only: Q-K-A counts, A-2-3 does not."""
    LOW = "low"
    """Below the 2 only: A-2-3 counts, Q-K-A does not."""
    BOTH = "both"
    """Either end; one Ace card is low or high, never both at once."""


class MostRestTie(enum.StrEnum):
    """Who gets the most-rest point when the largest rest is shared (BK-11)."""

    NOBODY = "nobody"
    """Nobody gets it."""
    ALL = "all"
    """Every tied player gets +1 (still nobody when the largest rest is empty)."""


class ClubsTieForMost(enum.StrEnum):
    """The bank pattern 2♣ 2X 1Y, where clubs tie for the most cards (BK-12, pattern P11)."""

    SET_ASIDE = "set-aside"
    """Clubs are set aside first, so X shows the most and loses (reading A)."""
    REVERSE = "reverse"
    """The 2-2-1 tie reverses over all four suits, so the single Y loses (reading B)."""


class OneClubTwoTwo(enum.StrEnum):
    """The bank pattern 1♣ 2X 2Y (BK-12, pattern P8)."""

    BOTH = "both"
    """X and Y tie with nothing present to reverse to: both lose."""
    ABSENT = "absent"
    """The tie reverses to the suit that is missing from the bank: it loses."""


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float) and value.is_integer()))


MAX_ROUNDS = 1000
"""The most rounds a game can be set to (BK-14 house rule): a round takes minutes, and the default is one round per
player (2 to 9)."""


class Options(Model):
    """The house rules of ``house-rules.md`` for Financial Crisis, each with its default ruling.

    >>> Options().ace, Options(rounds=2).rounds_for(4), Options().rounds_for(3)
    (<AceRank.HIGH: 'high'>, 2, 3)
    """

    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    """Rounds in a game, 1 to :data:`MAX_ROUNDS`; ``None`` = one per player (BK-14)."""
    ace: AceRank = AceRank.HIGH
    straights: StraightsRule = StraightsRule.DISJOINT
    ace_in_straights: AceInStraights = AceInStraights.HIGH
    worthless_ranked_in_rest: StrictBool = True
    """BK-5: ranked non-club, non-loss cards that are not valuable go into the rest."""
    ranked_loss_when_not_valuable: Literal[0, -1] = 0
    """BK-4: a ranked card of a loss suit in a round where ranked cards are not valuable scores 0 (into the rest)
    or −1 (not in the rest)."""
    most_rest_tie: MostRestTie = MostRestTie.NOBODY
    clubs_tie_for_most: ClubsTieForMost = ClubsTieForMost.SET_ASIDE
    one_club_two_two: OneClubTwoTwo = OneClubTwoTwo.BOTH
    max_players: int = Field(default=4, ge=2, le=9)
    """BK-15: the author tested 2–4 players; up to 9 may be allowed."""

    @field_validator("rounds", mode="before")
    @classmethod
    def _rounds(cls, value: Any) -> Any:
        if value is None:
            return None
        if not _whole(value) or value < 1:
            raise InvalidRecordError(
                Note.of(
                    "{key} must be a whole number of at least 1, not {value} (BK-14)", key="'rounds'", value=repr(value)
                )
            )
        return int(value)

    @field_validator("max_players", mode="before")
    @classmethod
    def _max_players(cls, value: Any) -> Any:
        if not _whole(value) or not 2 <= value <= 9:
            raise InvalidRecordError(
                Note.of(
                    "{key} must be a whole number from 2 to 9, not {value} (BK-15)",
                    key="'max_players'",
                    value=repr(value),
                )
            )
        return int(value)

    @field_validator("ranked_loss_when_not_valuable", mode="before")
    @classmethod
    def _zero_or_minus_one(cls, value: Any) -> Any:
        if isinstance(value, bool) or value not in (0, -1):
            key = "'ranked_loss_when_not_valuable'"
            raise InvalidRecordError(Note.of("{key} must be 0 or -1, not {value}", key=key, value=repr(value)))
        return int(value)

    def rounds_for(self, players: int) -> int:
        """The number of rounds for this many players (BK-14)."""
        return self.rounds if self.rounds is not None else players


DEFAULT_OPTIONS = Options()


# --------------------------------------------------------------------------------------------------------- records


def _parse_card(value: Any) -> Card:
    if type(value) is Card and value.suit is not None:  # already read (a record's pile, handed on)
        return value
    try:
        card = Card.parse(value)
    except InvalidCardError:
        raise InvalidCardError(f"{value!r} is not a card (write e.g. 10H, QS or AC)") from None
    if card.is_joker:
        raise InvalidCardError("the Joker is not used in Financial Crisis (a 52-card deck, no Jokers)")
    return card


FCCard = Annotated[Card, CardText(_parse_card, CARD_PATTERN)]
"""A card of the 52-card deck (no Joker), parsed forgivingly and written canonically."""


def _parse_loss_suit(value: Any) -> Suit:
    text = value.strip().upper() if isinstance(value, str) else None
    suits = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "♠": Suit.SPADES, "♥": Suit.HEARTS}
    suits["♦"] = Suit.DIAMONDS
    if text in ("C", "♣"):
        raise InvalidRecordError("clubs are never a loss suit (BK-12): use S, H or D")
    if text is None or text not in suits:
        raise InvalidRecordError(f"{value!r} is not a loss suit (use S, H or D)")
    return suits[text]


LossSuit = Annotated[
    Suit,
    BeforeValidator(_parse_loss_suit),
    PlainSerializer(lambda suit: suit.value, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["S", "H", "D"]}),
]
"""A suit that can lose: S, H or D."""


class Override(Model):
    """The table's own reading of the bank for one round (BK-12: the app lets the table override it)."""

    loss_suits: tuple[LossSuit, ...] | None = None
    """The suits that lose instead of the computed ones (empty: no suit loses)."""
    ranked_valuable: StrictBool | None = None
    """Whether ranked cards are valuable instead of the computed answer."""

    @field_validator("loss_suits")
    @classmethod
    def _distinct(cls, suits: tuple[Suit, ...] | None) -> tuple[Suit, ...] | None:
        if suits is not None and len(set(suits)) != len(suits):
            raise ValueError("a loss suit is listed twice in the override")
        return suits


class Hand(Model):
    """One round: the five face-down bank cards and every player's pile (``records.md``)."""

    bank: tuple[FCCard, ...] = Field(json_schema_extra={"minItems": 5, "maxItems": 5})
    piles: dict[str, tuple[FCCard, ...]] = Field(default_factory=dict)
    override: Override | None = None

    @field_validator("bank", mode="before")
    @classmethod
    def _bank_is_a_list(cls, bank: Any) -> Any:
        if not isinstance(bank, (list, tuple)):
            raise InvalidRecordError("'bank' must be a list of the five face-down cards")
        return bank

    @field_validator("piles", mode="before")
    @classmethod
    def _trim_names(cls, piles: Any) -> Any:
        if not isinstance(piles, dict):
            raise InvalidRecordError("'piles' must be an object giving each player's list of cards")
        out: dict[Any, Any] = {}
        for name, cards in piles.items():
            key = name.strip() if isinstance(name, str) else name
            if key in out:
                raise InvalidRecordError(f"{key}'s pile is entered twice")
            if not isinstance(cards, (list, tuple)):
                raise InvalidRecordError(f"{key}'s pile must be a list of cards")
            out[key] = cards
        return out


class Record(RecordBase):
    """A whole Financial Crisis game record."""

    game: Literal["financial-crisis"]
    players: tuple[PlayerName, ...] = Field(min_length=1)
    options: Options = Field(default_factory=Options)
    hands: tuple[Hand, ...] = ()

    @field_validator("options", mode="before")
    @classmethod
    def _options_object(cls, options: Any) -> Any:
        if not isinstance(options, (dict, Options)):
            raise InvalidRecordError("'options' must be an object of house rules (it may be empty: {})")
        return options

    @field_validator("hands", mode="before")
    @classmethod
    def _hands_list(cls, hands: Any) -> Any:
        if not isinstance(hands, (list, tuple)):
            raise InvalidRecordError("'hands' must be a list of rounds")
        for index, hand in enumerate(hands):
            if not isinstance(hand, (dict, Hand)):
                raise InvalidRecordError(f"hand {index + 1} must be an object with 'bank' and 'piles'")
        return hands


# ---------------------------------------------------------------------------------------------------- bank reading


class LossRule(enum.Enum):
    """Which suits lose, for one pattern of the bank's suits (BK-12, ``§3.3``)."""

    MOST = "most"
    """The one non-club suit with the most cards."""
    REVERSE = "reverse"
    """A tie for the most reverses: the non-club suit(s) with the fewest (present) cards lose."""
    TIED = "tied"
    """A tie with nothing present to reverse to: every tied suit loses."""
    ABSENT = "absent"
    """A tie reversed to the one non-club suit missing from the bank."""
    NONE = "none"
    """Five clubs: nothing is left to lose."""


# The 16 patterns of rules §3.3, keyed by (clubs, non-club counts in descending order, zeros left out):
# (class, rule under the default options); P8 and P11 change with the house rules (see _loss_rule).
PATTERNS: dict[tuple[int, tuple[int, ...]], tuple[str, LossRule]] = {
    (0, (5,)): ("P1", LossRule.MOST),
    (0, (4, 1)): ("P2", LossRule.MOST),
    (0, (3, 2)): ("P3", LossRule.MOST),
    (0, (3, 1, 1)): ("P4", LossRule.MOST),
    (0, (2, 2, 1)): ("P5", LossRule.REVERSE),
    (1, (4,)): ("P6", LossRule.MOST),
    (1, (3, 1)): ("P7", LossRule.MOST),
    (1, (2, 2)): ("P8", LossRule.TIED),
    (1, (2, 1, 1)): ("P9", LossRule.MOST),
    (2, (3,)): ("P10", LossRule.MOST),
    (2, (2, 1)): ("P11", LossRule.MOST),
    (2, (1, 1, 1)): ("P12", LossRule.TIED),
    (3, (2,)): ("P13", LossRule.MOST),
    (3, (1, 1)): ("P14", LossRule.TIED),
    (4, (1,)): ("P15", LossRule.MOST),
    (5, ()): ("P16", LossRule.NONE),
}
"""The loss rule of each of the 16 suit patterns of five bank cards, default options (BK-12). The table covers all
56 suit-labelled compositions; P8 and P11 change with ``one_club_two_two`` and ``clubs_tie_for_most``."""


@dataclass(frozen=True, slots=True)
class BankReading:
    """What the five face-down bank cards say (BK-12, BK-13), with the reasons in words."""

    loss_suits: tuple[Suit, ...]
    """The losing suits, in the order S H D (empty: none)."""
    ranked_valuable: bool
    pattern: str
    """The class of §3.3 (``"P5"``), or ``"override"`` when the table decided."""
    loss_note: Note
    valuable_note: Note

    @property
    def loss_reason(self) -> str:
        """Why these suits lose, in English (:attr:`loss_note` as data)."""
        return render(self.loss_note)

    @property
    def valuable_reason(self) -> str:
        """Why ranked cards are (not) valuable, in English (:attr:`valuable_note` as data)."""
        return render(self.valuable_note)

    @property
    def reason(self) -> str:
        """Both reasons in one line."""
        return f"{self.loss_reason} {self.valuable_reason}"

    @property
    def loss_letters(self) -> list[str]:
        """The losing suits as letters, sorted S H D (as results report them)."""
        return [suit.value for suit in self.loss_suits]


def _cards(cards: Iterable[Card | str]) -> list[Card]:
    """Parse cards of this game (no Joker)."""
    return [_parse_card(card) for card in cards]


def _symbols(suits: Iterable[Suit]) -> Names:
    return Names.of(suit.symbol for suit in suits)


def _labels(cards: Iterable[Card]) -> str:
    return " ".join(card.label for card in cards)


def is_ranked(card: Card, options: Options = DEFAULT_OPTIONS) -> bool:
    """J, Q, K, and the Ace unless ``ace`` is ``"one"`` (BK-1).

    >>> is_ranked(Card.parse("AS")), is_ranked(Card.parse("AS"), Options(ace="one")), is_ranked(Card.parse("10S"))
    (True, False, False)
    """
    return card.rank in RANKED_FACES or (card.rank == "A" and options.ace is AceRank.HIGH)


def verify_bank(bank: Sequence[Card | str]) -> list[Card]:
    """Check five distinct cards of the 52-card deck; return them parsed (raises the specific ScoringError).

    >>> verify_bank(["2S", "2H", "1D"])
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: '1D' is not a card (write e.g. 10H, QS or AC)
    >>> verify_bank(["2S", "2H", "3D", "4D", "2s"])
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 2♠ appears twice in the bank
    """
    if isinstance(bank, (str, bytes)) or not isinstance(bank, Sequence):
        raise InvalidRecordError("the bank must be a list of five cards")
    cards = []
    for index, item in enumerate(bank):
        try:
            cards.append(_parse_card(item))
        except ScoringError as exc:
            raise exc.at(f"bank[{index}]") from None
    seen: set[Card] = set()
    for index, card in enumerate(cards):
        if card in seen:
            raise DuplicateCardError(f"{card.label} appears twice in the bank", f"bank[{index}]")
        seen.add(card)
    if len(cards) != 5:
        raise IllegalHandError(f"the bank has five face-down cards, not {len(cards)}", "bank")
    return cards


def can_bank(bank: Sequence[Card | str]) -> bool:
    """Whether ``bank`` is five distinct cards that :func:`read_bank` can read.

    >>> can_bank(["KS", "4H", "AD", "7S", "2C"]), can_bank(["KS", "4H"])
    (True, False)
    """
    try:
        verify_bank(bank)
    except ScoringError:
        return False
    return True


def _describe_counts(counts: Mapping[Suit, int]) -> str:
    """``3♣ 1♠ 1♥``: clubs first, then the other suits by count (most first), zeros left out."""
    parts = [f"{counts[Suit.CLUBS]}♣"] if counts[Suit.CLUBS] else []
    ordered = sorted(NON_CLUBS, key=lambda suit: -counts[suit])
    parts += [f"{counts[suit]}{suit.symbol}" for suit in ordered if counts[suit]]
    return " ".join(parts)


def _loss_rule(pattern: str, rule: LossRule, options: Options) -> LossRule:
    if pattern == "P8" and options.one_club_two_two is OneClubTwoTwo.ABSENT:
        return LossRule.ABSENT
    if pattern == "P11" and options.clubs_tie_for_most is ClubsTieForMost.REVERSE:
        return LossRule.REVERSE
    return rule


def loss_suits_for(counts: Mapping[Suit, int], options: Options = DEFAULT_OPTIONS) -> tuple[tuple[Suit, ...], str, str]:
    """The losing suits for these suit counts of the five bank cards, the pattern class, and the reason (BK-12).

    >>> suits, pattern, why = loss_suits_for({Suit.CLUBS: 2, Suit.SPADES: 2, Suit.HEARTS: 1, Suit.DIAMONDS: 0})
    >>> suits, pattern, why
    ((<Suit.SPADES: 'S'>,), 'P11', '2♣ 2♠ 1♥: clubs are set aside first; ♠ shows the most, ♠ loses (BK-12).')
    """
    suits, pattern, note = _loss_suits_for(counts, options)
    return suits, pattern, render(note)


def _loss_suits_for(counts: Mapping[Suit, int], options: Options) -> tuple[tuple[Suit, ...], str, Note]:
    counts = {suit: int(counts.get(suit, 0)) for suit in SUITS}
    if sum(counts.values()) != 5 or min(counts.values()) < 0:
        raise InvalidRecordError("the bank has five face-down cards", "bank")
    shape = tuple(sorted((counts[s] for s in NON_CLUBS if counts[s]), reverse=True))
    pattern, default_rule = PATTERNS[(counts[Suit.CLUBS], shape)]
    rule = _loss_rule(pattern, default_rule, options)
    present = [s for s in NON_CLUBS if counts[s]]
    described = _describe_counts(counts)
    clubs = counts[Suit.CLUBS]
    top = max((counts[s] for s in present), default=0)
    if rule is LossRule.NONE:
        return (
            (),
            pattern,
            Note.of("{counts}: clubs never lose and nothing else is left, so no suit loses (BK-12).", counts=described),
        )
    if rule is LossRule.MOST:
        suits = tuple(s for s in present if counts[s] == top)
        loser = suits[0].symbol
        if pattern == "P11":
            note = Note.of(
                "{counts}: clubs are set aside first; {suit} shows the most, {suit} loses (BK-12).",
                counts=described,
                suit=loser,
            )
        elif clubs >= top:
            note = Note.of(
                "{counts}: clubs show the most and are ignored; of what is left {suit} shows the most, {suit} loses "
                "(BK-12).",
                counts=described,
                suit=loser,
            )
        elif clubs:
            note = Note.of(
                "{counts}: clubs never lose; {suit} shows the most, {suit} loses (BK-12).", counts=described, suit=loser
            )
        else:
            note = Note.of("{counts}: {suit} shows the most, {suit} loses (BK-12).", counts=described, suit=loser)
        return suits, pattern, note
    if rule is LossRule.TIED:
        suits = tuple(present)
        three = len(suits) == 3
        if clubs > top:
            note = Note.of(
                "{counts}: clubs show the most and are ignored; {suits} tie with nothing to reverse to, all three lose "
                "(BK-12)."
                if three
                else "{counts}: clubs show the most and are ignored; {suits} tie with nothing to reverse to, both lose "
                "(BK-12).",
                counts=described,
                suits=_symbols(suits),
            )
        else:
            note = Note.of(
                "{counts}: clubs are set aside; {suits} tie with nothing to reverse to, all three lose (BK-12)."
                if three
                else "{counts}: clubs are set aside; {suits} tie with nothing to reverse to, both lose (BK-12).",
                counts=described,
                suits=_symbols(suits),
            )
        return suits, pattern, note
    if rule is LossRule.ABSENT:
        suits = tuple(s for s in NON_CLUBS if not counts[s])
        return (
            suits,
            pattern,
            Note.of(
                "{counts}: the tie reverses to the suit that is missing, {suits} loses (BK-12 house rule).",
                counts=described,
                suits=_symbols(suits),
            ),
        )
    # REVERSE: the fewest among the suits that are present (P5), or the single suit under P11 "reverse".
    fewest = min(counts[s] for s in present)
    suits = tuple(s for s in present if counts[s] == fewest)
    if pattern == "P11":
        return (
            suits,
            pattern,
            Note.of(
                "{counts}: clubs tie for the most, so the order reverses, {suits} loses (BK-12 house rule).",
                counts=described,
                suits=_symbols(suits),
            ),
        )
    return (
        suits,
        pattern,
        Note.of("{counts}: the tie reverses, {suits} loses (BK-12).", counts=described, suits=_symbols(suits)),
    )


def read_bank(bank: Sequence[Card | str], options: Options = DEFAULT_OPTIONS) -> BankReading:
    """Read the five face-down bank cards: the loss suit(s) (BK-12) and whether ranked cards are valuable (BK-13).

    BK-E2 and BK-E3, the seed's two examples:

    >>> reading = read_bank(["3S", "7S", "4H", "9H", "6D"])
    >>> reading.loss_letters, reading.ranked_valuable
    (['D'], False)
    >>> reading.loss_reason
    '2♠ 2♥ 1♦: the tie reverses, ♦ loses (BK-12).'
    >>> read_bank(["3C", "8C", "QC", "5S", "9H"]).loss_reason
    '3♣ 1♠ 1♥: clubs show the most and are ignored; ♠ and ♥ tie with nothing to reverse to, both lose (BK-12).'

    BK-E6: K♠ 4♥ A♦ 7♠ 2♣ → ♠ loses; K and A make ranked cards valuable.

    >>> reading = read_bank(["KS", "4H", "AD", "7S", "2C"])
    >>> reading.loss_letters, reading.ranked_valuable, reading.valuable_reason
    (['S'], True, 'K♠ and A♦ are ranked: ranked cards are valuable (BK-13).')

    BK-E12 under both house rules:

    >>> read_bank(["2C", "7C", "KS", "4S", "6H"], Options(clubs_tie_for_most="reverse")).loss_letters
    ['H']
    """
    cards = verify_bank(bank)
    counts = {suit: 0 for suit in SUITS}
    for card in cards:
        if card.suit is not None:
            counts[card.suit] += 1
    suits, pattern, loss_note = _loss_suits_for(counts, options)
    ranked = [card for card in cards if is_ranked(card, options)]
    valuable = len(ranked) >= 2
    if not ranked:
        valuable_note = Note.of("No bank card is ranked: ranked cards are not valuable (BK-13).")
    elif valuable:
        valuable_note = Note.of(
            "{cards} are ranked: ranked cards are valuable (BK-13).", cards=Cards.of(ranked, sep="and")
        )
    else:
        valuable_note = Note.of("Only {card} is ranked: ranked cards are not valuable (BK-13).", card=Cards.of(ranked))
    aces = [card for card in cards if card.rank == "A"]
    if aces and options.ace is AceRank.ONE:
        valuable_note = Note.of(
            "{reason} ({aces}: an Ace is a numeral under the Ace = 1 house rule, BK-1.)",
            reason=valuable_note,
            aces=Cards.of(aces),
        )
    return BankReading(
        loss_suits=tuple(s for s in NON_CLUBS if s in suits),
        ranked_valuable=valuable,
        pattern=pattern,
        loss_note=loss_note,
        valuable_note=valuable_note,
    )


def apply_override(reading: BankReading, override: Override | None) -> BankReading:
    """The reading the table decided on, when it overrides the computed one (records.md ``override``, BK-12).

    >>> reading = apply_override(read_bank(["JS", "3S", "5H", "9D", "2D"]), Override(loss_suits=["S"]))
    >>> reading.loss_letters, reading.ranked_valuable, reading.pattern
    (['S'], False, 'override')
    """
    if override is None or (override.loss_suits is None and override.ranked_valuable is None):
        return reading
    loss_suits, loss_note = reading.loss_suits, reading.loss_note
    valuable, valuable_note = reading.ranked_valuable, reading.valuable_note
    if override.loss_suits is not None:
        loss_suits = tuple(s for s in NON_CLUBS if s in override.loss_suits)
        if not loss_suits:
            said = Note.of("no suit loses")
        elif len(loss_suits) == 1:
            said = Note.of("{suits} loses", suits=_symbols(loss_suits))
        else:
            said = Note.of("{suits} lose", suits=_symbols(loss_suits))
        loss_note = Note.of(
            "The table overrode the bank's reading: {said} (BK-12). The bank said: {bank}",
            said=said,
            bank=reading.loss_note,
        )
    if override.ranked_valuable is not None:
        valuable = override.ranked_valuable
        valuable_note = Note.of(
            "The table overrode the bank's reading: ranked cards are valuable (BK-13). The bank said: {bank}"
            if valuable
            else "The table overrode the bank's reading: ranked cards are not valuable (BK-13). The bank said: {bank}",
            bank=reading.valuable_note,
        )
    return BankReading(loss_suits, valuable, "override", loss_note, valuable_note)


# ------------------------------------------------------------------------------------------------------- straights


@dataclass(frozen=True, slots=True)
class Straights:
    """The best straights of a rest: the groups of cards (each a run, low to high) and their points (BK-7…BK-10)."""

    groups: tuple[tuple[Card, ...], ...]
    points: int

    def to_json(self) -> list[list[str]]:
        """The groups as canonical card text. BK-E5: 3-4-5-6 is one straight of 2 points.

        >>> best_straights(["6C", "3S", "5D", "4H"]).to_json()
        [['3S', '4H', '5D', '6C']]
        """
        return [[str(card) for card in group] for group in self.groups]


def _position(card: Card, low: bool) -> int:
    """A card's place in a straight: 2…10, J 11, Q 12, K 13, the Ace 14 (high) or 1 (low)."""
    if card.rank == "A":
        return 1 if low else 14
    return RANKS.index(card.rank) + 1


@functools.lru_cache(maxsize=4096)
def _best_runs(counts: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The best disjoint runs for ``counts[p]`` cards at each position ``p`` (1…14): points and (start, end) runs.

    Going up the ranks, each card extends an open run, preferring a run of three or more, then one of two, then one
    of one, and otherwise starts a new run; runs that stop short of three cards score nothing. An exchange argument
    shows no other split scores more: moving a card (and what follows it) from a shorter run onto a longer one, or
    from a new run onto an open one, never loses a point (BK-8). A rest's counts recur from round to round and game
    to game, so each is worked out once.

    >>> _best_runs((0, 0, 0, 1, 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0))  # 3 4 5 5 6 7 (BK-E9)
    (3, ((3, 7),))
    """
    runs: list[tuple[int, int]] = []
    open1: list[int] = []
    open2: list[int] = []
    open3: list[int] = []
    for p in range(1, 15):
        c = counts[p]
        k3 = min(len(open3), c)
        k2 = min(len(open2), c - k3)
        k1 = min(len(open1), c - k3 - k2)
        runs.extend((start, p - 1) for start in open3[k3:])
        open1, open2, open3 = [p] * (c - k3 - k2 - k1), open1[:k1], open3[:k3] + open2[:k2]
    runs.extend((start, 14) for start in open3)
    return sum(end - start - 1 for start, end in runs), tuple(sorted(runs))


def best_straights(cards: Iterable[Card | str], options: Options = DEFAULT_OPTIONS) -> Straights:
    """The best straights in a rest (suits ignored, no wrap-around): a run of L ≥ 3 consecutive ranks scores L − 2,
    each card in at most one straight, the split with the most points (BK-7, BK-8, BK-9, BK-10).

    BK-E4 and BK-E5:

    >>> best_straights(["3S", "10S", "8D", "9D", "QH"]).to_json(), best_straights(["3S", "4H", "5D", "6C"]).points
    ([['8D', '9D', '10S']], 2)

    BK-E9: two physical 8-9-10 runs are two straights; under "distinct" duplicates are ignored.

    >>> rest = ["8S", "8D", "9D", "9S", "10D", "10S"]
    >>> best_straights(rest).points, best_straights(rest, Options(straights="distinct")).points
    (2, 1)
    >>> best_straights(["3S", "4S", "5S", "6S", "7S", "8S"]).points
    4

    BK-E10: Aces are high by default.

    >>> best_straights(["QH", "KH", "AH"]).points, best_straights(["AD", "2D", "3S"]).points
    (1, 0)
    >>> best_straights(["AD", "2D", "3S"], Options(ace_in_straights="low")).to_json()
    [['AD', '2D', '3S']]
    """
    rest = _cards(cards)
    seen: set[Card] = set()
    for card in rest:
        if card in seen:
            raise DuplicateCardError(f"{card.label} appears twice in the rest")
        seen.add(card)
    distinct = options.straights is StraightsRule.DISTINCT
    aces = [card for card in rest if card.rank == "A"]
    others: dict[int, list[Card]] = {}
    for card in rest:
        if card.rank != "A":
            others.setdefault(_position(card, low=False), []).append(card)
    if distinct:
        others = {p: group[:1] for p, group in others.items()}
        aces = aces[:1]
    if options.ace_in_straights is AceInStraights.HIGH:
        splits = [0]
    elif options.ace_in_straights is AceInStraights.LOW:
        splits = [len(aces)]
    else:
        splits = list(range(len(aces) + 1))
    best: tuple[int, tuple[tuple[int, int], ...], dict[int, list[Card]]] | None = None
    for low in splits:
        pools = {p: list(group) for p, group in others.items()}
        if low:
            pools[1] = aces[:low]
        if len(aces) - low:
            pools[14] = aces[low:]
        counts = tuple(len(pools.get(p, ())) for p in range(15))
        points, runs = _best_runs(counts)
        if best is None or points > best[0]:
            best = (points, runs, pools)
    assert best is not None
    points, runs, pools = best
    groups = []
    for start, end in runs:
        groups.append(tuple(pools[p].pop(0) for p in range(start, end + 1)))
    return Straights(tuple(groups), points)


# ----------------------------------------------------------------------------------------------------- pile scores


class CardRole(enum.Enum):
    """How one card of a pile scored (rules §1.8, BK-1…BK-6)."""

    CLUB = "club"
    """A club 2–10 (or an Ace under Ace = 1): +1."""
    RANKED_CLUB = "ranked-club"
    """A ranked club: +2, whether or not ranked cards are valuable (BK-2, BK-3)."""
    VALUABLE = "valuable"
    """A ranked card of a non-loss suit when ranked cards are valuable: +3."""
    LOSS = "loss"
    """A numeral of a loss suit: −1, not in the rest (BK-6)."""
    RANKED_LOSS = "ranked-loss"
    """A ranked card of a loss suit: 0, into the rest (BK-4, BK-6)."""
    RANKED_LOSS_PENALTY = "ranked-loss-penalty"
    """A ranked card of a loss suit when ranked cards are not valuable, under the −1 house rule (BK-4)."""
    WORTHLESS = "worthless"
    """A ranked card of a non-loss suit when ranked cards are not valuable: 0, into the rest (BK-5)."""
    WORTHLESS_OUT = "worthless-out"
    """The same, under the house rule that keeps it out of the rest (BK-5)."""
    REST = "rest"
    """A numeral of a non-club, non-loss suit: 0, into the rest."""

    @property
    def points(self) -> int:
        """What the card scores by itself."""
        return _ROLE_POINTS[self]

    @property
    def in_rest(self) -> bool:
        """Whether the card goes into the rest."""
        return self in (CardRole.RANKED_LOSS, CardRole.WORTHLESS, CardRole.REST)


_ROLE_POINTS = {
    CardRole.CLUB: 1,
    CardRole.RANKED_CLUB: 2,
    CardRole.VALUABLE: 3,
    CardRole.LOSS: -1,
    CardRole.RANKED_LOSS: 0,
    CardRole.RANKED_LOSS_PENALTY: -1,
    CardRole.WORTHLESS: 0,
    CardRole.WORTHLESS_OUT: 0,
    CardRole.REST: 0,
}


def card_role(card: Card, reading: BankReading, options: Options = DEFAULT_OPTIONS) -> CardRole:
    """How one pile card scores under a bank reading (rules §1.8).

    >>> reading = read_bank(["2H", "5H", "JS", "QD", "7C"])  # BK-E4: ♥ loses, ranked cards valuable
    >>> [card_role(Card.parse(c), reading).name for c in ["QC", "KS", "9H", "QH", "8D"]]
    ['RANKED_CLUB', 'VALUABLE', 'LOSS', 'RANKED_LOSS', 'REST']
    """
    ranked = is_ranked(card, options)
    if card.suit is Suit.CLUBS:
        return CardRole.RANKED_CLUB if ranked else CardRole.CLUB
    if card.suit in reading.loss_suits:
        if not ranked:
            return CardRole.LOSS
        if not reading.ranked_valuable and options.ranked_loss_when_not_valuable == -1:
            return CardRole.RANKED_LOSS_PENALTY
        return CardRole.RANKED_LOSS
    if not ranked:
        return CardRole.REST
    if reading.ranked_valuable:
        return CardRole.VALUABLE
    return CardRole.WORTHLESS if options.worthless_ranked_in_rest else CardRole.WORTHLESS_OUT


@dataclass(frozen=True, slots=True)
class PileScore:
    """One pile scored by rules 8 and 9 (everything but the most-rest point)."""

    roles: tuple[tuple[Card, CardRole], ...]
    rest: tuple[Card, ...]
    straights: Straights

    def points_of(self, *roles: CardRole) -> int:
        """The points of the cards in ``roles``. BK-E4: Q♣ is a ranked club (+2), 4♣ a club (+1).

        >>> pile = score_pile(["4C", "QC", "3S", "10S", "KS", "9H", "QH", "8D", "9D"], read_bank(["2H", "5H", "JS",
        ...     "QD", "7C"]))
        >>> pile.points_of(CardRole.RANKED_CLUB), pile.points_of(CardRole.CLUB, CardRole.RANKED_CLUB)
        (2, 3)
        """
        return sum(role.points for _, role in self.roles if role in roles)

    @property
    def clubs(self) -> int:
        """Points from clubs (+1, ranked +2)."""
        return self.points_of(CardRole.CLUB, CardRole.RANKED_CLUB)

    @property
    def ranked(self) -> int:
        """Points from valuable ranked cards (+3 each)."""
        return self.points_of(CardRole.VALUABLE)

    @property
    def losses(self) -> int:
        """Points lost to loss suits (a negative number or 0)."""
        return self.points_of(CardRole.LOSS, CardRole.RANKED_LOSS_PENALTY)

    @property
    def total(self) -> int:
        """Rules 8 and 9 together."""
        return self.clubs + self.ranked + self.losses + self.straights.points


def score_pile(pile: Iterable[Card | str], reading: BankReading, options: Options = DEFAULT_OPTIONS) -> PileScore:
    """Score one player's pile under a bank reading (rules 8–9).

    BK-E4, the seed's example: 6 points before the most-rest point, with a rest of five cards.

    >>> reading = read_bank(["2H", "5H", "JS", "QD", "7C"])
    >>> pile = score_pile(["4C", "QC", "3S", "10S", "KS", "9H", "QH", "8D", "9D"], reading)
    >>> pile.clubs, pile.ranked, pile.losses, pile.straights.points, len(pile.rest), pile.total
    (3, 3, -1, 1, 5, 6)
    """
    cards = _cards(pile)
    roles = tuple((card, card_role(card, reading, options)) for card in cards)
    rest = tuple(card for card, role in roles if role.in_rest)
    return PileScore(roles, rest, best_straights(rest, options))


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Where one player's round score came from (``records.md``: ``breakdown[player]``)."""

    clubs: int
    ranked: int
    losses: int
    straights: int
    rest: int
    """The number of cards in the rest (not points)."""
    most_rest: int

    @property
    def total(self) -> int:
        """The round score: every part but ``rest``, which is a count."""
        return self.clubs + self.ranked + self.losses + self.straights + self.most_rest

    def to_json(self) -> dict[str, int]:
        """``breakdown[player]`` of the result (records.md). BK-E4 (alone at the table, so the most-rest point):

        >>> breakdown({"Ann": ["4C", "QC", "3S", "10S", "KS", "9H", "QH", "8D", "9D"]},
        ...           read_bank(["2H", "5H", "JS", "QD", "7C"]))["Ann"].to_json()
        {'clubs': 3, 'ranked': 3, 'losses': -1, 'straights': 1, 'rest': 5, 'most_rest': 1}
        """
        return {
            "clubs": self.clubs,
            "ranked": self.ranked,
            "losses": self.losses,
            "straights": self.straights,
            "rest": self.rest,
            "most_rest": self.most_rest,
        }


def most_rest_points(sizes: Mapping[str, int], options: Options = DEFAULT_OPTIONS) -> dict[str, int]:
    """The most-rest point (BK-11): +1 to the one player with strictly the largest rest; a shared or empty largest
    rest gives nobody the point (or, under "all", every tied player, but never for an empty rest).

    >>> most_rest_points({"Ann": 5, "Ben": 5, "Cat": 4})
    {'Ann': 0, 'Ben': 0, 'Cat': 0}
    >>> most_rest_points({"Ann": 5, "Ben": 5, "Cat": 4}, Options(most_rest_tie="all"))
    {'Ann': 1, 'Ben': 1, 'Cat': 0}
    """
    top = max(sizes.values(), default=0)
    leaders = [name for name, size in sizes.items() if size == top]
    if top == 0 or (len(leaders) > 1 and options.most_rest_tie is MostRestTie.NOBODY):
        leaders = []
    return {name: int(name in leaders) for name in sizes}


def breakdown(
    piles: Mapping[str, Iterable[Card | str]], reading: BankReading, options: Options = DEFAULT_OPTIONS
) -> dict[str, Breakdown]:
    """Every player's round score by rule (rules 8–11), in the order of ``piles``.

    BK-E6, a complete 3-player round: 9, 3, 8 (the rests of Ann and Ben tie at 5, so nobody gets the point).

    >>> reading = read_bank(["KS", "4H", "AD", "7S", "2C"])
    >>> parts = breakdown({
    ...     "Ann": ["5C", "JC", "QH", "9S", "10D", "JD", "3S", "2H", "7H", "8H", "9H"],
    ...     "Ben": ["KC", "AH", "8S", "6D", "7D", "8D", "QS", "4S", "4D", "2S"],
    ...     "Cat": ["AC", "3C", "KD", "QD", "10S", "JS", "5H", "6H", "3D"]}, reading)
    >>> {name: part.total for name, part in parts.items()}
    {'Ann': 9, 'Ben': 3, 'Cat': 8}
    >>> parts["Ann"].to_json()
    {'clubs': 3, 'ranked': 6, 'losses': -2, 'straights': 2, 'rest': 5, 'most_rest': 0}
    """
    scored = {name: score_pile(pile, reading, options) for name, pile in piles.items()}
    bonus = most_rest_points({name: len(pile.rest) for name, pile in scored.items()}, options)
    return {name: _breakdown_of(pile, bonus[name]) for name, pile in scored.items()}


def _breakdown_of(pile: PileScore, most_rest: int) -> Breakdown:
    return Breakdown(
        clubs=pile.clubs,
        ranked=pile.ranked,
        losses=pile.losses,
        straights=pile.straights.points,
        rest=len(pile.rest),
        most_rest=most_rest,
    )


# ------------------------------------------------------------------------------------------------------ validation


def _loc(index: int, *parts: str | int) -> str:
    out = f"hands[{index}]"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _check_players(record: Record) -> None:
    count = len(record.players)
    limit = record.options.max_players
    if count < 2:
        raise InvalidRecordError("Financial Crisis needs at least 2 players (BK-15)", "players")
    if count > limit:
        more = " (the max_players house rule allows up to 9)" if limit < 9 else ""
        raise InvalidRecordError(
            f"{count} players are seated but this game allows at most {limit}{more} (BK-15)", "players"
        )


def _check_hand(record: Record, index: int, hand: Hand) -> None:
    """BK-19 / records.md: five distinct bank cards; no card twice across the bank and the piles; seated players."""
    n = index + 1
    if len(hand.bank) != 5:
        raise IllegalHandError(
            f"the bank has five face-down cards, not {len(hand.bank)}, in hand {n}", _loc(index, "bank")
        )
    seen: dict[Card, str] = {}
    for i, card in enumerate(hand.bank):
        if card in seen:
            raise DuplicateCardError(f"{card.label} appears twice in the bank in hand {n}", _loc(index, "bank", i))
        seen[card] = "the bank"
    seated = set(record.players)
    for name, pile in hand.piles.items():
        if name not in seated:
            raise UnknownPlayerError(f"{name} is not a player in this game (hand {n})", _loc(index, "piles", name))
        for i, card in enumerate(pile):
            here = f"{name}'s pile"
            if card in seen:
                where = "twice in " + here if seen[card] == here else f"in {seen[card]} and in {here}"
                raise DuplicateCardError(
                    f"{card.label} appears {where} in hand {n}; each card is in one place only",
                    _loc(index, "piles", name, i),
                )
            seen[card] = here


def validate(record: Record) -> None:
    """Check a parsed record beyond its shape (records.md "Validation", BK-14, BK-15, BK-19); raise the first
    problem as a specific :class:`ScoringError`.

    >>> record = GAME.parse({"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1},
    ...     "hands": [{"bank": ["2H", "5H", "JS", "QD", "7C"]}, {"bank": ["2H", "5H", "JS", "QD", "7C"]}]})
    >>> validate(record)
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: hand 2 was entered after the game was over (it has 1 round, BK-14)
    """
    _check_players(record)
    rounds = record.options.rounds_for(len(record.players))
    for index, hand in enumerate(record.hands):
        if index >= rounds:
            plural = "round" if rounds == 1 else "rounds"
            raise IllegalHandError(
                f"hand {index + 1} was entered after the game was over (it has {rounds} {plural}, BK-14)",
                f"hands[{index}]",
            )
        _check_hand(record, index, hand)


# --------------------------------------------------------------------------------------------------------- scoring


def _each(cards: Sequence[Card], points: str) -> Note:
    """``"9♠ 3♠ −1 each"`` or ``"9♠ −1"``."""
    if len(cards) > 1:
        return Note.of("{cards} {points} each", cards=Cards.of(cards), points=points)
    return Note.of("{cards} {points}", cards=Cards.of(cards), points=points)


def _ace_note(rest: Sequence[Card], options: Options) -> Note:
    if not any(card.rank == "A" for card in rest):
        return Note.of("")
    return {
        AceInStraights.HIGH: Note.of("; an Ace sits above the King only, no wrap-around"),
        AceInStraights.LOW: Note.of("; an Ace sits below the 2 only, no wrap-around"),
        AceInStraights.BOTH: Note.of("; an Ace sits above the King or below the 2, never both, no wrap-around"),
    }[options.ace_in_straights]


# long: rules 8–9 card role by card role, each role's note beside the test that gives it
def _pile_notes(name: str, pile: PileScore, options: Options) -> list[Note]:
    """Every decision about one pile (rules 8–9)."""
    if not pile.roles:
        return [Note.of("{name} took no cards this round: nothing to score, an empty rest (BK-18).", name=name)]
    notes: list[Note] = []
    by_role: dict[CardRole, list[Card]] = {}
    for card, role in pile.roles:
        by_role.setdefault(role, []).append(card)
    plain, ranked = by_role.get(CardRole.CLUB, []), by_role.get(CardRole.RANKED_CLUB, [])
    if plain or ranked:
        parts = ([_each(plain, "+1")] if plain else []) + ([_each(ranked, "+2")] if ranked else [])
        ace = (
            Note.of("; an Ace is a numeral under the Ace = 1 house rule, BK-1")
            if any(c.rank == "A" for c in plain)
            else Note.of("")
        )
        notes.append(
            Note.of(
                "{name}: {parts}: clubs always score, +1 and +2 for a ranked club, valuable or not (BK-2, BK-3{ace}).",
                name=name,
                parts=Items.of(parts),
                ace=ace,
            )
        )
    if cards := by_role.get(CardRole.VALUABLE):
        notes.append(
            Note.of(
                "{name}: {cards}: ranked cards are valuable this round and these are not of a loss suit (BK-1, BK-13).",
                name=name,
                cards=_each(cards, "+3"),
            )
        )
    if cards := by_role.get(CardRole.LOSS):
        notes.append(
            Note.of(
                "{name}: {cards}: a numeral of a loss suit, kept out of the rest (BK-6).",
                name=name,
                cards=_each(cards, "−1"),
            )
        )
    if cards := by_role.get(CardRole.RANKED_LOSS_PENALTY):
        notes.append(
            Note.of(
                "{name}: {cards}: a ranked card of a loss suit while ranked cards are not valuable, kept out of the "
                "rest under the house rule (BK-4).",
                name=name,
                cards=_each(cards, "−1"),
            )
        )
    if cards := by_role.get(CardRole.RANKED_LOSS):
        notes.append(
            Note.of(
                "{name}: {cards} score 0 and go into the rest: a ranked card of a loss suit gives no points "
                "(BK-4, BK-6)."
                if len(cards) > 1
                else "{name}: {cards} scores 0 and goes into the rest: a ranked card of a loss suit gives no points "
                "(BK-4, BK-6).",
                name=name,
                cards=Cards.of(cards),
            )
        )
    if cards := by_role.get(CardRole.WORTHLESS):
        notes.append(
            Note.of(
                "{name}: {cards} score 0 and go into the rest: ranked cards are not valuable this round (BK-5)."
                if len(cards) > 1
                else "{name}: {cards} scores 0 and goes into the rest: ranked cards are not valuable this round "
                "(BK-5).",
                name=name,
                cards=Cards.of(cards),
            )
        )
    if cards := by_role.get(CardRole.WORTHLESS_OUT):
        notes.append(
            Note.of(
                "{name}: {cards} score 0 and stay out of the rest: ranked cards are not valuable, under the house "
                "rule (BK-5)."
                if len(cards) > 1
                else "{name}: {cards} scores 0 and stays out of the rest: ranked cards are not valuable, under the "
                "house rule (BK-5).",
                name=name,
                cards=Cards.of(cards),
            )
        )
    if pile.rest:
        size = len(pile.rest)
        rest = Note.of(
            "{name}'s rest is {cards} ({size} cards)" if size != 1 else "{name}'s rest is {cards} ({size} card)",
            name=name,
            cards=Cards.of(pile.rest),
            size=size,
        )
        distinct = (
            Note.of("; duplicate ranks are ignored under the house rule")
            if (options.straights is StraightsRule.DISTINCT)
            else Note.of("")
        )
        why = Note.of("(BK-7, BK-8, BK-9, BK-10{ace})", ace=_ace_note(pile.rest, options))
        if pile.straights.groups:
            runs = Items.of(
                (Note.of("{cards} +{points}", cards=Cards.of(g), points=len(g) - 2) for g in pile.straights.groups),
                sep="; ",
            )
            notes.append(
                Note.of(
                    "{rest}: straights {runs}, the best split, each card in one straight at most{distinct} {why}."
                    if len(pile.straights.groups) > 1
                    else "{rest}: a straight {runs}, the best split, each card in one straight at most{distinct} "
                    "{why}.",
                    rest=rest,
                    runs=runs,
                    distinct=distinct,
                    why=why,
                )
            )
        else:
            notes.append(
                Note.of(
                    "{rest}: no run of three or more consecutive ranks{distinct} {why}.",
                    rest=rest,
                    distinct=distinct,
                    why=why,
                )
            )
    else:
        notes.append(Note.of("{name}'s rest is empty: no straights (BK-6).", name=name))
    return notes


def _most_rest_note(sizes: Mapping[str, int], bonus: Mapping[str, int], options: Options) -> Note:
    top = max(sizes.values(), default=0)
    leaders = [name for name, size in sizes.items() if size == top]
    if top == 0:
        return Note.of("Nobody has a card in the rest: nobody gets the most-rest point (BK-11).")
    if len(leaders) == 1:
        return Note.of("{name} has the most cards in the rest ({top}): +1 (BK-11).", name=leaders[0], top=top)
    if options.most_rest_tie is MostRestTie.ALL:
        return Note.of(
            "{names} share the most cards in the rest ({top}): +1 each, under the house rule (BK-11).",
            names=Names.of(leaders),
            top=top,
        )
    return Note.of(
        "{names} share the most cards in the rest ({top}): nobody gets the point (BK-11).",
        names=Names.of(leaders),
        top=top,
    )


class FinancialCrisisHandResult(HandResult):
    """One Financial Crisis round: its score (rules 8-11), the bank reading used (loss suits, whether ranked cards
    are valuable, BK-12, BK-13) and each player's breakdown, rest and straights."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX

    loss_suits: list[str]
    """The loss suits used, as letters in S H D order (rule 6, BK-12)."""
    ranked_valuable: bool
    """Whether ranked cards were valuable (rule 7, BK-13)."""
    breakdown: dict[str, dict[str, int]]
    """Each player's points from each rule: clubs, ranked, losses, straights, rest (a card count), most_rest."""
    reading: str
    """Why the bank reads this way, in words."""
    overridden: bool
    """The table overrode the computed reading (BK-12)."""
    rest_cards: dict[str, list[str]]
    """Each player's rest (BK-6)."""
    straights: dict[str, list[list[str]]]
    """Each player's straights, the best split (BK-7 … BK-10)."""


class FinancialCrisisResult(Result):
    """A Financial Crisis game: ``totals`` are the sums of round scores; ``rounds`` the game's length (BK-14)."""

    RULING_PREFIX: ClassVar[str] = RULING_PREFIX

    hands: list[FinancialCrisisHandResult] = Field(default_factory=list)  # type: ignore[assignment]
    rounds: int
    """Rounds in the game (``options.rounds``, by default the number of players, BK-14)."""


def _score_hand(record: Record, hand: Hand) -> FinancialCrisisHandResult:
    options = record.options
    reading = apply_override(read_bank(hand.bank, options), hand.override)
    notes = [
        Note.of("Bank {bank}. {reason}", bank=Cards.of(hand.bank), reason=reading.loss_note),
        reading.valuable_note,
    ]
    piles = {name: score_pile(hand.piles.get(name, ()), reading, options) for name in record.players}
    sizes = {name: len(pile.rest) for name, pile in piles.items()}
    bonus = most_rest_points(sizes, options)
    parts = {name: _breakdown_of(pile, bonus[name]) for name, pile in piles.items()}
    for name, pile in piles.items():
        notes.extend(_pile_notes(name, pile, options))
    notes.append(_most_rest_note(sizes, bonus, options))
    points = {name: part.total for name, part in parts.items()}
    return FinancialCrisisHandResult(
        points=points,
        **said(notes),
        loss_suits=reading.loss_letters,
        ranked_valuable=reading.ranked_valuable,
        breakdown={name: part.to_json() for name, part in parts.items()},
        reading=reading.reason,
        overridden=reading.pattern == "override",
        rest_cards={name: [str(card) for card in pile.rest] for name, pile in piles.items()},
        straights={name: pile.straights.to_json() for name, pile in piles.items()},
    )


def verdict_of(totals: Mapping[str, int], rounds: int) -> Verdict:
    """Why a finished game was decided: the highest total wins, equal highest totals are joint winners (rule 12,
    BK-14). BK-E6 as a one-round game:

    >>> verdict = verdict_of({"Ann": 9, "Ben": 3, "Cat": 8}, 1)
    >>> verdict.decider, verdict.reasons
    (<Decider.MOST_POINTS: 'most-points'>, {'Ann': 'Ann wins with the highest total, 9, ahead of Cat on 8 (rule 12, \
BK-14).'})
    >>> verdict_of({"Ann": 9, "Ben": 9, "Cat": 8}, 3).headline
    'Ann and Ben are joint winners: they share the highest total, 9, after 3 rounds.'
    """
    top = max(totals.values())
    winners = [name for name, total in totals.items() if total == top]
    rest = [total for total in totals.values() if total != top]
    after = (
        Note.of("after {rounds} rounds", rounds=rounds)
        if rounds != 1
        else Note.of("after {rounds} round", rounds=rounds)
    )
    if len(winners) == 1:
        (winner,) = winners
        runner = max(rest, default=None)
        ahead = Note.of("")
        if runner is not None:
            ahead = Note.of(
                ", ahead of {names} on {runner}",
                names=Names.of(n for n, t in totals.items() if t == runner),
                runner=runner,
            )
        return sole_win(
            Decider.MOST_POINTS,
            ["BK-R12", "BK-14"],
            winner,
            Note.of("{winner} wins with {top}, the highest total {after}.", winner=winner, top=top, after=after),
            "{winner} wins with the highest total, {top}{ahead} (rule 12, BK-14).",
            winner=winner,
            top=top,
            ahead=ahead,
        )
    return joint_win(
        Decider.JOINT,
        ["BK-R12", "BK-14"],
        winners,
        Note.of(
            "{names} are joint winners: they share the highest total, {top}, {after}.",
            names=Names.of(winners),
            top=top,
            after=after,
        ),
        "{name} is a joint winner with {others}: equal highest totals, {top}, share the win (rule 12, BK-14).",
        others=OTHERS,
        top=top,
    )


def score(record: Record) -> FinancialCrisisResult:
    """Validate and replay a whole record (BK-14: ``rounds`` rounds, highest total wins, ties are joint winners).

    BK-E6 as a one-round game:

    >>> result = score(GAME.parse({"game": "financial-crisis", "players": ["Ann", "Ben", "Cat"],
    ...     "options": {"rounds": 1}, "hands": [{"bank": ["KS", "4H", "AD", "7S", "2C"], "piles": {
    ...     "Ann": ["5C", "JC", "QH", "9S", "10D", "JD", "3S", "2H", "7H", "8H", "9H"],
    ...     "Ben": ["KC", "AH", "8S", "6D", "7D", "8D", "QS", "4S", "4D", "2S"],
    ...     "Cat": ["AC", "3C", "KD", "QD", "10S", "JS", "5H", "6H", "3D"]}}]}))
    >>> result.totals, result.finished, result.winners
    ({'Ann': 9, 'Ben': 3, 'Cat': 8}, True, ['Ann'])
    >>> result.hands[0].notes[-2]
    'Ann and Ben share the most cards in the rest (5): nobody gets the point (BK-11).'
    """
    validate(record)
    players = list(record.players)
    rounds = record.options.rounds_for(len(players))
    totals = zeros(players)
    hands = []
    for hand in record.hands:
        result = _score_hand(record, hand)
        for name in players:
            totals[name] += result.points[name]
        hands.append(result)
    finished = len(record.hands) >= rounds
    winners: list[str] = []
    if finished:
        top = max(totals.values())
        winners = [name for name in players if totals[name] == top]
        if len(winners) == 1:
            end = Note.of(
                "Game over after {rounds} rounds: {winner} wins with {top} (BK-14)."
                if rounds != 1
                else "Game over after {rounds} round: {winner} wins with {top} (BK-14).",
                rounds=rounds,
                winner=winners[0],
                top=top,
            )
        else:
            end = Note.of(
                "Game over after {rounds} rounds: {names} share the highest total, {top}: joint winners (BK-14).",
                rounds=rounds,
                names=Names.of(winners),
                top=top,
            )
        if hands:
            hands[-1].add_note(end)
    return FinancialCrisisResult(
        verdict=verdict_of(totals, rounds) if finished else None,
        game=record.game,
        players=players,
        hands=hands,
        totals=totals,
        finished=finished,
        winners=winners,
        rounds=rounds,
    )


# ------------------------------------------------------------------------------------------------- table helpers


def _as_record(record: Record | Mapping[str, Any]) -> Record:
    return record if isinstance(record, Record) else parse_record(Record, dict(record))


def _hand_cards(hand_so_far: Hand | Mapping[str, Any] | None) -> list[tuple[Card, str]]:
    """Every card already entered in a (possibly unfinished) round, with where it is."""
    if hand_so_far is None:
        return []
    if isinstance(hand_so_far, Hand):
        bank: Any = [str(card) for card in hand_so_far.bank]
        piles: Any = {name: [str(card) for card in pile] for name, pile in hand_so_far.piles.items()}
    elif isinstance(hand_so_far, Mapping):
        bank, piles = hand_so_far.get("bank") or [], hand_so_far.get("piles") or {}
    else:
        raise InvalidRecordError("a round must be a JSON object with 'bank' and 'piles'")
    if not isinstance(bank, list) or not isinstance(piles, Mapping):
        raise InvalidRecordError("'bank' must be a list of cards and 'piles' an object of lists")
    out = [(_parse_card(card), "the bank") for card in bank]
    for name, pile in piles.items():
        if not isinstance(pile, list):
            raise InvalidRecordError(f"{name}'s pile must be a list of cards")
        out += [(_parse_card(card), f"{name}'s pile") for card in pile]
    return out


def legal_cards(
    record: Record | Mapping[str, Any] | None, hand_so_far: Hand | Mapping[str, Any] | None = None
) -> list[Card]:
    """The cards not used yet in this round (each round is played with the whole 52-card deck), in deck order.

    ``record`` is the game (it may be ``None``: every round uses the same deck, so only ``hand_so_far`` matters);
    ``hand_so_far`` is the round being entered, raw (``{"bank": [...], "piles": {...}}``) or a :class:`Hand`.

    >>> cards = legal_cards(None, {"bank": ["KS", "4H"], "piles": {"Ann": ["AS"]}})
    >>> len(cards), [str(c) for c in cards[:3]]
    (49, ['2S', '3S', '4S'])
    """
    used = {card for card, _ in _hand_cards(hand_so_far)}
    return [card for card in standard_deck() if card not in used]


def verify_add_card(
    record: Record | Mapping[str, Any],
    hand_so_far: Hand | Mapping[str, Any] | None,
    card: Card | str,
    to: str | None = None,
) -> Card:
    """Check that ``card`` may be added to the round being entered, in ``to``'s pile (``None``: the bank).

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"], "hands": []}
    >>> verify_add_card(record, {"bank": ["KS"], "piles": {}}, "ks", "Ann")
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: K♠ is already in the bank
    >>> verify_add_card(record, {"bank": ["KS"]}, "QS", "Zed")
    Traceback (most recent call last):
    ...
    scoring.errors.UnknownPlayerError: Zed is not a player in this game
    """
    game = _as_record(record)
    new = _parse_card(card)
    used = _hand_cards(hand_so_far)
    if to is not None and to not in game.players:
        raise UnknownPlayerError(Note.of("{name} is not a player in this game", name=to), f"piles.{to}")
    for old, where in used:
        if old == new:
            raise DuplicateCardError(f"{new.label} is already in {where}")
    if to is None and sum(1 for _, where in used if where == "the bank") >= 5:
        raise IllegalHandError(Note.of("the bank already has its five face-down cards"), "bank")
    return new


def can_add_card(
    record: Record | Mapping[str, Any],
    hand_so_far: Hand | Mapping[str, Any] | None,
    card: Card | str,
    to: str | None = None,
) -> bool:
    """Whether :func:`verify_add_card` accepts the card (for greying out cards already used).

    >>> record = {"game": "financial-crisis", "players": ["Ann", "Ben"]}
    >>> can_add_card(record, {"bank": ["KS"]}, "KS", "Ann"), can_add_card(record, {"bank": ["KS"]}, "QS", "Ann")
    (False, True)
    """
    try:
        verify_add_card(record, hand_so_far, card, to)
    except ScoringError:
        return False
    return True


def verify_add_round(record: Record | Mapping[str, Any]) -> None:
    """Check that another round may be entered (BK-14: the game lasts ``rounds`` rounds).

    >>> verify_add_round({"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 1},
    ...                   "hands": [{"bank": ["2H", "5H", "JS", "QD", "7C"]}]})
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalHandError: the game is over after 1 round (BK-14)
    """
    game = _as_record(record)
    validate(game)
    rounds = game.options.rounds_for(len(game.players))
    if len(game.hands) >= rounds:
        raise IllegalHandError(f"the game is over after {rounds} round{'s' if rounds != 1 else ''} (BK-14)", "hands")


def can_add_round(record: Record | Mapping[str, Any]) -> bool:
    """Whether :func:`verify_add_round` accepts another round.

    >>> can_add_round({"game": "financial-crisis", "players": ["Ann", "Ben"], "hands": []})
    True
    """
    try:
        verify_add_round(record)
    except ScoringError:
        return False
    return True


GAME = Game(
    key="financial-crisis",
    name="Financial Crisis",
    ruling_prefix=RULING_PREFIX,
    hand_word="round",
    min_players=2,
    max_players=9,
    record_model=Record,
    scorer=score,
)
