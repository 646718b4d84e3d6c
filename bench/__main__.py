"""Run every benchmark: each ``bench/*_bench.py`` module that has a ``main()``, in name order.

Run from the project root: ``.venv/bin/python -m bench`` (or name some: ``.venv/bin/python -m bench scoring``).
``--taps`` adds the tap-latency benchmark (:mod:`bench.tap_latency`, unthrottled and CPU-throttled 4×: long),
which the default run leaves out to stay short; ``make bench BENCH_ARGS=--taps`` does the same. A module that
cannot be imported is skipped with the reason printed; one that fails while running is reported and the others
still run. The exit status is 1 if any benchmark could not run.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # the benchmarks import tests.support.generators and the app's packages
    sys.path.insert(0, str(ROOT))


def bench_modules(names: list[str] | None = None) -> list[str]:
    """The benchmark module names (``bench.scoring_bench``, ...), optionally only those matching ``names``."""
    found = sorted(path.stem for path in HERE.glob("*_bench.py"))
    if names:
        found = [stem for stem in found if any(stem == name or stem == f"{name}_bench" for name in names)]
    return [f"bench.{stem}" for stem in found]


OPTIONAL = {"--taps": "bench.tap_latency"}
"""Benchmarks run only when asked for: option → module."""


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; 0 if every one ran, 1 if any was skipped or failed."""
    args = sys.argv[1:] if argv is None else argv
    extra = [OPTIONAL[a] for a in args if a in OPTIONAL]
    names = [a for a in args if a not in OPTIONAL]
    modules = bench_modules(names) + extra
    if not modules:
        print(f"no benchmark matches {' '.join(names)}")
        return 1
    problems = 0
    for name in modules:
        print(f"== {name}")
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # a module that cannot even be imported is skipped, with the reason
            print(f"skipped: cannot import {name}: {type(exc).__name__}: {exc}")
            problems += 1
            continue
        run = getattr(module, "main", None)
        if not callable(run):
            print(f"skipped: {name} has no main()")
            continue
        started = time.perf_counter()
        try:
            run()
        except Exception:
            traceback.print_exc()
            print(f"failed: {name}")
            problems += 1
        print(f"({name} took {time.perf_counter() - started:.1f} s)\n")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
