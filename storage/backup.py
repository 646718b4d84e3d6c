"""Backups of the whole archive as zip files, rolling automatic backups, and restore.

A backup holds every session file, the player roster, the settings and a manifest. A restore checks the whole
backup first (nothing changes if any file in it is unreadable) and takes a backup of the current state before
replacing anything, so a restore can itself be undone.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from storage.atomic import StorageWriteError, atomic_write_bytes, fsync_dir
from storage.errors import BackupError, StorageError
from storage.models import SessionDoc, utc_now

if TYPE_CHECKING:
    from storage.archive import Archive

BACKUP_FORMAT = "card-table-companion/backup"
MANIFEST = "manifest.json"
AUTO_PREFIX = "auto-"
EXTRA_FILES = ("players.json", "settings.json")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H%M%S%fZ")


def backups_dir(archive: Archive) -> Path:
    return archive.data_dir / "backups"


def backup(archive: Archive, dest: Path | None = None, *, prefix: str = "backup-") -> Path:
    """Write a zip of the archive to ``dest`` (a file, a folder, or by default ``backups/``); returns its path."""
    if dest is None:
        target = backups_dir(archive) / f"{prefix}{_stamp()}.zip"
    else:
        dest = Path(dest)
        target = dest / f"{prefix}{_stamp()}.zip" if dest.is_dir() else dest
    with archive._lock:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise StorageWriteError(target, exc) from exc
        try:
            with os.fdopen(fd, "wb") as handle:
                sessions = sorted((archive.data_dir / "sessions").glob("*.json"))
                with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                    manifest = {
                        "format": BACKUP_FORMAT,
                        "version": 1,
                        "created_at": utc_now(),
                        "sessions": len(sessions),
                    }
                    zf.writestr(MANIFEST, json.dumps(manifest))
                    for path in sessions:
                        with contextlib.suppress(FileNotFoundError):
                            zf.writestr(f"sessions/{path.name}", path.read_bytes())
                    for name in EXTRA_FILES:
                        extra = archive.data_dir / name
                        if extra.exists():
                            zf.writestr(name, extra.read_bytes())
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


def list_backups(archive: Archive) -> list[Path]:
    """Backups in ``backups/``, newest first."""
    folder = backups_dir(archive)
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob("*.zip") if not p.name.startswith(".")]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def auto_backup(archive: Archive, *, keep: int = 7) -> Path | None:
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


def _check(path: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Read and verify a backup: (session file name → bytes, extra file name → bytes). Raises BackupError."""
    if not path.is_file():
        raise BackupError(f"there is no backup file {path}")
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if MANIFEST not in names:
                raise BackupError(f"{path.name} is not a Card Table Companion backup")
            manifest = json.loads(zf.read(MANIFEST))
            if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
                raise BackupError(f"{path.name} is not a Card Table Companion backup")
            sessions: dict[str, bytes] = {}
            extras: dict[str, bytes] = {}
            for name in names:
                if name.startswith("sessions/") and name.endswith(".json") and "/" not in name[len("sessions/") :]:
                    data = zf.read(name)
                    tables = json.loads(data.decode("utf-8"))
                    stored = next(iter(tables["session"].values()))
                    doc = SessionDoc.from_stored(stored)
                    if f"{doc.id}.json" != name[len("sessions/") :]:
                        raise BackupError(f"{path.name}: {name} holds another session")
                    sessions[name[len("sessions/") :]] = data
                elif name in EXTRA_FILES:
                    data = zf.read(name)
                    json.loads(data.decode("utf-8"))
                    extras[name] = data
    except BackupError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise BackupError(f"{path.name} is damaged and cannot be restored ({exc})") from None
    except (ValueError, KeyError, TypeError, StopIteration, AttributeError, StorageError) as exc:
        raise BackupError(f"{path.name} holds a file that cannot be read ({exc}); nothing was restored") from None
    return sessions, extras


def restore(archive: Archive, path: Path) -> int:
    """Replace the archive's sessions and roster by those in backup ``path``; returns the number of sessions.

    The current state is backed up first (``backups/pre-restore-*.zip``)."""
    archive._writable()
    sessions, extras = _check(path)
    with archive._lock:
        backup(archive, prefix="pre-restore-")
        folder = archive.data_dir / "sessions"
        for name, data in sessions.items():
            atomic_write_bytes(folder / name, data)
        for current in folder.glob("*.json"):
            if current.name not in sessions:
                with contextlib.suppress(FileNotFoundError):
                    current.unlink()
        fsync_dir(folder)
        if "players.json" in extras:
            atomic_write_bytes(archive.data_dir / "players.json", extras["players.json"])
        archive.reindex_all()
        archive.players.reload()
    return len(sessions)
