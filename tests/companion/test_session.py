"""The session service without any screen: hands in, standings out, corrections, undo/redo, extra parts, listeners,
optimistic concurrency, and a full disk that loses nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion.session import (
    NoSuchHandError,
    NothingToUndoError,
    SaveFailedError,
    SessionService,
    StaleEditError,
    TableSession,
    UnknownPartError,
    describe_change,
    status_of,
)
from scoring import ScoringError, Step
from storage import Archive, SessionStatus, StorageWriteError
from tests.support.records import end_of_main_game

PLAYERS = ["Ann", "Ben", "Cat"]
H1 = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}  # JK-E2: Ann 2
H2 = {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}}  # JK-E4: Ben 3


def saved_record(archive: Archive, table: TableSession) -> dict[str, Any]:
    return archive.load_session(table.id).record


def test_a_hand_is_scored_and_saved_at_once(archive: Archive, table: TableSession) -> None:
    result = table.add_hand(H1)
    assert result.totals == {"Ann": 2, "Ben": 0, "Cat": 0}
    assert table.result.hands[0].notes, "every hand says why"
    assert saved_record(archive, table)["hands"] == [H1]
    assert table.version == 1 and table.step is Step.HAND
    assert archive.load_session(table.id).log[-1].action == "hand 1 entered"


def test_an_invalid_hand_is_refused_and_nothing_changes(archive: Archive, table: TableSession) -> None:
    table.add_hand(H1)
    again = {"up": "9S", "cards": {"Ann": "2H", "Ben": "3D", "Cat": "5C"}}
    assert not table.can_add_hand(again)
    with pytest.raises(ScoringError, match="9♠ appears twice"):
        table.add_hand(again)
    assert table.version == 1 and table.hands == [H1]
    assert saved_record(archive, table)["hands"] == [H1]


def test_correcting_a_hand_rederives_everything_after_it(archive: Archive, table: TableSession) -> None:
    table.add_hand(H1)
    table.add_hand(H2)
    assert table.result.totals == {"Ann": 2, "Ben": 3, "Cat": 0}
    swapped = {"up": "9S", "cards": {"Ann": "7D", "Ben": "4H", "Cat": "QC"}}
    table.replace_hand(0, swapped)
    assert table.result.totals == {"Ann": 0, "Ben": 5, "Cat": 0}
    assert saved_record(archive, table)["hands"][0] == swapped
    assert table.log[-1] == "hand 1 corrected: cards Ann 4♥ → 7♦; cards Ben 7♦ → 4♥"
    with pytest.raises(NoSuchHandError):
        table.replace_hand(5, H1)


def test_undo_and_redo_cover_the_last_actions(archive: Archive, table: TableSession) -> None:
    with pytest.raises(NothingToUndoError):
        table.undo()
    table.add_hand(H1)
    table.add_hand(H2)
    assert table.undo_description == "hand 2 entered"
    table.undo()
    assert table.hands == [H1] and saved_record(archive, table)["hands"] == [H1]
    table.undo()
    assert table.hands == [] and table.result.totals["Ann"] == 0
    table.redo()
    assert table.hands == [H1]
    assert table.can_redo()
    table.add_hand(H2)  # a new change forgets what could be redone
    assert not table.can_redo()
    with pytest.raises(NothingToUndoError):
        table.redo()
    assert [a for a in table.log if a.startswith(("undo", "redo"))] == [
        "undo: hand 2 entered",
        "undo: hand 1 entered",
        "redo: hand 1 entered",
    ]


def test_remove_last_hand(table: TableSession) -> None:
    with pytest.raises(NoSuchHandError):
        table.remove_last_hand()
    table.add_hand(H1)
    table.remove_last_hand()
    assert table.hands == []


def test_an_edit_on_an_older_version_is_refused(table: TableSession) -> None:
    seen = table.version
    table.add_hand(H1, expected_version=seen)
    with pytest.raises(StaleEditError, match="someone else changed this game"):
        table.add_hand(H2, expected_version=seen)
    with pytest.raises(StaleEditError):
        table.undo(expected_version=seen)
    assert table.hands == [H1]


def test_concurrent_edits_from_the_same_version_one_wins(table: TableSession) -> None:
    version = table.version
    outcomes: list[str] = []

    def enter(hand: dict[str, Any]) -> None:
        try:
            table.add_hand(hand, expected_version=version)
            outcomes.append("ok")
        except StaleEditError:
            outcomes.append("stale")

    threads = [threading.Thread(target=enter, args=(hand,)) for hand in (H1, H2, H1, H2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale", "stale", "stale"]
    assert len(table.hands) == 1


def test_listeners_hear_every_change_and_a_broken_one_is_dropped(table: TableSession) -> None:
    heard: list[int] = []

    def broken(session: TableSession) -> None:
        raise RuntimeError("a closed browser tab")

    table.subscribe(broken)
    unsubscribe = table.subscribe(lambda session: heard.append(session.version))
    table.add_hand(H1)
    table.undo()
    unsubscribe()
    table.redo()
    assert heard == [1, 2]


def test_the_play_off_is_an_extra_part_entered_hand_by_hand(archive: Archive, service: SessionService) -> None:
    table = service.start("jokers-kill", PLAYERS, {"playoff_wins": 2})
    end_of_main_game(table)
    assert table.step is Step.PLAYOFF
    assert table.result.pending is not None and table.result.pending.players == ["Ann", "Ben"]
    assert service.archive.summary(table.id).status is SessionStatus.PENDING
    with pytest.raises(UnknownPartError):
        table.append_part("bonus", {})
    with pytest.raises(ScoringError):
        table.append_part("playoff", {"up": "9S", "cards": {"Ann": "4H", "Cat": "7D"}})
    table.append_part("playoff", {"up": "9S", "cards": {"Ann": "7D", "Ben": "4H"}})
    table.replace_part("playoff", 0, {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}})
    assert table.log[-1] == "play-off hand 1 corrected: cards Ann 7♦ → 4♥; cards Ben 4♥ → 7♦"
    with pytest.raises(NoSuchHandError):
        table.replace_part("playoff", 3, {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}})
    table.append_part("playoff", {"up": "9S", "cards": {"Ann": "3H", "Ben": "8D"}})
    assert table.step is Step.FINISHED and table.result.winners == ["Ann"]
    assert archive.summary(table.id).status is SessionStatus.FINISHED
    assert table.part("playoff") == saved_record(archive, table)["playoff"]
    assert status_of(table.result) is SessionStatus.FINISHED


FF_TIED = [
    {"dealer": "Ann", "outcome": {"Ann": 5, "Ben": 5}},
    {"dealer": "Ben", "outcome": {"Ann": "out", "Ben": "out"}},
]
"""A one-circuit Feast and Famine game of two players that ends tied on 5."""


def test_a_one_round_tie_break_is_corrected_and_stays_one_object(archive: Archive, service: SessionService) -> None:
    table = service.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    for hand in FF_TIED:
        table.add_hand(hand)
    assert table.step is Step.TIEBREAK
    table.append_part("tiebreak", {"ghost": None, "outcome": {"Ann": 7, "Ben": "out"}})
    assert saved_record(archive, table)["tiebreak"] == {"ghost": None, "outcome": {"Ann": 7, "Ben": "out"}}
    assert table.result.winners == ["Ann"]
    table.replace_part("tiebreak", 0, {"ghost": None, "outcome": {"Ann": "out", "Ben": 4}})
    assert saved_record(archive, table)["tiebreak"] == {"ghost": None, "outcome": {"Ann": "out", "Ben": 4}}
    assert table.result.winners == ["Ben"]
    assert table.log[-1] == "tie-break round 1 corrected: outcome Ann 7 → out; outcome Ben out → 4"
    with pytest.raises(NoSuchHandError, match="no tie-break round 2"):
        table.replace_part("tiebreak", 1, {"ghost": None, "outcome": {"Ann": 1, "Ben": 2}})
    # all out with nobody else seated: the round is replayed (FF-10), still one valid object until the next round
    table.replace_part("tiebreak", 0, {"ghost": None, "outcome": {"Ann": "out", "Ben": "out"}})
    assert table.step is Step.TIEBREAK and isinstance(saved_record(archive, table)["tiebreak"], dict)
    table.append_part("tiebreak", {"ghost": None, "outcome": {"Ann": 3, "Ben": 2}})
    assert table.result.winners == ["Ann"] and len(table.part("tiebreak")) == 2
    # a list of rounds stays a list; a correction that decides round 1 leaves round 2 after a decided one: refused
    with pytest.raises(ScoringError, match="after the tie-break had decided"):
        table.replace_part("tiebreak", 0, {"ghost": None, "outcome": {"Ann": 1, "Ben": "out"}})
    assert saved_record(archive, table)["tiebreak"][1] == {"ghost": None, "outcome": {"Ann": 3, "Ben": 2}}
    table.replace_part("tiebreak", 1, {"ghost": None, "outcome": {"Ann": 2, "Ben": 3}})
    assert isinstance(saved_record(archive, table)["tiebreak"], list) and table.result.winners == ["Ben"]


def test_a_sudden_death_hand_is_corrected(archive: Archive, service: SessionService) -> None:
    table = service.start("1111-9999", ["Ann", "Ben"], {"target": 40}, extra={"sides": {"Ann": "A", "Ben": "B"}})
    table.add_hand({"table": "4239", "numbers": {"Ann": "4199", "Ben": "9364"}})
    assert table.step is Step.SUDDEN_DEATH
    table.append_part("sudden_death", {"table": "123", "numbers": {"Ann": "124", "Ben": "322"}})
    table.append_part("sudden_death", {"table": "518", "numbers": {"Ann": "629", "Ben": "741"}})
    assert table.result.winners == ["Ben"]
    with pytest.raises(ScoringError, match="already won"):  # hand 1 deciding leaves hand 2 after the end
        table.replace_part("sudden_death", 0, {"table": "123", "numbers": {"Ann": "124", "Ben": "321"}})
    table.replace_part("sudden_death", 1, {"table": "518", "numbers": {"Ann": "519", "Ben": "741"}})
    assert table.result.winners == ["Ann"]
    assert saved_record(archive, table)["sudden_death"][1] == {"table": "518", "numbers": {"Ann": "519", "Ben": "741"}}
    assert table.log[-1] == "sudden-death hand 2 corrected: numbers Ann 629 → 519"


def test_a_full_disk_keeps_the_change_in_memory_until_retry(
    archive: Archive, table: TableSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.add_hand(H1)
    real_save = archive.save_session

    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageWriteError(Path("session.json"), OSError(28, "No space left on device"))

    monkeypatch.setattr(archive, "save_session", full)
    heard: list[int] = []
    table.subscribe(lambda session: heard.append(session.version))
    with pytest.raises(SaveFailedError, match="the disk is full"):
        table.add_hand(H2)
    assert table.hands == [H1, H2], "the hand stays in memory"
    assert table.result.totals["Ben"] == 3 and heard == [2]
    assert table.save_error is not None and "disk is full" in table.save_error
    assert saved_record(archive, table)["hands"] == [H1]
    with pytest.raises(SaveFailedError):
        table.retry_save()
    monkeypatch.setattr(archive, "save_session", real_save)
    table.retry_save()
    assert table.save_error is None and table.unsaved is None
    assert saved_record(archive, table)["hands"] == [H1, H2]
    assert "saved after an earlier failure: hand 2 entered" in table.log[-1]
    table.retry_save()  # nothing left to save: a no-op


def test_reopening_finds_the_same_place(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        service = SessionService(archive)
        table = service.start("jokers-kill", PLAYERS, title="Friday")
        table.add_hand(H1)
        assert service.open(table.id) is table
        session_id = table.id
    with Archive(tmp_path / "data") as archive:
        again = SessionService(archive).open(session_id)
        assert again.hands == [H1] and again.result.totals["Ann"] == 2
        assert [s.id for s in SessionService(archive).unfinished()] == [session_id]


def test_unfinished_lists_games_still_being_played(service: SessionService) -> None:
    playing = service.start("jokers-kill", PLAYERS)
    pending = service.start("jokers-kill", PLAYERS, {"playoff_wins": 1})
    end_of_main_game(pending)
    done = service.start("jokers-kill", PLAYERS, {"playoff_wins": 1})
    end_of_main_game(done)
    done.append_part("playoff", {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}})
    assert done.result.finished and pending.result.pending is not None
    assert {s.id for s in service.unfinished()} == {playing.id, pending.id}


def test_an_invalid_set_up_is_refused(service: SessionService) -> None:
    with pytest.raises(ScoringError):
        service.start("jokers-kill", ["Ann"])
    with pytest.raises(ScoringError):
        service.start("jokers-kill", ["Ann", "Ben"], {"jokers": 3})
    assert service.unfinished() == []


def jk_draft(up: str | None, cards: dict[str, str] | None = None) -> dict[str, Any]:
    """A Jokers Kill hand being entered, as its entry screen keeps it."""
    return {"up": up, "buried": [], "cards": dict(cards or {}), "tiebreaks": []}


def test_drafts_are_kept_per_target(table: TableSession) -> None:
    table.set_draft({"up": "9S"})
    table.set_draft({"up": "8S"}, "hands/0")
    draft = table.draft()
    assert draft == {"up": "9S"}
    draft["up"] = "XX"
    assert table.draft() == {"up": "9S"}, "a copy"
    table.set_draft(None)
    assert table.draft() is None and table.draft("hands/0") == {"up": "8S"}


def test_a_half_entered_hand_survives_a_restart(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        table.add_hand(H1)
        table.set_draft(jk_draft("8S", {"Ann": "2H"}))
        table.set_draft(jk_draft("9S"), "hands/0")
        session_id = table.id
    with Archive(tmp_path / "data") as archive:
        again = SessionService(archive).open(session_id)
        assert again.draft() == jk_draft("8S", {"Ann": "2H"})
        assert again.draft("hands/0") == jk_draft("9S")
        again.set_draft(None)
        again.set_draft(None, "hands/0")
        assert not (tmp_path / "data" / "drafts" / f"{session_id}.drafts.json").exists(), "nothing left to keep"
    with Archive(tmp_path / "data") as archive:
        assert SessionService(archive).open(session_id).draft() is None


def test_a_draft_kept_while_hands_are_confirmed_follows_the_game(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        table.set_draft(jk_draft("8S"), "hands/0")
        table.add_hand(H1)  # confirmed while the correction is still being entered
        session_id = table.id
    with Archive(tmp_path / "data") as archive:
        assert SessionService(archive).open(session_id).draft("hands/0") == jk_draft("8S")


def test_a_draft_its_entry_screen_cannot_read_is_set_aside_and_the_game_opens(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        table.set_draft(jk_draft("8S"))
        table.set_draft({"up": "9S", "cards": {}}, "hands/0")  # no 'buried', no 'tiebreaks': the screen reads both
        session_id = table.id
    path = tmp_path / "data" / "drafts" / f"{session_id}.drafts.json"
    with Archive(tmp_path / "data") as archive:
        again = SessionService(archive).open(session_id)
        assert again.drafts == {} and again.hands == []
        (notice,) = archive.take_damage_notices()
        assert notice.name == f"drafts/{session_id}.drafts.json" and "lacks 'buried', 'tiebreaks'" in notice.why
        assert not path.exists() and notice.kept_as is not None and notice.kept_as.exists()


def test_drafts_of_an_older_state_are_dropped(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        table.add_hand(H1)
        archive.save_drafts(table.id, {"new": {"up": "9S"}}, stamp=0)  # written before hand 1 was confirmed
        session_id = table.id
    with Archive(tmp_path / "data") as archive:
        assert SessionService(archive).open(session_id).draft() is None


def test_damaged_drafts_are_set_aside_and_the_game_opens(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        table.add_hand(H1)
        table.set_draft({"up": "8S"})
        session_id = table.id
    path = tmp_path / "data" / "drafts" / f"{session_id}.drafts.json"
    path.write_bytes(b'{"session": "' + session_id.encode() + b'", "stamp": 2, "dra')
    with Archive(tmp_path / "data") as archive:
        again = SessionService(archive).open(session_id)
        assert again.hands == [H1] and again.draft() is None
        assert any(p.startswith(f"{session_id}.drafts.json could not be read") for p in archive.problems)
        assert not path.exists() and list((tmp_path / "data" / "damaged").glob(f"{session_id}.drafts.json.*"))


def test_a_disk_that_refuses_drafts_keeps_them_in_memory(
    archive: Archive, table: TableSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageWriteError(Path("drafts.json"), OSError(28, "No space left on device"))

    monkeypatch.setattr(archive, "save_drafts", full)
    draft = {"up": "5S", "buried": [], "cards": {}, "tiebreaks": []}
    table.set_draft(draft)
    assert table.draft() == draft
    table.add_hand(H1)
    assert table.hands == [H1] and table.draft() == draft


def test_deleting_a_session_deletes_its_drafts(archive: Archive, table: TableSession, tmp_path: Path) -> None:
    table.set_draft({"up": "9S"})
    path = tmp_path / "data" / "drafts" / f"{table.id}.drafts.json"
    assert path.exists()
    archive.delete_session(table.id)
    assert not path.exists()


def test_describe_change_names_what_changed() -> None:
    assert describe_change({"void": False}, {"void": False}) == "no change"
    assert describe_change({"up": "9S", "x": 1}, {"up": "9S"}) == "x: 1 → (removed)"
