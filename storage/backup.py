"""Backups of the whole archive as zip files, rolling automatic backups, and restore.

A backup holds every session file, the player roster, the settings, the game nights (``nights.json``) and a
manifest. A restore checks the whole backup before anything is replaced: the zip must be a regular file of at most
50 MB, with at most 20,000 entries whose declared sizes add up to at most 50 MB (so a zip bomb is refused from its
directory, and every member is read through a bounded reader that never inflates more than that), and every
document in it must validate (sessions, roster, settings, nights: :func:`storage.nights.check_nights_file`). Then
the current state is backed up (``backups/pre-restore-*.zip``), so a restore can itself be undone, and the sessions,
the roster and the nights are replaced by the backup's.

The manifest (``version`` 2 since backups hold the nights) says how many nights were backed up: ``"nights": 0``
means the folder had none, and restoring it leaves none; a backup made before nights were backed up (version 1,
no count), or while ``nights.json`` could not be read (``null``: the file is left out rather than making a backup
that would be refused), leaves the nights as they are.

``backup``, ``restore`` and ``check_backup`` take an optional ``progress(done, total)`` callback.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from storage.atomic import StorageWriteError, atomic_write_bytes, fsync_dir, read_regular_bytes
from storage.core import ArchiveCore
from storage.errors import BackupError, InputLimitError, StorageError, UnreadableFileError
from storage.exports import check_output_path
from storage.imports import check_limits
from storage.journal import Progress
from storage.layout import BACKUPS, PLAYERS, SESSION_TABLE, SESSIONS, SETTINGS
from storage.limits import MAX_BACKUP_BYTES, MAX_BACKUP_ENTRIES, MAX_BACKUP_UNCOMPRESSED, MAX_IMPORT_BYTES
from storage.models import SessionDoc, check_id, utc_now
from storage.nights import NIGHTS_FILE, NightStore, check_nights_file
from storage.roster import check_roster_data

BACKUP_FORMAT = "card-table-companion/backup"
MANIFEST = "manifest.json"
AUTO_PREFIX = "auto-"
EXTRA_FILES = (PLAYERS, SETTINGS, NIGHTS_FILE)
BACKUP_VERSION = 2
"""The manifest version written: 2 since backups hold ``nights.json`` and the manifest its ``"nights"`` count."""

__all__ = [
    "AUTO_PREFIX",
    "BACKUP_FORMAT",
    "BACKUP_VERSION",
    "CheckedBackup",
    "auto_backup",
    "backup",
    "backups_dir",
    "check_backup",
    "list_backups",
    "restore",
]


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H%M%S%fZ")


def backups_dir(archive: ArchiveCore) -> Path:
    return archive.data_dir / BACKUPS


def _target(archive: ArchiveCore, dest: Path | str | None, prefix: str) -> Path:
    """Where a backup goes: ``backups/`` by default; inside ``dest`` if it is a folder or ends with a slash (the
    folder is created, the name dated, so every run makes a new zip); else ``dest`` itself, checked like an
    export target (never inside the data folder except ``backups/``, never onto anything but a file or a new
    path)."""
    name = f"{prefix}{_stamp()}.zip"
    if dest is None:
        return backups_dir(archive) / name
    text = os.fspath(dest)
    folder = Path(text).expanduser().absolute()
    if text.endswith(("/", os.sep)) or folder.is_dir():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageWriteError(folder / name, exc) from exc
        return check_output_path(folder / name, archive.data_dir)
    return check_output_path(folder, archive.data_dir)


def backup(
    archive: ArchiveCore,
    dest: Path | str | None = None,
    *,
    prefix: str = "backup-",
    progress: Progress | None = None,
) -> Path:
    """Write a zip of the archive to ``dest`` (a file, a folder, or by default ``backups/``); returns its path.

    A folder (one that exists, or any path ending with ``/``) gets a new dated zip inside it, the folder being
    created if need be, so a command run from cron keeps every backup."""
    target = _target(archive, dest, prefix)
    with archive.lock:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise StorageWriteError(target, exc) from exc
        try:
            with os.fdopen(fd, "wb") as handle:
                sessions = sorted((archive.data_dir / SESSIONS).glob("*.json"))
                total = len(sessions) + len(EXTRA_FILES)
                written = 0
                with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                    for n, path in enumerate(sessions, start=1):
                        with contextlib.suppress(FileNotFoundError, UnreadableFileError):
                            zf.writestr(f"{SESSIONS}/{path.name}", read_regular_bytes(path))
                            written += 1
                        if progress is not None:
                            progress(n, total)
                    night_count: int | None = 0  # no nights.json: the folder has no nights
                    for n, name in enumerate(EXTRA_FILES, start=len(sessions) + 1):
                        with contextlib.suppress(FileNotFoundError, UnreadableFileError):
                            data = read_regular_bytes(archive.data_dir / name)
                            if name == NIGHTS_FILE:
                                night_count = _count_nights(data)
                            if night_count is not None or name != NIGHTS_FILE:
                                zf.writestr(name, data)
                        if progress is not None:
                            progress(n, total)
                    manifest = {
                        "format": BACKUP_FORMAT,
                        "version": BACKUP_VERSION,
                        "created_at": utc_now(),
                        "sessions": written,
                        "nights": night_count,
                    }
                    zf.writestr(MANIFEST, json.dumps(manifest))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
            tmp = ""
            fsync_dir(target.parent)
        except OSError as exc:
            raise StorageWriteError(target, exc) from exc
        finally:
            if tmp:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    return target


def _count_nights(data: bytes) -> int | None:
    """How many nights a ``nights.json`` holds, or ``None`` when it does not pass :func:`check_nights_file` (then it
    is left out of the backup, whose restore leaves the nights as they are, rather than making a backup that
    would be refused whole)."""
    try:
        return len(check_nights_file(json.loads(data.decode("utf-8"))))
    except (ValueError, StorageError, RecursionError):
        return None


def list_backups(archive: ArchiveCore) -> list[Path]:
    """Backups in ``backups/``, newest first."""
    folder = backups_dir(archive)
    if not folder.is_dir():
        return []
    found = []
    for p in folder.glob("*.zip"):
        if p.name.startswith("."):
            continue
        with contextlib.suppress(OSError):
            found.append((p.stat().st_mtime_ns, p.name, p))
    return [p for _, _, p in sorted(found, reverse=True)]


def auto_backup(archive: ArchiveCore, *, keep: int = 7) -> Path | None:
    """Make the daily automatic backup unless today's exists; keep the newest ``keep`` automatic ones.

    Returns the new backup, or ``None`` when today's was already made (or the archive is read-only)."""
    if archive.read_only:
        return None
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    autos = [p for p in list_backups(archive) if p.name.startswith(AUTO_PREFIX)]
    if autos and autos[0].name[len(AUTO_PREFIX) : len(AUTO_PREFIX) + 10] == today:
        return None
    made = backup(archive, prefix=AUTO_PREFIX)
    autos = [p for p in list_backups(archive) if p.name.startswith(AUTO_PREFIX)]
    for old in autos[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return made


# --- checking a backup ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedBackup:
    """A backup whose every document validated: session file name → bytes, extra file name → bytes."""

    path: Path
    sessions: dict[str, bytes]
    extras: dict[str, bytes]
    has_nights: bool = False
    """Whether restoring this backup sets the game nights: it holds ``nights.json``, or its manifest says the
    backed-up folder had none (``"nights": 0``). A backup made before nights were backed up (manifest version 1),
    or whose ``nights.json`` could not be read when it was made (``"nights": null``), leaves them as they are."""


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: list[int], label: str) -> bytes:
    """A member's bytes, never inflating more than its declared size, the per-file limit or what is left of the
    total budget (``budget[0]``, decreased)."""
    cap = min(info.file_size, MAX_IMPORT_BYTES, budget[0])
    chunks = []
    got = 0
    with zf.open(info) as member:
        while True:
            chunk = member.read(min(1 << 16, cap + 1 - got))
            if not chunk:
                break
            got += len(chunk)
            chunks.append(chunk)
            if got > cap:
                raise BackupError(f"{label}: {info.filename} inflates to more than it declares; nothing was restored")
    budget[0] -= got
    return b"".join(chunks)


def _open_regular(path: Path) -> IO[bytes]:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise BackupError(f"there is no backup file {path}") from None
    except OSError as exc:
        raise BackupError(f"the backup {path} cannot be read ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise BackupError(f"there is no backup file {path}: it is {kind}")
    if info.st_size > MAX_BACKUP_BYTES:
        os.close(fd)
        raise BackupError(
            f"{path.name} is {info.st_size / 1048576:.1f} MB; a backup may be at most "
            f"{MAX_BACKUP_BYTES // 1048576} MB (archive size); nothing was restored"
        )
    return os.fdopen(fd, "rb")


def _check_nights(data: Any) -> None:
    check_nights_file(data)  # NightDocumentError / SchemaVersionError (a StorageError) name the night


def _check_settings(data: Any) -> None:
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise ValueError("settings.json is not a table of settings")
    for table in data.values():
        if not all(isinstance(row, dict) for row in table.values()):
            raise ValueError("settings.json is not a table of settings")


def check_backup(path: Path, progress: Progress | None = None) -> CheckedBackup:
    """Read and verify a whole backup (sizes first, from the zip's directory, then every document); raises
    :class:`~storage.errors.BackupError` naming the problem and the limit. Nothing is changed anywhere."""
    path = Path(path)
    label = path.name
    with _open_regular(path) as handle:
        try:
            with zipfile.ZipFile(handle) as zf:
                infos = zf.infolist()
                if len(infos) > MAX_BACKUP_ENTRIES:
                    raise BackupError(
                        f"{label} holds {len(infos):,} files; a backup may hold at most {MAX_BACKUP_ENTRIES:,} "
                        "(number of entries); nothing was restored"
                    )
                declared = sum(i.file_size for i in infos)
                if declared > MAX_BACKUP_UNCOMPRESSED:
                    raise BackupError(
                        f"{label} would inflate to {declared / 1048576:.1f} MB; a backup may hold at most "
                        f"{MAX_BACKUP_UNCOMPRESSED // 1048576} MB uncompressed; nothing was restored"
                    )
                names = [i.filename for i in infos]
                if len(set(names)) != len(names):
                    raise BackupError(f"{label} holds the same file twice; nothing was restored")
                by_name = {i.filename: i for i in infos}
                if MANIFEST not in by_name:
                    raise BackupError(f"{label} is not a Card Table Companion backup")
                budget = [MAX_BACKUP_UNCOMPRESSED]
                manifest = json.loads(_read_member(zf, by_name[MANIFEST], budget, label))
                if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
                    raise BackupError(f"{label} is not a Card Table Companion backup")
                sessions: dict[str, bytes] = {}
                extras: dict[str, bytes] = {}
                total = len(infos)
                for n, info in enumerate(infos, start=1):
                    name = info.filename
                    inner = name[len(SESSIONS) + 1 :]
                    if name.startswith(f"{SESSIONS}/") and name.endswith(".json") and "/" not in inner:
                        data = _read_member(zf, info, budget, label)
                        try:
                            tables = json.loads(data.decode("utf-8"))
                            stored = next(iter(tables[SESSION_TABLE].values()))
                            doc = SessionDoc.from_stored(stored)
                            check_id(doc.id)
                            check_limits(doc.record, stored)
                        except (InputLimitError, StorageError) as exc:
                            raise BackupError(
                                f"{label}: {name} cannot be restored ({exc}); nothing was restored"
                            ) from None
                        if f"{doc.id}.json" != inner:
                            raise BackupError(f"{label}: {name} holds another session; nothing was restored")
                        sessions[inner] = data
                    elif name in EXTRA_FILES:
                        data = _read_member(zf, info, budget, label)
                        parsed = json.loads(data.decode("utf-8"))
                        check = {PLAYERS: check_roster_data, SETTINGS: _check_settings, NIGHTS_FILE: _check_nights}
                        try:
                            check[name](parsed)
                        except (ValueError, StorageError) as exc:
                            raise BackupError(f"{label}: {name} is not valid ({exc}); nothing was restored") from None
                        extras[name] = data
                    if progress is not None:
                        progress(n, total)
        except BackupError:
            raise
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError) as exc:
            raise BackupError(f"{label} is damaged and cannot be restored ({exc})") from None
        except (ValueError, KeyError, TypeError, StopIteration, AttributeError, RecursionError) as exc:
            raise BackupError(f"{label} holds a file that cannot be read ({exc}); nothing was restored") from None
    counted = manifest.get("nights")
    counted = counted if isinstance(counted, int) and not isinstance(counted, bool) else None
    if NIGHTS_FILE not in extras and counted:
        raise BackupError(
            f"{label}: its {NIGHTS_FILE} is missing ({counted} nights were backed up); nothing was restored"
        )
    has_nights = NIGHTS_FILE in extras or counted == 0
    return CheckedBackup(path, sessions, extras, has_nights=has_nights)


def restore(
    archive: ArchiveCore,
    path: Path | CheckedBackup,
    progress: Progress | None = None,
    *,
    nights: NightStore | None = None,
) -> int:
    """Replace the archive's sessions, roster and game nights by those in backup ``path``; returns the number of
    sessions.

    The whole backup is checked first (:func:`check_backup`; nothing changes if anything in it is refused); then
    the current state is backed up (``backups/pre-restore-*.zip``). ``nights`` is the open night store, which
    reads the restored nights again (without it, ``nights.json`` is written and read by the next store opened)."""
    archive.check_writable()
    checked = path if isinstance(path, CheckedBackup) else check_backup(Path(path))
    with archive.lock:
        backup(archive, prefix="pre-restore-")
        folder = archive.data_dir / SESSIONS
        total = len(checked.sessions)
        for n, (name, data) in enumerate(checked.sessions.items(), start=1):
            atomic_write_bytes(folder / name, data)
            if progress is not None:
                progress(n, total)
        for current in folder.glob("*.json"):
            if current.name not in checked.sessions:
                with contextlib.suppress(FileNotFoundError):
                    current.unlink()
        fsync_dir(folder)
        if PLAYERS in checked.extras:
            atomic_write_bytes(archive.data_dir / PLAYERS, checked.extras[PLAYERS])
        if checked.has_nights:
            night_data = checked.extras.get(NIGHTS_FILE)  # None: the backed-up folder had no nights
            if nights is not None:
                nights.replace_file(night_data)
            elif night_data is not None:
                atomic_write_bytes(archive.data_dir / NIGHTS_FILE, night_data)
            else:
                with contextlib.suppress(FileNotFoundError):
                    (archive.data_dir / NIGHTS_FILE).unlink()
        archive.reindex_all()
        archive.players.reload()
        return len(archive)
