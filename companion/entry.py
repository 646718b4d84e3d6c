"""One entry lifecycle for every game: the :class:`EntryState` protocol and the :class:`EntryController` (no Flet).

Each game's hand being entered is an :class:`EntryState` (``companion/entry_<game>.py``): a frozen value made by
:meth:`~EntryState.start`, :meth:`~EntryState.from_hand` (a saved hand, to correct it) or
:meth:`~EntryState.from_draft` (what :meth:`~EntryState.to_draft` kept), that turns into the record's hand with
:meth:`~EntryState.to_hand` once :meth:`~EntryState.verify` passes, and names the first field still to fill with
:meth:`~EntryState.focus`.

The :class:`EntryController` owns the draft of one entry panel: it restores the draft kept by the session (a reload,
another screen, a restart), else the saved hand being corrected, else starts; it keeps the draft on every change,
clears it before the hand is submitted and keeps it again when the hand is refused.

>>> from companion.entry_ones_to_nines import OnesToNinesState
>>> record = {"game": "1111-9999", "players": ["P1", "P2", "P3"], "sides": {"P1": "A", "P2": "B", "P3": "A"}}
>>> store = MemoryDrafts()
>>> ctl = EntryController(OnesToNinesState, store, record, EntryTarget("hands"))
>>> for digit in "4239" "7772" "9333":
...     _ = ctl.change(lambda state, d=digit: state.press(d))
>>> store.draft("new")["numbers"]
{'P1': '7772', 'P2': '9333'}
>>> EntryController(OnesToNinesState, store, record, EntryTarget("hands")).state.focus()  # after a reload
'P3'
"""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

from scoring.parts import Part, hand_word

# --- the parts of a record (one place to switch to the rules engine's own vocabulary) ----------------------------

PART_KEYS = ("hands", "playoff", "tiebreak", "sudden_death")
"""The parts of a record that hold entries: the main game's hands and the extra part of a tied game."""
PART_SLUGS = {"hands": "hand", "playoff": "playoff", "tiebreak": "tiebreak", "sudden_death": "sudden-death"}
"""The route word of each part of a record: ``/continue/<id>/hand-3``, ``.../tiebreak-1``, ``.../sudden-death-2``."""
PART_WORDS = {
    "hands": "hand",
    "playoff": "play-off hand",
    "tiebreak": "tie-break round",
    "sudden_death": "sudden-death hand",
}
"""What a player calls one entry of each part."""


def entry_word(game: str, part: str = "hands") -> str:
    """What ``game``'s rules call one entry of ``part``: ``round`` for the main game of Financial Crisis and Feast
    and Famine (:func:`scoring.parts.hand_word`), ``hand`` for the others; an extra part's own word.

    >>> entry_word("feast-and-famine"), entry_word("jokers-kill"), entry_word("feast-and-famine", "tiebreak")
    ('round', 'hand', 'tie-break round')
    """
    try:
        return Part(part).word_for(game)
    except ValueError:
        return hand_word(game)


def entry_title(game: str, part: str, index: int) -> str:
    """The title of entry ``index`` (0-based) of ``part``, as every screen writes it: ``Round 3``, ``Hand 3``,
    ``Tie-break round 1``.

    >>> entry_title("financial-crisis", "hands", 2), entry_title("bargain-bin", "hands", 0)
    ('Round 3', 'Hand 1')
    >>> entry_title("1111-9999", "sudden_death", 1)
    'Sudden-death hand 2'
    """
    word = entry_word(game, part)
    return f"{word[0].upper()}{word[1:]} {index + 1}"


def part_entries(record: Mapping[str, Any], part: str) -> list[Any]:
    """The entries of ``part`` in ``record`` (a Feast and Famine tie-break of one round is one object).

    >>> part_entries({"tiebreak": {"ghost": None}}, "tiebreak"), part_entries({"hands": [1, 2]}, "hands")
    ([{'ghost': None}], [1, 2])
    """
    value = record.get(part)
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


class EntrySlugError(ValueError):
    """A route segment that names no entry of a game (``hand-0``, ``round-2``...)."""


@dataclass(frozen=True)
class EntryTarget:
    """What an entry panel fills in: the next entry of a part, or a correction of entry ``index``.

    >>> EntryTarget("hands").label, EntryTarget("playoff", 1).label, EntryTarget("hands", 0).slug
    ('next hand', 'play-off hand 2', 'hand-1')
    >>> EntryTarget("tiebreak", 0).label, EntryTarget("sudden_death", 1).slug, EntryTarget("sudden_death", 1).key
    ('tie-break round 1', 'sudden-death-2', 'sudden_death/1')
    """

    part: str = "hands"
    """``hands`` or an extra part of the record (``playoff``, ``tiebreak``, ``sudden_death``)."""
    index: int | None = None
    """0-based index of the entry being corrected; ``None`` for a new entry."""

    @property
    def is_new(self) -> bool:
        return self.index is None

    @property
    def word(self) -> str:
        return PART_WORDS.get(self.part, "hand")

    @property
    def label(self) -> str:
        return f"next {self.word}" if self.index is None else f"{self.word} {self.index + 1}"

    def label_for(self, game: str) -> str:
        """:attr:`label` in ``game``'s own words: ``round 2`` in Financial Crisis and Feast and Famine.

        >>> EntryTarget("hands", 1).label_for("feast-and-famine"), EntryTarget("hands").label_for("jokers-kill")
        ('round 2', 'next hand')
        """
        word = entry_word(game, self.part)
        return f"next {word}" if self.index is None else f"{word} {self.index + 1}"

    @property
    def slug(self) -> str:
        """The last segment of the correction's route (``hand-3``, ``playoff-1``, ``tiebreak-1``,
        ``sudden-death-2``)."""
        return f"{PART_SLUGS.get(self.part, 'hand')}-{(self.index or 0) + 1}"

    @property
    def key(self) -> str:
        """Names the draft kept by :meth:`companion.session.TableSession.set_draft`."""
        return "new" if self.index is None else f"{self.part}/{self.index}"


def parse_entry(slug: str) -> EntryTarget:
    """The entry a correction route names: ``hand-3`` → hand index 2; ``playoff-1``, ``tiebreak-1``,
    ``sudden-death-1`` → entry 0 of that part. Raises :class:`EntrySlugError` for anything else.

    >>> parse_entry("hand-3"), parse_entry("playoff-1").part
    (EntryTarget(part='hands', index=2), 'playoff')
    >>> parse_entry("tiebreak-2"), parse_entry("sudden-death-1")
    (EntryTarget(part='tiebreak', index=1), EntryTarget(part='sudden_death', index=0))
    >>> parse_entry("round-0")
    Traceback (most recent call last):
    ...
    companion.entry.EntrySlugError: 'round-0' is not a hand of a game (hand-1, playoff-1, ...)
    """
    words = "|".join(PART_SLUGS.values())
    match = re.fullmatch(rf"({words})-([1-9][0-9]*)", slug)
    if match is None:
        examples = ", ".join(f"{word}-1" for word in PART_SLUGS.values())
        raise EntrySlugError(f"'{slug}' is not a hand of a game ({examples}, …)")
    part = next(part for part, word in PART_SLUGS.items() if word == match.group(1))
    return EntryTarget(part, int(match.group(2)) - 1)


def record_before(record: Mapping[str, Any], target: EntryTarget) -> dict[str, Any]:
    """The record an entry is checked against: everything for a new entry; for a correction, the entries before it
    (and, for a main-game hand, no extra part yet).

    >>> record = {"game": "feast-and-famine", "players": ["A", "B"], "hands": [], "tiebreak": {"ghost": None}}
    >>> "tiebreak" in record_before(record, EntryTarget("tiebreak", 0))
    False
    >>> replayed = {**record, "tiebreak": [{"ghost": None}, {"ghost": None}]}
    >>> record_before(replayed, EntryTarget("tiebreak", 1))["tiebreak"]
    [{'ghost': None}]
    """
    out = dict(record)
    if target.index is None:
        return out
    if target.part == "hands":
        out["hands"] = list(record.get("hands", []))[: target.index]
        for key in PART_KEYS[1:]:
            out.pop(key, None)
    else:
        before = part_entries(record, target.part)[: target.index]
        if before:
            out[target.part] = before
        else:
            out.pop(target.part, None)
    return out


# --- the protocol ----------------------------------------------------------------------------------------------


class EntryState(Protocol):
    """A hand (round, play-off hand, tie-break round, sudden-death hand) being entered; a frozen value."""

    @classmethod
    def start(cls, record: Mapping[str, Any], target: EntryTarget) -> Self:
        """Nothing entered yet, for ``target`` of ``record`` (the record before that entry)."""
        ...

    @classmethod
    def from_hand(cls, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> Self:
        """A saved entry, to correct it (what no longer fits is left out)."""
        ...

    @classmethod
    def from_draft(cls, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> Self:
        """What :meth:`to_draft` kept; raises :class:`ValueError` (a :class:`scoring.ScoringError` is one) when it
        no longer fits ``record``. The focus is on the first unfinished field."""
        ...

    def to_draft(self) -> dict[str, Any]:
        """Plain JSON data for :meth:`companion.session.TableSession.set_draft`."""
        ...

    def to_hand(self) -> dict[str, Any]:
        """The entry as the record keeps it; raises what :meth:`verify` raises until it is complete."""
        ...

    def verify(self) -> None:
        """Raise :class:`scoring.errors.IncompleteError` (or the game's subclass of it) saying what is missing, or
        another :class:`ValueError` of the game (often a :class:`scoring.ScoringError`) saying what is wrong."""
        ...

    def can_confirm(self) -> bool:
        """Whether :meth:`verify` passes (the Confirm button is greyed out otherwise)."""
        ...

    def focus(self) -> str | None:
        """The first unfinished field or card slot (``"table"``, ``"P3"``, ``"cards/Ann"``...); ``None`` when
        nothing is missing."""
        ...


S = TypeVar("S", bound=EntryState)
S_co = TypeVar("S_co", bound=EntryState, covariant=True)


class EntryKind(Protocol[S_co]):
    """What makes a game's entry states for :class:`EntryController`: an :class:`EntryState` class (its three
    class methods), or an object with the same three that knows more of the record than the record says
    (:class:`companion.entry_feast_and_famine.KnownRound`: the tie-break's players, from the session's result)."""

    def start(self, record: Mapping[str, Any], target: EntryTarget) -> S_co: ...

    def from_hand(self, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> S_co: ...

    def from_draft(self, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> S_co: ...


class DraftStore(Protocol):
    """Where drafts are kept: :class:`companion.session.TableSession` (``draft`` / ``set_draft``)."""

    def draft(self, target: str = "new") -> dict[str, Any] | None: ...

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new") -> None: ...


class MemoryDrafts:
    """A :class:`DraftStore` in memory (tests, doctests)."""

    def __init__(self) -> None:
        self.drafts: dict[str, dict[str, Any]] = {}

    def draft(self, target: str = "new") -> dict[str, Any] | None:
        found = self.drafts.get(target)
        return copy.deepcopy(found) if found is not None else None

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new") -> None:
        if draft is None:
            self.drafts.pop(target, None)
        else:
            self.drafts[target] = copy.deepcopy(dict(draft))


# --- the controller --------------------------------------------------------------------------------------------

REFUSED = (ValueError,)
"""What a change or a confirm may raise to say no (every game's entry errors and :class:`ScoringError` are
:class:`ValueError` subclasses)."""


class EntryController(Generic[S]):
    """The draft lifecycle of one entry panel, the same for every game.

    On open: the draft kept for ``target`` (when it still fits the record), else ``existing`` (the saved entry being
    corrected), else a fresh start. Every :meth:`change` keeps the draft; :meth:`confirm` clears it before the hand
    is submitted (the screen redraws with the next hand's panel, which must start empty) and keeps it again when the
    hand is refused (nothing typed is lost).
    """

    def __init__(
        self,
        kind: EntryKind[S],
        store: DraftStore,
        record: Mapping[str, Any],
        target: EntryTarget,
        existing: Mapping[str, Any] | None = None,
        defer: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self.kind = kind
        self.store = store
        self.defer = defer
        """How a change's draft is kept: ``None``, at once; else ``defer(work)`` runs ``work`` a moment later
        (the table screen: once the tap's update is on its way to the page, so the disk never delays a tap)."""
        self._lock = threading.Lock()
        self._pending: S | None = None
        """The state of the last change, while its draft is not kept yet (:meth:`flush`)."""
        self.target = target
        self.existing = dict(existing) if existing is not None else None
        self.record: dict[str, Any] = dict(record)
        self.restored = False
        """Whether the state came from a kept draft."""
        self.state: S = self._open()

    def _open(self) -> S:
        kept = self.store.draft(self.target.key)
        if kept is not None:
            try:
                state = self.kind.from_draft(self.record, self.target, kept)
            except REFUSED:  # a draft from an older state of the game: start from the saved entry instead
                pass
            else:
                self.restored = True
                return state
        self.restored = False
        if self.existing is not None:
            return self.kind.from_hand(self.record, self.target, self.existing)
        return self.kind.start(self.record, self.target)

    @property
    def key(self) -> str:
        return self.target.key

    def reopen(self, record: Mapping[str, Any]) -> S:
        """The session changed (a hand confirmed here or in another tab, an undo): continue with the new record,
        from the draft kept for it if it still fits. Raises :class:`scoring.ScoringError` if the record cannot be
        entered."""
        self.flush()  # a change not kept yet belongs to the old record: kept first, then read back if it fits
        self.record = dict(record)
        self.state = self._open()
        return self.state

    def set(self, state: S) -> S:
        """Make ``state`` the entry and keep it as the draft (at once, or by :attr:`defer`)."""
        self.state = state
        if self.defer is None:
            self.store.set_draft(state.to_draft(), self.key)
            return state
        with self._lock:
            scheduled = self._pending is not None
            self._pending = state
        if not scheduled:
            self.defer(self.flush)
        return state

    def flush(self) -> None:
        """Keep the draft of the last change, if it is not kept yet (quick taps: only the last one is written)."""
        with self._lock:
            state, self._pending = self._pending, None
            if state is not None:
                self.store.set_draft(state.to_draft(), self.key)

    def change(self, make: Callable[[S], S]) -> S:
        """Apply one change (``make(state)`` → new state) and keep the draft; what ``make`` raises (a tap the
        hand cannot take) propagates and nothing changes."""
        return self.set(make(self.state))

    def restart(self) -> S:
        """Clear the hand: a fresh start (kept as the draft, so a reload shows it cleared too)."""
        return self.set(self.kind.start(self.record, self.target))

    def discard(self) -> None:
        """Forget the draft (the entry is not kept any more)."""
        with self._lock:
            self._pending = None
        self.store.set_draft(None, self.key)

    def confirm(self, submit: Callable[[dict[str, Any]], bool]) -> bool:
        """Verify the entry and submit its hand: the draft is cleared first and kept again if ``submit`` refuses
        (returns ``False``). Raises what :meth:`EntryState.verify` raises when the hand is not complete."""
        hand = self.state.to_hand()
        state = self.state
        with self._lock:
            self._pending = None  # the hand goes to the record: a draft not kept yet is not needed
        self.store.set_draft(None, self.key)
        try:
            accepted = submit(hand)
        except BaseException:
            self.store.set_draft(state.to_draft(), self.key)
            raise
        if not accepted:
            self.store.set_draft(state.to_draft(), self.key)
        return accepted


__all__ = [
    "PART_KEYS",
    "PART_SLUGS",
    "PART_WORDS",
    "DraftStore",
    "EntryController",
    "EntrySlugError",
    "EntryState",
    "EntryTarget",
    "MemoryDrafts",
    "entry_title",
    "entry_word",
    "parse_entry",
    "part_entries",
    "record_before",
]
