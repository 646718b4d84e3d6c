"""The app starts to Home without importing any game's rules or entry panel (issue 29: cold start): each game's
modules are imported with the first game of it that is opened, replayed or restored."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_MODULES = (
    "scoring.bargain_bin",
    "scoring.financial_crisis",
    "scoring.feast_and_famine",
    "scoring.ones_to_nines",
    "scoring.jokers_kill",
    "companion.entry_bargain_bin",
    "companion.entry_financial_crisis",
    "companion.entry_feast_and_famine",
    "companion.entry_ones_to_nines",
    "companion.entry_jokers_kill",
)


def test_the_start_and_home_import_no_game_module(tmp_path: Path) -> None:
    code = (
        "import sys, pathlib\n"
        "from typing import cast\n"
        "import flet as ft\n"
        "import app.main, app.cli, app.serve, app.web, companion.services, views.shell, views.routes\n"
        "from companion.services import AppServices\n"
        "from tests.test_app_views import FakePage\n"
        "from views.shell import Shell\n"
        f"services = AppServices.open(pathlib.Path({str(tmp_path / 'data')!r}))\n"
        "page = FakePage('/')\n"
        "Shell(cast(ft.Page, page), services).render()\n"
        "print(type(page.views[-1]).__name__)\n"
        f"print(','.join(m for m in {GAME_MODULES!r} if m in sys.modules))\n"
        "services.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout.split("\n")
    assert out[0] == "View"
    assert out[1] == "", f"imported at start: {out[1]}"


def test_a_game_module_comes_with_the_first_use_of_its_game() -> None:
    code = (
        "import sys\n"
        "from companion.drafts import ENTRY_STATES\n"
        "before = 'companion.entry_jokers_kill' in sys.modules\n"
        "state = ENTRY_STATES.get('jokers-kill')\n"
        "print(before, state.__name__, 'scoring.jokers_kill' in sys.modules, ENTRY_STATES.get('snap'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout.strip()
    assert out == "False JokersKillState True None"
