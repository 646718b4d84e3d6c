"""Keep-awake in Chromium: the page holds a screen wake lock while a game's table is shown, lets it go elsewhere,
and asks for none once Settings turn it off. In the whole browser: the headless shell that runs the other browser
tests refuses every wake lock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.session import SessionService
from storage import Archive
from tests.support.browser import AppServer, new_context, open_app, reveal
from views.settings import KEEP_AWAKE

pytestmark = pytest.mark.browser

SPY = """
window.__wakelock = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    const sentinel = await request(type);
    window.__wakelock.push('held');
    sentinel.addEventListener('release', () => window.__wakelock.push('released'));
    return sentinel;
  };
}
"""
"""Notes every wake lock the page is granted and every release, in ``window.__wakelock``."""


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with Archive(folder) as archive:
        SessionService(archive).start("jokers-kill", ["Ann", "Ben"], title="Awake")
    return folder


def events(page: Any, expected: list[str]) -> None:
    page.wait_for_function("(want) => JSON.stringify(window.__wakelock) === JSON.stringify(want)", arg=expected)


def test_the_table_keeps_the_screen_on_unless_settings_say_no(whole_chromium: Any, app_server: AppServer) -> None:
    page = new_context(whole_chromium).new_page()
    page.add_init_script(SPY)
    with Archive(app_server.data_dir, read_only=True) as archive:
        [session] = archive.list_sessions()
    open_app(page, app_server, f"/continue/{session.id}")
    assert page.evaluate("() => 'wakeLock' in navigator"), "Chromium has the Screen Wake Lock API"
    events(page, ["held"])
    page.get_by_role("button", name="Back", exact=True).first.click()
    events(page, ["held", "released"])

    open_app(page, app_server, "/settings")
    switch = reveal(page, page.get_by_role("switch", name=KEEP_AWAKE))
    assert switch.get_attribute("aria-checked") == "true", "on by default"
    switch.click()
    page.wait_for_function(
        """(name) => [...document.querySelectorAll('flt-semantics[role=switch]')].some(
            e => e.getAttribute('aria-label') === name && e.getAttribute('aria-checked') === 'false')""",
        arg=KEEP_AWAKE,
    )
    open_app(page, app_server, f"/continue/{session.id}")
    page.get_by_text(re.compile(r"^Next: ")).first.wait_for()  # the table is there
    page.wait_for_timeout(1_500)
    assert page.evaluate("window.__wakelock") == [], "turned off in Settings: no wake lock"
