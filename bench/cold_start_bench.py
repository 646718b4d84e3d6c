"""Cold start: from the command to an interactive Home, the app against the trivial Flet app, side by side.

Each round starts a fresh process of each (in turn, alternating which goes first): ``python -m app --port P
--data-dir D --no-browser`` (the ``companion`` command, an empty data folder) and ``python -m bench.trivial_app``;
a new Chromium page (390×844, launched beforehand, not counted) opens it as soon as the port answers, and the
time is taken when the first screen's button is in the page's semantics tree (Home's "New game", the trivial
app's "Tap"): the moment a player can tap it. Reported: median and worst of the rounds and the ratio; the server's
CPU time until its port answered and until the button was there, and the bytes the page received by then; then the
Python imports each process makes before it serves (timed in a fresh interpreter), with the load average.

Run: ``.venv/bin/python -m bench.cold_start_bench`` (``--rounds 5``; ``--against DIR`` also starts the app of
another checkout, e.g. a worktree of an earlier commit, in turn with this one and the trivial app). Target
(issue 29): the app within 1.2× the trivial app.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import app_server, launch, load_average, trivial_server, watched_page  # noqa: E402
from tests.support.browser import CHROMIUM, Served, find_free_port  # noqa: E402

TARGET_RATIO = 1.2
APP_IMPORTS = "import flet, flet_web.fastapi, app.main, app.cli, app.serve, app.web, companion.services, views.shell"
"""What ``python -m app`` imports before it draws its first page (Flet and its web server as the trivial app does;
Home's screen module comes with the shell, which the app imports in a thread once it listens)."""
TRIVIAL_IMPORTS = "import flet, flet_web.fastapi, bench.trivial_app"


def import_ms(statement: str, root: Path = ROOT) -> tuple[float, float]:
    """Milliseconds a fresh interpreter takes for ``statement`` (the imports only, not its own start), run in the
    checkout ``root``: wall clock and the process's CPU time (on a shared machine the wall clock also holds the time
    spent waiting for a core)."""
    code = (
        "import time\nt, c = time.perf_counter(), time.process_time()\n"
        f"{statement}\nprint((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def compile_bytecode(root: Path = ROOT) -> None:
    """Compile the app's modules once, as an installed or packaged app ships them (with ``PYTHONDONTWRITEBYTECODE``
    set, every start would otherwise compile the app's sources again, and the trivial app has none)."""
    folders = [str(root / name) for name in ("app", "companion", "scoring", "storage", "views", "bench")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], cwd=root, capture_output=True, check=False)


def cpu_s(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, in seconds (``nan`` where ``/proc`` is not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Start:
    """One cold start, from the command to the first screen's button in the page."""

    wall_s: float
    """Seconds from the command to the button in the page's semantics tree."""
    listening_cpu_s: float
    """The server's CPU seconds until its port answered (imports, opening the data folder)."""
    cpu_s: float
    """The server's CPU seconds until the button was in the page (its share of the work, whatever the load)."""
    received: int
    """Bytes the page received over its WebSocket until then (the first screen as sent)."""


def to_interactive(browser: object, served: Served, button: str) -> Start:
    """Start ``served`` and open it in a new page until its first screen's ``button`` is in the semantics tree."""
    began = time.monotonic()
    served.start()
    pid = served.process.pid if served.process is not None else None
    listening = cpu_s(pid) if pid is not None else float("nan")
    page = watched_page(browser)
    try:
        page.goto(served.url)
        page.get_by_role("button", name=button).first.wait_for(state="attached")
        wall = time.monotonic() - began
        used = cpu_s(pid) if pid is not None else float("nan")
        return Start(wall, listening, used, int(page.evaluate("() => __bench.rx")))
    finally:
        page.context.close()
        served.stop()


def server_for(which: str, n: int, tmp: Path, against: Path | None) -> tuple[Served, str]:
    """The server of contestant ``which`` for round ``n`` and the button its first screen shows."""
    log = tmp / f"{which}.log"
    if which == "trivial":
        return trivial_server(find_free_port(), log), "Tap"
    root = ROOT if which == "app" else against
    assert root is not None
    return app_server(find_free_port(), tmp / f"data-{which}-{n}", log, root), "New game"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cold_start_bench", description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="also start the app of another checkout (a worktree of an earlier commit), in turn with this one",
    )
    args = parser.parse_args([] if argv is None else argv)
    against: Path | None = args.against.resolve() if args.against is not None else None
    print(f"load average at the start: {load_average()}")
    if not CHROMIUM.exists():
        print(f"skipped: Chromium is not installed at {CHROMIUM}")
        return 1
    from playwright.sync_api import sync_playwright

    names = ["app", "trivial"] + (["before"] if against is not None else [])
    compile_bytecode()
    if against is not None:
        compile_bytecode(against)
    starts: dict[str, list[Start]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for n in range(args.rounds):
                order = names[n % len(names) :] + names[: n % len(names)]  # each goes first in turn
                for which in order:
                    served, button = server_for(which, n, Path(tmp), against)
                    starts[which].append(to_interactive(browser, served, button))
        finally:
            browser.close()
    print(f"command to interactive first screen, {args.rounds} rounds, medians (worst):")
    label = {"app": "app (Home)", "trivial": "trivial app", "before": f"app of {against}"}
    for which in names:
        got = starts[which]
        wall = [s.wall_s * 1000 for s in got]
        print(
            f"  {label[which]}: {statistics.median(wall):.0f} ms ({max(wall):.0f}); server CPU until listening "
            f"{statistics.median(s.listening_cpu_s for s in got) * 1000:.0f} ms, until interactive "
            f"{statistics.median(s.cpu_s for s in got) * 1000:.0f} ms; "
            f"{statistics.median(s.received for s in got):.0f} bytes received"
        )
    for which in names:
        if which == "trivial":
            continue
        trivial = starts["trivial"]
        wall_x = statistics.median(s.wall_s for s in starts[which]) / statistics.median(s.wall_s for s in trivial)
        cpu_x = statistics.median(s.cpu_s for s in starts[which]) / statistics.median(s.cpu_s for s in trivial)
        print(
            f"  {label[which]} / trivial app: wall {wall_x:.2f}x (target <= {TARGET_RATIO}x), server CPU {cpu_x:.2f}x"
        )
    imports: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(args.rounds):  # in turn, side by side
        imports["app"].append(import_ms(APP_IMPORTS))
        imports["trivial"].append(import_ms(TRIVIAL_IMPORTS))
        if against is not None:
            imports["before"].append(import_ms(APP_IMPORTS, against))
    print(f"python imports before serving, median of {args.rounds} (ms, wall / CPU):")
    for which in names:
        wall_ms = statistics.median(w for w, _ in imports[which])
        cpu_ms = statistics.median(c for _, c in imports[which])
        print(f"  {label[which]}: {wall_ms:.0f} / {cpu_ms:.0f}")
    print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
