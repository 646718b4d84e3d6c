"""Screens benchmark in Chromium: how fast Continue, History and Statistics open with 10,000 sessions in the archive,
opened by a tap, loaded as a first visit and reloaded, against the trivial Flet app of :mod:`bench.trivial_app`.

Set-up: the 10,000-session archive of :mod:`bench.history_bench` (five games, about a third unfinished), its index
and outcome cache built once, then the real app and the trivial app served side by side on loopback, each with a
probe in its server (:mod:`bench.serverprobe`). Measured in the page's own clock (:mod:`bench.pagewatch`):

* **tap**: pointerdown on the screen's button (home → Continue, home → History, History → Statistics) → the
  screen's first rows painted; :data:`TAPS` taps a screen, each after a tap of the trivial app, both after the same
  quiet (:func:`quiet`), so each ratio is side by side. Where the time goes: the page until the tap's message is
  out, the server's handlers of the tap and of the route change (wall and the thread's CPU), the bytes and messages
  the server sent, component re-renders asked for, and the page from the last message in to the label painted;
* ``--against COMMIT`` serves that commit's code too (taken out with ``git archive``, with an archive written by its
  own code) and taps both in turns, the order reversed every round;
* **first visit**: a new tab opens the screen's address → painted (Flutter's start-up included, as for the
  trivial app's first visit); **reload**: that tab reloaded → painted again (Flet resumes the same session and sends
  the page as it stands; the app draws nothing again unless something changed, :mod:`views.shell`); the bytes the
  page received for each, and reload / first visit in time and in bytes.

Run: ``.venv/bin/python -m bench.screens_bench [SESSIONS] [--taps N] [--visits N] [--against COMMIT] [--only NAME]
[--busy N]``
or ``make bench BENCH_ARGS=screens`` (about ten minutes; needs Chromium and Playwright, as the browser tests do).
Targets: a tap opens each screen in ≤ 300 ms (p95); a reload costs at most 1.1 × a first visit, in time and in
bytes. A reload is cheaper than a first visit for any Flet app (the browser keeps Flutter's engine), so the trivial
app's own reload / visit is printed beside them. The load average is printed at the start and the end: a figure
taken on a loaded machine says so.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.history_bench import SESSIONS_COUNT, seed  # noqa: E402
from bench.pagewatch import (  # noqa: E402
    START_TIMEOUT_S,
    Sample,
    add_busy_option,
    arm,
    busy_cores,
    centre,
    launch,
    median,
    percentile,
    print_table,
    progress,
    settled,
    stop_on_sigterm,
    wait_quiet,
    watched_page,
)
from bench.trivial_app import BUTTON, TEXT_PREFIX  # noqa: E402
from tests.support.browser import Served as PageServer  # noqa: E402
from tests.support.browser import find_free_port  # noqa: E402

HERE = Path(__file__).resolve().parent
RUNS = 5
"""First visits and reloads of each screen."""
TAPS = 20
"""Taps of each screen for each code served (so that the p95 is not simply the slowest tap)."""
QUIET_MS = 400
PAUSE_MS = 200
"""Before every tap, the app's and the trivial app's alike: no message for QUIET_MS, then PAUSE_MS more."""
TRIVIAL = "trivial app"
THIS = "this tree"
TAP_TARGET_MS = 300.0
RELOAD_RATIO = 1.1


HOME = "^New game$"
HISTORY = r"^\d+ sessions?\b"


@dataclass(frozen=True)
class ScreenCase:
    """One screen: its address, the button that opens it from the screen at ``parent`` (showing ``parent_marker``),
    a label that shows it has arrived, and the way back to the parent: taps of Back (``None``) or of a button,
    each with the label that shows it is done."""

    name: str
    path: str
    button: str
    parent: str
    parent_marker: str
    marker: str
    way_back: tuple[tuple[str | None, str], ...]
    baseline: bool = True
    """Whether an earlier commit's code has it too (``--against``)."""


SCREENS = (
    # for reference: a small screen (five rows), what any screen change costs here
    ScreenCase("Rules (5 rows)", "/rules", "Rules", "/", HOME, r"^Bargain Bin", ((None, HOME),)),
    ScreenCase("Continue", "/continue", "Continue", "/", HOME, r"^Evening \d+", ((None, HOME),)),
    ScreenCase("History", "/history", "History", "/", HOME, HISTORY, ((None, HOME),)),
    # Statistics opens from History; its Back goes home
    ScreenCase(
        "Statistics",
        "/stats",
        "Statistics",
        "/history",
        HISTORY,
        r"^\d+ finished games?$",
        ((None, HOME), ("History", HISTORY)),
    ),
    # the same tap, until the first row of its ratings table is there (they follow the rest when they are still
    # being worked out, the first time after a start)
    ScreenCase(
        "Statistics, ratings shown",
        "/stats",
        "Statistics",
        "/history",
        HISTORY,
        r"^Rank 1, ",
        ((None, HOME), ("History", HISTORY)),
        baseline=False,
    ),
)


def prepare(folder: Path, count: int = SESSIONS_COUNT) -> dict[str, int]:
    """The archive of ``count`` sessions, with its index and outcome cache already built (as after the app's first
    run)."""
    from companion.stats import CACHE_FILE, OutcomeCache
    from storage import Archive

    finished = seed(folder, count, random.Random(2026))
    with Archive(folder) as archive:
        unfinished = sum(1 for s in archive.list_sessions() if s.status.value in ("in-progress", "pending"))
        OutcomeCache(folder / CACHE_FILE).outcomes(archive)
    return {"sessions": count, "finished": finished, "unfinished": unfinished}


def load(page: Any, url: str, marker: str, *, reload: bool = False) -> Sample:
    """Open (or reload) ``url`` in ``page`` and measure from its navigation start to ``marker`` painted."""
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__bench !== undefined")
    before = {"rx": 0, "rxFrames": 0, "tx": 0, "txFrames": 0}  # a new document: its counters start at zero
    page.evaluate("([p]) => __bench.arm(p, null)", [marker])
    return settled(page, before, since="load", quiet_ms=500)  # the last frames of a start-up come in slowly


def visit_and_reload(browser: Any, url: str, marker: str, runs: dict[str, list[Sample]]) -> None:
    """A first visit of ``url`` in a new tab (a browser context of its own: a new Flet session, as when a player
    opens the address), then a reload of that tab."""
    tab = watched_page(browser)
    try:
        runs["load"].append(load(tab, url, marker))
        runs["reload"].append(load(tab, url, marker, reload=True))
    finally:
        tab.context.close()


def tap_open(page: Any, button: str, marker: str) -> Sample:
    """Tap the button labelled ``button`` and measure until ``marker`` is painted."""
    xy = centre(page, page.get_by_role("button", name=button, exact=True))
    before = arm(page, marker)
    page.mouse.click(*xy)
    return settled(page, before)


def go_back(page: Any, case: ScreenCase) -> None:
    """Return from ``case``'s screen to the one it opens from, by its way back (Flutter ignores a tap made while a
    page transition runs, so each tap is repeated until the screen it leads to is there)."""
    leaving = case.marker
    for button, marker in case.way_back:
        there = "([m, l]) => __bench.labels(m).length > 0 && __bench.labels(l).length === 0"
        for _ in range(20):
            page.wait_for_timeout(500)
            if page.evaluate(there, [marker, leaving]):
                break
            if page.evaluate("([l]) => __bench.labels(l).length > 0", [leaving]):
                with contextlib.suppress(Exception):  # gone meanwhile: the last tap took effect after all
                    page.get_by_role("button", name=button or "Back", exact=True).first.click(timeout=2_000)
        else:
            raise RuntimeError(f"could not return to the screen showing {marker!r}")
        leaving = marker
    page.wait_for_timeout(500)


class Probe:
    """The server probe's log (:mod:`bench.serverprobe`), read from where the last read ended."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def drain(self) -> list[dict[str, Any]]:
        """The records written since the last call."""
        if not self.path.exists():
            return []
        with self.path.open("rb") as log:
            log.seek(self.offset)
            data = log.read()
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        return [json.loads(line) for line in complete.splitlines() if line.strip()]


@dataclass
class Served:
    """One app served with the probe: its name, address, page and probe."""

    name: str
    url: str
    probe: Probe
    page: Any = None


@dataclass(frozen=True)
class Tap:
    """One tap: the page's figures and the server's, from the probe."""

    page: Sample
    server: dict[str, float]


NAN = float("nan")


def server_share(records: list[dict[str, Any]]) -> dict[str, float]:
    """What the server did for one tap: the tap's own handler (``click``) and the route change's (wall and CPU, ms),
    the messages and bytes it sent, and how many component re-renders were asked for."""
    events = [r for r in records if "event" in r]
    route = [r for r in events if r["event"] == "route_change"]
    other = [r for r in events if r["event"] != "route_change"]
    sent = [r["sent"] for r in records if "sent" in r]

    def total(rows: list[dict[str, Any]], key: str) -> float:
        return float(sum(r[key] for r in rows)) if rows else NAN

    return {
        "tap_wall": total(other, "wall"),
        "tap_cpu": total(other, "cpu"),
        "route_wall": total(route, "wall"),
        "route_cpu": total(route, "cpu"),
        "route_changes": float(len(route)),
        "sent_kb": sum(sent) / 1000,
        "sent_messages": float(len(sent)),
        "rerenders": float(sum(1 for r in records if "scheduled" in r)),
    }


def quiet(page: Any, probe: Probe) -> None:
    """The same quiet before every tap, the app's and the trivial app's: the page's WebSocket silent for
    :data:`QUIET_MS`, then :data:`PAUSE_MS` more; what the server wrote meanwhile is not the tap's."""
    wait_quiet(page, QUIET_MS)
    page.wait_for_timeout(PAUSE_MS)
    probe.drain()


def trivial_tap(served: Served) -> Tap:
    page = served.page
    quiet(page, served.probe)
    marker = rf"^{TEXT_PREFIX}\d+$"
    xy = centre(page, page.get_by_role("button", name=BUTTON, exact=True))
    before = arm(page, marker, page.evaluate("(p) => __bench.labels(p)[0]", marker))
    page.mouse.click(*xy)
    sample = settled(page, before)
    return Tap(sample, server_share(served.probe.drain()))


def app_tap(served: Served, case: ScreenCase) -> Tap:
    quiet(served.page, served.probe)
    sample = tap_open(served.page, case.button, case.marker)
    tap = Tap(sample, server_share(served.probe.drain()))
    go_back(served.page, case)
    return tap


def measure_taps(
    browser: Any, apps: list[Served], trivial: Served, taps: int, cases: tuple[ScreenCase, ...]
) -> dict[str, dict[str, list[Tap]]]:
    """Each case's taps: for every app in turns (the order reversed every round), a trivial app's tap, then the
    app's, each after the same quiet. Keyed by case, then by app name (``trivial app`` for the trivial taps)."""
    marker = rf"^{TEXT_PREFIX}\d+$"
    trivial.page = watched_page(browser)
    load(trivial.page, trivial.url, marker)
    out: dict[str, dict[str, list[Tap]]] = {}
    for case in cases:
        here = [a for a in apps if a.name == apps[0].name or case.baseline]
        progress(f"tapping {case.name}: {taps} taps each for {', '.join(a.name for a in here)} (load {load_text()})")
        runs: dict[str, list[Tap]] = {a.name: [] for a in here}
        runs[TRIVIAL] = []
        for served in here:
            load(served.page, served.url + case.parent, case.parent_marker)
            served.page.wait_for_timeout(800)
        for n in range(taps):
            for served in here if n % 2 == 0 else list(reversed(here)):
                runs[TRIVIAL].append(trivial_tap(trivial))
                runs[served.name].append(app_tap(served, case))
        out[case.name] = runs
    return out


def measure_visits(
    browser: Any, app_url: str, trivial_url: str, runs: int, cases: tuple[ScreenCase, ...]
) -> dict[str, dict[str, list[Sample]]]:
    """First visits and reloads of each screen (this tree's code) and of the trivial app."""
    figures: dict[str, dict[str, list[Sample]]] = {}
    marker = rf"^{TEXT_PREFIX}\d+$"
    figures[TRIVIAL] = {"load": [], "reload": []}
    progress("visiting the trivial app")
    for _ in range(runs):
        visit_and_reload(browser, trivial_url, marker, figures[TRIVIAL])
    for case in cases:
        progress(f"visiting {case.name}")
        figures[case.name] = {"load": [], "reload": []}
        for _ in range(runs):
            visit_and_reload(browser, app_url + case.path, case.marker, figures[case.name])
    return figures


def p95(values: list[float]) -> float:
    return percentile(values, 0.95) if values else NAN


def med(values: list[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return median(kept) if kept else NAN


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def report_taps(figures: dict[str, dict[str, list[Tap]]], apps: list[str], taps: int) -> dict[str, float]:
    """Two tables: each screen's taps against the trivial app's taken beside them, and where a tap's time goes."""
    out: dict[str, float] = {}
    rows, shares = [], []
    trivial_all: list[Tap] = []
    for case_name, runs in figures.items():
        base = [t.page.ms for t in runs[TRIVIAL]]
        trivial_all += runs[TRIVIAL]
        for name in apps:
            if name not in runs:
                continue
            taken = runs[name]
            ms = [t.page.ms for t in taken]
            key = case_name if name == apps[0] else f"{case_name} [{name}]"
            out[f"{key}_tap_ms"], out[f"{key}_tap_p95"] = med(ms), p95(ms)
            out[f"{key}_tap_kb"] = med([t.page.rx_bytes / 1000 for t in taken])
            rows.append(
                [
                    case_name,
                    name,
                    f"{med(ms):,.0f} / {p95(ms):,.0f}",
                    f"{med(ms) / med(base):.1f}× / {p95(ms) / p95(base):.1f}×",
                    f"{med(base):,.0f} / {p95(base):,.0f}",
                    f"{out[f'{key}_tap_kb']:,.1f}",
                    f"{med([t.page.rx_frames for t in taken]):.0f} / {med([t.page.tx_frames for t in taken]):.0f}",
                    "met" if p95(ms) <= TAP_TARGET_MS else "MISSED",
                ]
            )
            server = {k: med([t.server[k] for t in taken]) for k in taken[0].server}
            out[f"{key}_route_wall"], out[f"{key}_route_cpu"] = server["route_wall"], server["route_cpu"]
            out[f"{key}_sent_kb"] = server["sent_kb"]
            tap_out = med([t.page.out_ms for t in taken])
            shown = med([t.page.client_ms for t in taken])
            rest = med(ms) - tap_out - server["tap_wall"] - server["route_wall"] - shown
            shares.append(
                [
                    case_name,
                    name,
                    f"{tap_out:,.0f}",
                    f"{server['tap_wall']:,.0f} / {server['tap_cpu']:,.0f}",
                    f"{server['route_wall']:,.0f} / {server['route_cpu']:,.0f}",
                    f"{server['sent_kb']:,.1f} in {server['sent_messages']:.0f}",
                    f"{server['rerenders']:.0f}",
                    f"{shown:,.0f}",
                    f"{rest:,.0f}",
                ]
            )
    ms = [t.page.ms for t in trivial_all]
    out["trivial app_tap_ms"], out["trivial app_tap_p95"] = med(ms), p95(ms)
    print(
        f"Taps, {taps} a screen for each code, in turns, each after a tap of the trivial app and the same quiet "
        f"({QUIET_MS} ms without a message, then {PAUSE_MS} ms); median / p95 ms in the page's clock (pointerdown "
        f"→ the screen's label painted); × = against the trivial app's taps taken beside them; KB and messages "
        f"received / sent by the page. The trivial app over all: {med(ms):,.0f} / {p95(ms):,.0f} ms."
    )
    print_table(
        ["screen", "code", "tap → shown ms", "× trivial", "trivial ms", "KB", "msgs in / out", "≤ 300 ms p95"],
        rows,
    )
    print()
    print(
        "Where a tap's time goes (medians, ms): the page until the tap's message is out; the server's handler of "
        "the tap (which asks the page to push the route) and of the route change, wall / CPU of the server's thread; "
        "what the server sent; component re-renders asked for; the page from the last message in to the label "
        "painted; the rest (the route's round trip through the page, the network, the server waiting for its loop)."
    )
    print_table(
        [
            "screen",
            "code",
            "tap → out",
            "tap handler",
            "route change",
            "server sent KB",
            "re-renders",
            "last in → shown",
            "rest",
        ],
        shares,
    )
    return out


KINDS = (("load", "first visit"), ("reload", "reload"))


def report_visits(figures: dict[str, dict[str, list[Sample]]], runs: int) -> dict[str, float]:
    """First visit and reload of each screen against the trivial app's, and reload / first visit in time and
    bytes."""
    out: dict[str, float] = {}
    base = {kind: median([s.ms for s in figures[TRIVIAL][kind]]) for kind, _ in KINDS}
    rows = []
    for name, done in figures.items():
        row = [name]
        for kind, _ in KINDS:
            values = [s.ms for s in done[kind]]
            ms, high = median(values), p95(values)
            kb = median([s.rx_bytes for s in done[kind]]) / 1000
            out[f"{name}_{kind}_ms"], out[f"{name}_{kind}_p95"], out[f"{name}_{kind}_kb"] = ms, high, kb
            row += [f"{ms:,.0f} / {high:,.0f}", f"{ms / base[kind]:.1f}×", f"{kb:,.1f}"]
        out[f"{name}_reload_ratio"] = out[f"{name}_reload_ms"] / out[f"{name}_load_ms"]
        out[f"{name}_reload_kb_ratio"] = out[f"{name}_reload_kb"] / max(out[f"{name}_load_kb"], 0.001)
        ok = out[f"{name}_reload_ratio"] <= RELOAD_RATIO and out[f"{name}_reload_kb_ratio"] <= RELOAD_RATIO
        row += [f"{out[f'{name}_reload_ratio']:.2f}", f"{out[f'{name}_reload_kb_ratio']:.2f}"]
        row.append(("met" if ok else "MISSED") if name != TRIVIAL else "baseline")
        rows.append(row)
    print(
        f"First visits (a new tab) and reloads, {runs} each, this tree's code: median / p95 ms from the navigation "
        "start, × = median against the trivial app, KB received by the page"
    )
    headers = ["screen", "first visit ms", "×", "KB", "reload ms", "×", "KB", "reload / visit ms", "reload / visit KB"]
    print_table([*headers, f"reload ≤ {RELOAD_RATIO} × visit"], rows)
    measured = [n for n in figures if n not in (TRIVIAL, SCREENS[0].name)] or [SCREENS[0].name]
    worst_ms = max(out[f"{n}_reload_ratio"] for n in measured)
    worst_kb = max(out[f"{n}_reload_kb_ratio"] for n in measured)
    ok = worst_ms <= RELOAD_RATIO and worst_kb <= RELOAD_RATIO
    print(
        f"target a reload costs at most {RELOAD_RATIO} × a first visit (time and bytes): {'met' if ok else 'MISSED'}"
        f" (worst {worst_ms:.2f} × the time, {worst_kb:.2f} × the bytes; the trivial app's reload / visit is "
        f"{out[f'{TRIVIAL}_reload_ratio']:.2f})"
    )
    return out


def probed(tree: Path, module: str, args: list[str], port: int, probe_log: Path, log: Path) -> PageServer:
    """``python -m module args`` served from ``tree`` with the server probe (:mod:`bench.serverprobe`)."""
    command = [sys.executable, str(HERE / "serverprobe.py"), "--log", str(probe_log), "--tree", str(tree), module]
    return PageServer([*command, "--", *args], port, log, START_TIMEOUT_S)


def baseline_tree(commit: str, into: Path) -> Path:
    """The project's files at ``commit``, taken out with ``git archive`` into ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def prepare_in(tree: Path, folder: Path, count: int) -> dict[str, int]:
    """:func:`prepare` as the code of ``tree`` writes it (an earlier commit reads its own archive)."""
    code = (
        "import json, sys; from pathlib import Path; from bench.screens_bench import prepare; "
        "print(json.dumps(prepare(Path(sys.argv[1]), int(sys.argv[2]))))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder), str(count)], cwd=tree, env=env, check=True, capture_output=True
    )
    found: dict[str, int] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return found


def options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.screens_bench", description=__doc__.splitlines()[0])
    parser.add_argument("sessions", nargs="?", type=int, default=SESSIONS_COUNT, help="sessions in the archive")
    parser.add_argument("--taps", type=int, default=TAPS, help=f"taps a screen for each code (default {TAPS})")
    parser.add_argument("--visits", type=int, default=RUNS, help=f"first visits and reloads (default {RUNS}; 0: none)")
    parser.add_argument("--against", metavar="COMMIT", help="also serve this commit's code and tap it in turns")
    parser.add_argument("--only", action="append", help="only the screens whose name starts so (repeatable)")
    parser.add_argument("--raw", type=Path, help="also write every tap's figures to this JSON file")
    add_busy_option(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    stop_on_sigterm()
    args = options(argv or [])
    cases = tuple(c for c in SCREENS if not args.only or any(c.name.startswith(o) for o in args.only))
    print(
        f"load average at the start: {load_text()} (1, 5, 15 min; {os.cpu_count()} CPUs); "
        f"{args.busy} busy processes beside the taps",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp_name, contextlib.ExitStack() as stack:
        tmp = Path(tmp_name)
        started = time.perf_counter()
        folder = tmp / "data"
        archive = prepare(folder, args.sessions)
        stack.enter_context(busy_cores(args.busy))  # after the set-up: the load is for the taps
        trees = [(THIS, ROOT, folder)]
        if args.against:
            old = baseline_tree(args.against, tmp / "baseline")
            prepare_in(old, tmp / "baseline-data", args.sessions)
            trees.append((args.against, old, tmp / "baseline-data"))
        print(
            f"set-up: {args.sessions:,} sessions ({archive['unfinished']:,} unfinished, {archive['finished']:,} "
            f"finished) written and indexed in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        apps: list[Served] = []
        for name, tree, data in trees:
            port, probe_log = find_free_port(), tmp / f"{len(apps)}.probe"
            app_args = ["--port", str(port), "--data-dir", str(data), "--no-browser"]
            server = probed(tree, "app", app_args, port, probe_log, tmp / f"{len(apps)}.log")
            stack.enter_context(server)
            apps.append(Served(name, server.url, Probe(probe_log)))
        port = find_free_port()
        trivial_server = probed(ROOT, "bench.trivial_app", ["--port", str(port)], port, tmp / "t.probe", tmp / "t.log")
        stack.enter_context(trivial_server)
        trivial = Served(TRIVIAL, trivial_server.url, Probe(tmp / "t.probe"))
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        for served in apps:
            served.page = watched_page(browser)
        taps = measure_taps(browser, apps, trivial, args.taps, cases)
        visits = measure_visits(browser, apps[0].url, trivial.url, args.visits, cases) if args.visits else None
        ended = load_text()
    out = report_taps(taps, [a.name for a in apps], args.taps)
    if args.raw is not None:
        raw = {
            case: {
                name: [{**dataclasses.asdict(t.page), "server": t.server} for t in done] for name, done in runs.items()
            }
            for case, runs in taps.items()
        }
        args.raw.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    if visits is not None:
        print()
        out |= report_visits(visits, args.visits)
    print(f"load average at the end: {ended} (1, 5, 15 min)")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
