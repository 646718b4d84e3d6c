"""Jokers Kill: rulings, table helpers, and properties of random legal and malformed records."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import find_game
from scoring.cards import JOKER, Card
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from scoring.jokers_kill import (
    GAME,
    DealNeed,
    Need,
    Options,
    Phase,
    bonus_of,
    can_add_hand,
    can_enter_card,
    cards_left,
    deal_needed,
    explain_hand,
    hands_left,
    jokers_used,
    legal_cards,
    matches,
    next_deal,
    phase,
    used_cards,
    verify_card,
    verify_new_hand,
)
from tests.conftest import CASES
from tests.conftest import FIXTURES as TEST_FIXTURES
from tests.support.generators.jokers_kill import play_hand, random_game, random_record
from tests.support.records import json_paths
from tests.support.scored import as_json, refusal

FIXTURES = TEST_FIXTURES / "scoring"
P3 = ["Ann", "Ben", "Cat"]
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def rec(hands: list[dict[str, Any]], players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": players or P3, "options": options, "hands": hands}


def hand(up: str, *cards: str, players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"up": up, "cards": dict(zip(players or P3, cards, strict=True)), **extra}


run = functools.partial(as_json, GAME)
error = functools.partial(refusal, GAME)


def filler(used: set[str], count: int, players: int = 3) -> list[dict[str, Any]]:
    """``count`` plain hands (each won outright by a single match) using cards not in ``used``."""
    names = P3 if players == 3 else [f"P{i}" for i in range(players)]
    free = [r + s for s in "SHDC" for r in RANK_ORDER if r + s not in used]
    hands = []
    for _ in range(count):
        cards = [free.pop() for _ in range(players + 1)]
        hands.append({"up": cards[0], "cards": dict(zip(names, cards[1:], strict=True))})
    return hands


# --- rule 4: resolving a hand ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("up", "cards", "winner", "points"),
    [
        ("9S", ("4H", "7D", "QC"), "Ann", 2),  # JK-E2
        ("3S", ("6H", "10D", "KC"), "Ann", 1),  # JK-E3
        ("8S", ("2H", "8D", "5C"), "Ben", 3),  # JK-E4: a match beats a lower card
        ("AS", ("2H", "5D", "KC"), "Ann", 2),  # JK-E6: an Ace up-card is above everything
        ("2S", ("KH", "AD", "4C"), "Ben", 2),  # JK-E7 / JK-5: a player's Ace is lowest
        ("KS", ("QH", "JD", "10C"), "Cat", 2),
        ("2S", ("3H", "5D", "4C"), "Ann", 1),
    ],
)
def test_single_winner(up: str, cards: tuple[str, ...], winner: str, points: int) -> None:
    out = run(rec([hand(up, *cards)]))
    assert out["hands"][0]["winner"] == winner
    assert out["hands"][0]["points"] == {name: (points if name == winner else 0) for name in P3}
    assert out["hands"][0]["dead"] is False and out["hands"][0]["void"] is False


def test_jk_1_ace_upcard_matches_players_ace_by_default() -> None:
    out = run(rec([hand("AS", "AH", "3D", "5C")]))
    assert out["hands"][0]["winner"] == "Ann" and out["hands"][0]["points"]["Ann"] == 3
    assert any("JK-1" in note for note in out["hands"][0]["notes"])


def test_jk_1_ace_upcard_never_matches_under_house_rule() -> None:
    out = run(rec([hand("AS", "AH", "3D", "5C")], ace_upcard_matches_ace=False))
    # the player's Ace is then simply the lowest card, and below the Ace up-card
    assert out["hands"][0]["winner"] == "Ann" and out["hands"][0]["points"]["Ann"] == 2
    assert any("House rule JK-1" in note for note in out["hands"][0]["notes"])


def test_house_rule_jk1_two_aces_tie_for_lowest() -> None:
    out = run(rec([hand("AS", "AH", "AD", "5C", tiebreaks=[{"Ann": "7H", "Ben": "9D"}])], ace_upcard_matches_ace=False))
    assert out["hands"][0]["winner"] == "Ann" and out["hands"][0]["points"]["Ann"] == 3


def test_seed_example_jk_e1() -> None:
    record = rec(
        [
            {
                "up": "5S",
                "cards": {"Ann": "7H", "Ben": "7D", "Cat": "9C", "Dan": "KH", "Eve": "7C"},
                "tiebreaks": [
                    {"Ann": "10H", "Ben": "10D", "Eve": "QC"},
                    {"Ann": "6H", "Ben": "6D"},
                    {"Ann": "4H", "Ben": "5D"},
                ],
            }
        ],
        players=["Ann", "Ben", "Cat", "Dan", "Eve"],
    )
    out = run(record)
    assert out["hands"][0]["points"] == {"Ann": 3, "Ben": 0, "Cat": 0, "Dan": 0, "Eve": 0}
    assert len(out["prize"]["Ann"]) == 13 and "KH" in out["prize"]["Ann"] and "5S" in out["prize"]["Ann"]
    assert out["bonus"]["Ann"] == 2 and out["totals"]["Ann"] == 5
    notes = " ".join(out["hands"][0]["notes"])
    assert "matching the up-card means nothing" in notes and "JK-3" in notes


def test_tiebreak_from_a_lowest_tie_above_the_upcard_scores_3_jk3() -> None:
    out = run(rec([hand("2S", "7H", "7D", "9C", tiebreaks=[{"Ann": "QH", "Ben": "JD"}])]))
    assert out["hands"][0]["points"] == {"Ann": 0, "Ben": 3, "Cat": 0}


def test_only_matchers_take_part_jk4() -> None:
    # JK-E5: the 2 is out even though it is lower
    out = run(rec([hand("8S", "8H", "8D", "2C", tiebreaks=[{"Ann": "QH", "Ben": "3D"}])]))
    assert out["hands"][0]["winner"] == "Ben"
    err = error(rec([hand("8S", "8H", "8D", "2C", tiebreaks=[{"Ann": "QH", "Ben": "3D", "Cat": "4C"}])]))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].tiebreaks[0].Cat"
    assert "Cat is not tied in hand 1" in err.message


def test_tiebreak_must_have_every_tied_player() -> None:
    err = error(rec([hand("8S", "8H", "8D", "2C", tiebreaks=[{"Ann": "QH"}])]))
    assert isinstance(err, IllegalHandError) and "Ben has no card in tie-break 1 of hand 1" in err.message


def test_missing_tiebreak_is_an_error() -> None:
    err = error(rec([hand("8S", "8H", "8D", "2C")]))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].tiebreaks"
    assert "Ann and Ben" in err.message


def test_deal_after_decided_tiebreak_is_an_error() -> None:
    err = error(rec([hand("8S", "8H", "8D", "2C", tiebreaks=[{"Ann": "QH", "Ben": "3D"}, {"Ben": "4D"}])]))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].tiebreaks[1]"


def test_aces_tie_for_lowest_and_ace_wins_tiebreak_jk_e8() -> None:
    out = run(rec([hand("6S", "AH", "AD", "9C", tiebreaks=[{"Ann": "3H", "Ben": "AC"}])]))
    assert out["hands"][0]["winner"] == "Ben" and out["hands"][0]["points"]["Ben"] == 3


# --- rule 5, JK-2: prize piles ---------------------------------------------------------------------------------


def test_upcard_goes_to_prize_by_default_and_counts_as_bonus_jk2() -> None:
    out = run(rec([hand("KH", "KS", "2D", "5C")]))
    assert Counter(out["prize"]["Ann"]) == Counter(["KH", "KS", "2D", "5C"])
    assert out["bonus"]["Ann"] == 2 and out["totals"]["Ann"] == 5


def test_upcard_discarded_under_house_rule_jk2() -> None:
    out = run(rec([hand("KH", "KS", "2D", "5C")], upcard_to_prize=False))
    assert Counter(out["prize"]["Ann"]) == Counter(["KS", "2D", "5C"])
    assert out["bonus"]["Ann"] == 0 and out["totals"]["Ann"] == 3


def test_bonus_values_rule8() -> None:
    assert bonus_of([Card.parse(c) for c in ("KH", "JS", "JH", "JK", "JK", "QS", "KS", "JD")]) == 2


# --- rule 6, JK-8 … JK-10: Jokers ------------------------------------------------------------------------------


def test_joker_in_first_deal_kills_the_hand_and_goes_to_receiver() -> None:
    out = run(rec([hand("7S", "JK", "JK", "9C")], jokers=2))
    h = out["hands"][0]
    assert h["dead"] is True and h["winner"] is None and set(h["points"].values()) == {0}
    assert out["prize"] == {"Ann": ["JK"], "Ben": ["JK"], "Cat": []}  # JK-10: each keeps their own
    assert out["totals"] == {"Ann": -1, "Ben": -1, "Cat": 0}


def test_dead_hand_has_no_tiebreak() -> None:
    err = error(rec([hand("7S", "JK", "7D", "7C", tiebreaks=[{"Ben": "2H", "Cat": "3H"}])], jokers=2))
    assert isinstance(err, IllegalHandError) and "dead" in err.message


def test_jk_9_joker_upcard_kills_and_is_discarded() -> None:
    out = run(rec([hand("JK", "3H", "5D", "9C")], jokers=2))
    assert out["hands"][0]["dead"] is True
    assert out["prize"] == {"Ann": [], "Ben": [], "Cat": []} and out["totals"] == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert out["cards_left"] == 54 - 4
    assert any("JK-9" in note for note in out["hands"][0]["notes"])


def test_joker_upcard_redraw_buries_it_jk9() -> None:
    out = run(rec([hand("9S", "4H", "7D", "QC", buried=["JK"])], jokers=2, joker_upcard="redraw"))
    assert out["hands"][0]["winner"] == "Ann" and out["hands"][0]["points"]["Ann"] == 2
    assert "JK" not in out["prize"]["Ann"] and out["bonus"]["Ann"] == 0
    assert out["cards_left"] == 54 - 5
    record = rec([hand("9S", "4H", "7D", "QC", buried=["JK"])], jokers=2, joker_upcard="redraw")
    assert jokers_used(record) == 1


def test_buried_cards_only_with_redraw_and_only_jokers() -> None:
    err = error(rec([hand("9S", "4H", "7D", "QC", buried=["JK"])], jokers=2))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].buried"
    err = error(rec([hand("9S", "4H", "7D", "QC", buried=["2S"])], jokers=2, joker_upcard="redraw"))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].buried[0]"


def test_joker_upcard_under_redraw_must_be_buried() -> None:
    err = error(rec([hand("JK", "4H", "7D", "QC")], jokers=2, joker_upcard="redraw"))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].up" and "buried" in err.message


def test_joker_in_tiebreak_kills_the_whole_hand_jk8() -> None:
    out = run(rec([hand("5S", "4H", "4D", "JC", tiebreaks=[{"Ann": "JK", "Ben": "9D"}])], jokers=2))
    assert out["hands"][0]["dead"] is True and out["prize"] == {"Ann": ["JK"], "Ben": [], "Cat": []}


def test_joker_in_tiebreak_drop_house_rule_jk8() -> None:
    out = run(
        rec([hand("5S", "4H", "4D", "JC", tiebreaks=[{"Ann": "JK", "Ben": "9D"}])], jokers=2, joker_in_tiebreak="drop")
    )
    assert out["hands"][0]["winner"] == "Ben" and out["hands"][0]["points"]["Ben"] == 3
    assert out["prize"]["Ann"] == ["JK"]
    assert Counter(out["prize"]["Ben"]) == Counter(["5S", "4H", "4D", "JC", "9D"])


def test_drop_every_tied_player_gets_a_joker_is_dead() -> None:
    record = rec(
        [hand("5S", "4H", "4D", "JC", tiebreaks=[{"Ann": "JK", "Ben": "JK"}])], jokers=2, joker_in_tiebreak="drop"
    )
    out = run(record)
    assert out["hands"][0]["dead"] is True and out["totals"] == {"Ann": -1, "Ben": -1, "Cat": 0}


def test_drop_leaves_two_who_keep_tying() -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    record = rec(
        [
            {
                "up": "KS",
                "cards": {"Ann": "3H", "Ben": "3D", "Cat": "3C", "Dan": "9S"},
                "tiebreaks": [{"Ann": "JK", "Ben": "6D", "Cat": "6C"}, {"Ben": "2D", "Cat": "8C"}],
            }
        ],
        players=players,
        jokers=2,
        joker_in_tiebreak="drop",
    )
    out = run(record)
    assert out["hands"][0]["winner"] == "Ben" and out["totals"]["Ann"] == -1 and out["totals"]["Ben"] == 3
    bad = copy.deepcopy(record)
    bad["hands"][0]["tiebreaks"][1]["Ann"] = "4S"
    err = error(bad)
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].tiebreaks[1].Ann"


def test_joker_count_never_exceeds_option_jk11() -> None:
    err = error(rec([hand("7S", "3H", "JK", "9C")]))
    assert isinstance(err, InvalidCardError) and err.path == "hands[0].cards.Ben"
    err = error(rec([hand("7S", "JK", "JK", "9C"), hand("8S", "JK", "2D", "3D")], jokers=2))
    assert isinstance(err, DuplicateCardError) and err.path == "hands[1].cards.Ann"
    assert run(rec([hand("7S", "JK", "JK", "9C"), hand("8S", "JK", "2D", "JK")], jokers=4))["totals"]["Ann"] == -2


# --- rule 7, JK-6, JK-7: the end of the deck --------------------------------------------------------------------


def test_game_ends_when_fewer_than_players_plus_one_cards_remain_jk6() -> None:
    hands = filler(set(), 13)
    out = run(rec(hands))
    assert out["finished"] is True and out["cards_left"] == 0 and out["hands_left"] == 0
    err = error(rec([*hands, hand("2S", "3S", "4S", "5S")]))
    assert isinstance(err, IllegalHandError) and err.path == "hands[13]" and "after the game was over" in err.message


def test_two_players_with_jokers_leave_one_card() -> None:
    players = ["Ann", "Ben"]
    hands = filler(set(), 17, players=2)  # 51 plain cards
    record = rec(
        [{"up": h["up"], "cards": {"Ann": h["cards"]["P0"], "Ben": h["cards"]["P1"]}} for h in hands],
        players=players,
        jokers=2,
    )
    # 54 - 51 = 3 cards left: one more hand is possible
    assert cards_left(record) == 3 and hands_left(record) == 1 and phase(record) is Phase.MAIN
    assert run(record)["finished"] is False


def test_void_tiebreak_without_cards_jk7() -> None:
    used = {"KS", "KH", "KD", "3C"}
    hands = [*filler(used, 12), hand("KS", "KH", "KD", "3C", void=True)]
    out = run(rec(hands))
    last = out["hands"][-1]
    assert last["void"] is True and last["dead"] is False and last["winner"] is None
    assert set(last["points"].values()) == {0} and out["finished"] is True
    hands[-1] = hand("KS", "KH", "KD", "3C")
    err = error(rec(hands))
    assert isinstance(err, IllegalHandError) and err.path == "hands[12].void" and "void" in err.message


def test_void_after_a_joker_dropped_in_the_tie_break_jk7_jk8() -> None:
    """House rule JK-8 "drop": the Joker went to its receiver's pile when dealt; the hand then turning void (JK-7)
    does not take it back, and the note says so."""
    record = json.loads((FIXTURES / "jk-void-after-a-dropped-joker.json").read_text())
    out = run(record)
    last = out["hands"][-1]
    assert last["void"] is True and last["prize"]["Ann"] == ["JK"] and out["finished"] is True
    assert any("the Joker dealt to Ann in the tie-break stays in their prize pile" in n for n in last["notes"])


def test_void_when_cards_remain_is_an_error() -> None:
    err = error(rec([hand("KS", "KH", "KD", "3C", void=True)]))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].void"
    err = error(rec([hand("9S", "4H", "7D", "QC", void=True)]))
    assert isinstance(err, IllegalHandError) and "cannot be void" in err.message


def test_void_hand_ends_the_game_early() -> None:
    # a 3-way tie with only 2 cards left: 12 hands of 4 = 48, hand 13 deals 4 more... use 4 players instead
    players = ["P0", "P1", "P2", "P3"]
    hands = filler({"5S", "5H", "5D", "5C", "9S"}, 9, players=4)  # 45 cards
    hands.append({"up": "9S", "cards": {"P0": "5S", "P1": "5H", "P2": "5D", "P3": "5C"}, "void": True})
    # 45 + 5 = 50 cards: 2 left, four tied players
    record = rec(hands, players=players)
    out = run(record)
    assert out["finished"] is True and out["cards_left"] == 2 and not can_add_hand(record)


# --- rule 9, JK-12: the play-off --------------------------------------------------------------------------------


def tied_game() -> dict[str, Any]:
    """The public case 13 (JK-E11): after 13 hands Ben and Cat tie on 12, Ann has 8."""
    case = CASES / "jokers-kill" / "13-final-scoring-playoff-pending.json"
    record: dict[str, Any] = json.loads(case.read_text(encoding="utf-8"))["record"]
    return record


def test_playoff_pending_and_won() -> None:
    record = tied_game()
    out = run(record)
    assert out["pending"] == {"kind": "playoff", "players": ["Ben", "Cat"]}
    assert out["playoff_wins"] == {"Ben": 0, "Cat": 0} and phase(record) is Phase.PLAYOFF
    po = [hand("5S", "5H", "9C", players=["Ben", "Cat"])] * 2  # the same cards again: a fresh deck each time
    record["playoff"] = po
    out = run(record)
    assert out["playoff_wins"] == {"Ben": 2, "Cat": 0} and out["finished"] is False
    record["playoff"] = [*po, hand("3C", "JK", "8D", players=["Ben", "Cat"])]  # dead: nobody's win
    assert run(record)["playoff_wins"] == {"Ben": 2, "Cat": 0}
    record["playoff"].append(hand("9D", "9H", "2S", players=["Ben", "Cat"]))
    out = run(record)
    assert out["finished"] is True and out["winners"] == ["Ben"] and out["pending"] is None
    assert out["totals"] == {"Ann": 8, "Ben": 12, "Cat": 12}  # play-off points and bonuses ignored
    record["playoff"].append(hand("9D", "9H", "2S", players=["Ben", "Cat"]))
    err = error(record)
    assert isinstance(err, IllegalHandError) and err.path == "playoff[4]"


def test_jk_12_playoff_notes_explain_wins_not_points() -> None:
    record = tied_game()
    record["playoff"] = [hand("5S", "5H", "9C", players=["Ben", "Cat"]), hand("3C", "JK", "8D", players=["Ben", "Cat"])]
    out = run(record)
    won, dead = out["playoff"][0]["notes"], out["playoff"][1]["notes"]
    assert "Ben wins this play-off hand" in won[-1] and "JK-12" in won[-1]
    assert not any("prize pile" in note for note in won + dead)
    assert "nobody's win" in dead[-1]
    assert explain_hand(record, 1, playoff=True) == dead


def test_playoff_wins_option() -> None:
    record = tied_game()
    record["options"]["playoff_wins"] = 1
    record["playoff"] = [hand("7D", "KS", "2C", players=["Ben", "Cat"])]
    out = run(record)
    assert out["winners"] == ["Cat"] and out["playoff_wins"] == {"Ben": 0, "Cat": 1}


def test_playoff_errors() -> None:
    record = tied_game()
    record["playoff"] = [hand("5S", "5H", "9C", players=["Ann", "Cat"])]
    err = error(record)
    assert isinstance(err, IllegalHandError) and err.path == "playoff[0].cards.Ann" and "play-off" in err.message
    record["playoff"] = [hand("5S", "5H", "5H", players=["Ben", "Cat"])]
    err = error(record)
    assert isinstance(err, DuplicateCardError) and err.path == "playoff[0].cards.Cat"
    early = rec([hand("9S", "4H", "7D", "QC")])
    early["playoff"] = [hand("5S", "5H", "9C", players=["Ben", "Cat"])]
    err = error(early)
    assert isinstance(err, IllegalHandError) and "before the game was over" in err.message
    won = rec(filler(set(), 13))
    won["playoff"] = [hand("5S", "5H", "9C", players=["Ben", "Cat"])]
    err = error(won)
    assert isinstance(err, IllegalHandError) and "no play-off is needed" in err.message


# --- validation ------------------------------------------------------------------------------------------------


def test_card_twice_in_the_game() -> None:
    err = error(rec([hand("9S", "4H", "7D", "QC"), hand("3S", "4h", "10D", "KC")]))
    assert isinstance(err, DuplicateCardError) and err.path == "hands[1].cards.Ann"
    assert err.message == "4♥ appears twice: in hand 1 and in hand 2 (one deck for the whole game)"
    err = error(rec([hand("9S", "9S", "7D", "QC")]))
    assert isinstance(err, DuplicateCardError) and err.message == "9♠ appears twice in hand 1"


def test_shape_errors() -> None:
    cases: list[tuple[dict[str, Any], type[ScoringError], str]] = [
        (rec([hand("9S", "4H", "7D", "QC")], players=["Ann"]), InvalidRecordError, "players"),
        (rec([{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]), IllegalHandError, "hands[0].cards"),
        (
            rec([{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC", "Zed": "2C"}}]),
            UnknownPlayerError,
            "hands[0].cards.Zed",
        ),
        (rec([hand("9S", "4H", "1D", "QC")]), InvalidCardError, "hands[0].cards.Ben"),
        (rec([{"cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]), InvalidRecordError, "hands[0].up"),
        (rec([hand("9S", "4H", "7D", "QC", winner="Ann")]), InvalidRecordError, "hands[0].winner"),
        (rec([], jokers=3), InvalidRecordError, "options.jokers"),
        (rec([], jokers=False), InvalidRecordError, "options.jokers"),
        (rec([], jokers=2.0), InvalidRecordError, "options.jokers"),
        (rec([], playoff_wins=0), InvalidRecordError, "options.playoff_wins"),
        (rec([], king=12), InvalidRecordError, "options.king"),
        (rec([], upcard_to_prize="yes"), InvalidRecordError, "options.upcard_to_prize"),
        (rec([hand("9S", "4H", "7D", "QC", void="no")]), InvalidRecordError, "hands[0].void"),
        (
            rec([{"up": "9S", "cards": {"Ann": "4H", " Ann": "5H", "Ben": "7D", "Cat": "QC"}}]),
            InvalidRecordError,
            "hands[0]",
        ),
        (rec([{"up": "9S", "cards": {"": "4H", "Ben": "7D", "Cat": "QC"}}]), InvalidRecordError, "hands[0]"),
        (rec([hand("9S", "4H", "7D", "QC", tiebreaks={"Ann": "2C"})]), InvalidRecordError, "hands[0].tiebreaks"),
    ]
    for record, kind, path in cases:
        err = error(record)
        assert isinstance(err, kind), (record, err)
        assert err.path == path, (record, err.path)
        assert err.message


def test_forgiving_card_text_is_canonical_in_results() -> None:
    out = run(rec([hand("kh", "K♠", "t♦", "2c")]))
    assert Counter(out["prize"]["Ann"]) == Counter(["KH", "KS", "10D", "2C"])


def test_schema_and_registry() -> None:
    schema = GAME.schema()
    assert {"game", "players", "options", "hands", "playoff"} <= set(schema["properties"])
    assert find_game("jokers-kill") is GAME and GAME.min_players == 2


# --- table helpers ---------------------------------------------------------------------------------------------


def test_cards_left_hands_left_used_cards() -> None:
    record = rec([hand("9S", "4H", "7D", "QC"), hand("8S", "8H", "8D", "2C", tiebreaks=[{"Ann": "QH", "Ben": "3D"}])])
    assert cards_left(record) == 52 - 10
    assert hands_left(record) == 42 // 4
    assert used_cards(record) == {Card.parse(c) for c in ("9S", "4H", "7D", "QC", "8S", "8H", "8D", "2C", "QH", "3D")}
    assert hands_left(rec([], players=["Ann", "Ben"], jokers=4)) == 56 // 3


def test_legal_cards_and_verify() -> None:
    record = rec([hand("9S", "JK", "7D", "QC")], jokers=2)
    cards = legal_cards(record)
    assert len(cards) == 52 - 3 + 1 and JOKER in cards and Card.parse("7D") not in cards
    assert JOKER not in legal_cards(record, {"cards": {"Ann": "JK"}})
    assert not can_enter_card(record, "JK", {"cards": {"Ann": "JK"}})
    with pytest.raises(DuplicateCardError):
        verify_card(record, "JK", {"cards": {"Ann": "JK"}})
    with pytest.raises(DuplicateCardError):
        verify_card(record, "7d")
    with pytest.raises(DuplicateCardError):
        verify_card(record, "2C", {"up": "2C"})
    with pytest.raises(InvalidCardError):
        verify_card(record, "XX")
    assert verify_card(record, "2c") == Card.parse("2C") and can_enter_card(record, "2C")
    assert JOKER not in legal_cards(rec([]))


def test_legal_cards_in_playoff_is_a_fresh_deck() -> None:
    record = tied_game()
    assert len(legal_cards(record)) == 52 + 1
    assert len(legal_cards(record, {"up": "5S"})) == 51 + 1
    finished = rec(filler(set(), 13))
    assert legal_cards(finished) == [] and not can_add_hand(finished)
    with pytest.raises(IllegalHandError):
        verify_new_hand(finished)
    assert verify_new_hand(record) is Phase.PLAYOFF


def test_deal_needed_walks_through_the_seed_example() -> None:
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    partial: dict[str, Any] = {}
    assert deal_needed({}, players, partial).need is Need.UP_CARD
    partial["up"] = "5S"
    assert deal_needed({}, players, partial) == DealNeed(Need.CARDS, tuple(players))
    partial["cards"] = {"Ann": "7H", "Ben": "7D", "Cat": "9C"}
    assert deal_needed({}, players, partial).players == ("Dan", "Eve")
    partial["cards"] |= {"Dan": "KH", "Eve": "7C"}
    need = deal_needed({}, players, partial)
    assert need.need is Need.TIEBREAK and need.players == ("Ann", "Ben", "Eve") and not need.complete
    partial["tiebreaks"] = [{"Ann": "10H", "Ben": "10D", "Eve": "QC"}]
    assert deal_needed({}, players, partial).players == ("Ann", "Ben")
    partial["tiebreaks"] += [{"Ann": "6H", "Ben": "6D"}, {"Ann": "4H"}]
    assert deal_needed({}, players, partial).players == ("Ben",)
    partial["tiebreaks"][-1]["Ben"] = "5D"
    need = deal_needed({}, players, partial)
    assert need.complete and need.need is Need.DECIDED and need.winner == "Ann" and need.points == 3
    assert any("JK-3" in note for note in need.notes)


def test_deal_needed_dead_void_and_redraw() -> None:
    opts = {"jokers": 2}
    assert deal_needed(opts, P3, hand("7S", "3H", "JK", "9C")).need is Need.DEAD
    assert deal_needed(opts, P3, hand("JK", "3H", "5D", "9C")).need is Need.DEAD
    redraw = Options(jokers=2, joker_upcard="redraw")
    assert deal_needed(redraw, P3, hand("JK", "3H", "5D", "9C")).need is Need.UP_CARD
    assert deal_needed(redraw, P3, hand("9S", "3H", "5D", "9C", buried=["JK"])).need is Need.DECIDED
    # the last card of the deck is a Joker up-card: nothing to turn instead, the hand dies
    assert deal_needed(redraw, P3, hand("JK", "3H", "5D", "9C"), cards_left=4).need is Need.DEAD
    need = deal_needed({}, P3, hand("KS", "KH", "KD", "3C"), cards_left=6)
    assert need.need is Need.TIEBREAK
    need = deal_needed({}, P3, hand("KS", "KH", "KD", "3C"), cards_left=4)
    assert need.need is Need.VOID and need.players == ("Ann", "Ben") and need.complete
    with pytest.raises(UnknownPlayerError):
        deal_needed({}, P3, {"cards": {"Zed": "2C"}})
    with pytest.raises(DuplicateCardError):
        deal_needed({}, P3, {"up": "2C", "cards": {"Ann": "2c"}})
    with pytest.raises(IllegalHandError):
        deal_needed({}, P3, hand("8S", "8H", "8D", "2C", tiebreaks=[{"Cat": "3C"}]))
    with pytest.raises(InvalidRecordError):
        deal_needed({"jokers": 5}, P3, {})


def test_next_deal_knows_the_game() -> None:
    record = rec([hand("9S", "4H", "7D", "QC")])
    assert next_deal(record, {"up": "8S", "cards": {"Ann": "8H"}}).players == ("Ben", "Cat")
    with pytest.raises(DuplicateCardError):
        next_deal(record, {"up": "QC"})
    playoff = tied_game()
    assert next_deal(playoff, {"up": "QC"}).players == ("Ben", "Cat")  # fresh deck: Q♣ is fine again
    with pytest.raises(IllegalHandError):
        next_deal(playoff, {"up": "QD", "cards": {"Ann": "2C"}})
    with pytest.raises(IllegalHandError):
        next_deal(rec(filler(set(), 13)), {})


def test_explain_hand() -> None:
    notes = explain_hand(rec([hand("8S", "2H", "8D", "5C")]), 0)
    assert any("rule 4.1" in note for note in notes)
    with pytest.raises(IllegalHandError):
        explain_hand(rec([]), 0)


def test_matches_is_by_rank_only() -> None:
    assert matches(Card.parse("8D"), Card.parse("8S"))
    assert not matches(Card.parse("9D"), Card.parse("8S"))
    assert not matches(JOKER, Card.parse("8S"))


# --- properties ------------------------------------------------------------------------------------------------


@PROPS
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([None, 2, 3, 5]))
def test_random_legal_games_score_as_simulated(seed: int, players: int | None) -> None:
    record, expected = random_game(random.Random(seed), players)
    out = run(record)
    names = record["players"]
    assert out["totals"] == expected["totals"]
    hand_points = dict.fromkeys(names, 0)
    for got, want in zip(out["hands"], expected["hands"], strict=True):
        assert (got["winner"], got["dead"], got["void"]) == (want["winner"], want["dead"], want["void"])
        nonzero = [v for v in got["points"].values() if v != 0]
        if got["winner"] is None:
            assert nonzero == []
        else:
            assert nonzero == [got["points"][got["winner"]]] and nonzero[0] in (1, 2, 3)
        for name, value in got["points"].items():
            hand_points[name] += value
        assert got["cards_left"] >= 0 and got["notes"]
    assert out["totals"] == {n: hand_points[n] + out["bonus"][n] for n in names}
    assert out["bonus"] == {n: bonus_of([Card.parse(c) for c in out["prize"][n]]) for n in names}
    plain = [c for n in names for c in out["prize"][n] if c != "JK"]
    assert len(plain) == len(set(plain))
    assert sum(c == "JK" for n in names for c in out["prize"][n]) <= record["options"].get("jokers", 0)
    assert all(Counter(out["prize"][n]) == Counter(expected["prize"][n]) for n in names)
    assert out["cards_left"] == cards_left(record) >= 0
    assert out["finished"] == (expected["champion"] is not None)
    assert out["winners"] == ([expected["champion"]] if expected["champion"] else [])
    if out["finished"]:
        assert out["pending"] is None and not can_add_hand(record)
    if expected["tied"] and expected["champion"] is None:
        assert out["pending"] == {"kind": "playoff", "players": expected["tied"]}
    if expected["tied"]:
        assert out["playoff_wins"] == expected["playoff_wins"]
    if not expected["over"]:
        assert out["pending"] is None and hands_left(record) >= 1 and legal_cards(record)


@PROPS
@given(st.integers(min_value=0, max_value=2**32))
def test_deal_needed_agrees_with_the_simulation(seed: int) -> None:
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cat", "Dan"][: rng.randint(2, 4)]
    jokers = rng.choice([0, 2, 4])
    options: dict[str, Any] = {"jokers": jokers, "joker_in_tiebreak": rng.choice(["dead", "drop"])}
    deck = [r + s for s in "SHDC" for r in RANK_ORDER] + ["JK"] * jokers
    rng.shuffle(deck)
    deck = deck[: rng.randint(len(players) + 1, len(deck))]
    size = len(deck)
    record_hand, outcome = play_hand(players, deck, options, rng)
    need = deal_needed(options, players, record_hand, cards_left=size)
    assert need.complete
    assert need.winner == outcome["winner"]
    assert (need.need is Need.DEAD) == outcome["dead"] and (need.need is Need.VOID) == outcome["void"]


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


@PROPS
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=5))
def test_malformed_records_raise_only_scoring_errors(seed: int, kind: int) -> None:
    rng = random.Random(seed)
    record = random_record(rng, rng.choice([2, 3, 4]))
    paths = [p for p in json_paths(record) if p]
    path = rng.choice(paths)
    parent, key = _get(record, path[:-1]), path[-1]
    if kind == 0:  # drop a key or an element
        del parent[key]
    elif kind == 1:  # a wrong type
        parent[key] = rng.choice([None, 7, -1, 2.5, "x", [], {}, [1], {"a": 1}, True])
    elif kind == 2:  # a bad card wherever a card is
        cards = [p for p in paths if isinstance(_get(record, p), str) and p[0] in ("hands", "playoff")]
        if not cards:
            return
        target = rng.choice(cards)
        _get(record, target[:-1])[target[-1]] = rng.choice(["1S", "ZZ", "", "10", "JKK", "A♦♦"])
        with pytest.raises(ScoringError):
            GAME.score(record)
        return
    elif kind == 3:  # duplicate a card of the main game
        cards = [p for p in paths if p[0] == "hands" and isinstance(_get(record, p), str) and p[-1] != "buried"]
        plain = [p for p in cards if Card.parse(_get(record, p)) != JOKER]
        if len(plain) < 2:
            return
        a, b = rng.sample(plain, 2)
        _get(record, b[:-1])[b[-1]] = _get(record, a)
        with pytest.raises(ScoringError):
            GAME.score(record)
        return
    elif kind == 4:  # an unknown player in a hand
        hands: list[dict[str, Any]] = record["hands"]
        if not hands:
            return
        victim = rng.choice(hands)
        victim["cards"]["Zed"] = victim["cards"].pop(next(iter(victim["cards"])))
        with pytest.raises(UnknownPlayerError):
            GAME.score(record)
        return
    else:  # an unknown key
        (parent if isinstance(parent, dict) else record)["surprise"] = 1
    try:
        GAME.score(record)
    except ScoringError as exc:
        assert exc.message and isinstance(exc.path, str)
