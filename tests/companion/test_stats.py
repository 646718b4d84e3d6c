"""Statistics: positions by each game's winner rule, per-player and per-game figures, head-to-head, the cache."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

import companion.stats
from companion.stats import (
    CACHE_FILE,
    CACHE_VERSION,
    Outcome,
    OutcomeCache,
    compute,
    format_average,
    format_rate,
    statistics,
)
from scoring import find_game
from storage import Archive, SessionStatus
from tests.conftest import CASES

# 1111-9999, OO-E9: A 7050, B 4200, C 5100 -> Ben wins (lowest)
ONES_RECORD: dict[str, Any] = {
    "game": "1111-9999",
    "players": ["Ann", "Ben", "Cat"],
    "sides": {"Ann": "A", "Ben": "A", "Cat": "A"},
    "options": {},
    "hands": [
        {"table": "4239", "numbers": {"Ann": "7764", "Ben": "6339", "Cat": "1689"}},
        {"table": "4239", "numbers": {"Ann": "7764", "Ben": "6339", "Cat": "1689"}},
    ],
}


def jokers_playoff_record() -> dict[str, Any]:
    """Jokers Kill, JK-E11: Ann 8, Ben 12, Cat 12; Ben wins the play-off."""
    record: dict[str, Any] = json.loads((CASES / "jokers-kill" / "14-playoff-first-to-three.json").read_text())[
        "record"
    ]
    return record


def save_scored(archive: Archive, record: dict[str, Any], title: str | None = None) -> str:
    result = find_game(record["game"]).score(record)
    status = SessionStatus.FINISHED if result.finished else SessionStatus.IN_PROGRESS
    return archive.create_session(record, status=status, winners=list(result.winners), title=title).id


def test_doctests() -> None:
    result = doctest.testmod(companion.stats)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("game", "totals", "winners", "expected"),
    [
        # highest wins, no tie: 1, 2, 3
        ("jokers-kill", {"A": 10, "B": 30, "C": 20}, ["B"], (3, 1, 2)),
        # lowest wins (1111-9999)
        ("1111-9999", {"A": 10, "B": 30, "C": 20}, ["A"], (1, 3, 2)),
        # joint winners share 1st; the next is 3rd
        ("financial-crisis", {"A": 9, "B": 9, "C": 4}, ["A", "B"], (1, 1, 3)),
        # a tie for 2nd shares 2nd; the next is 4th
        ("jokers-kill", {"A": 9, "B": 5, "C": 5, "D": 1}, ["A"], (1, 2, 2, 4)),
        # a tie broken by a play-off: the loser of the play-off is 2nd even with the same total
        ("jokers-kill", {"A": 8, "B": 12, "C": 12}, ["C"], (3, 2, 1)),
        # no winner: placed by total alone
        ("jokers-kill", {"A": 3, "B": 7}, [], (2, 1)),
    ],
)
def test_positions_are_the_standings_places(
    game: str, totals: dict[str, int], winners: list[str], expected: tuple[int, ...]
) -> None:
    outcome = Outcome.of("s", game, totals, winners, "t")
    assert outcome.positions == expected


def test_outcome_of_keeps_seating_order_and_winners_in_seats() -> None:
    outcome = Outcome.of("s", "1111-9999", {"Ann": 7050, "Ben": 4200, "Cat": 5100}, ["Ben"], "t")
    assert outcome.players == ("Ann", "Ben", "Cat")
    assert outcome.totals == (7050, 4200, 5100)
    assert outcome.positions == (3, 1, 2)
    assert outcome.winners == ("Ben",)


def outcomes() -> list[Outcome]:
    return [
        Outcome.of("g1", "jokers-kill", {"Ann": 8, "Ben": 12, "Cat": 12}, ["Ben"], "2026-01-01"),
        Outcome.of("g2", "jokers-kill", {"Ann": 14, "Ben": 6}, ["Ann"], "2026-01-02"),
        Outcome.of("g3", "1111-9999", {"Ann": 7050, "Ben": 4200, "Cat": 5100}, ["Ben"], "2026-01-03"),
        Outcome.of("g4", "1111-9999", {"Ann": 3000, "Ben": 3000}, ["Ann", "Ben"], "2026-01-04"),
    ]


def test_player_figures_by_hand() -> None:
    stats = compute(outcomes())
    assert stats.games == 4
    ben = stats.player("Ben")
    # Ben: g1 1st (win), g2 2nd, g3 1st (win), g4 1st (joint win)
    assert (ben.games, ben.wins) == (4, 3)
    assert ben.win_rate == pytest.approx(0.75)
    assert ben.average_position == pytest.approx((1 + 2 + 1 + 1) / 4)
    ann = stats.player("Ann")
    # Ann: g1 3rd, g2 1st (win), g3 3rd, g4 1st (joint win)
    assert (ann.games, ann.wins, ann.average_position) == (4, 2, 2.0)
    cat = stats.player("Cat")
    # Cat: g1 2nd (lost the play-off), g3 2nd
    assert (cat.games, cat.wins, cat.win_rate, cat.average_position) == (2, 0, 0.0, 2.0)
    assert [p.name for p in stats.players] == ["Ben", "Ann", "Cat"]
    assert stats.wins_per_player() == [("Ben", 3), ("Ann", 2), ("Cat", 0)]


def test_best_result_is_lowest_for_1111_9999_and_highest_otherwise() -> None:
    stats = compute(outcomes())
    ben = {line.game: line for line in stats.player("Ben").by_game}
    assert ben["jokers-kill"].best_result == 12  # 12 and 6: the highest
    assert ben["jokers-kill"].average_result == pytest.approx(9.0)
    assert ben["1111-9999"].best_result == 3000  # 4200 and 3000: the lowest
    assert ben["1111-9999"].average_result == pytest.approx(3600.0)
    assert ben["1111-9999"].average_position == 1.0
    ann = {line.game: line for line in stats.player("Ann").by_game}
    assert ann["jokers-kill"].best_result == 14
    assert ann["1111-9999"].best_result == 3000
    assert (ann["jokers-kill"].games, ann["jokers-kill"].wins, ann["jokers-kill"].win_rate) == (2, 1, 0.5)
    assert ann["jokers-kill"].name == "Jokers Kill"


def test_head_to_head_by_hand() -> None:
    stats = compute(outcomes())
    ann = {h.opponent: h for h in stats.versus("Ann")}
    # Ann v Ben: g1 behind, g2 ahead, g3 behind, g4 level
    assert (ann["Ben"].games, ann["Ben"].ahead, ann["Ben"].behind, ann["Ben"].level) == (4, 1, 2, 1)
    # Ann v Cat: g1 behind (3rd v 2nd), g3 behind
    assert (ann["Cat"].games, ann["Cat"].ahead, ann["Cat"].behind, ann["Cat"].level) == (2, 0, 2, 0)
    ben = {h.opponent: h for h in stats.versus("Ben")}
    assert (ben["Ann"].ahead, ben["Ann"].behind, ben["Ann"].level) == (2, 1, 1)  # the mirror image
    assert (ben["Cat"].games, ben["Cat"].ahead, ben["Cat"].behind) == (2, 2, 0)


def test_game_filter() -> None:
    stats = compute(outcomes(), game="1111-9999")
    assert stats.games == 2 and stats.game == "1111-9999"
    assert stats.player("Ann").games == 2 and stats.player("Ann").wins == 1
    assert [line.game for line in stats.player("Ann").by_game] == ["1111-9999"]
    with pytest.raises(KeyError):
        compute(outcomes(), game="feast-and-famine").player("Ann")


def test_resolve_joins_earlier_names() -> None:
    renamed = [
        Outcome.of("a", "jokers-kill", {"Ann": 10, "Ben": 4}, ["Ann"], "t1"),
        Outcome.of("b", "jokers-kill", {"Annie": 2, "Ben": 9}, ["Ben"], "t2"),
    ]
    stats = compute(renamed, resolve=lambda n: "Annie" if n == "Ann" else n)
    annie = stats.player("Annie")
    assert (annie.games, annie.wins, annie.average_position) == (2, 1, 1.5)
    with pytest.raises(KeyError):
        stats.player("Ann")


def test_formatting() -> None:
    assert format_rate(0.75) == "75%"
    assert format_rate(0.0) == "0%"
    assert format_average(1.25) in ("1.2", "1.3")
    assert format_average(3.0) == "3"


def test_statistics_from_an_archive(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        save_scored(archive, jokers_playoff_record(), "Friday")
        save_scored(archive, ONES_RECORD, "Saturday")
        unfinished = dict(ONES_RECORD, hands=ONES_RECORD["hands"][:1])
        save_scored(archive, unfinished, "Sunday")  # not finished: not counted
        stats = statistics(archive)
        assert stats.games == 2
        ben = stats.player("Ben")
        assert (ben.games, ben.wins, ben.average_position) == (2, 2, 1.0)
        assert {line.game: line.best_result for line in ben.by_game} == {"jokers-kill": 12, "1111-9999": 4200}
        cat = stats.player("Cat")
        assert (cat.wins, cat.average_position) == (0, 2.0)  # 2nd after the play-off, 2nd on 5100
        ann = stats.player("Ann")
        assert (ann.wins, ann.average_position) == (0, 3.0)
        assert {line.game: line.best_result for line in ann.by_game} == {"jokers-kill": 8, "1111-9999": 7050}
        assert (tmp_path / "data" / CACHE_FILE).exists()


def test_cache_is_reused_and_follows_record_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Archive(tmp_path / "data") as archive:
        sid = save_scored(archive, ONES_RECORD)
        cache = OutcomeCache(tmp_path / "data" / CACHE_FILE)
        first = cache.outcomes(archive)
        assert [o.winners for o in first] == [("Ben",)]

        # a fresh cache object reads the file: no session is loaded again
        def refuse(session_id: str) -> Any:
            raise AssertionError("the cached outcome should have been used")

        monkeypatch.setattr(archive, "load_session", refuse)
        again = OutcomeCache(tmp_path / "data" / CACHE_FILE).outcomes(archive)
        assert [(o.totals, o.positions) for o in again] == [((7050, 4200, 5100), (3, 1, 2))]
        monkeypatch.undo()

        # correct hand 2 so that Cat wins: the fingerprint changes and the outcome is recomputed
        doc = archive.load_session(sid)
        record = json.loads(json.dumps(doc.record))
        record["hands"][1]["numbers"]["Cat"] = "4239"  # exact: 0 points -> Cat 2550
        result = find_game("1111-9999").score(record)
        archive.save_session(doc.model_copy(update={"record": record, "winners": list(result.winners)}), "fix")
        changed = cache.outcomes(archive)
        assert changed[0].winners == ("Cat",)
        assert dict(zip(changed[0].players, changed[0].totals, strict=True))["Cat"] == 2550


def test_damaged_record_is_left_out_with_a_message(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        bad = dict(ONES_RECORD, hands=[{"table": "42", "numbers": {}}])
        archive.create_session(bad, status=SessionStatus.FINISHED, winners=["Ben"], title="Broken")
        save_scored(archive, ONES_RECORD)
        cache = OutcomeCache(None)
        assert len(cache.outcomes(archive)) == 1
        assert len(cache.problems) == 1 and cache.problems[0].startswith("Broken is left out of the statistics")


def test_the_app_owns_one_outcome_cache_of_its_folder(tmp_path: Path) -> None:
    from companion.services import AppServices

    with AppServices.open(tmp_path / "a") as a, AppServices.open(tmp_path / "b") as b:
        assert a.stats is a.stats and a.stats is not b.stats
        assert a.stats.path == (tmp_path / "a" / CACHE_FILE) and b.stats.path == (tmp_path / "b" / CACHE_FILE)


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        save_scored(archive, ONES_RECORD)
        (tmp_path / "data" / CACHE_FILE).write_text("{not json")
        assert len(OutcomeCache(tmp_path / "data" / CACHE_FILE).outcomes(archive)) == 1
        assert json.loads((tmp_path / "data" / CACHE_FILE).read_text())["version"] == CACHE_VERSION


def test_remembered_statistics_follow_new_games_and_renames(tmp_path: Path) -> None:
    from companion.players import PlayerDirectory

    with Archive(tmp_path / "data") as archive:
        save_scored(archive, ONES_RECORD)
        cache = OutcomeCache(None)
        players = PlayerDirectory(archive)
        first = cache.statistics(archive, aliases=players.aliases())
        assert cache.statistics(archive, aliases=players.aliases()) is first  # nothing changed: remembered
        assert first.player("Ben").games == 1
        save_scored(archive, jokers_playoff_record())
        second = cache.statistics(archive, aliases=players.aliases())
        assert second is not first and second.player("Ben").games == 2
        ben = players.find("Ben")
        assert ben is not None
        players.rename(ben.id, "Benjamin")
        third = cache.statistics(archive, aliases=players.aliases())
        assert (third.player("Benjamin").games, third.player("Benjamin").wins) == (2, 2)
        only = cache.statistics(archive, game="1111-9999", aliases=players.aliases())
        assert only.games == 1 and only.player("Benjamin").by_game[0].best_result == 4200


def test_warm_up_fills_the_cache_in_the_background(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        save_scored(archive, ONES_RECORD)
        cache = OutcomeCache(tmp_path / "data" / CACHE_FILE)
        thread = cache.warm_up(archive)
        assert thread is not None
        thread.join(timeout=30)
        assert (tmp_path / "data" / CACHE_FILE).exists()
        assert cache.statistics(archive).player("Ben").wins == 1


def test_a_cache_of_the_old_version_is_recomputed(tmp_path: Path) -> None:
    """Version 1 kept positions of another rule: such a file is not trusted, the outcome is replayed again."""
    with Archive(tmp_path / "data") as archive:
        sid = save_scored(archive, jokers_playoff_record())
        fingerprint = archive.list_sessions()[0].fingerprint
        old = {"fp": fingerprint, "game": "jokers-kill", "players": ["Ann", "Ben", "Cat"], "totals": [8, 12, 12]}
        old |= {"positions": [9, 9, 9], "winners": ["Ben"]}
        (tmp_path / "data" / CACHE_FILE).write_text(json.dumps({"version": 1, "entries": {sid: old}}))
        [outcome] = OutcomeCache(tmp_path / "data" / CACHE_FILE).outcomes(archive)
        assert outcome.positions == (3, 1, 2)
        assert json.loads((tmp_path / "data" / CACHE_FILE).read_text())["version"] == CACHE_VERSION
