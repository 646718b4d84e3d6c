"""Continue: the games still being played (or waiting for their play-off), newest first; tap one to go back to
its table exactly where it was left."""

from __future__ import annotations

import flet as ft

from companion.records import SessionStatus, SessionSummary
from scoring import ScoringError, get_game
from views.context import ViewContext
from views.widgets import big_button, empty_state, nav_tile, screen


def describe(summary: SessionSummary) -> tuple[str, str]:
    """Title and subtitle of a session's row.

    >>> from companion.records import SessionStatus, SessionSummary
    >>> describe(SessionSummary("abc", "jokers-kill", None, ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                         "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 12, "f"))
    ('Jokers Kill: Ann, Ben', '12 hands · play-off to play · last change 2026-01-02 10:30')
    >>> describe(SessionSummary("abc", "1111-9999", "Sat", ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                         "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 3, "f"))[1]
    '3 hands · sudden death to play · last change 2026-01-02 10:30'
    """
    try:
        game = get_game(summary.game)
    except ScoringError:
        name, extra = summary.game, None
    else:
        name, extra = game.name, game.extra_part
    title = summary.title or f"{name}: {', '.join(summary.players)}"
    state = "in progress"
    if summary.status is SessionStatus.PENDING:
        state = f"{extra.whole if extra is not None else 'tie-break'} to play"
    when = summary.updated_at.replace("T", " ")[:16]
    hands = f"{summary.hands} hand{'s' if summary.hands != 1 else ''}"
    return title, f"{hands} · {state} · last change {when}"


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/continue``: every unfinished game."""
    rows: list[ft.Control] = []
    for summary in ctx.services.sessions.unfinished():
        title, subtitle = describe(summary)
        rows.append(nav_tile(ctx, title, subtitle, f"/continue/{summary.id}", icon=ft.Icons.PLAY_ARROW))
    if not rows:
        rows = [
            empty_state("No unfinished games", "A game you start is listed here until it is decided."),
            ft.Row([big_button("New game", lambda _: ctx.navigate("/new"), icon=ft.Icons.ADD_CIRCLE, primary=True)]),
        ]
    return screen(ctx, "Continue", rows)
