"""The home screen: one large button per part of the app."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from views.context import ViewContext
from views.widgets import big_button, paragraph, screen

HOME_ITEMS: tuple[tuple[str, str, ft.IconData, bool], ...] = (
    ("New game", "/new", ft.Icons.ADD_CIRCLE, True),
    ("Continue", "/continue", ft.Icons.PLAY_ARROW, False),
    ("History", "/history", ft.Icons.HISTORY, False),
    ("Players", "/players", ft.Icons.PEOPLE, False),
    ("Rules", "/rules", ft.Icons.MENU_BOOK, False),
    ("Settings", "/settings", ft.Icons.SETTINGS, False),
)
"""(label, route, icon, primary) of each home button, in order."""


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The home screen."""

    def opener(route: str) -> Callable[[object], None]:
        return lambda _: ctx.navigate(route)

    buttons: list[ft.Control] = [
        ft.Row([big_button(label, opener(route), icon=icon, primary=primary)])
        for label, route, icon, primary in HOME_ITEMS
    ]
    tonight = ctx.services.nights.current()
    night = (
        big_button(f"Tonight: {tonight.name}", opener(f"/nights/{tonight.id}"), icon=ft.Icons.NIGHTLIFE)
        if tonight is not None
        else big_button("Start a game night", opener("/nights/new"), icon=ft.Icons.NIGHTLIFE)
    )
    buttons.insert(1, ft.Row([night]))  # below New game: a game started now joins the open night
    intro = paragraph("Keep score for card games played with real cards.")
    return screen(ctx, "Card Table Companion", [intro, *buttons], home=True)
