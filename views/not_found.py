"""The screen for an address the app does not have."""

from __future__ import annotations

import flet as ft

from views.context import ViewContext
from views.widgets import big_button, empty_state, screen


def build_not_found(ctx: ViewContext, message: str) -> ft.View:
    """Shown for an address the app does not have, with the reason and a way home."""
    _ = ctx.words.gettext
    return screen(
        ctx,
        _("Not found"),
        [
            empty_state(_("This page does not exist"), message),
            ft.Row([big_button(_("Home"), lambda _: ctx.navigate("/"), icon=ft.Icons.HOME, primary=True)]),
        ],
    )
