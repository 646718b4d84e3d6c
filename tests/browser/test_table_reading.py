"""What a screen reader hears at the table, in Chromium on a phone (issue 23): the keys under a raised veil say that
they are unavailable, a chosen Bargain Bin receiver says that it is selected, and the standings strip is read in
place order.

A screen reader reads Flutter's semantics tree (the ``flt-semantics`` elements): their ``aria-disabled`` and
``aria-current`` (Flutter's web view says a selected node with it) are what it says, and their order in the page is
its reading order. A control is activated through its own node (a click dispatched on the element), as a screen
reader does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from tests.support.browser import AppServer, button, card_label, open_app, tap, tap_card, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

SMALL_PHONE = {"width": 360, "height": 740}

KEYS = """(names) => names.map(name => {
    const e = [...document.querySelectorAll('flt-semantics[role=button]')]
        .find(e => (e.getAttribute('aria-label') || e.textContent.trim()) === name);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return {name, disabled: e.getAttribute('aria-disabled') === 'true', selected: e.getAttribute('aria-current') ===
            'true', height: r.height, width: r.width};
})"""
"""JavaScript: for each name, its button node's state (disabled, selected) and size, or ``null`` when there is none."""


def keys(page: Any, names: list[str]) -> dict[str, dict[str, Any]]:
    found = page.evaluate(KEYS, names)
    missing = [name for name, key in zip(names, found, strict=True) if key is None]
    assert not missing, f"no button node for {missing}"
    return {key["name"]: key for key in found}


def wait_state(page: Any, name: str, *, disabled: bool | None = None, selected: bool | None = None) -> None:
    """Wait until the button node ``name`` reads as (not) disabled and (not) selected."""
    page.wait_for_function(
        """([name, disabled, selected]) => [...document.querySelectorAll('flt-semantics[role=button]')].some(e =>
            (e.getAttribute('aria-label') || e.textContent.trim()) === name
            && (disabled === null || (e.getAttribute('aria-disabled') === 'true') === disabled)
            && (selected === null || (e.getAttribute('aria-current') === 'true') === selected))""",
        arg=[name, disabled, selected],
    )


def activate(page: Any, name: str) -> None:
    """Activate the button node ``name`` as a screen reader does: a click dispatched on its element."""
    node = button(page, name)
    node.wait_for(state="attached")
    node.dispatch_event("click")


CARDS = [card_label(f"{rank}{suit}") for suit in "SHDC" for rank in ["A", "K", "Q", "J", "10", "2"]]


@pytest.fixture
def games(data_dir: Path) -> dict[str, str]:
    """A Jokers Kill game of two, a Bargain Bin game of four, and one of four after three hands (four places)."""
    with AppServices.open(data_dir) as services:
        jokers = services.sessions.start("jokers-kill", ["Ann", "Ben"])
        fresh = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"], {"target": 1000})
        played = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"], {"target": 1000})
        for scores in ((10, 4, -5, 2), (10, 4, -5, 2), (10, -5, 4, 2)):  # the top two get a point: 3, 2, 1, 0
            played.add_hand({"scores": dict(zip(["Ann", "Ben", "Cat", "Dan"], scores, strict=True))})
        return {"jokers": jokers.id, "fresh": fresh.id, "played": played.id}


def test_a_complete_hand_reads_its_veiled_cards_as_unavailable(
    games: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, f"/continue/{games['jokers']}")
    wait_text(page, r"^Next: ")
    before = keys(page, CARDS)
    assert not any(key["disabled"] for key in before.values()), "an empty hand: every card can be tapped"
    for code in ("9S", "4H", "7D"):  # the up-card and a card each: the hand is complete, the veil raised
        tap_card(page, code)
    wait_state(page, "A♠", disabled=True)
    veiled = keys(page, CARDS)
    assert all(key["disabled"] for key in veiled.values()), f"cards under the veil read as enabled: {veiled}"
    assert all(key["height"] >= 47.5 for key in veiled.values()), f"a veiled card under 48 px: {veiled}"

    # activated through its node, a veiled card does nothing: the hand keeps its three cards
    activate(page, "K♣")
    page.wait_for_timeout(500)
    assert keys(page, ["K♣"])["K♣"]["disabled"]
    wait_text(page, r"^Next: ")
    assert page.get_by_role("button", name="Confirm hand", exact=True, disabled=False).count() == 1

    # a card taken back lowers the veil: the cards still in the deck read as enabled again, at 48 px
    activate(page, "Remove last card")
    wait_state(page, "A♠", disabled=False)
    lowered = keys(page, [*CARDS, "9♠", "4♥", "7♦"])
    assert not any(lowered[name]["disabled"] for name in [*CARDS, "7♦"]), lowered
    assert lowered["9♠"]["disabled"] and lowered["4♥"]["disabled"], "the cards in the hand stay greyed out"
    assert all(key["height"] >= 47.5 for key in lowered.values()), f"a card under 48 px: {lowered}"


VALUES = ["A♠♣", "2♠♣", "10♥♦", "K♥♦"]


def test_a_chosen_receiver_reads_as_selected_and_lowers_the_veil(
    games: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, f"/continue/{games['fresh']}")
    wait_text(page, r"^Next: Ann plays: who gets the card\?$")
    receivers = ["To Ann (0)", "To Ben (0)", "To Cat (0)", "To Dan (0)"]
    shown = keys(page, receivers + VALUES)
    assert not any(shown[name]["selected"] for name in receivers), "no receiver is chosen yet"
    assert all(shown[name]["disabled"] for name in VALUES), f"the veiled value pad reads as enabled: {shown}"
    assert all(key["height"] >= 47.5 for key in shown.values()), f"a tap target under 48 px: {shown}"

    activate(page, "To Ben (0)")
    wait_state(page, "To Ben (0)", selected=True)
    wait_state(page, "K♥♦", disabled=False)
    chosen = keys(page, receivers + VALUES)
    assert [name for name in receivers if chosen[name]["selected"]] == ["To Ben (0)"], chosen
    assert not any(chosen[name]["disabled"] for name in VALUES), f"the pad is still read as veiled: {chosen}"
    assert all(key["height"] >= 47.5 for key in chosen.values()), f"a tap target under 48 px: {chosen}"

    # another receiver tapped instead: the selection moves
    activate(page, "To Cat (0)")
    wait_state(page, "To Cat (0)", selected=True)
    assert not keys(page, ["To Ben (0)"])["To Ben (0)"]["selected"]

    # the card's value: Cat has it, nobody is chosen, the pad is veiled again
    activate(page, "K♥♦")
    wait_text(page, r"^Next: Ben plays: who gets the card\?$")
    page.wait_for_function(f"() => ({RECEIVERS})().some(r => r.name.startsWith('To Cat (') && r.name !== 'To Cat (0)')")
    after = page.evaluate(RECEIVERS)
    assert len(after) == 4 and not any(r["selected"] for r in after), f"a receiver still reads as chosen: {after}"
    wait_state(page, "K♥♦", disabled=True)
    assert all(key["disabled"] for key in keys(page, VALUES).values()), "the veiled value pad reads as enabled"


RECEIVERS = """() => [...document.querySelectorAll('flt-semantics[role=button]')]
    .map(e => ({name: (e.getAttribute('aria-label') || e.textContent).trim(),
                selected: e.getAttribute('aria-current') === 'true'}))
    .filter(r => r.name.startsWith('To '))"""
"""JavaScript: the receivers' names and whether each reads as selected."""


STANDINGS = """() => [...document.querySelectorAll('flt-semantics')].map(e => {
        const label = (e.getAttribute('aria-label') || e.textContent || '').trim();
        const m = label.match(/^(\\d+)\\. (\\w+): -?\\d+ points? \\(last hand/);
        if (!m || e.querySelector('flt-semantics')) return null;
        const r = e.getBoundingClientRect();
        return {place: Number(m[1]), name: m[2], x: r.x, y: r.y, height: r.height};
    }).filter(Boolean)"""
"""JavaScript: the standings' lines (``1. Ann: 3 points (last hand +1)``), the strip's chips and the scoreboard's
rows, in the page's order: a screen reader's reading order."""


def test_the_standings_strip_is_read_in_place_order(games: dict[str, str], page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, f"/continue/{games['played']}")
    wait_text(page, r"^Hand 4$")
    tap(page, "Scoreboard and hands")  # a phone shows the scoreboard in the hand's place, under the strip
    page.wait_for_function(f"() => ({STANDINGS})().length === 8")
    lines = page.evaluate(STANDINGS)
    chips = [line for line in lines if line["height"] < 24]  # the strip's one-line chips (the board's rows: 29 px)
    board = [line for line in lines if line["height"] >= 24]
    assert len(chips) == len(board) == 4, lines
    rows = sorted({round(chip["y"]) for chip in chips})
    assert len(rows) == 2 and all(sum(round(c["y"]) == y for c in chips) == 2 for y in rows), (
        f"two chips a row on a phone: {chips}"
    )
    beside = button(page, "Scoreboard and hands").bounding_box()
    assert beside is not None and beside["x"] > max(c["x"] for c in chips), "the button beside the strip"
    assert beside["height"] > rows[1] - rows[0], "the button spans both rows of chips"
    in_place = sorted(chips, key=lambda chip: (round(chip["y"]), chip["x"]))
    assert [c["name"] for c in chips] == [c["name"] for c in in_place], f"read out of place order: {chips}"
    assert [c["place"] for c in chips] == [1, 2, 3, 4], f"read out of place order: {chips}"
    assert [c["name"] for c in chips] == [c["name"] for c in board] == ["Ann", "Ben", "Cat", "Dan"]


SCROLLING = """() => [...document.querySelectorAll('flt-semantics')].filter(
    e => e.style.overflowY === 'scroll' || e.style.overflowY === 'hidden').length"""
"""JavaScript: how many semantics nodes scroll (Flutter's web engine sets their ``overflow-y`` to ``scroll``, or to
``hidden`` for the half second after a pointer event): a tap on a page that has one waits for the browser to lay
that node out again when the engine switches it."""


def test_a_phone_shows_the_hand_or_the_scoreboard_and_the_hand_does_not_scroll(
    games: dict[str, str], page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, f"/continue/{games['played']}")
    wait_text(page, r"^Hand 4$")
    assert page.evaluate(SCROLLING) == 0, "the hand fits the phone: nothing on its screen scrolls"
    assert not page.get_by_role("button", name=re.compile(r"^Hand 3:")).count(), "the hands are not under it"
    tap(page, "Scoreboard and hands")
    page.get_by_role("button", name=re.compile(r"^Hand 3:")).first.wait_for()
    page.wait_for_function(f"() => ({STANDINGS})().length === 8")  # the strip's chips and the scoreboard's rows
    assert not page.get_by_text(re.compile(r"^Hand 4$")).count(), "nor the hand's title"
    tap(page, "Back to the hand")
    wait_text(page, r"^Hand 4$")
    page.wait_for_function(f"() => ({STANDINGS})().length === 4")  # the strip's chips alone
    assert page.evaluate(SCROLLING) == 0
