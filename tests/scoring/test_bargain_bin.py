"""Bargain Bin: rulings, table helpers, and properties of random legal and malformed records."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BeforeValidator, TypeAdapter, ValidationError

from scoring import bargain_bin, find_game
from scoring.bargain_bin import (
    GAME,
    BinCard,
    Options,
    Play,
    Record,
    Replay,
    can_play,
    can_receive,
    cancel_threshold,
    card_value,
    hand_card_points,
    legal_cards,
    parse,
    rank_hand,
    removal_consequence,
    settle_up,
    split_pot,
    verify_play,
    verify_receive,
    winners_of,
)
from scoring.cards import JOKER, Card
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from tests.support.generators.bargain_bin import random_record
from tests.support.records import json_paths
from tests.support.scored import as_json, refusal

P4 = ["Ann", "Ben", "Cat", "Dan"]
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rec(hands: list[dict[str, Any]], players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    return {"game": "bargain-bin", "players": players or P4, "options": options, "hands": hands}


def scores(*values: int, players: list[str] | None = None) -> dict[str, Any]:
    return {"scores": dict(zip(players or P4, values, strict=True))}


run = functools.partial(as_json, GAME)
error = functools.partial(refusal, GAME)


def win_hands(first: str, second: str, count: int) -> list[dict[str, Any]]:
    """``count`` hands in which ``first`` and ``second`` are the unique top two."""
    order = [first, second] + [p for p in P4 if p not in (first, second)]
    values = dict(zip(order, (10, 5, 0, -3), strict=True))
    return [{"scores": dict(values)} for _ in range(count)]


# ---------------------------------------------------------------------------------------------------------------
# Registry, schema, options


def test_registry_and_schema() -> None:
    assert find_game("bargain-bin") is GAME
    assert (GAME.min_players, GAME.max_players, GAME.name) == (4, 10, "Bargain Bin")
    schema = GAME.schema()
    json.dumps(schema)
    assert "options" in schema["properties"] and "hands" in schema["properties"]


def test_option_defaults() -> None:
    options = parse(rec([])).options
    assert (options.king, options.target, options.selfless, options.joker, options.vegas_unit_cents) == (
        12,
        10,
        False,
        False,
        None,
    )


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"king": 11}, "king"),
        ({"target": 0}, "target"),
        ({"target": True}, "target"),
        ({"vegas_unit_cents": 0}, "vegas_unit_cents"),
        ({"vegas_unit_cents": 2.5}, "vegas_unit_cents"),
        ({"selfless": "yes"}, "selfless"),
        ({"jokers": 1}, "jokers"),
    ],
)
def test_bad_options(options: dict[str, Any], key: str) -> None:
    err = error(rec([], **options))
    assert isinstance(err, InvalidRecordError)
    assert err.path == f"options.{key}"
    assert key in err.message


@pytest.mark.parametrize("count", [3, 11])
def test_player_count(count: int) -> None:
    err = error(rec([], players=[f"P{i}" for i in range(count)]))
    assert err.path == "players"
    assert f"not {count}" in err.message


def test_record_round_trips_through_json() -> None:
    raw = rec([{"cards": {"Ann": ["jk+", "t♣"]}}], joker=True)
    dumped = parse(raw).model_dump(mode="json")
    assert dumped["hands"][0]["cards"] == {"Ann": ["JK+", "10C"]}
    assert parse(dumped) == parse(raw)


# ---------------------------------------------------------------------------------------------------------------
# Card values (rule 2, BB-1, BB-7)


def test_card_values_examples() -> None:
    assert card_value("JH") == -11  # BB-E1
    assert card_value("5C") == 5
    assert card_value("AS") == 1 and card_value("AD") == -1
    assert card_value("QS") == 12 and card_value("KS") == 12  # BB-1 default
    assert card_value("KD", Options(king=13)) == -13
    assert card_value("JK+") == 20 and card_value("jk-") == -20
    assert sum(card_value(c) for c in ["KS", "10C", "QD", "AH", "JK-"]) == -11  # BB-E7
    assert sum(card_value(c, Options(king=13)) for c in ["KS", "10C", "QD", "AH", "JK-"]) == -10


@pytest.mark.parametrize("text", ["JK", "5C+", "1S", "", "JK*", "XX-"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(InvalidCardError):
        BinCard.parse(text)


def test_bin_card_text() -> None:
    assert str(BinCard.parse(" jk − ")) == "JK-"
    assert BinCard.parse("JK+").label == "Joker +20"
    assert BinCard.parse("q♥").label == "Q♥"
    with pytest.raises(InvalidCardError):
        BinCard.parse(JOKER)
    with pytest.raises(InvalidCardError):
        BinCard.parse(7)


# ---------------------------------------------------------------------------------------------------------------
# Game points of a hand (rule 5, BB-2, BB-3, BB-4)


def test_bb_3_unique_first_tie_for_second() -> None:
    out = run(rec([scores(15, 9, 9, -3, 0, players=[*P4, "Eve"])], players=[*P4, "Eve"]))
    assert out["hands"][0]["points"] == {"Ann": 1, "Ben": 0, "Cat": 0, "Dan": 0, "Eve": 0}
    assert "BB-3" in out["hands"][0]["notes"][0] and "Ben and Cat tie for second" in out["hands"][0]["notes"][0]


def test_bb_2_two_way_tie_for_first() -> None:
    out = run(rec([scores(12, 12, 4, -8)]))
    assert out["hands"][0]["points"] == {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0}
    assert "BB-2" in out["hands"][0]["notes"][0]


def test_three_way_tie_for_first() -> None:
    out = run(rec([scores(7, 7, 7, 2)]))
    assert out["hands"][0]["points"] == dict.fromkeys(P4, 0)
    assert out["hands"][0]["notes"][0].startswith("Ann, Ben and Cat tie for the highest score (7): nobody")


def test_bb_4_all_negative_and_all_zero() -> None:
    out = run(rec([scores(-3, -5, -11, -20), scores(0, 0, 0, 0)]))
    assert out["hands"][0]["points"] == {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0}
    assert "BB-4" in out["hands"][0]["notes"][0]
    assert out["hands"][1]["points"] == dict.fromkeys(P4, 0)
    assert out["totals"] == {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0}


def test_rank_hand_ignores_unranked() -> None:
    points, why = rank_hand({"A": 30, "B": 5, "C": 4, "D": 1}, ["B", "C", "D"])
    assert points == {"A": 0, "B": 1, "C": 1, "D": 0}
    assert why.startswith("B 5 and C 4")
    assert rank_hand({"A": 3, "B": 1}, ["A"])[0] == {"A": 1, "B": 0}
    assert rank_hand({"A": 3}, [])[0] == {"A": 0}


def full_plays() -> list[dict[str, str]]:
    """A legal hand of plays: everyone plays five cards to their left-hand neighbour."""
    deck = iter(f"{r}{s}" for s in "SCDH" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10"))
    plays = []
    for _ in range(5):
        for by, to in zip(P4, P4[1:] + P4[:1], strict=True):
            plays.append({"by": by, "to": to, "card": next(deck)})
    return plays


def test_card_forms_agree() -> None:
    plays = full_plays()
    for i, card in enumerate(["JK+", "KS", "QH", "KD"]):
        plays[i] = dict(plays[i], card=card)
    as_cards: dict[str, list[str]] = {}
    for play in plays:
        as_cards.setdefault(play["to"], []).append(play["card"])
    live = hand_card_points(plays, P4, Options(joker=True))
    a = run(rec([{"plays": plays}], joker=True))
    b = run(rec([{"cards": as_cards}], joker=True))
    c = run(rec([{"scores": live}], joker=True))
    assert a["hands"][0]["card_points"] == b["hands"][0]["card_points"] == live
    assert a["totals"] == b["totals"] == c["totals"]


# ---------------------------------------------------------------------------------------------------------------
# End of game (rules 6-7, BB-5, BB-6, BB-13)


def test_unique_next_highest_wins_with_the_leader() -> None:
    hands = win_hands("Ann", "Ben", 9) + win_hands("Cat", "Dan", 5) + win_hands("Ann", "Cat", 1)
    out = run(rec(hands))
    assert out["totals"] == {"Ann": 10, "Ben": 9, "Cat": 6, "Dan": 5}
    assert out["finished"] and out["winners"] == ["Ann", "Ben"] and not out["cancelled"]
    assert "rule 7" in out["hands"][-1]["notes"][-1]


def test_tie_for_next_highest_leader_wins_alone() -> None:
    hands = win_hands("Ann", "Ben", 8) + win_hands("Cat", "Ben", 1) + win_hands("Cat", "Dan", 7)
    hands += win_hands("Ann", "Dan", 1) + win_hands("Ann", "Cat", 1)
    out = run(rec(hands))
    assert out["totals"] == {"Ann": 10, "Ben": 9, "Cat": 9, "Dan": 8}
    assert out["winners"] == ["Ann"]


def test_bb_6_simultaneous_finish_both_win_in_seating_order() -> None:
    out = run(rec(win_hands("Dan", "Ben", 3), target=3))
    assert out["winners"] == ["Ben", "Dan"]
    assert "BB-6" in out["hands"][-1]["notes"][-2] or "BB-6" in out["hands"][-1]["notes"][-1]


def test_hand_after_the_end_is_refused() -> None:
    err = error(rec(win_hands("Ann", "Ben", 3), target=2))
    assert isinstance(err, IllegalHandError)
    assert err.path == "hands[2]" and err.message == "hand 3 was entered after the game was over"


def test_removed_player_is_not_the_next_highest() -> None:
    # Ben is removed while second; Ann then reaches the target with Cat as the next highest still in the game.
    hands = win_hands("Ann", "Ben", 4)
    hands.append({"scores": {"Ann": 9, "Cat": 4, "Dan": 0}, "conduct": [{"player": "Ben", "action": "remove"}]})
    out = run(rec(hands, target=5))
    assert out["removed"] == ["Ben"]
    assert out["totals"] == {"Ann": 5, "Ben": 4, "Cat": 1, "Dan": 0}
    assert out["winners"] == ["Ann", "Cat"]
    assert out["hands"][-1]["points"]["Ben"] == 0


def test_winners_of_helper() -> None:
    assert winners_of({"A": 3, "B": 2}, ["A", "B"], 4) == ([], "")
    assert winners_of({"A": 4, "B": 9, "C": 2}, ["A", "C"], 4)[0] == ["A", "C"]


# ---------------------------------------------------------------------------------------------------------------
# Vegas (rule 8, BB-9 to BB-11)


def test_vegas_payment_example() -> None:
    out = run(rec([scores(10, -5, 3, 0)], vegas_unit_cents=10))
    assert out["hands"][0]["payments"] == {"Ann": 0, "Ben": 150, "Cat": 70, "Dan": 100}
    assert out["pot"] == 320 and out["payments"] == out["hands"][0]["payments"]
    assert out["payouts"] == dict.fromkeys(P4, 0)
    assert out["net"] == {"Ann": 0, "Ben": -150, "Cat": -70, "Dan": -100}


def test_vegas_pays_on_no_point_hands() -> None:
    out = run(rec([scores(7, 7, 7, 2)], vegas_unit_cents=5))
    assert out["hands"][0]["payments"] == {"Ann": 0, "Ben": 0, "Cat": 0, "Dan": 25}


def test_single_winner_takes_the_pot() -> None:
    hands = win_hands("Ann", "Ben", 1) + win_hands("Ann", "Cat", 1)
    out = run(rec(hands, target=2, vegas_unit_cents=1))
    assert out["winners"] == ["Ann"]
    assert out["payouts"] == {"Ann": out["pot"], "Ben": 0, "Cat": 0, "Dan": 0}
    assert sum(out["net"].values()) == 0


def test_odd_cent_goes_to_more_points_then_seated_first() -> None:
    assert split_pot(211, ["A", "D"], {"A": 10, "D": 11})[0] == {"A": 105, "D": 106}
    assert split_pot(211, ["A", "D"], {"A": 11, "D": 10})[0] == {"A": 106, "D": 105}
    assert split_pot(211, ["A", "D"], {"A": 10, "D": 10})[0] == {"A": 106, "D": 105}
    assert split_pot(7, ["B"], {"B": 3})[0] == {"B": 7}


def test_odd_pot_in_a_whole_game() -> None:
    # Ann 10 / Ben 9 with unit 1: payments make an odd pot, Ann (more points) takes the odd cent.
    hands = [scores(3, 2, 0, 0)] * 9 + [scores(3, 0, 2, 0)] * 1
    out = run(rec(hands, vegas_unit_cents=1))
    assert out["winners"] == ["Ann", "Ben"]
    pot = out["pot"]
    assert pot == 9 * (1 + 3 + 3) + (3 + 1 + 3)
    assert out["payouts"]["Ann"] == pot // 2 + pot % 2 and out["payouts"]["Ben"] == pot // 2


# ---------------------------------------------------------------------------------------------------------------
# Conduct (rule 9, BB-12 to BB-14)


def test_bb_12_warned_player_is_ranked_and_pays() -> None:
    hand = scores(2, 9, 4, 1) | {"conduct": [{"player": "Ben", "action": "warn"}]}
    out = run(rec([hand], vegas_unit_cents=1))
    assert out["hands"][0]["points"]["Ben"] == 1
    assert out["warned"] == ["Ben"] and out["removed"] == []
    assert any("BB-12" in note for note in out["hands"][0]["notes"])


def test_removed_player_is_out_of_the_ranking_and_pays_nothing() -> None:
    hand = scores(2, 9, 4, 1) | {"conduct": [{"player": "Ben", "action": "remove"}]}
    out = run(rec([hand], players=P4, vegas_unit_cents=1))
    # Ben's 9 is the highest, but he is out of the ranking: Cat 4 and Ann 2 are the top two.
    assert out["hands"][0]["points"] == {"Ann": 1, "Ben": 0, "Cat": 1, "Dan": 0}
    assert out["hands"][0]["card_points"]["Ben"] == 9
    assert out["hands"][0]["payments"] == {"Ann": 2, "Ben": 0, "Cat": 0, "Dan": 3}
    assert not out["cancelled"] and out["removed"] == ["Ben"]


def test_removed_player_may_be_left_out_of_scores_but_not_later() -> None:
    first = {"scores": {"Ann": 1, "Cat": 2, "Dan": 3}, "conduct": [{"player": "Ben", "action": "remove"}]}
    out = run(rec([first, {"scores": {"Ann": 1, "Cat": 2, "Dan": 3}}]))
    assert out["hands"][0]["card_points"]["Ben"] == 0
    assert run(rec([first, {"cards": {"Ann": ["2S"], "Ben": []}}]))["hands"][1]["card_points"]["Ben"] == 0
    for later in (
        scores(1, 2, 3, 4),
        {"cards": {"Ben": ["2S"]}},
        {"scores": {"Ann": 1, "Cat": 2, "Dan": 3}, "conduct": [{"player": "Ben", "action": "warn"}]},
    ):
        err = error(rec([first, later]))
        assert isinstance(err, IllegalHandError) and err.path.startswith("hands[1].")
        assert err.message.startswith("Ben was removed from the game before hand 2")


def test_missing_score_is_an_error() -> None:
    err = error(rec([{"scores": {"Ann": 1, "Ben": 2, "Cat": 3}}]))
    assert err.path == "hands[0].scores" and "Dan" in err.message


@pytest.mark.parametrize(("players", "removals", "cancelled"), [(4, 2, True), (5, 2, False), (5, 3, True)])
def test_bb_14_cancellation_threshold(players: int, removals: int, cancelled: bool) -> None:
    names = [*P4, "Eve"][:players]
    hands = []
    for i in range(removals):
        left = names[: players - i]
        hands.append(
            {"scores": dict.fromkeys(left[:-1], 0), "conduct": [{"player": left[-1], "action": "remove"}]},
        )
    out = run(rec(hands, players=names, vegas_unit_cents=10))
    assert out["cancelled"] is cancelled and out["finished"] is cancelled
    assert len(out["removed"]) == removals
    if cancelled:
        assert out["winners"] == [] and out["payouts"] == out["payments"]
        assert any("BB-14" in note for note in out["hands"][-1]["notes"])
        err = error(rec([*hands, {"scores": dict.fromkeys(names[: players - removals], 0)}], players=names))
        assert "cancelled" in err.message


def test_cancellation_refunds_example() -> None:
    out = run(
        rec(
            [
                scores(5, 3, 0, -2),
                {"scores": {"Ann": 1, "Cat": 0, "Dan": 3}, "conduct": [{"player": "Ben", "action": "remove"}]},
                {"scores": {"Ann": 1, "Cat": 0}, "conduct": [{"player": "Dan", "action": "remove"}]},
            ],
            vegas_unit_cents=10,
        )
    )
    assert out["cancelled"] and out["pot"] == 140 + 50 + 10
    assert out["payments"] == {"Ann": 0 + 20 + 0, "Ben": 20, "Cat": 50 + 30 + 10, "Dan": 70}
    assert out["payouts"] == out["payments"]
    assert out["net"] == dict.fromkeys(P4, 0)


def test_conduct_errors() -> None:
    base = scores(1, 2, 3, 4)
    err = error(rec([base | {"conduct": [{"player": "Zed", "action": "warn"}]}]))
    assert isinstance(err, UnknownPlayerError) and err.message == "Zed is not a player in this game"
    assert err.path == "hands[0].conduct[0].player"
    twice = [{"player": "Ann", "action": "remove"}] * 2
    err = error(rec([base | {"conduct": twice}], players=[*P4, "Eve"]))
    assert isinstance(err, ScoringError)
    err = error(rec([base | {"conduct": [{"player": "Ann", "action": "kick"}]}]))
    assert err.path == "hands[0].conduct[0].action"
    # a second warning and a removal without a warning are accepted (the table decides)
    warn = {"conduct": [{"player": "Ann", "action": "warn"}]}
    assert run(rec([base | warn, base | warn]))["warned"] == ["Ann"]


def test_removal_consequence() -> None:
    record = rec([scores(1, 2, 3, 4)])
    first = removal_consequence(record, "Ben")
    assert not first.cancels and first.threshold == 2 and "1 more removal" in first.text
    two = rec([{"scores": {"Ann": 1, "Cat": 3, "Dan": 4}, "conduct": [{"player": "Ben", "action": "remove"}]}])
    assert removal_consequence(two, "Dan").cancels
    with pytest.raises(IllegalHandError):
        removal_consequence(two, "Ben")
    with pytest.raises(UnknownPlayerError):
        removal_consequence(two, "Zed")
    five = rec([], players=[*P4, "Eve"])
    assert not removal_consequence(parse(five), "Ann").cancels
    assert "2 more removals" in removal_consequence(five, "Ann").text
    assert cancel_threshold(4) == 2 and cancel_threshold(10) == 3


# ---------------------------------------------------------------------------------------------------------------
# Card entry validation (records.md "Validation", BB-7, BB-8)


def test_bb_7_selfless_refuses_playing_to_oneself() -> None:
    plays = full_plays()
    plays[5] = dict(plays[5], to=plays[5]["by"])
    assert run(rec([{"plays": plays}]))["hands"][0]["points"]
    err = error(rec([{"plays": plays}], selfless=True))
    assert isinstance(err, IllegalHandError) and err.path == "hands[0].plays[5].to" and "BB-7" in err.message


def test_plays_count_exactly_five_unless_warned() -> None:
    plays = full_plays()
    short = [p for i, p in enumerate(plays) if not (p["by"] == "Cat" and i >= 10)]
    assert len(short) < len(plays)
    err = error(rec([{"plays": short}]))
    assert isinstance(err, IllegalHandError) and "Cat played" in err.message
    warned = {"plays": short, "conduct": [{"player": "Cat", "action": "warn"}]}
    assert run(rec([warned]))["warned"] == ["Cat"]
    extra = [*plays, {"by": "Ann", "to": "Ben", "card": "JS"}]
    err = error(rec([{"plays": extra}]))
    assert "more than 5" in err.message and err.path == "hands[0].plays[20].by"


def test_duplicates_and_jokers() -> None:
    err = error(rec([{"cards": {"Ann": ["QH", "2S"], "Ben": ["3S"], "Cat": ["qh"]}}]))
    assert isinstance(err, DuplicateCardError)
    assert err.message == "Q♥ appears twice in hand 1" and err.path == "hands[0].cards.Cat[0]"
    err = error(rec([{"cards": {"Ann": ["JK+"]}}]))
    assert isinstance(err, InvalidCardError) and "Joker rule is off" in err.message
    err = error(rec([{"cards": {"Ann": ["JK+"], "Ben": ["JK-"]}}], joker=True))
    assert isinstance(err, DuplicateCardError)
    err = error(rec([{"cards": {"Ann": ["JK"]}}], joker=True))
    assert isinstance(err, InvalidCardError) and "JK+ or JK-" in err.message


def test_too_many_cards() -> None:
    deck = [f"{r}{s}" for s in "SCDH" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    err = error(rec([{"cards": {"Ann": deck[:21]}}]))
    assert isinstance(err, IllegalHandError) and "21 cards" in err.message
    out = run(rec([{"cards": {"Ann": deck[:20]}}]))
    assert out["hands"][0]["card_points"]["Ann"] == sum(card_value(c) for c in deck[:20])


def test_impossible_quick_score() -> None:
    err = error(rec([scores(181, 0, 0, 0)]))
    assert err.path == "hands[0].scores.Ann"
    assert run(rec([scores(180, 0, 0, 0)]))["totals"]["Ann"] == 1


@pytest.mark.parametrize(
    ("hands", "path"),
    [
        ("x", "hands"),
        (["x"], "hands[0]"),
        ([{}], "hands[0]"),
        ([{"scores": {"Ann": 1}, "cards": {}}], "hands[0]"),
        ([{"cards": {"Ann": "5C"}}], "hands[0].cards.Ann"),
        ([{"cards": {"Ann": ["ZZ"]}}], "hands[0].cards.Ann[0]"),
        ([{"plays": [{"by": "Ann", "to": "Ben"}]}], "hands[0].plays[0].card"),
        ([{"plays": [{"by": "Ann", "to": "Zed", "card": "2S"}]}], "hands[0].plays[0].to"),
        ([{"scores": {"Ann": True, "Ben": 1, "Cat": 1, "Dan": 1}}], "hands[0].scores.Ann"),
        ([{"scores": {"Ann": 1, "Ben": 1, "Cat": 1, "Dan": 1}, "extra": 1}], "hands[0].extra"),
        ([{"cards": {"Ann": ["5C"], " Ann": ["6C"]}}], "hands[0].cards"),
    ],
)
def test_malformed_hands_say_where(hands: Any, path: str) -> None:
    err = error(rec(hands))
    assert err.path == path
    assert err.message
    assert "Input should" not in err.message or "valid integer" in err.message


# ---------------------------------------------------------------------------------------------------------------
# Table helpers


def test_receive_helpers() -> None:
    assert can_receive(Options(selfless=True), "Ann", "Ben")
    assert not can_receive(Options(selfless=True), "Ann", "Ann")
    assert can_receive(Options(), "Ann", "Ann")
    removed = parse(
        rec([{"scores": {"Ann": 1, "Cat": 3, "Dan": 4}, "conduct": [{"player": "Ben", "action": "remove"}]}])
    )
    assert not can_receive(removed, "Ann", "Ben") and not can_receive(removed, "Ben", "Ann")
    assert can_receive(removed, "Ann", "Cat") and not can_receive(removed, "Ann", "Zed")
    with pytest.raises(IllegalHandError):
        verify_receive(removed, "Ann", "Ben")
    with pytest.raises(UnknownPlayerError):
        verify_receive(removed, "Ann", "Zed")


def test_play_helpers() -> None:
    assert len(legal_cards()) == 52 and JOKER not in legal_cards()
    with_joker = legal_cards(["JK-", "2S"], Options(joker=True))
    assert len(with_joker) == 51 and JOKER not in with_joker and Card.parse("2S") not in with_joker
    assert JOKER in legal_cards(["2S"], Options(joker=True))
    assert not can_play("JK+", [], Options())
    assert can_play("JK", ["QS"], Options(joker=True))
    assert not can_play("jk-", ["JK+"], Options(joker=True))
    with pytest.raises(DuplicateCardError):
        verify_play("qs", [BinCard.parse("QS")], Options())
    assert all(can_play(card, [], Options(joker=True)) for card in legal_cards([], Options(joker=True)))


def test_hand_card_points_live() -> None:
    plays = [{"by": "Ann", "to": "Ben", "card": "KH"}, {"by": "Ben", "to": "Ben", "card": "5C"}]
    assert hand_card_points(plays, P4) == {"Ann": 0, "Ben": -7, "Cat": 0, "Dan": 0}
    assert hand_card_points(plays, P4, Options(king=13))["Ben"] == -8
    assert hand_card_points([]) == {}
    with pytest.raises(InvalidCardError):
        hand_card_points([{"by": "Ann", "to": "Ben", "card": "ZZ"}], P4)
    with pytest.raises(InvalidRecordError):
        hand_card_points([{"by": "Ann", "card": "2S"}], P4)


def test_settle_up_fewest_transfers() -> None:
    assert settle_up({}) == []
    assert settle_up({"A": 0, "B": 0}) == []
    pairs = settle_up({"A": 5, "B": -5, "C": 7, "D": -7, "E": 3, "F": -3})
    assert len(pairs) == 3
    # greedy on the largest amounts would need 4 transfers here; two zero-sum groups need only 3
    tricky = {"A": 6, "B": 4, "C": -5, "D": -5, "E": 3, "F": -3}
    assert len(settle_up(tricky)) == 4
    with pytest.raises(InvalidRecordError):
        settle_up({"A": 5, "B": -4})
    with pytest.raises(InvalidRecordError):
        settle_up({"A": 1.5, "B": -1.5})  # type: ignore[dict-item]


def _apply(net: dict[str, int], transfers: list[tuple[str, str, int]]) -> dict[str, int]:
    balance = dict.fromkeys(net, 0)
    for payer, payee, cents in transfers:
        assert cents > 0 and payer != payee
        balance[payer] -= cents
        balance[payee] += cents
    return balance


@PROPS
@given(st.lists(st.integers(-500, 500), min_size=1, max_size=14))
def test_settle_up_balances(values: list[int]) -> None:
    net = {f"P{i}": v for i, v in enumerate(values)}
    net["Last"] = -sum(values)
    transfers = settle_up(net)
    assert _apply(net, transfers) == net
    nonzero = sum(1 for v in net.values() if v)
    assert len(transfers) <= max(nonzero - 1, 0)


# ---------------------------------------------------------------------------------------------------------------
# Properties of random legal records


def check_invariants(record: dict[str, Any]) -> None:
    result = GAME.score(record)
    out = result.to_json()
    players = record["players"]
    options = record.get("options", {})
    assert out["players"] == players
    assert list(out["totals"]) == players
    totals = dict.fromkeys(players, 0)
    removed: list[str] = []
    for hand_raw, hand in zip(record["hands"], out["hands"], strict=True):
        assert list(hand["points"]) == players and list(hand["card_points"]) == players
        assert set(hand["points"].values()) <= {0, 1}
        assert sum(hand["points"].values()) <= 2  # rule 5: at most two game points per hand
        assert hand["notes"] and all(isinstance(note, str) and note for note in hand["notes"])
        for name in removed:
            assert hand["points"][name] == 0
        for name, value in hand["points"].items():
            totals[name] += value
        for entry in hand_raw.get("conduct", []):
            if entry["action"] == "remove":
                removed.append(entry["player"])
                assert hand["points"][entry["player"]] == 0
        if "plays" in hand_raw:
            live = hand_card_points(hand_raw["plays"], players, Options.model_validate(options))
            assert live == hand["card_points"]
    assert out["totals"] == totals  # totals are the sum of the hands' game points
    assert out["removed"] == [p for p in players if p in removed]
    assert out["pending"] is None
    target = options.get("target", 10)
    if out["cancelled"]:
        assert out["finished"] and out["winners"] == []
    elif out["finished"]:
        assert 1 <= len(out["winners"]) <= 2
        assert out["winners"] == [p for p in players if p in out["winners"]]
        assert not set(out["winners"]) & set(removed)
        assert max(totals.values()) >= target
    else:
        assert out["winners"] == [] and max(totals.values()) < target
    if options.get("vegas_unit_cents"):
        per_hand = dict.fromkeys(players, 0)
        for hand in out["hands"]:
            assert min(hand["payments"].values()) >= 0
            for name, cents in hand["payments"].items():
                per_hand[name] += cents
        assert out["payments"] == per_hand
        assert out["pot"] == sum(per_hand.values())
        if out["cancelled"]:
            assert out["payouts"] == out["payments"]  # refunds equal payments
        elif out["finished"]:
            assert sum(out["payouts"].values()) == out["pot"]  # Vegas money is conserved
            assert {p for p, c in out["payouts"].items() if c} <= set(out["winners"])
        else:
            assert set(out["payouts"].values()) == {0}
        assert out["net"] == {p: out["payouts"][p] - out["payments"][p] for p in players}
        if out["finished"]:
            assert _apply(out["net"], settle_up(out["net"])) == out["net"]
    else:
        assert "pot" not in out


@PROPS
@given(st.integers(0, 2**32), st.integers(4, 10))
def test_random_legal_games(seed: int, players: int) -> None:
    check_invariants(random_record(random.Random(seed), players))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["cards", "plays", "scores"]))
def test_random_long_games(seed: int, form: str) -> None:
    options = {"target": 30, "vegas_unit_cents": 10, "joker": True, "selfless": True, "king": 13}
    record = random_record(random.Random(seed), 10, options=options, hands=200, form=form, conduct_rate=0.004)
    check_invariants(record)


@PROPS
@given(st.integers(0, 2**32))
def test_entry_forms_agree(seed: int) -> None:
    """Replacing every hand by its quick-entry scores changes nothing but the notes on card points."""
    record = random_record(random.Random(seed), form="plays")
    out = run(record)
    quick = copy.deepcopy(record)
    removed: set[str] = set()
    for raw, hand in zip(quick["hands"], out["hands"], strict=True):
        del raw["plays"]
        raw["scores"] = {p: v for p, v in hand["card_points"].items() if p not in removed}
        removed |= {c["player"] for c in raw.get("conduct", []) if c["action"] == "remove"}
    again = run(quick)
    for key in ("totals", "finished", "winners", "cancelled", "removed", "pot", "payouts"):
        assert again.get(key) == out.get(key)
    assert [h["points"] for h in again["hands"]] == [h["points"] for h in out["hands"]]


# ---------------------------------------------------------------------------------------------------------------
# Random malformed records raise only ScoringError


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


JUNK: list[Any] = [None, True, -1, 0, 3.5, "", "x", "ZZ", "JK", "JK+", "Zed", [], {}, [1], {"a": 1}, 10**30]


def mutate(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    paths = [p for p in json_paths(bad) if p]
    path = rng.choice(paths)
    parent = _get(bad, path[:-1])
    kind = rng.randrange(4)
    if kind == 0:
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    elif kind == 1:
        parent[path[-1]] = rng.choice(JUNK)
    elif kind == 2 and isinstance(parent, dict):
        parent[rng.choice(["Zed", "zzz", " Ann ", "bogus"])] = copy.deepcopy(_get(bad, path))
    else:
        parent[path[-1]] = copy.deepcopy(_get(bad, rng.choice(paths)))
    return bad


@PROPS
@given(st.integers(0, 2**32))
def test_malformed_records_raise_only_scoring_errors(seed: int) -> None:
    rng = random.Random(seed)
    record = random_record(rng, hands=rng.choice([1, 4]))
    for _ in range(rng.randint(1, 3)):
        record = mutate(rng, record)
    try:
        GAME.score(record)
    except ScoringError as exc:
        assert exc.message and isinstance(exc.path, str)


@PROPS
@given(st.integers(0, 2**32), st.sampled_from(["duplicate", "unknown", "drop-game", "drop-key", "bad-card"]))
def test_surely_invalid_records_are_refused(seed: int, how: str) -> None:
    rng = random.Random(seed)
    record = random_record(rng, hands=3, form=rng.choice(["cards", "plays"]), conduct_rate=0)
    hands = record["hands"]
    hand = hands[rng.randrange(len(hands))]
    if how == "duplicate":
        if "cards" in hand:
            pile = next((cards for cards in hand["cards"].values() if cards), None)
            if pile is None:
                return
            pile.append(pile[0])
        else:
            hand["plays"][-1]["card"] = hand["plays"][0]["card"]
    elif how == "unknown":
        if "cards" in hand:
            hand["cards"]["Zed"] = []
        else:
            hand["plays"][0]["to"] = "Zed"
    elif how == "drop-game":
        del record["game"]
    elif how == "drop-key":
        if "cards" in hand:
            del hand["cards"]
        else:
            del hand["plays"][0]["by"]
    else:
        if "cards" in hand:
            hand["cards"].setdefault("Ann", []).append("1X")
        else:
            hand["plays"][0]["card"] = "11S"
    with pytest.raises(ScoringError):
        GAME.score(record)


def test_record_model_is_frozen() -> None:
    record = parse(rec([scores(1, 2, 3, 4)]))
    assert isinstance(record, Record)
    with pytest.raises(ValueError):
        record.players = ("A",)  # type: ignore[misc]


# The quick pass over a hand's plays (plain Python) must accept exactly what pydantic's careful validation accepts,
# and build the same plays; whatever it refuses goes to the careful path, which names the problem.
_CAREFUL_PLAYS: TypeAdapter[tuple[Play, ...]] = TypeAdapter(
    Annotated[tuple[Play, ...], BeforeValidator(bargain_bin._plays_are_objects), bargain_bin._shape(list, "'plays'")]
)
_NAMES = st.sampled_from(["Ann", "Ben", " Ann", "Ann\t", "", "x" * 40, "x" * 41, "Zoë", 5, None, ["Ann"]])
_TEXTS = st.sampled_from(["QS", "q♠", " 10h ", "JK+", "jk-", "JK", "JK+ ", "1X", "", "AS+", 7, None, ["2C"]])
_PLAY = st.fixed_dictionaries({"to": _NAMES}, optional={"by": _NAMES, "card": _TEXTS, "extra": st.just(1)})


@settings(max_examples=400, deadline=None)
@given(st.lists(_PLAY | st.sampled_from([None, 3, "QS", ["Ann", "Ben", "QS"]]), max_size=6))
def test_quick_plays_agree_with_pydantic(value: list[Any]) -> None:
    careful_calls: list[Any] = []

    def careful(raw: Any) -> Any:
        careful_calls.append(raw)
        return _CAREFUL_PLAYS.validate_python(raw)

    try:
        expected: Any = _CAREFUL_PLAYS.validate_python(value)
    except ValidationError as exc:
        expected = exc.errors(include_url=False)
    try:
        got: Any = bargain_bin._quick_plays(value, careful)
    except ValidationError as exc:
        got = exc.errors(include_url=False)
    assert str(got) == str(expected)  # the same plays, or the same first problem
    if isinstance(expected, list):
        assert careful_calls, "the quick pass accepted plays that pydantic refuses"
    else:
        assert all(type(play) is Play and type(play.card) is BinCard for play in got)


def test_quick_plays_in_a_record_say_where() -> None:
    """A record whose plays the quick pass refuses still gets the careful message and path."""
    plays = [{"by": "A", "to": "B", "card": "2S"}, {"by": "A", "to": "B", "card": "ZZ"}]
    with pytest.raises(InvalidCardError) as err:
        parse(rec([{"plays": plays}]))
    assert err.value.path == "hands[0].plays[1].card" and "'ZZ' is not a card" in err.value.message
    plays[1] = {"by": " A ", "to": "B", "card": "3S"}
    assert parse(rec([{"plays": plays}])).hands[0].plays[1] == Play("A", "B", BinCard.parse("3S"))


# ---------------------------------------------------------------------------------------------------------------
# Hand by hand: a Replay gives what the whole record's replay gives


def _error_or_result(call: Any) -> Any:
    try:
        return call()
    except ScoringError as exc:
        return (type(exc), exc.message, exc.path)


@PROPS
@given(st.integers(0, 2**32), st.sampled_from(["cards", "plays", "scores", None]))
def test_replay_hand_by_hand_is_the_whole_replay(seed: int, form: str | None) -> None:
    rng = random.Random(seed)
    record = random_record(rng, form=form, hands=rng.choice([3, 30]), conduct_rate=0.05)
    replay = Replay.of(parse({**record, "hands": []}))
    for n, hand in enumerate(record["hands"], start=1):
        replay = replay.add(hand)
        assert replay.result == GAME.score({**record, "hands": record["hands"][:n]})
    assert replay.record == parse(record)
    assert replay.result.to_json() == run(record)


@PROPS
@given(st.integers(0, 2**32))
def test_replay_refuses_a_hand_as_the_whole_replay_does(seed: int) -> None:
    """A bad next hand (junk, an unknown player, a card twice, a hand after the end) is refused by a replay with the
    error the whole record's replay gives, path included, and the replay it was added to is unchanged."""
    rng = random.Random(seed)
    record = random_record(rng, hands=rng.choice([2, 5]))
    *before, last = record["hands"]
    if rng.random() < 0.2:  # the game may be over already: a further hand is refused
        before, last = record["hands"], copy.deepcopy(record["hands"][-1])
    else:
        last = mutate(rng, last) if rng.random() < 0.9 else rng.choice(JUNK)
    replay = Replay.of(parse({**record, "hands": before}))
    kept = replay.result
    whole = _error_or_result(lambda: GAME.score({**record, "hands": [*before, last]}))
    step = _error_or_result(lambda: replay.add(last).result)
    assert step == whole
    assert replay.result is kept and replay.result == GAME.score({**record, "hands": before})
