"""Settings: the theme (light, dark or system), four-colour suits, and keeping the screen on during a game. Changes
are saved at once."""

from __future__ import annotations

import flet as ft

from companion.settings import SettingsError, Theme
from views.context import ViewContext
from views.widgets import TAP, heading, paragraph, screen, suits_sample

KEEP_AWAKE = "Keep the screen on during a game"


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The settings screen."""
    service = ctx.services.settings
    status = ft.Text("", size=14, color=ft.Colors.ERROR)

    def report(exc: Exception) -> None:
        status.value = str(exc)
        status.update()

    def on_theme(event: ft.Event[ft.RadioGroup]) -> None:
        value = event.control.value or ""
        if not service.can_set_theme(value):
            report(SettingsError(f"{value!r} is not a theme"))
            return
        try:
            service.set_theme(value)  # the shell hears the change and redraws every open page
        except OSError as exc:
            report(exc)

    def on_four_colour(event: ft.Event[ft.Switch]) -> None:
        try:
            service.set_four_colour_suits(bool(event.control.value))
        except OSError as exc:
            report(exc)

    def on_keep_awake(event: ft.Event[ft.Switch]) -> None:
        try:
            service.set_keep_awake(bool(event.control.value))  # the shell hears it and switches the wakelock
        except OSError as exc:
            report(exc)

    theme_choices = ft.RadioGroup(  # each Radio is labelled by its text (Light, Dark, System)
        value=ctx.settings.theme.value,
        on_change=on_theme,
        content=ft.Column(
            [
                ft.Radio(value=theme.value, label=theme.label, label_style=ft.TextStyle(size=18), height=TAP)
                for theme in Theme
            ],
            spacing=0,
        ),
    )
    four_colour = ft.Switch(
        label="Four-colour suits",
        value=ctx.settings.four_colour_suits,
        on_change=on_four_colour,
        tooltip="Four-colour suits",
        height=TAP,
    )
    return screen(
        ctx,
        "Settings",
        [
            heading("Theme"),
            theme_choices,
            heading("Cards"),
            four_colour,
            paragraph("Draws diamonds blue and clubs green, so that all four suits are easy to tell apart."),
            suits_sample(ctx.settings.four_colour_suits),
            heading("At the table"),
            ft.Switch(
                label=KEEP_AWAKE,
                value=ctx.settings.keep_awake,
                on_change=on_keep_awake,
                tooltip=KEEP_AWAKE,
                height=TAP,
            ),
            paragraph("While a game is at the table the screen does not go dark, even during a long hand."),
            status,
        ],
    )
