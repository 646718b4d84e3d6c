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
>>> ctl = EntryController(OnesToNinesState, store, record, EntryTarget())
>>> for digit in "4239" "7772" "9333":
...     _ = ctl.change(lambda state, d=digit: state.press(d))
>>> store.draft("new")["numbers"]
{'P1': '7772', 'P2': '9333'}
>>> EntryController(OnesToNinesState, store, record, EntryTarget()).state.focus()  # after a reload
'P3'
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, Self, TypeVar

from pydantic import TypeAdapter

from companion.guides import GameGuide
from companion.i18n import N_, Words
from scoring.base import REFUSED, passes
from scoring.parts import Part, parse_entry_slug
from scoring.registry import find_game
from scoring.why import Note, render

# --- what an entry panel fills in (the parts of a record are :class:`scoring.parts.Part`) -----------------------


def entry_word(game: str, part: Part = Part.HANDS) -> str:
    """What ``game``'s rules call one entry of ``part``: ``round`` for the main game of Financial Crisis and Feast
    and Famine (:attr:`scoring.game.Game.hand_word`), ``hand`` for the others; an extra part's own word.

    >>> entry_word("feast-and-famine"), entry_word("jokers-kill"), entry_word("feast-and-famine", Part.TIEBREAK)
    ('round', 'hand', 'tie-break round')
    """
    return find_game(game).word(part)


def entry_title(game: str, part: Part, index: int) -> str:
    """The title of entry ``index`` (0-based) of ``part``, as every screen writes it: ``Round 3``, ``Hand 3``,
    ``Tie-break round 1``.

    >>> entry_title("financial-crisis", Part.HANDS, 2), entry_title("bargain-bin", Part.HANDS, 0)
    ('Round 3', 'Hand 1')
    >>> entry_title("1111-9999", Part.SUDDEN_DEATH, 1)
    'Sudden-death hand 2'
    """
    word = entry_word(game, part)
    return f"{word[0].upper()}{word[1:]} {index + 1}"


class WordedError(ValueError):
    """A refusal of the hand being entered whose words are data: made from a :class:`~scoring.why.Note` (its
    English text marked with ``N_``), the message is the note in English and ``why`` keeps the note, which the
    table words in its language; made from a string, it is that string.

    >>> error = WordedError(Note.of(N_("{name} has no cards left"), name="Ann"))
    >>> str(error), error.why.text
    ('Ann has no cards left', '{name} has no cards left')
    """

    def __init__(self, message: str | Note) -> None:
        note = message if isinstance(message, Note) else None
        super().__init__(render(message) if isinstance(message, Note) else message)
        self.why = note
        """The message as data, when it was made from a note."""


_NEXT = {
    "hand": N_("next hand"),
    "round": N_("next round"),
    "play-off hand": N_("next play-off hand"),
    "tie-break round": N_("next tie-break round"),
    "sudden-death hand": N_("next sudden-death hand"),
}
_NUMBERED = {
    "hand": N_("hand {n}"),
    "round": N_("round {n}"),
    "play-off hand": N_("play-off hand {n}"),
    "tie-break round": N_("tie-break round {n}"),
    "sudden-death hand": N_("sudden-death hand {n}"),
}


def entry_label(words: Words, word: str, index: int | None) -> str:
    """``next hand`` or ``hand 3`` (``word``: an entry's word, :func:`entry_word`) in the table's language.

    >>> entry_label(Words.of("en"), "round", None), entry_label(Words.of("de"), "hand", 2)
    ('next round', 'Spiel 3')
    """
    if index is None:
        return words.gettext(_NEXT[word]) if word in _NEXT else f"next {word}"
    return words.gettext(_NUMBERED[word]).format(n=index + 1) if word in _NUMBERED else f"{word} {index + 1}"


def worded_entry_title(words: Words, game: str, part: Part, index: int) -> str:
    """:func:`entry_title` in the table's language (``Hand 3``; German ``Spiel 3``, Swedish ``Giv 3``).

    >>> worded_entry_title(Words.of("en"), "financial-crisis", Part.HANDS, 2)
    'Round 3'
    """
    text = entry_label(words, entry_word(game, part), index)
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class EntryTarget:
    """What an entry panel fills in: the next entry of a part, or a correction of entry ``index``.

    >>> EntryTarget().label, EntryTarget(Part.PLAYOFF, 1).label, EntryTarget(Part.HANDS, 0).slug
    ('next hand', 'play-off hand 2', 'hand-1')
    >>> EntryTarget(Part.TIEBREAK, 0).label, EntryTarget(Part.SUDDEN_DEATH, 1).slug
    ('tie-break round 1', 'sudden-death-2')
    >>> EntryTarget(Part.SUDDEN_DEATH, 1).key
    'sudden_death/1'
    """

    part: Part = Part.HANDS
    """The main game's hands or an extra part of the record (a play-off, a tie-break, sudden death)."""
    index: int | None = None
    """0-based index of the entry being corrected; ``None`` for a new entry."""

    @classmethod
    def of_slug(cls, slug: str) -> EntryTarget:
        """The entry a correction route names (:func:`scoring.parts.parse_entry_slug`): ``hand-3`` → hand index 2;
        ``playoff-1``, ``tiebreak-1``, ``sudden-death-1`` → entry 0 of that part; :class:`UnknownPartError` (a
        :class:`ValueError`) for anything else.

        >>> EntryTarget.of_slug("hand-3"), EntryTarget.of_slug("sudden-death-1").part
        (EntryTarget(part=<Part.HANDS: 'hands'>, index=2), <Part.SUDDEN_DEATH: 'sudden_death'>)
        >>> EntryTarget.of_slug("round-0")
        Traceback (most recent call last):
        ...
        scoring.parts.UnknownPartError: 'round-0' is not an entry of a game (hand-1, playoff-1, tiebreak-1, \
sudden-death-1, ...)
        """
        part, index = parse_entry_slug(slug)
        return cls(part, index)

    @property
    def is_new(self) -> bool:
        return self.index is None

    @property
    def word(self) -> str:
        return self.part.word

    @property
    def label(self) -> str:
        return f"next {self.word}" if self.index is None else f"{self.word} {self.index + 1}"

    def label_for(self, game: str) -> str:
        """:attr:`label` in ``game``'s own words: ``round 2`` in Financial Crisis and Feast and Famine.

        >>> EntryTarget(Part.HANDS, 1).label_for("feast-and-famine"), EntryTarget().label_for("jokers-kill")
        ('round 2', 'next hand')
        """
        word = entry_word(game, self.part)
        return f"next {word}" if self.index is None else f"{word} {self.index + 1}"

    def label_in(self, words: Words, game: str | None = None) -> str:
        """:attr:`label` (or, with ``game``, :meth:`label_for`) in the table's language."""
        word = self.word if game is None else entry_word(game, self.part)
        return entry_label(words, word, self.index)

    @property
    def slug(self) -> str:
        """The last segment of the correction's route (``hand-3``, ``playoff-1``, ``tiebreak-1``,
        ``sudden-death-2``)."""
        return self.part.entry_slug(self.index or 0)

    @property
    def key(self) -> str:
        """Names the draft kept by :meth:`companion.session.TableSession.set_draft`."""
        return "new" if self.index is None else f"{self.part.key}/{self.index}"


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


class _WholeEntry(Protocol):
    """A game's own entry object that keeps its draft, turns into its hand and says what is missing."""

    def to_draft(self) -> dict[str, Any]: ...

    def to_hand(self) -> dict[str, Any]: ...

    def verify_complete(self) -> None: ...


E = TypeVar("E", bound=_WholeEntry)


@dataclass(frozen=True)
class EntryOf(Generic[E]):
    """The part of an :class:`EntryState` that one entry object of the game's (``entry``) already is: its draft,
    its hand and its check are the entry's own; a game adds ``start``, ``from_hand``, ``from_draft``,
    ``can_confirm`` and ``focus``."""

    entry: E

    def to_draft(self) -> dict[str, Any]:
        return self.entry.to_draft()

    def to_hand(self) -> dict[str, Any]:
        return self.entry.to_hand()

    def verify(self) -> None:
        """Raise what the entry raises while it is not complete (the game's :class:`scoring.IncompleteError`)."""
        self.entry.verify_complete()

    def but(self, entry: E) -> Self:
        """This state with ``entry`` instead."""
        return replace(self, entry=entry)


S = TypeVar("S", bound=EntryState)
S_co = TypeVar("S_co", bound=EntryState, covariant=True)


class EntryKind(Protocol[S_co]):
    """What makes a game's entry states for :class:`EntryController`: an :class:`EntryState` class (its three
    class methods), or an object with the same three that knows more of the record than the record says
    (:class:`companion.entry_feast_and_famine.KnownRound`: the tie-break's players, from the session's result)."""

    def start(self, record: Mapping[str, Any], target: EntryTarget) -> S_co: ...

    def from_hand(self, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> S_co: ...

    def from_draft(self, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> S_co: ...


class Debtor(Protocol):
    """What owes a :class:`DraftStore` a draft not kept yet: an :class:`EntryController` whose last change waits
    for its tap's reply to leave before it is written."""

    def flush(self) -> None: ...


class DraftStore(Protocol):
    """Where drafts are kept: :class:`companion.session.TableSession` (``draft`` / ``set_draft``)."""

    def draft(self, target: str = "new") -> dict[str, Any] | None: ...

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new") -> None: ...

    def owe(self, debtor: Debtor) -> None:
        """``debtor`` has a change whose draft is not kept yet: the store's ``settle`` (the app stopping) calls its
        ``flush`` if nothing has by then. Held weakly: a panel gone owes nothing."""
        ...


class MemoryDrafts:
    """A :class:`DraftStore` in memory (tests, doctests)."""

    def __init__(self) -> None:
        self.drafts: dict[str, dict[str, Any]] = {}
        self._owed: weakref.WeakSet[Debtor] = weakref.WeakSet()

    def owe(self, debtor: Debtor) -> None:
        self._owed.add(debtor)

    def settle(self) -> None:
        """Keep every draft owed (:meth:`owe`) and not kept yet."""
        owed, self._owed = list(self._owed), weakref.WeakSet()
        for debtor in owed:
            debtor.flush()

    def draft(self, target: str = "new") -> dict[str, Any] | None:
        found = self.drafts.get(target)
        return copy.deepcopy(found) if found is not None else None

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new") -> None:
        if draft is None:
            self.drafts.pop(target, None)
        else:
            self.drafts[target] = copy.deepcopy(dict(draft))


# --- the controller --------------------------------------------------------------------------------------------


class EntryController(Generic[S]):
    """The draft lifecycle of one entry panel, the same for every game.

    On open: the draft kept for ``target`` (when it still fits the record), else ``existing`` (the saved entry being
    corrected), else a fresh start. Every :meth:`change` keeps the draft; a hand made by :meth:`confirm` takes its
    draft with it (the session lets it go with the change, in one write), a hand refused keeps it (nothing typed is
    lost).
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
            self.store.owe(self)  # kept all the same if the app stops before ``defer`` runs it
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
        """Verify the entry and submit its hand. The draft is not written here: a hand that is made takes its draft
        with it, in the change's own write of the drafts (:attr:`companion.session.Edit.device`); a hand refused
        (``submit`` returns ``False`` or raises) keeps it, written now only if its last change was not written
        yet. Raises what :meth:`EntryState.verify` raises when the hand is not complete."""
        hand = self.state.to_hand()
        with self._lock:
            pending, self._pending = self._pending, None  # the hand goes to the record: not written before it
        accepted = False
        try:
            accepted = submit(hand)
        finally:
            if not accepted and pending is not None:
                self.store.set_draft(pending.to_draft(), self.key)
        if accepted and self.store.draft(self.key) is not None:
            self.store.set_draft(None, self.key)  # a store the change did not clear (a hand made without its device)
        return accepted


# --- what a game declares --------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameEntry:
    """What the companion knows of one game, declared once next to its entry state, as ``ENTRY`` at the end of
    ``companion/entry_<game>.py``, and listed in :data:`companion.games.ENTRIES`.

    >>> from companion.games import find_entry
    >>> entry = find_entry("jokers-kill")
    >>> entry.state.__name__, entry.guide.name, entry.card_check is None
    ('JokersKillState', 'Jokers Kill', True)
    """

    key: str
    """The game's key, the same as its :class:`scoring.game.Game`'s."""
    state: type[EntryState]
    """Its hand being entered: what its entry panel keeps, and restores a draft with (:mod:`companion.drafts`)."""
    draft: TypeAdapter[Any]
    """The shape of what :meth:`EntryState.to_draft` writes (a ``TypedDict``): a drafts file is checked against it
    when a session opens, and a draft of another shape is set aside."""
    guide: GameGuide
    """The game told in the app's own words, for the Rules screen."""
    card_check: Callable[[Mapping[str, Any]], None] | None = None
    """What a draft must also pass that its shape cannot say and its state does not check (Bargain Bin: every
    card played is a card); raises :class:`ValueError`."""


__all__ = [
    "DraftStore",
    "EntryController",
    "EntryState",
    "EntryTarget",
    "GameEntry",
    "MemoryDrafts",
    "entry_title",
    "entry_word",
    "passes",
]
