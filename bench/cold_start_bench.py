"""Cold start: from the command to an interactive Home, the app against the trivial Flet app, side by side.

Each round starts a fresh process of each (in turn, alternating which goes first): ``python -m app --port P
--data-dir D --no-browser`` (the ``companion`` command, an empty data folder) and ``python -m bench.trivial_app``;
a new Chromium page (390×844, launched beforehand, not counted) opens it as soon as the port answers, and the
time is taken when the first screen's button is in the page's semantics tree (Home's "New game", the trivial
app's "Tap"): the moment a player can tap it. Reported: median and worst of the rounds and the ratio, then the
Python imports each process makes before it serves (timed in a fresh interpreter), with the load average.

Run: ``.venv/bin/python -m bench.cold_start_bench`` (``--rounds 5``). Target (issue 29): the app within 1.2× the
trivial app.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import app_server, launch, trivial_server, watched_page  # noqa: E402
from tests.support.browser import CHROMIUM, Served, find_free_port  # noqa: E402

TARGET_RATIO = 1.2
APP_IMPORTS = "import flet, flet_web.fastapi, app.main, app.cli, app.serve, app.web, companion.services, views.shell"
"""What ``python -m app`` imports before it serves its first page (Flet and its web server as the trivial app does;
Home's screen module comes with the shell)."""
TRIVIAL_IMPORTS = "import flet, flet_web.fastapi, bench.trivial_app"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def import_ms(statement: str) -> tuple[float, float]:
    """Milliseconds a fresh interpreter takes for ``statement`` (the imports only, not its own start): wall clock
    and the process's CPU time (on a shared machine the wall clock also holds the time spent waiting for a core)."""
    code = (
        "import time\nt, c = time.perf_counter(), time.process_time()\n"
        f"{statement}\nprint((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def compile_bytecode() -> None:
    """Compile the app's modules once, as an installed or packaged app ships them (with ``PYTHONDONTWRITEBYTECODE``
    set, every start would otherwise compile the app's sources again, and the trivial app has none)."""
    folders = [str(ROOT / name) for name in ("app", "companion", "scoring", "storage", "views", "bench")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], cwd=ROOT, capture_output=True, check=False)


def cpu_s(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, in seconds (``nan`` where ``/proc`` is not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def to_interactive(browser: object, served: Served, button: str) -> tuple[float, float]:
    """Seconds from starting ``served`` to its first screen's ``button`` in the page's semantics tree, and the CPU
    seconds the server's process used until then (its share of the work, whatever the load)."""
    began = time.monotonic()
    served.start()
    page = watched_page(browser)
    try:
        page.goto(served.url)
        page.get_by_role("button", name=button).first.wait_for(state="attached")
        wall = time.monotonic() - began
        return wall, cpu_s(served.process.pid) if served.process is not None else float("nan")
    finally:
        page.context.close()
        served.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cold_start_bench", description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args([] if argv is None else argv)
    print(f"load average at the start: {load_average()}")
    if not CHROMIUM.exists():
        print(f"skipped: Chromium is not installed at {CHROMIUM}")
        return 1
    from playwright.sync_api import sync_playwright

    compile_bytecode()
    times: dict[str, list[float]] = {"app": [], "trivial": []}
    cpus: dict[str, list[float]] = {"app": [], "trivial": []}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for n in range(args.rounds):
                order = ["app", "trivial"] if n % 2 == 0 else ["trivial", "app"]
                for which in order:
                    log = Path(tmp) / f"{which}.log"
                    if which == "app":
                        data = Path(tmp) / f"data-{n}"
                        served, button = app_server(find_free_port(), data, log), "New game"
                    else:
                        served, button = trivial_server(find_free_port(), log), "Tap"
                    wall, cpu = to_interactive(browser, served, button)
                    times[which].append(wall)
                    cpus[which].append(cpu)
        finally:
            browser.close()
    app_ms = [t * 1000 for t in times["app"]]
    trivial_ms = [t * 1000 for t in times["trivial"]]
    ratio = statistics.median(app_ms) / statistics.median(trivial_ms)
    print(f"command to interactive first screen, {args.rounds} rounds (ms): ")
    print(f"  app (Home)   median {statistics.median(app_ms):.0f}, worst {max(app_ms):.0f}")
    print(f"  trivial app  median {statistics.median(trivial_ms):.0f}, worst {max(trivial_ms):.0f}")
    print(f"  ratio of medians {ratio:.2f}x (target <= {TARGET_RATIO}x)")
    app_cpu_s, trivial_cpu_s = statistics.median(cpus["app"]), statistics.median(cpus["trivial"])
    print(
        f"server process CPU until then (ms): app {app_cpu_s * 1000:.0f}, trivial app {trivial_cpu_s * 1000:.0f}; "
        f"ratio {app_cpu_s / trivial_cpu_s:.2f}x"
    )
    imports: dict[str, list[tuple[float, float]]] = {"app": [], "trivial": []}
    for _ in range(args.rounds):  # in turn, side by side
        imports["app"].append(import_ms(APP_IMPORTS))
        imports["trivial"].append(import_ms(TRIVIAL_IMPORTS))
    (app_wall, app_cpu), (trivial_wall, trivial_cpu) = (
        (statistics.median(w for w, _ in imports[k]), statistics.median(c for _, c in imports[k])) for k in imports
    )
    print(
        f"python imports before serving, median of {args.rounds} (ms, wall / CPU): app {app_wall:.0f} / {app_cpu:.0f}, "
        f"trivial app {trivial_wall:.0f} / {trivial_cpu:.0f}; ratio {app_wall / trivial_wall:.2f} / "
        f"{app_cpu / trivial_cpu:.2f}x"
    )
    print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
