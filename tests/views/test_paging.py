"""Continue, History and Statistics show a first page and load more on demand; filters still cover every session.

Screens are built without a browser (Flet controls are plain dataclasses; only the page is faked).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.history import PAGE_SIZE
from companion.services import AppServices
from storage import SessionStatus
from tests.support.screens import buttons, render, tap, texts
from views.paging import SHOW_MORE, Paged

COUNT = 2 * PAGE_SIZE + 10


def tiles(view: ft.View) -> list[str]:
    """The titles of the session rows on a screen, top to bottom."""
    out = []
    for text in texts(view):
        if text.startswith("Game "):
            out.append(text)
    return out


def unfinished_games(services: AppServices, count: int = COUNT) -> list[str]:
    """``count`` unfinished Jokers Kill games titled ``Game 0 (the first)``, ``Game 1``..., returned newest first."""
    for n in range(count):
        services.sessions.start("jokers-kill", ["Ann", "Ben"], title=f"Game {n}" + (" (the first)" if n == 0 else ""))
    return [s.title or "" for s in services.sessions.unfinished()]


def test_continue_shows_the_newest_page_then_more_on_request(services: AppServices) -> None:
    newest = unfinished_games(services)
    _, view = render(services, "/continue")
    assert tiles(view) == newest[:PAGE_SIZE]
    assert f"{COUNT} unfinished games, showing the newest {PAGE_SIZE}" in texts(view)
    tap(view, SHOW_MORE)
    assert tiles(view) == newest[: 2 * PAGE_SIZE]
    tap(view, SHOW_MORE)
    assert tiles(view) == newest, "the last page holds the rest"
    assert f"{COUNT} unfinished games" in texts(view)
    more = buttons(view)[SHOW_MORE]
    assert not any(c.visible for c in _ancestors_rows(view, more)), "nothing more to show: the button is hidden"


def _ancestors_rows(view: ft.View, control: Any) -> list[ft.Row]:
    """The rows holding ``control`` (the "Show more" button sits in one, hidden when all rows are shown)."""
    from tests.support.screens import walk

    return [row for row, _ in walk(view) if isinstance(row, ft.Row) and control in row.controls]


def test_a_continue_row_opens_its_table(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"], title="Game A")
    page, view = render(services, "/continue")
    assert "1 unfinished game" in texts(view)
    tap(view, "Game A")
    assert page.navigated == [f"/continue/{table.id}"]


def test_a_finished_game_leaves_continue(services: AppServices) -> None:
    services.sessions.start("jokers-kill", ["Ann", "Ben"], title="Game A")
    services.archive.create_session(
        {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []},
        status=SessionStatus.FINISHED,
        winners=["Ann"],
        title="Game B",
    )
    _, view = render(services, "/continue")
    assert tiles(view) == ["Game A"]


def test_history_pages_and_its_search_covers_the_whole_archive(services: AppServices) -> None:
    newest = unfinished_games(services)
    _, view = render(services, "/history")
    assert tiles(view)[:PAGE_SIZE] == newest[:PAGE_SIZE] and len(tiles(view)) == PAGE_SIZE
    assert f"{COUNT} sessions, showing the newest {PAGE_SIZE}" in texts(view)
    oldest = "Game 0 (the first)"
    assert newest.index(oldest) >= PAGE_SIZE and oldest not in tiles(view)
    search = next(c for c in _fields(view) if c.label == "Search")
    search.value = "FIRST"
    search.on_change(None)  # type: ignore[misc]
    assert tiles(view) == [oldest], "the search finds a session far beyond the first page"
    assert "1 session" in texts(view)
    search.value = ""
    search.on_change(None)  # type: ignore[misc]
    tap(view, SHOW_MORE)
    assert tiles(view) == newest[: 2 * PAGE_SIZE], "a new filter starts again at the first page, then pages on"


def _fields(view: ft.View) -> list[ft.TextField]:
    from tests.support.screens import walk

    return [c for c, _ in walk(view) if isinstance(c, ft.TextField)]


def test_paged_appends_only_the_next_page_and_keeps_the_rows_shown() -> None:
    made: list[int] = []

    def row(n: int) -> ft.Control:
        made.append(n)
        return ft.Text(f"row {n}")

    paged: Paged[int] = Paged(row, noun="row", empty=lambda: [ft.Text("none")], page_size=10, show_count="if-cut")
    paged.show(list(range(25)))
    first = list(paged.listing.controls)
    assert made == list(range(10)) and paged.count.visible and paged.more.visible
    assert paged.count.value == "25 rows, showing the newest 10"
    paged.show_more()
    assert paged.listing.controls[:10] == first, "the rows already shown are the same controls (not sent again)"
    assert made == list(range(20))
    paged.show_more()
    assert len(paged.listing.controls) == 25 and not paged.more.visible and not paged.count.visible
    paged.show([])
    assert [c.value for c in paged.listing.controls if isinstance(c, ft.Text)] == ["none"]
