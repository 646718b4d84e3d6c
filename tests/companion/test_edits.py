"""One edit pipeline: a frozen :class:`Edit`, made through :meth:`TableSession.make`, checked with ``verify`` /
``can_make``; one :class:`EditHost` that the host's table and a phone both use."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from companion.session import (
    EDIT_REFUSALS,
    Edit,
    EditKind,
    InvalidEditError,
    NoSuchHandError,
    NothingToUndoError,
    SaveFailedError,
    SessionService,
    StaleEditError,
    TableSession,
    UnknownPartError,
)
from companion.sharing import HOST, Access, LiveTable, NotAllowedError, Role
from scoring import Part, ScoringError
from storage import StorageWriteError
from views.edit_host import EditHost, Outcome

PLAYERS = ["Ann", "Ben", "Cat"]
HAND_ANN = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
"""Jokers Kill: Ann's 4 is the lowest under the 9 → Ann +2."""
HAND_BEN = {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}}
"""Ben pairs the up-card 8 → Ben +3."""
TWICE = {"up": "9S", "cards": {"Ann": "4H", "Ben": "4H", "Cat": "QC"}}
"""The same card twice: refused by the rules."""


def test_an_edit_is_a_frozen_value() -> None:
    edit = Edit.add(HAND_ANN, expected_version=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        edit.expected_version = 4  # type: ignore[misc]
    assert edit.at(5) == Edit.add(HAND_ANN, expected_version=5) and edit.expected_version == 3
    assert Edit.correct(0, HAND_BEN) == Edit.replace(0, HAND_BEN)


@pytest.mark.parametrize(
    ("kind", "entry", "index", "message"),
    [(EditKind.ADD, None, None, "no entry to add"), (EditKind.REPLACE, HAND_ANN, None, "which hand")],
)
def test_an_edit_that_says_too_little_is_refused_at_once(
    kind: EditKind, entry: Any, index: int | None, message: str
) -> None:
    with pytest.raises(InvalidEditError, match=message):
        Edit(kind, entry, index=index)


def test_every_kind_goes_through_make(table: TableSession) -> None:
    assert table.make(Edit.add(HAND_ANN, expected_version=0)).totals == {"Ann": 2, "Ben": 0, "Cat": 0}
    assert table.make(Edit.replace(0, HAND_BEN, expected_version=1)).totals == {"Ann": 0, "Ben": 3, "Cat": 0}
    assert table.make(Edit.undo(expected_version=2)).totals == {"Ann": 2, "Ben": 0, "Cat": 0}
    assert table.make(Edit.redo(expected_version=3)).totals == {"Ann": 0, "Ben": 3, "Cat": 0}
    assert table.make(Edit.remove_last(expected_version=4)).totals == {"Ann": 0, "Ben": 0, "Cat": 0}
    table.make(Edit.set_part("playoff", None, "play-off removed", expected_version=5))
    assert "playoff" not in table.record
    assert table.log == [
        "session started",
        "hand 1 entered",
        "hand 1 corrected: up 9♠ → 8♠; cards Ann 4♥ → 2♥; cards Ben 7♦ → 8♦; cards Cat Q♣ → 5♣",
        "undo: hand 1 corrected: up 9♠ → 8♠; cards Ann 4♥ → 2♥; cards Ben 7♦ → 8♦; cards Cat Q♣ → 5♣",
        "redo: hand 1 corrected: up 9♠ → 8♠; cards Ann 4♥ → 2♥; cards Ben 7♦ → 8♦; cards Cat Q♣ → 5♣",
        "hand 1 removed",
        "play-off removed",
    ]
    assert table.version == 6


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        (Edit.add(HAND_ANN, expected_version=0), StaleEditError),
        (Edit.add(TWICE), ScoringError),
        (Edit.replace(4, HAND_BEN), NoSuchHandError),
        (Edit.redo(), NothingToUndoError),
        (Edit.set_part("playoff", [{"up": "5S"}], "play-off set"), ScoringError),
    ],
)
def test_verify_says_what_make_would_refuse_and_neither_changes_anything(
    table: TableSession, edit: Edit, error: type[Exception]
) -> None:
    table.add_hand(HAND_ANN)
    before = (table.record, table.version, table.log)
    assert not table.can_make(edit)
    with pytest.raises(error):
        table.verify(edit)
    with pytest.raises(error):
        table.make(edit)
    assert (table.record, table.version, table.log) == before
    assert issubclass(error, EDIT_REFUSALS)


def test_an_edit_naming_an_unknown_part_cannot_be_made(table: TableSession) -> None:
    """A part is a :class:`scoring.parts.Part`: an edit naming another record key cannot be made at all, and the
    refusal is one of :data:`EDIT_REFUSALS`."""
    before = (table.record, table.version, table.log)
    with pytest.raises(UnknownPartError, match="'overtime' is not a part of a game record"):
        table.make(Edit.add({"up": "5S"}, part="overtime"))
    assert (table.record, table.version, table.log) == before
    assert issubclass(UnknownPartError, EDIT_REFUSALS)
    assert Edit.add({"up": "5S"}, part="playoff").part is Part.PLAYOFF


def test_verify_scores_without_making(table: TableSession) -> None:
    edit = Edit.add(HAND_ANN, expected_version=table.version)
    assert table.can_make(edit) and table.verify(edit).totals["Ann"] == 2
    assert table.hands == [] and table.version == 0 and not table.can_undo()


def test_the_live_table_only_adds_its_access_check(service: SessionService, table: TableSession) -> None:
    live = LiveTable(service, pin="2468")
    live.show(table.id)
    viewer = Access(Role.VIEWER, "10.0.0.9")
    edit = Edit.add(HAND_ANN, expected_version=0)
    assert not live.can_apply(viewer, table.id, edit)
    with pytest.raises(NotAllowedError):
        live.apply_as(viewer, table.id, edit)
    assert table.hands == []
    editor = live.enter_pin(viewer, "2468")
    assert live.can_apply(editor, table.id, edit)
    assert not live.can_apply(editor, table.id, Edit.add(TWICE)), "the game's own check greys it out too"
    assert live.apply_as(editor, table.id, edit).totals == table.make(Edit.undo()).totals | {"Ann": 2}
    assert live.apply_as(HOST, table.id, Edit.redo()).totals["Ann"] == 2


class Seat:
    """A phone's seat as the edit host sees it: its edits go down through the live table, with its access."""

    def __init__(self, live: LiveTable, access: Access, session_id: str) -> None:
        self.live, self.access, self.session_id = live, access, session_id

    def make(self, edit: Edit) -> Any:
        return self.live.apply_as(self.access, self.session_id, edit)

    def can_make(self, edit: Edit) -> bool:
        return self.live.can_apply(self.access, self.session_id, edit)


def test_the_edit_host_handles_each_outcome_once(table: TableSession, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str | None] = []
    host = EditHost(table, report=said.append)
    assert host.submit(Edit.add(HAND_ANN, expected_version=0)) is Outcome.MADE
    assert said == [None] and len(table.hands) == 1

    assert host.submit(Edit.add(HAND_BEN, expected_version=0)) is Outcome.STALE  # made on an older version
    assert "newest state" in str(said[-1])

    assert host.submit(Edit.add(TWICE)) is Outcome.REFUSED
    assert str(said[-1]).endswith("Nothing was changed; your entry is still here.")
    assert not host.can_submit(Edit.redo()) and host.submit(Edit.redo()) is Outcome.REFUSED
    assert said[-1] == "there is nothing to redo. Nothing was changed."
    assert len(table.hands) == 1

    def refuse(*_: Any, **__: Any) -> None:
        raise StorageWriteError(table.archive.data_dir / "x.json", OSError(28, "No space left on device"))

    monkeypatch.setattr(table.archive, "save_session", refuse)
    assert host.submit(Edit.add(HAND_BEN)) is Outcome.MADE, "made and kept in memory: the banner offers Retry save"
    assert table.save_error is not None and len(table.hands) == 2 and said[-1] is None
    with pytest.raises(SaveFailedError):
        table.retry_save()


def test_a_phone_whose_pin_was_revoked_is_told_and_redrawn(service: SessionService, table: TableSession) -> None:
    live = LiveTable(service, pin="2468")
    live.show(table.id)
    editor = live.enter_pin(Access(Role.VIEWER, "10.0.0.9"), "2468")
    live.revoke_pin(HOST)
    said: list[str | None] = []
    host = EditHost(Seat(live, editor, table.id), report=said.append)
    assert not host.can_submit(Edit.add(HAND_ANN))
    assert host.submit(Edit.add(HAND_ANN)) is Outcome.STALE
    assert "revoked" in str(said[-1]) and table.hands == []


def test_a_phone_editor_sees_undo_greyed_out_until_there_is_something_to_undo(tmp_path: Path) -> None:
    from typing import cast

    import flet as ft

    from companion.services import AppServices
    from tests.support.screens import DevicePage as FakePage
    from tests.support.screens import icon_label
    from views.context import ViewContext
    from views.live import LiveScreen, Seat

    def undo_enabled(screen: LiveScreen) -> bool:
        for control in screen.body.controls:
            for child in getattr(control, "controls", []):
                if icon_label(child) == "Undo":
                    assert isinstance(child.content, ft.IconButton)
                    return not child.content.disabled
        raise AssertionError("no Undo on the editor's screen")

    with AppServices.open(tmp_path / "app", pin="2468") as app:
        table = app.sessions.start("jokers-kill", PLAYERS)
        app.live.show(table.id)
        page = cast(ft.Page, FakePage("/live", "10.0.0.5", "http://10.0.0.1:8550/live"))
        seat = Seat(page, app, Access(Role.VIEWER, "10.0.0.5"))
        ctx = ViewContext(page=page, services=app, settings=app.settings.current(), path="/live")
        screen = LiveScreen(ctx, seat, None)
        screen.view()
        screen.submit_pin("2468")
        assert seat.access.role is Role.EDITOR and not undo_enabled(screen)
        assert screen.apply(Edit.add(HAND_ANN, expected_version=screen.rendered))
        assert undo_enabled(screen)
        assert screen.apply(Edit.undo(expected_version=screen.rendered)) and table.hands == []
        assert not undo_enabled(screen)
        screen.stop()
