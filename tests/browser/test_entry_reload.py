"""A reload in the middle of a hand, for each game, in Chromium: the hand comes back as it was entered, the next tap
goes where the table is (the first unfinished field: issue 13's swapped 1111-9999 numbers), the hand is finished
and the standings on screen equal ``python -m scoring score`` run on the saved record. And History corrects a Feast
and Famine tie-break round with the game's own entry panel, pre-filled.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring import find_game
from storage import Archive, SessionStatus
from tests.support.browser import (
    AppServer,
    button,
    card_label,
    open_app,
    reload_app,
    reveal,
    score_saved,
    seat,
    session_id_of,
    tap,
    tap_card,
    type_until,
    wait_listed,
    wait_text,
)

pytestmark = pytest.mark.browser

# A Feast and Famine game of 2 rounds (1 circuit) ending level on 10, then a tie-break round walked against a dummy
# Ghost seat (FF-10): Ann froze on 9♠, Ben on 4♥ 6♦ = 10, so Ben won. In truth Ben Took again and turned a Joker.
FF_TIEBREAK = {
    "game": "feast-and-famine",
    "players": ["Ann", "Ben"],
    "options": {"circuits": 1},
    "hands": [
        {"dealer": "Ann", "outcome": {"Ann": "out", "Ben": 10}},
        {"dealer": "Ben", "outcome": {"Ann": 10, "Ben": "out"}},
    ],
    "tiebreak": {
        "ghost": None,
        "cards": {"Ann": ["9S"], "Ben": ["4H", "6D"]},
        "status": {"Ann": "frozen", "Ben": "frozen"},
    },
}
FF_TITLE = "Sunday feast"


@pytest.fixture
def data_dir(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    if "from_history" in request.node.name:
        with Archive(folder) as archive:
            result = find_game("feast-and-famine").score(FF_TIEBREAK)
            assert result.finished and result.winners == ["Ben"]
            archive.create_session(
                FF_TIEBREAK, status=SessionStatus.FINISHED, winners=list(result.winners), title=FF_TITLE
            )
    return folder


def start(page: Any, game: str, players: list[str], rules: Callable[[], None] | None = None) -> str:
    """New game → the game → seat ``players`` → house rules → Start game; the session id."""
    tap(page, "New game")
    page.get_by_role("button", name=re.compile(rf"^{re.escape(game)}")).click()
    seat(page, players)
    if rules is not None:
        rules()
    tap(page, "Start game")
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
    return session_id_of(page)


def standings_match_the_rules(page: Any, server: AppServer, sid: str, hands: int) -> dict[str, Any]:
    """The saved record has ``hands`` hands and every player's standing on screen is the rules engine's total."""
    wait_listed(page, rf"^(Hand|Round) {hands}:")
    scored = score_saved(server, sid, page)
    assert len(scored["record"]["hands"]) == hands
    for name, total in scored["totals"].items():
        wait_text(page, rf"^\d+\. {re.escape(name)}: {total} points?\b")
    return scored


def reload_mid_hand(page: Any) -> None:
    reload_app(page)
    page.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))


# --- one test a game -----------------------------------------------------------------------------------------------


def test_ones_to_nines_reload_after_two_numbers_types_into_the_third_players_field(
    page: Any, app_server: AppServer
) -> None:
    """Issue 13: the table row and two numbers typed, the page reloaded: the digit pad must type into the third
    player's field, not the last one's (which swapped two players' numbers)."""
    sid = start(page, "1111-9999", ["Ann", "Ben", "Cat", "Dan"])
    wait_text(page, r"^Next: Typing the table row$")
    for digit in "423977729333":
        tap(page, digit)
    row(page, "Ben", "9 3 3 3")
    wait_text(page, r"^Next: Typing Cat's number$")

    reload_mid_hand(page)
    row(page, r"Table row \(A\)", "4 2 3 9")
    row(page, "Ann", "7 7 7 2")
    row(page, "Ben", "9 3 3 3")
    wait_text(page, r"^Next: Typing Cat's number$")  # the first unfinished field, not Dan's (the last one)
    for digit in "5278":
        tap(page, digit)
    row(page, "Cat", "5 2 7 8")
    row(page, "Dan", "_ _ _ _")
    wait_text(page, r"^Next: Typing Dan's number$")
    for digit in "1156":
        tap(page, digit)
    row(page, "Dan", "1 1 5 6")
    tap(page, "Confirm hand")

    scored = standings_match_the_rules(page, app_server, sid, 1)
    assert scored["record"]["hands"][0]["numbers"] == {"Ann": "7772", "Ben": "9333", "Cat": "5278", "Dan": "1156"}


def row(page: Any, who: str, digits: str) -> None:
    """Wait for the digit-pad row (the table row or a player's number) of ``who`` showing ``digits``."""
    page.get_by_role("button", name=re.compile(rf"^{who}(?!\w).*: {digits}$")).first.wait_for()


def test_jokers_kill_reload_after_the_first_players_card(page: Any, app_server: AppServer) -> None:
    sid = start(page, "Jokers Kill", ["Ann", "Ben", "Cat"])
    wait_text(page, r"^Next: Turn the up-card$")
    tap_card(page, "9S")
    tap_card(page, "4H")
    wait_text(page, r"^Next: Ben's card$")

    reload_mid_hand(page)
    wait_text(page, r"^Next: Ben's card$")
    button(page, "Ann: 4♥").wait_for()
    assert reveal(page, button(page, card_label("4H"))).is_disabled(), "a card already dealt stays greyed out"
    tap_card(page, "7D")
    tap_card(page, "QC")
    wait_text(page, r"^Next: Ann wins 2 points: confirm the hand$")
    tap(page, "Confirm hand")

    scored = standings_match_the_rules(page, app_server, sid, 1)
    assert scored["record"]["hands"][0] == {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
    assert scored["totals"] == {"Ann": 2, "Ben": 0, "Cat": 0}


def test_bargain_bin_reload_after_two_cards(page: Any, app_server: AppServer) -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    sid = start(page, "Bargain Bin", players)
    wait_text(page, r"^Next: Ann plays: who gets the card\?$")
    for giver, to, key in (("Ann", "Ben", "K♠♣"), ("Ben", "Dan", "3♥♦")):
        reveal(page, page.get_by_role("button", name=re.compile(rf"^To {to} \("))).first.click()
        wait_text(page, rf"^Next: {giver} plays to {to}: which card\?$")
        tap(page, key)
    wait_text(page, r"^Next: Cat plays: who gets the card\?$")

    reload_mid_hand(page)
    wait_text(page, r"^Next: Cat plays: who gets the card\?$")
    wait_text(page, r"^Card points so far: Ann 0, Ben 12, Cat 0, Dan -3$")
    # the rest of the hand by the quick form (each player's card points at the end)
    tap(page, "Quick totals")
    for name, value in (("Ann", "6"), ("Ben", "14"), ("Cat", "-2"), ("Dan", "0")):
        type_until(page, f"{name}'s card points", value, rf"^Entered: .*\b{name} {re.escape(value)}(,|\.)")
    wait_text(page, "Ready: confirm the hand.$")
    tap(page, "Confirm hand")

    scored = standings_match_the_rules(page, app_server, sid, 1)
    assert scored["record"]["hands"][0] == {"scores": {"Ann": 6, "Ben": 14, "Cat": -2, "Dan": 0}}


def test_financial_crisis_reload_in_the_middle_of_a_pile(page: Any, app_server: AppServer) -> None:
    def one_round() -> None:
        page.get_by_label("Number of rounds").fill("1")

    sid = start(page, "Financial Crisis", ["Ann", "Ben"], one_round)
    wait_text(page, r"^Next: Tap the 5 face-down bank cards \(0 of 5\)$")
    for code in ["QC", "3C", "7S", "KS", "4H", "AC", "5C"]:
        tap(page, card_label(code))
    wait_text(page, r"^Next: Tap each card of Ann's pile \(2 so far\); hold down the first card of Ben's pile$")

    reload_mid_hand(page)
    wait_text(page, r"^Next: Tap each card of Ann's pile \(2 so far\); hold down the first card of Ben's pile$")
    wait_text(page, r"· 45 not entered$")
    tap(page, card_label("JH"))
    wait_text(page, r"^Next: Tap each card of Ann's pile \(3 so far\); hold down the first card of Ben's pile$")
    tap(page, "Next: Ben's pile")
    wait_text(page, r"^Next: Tap each card of Ben's pile \(0 so far\)$")
    for code in ["KC", "2S"]:
        tap(page, card_label(code))
    wait_text(page, r"^Next: Tap each card of Ben's pile \(2 so far\)$")
    tap(page, "Confirm round")

    scored = standings_match_the_rules(page, app_server, sid, 1)
    assert scored["record"]["hands"][0]["piles"] == {"Ann": ["AC", "5C", "JH"], "Ben": ["KC", "2S"]}


def test_feast_and_famine_reload_after_the_opening_deal(page: Any, app_server: AppServer) -> None:
    def one_circuit() -> None:
        type_until(page, "Circuits", "1", "^House rules changed: Circuits 1")

    sid = start(page, "Feast and Famine", ["Ann", "Ben"], one_circuit)
    wait_text(page, r"^Round 1 of 2 · circuit 1 of 1 · the table chooses the dealer")
    for name, then in (("Dealer: Ben", "Deal Ann's opening card"), ("7C", "Deal Ben's opening card")):
        tap(page, card_label(name) if name == "7C" else name)
        wait_text(page, rf"^Next: {re.escape(then)}")
    tap(page, card_label("KD"))
    wait_text(page, r"^Next: Ann: Take \(tap the card turned\) or Refuse\?$")

    reload_mid_hand(page)
    wait_text(page, r"^Next: Ann: Take \(tap the card turned\) or Refuse\?$")
    wait_text(page, r"^Ann: 7♣ = 7 · still in · to play$")
    wait_text(page, r"^Ben: K♦ = \d+ · still in$")
    tap(page, card_label("3H"))  # Ann Takes: 3♥ is turned for her
    wait_text(page, r"^Next: Ben: Take \(tap the card turned\) or Refuse\?$")
    tap(page, "Refuse")
    wait_text(page, r"^Next: Ann: Take \(tap the card turned\) or Refuse\?$")
    tap(page, "Refuse")
    wait_text(page, r"^Next: Everyone is Frozen")
    tap(page, "Confirm round")

    scored = standings_match_the_rules(page, app_server, sid, 1)
    assert scored["record"]["hands"][0]["cards"] == {"Ann": ["7C", "3H"], "Ben": ["KD"]}
    assert scored["record"]["hands"][0]["status"] == {"Ann": "frozen", "Ben": "frozen"}


# --- History: a tie-break round corrected with the game's own panel --------------------------------------------------


@pytest.mark.opens_app
def test_a_feast_and_famine_tie_break_round_corrected_from_history(page: Any, app_server: AppServer) -> None:
    open_app(page, app_server, "/history")
    page.get_by_role("button", name=re.compile(rf"^{FF_TITLE}\b")).first.click()
    page.wait_for_url(re.compile(r"/history/[0-9a-f]+$"))
    sid = page.url.rsplit("/", 1)[1]
    page.get_by_text("Result: Ben won", exact=True).first.wait_for()
    reveal(page, button(page, "Correct tie-break round 1")).click()

    # the table's own Feast and Famine panel, the round walked again as it was entered; no raw record fields
    page.wait_for_url(re.compile(rf"/history/{sid}/tiebreak-1$"))
    wait_text(page, rf"^{FF_TITLE}: tie-break round 1 as it was entered: ghost none; cards Ann 9♠, Ben 4♥ 6♦")
    wait_text(page, r"^Correct tie-break round 1: Ann and Ben against the Ghost$")
    wait_text(page, r"^Ben: 4♥ 6♦ = 10 · Frozen$")
    wait_text(page, r"^Ann: 9♠ = 9 · Frozen$")
    assert page.get_by_label(re.compile("^(dealer|ghost|outcome|cards|status)")).count() == 0
    tap(page, "Undo last tap")
    wait_text(page, r"^Next: Ben: Take \(tap the card turned\) or Refuse\?$")
    tap(page, card_label("JK"))  # Ben Takes, and a Joker is turned
    wait_text(page, r"^Next: A Joker: everyone not Frozen is Knocked Out")
    wait_text(page, r"^Ben: 4♥ 6♦ = 10 · Knocked Out$")
    tap(page, "Confirm round")

    page.wait_for_url(re.compile(rf"/history/{sid}$"))
    page.get_by_text("Result: Ann won", exact=True).first.wait_for()
    scored = score_saved(app_server, sid, page)
    assert scored["finished"] and scored["winners"] == ["Ann"]
    assert scored["tiebreak"] == {"Ann": 9, "Ben": 0}
    for position, name in enumerate(scored["winners"] + [n for n in scored["players"] if n not in scored["winners"]]):
        page.get_by_text(f"{position + 1}. {name}: {scored['totals'][name]}", exact=True).first.wait_for()
    wait_text(page, r"^tie-break round 1 corrected at \d\d:\d\d: ")
