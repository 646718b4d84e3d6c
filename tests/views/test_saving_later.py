"""A tap's change is written after its reply: the reply shows the new standings with "Saving…" over the game's
name, and "Saving…" goes once the change is on disk; a disk that refuses it shows the banner with Retry save. A
change made outside a tap (a unit test, a redraw) is written at once, as before."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.services import AppServices
from storage import StorageWriteError
from tests.conftest import run_async
from tests.support.events import LATER, event_tap
from tests.support.screens import render, tap, texts

pytestmark = pytest.mark.usefixtures("quick_replies")

HAND = ("9♠", "4♥", "7♦", "Q♣")


def saving(view: Any) -> bool:
    """Whether the screen shows "Saving…" (over the game's name in the app bar)."""
    title = view.appbar.title
    assert isinstance(title, ft.Text) and isinstance(title.value, str) and title.value.endswith("Jokers Kill")
    assert title.semantics_label == title.value
    return title.value == "Saving…\nJokers Kill"


def hands_on_disk(services: AppServices, session_id: str) -> list[Any]:
    return list(services.archive.load_session(session_id).record["hands"])


def test_a_confirm_shows_saving_until_the_hand_is_on_disk(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")

    async def play() -> None:
        for card in HAND:
            event_tap(view, card)
        event_tap(view, "Confirm hand")
        shown = texts(view)
        assert "1. Ann: 2 points (last hand +2)" in shown and saving(view), shown
        assert hands_on_disk(services, table.id) == [], "the reply left before the write"
        await asyncio.sleep(LATER)
        assert not saving(view)
        assert len(hands_on_disk(services, table.id)) == 1

    run_async(play())


def test_a_change_made_outside_a_tap_is_written_at_once(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    for label in (*HAND, "Confirm hand"):
        tap(view, label)
    assert not saving(view) and len(hands_on_disk(services, table.id)) == 1


def test_a_disk_that_refuses_the_write_after_the_reply_shows_retry_save(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    real_save = services.archive.save_session

    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageWriteError(Path("session.json"), OSError(28, "No space left on device"))

    async def play() -> None:
        for card in HAND:
            event_tap(view, card)
        monkeypatch.setattr(services.archive, "save_session", full)
        event_tap(view, "Confirm hand")
        assert saving(view)
        await asyncio.sleep(LATER)
        shown = texts(view)
        assert not saving(view)
        assert any(t.startswith("Not saved: could not save session.json: the disk is full") for t in shown), shown
        assert "1. Ann: 2 points (last hand +2)" in shown, "the hand counts while it waits to be saved"
        monkeypatch.setattr(services.archive, "save_session", real_save)
        event_tap(view, "Retry save")
        assert not any(t.startswith("Not saved") for t in texts(view))
        assert len(hands_on_disk(services, table.id)) == 1

    run_async(play())
