"""The app starts to Home without importing the screens Home does not show (issue 29: cold start): each other
screen is imported when it is first opened, and every route still finds its screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from views.routes import ROUTES
from views.routing import resolve

ROOT = Path(__file__).resolve().parents[2]
NOT_AT_START = (
    "views.history",
    "views.stats",
    "views.charts",
    "flet_charts",
    "views.live",
    "views.nights",
    "views.table.screen",
    "views.new_game",
    "views.rules",
    "views.transfer",
)
"""Modules Home does not need: none of them is imported by the shell and the route table."""


def test_the_shell_imports_no_screen_but_home() -> None:
    code = (
        "import sys, views.shell, views.routes\n"
        f"print(','.join(m for m in {NOT_AT_START!r} if m in sys.modules))\n"
        "print('views.home' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout.split("\n")
    assert out[0] == "", f"imported before their screen is opened: {out[0]}"
    assert out[1] == "True"


def test_every_route_finds_its_screen_function() -> None:
    for route in ROUTES:
        screen = resolve(route.builder)
        assert callable(screen) and screen.__module__.startswith("views."), route.pattern
        assert not hasattr(screen, "__wrapped_screen__"), f"{route.pattern} resolves to a screen, not a wrapper"


GAME_MODULES_NOT_AT_START = (
    *(f"scoring.{name}" for name in ("bargain_bin", "financial_crisis", "feast_and_famine", "ones_to_nines")),
    "scoring.jokers_kill",
    *(f"companion.entry_{name}" for name in ("bargain_bin", "financial_crisis", "jokers_kill")),
    *(f"views.table.games.{name}" for name in ("bargain_bin", "jokers_kill")),
    "openskill",
)
"""Each game's rules, entry state and panel, and the ratings' model: the per-game lists import them when first read."""


def test_the_app_starts_without_importing_any_game_until_a_list_is_read() -> None:
    code = (
        "import sys, app.main, app.serve, app.web, companion.services, views.shell, views.routes\n"
        f"print(','.join(m for m in {GAME_MODULES_NOT_AT_START!r} if m in sys.modules))\n"
        "from scoring import find_game\n"
        "print(find_game('jokers-kill').name, 'scoring.bargain_bin' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout.split("\n")
    assert out[0] == "", f"imported at start: {out[0]}"
    assert out[1] == "Jokers Kill True"  # the first look-up reads the list: every game is there
