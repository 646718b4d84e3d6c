"""Crash-safe file writes, and a TinyDB storage built on them.

TinyDB's own ``JSONStorage`` writes in place, so a crash mid-write leaves a broken file. Here every write goes to a
temporary file in the same folder, is flushed and fsynced, replaces the old file with ``os.replace`` (atomic on
POSIX), and then the folder itself is fsynced so that the rename survives a power cut.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tinydb.storages import Storage


class StorageWriteError(OSError):
    """A write that did not reach the disk (full disk, no permission). The previous file is untouched."""

    def __init__(self, path: Path, cause: OSError) -> None:
        reason = cause.strerror or str(cause)
        if cause.errno is not None and cause.errno == 28:
            reason = "the disk is full"
        elif isinstance(cause, PermissionError):
            reason = "permission denied"
        super().__init__(cause.errno, f"could not save {path.name}: {reason}; the previous version is intact")
        self.path = path
        self.cause = cause


def fsync_dir(folder: Path) -> None:
    """fsync a folder so that a rename inside it is durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` holds either the old or the new content, never a mix.

    Raises :class:`StorageWriteError` on failure; the temporary file is removed and ``path`` is untouched.
    """
    path = Path(path)
    folder = path.parent
    tmp_name = ""
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
        tmp_name = ""
        fsync_dir(folder)
    except OSError as exc:
        raise StorageWriteError(path, exc) from exc
    finally:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def atomic_write_json(path: Path, data: Any) -> None:
    """Serialise ``data`` as compact UTF-8 JSON and write it atomically."""
    atomic_write_bytes(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


class AtomicJSONStorage(Storage):
    """A TinyDB storage that never leaves a half-written file (see :func:`atomic_write_bytes`).

    A missing file reads as an empty database; a damaged one raises :class:`json.JSONDecodeError` (or
    :class:`UnicodeDecodeError`) so that the caller can set it aside.
    """

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = False, **_: Any) -> None:
        self.path = Path(path)
        if create_dirs:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw:
            return None
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise json.JSONDecodeError("top level is not an object", raw.decode("utf-8", "replace"), 0)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_json(self.path, data)

    def close(self) -> None:
        pass
