"""Every control works through its semantics node and from a keyboard, in Chromium at 360 px.

A screen reader activates a control through its node in Flutter's semantics tree (the ``flt-semantics`` element), not
by a tap at its coordinates: these tests dispatch the click on that element (:func:`activate`), so a label put on a
node that takes no tap (a wrapper around the real button) fails here where a click at the same place would not. On
the table, night, History and Settings screens every button node that has a name must take the tap; the night's
buttons are then each activated there and their effect checked. The keyboard: Tab goes through the card pad in
reading order and Enter or Space presses the focused card.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from tests.support.browser import AppServer, button, fill, open_app, reveal, scroll_to_top, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

SMALL_PHONE = {"width": 360, "height": 740}
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]

UNTAPPABLE = """() => [...document.querySelectorAll(
        'flt-semantics[role=button], flt-semantics[role=radio], flt-semantics[role=switch]')]
    .filter(e => (e.getAttribute('aria-label') || e.textContent.trim()) && !e.hasAttribute('flt-tappable')
                 && e.getAttribute('aria-disabled') !== 'true')
    .map(e => e.getAttribute('aria-label') || e.textContent.trim())"""
"""JavaScript: the names of the button (radio, switch) nodes on screen that take no tap and are not disabled."""


def activate(locator: Any) -> None:
    """Activate a control through its semantics node, as a screen reader does: a click dispatched on the element."""
    locator.wait_for(state="attached")
    locator.dispatch_event("click")


CHOSEN = """(name) => [...document.querySelectorAll('flt-semantics[role=button]')].some(
    e => e.textContent.trim() === name && e.getAttribute('aria-current') === 'true')"""
"""JavaScript: the choice button ``name`` is read out as selected (Flutter's web view says it with aria-current)."""


def choose(page: Any, name: str) -> None:
    """Activate the choice button ``name`` through its node and wait until it reads as selected (the row it is in
    is drawn anew after each choice: a node found just before may be replaced, so it is activated again then)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    for _ in range(3):
        activate(reveal(page, button(page, name)))
        try:
            page.wait_for_function(CHOSEN, arg=name, timeout=5_000)
            return
        except PlaywrightTimeoutError:
            continue
    page.wait_for_function(CHOSEN, arg=name)


def every_named_button_takes_the_tap(page: Any, where: str) -> int:
    """Scroll through the screen; at each step every named button node on screen must take the tap. Returns how
    many distinct named buttons were seen."""
    size = scroll_to_top(page)
    seen: set[str] = set()
    for _ in range(12):
        page.wait_for_timeout(300)
        assert page.evaluate(UNTAPPABLE) == [], f"{where}: a labelled control that does nothing when activated"
        seen.update(
            page.evaluate(
                """() => [...document.querySelectorAll('flt-semantics[role=button]')]
                .map(e => e.getAttribute('aria-label') || e.textContent.trim()).filter(Boolean)"""
            )
        )
        page.mouse.wheel(0, size["height"] // 2)
    scroll_to_top(page)
    return len(seen)


ON_SCREEN = """(pattern) => { const re = new RegExp(pattern);
    return [...document.querySelectorAll('flt-semantics')].some(e => {
        if (!re.test(e.getAttribute('aria-label') || e.textContent.trim())) return false;
        const r = e.getBoundingClientRect(), middle = r.top + r.height / 2;
        return r.height > 0 && middle >= 0 && middle <= window.innerHeight; }); }"""
"""JavaScript: a node whose own text matches ``pattern`` has its middle inside the viewport."""


def on_screen(page: Any, pattern: str) -> None:
    """A text matching ``pattern`` is shown inside the viewport (where the finger is), not somewhere off screen."""
    page.get_by_text(re.compile(pattern)).first.wait_for(state="attached")
    page.wait_for_function(ON_SCREEN, arg=pattern, timeout=10_000)


@pytest.fixture
def night_data(data_dir: Path) -> dict[str, str]:
    """A night with a finished Vegas game, a pizza in its ledger and a Jokers Kill game in progress, written
    before the server starts."""
    with AppServices.open(data_dir) as services:
        night = services.nights.start("Friday", PLAYERS)
        table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 10, "target": 1})
        table.add_hand({"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2}})
        services.nights.add_entry(night.id, "Cat", "split", "8", "pizza")
        jokers = services.sessions.start("jokers-kill", ["Ann", "Ben"])
        return {"night": night.id, "game": table.id, "jokers": jokers.id}


def test_the_night_screen_works_through_its_semantics_nodes(
    night_data: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    night = night_data["night"]
    open_app(page, app_server, f"/nights/{night}")
    wait_text(page, r"^Open: every game started now belongs to this night\.$")
    assert every_named_button_takes_the_tap(page, "night") >= 15

    # the ledger: who pays, who receives it, each choice read out as selected
    choose(page, "Ann pays")
    button(page, "To Ann").wait_for(state="detached")  # nobody pays themselves
    choose(page, "To Ben")
    assert not page.evaluate(CHOSEN, "Ben pays"), "one payer at a time"
    fill(page, "Amount", "3", r"^Ann pays Ben \$3\.00\.$")  # typed again if the answer to "To Ben" swallowed it
    reveal(page, page.get_by_text(re.compile(r"^Ann pays Ben \$3\.00\.$"))).first.wait_for(state="attached")
    activate(reveal(page, button(page, "Add to the ledger")))
    on_screen(page, r"^Added to the ledger: Ann pays Ben \$3\.00\.$")
    activate(reveal(page, button(page, "Remove entry 2")))
    on_screen(page, r"^The entry was removed\.$")

    # the settle-up: each button named with its own transfer
    marks = page.get_by_role("button", name=re.compile(r"^Mark paid: "))
    reveal(page, marks.first)
    names = [marks.nth(i).get_attribute("aria-label") or marks.nth(i).text_content() for i in range(marks.count())]
    assert len(names) >= 2 and len(set(names)) == len(names), names
    transfer = str(names[0]).removeprefix("Mark paid: ")
    activate(marks.first)
    on_screen(page, rf"^Paid: {re.escape(transfer)}\.$")
    activate(reveal(page, button(page, f"Not paid after all: {transfer.replace(' pays ', ' paid ')}")))
    on_screen(page, rf"^Not paid after all: {re.escape(transfer.replace(' pays ', ' paid '))}\.$")

    # the games and the night itself
    activate(reveal(page, button(page, "Take game 1 out of the night")))
    on_screen(page, r"^Game 1 is no longer part of the night\.$")
    add_back = page.get_by_role("button", name=re.compile(r"^Add Bargain Bin with "))
    activate(reveal(page, add_back).first)
    on_screen(page, r"^The game is part of the night\.$")
    activate(reveal(page, button(page, "Export the night")))
    on_screen(page, r"^Saved to .*\.json$")
    activate(reveal(page, button(page, "Close the night")))
    on_screen(page, r"^Closed\.$")
    activate(reveal(page, button(page, "Reopen the night")))
    on_screen(page, r"^Reopened\.$")
    activate(reveal(page, page.get_by_role("button", name=re.compile(r"^Open game 1: ")).first))
    page.wait_for_url(re.compile(r"/history/[0-9a-f]+$"))  # game 1 is now the one left in: Bargain Bin went out
    assert every_named_button_takes_the_tap(page, "a game in History") >= 2
    open_app(page, app_server, f"/nights/{night}")
    activate(reveal(page, button(page, "Recap")))
    page.wait_for_url(re.compile(rf"/nights/{night}/recap$"))
    activate(button(page, "Back"))
    page.wait_for_url(re.compile(r"/nights(/[0-9a-f]+)?$"))


def test_history_and_settings_work_through_their_semantics_nodes(
    night_data: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, "/history")
    first = page.get_by_role("button", name=re.compile(r"^Bargain Bin\b"))
    reveal(page, first).first.wait_for()
    assert every_named_button_takes_the_tap(page, "History") >= 3
    activate(reveal(page, first).first)
    page.wait_for_url(re.compile(rf"/history/{night_data['game']}$"))

    open_app(page, app_server, "/settings")
    page.get_by_role("radio", name="Dark", exact=True).wait_for()
    assert every_named_button_takes_the_tap(page, "Settings") >= 2  # Back and the currency drop-down
    dark = page.get_by_role("radio", name="Dark", exact=True)
    activate(dark)
    page.wait_for_function(
        """() => [...document.querySelectorAll('flt-semantics[role=radio]')].some(
            e => (e.getAttribute('aria-label') || e.textContent.trim()) === 'Dark'
                 && e.getAttribute('aria-checked') === 'true')"""
    )
    suits = page.get_by_role("switch", name="Four-colour suits")
    activate(reveal(page, suits))
    page.wait_for_function(
        """() => [...document.querySelectorAll('flt-semantics[role=switch]')].some(
            e => (e.getAttribute('aria-label') || '').startsWith('Four-colour suits')
                 && e.getAttribute('aria-checked') === 'true')"""
    )


ACTIVE = """() => { const e = document.activeElement;
    return e ? (e.getAttribute('aria-label') || e.textContent.trim()) : null; }"""


def tab(page: Any, was: str | None) -> str:
    """Press Tab; the label of what has the browser's focus once it moved from ``was``, or after a second if it did
    not. A key is a focusable node of the semantics tree from when a Tab first brings Flutter's focus to it, so
    the browser's focus follows a moment later, after a message from the server (``views.widgets.TapKey``)."""
    from playwright.sync_api import TimeoutError as FocusStayed

    page.keyboard.press("Tab")
    with contextlib.suppress(FocusStayed):  # the caller's assertion says where it stayed
        page.wait_for_function(f"(was) => ({ACTIVE})() !== was", arg=was, timeout=1_000)
    return str(page.evaluate(ACTIVE))


def test_the_card_pad_is_reached_with_tab_and_pressed_with_enter_or_space(
    night_data: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, f"/continue/{night_data['jokers']}")
    wait_text(page, "^Next: Turn the up-card$")
    assert every_named_button_takes_the_tap(page, "the table") >= 52
    # Tab from the top of the page until the first card has the focus, then on through the pad in reading order
    order: list[str] = []
    for _ in range(40):
        order.append(tab(page, order[-1] if order else None))
        if order[-1] == "A♠":
            break
    assert order[-1] == "A♠", order
    pad = ["A♠", "A♥", "A♦", "A♣", "2♠", "2♥", "2♦", "2♣", "3♠"]
    for _ in pad[1:]:
        order.append(tab(page, order[-1]))
    assert order[-len(pad) :] == pad, "the keys in reading order"
    page.keyboard.press("Enter")  # 3♠ is the up-card
    wait_text(page, r"^Up-card: 3♠$")
    # the card entered greys out (read as unavailable: the browser's focus skips it); the focus goes on to the next key
    focused = tab(page, "3♠")
    assert focused != "3♠" and re.fullmatch(r"\S{1,2}[♠♥♦♣]", focused), focused
    page.keyboard.press(" ")  # Space presses the focused card: Ann's
    wait_text(page, rf"^Ann: {re.escape(focused)}$")
