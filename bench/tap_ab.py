"""Jokers Kill taps of this tree against an earlier commit's, tap by tap in turns, in Chromium slowed 4×.

Each side's app is served from its own tree (the commit's taken out with ``git archive``, as
:mod:`bench.browser_ab` does) on its own data, seeded by this tree's session service, and each gets a page of its
own at 390×844. Every card and Confirm of ``--games`` games (17 hands a game) is tapped on one side's page, then at
the same place on the other's, the first side alternating; each page is slowed (``Emulation.setCPUThrottlingRate``)
only for its own quiet and its own tap (:class:`bench.tap_latency.Cpu`), as the tap benchmark does. A machine that
slows down or speeds up meanwhile weighs on both sides alike, which one run of the tap benchmark per side cannot
promise.

With semantics on, a tap is timed to the frame after the new prompt (a card) or standings line (a Confirm) is in
the page; with ``--semantics off``, to the frame after the first WebSocket message the tap brings
(:func:`bench.pagewatch.tap_drawn`). The report gives each side's median, p90 and p95, the median of its server
part (pointerdown → the first message back) and of its client part (that message → the frame), and this tree's
median and p95 over the commit's.

Run from the project root: ``.venv/bin/python -m bench.tap_ab --against main`` (6–7 minutes with two games).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.browser_ab import checkout  # noqa: E402
from bench.pagewatch import (  # noqa: E402
    PHONE,
    Sample,
    app_server,
    launch,
    load_average,
    median,
    percentile,
    print_table,
    progress,
    stop_on_sigterm,
    tap_drawn,
    tap_until_changed,
    watched_page,
)
from bench.tap_latency import (  # noqa: E402
    JK_PLAYERS,
    PROMPT,
    STANDING,
    Cpu,
    button_at,
    jk_deals,
    open_table,
    quiet,
)
from tests.support.browser import find_free_port  # noqa: E402

KINDS = ("card", "Confirm")
Taps = dict[str, dict[str, list[Sample]]]
"""Each side's samples by kind of tap."""


def summary(sides: Taps) -> list[list[str]]:
    """One row per kind of tap and side: n, median, p90 and p95 (ms), the server and client medians, and for each
    side after the first its median and p95 over the first side's.

    >>> s = lambda ms: Sample(ms=ms, seen_ms=ms, rx_bytes=0, rx_frames=1, tx_bytes=0, tx_frames=1, label="",
    ...                       server_ms=ms / 2, client_ms=ms / 2)
    >>> rows = summary({"a": {"card": [s(100), s(120)], "Confirm": []}, "b": {"card": [s(80), s(90)]}})
    >>> rows[0]
    ['card', 'a', '2', '110', '120', '120', '55', '55', '', '']
    >>> rows[1][-2:]
    ['0.77×', '0.75×']
    """
    rows = []
    first = next(iter(sides))
    for kind in KINDS:
        for side, taps in sides.items():
            samples = taps.get(kind, [])
            if not samples:
                continue
            ms = [one.ms for one in samples]
            base = [one.ms for one in sides[first].get(kind, [])]
            ratios = ["", ""]
            if side != first and base:
                ratios = [f"{median(ms) / median(base):.2f}×", f"{percentile(ms, 0.95) / percentile(base, 0.95):.2f}×"]
            rows.append(
                [
                    kind,
                    side,
                    str(len(samples)),
                    f"{median(ms):.0f}",
                    f"{percentile(ms, 0.9):.0f}",
                    f"{percentile(ms, 0.95):.0f}",
                    f"{median([one.server_ms for one in samples]):.0f}",
                    f"{median([one.client_ms for one in samples]):.0f}",
                    *ratios,
                ]
            )
    return rows


def seed(folder: Path, games: int) -> list[str]:
    """``games`` Jokers Kill sessions started through the session service, one a game measured."""
    from companion.session import SessionService
    from storage import Archive

    with Archive(folder) as archive:
        sessions = SessionService(archive)
        return [sessions.start("jokers-kill", JK_PLAYERS, title=f"Jokers Kill {game + 1}").id for game in range(games)]


def tap(page: Any, cpu: Cpu, xy: tuple[float, float], kind: str, semantics: bool) -> Sample:
    """One measured tap at ``xy``, the page slowed for its quiet and the tap only."""
    with cpu.slowed(page):
        quiet(page)
        if semantics:
            return tap_until_changed(page, xy, STANDING if kind == "Confirm" else PROMPT)
        return tap_drawn(page, xy)


def run(trees: dict[str, Path], games: int, semantics: bool, rate: float, tmp: Path) -> Taps:
    """Play ``games`` games on each side's app, each tap on one side then the other, the first side alternating."""
    from playwright.sync_api import sync_playwright

    names = list(trees)
    ids = {name: seed(tmp / f"data-{n}", games) for n, name in enumerate(names)}
    servers = {
        name: app_server(find_free_port(), tmp / f"data-{n}", tmp / f"app-{n}.log", root=tree)
        for n, (name, tree) in enumerate(trees.items())
    }
    taps: Taps = {name: {kind: [] for kind in KINDS} for name in names}
    cpu = Cpu(rate)
    with ExitStack() as stack:
        for server in servers.values():
            stack.enter_context(server)
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        finder = watched_page(browser, PHONE)  # where the keys are, read from a page with semantics on
        open_table(finder, f"{servers[names[0]].url}/continue/{ids[names[0]][0]}")
        places = {code: button_at(finder, rf"^{code}$", enabled=False) for deal in jk_deals() for code in deal}
        places["Confirm"] = button_at(finder, "^Confirm hand$", enabled=False)
        finder.context.close()
        pages = {name: watched_page(browser, PHONE, semantics=semantics) for name in names}
        turn = 0
        for game in range(games):
            for name in names:
                open_table(pages[name], f"{servers[name].url}/continue/{ids[name][game]}", semantics=semantics)
            for deal in jk_deals():
                for code in [*deal, "Confirm"]:
                    kind = "Confirm" if code == "Confirm" else "card"
                    for name in names[::-1] if turn % 2 else names:
                        taps[name][kind].append(tap(pages[name], cpu, places[code], kind, semantics))
                    turn += 1
            progress(f"game {game + 1} of {games} played on both sides")
    return taps


def main(argv: Sequence[str] | None = None) -> Taps:
    parser = argparse.ArgumentParser(prog="python -m bench.tap_ab", description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the commit to compare with (main, a hash)")
    parser.add_argument("--games", type=int, default=2, help="Jokers Kill games of 17 hands (default: %(default)s)")
    parser.add_argument("--semantics", choices=("on", "off"), default="on", help="default: %(default)s")
    parser.add_argument("--throttle", type=float, default=4.0, help="Chromium's CPU slowed N× (default: 4)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        trees = {args.against: checkout(args.against, tmp / "against"), "this tree": ROOT}
        before = load_average()
        taps = run(trees, args.games, args.semantics == "on", args.throttle, tmp)
    print(
        f"\nJokers Kill, semantics {args.semantics}, CPU throttled {args.throttle:g}x, 390x844; load average {before} "
        f"at the start, {load_average()} at the end. ms from the pointerdown to the frame after "
        + ("the new prompt or standings line" if args.semantics == "on" else "the first message back")
    )
    print_table(
        ["tap", "side", "n", "median", "p90", "p95", "server", "client", "× median", "× p95"],
        summary({name: taps[name] for name in trees}),
    )
    return taps


if __name__ == "__main__":
    main(sys.argv[1:])
