"""The table's language on the general screens: the Settings choice, every open tab redrawn in it at once, Flet's
own widgets told the locale, and each screen in German and in the pseudo-language ``en-XA`` (no text left
unmarked)."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion.i18n import LANGUAGES, device_language
from companion.money import currency_choices
from companion.services import AppServices
from companion.settings import SettingsService
from scoring import GAMES
from tests.support.pseudo_walk import unwrapped_texts
from tests.support.screens import buttons, shell_for, walk
from tests.support.screens import texts as text_values


def texts(view: ft.View) -> list[str]:
    """Every text and control label of the screen."""
    return [*text_values(view), *buttons(view)]


def language_group(view: ft.View) -> ft.RadioGroup:
    for control, _ in walk(view):
        if isinstance(control, ft.RadioGroup) and control.value in ("system", *LANGUAGES, "en-XA"):
            return control
    raise AssertionError("no language choice on the Settings screen")


def radios(group: ft.RadioGroup) -> list[ft.Radio]:
    return [control for control, _ in walk(group.content) if isinstance(control, ft.Radio)]


def test_the_language_choice_offers_the_devices_language_and_each_by_its_own_name(services: AppServices) -> None:
    shell, page = shell_for(services, "/settings")
    shell.render()
    group = language_group(page.views[-1])
    choices = [(radio.value, radio.label) for radio in radios(group)]
    device = LANGUAGES[device_language()]
    assert choices == [
        ("system", f"The device's language ({device})"),
        ("en", "English"),
        ("sv", "Svenska"),
        ("de", "Deutsch"),
    ]
    assert group.value == "system"  # the default
    assert "Keep English card letters (J Q K A)" in [
        c.label for c, _ in walk(page.views[-1]) if isinstance(c, ft.Switch)
    ]


def test_choosing_deutsch_saves_it_and_redraws_every_open_tab_in_german(services: AppServices) -> None:
    home, home_page = shell_for(services, "/")
    home.start()
    settings, settings_page = shell_for(services, "/settings")
    settings.start()
    assert "New game" in texts(home_page.views[-1])

    group = language_group(settings_page.views[-1])
    group.value = "de"
    group.on_change(SimpleNamespace(control=group))

    assert SettingsService.open(services.data_dir).current().language == "de"  # saved, as a new start reads it
    assert "Neues Spiel" in texts(home_page.views[-1]) and "New game" not in texts(home_page.views[-1])
    settings_view = settings_page.views[-1]  # the tab where the change was made: its title and its words too
    assert "Einstellungen" in texts(settings_view) and "Sprache" in texts(settings_view)
    assert language_group(settings_view).value == "de"
    for page in (home_page, settings_page):  # Flet's own widgets (pickers, menus) follow
        assert page.locale_configuration is not None
        assert page.locale_configuration.current_locale == ft.Locale("de")


def test_the_command_lines_language_holds_for_every_page_it_serves(services: AppServices) -> None:
    services.settings.use_language("sv")  # what `companion --lang sv` does before serving
    shell, page = shell_for(services, "/")
    shell.start()
    assert "Nytt spel" in texts(page.views[-1])
    assert page.locale_configuration is not None
    assert page.locale_configuration.current_locale == ft.Locale("sv")
    assert SettingsService.open(services.data_dir).current().language == "system"  # for this run only


SCREENS = {
    "/": "Neues Spiel",
    "/settings": "Einstellungen",
    "/continue": "Keine unfertigen Spiele",
    "/rules": "Regeln",
    "/rules/jokers-kill": "Hausregeln",
    "/no-such-page": "Nicht gefunden",
    "/new": "Welches Spiel spielt ihr?",
    "/new/jokers-kill": "Spieler, im Uhrzeigersinn",
    "/players": "Noch keine Spieler",
    "/history": "Noch keine Partien",
}


@pytest.mark.parametrize("route", list(SCREENS))
def test_each_screen_speaks_german(services: AppServices, route: str) -> None:
    services.settings.set_language("de")
    shell, page = shell_for(services, route)
    shell.render()
    assert SCREENS[route] in texts(page.views[-1])


NOT_TRANSLATED = (
    *LANGUAGES.values(),  # each language by its own name
    "en-XA",
    *(words for _, words in currency_choices("USD")),  # Babel's names of the currencies, in the locale's language
    "Card Table Companion",
    *(game.name for game in GAMES),  # the games' own names
)


@pytest.mark.parametrize(
    "route",
    ["/", "/settings", "/continue", "/rules", "/no-such-page", "/new", "/new/jokers-kill", "/players", "/history"],
)
def test_no_text_is_left_unmarked_in_the_pseudo_language(services: AppServices, route: str) -> None:
    services.settings.use_language("en-XA")
    shell, page = shell_for(services, route)
    shell.render()
    assert unwrapped_texts(page.views[-1], NOT_TRANSLATED) == []
