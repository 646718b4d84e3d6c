"""A whole game of Jokers Kill through the UI only, in Chromium.

New game → seat Ann, Ben, Cat (typed on the spot, one moved with the arrows) → house rules left at their defaults →
twelve hands through the card picker (a tie-break in hand 3), hand 1 entered wrong and corrected from the hand
list, undo and redo, the server stopped and started again with a hand half entered (it is still there) → the main
game ends tied → the guided play-off → the winners screen. The standings on screen must equal
``python -m scoring score`` run on the saved record.
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
    enter_jk_hand,
    open_app,
    reveal,
    score_saved,
    screenshot,
    seat,
    session_id_of,
    show_board,
    tap,
    tap_card,
    wait_listed,
    wait_text,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cat"]
SMALL_PHONE = {"width": 360, "height": 740}
# (up-card, Ann, Ben, Cat, tie-break cards in the order the app asks for them)
HANDS: list[tuple[str, str, str, str, tuple[str, ...]]] = [
    ("9S", "4H", "7D", "QC", ()),  # Ann lowest, below the up-card: 2
    ("9H", "7C", "4D", "QD", ()),  # Ben 2
    ("8S", "8H", "8D", "2C", ("QH", "3D")),  # Ann and Ben match: tie-break, Ben's 3 wins 3
    ("10S", "10H", "5C", "KC", ()),  # Ann matches: 3
    ("6S", "2S", "9D", "JD", ()),  # Ann 2
    ("6H", "9C", "2H", "JC", ()),  # Ben 2
    ("KS", "AS", "QS", "10D", ()),  # Ann's Ace is lowest: 2
    ("7S", "10C", "7H", "AH", ()),  # Ben matches: 3 (Cat's Ace does not matter)
    ("3S", "5S", "6D", "AD", ()),  # Cat 2
    ("4S", "6C", "5H", "AC", ()),  # Cat 2
    ("8C", "JS", "JH", "3H", ()),  # Cat 2, with J♠ and J♥ (+2 at the end)
    ("2D", "3C", "4C", "5D", ()),  # Ann's 3 is lowest but above the 2: 1 point; 2 cards are left: the game ends
]
PLAYOFF = [("9S", "4H", "7D"), ("9S", "3H", "8D"), ("9S", "2H", "8C")]  # a fresh deck each hand: Ann wins all


def standing(page: Any, name: str, total: int) -> None:
    """Wait until the standings say ``name`` has ``total`` points."""
    wait_text(page, rf"^\d+\. {re.escape(name)}: {total} points?\b")


def hand_count(page: Any, n: int) -> None:
    wait_listed(page, rf"^Hand {n}:")


def set_up_game(page: Any) -> None:
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^Jokers Kill")).click()
    seat(page, ["Ann", "Cat", "Ben"])
    assert button(page, "Start game").is_enabled()
    tap(page, "Move Ben up")  # clockwise: Ann, Ben, Cat
    wait_text(page, r"^Seat 2: Ben$")
    wait_text(page, r"^Seat 3: Cat$")
    reveal(page, page.get_by_text("All house rules at their defaults.", exact=True))
    screenshot(page, "jk-new-game-phone")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    wait_text(page, "^Next: Turn the up-card$")


def test_a_whole_game_with_tie_break_correction_restart_and_play_off(page: Any, app_server: AppServer) -> None:
    set_up_game(page)
    sid = session_id_of(page)
    for name in PLAYERS:
        standing(page, name, 0)
    show_board(page)  # the game's lines under its scoreboard
    wait_text(page, "Cards left: 52 · Hands left: 13")

    # Hand 1 entered wrong (Ann's and Ben's cards swapped), then corrected from the hand list.
    up, ann, ben, cat, _ = HANDS[0]
    taps = enter_jk_hand(page, up, [ben, ann, cat])
    assert taps == 5, "a 3-player hand is one tap per card plus one to confirm"
    standing(page, "Ben", 2)
    reveal(page, page.get_by_role("button", name=re.compile(r"^Hand 1:")), on_board=True).first.click()
    page.wait_for_url(re.compile(r"/hand-1$"))
    tap(page, "Ann: 7♦")  # clear Ann's card
    tap(page, "Ben: 4♥")  # and Ben's: both can be dealt again
    tap_card(page, ann)
    tap_card(page, ben)
    tap(page, "Confirm hand")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    standing(page, "Ann", 2)
    standing(page, "Ben", 0)

    # Hand 2, then hand 3 with its tie-break: the tie-break deal appears only when the tie needs it.
    up, ann, ben, cat, _ = HANDS[1]
    enter_jk_hand(page, up, [ann, ben, cat])
    hand_count(page, 2)
    up, ann, ben, cat, tiebreak = HANDS[2]
    for code in (up, ann, ben, cat):
        tap_card(page, code)
    wait_text(page, "^Next: Tie-break: deal a card to Ann$")
    screenshot(page, "jk-tie-break-phone")
    for code in tiebreak:
        tap_card(page, code)
    wait_text(page, "^Next: Ben wins 3 points: confirm the hand$")
    tap(page, "Confirm hand")
    hand_count(page, 3)
    standing(page, "Ben", 5)
    assert reveal(page, button(page, "8♥")).is_disabled(), "a card used in an earlier hand is greyed out"

    # Undo takes hand 3 back, redo brings it again.
    page.get_by_role("button", name="Undo").click()
    standing(page, "Ben", 2)
    page.get_by_role("button", name="Redo").click()
    standing(page, "Ben", 5)

    for up, ann, ben, cat, tiebreak in HANDS[3:6]:
        enter_jk_hand(page, up, [ann, ben, cat], tiebreak)
    hand_count(page, 6)
    standing(page, "Ann", 7)

    # Stop the server mid-game, with hand 7 half entered; start it again: the six hands and the half-entered one
    # are all there, and the hand goes on from Ben's card.
    up, ann, ben, cat, _ = HANDS[6]
    tap_card(page, up)
    tap_card(page, ann)
    wait_text(page, "^Next: Ben's card$")
    app_server.restart()
    open_app(page, app_server, f"/continue/{sid}")
    standing(page, "Ann", 7)
    standing(page, "Ben", 7)
    hand_count(page, 6)
    wait_text(page, "^Next: Ben's card$")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    screenshot(page, "jk-table-desktop")
    page.set_viewport_size(SMALL_PHONE)
    card = reveal(page, button(page, "A♠"))
    card.scroll_into_view_if_needed()
    box = box_of(card)
    assert box["height"] >= 48 and box["x"] + box["width"] <= 360, "cards fit a 360 px phone"
    screenshot(page, "jk-table-phone")
    page.set_viewport_size(PHONE)

    tap_card(page, ben)
    tap_card(page, cat)
    tap(page, "Confirm hand")
    hand_count(page, 7)
    for up, ann, ben, cat, tiebreak in HANDS[7:]:
        enter_jk_hand(page, up, [ann, ben, cat], tiebreak)
    hand_count(page, 12)
    expected = score_saved(app_server, sid, page)
    assert expected["pending"] == {"kind": "playoff", "players": ["Ann", "Ben"]}
    for name in PLAYERS:
        standing(page, name, expected["totals"][name])
    wait_text(page, "^Play-off: Ann and Ben$")
    screenshot(page, "jk-play-off-phone")

    # The guided play-off: only Ann and Ben get cards, from a fresh deck.
    for up, ann, ben in PLAYOFF:
        # each play-off hand has a fresh deck: cards of the main game (and of the last play-off hand) are back
        reveal(page, page.get_by_role("button", name=card_label(up), exact=True, disabled=False)).wait_for()
        enter_jk_hand(page, up, [ann, ben])
    wait_text(page, "^Ann wins the game$")
    wait_text(page, r"^Ann wins the play-off, first to win 3 play-off hands")  # the verdict's headline
    wait_text(page, r"^Ann wins the play-off against Ben, 3 play-off hands to \d+, .*\(rule 9, JK-12\)\.$")
    screenshot(page, "jk-winner-phone")

    final = score_saved(app_server, sid, page)
    assert final["finished"] and final["winners"] == ["Ann"]
    for name in PLAYERS:
        standing(page, name, final["totals"][name])
    assert final["totals"] == {"Ann": 10, "Ben": 10, "Cat": 8}
