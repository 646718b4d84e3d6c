"""A pytest plugin that notes where each test's CPU time goes, process by process (Linux, read from ``/proc``).

Loaded with ``-p`` (the browser-suite benchmark, :mod:`bench.browser_ab`, copies this file beside the tree it runs
and loads it as ``ctc_cpu_meter``) and active only when ``CTC_CPU_METER`` names a file: one JSON line per test is
appended there, with its node id, outcome, wall seconds (set-up, the test and teardown, reruns included) and the
CPU seconds (user + system) of

* ``pytest``: the test process itself (Playwright's Python side, the test's own work), less this plugin's thread;
* ``server``: the app server (``python -m app``), every start of it;
* ``renderer``, ``gpu``, ``browser``, ``utility``, ``chromium-other``: Chromium's processes by their ``--type``;
* ``driver``: Playwright's Node driver; ``other``: any other process started under pytest (``python -m scoring``).

Every process under pytest is read every ``INTERVAL_S`` seconds; a process that ends between two readings loses
at most that interval's CPU time (a server stopped at teardown, a renderer when its context closes), so the figures
are a slight underestimate, alike for every test. A process that already ran before the test (the run's Chromium)
counts from the test's start.

Nothing here imports the project: the file is used standalone.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.watchdog import descendants

METER_ENV = "CTC_CPU_METER"
INTERVAL_S = 0.1
TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("pytest", "server", "renderer", "gpu", "browser", "utility", "chromium-other", "driver", "other")


def _stat(path: Path) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a ``/proc/PID/stat`` or ``/proc/PID/task/TID/stat``."""
    try:
        fields = path.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after "pid (comm)": state ppid ... utime is field 14 of stat, stime 15 (1-based): here 11 and 12 (0-based)
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def kind_of(cmdline: list[str]) -> str:
    """Which of :data:`KINDS` a process with this command line is.

    >>> kind_of(["/usr/lib/chromium/chromium", "--type=renderer", "--lang=en-US"])
    'renderer'
    >>> kind_of(["/usr/lib/chromium/chromium", "--no-sandbox"])
    'browser'
    >>> kind_of(["/x/.venv/bin/python", "-m", "app", "--port", "8550"])
    'server'
    """
    if not cmdline:
        return "other"
    program = os.path.basename(cmdline[0])
    if "chromium" in program or "chrome" in program:
        kinds = {"renderer": "renderer", "gpu-process": "gpu", "utility": "utility", "zygote": "chromium-other"}
        for arg in cmdline[1:]:
            if arg.startswith("--type="):
                return kinds.get(arg.split("=", 1)[1], "chromium-other")
        return "browser"
    if program == "node" or any(arg.endswith("cli.js") for arg in cmdline[1:2]):
        return "driver"
    if "-m" in cmdline and cmdline[cmdline.index("-m") + 1 : cmdline.index("-m") + 2] == ["app"]:
        return "server"
    return "other"


def _children_cpu(root: int) -> dict[int, tuple[str, float]]:
    """Every process descended from ``root``: pid → (kind, CPU seconds so far)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            read = _stat(entry / "stat")
            if read is not None:
                parents[int(entry.name)], cpu[int(entry.name)] = read
    tree = descendants(parents, [root]) - {root}
    found = {}
    for pid in tree:
        try:
            cmdline = (Path("/proc") / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        parts = [part for part in cmdline if part]
        if parts and " " in parts[0]:  # Chromium's child processes write their command line back as one string
            parts = " ".join(parts).split()
        found[pid] = (kind_of(parts), cpu[pid])
    return found


class Meter:
    """Reads the process tree under this process on a thread of its own until :meth:`stop`."""

    def __init__(self) -> None:
        self.me = os.getpid()
        self.start_cpu = _children_cpu(self.me)
        self.last: dict[int, tuple[str, float]] = dict(self.start_cpu)
        self.own_start = self._own()
        self.wall_start = time.monotonic()
        self._done = threading.Event()
        self._tid = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _own(self) -> float:
        read = _stat(Path(f"/proc/{self.me}/stat"))
        return read[1] if read else 0.0

    def _run(self) -> None:
        self._tid = threading.get_native_id()
        while not self._done.wait(INTERVAL_S):
            self._read()

    def _read(self) -> None:
        """Read the tree again; a process keeps the first definite kind it was seen as (one that is ending has an
        empty command line, ``other``; a child just forked from Chromium's zygote still has the zygote's)."""
        for pid, (kind, seconds) in _children_cpu(self.me).items():
            known = self.last.get(pid, (kind, 0.0))[0]
            self.last[pid] = (kind if known in ("other", "chromium-other") else known, seconds)

    def stop(self) -> dict[str, Any]:
        self._read()
        self._done.set()
        self._thread.join()
        thread = _stat(Path(f"/proc/{self.me}/task/{self._tid}/stat")) if self._tid else None
        figures = dict.fromkeys(KINDS, 0.0)
        figures["pytest"] = self._own() - self.own_start - (thread[1] if thread else 0.0)
        for pid, (kind, seconds) in self.last.items():
            figures[kind] += seconds - self.start_cpu.get(pid, (kind, 0.0))[1]
        wall = time.monotonic() - self.wall_start
        return {"wall": round(wall, 2), "cpu": {kind: round(value, 2) for kind, value in figures.items()}}


_OUTCOMES: dict[str, list[str]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    target = os.environ.get(METER_ENV)
    if not target:
        yield
        return
    meter = Meter()
    yield
    figures = meter.stop()
    outcomes = _OUTCOMES.pop(item.nodeid, [])
    line = {"test": item.nodeid, "outcomes": outcomes, "load": list(os.getloadavg()), **figures}
    with open(target, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get(METER_ENV) and (report.when == "call" or report.outcome != "passed"):
        _OUTCOMES.setdefault(report.nodeid, []).append(report.outcome)
