"""A page that never answers, in the real Chromium: the watchdog kills the browser, the wait ends with
``TargetClosedError`` instead of never, and the next test gets a new, working browser."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.support.watchdog import Chromium, Watchdog

pytestmark = pytest.mark.browser


def test_a_page_that_never_answers_is_stopped_and_a_new_browser_follows(chromium: Chromium) -> None:
    from playwright.sync_api import Error

    browser: Any = chromium.get()
    starts = chromium.starts
    page = browser.new_page()
    page.set_content("<p>here</p>")
    read, write = os.pipe()
    try:
        # the renderer busy for good: evaluate takes no timeout
        with Watchdog(2, chromium, "the stuck page", grace=60, fd=write) as dog, pytest.raises(Error) as stopped:
            page.evaluate("() => { while (true) {} }")
        said = os.read(read, 4096).decode()
    finally:
        os.close(read)
        os.close(write)
    assert dog.fired and type(stopped.value).__name__ == "TargetClosedError", stopped.value
    assert "the stuck page ran past 2 s: Chromium was killed" in said
    assert not browser.is_connected()

    fresh = chromium.get()
    assert fresh is not browser and fresh.is_connected() and chromium.starts == starts + 1
    again = fresh.new_page()
    try:
        again.set_content("<p>again</p>")
        assert again.inner_text("p") == "again"
    finally:
        again.close()
