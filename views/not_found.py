"""Screens whose full versions come with later features: each shows its title and an honest empty state."""

from __future__ import annotations

import flet as ft

from views.context import ViewContext
from views.widgets import big_button, empty_state, screen


def _rules_link(ctx: ViewContext) -> ft.Control:
    return ft.Row([big_button("Read the rules", lambda _: ctx.navigate("/rules"), icon=ft.Icons.MENU_BOOK)])


def build_new_game(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """New game: set-up is not available yet."""
    return screen(
        ctx,
        "New game",
        [
            empty_state(
                "Game set-up is not available yet",
                "This version can show the rules of all five games and remembers your settings; "
                "choosing a game and seating players comes next.",
            ),
            _rules_link(ctx),
        ],
    )


def build_continue(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """Continue: the unfinished sessions (none can exist yet)."""
    return screen(ctx, "Continue", [empty_state("No sessions yet", "Unfinished games will be listed here.")])


def build_history(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """History: finished sessions (none can exist yet)."""
    return screen(ctx, "History", [empty_state("No sessions yet", "Finished games will be listed here.")])


def build_players(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """Players: everyone who has played (nobody yet)."""
    return screen(ctx, "Players", [empty_state("No players yet", "Everyone you seat at a game will be listed here.")])


def build_not_found(ctx: ViewContext, message: str) -> ft.View:
    """Shown for an address the app does not have, with the reason and a way home."""
    return screen(
        ctx,
        "Not found",
        [
            empty_state("This page does not exist", message),
            ft.Row([big_button("Home", lambda _: ctx.navigate("/"), icon=ft.Icons.HOME, primary=True)]),
        ],
    )
