"""The restore journal: what makes a restore land whole or not at all, even if the process is killed.

A restore (:func:`storage.backup.restore`) has already checked the whole backup. It then:

1. writes every file the backup brings (the sessions, ``players.json``, ``nights.json``) into the staging folder
   ``.restoring/`` of the data folder, each fsynced, nothing of the archive touched yet;
2. writes the plan, ``pending-restore.json`` (atomic, durable): which session files the restored archive holds,
   and what happens to the roster and the nights. From here on, the restore completes;
3. moves the staged files into place, removes the sessions that the backup does not hold, fsyncs the folders,
   removes the journal and then the staging folder.

If the process dies before step 2, the next open for writing finds a staging folder without a journal and removes
it: the archive is as it was. If it dies after, the next open (:class:`storage.archive.Archive`, by the app or a
command) runs :func:`replay`, which does step 3 again (every step of it can be done twice): the archive is the
backup's, whole.

>>> import tempfile, pathlib
>>> from storage.core import ArchiveCore
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ArchiveCore(folder) as core:
...     old = core.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
...     new = core.create_session({"game": "jokers-kill", "players": ["Cy", "Di"], "options": {}, "hands": []})
...     data = (folder / "sessions" / f"{new.id}.json").read_bytes()
...     core.delete_session(new.id)
...     plan = stage(core, "b.zip", {f"{new.id}.json": data}, {}, nights=KEEP)
...     commit(core, plan)  # killed here: the journal is on disk, nothing moved yet
>>> with ArchiveCore(folder) as core:
...     replay(core) is not None, sorted(p.stem for p in (folder / "sessions").glob("*.json")) == [new.id]
(True, True)
>>> pending(core), (folder / RESTORE_STAGING).exists()
(False, False)
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from storage.atomic import StorageWriteError, atomic_write_json, fsync_dir, read_regular_bytes
from storage.core import ArchiveCore
from storage.damage import DAMAGE_ERRORS
from storage.errors import StorageError
from storage.journal import Progress
from storage.layout import PLAYERS, RESTORE_JOURNAL, RESTORE_STAGING, SESSIONS
from storage.night_docs import NIGHTS_FILE

JOURNAL_FORMAT = "card-table-companion/pending-restore"
REPLACE, REMOVE, KEEP = "replace", "remove", "keep"
"""What a restore does to ``nights.json``: replace it by the backup's, remove it (the backup had no nights), or
keep it (a backup made before nights were backed up)."""

__all__ = ["KEEP", "REMOVE", "REPLACE", "RestorePlan", "commit", "complete", "pending", "replay", "stage"]


@dataclass(frozen=True)
class RestorePlan:
    """What a staged restore does once committed."""

    file: str
    """The backup's name (for the note after a replay)."""
    sessions: tuple[str, ...]
    """The session file names (``<id>.json``) the restored archive holds, and only those."""
    players: bool
    """Whether the backup brings ``players.json``."""
    nights: str
    """:data:`REPLACE`, :data:`REMOVE` or :data:`KEEP`."""

    def to_json(self) -> dict[str, object]:
        return {
            "format": JOURNAL_FORMAT,
            "file": self.file,
            "sessions": list(self.sessions),
            "players": self.players,
            "nights": self.nights,
        }

    @classmethod
    def from_json(cls, data: object) -> RestorePlan:
        if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
            raise ValueError("not a restore journal")
        sessions = data["sessions"]
        if not isinstance(sessions, list) or not all(_is_session_name(s) for s in sessions):
            raise ValueError("its sessions are not a list of session files")
        nights = data["nights"]
        if nights not in (REPLACE, REMOVE, KEEP) or not isinstance(data["players"], bool):
            raise ValueError("it does not say what to do with the players and the nights")
        return cls(str(data.get("file", "a backup")), tuple(sessions), data["players"], nights)


def _is_session_name(name: object) -> bool:
    return (
        isinstance(name, str)
        and name.endswith(".json")
        and not name.startswith(".")
        and "/" not in name
        and "\\" not in name
        and name not in (".json", "..json")
    )


def journal_path(core: ArchiveCore) -> Path:
    return core.data_dir / RESTORE_JOURNAL


def staging_path(core: ArchiveCore) -> Path:
    return core.data_dir / RESTORE_STAGING


def pending(core: ArchiveCore) -> bool:
    """Whether a restore journal is there (a restore under way, or cut short after it was committed)."""
    return journal_path(core).exists()


def _write_new(path: Path, data: bytes) -> None:
    """Write a new file and fsync it (the staging folder is not part of the archive until the journal says so)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def discard_staging(core: ArchiveCore) -> None:
    """Remove the staging folder (a restore cut short before its journal was written, or one completed)."""
    folder = staging_path(core)
    if folder.is_symlink() or folder.is_file():
        with contextlib.suppress(OSError):
            folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder, ignore_errors=True)


def stage(
    core: ArchiveCore,
    file: str,
    sessions: Mapping[str, bytes],
    extras: Mapping[str, bytes],
    *,
    nights: str,
    progress: Progress | None = None,
) -> RestorePlan:
    """Write the files of a checked backup into the staging folder, durably; nothing of the archive changes.
    ``extras`` may hold ``players.json`` and (with ``nights=REPLACE``) ``nights.json``. Raises
    :class:`~storage.atomic.StorageWriteError` if the disk refuses (the staging folder is removed again)."""
    folder = staging_path(core)
    discard_staging(core)
    total = len(sessions)
    try:
        (folder / SESSIONS).mkdir(parents=True)
        for n, (name, data) in enumerate(sessions.items(), start=1):
            _write_new(folder / SESSIONS / name, data)
            if progress is not None:
                progress(n, total)
        if PLAYERS in extras:
            _write_new(folder / PLAYERS, extras[PLAYERS])
        if nights == REPLACE:
            _write_new(folder / NIGHTS_FILE, extras[NIGHTS_FILE])
        fsync_dir(folder / SESSIONS)
        fsync_dir(folder)
        fsync_dir(core.data_dir)
    except OSError as exc:
        discard_staging(core)
        raise StorageWriteError(folder, exc) from exc
    return RestorePlan(file, tuple(sessions), PLAYERS in extras, nights)


def commit(core: ArchiveCore, plan: RestorePlan) -> None:
    """Write the journal (atomic and durable): from here on, the restore completes."""
    atomic_write_json(journal_path(core), plan.to_json())


def _move(source: Path, target: Path) -> None:
    """Move a staged file into place, unless it was moved already (a replay; nothing is there to move then)."""
    with contextlib.suppress(FileNotFoundError):
        os.replace(source, target)


def complete(core: ArchiveCore, plan: RestorePlan) -> None:
    """Move the staged files into place, remove the sessions the backup does not hold, drop the journal and the
    staging folder. Every step may be done twice, so a replay after a kill at any moment finishes the job.
    Raises :class:`~storage.atomic.StorageWriteError` if the disk refuses (the journal stays: the next open
    tries again)."""
    staged = staging_path(core)
    sessions = core.data_dir / SESSIONS
    wanted = set(plan.sessions)
    try:
        sessions.mkdir(exist_ok=True)
        for name in plan.sessions:
            _move(staged / SESSIONS / name, sessions / name)
        for current in sessions.glob("*.json"):
            if current.name not in wanted:
                with contextlib.suppress(FileNotFoundError):
                    current.unlink()
        fsync_dir(sessions)
        if plan.players:
            _move(staged / PLAYERS, core.data_dir / PLAYERS)
        if plan.nights == REPLACE:
            _move(staged / NIGHTS_FILE, core.data_dir / NIGHTS_FILE)
        elif plan.nights == REMOVE:
            with contextlib.suppress(FileNotFoundError):
                (core.data_dir / NIGHTS_FILE).unlink()
        fsync_dir(core.data_dir)
        with contextlib.suppress(FileNotFoundError):
            journal_path(core).unlink()
        fsync_dir(core.data_dir)
    except OSError as exc:
        raise StorageWriteError(sessions, exc) from exc
    discard_staging(core)


def replay(core: ArchiveCore) -> str | None:
    """On opening a data folder for writing: complete a restore whose journal is there (returns a sentence saying
    so), or remove the staging folder of one cut short before its journal was written (the archive was not
    touched; returns ``None``). A journal that cannot be read is set aside, like any damaged file, and the staging
    folder removed."""
    if core.read_only:
        return None
    path = journal_path(core)
    if not os.path.lexists(path):
        discard_staging(core)
        return None
    try:
        plan = RestorePlan.from_json(json.loads(read_regular_bytes(path).decode("utf-8")))
    except (*DAMAGE_ERRORS, StorageError) as exc:
        core.set_aside(path, f"it is not a readable restore journal ({type(exc).__name__})")
        discard_staging(core)
        return None
    complete(core, plan)
    return f"a restore of {plan.file} had been interrupted; it was completed ({len(plan.sessions)} sessions)"
