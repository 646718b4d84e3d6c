"""The table screen on a portrait phone (390 × 844): the entry controls, the running hand and Confirm are inside the
viewport without scrolling (bounding boxes), and the standings strip is on screen while a hand is entered (issue 15).
Each game's entry screen is photographed at phone size (``docs/screenshots/phone-<game>.png`` with
``CTC_SCREENSHOTS=1``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.helpers import (
    PHONE,
    AppServer,
    button,
    card_label,
    enter_jk_hand,
    screenshot,
    seat,
    tap,
    type_until,
    wait_text,
)

pytestmark = pytest.mark.browser


def on_screen(page: Any, locator: Any, what: str) -> None:
    """``locator`` is in the page and wholly inside the viewport, as the page is (no scrolling asked for)."""
    locator.first.wait_for(state="attached")
    box = locator.first.bounding_box()
    size = page.viewport_size or PHONE
    assert box is not None, f"{what} is not laid out"
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, f"{what} is cut off sideways: {box}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, f"{what} is below the fold: {box}"
    assert box["height"] >= 47.5, f"{what} is a tap target under 48 px: {box}"


def strip_on_screen(page: Any, names: list[str]) -> None:
    for name in names:
        chip = page.get_by_text(re.compile(rf"^\d+\. {re.escape(name)}: -?\d+ points?\b"))
        chip.first.wait_for()
        box = chip.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 200, f"{name}'s standing: {box}"


def start(page: Any, game: str, names: list[str], setting: tuple[str, str] | None = None) -> None:
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(rf"^{re.escape(game)}")).click()
    seat(page, names)
    if setting is not None:
        label, value = setting
        type_until(page, label, value, f"^House rules changed: {label} {value}")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))


def test_jokers_kill_hand_on_a_phone(page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben", "Cat"]
    start(page, "Jokers Kill", names)
    button(page, "Confirm hand").wait_for()
    strip_on_screen(page, names)
    for code in ("AS", "AC", "KS", "KC"):  # the grid's corners: all 52 cards are on screen
        on_screen(page, button(page, card_label(code)), card_label(code))
    on_screen(page, button(page, "Confirm hand"), "Confirm")
    screenshot(page, "phone-jokers-kill")
    taps = enter_jk_hand(page, "9S", ["4H", "7D", "QC"])
    assert taps == 5, "a 3-player hand: one tap a card, one to confirm"
    wait_text(page, r"^1\. Ann: 2 points \(last hand \+2\)")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm hand"), "Confirm after a hand")
    on_screen(page, button(page, "Scoreboard and hands"), "the way to the scoreboard")


def test_bargain_bin_hand_on_a_phone(page: Any, app_server: AppServer) -> None:
    """A whole live-play hand of 4 players (20 cards, each its receiver and its value) without scrolling: every
    receiver and key is inside the viewport when it is tapped, and so are Confirm and the standings strip."""
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben", "Cat", "Dan"]
    start(page, "Bargain Bin", names)
    wait_text(page, "^Next: Ann plays: who gets the card")
    strip_on_screen(page, names)
    on_screen(page, page.get_by_role("button", name=re.compile(r"^To Dan \(")), "the last receiver")
    for key in ("A♠♣", "K♥♦"):  # the pad's first and last keys
        on_screen(page, button(page, key), f"the {key} key")
    on_screen(page, button(page, "Confirm hand"), "Confirm")
    screenshot(page, "phone-bargain-bin")
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    taps = 0
    for card in range(20):  # every card to Ben, the black cards A to 10, each twice: Ben has 2 × 55 card points
        giver = names[card % 4]
        to = page.get_by_role("button", name=re.compile(r"^To Ben \("))
        on_screen(page, to, f"card {card + 1}: the receiver")
        to.first.click()
        wait_text(page, rf"^Next: {giver} plays to Ben: which card\?$")
        key = button(page, f"{ranks[card // 2]}♠♣")
        on_screen(page, key, f"card {card + 1}: its key")
        key.click()
        taps += 2
        nxt = "Every card is played: confirm the hand" if card == 19 else f"{names[(card + 1) % 4]} plays: who"
        wait_text(page, f"^Next: {re.escape(nxt)}")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm hand"), "Confirm after the last card")
    tap(page, "Confirm hand")
    taps += 1
    assert taps == 41, "two taps a card (who gets it, its value), one to confirm"
    wait_text(page, "^Next: Ben plays: who gets the card")  # hand 2: the next player starts
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm hand"), "Confirm in hand 2")


def test_ones_to_nines_entry_on_a_phone(page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "1111-9999", names)
    wait_text(page, r"^Next: Typing the table row$")
    strip_on_screen(page, names)
    for digit in ("1", "9"):
        on_screen(page, button(page, digit), f"digit {digit}")
    on_screen(page, button(page, "Confirm hand"), "Confirm")
    screenshot(page, "phone-1111-9999")


def test_feast_and_famine_entry_on_a_phone(page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "Feast and Famine", names, ("Circuits", "1"))
    wait_text(page, r"^Round 1 of 2")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Dealer: Ann"), "the dealer choice")  # Confirm comes once the round is walked
    screenshot(page, "phone-feast-and-famine")


def test_financial_crisis_entry_on_a_phone(page: Any, app_server: AppServer) -> None:
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "Financial Crisis", names)
    wait_text(page, r"^Next: Tap the 5 face-down bank cards \(0 of 5\)$")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm round"), "Confirm")
    screenshot(page, "phone-financial-crisis")
