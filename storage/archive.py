"""The session archive as the app and the command line use it: :class:`~storage.core.ArchiveCore` (sessions, index,
drafts, roster) with the jobs built on it: export (:mod:`storage.exports`), the journaled import
(:mod:`storage.imports`, :mod:`storage.journal`) and backups (:mod:`storage.backup`).

Opening an :class:`Archive` for writing also completes an import or a restore that a crash cut short.

Layout of a data folder::

    .lock                    single-instance lock (see storage.locking)
    sessions/<id>.json       one small TinyDB per session: the document, its record and its edit log (the truth)
    index/<00..ff>.json      TinyDB shards (by a hash of the id) with a summary per session, for listing
    drafts/<id>.drafts.json  hands being entered, not confirmed yet
    players.json             the player roster (TinyDB)
    settings.json            the app's settings (storage.settings)
    nights.json              the game nights (storage.nights)
    pending-import.json      the journal of an import under way (storage.journal)
    pending-restore.json     the journal of a restore under way (storage.restoring)
    .restoring/              the files of a restore under way, before they are moved into place
    backups/*.zip            rolling and manual backups
    damaged/<name>.<time>    files that could not be read, set aside (never overwritten)

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with Archive(folder) as archive:
...     doc = archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
...     data = archive.export_sessions([doc.id])
>>> with open_archive(folder, write=False) as viewer:
...     [s.id for s in viewer.list_sessions()] == [doc.id], viewer.other_instance
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from storage.core import ArchiveCore
from storage.errors import StorageError
from storage.journal import Progress, replay
from storage.layout import SESSION_TABLE, SESSIONS, shard_of
from storage.nights import NightStore, export_nights
from storage.restoring import pending as restore_pending
from storage.restoring import replay as replay_restore

if TYPE_CHECKING:  # export, import and backups are imported when first used: opening the app needs none of them
    from storage.backup import CheckedBackup
    from storage.imports import ImportReport

__all__ = ["SESSIONS", "SESSION_TABLE", "Archive", "open_archive", "shard_of"]


class Archive(ArchiveCore):
    """Every session of one data folder, with import, export and backups. Thread-safe; one writer per folder
    (see :class:`~storage.errors.ArchiveLockedError`)."""

    def __init__(self, data_dir: Path | str, *, read_only: bool = False) -> None:
        super().__init__(Path(data_dir), read_only=read_only)
        if not read_only:
            self._finish_pending_restore()
            self._finish_pending_import()
        elif restore_pending(self):
            self.note("a restore was interrupted; it is completed when the data folder is next opened for writing")

    def _finish_pending_restore(self) -> None:
        """Complete a restore that a crash cut short after its journal was written, or clear away one cut short
        before (see :mod:`storage.restoring`); the index and the roster are then read again."""
        try:
            note = replay_restore(self)
        except StorageError as exc:  # the disk refuses: the journal stays, and the next open tries again
            self.note(f"an interrupted restore could not be completed yet ({exc})")
            return
        if note is not None:
            self.reindex_all()
            try:
                self.players.reload()
            except (StorageError, ValueError) as exc:
                self.note(f"the restored roster could not be read ({exc})")
            self.note(note)

    def _finish_pending_import(self) -> None:
        """Complete an import that a crash cut short (its journal is still there; see :mod:`storage.journal`)."""
        try:
            note = replay(self)
        except StorageError as exc:  # the disk refuses: the journal stays, and the next open tries again
            note = f"an interrupted import could not be completed yet ({exc})"
        if note is not None:
            self.note(note)

    @cached_property
    def nights(self) -> NightStore:
        """The game nights of this data folder (``nights.json``, :mod:`storage.nights`): one store per archive,
        opened on first use, in the archive's read-only mode."""
        return NightStore.of(self)

    # --- export, import, backups ------------------------------------------------------------------------------

    def export_sessions(
        self, ids: Iterable[str] | None = None, fmt: str = "json", *, nights: Iterable[str] | None = None
    ) -> bytes:
        """Export some sessions (or all) as JSON (record plus metadata) or CSV (a row per hand per player).

        A JSON export carries game nights under ``"nights"``: the nights ``nights`` if given; otherwise every
        night when every session is exported, else the nights whose games are all among ``ids``."""
        from storage.exports import export_sessions

        wanted = None if ids is None else list(ids)
        docs = None
        if fmt == "json":
            docs = self._export_nights(wanted, nights)
        return export_sessions(self, wanted, fmt, nights=docs)

    def _export_nights(self, ids: list[str] | None, nights: Iterable[str] | None) -> list[dict[str, object]]:
        if nights is not None:
            return export_nights(self.nights, list(nights))
        if ids is None:
            return export_nights(self.nights)
        chosen = set(ids)
        return [doc for doc in export_nights(self.nights) if doc["sessions"] and set(doc["sessions"]) <= chosen]

    def write_export(
        self, target: Path, ids: Iterable[str] | None = None, fmt: str = "json", *, nights: Iterable[str] | None = None
    ) -> Path:
        """Export to the file ``target``: refused (:class:`~storage.errors.OutputPathError`) inside the data
        folder (but its ``exports/``) and onto anything but a regular file or a new path."""
        from storage.exports import check_output_path, write_output

        check_output_path(target, self.data_dir)
        return write_output(target, self.export_sessions(ids, fmt, nights=nights), self.data_dir)

    def import_file(self, path: Path | str, progress: Progress | None = None) -> ImportReport:
        """Import a file exported by this app, or bare game records, through the journaled pipeline
        (:func:`storage.imports.import_file`): all or nothing, even if the process is killed. The file's game
        nights are added after its games (``report.nights``)."""
        from storage.imports import import_file

        return import_file(self, Path(path), progress, nights=self._night_store())

    def import_bytes(self, name: str, data: bytes, progress: Progress | None = None) -> ImportReport:
        """Import the bytes of a file called ``name`` (picked in a browser); see :meth:`import_file`."""
        from storage.imports import import_bytes

        return import_bytes(self, name, data, progress, nights=self._night_store())

    def _night_store(self) -> NightStore | None:
        return None if self.read_only else self.nights

    def backup(self, dest: Path | str | None = None, progress: Progress | None = None) -> Path:
        """A zip of the whole archive in ``dest`` (a file; a folder, or a path ending with ``/``, gets a dated zip
        inside); by default in ``backups/``."""
        from storage.backup import backup

        return backup(self, dest, progress=progress)

    def auto_backup(self, *, keep: int = 7) -> Path | None:
        from storage.backup import auto_backup

        return auto_backup(self, keep=keep)

    def list_backups(self) -> list[Path]:
        from storage.backup import list_backups

        return list_backups(self)

    def restore(
        self, path: Path | str | CheckedBackup, progress: Progress | None = None, *, allow_empty: bool = False
    ) -> int:
        """Replace the sessions, roster and game nights by those of a backup (a path, or one already checked by
        :func:`storage.backup.check_backup`), checked whole first, journaled; returns how many sessions. A backup
        of no session raises :class:`~storage.errors.EmptyBackupError` unless ``allow_empty``."""
        from storage.backup import CheckedBackup, restore

        target = path if isinstance(path, CheckedBackup) else Path(path)
        night_store = None if self.read_only else self.nights
        return restore(self, target, progress, nights=night_store, allow_empty=allow_empty)


def open_archive(data_dir: Path | str, *, write: bool) -> Archive:
    """Open the archive: for writing (locks it, finishes an interrupted import) or read-only (changes nothing,
    not even the lock file; ``archive.other_instance`` says whether a running app holds it)."""
    return Archive(Path(data_dir), read_only=not write)
