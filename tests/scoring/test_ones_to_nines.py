"""1111-9999: rulings (OO-…), table helpers, validation, and properties over random games."""

from __future__ import annotations

import copy
import json
import random
from itertools import permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError, find_game, score
from scoring.base import Result
from scoring.errors import IllegalHandError, InvalidRecordError, UnknownPlayerError
from scoring.ones_to_nines import (
    GAME,
    FalseTripleError,
    NotANumberError,
    Options,
    Record,
    Side,
    TooManyOfADigitError,
    available_digits,
    best_arrangement,
    can_declare_triple,
    can_number,
    default_target,
    distance,
    has_triple,
    target_for,
    verify_declare_triple,
    verify_number,
)
from tests.support.generators.ones_to_nines import random_record
from tests.support.records import json_paths

# ------------------------------------------------------------------------------------------------ helpers


def rec(
    hands: list[dict[str, Any]],
    players: tuple[str, ...] = ("Ann", "Ben"),
    sides: str = "AB",
    sudden: list[dict[str, Any]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "1111-9999",
        "players": list(players),
        "sides": dict(zip(players, sides, strict=True)),
        "options": options,
        "hands": hands,
    }
    if sudden is not None:
        data["sudden_death"] = sudden
    return data


def hand(table: str, first: str | None = None, **numbers: str) -> dict[str, Any]:
    out: dict[str, Any] = {"table": table, "numbers": numbers}
    if first is not None:
        out["first_triple"] = first
    return out


def run(data: dict[str, Any]) -> Result:
    return GAME.score(data)


def error(data: Any) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        GAME.score(data)
    assert info.value.message
    return info.value


# A tie for the lowest total at 4200 (OO-E10): Ann 7010, Ben (side A) 4200, Cat (side B) 4200.
TIED_HANDS = [hand("4239", Ann="7744", Ben="6339", Cat="7224")] * 2
THREE = ("Ann", "Ben", "Cat")


def tied(sudden: list[dict[str, Any]] | None = None, **options: Any) -> dict[str, Any]:
    return rec(TIED_HANDS, THREE, "AAB", sudden, **options)


# ------------------------------------------------------------------------------------------------ table helpers


def test_target_for_reverses_only_on_side_b() -> None:
    """OO-1, OO-2, OO-E1: side B reads the row reversed, digits are never flipped."""
    assert target_for("4239", "A") == "4239"
    assert target_for("4239", Side.B) == "9324"
    assert target_for("6969", "B") == "9696"


def test_oo_4_distance_is_absolute() -> None:
    """Rule 4, OO-4: bigger minus smaller, either way round."""
    assert distance("4239", "5278") == distance("5278", "4239") == 1039


def test_best_arrangement_examples() -> None:
    assert best_arrangement("5872", "4239") == ("5278", 1039)
    assert best_arrangement("3861", "9324") == ("8631", 693)
    assert best_arrangement("4239", "9324") == ("9324", 0)


def test_best_arrangement_prefers_smaller_on_equal_distance() -> None:
    # 5 and 1 around 3: 51 is 2 under 53? use a true tie: digits 4,6 around 55 -> 46 (9) and 64 (9).
    assert best_arrangement("64", "55") == ("46", 9)
    assert best_arrangement("6455", "5555") == ("5546", 9)


def test_best_arrangement_is_truly_best() -> None:
    rng = random.Random(5)
    for _ in range(200):
        digits = "".join(rng.choice("123456789") for _ in range(4))
        target = "".join(rng.choice("123456789") for _ in range(4))
        number, value = best_arrangement(digits, target)
        assert sorted(number) == sorted(digits)
        assert value == distance(number, target)
        for other in {"".join(p) for p in permutations(digits)}:
            assert (value, number) <= (distance(other, target), other)


def test_oo_9_has_triple() -> None:
    """Rule 5, OO-9: three or four of a kind; in sudden death three cards of one digit."""
    assert has_triple("7772") and has_triple("2777") and has_triple("3333") and has_triple("555")
    assert not has_triple("7722") and not has_triple("556")
    assert can_declare_triple("9333") and not can_declare_triple("8631")
    verify_declare_triple("1411")
    with pytest.raises(FalseTripleError):
        verify_declare_triple("1234")


def test_default_targets() -> None:
    """Rule 7, OO-E4."""
    assert [default_target(n) for n in range(2, 9)] == [7500, 7000, 7000, 6500, 6500, 6000, 6000]


def test_available_digits_and_digit_pad() -> None:
    left = available_digits("4239", ["333"])
    assert left["3"] == 0 and left["4"] == 3 and left["1"] == 4
    assert can_number("5278", "4239", ["8631"])
    assert not can_number("3333", "4239")
    assert can_number("333", "4239", complete=False)
    assert not can_number("3333", "4239", complete=False)
    assert not can_number("52", "4239")  # incomplete
    assert not can_number("5270", "4239")
    assert not can_number(5278, "4239")
    # the pad: after 333 with a 3 on the table no 3 is left
    assert [d for d in "123456789" if not can_number("333" + d, "4239", complete=False)] == ["3"]
    assert can_number("518", "472", length=3)


def test_verify_number_raises_specific_errors() -> None:
    with pytest.raises(TooManyOfADigitError, match="only four 3s"):
        verify_number("3333", "4239")
    with pytest.raises(TooManyOfADigitError, match=r"1s \(Aces\)"):
        verify_number("1111", "1234")
    with pytest.raises(NotANumberError, match="four digits"):
        verify_number("52781", "4239")
    with pytest.raises(NotANumberError, match="three digits"):
        verify_number("5278", length=3)
    verify_number(" 5 2 7 8 ", "4239")


# ------------------------------------------------------------------------------------------------ scoring rulings


def test_seed_example_and_best() -> None:
    """OO-E1..E3: 1039 and 693, both the best arrangement; notes name the reading and rule 4."""
    result = run(rec([hand("4239", Ann="5278", Ben="8631")]))
    assert result.hands[0].points == {"Ann": 1039, "Ben": 693}
    out = result.to_json()
    assert out["hands"][0]["best"] == {
        "Ann": {"number": "5278", "score": 1039},
        "Ben": {"number": "8631", "score": 693},
    }
    assert out["hands"][0]["targets"] == {"Ann": "4239", "Ben": "9324"}
    notes = " ".join(result.hands[0].notes)
    assert "9324 from side B (OO-1)" in notes and "9324 − 8631 = 693 (rule 4)" in notes


def test_oo_3_as_declared_scores_the_number_set_down() -> None:
    """OO-3, OO-E8: 2875 scores 1364; the note says what the best would have scored."""
    result = run(rec([hand("4239", Ann="2875", Ben="8631")]))
    assert result.hands[0].points["Ann"] == 1364
    assert result.to_json()["hands"][0]["best"]["Ann"] == {"number": "5278", "score": 1039}
    assert any("5278 would have scored 1039 (OO-3)" in n for n in result.hands[0].notes)


def test_oo_3_best_option_scores_the_best_arrangement() -> None:
    """OO-3 house rule: 2875 is scored as 5278."""
    result = run(rec([hand("4239", Ann="2875", Ben="8631")], score="best"))
    assert result.hands[0].points == {"Ann": 1039, "Ben": 693}
    assert any("best arrangement 5278 is scored" in n and "OO-3" in n for n in result.hands[0].notes)


def test_three_of_a_kind_first_and_others() -> None:
    """Rule 5, OO-E6: first declarer 0, other holder 9 + 250, others normal."""
    result = run(rec([hand("4239", "Ann", Ann="7772", Ben="9333", Cat="5278")], THREE, "ABA"))
    assert result.hands[0].points == {"Ann": 0, "Ben": 259, "Cat": 1039}
    notes = result.hands[0].notes
    assert any("Ann set down three 7s first: 0" in n and "rule 5.1" in n for n in notes)
    assert any("Ben holds three 3s" in n and "9 + 250 = 259" in n and "rule 5.2" in n for n in notes)


def test_oo_9_four_of_a_kind_counts_and_penalty_option() -> None:
    """OO-9 and the triple_penalty option: a four of a kind is penalised like a triple."""
    result = run(rec([hand("1234", "Ann", Ann="5552", Ben="6666")], sides="AA", triple_penalty=100))
    assert result.hands[0].points == {"Ann": 0, "Ben": 6666 - 1234 + 100}
    assert any("four 6s" in n for n in result.hands[0].notes)
    zero = run(rec([hand("1234", "Ann", Ann="5552", Ben="6666")], sides="AA", triple_penalty=0))
    assert zero.hands[0].points["Ben"] == 6666 - 1234


def test_oo_6_no_declaration_no_zero_no_penalty() -> None:
    """OO-6: if nobody declares, holders score normally and the note says why."""
    result = run(rec([hand("4239", Ann="7772", Ben="9333")]))
    assert result.hands[0].points == {"Ann": 7772 - 4239, "Ben": 9333 - 9324}
    assert any("nobody set down three of a kind first" in n and "OO-6" in n for n in result.hands[0].notes)


def test_declarer_may_be_left_out() -> None:
    """records.md: the first declarer's number may be left out: 0 points, best null, digits unchecked."""
    result = run(rec([{"table": "4239", "numbers": {"Ben": "8631"}, "first_triple": "Ann"}]))
    assert result.hands[0].points == {"Ann": 0, "Ben": 693}
    assert result.to_json()["hands"][0]["best"]["Ann"] is None


def test_a_left_out_declarer_needs_a_triple_the_cards_allow() -> None:
    """records.md: ``first_triple`` must really hold three of a kind; with the number left out, at least one digit
    must still have three copies not on the table or in the other numbers."""
    players = ("P1", "P2", "P3", "P4", "P5")
    numbers = {"P2": "5678", "P3": "9123", "P4": "4567", "P5": "8912"}  # with the table, every digit used twice
    with pytest.raises(FalseTripleError) as err:
        run(rec([hand("1234", "P1", **numbers)], players, "AAAAA"))
    assert err.value.path == "hands[0].first_triple" and "no digit with three copies" in err.value.message
    numbers["P5"] = "3399"  # now only one 8 is out: three 8s are left for P1
    assert run(rec([hand("1234", "P1", **numbers)], players, "AAAAA")).hands[0].points["P1"] == 0


def test_best_mode_with_triple_penalty() -> None:
    """Under "best" a non-first holder scores the best distance plus the penalty."""
    result = run(rec([hand("4239", "Ann", Ann="2777", Ben="3393")], score="best"))
    assert result.hands[0].points == {"Ann": 0, "Ben": 9 + 250}


def test_oo_11_target_by_player_count_and_option() -> None:
    """Rule 7, OO-11: reaching (≥) the target ends the game; 7499 does not for two players."""
    not_yet = run(rec([hand("2376", Ann="9875", Ben="6731")]))
    assert not_yet.totals["Ann"] == 7499 and not not_yet.finished and not_yet.pending is None
    done = run(rec([hand("2376", Ann="9876", Ben="6731")]))
    assert done.finished and done.winners == ["Ben"]
    custom = run(rec([hand("4239", Ann="5278", Ben="8631")], target=1000))
    assert custom.finished and custom.winners == ["Ben"]
    assert custom.to_json()["target"] == 1000
    assert any("Ann reached 1039" in n and "OO-11" in n for n in custom.hands[0].notes)


def test_oo_12_several_cross_in_one_hand() -> None:
    """OO-12: several players may cross in the same hand; the lowest still wins."""
    result = run(rec([hand("1111", Ann="9999", Ben="8888", Cat="7777")], THREE, "AAA", target=5000))
    assert result.finished and result.winners == ["Cat"]


def test_totals_in_seating_order_and_running() -> None:
    result = run(rec([hand("4239", Ann="5278", Ben="8631"), hand("1234", Ann="1235", Ben="4321")], ("Ben", "Ann")))
    assert list(result.totals) == ["Ben", "Ann"]
    # Ben sits on side A, Ann on side B here
    assert result.hands[1].points == {"Ben": abs(4321 - 1234), "Ann": abs(1235 - 4321)}
    assert result.totals == {
        "Ben": abs(8631 - 4239) + abs(4321 - 1234),
        "Ann": abs(5278 - 9324) + abs(1235 - 4321),
    }


# ------------------------------------------------------------------------------------------------ sudden death


def test_tie_sets_sudden_death_pending() -> None:
    result = run(tied())
    assert result.pending is not None and result.pending.kind == "sudden-death"
    assert result.pending.players == ["Ben", "Cat"] and not result.finished and result.winners == []
    assert any("sudden death decides" in n for n in result.hands[-1].notes)


def test_oo_14_sudden_death_decides_and_is_not_added() -> None:
    """Rule 9, OO-14, OO-E10."""
    result = run(tied([hand("518", Ben="629", Cat="741")]))
    assert result.finished and result.winners == ["Cat"] and result.pending is None
    assert result.totals == {"Ann": 7010, "Ben": 4200, "Cat": 4200}
    out = result.to_json()
    assert out["sudden_death"] == [{"Ben": 111, "Cat": 74}]
    assert any("OO-14" in n for n in out["sudden_death_hands"][0]["notes"])


def test_sudden_death_repeats_until_unique() -> None:
    """OO-13, OO-15: a declared 0 ties an exact 0 → another hand for those still tied."""
    first = hand("472", "Ben", Ben="555", Cat="274")
    result = run(tied([first]))
    assert result.pending is not None and result.pending.players == ["Ben", "Cat"] and not result.finished
    assert any("OO-13" in n for n in result.to_json()["sudden_death_hands"][0]["notes"])
    done = run(tied([first, hand("518", Ben="518", Cat="741")]))
    assert done.winners == ["Ben"] and done.to_json()["sudden_death"][1] == {"Ben": 0, "Cat": 74}


def test_oo_13_three_way_sudden_death_narrows() -> None:
    """OO-13: after each sudden-death hand only those tied for its lowest continue."""
    four = ("Ann", "Ben", "Cat", "Dan")
    # Ann 2638 and Ben 2584 read 2611 (27 each), Cat reads 1162 and sets 1189 (27); Dan's 7777 ends the game.
    record = rec([hand("2611", Ann="2638", Ben="2584", Cat="1189", Dan="7777")], four, "AABA", target=5000)
    start = run(record)
    assert start.pending is not None and start.pending.players == ["Ann", "Ben", "Cat"]
    first = hand("456", Ann="457", Ben="455", Cat="671")
    narrowed = run({**record, "sudden_death": [first]})
    assert narrowed.pending is not None and narrowed.pending.players == ["Ann", "Ben"]
    assert narrowed.to_json()["sudden_death"] == [{"Ann": 1, "Ben": 1, "Cat": 17}]
    done = run({**record, "sudden_death": [first, hand("123", Ann="123", Ben="129")]})
    assert done.finished and done.winners == ["Ann"] and done.pending is None
    err = error({**record, "sudden_death": [first, hand("123", Ann="123", Ben="129", Cat="456")]})
    assert err.path == "sudden_death[1].numbers.Cat" and "only Ann and Ben" in err.message


def test_oo_15_triple_rule_off_in_sudden_death() -> None:
    """OO-15 house rule: no first_triple allowed, a triple holder scores plainly."""
    err = error(tied([hand("472", "Ben", Ben="555", Cat="318")], triple_rule_in_sudden_death=False))
    assert isinstance(err, IllegalHandError) and err.path == "sudden_death[0].first_triple"
    result = run(tied([hand("472", Ben="555", Cat="318")], triple_rule_in_sudden_death=False))
    assert result.to_json()["sudden_death"] == [{"Ben": 83, "Cat": 44}]
    assert result.winners == ["Cat"]
    assert any("OO-15" in n for n in result.to_json()["sudden_death_hands"][0]["notes"])


def test_sudden_death_errors() -> None:
    not_over = rec([hand("4239", Ann="5278", Ben="8631")], sudden=[hand("518", Ann="629", Ben="741")])
    assert isinstance(error(not_over), IllegalHandError)
    decided = rec([hand("2376", Ann="9876", Ben="6731")], sudden=[hand("518", Ann="629", Ben="741")])
    err = error(decided)
    assert isinstance(err, IllegalHandError) and "already won" in err.message and err.path == "sudden_death[0]"
    after_win = tied([hand("518", Ben="629", Cat="741"), hand("518", Ben="629", Cat="741")])
    assert error(after_win).path == "sudden_death[1]"
    outsider = error(tied([hand("518", Ben="629", Cat="741", Ann="234")]))
    assert isinstance(outsider, IllegalHandError) and outsider.path == "sudden_death[0].numbers.Ann"
    missing = error(tied([hand("518", Ben="629")]))
    assert "Cat's number is missing in sudden-death hand 1" in missing.message
    four = error(tied([hand("518", Ben="6291", Cat="741")]))
    assert four.path == "sudden_death[0].numbers.Ben" and "sudden-death hand 1" in four.message
    digits = error(tied([hand("555", Ben="555", Cat="741")]))
    assert isinstance(digits, TooManyOfADigitError)
    false = error(tied([hand("518", "Ben", Ben="629", Cat="741")]))
    assert isinstance(false, FalseTripleError)


# ------------------------------------------------------------------------------------------------ validation


def test_validation_errors_and_paths() -> None:
    base = rec([hand("4239", Ann="5278", Ben="8631")])
    cases: list[tuple[Any, type[ScoringError], str, str]] = [
        (rec([hand("4239", Ann="527", Ben="8631")]), InvalidRecordError, "hands[0].numbers.Ann", "in hand 1"),
        (rec([hand("4209", Ann="5278", Ben="8631")]), NotANumberError, "hands[0].table", "4209"),
        (rec([hand("4239", Ann="3333", Ben="8631")]), TooManyOfADigitError, "hands[0].numbers.Ann", "only four 3s"),
        (rec([hand("4239", "Ann", Ann="5278", Ben="8631")]), FalseTripleError, "hands[0].first_triple", "OO-10"),
        (rec([hand("4239", "Zed", Ann="5278", Ben="8631")]), UnknownPlayerError, "hands[0].first_triple", "Zed"),
        (rec([hand("4239", Ann="5278", Zed="8631")]), UnknownPlayerError, "hands[0].numbers.Zed", "Zed"),
        (rec([hand("4239", Ann="5278")]), InvalidRecordError, "hands[0].numbers", "Ben's number is missing"),
        (rec([hand("4239", Ann=5278, Ben="8631")]), InvalidRecordError, "hands[0].numbers.Ann", "text"),  # type: ignore[arg-type]
        (
            rec([hand("9998", Ann="2211", Ben="2211"), hand("4239", Ann="5278", Ben="8631")]),
            IllegalHandError,
            "hands[1]",
            "hand 2 was entered after the game was over",
        ),
        ({**base, "sides": {"Ann": "A"}}, InvalidRecordError, "sides", "Ben's side"),
        ({**base, "sides": {"Ann": "A", "Ben": "B", "Zed": "A"}}, UnknownPlayerError, "sides.Zed", "Zed"),
        ({**base, "sides": {"Ann": "A", "Ben": "C"}}, InvalidRecordError, "sides.Ben", "'A' or 'B'"),
        ({**base, "players": ["Ann"], "sides": {"Ann": "A"}}, InvalidRecordError, "players", "2 to 8"),
        ({**base, "options": {"target": 0}}, InvalidRecordError, "options.target", "target"),
        ({**base, "options": {"target": "7000"}}, InvalidRecordError, "options.target", "target"),
        ({**base, "options": {"score": "worst"}}, InvalidRecordError, "options.score", "score"),
        ({**base, "options": {"triple_penalty": -1}}, InvalidRecordError, "options.triple_penalty", "triple"),
        ({**base, "options": {"king": 12}}, InvalidRecordError, "options.king", "not a known key"),
        ({**base, "extra": 1}, InvalidRecordError, "extra", "not a known key"),
        ({**base, "game": "jokers-kill"}, InvalidRecordError, "game", "game"),
        ({**base, "hands": [{**base["hands"][0], "dealer": "Ann"}]}, InvalidRecordError, "hands[0].dealer", "known"),
    ]
    for data, kind, path, words in cases:
        with pytest.raises(kind) as info:
            GAME.score(data)
        assert info.value.path == path, (data, info.value.message)
        assert words in info.value.message, info.value.message


def test_nine_players_rejected() -> None:
    names = tuple(f"P{i}" for i in range(9))
    err = error(rec([], names, "A" * 9))
    assert err.path == "players" and "9" in err.message


def test_registry_and_schema() -> None:
    assert find_game("1111-9999") is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 8)
    schema = GAME.schema()
    json.dumps(schema)
    assert {"sides", "hands", "sudden_death", "options"} <= set(schema["properties"])
    parsed = GAME.parse(rec([hand(" 4 2 3 9", Ann="5278", Ben="8631")]))
    assert isinstance(parsed, Record) and parsed.hands[0].table == "4239"
    assert Options().target is None
    with pytest.raises(Exception, match="frozen"):
        parsed.game = "x"  # type: ignore[misc, assignment]
    assert score(rec([hand("4239", Ann="5278", Ben="8631")])).totals == {"Ann": 1039, "Ben": 693}


# ------------------------------------------------------------------------------------------------ properties


def _check_invariants(data: dict[str, Any], result: Result) -> None:
    out = result.to_json()
    names = data["players"]
    target = out["target"]
    assert out["players"] == names and list(out["totals"]) == names
    running = dict.fromkeys(names, 0)
    mode = data.get("options", {}).get("score", "as-declared")
    for i, (raw, h) in enumerate(zip(data["hands"], out["hands"], strict=True)):
        assert list(h["points"]) == names
        first = raw.get("first_triple")
        for name in names:
            points = h["points"][name]
            assert points >= 0
            running[name] += points
            number = raw["numbers"].get(name)
            best = h["best"][name]
            if number is None:
                assert name == first and best is None and points == 0
                continue
            reading = target_for(raw["table"], data["sides"][name])
            assert best["score"] <= distance(number, reading)
            assert sorted(best["number"]) == sorted(number)
            plain = best["score"] if mode == "best" else distance(number, reading)
            if name == first:
                assert points == 0
            elif first is not None and has_triple(number):
                assert points == plain + data.get("options", {}).get("triple_penalty", 250)
            else:
                assert points == plain
        # the game ends exactly when someone reaches the target
        reached = max(running.values()) >= target
        assert reached == (i == len(data["hands"]) - 1 and (result.finished or result.pending is not None))
    assert out["totals"] == running
    if result.finished:
        low = min(running.values())
        assert result.winners and all(running[w] == low for w in result.winners)
        assert len(result.winners) == 1
    else:
        assert result.winners == []
    assert len(out["sudden_death"]) == len(data.get("sudden_death", []))
    still = [name for name in names if running[name] == min(running.values())]
    for points in out["sudden_death"]:
        assert list(points) == still and all(value >= 0 for value in points.values())
        still = [name for name in still if points[name] == min(points.values())]
    if result.pending is not None:
        assert result.pending.kind == "sudden-death" and result.pending.players == still and len(still) > 1
    if out["sudden_death"]:
        assert result.finished == (len(still) == 1) and result.winners == (still if result.finished else [])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 8))
def test_random_legal_games_score(seed: int, players: int) -> None:
    data = random_record(random.Random(seed), players)
    _check_invariants(data, run(data))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_long_and_tied_games(seed: int) -> None:
    rng = random.Random(seed)
    data = random_record(rng, rng.randint(2, 3), long=rng.random() < 0.3, tie=True)
    _check_invariants(data, run(data))


JUNK: list[Any] = [None, True, 0, -3, 1.5, "", "x", "0000", "99999", "1111", "JK", [], {}, ["A"], {"Ann": 1}, "Zed"]


def _mutate(rng: random.Random, data: Any) -> Any:
    """Change one random place of a JSON-like value: drop it, rename its key (an unknown player), replace it with
    junk, repeat digits past four of a kind, add an unknown key, or duplicate a list item."""
    data = copy.deepcopy(data)
    path = rng.choice(json_paths(data)[1:] or [()])
    if not path:
        return rng.choice(JUNK)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    value = parent[last]
    action = rng.randrange(6)
    if action == 0:
        del parent[last]
    elif action == 1 and isinstance(parent, dict):
        parent[rng.choice(["Zed", "extra", " Ann ", ""])] = parent.pop(last)
    elif action == 2 and isinstance(value, str) and value.isdigit():
        parent[last] = rng.choice(value) * len(value)
    elif action == 3 and isinstance(value, dict):
        value[rng.choice(["Zed", "extra", "first_triple", "table", "numbers"])] = rng.choice(JUNK)
    elif action == 4 and isinstance(parent, list):
        parent.append(copy.deepcopy(value))
    else:
        parent[last] = rng.choice(JUNK)
    return data


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_malformed_records_raise_only_scoring_errors(seed: int) -> None:
    rng = random.Random(seed)
    data = random_record(rng, max_hands=rng.randint(1, 4))
    for _ in range(rng.randint(1, 3)):
        data = _mutate(rng, data)
    try:
        result = GAME.score(data)
    except ScoringError as exc:
        assert exc.message and isinstance(exc.path, str)
    else:
        json.dumps(result.to_json())
