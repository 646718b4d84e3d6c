"""A quiet terminal and a complete page: tabs that close, reload or drop their connection while the server writes to
them print no traceback, and no request of the served page gets a 404 (not even the fallback fonts Flutter asks
for by name, which the app answers with its own font: ``app.fonts``)."""

from __future__ import annotations

import random
import re
import urllib.request
from typing import Any

import pytest

from app.fonts import APP_FONT
from tests.browser.helpers import PHONE, AppServer, close_context, enable_semantics

pytestmark = pytest.mark.browser

ROUNDS = 10
TABS_A_ROUND = 5
"""50 tabs in all: each round opens five on Settings, flips a setting in one (the server then writes the whole
page again to every open tab) and closes or reloads them while it writes."""

FALLBACK_FONT = (
    "/assets/fonts/notosanssc/v37/"
    "k3kCo84MPvpLmixcA63oeAL7Iqp5IZJF9bmaG9_FnYkldv7JjxkkgFsFSSOPMOkySAZ73y9ViAt3acb8NexQ2w.87.woff2"
)
"""What the page asked for, and got a 404 for, when Settings (with its ♠ ♥ ♦ ♣) was drawn before the app's font had
loaded (seen in Chromium with flet-web 1.0.5 on 2026-12-02: Flutter's own fallback-font list names this file)."""


def test_fifty_tabs_closed_or_reloaded_while_the_server_writes_print_no_traceback(
    browser: Any, app_server: AppServer
) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    context.set_default_timeout(30_000)
    statuses: list[tuple[int, str]] = []
    context.on("response", lambda response: statuses.append((response.status, response.url)))
    chance = random.Random(23)
    opened = 0
    try:
        control = context.new_page()  # stays open throughout: the tab where the setting is flipped
        control.goto(app_server.url + "/settings")
        enable_semantics(control)
        switch = control.get_by_role("switch", name="Four-colour suits")
        for _ in range(ROUNDS):
            tabs = [context.new_page() for _ in range(TABS_A_ROUND)]
            for tab in tabs:
                tab.goto(app_server.url + "/settings", wait_until="commit")
            opened += len(tabs)
            control.wait_for_timeout(chance.randint(100, 600))  # some connected by now, some still loading
            switch.click()  # every open tab of the app is redrawn now (the shell follows the settings)
            for n, tab in enumerate(tabs):
                if n % 5 == 1:
                    tab.reload(wait_until="commit")  # a reload: the old connection goes while it is written to
                tab.close()
        assert opened == ROUNDS * TABS_A_ROUND == 50
        control.reload()  # the tab left open through it all still works
        enable_semantics(control)
        control.get_by_role("switch", name="Four-colour suits").wait_for()
    finally:
        close_context(context)
    log = app_server.log()
    assert "Traceback" not in log, log[-4000:]
    assert "Exception in ASGI application" not in log and "never retrieved" not in log, log[-4000:]
    assert len(log.splitlines()) <= 3, f"the terminal printed more than the start line:\n{log[-4000:]}"
    missing = [(status, url) for status, url in statuses if status >= 400]
    assert not missing, missing


def test_the_fallback_fonts_flutter_asks_for_are_served(app_server: AppServer) -> None:
    with urllib.request.urlopen(app_server.url + FALLBACK_FONT, timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["content-type"].startswith("font/")
        assert answer.read() == APP_FONT.read_bytes()
    for path in ("/assets/fonts/roboto.woff2", "/assets/fonts/MaterialIcons-Regular.otf"):  # Flet's own, untouched
        with urllib.request.urlopen(app_server.url + path, timeout=10) as answer:
            assert answer.status == 200 and answer.read() != APP_FONT.read_bytes()
    assert re.fullmatch(r"/assets/fonts/[a-z0-9]+/v\d+/.+", FALLBACK_FONT)
