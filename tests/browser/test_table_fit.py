"""What must fit a phone at the table (issue 23), measured in Chromium by the semantics nodes' boxes: 1111-9999's
"Best possible arrangements" in a correction, above the docked Confirm at 412 × 915.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from tests.browser.helpers import AppServer, box_of, button, open_app, wait_text

pytestmark = pytest.mark.browser

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
