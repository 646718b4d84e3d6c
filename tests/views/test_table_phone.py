"""The table screen on a phone shows the hand or the scoreboard, one at a time: the hand fits its screen, and the
scoreboard with the hands is one tap away ("Scoreboard and hands"), the hand one tap back ("Back to the hand"). A
wide page, a page whose width is not known yet, a correction and a finished game show both, without "Back to the
hand"."""

from __future__ import annotations

from typing import Any, cast

import flet as ft
import pytest

from companion.services import AppServices
from companion.session import Edit
from tests.support.screens import Page, buttons, path_to, texts, walk
from views.shell import Shell
from views.widgets import WIDE

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def _shown(root: Any, target: Any) -> bool:
    """Whether ``target`` is on screen under ``root``: it and every control around it visible."""
    return all(getattr(control, "visible", True) for control in path_to(root, target))


class _Table:
    """A game's table screen on a phone-tall page ``width`` wide (``None``: not known yet), with what it sends and
    where it scrolls to."""

    def __init__(
        self, services: AppServices, monkeypatch: pytest.MonkeyPatch, width: int | None, game: str | None = None
    ) -> None:
        self.sent: list[ft.Control] = []
        monkeypatch.setattr("views.table.screen.send_changes", lambda root, changed, past=(): self.sent.extend(changed))
        game = game or services.sessions.start("bargain-bin", PLAYERS, {"target": 1000}).id
        self.page = page = Page(f"/continue/{game}")
        page.height = 844
        if width is not None:
            page.width = width
        self.shell = Shell(cast(ft.Page, page), services)
        self.shell.render()
        self.view = page.views[-1]
        self.screen = screen = buttons(self.view)["Scoreboard and hands"].on_click.__self__
        self.scrolled: list[dict[str, Any]] = []

        async def scroll_to(**where: Any) -> None:
            self.scrolled.append(where)

        monkeypatch.setattr(screen.scroller, "scroll_to", scroll_to)

    def tap(self, label: str) -> None:
        """Tap the icon button or the text button that says ``label``, as Flet runs its handler."""
        found = buttons(self.view).get(label) or next(
            control for control, _ in walk(self.view) if isinstance(control, ft.TextButton) and control.content == label
        )
        running = found.on_click(None)  # a coroutine whose only wait is the stand-in scroll_to: done in one step
        with pytest.raises(StopIteration):
            running.send(None)

    def showing(self) -> tuple[bool, bool, bool]:
        """Whether the hand, its Confirm bar and the scoreboard with the hand list are on screen."""
        screen = self.screen
        return tuple(_shown(self.view, part) for part in (screen.entry_area, screen.dock, screen.hands))  # type: ignore[return-value]

    def resize(self, width: int) -> None:
        """The page changes size as Flet's client tells it: the new width and height first, then the event."""
        self.page.width = width
        self.shell.resized(ft.PageResizeEvent(name="resize", control=self.page, width=width, height=844))


HAND, BOARD, BOTH = (True, True, False), (False, False, True), (True, True, True)


def test_a_phone_shows_the_hand_or_the_scoreboard_one_tap_apart(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _Table(services, monkeypatch, 390)
    assert table.showing() == HAND, "a phone opens on the hand, its Confirm bar under it, the scoreboard not shown"
    assert "1. Ann: 0 points (equal first)" in texts(table.view), "the standings strip stays at the top"
    table.tap("Scoreboard and hands")
    assert table.showing() == BOARD, "one tap: the scoreboard and the hands in the hand's place"
    assert _shown(table.view, table.screen.back_button), "the hand one tap back"
    assert table.screen.entry_column in table.sent and table.screen.board_column in table.sent, "and it was sent"
    assert table.scrolled[-1] == {"offset": 0, "duration": 0}, "from its top"
    table.tap("Back to the hand")
    assert table.showing() == HAND, "one tap back: the hand"
    table.sent.clear()
    table.tap("Back to the hand")
    assert table.showing() == HAND and not table.sent, "the hand already shown: nothing to send"


def test_a_wide_page_shows_both_and_the_scoreboard_button_scrolls_to_it(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _Table(services, monkeypatch, WIDE)
    assert table.showing() == BOTH
    assert not _shown(table.view, table.screen.back_button), "both shown: no button back to the hand"
    table.tap("Scoreboard and hands")
    assert table.showing() == BOTH and table.scrolled[-1]["scroll_key"] == "scoreboard", "scrolled there, both shown"
    table.resize(390)  # the window made narrow while the scoreboard was asked for: the scoreboard stays in view
    assert table.showing() == BOARD and _shown(table.view, table.screen.back_button)
    table.tap("Back to the hand")
    table.resize(1200)
    assert table.showing() == BOTH, "wide again: both, without a tap"


def test_a_page_of_unknown_width_shows_both_until_its_client_says(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _Table(services, monkeypatch, None)
    assert table.showing() == BOTH
    table.resize(360)
    assert table.showing() == HAND, "the client's first size: a phone"
    assert table.screen.entry_column in table.sent, "sent at once, not at the next tap"


def test_a_finished_game_shows_its_end_and_the_scoreboard_together(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = services.sessions.start("1111-9999", ["Ann", "Ben"], None, {"sides": {"Ann": "A", "Ben": "B"}})
    table = _Table(services, monkeypatch, 390, game=session.id)
    table.tap("Scoreboard and hands")
    assert table.showing() == BOARD
    for _ in range(10):  # Ben's rows add up to the target within a few hands (made on another device)
        if session.result.finished:
            break
        session.make(Edit.add({"table": "1234", "numbers": {"Ann": "1234", "Ben": "9876"}}))
    assert session.result.finished
    assert _shown(table.view, table.screen.entry_area) and _shown(table.view, table.screen.hands), "both at the end"
    assert not _shown(table.view, table.screen.back_button), "and no hand to go back to"
