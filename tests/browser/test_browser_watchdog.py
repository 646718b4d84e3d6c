"""The browser tests' watchdog (:mod:`tests.support.watchdog`) without a browser: the process tree it kills, the
marker it finds Chromium by, and when it fires. With a real Chromium: ``tests/browser/test_watchdog.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.watchdog import Chromium, Watchdog, process_tree

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


def wait_for(predicate: object, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


PARENT = "import subprocess, sys, time; subprocess.Popen(['sleep', '61']); time.sleep(60)"
"""A process with a child (``sleep 61``), as Chromium's browser process has its renderers."""


def test_the_process_tree_holds_the_root_and_its_descendants() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT])
    try:
        assert wait_for(lambda: any("61" in cmdline(p) for p in process_tree([parent.pid])))
        tree = process_tree([parent.pid])
        assert parent.pid in tree and os.getpid() not in tree
        assert len(tree) == 2, [cmdline(p) for p in tree]
    finally:
        for pid in process_tree([parent.pid]):
            os.kill(pid, 9)
        parent.wait(timeout=10)


def test_kill_ends_the_process_with_the_marker_and_its_children_only() -> None:
    holder = Chromium(launch=lambda args: None, args=["--no-sandbox"])
    another = Chromium(launch=lambda args: None, args=["--no-sandbox"])
    assert holder.marker != another.marker
    marked = subprocess.Popen([sys.executable, "-c", PARENT, holder.marker])
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", another.marker])
    try:
        assert wait_for(lambda: len(process_tree([marked.pid])) == 2)
        child = next(p for p in process_tree([marked.pid]) if p != marked.pid)
        killed = holder.kill()
        assert sorted(killed) == sorted([marked.pid, child])
        assert marked.wait(timeout=10) == -9
        assert wait_for(lambda: not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text())
        assert other.poll() is None, "a process of another holder was killed"
    finally:
        other.kill()
        other.wait(timeout=10)
        marked.kill()
        marked.wait(timeout=10)


class FakeChromium:
    def __init__(self) -> None:
        self.kills = 0

    def kill(self) -> list[int]:
        self.kills += 1
        return [1, 2, 3]


def test_the_watchdog_kills_the_browser_at_the_limit_and_says_so() -> None:
    read, write = os.pipe()
    fake = FakeChromium()
    try:
        with Watchdog(0.2, fake, "tests/x.py::test_stuck", grace=60, fd=write) as dog:  # type: ignore[arg-type]
            assert wait_for(lambda: dog.fired)
            assert wait_for(lambda: fake.kills == 1)
        said = os.read(read, 4096).decode()
    finally:
        os.close(read)
        os.close(write)
    assert "tests/x.py::test_stuck ran past 0.2 s: Chromium was killed (3 processes)" in said
    assert fake.kills == 1


def test_a_test_that_ends_in_time_is_left_alone() -> None:
    fake = FakeChromium()
    with Watchdog(5, fake, "tests/x.py::test_quick", grace=60) as dog:  # type: ignore[arg-type]
        pass
    time.sleep(0.1)
    assert not dog.fired and fake.kills == 0
