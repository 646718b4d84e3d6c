"""What DevTools' CPU throttling costs the machine: the CPU Chromium uses while its pages sit idle, slowed 4× or not.

On Linux Chromium slows a page (``Emulation.setCPUThrottlingRate``) by interrupting the page's main thread every
200 µs with a signal whose handler busy-waits, so a slowed page burns CPU even when it has nothing to do. This is why
:mod:`bench.tap_latency` slows a page only for its own measured tap: a page left slowed takes a core away from the
app's server, and a handler of a few milliseconds then waits for one.

Run: ``.venv/bin/python -m bench.throttle_cost [--pages N] [--seconds S]`` (about half a minute). It opens ``N``
blank pages, each in a context of its own as the tap benchmark's are, then slows 0, 1, ... ``N`` of them 4× in turn,
and prints the cores Chromium's processes used over ``S`` seconds of each (their user and system time, from
``/proc``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import launch, load_average, print_table  # noqa: E402

RATE = 4.0
"""The slow-down of the tap benchmark's throttled mode."""


def chromium_cpu_seconds(proc: Path = Path("/proc")) -> float:
    """The user and system CPU time, in seconds, of every running process whose command line names Chromium."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if b"chrom" not in (entry / "cmdline").read_bytes():
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def main(argv: list[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(prog="python -m bench.throttle_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=4, help="idle pages (the tap benchmark has four)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each count of slowed pages is measured")
    args = parser.parse_args(argv if argv is not None else [])
    from playwright.sync_api import sync_playwright

    rows: list[list[str]] = []
    print(f"load average at the start: {load_average()}")
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            pages: list[Any] = []
            for _ in range(args.pages):
                page = browser.new_context().new_page()
                page.set_content("<p>idle</p>")
                pages.append((page, page.context.new_cdp_session(page)))
            for slowed in range(args.pages + 1):
                for i, (_, cdp) in enumerate(pages):
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": RATE if i < slowed else 1.0})
                time.sleep(1.0)  # the throttling threads started or stopped
                before = chromium_cpu_seconds()
                time.sleep(args.seconds)
                cores = (chromium_cpu_seconds() - before) / args.seconds
                rows.append([f"{slowed} of {args.pages}", f"{RATE:g}×", f"{cores:.2f}"])
        finally:
            browser.close()
    print(f"Idle blank pages: the cores Chromium used over {args.seconds:g} s (this machine has {os.cpu_count()})")
    print_table(["pages slowed", "rate", "cores used"], rows)
    print(f"load average at the end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
