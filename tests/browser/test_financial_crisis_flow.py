"""A whole game of Financial Crisis through the UI only, in Chromium.

New game → seat Ann and Ben → house rule: 2 rounds → round 1 with a 2♣ 2♠ 1♥ bank (♠ loses: clubs are set aside
first, BK-12 P11), the bank and both piles through the card picker, a card taken out and entered again, the
breakdown checked on screen → round 1 corrected from the hand list → round 2, where the table overrides the bank's
reading → the winners screen. The standings on screen must equal ``python -m scoring score`` run on the saved
record. (Piles are small: the rules do not check pile sizes.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    DESKTOP,
    PHONE,
    AppServer,
    box_of,
    button,
    card_label,
    fill,
    reveal,
    score_saved,
    screenshot,
    seat,
    show_board,
    tap,
    wait_shown,
    wait_text,
)

pytestmark = pytest.mark.browser

# (bank, Ann's pile, Ben's pile)
ROUND_1 = (
    ["QC", "3C", "7S", "KS", "4H"],  # 2♣ 2♠ 1♥: ♠ loses; Q♣ and K♠ are ranked: valuable
    ["AC", "5C", "JH", "8S", "9D", "10D", "JD", "6S"],  # clubs +3, J♥ J♦ +6, 8♠ 6♠ −2: 7
    ["KC", "2S", "6H", "7H", "8H", "QS", "9S"],  # K♣ +2, 2♠ 9♠ −2, 6♥ 7♥ 8♥ +1, the biggest rest (4) +1: 2
)
ROUND_2 = (
    ["2D", "5D", "9H", "3S", "6C"],  # 1♣ 2♦ 1♥ 1♠: ♦ loses, nothing ranked; the table says ♥ loses instead
    ["4C", "8D", "KH"],
    ["2C", "QD", "10H"],
)


def wait_row(page: Any, pattern: str) -> Any:
    """The hand list's row labelled to match ``pattern``, once it is there (on a phone, on the scoreboard)."""
    show_board(page)
    return wait_shown(page, page.get_by_role("button", name=re.compile(pattern))).first


def not_entered(page: Any, count: int) -> None:
    """Wait until the round's progress line says ``count`` cards are not entered yet."""
    wait_text(page, rf"· {count} not entered$")


def enter_cards(page: Any, codes: list[str], remaining: int) -> int:
    """Tap each card on the picker (one tap a card), waiting until the app has taken it; the cards left after."""
    for code in codes:
        tap(page, card_label(code))
        remaining -= 1
        not_entered(page, remaining)
    return remaining


def hold_card(page: Any, code: str) -> None:
    """Hold a card down on the picker (a long press): it starts the next pile."""
    found = reveal(page, button(page, card_label(code)))
    box = box_of(found)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(900)
    page.mouse.up()


def standing(page: Any, name: str, total: int) -> None:
    wait_text(page, rf"^\d+\. {re.escape(name)}: {total} points")


def set_up_game(page: Any) -> str:
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^Financial Crisis")).click()
    seat(page, ["Ann", "Ben"])
    fill(page, "Number of rounds", "2", r"^House rules changed: .*Number of rounds 2\.$")  # typed until the app has it
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    wait_text(page, r"^Next: Tap the 5 face-down bank cards \(0 of 5\)$")
    match = re.search(r"/continue/([0-9a-f]+)$", page.url)
    assert match, page.url
    return match.group(1)


def test_a_whole_game_with_a_two_two_one_bank_and_an_override(page: Any, app_server: AppServer) -> None:
    sid = set_up_game(page)
    wait_text(page, r"^Enter round 1 of 2$")

    # Round 1: the bank 2♣ 2♠ 1♥. Clubs are set aside first, so ♠ shows the most and loses.
    bank, ann, ben = ROUND_1
    taps = 0
    remaining = enter_cards(page, bank, 52)
    taps += len(bank)
    wait_text(page, r"^Loses: ♠$")
    wait_text(page, re.escape("2♣ 2♠ 1♥: clubs are set aside first; ♠ shows the most, ♠ loses (BK-12)."))
    wait_text(page, r"^Ranked cards: valuable$")
    wait_text(page, re.escape("Q♣ and K♠ are ranked: ranked cards are valuable (BK-13)."))
    assert reveal(page, button(page, "Q♣")).is_disabled(), "a bank card cannot be entered again"

    # The bank is full: cards now go to Ann's pile.
    wait_text(page, r"^Next: Tap each card of Ann's pile \(0 so far\); hold down the first card of Ben's pile$")
    remaining = enter_cards(page, ann[:3], remaining)
    page.set_viewport_size({"width": 360, "height": 780})  # the narrowest phone the app is laid out for
    page.mouse.wheel(0, -5000)
    page.mouse.move(359, 779)
    page.wait_for_timeout(1500)
    screenshot(page, "entry-financial-crisis-phone")
    page.set_viewport_size(PHONE)
    remaining = enter_cards(page, ann[3:], remaining)
    taps += len(ann)
    # A card of the pile being entered is taken out with a tap, and tapped in again.
    tap(page, card_label("JD"))
    remaining += 1
    not_entered(page, remaining)
    remaining = enter_cards(page, ["JD"], remaining)

    hold_card(page, ben[0])  # Ben's first card, held down: it starts his pile
    remaining -= 1
    not_entered(page, remaining)
    wait_text(page, r"^Next: Tap each card of Ben's pile \(1 so far\)$")
    in_ann_pile = reveal(page, button(page, "J♦"))
    assert in_ann_pile.is_disabled(), "a card in Ann's pile is greyed out while Ben's pile is entered"
    remaining = enter_cards(page, ben[1:], remaining)
    taps += len(ben)

    # The breakdown per player, with the straight drawn as a group and the most-rest point.
    wait_text(page, r"^Ann: 7 points this round$")
    wait_text(page, r"^Clubs \+3: A♣ 5♣$")
    wait_text(page, r"^Ranked \+6: J♥ J♦$")
    wait_text(page, r"^Losses −2: 8♠ 6♠$")
    wait_text(page, r"^Ben: 2 points this round$")
    wait_text(page, r"^Straights \+1: 6♥ 7♥ 8♥$")
    wait_text(page, r"^Rest \(4 cards\), besides the straights: Q♠$")
    wait_text(page, r"^Rest \(2 cards\): 9♦ 10♦$")
    page.set_viewport_size({"width": DESKTOP["width"], "height": 1560})  # tall enough for the whole entry panel
    page.mouse.wheel(0, -5000)
    page.mouse.move(DESKTOP["width"] - 1, 1559)  # no tooltip of the last card tapped
    page.wait_for_timeout(1500)
    screenshot(page, "entry-financial-crisis")
    page.set_viewport_size(PHONE)

    tap(page, "Confirm round")
    taps += 1
    assert taps == len(bank) + len(ann) + len(ben) + 1, "one tap a card (Ben's first held down), one to confirm"
    wait_text(page, r"^Enter round 2 of 2$")
    standing(page, "Ann", 7)
    standing(page, "Ben", 2)
    # A correction from the hand list: 6♠ was not in Ann's pile after all.
    wait_row(page, r"^Round 1: Ann \+7, Ben \+2").click()
    page.wait_for_url(re.compile(r"/hand-1$"))
    wait_text(page, r"^Correct round 1 of 2$")
    wait_text(page, r"^Next: Tap each card of Ann's pile \(8 so far\); hold down the first card of Ben's pile$")
    tap(page, card_label("6S"))
    not_entered(page, 33)
    wait_text(page, r"^Ann: 8 points this round$")
    tap(page, "Confirm round")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    standing(page, "Ann", 8)
    wait_text(page, r"^Enter round 2 of 2$")

    # Round 2: the bank says ♦ loses; the table reads it otherwise: ♥ loses, ♦ is safe.
    bank, ann, ben = ROUND_2
    remaining = enter_cards(page, bank, 52)
    wait_text(page, r"^Loses: ♦$")
    wait_text(page, r"^Ranked cards: not valuable$")
    tap(page, "♦ loses")
    wait_text(page, r"^Loses: no suit$")
    tap(page, "♥ safe")
    wait_text(page, r"^Loses: ♥$")
    wait_text(page, r"^The table's reading$")
    remaining = enter_cards(page, ann, remaining)
    tap(page, "Next: Ben's pile")  # the button still moves on, for a table that prefers it
    remaining = enter_cards(page, ben, remaining)
    tap(page, "Confirm round")

    wait_text(page, r"wins? the game$")
    final = score_saved(app_server, sid, page)
    assert final["finished"]
    assert final["record"]["hands"][0]["bank"] == ROUND_1[0]
    assert final["record"]["hands"][1]["override"] == {"loss_suits": ["H"]}
    assert final["hands"][0]["loss_suits"] == ["S"]
    assert final["hands"][1]["loss_suits"] == ["H"]
    for name in ("Ann", "Ben"):
        standing(page, name, final["totals"][name])
    assert final["hands"][0]["points"] == {"Ann": 8, "Ben": 2}
    assert "6S" not in final["record"]["hands"][0]["piles"]["Ann"]
