"""A change written after it is shown (``Edit.saved_later``): the table screen sends a tap's reply first and writes
the change after it, saying "Saving…" until then. In between nothing is lost: the hand's draft is still on disk, a
draft written meanwhile writes the change first, the app stopping writes it, and a disk that refuses it keeps it in
memory with Retry save, as a change saved at once does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.session import HOST_DEVICE, Edit, SaveFailedError, SessionService, TableSession
from storage import Archive, StorageWriteError

H1 = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}  # JK-E2: Ann 2
H2 = {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}}  # JK-E4: Ben 3
DRAFT = {"up": "9S", "buried": [], "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}, "tiebreaks": []}
NEXT = {"up": "8S", "buried": [], "cards": {}, "tiebreaks": []}


def on_disk(archive: Archive, table: TableSession) -> tuple[list[Any], list[str], dict[str, Any]]:
    """The hands, the edit log's lines and the host's drafts that a restart would find."""
    doc = archive.load_session(table.id)
    drafts = archive.load_drafts(table.id, stamp=len(doc.log))
    return doc.record["hands"], [entry.action for entry in doc.log], drafts


def later(entry: dict[str, Any]) -> Edit:
    return Edit.add(entry).entered_on(HOST_DEVICE).saving_later()


def test_a_change_saved_later_is_shown_at_once_and_written_by_save_pending(
    archive: Archive, table: TableSession
) -> None:
    table.set_draft(DRAFT)
    heard: list[bool] = []
    table.subscribe(lambda session: heard.append(session.saving))
    result = table.make(later(H1))
    assert result.totals["Ann"] == 2 and table.hands == [H1] and table.version == 1
    assert table.saving and heard == [True], "the listeners hear the change at once, while it is being saved"
    assert table.log[-1] == "hand 1 entered"
    hands, log, drafts = on_disk(archive, table)
    assert hands == [] and "hand 1 entered" not in log
    assert drafts == {"new": DRAFT}, "stopped now, the app would find the hand as it was entered"
    assert table.save_pending()
    assert not table.saving and table.unsaved is None
    hands, log, drafts = on_disk(archive, table)
    assert hands == [H1] and log[-1] == "hand 1 entered" and drafts == {}
    assert table.save_pending(), "nothing left to write"
    assert heard == [True], "a write that works tells nobody: the change was told"


def test_changes_waiting_are_written_together_by_the_next_write(archive: Archive, table: TableSession) -> None:
    table.make(later(H1))
    table.make(later(H2))
    assert on_disk(archive, table)[0] == []
    table.undo()  # made at once: it writes the two changes before it too
    assert not table.saving
    hands, log, _ = on_disk(archive, table)
    assert hands == [H1] and log[-3:] == ["hand 1 entered", "hand 2 entered", table.log[-1]]
    assert table.log[-1].startswith("undo")


def test_a_draft_written_meanwhile_writes_the_change_first(archive: Archive, table: TableSession) -> None:
    table.make(later(H1))
    table.set_draft(NEXT)  # the next hand's first tap, before the change was written
    assert not table.saving
    hands, _, drafts = on_disk(archive, table)
    assert hands == [H1] and drafts == {"new": NEXT}, "the draft is of the state on disk"


def test_the_app_stopping_writes_the_change(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        service = SessionService(archive)
        table = service.start("jokers-kill", ["Ann", "Ben", "Cat"])
        table.make(later(H1))
        service.settle()  # what the app does before the archive closes
        assert on_disk(archive, table)[0] == [H1]


def test_a_disk_that_refuses_the_later_write_keeps_the_change_for_retry(
    archive: Archive, table: TableSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_save = archive.save_session

    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageWriteError(Path("session.json"), OSError(28, "No space left on device"))

    table.make(later(H1))
    monkeypatch.setattr(archive, "save_session", full)
    heard: list[str | None] = []
    table.subscribe(lambda session: heard.append(session.save_error))
    assert not table.save_pending()
    assert table.hands == [H1] and not table.saving
    assert heard and heard[0] is not None and "disk is full" in heard[0], "the listeners hear the failure"
    with pytest.raises(SaveFailedError):  # after a failure a change is tried at once, and the banner stays
        table.make(later(H2))
    assert not table.saving and table.save_error is not None and table.hands == [H1, H2]
    monkeypatch.setattr(archive, "save_session", real_save)
    table.retry_save()
    assert table.save_error is None and on_disk(archive, table)[0] == [H1, H2]
    assert "saved after an earlier failure: hand 1 entered" in table.log[-1]
