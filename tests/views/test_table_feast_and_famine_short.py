"""Feast and Famine walked on a short page (a 360 × 640 phone): the grid comes right under the prompt and the line of
the player to play, everyone's lines go under the grid, and the dealer's line, which the round's title says, is left
out (:data:`views.table.games.feast_and_famine.SEATS_SCREEN`); the layout follows the page's size at once."""

from __future__ import annotations

from typing import Any, cast

import flet as ft
import pytest

from companion.services import AppServices
from tests.support.screens import Page, buttons, tap, texts, walk
from views.shell import Shell
from views.table.games.feast_and_famine import SEATS_SCREEN


def _resize(shell: Shell, page: Any, height: int) -> None:
    """The page changes size as Flet's client tells it: the new width and height first, then the resize event."""
    page.width, page.height = 360, height
    shell.resized(ft.PageResizeEvent(name="resize", control=page, width=360, height=height))


def _where(view: ft.View, text: str) -> int:
    """Where the text ``text`` is drawn, in the order of the page (top to bottom), or -1."""
    for at, (control, _) in enumerate(walk(view)):
        if isinstance(control, ft.Text) and text in (control.value, control.semantics_label):
            return at
    return -1


def _grid(view: ft.View) -> int:
    """Where the grid's last key (the Joker) is, in the order of the page."""
    joker = buttons(view)["Joker"]
    return next(at for at, (control, _) in enumerate(walk(view)) if control is joker)


@pytest.mark.parametrize("height", [640, SEATS_SCREEN], ids=["short", "tall"])
def test_the_round_s_lines_make_room_for_the_grid_on_a_short_page(
    services: AppServices, monkeypatch: pytest.MonkeyPatch, height: int
) -> None:
    sent: list[ft.Control] = []
    monkeypatch.setattr("views.table.screen.send_changes", lambda root, changed: sent.extend(changed))
    table = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 2})
    page: Any = Page(f"/continue/{table.id}")
    page.width, page.height = 360, height
    shell = Shell(cast(ft.Page, page), services)
    shell.render()
    view = page.views[-1]
    for label in ("Dealer: Ann", "A♠", "2♠"):  # Ann deals: Ben's opening card, then Ann's
        tap(view, label)
    assert "Next: Ben: Take (tap the card turned) or Refuse?" in texts(view)
    title = "Round 1 of 4 · circuit 1 of 2 · Ann deals (chosen by the table)"
    seat, turn = "Ben: A♠ = 1 · still in · to play", "To play: Ben: A♠ = 1"
    assert _where(view, title) >= 0, "the round's title says who deals"
    if height < SEATS_SCREEN:
        assert _where(view, "Dealer: Ann") < 0, "a short page leaves out the dealer's line, which the title says"
        assert 0 <= _where(view, turn) < _grid(view) < _where(view, seat), "the player to play, the grid, the lines"
        assert _grid(view) < _where(view, "Ann: 2♠ = 2 · still in")
        sent.clear()
        _resize(shell, page, 740)
        assert not sent, "still short: nothing changed, nothing sent"
        _resize(shell, page, 844)  # a taller phone: the round's lines above the grid again, without a tap
        assert sent, "the new layout was sent"
    assert 0 <= _where(view, "Dealer: Ann") < _where(view, seat) < _grid(view), "the dealer, the lines, the grid"
    assert _where(view, turn) < 0, "no line of its own for the player to play"
    tap(view, "Refuse")  # Ben Refuses
    assert "Next: Ann: Take (tap the card turned) or Refuse?" in texts(view)
    assert 0 <= _where(view, "Ben: A♠ = 1 · Frozen") < _grid(view)
    _resize(shell, page, 640)  # and back: short again
    assert 0 <= _where(view, "To play: Ann: 2♠ = 2") < _grid(view) < _where(view, "Ben: A♠ = 1 · Frozen")
