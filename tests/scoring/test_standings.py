"""One standings rule (scoring.standings): one test per way of deciding, and properties over random games."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import standings
from tests.conftest import CASES
from tests.support.generators import bargain_bin, feast_and_famine, financial_crisis, jokers_kill, ones_to_nines
from tests.support.records import cancelled_by_removals, hal_and_ivy, quin_after_all_out


def case(game: str, name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((CASES / game / f"{name}.json").read_text("utf-8"))["record"]
    return record


def table(record: dict[str, Any]) -> list[tuple[str, int, bool, bool, str | None, str]]:
    return [
        (s.player, s.place, s.shared, s.winner, s.progress, s.spoken_place) for s in standings(scoring.score(record))
    ]


def test_playoff_jk_12() -> None:
    # JK-E11: Ben and Cat tie on 12; while the play-off is due they share first place, with its progress
    assert table(case("jokers-kill", "13-final-scoring-playoff-pending")) == [
        ("Ben", 1, True, False, "0 play-off wins", "equal first"),
        ("Cat", 1, True, False, "0 play-off wins", "equal first"),
        ("Ann", 3, False, False, None, "third"),
    ]
    # Ben wins 3 play-off hands to 1: the winner first, the loser second, not "=1"
    assert table(case("jokers-kill", "14-playoff-first-to-three")) == [
        ("Ben", 1, False, True, "3 play-off wins", "first"),
        ("Cat", 2, False, False, "1 play-off win", "second"),
        ("Ann", 3, False, False, None, "third"),
    ]


def test_sudden_death_oo_13() -> None:
    pending = case("1111-9999", "12-sudden-death")
    pending.pop("sudden_death")
    assert table(pending) == [
        ("Ben", 1, True, False, "in sudden death", "equal first"),
        ("Cat", 1, True, False, "in sudden death", "equal first"),
        ("Ann", 3, False, False, None, "third"),
    ]
    assert table(case("1111-9999", "12-sudden-death")) == [
        ("Cat", 1, False, True, "sudden death 74", "first"),
        ("Ben", 2, False, False, "sudden death 111", "second"),
        ("Ann", 3, False, False, None, "third"),
    ]


def test_sudden_death_that_repeats_orders_by_how_long_each_lasted() -> None:
    numbers = {"Ann": "6339", "Ben": "7224", "Cat": "2139", "Dan": "8888"}  # 2100, 2100, 2100, 4649
    record: dict[str, Any] = {
        "game": "1111-9999",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "sides": {"Ann": "A", "Ben": "B", "Cat": "A", "Dan": "A"},
        "hands": [{"table": "4239", "numbers": numbers}] * 2,
    }
    result = scoring.score(record)
    assert result.pending is not None and result.pending.players == ["Ann", "Ben", "Cat"]
    record["sudden_death"] = [
        {"table": "518", "numbers": {"Ann": "518", "Ben": "815", "Cat": "999"}},  # 0, 0, 481
        {"table": "518", "numbers": {"Ann": "519", "Ben": "851"}},  # 1, 36
    ]
    assert [(p, place, progress) for p, place, _, _, progress, _ in table(record)] == [
        ("Ann", 1, "sudden death 1"),
        ("Ben", 2, "sudden death 36"),
        ("Cat", 3, "sudden death 481"),
        ("Dan", 4, None),
    ]


def test_ghost_round_ff_rule_8() -> None:
    tied = quin_after_all_out()
    assert [row[:3] for row in table(tied)] == [
        ("Ann", 1, True),
        ("Ben", 1, True),
        ("Quin", 3, False),
        ("Dan", 4, False),
    ]
    # FF-E6 (a): Ben Freezes on 19, Ann on 17
    frozen = quin_after_all_out({"ghost": "Quin", "outcome": {"Ann": 17, "Ben": 19}})
    assert table(frozen) == [
        ("Ben", 1, False, True, "tie-break 19", "first"),
        ("Ann", 2, False, False, "tie-break 17", "second"),
        ("Quin", 3, False, False, None, "third"),
        ("Dan", 4, False, False, None, "fourth"),
    ]
    # FF-E6 (d), FF-11: both Knocked Out, they drop to 0 and Quin wins with the next-highest total
    out = quin_after_all_out({"ghost": "Dan", "outcome": {"Ann": "out", "Ben": "out"}})
    assert table(out) == [
        ("Quin", 1, False, True, None, "first"),
        ("Dan", 2, False, False, None, "second"),
        ("Ann", 3, True, False, "tie-break out", "equal third"),
        ("Ben", 3, True, False, "tie-break out", "equal third"),
    ]
    assert [s.total for s in standings(scoring.score(out))] == [60, 41, 0, 0]


def test_next_highest_bb_rule_7() -> None:
    assert table(hal_and_ivy()) == [
        ("Ivy", 1, True, True, None, "equal first"),
        ("Hal", 1, True, True, None, "equal first"),
        ("Gus", 3, False, False, None, "third"),
        ("Fay", 4, False, False, None, "fourth"),
    ]


def test_joint_winners_ff_13_and_bk_14() -> None:
    joint = quin_after_all_out({"ghost": "Quin", "outcome": {"Ann": 15, "Ben": 15}})
    assert table(joint) == [
        ("Ann", 1, True, True, "tie-break 15", "equal first"),
        ("Ben", 1, True, True, "tie-break 15", "equal first"),
        ("Quin", 3, False, False, None, "third"),
        ("Dan", 4, False, False, None, "fourth"),
    ]
    pile = ["5C", "6C"]
    record = {
        "game": "financial-crisis",
        "players": ["Ann", "Ben", "Cat"],
        "options": {"rounds": 1},
        "hands": [{"bank": ["KS", "4H", "AD", "7S", "2H"], "piles": {"Ann": pile, "Cat": ["7C", "8C"]}}],
    }
    assert [row[:4] for row in table(record)] == [
        ("Ann", 1, True, True),
        ("Cat", 1, True, True),
        ("Ben", 3, False, False),
    ]


def test_cancelled_game_has_no_winners_and_orders_by_total_bb_14() -> None:
    record = cancelled_by_removals()
    result = scoring.score(record)
    assert result.cancelled and result.totals == {"Ann": 2, "Ben": 1, "Cat": 1, "Dan": 0}
    assert table(record) == [
        ("Ann", 1, False, False, None, "first"),
        ("Ben", 2, True, False, None, "equal second"),
        ("Cat", 2, True, False, None, "equal second"),
        ("Dan", 4, False, False, None, "fourth"),
    ]


MAKERS = [bargain_bin, feast_and_famine, financial_crisis, jokers_kill, ones_to_nines]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(MAKERS), st.integers(0, 10**6))
def test_standings_properties(maker: Any, seed: int) -> None:
    result = scoring.score(maker.random_record(random.Random(seed)))
    rows = standings(result)
    places = [row.place for row in rows]
    assert sorted(row.player for row in rows) == sorted(result.players)
    assert places == sorted(places) and places[0] == 1
    for i, row in enumerate(rows):
        assert row.place == i + 1 or row.place == places[i - 1]  # competition places: 1, 2, 2, 4
        neighbours = {places[j] for j in (i - 1, i + 1) if 0 <= j < len(rows)}
        assert row.shared == (row.place in neighbours)
        assert row.spoken_place.startswith("equal ") == row.shared
        assert row.total == result.totals[row.player]
        assert row.winner == (row.player in result.winners)
        if row.winner:
            assert row.place == 1
    winners = [row for row in rows if row.winner]
    assert rows[: len(winners)] == winners
    if winners:
        assert all(row.place == len(winners) + 1 for row in rows[len(winners) : len(winners) + 1])
    else:
        lower = scoring.find_game(result.game).lower_wins
        totals = [row.total if lower else -row.total for row in rows if row.progress is None or not result.finished]
        assert totals == sorted(totals)
