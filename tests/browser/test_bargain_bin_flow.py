"""Bargain Bin through the UI only, in Chromium: a Vegas game (one hand by live play, card by card, with Selfless and
the Joker; one by the quick form) that ends with two winners splitting the pot and the settle-up; and a game
cancelled by its second removal, with the refunds. The standings on screen equal ``python -m scoring score`` run on
the saved record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.entry_bargain_bin import money
from scoring.bargain_bin import settle_up
from tests.support.browser import (
    AppServer,
    button,
    click_free,
    fill,
    quick_hand,
    reveal,
    score_saved,
    screenshot,
    seat,
    session_id_of,
    show_board,
    tap,
    type_total,
    wait_listed,
    wait_text,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]

# Hand 1, card by card. Ann, Ben, Cat, Dan play in turn (five rounds); each entry: who gets the card and the
# value-pad key (the Joker's key says its sign).
LIVE_HAND: list[tuple[str, str]] = [
    ("Ben", "K♠♣"),
    ("Ann", "K♠♣"),
    ("Ann", "Q♠♣"),
    ("Ann", "Joker +20"),
    ("Cat", "2♥♦"),
    ("Dan", "3♥♦"),
    ("Dan", "4♥♦"),
    ("Ben", "Q♠♣"),
    ("Dan", "5♥♦"),
    ("Cat", "6♥♦"),
    ("Ben", "A♠♣"),
    ("Cat", "7♥♦"),
    ("Cat", "8♥♦"),
    ("Dan", "9♥♦"),
    ("Dan", "10♥♦"),
    ("Cat", "J♥♦"),
    ("Dan", "2♠♣"),
    ("Cat", "3♠♣"),
    ("Ann", "4♠♣"),
    ("Ben", "5♠♣"),
]


def standing(page: Any, name: str, total: int) -> None:
    wait_text(page, rf"^\d+\. {re.escape(name)}: {total} points?\b")


SWITCH_ON = """(name) => [...document.querySelectorAll('flt-semantics[role=switch]')].some(
    e => e.getAttribute('aria-label') === name && e.getAttribute('aria-checked') === 'true')"""


def set_up(
    page: Any, *, target: str | None, vegas: tuple[str, str], selfless: bool = False, joker: bool = False
) -> str:
    """New game → Bargain Bin → seat the four players → house rules → start; returns the session id. ``vegas`` is
    the stake as typed and as the app says it stored it (``("0.10", "$0.10")``, ``("5¢", "$0.05")``)."""
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^Bargain Bin")).click()
    seat(page, PLAYERS)
    page.mouse.wheel(0, 900)  # the house rules are below the seats
    for on, label in (
        (selfless, "Selfless: never play a card in front of yourself"),
        (joker, "Add one Joker worth plus or minus 20"),
    ):
        if on:
            click_free(page, page.get_by_role("switch", name=label))
            page.wait_for_function(SWITCH_ON, arg=label, timeout=5000)
    if target is not None:
        fill(page, "Game points to win", target, rf"^House rules changed: .*Game points to win {target}\b")
    typed, stored = vegas
    fill(page, "Vegas Rules stake per point", typed, rf"^Stored as {re.escape(stored)} a point$")
    wait_text(page, rf"^House rules changed: .*Vegas Rules stake per point {re.escape(stored)}\.$")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    wait_text(page, r"^Hand 1$")
    return session_id_of(page)


def receiver(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^To {re.escape(name)} \("))


def give_conduct(page: Any, name: str, action: str, says: str) -> None:
    tap(page, "Warn or remove a player")
    tap(page, f"{action} {name}")
    wait_text(page, says)
    tap(page, f"Confirm: {action.lower()} {name}")
    button(page, f"Take back: {name} {'warned' if action == 'Warn' else 'removed'}").wait_for()


def check_standings(page: Any, expected: dict[str, Any]) -> None:
    for name in PLAYERS:
        standing(page, name, expected["totals"][name])


def test_vegas_game_live_play_quick_form_payouts_and_settle_up(page: Any, app_server: AppServer) -> None:
    sid = set_up(page, target="2", vegas=("0.10", "$0.10"), selfless=True, joker=True)
    wait_text(page, "^Next: Ann plays: who gets the card\\?$")
    assert reveal(page, receiver(page, "Ann")).is_disabled(), "Selfless: the player playing cannot be chosen"
    show_board(page)  # the game's lines under its scoreboard
    wait_text(page, r"^Pot: \$0\.00")

    taps = 0
    order = PLAYERS * 5
    for i, (to, key) in enumerate(LIVE_HAND):
        giver = order[i]
        if i < len(PLAYERS):  # once per player: Selfless greys out the player playing
            assert reveal(page, receiver(page, giver)).is_disabled()
        reveal(page, receiver(page, to)).click()
        if i in (0, 4):
            wait_text(page, rf"^Next: {giver} plays to {to}: which card\?$")
        if i == 4:  # the pad's veil is down: the keys whose cards are all played stay greyed out, the others not
            expect(button(page, key)).to_be_enabled()
            expect(button(page, "K♠♣"), "both black Kings are played").to_be_disabled()
            expect(button(page, "Joker +20"), "one Joker a hand").to_be_disabled()
            expect(button(page, "Joker −20")).to_be_disabled()
        tap(page, key)  # the pad is greyed out until the receiver is chosen: the tap waits for it
        taps += 2
        if i == 3:
            wait_text(page, "^Card points so far: Ann 44, Ben 12, Cat 0, Dan 0$")
            screenshot(page, "entry-bargain-bin")
        nxt = "Every card is played: confirm the hand" if i == len(LIVE_HAND) - 1 else f"{order[i + 1]} plays: who"
        wait_text(page, f"^Next: {re.escape(nxt)}")
    wait_text(page, "^Card points so far: Ann 48, Ben 30, Cat -31, Dan -29$")
    wait_text(page, r"Vegas \(\$0\.10 a point\): as it stands, this hand Ann \$0\.00, Ben \$1\.80, Cat \$7\.90")
    tap(page, "Confirm hand")
    taps += 1
    assert taps == 41, "two taps a card (who gets it, its value; the Joker's key says its sign), one to confirm"
    wait_listed(page, r"^Hand 1:")
    after_one = score_saved(app_server, sid, page)
    assert after_one["hands"][0]["card_points"] == {"Ann": 48, "Ben": 30, "Cat": -31, "Dan": -29}
    check_standings(page, after_one)
    show_board(page)  # the game's lines under its scoreboard
    wait_text(page, r"^Pot: \$17\.40 · Last hand paid: Ben \$1\.80, Cat \$7\.90, Dan \$7\.70$")

    # Hand 2 by the quick form: a wrong total is named and nothing typed is lost.
    tap(page, "Quick totals")
    for name, value in (("Ann", "10"), ("Ben", "5"), ("Cat", "4x")):
        type_total(page, name, value)
    wait_text(page, "Still needed: Cat's card points '4x' is not a whole number.$")
    assert reveal(page, button(page, "Confirm hand")).is_disabled()
    type_total(page, "Cat", "-4")
    type_total(page, "Dan", "3")
    wait_text(page, "Ready: confirm the hand.$")
    wait_text(page, r"Pot after this hand: \$20\.00\.$")
    tap(page, "Confirm hand")

    # Ann and Ben reach 2 game points in the same hand: both win and split the pot.
    wait_text(page, "^Ann and Ben win the game$")
    wait_text(page, r"^Ann and Ben win: both reached the target of 2 game points in the same hand\.$")  # the verdict
    final = score_saved(app_server, sid, page)
    assert final["finished"] and final["winners"] == ["Ann", "Ben"]
    check_standings(page, final)
    assert final["pot"] == 2000 and final["payouts"] == {"Ann": 1000, "Ben": 1000, "Cat": 0, "Dan": 0}
    wait_text(page, r"^The pot of \$20\.00 is paid out: Ann \$10\.00, Ben \$10\.00$")
    for name in PLAYERS:
        paid, net = money(final["payments"][name]), money(final["net"][name])
        wait_text(page, rf"^{name}: paid {re.escape(paid)}, takes .*, net {re.escape(net)}$")
    button(page, "Home").wait_for()
    page.get_by_text("Settle up", exact=True).first.scroll_into_view_if_needed()
    moves = settle_up(final["net"])
    assert len(moves) <= 3
    for payer, payee, cents in moves:
        wait_text(page, rf"^{payer} pays {payee} {re.escape(money(cents))}$")
    screenshot(page, "bargain-bin-settle-up")


def test_cancelled_by_the_second_removal_with_refunds(page: Any, app_server: AppServer) -> None:
    sid = set_up(page, target=None, vegas=("5¢", "$0.05"))

    give_conduct(
        page,
        "Ben",
        "Warn",
        r"^Warn Ben: Ben's 5 unplayed cards are discarded\. Ben plays no more .* still pays into the bin",
    )
    quick_hand(page, 1, {"Ann": "6", "Ben": "-2", "Cat": "3", "Dan": "0"})
    standing(page, "Cat", 1)

    # Hand 1 corrected from the hand list: Dan had 5, not 0; the totals follow.
    reveal(page, page.get_by_role("button", name=re.compile(r"^Hand 1:")), on_board=True).first.click()
    page.wait_for_url(re.compile(r"/hand-1$"))
    wait_text(page, "^Correct hand 1$")
    fill(page, "Dan's card points", "5", r"^Entered: .*Dan 5\.")
    tap(page, "Confirm hand")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    standing(page, "Dan", 1)
    standing(page, "Cat", 0)

    give_conduct(page, "Ben", "Remove", r"Ben was warned in hand 1: this second offence removes Ben .*removal 1 of 2 ")
    wait_text(page, "^Take back: Ben removed$")
    quick_hand(page, 2, {"Ann": "1", "Cat": "4", "Dan": "2"})  # Ben, removed in this hand, may be left out
    wait_text(page, "^Hand 3$")
    tap(page, "Live play")
    wait_text(page, "^Next: Cat plays: who gets the card")
    assert reveal(page, receiver(page, "Ben")).is_disabled(), "a removed player cannot receive cards"

    give_conduct(page, "Dan", "Remove", r"removal 2 of 2 in a game that started with 4 players: the game is cancelled")
    quick_hand(page, 3, {"Ann": "0", "Cat": "5"})
    wait_text(page, "^The game was called off$")
    # why: the verdict banner, scoring's own sentence (BB-14)
    wait_text(page, r"^The game is cancelled: Ben and Dan have been removed, 2 removals in a game of 4 players; nobody")

    final = score_saved(app_server, sid, page)
    assert final["cancelled"] and final["winners"] == [] and final["removed"] == ["Ben", "Dan"]
    check_standings(page, final)
    assert final["payouts"] == final["payments"], "everyone gets back what they paid in"
    refunds = ", ".join(f"{n} {money(c)}" for n, c in final["payouts"].items() if c)
    wait_text(page, rf"^The game is cancelled: the pot of {re.escape(money(final['pot']))} is refunded: ")
    wait_text(page, re.escape(refunds) + "$")
    wait_text(page, "^Nobody owes anybody anything.$")
