"""History, statistics, charts, a correction, and export → import into a fresh data folder, in Chromium.

The first test plays two Jokers Kill games through the UI (New game → seat Ann, Ben, Cat → twelve hands through the
card picker, one with a tie-break → the main game ends Ann 10, Ben 10, Cat 8 → a play-off to two wins: Ann wins
the first game, Ben the second), then checks that History lists both, the replay and chart, and the statistics.

The other tests start from two finished games saved through ``storage.Archive`` before the server starts (quicker
than playing them): a Jokers Kill game decided by a play-off (JK-E11: Ann 8, Ben 12, Cat 12; Ben wins the play-off)
and a 1111-9999 game (OO-E9: Ann 7050, Ben 4200, Cat 5100; the lowest, Ben, wins).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.settings import SettingsService, Theme
from scoring import find_game
from storage import Archive, SessionStatus
from tests.conftest import CASES
from tests.support.browser import (
    AppServer,
    background_luminance,
    enter_jk_hand,
    find_free_port,
    open_app,
    reveal,
    screenshot,
    seat,
    tap,
    type_until,
)

pytestmark = pytest.mark.browser

GAMES = {
    "Friday cards": CASES / "jokers-kill" / "14-playoff-first-to-three.json",
    "Saturday numbers": CASES / "1111-9999" / "10-game-end-lowest-wins.json",
}
STANDINGS = {
    "Friday cards": ["1. Ben: 12", "2. Cat: 12", "3. Ann: 8"],
    "Saturday numbers": ["1. Ben: 4200", "2. Cat: 5100", "3. Ann: 7050"],
}


def seed(folder: Path) -> dict[str, str]:
    """Save the two finished games (title → session id), as the table flow would have."""
    ids = {}
    with Archive(folder) as archive:
        for title, case in GAMES.items():
            record = json.loads(case.read_text())["record"]
            result = find_game(record["game"]).score(record)
            assert result.finished
            doc = archive.create_session(
                record, status=SessionStatus.FINISHED, winners=list(result.winners), title=title
            )
            ids[title] = doc.id
    return ids


# (up-card, Ann, Ben, Cat, tie-break cards in the order the app asks for them); hand 3 is tied: Ben's 3 wins it
HANDS: list[tuple[str, str, str, str, tuple[str, ...]]] = [
    ("9S", "4H", "7D", "QC", ()),
    ("9H", "7C", "4D", "QD", ()),
    ("8S", "8H", "8D", "2C", ("QH", "3D")),
    ("10S", "10H", "5C", "KC", ()),
    ("6S", "2S", "9D", "JD", ()),
    ("6H", "9C", "2H", "JC", ()),
    ("KS", "AS", "QS", "10D", ()),
    ("7S", "10C", "7H", "AH", ()),
    ("3S", "5S", "6D", "AD", ()),
    ("4S", "6C", "5H", "AC", ()),
    ("8C", "JS", "JH", "3H", ()),
    ("2D", "3C", "4C", "5D", ()),  # 2 cards left: the main game ends Ann 10, Ben 10, Cat 8
]
ANN_WINS_PLAYOFF = [("9S", "4H", "7D"), ("9S", "3H", "8D")]  # (up-card, Ann, Ben): Ann's card is lowest twice
BEN_WINS_PLAYOFF = [("9S", "7D", "4H"), ("9S", "8D", "3H")]


@pytest.fixture
def data_dir(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    if "through_the_ui" not in request.node.name:
        seed(folder)
    if "correcting" in request.node.name:  # this one runs in dark mode
        SettingsService.open(folder).set_theme(Theme.DARK)
    return folder


def play_jokers_kill(page: Any, server: AppServer, playoff: list[tuple[str, str, str]]) -> None:
    """One whole game of Jokers Kill through the UI, play-off to two wins included."""
    open_app(page, server, "/")
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^Jokers Kill")).click()
    seat(page, ["Ann", "Ben", "Cat"])
    type_until(page, "Hands to win a play-off", "2", r"^House rules changed: .*Hands to win a play-off 2\.$")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    for up, ann, ben, cat, tiebreak in HANDS:
        enter_jk_hand(page, up, [ann, ben, cat], tiebreak)
    page.get_by_text("Play-off: Ann and Ben", exact=True).wait_for()
    for up, ann, ben in playoff:
        reveal(page, page.get_by_role("button", name="Confirm hand", exact=True))
        enter_jk_hand(page, up, [ann, ben])
    winner = "Ann" if playoff is ANN_WINS_PLAYOFF else "Ben"
    page.get_by_text(f"{winner} wins the game", exact=True).wait_for()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[AppServer]:
    """A second app on an empty data folder, to import into."""
    folder = tmp_path / "fresh"
    folder.mkdir()
    logs = tmp_path / "fresh-logs"
    logs.mkdir()
    server = AppServer(find_free_port(), folder, logs)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def tile(page: Any, title: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(title)}\b"))


def labelled(page: Any, label: str) -> Any:
    """The node whose accessible label is exactly ``label`` (Flutter puts a plain node's label in its text)."""
    return page.get_by_text(label, exact=True).first


def text(page: Any, value: str) -> Any:
    return page.get_by_text(value, exact=True).first


def shown(page: Any, value: str) -> None:
    """Wait for a text, scrolling to it if it is far down the screen."""
    reveal(page, page.get_by_text(value, exact=True)).first.wait_for()


def type_into(page: Any, label: str, value: str) -> None:
    """Type ``value`` into the text field labelled ``label`` (focused first: Flutter takes typing once focused)."""
    field = page.get_by_label(label)
    field.click()
    page.wait_for_timeout(300)
    field.fill(value)


def expect_path(page: Any, pattern: str) -> None:
    page.wait_for_url(re.compile(rf"^http://127\.0\.0\.1:\d+{pattern}$"))


def check_standings(page: Any, title: str) -> None:
    tile(page, title).click()
    expect_path(page, "/history/[0-9a-f]+")
    for line in STANDINGS[title]:
        text(page, line).wait_for()


def test_two_games_played_through_the_ui_are_in_history_and_statistics(page: Any, app_server: AppServer) -> None:
    page.set_default_timeout(30_000)  # some 140 taps: allow for a busy machine
    page.set_viewport_size({"width": 390, "height": 1600})  # a tall phone: the whole card picker is on screen
    play_jokers_kill(page, app_server, ANN_WINS_PLAYOFF)
    play_jokers_kill(page, app_server, BEN_WINS_PLAYOFF)
    open_app(page, app_server, "/")
    button(page, "History").click()
    expect_path(page, "/history")
    text(page, "2 sessions").wait_for()
    first = page.get_by_role("button", name=re.compile(r"^Jokers Kill\b.*won by Ann", re.S))
    second = page.get_by_role("button", name=re.compile(r"^Jokers Kill\b.*won by Ben", re.S))
    first.wait_for()
    second.wait_for()
    screenshot(page, "history-list-played")

    second.click()
    expect_path(page, "/history/[0-9a-f]+")
    for line in ("1. Ben: 10", "2. Ann: 10", "3. Cat: 8"):
        text(page, line).wait_for()
    page.get_by_text(re.compile("^Score progression chart, totals after each hand")).first.wait_for()
    assert page.get_by_text(re.compile("Unknown control")).count() == 0
    button(page, "Back").click()
    first.click()
    for line in ("1. Ann: 10", "2. Ben: 10", "3. Cat: 8"):
        text(page, line).wait_for()

    # Ann and Ben each won once (level on 10, each lost one play-off): average place 1.5; Cat 3rd twice
    open_app(page, app_server, "/stats")
    text(page, "2 finished games").wait_for()
    labelled(page, "Ann: 2 games · 1 win · 50% won · average place 1.5").wait_for()
    labelled(page, "Ben: 2 games · 1 win · 50% won · average place 1.5").wait_for()
    labelled(page, "Cat: 2 games · 0 wins · 0% won · average place 3").wait_for()
    labelled(page, "Cat, Jokers Kill: 2 games, 0 wins, average 8, best 8, average place 3").wait_for()
    page.get_by_text(re.compile(r"^Wins per player chart: Ann 1; Ben 1; Cat 0\b")).first.wait_for()
    shown(page, "Ann v Ben: ahead 1, behind 1, level 0 (2 games)")
    shown(page, "Ann v Cat: ahead 2, behind 0, level 0 (2 games)")
    screenshot(page, "stats-played")


def test_history_lists_both_games_with_replay_chart_and_statistics(page: Any, app_server: AppServer) -> None:
    button(page, "History").click()
    expect_path(page, "/history")
    tile(page, "Friday cards").wait_for()
    tile(page, "Saturday numbers").wait_for()
    text(page, "2 sessions").wait_for()
    screenshot(page, "history-list")

    # search narrows the list
    type_into(page, "Search", "friday cards")
    tile(page, "Friday cards").wait_for()
    tile(page, "Saturday numbers").wait_for(state="detached")
    text(page, "1 session").wait_for()
    type_into(page, "Search", "")
    tile(page, "Saturday numbers").wait_for()

    # the Jokers Kill game, replayed: standings after the play-off, the chart, the play-off hands and the why
    check_standings(page, "Friday cards")
    text(page, "Result: Ben won").wait_for()
    chart = page.get_by_text(re.compile("^Score progression chart, totals after each hand")).first
    chart.wait_for()
    assert "Ben: " in (chart.text_content() or "")
    shown(page, "Play-off hand 5")
    page.get_by_text(re.compile(r"^Why: Ben wins 3 play-off hands")).first.wait_for()
    assert page.get_by_text(re.compile("Unknown control")).count() == 0, "flet-charts must be in the web client"
    screenshot(page, "history-session")

    # statistics: Ben won both; Cat was 2nd twice (after the play-off, and on 5100); Ann 3rd twice
    button(page, "Back").click()
    expect_path(page, "/history")
    button(page, "Statistics").click()
    expect_path(page, "/stats")
    text(page, "2 finished games").wait_for()
    labelled(page, "Ben: 2 games · 2 wins · 100% won · average place 1").wait_for()
    labelled(page, "Cat: 2 games · 0 wins · 0% won · average place 2").wait_for()
    labelled(page, "Ann: 2 games · 0 wins · 0% won · average place 3").wait_for()
    labelled(page, "Ben, 1111-9999: 1 game, 1 win, average 4200, best (lowest) 4200, average place 1").wait_for()
    labelled(page, "Ann, Jokers Kill: 1 game, 0 wins, average 8, best 8, average place 3").wait_for()
    shown(page, "Ann v Ben: ahead 0, behind 2, level 0 (2 games)")
    page.get_by_text(re.compile(r"^Wins per player chart: Ben 2; Ann 0; Cat 0\b")).first.wait_for()
    assert page.get_by_text(re.compile("Unknown control")).count() == 0
    screenshot(page, "stats-all")


@pytest.mark.opens_app
def test_correcting_a_finished_game_is_logged_and_shown(page: Any, app_server: AppServer) -> None:
    open_app(page, app_server, "/history")
    check_standings(page, "Saturday numbers")
    reveal(page, button(page, "Correct hand 2")).click()
    # the game's own digit pad, as at the table, pre-filled with hand 2 as it was entered
    expect_path(page, "/history/[0-9a-f]+/hand-2")
    text(page, "Saturday numbers: hand 2 as it was entered: table 4239; numbers Ann 7764, Ben 6339, Cat 1689")
    page.get_by_role("button", name=re.compile(r"^Table row \(A\): 4 2 3 9$")).first.wait_for()
    reveal(page, page.get_by_role("button", name=re.compile(r"^Cat \(A\) · target 4239: 1 6 8 9$"))).first.click()
    for _ in range(4):
        reveal(page, button(page, "Delete digit")).click()
    page.get_by_role("button", name=re.compile(r"^Cat \(A\) · target 4239: _ _ _ _$")).first.wait_for()
    for digit in "4239":  # Cat set down the row exactly: 0 points, 2550 in all
        reveal(page, button(page, digit)).click()
    page.get_by_role("button", name=re.compile(r"^Cat \(A\) · target 4239: 4 2 3 9$")).first.wait_for()
    shown(page, "Cat (side A, target 4239): 4239, gap 0, the best arrangement")
    reveal(page, button(page, "Confirm hand")).click()
    expect_path(page, "/history/[0-9a-f]+")
    for line in ("1. Cat: 2550", "2. Ben: 4200", "3. Ann: 7050"):
        text(page, line).wait_for()
    page.get_by_text(re.compile(r"^hand 2 corrected at \d\d:\d\d: numbers Cat 1689 → 4239$")).first.wait_for()
    assert background_luminance(page) < 0.2, "the dark theme applies to History"
    screenshot(page, "history-corrected-dark")
    with Archive(app_server.data_dir, read_only=True) as archive:
        [summary] = [s for s in archive.list_sessions() if s.title == "Saturday numbers"]
        assert summary.winners == ("Cat",)


@pytest.mark.opens_app
def test_export_then_import_into_a_fresh_folder_reproduces_every_standing(
    page: Any, app_server: AppServer, fresh_server: AppServer
) -> None:
    open_app(page, app_server, "/history/transfer")
    # the running app makes today's automatic backup once its first page is drawn (this one: it is listed when the
    # screen is opened again); then a backup by hand, and restoring it
    backups = app_server.data_dir / "backups"
    for _ in range(60):
        if list(backups.glob("auto-*.zip")):
            break
        page.wait_for_timeout(250)
    assert len(list(backups.glob("auto-*.zip"))) == 1
    open_app(page, app_server, "/")  # (a reload of the same screen is the screen kept as it was drawn)
    page.get_by_role("button", name="New game").first.wait_for()
    open_app(page, app_server, "/history/transfer")
    reveal(page, page.get_by_role("button", name=re.compile(r"^Restore auto-"))).first.wait_for()
    reveal(page, button(page, "Back up now")).click()
    page.get_by_text(re.compile(r"^Backed up 2 sessions to ")).first.wait_for()
    [made] = list((app_server.data_dir / "backups").glob("backup-*.zip"))
    reveal(page, page.get_by_role("button", name=re.compile(rf"^Restore {re.escape(made.name)}"))).first.click()
    reveal(page, button(page, "Yes, restore")).click()
    page.get_by_text(re.compile(rf"^Restored 2 sessions from {re.escape(made.name)}\.$")).first.wait_for()
    assert len(list((app_server.data_dir / "backups").glob("pre-restore-*.zip"))) == 1

    open_app(page, app_server, "/history/transfer")
    button(page, "Export to the data folder").click()
    page.get_by_text(re.compile(r"^Exported 2 sessions to .*\.json$")).first.wait_for()
    [exported] = list((app_server.data_dir / "exports").glob("*.json"))
    assert str(exported) in (page.get_by_text(re.compile(r"^Exported ")).first.text_content() or "")
    screenshot(page, "history-export")

    open_app(page, fresh_server, "/history")
    text(page, "No sessions yet").wait_for()
    open_app(page, fresh_server, "/history/transfer")
    type_into(page, "File to import (path)", str(exported))
    button(page, "Import").click()
    page.get_by_text(re.compile(r"^2 games imported from ")).first.wait_for()

    open_app(page, fresh_server, "/history")
    for title in GAMES:
        check_standings(page, title)
        button(page, "Back").click()
        expect_path(page, "/history")
    with Archive(fresh_server.data_dir, read_only=True) as fresh, Archive(app_server.data_dir, read_only=True) as old:
        before = {s.title: (s.fingerprint, s.winners) for s in old.list_sessions()}
        after = {s.title: (s.fingerprint, s.winners) for s in fresh.list_sessions()}
        assert after == before


@pytest.mark.opens_app
def test_renaming_a_player_keeps_their_games(page: Any, app_server: AppServer) -> None:
    open_app(page, app_server, "/players")
    page.get_by_role("button", name=re.compile(r"^Ben\b")).first.click()
    expect_path(page, "/players/[0-9a-f]+")
    labelled(page, "Ben: 2 games · 2 wins · 100% won · average place 1").wait_for()
    type_into(page, "New name", "ann")
    page.get_by_text(re.compile(r"already in the roster as 'Ann'")).first.wait_for()
    assert button(page, "Rename").is_disabled()
    type_into(page, "New name", "Benjamin")
    reveal(page, button(page, "Rename")).click()
    text(page, "Also played as Ben.").wait_for()
    labelled(page, "Benjamin: 2 games · 2 wins · 100% won · average place 1").wait_for()
    screenshot(page, "players-renamed")
    open_app(page, app_server, "/stats")
    labelled(page, "Benjamin: 2 games · 2 wins · 100% won · average place 1").wait_for()
