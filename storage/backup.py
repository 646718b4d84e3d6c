"""Backups of the whole archive as zip files, rolling automatic backups, and restore.

A backup holds every session file, the player roster, the settings, the game nights (``nights.json``) and a
manifest that lists every file (version 3). A restore is all or nothing:

* the backup is read and checked whole before anything changes (:func:`check_backup`): a regular file of at most
  50 MB, at most 20,000 entries declaring at most 50 MB uncompressed (a zip bomb is refused from its directory,
  and every member is read through a bounded reader); no member encrypted, or other than a regular file (a
  symbolic link, a device) or a folder of the layout; no path that climbs out (``..``, absolute, a drive) with
  either slash, while ``\\`` paths that some zip tools write are read as ``/``; the manifest lists exactly the files
  there; every session is of the right shape and its game replays through scoring; the roster, settings and
  nights are of the right shape. A refusal is one line naming the member and what is wrong.
* a backup of no session is restored only when asked for explicitly (``allow_empty``);
* the current state is backed up (``backups/pre-restore-*.zip``), so a restore can itself be undone;
* the files are replaced through the restore journal (:mod:`storage.restoring`): a kill at any moment leaves the
  archive as it was, or wholly restored by the next open.

The manifest says how many nights were backed up: ``"nights": 0`` means the folder had none, and restoring it
leaves none; a backup made before nights were backed up (version 1, no count), or while ``nights.json`` could not
be read (``null``: the file is left out rather than making a backup that would be refused), leaves the nights as
they are. A backup of version 1 or 2 (no list of files) must hold as many sessions as its manifest counts.

``backup``, ``restore`` and ``check_backup`` take an optional ``progress(done, total)`` callback.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from storage.atomic import StorageWriteError, atomic_file, read_regular_bytes
from storage.core import ArchiveCore
from storage.errors import BackupError, EmptyBackupError, StorageError, UnreadableFileError
from storage.exports import check_output_path
from storage.imports import check_limits
from storage.journal import Progress
from storage.layout import BACKUPS, PLAYERS, SESSION_TABLE, SESSIONS, SETTINGS
from storage.limits import (
    MAX_BACKUP_BYTES,
    MAX_BACKUP_ENTRIES,
    MAX_BACKUP_UNCOMPRESSED,
    MAX_DIGITS,
    MAX_IMPORT_BYTES,
    escape_char,
    is_unsafe_char,
)
from storage.models import SessionDoc, check_id, utc_now
from storage.night_docs import NIGHTS_FILE, check_nights_file
from storage.nights import NightStore
from storage.restoring import KEEP, REMOVE, REPLACE, commit, complete, stage
from storage.roster import check_roster_data

BACKUP_FORMAT = "card-table-companion/backup"
MANIFEST = "manifest.json"
AUTO_PREFIX = "auto-"
EXTRA_FILES = (PLAYERS, SETTINGS, NIGHTS_FILE)
BACKUP_VERSION = 3
"""The manifest version written: 2 since backups hold ``nights.json`` and the manifest its ``"nights"`` count; 3
since the manifest lists every file of the backup (``"files"``), which a restore checks against what is there."""

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
        except OSError as exc:
            raise StorageWriteError(target, exc) from exc
        with atomic_file(target) as handle:
            sessions = sorted((archive.data_dir / SESSIONS).glob("*.json"))
            total = len(sessions) + len(EXTRA_FILES)
            written: list[str] = []
            with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                for n, path in enumerate(sessions, start=1):
                    with contextlib.suppress(FileNotFoundError, UnreadableFileError):
                        zf.writestr(f"{SESSIONS}/{path.name}", read_regular_bytes(path))
                        written.append(f"{SESSIONS}/{path.name}")
                    if progress is not None:
                        progress(n, total)
                session_count = len(written)
                night_count: int | None = 0  # no nights.json: the folder has no nights
                for n, name in enumerate(EXTRA_FILES, start=len(sessions) + 1):
                    with contextlib.suppress(FileNotFoundError, UnreadableFileError):
                        data = read_regular_bytes(archive.data_dir / name)
                        if name == NIGHTS_FILE:
                            night_count = _count_nights(data)
                        if night_count is not None or name != NIGHTS_FILE:
                            zf.writestr(name, data)
                            written.append(name)
                    if progress is not None:
                        progress(n, total)
                manifest = {
                    "format": BACKUP_FORMAT,
                    "version": BACKUP_VERSION,
                    "created_at": utc_now(),
                    "sessions": session_count,
                    "nights": night_count,
                    "files": written,
                }
                zf.writestr(MANIFEST, json.dumps(manifest))
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
    name: str = ""
    """The backup's name as the person knows it (the file's name, or the name of a file picked in a browser)."""

    @property
    def empty(self) -> bool:
        """A whole, valid backup of no session: restoring it empties the archive (asked for explicitly)."""
        return not self.sessions


UNIX_MODE_SHIFT = 16
"""A zip member's Unix mode is in the high 16 bits of its external attributes (APPNOTE 4.4.15, as Info-ZIP and
Python's zipfile write it); the low 16 bits hold MS-DOS attributes."""
DOS_FOLDER = 0x10
DOS_REPARSE_POINT = 0x400
"""MS-DOS/Windows attributes: a folder; a reparse point (a Windows symbolic link or junction)."""
ENCRYPTED_FLAGS = 0x1 | 0x40
"""General purpose bit flag (APPNOTE 4.4.4): bit 0 the member is encrypted, bit 6 strong encryption."""
READABLE_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})
OS_CLUTTER = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
"""Files that a desktop adds when a person unzips and re-zips a backup (with ``__MACOSX/``): left out, unread."""
_DRIVE = re.compile(r"^[A-Za-z]:")


class _Refused(Exception):
    """One member refused: ``why`` completes "<member> …"."""

    def __init__(self, member: str, why: str) -> None:
        super().__init__(why)
        self.member = member
        self.why = why


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _shown(name: str) -> str:
    """A member's name as it can be printed: control and bidi characters escaped, at most 120 characters."""
    text = "".join(escape_char(c) if is_unsafe_char(c) else c for c in name)
    return text if len(text) <= 120 else f"{text[:117]}..."


def _refusal(label: str, member: str, why: str) -> BackupError:
    return BackupError(_one_line(f"{label}: {_shown(member)} {why}; nothing was restored"))


def _member_name(info: zipfile.ZipInfo) -> tuple[str, bool]:
    """A member's path inside the backup with ``/`` for either slash (some zip tools write ``\\``), and whether it
    is a folder entry; :class:`_Refused` for a path that leaves the backup, a member that is encrypted, or one that
    is not a regular file or a folder (a symbolic link, a device)."""
    raw = info.filename
    if info.flag_bits & ENCRYPTED_FLAGS:
        raise _Refused(raw, "is encrypted; a backup is never encrypted")
    name = raw.replace("\\", "/")
    if name.startswith("/"):
        raise _Refused(raw, "has an absolute path; a backup's files are inside it")
    if _DRIVE.match(name):
        raise _Refused(raw, "names a drive; a backup's files are inside it")
    parts = name.split("/")
    if ".." in parts:
        raise _Refused(raw, 'climbs out of the backup ("..")')
    if any(is_unsafe_char(c) for c in name):
        raise _Refused(raw, "has a control character in its name")
    mode = info.external_attr >> UNIX_MODE_SHIFT
    kind = stat.S_IFMT(mode)
    dos = info.external_attr & 0xFFFF
    folder = name.endswith("/") or kind == stat.S_IFDIR or bool(dos & DOS_FOLDER and not kind)
    if kind == stat.S_IFLNK or (not kind and dos & DOS_REPARSE_POINT):
        raise _Refused(raw, "is a symbolic link, not a file")
    if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
        raise _Refused(raw, "is a device or other special file, not a file")
    if folder and info.file_size:
        raise _Refused(raw, "is a folder that holds data")
    if not folder and info.compress_type not in READABLE_METHODS:
        raise _Refused(raw, f"is compressed with a method this app cannot read (method {info.compress_type})")
    return "/".join(p for p in parts if p not in ("", ".")), folder


def _is_clutter(name: str) -> bool:
    return name.split("/", 1)[0] == "__MACOSX" or name.rsplit("/", 1)[-1] in OS_CLUTTER


def _members(zf: zipfile.ZipFile, label: str) -> dict[str, zipfile.ZipInfo]:
    """The backup's files by their path inside it (a folder that wraps them all, as a desktop's "compress" makes,
    is taken off); refuses what a backup cannot hold."""
    files: dict[str, zipfile.ZipInfo] = {}
    folders: dict[str, str] = {}
    for info in zf.infolist():
        try:
            name, folder = _member_name(info)
        except _Refused as exc:
            raise _refusal(label, exc.member, exc.why) from None
        if _is_clutter(name) or not name:
            continue
        if folder:
            folders[name] = info.filename
            continue
        if name in files:
            raise _refusal(label, name, "is in the backup twice")
        files[name] = info
    if MANIFEST not in files:
        tops = {name.split("/", 1)[0] for name in files}
        if len(tops) == 1 and f"{next(iter(tops))}/{MANIFEST}" in files:
            cut = len(next(iter(tops))) + 1
            files = {name[cut:]: info for name, info in files.items()}
            folders = {name[cut:]: raw for name, raw in folders.items() if len(name) >= cut}
    parents = {name.rsplit("/", 1)[0] for name in files if "/" in name}
    for name, raw in folders.items():
        if name and name not in parents:
            raise _refusal(label, raw, "is a folder, not a file of the backup")
    return files


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: list[int], name: str) -> bytes:
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
                raise _Refused(name, "inflates to more than it declares")
    budget[0] -= got
    return b"".join(chunks)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number in it has more than {MAX_DIGITS} digits")
    return int(text)


def _tables(data: Any, name: str) -> dict[str, dict[str, dict[str, Any]]]:
    """A parsed TinyDB file: tables of rows keyed by document numbers (TinyDB reads every key as an ``int``)."""
    if not isinstance(data, dict):
        raise _Refused(name, "is not a table file (not a JSON object)")
    for table, rows in data.items():
        if not isinstance(rows, dict):
            raise _Refused(name, f"has a table {_shown(str(table))!r} that is not a table of rows")
        for key, row in rows.items():
            if not (key.isascii() and key.isdigit() and len(key) <= 12):
                raise _Refused(name, f"has a row {_shown(key[:20])!r} whose key is not a document number")
            if not isinstance(row, dict):
                raise _Refused(name, f"has a row {key} that is not an object")
    return data


def _check_session(name: str, data: bytes) -> None:
    import scoring

    inner = name[len(SESSIONS) + 1 :]
    tables = _tables(json.loads(data.decode("utf-8"), parse_int=_parse_int), name)
    rows = tables.get(SESSION_TABLE)
    if not rows or len(rows) != 1:
        raise _Refused(name, "does not hold exactly one session")
    stored = next(iter(rows.values()))
    try:
        doc = SessionDoc.from_stored(stored)
        check_id(doc.id)
        check_limits(doc.record, stored)
    except StorageError as exc:  # InputLimitError, InvalidSessionError, SchemaVersionError
        raise _Refused(name, f"cannot be restored ({exc})") from None
    if f"{doc.id}.json" != inner:
        raise _Refused(name, f"holds another session ({_shown(doc.id)})")
    try:
        scoring.score(doc.record)
    except scoring.ScoringError as exc:
        where = f" (at {exc.path})" if exc.path else ""
        raise _Refused(name, f"holds a game that cannot be scored: {exc.message}{where}") from None
    except ImportError:
        raise _Refused(name, "holds a game this version of the app cannot check yet") from None
    except RecursionError:
        raise _Refused(name, "holds a game record nested too deeply") from None
    except (ValueError, TypeError, KeyError, OverflowError) as exc:  # scoring should say ScoringError
        raise _Refused(name, f"holds a game that cannot be scored: {exc}") from None


def _check_settings(data: Any) -> None:
    _tables(data, SETTINGS)


def _check_roster(data: Any) -> None:
    check_roster_data(_tables(data, PLAYERS))


def _check_nights(data: Any) -> None:
    check_nights_file(_tables(data, NIGHTS_FILE))  # NightDocumentError / SchemaVersionError name the night


CHECKS = {PLAYERS: _check_roster, SETTINGS: _check_settings, NIGHTS_FILE: _check_nights}


def _check_extra(name: str, data: bytes) -> None:
    parsed = json.loads(data.decode("utf-8"), parse_int=_parse_int)
    try:
        CHECKS[name](parsed)
    except (ValueError, StorageError) as exc:
        raise _Refused(name, f"is not valid ({exc})") from None


def _check_manifest(label: str, manifest: Any, files: dict[str, zipfile.ZipInfo]) -> None:
    """The manifest says what the backup holds, and the backup holds exactly that."""
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{label} is not a Card Table Companion backup (its {MANIFEST} is not one)")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _refusal(label, MANIFEST, "has no version")
    if version > BACKUP_VERSION:
        raise _refusal(label, MANIFEST, f"is of version {version}, made by a newer version of the app; update it")
    present = sorted(name for name in files if name != MANIFEST)
    for name in present:
        inner = name[len(SESSIONS) + 1 :]
        if name in EXTRA_FILES or (name.startswith(f"{SESSIONS}/") and name.endswith(".json") and "/" not in inner):
            continue
        raise _refusal(label, name, "is not part of a Card Table Companion backup")
    sessions = [name for name in present if name.startswith(f"{SESSIONS}/")]
    count = manifest.get("sessions")
    if not isinstance(count, int) or isinstance(count, bool):
        raise _refusal(label, MANIFEST, "does not say how many sessions were backed up")
    if version >= 3:
        listed = manifest.get("files")
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise _refusal(label, MANIFEST, "does not list the backup's files")
        for name in listed:
            if name not in files or name == MANIFEST:
                raise _refusal(label, name, f"is listed in the {MANIFEST} but is not in the backup")
        unlisted = sorted(set(present) - set(listed))
        if unlisted:
            raise _refusal(label, unlisted[0], f"is in the backup but not listed in its {MANIFEST}")
    if count != len(sessions):
        raise _refusal(
            label,
            MANIFEST,
            f"lists {count} session{'s' if count != 1 else ''} but the backup holds {len(sessions)}",
        )


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


READ_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    OSError,
    EOFError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    KeyError,
    TypeError,
    StopIteration,
    AttributeError,
    RecursionError,
)
"""What reading and parsing one member may raise (a CRC mismatch, a damaged stream, JSON that is not)."""


def check_backup(path: Path, progress: Progress | None = None, *, name: str | None = None) -> CheckedBackup:
    """Read and verify a whole backup; raises :class:`~storage.errors.BackupError`, one line naming the member
    and what is wrong with it. Nothing is changed anywhere. ``name`` is how the backup is called in messages
    (default: the file's name).

    Checked, in this order: the zip's size, entries and declared sizes (a zip bomb is refused from its directory);
    every member (not encrypted, a regular file or a folder, no path leaving the backup with either slash, a
    compression this app reads); that the manifest lists exactly the files present, sessions included (version 3;
    older backups: the number of sessions), and no file but a backup's; then every document: each session's shape,
    id, limits and its game replayed through scoring, the roster, settings and nights of the right shape."""
    path = Path(path)
    label = _one_line(name or path.name)
    try:
        with _open_regular(path) as handle, zipfile.ZipFile(handle) as zf:
            checked = _check_zip(zf, path, label, progress)
    except BackupError:
        raise
    except READ_ERRORS as exc:
        raise BackupError(_one_line(f"{label} is damaged and cannot be restored ({exc})")) from None
    return checked


def _check_zip(zf: zipfile.ZipFile, path: Path, label: str, progress: Progress | None) -> CheckedBackup:
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
    files = _members(zf, label)
    if MANIFEST not in files:
        raise BackupError(f"{label} is not a Card Table Companion backup (it has no {MANIFEST})")
    budget = [MAX_BACKUP_UNCOMPRESSED]
    try:
        manifest = json.loads(_read_member(zf, files[MANIFEST], budget, MANIFEST).decode("utf-8"))
    except _Refused as exc:
        raise _refusal(label, exc.member, exc.why) from None
    except READ_ERRORS as exc:
        raise _refusal(label, MANIFEST, f"cannot be read ({exc})") from None
    _check_manifest(label, manifest, files)
    sessions: dict[str, bytes] = {}
    extras: dict[str, bytes] = {}
    total = len(files)
    for n, (member, info) in enumerate(sorted(files.items()), start=1):
        if member == MANIFEST:
            continue
        try:
            data = _read_member(zf, info, budget, member)
            if member in EXTRA_FILES:
                _check_extra(member, data)
                extras[member] = data
            else:
                _check_session(member, data)
                sessions[member[len(SESSIONS) + 1 :]] = data
        except _Refused as exc:
            raise _refusal(label, exc.member, exc.why) from None
        except READ_ERRORS as exc:
            raise _refusal(label, member, f"cannot be read ({exc})") from None
        if progress is not None:
            progress(n, total)
    counted = manifest.get("nights")
    counted = counted if isinstance(counted, int) and not isinstance(counted, bool) else None
    if NIGHTS_FILE not in extras and counted:
        raise _refusal(label, NIGHTS_FILE, f"is missing ({counted} nights were backed up)")
    has_nights = NIGHTS_FILE in extras or counted == 0
    return CheckedBackup(path, sessions, extras, has_nights=has_nights, name=label)


def restore(
    archive: ArchiveCore,
    path: Path | CheckedBackup,
    progress: Progress | None = None,
    *,
    nights: NightStore | None = None,
    allow_empty: bool = False,
) -> int:
    """Replace the archive's sessions, roster and game nights by those in backup ``path``; returns the number of
    sessions.

    The whole backup is checked first (:func:`check_backup`; nothing changes if anything in it is refused). A
    backup of no session is refused (:class:`~storage.errors.EmptyBackupError`) unless ``allow_empty``. Then the
    current state is backed up (``backups/pre-restore-*.zip``) and the backup's files replace the archive's through
    the restore journal (:mod:`storage.restoring`): a kill at any moment leaves the archive as it was, or wholly
    restored by the next open. ``nights`` is the open night store, which reads the restored nights again."""
    archive.check_writable()
    checked = path if isinstance(path, CheckedBackup) else check_backup(Path(path))
    if checked.empty and not allow_empty:
        raise EmptyBackupError(
            f"{checked.name or checked.path.name} holds no sessions: restoring it would leave the archive empty "
            f"(it holds {len(archive)} now); nothing was restored"
        )
    with archive.lock:
        backup(archive, prefix="pre-restore-")
        action = REPLACE if NIGHTS_FILE in checked.extras else REMOVE if checked.has_nights else KEEP
        brought = {k: checked.extras[k] for k in (PLAYERS, NIGHTS_FILE) if k in checked.extras}
        plan = stage(archive, checked.name, checked.sessions, brought, nights=action, progress=progress)
        commit(archive, plan)  # from here on, the restore completes (on the next open if not now)
        complete(archive, plan)
        archive.unsaved.clear()  # a save that failed before the restore must not overwrite a restored session
        archive.reindex_all()
        archive.players.reload()
        if nights is not None and action != KEEP:
            nights.replace_file(checked.extras.get(NIGHTS_FILE))
        return len(archive)
