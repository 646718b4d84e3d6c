"""Per-page state lives with the page's shell: its seat at the live table and the game its table screen follows
(no module-global registry keyed by page)."""

from __future__ import annotations

from typing import cast

import flet as ft

from companion.services import AppServices
from companion.sharing import Role
from tests.support.screens import Page
from views.context import PageState
from views.shell import Shell


def shell(services: AppServices, route: str) -> tuple[Shell, Page]:
    page = Page(route)
    made = Shell(cast(ft.Page, page), services)
    made.render()
    return made, page


def test_page_state_follows_one_game_at_a_time() -> None:
    stopped: list[str] = []
    state = PageState()
    state.follow(lambda: stopped.append("first"))
    state.follow(lambda: stopped.append("second"))
    assert stopped == ["first"], "following a new game stops following the one before"
    state.release()
    state.release()
    assert stopped == ["first", "second"], "a closed page follows nothing (once)"


def test_each_page_follows_its_own_table_and_only_the_last_one(services: AppServices) -> None:
    one = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    two = services.sessions.start("jokers-kill", ["Cat", "Dan"])
    first, page = shell(services, f"/continue/{one.id}")
    other, _ = shell(services, f"/continue/{one.id}")  # another tab on the same game
    assert len(one._listeners) == 2
    page.route = f"/continue/{two.id}"
    first.render()
    assert len(one._listeners) == 1 and len(two._listeners) == 1, "the first tab left game one for game two"
    other.state.release()
    assert len(one._listeners) == 0 and len(two._listeners) == 1


def test_the_seat_is_the_pages_own(services: AppServices) -> None:
    host, _ = shell(services, "/")
    assert host.seat is None, "decided when the shell starts, from where the page connects"
    host.start()
    assert host.seat is not None and host.seat.access.role is Role.HOST and host.seat.live is services.live
    again, _ = shell(services, "/")
    again.start()
    assert again.seat is not host.seat
