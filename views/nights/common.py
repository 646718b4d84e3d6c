"""What the game-night screens share: a click bound now, a game's name, a night looked up for a route."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import Words
from companion.night_model import Night, NightError
from companion.night_recap import day_of, says_day
from scoring import ScoringError, find_game
from views.context import ViewContext


def click(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A click handler that calls ``fn(*args)`` (bound now, not when the loop that made it has moved on)."""

    def handler(_: Any) -> None:
        fn(*args)

    return handler


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
