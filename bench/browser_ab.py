"""The browser tests' CPU and wall time against an earlier commit, side by side.

The tests named (pytest node ids or files under ``tests/browser``) are run by this tree and by the tests of
``--against COMMIT`` (the whole tree of that commit, taken out with ``git archive`` into a temporary folder; its app
is served from there too). Each side runs them in one pytest process of its own (one Chromium for the run, as in
the suite), the sides taking turns, never at once, ``--turns`` times, the first side alternating. Every test's CPU
time is read from ``/proc`` process by process (:mod:`bench.cpu_meter`: the test process, the app server, Chromium's
renderer, GPU and browser processes, Playwright's driver), so other work on a loaded machine weighs less than on a
wall clock; its wall time (set-up, test and teardown) is given too, with the load average of each run.

The report: per test, the median over the turns of each side's CPU seconds (and where they went) and wall seconds,
and the median of the per-turn ratios (this tree / the commit; below 1 is less).

Run from the project root: ``.venv/bin/python -m bench.browser_ab --against main --turns 2
tests/browser/test_app_shell.py`` (a few minutes a test).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
METER = Path(__file__).resolve().parent / "cpu_meter.py"
PLUGIN = "ctc_cpu_meter"
GROUPS = {
    "chromium": ("renderer", "gpu", "browser", "utility", "chromium-other"),
    "server": ("server",),
    "pytest": ("pytest", "driver", "other"),
}
"""How the report groups the meter's kinds of process."""


def load() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def checkout(commit: str, into: Path) -> Path:
    """The tree of ``commit`` written under ``into`` (the work tree and its git are untouched)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_side(tree: Path, tests: list[str], plugin_dir: Path, log: Path, extra: list[str]) -> list[dict[str, Any]]:
    """Run ``tests`` with the pytest of ``tree`` (its conftests and helpers); one metered line a test."""
    log.unlink(missing_ok=True)
    env = {**os.environ, "CTC_CPU_METER": str(log), "PYTHONPATH": str(plugin_dir)}
    command = [sys.executable, "-m", "pytest", "-p", PLUGIN, "-p", "no:cacheprovider", "-q", "-o", "addopts=", *extra]
    done = subprocess.run([*command, *tests], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-2000:], sep="\n")
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def grouped(line: dict[str, Any]) -> dict[str, float]:
    cpu = line["cpu"]
    figures = {group: sum(cpu.get(kind, 0.0) for kind in kinds) for group, kinds in GROUPS.items()}
    figures["total"] = sum(figures.values())
    figures["wall"] = line["wall"]
    return figures


def compare(against: str, tests: list[str], turns: int, extra: list[str], keep: Path | None = None) -> dict[str, Any]:
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="browser-ab-") as folder:
        base = Path(folder)
        plugin_dir = base / "plugin"
        plugin_dir.mkdir()
        shutil.copy(METER, plugin_dir / f"{PLUGIN}.py")
        sides = {"before": checkout(against, base / "before"), "after": ROOT}
        for turn in range(turns):
            order = ["before", "after"] if turn % 2 == 0 else ["after", "before"]
            for side in order:
                started = load()
                lines = run_side(sides[side], tests, plugin_dir, base / f"{side}.jsonl", extra)
                runs.append({"turn": turn, "side": side, "load": [started, load()], "lines": lines})
                if keep is not None:  # written after every run: a sitting cut short keeps what it measured
                    keep.write_text(json.dumps({"against": against, "turns": turns, "runs": runs}, indent=1))
                print(f"turn {turn + 1} {side}: load {started} → {load()}", file=sys.stderr)
    return {"against": against, "turns": turns, "runs": runs}


def report(figures: dict[str, Any]) -> None:
    by_test: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for run in figures["runs"]:
        for line in run["lines"]:
            by_test.setdefault(line["test"], {"before": [], "after": []})[run["side"]].append(line)
    loads = [run["load"] for run in figures["runs"]]
    print(f"browser tests, this tree against {figures['against']}, {figures['turns']} turns, sides alternating")
    print(f"{os.cpu_count()} CPUs; load average (1, 5, 15 min) at each run's start: {[first for first, _ in loads]}")
    print("CPU seconds (Chromium / server / pytest+driver = total) and wall seconds, median over the turns")
    totals = {"before": [0.0, 0.0], "after": [0.0, 0.0]}
    for test, sides in by_test.items():
        print(f"\n{test}")
        medians = {}
        for side in ("before", "after"):
            rows = [grouped(line) for line in sides[side]]
            if not rows:
                print(f"  {side:6}: no figures")
                continue
            med = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
            medians[side] = med
            outcomes = ",".join(o for line in sides[side] for o in line["outcomes"])
            print(
                f"  {side:6}: {med['chromium']:6.1f} / {med['server']:5.1f} / {med['pytest']:5.1f}"
                f" = {med['total']:6.1f} CPU-s, wall {med['wall']:6.1f} s  ({outcomes})"
            )
            totals[side][0] += med["total"]
            totals[side][1] += med["wall"]
        pairs = list(zip(sides["before"], sides["after"], strict=False))
        if pairs and len(medians) == 2:
            cpu = statistics.median(grouped(a)["total"] / grouped(b)["total"] for b, a in pairs)
            wall = statistics.median(grouped(a)["wall"] / grouped(b)["wall"] for b, a in pairs)
            print(f"  after / before, median of the turns: CPU {cpu:.2f}, wall {wall:.2f}")
    (bc, bw), (ac, aw) = totals["before"], totals["after"]
    if bc and bw:
        print(f"\nall tests: CPU {bc:.1f} → {ac:.1f} s ({ac / bc:.2f}), wall {bw:.1f} → {aw:.1f} s ({aw / bw:.2f})")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.browser_ab", description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="pytest node ids or files (browser tests)")
    parser.add_argument("--against", required=True, help="the commit to compare with (main, a hash)")
    parser.add_argument("--turns", type=int, default=2, help="runs each side takes (default: %(default)s)")
    parser.add_argument("--json", type=Path, help="also write every run's figures to this file (after each run)")
    args, extra = parser.parse_known_args(argv)
    figures = compare(args.against, args.tests, args.turns, extra, args.json)
    report(figures)
    return figures


if __name__ == "__main__":
    main()
