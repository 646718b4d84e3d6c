"""One way for a Confirm on the table screen, counted: the edit goes down once, the change comes back once (one
redraw of the table), the session is saved once and the drafts are written once per change (never before the
save), on a fake page."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from companion.services import AppServices
from companion.session import TableSession
from storage import Archive
from tests.support.counting import counting_calls
from tests.support.screens import render, tap, texts
from views.table.screen import TableView

CARDS = ("9♠", "4♥", "7♦", "Q♣")
"""A whole Jokers Kill hand for three players: the up-card and one card each (Ann wins 2 points)."""


@pytest.fixture
def counts() -> Iterator[Counter[str]]:
    """The table screen's redraws (``show``: asked for, ``_redraw``: drawn), the session's edits (``make``), and
    the archive's writes of the session and of the drafts."""
    counted: Counter[str] = Counter()
    with (
        counting_calls(counted, TableView, "show", "_redraw"),
        counting_calls(counted, TableSession, "make"),
        counting_calls(counted, Archive, "save_session", "save_drafts"),
    ):
        yield counted


def test_one_confirm_is_one_edit_one_save_one_draft_write_and_one_redraw(
    services: AppServices, counts: Counter[str]
) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    counts.clear()
    for card in CARDS:
        tap(view, card)
    assert counts == Counter(save_drafts=4), "each tap is one change: one draft write each, nothing else"
    counts.clear()
    tap(view, "Confirm hand")
    assert counts == Counter(make=1, save_session=1, save_drafts=1, show=1, _redraw=1), (
        "one edit down, one save, the draft let go in one write with it, one redraw back"
    )
    assert table.hands == [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]
    assert table.draft() is None, "the confirmed hand's draft is gone"
    assert "1. Ann: 2 points (last hand +2)" in texts(view)


def test_the_drafts_are_written_after_the_save_and_the_redraw_comes_after_both(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    for card in CARDS:
        tap(view, card)
    order: list[str] = []
    for owner, name in ((Archive, "save_session"), (Archive, "save_drafts"), (TableView, "_redraw")):
        original = getattr(owner, name)

        def recorded(*args: object, _name: str = name, _original: object = original, **kwargs: object) -> object:
            order.append(_name)
            return _original(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(owner, name, recorded)
    tap(view, "Confirm hand")
    assert order == ["save_session", "save_drafts", "_redraw"], (
        "nothing shows as saved before it is on disk, and no draft is written before the save"
    )


def test_an_undo_lets_the_hand_being_entered_go_in_its_one_write(services: AppServices, counts: Counter[str]) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    for card in CARDS:
        tap(view, card)
    tap(view, "Confirm hand")
    tap(view, "8♠")
    assert table.draft() is not None
    counts.clear()
    tap(view, "Undo")
    assert counts == Counter(make=1, save_session=1, save_drafts=1, show=1, _redraw=1)
    assert table.hands == [] and table.draft() is None


def test_a_hand_from_another_tab_is_one_redraw(services: AppServices, counts: Counter[str]) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    counts.clear()
    services.sessions.open(table.id).add_hand({"up": "2S", "cards": {"Ann": "3S", "Ben": "5S", "Cat": "6S"}})
    assert counts["show"] == 1 and counts["_redraw"] == 1
    assert "1. Ann: 1 point (last hand +1)" in texts(view)


def test_with_a_phone_entering_too_the_drafts_are_still_written_once(
    services: AppServices, counts: Counter[str]
) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    phone = "seat:192.168.1.20"
    table.set_draft({"up": "KD", "buried": [], "cards": {}, "tiebreaks": []}, device=phone)
    _, view = render(services, f"/continue/{table.id}")
    for card in CARDS:
        tap(view, card)
    counts.clear()
    tap(view, "Confirm hand")
    assert counts["save_drafts"] == 1, "the host's hand let go and the phone's kept, in one write after the save"
    assert table.draft() is None
    assert table.draft(device=phone) == {"up": "KD", "buried": [], "cards": {}, "tiebreaks": []}, "each its own"
