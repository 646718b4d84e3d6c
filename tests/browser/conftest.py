"""Fixtures for end-to-end tests of the real app in Chromium.

* ``free_port`` / ``data_dir``: the worker's TCP port (:func:`~tests.support.browser.worker_port`) and a fresh
  data folder per test.
* ``app_server``: ``companion --port P --data-dir D --no-browser`` in a subprocess, started and waited for;
  ``app_server.restart()`` stops and starts it again on the same port and data folder ("stop the server and
  continue"); stopped at teardown.
* ``chromium``: Chromium's headless shell (``/usr/bin/chromium-headless-shell``) through Playwright, one for the
  whole run, launched again if a test's watchdog had to kill it, each time with a new profile. ``browser``: that
  browser, connected, for one test attempt, which is watched (:mod:`tests.support.watchdog`). Each test's ``page``
  is a new tab of the profile's context, whose cache keeps the Flutter app and its compiled code between tests
  (:func:`~tests.support.browser.shared_context`); a test that needs a context of its own makes one.
* ``whole_chromium``: the whole browser (``/usr/bin/chromium``), launched for one test that needs what the headless
  shell does not have (a screen wake lock), and closed after it.
* ``page``: a Playwright page on the app's home screen with Flutter's semantics tree switched on, so controls
  can be found by role and label (``page.get_by_role("button", name="Rules")``); blank for a test marked
  ``opens_app`` (one that opens the app at a page of its own first).
* ``open_app(page, path)``: load a path of the app and switch semantics on (also after a reload).
* ``screenshot(page, name)``: save ``NAME.png``; into ``docs/screenshots/`` for the README only when
  ``CTC_SCREENSHOTS=1`` (``make screenshots``), else into the untracked ``test-output/screenshots/``.

Without Chromium (or Playwright) these tests skip with the reason, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.session import SessionService
from storage import Archive
from tests.support import browser as helpers
from tests.support.browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    HEADLESS_SHELL,
    PAGE_OPTIONS,
    PAGE_TIMEOUT_MS,
    AppServer,
    open_app,
    require_browser,
    shared_context,
    worker_port,
)
from tests.support.watchdog import Chromium, Watchdog


@pytest.fixture
def free_port() -> int:
    return worker_port()


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
def playwright() -> Iterator[Any]:
    """Playwright, started once for the run."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Chromium]:
    with tempfile.TemporaryDirectory(prefix="ctc-chromium-") as profiles:

        def launch(args: list[str]) -> Any:
            profile = tempfile.mkdtemp(dir=profiles)  # a new one after a kill: the old one is still locked
            shared = playwright.chromium.launch_persistent_context(
                profile, executable_path=str(HEADLESS_SHELL), args=args, headless=True, **PAGE_OPTIONS
            )
            shared.set_default_timeout(PAGE_TIMEOUT_MS)
            return shared.browser

        holder = Chromium(launch, CHROMIUM_ARGS)
        try:
            yield holder
        finally:
            holder.close()


PAGE_TEST_LIMIT_S = 180
"""A browser test's attempt is stopped after this long (:class:`~tests.support.watchdog.Watchdog`: Chromium is
killed, the test fails with ``TargetClosedError`` and is run again with a new browser, :data:`BROWSER_RERUNS`). The
slowest takes 44–48 s in a full run, 53 s with both cores kept busy by other work. A page does stop answering for
good now and then: its renderer at 100% CPU right after a load or a reload, so that an ``evaluate`` never returns
(seen in full runs here; once, in CI, a test never ended at all). Each such page costs this long."""

_STDERR: dict[str, int] = {}
"""The file descriptor of the terminal's stderr, copied before pytest captured it (the watchdog writes there)."""


def pytest_configure(config: pytest.Config) -> None:
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
        _STDERR["fd"] = os.dup(2)


def pytest_unconfigure(config: pytest.Config) -> None:
    fd = _STDERR.pop("fd", None)
    if fd is not None:
        os.close(fd)


@pytest.fixture
def browser(chromium: Chromium, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A connected Chromium, with this test attempt watched (every fixture set up after this one, the test, and
    their teardown)."""
    with Watchdog(PAGE_TEST_LIMIT_S, chromium, request.node.nodeid, fd=_STDERR.get("fd", 2)):
        yield chromium.get()


@pytest.fixture
def whole_chromium(browser: Any, chromium: Chromium, playwright: Any) -> Iterator[Any]:
    """The whole browser (:data:`~tests.support.browser.CHROMIUM`), for a test that needs what the headless shell
    does not have: the shell refuses every screen wake lock ("Wake Lock permission request denied", granted or
    not). Watched with the test (it carries the run's browser's marker, so the watchdog kills it too)."""
    own = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, chromium.marker], headless=True
    )
    try:
        yield own
    finally:
        if own.is_connected():
            own.close()


OPENS_APP = "opens_app"
"""The marker of a browser test whose first step is to open the app at a page of its own (``open_app(page, server,
"/continue/...")``): its ``page`` is left blank, so the app is not loaded once for nothing (a load of Home is
about 2.5 CPU-seconds of Chromium's)."""


@pytest.fixture
def page(browser: Any, app_server: AppServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A tab of the browser's profile (:func:`~tests.support.browser.shared_context`) on the app's home screen, or
    blank for a test marked ``opens_app``; closed after the test, with any permission it granted."""
    context = shared_context(browser)
    tab = context.new_page()
    try:
        if request.node.get_closest_marker(OPENS_APP) is None:
            open_app(tab, app_server)
        yield tab
    finally:
        try:
            tab.close()
            context.clear_permissions()
        except Exception:  # a browser killed by the watchdog, or crashed, has nothing to close
            if browser.is_connected():
                raise


BROWSER_RERUNS = 2
"""A browser test that times out waiting for the page, or whose browser was killed or crashed, is run again, at
most twice. The real app, Chromium and the test share two cores, and a Flutter page can miss a 15 s wait under
load; a test that fails three times in a row still fails, and each rerun is reported in the summary (``R``)."""


BROWSER_TEST_TIMEOUT_S = PAGE_TEST_LIMIT_S * (BROWSER_RERUNS + 1) + 120
"""pytest-timeout's limit for a browser test, all its attempts together."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, only_rerun=["TimeoutError", "TargetClosedError"]))
            if item.get_closest_marker("timeout") is None:
                # pytest-timeout's timer spans a test and its reruns; each attempt is watched on its own
                item.add_marker(pytest.mark.timeout(BROWSER_TEST_TIMEOUT_S))


@pytest.fixture
def games(data_dir: Path) -> dict[str, str]:
    """An older game (Zed and Yan: the archive a viewer must not see) and the game at the table."""
    archive = Archive(data_dir)
    try:
        sessions = SessionService(archive)
        old = sessions.start("jokers-kill", ["Zed", "Yan"])
        old.add_hand({"up": "9S", "cards": {"Zed": "4H", "Yan": "7D"}})
        table = sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
        return {"old": old.id, "table": table.id}
    finally:
        archive.close()


@pytest.fixture
def shared_server(
    games: dict[str, str], free_port: int, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[AppServer]:
    require_browser()
    plain = helpers.companion_command
    monkeypatch.setattr(helpers, "companion_command", lambda: [*plain(), "--share"])
    server = AppServer(free_port, data_dir, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
