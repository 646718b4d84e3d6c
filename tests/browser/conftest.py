"""Fixtures for end-to-end tests of the real app in Chromium.

* ``free_port`` / ``data_dir``: a free TCP port and a fresh data folder per test.
* ``app_server``: ``companion --port P --data-dir D --no-browser`` in a subprocess, started and waited for;
  ``app_server.restart()`` stops and starts it again on the same port and data folder ("stop the server and
  continue"); stopped at teardown.
* ``browser``: Chromium (``/usr/bin/chromium``) through Playwright, one for the whole run (each test gets its
  own browser context, so nothing is shared between tests but the compiled Flutter engine).
* ``page``: a Playwright page on the app's home screen with Flutter's semantics tree switched on, so controls
  can be found by role and label (``page.get_by_role("button", name="Rules")``).
* ``open_app(page, path)``: load a path of the app and switch semantics on (also after a reload).
* ``screenshot(page, name)``: save ``NAME.png``; into ``docs/screenshots/`` for the README only when
  ``CTC_SCREENSHOTS=1`` (``make screenshots``), else into the untracked ``test-output/screenshots/``.

Without Chromium (or Playwright) these tests skip with the reason, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    AppServer,
    find_free_port,
    open_app,
    require_browser,
)


@pytest.fixture
def free_port() -> int:
    return find_free_port()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


@pytest.fixture
def app_server(free_port: int, data_dir: Path, tmp_path: Path) -> Iterator[AppServer]:
    require_browser()
    server = AppServer(free_port, data_dir, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield instance
        finally:
            instance.close()


PAGE_TEST_LIMIT_S = 300
"""A test with a page is stopped with a :class:`TimeoutError` after this long, and so run again like one that timed
out waiting for the page (:data:`BROWSER_RERUNS`): the slowest takes about 90 s on a loaded 2-core machine. Once,
in a full run, a page reloaded by a test stopped answering (its renderer busy for good) and the test waited the
600 s the suite allows any test, then failed; a rerun gets a new page. (pytest-timeout does not time reruns, so
this limit is the page's own.)"""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeoutError` in the test if it is still running after ``seconds`` (SIGALRM)."""

    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the test was stopped after {seconds:.0f} s: the page stopped answering")

    before = signal.signal(signal.SIGALRM, stop)
    started = time.monotonic()
    left, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        # pytest-timeout's own timer, if it had one, goes on with what it had left
        signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - started), 0.001) if left else 0)
        signal.signal(signal.SIGALRM, before)


@pytest.fixture
def page(browser: Any, app_server: AppServer) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    try:
        with time_limit(PAGE_TEST_LIMIT_S):
            open_app(tab, app_server)
            yield tab
    finally:
        context.close()


BROWSER_RERUNS = 2
"""A browser test that times out waiting for the page is run again, at most twice. The real app, Chromium and the
test share two cores, and a Flutter page can miss a 15 s wait under load; a test that fails three times in a row
still fails, and each rerun is reported in the summary (``R``)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, only_rerun=["TimeoutError"]))


_RERUN_REASONS: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keep why a browser test was rerun (pytest-rerunfailures reports the rerun, not its error)."""
    if report.outcome == "rerun":
        text = str(report.longrepr or "")
        where = [line.split(": ")[0] for line in text.splitlines() if line.startswith("tests/")]
        error = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
        _RERUN_REASONS.append((report.nodeid, " | ".join(where[-2:] + error[:2]) or text[-300:]))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _RERUN_REASONS:
        terminalreporter.section("why browser tests were rerun")
        for nodeid, reason in _RERUN_REASONS:
            terminalreporter.write_line(f"{nodeid}: {reason[:600]}")
