"""Continue: the games still being played (or waiting for their play-off), newest first, a page at a time; tap one
to go back to its table exactly where it was left."""

from __future__ import annotations

import flet as ft

from companion.history import ENGLISH, unfinished_row
from companion.i18n import Words
from companion.storage_types import SessionSummary
from views.context import ViewContext
from views.paging import Paged
from views.widgets import big_button, empty_state, nav_tile, screen


def row_texts(summary: SessionSummary, words: Words = ENGLISH) -> tuple[str, str]:
    """Title and subtitle of a session's row (see :func:`companion.history.unfinished_row`).

    >>> from companion.storage_types import SessionStatus, SessionSummary
    >>> row_texts(SessionSummary("abc", "jokers-kill", None, ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                          "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 12, "f"))
    ('Jokers Kill: Ann, Ben', '12 hands · play-off to play · last change 2026-01-02 10:30')
    """
    return unfinished_row(summary, words)


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/continue``: the unfinished games, the newest first page of them, more on request."""
    _ = ctx.words.gettext

    def tile(summary: SessionSummary) -> ft.Control:
        title, subtitle = row_texts(summary, ctx.words)
        return nav_tile(ctx, title, subtitle, f"/continue/{summary.id}", icon=ft.Icons.PLAY_ARROW)

    def nothing() -> list[ft.Control]:
        return [
            empty_state(_("No unfinished games"), _("A game you start is listed here until it is decided.")),
            ft.Row([big_button(_("New game"), lambda _: ctx.navigate("/new"), icon=ft.Icons.ADD_CIRCLE, primary=True)]),
        ]

    listing: Paged[SessionSummary] = Paged(
        tile, noun="unfinished game", empty=nothing, show_count="if-any", words=ctx.words
    )
    listing.show(ctx.services.lists.unfinished())  # listed once per change of the archive, a page of rows built
    return screen(ctx, _("Continue"), listing.controls)
