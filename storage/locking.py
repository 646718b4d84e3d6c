"""Single-instance lock on a data folder: ``.lock``, opened without following symbolic links, locked with
:mod:`filelock` (``flock`` on POSIX, ``LockFileEx`` on Windows) without waiting.

The lock belongs to the open file, so it is released when the process ends in any way (even ``SIGKILL``);
a second :class:`FolderLock` on the same folder fails, in this process or another. A ``.lock`` that is a symbolic
link (or a folder, a FIFO...) is refused with :class:`~storage.errors.LockFileError`: the file it points to is
never opened, let alone truncated.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> first, second = FolderLock(folder), FolderLock(folder)
>>> first.acquire(), second.acquire(), folder_in_use(folder)
(True, False, True)
>>> first.release(); folder_in_use(folder)
False
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from filelock import lock_descriptor

from storage.errors import LockFileError
from storage.layout import LOCK_FILE

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)

__all__ = ["LOCK_FILE", "FolderLock", "folder_in_use"]


def _refuse_link(path: Path) -> None:
    """:class:`LockFileError` if ``path`` is a symbolic link or anything but a regular file (absent is fine)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise LockFileError(
            f"the lock file {path} is a symbolic link; it was not followed. Remove it (Card Table Companion makes "
            "a new one) and start again"
        )
    if not stat.S_ISREG(info.st_mode):
        raise LockFileError(f"the lock file {path} is not a regular file; remove it and start again")


def _open(path: Path, flags: int) -> int:
    """Open the lock file without following a symbolic link (:class:`LockFileError` if it is one)."""
    _refuse_link(path)  # where O_NOFOLLOW does not exist (Windows), this check stands alone
    try:
        fd = os.open(path, flags | _NOFOLLOW | _BINARY, 0o644)
    except OSError as exc:
        if os.path.islink(path):  # ELOOP: it became a link in between
            _refuse_link(path)
        raise exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LockFileError(f"the lock file {path} is not a regular file; remove it and start again")
    return fd


class FolderLock:
    """An exclusive, non-blocking lock on ``folder/.lock``."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; ``False`` if someone else holds it. Raises :class:`~storage.errors.LockFileError` if
        ``.lock`` is a symbolic link or not a file, :class:`OSError` if it cannot be made."""
        fd = _open(self.path, os.O_RDWR | os.O_CREAT)
        try:
            locked = lock_descriptor(fd, blocking=False)
        except OSError:
            os.close(fd)
            raise
        if not locked:
            os.close(fd)
            return False
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def folder_in_use(data_dir: Path) -> bool:
    """Whether a running Card Table Companion holds the folder's lock; creates and writes nothing (a symbolic
    link at ``.lock`` is not followed: it counts as not in use)."""
    path = Path(data_dir) / LOCK_FILE
    try:
        _refuse_link(path)
        fd = _open(path, os.O_RDONLY)
    except (OSError, LockFileError):
        return False  # no lock file: nobody has ever opened it for writing
    try:
        if os.name == "nt":  # pragma: no cover - a probe that takes the lock for a moment
            return not lock_descriptor(fd, blocking=False)
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # shared: needs no write access, changes nothing
        except BlockingIOError:
            return True
        except OSError:
            return False
        return False
    finally:
        os.close(fd)  # also releases the shared lock
