"""Settings: the theme (light, dark or system), four-colour suits, keeping the screen on during a game, and the
money format. Changes are saved at once.

The money format is the currency (a drop-down of common ISO codes with their names, plus the current one), whether
amounts carry its symbol or its code, and the decimal mark; a live example shows the result. Stakes stay whole
numbers of minor units underneath (:mod:`companion.money`): only how they are written changes.
"""

from __future__ import annotations

import contextlib

import flet as ft

from companion.money import MoneyError, Show, currency_choices, example
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
        _refresh(status)

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
    money = ctx.settings.money

    def set_money(**change: str) -> None:
        try:
            fmt = service.verify_money(service.current().money.changed(**change))
            service.set_money(fmt)  # the shell redraws the page; the example follows at once meanwhile
        except (MoneyError, SettingsError, OSError) as exc:
            report(exc)
            return
        sample.value = sample.semantics_label = f"Example: {example(fmt)}"
        status.value = ""
        _refresh(sample)
        _refresh(status)

    def on_currency(event: ft.Event[ft.Dropdown]) -> None:
        set_money(currency=event.control.value or "")

    def on_show(event: ft.Event[ft.RadioGroup]) -> None:
        set_money(show=event.control.value or "")

    def on_decimal(event: ft.Event[ft.RadioGroup]) -> None:
        set_money(decimal=event.control.value or "")

    choices = currency_choices(money.currency)
    currency = ft.Dropdown(  # Material's drop-down field is 56 px tall (not dense)
        label="Currency",
        value=money.currency,
        options=[ft.DropdownOption(key=code, text=words) for code, words in choices],
        on_select=on_currency,
        tooltip="Currency",
        text_size=18,
    )
    chosen = dict(choices)[money.currency]
    # The field alone is read as a bare "Currency" button: the label says which one is chosen.
    currency_field = ft.Semantics(label=f"Currency: {chosen}", container=True, content=currency)
    symbol_or_code = ft.RadioGroup(
        value=money.show.value,
        on_change=on_show,
        content=ft.Column(
            [
                ft.Radio(
                    value=choice.value,
                    label=f"Show the {choice.value} ({money.changed(show=choice).symbol})",
                    label_style=ft.TextStyle(size=18),
                    height=TAP,
                )
                for choice in Show
            ],
            spacing=0,
        ),
    )
    decimal_mark = ft.RadioGroup(
        value=money.decimal,
        on_change=on_decimal,
        content=ft.Column(
            [
                ft.Radio(
                    value=mark,
                    label=f"Decimal {name} ({example(money.changed(decimal=mark))})",
                    label_style=ft.TextStyle(size=18),
                    height=TAP,
                )
                for mark, name in ((".", "point"), (",", "comma"))
            ],
            spacing=0,
        ),
    )
    sample = ft.Text(f"Example: {example(money)}", size=18, semantics_label=f"Example: {example(money)}")
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
            heading("Money"),
            paragraph(
                "How stakes and the game nights' money are written and read. "
                "Amounts are kept as whole cents (or the currency's smallest unit)."
            ),
            currency_field,
            ft.Text("Currency shown as", size=16, weight=ft.FontWeight.BOLD, semantics_label="Currency shown as"),
            symbol_or_code,
            ft.Text("Decimal mark", size=16, weight=ft.FontWeight.BOLD, semantics_label="Decimal mark"),
            decimal_mark,
            sample,
            status,
        ],
    )


def _refresh(control: ft.Control) -> None:
    with contextlib.suppress(RuntimeError):  # not on a page (yet), or the page is gone: the next render shows it
        control.update()
