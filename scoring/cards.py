"""Playing cards: parsing, canonical text, decks.

Cards are written as a rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` followed by a suit ``S H D C``, e.g. ``"10H"``; the Joker
is ``"JK"``. Input is forgiving (any case, ``T`` for 10, suit symbols ♠ ♥ ♦ ♣); output is always canonical.

>>> Card.parse("t♥")
Card('10H')
>>> str(Card.parse("qs")), Card.parse("QS").label
('QS', 'Q♠')
>>> Card.parse("jk").is_joker
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import CoreSchema, core_schema

from scoring.errors import InvalidCardError
from scoring.why import Note


class Suit(enum.Enum):
    """A suit, by its letter. A suit is one object, so it hashes as one (an enum's own hash is a Python call)."""

    __hash__ = object.__hash__

    SPADES = "S"
    """♠"""
    HEARTS = "H"
    """♥"""
    DIAMONDS = "D"
    """♦"""
    CLUBS = "C"
    """♣"""

    @property
    def symbol(self) -> str:
        """The suit symbol, e.g. ``♠``."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INPUT = (
    {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
    | {symbol: suit for suit, symbol in _SYMBOLS.items()}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The ranks in canonical text, Ace first."""

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card: a rank and a suit, or the Joker (``rank == "JK"``, ``suit is None``).

    There is one card object per card (:meth:`parse` and :func:`standard_deck` hand them out from one table, and a
    copy is the card itself), so two cards are equal when they are the same object and a card hashes as an object
    does: scoring hashes and compares cards many thousand times per game, and a hash written in Python costs a call
    each time. A card keeps its canonical text (:attr:`code`), which is its ``str``.

    >>> Card.parse("qh") == Card.parse("QH"), Card.parse("QH") in {Card.parse("q♥")}
    (True, True)
    """

    rank: str
    suit: Suit | None
    code: str = field(init=False, repr=False)
    """``"10H"``, ``"JK"``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", "JK" if self.suit is None else self.rank + self.suit.value)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (self.code,))

    @staticmethod
    def parse(text: object) -> Card:
        """Parse forgiving card text.

        >>> Card.parse(" 10d ")
        Card('10D')
        >>> Card.parse("1S")
        Traceback (most recent call last):
        ...
        scoring.errors.InvalidCardError: '1S' is not a card (write e.g. 10H, QS, AC or JK)
        """
        if type(text) is str:
            card = _BY_TEXT.get(text)
            if card is not None:
                return card
        elif isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(Note.of("{text} is not a card (write e.g. 10H, QS, AC or JK)", text=repr(text)))
        raw = text.strip().upper()
        if raw in ("JK", "JOKER"):
            return JOKER
        if len(raw) >= 2 and raw[-1] in _SUIT_INPUT:
            rank = raw[:-1].strip()
            if rank == "T":
                rank = "10"
            if rank in RANKS:
                return _BY_TEXT[rank + _SUIT_INPUT[raw[-1]].value]
        raise InvalidCardError(Note.of("{text} is not a card (write e.g. 10H, QS, AC or JK)", text=repr(text)))

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def rank_index(self) -> int:
        """1 for an Ace up to 13 for a King (0 for the Joker)."""
        return 0 if self.suit is None else RANKS.index(self.rank) + 1

    @property
    def label(self) -> str:
        """Text for people: ``10♥``, ``Joker``."""
        return "Joker" if self.suit is None else f"{self.rank}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


JOKER = Card("JK", None)

_BY_TEXT: dict[str, Card] = {
    text: card
    for card in [JOKER, *(Card(rank, suit) for suit in SUITS for rank in RANKS)]
    for text in (card.code, card.code.lower())
}
"""Every card by its canonical text (and that text in lower case): what :meth:`Card.parse` looks up first."""


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards, suit by suit, Ace to King, then ``jokers`` Jokers.

    >>> deck = standard_deck(2)
    >>> len(deck), str(deck[0]), str(deck[51]), str(deck[-1])
    (54, 'AS', 'KC', 'JK')
    """
    return [_BY_TEXT[rank + suit.value] for suit in SUITS for rank in RANKS] + [JOKER] * jokers


def shown(value: object) -> str:
    """Card text as people read it: a card's label, a list's items shown one by one; any other text or value as it
    is written (an edit's description, the history's hand lines).

    >>> shown("10h"), shown(["QS", "JK"]), shown("Ann"), shown(7)
    ('10♥', 'Q♠ Joker', 'Ann', '7')
    """
    if isinstance(value, str):
        try:
            return Card.parse(value).label
        except ValueError:
            return value
    if isinstance(value, list):
        return " ".join(shown(item) for item in value)
    return str(value)


@dataclass(frozen=True)
class CardText:
    """How a card type lies in a pydantic record model (``Annotated[Card, CardText(...)]``): read from its text by
    ``parse`` (forgiving), written as its canonical text (its ``str``), described in the JSON Schema as text that
    matches ``pattern``.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(CardField).validate_python("t♥"), TypeAdapter(CardField).dump_python(Card.parse("qs"))
    (Card('10H'), 'QS')
    """

    parse: Callable[[Any], Any]
    pattern: str

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_before_validator_function(
            self.parse,
            handler(source),
            serialization=core_schema.plain_serializer_function_ser_schema(str, return_schema=core_schema.str_schema()),
        )

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {"type": "string", "pattern": self.pattern}


CARD_PATTERN = "^([AaTtJjQqKk2-9]|10)[SHDCshdc♠♥♦♣]$"
"""A card of the 52 as a record may write it (``CardText.pattern``): any case, ``T`` for 10, suit symbols."""

CardField = Annotated[Card, CardText(Card.parse, CARD_PATTERN + "|^[Jj][Kk]$")]
"""A card inside a pydantic record model: parsed forgivingly, written canonically."""
