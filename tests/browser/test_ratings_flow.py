"""Ratings and a season through the UI, in Chromium: a game night of four players → three quick Bargain Bin games
(target 1, each ended by one hand) → ``companion ratings --json`` and ``companion show-season`` on the same data
folder (read-only while the app runs) → the ratings table on Statistics, the top player's page and the season's
standings and recap (``/stats?season=YEAR``) show the figures the command line printed."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from companion.ratings import signed
from companion.seasons import format_points
from tests.support.browser import NIGHT_PLAYERS as PLAYERS
from tests.support.browser import AppServer, open_app, play_game, reveal, run_companion, seat, tap, wait_text

pytestmark = pytest.mark.browser

GAMES = [
    {"Ann": "10", "Ben": "4", "Cat": "-5", "Dan": "2"},
    {"Ann": "-3", "Ben": "12", "Cat": "7", "Dan": "-8"},
    {"Ann": "1", "Ben": "-2", "Cat": "9", "Dan": "6"},
]


def shown(page: Any, pattern: str) -> None:
    """Scroll until a text or a control labelled to match ``pattern`` is on screen, and fail if it never is."""
    rx = re.compile(pattern)
    found = reveal(page, page.get_by_text(rx).or_(page.get_by_label(rx)), steps=30)
    found.first.wait_for(timeout=15_000)


def cli_json(app_server: AppServer, *args: str) -> Any:
    done = run_companion(*args, "--json", "--data-dir", str(app_server.data_dir))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_three_games_in_a_season_ratings_a_players_page_and_the_season_recap(
    page: Any, app_server: AppServer, tmp_path: Path
) -> None:
    tap(page, "Start a game night")
    page.wait_for_url(re.compile(r"/nights/new$"))
    seat(page, PLAYERS)
    tap(page, "Start the night")
    page.wait_for_url(re.compile(r"/nights/[0-9a-f]+$"))
    night_id = page.url.rsplit("/", 1)[1]
    played = []
    for scores in GAMES:
        played.append(play_game(page, scores))
        open_app(page, app_server, f"/nights/{night_id}")
        wait_text(page, rf"^Games tonight \({len(played)}\)$")

    ratings = cli_json(app_server, "ratings")
    assert ratings["scope"] == "all" and sorted(ratings["order"]) == sorted(played)
    assert [p["name"] for p in ratings["players"]] and len(ratings["players"]) == 4

    # Statistics: the ratings table, as the command line ranks it
    open_app(page, app_server, "/stats")
    for rank, p in enumerate(ratings["players"], start=1):
        games = f"{p['games']} game{'s' if p['games'] != 1 else ''}"
        shown(
            page,
            rf"^Rank {rank}, {p['name']}, rating {p['ordinal']:.1f}, μ {p['mu']:.1f} ± {p['sigma']:.1f} · {games} · ",
        )

    # the top player's page: their rating across all games, provisional after three
    top = ratings["players"][0]
    open_app(page, app_server, f"/players/{top['id']}")
    shown(
        page,
        rf"^All games: {top['ordinal']:.1f} \(μ {top['mu']:.1f} ± {top['sigma']:.1f}\) provisional · rank 1 of 4$",
    )

    # the season: its standings and its recap
    year = str(date.today().year)
    season = cli_json(app_server, "show-season", year)
    assert season["games"] == 3 and season["ratings"]["order"] == ratings["order"]
    open_app(page, app_server, f"/stats?season={year}")
    for rank, line in enumerate(season["players"], start=1):
        games = f"{line['games']} game{'s' if line['games'] != 1 else ''}"
        wins = f"{line['wins']} win{'s' if line['wins'] != 1 else ''}"
        shown(
            page,
            rf"^Season standings, {rank}\. {line['name']}: {re.escape(format_points(line['points']))} points · "
            rf"{games} · {wins}( · .+)? · rating {re.escape(signed(line['rating_change']))}$",
        )
    shown(page, r"^The season recap as text$")
    shown(page, r"^The season recap as an image$")
