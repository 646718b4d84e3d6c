"""Feast and Famine: rulings FF-1…FF-15, the table helpers, and properties of random legal and malformed records."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import registry
from scoring.cards import Card, standard_deck
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from scoring.feast_and_famine import (
    GAME,
    Options,
    Record,
    can_deal,
    can_hold,
    card_value,
    circuit_count,
    expected_dealer,
    hand_total,
    joker_chance,
    legal_cards,
    rounds_left,
    total_rounds,
    verify_deal,
    verify_hold,
)
from tests.support.generators.feast_and_famine import random_record, simulate_round
from tests.support.records import json_places

FOUR = ["Ann", "Ben", "Cat", "Dan"]


def cards(*texts: str) -> list[Card]:
    return [Card.parse(text) for text in texts]


def outcome_hand(dealer: str, **points: Any) -> dict[str, Any]:
    return {"dealer": dealer, "outcome": dict(points)}


def e6_record(**extra: Any) -> dict[str, Any]:
    """FF-E6: A 85, B 85, C 60, D 41 after 8 rounds of a 4-player game."""
    rows: list[tuple[Any, ...]] = [
        ("Ann", 12, 20, 10, 5),
        ("Ben", 15, "out", 10, 6),
        ("Cat", 10, 17, 10, "out"),
        ("Dan", 8, 12, 10, 10),
        ("Cat", 20, 9, 10, "out"),
        ("Dan", "out", 14, 10, 10),
        ("Ann", 11, 13, "out", 10),
        ("Ben", 9, "out", "out", "out"),
    ]
    hands = [outcome_hand(d, Ann=a, Ben=b, Cat=c, Dan=e) for d, a, b, c, e in rows]
    return {"game": "feast-and-famine", "players": FOUR, "options": {}, "hands": hands, **extra}


def two_player_tie(**extra: Any) -> dict[str, Any]:
    """FF-E8: a 2-player game ending 52 all."""
    rows: list[tuple[Any, ...]] = [
        ("Ann", 10, 20),
        ("Ben", 12, "out"),
        ("Ben", "out", 11),
        ("Ann", 15, 9),
        ("Ann", 7, 12),
        ("Ben", 8, "out"),
    ]
    hands = [outcome_hand(d, Ann=a, Ben=b) for d, a, b in rows]
    return {"game": "feast-and-famine", "players": ["Ann", "Ben"], "options": {}, "hands": hands, **extra}


# --- values (rule 1, FF-2, FF-3) ----------------------------------------------------------------------------------


def test_card_values_ff3() -> None:
    assert [card_value(c) for c in cards("AS", "2H", "9D", "10C", "JS", "QH", "KD")] == [1, 2, 9, 10, 10, 10, 10]
    with pytest.raises(InvalidCardError):
        card_value(Card.parse("JK"))


def test_hand_total_ff_e4_and_opening_card_ff2() -> None:
    assert hand_total(cards("AD", "QS", "9H")) == 20
    assert hand_total(cards("AD", "QS", "9H"), Options(opening_card_counts=False)) == 19
    assert hand_total(cards("KD"), Options(opening_card_counts=False)) == 0


def test_whole_deck_is_worth_340() -> None:
    assert hand_total(standard_deck()) == 340


# --- game length and dealing (rules 3-4, FF-5) ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 6), (3, 9), (4, 8), (5, 5), (6, 6), (7, 7)])
def test_game_length_ff5(players: int, rounds: int) -> None:
    record = GAME.parse({"game": "feast-and-famine", "players": [f"P{i}" for i in range(players)]})
    assert isinstance(record, Record)
    assert total_rounds(record) == rounds == rounds_left(record)


def test_circuits_option() -> None:
    assert circuit_count(5, Options(circuits=3)) == 3
    record = GAME.parse({"game": "feast-and-famine", "players": FOUR, "options": {"circuits": 3}})
    assert isinstance(record, Record)
    assert total_rounds(record) == 12


def test_expected_dealer_and_can_deal() -> None:
    raw: dict[str, Any] = {"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "hands": []}
    record = GAME.parse(raw)
    assert isinstance(record, Record)
    assert expected_dealer(record) is None
    assert all(can_deal(record, name) for name in record.players)
    raw["hands"] = [outcome_hand("Cat", Ann=1, Ben=2, Cat=3)]
    record = GAME.parse(raw)
    assert isinstance(record, Record)
    assert expected_dealer(record) == "Ann"
    assert [name for name in record.players if can_deal(record, name)] == ["Ann"]
    with pytest.raises(IllegalHandError, match="clockwise from Cat to Ann"):
        verify_deal(record, "Ben")
    with pytest.raises(UnknownPlayerError):
        verify_deal(record, "Zed")
    # after a full circuit the next dealer is free again (rule 4)
    raw["hands"] += [outcome_hand("Ann", Ann=1, Ben=2, Cat=3), outcome_hand("Ben", Ann=1, Ben=2, Cat=3)]
    record = GAME.parse(raw)
    assert isinstance(record, Record)
    assert expected_dealer(record) is None
    assert can_deal(record, "Ben")


def test_nobody_deals_after_the_last_round() -> None:
    record = GAME.parse(e6_record())
    assert isinstance(record, Record)
    assert rounds_left(record) == 0
    assert expected_dealer(record) is None
    assert not any(can_deal(record, name) for name in FOUR)
    with pytest.raises(IllegalHandError, match="after the game was over"):
        verify_deal(record, "Ann")


def test_first_dealer_of_each_circuit_is_free() -> None:
    hands = [outcome_hand(d, Ann=1, Ben=1, Cat=1) for d in ["Ben", "Cat", "Ann", "Ann", "Ben", "Cat"]]
    result = GAME.score({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "hands": hands})
    assert [h.model_dump()["circuit"] for h in result.hands] == [1, 1, 1, 2, 2, 2]
    assert "the table chooses (rule 4)" in result.hands[3].notes[0]


def test_dealer_rotation_error_path() -> None:
    hands = [outcome_hand("Ann", Ann=5, Ben=6, Cat=7), outcome_hand("Cat", Ann=5, Ben=6, Cat=7)]
    with pytest.raises(IllegalHandError) as info:
        GAME.score({"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "hands": hands})
    assert info.value.path == "hands[1].dealer"
    assert "Ben" in info.value.message


def test_ninth_round_is_an_error() -> None:
    raw = e6_record()
    raw["hands"].append(outcome_hand("Cat", Ann=1, Ben=1, Cat=1, Dan=1))
    with pytest.raises(IllegalHandError) as info:
        GAME.score(raw)
    assert info.value.path == "hands[8]"
    assert "hand 9 was entered after the game was over" in info.value.message


# --- a round (rules 5-6, FF-7, FF-8) ---------------------------------------------------------------------------------


def test_ff_e1_round_and_notes() -> None:
    raw = {
        "game": "feast-and-famine",
        "players": ["Ann", "Ben", "Cat"],
        "hands": [
            {
                "dealer": "Cat",
                "cards": {"Ann": ["7C", "5S"], "Ben": ["KD"], "Cat": ["3H", "9D", "4C"]},
                "status": {"Ann": "frozen", "Ben": "frozen", "Cat": "out"},
            }
        ],
    }
    result = GAME.score(raw)
    assert result.hands[0].points == {"Ann": 12, "Ben": 10, "Cat": 0}
    assert result.totals == {"Ann": 12, "Ben": 10, "Cat": 0}
    notes = " ".join(result.hands[0].notes)
    assert "Ann Froze holding 7♣ 5♠: 7 + 5 = 12" in notes
    assert "Cat was Knocked Out" in notes and "FF-7" in notes
    assert "FF-8" in notes and "FF-3" in notes
    assert not result.finished and result.pending is None


def test_ff_2_opening_card_off_in_notes() -> None:
    raw = {
        "game": "feast-and-famine",
        "players": ["Ann", "Ben"],
        "options": {"opening_card_counts": False},
        "hands": [
            {
                "dealer": "Ben",
                "cards": {"Ann": ["AS", "QH"], "Ben": ["6C"]},
                "status": {"Ann": "frozen", "Ben": "frozen"},
            }
        ],
    }
    result = GAME.score(raw)
    assert result.hands[0].points == {"Ann": 10, "Ben": 0}
    assert any("does not count" in note and "FF-2" in note for note in result.hands[0].notes)
    assert any("Everyone Froze" in note for note in result.hands[0].notes)


def test_everyone_knocked_out_ff_e3() -> None:
    raw = {
        "game": "feast-and-famine",
        "players": FOUR,
        "hands": [outcome_hand("Dan", Ann="out", Ben="out", Cat="out", Dan="out")],
    }
    result = GAME.score(raw)
    assert result.totals == dict.fromkeys(FOUR, 0)
    assert any("every player" in note for note in result.hands[0].notes)


def test_names_in_maps_are_trimmed() -> None:
    raw = {
        "game": "feast-and-famine",
        "players": ["Ann", "Ben"],
        "hands": [outcome_hand("Ann", **{" Ann ": 4, "Ben": 3})],
    }
    assert GAME.score(raw).totals == {"Ann": 4, "Ben": 3}


def test_statuses_are_read_forgivingly() -> None:
    """Like cards and the quick form's ``"OUT"``, a status may be written in any case."""
    hand = {"dealer": "Ben", "cards": {"Ann": ["7C"], "Ben": ["KD"]}, "status": {"Ann": " Frozen", "Ben": "OUT"}}
    result = GAME.score(one_hand(hand))
    assert result.hands[0].points == {"Ann": 7, "Ben": 0}


# --- validation ------------------------------------------------------------------------------------------------------


def one_hand(hand: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    return {"game": "feast-and-famine", "players": players or ["Ann", "Ben"], "hands": [hand]}


@pytest.mark.parametrize(
    ("hand", "error", "path"),
    [
        (
            {"dealer": "Ann", "cards": {"Ann": ["7C", "JK"], "Ben": ["5S"]}, "status": {"Ann": "out", "Ben": "frozen"}},
            InvalidCardError,
            "hands[0].cards.Ann[1]",
        ),
        (
            {"dealer": "Ann", "cards": {"Ann": ["7C", "2S"], "Ben": ["7c"]}, "status": {"Ann": "out", "Ben": "out"}},
            DuplicateCardError,
            "hands[0].cards.Ben[0]",
        ),
        (
            {"dealer": "Ann", "cards": {"Ann": ["7C", "XX"], "Ben": ["5S"]}, "status": {"Ann": "out", "Ben": "out"}},
            InvalidCardError,
            "hands[0].cards.Ann[1]",
        ),
        (
            {"dealer": "Ann", "cards": {"Ann": [], "Ben": ["5S"]}, "status": {"Ann": "out", "Ben": "out"}},
            InvalidRecordError,
            "hands[0].cards.Ann",
        ),
        ({"dealer": "Zed", "outcome": {"Ann": 1, "Ben": 2}}, UnknownPlayerError, "hands[0].dealer"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Zed": 2}}, UnknownPlayerError, "hands[0].outcome.Zed"),
        ({"dealer": "Ann", "outcome": {"Ann": 1}}, InvalidRecordError, "hands[0].outcome"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": -3}}, InvalidRecordError, "hands[0].outcome.Ben"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": 341}}, IllegalHandError, "hands[0].outcome.Ben"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": 2.5}}, InvalidRecordError, "hands[0].outcome.Ben"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": True}}, InvalidRecordError, "hands[0].outcome.Ben"),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": "gone"}}, InvalidRecordError, "hands[0].outcome.Ben"),
        ({"dealer": "Ann"}, InvalidRecordError, "hands[0]"),
        ({"dealer": "Ann", "cards": {"Ann": ["7C"], "Ben": ["5S"]}}, InvalidRecordError, "hands[0].status"),
        (
            {"dealer": "Ann", "outcome": {"Ann": 1, "Ben": 2}, "status": {"Ann": "out", "Ben": "out"}},
            InvalidRecordError,
            "hands[0]",
        ),
        (
            {"dealer": "Ann", "cards": {"Ann": ["7C"], "Ben": ["5S"]}, "status": {"Ann": "frozen", "Ben": "cold"}},
            InvalidRecordError,
            "hands[0].status.Ben",
        ),
        ({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": 2}, "bonus": 3}, InvalidRecordError, "hands[0].bonus"),
    ],
)
def test_invalid_hands(hand: dict[str, Any], error: type[ScoringError], path: str) -> None:
    with pytest.raises(error) as info:
        GAME.score(one_hand(hand))
    assert info.value.path == path
    assert info.value.message


def test_messages_name_the_problem() -> None:
    hand = {"dealer": "Ann", "cards": {"Ann": ["QH", "2S"], "Ben": ["QH"]}, "status": {"Ann": "out", "Ben": "out"}}
    with pytest.raises(DuplicateCardError, match="Q♥ appears twice in hand 1"):
        GAME.score(one_hand(hand))
    with pytest.raises(UnknownPlayerError, match="Zed is not a player in this game"):
        GAME.score(one_hand({"dealer": "Ann", "outcome": {"Ann": 1, "Zed": 2}}))


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"jokers": 0}, "options.jokers"),
        ({"jokers": 5}, "options.jokers"),
        ({"jokers": True}, "options.jokers"),
        ({"circuits": 0}, "options.circuits"),
        ({"opening_card_counts": "yes"}, "options.opening_card_counts"),
        ({"all_out_nobody_left": "coin"}, "options.all_out_nobody_left"),
        ({"ghosts": 1}, "options.ghosts"),
    ],
)
def test_invalid_options(options: dict[str, Any], path: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        GAME.score({"game": "feast-and-famine", "players": ["Ann", "Ben"], "options": options})
    assert info.value.path == path


def test_one_player_is_not_a_game() -> None:
    with pytest.raises(InvalidRecordError, match="at least 2 players"):
        GAME.score({"game": "feast-and-famine", "players": ["Ann"]})


def test_same_card_in_different_rounds_is_fine() -> None:
    hand = {"dealer": "Ann", "cards": {"Ann": ["7C"], "Ben": ["5S"]}, "status": {"Ann": "frozen", "Ben": "frozen"}}
    raw = one_hand(hand)
    raw["hands"].append(dict(hand, dealer="Ben"))
    assert GAME.score(raw).totals == {"Ann": 14, "Ben": 10}


# --- end of game and tie-break (rules 7-8, FF-9…FF-14) ----------------------------------------------------------------


def test_tie_sets_pending() -> None:
    result = GAME.score(e6_record())
    assert result.totals == {"Ann": 85, "Ben": 85, "Cat": 60, "Dan": 41}
    assert not result.finished and result.winners == []
    assert result.pending is not None and result.pending.players == ["Ann", "Ben"]
    assert any("tied for the lead" in note for note in result.to_json()["notes"])


@pytest.mark.parametrize(
    ("outcome", "winners", "totals"),
    [
        ({"Ann": 17, "Ben": 19}, ["Ben"], [85, 85, 60, 41]),  # (a)
        ({"Ann": 15, "Ben": 15}, ["Ann", "Ben"], [85, 85, 60, 41]),  # (b) FF-13
        ({"Ann": 6, "Ben": "out"}, ["Ann"], [85, 85, 60, 41]),  # (c)
        ({"Ann": "out", "Ben": "out"}, ["Cat"], [0, 0, 60, 41]),  # (d) FF-11
    ],
)
def test_tiebreak_outcomes_ff_e6(outcome: dict[str, Any], winners: list[str], totals: list[int]) -> None:
    result = GAME.score(e6_record(tiebreak={"ghost": "Cat", "outcome": outcome}))
    assert result.finished and result.pending is None
    assert result.winners == winners
    assert list(result.totals.values()) == totals
    extra = result.to_json()
    assert extra["tiebreak"] == {k: (0 if v == "out" else v) for k, v in outcome.items()}
    assert extra["tiebreaks"] == [extra["tiebreak"]]
    assert extra["main_totals"] == {"Ann": 85, "Ben": 85, "Cat": 60, "Dan": 41}
    assert extra["tiebreak_notes"][0]


def test_tiebreak_all_out_next_highest_joint_ff_e6e() -> None:
    raw = e6_record(tiebreak={"outcome": {"Ann": "out", "Ben": "out"}})
    raw["hands"][7]["outcome"]["Dan"] = 19  # Dan 60 too
    result = GAME.score(raw)
    assert result.winners == ["Cat", "Dan"]
    assert result.totals == {"Ann": 0, "Ben": 0, "Cat": 60, "Dan": 60}


def test_ff_11_zeroed_leaders_do_not_tie_with_a_zero_player() -> None:
    # Ann and Ben tied on 5, Cat on 0: all-out tie-break → Cat wins on 0 (FF-11)
    hands = [outcome_hand(d, Ann=a, Ben=b, Cat="out") for d, a, b in [("Ann", 5, 5), ("Ben", 0, 0), ("Cat", 0, 0)]]
    raw = {"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "options": {"circuits": 1}, "hands": hands}
    result = GAME.score(raw | {"tiebreak": {"ghost": "Cat", "outcome": {"Ann": "out", "Ben": "out"}}})
    assert result.winners == ["Cat"]
    assert result.totals == {"Ann": 0, "Ben": 0, "Cat": 0}


def test_frozen_on_zero_beats_knocked_out() -> None:
    raw = e6_record(options={"opening_card_counts": False})
    raw["tiebreak"] = {
        "ghost": "Dan",
        "cards": {"Ann": ["KS"], "Ben": ["2H", "3C"]},
        "status": {"Ann": "frozen", "Ben": "out"},
    }
    result = GAME.score(raw)
    assert result.winners == ["Ann"]
    assert result.to_json()["tiebreak"] == {"Ann": 0, "Ben": 0}


def test_two_player_dummy_ghost_ff_e8() -> None:
    result = GAME.score(two_player_tie(tiebreak={"ghost": None, "outcome": {"Ann": 8, "Ben": "out"}}))
    assert result.totals == {"Ann": 52, "Ben": 52}
    assert result.winners == ["Ann"]


def test_two_player_all_out_replay_ff10() -> None:
    result = GAME.score(two_player_tie(tiebreak={"outcome": {"Ann": "out", "Ben": "out"}}))
    assert not result.finished and result.winners == []
    assert result.pending is not None and result.pending.kind == "tiebreak"
    assert result.pending.players == ["Ann", "Ben"]
    assert result.totals == {"Ann": 52, "Ben": 52}
    replayed = [{"outcome": {"Ann": "out", "Ben": "out"}}, {"outcome": {"Ann": "out", "Ben": 4}}]
    result = GAME.score(two_player_tie(tiebreak=replayed))
    assert result.finished and result.winners == ["Ben"]
    assert result.to_json()["tiebreaks"] == [{"Ann": 0, "Ben": 0}, {"Ann": 0, "Ben": 4}]
    assert result.to_json()["tiebreak"] == {"Ann": 0, "Ben": 4}


def test_two_player_all_out_joint_house_rule() -> None:
    raw = two_player_tie(tiebreak={"outcome": {"Ann": "out", "Ben": "out"}})
    raw["options"] = {"all_out_nobody_left": "joint"}
    result = GAME.score(raw)
    assert result.finished and result.winners == ["Ann", "Ben"]
    assert result.totals == {"Ann": 52, "Ben": 52}


def test_everyone_tied_uses_a_dummy_ghost() -> None:
    hands = [outcome_hand(d, Ann=3, Ben=3, Cat=3) for d in ["Ann", "Ben", "Cat"]]
    raw = {"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "options": {"circuits": 1}, "hands": hands}
    result = GAME.score(raw)
    assert result.pending is not None and result.pending.players == ["Ann", "Ben", "Cat"]
    with pytest.raises(IllegalHandError, match="cannot be the Ghost"):
        GAME.score(raw | {"tiebreak": {"ghost": "Cat", "outcome": {"Ann": 1, "Ben": 2, "Cat": 3}}})
    result = GAME.score(raw | {"tiebreak": {"outcome": {"Ann": "out", "Ben": "out", "Cat": "out"}}})
    assert result.pending is not None and not result.finished


def test_round_after_a_decided_tiebreak_is_an_error() -> None:
    rounds = [{"outcome": {"Ann": 3, "Ben": "out"}}, {"outcome": {"Ann": 3, "Ben": 2}}]
    with pytest.raises(IllegalHandError) as info:
        GAME.score(two_player_tie(tiebreak=rounds))
    assert info.value.path == "tiebreak[1]"


@pytest.mark.parametrize(
    ("tiebreak", "error", "path"),
    [
        ({"ghost": "Ann", "outcome": {"Ann": 3, "Ben": 2}}, IllegalHandError, "tiebreak.ghost"),
        ({"ghost": "Zed", "outcome": {"Ann": 3, "Ben": 2}}, UnknownPlayerError, "tiebreak.ghost"),
        ({"outcome": {"Ann": 3, "Ben": 2, "Cat": 1}}, IllegalHandError, "tiebreak.outcome.Cat"),
        ({"outcome": {"Ann": 3}}, InvalidRecordError, "tiebreak.outcome"),
        ({"outcome": {"Ann": 3, "Ben": "x"}}, InvalidRecordError, "tiebreak.outcome.Ben"),
        ([{"outcome": {"Ann": 3, "Ben": 1}, "extra": 1}], InvalidRecordError, "tiebreak[0].extra"),
        ("soon", InvalidRecordError, "tiebreak"),
        (
            {"cards": {"Ann": ["JK"], "Ben": ["2C"]}, "status": {"Ann": "out", "Ben": "out"}},
            InvalidCardError,
            "tiebreak.cards.Ann[0]",
        ),
    ],
)
def test_invalid_tiebreaks(tiebreak: Any, error: type[ScoringError], path: str) -> None:
    with pytest.raises(error) as info:
        GAME.score(e6_record(tiebreak=tiebreak))
    assert info.value.path == path


def test_tiebreak_too_early_or_without_a_tie() -> None:
    raw = e6_record(tiebreak={"outcome": {"Ann": 3, "Ben": 2}})
    raw["hands"] = raw["hands"][:5]
    with pytest.raises(IllegalHandError, match="before the game was over"):
        GAME.score(raw)
    raw = e6_record(tiebreak={"outcome": {"Ann": 3, "Ben": 2}})
    raw["hands"][0]["outcome"]["Ann"] = 13
    with pytest.raises(IllegalHandError, match="won outright"):
        GAME.score(raw)


# --- table helpers -------------------------------------------------------------------------------------------------


def test_legal_cards_and_can_hold() -> None:
    seen = cards("7C", "KD", "3H")
    legal = legal_cards(seen)
    assert len(legal) == 49
    assert all(can_hold(card, seen) for card in legal)
    assert not any(can_hold(card, seen) for card in seen)
    assert not can_hold(Card.parse("JK"), [])
    with pytest.raises(InvalidCardError):
        verify_hold(Card.parse("JK"), [])
    with pytest.raises(DuplicateCardError):
        verify_hold(Card.parse("KD"), seen)


def test_joker_chance_examples() -> None:
    assert joker_chance([]) == Fraction(2, 54)
    assert joker_chance([], Options(jokers=4)) == Fraction(4, 56)
    assert joker_chance(cards("JK")) == Fraction(1, 53)
    assert joker_chance(cards("JK", "JK")) == 0
    assert joker_chance(standard_deck()) == 1
    with pytest.raises(InvalidCardError):
        joker_chance(cards("JK", "JK", "JK"))
    with pytest.raises(DuplicateCardError):
        joker_chance(cards("5S", "5S"))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.data())
def test_joker_chance_property(jokers: int, data: st.DataObject) -> None:
    options = Options(jokers=jokers)
    plain = data.draw(st.lists(st.sampled_from(standard_deck()), unique=True, max_size=52))
    seen_jokers = data.draw(st.integers(0, jokers))
    seen = plain + [Card.parse("JK")] * seen_jokers
    chance = joker_chance(seen, options)
    assert 0 <= chance <= 1
    if seen_jokers == jokers:
        assert chance == 0
    else:
        assert chance == Fraction(jokers - seen_jokers, 52 + jokers - len(seen))


def test_schema_is_json() -> None:
    schema = GAME.schema()
    assert json.loads(json.dumps(schema))["properties"]["game"]["const"] == "feast-and-famine"
    assert "tiebreak" in schema["properties"]


def test_registry_finds_the_game() -> None:
    assert registry.find_game("feast-and-famine") is GAME


# --- properties of random records -------------------------------------------------------------------------------------


def check_invariants(raw: dict[str, Any]) -> None:
    result = GAME.score(raw)
    extra = result.to_json()
    players = raw["players"]
    assert list(result.totals) == players
    sums = {name: sum(hand.points[name] for hand in result.hands) for name in players}
    assert extra["main_totals"] == sums  # totals are the sum of the round points (before an all-out tie-break)
    for hand in result.hands:
        status = hand.model_dump()["status"]
        assert all(hand.points[name] == 0 for name in players if status[name] == "out")
        assert all(hand.points[name] >= 0 for name in players)
    assert result.winners == [name for name in players if name in result.winners]
    assert not (result.finished and result.pending is not None)
    assert result.finished == bool(result.winners)
    record = GAME.parse(raw)
    assert isinstance(record, Record)
    assert extra["rounds_left"] == rounds_left(record)
    if rounds_left(record) > 0:
        assert not result.finished and result.pending is None and result.totals == sums
        return
    best = max(sums.values())
    tied = [name for name in players if sums[name] == best]
    if len(tied) == 1:
        assert result.winners == tied
        return
    assert set(extra["tiebreak"] or {}) <= set(tied)
    if result.pending is not None:
        assert result.pending.players == tied
        assert result.totals == sums
        return
    if not result.finished:
        assert extra["tiebreaks"] == []
        return
    last = raw["tiebreak"][-1] if isinstance(raw["tiebreak"], list) else raw["tiebreak"]
    status = last.get("status") or {k.strip(): "out" if v == "out" else "frozen" for k, v in last["outcome"].items()}
    frozen = [name for name in tied if status[name] == "frozen"]
    if frozen:  # a Frozen player always beats a Knocked-Out one (rule 8.3)
        assert set(result.winners) <= set(frozen)
        assert result.totals == sums
    elif len(tied) < len(players):
        assert all(result.totals[name] == 0 for name in tied)  # FF-11
        assert not set(result.winners) & set(tied)
    else:
        assert result.winners == tied and raw["options"].get("all_out_nobody_left") == "joint"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 8))
def test_random_legal_records_score(seed: int, players: int) -> None:
    check_invariants(random_record(random.Random(seed), players))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_random_tied_records_score(seed: int) -> None:
    raw = random_record(random.Random(seed), complete=True, tie=True, tiebreak=True)
    check_invariants(raw)


def test_long_record() -> None:
    raw = random_record(random.Random(7), players=8, complete=True, long=True, options={"circuits": 10})
    assert len(raw["hands"]) == 80
    check_invariants(raw)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_simulated_rounds_are_legal(seed: int) -> None:
    rng = random.Random(seed)
    seats = ["Ann", "Ben", "Cat"]
    held, status = simulate_round(rng, seats, rng.randint(1, 4))
    everything = [card for name in seats for card in held[name]]
    assert len(everything) == len(set(everything)) and "JK" not in everything
    assert all(held[name] for name in seats) and set(status.values()) <= {"frozen", "out"}


# --- malformed records --------------------------------------------------------------------------------------------


JUNK: list[Any] = [None, 0, -1, 1.5, True, "", "x", "JK", "out", [], {}, ["AS"], {"Ann": 1}, "🂡" * 3]


def mutate(rng: random.Random, raw: dict[str, Any]) -> dict[str, Any]:
    """One random damage: drop a key, swap in a wrong value, a bad/duplicate card, a Joker, an unknown player."""
    out = copy.deepcopy(raw)
    spots = json_places(out)
    path, node = rng.choice(spots)
    kind = rng.randrange(6)
    if isinstance(node, dict) and node and kind == 0:
        del node[rng.choice(list(node))]
    elif isinstance(node, dict) and node and kind == 1:
        key = rng.choice(list(node))
        node[rng.choice(["Zed", "bogus", key + "x"])] = node.pop(key)
    elif isinstance(node, list) and node and kind == 2:
        node.append(rng.choice([node[0], "JK", "ZZ", "1S", 5]))
    elif path and kind in (3, 4):
        parent = out
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = rng.choice(JUNK)
    else:
        out[rng.choice(["game", "players", "options", "hands", "tiebreak", "extra"])] = rng.choice(JUNK)
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_malformed_records_raise_only_scoring_errors(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_record(rng, rng.randint(2, 5), tie=rng.random() < 0.5)
    for _ in range(rng.randint(1, 3)):
        raw = mutate(rng, raw)
    try:
        registry.score(raw)
    except ScoringError as exc:
        assert exc.message and isinstance(exc.path, str)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_duplicate_card_is_always_caught(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_record(rng, rng.randint(2, 6), complete=True, form="cards", tie=False)
    index = rng.randrange(len(raw["hands"]))
    hand = raw["hands"][index]
    names = list(hand["cards"])
    giver, taker = rng.sample(names, 2)
    hand["cards"][taker].append(rng.choice(hand["cards"][giver]))
    with pytest.raises(DuplicateCardError) as info:
        GAME.score(raw)
    assert info.value.path.startswith(f"hands[{index}].cards.")
    assert f"in hand {index + 1}" in info.value.message


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_unknown_player_is_always_caught(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_record(rng, rng.randint(2, 6), complete=True, tie=False)
    index = rng.randrange(len(raw["hands"]))
    hand = raw["hands"][index]
    key = "outcome" if "outcome" in hand else rng.choice(["cards", "status"])
    victim = rng.choice(list(hand[key]))
    hand[key]["Zed"] = hand[key].pop(victim)
    with pytest.raises(UnknownPlayerError) as info:
        GAME.score(raw)
    assert info.value.path == f"hands[{index}].{key}.Zed"
