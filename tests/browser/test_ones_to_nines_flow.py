"""A whole game of 1111-9999 through the UI only, in Chromium, decided by sudden death.

New game → seat Ann and Ben, sides chosen (Ben moved to side A and back to B) → house rule: target 40 → one hand
on the digit pad (the table row once, each player's number; a digit the deck has no more of is greyed out; each
player's target and best arrangement shown) → both reach 40 on equal totals → sudden death, tied once, then Ben
wins → sudden-death hand 2 corrected from the hand list → Ann wins. The standings on screen must equal
``python -m scoring score`` run on the saved record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    AppServer,
    button,
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


def field(page: Any, pattern: str) -> None:
    """Wait for the row (table row or a player's number) whose text matches ``pattern``."""
    page.get_by_role("button", name=re.compile(pattern)).first.wait_for()


def type_number(page: Any, digits: str, row: str, shown: str | None = None) -> int:
    """Tap ``digits`` on the pad and wait until ``row`` (the start of its text) shows them (or ``shown``); returns
    the taps."""
    for digit in digits:
        tap(page, digit)
    field(page, rf"^{re.escape(row)}.*: {' '.join(shown or digits)}$")
    return len(digits)


def test_a_whole_game_with_sudden_death(page: Any, app_server: AppServer) -> None:
    try:
        play_a_whole_game(page, app_server)
    except Exception:
        page.screenshot(path=str(app_server.log_dir / "failure.png"))
        raise


def play_a_whole_game(page: Any, app_server: AppServer) -> None:
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(r"^1111-9999")).click()
    seat(page, ["Ann", "Ben"])
    # Sides at set-up: the first half of the seats on side A, the rest on side B; a tap moves a player.
    button(page, "Ann: side A").wait_for()
    tap(page, "Ben: side B")
    tap(page, "Ben: side A")
    button(page, "Ben: side B").wait_for()
    type_until(page, "Target total", "40", "^House rules changed: Target total 40")
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    sid = page.url.rsplit("/", 1)[1]
    wait_text(page, r"^Next: Typing the table row$")

    # One hand: the table row once (as side A reads it), then each number; targets shown as each player reads it.
    taps = type_number(page, "4239", "Table row")
    field(page, r"^Ann \(A\) · target 4239: _ _ _ _$")
    field(page, r"^Ben \(B\) · target 9324: _ _ _ _$")
    taps += type_number(page, "4199", "Ann")
    tap(page, "9")
    taps += 1
    field(page, r"^Ben .*: 9 _ _ _$")
    assert button(page, "9").is_disabled(), "all four 9s are out: the 9 key is greyed out"
    assert button(page, "4").is_enabled()
    taps += type_number(page, "364", "Ben", shown="9364")
    wait_text(page, r"^Ann \(side A, target 4239\): 4199, gap 40, the best arrangement$")
    wait_text(page, r"^Ben \(side B, target 9324\): 9364, gap 40; best 9346, gap 22$")
    screenshot(page, "entry-1111-9999")
    tap(page, "Confirm hand")
    taps += 1
    assert taps == 13, "a 2-player hand: 4 table digits, 4 per player, 1 to confirm"
    standing(page, "Ann", 40)
    standing(page, "Ben", 40)
    wait_text(page, r"^Sudden death: Ann and Ben$")

    # Sudden death, guided: three digits, only the tied players; a tie plays again.
    wait_text(page, r"^Sudden death 1: Ann and Ben\. Three table cards")
    type_number(page, "123", "Table row")
    field(page, r"^Ben \(B\) · target 321: _ _ _$")
    type_number(page, "124", "Ann")
    type_number(page, "322", "Ben")
    tap(page, "Confirm sudden-death hand")
    wait_text(page, r"^Sudden death 2: Ann and Ben")
    type_number(page, "518", "Table row")
    type_number(page, "629", "Ann")
    type_number(page, "741", "Ben")
    wait_text(page, r"^Ben \(side B, target 815\): 741, gap 74")
    tap(page, "Confirm sudden-death hand")
    wait_text(page, "^Ben wins the game$")
    wait_text(page, r"Sudden death 1: Ann 1, Ben 1 \(Ann and Ben tie for the lowest sudden-death score")
    wait_text(page, r"Sudden death 2: Ann 111, Ben 74 \(Ben has the lowest sudden-death score, 74, and wins")

    decided = score_saved(app_server, sid, page)
    assert decided["finished"] and decided["winners"] == ["Ben"]
    assert decided["sudden_death"] == [{"Ann": 1, "Ben": 1}, {"Ann": 111, "Ben": 74}]

    # Ann's number in sudden-death hand 2 was 519, not 629: corrected from the hand list (the hand opens as
    # entered), the game is re-derived and Ann wins.
    open_correction(page, "Sudden-death hand 2: Ann 111, Ben 74", "sudden-death-2")
    wait_text(page, r"^Correct sudden-death hand 2: Ann and Ben\. Three table cards")
    field(page, r"^Table row \(A\): 5 1 8$")
    field(page, r"^Ben \(B\) · target 815: 7 4 1$")
    page.get_by_role("button", name=re.compile(r"^Ann \(A\) · target 518: 6 2 9$")).first.click()
    for _ in range(3):
        tap(page, "Delete digit")
    field(page, r"^Ann \(A\) · target 518: _ _ _$")
    type_number(page, "519", "Ann")
    wait_text(page, r"^Ann \(side A, target 518\): 519, gap 1")
    tap(page, "Confirm sudden-death hand")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    wait_text(page, "^Ann wins the game$")
    reveal(page, page.get_by_role("button", name=re.compile(r"^Sudden-death hand 2: Ann 1, Ben 74\."))).first.wait_for()

    final = score_saved(app_server, sid, page)
    assert final["finished"] and final["winners"] == ["Ann"]
    assert final["sudden_death"] == [{"Ann": 1, "Ben": 1}, {"Ann": 1, "Ben": 74}]
    assert final["record"]["sudden_death"][1] == {"table": "518", "numbers": {"Ann": "519", "Ben": "741"}}
    for name in ("Ann", "Ben"):
        standing(page, name, final["totals"][name])
    assert final["totals"] == {"Ann": 40, "Ben": 40}
