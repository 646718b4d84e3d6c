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
APP_IMPORTS = "import app.main, app.cli, app.serve, app.web, companion.services, views.shell"
"""What ``python -m app`` imports before it serves its first page (Home's screen module comes with the shell)."""
TRIVIAL_IMPORTS = "import flet, flet_web.fastapi, bench.trivial_app"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def import_ms(statement: str) -> float:
    """Milliseconds a fresh interpreter takes for ``statement`` (the imports only, not its own start)."""
    code = f"import time\nt = time.perf_counter()\n{statement}\nprint((time.perf_counter() - t) * 1000)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def to_interactive(browser: object, served: Served, button: str) -> float:
    """Seconds from starting ``served`` to its first screen's ``button`` in the page's semantics tree."""
    began = time.monotonic()
    served.start()
    page = watched_page(browser)
    try:
        page.goto(served.url)
        page.get_by_role("button", name=button).first.wait_for(state="attached")
        return time.monotonic() - began
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

    times: dict[str, list[float]] = {"app": [], "trivial": []}
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
                    times[which].append(to_interactive(browser, served, button))
        finally:
            browser.close()
    app_ms = [t * 1000 for t in times["app"]]
    trivial_ms = [t * 1000 for t in times["trivial"]]
    ratio = statistics.median(app_ms) / statistics.median(trivial_ms)
    print(f"command to interactive first screen, {args.rounds} rounds (ms): ")
    print(f"  app (Home)   median {statistics.median(app_ms):.0f}, worst {max(app_ms):.0f}")
    print(f"  trivial app  median {statistics.median(trivial_ms):.0f}, worst {max(trivial_ms):.0f}")
    print(f"  ratio of medians {ratio:.2f}x (target <= {TARGET_RATIO}x)")
    app_imp, trivial_imp = import_ms(APP_IMPORTS), import_ms(TRIVIAL_IMPORTS)
    print(f"python imports before serving (ms): app {app_imp:.0f}, trivial app {trivial_imp:.0f}")
    print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
