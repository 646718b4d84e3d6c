"""The core of the session archive: every session on TinyDB, crash-safe, with a sharded index so a save costs the
same with 10 or 10,000 sessions. Import, export and backups are separate jobs (:mod:`storage.imports`,
:mod:`storage.exports`, :mod:`storage.backup`) built on this class's public methods; :class:`storage.archive.Archive`
puts them together.

Layout of a data folder::

    .lock                    single-instance lock (flock)
    sessions/<id>.json       one small TinyDB per session: the document, its record and its edit log (the truth)
    index/<00..ff>.json      TinyDB shards (by a hash of the id) with a summary per session, for listing
    players.json             the player roster (TinyDB)
    backups/*.zip            rolling and manual backups
    damaged/<name>.<time>    files that could not be read, set aside (never overwritten)

Every write goes through :mod:`storage.atomic` (temp file, fsync, rename, fsync folder). A save writes the session
file first, then its index shard. If the app dies between the two, the next open notices (the session file's size
and modification time no longer match the index) and repairs the index from the session file.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ArchiveCore(folder) as archive:
...     doc = archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
...     doc = archive.save_session(doc.model_copy(update={"record": {**doc.record, "hands": [{"up": "5S"}]}}),
...                                "hand 1 entered")
>>> with ArchiveCore(folder) as archive:
...     [s.hands for s in archive.list_sessions()], [e.action for e in archive.load_session(doc.id).log]
([1], ['session started', 'hand 1 entered'])
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from tinydb import TinyDB
from tinydb.table import Document

from storage.atomic import (
    AtomicJSONStorage,
    StorageWriteError,
    atomic_write_document,
    atomic_write_json,
    fsync_dir,
    read_regular_bytes,
)
from storage.damage import DAMAGE_ERRORS, DamageNotice, DamageNotices, why
from storage.damage import set_aside as move_aside
from storage.errors import (
    ArchiveLockedError,
    ArchiveReadOnlyError,
    ArchiveUnwritableError,
    InvalidPlayerNameError,
    InvalidSessionError,
    SchemaVersionError,
    SessionDamagedError,
    SessionNotFoundError,
    StorageError,
)
from storage.layout import BACKUPS, DAMAGED, DRAFTS, INDEX, PLAYERS, SESSION_TABLE, SESSIONS, SHARD_TABLE, shard_of
from storage.locking import FolderLock, folder_in_use
from storage.models import (
    SCHEMA_VERSION,
    LogEntry,
    SessionDoc,
    SessionStatus,
    SessionSummary,
    check_id,
    record_fingerprint,
    utc_now,
)
from storage.roster import Roster, player_id_for

RECENT = 64
"""How many recently saved documents are kept in memory."""
UNPRINTED = 64
"""How many saved documents may wait for their record's fingerprint (beyond that, each save works out the oldest
one's: a bulk import pays for them as it goes, one a save)."""

_log = logging.getLogger(__name__)

DraftCheck = Callable[[str, dict[str, Any]], object]
"""Checks one draft (``target``, ``draft``) when drafts are loaded; raising ValueError, KeyError or TypeError sets
the drafts file aside."""

MAX_DRAFT_DEVICES = 64
"""Devices (besides the host) whose hands being entered one drafts file may hold."""
MAX_DEVICE_NAME = 100
"""The longest name of a device in a drafts file."""


def _drafts_shape(drafts: object) -> bool:
    """Whether ``drafts`` is ``{target: draft}`` with every draft an object."""
    return isinstance(drafts, dict) and all(isinstance(k, str) and isinstance(v, dict) for k, v in drafts.items())


class ArchiveCore:
    """Every session of one data folder. Thread-safe; one writer per folder (see :class:`ArchiveLockedError`).

    ``problems`` lists, in words, files that were set aside or skipped when the archive opened.
    ``unsaved`` keeps, per session id, a document whose save failed (full disk...) so it can be saved again.
    :meth:`take_damage_notices` hands out, once each, the files set aside (for a banner or a line on stderr).
    """

    def __init__(self, data_dir: Path, *, read_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.problems: list[str] = []
        self.notes: list[str] = []
        """The problems that are not files set aside (an import completed, a newer session skipped): what to show
        besides the damage notices."""
        self.damage = DamageNotices()
        """Files set aside (or left in place, read-only) and not reported yet; see :meth:`take_damage_notices`."""
        self.unsaved: dict[str, tuple[SessionDoc, LogEntry | None]] = {}
        self._lock = threading.RLock()
        self._folder_lock = FolderLock(self.data_dir)
        self._index: dict[str, SessionSummary] = {}
        self._meta: dict[str, tuple[int, int, int]] = {}
        """session id → (mtime_ns, size, inode) of its file when the index entry was written (every atomic write
        makes a new inode, so a save that the index missed is noticed even within one clock tick)."""
        self._shards: dict[str, set[str]] = {}
        self._dirty_shards: set[str] = set()
        self._recent: dict[str, tuple[tuple[int, int, int], tuple[LogEntry, ...], str]] = {}
        """For the last few sessions saved: the stat of the file written, its log and creation time (so that the
        next save need not re-read the file)."""
        self._unprinted: dict[str, bytes] = {}
        """session id → the document just written, whose record's fingerprint is not worked out yet: it is when a
        summary is read (:meth:`_fingerprint_saved`), not while a hand is being confirmed."""
        self._unprinted_shards: set[str] = set()
        """The shards whose rows on disk lack a fingerprint known in memory: written with their next save, or when
        the archive closes (a read does not write)."""
        self._draft_errors: dict[str, str] = {}
        """session id → why its drafts could not be written (the last warning logged), while that lasts."""
        self._generation = 0
        self._listed: dict[tuple[str | None, str | None, SessionStatus | None], list[SessionSummary]] = {}
        """(game, player, status) → the summaries :meth:`list_sessions` gave, newest first, while the index stays
        the same (emptied by every change to it): 10,000 rows are sorted once, not at every screen."""
        self._closed = False
        if read_only:
            self.other_instance = self.data_dir.is_dir() and folder_in_use(self.data_dir)
        else:
            self.other_instance = False
            self._open_for_writing()
        self._load_index()
        self.players = self._open_roster()

    @property
    def generation(self) -> int:
        """A number that grows with every change to the index (a session saved, created, deleted, imported, set
        aside or re-read): a reader that remembers it can tell that nothing changed without listing the sessions."""
        return self._generation

    @property
    def lock(self) -> threading.RLock:
        """The archive's lock (re-entrant): hold it to do several things with no save in between."""
        return self._lock

    def note(self, text: str) -> None:
        """Record a problem that is not a damaged file (in ``problems`` and ``notes``)."""
        self.problems.append(text)
        self.notes.append(text)

    def take_damage_notices(self) -> list[DamageNotice]:
        """The files set aside since the last call (each reported once); see :func:`storage.damage.describe_damage`."""
        return self.damage.take()

    # --- opening ------------------------------------------------------------------------------------------------

    def _open_for_writing(self) -> None:
        try:
            for sub in (SESSIONS, INDEX):
                (self.data_dir / sub).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveUnwritableError(
                f"the data folder {self.data_dir} cannot be created ({exc.strerror or exc}); "
                "choose another folder or check its permissions"
            ) from None
        try:
            locked = self._folder_lock.acquire()
        except OSError as exc:
            raise ArchiveUnwritableError(
                f"the data folder {self.data_dir} cannot be written ({exc.strerror or exc}); it can be opened read-only"
            ) from None
        if not locked:
            raise ArchiveLockedError(
                f"another Card Table Companion is already using the data folder {self.data_dir}; close it first, "
                "or open this one read-only to look without changing anything"
            )
        try:
            fd, probe = tempfile.mkstemp(prefix=".probe.", dir=self.data_dir / SESSIONS)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            self._folder_lock.release()
            raise ArchiveUnwritableError(
                f"the data folder {self.data_dir} cannot be written ({exc.strerror or exc}); it can be opened read-only"
            ) from None
        for folder in (self.data_dir, self.data_dir / SESSIONS, self.data_dir / INDEX, self.data_dir / BACKUPS):
            for leftover in folder.glob(".*.tmp"):  # a write cut short by a crash; its target is intact
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _session_path(self, session_id: str) -> Path:
        return self.data_dir / SESSIONS / f"{session_id}.json"

    def _shard_path(self, shard: str) -> Path:
        return self.data_dir / INDEX / f"{shard}.json"

    def set_aside(self, path: Path, reason: str) -> Path | None:
        """Move a damaged file (or whatever stands in its place) to ``damaged/<name>.<time>`` (never overwriting),
        note it in ``problems`` and in the damage notices.

        In a read-only archive the file stays where it is; the problem is still reported."""
        with self._lock:
            target = move_aside(self.data_dir, path, reason, self.damage, read_only=self.read_only)
            if self.read_only:
                self.problems.append(f"{path.name} could not be read ({reason}); it was left untouched (read-only)")
            elif target is None:
                self.problems.append(f"{path.name} could not be read ({reason}) nor set aside")
            else:
                self.problems.append(
                    f"{path.name} could not be read ({reason}); it was set aside as {DAMAGED}/{target.name} "
                    "and the rest of the archive is fine"
                )
            return target

    def _read_tinydb(self, path: Path, table: str) -> list[Document]:
        db = TinyDB(path, storage=AtomicJSONStorage)
        return db.table(table).all()

    def _read_session_file(self, session_id: str) -> SessionDoc:
        """Read and migrate a session file; FileNotFoundError if absent, a DAMAGE_ERRORS kind if unreadable."""
        path = self._session_path(session_id)
        if not os.path.lexists(path):
            raise FileNotFoundError(path)
        docs = self._read_tinydb(path, SESSION_TABLE)
        if not docs:
            raise InvalidSessionError("the file is empty")
        doc = SessionDoc.from_stored(dict(docs[0]))
        if doc.id != session_id:
            raise InvalidSessionError(f"it holds session {doc.id!r}, not {session_id!r}")
        return doc

    def _load_index(self) -> None:
        """Read every index shard, then reconcile it with the session files (the truth).

        The cyclic garbage collector is paused meanwhile: the tens of thousands of small objects made here hold
        no cycles, and collecting while they are made costs a third of the time."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            self._load_index_unpaused()
        finally:
            if was_enabled:
                gc.enable()

    def _load_index_unpaused(self) -> None:
        index_dir = self.data_dir / INDEX
        entries: dict[str, dict[str, Any]] = {}
        if index_dir.is_dir():
            for shard_file in sorted(index_dir.glob("*.json")):
                try:  # the raw TinyDB tables: no Document objects for 10,000 rows
                    tables = TinyDB(shard_file, storage=AtomicJSONStorage).storage.read() or {}
                    stem = shard_file.stem
                    for shard_row in tables.get(SHARD_TABLE, {}).values():
                        entries[str(shard_row["id"])] = shard_row
                        shard_row["_shard"] = stem
                except DAMAGE_ERRORS as exc:
                    self.set_aside(shard_file, why(exc))  # its sessions are re-indexed below from their files
                    self._dirty_shards.add(shard_file.stem)
        on_disk: dict[str, tuple[int, int, int]] = {}
        sessions_dir = self.data_dir / SESSIONS
        if sessions_dir.is_dir():
            with os.scandir(sessions_dir) as it:
                for entry in it:
                    name = entry.name
                    if name.startswith(".") or not name.endswith(".json"):
                        continue
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    on_disk[name[:-5]] = (st.st_mtime_ns, st.st_size, st.st_ino)
        index, metas, shards = self._index, self._meta, self._shards
        for session_id, meta in on_disk.items():
            row: dict[str, Any] | None = entries.get(session_id)
            if row is not None and (row.get("mtime_ns"), row.get("size"), row.get("inode")) == meta:
                try:
                    index[session_id] = SessionSummary.from_json(row)
                except DAMAGE_ERRORS:
                    self._reindex(session_id)  # a bad index row: rebuild it from the session file
                    continue
                metas[session_id] = meta
                shard = row["_shard"]
                if shard not in shards:
                    shards[shard] = set()
                shards[shard].add(session_id)
                continue
            self._reindex(session_id)
        for session_id, row in entries.items():
            if session_id not in on_disk:  # the session file is gone (deleted; the index write was cut short)
                self._dirty_shards.add(row["_shard"])
        self._flush_shards()

    def _reindex(self, session_id: str) -> None:
        """Rebuild the index entry of one session from its file (setting the file aside if it is damaged)."""
        path = self._session_path(session_id)
        try:
            check_id(session_id)
            doc = self._read_session_file(session_id)
            st = path.stat()
        except FileNotFoundError:
            return
        except SchemaVersionError as exc:
            self.note(f"session {session_id} was skipped: {exc}")
            return
        except DAMAGE_ERRORS as exc:
            self.set_aside(path, why(exc))
            return
        self._remember(SessionSummary.of(doc), (st.st_mtime_ns, st.st_size, st.st_ino))
        self._dirty_shards.add(shard_of(session_id))

    def _remember(self, summary: SessionSummary, meta: tuple[int, int, int], shard: str | None = None) -> None:
        self._generation += 1
        self._listed.clear()
        self._index[summary.id] = summary
        self._meta[summary.id] = meta
        self._shards.setdefault(shard or shard_of(summary.id), set()).add(summary.id)

    def _forget(self, session_id: str) -> None:
        self._generation += 1
        self._listed.clear()
        self._unprinted.pop(session_id, None)
        self._recent.pop(session_id, None)
        self._index.pop(session_id, None)
        self._meta.pop(session_id, None)
        shard = shard_of(session_id)
        self._shards.get(shard, set()).discard(session_id)
        self._dirty_shards.add(shard)

    def _fingerprint_saved(self) -> None:
        """Work out the fingerprints of the records saved since the last call, into their summaries; their index
        shards get them when they are next written (a save into the shard, or closing the archive). A row written
        before then holds no fingerprint, and a row without one is rebuilt from its session file on the next
        open."""
        while self._unprinted:
            self._fingerprint_oldest()

    def _fingerprint_oldest(self) -> None:
        session_id, written = next(iter(self._unprinted.items()))
        del self._unprinted[session_id]
        summary = self._index.get(session_id)
        if summary is not None:
            record = json.loads(written)["record"]
            self._index[session_id] = summary._replace(fingerprint=record_fingerprint(record))
            self._listed.clear()
            self._unprinted_shards.add(shard_of(session_id))

    def _flush_shards(self) -> None:
        """Write the index shards changed in memory. Best effort: the session files stay the truth."""
        if self.read_only:
            self._dirty_shards.clear()
            return
        for shard in sorted(self._dirty_shards):
            ids = sorted(i for i in self._shards.get(shard, ()) if i in self._index)
            rows = {}
            for n, sid in enumerate(ids, start=1):
                mtime_ns, size, inode = self._meta[sid]
                rows[str(n)] = {**self._index[sid].to_json(), "mtime_ns": mtime_ns, "size": size, "inode": inode}
            try:
                # Not fsynced: the index can always be rebuilt from the session files, which are.
                TinyDB(self._shard_path(shard), storage=AtomicJSONStorage, durable=False).storage.write(
                    {SHARD_TABLE: rows}
                )
            except StorageWriteError:
                continue  # stays dirty; written with the next save, or repaired on the next open
            self._dirty_shards.discard(shard)
            self._unprinted_shards.discard(shard)

    def _open_roster(self) -> Roster:
        path = self.data_dir / PLAYERS
        try:
            return Roster(path, self._lock, read_only=self.read_only)
        except DAMAGE_ERRORS as exc:
            self.set_aside(path, why(exc))
        if self.read_only:
            return Roster.empty(path, self._lock)
        roster = Roster(path, self._lock)
        self._rebuild_roster(roster)
        return roster

    def _rebuild_roster(self, roster: Roster) -> None:
        """Fill an empty roster from the sessions, keeping every player's id: the ids each session recorded
        (``player_ids``), else one derived from the name (:func:`~storage.roster.player_id_for`). A player known
        under several names (renamed) gets the name of their latest session and the others as history."""
        names_of: dict[str, dict[str, str]] = {}  # player id -> name -> latest updated_at
        for summary in sorted(self._index.values(), key=lambda s: (s.updated_at, s.id)):
            try:
                ids = self._read_session_file(summary.id).player_ids
            except (FileNotFoundError, StorageError, *DAMAGE_ERRORS):
                ids = {}
            for name in summary.players:
                pid = ids.get(name) or player_id_for(name)
                names_of.setdefault(pid, {})[name] = summary.updated_at
        for pid, names in sorted(names_of.items()):
            ordered = sorted(names, key=lambda n: names[n])
            current, history = ordered[-1], tuple(ordered[:-1])
            with contextlib.suppress(StorageError):
                roster.add(current, player_id=pid, history=history)

    # --- closing ------------------------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            with contextlib.suppress(StorageError):
                self._fingerprint_saved()
                self._dirty_shards |= self._unprinted_shards
                self._flush_shards()
            self._folder_lock.release()
            self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def check_writable(self) -> None:
        """Raise :class:`ArchiveReadOnlyError` (or :class:`StorageError` once closed) unless changes may be made."""
        if self._closed:
            raise StorageError("the archive has been closed")
        if self.read_only:
            raise ArchiveReadOnlyError(
                "the archive is open read-only (another Card Table Companion may be using it): nothing can be saved"
            )

    # --- sessions -----------------------------------------------------------------------------------------------

    def create_session(
        self,
        record: dict[str, Any],
        *,
        status: SessionStatus = SessionStatus.IN_PROGRESS,
        winners: list[str] | None = None,
        title: str | None = None,
    ) -> SessionDoc:
        """Start a session for ``record`` and save it (on disk before it returns); its players join the roster
        (first, so that the session records their ids)."""
        doc = SessionDoc.new(record, status=status, winners=winners, title=title)
        with self._lock:
            self.check_writable()
            for name in doc.players:
                with contextlib.suppress(InvalidPlayerNameError, StorageWriteError):
                    self.players.ensure(name)
            return self.save_session(doc, LogEntry(at=doc.created_at, action="session started"))

    def save_session(self, doc: SessionDoc, log: LogEntry | str | None = None) -> SessionDoc:
        """Save ``doc`` with ``log`` appended to its edit log; returns the saved document.

        The log is append-only: entries already saved are kept as saved, whatever ``doc.log`` says; entries that
        ``doc.log`` adds after them are kept. The session is on disk before this returns. If the disk refuses
        (:class:`StorageWriteError`: full, no permission) the previous state stays on disk, ``doc`` is unchanged,
        and it is kept in ``unsaved`` so it can be saved again.
        """
        entry = LogEntry.now(log) if isinstance(log, str) else log
        with self._lock:
            self.check_writable()
            session_id = check_id(doc.id)
            synced = doc.synced()
            path = self._session_path(session_id)
            try:
                stored: tuple[tuple[LogEntry, ...], str] | None = self._stored(session_id)
            except FileNotFoundError:
                stored = None
            except SchemaVersionError:
                raise
            except DAMAGE_ERRORS as exc:
                self.set_aside(path, why(exc))  # keep the damaged copy; the caller's document is complete
                stored = None
            if stored is not None:
                base, created = list(stored[0]), stored[1]
                extra = synced.log[len(base) :] if synced.log[: len(base)] == base else []
            else:
                base, extra, created = [], list(synced.log), synced.created_at
            ids = {name: synced.player_ids[name] for name in synced.players if name in synced.player_ids}
            missing = [name for name in synced.players if name not in ids]
            if missing:
                ids.update(self.players.ids_of(missing))
            new = synced.model_copy(
                update={
                    "player_ids": ids,
                    "schema_version": SCHEMA_VERSION,
                    "created_at": created,
                    "updated_at": utc_now(),
                    "log": [*base, *extra, *([entry] if entry is not None else [])],
                }
            )
            try:
                written = self._write_session_file(path, new)
                st = path.stat()
            except StorageWriteError:
                self.unsaved[session_id] = (doc, entry)
                raise
            self.unsaved.pop(session_id, None)
            meta = (st.st_mtime_ns, st.st_size, st.st_ino)
            self._forget(session_id)
            self._remember(SessionSummary.of(new, fingerprint=""), meta)
            self._unprinted[session_id] = written
            if len(self._unprinted) > UNPRINTED:  # many sessions saved and none listed (an import): one at a time
                self._fingerprint_oldest()
            self._recent[session_id] = (meta, tuple(new.log), new.created_at)
            if len(self._recent) > RECENT:
                self._recent.pop(next(iter(self._recent)))
            self._flush_shards()
            return new

    def _write_session_file(self, path: Path, doc: SessionDoc) -> bytes:
        """Write the session's TinyDB file whole (one table, one document) with one atomic, durable write; returns
        the document as written (its JSON).

        The stored document has just been read (or is cached), so TinyDB's read-modify-write is not needed. The
        document is serialised by pydantic straight to JSON (:meth:`~storage.models.SessionDoc.to_stored_json`):
        a long game's file is written as fast as a short one's."""
        written = doc.to_stored_json()
        atomic_write_document(path, SESSION_TABLE, written)
        return written

    def _stored(self, session_id: str) -> tuple[tuple[LogEntry, ...], str]:
        """The saved log and creation time: from the cache of recent saves if the file is still the one written
        (LogEntry is frozen, so the cache cannot be changed through a returned document), else read from disk."""
        cached = self._recent.get(session_id)
        if cached is not None:
            try:
                st = self._session_path(session_id).stat()
            except FileNotFoundError:
                self._recent.pop(session_id, None)
                raise
            if (st.st_mtime_ns, st.st_size, st.st_ino) == cached[0]:
                return cached[1], cached[2]
            self._recent.pop(session_id, None)
        doc = self._read_session_file(session_id)
        return tuple(doc.log), doc.created_at

    def retry_unsaved(self) -> list[SessionDoc]:
        """Save again every document whose save failed; returns those saved (raises if the disk still refuses)."""
        with self._lock:
            saved = []
            for doc, entry in list(self.unsaved.values()):
                saved.append(self.save_session(doc, entry))
            return saved

    def load_session(self, session_id: str) -> SessionDoc:
        """The saved session (raises :class:`SessionNotFoundError`, :class:`SessionDamagedError`)."""
        try:
            check_id(session_id)
        except InvalidSessionError:
            raise SessionNotFoundError(f"there is no saved session {session_id!r}") from None
        with self._lock:
            try:
                return self._read_session_file(session_id)
            except FileNotFoundError:
                raise SessionNotFoundError(f"there is no saved session {session_id!r}") from None
            except SchemaVersionError:
                raise
            except DAMAGE_ERRORS as exc:
                where = self.set_aside(self._session_path(session_id), why(exc))
                self._forget(session_id)
                self._flush_shards()
                kept = f"; the file was kept as {DAMAGED}/{where.name}" if where is not None else ""
                raise SessionDamagedError(f"the saved session {session_id} cannot be read ({why(exc)}){kept}") from None

    def has_session(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._index

    def summary(self, session_id: str) -> SessionSummary:
        with self._lock:
            self._fingerprint_saved()
            try:
                return self._index[session_id]
            except KeyError:
                raise SessionNotFoundError(f"there is no saved session {session_id!r}") from None

    def list_sessions(
        self,
        game: str | None = None,
        player: str | None = None,
        status: SessionStatus | str | None = None,
    ) -> list[SessionSummary]:
        """Summaries of the saved sessions, newest first, optionally only one game, player or status."""
        wanted = SessionStatus(status) if status is not None else None
        with self._lock:
            self._fingerprint_saved()
            key = (game, player, wanted)
            known = self._listed.get(key)
            if known is not None:
                return list(known)
            rows: Iterable[SessionSummary] = list(self._index.values())
            out = [
                s
                for s in rows
                if (game is None or s.game == game)
                and (player is None or player in s.players)
                and (wanted is None or s.status is wanted)
            ]
            out.sort(key=lambda s: (s.updated_at, s.id), reverse=True)
            if len(self._listed) > 32:  # a filter per player, say: keep a few
                self._listed.clear()
            self._listed[key] = out
            return list(out)

    def __len__(self) -> int:
        return len(self._index)

    def find_fingerprint(self, fingerprint: str) -> SessionSummary | None:
        """A saved session whose record has this fingerprint, if any."""
        with self._lock:
            self._fingerprint_saved()
            for s in self._index.values():
                if s.fingerprint == fingerprint:
                    return s
        return None

    def delete_session(self, session_id: str) -> None:
        """Delete a session for good (backups still hold it)."""
        with self._lock:
            self.check_writable()
            check_id(session_id)
            path = self._session_path(session_id)
            try:
                path.unlink()
            except FileNotFoundError:
                if session_id not in self._index:
                    raise SessionNotFoundError(f"there is no saved session {session_id!r}") from None
            except OSError as exc:
                raise StorageWriteError(path, exc) from exc
            fsync_dir(path.parent)
            with contextlib.suppress(OSError):
                self._drafts_path(session_id).unlink(missing_ok=True)
            self.unsaved.pop(session_id, None)
            self._forget(session_id)
            self._flush_shards()

    # --- hands being entered ----------------------------------------------------------------------------------

    def _drafts_path(self, session_id: str) -> Path:
        return self.data_dir / DRAFTS / f"{session_id}.drafts.json"

    def save_drafts(
        self, session_id: str, drafts: dict[str, Any], *, stamp: int, devices: dict[str, dict[str, Any]] | None = None
    ) -> bool:
        """Keep the hands being entered for a session (not confirmed yet), so that a restart of the app finds them;
        ``True`` if they are on disk.

        ``stamp`` says which state of the session they were entered on (its edit log's length):
        :meth:`load_drafts` drops drafts whose session has changed since. Written atomically but without fsync
        (drafts are written on every tap): they survive the app being killed, and a power cut may cost the
        half-entered hand, never a confirmed one. No drafts: the file is removed.

        ``drafts`` are the host's (the file's ``drafts``, as before devices had their own); ``devices`` the other
        devices' (a phone's seat: ``{device: {target: draft}}``, the file's ``devices``, left out when empty), so a
        file written before devices had their own drafts reads as the host's, and one written now still reads in
        an app that knows only the host's.

        A disk that refuses (full, no permission) is not an error here: the drafts stay with the caller, in
        memory, this returns ``False``, and one warning line is logged when the failure starts (or its reason
        changes) and one when writing works again, not one per tap; :meth:`draft_write_error` says why meanwhile.
        """
        with self._lock:
            self.check_writable()
            check_id(session_id)
            path = self._drafts_path(session_id)
            try:
                others = {device: kept for device, kept in (devices or {}).items() if kept}
                if not drafts and not others:
                    try:
                        path.unlink(missing_ok=True)
                    except IsADirectoryError:
                        self.set_aside(path, "it is a folder, not a file")
                    except OSError as exc:
                        raise StorageWriteError(path, exc) from exc
                else:
                    try:
                        path.parent.mkdir(exist_ok=True)
                    except OSError as exc:
                        raise StorageWriteError(path.parent, exc) from exc
                    if path.is_dir() and not path.is_symlink():  # a folder in its place: out of the way first
                        self.set_aside(path, "it is a folder, not a file")
                    data: dict[str, Any] = {"session": session_id, "stamp": stamp, "drafts": drafts}
                    if others:
                        data["devices"] = others
                    atomic_write_json(path, data, durable=False)
            except StorageWriteError as exc:
                reason = str(exc)
                if self._draft_errors.get(session_id) != reason:
                    _log.warning("hands being entered are kept in memory only: %s", reason)
                    self._draft_errors[session_id] = reason
                return False
            if self._draft_errors.pop(session_id, None) is not None:
                _log.warning("hands being entered are written to disk again (session %s)", session_id)
            return True

    def draft_write_error(self, session_id: str) -> str | None:
        """Why the drafts of a session could not be written the last time (``None`` if they were)."""
        with self._lock:
            return self._draft_errors.get(session_id)

    def load_drafts(self, session_id: str, *, stamp: int, check: DraftCheck | None = None) -> dict[str, Any]:
        """The host's hands being entered that :meth:`save_drafts` kept for this session, if its state is still
        ``stamp``; otherwise (or if there are none) ``{}`` (:meth:`load_device_drafts` has every device's)."""
        return self.load_device_drafts(session_id, stamp=stamp, check=check)[0]

    def load_device_drafts(
        self, session_id: str, *, stamp: int, check: DraftCheck | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """The hands being entered that :meth:`save_drafts` kept for this session, if its state is still
        ``stamp``: the host's, and the other devices' by device; otherwise (or if there are none) empty.

        A file that cannot be read, is not of the drafts' shape (``session``, an integer ``stamp``, ``drafts``
        of objects, ``devices`` if there of at most :data:`MAX_DRAFT_DEVICES` devices' drafts), or whose drafts
        ``check(target, draft)`` refuses (raising ValueError, KeyError or TypeError: a key the entry screen needs is
        missing) is set aside, never an error: the game opens without it."""
        with self._lock:
            check_id(session_id)
            path = self._drafts_path(session_id)
            try:
                data = json.loads(read_regular_bytes(path))
                if not isinstance(data, dict) or data.get("session") != session_id:
                    raise InvalidSessionError(f"it does not hold the drafts of session {session_id}")
                saved_stamp, drafts = data.get("stamp"), data["drafts"]
                devices = data.get("devices", {})
                if not isinstance(saved_stamp, int) or isinstance(saved_stamp, bool):
                    raise InvalidSessionError("its stamp is missing or not a number")
                if not _drafts_shape(drafts):
                    raise InvalidSessionError("its drafts are not objects")
                if (
                    not isinstance(devices, dict)
                    or len(devices) > MAX_DRAFT_DEVICES
                    or not all(
                        isinstance(k, str) and 0 < len(k) <= MAX_DEVICE_NAME and _drafts_shape(v)
                        for k, v in devices.items()
                    )
                ):
                    raise InvalidSessionError("its devices' drafts are not objects")
                if saved_stamp != stamp:
                    return {}, {}
                if check is not None:
                    for kept in (drafts, *devices.values()):
                        for target, draft in kept.items():
                            check(target, draft)
            except FileNotFoundError:
                return {}, {}
            except DAMAGE_ERRORS as exc:
                self.set_aside(path, why(exc))
                return {}, {}
            return drafts, devices

    def reindex_all(self) -> None:
        """Forget the index and rebuild it from every session file (after a restore)."""
        with self._lock:
            for shard in list(self._shards):
                self._dirty_shards.add(shard)
            self._generation += 1
            self._listed.clear()
            self._index.clear()
            self._meta.clear()
            self._shards.clear()
            self._unprinted.clear()  # documents written before: their fingerprints would land on other records
            self._recent.clear()
            for path in sorted((self.data_dir / SESSIONS).glob("*.json")):
                self._reindex(path.stem)
            self._dirty_shards.update(f"{n:02x}" for n in range(256))
            self._flush_shards()
