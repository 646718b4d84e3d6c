"""The real app in Chromium: home → Rules → a game's rules → back → Settings → dark mode that survives a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    DESKTOP,
    AppServer,
    background_luminance,
    box_of,
    open_app,
    reload_app,
    screenshot,
    wait_dark,
)

pytestmark = pytest.mark.browser

HOME_BUTTONS = ("New game", "Continue", "History", "Players", "Rules", "Settings")
GAMES = ("Bargain Bin", "Financial Crisis", "Feast and Famine", "1111-9999", "Jokers Kill")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def game_tile(page: Any, game: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(game)}\b"))


def expect_path(page: Any, path: str) -> None:
    page.wait_for_url(re.compile(rf"^http://127\.0\.0\.1:\d+{re.escape(path)}$"))


def test_rules_back_settings_dark_mode_persists(page: Any, app_server: AppServer) -> None:
    for name in HOME_BUTTONS:
        button(page, name).wait_for()
    assert background_luminance(page) > 0.5, "a fresh data folder starts in the light (system) theme"
    screenshot(page, "home")

    button(page, "Rules").click()
    expect_path(page, "/rules")
    for game in GAMES:
        game_tile(page, game).wait_for()
    screenshot(page, "rules")

    game_tile(page, "Jokers Kill").click()
    expect_path(page, "/rules/jokers-kill")
    page.get_by_text("House rules", exact=True).wait_for()
    page.get_by_text("Hands to win a play-off", exact=True).wait_for()
    screenshot(page, "rules-jokers-kill")

    button(page, "Back").click()
    expect_path(page, "/rules")
    game_tile(page, "Feast and Famine").wait_for()
    button(page, "Back").click()
    expect_path(page, "/")
    button(page, "Settings").click()
    expect_path(page, "/settings")

    dark = page.get_by_role("radio", name="Dark")
    assert dark.get_attribute("aria-checked") == "false"
    dark.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[role=radio]')]"
        ".some(e => e.getAttribute('aria-label') === 'Dark' && e.getAttribute('aria-checked') === 'true')"
    )
    assert wait_dark(page) < 0.2
    assert (app_server.data_dir / "settings.json").exists()

    reload_app(page)
    expect_path(page, "/settings")
    dark = page.get_by_role("radio", name="Dark")
    dark.wait_for()
    assert dark.get_attribute("aria-checked") == "true"
    assert page.get_by_role("radio", name="Light").get_attribute("aria-checked") == "false"
    assert wait_dark(page) < 0.2, "dark mode must survive a reload"

    switch = page.get_by_role("switch", name="Four-colour suits")
    switch.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[role=switch]')].some(e => e.getAttribute('aria-checked') === 'true')"
    )
    page.get_by_text(re.compile("^Suits in four-colour")).wait_for()
    screenshot(page, "settings-dark")


def test_settings_survive_a_server_restart(page: Any, app_server: AppServer) -> None:
    button(page, "Settings").click()
    page.get_by_role("radio", name="Dark", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[role=radio]')]"
        ".some(e => e.getAttribute('aria-label') === 'Dark' && e.getAttribute('aria-checked') === 'true')"
    )
    # The radio checks itself on the page before its change reaches the server; the page turning dark is the
    # server's answer, given once the setting is saved. Restarting before it would stop a server that has not yet
    # had the change (under load, 1 run in about 25: the restarted Settings then showed Light).
    assert wait_dark(page) < 0.2
    app_server.restart()
    open_app(page, app_server, "/settings")
    dark = page.get_by_role("radio", name="Dark", exact=True)
    dark.wait_for()
    # the restarted app draws Settings with the saved theme checked (waited for: the tree fills in as it draws)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[role=radio]')]"
        ".some(e => e.getAttribute('aria-label') === 'Dark' && e.getAttribute('aria-checked') === 'true')"
    )
    assert dark.get_attribute("aria-checked") == "true"


def test_browser_history_and_unknown_pages(page: Any, app_server: AppServer) -> None:
    button(page, "Rules").click()
    expect_path(page, "/rules")
    game_tile(page, "Bargain Bin").click()
    expect_path(page, "/rules/bargain-bin")
    page.go_back()
    expect_path(page, "/rules")
    game_tile(page, "Bargain Bin").wait_for()

    open_app(page, app_server, "/rules/poker")
    page.get_by_text("This page does not exist", exact=True).wait_for()
    page.get_by_text(re.compile("there are no rules for 'poker'")).wait_for()
    button(page, "Home").click()
    expect_path(page, "/")
    button(page, "New game").wait_for()


def test_phone_and_desktop_layouts(page: Any, app_server: AppServer) -> None:
    button(page, "New game").click()
    page.get_by_role("button", name=re.compile(r"^Jokers Kill")).wait_for()
    button(page, "Back").click()
    button(page, "Continue").click()
    page.get_by_text("No unfinished games", exact=True).wait_for()

    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, app_server, "/")
    for name in HOME_BUTTONS:
        box = box_of(button(page, name))
        assert box["height"] >= 48, f"{name} must be a large tap target"
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, f"{name} must fit a 360 px phone"
    page.set_viewport_size(DESKTOP)
    open_app(page, app_server, "/rules/financial-crisis")
    page.get_by_text("House rules", exact=True).wait_for()
    screenshot(page, "rules-desktop")
