"""Settings: the table's language, the theme (light, dark or system), four-colour suits, keeping the screen on
during a game, and the money format. Changes are saved at once; a new language redraws every open tab in it.

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

from companion.i18n import LANGUAGES, N_, PSEUDO, SYSTEM, Words, device_language
from companion.money import MoneyError, MoneyFormat, Show, currency_choices, example
from companion.settings import Settings, SettingsError, SettingsService, Theme
from views.context import FOLLOWS_SETTINGS, ViewContext
from views.flet_private import component_node
from views.widgets import TAP, heading, paragraph, screen, suits_sample

KEEP_AWAKE = N_("Keep the screen on during a game")
ENGLISH_LETTERS = N_("Keep English card letters (J Q K A)")

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
    view = screen(
        ctx, ctx.words.gettext("Settings"), [component_node(settings_form, state, ctx.services.settings, ctx.page)]
    )
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
            *_language(settings, service, save),
            *_theme_and_cards(settings, service, save),
            *_money(settings, service, save),
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


def language_choices(words: Words, current: str) -> list[tuple[str, str]]:
    """``(setting, label)`` of each language the Settings screen offers: the device's own first (the default),
    then each language by its own name; the pseudo-language only while it is in use (``companion --lang en-XA``).

    >>> language_choices(Words.of("en"), "system")[1:]
    [('en', 'English'), ('sv', 'Svenska'), ('de', 'Deutsch')]
    """
    device = words.gettext("The device's language ({language})").format(language=LANGUAGES[device_language()])
    choices = [(SYSTEM, device), *LANGUAGES.items()]
    if current == PSEUDO:
        choices.append((PSEUDO, PSEUDO))
    return choices


def _language(settings: Settings, service: SettingsService, save: Save) -> list[ft.Control]:
    """The table's language, and whether cards keep their English letters."""
    _ = settings.words.gettext
    letters = _(ENGLISH_LETTERS)
    return [
        heading(_("Language")),
        _choices(
            settings.language,
            lambda value: save(lambda: service.set_language(value)),
            language_choices(settings.words, settings.language),
        ),
        _switch(letters, settings.english_card_letters, lambda on: save(lambda: service.set_english_card_letters(on))),
        paragraph(_("Off: the cards show the language's own letters (Swedish Kn D K E, German B D K A).")),
    ]


def _switch(label: str, value: bool, set_to: Callable[[bool], None]) -> ft.Switch:
    """A setting's switch: labelled (and named to a screen reader) by ``label``, 48 px tall, saving each change."""
    return ft.Switch(
        label=label, value=value, on_change=lambda event: set_to(bool(event.control.value)), tooltip=label, height=TAP
    )


def _theme_and_cards(settings: Settings, service: SettingsService, save: Save) -> list[ft.Control]:
    """The theme, four-colour suits and keeping the screen on."""
    _ = settings.words.gettext
    four = _("Four-colour suits")
    awake = _(KEEP_AWAKE)
    return [
        heading(_("Theme")),
        _choices(
            settings.theme.value,
            lambda value: save(lambda: service.set_theme(value)),
            [(theme.value, _(theme.label)) for theme in Theme],
        ),
        heading(_("Cards")),
        _switch(four, settings.four_colour_suits, lambda on: save(lambda: service.set_four_colour_suits(on))),
        paragraph(_("Draws diamonds blue and clubs green, so that all four suits are easy to tell apart.")),
        _suits(settings),
        heading(_("At the table")),
        _switch(awake, settings.keep_awake, lambda on: save(lambda: service.set_keep_awake(on))),
        paragraph(_("While a game is at the table the screen does not go dark, even during a long hand.")),
    ]


SHOW_LABELS = {Show.SYMBOL: N_("Show the symbol ({symbol})"), Show.CODE: N_("Show the code ({symbol})")}
DECIMAL_LABELS = {".": N_("Decimal point ({example})"), ",": N_("Decimal comma ({example})")}


def _suits(settings: Settings) -> ft.Text:
    """The four suits in the colours chosen, named for a screen reader in the table's language."""
    _ = settings.words.gettext
    sample = suits_sample(settings.four_colour_suits)
    if settings.four_colour_suits:
        sample.semantics_label = _("Suits in four-colour: spades, hearts, diamonds, clubs")
    else:
        sample.semantics_label = _("Suits in two-colour: spades, hearts, diamonds, clubs")
    return sample


def _money(settings: Settings, service: SettingsService, save: Save) -> list[ft.Control]:
    """The currency, symbol or code, and the decimal mark, with the live example (written as the language writes
    amounts: :attr:`~companion.settings.Settings.money_shown`)."""
    _ = settings.words.gettext
    money = settings.money

    def set_money(**change: str) -> None:
        save(lambda: service.set_money(service.verify_money(service.current().money.changed(**change))))

    def shown(fmt: MoneyFormat) -> MoneyFormat:
        return Settings(language=settings.spoken, money=fmt).money_shown

    sample = _("Example: {amount}").format(amount=example(shown(money)))
    show_as, mark = _("Currency shown as"), _("Decimal mark")
    return [
        heading(_("Money")),
        paragraph(
            _(
                "How stakes and the game nights' money are written and read. "
                "Amounts are kept as whole cents (or the currency's smallest unit)."
            )
        ),
        _currency(money, lambda code: set_money(currency=code), settings.words),
        ft.Text(show_as, size=16, weight=ft.FontWeight.BOLD, semantics_label=show_as),
        _choices(
            money.show.value,
            lambda value: set_money(show=value),
            [
                (choice.value, _(SHOW_LABELS[choice]).format(symbol=money.changed(show=choice).symbol))
                for choice in Show
            ],
        ),
        ft.Text(mark, size=16, weight=ft.FontWeight.BOLD, semantics_label=mark),
        _choices(
            money.decimal,
            lambda value: set_money(decimal=value),
            [
                (key, _(label).format(example=example(shown(money.changed(decimal=key)))))
                for key, label in DECIMAL_LABELS.items()
            ],
        ),
        ft.Text(sample, size=18, semantics_label=sample),
    ]


def _currency(money: MoneyFormat, choose: Callable[[str], None], words: Words) -> ft.Control:
    """The currency drop-down: one button node, named with the chosen currency, that opens the list when tapped or
    activated (Material's classic drop-down button: the newer drop-down menu's node is a text field, and the named
    node around it took no activation)."""
    choices = currency_choices(money.currency, words.locale)
    field = ft.DropdownM2(
        value=money.currency,
        options=[
            ft.dropdownm2.Option(key=code, text=words, content=ft.Text(words, size=18)) for code, words in choices
        ],
        on_change=lambda event: choose(event.control.value or ""),
        text_size=18,
        label=words.gettext("Currency"),
        item_height=TAP,
    )
    # One node: the label names the chosen currency, the drop-down's tap (which opens the list) is merged into it.
    named = words.gettext("Currency: {currency}").format(currency=dict(choices)[money.currency])
    return ft.MergeSemantics(content=ft.Semantics(label=named, content=field))
