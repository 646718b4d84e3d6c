"""The session service: record, edit, undo and redo what happens at the table; derive the standings.

No Flet in here. A :class:`TableSession` holds one game's **record** (``records.md``); every change builds a new
record, replays it through :mod:`scoring` (an invalid change is refused with the scoring error and nothing changes),
then saves it through :mod:`storage` before it counts as saved. Scores are never stored: they are always derived,
once per change: :attr:`TableSession.result` is the result of the current version, and every reader (the screen,
the live view, the scoreboard extras) reads it instead of replaying the record again.

A record, once made, is never changed in place: a change builds a new top-level dict that shares the entries it
keeps with the record before (undo keeps the record before as it is), so a change costs the new entry, not a copy
of the whole game. :attr:`TableSession.current` is that record itself, for reading; :attr:`TableSession.record` is a
copy to change.

Views and live viewers subscribe to a session and are told after every change.

A whole game through the service (JK-E2 then JK-E4):

>>> import tempfile, pathlib
>>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
>>> service = SessionService(archive)
>>> table = service.start("jokers-kill", ["Ann", "Ben", "Cat"])
>>> _ = table.add_hand({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}})
>>> table.result.totals
{'Ann': 2, 'Ben': 0, 'Cat': 0}
>>> _ = table.replace_hand(0, {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}})
>>> table.result.totals
{'Ann': 0, 'Ben': 3, 'Cat': 0}
>>> table.log[-1]
'hand 1 corrected: up 9♠ → 8♠; cards Ann 4♥ → 2♥; cards Ben 7♦ → 8♦; cards Cat Q♣ → 5♣'
>>> _ = table.undo()
>>> table.result.totals["Ann"], service.open(table.id) is table
(2, True)

Every change is an :class:`Edit`, made with :meth:`TableSession.make` (the methods ``add_hand``, ``undo``... are
shorthands for it); :meth:`TableSession.verify` and :meth:`TableSession.can_make` check one without making it:

>>> table.can_make(Edit.redo()), table.can_make(Edit.redo(expected_version=table.version - 1))
(True, False)
>>> table.make(Edit.remove_last(expected_version=table.version)).totals
{'Ann': 0, 'Ben': 0, 'Cat': 0}
>>> archive.close()
"""

from __future__ import annotations

import copy
import logging
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.drafts import draft_check
from companion.entry import Debtor, WordedError
from companion.i18n import N_
from companion.listeners import Listeners
from scoring import Replay, Result, ScoringError, Step, find_game, next_step
from scoring.base import passes
from scoring.cards import shown
from scoring.parts import EXTRA_PARTS, Part, UnknownPartError, entries, part_for_step, part_of_key, set_entries
from scoring.why import Note
from storage import Archive, LogEntry, SessionDoc, SessionStatus, SessionSummary, StorageError
from storage.core import MAX_DRAFT_DEVICES

_log = logging.getLogger(__name__)

Record = dict[str, Any]
Listener = Callable[["TableSession"], None]


class StaleEditError(WordedError):
    """An edit made on an older version of the session than the one now saved (someone else changed it first)."""


class NothingToUndoError(WordedError):
    """Undo or redo with nothing to undo or redo."""


class NoSuchHandError(IndexError):
    """A hand (or an entry of an extra part) that the game does not have."""


class InvalidEditError(ValueError):
    """An :class:`Edit` that does not say enough to be made (an entry to add without the entry...)."""


class SaveFailedError(Exception):
    """The change is made and kept in memory, but the disk refused it (full, read-only...).

    The session's ``save_error`` says why and :meth:`TableSession.retry_save` tries again; nothing is lost while
    the app runs.
    """


def status_of(result: Result) -> SessionStatus:
    """The storage status that a result implies (:meth:`storage.SessionStatus.of`)."""
    return SessionStatus.of(result)


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, sub in value.items():
            out.update(_flatten(sub, f"{prefix} {key}".strip()))
        return out
    return {prefix: value}


def describe_change(old: Any, new: Any) -> str:
    """Say what an edit changed, in a player's words.

    >>> describe_change({"cards": {"Ben": "7H", "Ann": "2S"}}, {"cards": {"Ben": "7D", "Ann": "2S"}})
    'cards Ben 7♥ → 7♦'
    >>> describe_change({"up": "5S"}, {"up": "5S", "void": True})
    'void: (none) → True'
    """
    before, after = _flatten(old), _flatten(new)
    parts = []
    for key in list(before) + [k for k in after if k not in before]:
        if before.get(key) != after.get(key):
            was = shown(before[key]) if key in before else "(none)"
            now = shown(after[key]) if key in after else "(removed)"
            sep = " " if key in before and key in after else ": "
            parts.append(f"{key}{sep}{was} → {now}")
    return "; ".join(parts) if parts else "no change"


def _part(part: str | Part) -> Part:
    """The :class:`~scoring.parts.Part` named by itself or by its record key (:class:`UnknownPartError` for another
    key)."""
    return part if isinstance(part, Part) else part_of_key(part)


class EditKind(StrEnum):
    """The changes a page (the host's table, a phone with the PIN, History's correction) can ask for."""

    ADD = "add"
    """Append the next hand (or the next entry of an extra part such as a play-off)."""
    REPLACE = "replace"
    """Correct an entry already made (everything after it is re-derived)."""
    REMOVE_LAST = "remove-last"
    """Take the last hand away."""
    UNDO = "undo"
    """Take back the last change."""
    REDO = "redo"
    """Make again what the last undo took back."""
    SET_PART = "set-part"
    """Set (or remove) a whole extra part of the record at once: a tie-break, sudden death, a play-off."""


@dataclass(frozen=True)
class Edit:
    """One change asked for by a page, made on the version of the game that page showed (``expected_version``;
    ``None`` applies to whatever is current). Made with :meth:`TableSession.make`.

    >>> Edit.add({"up": "9S"}, expected_version=4)
    Edit(kind=<EditKind.ADD: 'add'>, entry={'up': '9S'}, part=<Part.HANDS: 'hands'>, index=None, expected_version=4)
    >>> Edit.undo().at(7).expected_version
    7
    >>> Edit(EditKind.REPLACE, {"up": "9S"})
    Traceback (most recent call last):
    ...
    companion.session.InvalidEditError: say which hand to correct
    """

    kind: EditKind
    entry: Any = None
    """The entry to add or the corrected entry; for :attr:`EditKind.SET_PART`, the part's whole value (``None``
    removes it)."""
    part: Part = Part.HANDS
    """The main game's hands or an extra part (a record key given here is read as its :class:`~scoring.parts.Part`,
    :class:`UnknownPartError` for another)."""
    index: int | None = None
    """Which entry a correction replaces (0-based)."""
    expected_version: int | None = None
    """The version the page showed: an edit made on an older one is refused with :class:`StaleEditError`."""
    description: str | None = field(default=None, compare=False, repr=False)
    """For :attr:`EditKind.SET_PART`: the edit log's line (the other kinds word their own)."""
    device: str | None = field(default=None, compare=False, repr=False)
    """The device that asked for it (``None``: none said). Its hand being entered for this edit's entry (an undo
    or redo: for the next hand, which starts anew) is done with once the change is made: it goes with the change,
    in the change's one write of the drafts (:meth:`TableSession.make`), never in a write of its own before."""
    saved_later: bool = field(default=False, compare=False, repr=False)
    """Made and shown first, written to disk after (:meth:`TableSession.save_pending`): the screen that asks for
    this says the change is being saved until :attr:`TableSession.saving` is ``False`` again."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "part", _part(self.part))
        if self.kind in (EditKind.ADD, EditKind.REPLACE) and not isinstance(self.entry, Mapping):
            raise InvalidEditError("there is no entry to add" if self.kind is EditKind.ADD else "there is no entry")
        if self.kind is EditKind.REPLACE and self.index is None:
            raise InvalidEditError("say which hand to correct")

    @classmethod
    def add(
        cls, entry: Mapping[str, Any], *, part: str | Part = Part.HANDS, expected_version: int | None = None
    ) -> Edit:
        """Append ``entry`` to ``part`` (the next hand, or the next play-off hand...)."""
        return cls(EditKind.ADD, dict(entry), _part(part), None, expected_version)

    @classmethod
    def replace(
        cls, index: int, entry: Mapping[str, Any], *, part: str | Part = Part.HANDS, expected_version: int | None = None
    ) -> Edit:
        """Correct entry ``index`` (0-based) of ``part``."""
        return cls(EditKind.REPLACE, dict(entry), _part(part), index, expected_version)

    correct = replace

    @classmethod
    def undo(cls, *, expected_version: int | None = None) -> Edit:
        return cls(EditKind.UNDO, expected_version=expected_version)

    @classmethod
    def redo(cls, *, expected_version: int | None = None) -> Edit:
        return cls(EditKind.REDO, expected_version=expected_version)

    @classmethod
    def remove_last(cls, *, expected_version: int | None = None) -> Edit:
        return cls(EditKind.REMOVE_LAST, expected_version=expected_version)

    @classmethod
    def set_part(cls, part: str | Part, value: Any, description: str, *, expected_version: int | None = None) -> Edit:
        """Set extra part ``part`` to ``value`` (``None`` removes it), logged as ``description``."""
        return cls(EditKind.SET_PART, copy.deepcopy(value), _part(part), None, expected_version, description)

    def at(self, version: int | None) -> Edit:
        """The same edit, made on ``version``."""
        return replace(self, expected_version=version)

    def entered_on(self, device: str) -> Edit:
        """The same edit, entered on ``device`` (see :attr:`device`)."""
        return replace(self, device=device)

    def saving_later(self) -> Edit:
        """The same edit, written to disk after it is made (see :attr:`saved_later`)."""
        return replace(self, saved_later=True)

    @property
    def draft_key(self) -> str | None:
        """The draft this edit lets go of on its :attr:`device` (``None``: none).

        >>> Edit.add({"up": "9S"}).draft_key, Edit.replace(2, {"up": "9S"}).draft_key, Edit.remove_last().draft_key
        ('new', 'hands/2', None)
        """
        if self.kind in (EditKind.ADD, EditKind.UNDO, EditKind.REDO):  # an undo or redo: the next hand starts anew
            return "new"
        if self.kind is EditKind.REPLACE:
            return f"{self.part.key}/{self.index}"
        return None


EDIT_REFUSALS: tuple[type[Exception], ...] = (
    StaleEditError,
    NothingToUndoError,
    NoSuchHandError,
    UnknownPartError,
    InvalidEditError,
    ScoringError,
)
"""What :meth:`TableSession.make` raises when it refuses an edit (nothing changed)."""


@dataclass
class _Snapshot:
    record: Record
    description: str
    replay: Replay | None = None
    """The replay of :attr:`record`, when the session had it: an undo or a redo then replays nothing."""


DraftWatcher = Callable[[str | None], None]
"""Told when writing a session's drafts starts failing (why) or works again (``None``)."""

HOST_DEVICE = "host"
"""The device whose drafts are the session's :attr:`TableSession.drafts`: the host's page (every other device,
a phone's seat at the live table, keeps its own: :func:`companion.sharing.device_of`)."""
MAX_DEVICES = MAX_DRAFT_DEVICES
"""Devices besides the host whose hands being entered a session keeps (the one that entered least recently goes
first)."""


@dataclass
class TableSession:
    """One game at the table: its saved document, the derived result, and undo/redo history.

    Thread-safe: every change takes the session's lock, so handlers running at once are serialised.
    """

    archive: Archive
    doc: SessionDoc
    result: Result
    version: int = 0
    """Bumped on every saved change; an edit made on an older version is refused (:class:`StaleEditError`)."""
    unsaved: Record | None = None
    """A change that scored fine but could not be written (full disk...): kept here so it can be saved again; or a
    change being saved (:attr:`saving`)."""
    save_error: str | None = None
    drafts: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The host's hands being entered but not confirmed yet, by what they are for: ``"new"`` (the next hand or
    extra-part entry) or ``"hands/2"`` (a correction). Kept in memory, so a reload or another screen finds them, and
    written to the archive's drafts, so a restart of the app finds them too."""
    device_drafts: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """The other devices' hands being entered (a phone's seat: :func:`companion.sharing.device_of`), by device,
    each as :attr:`drafts`: two devices entering the same hand never overwrite each other. When a change is saved,
    every device's drafts are checked against the new record and only those that still apply are kept
    (:meth:`_recheck_drafts`)."""
    _undo: list[_Snapshot] = field(default_factory=list)
    _redo: list[_Snapshot] = field(default_factory=list)
    _replay: Replay | None = None
    """The replay that gave :attr:`result`, kept so that the next hand is replayed on top of it (the hand only)."""
    _replayed: Record | None = None
    """The record :attr:`_replay` is of (the same object: records are never changed in place)."""
    _listeners: Listeners[TableSession] = field(default_factory=lambda: Listeners("a session listener"))
    _draft_watchers: Listeners[str | None] = field(default_factory=lambda: Listeners("a drafts watcher"))
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _owed: weakref.WeakSet[Debtor] = field(default_factory=weakref.WeakSet)
    """The entry panels whose last tap's draft is not written yet (:meth:`owe`)."""
    _pending: list[LogEntry] = field(default_factory=list)
    """The edit log's lines of the changes not written yet (:attr:`saving`): written with the next write."""
    _pending_done: bool = False
    """A change not written yet let go of a draft: the drafts are written after that write (:meth:`_commit`)."""

    # --- reading -------------------------------------------------------------------------------------------

    @property
    def saving(self) -> bool:
        """A change was made to be written after it is shown (:attr:`Edit.saved_later`) and is not on disk yet: it
        is in :attr:`unsaved`, its edit log's line waiting, until :meth:`save_pending` writes it (or the next
        change, with it)."""
        return bool(self._pending)

    @property
    def id(self) -> str:
        return self.doc.id

    @property
    def record(self) -> Record:
        """The current record (a copy; change it through the methods below)."""
        return copy.deepcopy(self.current)

    @property
    def current(self) -> Record:
        """The current record itself, not a copy: to read, never to change (records are never changed in place,
        so it stays as it is when the session moves on). Its result is :attr:`result`, scored once when it was
        made."""
        return self.unsaved if self.unsaved is not None else self.doc.record

    @property
    def players(self) -> list[str]:
        return list(self.doc.record["players"])

    @property
    def hands(self) -> list[dict[str, Any]]:
        return copy.deepcopy(entries(self.current, Part.HANDS))

    @property
    def step(self) -> Step:
        """What the table must play next."""
        return next_step(self.result)

    @property
    def game(self) -> str:
        return self.doc.game

    @property
    def log(self) -> list[str]:
        """The edit log's actions, oldest first (a change still being saved included: :attr:`saving`)."""
        return [entry.action for entry in [*self.doc.log, *self._pending]]

    def part(self, key: str | Part) -> list[Any]:
        """The entries of a part of the record (:func:`scoring.parts.entries`): ``hands`` or an extra part such as
        ``playoff`` (:class:`~scoring.parts.UnknownPartError` for another key)."""
        return copy.deepcopy(entries(self.current, _part(key)))

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_description(self) -> str | None:
        """What undo would take back (for the button's label)."""
        return self._undo[-1].description if self._undo else None

    @property
    def redo_description(self) -> str | None:
        return self._redo[-1].description if self._redo else None

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new", *, device: str = HOST_DEVICE) -> None:
        """Keep ``device``'s hand being entered for ``target`` (``None`` clears it); no listener is told.

        Also written to the archive's drafts (best effort: a disk that refuses costs only the copy on disk)."""
        with self._lock:
            if device == HOST_DEVICE:
                kept = self.drafts
            else:
                kept = self.device_drafts.pop(device, {})  # put back last: the device that entered most recently
                if kept or draft is not None:
                    self.device_drafts[device] = kept
                while len(self.device_drafts) > MAX_DEVICES:
                    self.device_drafts.pop(next(iter(self.device_drafts)))
            if draft is None:
                if kept.pop(target, None) is None:
                    return
                if not kept and device != HOST_DEVICE:
                    self.device_drafts.pop(device, None)
            else:
                kept[target] = copy.deepcopy(dict(draft))
            self._persist_drafts()

    def owe(self, debtor: Debtor) -> None:
        """``debtor`` (an entry panel's controller) has a tap whose draft it writes once the tap's reply has left:
        :meth:`settle` writes it if the app stops first."""
        with self._lock:
            self._owed.add(debtor)

    def settle(self) -> None:
        """Write every draft still owed (:meth:`owe`): the app is stopping, and a tap it has shown is not lost."""
        self.save_pending()
        with self._lock:
            owed, self._owed = list(self._owed), weakref.WeakSet()
        for debtor in owed:
            try:
                debtor.flush()
            except Exception:  # one panel's draft that cannot be kept does not stop the others'
                _log.warning("a hand being entered could not be kept", exc_info=True)

    def drafts_for(self, device: str) -> DeviceDrafts:
        """Where ``device`` keeps its hands being entered (a :class:`companion.entry.DraftStore`)."""
        return DeviceDrafts(self, device)

    def _recheck_drafts(self) -> bool:
        """The record changed (called with the lock held): keep each device's drafts only if they still apply to
        the new record (:func:`companion.drafts.draft_check`, as when the game opens); ``True`` if any was
        dropped."""
        if not self.drafts and not self.device_drafts:
            return False
        step = next_step(self.result)
        next_part = None if step is Step.FINISHED else part_for_step(step)
        check = draft_check(self.game, self.current, next_part=next_part)
        dropped = False
        for device, kept in [(HOST_DEVICE, self.drafts), *self.device_drafts.items()]:
            for target, draft in list(kept.items()):
                try:
                    check(target, draft)
                except (ValueError, KeyError, TypeError) as exc:
                    _log.info("the hand %s was entering (%s) no longer applies: %s", device, target, exc)
                    del kept[target]
                    dropped = True
        for device in [device for device, kept in self.device_drafts.items() if not kept]:
            del self.device_drafts[device]
        return dropped

    def _persist_drafts(self) -> None:
        if self.archive.read_only:
            return
        if self.saving and self.unsaved is not None and self._write(self.unsaved, self.result):
            # a change not written yet goes first, and its write writes the drafts: a draft says which state of
            # the game it was entered on by the length of the edit log on disk
            return
        before = self.draft_write_error
        try:
            self.archive.save_drafts(self.id, self.drafts, stamp=len(self.doc.log), devices=self.device_drafts)
        except StorageError as exc:  # one line, no traceback: the drafts stay in memory (storage logs a full disk)
            _log.warning("the hands being entered are kept in memory only: %s", exc)
        after = self.draft_write_error
        if after != before:
            for watcher in self._draft_watchers.each():
                watcher(after)

    @property
    def draft_write_error(self) -> str | None:
        """Why the hands being entered could not be written to disk the last time (a full disk...), ``None`` when
        they were: they are then kept in memory only, and a restart of the app would lose them."""
        if self.archive.read_only:
            return None
        return self.archive.draft_write_error(self.id)

    def watch_drafts(self, watcher: DraftWatcher) -> Callable[[], None]:
        """Call ``watcher(problem)`` on the thread of the tap when writing the drafts starts failing (``problem``
        says why) or works again (``None``); returns a function that stops it."""
        return self._draft_watchers.subscribe(watcher)

    def draft(self, target: str = "new", *, device: str = HOST_DEVICE) -> dict[str, Any] | None:
        """``device``'s hand being entered for ``target``, if any (a copy)."""
        with self._lock:
            kept = self.drafts if device == HOST_DEVICE else self.device_drafts.get(device, {})
            found = kept.get(target)
            return copy.deepcopy(found) if found is not None else None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(session)`` after every change; returns a function that unsubscribes."""
        return self._listeners.subscribe(listener)

    # --- checking ------------------------------------------------------------------------------------------

    def preview(self, record: Mapping[str, Any]) -> Result:
        """Score a candidate record without changing anything (raises :class:`ScoringError`); the current record
        itself is not scored again (its :attr:`result`)."""
        if record is self.current:
            return self.result
        return find_game(self.doc.game).score(record)

    def _replay_of(self, record: Record) -> Replay | None:
        """The kept replay of ``record``, if the session has it."""
        return self._replay if self._replay is not None and self._replayed is record else None

    def _derive(self, edit: Edit, record: Record) -> Replay:
        """The replay of ``record``, the record :meth:`_plan` made for ``edit`` (raises :class:`ScoringError`). A
        hand added to the main game is replayed on top of the current record's replay, so that a Confirm at hand
        60 replays one hand, as at hand 1; an undo or a redo returns to a record whose replay was kept with it; any
        other change replays the new record whole."""
        game = find_game(self.doc.game)
        if edit.kind is EditKind.UNDO or edit.kind is EditKind.REDO:
            stack = self._undo if edit.kind is EditKind.UNDO else self._redo
            if stack and stack[-1].record is record and stack[-1].replay is not None:
                return stack[-1].replay
        if edit.kind is EditKind.ADD and edit.part is Part.HANDS:
            current = self.current
            if self._replay is None or self._replayed is not current:
                self._replay, self._replayed = game.replay(current), current
            return self._replay.add(entries(record, Part.HANDS)[-1])
        return game.replay(record)

    def verify_hand(self, hand: Mapping[str, Any]) -> Result:
        """Score the record with ``hand`` appended, without changing anything (raises :class:`ScoringError`)."""
        return self.verify(Edit.add(hand))

    def can_add_hand(self, hand: Mapping[str, Any]) -> bool:
        return self.can_make(Edit.add(hand))

    def verify(self, edit: Edit) -> Result:
        """The result ``edit`` would give, without changing anything; raises what :meth:`make` would raise
        (:data:`EDIT_REFUSALS`: stale, nothing to undo, no such hand, an impossible hand...)."""
        with self._lock:
            self._check_version(edit.expected_version)
            record, _ = self._plan(edit)
            return self._derive(edit, record).result

    def can_make(self, edit: Edit) -> bool:
        """Whether :meth:`make` would make ``edit`` now (for greying out a control)."""
        return passes(lambda: self.verify(edit), EDIT_REFUSALS)

    # --- changing ------------------------------------------------------------------------------------------

    def make(self, edit: Edit) -> Result:
        """Make ``edit``: the new record is derived from the current one, scored (an impossible one is refused
        with its :class:`ScoringError` and nothing changes), saved and logged. Undo returns to the record before.

        Refusals (nothing changed) are :data:`EDIT_REFUSALS`; :class:`SaveFailedError` means the change is made
        and kept in memory but the disk refused it."""
        with self._lock:  # derive the new record from the current one and save it in one step
            self._check_version(edit.expected_version)
            record, description = self._plan(edit)
            replay = self._derive(edit, record)  # the one replay of this change: every reader reads ``result``
            result = replay.result
            current = self.current  # kept as it is for undo (never changed in place: no copy)
            kept = self._replay_of(current)
            saved = self._commit(record, result, description, done=self._entered(edit), later=edit.saved_later)
            self._replay, self._replayed = replay, record
            if edit.kind is EditKind.UNDO:
                self._redo.append(_Snapshot(current, self._undo.pop().description, kept))
            elif edit.kind is EditKind.REDO:
                self._undo.append(_Snapshot(current, self._redo.pop().description, kept))
            else:
                self._undo.append(_Snapshot(current, description, kept))
                self._redo.clear()
        self._notify()
        self._raise_unsaved(saved)
        return result

    def _plan(self, edit: Edit) -> tuple[Record, str]:
        """The record ``edit`` would make and its edit-log line (the session's errors if it cannot be made).

        The new record is a new top-level dict sharing every entry it keeps with the current one (nothing changes
        a record in place); only the entry added or corrected is copied from the edit."""
        kind = edit.kind
        if kind is EditKind.UNDO or kind is EditKind.REDO:
            stack = self._undo if kind is EditKind.UNDO else self._redo
            if not stack:
                none = N_("there is nothing to undo") if kind.value == "undo" else N_("there is nothing to redo")
                raise NothingToUndoError(Note.of(none))
            return stack[-1].record, f"{kind.value}: {stack[-1].description}"
        record = dict(self.current)
        part = edit.part
        game = find_game(self.game)
        if kind is EditKind.SET_PART:
            self._check_extra(part)
            if edit.entry is None:
                record.pop(part.key, None)
            else:
                record[part.key] = copy.deepcopy(edit.entry)
            return record, edit.description or f"{game.word(part)}s set"
        if kind is EditKind.REMOVE_LAST:
            hands = entries(record, Part.HANDS)
            if not hands:
                raise NoSuchHandError(f"there is no {game.word()} to remove")
            removed = f"{game.label(Part.HANDS, len(hands) - 1)} removed"
            return set_entries(record, Part.HANDS, hands[:-1], copy_entries=False), removed
        made = entries(record, part)
        entry = copy.deepcopy(dict(edit.entry))
        # set_entries writes the form records.md shows: a Feast and Famine tie-break of one round is one object,
        # a list once replayed; a part saved as a list stays a list when corrected.
        if kind is EditKind.ADD:
            entered = f"{game.word(part)} {len(made) + 1} entered"
            return set_entries(record, part, [*made, entry], copy_entries=False), entered
        index = edit.index if edit.index is not None else -1
        if not 0 <= index < len(made):
            raise NoSuchHandError(f"there is no {game.word(part)} {index + 1} in this game")
        change = describe_change(made[index], entry)
        made[index] = entry
        corrected = f"{game.word(part)} {index + 1} corrected: {change}"
        return set_entries(record, part, made, copy_entries=False), corrected

    def apply(self, record: Record, description: str, *, expected_version: int | None = None) -> Result:
        """Replace the record with ``record`` as a whole (host-side tools; a page makes an :class:`Edit`): scored
        first, saved, logged as ``description``. Undo returns to the previous record."""
        with self._lock:
            self._check_version(expected_version)
            record = copy.deepcopy(record)  # the caller's dict stays the caller's
            result = self.preview(record)
            previous = self.current
            kept = self._replay_of(previous)
            saved = self._commit(record, result, description)
            self._undo.append(_Snapshot(previous, description, kept))
            self._redo.clear()
        self._notify()
        self._raise_unsaved(saved)
        return result

    def add_hand(self, hand: Mapping[str, Any], *, expected_version: int | None = None) -> Result:
        """Append a hand (or round): ``make(Edit.add(hand))``."""
        return self.make(Edit.add(hand, expected_version=expected_version))

    def replace_hand(self, index: int, hand: Mapping[str, Any], *, expected_version: int | None = None) -> Result:
        """Correct hand ``index`` (0-based); everything after it is re-derived."""
        return self.make(Edit.replace(index, hand, expected_version=expected_version))

    def remove_last_hand(self, *, expected_version: int | None = None) -> Result:
        return self.make(Edit.remove_last(expected_version=expected_version))

    def set_part(self, key: str | Part, value: Any, description: str, *, expected_version: int | None = None) -> Result:
        """Set (or, with ``None``, remove) a top-level part of the record: a tie-break, sudden death, play-off."""
        return self.make(Edit.set_part(key, value, description, expected_version=expected_version))

    def append_part(self, key: str | Part, entry: Mapping[str, Any], *, expected_version: int | None = None) -> Result:
        """Append an entry to an extra part (a Jokers Kill play-off hand, a 1111-9999 sudden-death hand, a Feast and
        Famine tie-break round). A Feast and Famine tie-break of one round is saved as one object, and becomes a
        list of rounds when a round is replayed (records.md)."""
        return self.make(Edit.add(entry, part=key, expected_version=expected_version))

    def replace_part(
        self, key: str | Part, index: int, entry: Mapping[str, Any], *, expected_version: int | None = None
    ) -> Result:
        """Correct entry ``index`` (0-based) of ``hands`` or of an extra part. A part saved as one object (a Feast
        and Famine tie-break of one round, ``records.md``) stays one object."""
        return self.make(Edit.replace(index, entry, part=key, expected_version=expected_version))

    @staticmethod
    def _check_extra(part: Part) -> None:
        if not part.is_extra:
            known = ", ".join(extra.key for extra in EXTRA_PARTS)
            raise UnknownPartError(f"{part.key!r} is not an extra part of a game (one of {known})")

    def undo(self, *, expected_version: int | None = None) -> Result:
        """Take back the last change (it can be redone)."""
        return self.make(Edit.undo(expected_version=expected_version))

    def redo(self, *, expected_version: int | None = None) -> Result:
        """Make again the change that the last undo took back."""
        return self.make(Edit.redo(expected_version=expected_version))

    def save_pending(self) -> bool:
        """Write the change made to be written after it was shown (:attr:`Edit.saved_later`); nothing if none is
        waiting. ``False`` (and :attr:`save_error` set, the change kept in memory) if the disk refused: the
        session's listeners hear that, as after any failed save (the table screen's banner offers Retry save)."""
        with self._lock:
            if not self.saving or self.unsaved is None:
                return True
            saved = self._write(self.unsaved, self.result)
        if not saved:
            self._notify()
        return saved

    def retry_save(self) -> None:
        """Save again a change that could not be written before (raises :class:`SaveFailedError` again if the
        disk still refuses; the change stays in memory)."""
        with self._lock:
            if self.unsaved is None:
                return
            failed = self._failed_description or "changes"
            saved = self._commit(self.unsaved, self.result, f"saved after an earlier failure: {failed}")
        self._notify()
        self._raise_unsaved(saved)

    _failed_description: str | None = None

    def _check_version(self, expected_version: int | None) -> None:
        if expected_version is not None and expected_version != self.version:
            raise StaleEditError(
                Note.of(
                    N_("someone else changed this game a moment ago; the newest state is shown, please enter it again")
                )
            )

    def _entered(self, edit: Edit) -> bool:
        """Forget (in memory) the draft ``edit``'s entry was kept as on its device (called with the lock held):
        ``True`` if there was one, to be written with the change (:meth:`_commit`)."""
        key = edit.draft_key
        if edit.device is None or key is None:
            return False
        kept = self.drafts if edit.device == HOST_DEVICE else self.device_drafts.get(edit.device, {})
        if kept.pop(key, None) is None:
            return False
        if not kept and edit.device != HOST_DEVICE:
            self.device_drafts.pop(edit.device, None)
        return True

    def _commit(
        self,
        record: Record,
        result: Result,
        description: str,
        *,
        bump: bool = True,
        done: bool = False,
        later: bool = False,
    ) -> bool:
        """Make ``record`` current and save it; ``False`` (and ``save_error`` set) if the disk refused. ``done``: a
        draft was let go with this change (:meth:`_entered`), so the drafts are written after the save (once).
        ``later``: kept in :attr:`unsaved` and written by :meth:`save_pending` (:attr:`saving`), unless an earlier
        save failed (then it is tried now, and the banner stays if it fails again)."""
        self.result = result
        self._pending.append(LogEntry.now(description))
        self._pending_done = self._pending_done or done
        if later and self.save_error is None:
            self.unsaved = record  # its log line waits in _pending: saving
            saved = True
        else:
            saved = self._write(record, result)
        if bump:  # last: a reader that saw this version (without the lock) sees this record too
            self.version += 1
        return saved

    def _write(self, record: Record, result: Result) -> bool:
        """Save ``record`` with the edit log's lines not written yet (called with the lock held); see
        :meth:`_commit`."""
        *before, last = self._pending
        doc = self.doc.model_copy(
            update={
                "record": record,
                "status": status_of(result),
                "winners": list(result.winners),
                "log": [*self.doc.log, *before],
            }
        )
        done, self._pending, self._pending_done = self._pending_done, [], False
        try:
            self.doc = self.archive.save_session(doc, last)
        except StorageError as exc:
            self.unsaved = copy.deepcopy(record)
            self.save_error = str(exc)
            if self._failed_description is None:
                self._failed_description = last.action
            return False
        self.unsaved = None
        self.save_error = None
        self._failed_description = None
        had = done or bool(self.drafts or self.device_drafts)
        # still being entered: kept where they still apply to the new record, and they belong to it now
        if self._recheck_drafts() or had:
            self._persist_drafts()
        return True

    def _raise_unsaved(self, saved: bool) -> None:
        if not saved:
            raise SaveFailedError(f"{self.save_error}. The change is kept: use Retry save.")

    def _notify(self) -> None:
        self._listeners.notify(self)  # a listener that fails (a closed browser tab) is dropped; the others hear


@dataclass(frozen=True)
class DeviceDrafts:
    """One device's drafts in a session (a :class:`companion.entry.DraftStore`): what an entry panel on that
    device keeps and restores.

    >>> import tempfile, pathlib
    >>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
    >>> table = SessionService(archive).start("jokers-kill", ["Ann", "Ben", "Cat"])
    >>> table.drafts_for(HOST_DEVICE).set_draft({"up": "AS", "buried": [], "cards": {}, "tiebreaks": []})
    >>> table.drafts_for("seat:10.0.0.7").set_draft({"up": "KD", "buried": [], "cards": {}, "tiebreaks": []})
    >>> table.draft()["up"], table.draft(device="seat:10.0.0.7")["up"]
    ('AS', 'KD')
    >>> archive.close()
    """

    session: TableSession
    device: str

    def draft(self, target: str = "new") -> dict[str, Any] | None:
        return self.session.draft(target, device=self.device)

    def set_draft(self, draft: Mapping[str, Any] | None, target: str = "new") -> None:
        self.session.set_draft(draft, target, device=self.device)

    def owe(self, debtor: Debtor) -> None:
        self.session.owe(debtor)


class SessionService:
    """Starts and reopens table sessions over one archive; keeps one live :class:`TableSession` per id."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self._open: dict[str, TableSession] = {}
        self._lock = threading.RLock()
        self._started: list[Listener] = []

    def on_start(self, hook: Listener) -> None:
        """Call ``hook(session)`` after every :meth:`start` (the game nights add a game to the open night). A hook
        that fails is logged; the game is started all the same."""
        self._started.append(hook)

    def start(
        self,
        game: str,
        players: list[str],
        options: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
        title: str | None = None,
    ) -> TableSession:
        """Start a new game. ``extra`` holds other top-level record keys (1111-9999's ``sides``).

        Raises :class:`ScoringError` for an invalid set-up (too few players, an unknown option...)."""
        record: Record = {"game": game, "players": list(players), "options": dict(options or {}), "hands": []}
        record.update(copy.deepcopy(dict(extra or {})))
        replay = find_game(game).replay(record)
        result = replay.result
        doc = self.archive.create_session(record, status=status_of(result), winners=list(result.winners), title=title)
        session = TableSession(self.archive, doc, result, _replay=replay, _replayed=doc.record)
        with self._lock:
            self._open[doc.id] = session
        for hook in list(self._started):
            try:
                hook(session)
            except Exception:  # the game is saved and started; what the hook did not do is its own to report
                _log.warning("a hook on starting a game failed", exc_info=True)
        return session

    def open(self, session_id: str) -> TableSession:
        """The live session with this id (loaded and re-derived from its record on first use)."""
        with self._lock:
            if session_id in self._open:
                return self._open[session_id]
            doc = self.archive.load_session(session_id)
            replay = find_game(doc.game).replay(doc.record)
            result = replay.result
            # A draft that is not of its game's shape, or that its game's entry state cannot restore, is set aside
            # (reported on Home); the game opens without it.
            step = next_step(result)
            next_part = None if step is Step.FINISHED else part_for_step(step)
            check = draft_check(doc.game, doc.record, next_part=next_part)
            drafts, devices = self.archive.load_device_drafts(session_id, stamp=len(doc.log), check=check)
            session = TableSession(
                self.archive, doc, result, drafts=drafts, device_drafts=devices, _replay=replay, _replayed=doc.record
            )
            self._open[session_id] = session
            return session

    def settle(self) -> None:
        """Write the drafts every open game still owes (:meth:`TableSession.settle`): before the archive closes."""
        with self._lock:
            sessions = list(self._open.values())
        for session in sessions:
            session.settle()

    def unfinished(self) -> list[SessionSummary]:
        """Summaries of the sessions still being played (in progress or pending an extra part), newest first."""
        return [
            s for s in self.archive.list_sessions() if s.status in (SessionStatus.IN_PROGRESS, SessionStatus.PENDING)
        ]
