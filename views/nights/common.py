"""What the game-night screens share: a message line, a click bound now, a night looked up for a route."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.i18n import Words
from companion.night_model import Night, NightError
from companion.night_recap import day_of, says_day
from scoring import ScoringError, find_game
from views.context import ViewContext


def refresh(control: ft.Control) -> None:
    """``control.update()`` when it is on a page (screens built in unit tests are not)."""
    with contextlib.suppress(RuntimeError, AssertionError):
        control.update()


def click(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A click handler that calls ``fn(*args)`` (bound now, not when the loop that made it has moved on)."""

    def handler(_: Any) -> None:
        fn(*args)

    return handler


def message_text() -> ft.Text:
    return ft.Text("", size=16, visible=False)


def say(text: ft.Text, words: str, *, error: bool = False) -> None:
    text.value = words
    text.color = ft.Colors.ERROR if error else None
    text.visible = bool(words)
    refresh(text)


def game_name(key: str, words: Words | None = None) -> str:
    try:
        return find_game(key).name
    except ScoringError:
        return key or (words.gettext("Unknown game") if words is not None else "Unknown game")


def night_of(ctx: ViewContext, night_id: str) -> Night:
    try:
        return ctx.services.nights.get(night_id)
    except NightError:
        said = ctx.words.gettext("There is no game night '{night}' (it may have been removed).")
        raise ValueError(said.format(night=night_id)) from None


def day_once(night: Night, rest: str, words: Words | None = None) -> str:
    """``rest`` after the night's day, unless the night's name (the screen's title) already says the day."""
    if says_day(night.name, night.started):
        return rest
    day = day_of(night.started, words) if words is not None else day_of(night.started)
    return f"{day} · {rest}"
