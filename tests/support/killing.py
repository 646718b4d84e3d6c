"""Kill a piece of work at a random moment: run it in a forked child and SIGKILL it (what a crash, a flat battery or
the operating system does to the app), then look at what it left on disk."""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path


def fork_and_kill(work: Callable[[int], None], delay: float | None, wait_for: Path | None = None) -> str:
    """Run ``work(write_fd)`` in a forked child; it writes ``ready\\n`` to ``write_fd`` once it has opened what it
    works on, and anything else it wants to say after. Kill the child ``delay`` s after it was ready (or after
    ``wait_for`` appeared); ``None``: let it finish. Returns what the child wrote."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        try:
            os.close(read_fd)
            work(write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    said = b""
    deadline = time.monotonic() + 20.0
    while b"ready\n" not in said and time.monotonic() < deadline:
        readable, _, _ = select.select([read_fd], [], [], 0.5)
        if readable:
            chunk = os.read(read_fd, 65536)
            if not chunk:
                break
            said += chunk
    if delay is not None:
        while wait_for is not None and not wait_for.exists() and time.monotonic() < deadline:
            readable, _, _ = select.select([read_fd], [], [], 0.0005)
            if readable:
                break
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(read_fd, 65536):
        said += chunk
    os.close(read_fd)
    return said.decode()
