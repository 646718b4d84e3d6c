"""Helpers for the browser tests: the app server in a subprocess, Chromium set-up, semantics, screenshots."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from companion.sharing import lan_address
from storage import Archive
from views.widgets import WIDE

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS_ENV = "CTC_SCREENSHOTS"
"""Set to 1 (``make screenshots``) to refresh the README's screenshots in ``docs/screenshots/``."""
SCREENSHOTS = ROOT / "docs" / "screenshots"
SCRATCH_SCREENSHOTS = ROOT / "test-output" / "screenshots"
"""Where screenshots go on an ordinary test run (ignored by git), so ``make test`` leaves tracked files alone."""


def screenshot_folder() -> Path:
    """``docs/screenshots`` when ``CTC_SCREENSHOTS=1``, else the untracked ``test-output/screenshots``."""
    return SCREENSHOTS if os.environ.get(SCREENSHOTS_ENV, "") == "1" else SCRATCH_SCREENSHOTS


CHROMIUM = Path(os.environ.get("CTC_CHROMIUM", "/usr/bin/chromium"))
"""The whole browser (Debian's ``chromium``): the benchmarks' pages, and a test that needs what the headless shell
does not have (a screen wake lock)."""
HEADLESS_SHELL = Path(os.environ.get("CTC_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell"))
"""The browser tests' Chromium: the same Chromium built as a headless shell, with no browser window or user interface
around the page (Debian's ``chromium-headless-shell``; Playwright's own default for a headless run). The same page,
drawn by the same renderer, takes about a tenth less CPU and time than in the whole browser (README, "Packaging")."""
PHONE_HOST = "phone.test"
"""A host name that the test browser maps to 127.0.0.1: the page address a phone would use, traffic on loopback."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A "phone" for the live-table tests: the browser opens http://phone.test:PORT (a non-local page address, as a
    # phone on the network would), while the connection itself stays on loopback.
    f"--host-resolver-rules=MAP {PHONE_HOST} 127.0.0.1",
]
START_TIMEOUT = 30.0
"""Seconds to wait for the server to answer."""
LOAD_TIMEOUT_MS = 30_000
"""Milliseconds to wait for the Flutter app to load in the page."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _missing_browser_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright)"
    for path, package in ((HEADLESS_SHELL, "chromium-headless-shell"), (CHROMIUM, "chromium")):
        if not path.exists():
            return f"Chromium is not installed at {path} (apt-get install {package})"
    return None


def require_browser() -> None:
    """Skip (or, under CI=true, fail) when the browser tests cannot run here."""
    reason = _missing_browser_reason()
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"browser tests must run under CI=true, but {reason}")
    pytest.skip(f"browser test skipped: {reason}")


def find_free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def companion_command() -> list[str]:
    """``python -m app``: the same ``app.main:main`` that the installed ``companion`` script runs."""
    return [sys.executable, "-m", "app"]


class Served:
    """A server in a subprocess of its own process group, answering on 127.0.0.1:``port`` and writing its output
    to ``log_file``; :meth:`stop` ends exactly that group. Shared by the browser tests and the benchmarks."""

    def __init__(
        self, command: list[str], port: int, log_file: Path, start_timeout: float = START_TIMEOUT, cwd: Path = ROOT
    ) -> None:
        self.command = command
        self.cwd = cwd
        self.port = port
        self.log_file = log_file
        self.start_timeout = start_timeout
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Served:
        """Start the command and wait until its port answers (:class:`RuntimeError` with its output if it exits
        first or stays silent for ``start_timeout`` s)."""
        if self.process is not None:
            raise RuntimeError(f"{self.command[0]} is already running")
        with self.log_file.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,  # another checkout of the project serves its own code (a benchmark's baseline)
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so stop() ends exactly this server
            )
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.command[0]} exited with {self.process.returncode}:\n{self.output()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"nothing answered on port {self.port} within {self.start_timeout:.0f} s:\n{self.output()}")

    def output(self) -> str:
        """What the server wrote."""
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def __enter__(self) -> Served:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class AppServer(Served):
    """The real app in a subprocess: ``companion --port P --data-dir D --no-browser``, its output in
    ``log_dir/server-N.log`` (N counts the starts)."""

    def __init__(self, port: int, data_dir: Path, log_dir: Path) -> None:
        super().__init__([], port, log_dir / "server-1.log")
        self.data_dir = data_dir
        self.log_dir = log_dir
        self._starts = 0

    def start(self) -> Served:
        if self.process is not None:
            raise RuntimeError("the app server is already running")
        self._starts += 1
        self.command = [
            *companion_command(),
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--no-browser",
        ]
        self.log_file = self.log_dir / f"server-{self._starts}.log"
        return super().start()

    def restart(self) -> None:
        """Stop the server and start it again with the same port and data folder."""
        self.stop()
        self.start()

    def output(self) -> str:
        """What every start of the server wrote."""
        return "\n".join(
            path.read_text(errors="replace") for path in sorted(self.log_dir.glob("server-*.log")) if path.exists()
        )

    def log(self) -> str:
        return self.output()


PAGE_TIMEOUT_MS = 15_000
"""How long Playwright's waits in a test's page last, unless the test says otherwise."""
PAGE_OPTIONS: dict[str, Any] = {"viewport": PHONE, "device_scale_factor": 1, "reduced_motion": "reduce"}
"""A test's page: a phone's viewport at device scale factor 1, and the page told the user prefers reduced motion
(``prefers-reduced-motion: reduce``), which Flutter reads as "disable animations": fewer frames are drawn
(SwiftShader's GL in Chromium's GPU process and Skia in the renderer, on the CPU), about a third less CPU for a game
entered tap by tap, and no control is still moving when it is measured or tapped. Every assertion is about what the
screen shows once it is still, so it holds either way; the benchmarks (``bench/``) keep the default motion, as a
user has it."""


def new_context(browser: Any, viewport: dict[str, int] = PHONE, timeout_ms: int = PAGE_TIMEOUT_MS) -> Any:
    """A browser context of its own (:data:`PAGE_OPTIONS`, at ``viewport``; Playwright's waits limited to
    ``timeout_ms``): a second device, or a page that must start with nothing cached."""
    context = browser.new_context(**{**PAGE_OPTIONS, "viewport": viewport})
    context.set_default_timeout(timeout_ms)
    return context


def shared_context(browser: Any) -> Any:
    """The context of the browser's own profile (it is launched with one, on disk: the first of its contexts),
    where the ``page`` fixture opens each test's tab. Its HTTP cache keeps the Flutter app's 9.6 MB of JavaScript
    and 7.2 MB of CanvasKit with the code V8 compiled from them, so a load of the app in a later test skips that
    compile when the app is at the same address (:func:`worker_port`): 1.2 CPU-seconds of the renderer's a load,
    a tenth of the phone-size tests' CPU. Nothing else in it is the app's: the app keeps no cookie and nothing in
    the browser's storage, and Flet's own session id is in each tab's ``sessionStorage``."""
    return browser.contexts[0]


WORKER_PORT = 47_700
"""The first of the ports :func:`worker_port` gives, one a pytest-xdist worker (``gw0`` 47700, ``gw1`` 47701...)."""


def worker_port() -> int:
    """The port of this worker's app server: the same in every test the worker runs (one at a time), so that the
    app's files are at the same address each time and the browser's cache has them (:func:`shared_context`); a
    free port of the system's choice when that one is taken."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    port = WORKER_PORT + (int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 99)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds it
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return find_free_port()
    return port


def close_context(context: Any) -> None:
    """Close a browser context, unless its browser is gone (killed by the watchdog, or crashed)."""
    try:
        context.close()
    except Exception:
        if context.browser is not None and context.browser.is_connected():
            raise


def box_of(locator: Any, timeout_s: float = 15.0) -> dict[str, float]:
    """The bounding box of ``locator`` once it is laid out. Flutter can replace a semantics node just after it was
    found (the redraw after a reload), and ``bounding_box()`` of a node gone gives ``None``: it is looked for again
    until ``timeout_s``, then :class:`TimeoutError` (rerun like any wait for the page)."""
    deadline = time.monotonic() + timeout_s
    while True:
        locator.wait_for(state="attached")
        box: dict[str, float] | None = locator.bounding_box()
        if box is not None:
            return box
        if time.monotonic() > deadline:
            raise TimeoutError(f"{locator} is in the page but was not laid out within {timeout_s:.0f} s")
        time.sleep(0.1)


def enable_semantics(page: Any) -> None:
    """Wait for Flutter to load and switch its semantics tree on (the DOM then has roles and labels)."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=LOAD_TIMEOUT_MS)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached", timeout=LOAD_TIMEOUT_MS)


def open_app(page: Any, server: AppServer, path: str = "/") -> None:
    """Load ``path`` of the app in ``page`` and switch semantics on."""
    page.goto(server.url + path)
    enable_semantics(page)


def reload_app(page: Any) -> None:
    """Reload the page (a new app session) and switch semantics on again."""
    page.reload()
    enable_semantics(page)


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot as ``NAME.png``, in ``docs/screenshots/`` (the README's) only under ``make screenshots``
    (:func:`screenshot_folder`); returns its path."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise ValueError(f"screenshot name {name!r}: use lower-case letters, digits and dashes")
    folder = screenshot_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    size = page.viewport_size or {"width": 1, "height": 1}
    page.mouse.move(size["width"] - 1, size["height"] - 1)  # no hover highlight from the last click
    page.wait_for_timeout(400)  # let animations (page transitions, ripples) settle
    page.screenshot(path=str(path))
    return path


def wait_dark(page: Any, *, timeout_s: float = 15.0) -> float:
    """Wait until the page's background is dark (the theme animates, and a loaded machine paints late); returns the
    last luminance read (the caller asserts it)."""
    deadline = time.monotonic() + timeout_s
    luminance = background_luminance(page)
    while luminance >= 0.2 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        luminance = background_luminance(page)
    return luminance


DECODE_PNG = """
    const img = new Image();
    img.src = 'data:image/png;base64,' + png;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width; canvas.height = img.height;
    const g = canvas.getContext('2d');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, img.width, img.height).data;
"""
"""JavaScript, inside an async function of ``png`` (a base64 PNG): its ``img`` and its pixels' RGBA ``data``."""


def background_luminance(page: Any, x: int = 5, y: int = -5) -> float:
    """Relative luminance (0 black … 1 white) of one screen pixel (negative ``y`` counts from the bottom)."""
    import base64

    png = base64.b64encode(page.screenshot()).decode("ascii")
    rgb = page.evaluate(
        f"""async ([png, x, y]) => {{
            {DECODE_PNG}
            const i = ((y < 0 ? img.height + y : y) * img.width + x) * 4;
            return [data[i], data[i + 1], data[i + 2]];
        }}""",
        [png, x, y],
    )
    r, g, b = (channel / 255 for channel in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


INK = (
    """async ([png, threshold]) => {"""
    + DECODE_PNG
    + """
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
        const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
        counts.set(key, (counts.get(key) || 0) + 1);
    }
    const bg = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    const [br, bg_, bb] = [bg >> 16, (bg >> 8) & 255, bg & 255];
    const columns = [];
    for (let x = 0; x < img.width; x++) {
        let top = -1, bottom = -1;
        for (let y = 0; y < img.height; y++) {
            const i = (y * img.width + x) * 4;
            if (Math.max(Math.abs(data[i] - br), Math.abs(data[i + 1] - bg_), Math.abs(data[i + 2] - bb)) > threshold) {
                if (top < 0) top = y;
                bottom = y;
            }
        }
        columns.push(top < 0 ? null : [top, bottom]);
    }
    return columns;
}"""
)
"""JavaScript: for each pixel column of a PNG, the first and last rows of its pixels unlike the image's most common
colour (``null`` for a column with none)."""


class Ink(NamedTuple):
    """What a screenshot of a box shows drawn in it (:func:`ink`): for each pixel column, its first and last inked
    rows (``None`` for a column with no ink)."""

    columns: tuple[tuple[int, int] | None, ...]

    @property
    def left(self) -> int:
        return next(x for x, rows in enumerate(self.columns) if rows is not None)

    @property
    def right(self) -> int:
        return max(x for x, rows in enumerate(self.columns) if rows is not None)

    @property
    def width(self) -> int:
        """From the first inked column to the last."""
        return self.right - self.left + 1

    def ends_in_dots(self, px: float) -> bool:
        """Whether a text of ``px`` pixels drawn here ends in an ellipsis ("…"): its last half an em of ink lies in
        one band less than 0.3 em tall (the dots on the baseline), where a letter's last half an em reaches across
        its x-height at least."""
        last = [rows for rows in self.columns[self.right - round(px / 2) + 1 : self.right + 1] if rows is not None]
        return max(bottom for _, bottom in last) - min(top for top, _ in last) + 1 < 0.3 * px

    def __repr__(self) -> str:
        return f"Ink(left={self.left}, right={self.right}, last={self.columns[self.right]})"


def ink(page: Any, box: dict[str, float], *, threshold: int = 60) -> Ink | None:
    """What the page *drew* in ``box`` (page pixels), as a screenshot shows it: the pixels unlike the box's own
    background (its most common colour). A text cut with an ellipsis ends where the cut is, whatever its
    semantics label says. ``None`` where nothing is drawn."""
    import base64

    clip = {key: box[key] for key in ("x", "y", "width", "height")}
    png = base64.b64encode(page.screenshot(clip=clip, scale="css")).decode("ascii")
    columns = page.evaluate(INK, [png, threshold])
    if all(rows is None for rows in columns):
        return None
    return Ink(tuple(None if rows is None else (rows[0], rows[1]) for rows in columns))


# --- playing a game at the table ----------------------------------------------------------------------------------


def button(page: Any, name: str) -> Any:
    """The button labelled exactly ``name``."""
    return page.get_by_role("button", name=name, exact=True)


def _present(locator: Any, timeout_ms: int = 150) -> bool:
    """Whether ``locator`` is in the page, asked with a deadline: ``locator.count()`` has none, so a page whose
    renderer is busy would hold the test until pytest-timeout; this gives up after ``timeout_ms`` (a page that
    stays busy then fails the next wait with Playwright's TimeoutError, which names the wait)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        locator.first.wait_for(state="attached", timeout=timeout_ms)
    except PlaywrightTimeoutError:
        return False
    return True


def _box(locator: Any) -> dict[str, float] | None:
    """The box of ``locator``'s first node when it is in the page, else ``None`` (asked with deadlines)."""
    if not _present(locator):
        return None
    try:
        box: dict[str, float] | None = locator.first.bounding_box(timeout=1_000)
    except Exception:  # Playwright's TimeoutError: detached meanwhile
        return None
    return box


def _in_view(page: Any, locator: Any) -> bool:
    """Whether ``locator`` is in the page with its centre inside the viewport (a click there reaches it)."""
    box = _box(locator)
    size = page.viewport_size or {"width": 390, "height": 844}
    return box is not None and 0 <= box["y"] + box["height"] / 2 <= size["height"]


def scroll_to_top(page: Any) -> dict[str, int]:
    """Scroll the screen to its top (the wheel over the middle of the page); returns the viewport's size."""
    size: dict[str, int] = page.viewport_size or {"width": 390, "height": 844}
    page.mouse.move(size["width"] // 2, size["height"] // 2)
    page.mouse.wheel(0, -100_000)
    return size


def _scrolled_straight(page: Any, locator: Any) -> bool:
    """Scroll a node already in the page (Flutter keeps those near the screen) straight to the screen's middle, by
    how far its box is off; whether it is then on screen."""
    box = _box(locator)
    if box is None:
        return False
    size = page.viewport_size or {"width": 390, "height": 844}
    page.mouse.move(size["width"] // 2, size["height"] // 2)
    page.mouse.wheel(0, box["y"] + box["height"] / 2 - size["height"] // 2)
    page.wait_for_timeout(150)
    if not _in_view(page, locator):
        return False
    page.wait_for_timeout(300)  # let the scrolling settle before the node is measured
    return True


def _scrolled_to(page: Any, locator: Any, steps: int) -> bool:
    """Scroll from the top down until ``locator`` is on screen; whether it is."""
    size = scroll_to_top(page)
    for _ in range(steps):
        page.wait_for_timeout(150)
        if _in_view(page, locator):
            page.wait_for_timeout(300)  # let the scrolling settle before anyone taps
            return True
        page.mouse.wheel(0, size["height"] // 2)
    return False


BOARD = "Scoreboard and hands"
"""The table screen's button that shows the scoreboard and the hand list (on a phone, in place of the hand)."""
BACK_TO_HAND = "Back to the hand"
"""The scoreboard's button that shows the hand again (on a phone, in place of the scoreboard)."""


def reveal(page: Any, locator: Any, steps: int = 12, *, on_board: bool = False) -> Any:
    """Bring ``locator`` on screen, as a player would, and return it: scroll to it (Flutter leaves controls far
    off screen out of the semantics tree, and a control just outside the viewport cannot be clicked), and on a
    phone's table screen, which shows the hand or the scoreboard one at a time, look on the scoreboard first when
    ``on_board`` (a hand's row), else on the hand first, and then on the other one."""
    if _in_view(page, locator):
        return locator
    if on_board:
        show_board(page)
    elif _board_shown(page):
        _other_side(page)
    if _in_view(page, locator):
        return locator
    if not _scrolled_to(page, locator, steps) and _other_side(page):
        _scrolled_to(page, locator, steps)
    return locator


def reveal_read(page: Any, locator: Any) -> Any:
    """Bring ``locator`` on screen to be read, and return it: a node already in the page is scrolled straight to
    (a long list read node by node is not scrolled through from the top for each), any other as :func:`reveal`
    does. Not for a control about to be tapped: :func:`reveal` leaves it where a player scrolling down finds it,
    and what the tap shows next is looked for around there."""
    if _in_view(page, locator) or _scrolled_straight(page, locator):
        return locator
    return reveal(page, locator)


def _narrow(page: Any) -> bool:
    """Whether the page is a phone's: its table screen shows the hand or the scoreboard, one at a time."""
    return bool((page.viewport_size or {"width": 390})["width"] < WIDE)


def _a_button_named(*labels: str) -> str:
    """JavaScript: whether the page has a button labelled one of ``labels``."""
    return f"""() => [...document.querySelectorAll('flt-semantics[role=button]')].some(
    e => {list(labels)!r}.includes(e.getAttribute('aria-label') || e.textContent.trim()))"""


_BOARD_SHOWN = _a_button_named(BACK_TO_HAND)
_BOARD_OR_BOTH = _a_button_named(BACK_TO_HAND, "Home")
"""JavaScript: whether a phone's table screen shows its scoreboard in the hand's place ("Back to the hand"), or a
finished game's end and scoreboard together (its "Home" button at the foot: no hand to go back to)."""


def show_board(page: Any) -> None:
    """On a phone's table screen, show the scoreboard and the hands (where a player looks for a hand's row), when
    the hand is shown (a finished game shows both: the tap scrolls to the scoreboard)."""
    if _narrow(page) and not _board_shown(page) and _present(button(page, BOARD), 100):
        reveal(page, button(page, BOARD)).first.click()
        page.wait_for_function(_BOARD_OR_BOTH)


def _board_shown(page: Any) -> bool:
    """Whether a phone's table screen shows its scoreboard (in the hand's place), asked at once."""
    return _narrow(page) and bool(page.evaluate(_BOARD_SHOWN))


def _other_side(page: Any) -> bool:
    """On a phone's table screen, show the hand in place of the scoreboard or the scoreboard in place of the hand,
    as a player does to read the other one; whether there was another one to show (a wider page shows both)."""
    if not _narrow(page):
        return False
    scroll_to_top(page)  # the scoreboard's "Back to the hand" is at its top
    page.wait_for_timeout(200)
    for name in (BACK_TO_HAND, BOARD):
        other = button(page, name)
        if _in_view(page, other):
            other.first.click()
            return True
    return False


_HIT = """(e) => { const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y); return hit !== null && (hit === e || e.contains(hit)); }"""


def click_free(page: Any, locator: Any, tries: int = 20) -> None:
    """Click ``locator`` once nothing covers its centre: a loaded machine can leave the page scrolling, or a text
    field's editing element lying over it, after :func:`reveal` found it on screen. Until it is free, the focus is
    taken off any text field (as a tap elsewhere does) and the page is scrolled a little further."""
    for _ in range(tries):
        reveal(page, locator)
        try:
            if locator.first.evaluate(_HIT):
                locator.first.click()
                return
        except Exception:  # Playwright's TimeoutError or a detached node: look again
            pass
        page.evaluate("() => document.activeElement instanceof HTMLElement && document.activeElement.blur()")
        page.mouse.wheel(0, 120)
        page.wait_for_timeout(250)
    # Still covered. Seen only on a starved machine: the text field of the rule below ("Vegas Rules stake per
    # point") keeps its editing element over the switch above it. The switch is then activated through its own
    # semantics node, as a screen reader does (every control must work that way too).
    locator.first.dispatch_event("click")


def type_into(page: Any, label: str, text: str) -> None:
    """Type ``text`` into the text field labelled ``label``, replacing what it holds."""
    field = reveal(page, page.get_by_label(label, exact=True))
    field.fill(text)


def tap(page: Any, name: str) -> None:
    """Tap the button labelled exactly ``name``."""
    reveal(page, button(page, name)).click()


def card_label(code: str) -> str:
    """The picker's label of a card code: ``"10H"`` → ``"10♥"``, ``"JK"`` → ``"Joker"``."""
    if code.upper() == "JK":
        return "Joker"
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return f"{code[:-1].upper()}{symbols[code[-1].upper()]}"


def tap_card(page: Any, code: str) -> None:
    """Tap one card on the Jokers Kill card picker and wait until the app has taken it (it greys out)."""
    name = card_label(code)
    reveal(page, page.get_by_role("button", name=name, exact=True, disabled=False)).click()
    page.wait_for_function(
        """(name) => ![...document.querySelectorAll('flt-semantics[role=button]')].some(
            e => e.textContent.trim() === name && e.getAttribute('aria-disabled') !== 'true')""",
        arg=name,
    )


def enter_jk_hand(page: Any, up: str, cards: list[str], tiebreaks: tuple[str, ...] = ()) -> int:
    """Enter one Jokers Kill hand through the card picker (up-card, the players' cards in seating order, then the
    tie-break cards in the order the app asks for them) and confirm it; returns the number of taps it took."""
    taps = 0
    for code in [up, *cards, *tiebreaks]:
        tap_card(page, code)
        taps += 1
    tap(page, "Confirm hand")
    return taps + 1


def open_correction(page: Any, row: str, slug: str) -> None:
    """Tap the hand-list row labelled ``row`` (its text before ". Tap to correct") and wait for the correction
    screen's route, which ends in ``slug`` (``tiebreak-1``, ``sudden-death-2``)."""
    found = page.get_by_role("button", name=re.compile(rf"^{re.escape(row)}\. Tap to correct"))
    reveal(page, found, on_board=True).first.click()
    page.wait_for_url(re.compile(rf"/continue/[0-9a-f]+/{re.escape(slug)}$"))


SEAT_ENABLED = """() => [...document.querySelectorAll('flt-semantics[role=button]')].some(
    e => e.textContent.trim() === 'Seat player' && e.getAttribute('aria-disabled') !== 'true')"""
"""JavaScript: the New-game screen's "Seat player" button is enabled (it is greyed out until a name is typed)."""


def wait_shown(page: Any, locator: Any, timeout_s: float = 30.0) -> Any:
    """Wait until ``locator`` is shown and return it; on a phone's table screen, which shows the hand or the
    scoreboard one at a time, look on the other one too (the hand's first, and after 8 s the other, and back
    again, until ``timeout_s``): a player reads the standings and the hands on the scoreboard, and enters a
    hand on the other."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    if _present(locator, 100):
        return locator
    deadline = time.monotonic() + timeout_s
    wait_s = 8.0  # a page that loads or answers slowly is not left for the other side too soon
    if _board_shown(page):  # mostly the hand's, there
        _other_side(page)
    while True:
        left = deadline - time.monotonic()
        try:
            locator.first.wait_for(timeout=max(1.0, min(wait_s, left)) * 1000)
            return locator
        except PlaywrightTimeoutError:
            if left <= wait_s:
                raise
        _other_side(page)


def wait_text(page: Any, pattern: str) -> None:
    """Wait until a text matching the regular expression ``pattern`` is shown (:func:`wait_shown`)."""
    wait_shown(page, page.get_by_text(re.compile(pattern)))


_FOCUSED = """(label) => (document.activeElement?.getAttribute('aria-label') || '').includes(label)"""
"""Whether the field labelled (in part) ``label`` has the page's focus."""


def type_focused(page: Any, field: Any, label: str, text: str) -> Any:
    """Tap ``field`` (labelled ``label``), and once it has held the page's focus for a moment type ``text`` into it,
    replacing what it holds; returns the field.

    On a loaded machine, text typed the moment a field is focused can land in the field typed into before, whose
    input Flutter has not let go of yet (seen: a night's Note typed into its Amount, ``10.00pizza``)."""
    field = reveal(page, field)
    field.click()
    with contextlib.suppress(Exception):  # Playwright's TimeoutError: typed anyway, and checked by the caller
        page.wait_for_function(_FOCUSED, arg=label, timeout=3000)
    page.wait_for_timeout(300)
    field.fill(text)
    return field


def type_until(page: Any, label: str, text: str, done: str, *, script: bool = False) -> None:
    """Type ``text`` into the field labelled ``label`` until the app shows it took it: the text ``done`` appears (or,
    with ``script``, the JavaScript condition ``done`` holds). Typing right after a screen opens can be lost while
    the page settles, so it is tried again."""
    for attempt in range(4):
        type_focused(page, page.get_by_label(label, exact=True), label, text)
        try:  # the server answers the typing; on a loaded machine that can take several seconds
            if script:
                page.wait_for_function(done, timeout=8000)
            else:
                page.get_by_text(re.compile(done)).first.wait_for(timeout=8000)
            return
        except Exception:  # Playwright's TimeoutError
            if attempt == 3:
                raise


def seat(page: Any, names: list[str]) -> None:
    """Seat ``names`` on the New-game screen, typed on the spot."""
    for i, name in enumerate(names):
        type_until(page, "New player name", name, SEAT_ENABLED, script=True)
        tap(page, "Seat player")
        wait_text(page, rf"^Seat {i + 1}: {name}$")


def wait_listed(page: Any, pattern: str) -> None:
    """Wait until a button labelled to match ``pattern`` (a hand-list row, ``^Hand 3:``) is in the page, scrolling
    to it when it is off screen (Flutter leaves far-off rows out of the semantics tree)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    show_board(page)
    found = page.get_by_role("button", name=re.compile(pattern)).first
    for attempt in range(3):
        try:
            found.wait_for(state="attached", timeout=5_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
            reveal(page, found, on_board=True)


def session_id_of(page: Any) -> str:
    """The id of the game whose table screen is open."""
    match = re.search(r"/continue/([0-9a-f]+)$", page.url)
    assert match, page.url
    return match.group(1)


def wait_saved(page: Any) -> None:
    """Wait until the screen no longer says "Saving…" (over the game's name): a change made by a tap is written a
    moment after its reply."""
    page.get_by_text(re.compile("^Saving…")).first.wait_for(state="detached")


def score_saved(server: AppServer, session_id: str, page: Any) -> dict[str, Any]:
    """``python -m scoring score`` on the record the app saved (read through storage, read-only), once ``page`` no
    longer says "Saving…"; the record itself is added under ``"record"``."""
    wait_saved(page)
    with Archive(server.data_dir, read_only=True) as archive:
        record = archive.load_session(session_id).record
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    result["record"] = record
    return result


UPDATE_WAIT_MS = 5_000
"""How long a pushed update may take here (generous: the machine may be busy; the bench measures the real figure)."""


def phone_url(server: AppServer, path: str = "/") -> str:
    """The address a phone on the network opens: this machine's LAN address (the page is opened at a non-local
    address and the connection comes from it, not from loopback, as from a phone; nothing leaves this machine)."""
    address = lan_address()
    if address is None:
        if in_ci():
            pytest.fail("the live-table browser tests need a network address on this machine")
        pytest.skip("this machine has no network address for the phone to open")
    return f"http://{address}:{server.port}{path}"


def new_tab(browser: Any) -> Any:
    return new_context(browser).new_page()


def open_at(tab: Any, url: str) -> None:
    tab.goto(url)
    enable_semantics(tab)


def live_count(tab: Any, hands: int) -> None:
    """Wait until the live view says ``hands`` hands were played."""
    want = re.compile(rf"^Live: Jokers Kill: {hands} hands? played$")
    try:
        tab.get_by_text(want).first.wait_for(timeout=UPDATE_WAIT_MS)
    except Exception:
        shown = [t for t in texts(tab) if t.startswith("Live: ")]
        raise AssertionError(f"the live view did not reach {hands} hands; it shows {shown}") from None


def texts(tab: Any) -> list[str]:
    return list(tab.evaluate("() => [...document.querySelectorAll('flt-semantics')].map(e => e.textContent)"))


def send_pin(phone: Any, pin: str) -> None:
    """Type ``pin`` into the PIN field and tap "Edit with PIN" (typing again if a redraw took the field away
    while it was being filled: the counter under the field shows what the app holds)."""
    for _ in range(3):
        phone.get_by_role("textbox", name="PIN").fill(pin)
        try:
            phone.get_by_text(f"{len(pin)}/6", exact=True).first.wait_for(timeout=2_000)
            break
        except Exception:
            continue
    button(phone, "Edit with PIN").click()


def host_pin(host: Any) -> str:
    label = host.get_by_text(re.compile(r"^PIN \d{4,6}$")).first
    label.wait_for()
    return str(label.text_content()).split()[1]


def quick_hand(page: Any, number: int, scores: dict[str, str]) -> int:
    """Enter a hand by the quick form; returns the taps (a field and its typing count as one)."""
    tap(page, "Quick totals")
    for name, value in scores.items():
        type_total(page, name, value)
    wait_text(page, "Ready: confirm the hand.$")
    tap(page, "Confirm hand")
    wait_listed(page, rf"^Hand {number}:")
    return 1 + len(scores) + 1


def fill(page: Any, label: str, value: str, shows: str) -> None:
    """Type ``value`` into the field labelled ``label`` until the field holds it and the app shows text matching
    ``shows``.

    The field is typed into once it holds the focus (:func:`type_focused`). Typing into a field while the app's
    answer to the previous field arrives can also be lost in Flutter's web text input; a person is never that fast,
    a test is."""
    for attempt in range(3):
        field = type_focused(page, page.get_by_label(label), label, value)
        try:
            page.get_by_text(re.compile(shows)).first.wait_for(timeout=3000 if attempt < 2 else 15000)
            if field.input_value() == value:
                return
        except Exception:  # Playwright's TimeoutError
            if attempt == 2:
                raise
    raise AssertionError(f"the field {label!r} does not hold {value!r} after three tries: {field.input_value()!r}")


def type_total(page: Any, name: str, value: str) -> None:
    """Type one player's total in the quick form and wait until the app has it."""
    fill(page, f"{name}'s card points", value, rf"^Entered: .*\b{re.escape(name)} {re.escape(value)}(,|\.)")


NIGHT_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def play_game(page: Any, scores: dict[str, str]) -> str:
    """From the night screen: New game for tonight → Bargain Bin (the night's players already seated) → target 1,
    Vegas 10 cents a point → one quick hand ends it; returns the session id."""
    tap(page, "New game for tonight")
    page.get_by_role("button", name=re.compile(r"^Bargain Bin")).click()
    wait_text(page, r"^This game joins tonight's night, Game night, .+\.$")
    for i, name in enumerate(NIGHT_PLAYERS, start=1):
        wait_text(page, rf"^Seat {i}: {name}$")
    page.mouse.wheel(0, 900)
    fill(page, "Game points to win", "1", r"^House rules changed: .*Game points to win 1\b")
    fill(page, "Vegas Rules stake per point", "10¢", r"^Stored as \$0\.10 a point$")
    wait_text(page, r"^House rules changed: .*Vegas Rules stake per point \$0\.10\.$")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    sid = session_id_of(page)
    wait_text(page, r"^Hand 1$")
    quick_hand(page, 1, scores)
    wait_text(page, "win the game$|wins the game$")
    return sid


def run_companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
