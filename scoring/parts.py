"""The parts of a game record, declared once: the main game's hands and the extra parts a tied game plays.

A record (``records.md``) keeps what was entered under one top-level key per part: ``hands`` for the main game,
and, when the main game ends tied, ``playoff`` (Jokers Kill, JK-12), ``tiebreak`` (Feast and Famine's Ghost round,
rule 8) or ``sudden_death`` (1111-9999, rule 9). Every layer names, routes and reads a part through :class:`Part`:

>>> Part.SUDDEN_DEATH.key, Part.SUDDEN_DEATH.slug, Part.SUDDEN_DEATH.word, Part.SUDDEN_DEATH.step
('sudden_death', 'sudden-death', 'sudden-death hand', <Step.SUDDEN_DEATH: 'sudden-death'>)

A Feast and Famine tie-break of one round is one object; a replayed one is a list of rounds (FF-10).
:func:`entries` reads either form as a list, :func:`set_entries` writes the form ``records.md`` shows, and
:func:`record_before` gives the record an entry is checked against.

This module imports nothing else of :mod:`scoring`, so the error messages (:func:`scoring.errors.where`) and the
result models can use it.
"""

from __future__ import annotations

import copy
import enum
import re
from collections.abc import Mapping, Sequence
from typing import Any


class UnknownPartError(ValueError):
    """A record key, route slug or step that names no part of a game."""


class Step(enum.Enum):
    """What the table must play next."""

    HAND = "hand"
    """Another ordinary hand (or round)."""
    TIEBREAK = "tiebreak"
    """The tie-break that the rules prescribe (Feast and Famine's Ghost round)."""
    SUDDEN_DEATH = "sudden-death"
    """A sudden-death hand (1111-9999)."""
    PLAYOFF = "playoff"
    """A play-off hand (Jokers Kill)."""
    FINISHED = "finished"
    """Nothing: the game is decided or cancelled."""


class Part(enum.Enum):
    """One part of a game record: where its entries live, how a route and a person name them, and the
    :class:`Step` that asks for the next one."""

    HANDS = "hands"
    """The main game: ``hands`` in every game (the rules of Financial Crisis and Feast and Famine call them
    rounds, see :attr:`scoring.game.Game.hand_word`)."""
    PLAYOFF = "playoff"
    """The Jokers Kill play-off between the players tied for the most points: ``playoff``, a list of play-off
    hands, first to win ``playoff_wins`` of them (rule 9, JK-12)."""
    TIEBREAK = "tiebreak"
    """The Feast and Famine tie-break round with a Ghost dealing: ``tiebreak``, one object, or a list of rounds
    when a round with everybody Knocked Out and nobody left is replayed (rule 8, FF-10)."""
    SUDDEN_DEATH = "sudden_death"
    """1111-9999 sudden death between the players tied for the lowest total: ``sudden_death``, a list of
    three-card hands, repeated until one player has the unique lowest score (rule 9, OO-13)."""

    @property
    def key(self) -> str:
        """The record's top-level key: ``"hands"``, ``"playoff"``, ``"tiebreak"``, ``"sudden_death"``.

        >>> [part.key for part in Part]
        ['hands', 'playoff', 'tiebreak', 'sudden_death']
        """
        return self.value

    @property
    def slug(self) -> str:
        """The route word of one entry (``/continue/<id>/hand-3``, ``playoff-1``, ``tiebreak-1``,
        ``sudden-death-2``).

        >>> [part.slug for part in Part]
        ['hand', 'playoff', 'tiebreak', 'sudden-death']
        """
        return _SLUGS[self]

    @property
    def step(self) -> Step:
        """The :class:`Step` that asks for this part's next entry.

        >>> Part.TIEBREAK.step
        <Step.TIEBREAK: 'tiebreak'>
        """
        return _STEPS[self]

    @property
    def word(self) -> str:
        """What a player calls one entry, in any game: ``"hand"``, ``"play-off hand"``, ``"tie-break round"``,
        ``"sudden-death hand"``.

        >>> Part.PLAYOFF.word
        'play-off hand'
        """
        return _WORDS[self]

    @property
    def whole(self) -> str:
        """The part as a whole, for people: ``"main game"``, ``"play-off"``, ``"tie-break"``, ``"sudden death"``
        (the pending banner says ``Play-off: Ann and Ben``).

        >>> [part.whole for part in Part]
        ['main game', 'play-off', 'tie-break', 'sudden death']
        """
        return _WHOLES[self]

    @property
    def is_extra(self) -> bool:
        """Whether this is an extra part a tied game plays (everything but :attr:`HANDS`).

        >>> [part.is_extra for part in Part]
        [False, True, True, True]
        """
        return self is not Part.HANDS

    def label(self, index: int) -> str:
        """One entry named for people, from its 0-based index: ``"hand 3"``, ``"play-off hand 1"`` (a game's own
        words, ``"round 3"``, are :meth:`scoring.game.Game.label`).

        >>> Part.HANDS.label(2), Part.SUDDEN_DEATH.label(0)
        ('hand 3', 'sudden-death hand 1')
        """
        return f"{self.word} {index + 1}"

    def entry_slug(self, index: int) -> str:
        """The route segment of one entry, from its 0-based index.

        >>> Part.HANDS.entry_slug(2), Part.SUDDEN_DEATH.entry_slug(1)
        ('hand-3', 'sudden-death-2')
        """
        return f"{self.slug}-{index + 1}"


_SLUGS = {Part.HANDS: "hand", Part.PLAYOFF: "playoff", Part.TIEBREAK: "tiebreak", Part.SUDDEN_DEATH: "sudden-death"}
_STEPS = {
    Part.HANDS: Step.HAND,
    Part.PLAYOFF: Step.PLAYOFF,
    Part.TIEBREAK: Step.TIEBREAK,
    Part.SUDDEN_DEATH: Step.SUDDEN_DEATH,
}
_WORDS = {
    Part.HANDS: "hand",
    Part.PLAYOFF: "play-off hand",
    Part.TIEBREAK: "tie-break round",
    Part.SUDDEN_DEATH: "sudden-death hand",
}
_WHOLES = {
    Part.HANDS: "main game",
    Part.PLAYOFF: "play-off",
    Part.TIEBREAK: "tie-break",
    Part.SUDDEN_DEATH: "sudden death",
}
_BY_SLUG = {part.slug: part for part in Part}
_BY_STEP = {part.step: part for part in Part}
_OBJECT_WHEN_ONE = frozenset({Part.TIEBREAK})
"""Parts that ``records.md`` writes as one object while they have one entry (a Feast and Famine tie-break)."""

EXTRA_PARTS: tuple[Part, ...] = (Part.PLAYOFF, Part.TIEBREAK, Part.SUDDEN_DEATH)
"""The extra parts, in declaration order."""


def _known(kind: str, names: Sequence[str]) -> str:
    return f"known {kind}s: {', '.join(names)}"


def part_of_key(key: str) -> Part:
    """The part a record key names; :class:`UnknownPartError` for anything else.

    >>> part_of_key("sudden_death")
    <Part.SUDDEN_DEATH: 'sudden_death'>
    >>> part_of_key("tiebreaks")
    Traceback (most recent call last):
    ...
    scoring.parts.UnknownPartError: 'tiebreaks' is not a part of a game record (known keys: hands, playoff, \
tiebreak, sudden_death)
    """
    try:
        return Part(key)
    except ValueError:
        raise UnknownPartError(
            f"{key!r} is not a part of a game record ({_known('key', [p.key for p in Part])})"
        ) from None


def part_of_slug(slug: str) -> Part:
    """The part a route word names (``hand``, ``playoff``, ``tiebreak``, ``sudden-death``).

    >>> part_of_slug("sudden-death")
    <Part.SUDDEN_DEATH: 'sudden_death'>
    >>> part_of_slug("round")
    Traceback (most recent call last):
    ...
    scoring.parts.UnknownPartError: 'round' is not a part of a game (known slugs: hand, playoff, tiebreak, \
sudden-death)
    """
    part = _BY_SLUG.get(slug) if isinstance(slug, str) else None
    if part is None:
        raise UnknownPartError(f"{slug!r} is not a part of a game ({_known('slug', list(_BY_SLUG))})")
    return part


_ENTRY_SLUG = re.compile(r"(hand|playoff|tiebreak|sudden-death)-([1-9][0-9]{0,5})")


def parse_entry_slug(text: str) -> tuple[Part, int]:
    """The part and 0-based index a route segment names (``hand-3`` → hands, 2), the inverse of
    :meth:`Part.entry_slug`.

    >>> parse_entry_slug("hand-3"), parse_entry_slug("sudden-death-1")
    ((<Part.HANDS: 'hands'>, 2), (<Part.SUDDEN_DEATH: 'sudden_death'>, 0))
    >>> parse_entry_slug("hand-0")
    Traceback (most recent call last):
    ...
    scoring.parts.UnknownPartError: 'hand-0' is not an entry of a game (hand-1, playoff-1, tiebreak-1, \
sudden-death-1, ...)
    """
    match = _ENTRY_SLUG.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        examples = ", ".join(part.entry_slug(0) for part in Part)
        raise UnknownPartError(f"{text!r} is not an entry of a game ({examples}, ...)")
    return _BY_SLUG[match.group(1)], int(match.group(2)) - 1


def part_for_step(step: Step) -> Part:
    """The part whose entry a :class:`Step` asks for; :class:`UnknownPartError` for :attr:`Step.FINISHED`.

    >>> part_for_step(Step.PLAYOFF), part_for_step(Step.HAND)
    (<Part.PLAYOFF: 'playoff'>, <Part.HANDS: 'hands'>)
    >>> part_for_step(Step.FINISHED)
    Traceback (most recent call last):
    ...
    scoring.parts.UnknownPartError: the game is finished: no part of it is played next
    """
    part = _BY_STEP.get(step)
    if part is None:
        if step is Step.FINISHED:
            raise UnknownPartError("the game is finished: no part of it is played next")
        raise UnknownPartError(f"{step!r} is not a step of a game")
    return part


def entries(record: Mapping[str, Any], part: Part) -> list[Any]:
    """The part's entries as a new list (the entries themselves are not copied): ``[]`` when the part is absent,
    ``[entry]`` for a part saved as one object (a Feast and Famine tie-break of one round).

    >>> record = {"game": "feast-and-famine", "players": ["A", "B"], "hands": [{"dealer": "A"}],
    ...           "tiebreak": {"ghost": None, "outcome": {"A": 6, "B": "out"}}}
    >>> entries(record, Part.TIEBREAK)
    [{'ghost': None, 'outcome': {'A': 6, 'B': 'out'}}]
    >>> entries(record, Part.HANDS), entries(record, Part.PLAYOFF)
    ([{'dealer': 'A'}], [])
    """
    value = record.get(part.key)
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def set_entries(
    record: Mapping[str, Any], part: Part, new: Sequence[Any], *, copy_entries: bool = True
) -> dict[str, Any]:
    """A copy of ``record`` with the part's entries replaced, written the way ``records.md`` shows them.

    ``hands`` is always a list. An extra part with no entries is left out. A Feast and Famine tie-break of one
    round is one object unless the record already holds that part as a list (a list stays a list, so a correction
    never changes the saved form); with two or more rounds it is a list (FF-10). Entries are deep-copied (shared
    with ``new`` when ``copy_entries`` is false: a caller that never changes a record in place); the record's other
    parts are shared with ``record``.

    >>> base = {"game": "feast-and-famine", "players": ["A", "B"], "hands": []}
    >>> one = set_entries(base, Part.TIEBREAK, [{"ghost": None}])
    >>> one["tiebreak"]
    {'ghost': None}
    >>> set_entries(one, Part.TIEBREAK, [{"ghost": None}, {"ghost": None}])["tiebreak"]
    [{'ghost': None}, {'ghost': None}]
    >>> set_entries({**base, "tiebreak": [{"ghost": "A"}]}, Part.TIEBREAK, [{"ghost": None}])["tiebreak"]
    [{'ghost': None}]
    >>> "playoff" in set_entries({**base, "playoff": [{"up": "5S"}]}, Part.PLAYOFF, [])
    False
    >>> set_entries(base, Part.HANDS, [])["hands"]
    []
    """
    out = dict(record)
    items = [copy.deepcopy(entry) for entry in new] if copy_entries else list(new)
    if part is Part.HANDS:
        out[part.key] = items
    elif not items:
        out.pop(part.key, None)
    elif part in _OBJECT_WHEN_ONE and len(items) == 1 and not isinstance(record.get(part.key), (list, tuple)):
        out[part.key] = items[0]
    else:
        out[part.key] = items
    return out


def record_before(record: Mapping[str, Any], part: Part, index: int | None = None) -> dict[str, Any]:
    """The record that the entry at ``(part, index)`` is checked against: everything entered before it.

    For a hand: the hands before it and no extra part (the extra part follows the main game). For an entry of an
    extra part: every hand, and the part's entries before it. ``index`` ``None`` (a new entry) gives the whole
    record. The result is a shallow copy; ``record`` is not changed.

    FF-E6 (d) then (e): the tie-break round 2 of a replayed tie-break is checked against round 1 only.

    >>> record = {"game": "feast-and-famine", "players": ["A", "B"], "hands": [{"dealer": "A"}, {"dealer": "B"}],
    ...           "tiebreak": [{"ghost": None}, {"ghost": None}]}
    >>> record_before(record, Part.TIEBREAK, 1)["tiebreak"]
    [{'ghost': None}]
    >>> "tiebreak" in record_before(record, Part.TIEBREAK, 0)
    False
    >>> before = record_before(record, Part.HANDS, 1)
    >>> before["hands"], "tiebreak" in before
    ([{'dealer': 'A'}], False)
    >>> record_before(record, Part.TIEBREAK) == record
    True
    """
    out = dict(record)
    if index is None:
        return out
    if part is Part.HANDS:
        out[part.key] = entries(record, part)[:index]
        for extra in EXTRA_PARTS:
            out.pop(extra.key, None)
        return out
    before = entries(record, part)[:index]
    if before:
        out[part.key] = before
    else:
        out.pop(part.key, None)
    return out


__all__ = [
    "EXTRA_PARTS",
    "Part",
    "Step",
    "UnknownPartError",
    "entries",
    "parse_entry_slug",
    "part_for_step",
    "part_of_key",
    "part_of_slug",
    "record_before",
    "set_entries",
]
