"""A game night of ten players with ten-letter names on a 360 × 740 phone (issue 23): on the night's screen and on
its recap every name is shown whole; and again with eight names of 12 to 14 letters, of which at least the first 8
show. Each control or line that names a player is found by its semantics label and
measured: its box lies inside the screen's width, and is wide enough for its text in the app's font (DejaVu Sans,
measured in the page), or, where the line wraps, for the name on one line (a line wraps at spaces, so a name that
fits the box is never cut).

The night is made through the night service before the app starts: a bill of $100.00 paid by the first player and
shared by all ten, and a side bet between two others, so that the settle-up and the night's money name everyone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import AppServer, open_app, reveal_read, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

PHONE_360 = {"width": 360, "height": 740}
TEN_LETTERS = [
    "Alexandria",
    "Bernadette",
    "Christophe",
    "Clementine",
    "Evangeline",
    "Fredericka",
    "Hieronymus",
    "Maximilian",
    "Theodorich",
    "Wilhelmina",
]
LONGER = [
    "Anna-Katharina",
    "Bartholomeus",
    "Christabella",
    "Hans-Christian",
    "Jean-Baptiste",
    "Konstantinos",
    "Maximilianus",
    "Aleksandrina",
    "Marguerite",
    "Jacqueline",
]
"""Eight names of 12 to 14 letters (at least their first 8 show) and two of 10 (shown whole)."""


def shown(name: str) -> str:
    """What must show of ``name``: all of it up to 10 characters, else its first 8 and an ellipsis."""
    return name if len(name) <= 10 else name[:8] + "…"


CHOICE_PADDING = 2 * 16
"""A choice button's padding each side of its text (``views.widgets.choice_button``)."""


@pytest.fixture(params=[TEN_LETTERS, LONGER], ids=["ten-letters", "longer"])
def names(request: Any) -> list[str]:
    return list(request.param)


@pytest.fixture
def night(data_dir: Path, names: list[str]) -> dict[str, Any]:
    """The night, made before the app starts: its id, and the lines its settle-up and recap show."""
    from companion.money import format_money
    from companion.services import AppServices

    services = AppServices.open(data_dir)
    try:
        nights = services.nights
        made = nights.start("Ten at the table", names)
        nights.add_entry(made.id, names[0], "split", "100.00", "dinner")
        nights.add_entry(made.id, names[9], names[7], "5.00", "side bet")
        made = nights.get(made.id)
        recap = nights.recap(made)
        fmt = nights.money
        transfers = [t.describe(fmt) for t in nights.settlement(made).outstanding]
        money = [f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}" for name in recap.players]
        return {"id": made.id, "transfers": transfers, "money": money}
    finally:
        services.close()


MEASURE = """([label, px]) => {
    const nodes = [...document.querySelectorAll('flt-semantics')].filter(e => e.getAttribute('aria-label') === label
        || e.textContent.trim() === label);
    if (!nodes.length) return null;
    const box = nodes.map(e => e.getBoundingClientRect()).reduce((a, b) => (b.width > a.width ? b : a));
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = `${px}px "DejaVu Sans"`;
    return {x: box.x, y: box.y, width: box.width, height: box.height,
            text: canvas.measureText(label).width};
}"""
"""The box of the widest semantics node labelled ``label``, and the width its label needs at ``px`` in the app's
font."""


def measure(page: Any, label: str, px: int, *, role: str | None = None) -> dict[str, float]:
    """Scroll ``label``'s node on screen (Flutter leaves far-off nodes out of the tree), then measure it."""
    locator = page.get_by_role(role, name=label, exact=True) if role else page.get_by_text(label, exact=True)
    reveal_read(page, locator).first.wait_for(state="attached")
    found = page.evaluate(MEASURE, [label, px])
    for _ in range(6):  # a node the screen's edge cuts is measured cut: scroll it wholly on screen first
        if found is None or (found["y"] >= 0 and found["y"] + found["height"] <= PHONE_360["height"] - 56):
            break
        page.mouse.move(PHONE_360["width"] / 2, PHONE_360["height"] / 2)
        page.mouse.wheel(0, found["y"] - PHONE_360["height"] / 3)
        page.wait_for_timeout(400)
        found = page.evaluate(MEASURE, [label, px])
    assert found is not None, f"{label!r} is not on the screen"
    return dict(found)


def name_width(page: Any, name: str, px: int) -> float:
    return float(
        page.evaluate(
            "([t, px]) => { const c = document.createElement('canvas').getContext('2d');"
            ' c.font = `${px}px "DejaVu Sans"`; return c.measureText(t).width; }',
            [name, px],
        )
    )


def assert_whole(page: Any, label: str, name: str, px: int, *, role: str | None = None, padding: float = 0) -> None:
    """``label``, which names ``name``, is inside the screen's width and shows ``name`` whole (up to 10 letters; a
    longer name at least its first 8 and an ellipsis)."""
    box = measure(page, label, px, role=role)
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= PHONE_360["width"] + 0.5, (
        f"{label!r} leaves the screen: {box}"
    )
    one_line = box["height"] < px * 1.7 or role == "button"
    if one_line:  # the whole label on one line: the box holds all of it (a longer name's first 8 letters at least)
        needs = box["text"] if shown(name) == name else name_width(page, label.replace(name, shown(name)), px)
        assert box["width"] + 1 >= needs + padding, f"{label!r} is cut: {needs:.0f} px in {box}"
    else:  # wrapped at spaces: the name fits a line of the box
        assert box["width"] + 1 >= name_width(page, shown(name), px), f"{name} is cut in {label!r}: {box}"


def test_ten_names_are_whole_on_the_night_and_its_recap_at_360_px(
    names: list[str], night: dict[str, Any], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(PHONE_360)
    open_app(page, app_server, f"/nights/{night['id']}")
    page.get_by_text("Add an entry", exact=True).first.wait_for(state="attached")
    for name in names:
        assert_whole(page, f"{name} pays", name, 16, role="button", padding=CHOICE_PADDING)
        assert_whole(page, f"To {name}", name, 16, role="button", padding=CHOICE_PADDING)
    assert len(night["transfers"]) >= len(names) - 1  # everyone but the one owed pays someone
    for line in night["transfers"]:
        for name in (n for n in names if n in line):
            assert_whole(page, line, name, 18)
    if names == TEN_LETTERS:  # the README's pictures
        screenshot(page, "phone-night-10-players")

    open_app(page, app_server, f"/nights/{night['id']}/recap")
    page.get_by_text("Wins", exact=True).first.wait_for(state="attached")
    for name in names:
        assert_whole(page, f"{name}: 0 wins", name, 16)
    for line in night["money"]:
        assert_whole(page, line, line.split(":")[0], 16)
    if names == TEN_LETTERS:
        screenshot(page, "phone-recap-10-players")
