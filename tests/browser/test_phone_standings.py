"""The standings strip and the scoreboard on the narrowest phone the app is laid out for (360 × 740), with the most
players a game allows and 4-digit totals: no chip or row wraps, none is wider than the screen, and no text is cut
off (issue 15). The strip and the scoreboard are shared by every game (``views/table/scoreboard.py``); 1111-9999 is
the game that reaches 4-digit totals in one hand, with up to 8 players."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import AppServer, open_app, screenshot, tap
from views.table.scoreboard import LAST_WIDTH, PLACE_WIDTH, ROW_SPACING, STRIP_ROW, TOTAL_WIDTH

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

NARROW = {"width": 360, "height": 740}
NAMES = ["Anna", "Boris", "Clara", "David", "Ellen", "Felix", "Greta", "Henry"]
HAND = {
    # The table row 5 5 5 5 reads the same from both sides; the 32 other digits of the deck (rule 1: four of each)
    # make the eight numbers, each a gap of four digits (rule 4: the difference from 5555).
    "table": "5555",
    "numbers": {
        "Anna": "1234",  # 4321
        "Boris": "1236",  # 4319
        "Clara": "1247",  # 4308
        "David": "1348",  # 4207
        "Ellen": "2679",  # 2876
        "Felix": "3689",  # 1866
        "Greta": "9786",  # 4231
        "Henry": "9847",  # 4292
    },
}
TOTALS = {name: abs(int(number) - 5555) for name, number in HAND["numbers"].items()}


@pytest.fixture
def seeded(data_dir: Path) -> str:
    """An 8-player 1111-9999 game after one hand, made through the session service before the app starts."""
    from companion.session import SessionService
    from storage import Archive

    with Archive(data_dir) as archive:
        table = SessionService(archive).start("1111-9999", NAMES, extra={"sides": dict.fromkeys(NAMES, "A")})
        table.add_hand(HAND)
        assert table.result.totals == TOTALS and not table.result.finished
        return table.id


MEASURE = """([label, lines, widest]) => {
    const nodes = [...document.querySelectorAll('flt-semantics')].filter(e => e.textContent.trim() === label
        || e.getAttribute('aria-label') === label);
    if (!nodes.length) return null;
    const boxes = nodes.map(e => e.getBoundingClientRect());
    const box = widest ? boxes.reduce((a, b) => (b.width > a.width ? b : a)) : boxes[0];
    const canvas = document.createElement('canvas').getContext('2d');
    const widths = lines.map(([text, px, bold]) => {
        canvas.font = `${bold ? 'bold ' : ''}${px}px "DejaVu Sans"`;
        return canvas.measureText(text).width;
    });
    return {x: box.x, y: box.y, width: box.width, height: box.height, widths};
}"""
"""The box of the semantics node labelled ``label`` (the first, or the widest: a scoreboard row has the label of
its player's chip in the strip), and the widths its texts need in the app's font."""


def measure(page: Any, label: str, lines: list[tuple[str, int, bool]], *, widest: bool = False) -> dict[str, Any]:
    page.get_by_text(label, exact=True).first.wait_for(state="attached")
    found = page.evaluate(MEASURE, [label, lines, widest])
    assert found is not None, f"{label!r} is not in the page"
    return dict(found)


def test_eight_players_with_four_digit_totals_fit_a_360_px_phone(seeded: str, page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(NARROW)
    open_app(page, app_server, f"/continue/{seeded}")
    ranked = sorted(NAMES, key=lambda name: TOTALS[name])  # the lowest total leads (rule 8)
    labels = {
        name: f"{place}. {name}: {TOTALS[name]} points (last hand +{TOTALS[name]})"
        for place, name in enumerate(ranked, start=1)
    }
    page.get_by_text(re.compile(r"^Next: Typing the table row$")).first.wait_for()
    heights = []
    for place, name in enumerate(ranked, start=1):
        # one line a player: place, name and total side by side
        chip = measure(page, labels[name], [(f"{place}", 11, False), (name, 12, False), (str(TOTALS[name]), 14, True)])
        assert chip["x"] >= 0 and chip["x"] + chip["width"] <= NARROW["width"] + 0.5, f"{name}'s chip: {chip}"
        assert chip["y"] + chip["height"] <= 200, f"{name}'s chip is not at the top: {chip}"
        assert chip["height"] <= STRIP_ROW + 0.5, f"{name}'s chip wraps: {chip}"
        room = chip["width"] - 8 - 2 * 4  # the chip's padding, the gaps between its three texts
        assert sum(chip["widths"]) <= room, f"{name}'s chip cuts its text off: {chip['widths']} in {room:.0f} px"
        heights.append(chip["height"])
    assert max(heights) - min(heights) < 1, f"the chips differ in height: {heights}"
    screenshot(page, "phone-standings-8-players")

    tap(page, "Scoreboard and hands")  # the full scoreboard, one tap away
    page.wait_for_timeout(600)  # the scroll settles
    for name in ranked:
        total = str(TOTALS[name])
        row = measure(page, labels[name], [(name, 18, True), (total, 20, True), (f"+{total}", 15, False)], widest=True)
        assert row["width"] > NARROW["width"] / 2, f"{name}'s scoreboard row is not on screen: {row}"
        assert row["x"] >= 0 and row["x"] + row["width"] <= NARROW["width"] + 0.5, f"{name}'s row: {row}"
        assert row["height"] <= 40, f"{name}'s row wraps: {row}"
        # the place, last and total columns, the row's spacing
        name_room = row["width"] - PLACE_WIDTH - LAST_WIDTH - TOTAL_WIDTH - 3 * ROW_SPACING
        name_width, total_width, last_width = row["widths"]
        assert name_width <= name_room, f"{name}'s name is cut off: {name_width:.0f} in {name_room:.0f} px"
        assert total_width <= TOTAL_WIDTH and last_width <= LAST_WIDTH, f"{name}'s totals are cut off: {row['widths']}"
