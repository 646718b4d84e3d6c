"""History: the filtered list, the hand-by-hand replay with standings and "why", the edit log, corrections."""

from __future__ import annotations

import doctest
import json
from datetime import UTC, date, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

import companion.history
from companion.history import (
    DateRangeError,
    HistoryFilter,
    corrections,
    describe_entry,
    edit_line,
    edit_log,
    filter_sessions,
    parse_date,
    replay,
    row_of,
)
from companion.players import PlayerDirectory
from companion.session import SessionService
from storage import Archive, LogEntry, SessionStatus, SessionSummary
from tests.conftest import CASES

# Jokers Kill, hand by hand (rules 4.1-4.3):
#  1. up 9♠: Ann 4♥, Ben 7♦, Cat Q♣ -> nobody matches, 4 lowest and below 9: Ann 2
#  2. up 3♠: Ann 6♥, Ben 10♦, Cat K♣ -> 6 lowest, above 3: Ann 1
#  3. up 8♠: Ann 2♥, Ben 8♦, Cat 5♣ -> Ben alone matches: Ben 3
JK_RECORD: dict[str, Any] = {
    "game": "jokers-kill",
    "players": ["Ann", "Ben", "Cat"],
    "options": {},
    "hands": [
        {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}},
        {"up": "3S", "cards": {"Ann": "6H", "Ben": "10D", "Cat": "KC"}},
        {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}},
    ],
}


def summary(
    sid: str,
    game: str = "jokers-kill",
    players: tuple[str, ...] = ("Ann", "Ben"),
    updated: str = "2026-11-27T20:07:00.000Z",
    title: str | None = None,
    status: SessionStatus = SessionStatus.FINISHED,
    winners: tuple[str, ...] = ("Ann",),
) -> SessionSummary:
    return SessionSummary(sid, game, title, players, status, winners, updated, updated, 3, "fp" + sid)


SUMMARIES = [
    summary("a", updated="2026-11-20T19:00:00.000Z", title="Friday night"),
    summary("b", game="1111-9999", players=("Ben", "Cat"), updated="2026-11-27T21:00:00.000Z", winners=("Cat",)),
    summary("c", players=("Dan", "Ann"), updated="2026-11-25T10:00:00.000Z", status=SessionStatus.IN_PROGRESS),
    summary("d", game="feast-and-famine", players=("Annie", "Eve"), updated="2026-11-26T12:00:00.000Z"),
]


def ids(rows: list[SessionSummary]) -> list[str]:
    return [s.id for s in rows]


def test_doctests() -> None:
    result = doctest.testmod(companion.history)
    assert result.attempted > 0 and result.failed == 0


# --- the list ------------------------------------------------------------------------------------------------


def test_newest_first_without_a_filter() -> None:
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(), tz=UTC)) == ["b", "d", "c", "a"]


def test_filter_by_game_player_and_date() -> None:
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(game="jokers-kill"), tz=UTC)) == ["c", "a"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(player="ann"), tz=UTC)) == ["c", "a"]
    rename = {"Ann": "Annie"}.get
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(player="Annie"), resolve=lambda n: rename(n) or n, tz=UTC)) == [
        "d",
        "c",
        "a",
    ]
    week = HistoryFilter(since=date(2026, 11, 25), until=date(2026, 11, 26))
    assert ids(filter_sessions(SUMMARIES, week, tz=UTC)) == ["d", "c"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(since=date(2026, 11, 27)), tz=UTC)) == ["b"]
    both = HistoryFilter(game="jokers-kill", player="Ben")
    assert ids(filter_sessions(SUMMARIES, both, tz=UTC)) == ["a"]


def test_dates_are_local_days() -> None:
    # 21:00 UTC on the 27th is already the 28th at UTC+5
    plus_five = timezone(timedelta(hours=5))
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(since=date(2026, 11, 28)), tz=plus_five)) == ["b"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(since=date(2026, 11, 28)), tz=UTC)) == []


def test_search_matches_every_word_anywhere() -> None:
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="night"), tz=UTC)) == ["a"]
    # "who won last Friday": the 20th and the 27th were Fridays
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="friday"), tz=UTC)) == ["b", "a"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="1111"), tz=UTC)) == ["b"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="feast EVE"), tz=UTC)) == ["d"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="progress"), tz=UTC)) == ["c"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="2026-11-20"), tz=UTC)) == ["a"]
    assert ids(filter_sessions(SUMMARIES, HistoryFilter(search="ann zed"), tz=UTC)) == []


def test_bad_dates_are_refused_with_a_message() -> None:
    with pytest.raises(DateRangeError, match="not a date"):
        parse_date("27/11/2026")
    with pytest.raises(DateRangeError, match="ends"):
        filter_sessions(SUMMARIES, HistoryFilter(since=date(2026, 11, 27), until=date(2026, 11, 1)))


def test_row_text() -> None:
    row = row_of(SUMMARIES[0], UTC)
    assert row.title == "Friday night"
    assert row.subtitle == "Fri 20 Nov 2026, 19:00 · Ann, Ben · won by Ann"
    untitled = row_of(SUMMARIES[2], UTC)
    assert untitled.title == "Jokers Kill"
    assert untitled.subtitle.endswith("· Dan, Ann · in progress")


# --- replay --------------------------------------------------------------------------------------------------


def test_replay_hand_by_hand() -> None:
    rep = replay(JK_RECORD)
    assert rep.error is None
    assert [s.label for s in rep.steps] == ["Hand 1", "Hand 2", "Hand 3"]
    assert [s.points for s in rep.steps] == [
        {"Ann": 2, "Ben": 0, "Cat": 0},
        {"Ann": 1, "Ben": 0, "Cat": 0},
        {"Ann": 0, "Ben": 3, "Cat": 0},
    ]
    # standings after each hand (scoring.standings): (place, player, total)
    assert [(s.place, s.player, s.total) for s in rep.steps[0].standings] == [
        (1, "Ann", 2),
        (2, "Ben", 0),
        (2, "Cat", 0),
    ]
    assert [(s.place, s.player, s.total) for s in rep.steps[1].standings] == [
        (1, "Ann", 3),
        (2, "Ben", 0),
        (2, "Cat", 0),
    ]
    # after hand 3 Ben has 3 points plus the J♠/J♥/K♥ bonuses he collected (none here): Ann 3, Ben 3 level
    last = [(s.place, s.player, s.total) for s in rep.steps[2].standings]
    assert last == [(1, "Ann", 3), (1, "Ben", 3), (3, "Cat", 0)]
    assert rep.steps[0].entered == "up 9♠; cards Ann 4♥, Ben 7♦, Cat Q♣"
    assert any("2 points" in note for note in rep.steps[0].notes)
    assert any("matches" in note for note in rep.steps[2].notes)
    assert rep.final == rep.steps[2].standings
    assert not rep.finished and rep.outcome_text == "in progress"


def test_replay_of_a_lowest_wins_game() -> None:
    record = json.loads((CASES / "1111-9999" / "10-game-end-lowest-wins.json").read_text())["record"]
    rep = replay(record)
    # hand 1: Ann 3525, Ben 2100, Cat 2550; lowest is first
    assert [(s.place, s.player, s.total) for s in rep.steps[0].standings] == [
        (1, "Ben", 2100),
        (2, "Cat", 2550),
        (3, "Ann", 3525),
    ]
    assert [(s.place, s.player, s.total) for s in rep.final] == [(1, "Ben", 4200), (2, "Cat", 5100), (3, "Ann", 7050)]
    assert rep.finished and rep.outcome_text == "Ben won"


def test_replay_shows_the_play_off() -> None:
    record = json.loads((CASES / "jokers-kill" / "14-playoff-first-to-three.json").read_text())["record"]
    rep = replay(record)
    labels = [s.label for s in rep.steps]
    assert labels[:13] == [f"Hand {n}" for n in range(1, 14)]
    assert labels[13:] == [f"Play-off hand {n}" for n in range(1, 6)]
    assert rep.steps[13].entered == "up 5♠; cards Ben 5♥, Cat 9♣"
    # during the play-off the standings show its wins, and the two level on 12 share first place until it decides
    first = rep.steps[13].standings
    assert [(s.place, s.player, s.shared, s.progress) for s in first] == [
        (1, "Ben", True, "1 play-off win"),
        (1, "Cat", True, "0 play-off wins"),
        (3, "Ann", False, None),
    ]
    assert [s.progress for s in rep.final] == ["3 play-off wins", "1 play-off win", None]
    # Ben and Cat level on 12; Ben won the play-off, so he is 1st and Cat 2nd
    assert [(s.place, s.player, s.total) for s in rep.final] == [(1, "Ben", 12), (2, "Cat", 12), (3, "Ann", 8)]
    assert rep.outcome_text == "Ben won"
    assert any("play-off" in note for note in rep.notes)


def test_replay_of_a_damaged_record_says_why() -> None:
    bad = dict(JK_RECORD, hands=[*JK_RECORD["hands"], {"up": "9S", "cards": {"Ann": "9H", "Ben": "9D", "Cat": "9C"}}])
    rep = replay(bad)
    assert rep.steps == () and rep.error is not None and "twice" in rep.error
    assert rep.outcome_text == "cannot be replayed"


def test_describe_entry_forms() -> None:
    assert describe_entry({"scores": {"Ann": 7, "Ben": -2}}) == "scores Ann 7, Ben -2"
    assert describe_entry({"up": "5S", "void": True}) == "up 5♠; void yes"
    assert (
        describe_entry({"dealer": "Cat", "outcome": {"Ann": 12, "Cat": "out"}}) == "dealer Cat; outcome Ann 12, Cat out"
    )


# --- edit log ------------------------------------------------------------------------------------------------


def test_edit_log_lines() -> None:
    log = [
        LogEntry(at="2026-11-27T20:00:00.000Z", action="session started"),
        LogEntry(at="2026-11-27T20:05:00.000Z", action="hand 1 entered"),
        LogEntry(at="2026-11-27T21:07:30.000Z", action="hand 3 corrected: cards Ben 7♥ → 7♦"),
        LogEntry(at="2026-11-27T21:08:00.000Z", action="undo: hand 3 corrected: cards Ben 7♥ → 7♦"),
    ]
    lines = edit_log(log, UTC)
    assert [line.text for line in lines] == [
        "session started at 20:00",
        "hand 1 entered at 20:05",
        "hand 3 corrected at 21:07: cards Ben 7♥ → 7♦",
        "undo at 21:08: hand 3 corrected: cards Ben 7♥ → 7♦",
    ]
    assert [line.text for line in corrections(log, UTC)] == [lines[2].text, lines[3].text]
    plus_one = timezone(timedelta(hours=1))
    assert edit_line(log[2], plus_one).text.startswith("hand 3 corrected at 22:07")


# --- correcting a hand ---------------------------------------------------------------------------------------


def test_correcting_a_finished_session_is_logged(archive: Archive) -> None:
    record = json.loads((CASES / "1111-9999" / "10-game-end-lowest-wins.json").read_text())["record"]
    service = SessionService(archive)
    session = service.start("1111-9999", record["players"], extra={"sides": record["sides"]}, title="Last Friday")
    for hand in record["hands"]:
        session.add_hand(hand)
    assert archive.summary(session.id).status is SessionStatus.FINISHED
    # reopen it (as from History) and correct hand 2: Cat set down the exact row
    reopened = SessionService(archive).open(session.id)
    hand = reopened.hands[1]
    hand["numbers"]["Cat"] = "4239"
    reopened.replace_hand(1, hand)
    doc = archive.load_session(session.id)
    assert doc.winners == ["Cat"]
    assert [(s.player, s.total) for s in replay(doc.record).final][:1] == [("Cat", 2550)]
    [line] = corrections(doc.log, UTC)
    assert line.text.startswith("hand 2 corrected at ")
    assert line.text.endswith(": numbers Cat 1689 → 4239")


def test_history_of_a_renamed_player(archive: Archive) -> None:
    archive.create_session(dict(JK_RECORD), status=SessionStatus.IN_PROGRESS)
    players = PlayerDirectory(archive)
    ann = players.find("Ann")
    assert ann is not None
    players.rename(ann.id, "Annie")
    found = filter_sessions(archive.list_sessions(), HistoryFilter(player="Annie"), resolve=players.resolver())
    assert len(found) == 1


# --- export and import through files ---------------------------------------------------------------------------


def test_export_to_folder_then_import_elsewhere(tmp_path: Path) -> None:
    from companion.history import export_to_folder, import_bytes, import_path

    with Archive(tmp_path / "a") as source:
        source.create_session(dict(JK_RECORD), status=SessionStatus.IN_PROGRESS, title="Tuesday")
        json_file = export_to_folder(source, "json")
        csv_file = export_to_folder(source, "csv")
        assert json_file.parent == tmp_path / "a" / "exports" and json_file.suffix == ".json"
        assert csv_file.read_text().startswith("session_id,")
        again = export_to_folder(source, "json")
        assert again != json_file  # never overwrites an earlier export
    with Archive(tmp_path / "b") as target:
        refused = import_path(target, "  ")
        assert not refused.ok and "Type the path" in refused.messages[0]
        folder = import_path(target, str(tmp_path))
        assert not folder.ok and "is a folder" in folder.messages[0]
        missing = import_path(target, str(tmp_path / "nothing.json"))
        assert not missing.ok and "does not exist" in missing.messages[0]
        report = import_path(target, f' "{json_file}" ')
        assert report.ok and report.imported == 1
        [summary] = target.list_sessions()
        assert summary.title == "Tuesday"
        assert [s.total for s in replay(target.load_session(summary.id).record).final] == [3, 3, 0]
        twice = import_bytes(target, "../../evil name.json", json_file.read_bytes())
        assert twice.ok and twice.skipped == 1 and twice.imported == 0
        kept = list((tmp_path / "b" / "imports").iterdir())
        assert len(kept) == 1 and kept[0].name.endswith("evil-name.json")


# --- the screens, built without a browser ------------------------------------------------------------------------


def test_session_screens_build_with_labels_and_large_targets(services: Any) -> None:
    import flet as ft

    from tests.support.screens import INTERACTIVE, label_of, shell_for, walk

    record = json.loads((CASES / "1111-9999" / "10-game-end-lowest-wins.json").read_text())["record"]
    table = services.sessions.start("1111-9999", record["players"], extra={"sides": record["sides"]})
    for hand in record["hands"]:
        table.add_hand(hand)
    ben = services.players.find("Ben")
    assert ben is not None
    paths = [f"/history/{table.id}", f"/history/{table.id}/hand-2", f"/players/{ben.id}", "/stats"]
    for path in paths:
        shell, page = shell_for(services, path)
        shell.render()
        top = page.views[-1]
        assert top.route == path
        controls = list(walk(top))
        texts = [c.value for c, _ in controls if isinstance(c, ft.Text) and c.value]
        assert "This page does not exist" not in texts, (path, texts)
        for control, labelled in controls:
            if isinstance(control, INTERACTIVE):
                assert labelled or label_of(control), f"{type(control).__name__} on {path} has no label"
                height = getattr(control, "height", None) or getattr(control, "min_height", None)
                assert height is None or height >= 48, f"{type(control).__name__} on {path} is too small"
        if path.endswith(table.id):
            assert "1. Ben: 4200" in texts and "Result: Ben won" in texts
            assert any(t.startswith("Score progression chart") for t in _semantics_labels(controls))
    shell, page = shell_for(services, f"/history/{table.id}/hand-9")
    shell.render()
    texts = [c.value for c, _ in walk(page.views[-1]) if isinstance(c, ft.Text) and c.value]
    assert "This session has no hand 9." in texts


def test_a_tie_break_round_is_corrected_from_history_with_the_games_own_panel(tmp_path: Path) -> None:
    """FF-E10's tie-break (Ann 17, Ben 19 against the Ghost in Cat's seat): History offers its correction, which is
    the table's Feast and Famine panel pre-filled (the quick form, as it was entered), not a raw record editor."""
    from types import SimpleNamespace
    from typing import cast

    import flet as ft

    from companion.services import AppServices
    from tests.support.screens import INTERACTIVE, label_of, press, shell_for, walk

    def texts(view: ft.View) -> list[str]:
        return [c.value for c, _ in walk(view) if isinstance(c, ft.Text) and c.value]

    services = AppServices.open(tmp_path / "data")
    try:
        record = json.loads((CASES / "feast-and-famine" / "10-tiebreak-higher-freeze-wins.json").read_text())["record"]
        table = services.sessions.start("feast-and-famine", record["players"], title="Sunday feast")
        for hand in record["hands"]:
            table.add_hand(hand)
        table.append_part("tiebreak", record["tiebreak"])
        assert table.result.winners == ["Ben"]

        shell, page = shell_for(services, f"/history/{table.id}")
        shell.render()
        found = {label_of(c): c for c, _ in walk(page.views[-1]) if isinstance(c, INTERACTIVE)}
        assert "Correct hand 8" in found and "Correct tie-break round 1" in found
        cast(Any, found["Correct tie-break round 1"]).on_click(None)
        assert page.navigated == [f"/history/{table.id}/tiebreak-1"]

        shell, page = shell_for(services, f"/history/{table.id}/tiebreak-1")
        shell.render()
        view = page.views[-1]
        shown = texts(view)
        assert "Sunday feast: tie-break round 1 as it was entered: ghost Cat; outcome Ann 17, Ben 19" in shown
        assert "Correct tie-break round 1: Ann and Ben against the Ghost" in shown
        # the Ghost chosen in the round entered, shown on one line (dealt from: undo to the first card to choose again)
        assert "Ghost: Cat" in shown
        fields = {c.label: c for c, _ in walk(view) if isinstance(c, ft.TextField)}
        assert set(fields) == {"Ann's total", "Ben's total"}, "only the tied players, no 'dealer' or 'outcome' text"
        assert (fields["Ann's total"].value, fields["Ben's total"].value) == ("17", "19")
        typed = SimpleNamespace(control=SimpleNamespace(value="21"))  # Ann froze on 21, not 17
        cast(Any, fields["Ann's total"]).on_change(typed)
        confirm = next(c for c, _ in walk(view) if isinstance(c, INTERACTIVE) and label_of(c) == "Confirm round")
        press(confirm)
        assert page.navigated == [f"/history/{table.id}"], "back to the replay"
        assert table.record["tiebreak"] == {"ghost": "Cat", "outcome": {"Ann": 21, "Ben": 19}}
        assert table.result.winners == ["Ann"]
        assert table.log[-1] == "tie-break round 1 corrected: outcome Ann 17 → 21"
        assert table.draft("tiebreak/0") is None
    finally:
        services.close()


def _semantics_labels(controls: list[tuple[Any, bool]]) -> list[str]:
    import flet as ft

    return [c.label for c, _ in controls if isinstance(c, ft.Semantics) and isinstance(c.label, str)]


def test_chart_doctests() -> None:
    import views.charts

    result = doctest.testmod(views.charts)
    assert result.attempted > 0 and result.failed == 0
