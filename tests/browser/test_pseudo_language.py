"""The pseudo-language crawl (issue 27): the app served with ``companion --lang en-XA``, every screen opened in one
page, and every label a player sees or a screen reader says (the accessible names and texts of Chromium's semantics
tree) is a marked message, shown as ``⟦…⟧``; only names (of players, of a game, of a night, of a season), card
labels and numbers are left as they are. A label left outside the brackets was never marked for translation.

The page is tall (412 × 2400) so that a long screen is in the semantics tree whole (Flutter leaves controls far off
screen out of it) without scrolling.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import LANGUAGES
from companion.services import AppServices
from scoring import GAMES as EVERY_GAME
from scoring import find_game
from storage import SessionStatus
from tests.conftest import CASES
from tests.support.browser import close_context, enable_semantics, find_free_port, new_context
from tests.support.languages import LanguageServer, shown
from tests.support.pseudo_walk import unwrapped

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
NAMES = [*PLAYERS, "Friday cards", "Friday at Ann's", "Winter", "Card Table Companion"]
TALL = {"width": 412, "height": 2400}
GAMES = ["jokers-kill", "bargain-bin", "feast-and-famine", "financial-crisis", "1111-9999"]


def seed(folder: Path) -> dict[str, str]:
    """A finished game (with a play-off, for History and the ratings), a season, an open night with a ledger entry,
    and a game of each kind at the table (joining the night); returns their ids."""
    ids: dict[str, str] = {}
    with AppServices.open(folder) as services:
        record = json.loads((CASES / "jokers-kill" / "14-playoff-first-to-three.json").read_text())["record"]
        result = find_game(record["game"]).score(record)
        ids["finished"] = services.archive.create_session(
            record, status=SessionStatus.FINISHED, winners=list(result.winners), title="Friday cards"
        ).id
        services.seasons.seasons.add("Winter", "2026-01-01", "2026-12-31")
        night = services.nights.start("Friday at Ann's", PLAYERS)
        services.nights.add_entry(night.id, "Ann", "split", "10.00", "")
        ids["night"] = night.id
        for game in GAMES:
            extra = {"sides": {name: "AB"[i % 2] for i, name in enumerate(PLAYERS)}} if game == "1111-9999" else None
            session = services.sessions.start(game, PLAYERS, extra=extra)
            if game == "jokers-kill":
                session.add_hand({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC", "Dan": "2S"}})
            ids[game] = session.id
        found = services.players.find("Ben")
        assert found is not None
        ids["player"] = found.id
    return ids


@pytest.fixture
def pseudo(data_dir: Path, tmp_path: Path) -> Iterator[tuple[LanguageServer, dict[str, str]]]:
    ids = seed(data_dir)
    server = LanguageServer(find_free_port(), data_dir, tmp_path, "en-XA")
    server.start()
    try:
        yield server, ids
    finally:
        server.stop()


def screens(ids: dict[str, str]) -> list[list[str]]:
    """Every screen's path, in three crawls (each well inside a browser test's time on a busy machine): Home, New
    game (and each game's set-up), Players and a player, Rules (and each game's); History (the list and one session),
    Continue, Statistics (ratings and seasons, the nights'), Settings, sharing and transfer; each game's table, a
    correction, and the night (its start, the night with its ledger, the recap)."""
    first = ["/", "/new", *(f"/new/{game}" for game in GAMES), "/players", f"/players/{ids['player']}", "/rules"]
    first += [f"/rules/{game}" for game in GAMES]
    second = ["/", "/history", f"/history/{ids['finished']}", "/history/nights", "/continue", "/stats"]
    second += ["/stats/nights", "/settings", "/history/transfer", f"/continue/{ids['jokers-kill']}/share"]
    third = ["/", *(f"/continue/{ids[game]}" for game in GAMES), f"/continue/{ids['jokers-kill']}/hand-1"]
    third += ["/nights", "/nights/new", f"/nights/{ids['night']}", f"/nights/{ids['night']}/recap"]
    return [first, second, third]


GO = """(path) => { history.pushState(null, '', path); window.dispatchEvent(new PopStateEvent('popstate')); }"""
"""JavaScript: open ``path`` inside the app, as its Back and links do (the browser's history), without loading the
page again: thirty loads of the Flutter app would take minutes on a busy machine."""

FLUTTER_OWN = re.compile(r"^(?:\d+ characters? remaining|Collapsed|Expanded)$")
"""A text field's counter and an expanding tile's state: Flutter's own words, which follow the page's locale
(``page.locale_configuration``), not the app's catalogue (English for the pseudo-language, whose locale is ``en``)."""
LOCALE_DATA = re.compile(
    r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
    r"|\b[A-Z]{3} — [A-Z][A-Za-z. ]+$|\bauto-[\w-]+\.zip\b|μ"
)
"""What Babel writes from its locale data, not a message: a day (``Wed 2 Dec``), a currency's own name
(``USD — US Dollar``), a backup's file name, and the mean's symbol of a rating."""
ALLOWED = [*NAMES, *LANGUAGES.values(), "en-XA", *(game.name for game in EVERY_GAME)]
"""Names: the players', a game's title, a night's, a season's, the app's, the five games' own, and each language's
own name (Settings lists them so)."""


def left_unmarked(texts: list[str]) -> list[str]:
    """The texts that hold letters outside ``⟦ ⟧`` apart from names, card labels, numbers and locale data.

    >>> left_unmarked(["⟦Ĥíšţóŕý⟧", "Ann", "Jokers Kill, Wed 2 Dec 2026, 16:44", "40 characters remaining", "Undo"])
    ['Undo']
    """
    return [text for text in texts if not FLUTTER_OWN.match(text) and unwrapped(LOCALE_DATA.sub(" ", text), ALLOWED)]


def settle(page: Any, before: list[str]) -> list[str]:
    """What the page shows once the screen opened has replaced ``before`` and stopped changing (two reads 0.6 s
    apart agree)."""
    deadline = time.monotonic() + 30
    last = shown(page)
    while time.monotonic() < deadline:
        page.wait_for_timeout(600)
        now = shown(page)
        if now == last and now != before and any("⟦" in text for text in now):
            return now
        last = now
    raise TimeoutError(f"the screen did not settle; it shows {last}")


@pytest.mark.parametrize("crawl", [0, 1, 2], ids=["home-new-players-rules", "history-stats-settings", "tables-night"])
def test_every_screen_in_the_pseudo_language_is_marked(
    crawl: int, pseudo: tuple[LanguageServer, dict[str, str]], browser: Any
) -> None:
    server, ids = pseudo
    context = new_context(browser, TALL)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    seen: list[str] = []
    try:
        page.goto(server.url + "/")
        enable_semantics(page)
        for path in screens(ids)[crawl]:
            if path != "/":
                page.evaluate(GO, path)
            seen = settle(page, seen)
            left = left_unmarked(seen)
            if left:
                found[path] = left
    finally:
        close_context(context)
    assert not found, "labels never marked for translation:\n" + "\n".join(
        f"{path}: {texts}" for path, texts in found.items()
    )
