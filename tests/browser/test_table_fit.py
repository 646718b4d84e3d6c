"""What must fit a phone (issue 23), measured in Chromium by the semantics nodes' boxes: 1111-9999's "Best possible
arrangements" in a correction, above the docked Confirm at 412 × 915; and the app-bar titles on a 360 px phone,
whole on one line or over two, never cut.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from tests.support.browser import AppServer, box_of, button, open_app, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

TALL_PHONE = {"width": 412, "height": 915}
EIGHT = ["Alexandria", "Bartholomew", "Christophe", "Dominique", "Evangeline", "Fredericka", "Gwendolyn", "Hieronymus"]
HANDS = {  # the table row and a number each: four of each digit in the deck (rule 1)
    2: ("4239", ["2875", "8631"]),
    8: ("5555", ["1234", "1236", "1247", "1348", "2679", "3689", "9786", "9847"]),
}


@pytest.fixture
def ones_to_nines(data_dir: Path) -> dict[int, str]:
    """A 1111-9999 game of two and one of eight, each with one hand (sides A and B in turn)."""
    games: dict[int, str] = {}
    with AppServices.open(data_dir) as services:
        for count, (row, numbers) in HANDS.items():
            names = ["Ann", "Ben"] if count == 2 else EIGHT
            sides = {name: "AB"[i % 2] for i, name in enumerate(names)}
            game = services.sessions.start("1111-9999", names, {"target": 1_000_000}, extra={"sides": sides})
            game.add_hand({"table": row, "numbers": dict(zip(names, numbers, strict=True))})
            games[count] = game.id
    return games


REVIEW = """() => [...document.querySelectorAll('flt-semantics')]
    .filter(e => !e.querySelector('flt-semantics'))
    .map(e => ({text: (e.getAttribute('aria-label') || e.textContent || '').trim(), box: e.getBoundingClientRect()}))
    .filter(e => e.text === 'Best possible arrangements' || /^\\S+ \\(side [AB], target \\d+\\): /.test(e.text))
    .map(e => ({text: e.text, top: e.box.top, bottom: e.box.bottom, height: e.box.height}))"""
"""JavaScript: the review's heading and its lines (each read out whole: name, side, target, number, gaps), with
their boxes."""


@pytest.mark.parametrize("players", [2, 8])
def test_a_corrections_review_is_above_the_docked_confirm(
    players: int, ones_to_nines: dict[int, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(TALL_PHONE)
    open_app(page, app_server, f"/continue/{ones_to_nines[players]}/hand-1")
    wait_text(page, r"^Best possible arrangements$")
    page.wait_for_function(f"() => ({REVIEW})().length === {players + 1}")
    dock = box_of(button(page, "Confirm hand"))["y"]
    review = page.evaluate(REVIEW)
    for line in review:
        assert line["height"] > 0 and line["top"] >= 0, f"off screen: {line}"
        assert line["bottom"] <= dock + 0.5, f"under the docked Confirm (top {dock}): {line}"
    delete = box_of(button(page, "Delete digit"))
    assert delete["y"] + delete["height"] <= dock + 0.5, "Delete digit, to change a number, is above the bar too"
    assert button(page, "1").count() == 0, "every digit is in: the review takes the pad's place"

    # a digit deleted: the pad is back in its place, the review gone until the number is whole again
    button(page, "Delete digit").click()
    button(page, "1").wait_for()
    page.wait_for_function(f"() => ({REVIEW})().length === 0")
    key = box_of(button(page, "1"))
    assert key["y"] + key["height"] <= dock + 0.5 and key["height"] >= 47.5, f"the pad's 1: {key}"


# --- app-bar titles --------------------------------------------------------------------------------------------------

SMALL_PHONE = {"width": 360, "height": 640}

TITLE_LINES = """([title, size, spacing]) => {
    const nodes = [...document.querySelectorAll('flt-semantics')];
    const said = nodes.some(e => e.getAttribute('aria-label') === title || (e.textContent || '').includes(title));
    const bar = nodes.map(e => ({name: (e.getAttribute('aria-label') || e.textContent || '').trim(),
                                 box: e.getBoundingClientRect()}))
        .filter(e => e.box.top >= 0 && e.box.bottom <= 64.5 && e.box.height > 0 && e.box.width < window.innerWidth);
    const back = bar.find(e => e.name === 'Back');
    const actions = bar.filter(e => ['Undo', 'Redo', 'Share'].includes(e.name));
    if (!said || (!back && title !== 'Card Table Companion')) return null;
    const start = (back ? back.box.right : 0) + spacing;
    const end = (actions.length ? Math.min(...actions.map(e => e.box.left)) : window.innerWidth) - spacing;
    const width = end - start;
    const g = document.createElement('canvas').getContext('2d');
    g.font = `${size}px "DejaVu Sans"`;
    let lines = 1, line = '';
    for (const word of title.split(' ')) {
        const longer = line ? `${line} ${word}` : word;
        if (line && g.measureText(longer).width > width) { lines += 1; line = word; } else { line = longer; }
    }
    const widest = Math.max(...title.split(' ').map(w => g.measureText(w).width));
    return {lines, widest, width, start, end, whole: g.measureText(title).width};
}"""
"""JavaScript: the room of the app bar's title (between the Back button and the first action, less the title's
spacing on each side, from their semantics nodes' boxes) and how many lines the title takes in it at ``size`` px
in the app's font, broken between words as Flutter breaks it; ``null`` until the title is in the semantics tree
(the app bar's node, which its own is merged into) and the Back button is laid out."""


def ink(png: bytes) -> bool:
    """Whether a screenshot holds anything drawn on the background (text), not one flat colour."""
    from PIL import Image

    low, high = Image.open(io.BytesIO(png)).convert("L").getextrema()
    return high - low > 60


@pytest.fixture
def titled(data_dir: Path) -> dict[str, str]:
    """A game of each kind and a night (named as the app names one), to open their screens."""
    with AppServices.open(data_dir) as services:
        players = ["Ann", "Ben", "Cat", "Dan"]
        sides = {"sides": {name: "AB"[i % 2] for i, name in enumerate(players)}}
        ids = {
            game: services.sessions.start(game, players, extra=sides if game == "1111-9999" else None).id
            for game in GAMES
        }
        ids["night"] = services.nights.start("Game night, Wed 2 Dec", ["Ann", "Ben", "Cat", "Dan"]).id
        return ids


GAMES = {
    "bargain-bin": "Bargain Bin",
    "financial-crisis": "Financial Crisis",
    "feast-and-famine": "Feast and Famine",
    "1111-9999": "1111-9999",
    "jokers-kill": "Jokers Kill",
}


def test_app_bar_titles_fit_a_360_px_phone(titled: dict[str, str], page: Any, app_server: AppServer) -> None:
    """Each title is whole on screen: on one line, or over two (18 px beside the table's Undo, Redo and Share; 20 px
    elsewhere), never cut. (The title's own node is merged into the app bar's, so its room is measured between the
    buttons around it.)"""
    page.set_viewport_size(SMALL_PHONE)
    night = titled["night"]
    screens = [(f"/continue/{titled[game]}", name, 18, 4, 56) for game, name in GAMES.items()]
    screens += [
        ("/", "Card Table Companion", 20, 16, 64),
        (f"/nights/{night}", "Game night, Wed 2 Dec", 20, 16, 64),
        (f"/nights/{night}/recap", "Recap: Game night, Wed 2 Dec", 20, 16, 64),
        ("/stats/nights", "Statistics: game nights", 20, 16, 64),
        ("/history/transfer", "Export and backup", 20, 16, 64),
        ("/nights/new", "Start a game night", 20, 16, 64),
    ]
    two_lines = []
    for path, title, size, spacing, bar in screens:
        open_app(page, app_server, path)
        found = page.wait_for_function(TITLE_LINES, arg=[title, size, spacing]).json_value()
        at = f"{title!r} on {path}: {found}"
        assert found["widest"] <= found["width"], f"a word of the title is cut: {at}"
        assert found["lines"] <= 2, f"the title is cut: {at}"
        if found["lines"] == 2:
            two_lines.append(title)
            # drawn over two lines: the second line's letters are in the band where a title of one line (centred
            # in the bar) has none
            band = {"x": found["start"], "y": bar - 19, "width": found["end"] - found["start"], "height": 6}
            for _ in range(30):  # the canvas is painted a moment after the semantics tree is there
                if ink(page.screenshot(clip=band)):
                    break
                page.wait_for_timeout(500)
            else:
                raise AssertionError(f"a title that needs two lines is drawn on one, cut: {at}")
    assert "Recap: Game night, Wed 2 Dec" in two_lines, "the longest title is measured over two lines"
