"""Single-instance lock on a data folder: ``fcntl.flock`` on ``.lock``, taken without waiting.

The lock belongs to the open file, so it is released when the process ends in any way (even ``SIGKILL``);
a second :class:`FolderLock` on the same folder fails, in this process or another.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

LOCK_FILE = ".lock"


class FolderLock:
    """An exclusive, non-blocking lock on ``folder/.lock``."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; ``False`` if someone else holds it. Raises :class:`OSError` if the file cannot be made."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if sys.platform == "win32":  # pragma: no cover - the app ships on POSIX systems (Android, iOS, desktop)
            self._fd = fd
            return True
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
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
                os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None
