"""The app starts to Home without importing the screens Home does not show (issue 29: cold start): each other
screen is imported when it is first opened, and every route still finds its screen."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.serve import start_auto_backups
from companion.services import AppServices
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


LAZY_AT_START = (
    "views",  # the screens, imported once the server listens (app.serve), while the browser loads Flet's client
    "storage.backup",
    "storage.exports",
    "storage.imports",
    "companion.history",
    "companion.ratings",
    "companion.seasons",
    "companion.stats",
    "companion.night_ledger",
    "companion.night_recap",
    "companion.night_image",
    "companion.formats",
    "babel.dates",
    "babel.support",
)
"""What the app does not import before it serves, though its services are open: History's lists, statistics,
ratings, seasons, a night's money and recap, export, import and backups are made when first used; Babel's dates
and catalogues when a screen writes a date or the table speaks another language than English."""
ENGLISH_DEVICE = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_GB.UTF-8"}


MADE_WHEN_ASKED = ("companion.ratings", "companion.seasons", "companion.history")


def test_the_app_opens_its_services_before_serving_without_the_modules_home_does_not_need(tmp_path: Path) -> None:
    code = (
        "import sys, pathlib, app.main, app.cli, app.serve, app.web\n"
        "from companion.services import AppServices\n"
        f"services = AppServices.open(pathlib.Path({str(tmp_path / 'data')!r}))\n"
        "services.damage.message(), services.nights.current(), services.data_version()\n"
        f"print(','.join(m for m in {LAZY_AT_START!r} if m in sys.modules))\n"
        "print(type(services.ratings).__name__, type(services.seasons).__name__, type(services.lists).__name__)\n"
        "print(services.stats is services.ratings.outcomes, services.ratings is services.ratings)\n"
        f"print(','.join(m for m in {MADE_WHEN_ASKED!r} if m in sys.modules))\n"
        "services.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, **ENGLISH_DEVICE},
    ).stdout.split("\n")
    assert out[0] == "", f"imported before the app serves: {out[0]}"
    assert out[1] == "RatingService SeasonService SessionLists"  # each made when first asked for
    assert out[2] == "True True"  # once: the ratings read the one statistics cache
    assert out[3] == "companion.ratings,companion.seasons,companion.history"


def test_the_day_s_backup_waits_for_the_first_page(services: AppServices) -> None:
    first_page = threading.Event()
    backups = services.archive.data_dir / "backups"
    start_auto_backups(services, after=first_page, delay_s=60.0)
    time.sleep(0.5)
    assert not list(backups.glob("auto-*.zip")), "the backup ran before the first page was drawn"
    first_page.set()
    deadline = time.monotonic() + 30
    while not list(backups.glob("auto-*.zip")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(backups.glob("auto-*.zip")), "no backup after the first page was drawn"


def test_the_day_s_backup_is_made_when_no_page_opens(services: AppServices) -> None:
    backups = services.archive.data_dir / "backups"
    start_auto_backups(services, after=threading.Event(), delay_s=0.2)
    deadline = time.monotonic() + 30
    while not list(backups.glob("auto-*.zip")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(backups.glob("auto-*.zip"))
