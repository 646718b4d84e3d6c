"""The session archive: every session on TinyDB, crash-safe, with a sharded index so a save costs the same with
10 or 10,000 sessions.

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
>>> with Archive(folder) as archive:
...     doc = archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
...     doc = archive.save_session(doc.model_copy(update={"record": {**doc.record, "hands": [{"up": "5S"}]}}),
...                                "hand 1 entered")
>>> with Archive(folder) as archive:
...     [s.hands for s in archive.list_sessions()], [e.action for e in archive.load_session(doc.id).log]
([1], ['session started', 'hand 1 entered'])
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB
from tinydb.table import Document

from storage.atomic import AtomicJSONStorage, StorageWriteError, atomic_write_json, fsync_dir
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
from storage.locking import FolderLock
from storage.models import (
    SCHEMA_VERSION,
    LogEntry,
    SessionDoc,
    SessionStatus,
    SessionSummary,
    check_id,
    utc_now,
)
from storage.roster import Roster

if TYPE_CHECKING:
    from storage.transfer import ImportReport

SESSIONS = "sessions"
INDEX = "index"
DAMAGED = "damaged"
BACKUPS = "backups"
DRAFTS = "drafts"
PLAYERS = "players.json"
SESSION_TABLE = "session"
SHARD_TABLE = "sessions"
RECENT = 64
"""How many recently saved documents are kept in memory."""
DAMAGE_ERRORS = (json.JSONDecodeError, UnicodeDecodeError, InvalidSessionError, KeyError, TypeError, ValueError)
"""What reading a damaged or truncated file raises."""


def shard_of(session_id: str) -> str:
    """The index shard (two hex digits, 256 shards) that holds a session's summary.

    >>> shard_of("abc")
    'a9'
    """
    return hashlib.sha1(session_id.encode("utf-8")).hexdigest()[:2]


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


class Archive:
    """Every session of one data folder. Thread-safe; one writer per folder (see :class:`ArchiveLockedError`).

    ``problems`` lists, in words, files that were set aside or skipped when the archive opened.
    ``unsaved`` keeps, per session id, a document whose save failed (full disk...) so it can be saved again.
    """

    def __init__(self, data_dir: Path, *, read_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.problems: list[str] = []
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
        self._closed = False
        if read_only:
            self.other_instance = self.data_dir.is_dir() and self._probe_locked()
        else:
            self.other_instance = False
            self._open_for_writing()
        self._load_index()
        self.players = self._open_roster()
        if not read_only:
            self._finish_pending_import()

    # --- opening ------------------------------------------------------------------------------------------------

    def _finish_pending_import(self) -> None:
        """Complete an import that a crash cut short (its journal is still there; see :mod:`storage.cli_support`)."""
        from storage.cli_support import replay_pending_import

        try:
            note = replay_pending_import(self)
        except StorageError as exc:  # the disk refuses: the journal stays, and the next open tries again
            note = f"an interrupted import could not be completed yet ({exc})"
        if note is not None:
            self.problems.append(note)

    def _probe_locked(self) -> bool:
        probe = FolderLock(self.data_dir)
        try:
            if probe.acquire():
                probe.release()
                return False
            return True
        except OSError:
            return False

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
        for folder in (self.data_dir, self.data_dir / SESSIONS, self.data_dir / INDEX):
            for leftover in folder.glob(".*.tmp"):  # a write cut short by a crash; its target is intact
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _session_path(self, session_id: str) -> Path:
        return self.data_dir / SESSIONS / f"{session_id}.json"

    def _shard_path(self, shard: str) -> Path:
        return self.data_dir / INDEX / f"{shard}.json"

    def set_aside(self, path: Path, why: str) -> Path | None:
        """Move a damaged file to ``damaged/<name>.<time>`` (never overwriting) and note it in ``problems``.

        In a read-only archive the file stays where it is; the problem is still reported."""
        with self._lock:
            if self.read_only:
                self.problems.append(f"{path.name} could not be read ({why}); it was left untouched (read-only)")
                return None
            target_dir = self.data_dir / DAMAGED
            try:
                target_dir.mkdir(exist_ok=True)
                target = target_dir / f"{path.name}.{_stamp()}"
                n = 1
                while target.exists():
                    target = target_dir / f"{path.name}.{_stamp()}.{n}"
                    n += 1
                os.replace(path, target)
                fsync_dir(target_dir)
                fsync_dir(path.parent)
            except OSError as exc:
                self.problems.append(f"{path.name} could not be read ({why}) nor set aside ({exc.strerror or exc})")
                return None
            self.problems.append(
                f"{path.name} could not be read ({why}); it was set aside as {DAMAGED}/{target.name} "
                "and the rest of the archive is fine"
            )
            return target

    def _read_tinydb(self, path: Path, table: str) -> list[Document]:
        db = TinyDB(path, storage=AtomicJSONStorage)
        return db.table(table).all()

    def _read_session_file(self, session_id: str) -> SessionDoc:
        """Read and migrate a session file; FileNotFoundError if absent, a DAMAGE_ERRORS kind if unreadable."""
        path = self._session_path(session_id)
        if not path.exists():
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
                    self.set_aside(shard_file, _why(exc))  # its sessions are re-indexed below from their files
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
            self.problems.append(f"session {session_id} was skipped: {exc}")
            return
        except DAMAGE_ERRORS as exc:
            self.set_aside(path, _why(exc))
            return
        self._remember(SessionSummary.of(doc), (st.st_mtime_ns, st.st_size, st.st_ino))
        self._dirty_shards.add(shard_of(session_id))

    def _remember(self, summary: SessionSummary, meta: tuple[int, int, int], shard: str | None = None) -> None:
        self._index[summary.id] = summary
        self._meta[summary.id] = meta
        self._shards.setdefault(shard or shard_of(summary.id), set()).add(summary.id)

    def _forget(self, session_id: str) -> None:
        self._recent.pop(session_id, None)
        self._index.pop(session_id, None)
        self._meta.pop(session_id, None)
        shard = shard_of(session_id)
        self._shards.get(shard, set()).discard(session_id)
        self._dirty_shards.add(shard)

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

    def _open_roster(self) -> Roster:
        path = self.data_dir / PLAYERS
        try:
            return Roster(path, self._lock, read_only=self.read_only)
        except DAMAGE_ERRORS as exc:
            self.set_aside(path, _why(exc))
        roster = Roster(path, self._lock, read_only=self.read_only) if not self.read_only else _empty_roster(self)
        if not self.read_only:  # rebuild the roster from the players of every session
            for name in sorted({p for s in self._index.values() for p in s.players}):
                with contextlib.suppress(StorageError):
                    roster.ensure(name)
        return roster

    # --- closing ------------------------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            with contextlib.suppress(StorageError):
                self._flush_shards()
            self._folder_lock.release()
            self._closed = True

    def __enter__(self) -> Archive:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _writable(self) -> None:
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
        """Start a session for ``record`` and save it (on disk before it returns)."""
        doc = SessionDoc.new(record, status=status, winners=winners, title=title)
        with self._lock:
            saved = self.save_session(doc, LogEntry(at=doc.created_at, action="session started"))
            for name in saved.players:
                with contextlib.suppress(InvalidPlayerNameError, StorageWriteError):
                    self.players.ensure(name)
            return saved

    def save_session(self, doc: SessionDoc, log: LogEntry | str | None = None) -> SessionDoc:
        """Save ``doc`` with ``log`` appended to its edit log; returns the saved document.

        The log is append-only: entries already saved are kept as saved, whatever ``doc.log`` says; entries that
        ``doc.log`` adds after them are kept. The session is on disk before this returns. If the disk refuses
        (:class:`StorageWriteError`: full, no permission) the previous state stays on disk, ``doc`` is unchanged,
        and it is kept in ``unsaved`` so it can be saved again.
        """
        entry = LogEntry.now(log) if isinstance(log, str) else log
        with self._lock:
            self._writable()
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
                self.set_aside(path, _why(exc))  # keep the damaged copy; the caller's document is complete
                stored = None
            if stored is not None:
                base, created = list(stored[0]), stored[1]
                extra = synced.log[len(base) :] if synced.log[: len(base)] == base else []
            else:
                base, extra, created = [], list(synced.log), synced.created_at
            new = synced.model_copy(
                update={
                    "schema_version": SCHEMA_VERSION,
                    "created_at": created,
                    "updated_at": utc_now(),
                    "log": [*base, *extra, *([entry] if entry is not None else [])],
                }
            )
            data = new.to_stored()
            try:
                self._write_session_file(path, data)
                st = path.stat()
            except StorageWriteError:
                self.unsaved[session_id] = (doc, entry)
                raise
            self.unsaved.pop(session_id, None)
            meta = (st.st_mtime_ns, st.st_size, st.st_ino)
            self._forget(session_id)
            self._remember(SessionSummary.of(new), meta)
            self._recent[session_id] = (meta, tuple(new.log), new.created_at)
            if len(self._recent) > RECENT:
                self._recent.pop(next(iter(self._recent)))
            self._flush_shards()
            return new

    def _write_session_file(self, path: Path, data: dict[str, Any]) -> None:
        """Write the session's TinyDB file whole (one table, one document) with one atomic, durable write.

        The stored document has just been read (or is cached), so TinyDB's read-modify-write is not needed."""
        TinyDB(path, storage=AtomicJSONStorage).storage.write({SESSION_TABLE: {"1": data}})

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
                where = self.set_aside(self._session_path(session_id), _why(exc))
                self._forget(session_id)
                self._flush_shards()
                kept = f"; the file was kept as {DAMAGED}/{where.name}" if where is not None else ""
                raise SessionDamagedError(
                    f"the saved session {session_id} cannot be read ({_why(exc)}){kept}"
                ) from None

    def has_session(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._index

    def summary(self, session_id: str) -> SessionSummary:
        with self._lock:
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
            rows: Iterable[SessionSummary] = list(self._index.values())
        out = [
            s
            for s in rows
            if (game is None or s.game == game)
            and (player is None or player in s.players)
            and (wanted is None or s.status is wanted)
        ]
        out.sort(key=lambda s: (s.updated_at, s.id), reverse=True)
        return out

    def __len__(self) -> int:
        return len(self._index)

    def find_fingerprint(self, fingerprint: str) -> SessionSummary | None:
        """A saved session whose record has this fingerprint, if any."""
        with self._lock:
            for s in self._index.values():
                if s.fingerprint == fingerprint:
                    return s
        return None

    def delete_session(self, session_id: str) -> None:
        """Delete a session for good (backups still hold it)."""
        with self._lock:
            self._writable()
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

    def save_drafts(self, session_id: str, drafts: dict[str, Any], *, stamp: int) -> None:
        """Keep the hands being entered for a session (not confirmed yet), so that a restart of the app finds them.

        ``stamp`` says which state of the session they were entered on (its edit log's length):
        :meth:`load_drafts` drops drafts whose session has changed since. Written atomically but without fsync
        (drafts are written on every tap): they survive the app being killed, and a power cut may cost the
        half-entered hand, never a confirmed one. No drafts: the file is removed.
        """
        with self._lock:
            self._writable()
            check_id(session_id)
            path = self._drafts_path(session_id)
            if not drafts:
                try:
                    path.unlink(missing_ok=True)
                except OSError as exc:
                    raise StorageWriteError(path, exc) from exc
                return
            try:
                path.parent.mkdir(exist_ok=True)
            except OSError as exc:
                raise StorageWriteError(path.parent, exc) from exc
            atomic_write_json(path, {"session": session_id, "stamp": stamp, "drafts": drafts}, durable=False)

    def load_drafts(self, session_id: str, *, stamp: int) -> dict[str, Any]:
        """The hands being entered that :meth:`save_drafts` kept for this session, if its state is still
        ``stamp``; otherwise (or if there are none) ``{}``. A damaged file is set aside, never an error."""
        with self._lock:
            check_id(session_id)
            path = self._drafts_path(session_id)
            try:
                data = json.loads(path.read_bytes())
                if not isinstance(data, dict) or data.get("session") != session_id:
                    raise InvalidSessionError(f"it does not hold the drafts of session {session_id}")
                drafts = data["drafts"]
                if not isinstance(drafts, dict) or not all(isinstance(v, dict) for v in drafts.values()):
                    raise InvalidSessionError("its drafts are not objects")
            except FileNotFoundError:
                return {}
            except OSError:
                return {}
            except DAMAGE_ERRORS as exc:
                self.set_aside(path, _why(exc))
                return {}
            return drafts if data.get("stamp") == stamp else {}

    def reindex_all(self) -> None:
        """Forget the index and rebuild it from every session file (after a restore)."""
        with self._lock:
            for shard in list(self._shards):
                self._dirty_shards.add(shard)
            self._index.clear()
            self._meta.clear()
            self._shards.clear()
            for path in sorted((self.data_dir / SESSIONS).glob("*.json")):
                self._reindex(path.stem)
            self._dirty_shards.update(f"{n:02x}" for n in range(256))
            self._flush_shards()

    # --- export, import, backups (see storage.transfer and storage.backup) -----------------------------------

    def export_sessions(self, ids: Iterable[str] | None = None, fmt: str = "json") -> bytes:
        """Export some sessions (or all) as JSON (record plus metadata) or CSV (a row per hand per player)."""
        from storage.transfer import export_sessions

        return export_sessions(self, ids, fmt)

    def import_file(self, path: Path) -> ImportReport:
        """Import a file exported by this app, or a bare game record; see :func:`storage.transfer.import_file`."""
        from storage.transfer import import_file

        return import_file(self, Path(path))

    def backup(self, dest: Path | None = None) -> Path:
        from storage.backup import backup

        return backup(self, dest)

    def auto_backup(self, *, keep: int = 7) -> Path | None:
        from storage.backup import auto_backup

        return auto_backup(self, keep=keep)

    def list_backups(self) -> list[Path]:
        from storage.backup import list_backups

        return list_backups(self)

    def restore(self, path: Path) -> int:
        from storage.backup import restore

        return restore(self, Path(path))


def _why(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return "it is damaged or cut short"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not text"
    if isinstance(exc, StorageError):
        return str(exc)
    return f"it is not in the expected shape ({type(exc).__name__})"


def _empty_roster(archive: Archive) -> Roster:
    """A roster for a read-only archive whose players file is unreadable: in memory, empty."""
    roster = Roster.__new__(Roster)
    roster.path = archive.data_dir / PLAYERS
    roster._lock = archive._lock
    roster._read_only = True
    roster._players = {}
    return roster
