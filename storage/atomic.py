"""Crash-safe file writes, and a TinyDB storage built on them.

TinyDB's own ``JSONStorage`` writes in place, so a crash mid-write leaves a broken file. Here every write goes to a
temporary file in the same folder, is flushed and fsynced, replaces the old file with ``os.replace`` (atomic on
POSIX), and then the folder itself is fsynced so that the rename survives a power cut.
"""

from __future__ import annotations

import contextlib
import errno as errno_codes
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from tinydb.storages import Storage

from storage.errors import StorageError, UnreadableFileError


class StorageWriteError(OSError, StorageError):
    """A write that did not reach the disk (full disk, no permission). The previous file is untouched.

    >>> str(StorageWriteError(Path("abc.json"), OSError(28, "No space left on device")))
    'could not save abc.json: the disk is full; the previous version is intact'
    """

    def __init__(self, path: Path, cause: OSError) -> None:
        reason = cause.strerror or str(cause)
        if cause.errno == errno_codes.ENOSPC or cause.errno == errno_codes.EDQUOT:
            reason = "the disk is full"
        elif isinstance(cause, PermissionError) or cause.errno in (errno_codes.EACCES, errno_codes.EPERM):
            reason = "permission denied"
        elif cause.errno == errno_codes.EROFS:
            reason = "the storage is read-only"
        message = f"could not save {path.name}: {reason}; the previous version is intact"
        super().__init__(cause.errno, message)
        self.message = message
        self.path = path
        self.cause = cause

    def __str__(self) -> str:
        return self.message


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


def _sync(fd: int) -> None:
    """fdatasync where there is one (it skips the timestamps, which nothing here relies on), else fsync."""
    sync = getattr(os, "fdatasync", None) or os.fsync
    sync(fd)


@contextlib.contextmanager
def atomic_file(path: Path, *, durable: bool = True) -> Iterator[BinaryIO]:
    """A new file, opened for writing in ``path``'s folder, that takes ``path``'s place when the block ends: ``path``
    holds either the old or the new content, never a mix (a block that raises leaves it untouched).

    With ``durable`` (the default) the data and the rename are fsynced, so the new content survives a power cut
    once the block is left. ``durable=False`` skips both fsyncs, for files that can be rebuilt (the session index):
    the replacement is still atomic for a crash of the app, but a power cut may bring back the old content.

    Raises :class:`StorageWriteError` for a failed write; the temporary file is removed in any case.
    """
    path = Path(path)
    folder = path.parent
    tmp_name = ""
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            if durable:
                _sync(handle.fileno())
        os.replace(tmp_name, path)
        tmp_name = ""
        if durable:
            fsync_dir(folder)
    except OSError as exc:
        raise StorageWriteError(path, exc) from exc
    finally:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def free_path(folder: Path, name: Callable[[int], str]) -> Path:
    """``folder / name(0)``, or else the first of ``folder / name(1)``, ``name(2)``... that does not exist yet: a
    file written there replaces none.

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "night.txt").write_text("kept")
    ...     free_path(Path(tmp), lambda n: f"night-{n}.txt" if n else "night.txt").name
    'night-1.txt'
    """
    n = 0
    target = folder / name(n)
    while target.exists():
        n += 1
        target = folder / name(n)
    return target


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that ``path`` holds either the old or the new content, never a mix
    (:func:`atomic_file`; ``durable`` as there).

    Raises :class:`StorageWriteError` on failure; the temporary file is removed and ``path`` is untouched.
    """
    with atomic_file(path, durable=durable) as handle:
        handle.write(data)


def atomic_write_json(path: Path, data: Any, *, durable: bool = True) -> None:
    """Serialise ``data`` as compact UTF-8 JSON and write it atomically."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    atomic_write_bytes(path, text.encode("utf-8"), durable=durable)


def atomic_write_document(path: Path, table: str, document: bytes, *, durable: bool = True) -> None:
    """Write a TinyDB file of one ``table`` holding one document (id 1) given as its JSON, atomically: the
    document is not parsed or serialised again.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "one.json"
    >>> atomic_write_document(path, "session", b'{"id":"x"}')
    >>> json.loads(path.read_bytes())
    {'session': {'1': {'id': 'x'}}}
    """
    head = json.dumps({table: {"1": None}}, separators=(",", ":")).encode("utf-8")[: -len(b"null}}")]
    atomic_write_bytes(path, head + document + b"}}", durable=durable)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of ``path``, read only if it is a regular file: a folder, FIFO, device or socket in its place (or
    a read refused) raises :class:`~storage.errors.UnreadableFileError`; never blocks on a FIFO. With ``limit``,
    at most ``limit + 1`` bytes are read (so a caller sees that the file is too long without reading all of it).

    :class:`FileNotFoundError` if there is nothing at ``path``.

    >>> import tempfile
    >>> read_regular_bytes(Path(tempfile.mkdtemp()))
    Traceback (most recent call last):
    ...
    storage.errors.UnreadableFileError: it is a folder, not a file
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise UnreadableFileError("it is a folder, not a file") from None
    except OSError as exc:
        raise UnreadableFileError(f"it cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFileError(f"it is {_kind(info.st_mode)}, not a file")
        chunks: list[bytes] = []
        remaining = None if limit is None else limit + 1
        while remaining is None or remaining > 0:
            chunk = os.read(fd, 1 << 20 if remaining is None else min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            if remaining is not None:
                remaining -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFileError(f"it cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


class AtomicJSONStorage(Storage):
    """A TinyDB storage that never leaves a half-written file (see :func:`atomic_write_bytes`).

    A missing file reads as an empty database; a damaged one raises :class:`json.JSONDecodeError` (or
    :class:`UnicodeDecodeError`), and a folder or an unreadable entry in its place
    :class:`~storage.errors.UnreadableFileError`, so that the caller can set it aside.
    """

    def __init__(
        self, path: str | os.PathLike[str], create_dirs: bool = False, *, durable: bool = True, **_: Any
    ) -> None:
        self.path = Path(path)
        self.durable = durable
        if create_dirs:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = read_regular_bytes(self.path)
        except FileNotFoundError:
            return None
        if not raw:
            return None
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise json.JSONDecodeError("top level is not an object", raw.decode("utf-8", "replace"), 0)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_json(self.path, data, durable=self.durable)

    def close(self) -> None:
        pass
