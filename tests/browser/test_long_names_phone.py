"""Ten players with names of 12 to 14 letters (and two of exactly 10) on a 360 × 640 phone (issue 23): in the
standings strip and on the scoreboard, each name has room for itself whole up to 10 characters, and for at least its
first 8 and the ellipsis beyond that, beside its place and total. Each chip and row is found by its semantics node
(it carries the player's whole line) and measured: the room its name gets (the node's width less the place, total
and spacing the view gives them, ``views/table/scoreboard.py``; in the strip, the widest place "=10" and a total
"-99") against the width of what must show, in the app's font (DejaVu Sans, measured in the page). Each scoreboard
row lies inside the screen's width, on one line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import AppServer, ink, open_app, screenshot, tap
from views.table.scoreboard import LAST_WIDTH, PLACE_WIDTH, ROW_SPACING, TOTAL_WIDTH

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

SMALL = {"width": 360, "height": 640}
LONG = "Anna-Katharina Hans-Christian Jean-Baptiste Konstantinos Christabella Maximilianus Aleksandrina Bartholomeus"
NAMES = [*LONG.split(), "Marguerite", "Jacqueline"]
"""Eight names of 12 to 14 letters, and two of 10 (shown whole)."""
CARDS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "2C", "3C"]


def shown(name: str) -> str:
    """What must show of ``name``: all of it up to 10 characters, else its first 8 and an ellipsis."""
    return name if len(name) <= 10 else name[:8] + "…"


@pytest.fixture
def seeded(data_dir: Path) -> str:
    from companion.session import SessionService
    from storage import Archive

    with Archive(data_dir) as archive:
        table = SessionService(archive).start("jokers-kill", NAMES)
        table.add_hand({"up": "9S", "cards": dict(zip(NAMES, CARDS, strict=True))})
        return table.id


MEASURE = """([name, lines]) => {
    const nodes = [...document.querySelectorAll('flt-semantics')].filter(e => {
        const label = e.getAttribute('aria-label') || e.textContent.trim();
        return new RegExp('^=?\\\\d+\\\\. ' + name + ':').test(label);
    });
    const canvas = document.createElement('canvas').getContext('2d');
    const widths = lines.map(([text, px, bold]) => {
        canvas.font = `${bold ? 'bold ' : ''}${px}px "DejaVu Sans"`;
        return canvas.measureText(text).width;
    });
    return {boxes: nodes.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.width, r.height, r.y]; }),
            labels: nodes.map(e => e.getAttribute('aria-label') || e.textContent.trim()), widths};
}"""


def chip_place_and_total(label: str) -> tuple[str, str]:
    """A strip chip's place as drawn (``=2`` for a shared place, which its label says in words) and its total, read
    from its semantics label (``2. Ann: 5 points (last hand +5) (equal second)``)."""
    found = re.match(r"^(\d+)\. .*?: (-?\d+) points?\b", label)
    assert found is not None, f"a chip's label: {label!r}"
    shared = re.search(r"\((?!last )[^)]*\)", label) is not None
    return ("=" if shared else "") + found[1], found[2]


DRAWN_WITHIN_S = 5
"""How long a name found in the semantics tree may take to be drawn: Flutter's WebAssembly renderer rasterises in a
worker, so a busy machine can show the page's new semantics nodes before the frame that draws them."""


def assert_drawn(page: Any, name: str, box: dict[str, float], px: int) -> None:
    """The pixels drawn in ``box`` (the name's place in a chip or a row) show ``name`` whole when it has up to 10
    letters (no ellipsis, as wide as its text), and at least its first 8 and an ellipsis beyond that. Widths are
    those of the regular weight: the app bundles one weight of DejaVu Sans, and Flutter draws its bold by
    thickening it (the browser's own DejaVu Sans Bold is wider)."""
    drawn = ink(page, box)
    for _ in range(DRAWN_WITHIN_S * 4):  # the semantics tree can reach the page before the frame's pixels do
        if drawn is not None:
            break
        page.wait_for_timeout(250)
        drawn = ink(page, box)
    assert drawn is not None, f"nothing is drawn where {name!r} should be within {DRAWN_WITHIN_S} s: {box}"
    least = page.evaluate(
        "([t, font]) => { const c = document.createElement('canvas').getContext('2d'); c.font = font;"
        " return c.measureText(t).width; }",
        [shown(name), f'{px}px "DejaVu Sans"'],
    )
    whole = page.evaluate(MEASURE, [name, [(name, px, False)]])["widths"][0]
    assert drawn.width >= least - 4, f"{name!r}: {drawn} drawn, {shown(name)!r} needs {least:.0f} px: {box}"
    if len(name) <= 10:
        assert not drawn.ends_in_dots(px), f"{name!r} is drawn cut, with an ellipsis: {drawn}, {box}"
        assert drawn.width >= whole - 4, f"{name!r}: {drawn} drawn for a {whole:.0f} px name: {box}"


def row_on_screen(page: Any, name: str) -> dict[str, Any]:
    """Scroll the scoreboard until ``name``'s row is wholly on screen (to be seen as drawn); its measures."""
    for _ in range(12):
        found: dict[str, Any] = page.evaluate(MEASURE, [name, [(shown(name), 18, True)]])
        _x, _width, height, y = max(found["boxes"], key=lambda box: box[1])
        if y >= 0 and y + height <= SMALL["height"]:
            return found
        page.mouse.move(SMALL["width"] / 2, SMALL["height"] / 2)
        page.mouse.wheel(0, y - SMALL["height"] / 3)
        page.wait_for_timeout(400)
    raise AssertionError(f"{name}'s scoreboard row could not be scrolled on screen: {found}")


def test_long_names_keep_their_first_letters_in_the_strip_and_the_scoreboard_at_360_px(
    seeded: str, page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL)
    open_app(page, app_server, f"/continue/{seeded}")
    for _ in range(60):  # the table screen is drawn
        if page.evaluate(MEASURE, [NAMES[0], []])["boxes"]:
            break
        page.wait_for_timeout(500)
    labels = page.evaluate(
        "() => [...document.querySelectorAll('flt-semantics')].map(e => e.getAttribute('aria-label') || '')"
    )
    assert page.evaluate(MEASURE, [NAMES[0], []])["boxes"], labels
    for name in NAMES:
        found = page.evaluate(MEASURE, [name, [(shown(name), 12, False), ("=10", 11, False), ("-99", 14, True)]])
        assert found["boxes"], f"{name}'s chip is not in the page"
        chip = min(range(len(found["boxes"])), key=lambda i: found["boxes"][i][1])  # the strip's narrowest node
        x, width, height, y = found["boxes"][chip]
        assert x >= 0 and x + width <= SMALL["width"] + 0.5, f"{name}'s chip: {found}"
        name_width, place_width, total_width = found["widths"]
        room = width - 8 - 2 * 4 - place_width - total_width  # the chip's padding and gaps, a place and a total
        assert name_width <= room, f"{name!r} needs {name_width:.0f} px for {shown(name)!r}, its chip gives {room:.0f}"
        # and what is drawn there: the name's pixels, between its place and its total
        place, total = chip_place_and_total(found["labels"][chip])
        drawn = page.evaluate(MEASURE, [name, [(place, 11, False), (total, 14, True)]])["widths"]
        left, right = x + 4 + drawn[0] + 2, x + width - 4 - drawn[1] - 2
        assert_drawn(page, name, {"x": left, "y": y + 1, "width": right - left, "height": height - 2}, 12)
    screenshot(page, "phone-standings-10-long-names")

    tap(page, "Scoreboard and hands")  # the full scoreboard, one tap away: a row as wide as the screen
    for _ in range(60):
        if any(box[1] > SMALL["width"] / 2 for box in page.evaluate(MEASURE, [NAMES[0], []])["boxes"]):
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(600)  # the scroll settles
    for name in NAMES:
        found = row_on_screen(page, name)
        x, width, height, y = max(found["boxes"], key=lambda box: box[1])  # the scoreboard's row
        assert width > SMALL["width"] / 2, f"{name}'s scoreboard row is not in the page: {found}"
        assert x >= 0 and x + width <= SMALL["width"] + 0.5, f"{name}'s row is cut: {found}"
        assert height <= 40, f"{name}'s row wraps: {found}"
        room = width - PLACE_WIDTH - LAST_WIDTH - TOTAL_WIDTH - 3 * ROW_SPACING
        assert found["widths"][0] <= room, f"{name!r} needs {found['widths'][0]:.0f} px, its row gives {room:.0f}"
        left = x + PLACE_WIDTH + ROW_SPACING - 2
        assert_drawn(page, name, {"x": left, "y": y, "width": room + 4, "height": height}, 18)
