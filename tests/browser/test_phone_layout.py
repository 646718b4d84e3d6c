"""The table screen on a portrait phone (390 × 844): the entry controls, the running hand and Confirm are inside the
viewport without scrolling (bounding boxes), and the standings strip is on screen while a hand is entered (issue 15).
Each game's entry screen is photographed at phone size (``docs/screenshots/phone-<game>.png`` with
``CTC_SCREENSHOTS=1``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    PHONE,
    AppServer,
    box_of,
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
    box = box_of(locator.first)
    size = page.viewport_size or PHONE
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, f"{what} is cut off sideways: {box}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, f"{what} is below the fold: {box}"
    assert box["height"] >= 47.5, f"{what} is a tap target under 48 px: {box}"


def strip_on_screen(page: Any, names: list[str]) -> None:
    for name in names:
        chip = page.get_by_text(re.compile(rf"^\d+\. {re.escape(name)}: -?\d+ points?\b"))
        chip.first.wait_for()
        box = box_of(chip.first)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 200, f"{name}'s standing: {box}"


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
    """A whole hand at one tap a digit, every key and Confirm on screen before it is tapped. The hand (rules in
    ../shared/rules/1111-9999.md): the table row 4 2 3 9 as side A reads it; Ann (side A) plays 2875 against 4239:
    1364; Ben (side B, who reads 9324, OO-1) plays 8631: 693 (OO-E3). The lowest total leads (rule 8)."""
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "1111-9999", names)
    wait_text(page, r"^Next: Typing the table row$")
    strip_on_screen(page, names)
    screenshot(page, "phone-1111-9999")
    taps = 0
    hand = (("Table row (A)", "4239"), ("Ann (A) · target 4239", "2875"), ("Ben (B) · target 9324", "8631"))
    for field, number in hand:
        for k, digit in enumerate(number):
            key = page.get_by_role("button", name=digit, exact=True, disabled=False)
            on_screen(page, key, f"digit {digit}")
            on_screen(page, button(page, "Confirm hand"), f"Confirm, before digit {digit}")
            key.first.click()
            taps += 1
            shown = " ".join(number[: k + 1].ljust(4, "_"))  # the field's face: "4 2 _ _"
            page.get_by_role("button", name=re.compile(rf"^{re.escape(field)}: {shown}$")).first.wait_for()
        strip_on_screen(page, names)
    wait_text(page, r"^Next: Every number is in: check and confirm$")
    taps += confirm_on_screen(page, "Confirm hand")
    assert taps == 13, "4 table digits, 4 per player, one to confirm"
    wait_text(page, r"^1\. Ben: 693 points \(last hand \+693\)")
    wait_text(page, r"^2\. Ann: 1364 points \(last hand \+1364\)")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm hand"), "Confirm after a hand")
    for digit in ("1", "9"):
        on_screen(page, button(page, digit), f"digit {digit} of the next hand")


def test_feast_and_famine_entry_on_a_phone(page: Any, app_server: AppServer) -> None:
    """A whole walked round, every control and Confirm on screen before it is tapped. The round (rules in
    ../shared/rules/feast-and-famine.md): Ann deals, so Ben is dealt first; his opening Joker is put aside and
    replaced (rule 5.1); Ben 7♣, Ann 5♥; Ben Takes 3♠, Ann Takes 8♦, Ben Refuses (Frozen on 7 + 3 = 10), Ann Takes
    and a Joker is turned: she is Knocked Out and scores 0 (rule 6)."""
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "Feast and Famine", names, ("Circuits", "1"))
    wait_text(page, r"^Round 1 of 2")
    strip_on_screen(page, names)
    screenshot(page, "phone-feast-and-famine")
    taps = 0
    for label, then in [
        ("Dealer: Ann", "Deal Ben's opening card"),
        ("Joker", "Deal Ben's opening card"),  # put aside and replaced
        ("7♣", "Deal Ann's opening card"),
        ("5♥", "Ben: Take (tap the card turned) or Refuse?"),
        ("3♠", "Ann: Take (tap the card turned) or Refuse?"),  # tapping the card turned is Ben's Take
        ("8♦", "Ben: Take (tap the card turned) or Refuse?"),
        ("Refuse", "Ann: Take (tap the card turned) or Refuse?"),
        ("Joker", "A Joker: everyone not Frozen is Knocked Out"),
    ]:
        control = page.get_by_role("button", name=label, exact=True, disabled=False)
        on_screen(page, control, label)
        on_screen(page, button(page, "Confirm round"), f"Confirm, before {label}")
        control.first.click()
        taps += 1
        wait_text(page, rf"^Next: {re.escape(then)}")
        if label == "5♥":
            strip_on_screen(page, names)
    taps += confirm_on_screen(page, "Confirm round", names)
    assert taps == 9, "the dealer, one tap a card dealt (the Joker put aside too), a Refusal, Confirm"
    wait_text(page, r"^Round 2 of 2 · circuit 1 of 1 · Ben deals")
    wait_text(page, r"^1\. Ben: 10 points \(last round \+10\)")
    wait_text(page, r"^2\. Ann: 0 points \(last round \+0\)")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm round"), "Confirm after a round")
    on_screen(page, button(page, "Joker"), "the last key of the next round's grid")


def test_financial_crisis_entry_on_a_phone(page: Any, app_server: AppServer) -> None:
    """A whole round at one gesture a card, every card and Confirm on screen before it is tapped. The round (rules
    in ../shared/rules/financial-crisis.md): the bank Q♣ 3♣ 7♠ K♠ 4♥ is 2♣ 2♠ 1♥, so ♠ loses (BK-12, clubs set
    aside first) and Q♣ K♠ make ranked cards valuable (rule 7). Ann: A♣ +2, 5♣ +1, J♥ J♦ +3 each, 8♠ 6♠ −1 each,
    9♦ 10♦ in the rest: 7. Ben: K♣ +2, 2♠ 9♠ −1 each, Q♠ (ranked, loss suit) 0 into the rest with 6♥ 7♥ 8♥, a
    straight +1, and the biggest rest (4 cards against 2) +1: 2."""
    page.set_viewport_size(PHONE)
    names = ["Ann", "Ben"]
    start(page, "Financial Crisis", names)
    wait_text(page, r"^Next: Tap the 5 face-down bank cards \(0 of 5\)$")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm round"), "Confirm")
    screenshot(page, "phone-financial-crisis")
    bank = ["QC", "3C", "7S", "KS", "4H"]
    ann = ["AC", "5C", "JH", "8S", "9D", "10D", "JD", "6S"]
    ben = ["KC", "2S", "6H", "7H", "8H", "QS", "9S"]
    taps = 0
    left = 52
    for code in [*bank, *ann, *ben]:
        key = page.get_by_role("button", name=card_label(code), exact=True, disabled=False)
        on_screen(page, key, card_label(code))
        on_screen(page, button(page, "Confirm round"), f"Confirm, before {card_label(code)}")
        if code == ben[0]:
            hold_on_screen(page, key)  # Ben's first card, held down: it starts his pile (no "Next pile" tap)
        else:
            key.first.click()
        taps += 1
        left -= 1
        wait_text(page, rf"· {left} not entered$")
        if code in (bank[-1], ann[-1]):
            strip_on_screen(page, names)
    taps += confirm_on_screen(page, "Confirm round", names)
    assert taps == 21, "one gesture a card (the 5 bank cards and 15 pile cards), one to confirm"
    wait_text(page, r"^Enter round 2 of 2$")
    wait_text(page, r"^1\. Ann: 7 points \(last round \+7\)")
    wait_text(page, r"^2\. Ben: 2 points \(last round \+2\)")
    strip_on_screen(page, names)
    on_screen(page, button(page, "Confirm round"), "Confirm after a round")
    on_screen(page, button(page, card_label("AS")), "the first card of the next round")


# --- helpers of the Financial Crisis, Feast and Famine and 1111-9999 tests ------------------------------------------


def hold_on_screen(page: Any, locator: Any) -> None:
    """Hold a key down where it is (a long press), without scrolling to it."""
    box = box_of(locator.first)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(900)
    page.mouse.up()


def confirm_on_screen(page: Any, label: str, names: list[str] | None = None) -> int:
    """Tap the enabled Confirm (``label``) once it and, with ``names``, the standings strip are on screen; the
    taps it took (1)."""
    confirm = page.get_by_role("button", name=label, exact=True, disabled=False)
    on_screen(page, confirm, "Confirm, enabled")
    if names is not None:
        strip_on_screen(page, names)
    confirm.first.click()
    return 1


def test_bargain_bin_is_laid_out_again_when_the_phone_turns(page: Any, app_server: AppServer) -> None:
    """A phone turned mid-hand: on a short screen the line of card points so far is left out (the receivers say the
    points); turned to a tall one, the line comes back at once, with the points as they are, without another tap.
    Flet's client tells the server the page's new size, then sends its resize event."""
    page.set_viewport_size({"width": 390, "height": 640})
    names = ["Ann", "Ben", "Cat", "Dan"]
    start(page, "Bargain Bin", names)
    wait_text(page, "^Next: Ann plays: who gets the card")
    page.get_by_role("button", name=re.compile(r"^To Ben \(")).first.click()
    wait_text(page, r"^Next: Ann plays to Ben: which card\?$")
    button(page, "K♠♣").click()
    wait_text(page, "^Next: Ben plays: who gets the card")
    assert page.get_by_text(re.compile("^Card points so far")).count() == 0, "a short screen leaves the line out"
    page.set_viewport_size(PHONE)
    wait_text(page, r"^Card points so far: Ann 0, Ben -?\d+, Cat 0, Dan 0$")
