"""A reload of a tab costs what a first visit costs, in Chromium: History's reload receives no more bytes over the
WebSocket than its first visit (within 10%), not the screen a second time (issue 15).

A reload reconnects the browser to the same Flet session, and Flet sends it the whole page as it stands; a shell
that then drew the screens again sent them twice (1.9 × a first visit's bytes). The bytes are counted by the
benchmarks' init script (:mod:`bench.pagewatch`), which wraps the page's WebSocket.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.history_bench import seed
from bench.pagewatch import watched_page
from bench.screens_bench import HISTORY, load
from tests.browser.helpers import AppServer

pytestmark = pytest.mark.browser

SESSIONS = 40
"""More than a page of History (25 rows), so the screen is as it is with a large archive: rows and Show more."""
SESSION_KEY = "_flet_session_id"
"""Where Flet's web client keeps its session id (``sessionStorage``): the same id after a reload means the page
reconnected to its session rather than starting a new one."""


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    seed(folder, SESSIONS, random.Random(15))
    return folder


@pytest.fixture
def tab(browser: Any, app_server: AppServer) -> Iterator[Any]:
    page = watched_page(browser)
    try:
        yield page
    finally:
        page.context.close()


def session_id(page: Any) -> str:
    found: str | None = page.evaluate(f"() => sessionStorage.getItem('{SESSION_KEY}')")
    assert found, "Flet's web client keeps no session id"
    return found


def test_a_reload_of_history_receives_no_more_than_its_first_visit(tab: Any, app_server: AppServer) -> None:
    first = load(tab, app_server.url + "/history", HISTORY)
    assert first.label == f"{SESSIONS} sessions, showing the newest 25"
    visited = session_id(tab)
    reloads = []
    for _ in range(6):  # a reload that arrives before the server saw the old page go starts a new session: again
        tab.wait_for_timeout(1_000)  # the first visit's last frames are in and the page is settled (a loaded machine)
        again = load(tab, app_server.url + "/history", HISTORY, reload=True)
        assert again.label == first.label
        reloads.append(again)
        if session_id(tab) == visited:
            break
        visited = session_id(tab)
    else:
        pytest.fail("no reload reconnected to its Flet session")
    reload = reloads[-1]
    assert reload.rx_bytes <= 1.1 * first.rx_bytes, (
        f"the reload received {reload.rx_bytes} bytes, the first visit {first.rx_bytes}: the screen was sent again"
    )
    assert reload.rx_bytes >= 0.9 * first.rx_bytes, "the reload must still receive the whole page"
