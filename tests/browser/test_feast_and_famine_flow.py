"""A whole game of Feast and Famine through the UI only, in Chromium, ending in a Ghost round.

New game → seat Ann and Ben → house rule: 1 circuit (so 2 rounds) → round 1 walked with the dealer assistant
(Ben's opening Joker put aside and replaced, a Take is the card turned, Refuse, Ann knocked out by a Joker) →
round 2 with the quick form → the totals tie → the guided tie-break round against a dummy Ghost seat, which opens in
the quick form the table chose last (walked instead) → Ben wins → the Ghost round corrected
from the hand list → Ann wins. The standings on screen must equal ``python -m scoring score`` run on the saved
record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    DESKTOP,
    PHONE,
    AppServer,
    button,
    card_label,
    open_correction,
    reveal,
    score_saved,
    screenshot,
    seat,
    tap,
    type_until,
    wait_text,
)

pytestmark = pytest.mark.browser


def standing(page: Any, name: str, total: int) -> None:
    wait_text(page, rf"^\d+\. {re.escape(name)}: {total} points")


def step(page: Any, name: str, then: str) -> None:
    """Tap the button ``name`` (a card code or a label) and wait for the prompt ``then``."""
    label = card_label(name) if re.fullmatch(r"(10|[2-9AJQK])[SHDC]|JK", name) else name
    tap(page, label)
    wait_text(page, rf"^Next: {re.escape(then)}")


def decide(name: str) -> str:
    """The prompt while ``name`` Takes (by tapping the card turned) or Refuses."""
    return f"{name}: Take (tap the card turned) or Refuse?"


def test_a_whole_game_with_a_ghost_round(page: Any, app_server: AppServer) -> None:
    try:
        play_a_whole_game(page, app_server)
    except Exception:
        page.screenshot(path=str(app_server.log_dir / "failure.png"))
        raise


def play_a_whole_game(page: Any, app_server: AppServer) -> None:
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^Feast and Famine")).click()
    seat(page, ["Ann", "Ben"])
    type_until(page, "Circuits", "1", "^House rules changed: Circuits 1")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    sid = page.url.rsplit("/", 1)[1]
    wait_text(page, r"^Round 1 of 2 · circuit 1 of 1 · the table chooses the dealer")

    # Round 1, walked: Ann deals, so Ben is offered cards first and Ann acts last.
    taps = 0
    for name, then in [
        ("Dealer: Ann", "Deal Ben's opening card"),
        ("JK", "Deal Ben's opening card"),  # a Joker in the opening deal is put aside and replaced
        ("7C", "Deal Ann's opening card"),
        ("5H", decide("Ben")),
    ]:
        step(page, name, then)
        taps += 1
    wait_text(page, r"^Jokers put aside in the opening deal: 1")
    wait_text(page, r"^Chance the next card is a Joker: 1 in 26 \(3\.8%\)$")  # 2 Jokers among 52 cards
    assert page.get_by_role("button", name="Take", exact=True).count() == 0, "the card turned is the Take"
    assert reveal(page, button(page, "7♣")).is_disabled(), "a card on the table is greyed out"
    assert button(page, "Q♥").is_enabled()
    screenshot(page, "entry-feast-and-famine")
    for name, then in [
        ("3S", decide("Ann")),  # Ben Takes: 3♠ is turned for him
        ("8D", decide("Ben")),  # Ann Takes 8♦
        ("Refuse", decide("Ann")),
        ("JK", "A Joker: everyone not Frozen is Knocked Out"),  # Ann Takes, and a Joker is turned
    ]:
        step(page, name, then)
        taps += 1
    wait_text(page, r"^Ben: 7♣ 3♠ = 10 · Frozen$")
    wait_text(page, r"^Ann: 5♥ 8♦ = 13 · Knocked Out$")
    tap(page, "Confirm round")
    taps += 1
    standing(page, "Ben", 10)
    standing(page, "Ann", 0)
    assert taps == 9, "one tap a card dealt (4 with the Joker put aside, 3 turned for Takes), a Refusal, Confirm"

    # Round 2 with the quick form: the rotation names Ben as dealer.
    wait_text(page, r"^Round 2 of 2 · circuit 1 of 1 · Ben deals")
    wait_text(page, r"^Dealer: Ben")
    tap(page, "Quick form")
    field = page.get_by_label("Ann's total", exact=True)
    field.click()
    page.wait_for_timeout(300)
    field.fill("10")
    tap(page, "Ben out")
    page.wait_for_function(
        """() => [...document.querySelectorAll('input')].some(e => e.disabled)"""
    )  # Ben's total is greyed out
    tap(page, "Confirm round")
    standing(page, "Ann", 10)
    standing(page, "Ben", 10)

    # The tie: a tie-break round against a dummy Ghost seat (nobody else is seated, FF-10). It opens in the quick
    # form that the table chose for round 2; this table walks it.
    wait_text(page, r"^Tie-break: Ann and Ben$")
    wait_text(page, r"^Nobody else is seated: a dummy Ghost seat deals")
    page.get_by_label("Ann's total", exact=True).wait_for()
    tap(page, "Walk the round")
    for name, then in [
        ("9S", "Deal Ben's opening card"),
        ("4H", "Deal the Ghost's opening card"),
        ("2C", decide("Ann")),
        ("Refuse", decide("Ben")),
        ("6D", "The Ghost always Takes: turn its card"),  # Ben Takes 6♦
        ("KC", decide("Ben")),
        ("Refuse", "Everyone is Frozen"),
    ]:
        step(page, name, then)
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    screenshot(page, "entry-feast-and-famine-desktop")
    page.set_viewport_size(PHONE)
    tap(page, "Confirm round")
    wait_text(page, "^Ben wins the game$")
    wait_text(page, r"Tie-break round: Ann 9, Ben 10 \(Ben wins the game with the highest tie-break score")

    decided = score_saved(app_server, sid, page)
    assert decided["finished"] and decided["winners"] == ["Ben"]
    assert decided["tiebreak"] == {"Ann": 9, "Ben": 10}

    # The Ghost round was entered wrong: Ben did not Freeze on 10, he Took and turned a Joker. Corrected from the
    # hand list (the round opens walked again, as entered), the game is re-derived: Ann wins.
    open_correction(page, "Tie-break round 1: Ann 9, Ben 10", "tiebreak-1")
    wait_text(page, r"^Correct tie-break round 1: Ann and Ben against the Ghost$")
    wait_text(page, r"^Ben: 4♥ 6♦ = 10 · Frozen$")
    wait_text(page, r"^Ann: 9♠ = 9 · Frozen$")
    step(page, "Undo last tap", decide("Ben"))
    step(page, "JK", "A Joker: everyone not Frozen is Knocked Out")  # Ben Takes, and a Joker is turned
    wait_text(page, r"^Ben: 4♥ 6♦ = 10 · Knocked Out$")
    tap(page, "Confirm round")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    wait_text(page, "^Ann wins the game$")
    reveal(page, page.get_by_role("button", name=re.compile(r"^Tie-break round 1: Ann 9, Ben 0\."))).first.wait_for()

    final = score_saved(app_server, sid, page)
    assert final["finished"] and final["winners"] == ["Ann"]
    assert final["tiebreak"] == {"Ann": 9, "Ben": 0}
    saved = final["record"]["tiebreak"]
    rounds = saved if isinstance(saved, list) else [saved]
    assert len(rounds) == 1 and rounds[0]["status"] == {"Ann": "frozen", "Ben": "out"}
    for name in ("Ann", "Ben"):
        standing(page, name, final["totals"][name])
    assert final["totals"] == {"Ann": 10, "Ben": 10}
