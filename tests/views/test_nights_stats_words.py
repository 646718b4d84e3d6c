"""The nights, statistics, ratings, export and share screens in the table's language: built in German each shows
German words, and built in the pseudo-language ``en-XA`` none shows a text that was never marked for translation
(names, dates, paths and numbers apart)."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.night_recap import day_of
from companion.services import AppServices
from scoring import GAMES
from tests.support.pseudo_walk import shown_texts, unwrapped_texts
from tests.support.screens import shell_for

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
NIGHT = "Friday"


@pytest.fixture
def night_id(services: AppServices) -> str:
    night = services.nights.start(NIGHT, PLAYERS)
    table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 10, "target": 1})
    table.add_hand({"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2}})
    services.nights.add_entry(night.id, "Cat", "split", "8", "pizza")
    services.sessions.start("jokers-kill", ["Ann", "Ben"], {})  # a game of earlier, offered to the night
    return night.id


SCREENS = {
    "/nights": "Den Abend Friday öffnen",
    "/nights/new": "Einen Spieleabend beginnen",
    "/nights/{id}": "Wer zahlt wem heute Abend",
    "/nights/{id}/recap": "Längste Siegesserie",
    "/stats/nights": "Abend für Abend",
    "/stats": "Siege pro Spieler",
    "/history/transfer": "Sicherungen",
    "/share": "Neue PIN",
}
"""Each screen, and a German sentence it shows."""


def screen_in(services: AppServices, language: str, route: str) -> ft.View:
    services.settings.use_language(language)
    shell, page = shell_for(services, route)
    shell.render()
    return page.views[-1]


def own_parts(view: ft.View) -> list[Any]:
    """What the screen itself draws: its body and its title (the back button is the shell's)."""
    appbar: Any = view.appbar
    return [*view.controls, appbar.title if appbar is not None else None]


@pytest.mark.parametrize("route", list(SCREENS))
def test_each_screen_in_german_shows_german(services: AppServices, night_id: str, route: str) -> None:
    view = screen_in(services, "de", route.format(id=night_id))
    shown = [text for part in own_parts(view) if part is not None for text in shown_texts(part)]
    assert SCREENS[route] in shown, shown


@pytest.mark.parametrize("route", list(SCREENS))
def test_each_screen_in_the_pseudo_language_has_no_unmarked_text(
    services: AppServices, night_id: str, route: str
) -> None:
    night = services.nights.get(night_id)
    names = [*PLAYERS, NIGHT, "Bargain Bin", "Jokers Kill", "pizza", "JSON", "CSV", day_of(night.started)]
    names += [str(services.data_dir), "μ", "σ", *(game.name for game in GAMES)]
    names += [s.name for s in services.seasons.seasons.all()] + [s.span for s in services.seasons.seasons.all()]
    view = screen_in(services, "en-XA", route.format(id=night_id))
    left = [text for part in own_parts(view) if part is not None for text in unwrapped_texts(part, names)]
    assert left == [], "\n".join(left)


def test_the_night_screen_stays_english_word_for_word(services: AppServices, night_id: str) -> None:
    view = screen_in(services, "en", f"/nights/{night_id}")
    shown = [text for part in own_parts(view) if part is not None for text in shown_texts(part)]
    assert "Who pays whom tonight" in shown and "Cat paid $8.00 for Ann, Ben, Cat and Dan (pizza)" in shown
