"""Settings: the theme (light, dark or system), four-colour suits, keeping the screen on during a game, and the
money format. Changes are saved at once.

The money format is the currency (a drop-down of common ISO codes with their names, plus the current one), whether
amounts carry its symbol or its code, and the decimal mark; a live example shows the result. Stakes stay whole
numbers of minor units underneath (:mod:`companion.money`): only how they are written changes.

The screen is one ``@ft.component`` (:func:`settings_form`) over :class:`SettingsState`, an ``@ft.observable`` that
wraps :mod:`companion.settings`' :class:`~companion.settings.Settings`. A change, made here or in another tab,
replaces the state's settings and the component renders again in place: the screen is not built anew (the shell
keeps it, :data:`~views.context.FOLLOWS_SETTINGS`), so it keeps its scroll position.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from companion.money import MoneyError, MoneyFormat, Show, currency_choices, example
from companion.settings import Settings, SettingsError, SettingsService, Theme
from views.context import FOLLOWS_SETTINGS, ViewContext
from views.flet_private import component_node
from views.widgets import TAP, heading, paragraph, screen, suits_sample

KEEP_AWAKE = "Keep the screen on during a game"

Save = Callable[[Callable[[], Settings]], None]
"""Runs one change of the settings service and shows its result (or its refusal)."""


@ft.observable
@dataclass
class SettingsState:
    """What the Settings screen shows: the settings as saved, and the last refusal (``""`` when none)."""

    settings: Settings
    problem: str = ""


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The settings screen."""
    state = SettingsState(ctx.services.settings.current())
    view = screen(ctx, "Settings", [component_node(settings_form, state, ctx.services.settings, ctx.page)])
    view.data = FOLLOWS_SETTINGS
    return view


@ft.component
def settings_form(state: SettingsState, service: SettingsService, page: ft.Page) -> ft.Control:
    """Every setting, drawn from ``state``; a change is saved through ``service`` and shown by rendering again."""
    ft.use_effect(lambda: _follow(state, service, page), [])

    def save(change: Callable[[], Settings]) -> None:
        try:
            state.settings = change()  # the shell hears the change too (the theme, the wakelock, the other tabs)
        except (MoneyError, SettingsError, OSError) as exc:
            state.problem = str(exc)
        else:
            state.problem = ""

    settings = state.settings
    return ft.Column(
        [
            *_theme_and_cards(settings, service, save),
            *_money(settings.money, service, save),
            ft.Text(state.problem, size=14, color=ft.Colors.ERROR),
        ],
        spacing=12,
    )


def _follow(state: SettingsState, service: SettingsService, page: ft.Page) -> Callable[[], None]:
    """Show the changes made in other tabs too (on this page's own event loop); returns how to stop."""

    def heard(settings: Settings) -> None:
        async def show() -> None:
            state.settings = settings

        with contextlib.suppress(Exception):  # the page is gone: the effect's clean-up stops following soon
            if page.session.connection is not None:  # else Flet would make ``show()`` and drop it unawaited: a
                page.run_task(show)  # three-line "never awaited" warning in the terminal for a closed tab

    return service.subscribe(heard)


def _choices(value: str, on_change: Callable[[str], None], labels: list[tuple[str, str]]) -> ft.RadioGroup:
    """Radio buttons (each labelled by its text) for ``(value, label)`` pairs, ``value`` chosen."""
    return ft.RadioGroup(
        value=value,
        on_change=lambda event: on_change(event.control.value or ""),
        content=ft.Column(
            [ft.Radio(value=key, label=label, label_style=ft.TextStyle(size=18), height=TAP) for key, label in labels],
            spacing=0,
        ),
    )


def _theme_and_cards(settings: Settings, service: SettingsService, save: Save) -> list[ft.Control]:
    """The theme, four-colour suits and keeping the screen on."""

    return [
        heading("Theme"),
        _choices(
            settings.theme.value,
            lambda value: save(lambda: service.set_theme(value)),
            [(theme.value, theme.label) for theme in Theme],
        ),
        heading("Cards"),
        ft.Switch(
            label="Four-colour suits",
            value=settings.four_colour_suits,
            on_change=lambda event: save(lambda: service.set_four_colour_suits(bool(event.control.value))),
            tooltip="Four-colour suits",
            height=TAP,
        ),
        paragraph("Draws diamonds blue and clubs green, so that all four suits are easy to tell apart."),
        suits_sample(settings.four_colour_suits),
        heading("At the table"),
        ft.Switch(
            label=KEEP_AWAKE,
            value=settings.keep_awake,
            on_change=lambda event: save(lambda: service.set_keep_awake(bool(event.control.value))),
            tooltip=KEEP_AWAKE,
            height=TAP,
        ),
        paragraph("While a game is at the table the screen does not go dark, even during a long hand."),
    ]


def _money(money: MoneyFormat, service: SettingsService, save: Save) -> list[ft.Control]:
    """The currency, symbol or code, and the decimal mark, with the live example."""

    def set_money(**change: str) -> None:
        save(lambda: service.set_money(service.verify_money(service.current().money.changed(**change))))

    sample = f"Example: {example(money)}"
    return [
        heading("Money"),
        paragraph(
            "How stakes and the game nights' money are written and read. "
            "Amounts are kept as whole cents (or the currency's smallest unit)."
        ),
        _currency(money, lambda code: set_money(currency=code)),
        ft.Text("Currency shown as", size=16, weight=ft.FontWeight.BOLD, semantics_label="Currency shown as"),
        _choices(
            money.show.value,
            lambda value: set_money(show=value),
            [(choice.value, f"Show the {choice.value} ({money.changed(show=choice).symbol})") for choice in Show],
        ),
        ft.Text("Decimal mark", size=16, weight=ft.FontWeight.BOLD, semantics_label="Decimal mark"),
        _choices(
            money.decimal,
            lambda value: set_money(decimal=value),
            [
                (mark, f"Decimal {name} ({example(money.changed(decimal=mark))})")
                for mark, name in ((".", "point"), (",", "comma"))
            ],
        ),
        ft.Text(sample, size=18, semantics_label=sample),
    ]


def _currency(money: MoneyFormat, choose: Callable[[str], None]) -> ft.Control:
    """The currency drop-down: one button node, named with the chosen currency, that opens the list when tapped or
    activated (Material's classic drop-down button: the newer drop-down menu's node is a text field, and the named
    node around it took no activation)."""
    choices = currency_choices(money.currency)
    field = ft.DropdownM2(
        value=money.currency,
        options=[
            ft.dropdownm2.Option(key=code, text=words, content=ft.Text(words, size=18)) for code, words in choices
        ],
        on_change=lambda event: choose(event.control.value or ""),
        text_size=18,
        label="Currency",
        item_height=TAP,
    )
    # One node: the label names the chosen currency, the drop-down's tap (which opens the list) is merged into it.
    return ft.MergeSemantics(content=ft.Semantics(label=f"Currency: {dict(choices)[money.currency]}", content=field))
