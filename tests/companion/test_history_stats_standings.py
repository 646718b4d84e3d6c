"""History and Statistics place players by the one standings rule (scoring.standings): one test per way of deciding.

Each game is saved to an archive as the table would save it; History's replay of the saved record and the outcome
Statistics keeps for it must give the places of :func:`scoring.standings`, and History carries the result's verdict.
"""

from __future__ import annotations

import json
import re
from typing import Any

import flet as ft

import scoring
from companion.history import replay
from companion.stats import OutcomeCache, statistics
from scoring import Decider
from storage import Archive, SessionStatus
from tests.conftest import CASES
from tests.support.records import cancelled_by_removals, hal_and_ivy, quin_after_all_out
from views.standings import final_label, row_labels, said

Row = tuple[str, int, bool]
"""(player, place, shared)"""


def case(game: str, name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((CASES / game / f"{name}.json").read_text("utf-8"))["record"]
    return record


def check(archive: Archive, record: dict[str, Any], expected: list[Row], decider: Decider) -> scoring.Result:
    """Save ``record``; History's final standings and Statistics' positions are ``expected`` and equal
    scoring.standings; History shows the result's verdict."""
    result = scoring.score(record)
    rule = [(s.player, s.place, s.shared) for s in scoring.standings(result)]
    assert rule == expected
    doc = archive.create_session(record, status=SessionStatus.of(result), winners=list(result.winners))

    rep = replay(archive.load_session(doc.id).record)
    assert [(s.player, s.place, s.shared) for s in rep.final] == expected
    assert rep.final == tuple(scoring.standings(result))
    assert rep.verdict is not None and rep.verdict == result.verdict and rep.verdict.decider is decider
    assert rep.winners == tuple(result.winners)

    outcomes = OutcomeCache(None).outcomes(archive)
    if result.cancelled:
        assert outcomes == []  # a cancelled game is not counted
        assert statistics(archive, cache=OutcomeCache(None)).games == 0
    else:
        [outcome] = outcomes
        assert dict(zip(outcome.players, outcome.positions, strict=True)) == {p: place for p, place, _ in expected}
        stats = statistics(archive, cache=OutcomeCache(None))
        for player, place, _ in expected:
            line = stats.player(player)
            assert line.average_position == place
            assert line.wins == (1 if player in result.winners else 0)
    return result


def test_play_off_jk_12(archive: Archive) -> None:
    # JK-E11: Ben and Cat tie on 12; Ben wins the play-off 3-1: Ben 1st, Cat 2nd (not "=1"), Ann 3rd
    record = case("jokers-kill", "14-playoff-first-to-three")
    check(archive, record, [("Ben", 1, False), ("Cat", 2, False), ("Ann", 3, False)], Decider.PLAYOFF)
    rep = replay(record)
    assert [s.progress for s in rep.final] == ["3 play-off wins", "1 play-off win", None]
    # before the last play-off hand, History's step shows the play-off still undecided (its wins, "=1")
    before = [step for step in rep.steps if step.index is None][-2]
    assert [(s.player, s.place, s.spoken_place) for s in before.standings][:2] == [
        ("Ben", 1, "equal first"),
        ("Cat", 1, "equal first"),
    ]


def test_sudden_death_oo_13(archive: Archive) -> None:
    # OO-E10: Ben and Cat tie for the lowest total, 4200; Cat's 74 beats Ben's 111
    record = case("1111-9999", "12-sudden-death")
    check(archive, record, [("Cat", 1, False), ("Ben", 2, False), ("Ann", 3, False)], Decider.SUDDEN_DEATH)


def test_ghost_round_ff_rule_8(archive: Archive) -> None:
    # FF-E6 (a): Ann and Ben tie on 85; in the round with the Ghost dealing Ben Freezes on 19, Ann on 17
    record = quin_after_all_out({"ghost": "Quin", "outcome": {"Ann": 17, "Ben": 19}})
    rows = [("Ben", 1, False), ("Ann", 2, False), ("Quin", 3, False), ("Dan", 4, False)]
    check(archive, record, rows, Decider.TIEBREAK)
    assert [s.label for s in replay(record).steps][-1] == "Tie-break round 1"


def test_next_highest_bb_rule_7(archive: Archive) -> None:
    # Ivy reaches the target, Hal has the next-highest total (7 against Ivy's 20): both win and share first place
    rows = [("Ivy", 1, True), ("Hal", 1, True), ("Gus", 3, False), ("Fay", 4, False)]
    result = check(archive, hal_and_ivy(), rows, Decider.NEXT_HIGHEST)
    # the screens say it: "=1", heard as "equal first"; the verdict names the next-highest, not the most points
    assert [final_label(s) for s in scoring.standings(result)][:2] == [
        "1. Ivy: 10, equal first",
        "1. Hal: 7, equal first",
    ]
    headline, reasons = said(result) or ("", [])
    assert "next-highest" in headline and len(reasons) == 2
    assert any(reason.startswith("Hal wins as the next-highest") for reason in reasons)


def test_ff_13_joint_winners(archive: Archive) -> None:
    # FF-13: Ann and Ben Freeze on 15 each in the tie-break round: joint winners share first; Quin is 3rd
    record = quin_after_all_out({"ghost": "Quin", "outcome": {"Ann": 15, "Ben": 15}})
    rows = [("Ann", 1, True), ("Ben", 1, True), ("Quin", 3, False), ("Dan", 4, False)]
    check(archive, record, rows, Decider.JOINT)
    assert row_labels(scoring.score(record))[:2] == [
        "1. Ann: 85 points (tie-break 15), equal first",
        "1. Ben: 85 points (tie-break 15), equal first",
    ]


def test_all_knocked_out_ff_11(archive: Archive) -> None:
    # FF-E6 (d): both tied leaders Knocked Out drop to 0; Quin wins with the next-highest total
    record = quin_after_all_out({"ghost": "Dan", "outcome": {"Ann": "out", "Ben": "out"}})
    rows = [("Quin", 1, False), ("Dan", 2, False), ("Ann", 3, True), ("Ben", 3, True)]
    check(archive, record, rows, Decider.ALL_KNOCKED_OUT)


def test_bb_14_cancelled_game(archive: Archive) -> None:
    # BB-14: two removals in a game of four cancel it; nobody wins, History orders by total, Statistics skips it
    record = cancelled_by_removals()
    rows = [("Ann", 1, False), ("Ben", 2, True), ("Cat", 2, True), ("Dan", 4, False)]
    result = check(archive, record, rows, Decider.CANCELLED)
    assert result.cancelled and not any(s.winner for s in scoring.standings(result))
    assert replay(record).outcome_text == "cancelled: nobody won"


# --- the screens: History's session and the live view show the verdict and the shared places ---------------------


def _screen_texts(services: Any, route: str) -> tuple[list[str], list[str]]:
    """(visible texts, semantics labels) of the screen at ``route``, built through the shell without a browser."""
    from tests.support.screens import shell_for, walk

    shell, page = shell_for(services, route)
    shell.render()
    controls = [control for control, _ in walk(page.views[-1])]
    texts = [c.value for c in controls if isinstance(c, ft.Text) and c.value]
    labels = [str(c.semantics_label) for c in controls if isinstance(c, ft.Text) and c.semantics_label]
    labels += [str(c.label) for c in controls if isinstance(c, ft.Semantics) and c.label]
    return texts, labels


def test_history_session_shows_the_verdict_and_shared_places(services: Any) -> None:
    record = hal_and_ivy()
    result = scoring.score(record)
    doc = services.archive.create_session(record, status=SessionStatus.of(result), winners=list(result.winners))
    texts, labels = _screen_texts(services, f"/history/{doc.id}")
    verdict = result.verdict
    assert verdict is not None
    assert verdict.headline in texts and verdict.headline in labels
    assert all(reason in texts for reason in verdict.reasons.values())  # one sentence per winner
    assert "=1. Ivy: 10" in texts and "=1. Hal: 7" in texts and "3. Gus: 3" in texts
    assert "1. Ivy: 10, equal first" in labels and "1. Hal: 7, equal first" in labels
    assert not any("most points" in text for text in texts)


def test_history_session_of_a_play_off_ranks_the_loser_second(services: Any) -> None:
    record = case("jokers-kill", "14-playoff-first-to-three")
    result = scoring.score(record)
    doc = services.archive.create_session(record, status=SessionStatus.of(result), winners=list(result.winners))
    texts, labels = _screen_texts(services, f"/history/{doc.id}")
    assert [label for label in labels if re.match(r"^\d\. \w+: \d+", label)][:3] == [
        "1. Ben: 12",
        "2. Cat: 12",
        "3. Ann: 8",
    ]
    assert "3 play-off wins" in texts and "1 play-off win" in texts
    assert result.verdict is not None and result.verdict.headline in texts


def test_the_live_view_shows_the_verdict_and_shared_places(services: Any) -> None:
    table = services.sessions.start("bargain-bin", ["Fay", "Gus", "Hal", "Ivy"])
    for hand in hal_and_ivy()["hands"]:
        table.add_hand(hand)
    result = table.result
    assert result.verdict is not None and result.verdict.decider is Decider.NEXT_HIGHEST
    texts, labels = _screen_texts(services, f"/live/{table.id}")
    assert result.verdict.headline in texts
    assert all(reason in texts for reason in result.verdict.reasons.values())
    rows = [label for label in labels if re.match(r"^\d+\. \w+: -?\d+ points", label)]
    assert rows == row_labels(result)
    assert rows[:2] == ["1. Ivy: 10 points (last hand +1), equal first", "1. Hal: 7 points (last hand +1), equal first"]
    assert texts.count("=1") == 2
