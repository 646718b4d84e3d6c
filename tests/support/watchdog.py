"""Stopping a browser test that stopped answering, without the test's own thread.

A test waits on Playwright, and Playwright on Chromium. When a page stops answering for good (seen here: a
page whose renderer stayed at 100% CPU after a load or a reload), the wait may have no end: ``mouse.wheel``,
``evaluate`` and ``BrowserContext.close`` take no timeout. An exception raised in the test's thread by a signal
(SIGALRM, as pytest-timeout's) does not reliably end it: when the signal comes while Playwright's event loop runs a
callback, asyncio catches what the handler raises, logs it ("Exception in callback") and goes on waiting; in one
of Playwright's tasks, it ends that task and its waiters wait on.

So the watch is kept by a thread of its own:

1. at the limit it kills the run's Chromium, every process of it (found in ``/proc`` by a marker switch that only
   this run's browser carries). Playwright then fails every pending call with ``TargetClosedError``, the test fails,
   it is run again (``BROWSER_RERUNS`` in the conftest), and :meth:`Chromium.get` starts a new browser for it;
2. if the test is still running ``grace`` seconds later, :func:`faulthandler.dump_traceback_later` (a thread in C,
   which needs no lock of Python's) prints every thread's stack and ends the run with exit code 1: a run that fails
   at once, saying where it hung, instead of one that never ends.

What the watch does is written to the terminal the run was started from (the ``fd`` given), not to the test's
captured output, so that it is seen even when the run is ended.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import signal
import threading
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after its last ")"
    return int(stat.rsplit(")", 1)[1].split()[1])


def _processes_with(marker: str) -> list[int]:
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def process_tree(roots: list[int]) -> list[int]:
    """``roots`` and every process descended from them, read from ``/proc`` (Linux; elsewhere ``[]``)."""
    if not Path("/proc").is_dir():
        return []
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _parent_of(int(entry.name))
            if parent is not None:
                parents[int(entry.name)] = parent
    return sorted(descendants(parents, roots))


def descendants(parents: Mapping[int, int], roots: Iterable[int]) -> set[int]:
    """``roots`` and every process descended from them, given each process's parent (pid → parent pid)."""
    tree = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return tree


class Chromium:
    """The run's Chromium, launched on first use and launched again after it was killed or crashed."""

    def __init__(self, launch: Any, args: list[str]) -> None:
        self._launch = launch
        self._starts = 0
        self.marker = f"--ctc-test-browser={os.getpid()}-{uuid.uuid4().hex}"
        """A switch Chromium ignores; only the browser process of this holder carries it, so it can be found and
        killed (another holder, another run on the same machine, has its own)."""
        self._args = [*args, self.marker]
        self._browser: Any = None

    def get(self) -> Any:
        """A connected browser: the one running, or a new one if it is gone."""
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._launch(self._args)
            self._starts += 1
        return self._browser

    @property
    def starts(self) -> int:
        """How many times a browser was launched in this run."""
        return self._starts

    def kill(self) -> list[int]:
        """Kill every process of this run's Chromium (SIGKILL); returns their ids."""
        pids = process_tree(_processes_with(self.marker))
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        return pids

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()
        self._browser = None


class Watchdog:
    """Watch one test attempt: kill Chromium at ``limit`` seconds; end the run ``grace`` seconds after that."""

    def __init__(self, limit: float, chromium: Chromium, name: str, *, grace: float = 90.0, fd: int = 2) -> None:
        self.limit = limit
        self.grace = grace
        self.chromium = chromium
        self.name = name
        self.fd = fd
        self.fired = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="browser-test-watchdog", daemon=True)

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, f"\n[browser test watchdog] {text}\n".encode())

    def _watch(self) -> None:
        if self._done.wait(self.limit):
            return
        self.fired = True
        pids = self.chromium.kill()
        self._say(
            f"{self.name} ran past {self.limit:g} s: Chromium was killed ({len(pids)} processes), so its waits "
            "end with TargetClosedError; the test is run again with a new browser"
        )
        if not self._done.wait(max(self.grace - 1, 0)):
            self._say(f"{self.name} is still running {self.grace:g} s later: the run ends now, every stack follows")

    def __enter__(self) -> Watchdog:
        faulthandler.dump_traceback_later(self.limit + self.grace, exit=True, file=self.fd)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        faulthandler.cancel_dump_traceback_later()
        self._thread.join(timeout=5)
