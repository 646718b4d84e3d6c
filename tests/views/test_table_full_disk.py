"""Quiet failures (issue 14): on a full disk a tap at the table keeps the hand being entered in memory and says so
in one line on the table screen, with no traceback in the log; once the disk takes writes again the line goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.services import AppServices
from tests.support.faults import full_drafts_disk
from tests.support.screens import render, tap, texts

NOTICE = "The hand being entered is kept in this app only (not on disk: "


def test_a_tap_on_a_full_disk_keeps_the_hand_in_memory_and_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with AppServices.open(tmp_path / "data") as services:
        table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
        page, view = render(services, f"/continue/{table.id}")
        assert not any(text.startswith(NOTICE) for text in texts(view))
        full = full_drafts_disk(monkeypatch)
        caplog.set_level("DEBUG")
        tap(view, "9♠")
        tap(view, "4♥")
        assert table.draft() == {"up": "9S", "buried": [], "cards": {"Ann": "4H"}, "tiebreaks": []}
        notices = [text for text in texts(view) if text.startswith(NOTICE)]
        assert notices and "the disk is full" in notices[0] and len(set(notices)) == 1, notices
        assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
        assert not (tmp_path / "data" / "drafts" / f"{table.id}.drafts.json").exists()
        full["on"] = False
        tap(view, "7♦")
        assert not any(text.startswith(NOTICE) for text in texts(view)), "written again: the line goes"
        assert (tmp_path / "data" / "drafts" / f"{table.id}.drafts.json").exists()
        assert page.views[-1] is view
