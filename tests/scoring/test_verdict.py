"""Results as data: typed per-game results, ruling ids on notes, and the verdict (why the game was decided)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from pydantic import ValidationError

import scoring
from scoring import Decider, find_game
from scoring.base import HandResult, Result
from tests.conftest import CASES, SPEC
from tests.support.generators import bargain_bin, feast_and_famine, financial_crisis, jokers_kill, ones_to_nines
from tests.support.records import hal_and_ivy, quin_after_all_out

GENERATORS = {
    "bargain-bin": bargain_bin,
    "financial-crisis": financial_crisis,
    "feast-and-famine": feast_and_famine,
    "1111-9999": ones_to_nines,
    "jokers-kill": jokers_kill,
}


def known_ids(game: str) -> set[str]:
    """Every ruling id (``BB-2``) and numbered rule of section 1 (``BB-R5.2``) of a game's rules file."""
    prefix = find_game(game).ruling_prefix
    text = (SPEC / f"{game}.md").read_text("utf-8")
    ids = set(re.findall(rf"^\| ({prefix}-\d+) \|", text, flags=re.M))
    section = text.split("\n## 1.", 1)[1].split("\n## 2.", 1)[0]
    top = ""
    for indent, number in re.findall(r"^( *)(\d+)\. ", section, flags=re.M):
        if not indent:
            top = number
            ids.add(f"{prefix}-R{number}")
        else:
            ids.add(f"{prefix}-R{top}.{number}")
    return ids


def records(game: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted((CASES / game).glob("*.json")):
        case = json.loads(path.read_text("utf-8"))
        if not case.get("expect_error"):
            out.append(case["record"])
    module = GENERATORS[game]
    out.extend(module.random_record(random.Random(seed)) for seed in range(25))
    return out


def all_notes(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Every (note, its ruling ids) pair of a result's JSON, at every level."""
    pairs: list[tuple[str, list[str]]] = []
    lists = [data.get("hands") or [], data.get("playoff") or [], data.get("sudden_death_hands") or []]
    for hand in (hand for group in lists for hand in group):
        assert len(hand["rulings"]) == len(hand["notes"])
        pairs.extend(zip(hand["notes"], hand["rulings"], strict=True))
    if "notes" in data:
        pairs.extend(zip(data["notes"], data["rulings"], strict=True))
    for notes, rulings in zip(data.get("tiebreak_notes") or [], data.get("tiebreak_rulings") or [], strict=True):
        pairs.extend(zip(notes, rulings, strict=True))
    return pairs


@pytest.mark.parametrize("game", list(GENERATORS))
def test_every_cited_id_is_a_rule_or_ruling_of_that_game(game: str) -> None:
    known = known_ids(game)
    assert len(known) > 15
    cited: set[str] = set()
    for record in records(game):
        for note, ids in all_notes(scoring.score(record).to_json()):
            assert set(ids) <= known, f"{note!r} cites {sorted(set(ids) - known)}"
            if re.search(r"\((?:[^()]*\b(?:rule \d|[A-Z]{2}-\d))[^()]*\)", note):
                assert ids, f"{note!r} cites a rule but carries no id"
            cited.update(ids)
    assert len(cited) >= 5


def test_rulings_run_parallel_to_notes_bb_e4() -> None:
    hands = [{"scores": {"A": 12, "B": 12, "C": 4, "D": -8}}]
    result = scoring.score({"game": "bargain-bin", "players": ["A", "B", "C", "D"], "hands": hands})
    hand = result.hands[0]
    assert hand.notes[0] == "A and B tie for the highest score (12): both get one game point (rule 5.2, BB-2)"
    assert hand.rulings[0] == ["BB-R5.2", "BB-2"]
    assert hand.noted("BB-2") == [hand.notes[0]]
    assert result.to_json()["hands"][0]["rulings"] == hand.rulings


@pytest.mark.parametrize("game", list(GENERATORS))
def test_each_game_has_its_own_closed_result_model(game: str) -> None:
    result = scoring.score(records(game)[0])
    assert type(result) is not Result and isinstance(result, Result)
    assert all(type(hand) is not HandResult for hand in result.hands)
    with pytest.raises(ValidationError):
        type(result).model_validate({**result.model_dump(), "surprise": 1})
    if result.hands:
        with pytest.raises(ValidationError):
            type(result.hands[0]).model_validate({**result.hands[0].model_dump(), "surprise": 1})
    # the JSON reads back into the same model, new keys included
    data = result.to_json()
    assert type(result).model_validate(data).to_json() == data


def test_fields_are_typed_attributes() -> None:
    from scoring.bargain_bin import BargainBinResult

    raw = {
        "game": "bargain-bin",
        "players": ["A", "B", "C", "D"],
        "options": {"vegas_unit_cents": 10},
        "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}],
    }
    result = scoring.score(raw)
    assert isinstance(result, BargainBinResult)
    assert (result.pot, result.hands[0].payments) == (210, {"A": 0, "B": 60, "C": 150, "D": 0})
    plain = scoring.score({**raw, "options": {}})
    assert isinstance(plain, BargainBinResult) and plain.pot is None
    assert "pot" not in plain.to_json() and "payments" not in plain.to_json()["hands"][0]


# --- the verdict ------------------------------------------------------------------------------------------------


def sam_lowest() -> dict[str, Any]:
    """1111-9999 (OO-E7): Tom reaches 7500 on the first hand; Sam has the lowest total."""
    return {
        "game": "1111-9999",
        "players": ["Sam", "Tom"],
        "sides": {"Sam": "A", "Tom": "A"},
        "hands": [{"table": "9998", "numbers": {"Sam": "9887", "Tom": "2211"}}],
    }


def test_bargain_bin_names_the_next_highest_not_the_most_points() -> None:
    result = scoring.score(hal_and_ivy())
    assert result.winners == ["Hal", "Ivy"] and result.totals["Hal"] == 7
    verdict = result.verdict
    assert verdict is not None and verdict.decider is Decider.NEXT_HIGHEST
    assert verdict.rulings == ["BB-R6", "BB-R7"]
    assert verdict.reasons == {
        "Hal": "Hal wins as the next-highest, 7 game points, after Ivy reached the target of 10 (rule 7).",
        "Ivy": "Ivy wins by reaching the target, 10 game points (rule 6, rule 7).",
    }
    assert "most points" not in verdict.headline


def test_ones_to_nines_says_the_lowest_total_wins() -> None:
    result = scoring.score(sam_lowest())
    assert result.winners == ["Sam"] and result.totals == {"Sam": 111, "Tom": 7787}
    verdict = result.verdict
    assert verdict is not None and verdict.decider is Decider.LOWEST_TOTAL
    assert "lowest total" in verdict.headline and "most points" not in verdict.headline
    assert verdict.reasons["Sam"].startswith("Sam wins with the lowest total, 111, after Tom reached the target")


def test_ff_11_feast_and_famine_says_why_quin_won() -> None:
    assert scoring.score(quin_after_all_out()).verdict is None  # the tie-break is pending
    result = scoring.score(quin_after_all_out({"ghost": "Dan", "outcome": {"Ann": "out", "Ben": "out"}}))
    assert result.winners == ["Quin"]
    verdict = result.verdict
    assert verdict is not None and verdict.decider is Decider.ALL_KNOCKED_OUT
    assert verdict.rulings == ["FF-R8.3", "FF-11"]
    reason = verdict.reasons["Quin"]
    assert reason.startswith("Quin wins with the next-highest running total, 60")
    assert "Ann and Ben" in reason and "Knocked Out" in reason and "FF-11" in reason


def test_a_cancelled_game_has_a_verdict_and_no_reasons_bb_e11() -> None:
    conduct = [{"player": "Ben", "action": "remove"}, {"player": "Dan", "action": "remove"}]
    raw = {
        "game": "bargain-bin",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": {"vegas_unit_cents": 10},
        "hands": [{"scores": {"Ann": 3, "Cat": 1}, "conduct": conduct}],
    }
    result = scoring.score(raw)
    assert result.cancelled and result.verdict is not None
    assert result.verdict.decider is Decider.CANCELLED and result.verdict.reasons == {}
    assert "refunded" in result.verdict.headline
    assert result.to_json()["verdict"]["decider"] == "cancelled"


@pytest.mark.parametrize("game", list(GENERATORS))
def test_every_decided_game_says_why_and_undecided_ones_do_not(game: str) -> None:
    known = known_ids(game)
    deciders: set[Decider] = set()
    for record in records(game):
        result = scoring.score(record)
        verdict = result.verdict
        if not (result.finished or result.cancelled):
            assert verdict is None
            continue
        assert verdict is not None
        deciders.add(verdict.decider)
        assert list(verdict.reasons) == result.winners
        assert (verdict.decider is Decider.CANCELLED) == result.cancelled
        assert verdict.rulings and set(verdict.rulings) <= known
        assert verdict.headline.endswith(".") and verdict.headline.count(". ") == 0
        for name, reason in verdict.reasons.items():
            assert reason.startswith(name) and reason.endswith(").")
    assert deciders
