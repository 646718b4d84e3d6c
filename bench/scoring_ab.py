"""Scoring speed against an earlier commit, side by side (issue 26: "every benchmark stays within 5% of today's
figures or gets better").

Every conformance case of this tree (``tests/cases/*/*.json``) is scored the way ``python -m scoring score`` scores it
(``scoring.score(record).to_json()``, or the error's JSON), ``--repeat`` times, by this tree's ``scoring`` and by the
``scoring`` of ``--against COMMIT`` (taken out of git with ``git archive`` into a temporary folder). Each side runs in a
process of its own that stays up for the whole sitting; the two take turns (never at once), ``--rounds`` times, and the
order within a round alternates. A round's figure is the CPU time of the process (``time.process_time``), so other
work on a loaded machine weighs less than it would on a wall clock. The report is the median of the per-round ratios
(this tree / the commit; below 1 is faster) with the load average before and after.

Run from the project root: ``.venv/bin/python -m bench.scoring_ab --against ac97fbf`` (about a minute).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from scoring import ScoringError, score

records = [json.loads(open(path, encoding="utf-8").read())["record"] for path in sys.argv[3:]]

def once(output):
    out = []
    for record in records:
        try:
            result = score(record)
            out.append(result.to_json() if output else None)
        except ScoringError as exc:
            out.append(exc.to_json())
    return out

def plain(data):
    if isinstance(data, dict):
        return {key: plain(value) for key, value in data.items() if not key.endswith("why")}
    return [plain(item) for item in data] if isinstance(data, list) else data

print(json.dumps(plain(once(True)), sort_keys=True, ensure_ascii=False), flush=True)
output = sys.argv[2] == "output"
for line in sys.stdin:
    repeat = int(line)
    started = time.process_time()
    for _ in range(repeat):
        once(output)
    print(time.process_time() - started, flush=True)
"""
"""The worker: imports ``scoring`` from the tree in ``argv[1]``, prints every case's output once without the
structured notes (``why``, which the older code may not have), so that the two sides can be compared; then for each
number ``n`` read from its input scores every case ``n`` times and prints the CPU seconds it took. ``argv[2]`` is
``output`` (the result's JSON is made too, as the command line does) or ``score`` (``scoring.score`` alone, as the
app's replay)."""


def load() -> str:
    """The load averages (1, 5, 15 minutes) as text."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def checkout(commit: str, into: Path) -> Path:
    """``scoring/`` of ``commit`` written under ``into`` (nothing else: the work tree and its git are untouched)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "scoring"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


class Side:
    """One side of the comparison: a worker process over the ``scoring`` package in ``tree``."""

    def __init__(self, name: str, tree: Path, cases: list[Path], mode: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree), mode, *map(str, cases)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        assert self.proc.stdout is not None
        self.first: list[Any] = json.loads(self.proc.stdout.readline())

    def run(self, repeat: int) -> float:
        """CPU seconds for scoring every case ``repeat`` times."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{repeat}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def compare(against: str, rounds: int, repeat: int, mode: str = "score") -> dict[str, Any]:
    """Run the sitting; return the per-round CPU seconds, the ratios, their median and the load."""
    cases = sorted(CASES.glob("*/*.json"))
    before = load()
    with tempfile.TemporaryDirectory(prefix="scoring-ab-") as folder:
        old = Side(against, checkout(against, Path(folder)), cases, mode)
        new = Side("this tree", ROOT, cases, mode)
        try:
            same = sum(a == b for a, b in zip(old.first, new.first, strict=True))
            old.run(1), new.run(1)  # warm both (caches, lazily built validators)
            times: dict[str, list[float]] = {"old": [], "new": []}
            for index in range(rounds):
                order = [("old", old), ("new", new)] if index % 2 == 0 else [("new", new), ("old", old)]
                for key, side in order:
                    times[key].append(side.run(repeat))
        finally:
            old.close()
            new.close()
    ratios = [n / o for n, o in zip(times["new"], times["old"], strict=True)]
    return {
        "against": against,
        "mode": mode,
        "cases": len(cases),
        "same_output": same,
        "rounds": rounds,
        "repeat": repeat,
        "old_s": times["old"],
        "new_s": times["new"],
        "ratios": ratios,
        "median_ratio": statistics.median(ratios),
        "load_before": before,
        "load_after": load(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.scoring_ab", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="ac97fbf", help="the commit to compare with (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=11, help="turns each side takes (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=20, help="passes over every case a turn (default: %(default)s)")
    parser.add_argument(
        "--output",
        action="store_true",
        help="make each result's JSON too, as `python -m scoring score` does (default: scoring.score alone)",
    )
    args = parser.parse_args(argv)
    figures = compare(args.against, args.rounds, args.repeat, "output" if args.output else "score")
    what = "score(record).to_json()" if args.output else "score(record)"
    print(
        f"Scoring A/B, {what}: {figures['cases']} conformance cases x {figures['repeat']} a turn,"
        f" {figures['rounds']} turns each, alternating; CPU time (time.process_time) of this tree"
        f" / {figures['against']}"
    )
    print(f"{os.cpu_count()} CPUs, load average {figures['load_before']} before, {figures['load_after']} after")
    print(f"cases with the same output on both sides: {figures['same_output']} of {figures['cases']}")
    print(f"{figures['against']} s a turn: " + " ".join(f"{s:.3f}" for s in figures["old_s"]))
    print("this tree s a turn: " + " ".join(f"{s:.3f}" for s in figures["new_s"]))
    print("ratios: " + " ".join(f"{r:.3f}" for r in figures["ratios"]))
    ratio = figures["median_ratio"]
    print(f"median ratio {ratio:.3f} (target <= 1.05: {'pass' if ratio <= 1.05 else 'FAIL'})")
    return figures


if __name__ == "__main__":
    raise SystemExit(0 if main()["median_ratio"] <= 1.05 else 1)
