"""The "why" of every decision as data: a :class:`Note` names the sentence (its English text, which is also its
gettext message id), the rules and rulings it applies, and its values (players, cards, points). The words are chosen
only when a note is rendered, in one place (:func:`render`), for a :class:`Language`; English is the default and is
exactly the ``notes`` ``python -m scoring score`` prints (``records.md``).

>>> note = Note.of("{by} played the Joker in front of {to} as {value:+d} (BB-7)", by="Ann", to="Ben", value=-1)
>>> render(note)
'Ann played the Joker in front of Ben as -1 (BB-7)'
>>> render(Note.of("{cards}: {names} hold them", cards=Cards.of(["QH", "JK"]), names=Names.of(["Ann", "Ben", "Cat"])))
'Q♥ Joker: Ann, Ben and Cat hold them'

Scoring does no I/O: a language is handed in (``companion.i18n`` makes one from a compiled catalogue).

>>> swedish = Language(gettext={"Joker": "Joker", "{first} and {last}": "{first} och {last}"}.get, ranks=RANKS_SV)
>>> render(Note.of("{cards} for {names}", cards=Cards.of(["QH", "10S", "AC"], sep=", "), names=Names.of("AB")), swedish)
'D♥, 10♠, E♣ for A och B'
"""

from __future__ import annotations

import functools
import operator
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Union

from pydantic import SkipValidation, TypeAdapter

_RULING = re.compile(r"\b(?:BB|BK|FF|OO|JK)-\d+\b")
_RULE = re.compile(r"\brules? (\d+(?:\.\d+)*)(?:[-–](\d+(?:\.\d+)*))?")


@functools.lru_cache(maxsize=1024)
def _cited(text: str) -> tuple[str, ...]:
    """The rule numbers (``R7``, without the game's prefix) and ruling ids a text cites, in order."""
    found = [f"R{number}" for match in _RULE.finditer(text) for number in match.groups() if number]
    found.extend(_RULING.findall(text))
    return tuple(dict.fromkeys(found))


_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

RANKS_SV: Mapping[str, str] = {"J": "Kn", "Q": "D", "K": "K", "A": "E"}
"""Swedish card letters: knekt, dam, kung, ess."""
RANKS_DE: Mapping[str, str] = {"J": "B", "Q": "D", "K": "K", "A": "A"}
"""German card letters: Bube, Dame, König, Ass."""


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Language:
    """How notes are worded: ``gettext`` translates a message (``None`` = keep it), ``ranks`` maps the English
    court and Ace letters (``J Q K A``) to the table's own; an empty map keeps the English letters."""

    gettext: Callable[[str], str | None] = _same
    ranks: Mapping[str, str] = field(default_factory=dict)

    def text(self, message: str) -> str:
        """The message in this language, or the English when there is no translation.

        >>> Language().text("Joker")
        'Joker'
        """
        return (self.gettext(message) or message) if message else message  # "" is a catalogue's header


ENGLISH = Language()
"""English, the contract's language (``records.md``)."""


# Values and notes are frozen, slotted dataclasses: scoring builds thousands of them per game, each in about a
# microsecond; pydantic reads and writes them as JSON (``HandResult.why``, :meth:`Note.from_json`). Their ``of``
# constructors fill the slots directly (:func:`_builder`): a frozen dataclass's ``__init__`` sets each field through
# ``object.__setattr__``, which costs twice as much, and what ``of`` is handed is already checked.


def _builder(cls: type, *fields: str) -> Callable[..., Any]:
    """A constructor of ``cls`` that takes ``fields`` in order, unchecked, and sets its slots directly.

    >>> _builder(Names, "names")(("Ann",))
    Names(names=('Ann',))
    """
    setters = [getattr(cls, name).__set__ for name in fields]
    make = object.__new__

    def build(*values: Any) -> Any:
        obj: Any = make(cls)
        for setter, value in zip(setters, values, strict=True):
            setter(obj, value)
        return obj

    return build


@dataclass(frozen=True, slots=True, kw_only=True)
class Cards:
    """Cards in canonical text (``"QH"``, ``"JK"``), shown as labels (``Q♥``, ``Joker``) joined by ``sep``, or as
    names are (``K♠ and A♦``) when ``sep`` is ``"and"``."""

    cards: tuple[str, ...]
    sep: str = " "

    @classmethod
    def of(cls, cards: Iterable[object], sep: str = " ") -> Cards:
        """Cards (or their canonical text) as a note value.

        >>> Cards.of(["10H", "KS"], sep=", ").cards
        ('10H', 'KS')
        """
        made = _make(Cards)  # as :func:`_builder` builds, spelled out: every card a note shows is one of these
        items = cards if type(cards) is tuple or type(cards) is list else tuple(cards)
        try:
            codes = tuple(map(_code, items))  # cards (``scoring.cards.Card``) keep their text: no call to ``str``
        except AttributeError:  # text, or a game's own card type
            codes = tuple(map(str, items))
        _set_cards(made, codes)
        _set_sep(made, sep)
        return made


@dataclass(frozen=True, slots=True, kw_only=True)
class Rank:
    """A card's rank alone (``"J"``), in the table's letters (``Kn`` in Swedish)."""

    rank: str

    @classmethod
    def of(cls, card: object) -> Rank:
        """The rank of a card (or of its canonical text).

        >>> render(Note.of("({rank})", rank=Rank.of("JH")), Language(ranks=RANKS_SV))
        '(Kn)'
        """
        code = str(card)
        return _new_rank(code if code == "JK" else code[:-1])


@dataclass(frozen=True, slots=True, kw_only=True)
class Names:
    """Player names, joined as a sentence says them: ``Ann, Ben and Cat``."""

    names: tuple[str, ...]

    @classmethod
    def of(cls, names: Iterable[str]) -> Names:
        """Names as a note value.

        >>> Names.of(["Ann", "Ben"]).names
        ('Ann', 'Ben')
        """
        return _new_names(tuple(names))


@dataclass(frozen=True, slots=True, kw_only=True)
class Items:
    """A list of notes (``Ann 14``, ``Ben 9``) joined by ``sep``: a value made of several phrases."""

    items: tuple[Note, ...]
    sep: str = ", "

    @classmethod
    def of(cls, items: Iterable[Note], sep: str = ", ") -> Items:
        """Phrases as one note value.

        >>> render(Note.of("{all}", all=Items.of([Note.of("{n} {p}", n="Ann", p=3), Note.of("{n} {p}", n="Ben", p=1)])))
        'Ann 3, Ben 1'
        """
        return _new_items(tuple(items), sep)


Value = Union[int, str, Cards, Rank, Names, Items, "Note"]
"""A note's value: a number, a name (or a code such as a suit letter), cards, a rank, names, or phrases (notes)
that are themselves translated."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Note:
    """One decision explained as data: ``text`` is the English sentence with ``{placeholders}`` (Python's
    ``str.format``), which is also the message id a catalogue translates; ``values`` fill the placeholders;
    ``rulings`` are the rule numbers (``R5.2``: rule 5.2 of the game's rules file) and ruling ids (``BB-7``) it
    applies, as :func:`scoring.base.rulings_of` reads them. The structured form of ``python -m scoring score`` (key
    ``why``) is this model's JSON."""

    rulings: tuple[str, ...] = ()
    text: str
    values: dict[str, Value] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str, /, **values: Any) -> Note:
        """A note; ``rulings`` are those ``text`` cites, then those of the notes among its values.

        >>> Note.of("{name} wins (rule 7{more})", name="Ann", more=Note.of(", BB-13")).rulings
        ('R7', 'BB-13')
        """
        if not values:
            return _plain(text)
        found = _CITED.get(text)
        if found is None:
            found = _CITED.setdefault(text, _cited(text))
        more = False
        for value in values.values():
            kind = type(value)
            if kind is str or kind is int or kind is Cards or kind is Names:  # they cite nothing
                continue
            if kind is Note or isinstance(value, Note):
                if value.rulings:
                    found += value.rulings
                    more = True
            elif isinstance(value, Items):
                found += tuple(ruling for item in value.items for ruling in item.rulings)
                more = True
        note = _make(Note)  # :func:`_new_note`, spelled out: scoring builds more notes than anything else
        _set_rulings(note, tuple(dict.fromkeys(found)) if more else found)
        _set_text(note, text)
        _set_values(note, values)
        return note

    @classmethod
    def from_json(cls, data: Any) -> Note:
        """A note read back from its JSON (what ``python -m scoring score`` prints under ``why``).

        >>> import json
        >>> note = Note.of("{cards} for {names}", cards=Cards.of(["QH"]), names=Names.of(["A", "B"]))
        >>> Note.from_json(json.loads(json.dumps(_NOTE.dump_python(note, mode="json")))) == note
        True
        """
        return _NOTE.validate_python(data)


_new_rank = _builder(Rank, "rank")
_new_names = _builder(Names, "names")
_new_items = _builder(Items, "items", "sep")
_make = object.__new__
_set_rulings, _set_text, _set_values = (getattr(Note, name).__set__ for name in ("rulings", "text", "values"))
_set_cards, _set_sep = (getattr(Cards, name).__set__ for name in ("cards", "sep"))
_code = operator.attrgetter("code")
_CITED: dict[str, tuple[str, ...]] = {}
"""What :func:`_cited` found in each note text (there are a few hundred texts, each written in the code)."""


def _new_note(rulings: tuple[str, ...], text: str, values: dict[str, Value]) -> Note:
    """A note built as :func:`_builder` builds, spelled out: scoring builds more notes than anything else."""
    note = _make(Note)
    _set_rulings(note, rulings)
    _set_text(note, text)
    _set_values(note, values)
    return note


@functools.lru_cache(maxsize=4096)
def _plain(text: str) -> Note:
    """A note without values, made once per text (a note is frozen: one serves every hand that says it)."""
    return _new_note(_cited(text), text, {})


@functools.lru_cache(maxsize=1024)
def _fields(text: str) -> frozenset[str]:
    """The names of the placeholders in a note's text."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


def one_or_more(names: Sequence[str], one: str, more: str, /, **values: Any) -> Note:
    """A note about ``names``: ``one`` with the ``{name}`` when there is one name, ``more`` with the ``{names}``
    otherwise; each takes only those of ``values`` it names.

    >>> render(one_or_more(["Ann"], "{name} wins on {best}{why}", "{names} share {best}", best=9, why="!"))
    'Ann wins on 9!'
    >>> one_or_more(["Ann", "Ben"], "{name} wins on {best}{why}", "{names} share {best}", best=9, why="!").values
    {'names': Names(names=('Ann', 'Ben')), 'best': 9}
    """
    if len(names) == 1:
        text, who = one, {"name": names[0]}
    else:
        text, who = more, {"names": _new_names(tuple(names))}
    wanted = _fields(text)
    return Note.of(text, **who, **{key: value for key, value in values.items() if key in wanted})


def _card(code: str, lang: Language) -> str:
    if code == "JK":
        return lang.text("Joker")
    rank, suit = code[:-1], code[-1]
    return lang.ranks.get(rank, rank) + _SUITS[suit]


def join_names(names: Iterable[str], lang: Language = ENGLISH) -> str:
    """``"Ann"``, ``"Ann and Ben"``, ``"Ann, Ben and Cat"`` in the language.

    >>> join_names(["Ann", "Ben", "Cat"])
    'Ann, Ben and Cat'
    """
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return lang.text("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def _shown(value: Value, lang: Language) -> Any:
    if type(value) is str or type(value) is int:  # the most common values first: names and points
        return value
    if isinstance(value, Note):
        return render(value, lang)
    if isinstance(value, Cards):
        labels = [_card(code, lang) for code in value.cards]
        return join_names(labels, lang) if value.sep == "and" else value.sep.join(labels)
    if isinstance(value, Names):
        return join_names(value.names, lang)
    if isinstance(value, Rank):
        return lang.ranks.get(value.rank, value.rank)
    if isinstance(value, Items):
        return value.sep.join(render(item, lang) for item in value.items)
    return value


def render(note: Note, lang: Language = ENGLISH) -> str:
    """The note in words: the message in ``lang`` (English when it has none), its values in ``lang`` too.

    >>> render(Note.of("{cards} counts {points}", cards=Cards.of(["KS"]), points=13))
    'K♠ counts 13'
    """
    values = note.values
    if not values:
        return lang.text(note.text)
    return lang.text(note.text).format(**{key: _shown(value, lang) for key, value in values.items()})


def render_all(notes: Iterable[Note], lang: Language = ENGLISH) -> list[str]:
    """Each note rendered, in order.

    >>> render_all([Note.of("a"), Note.of("{n}", n=2)])
    ['a', '2']
    """
    return [render(note, lang) for note in notes]


_NOTE: TypeAdapter[Note] = TypeAdapter(Note)


NoteList = Annotated[list[Note], SkipValidation]
"""A field holding notes (``HandResult.why``). Scoring's own notes are taken as they are (validating thousands of
notes it has just built would cost more than scoring the game); JSON data is read into notes by :func:`read_notes`,
which the result models call before validating."""
NoteLists = Annotated[list[list[Note]], SkipValidation]
"""A field holding a list of note lists (``tiebreak_why``)."""
NoteMap = Annotated[dict[str, Note], SkipValidation]
"""A field holding a note per player (``Verdict.reasons_why``)."""
OptionalNote = Annotated[Note | None, SkipValidation]
"""A field holding one note, or ``None`` (``Verdict.headline_why``)."""

_READERS: dict[str, TypeAdapter[Any]] = {}


def read_notes(data: Any, **kinds: Any) -> Any:
    """``data`` (a model's input) with its note fields (``kinds``: field name → type) read from JSON into notes;
    notes already built pass as they are.

    >>> read_notes({"why": [{"text": "{n} wins", "values": {"n": "Ann"}}]}, why=list[Note])["why"][0].text
    '{n} wins'
    """
    if not isinstance(data, dict):
        return data
    out = data
    for key, kind in kinds.items():
        value = data.get(key)
        if value is None or isinstance(value, Note) or (isinstance(value, list) and _built(value)):
            continue
        if isinstance(value, dict) and _built(list(value.values())):
            continue
        name = repr(kind)
        reader = _READERS.get(name) or _READERS.setdefault(name, TypeAdapter(kind))
        out = {**out, key: reader.validate_python(value)}
    return out


def _built(items: list[Any]) -> bool:
    """Every item is a note, or a list of notes (scoring's own, as it built them).

    >>> _built([Note.of("a"), [Note.of("b")]]), _built([Note.of("a"), {"text": "b"}]), _built([])
    (True, False, True)
    """
    kinds = set(map(type, items))
    if kinds <= {Note}:
        return True
    return kinds <= {Note, list} and all(type(item) is Note or _built(item) for item in items)


__all__ = [
    "ENGLISH",
    "RANKS_DE",
    "RANKS_SV",
    "Cards",
    "Items",
    "Language",
    "Names",
    "Note",
    "Rank",
    "join_names",
    "one_or_more",
    "render",
    "render_all",
]
