"""Refusals in the table's language: a house rule the game refuses on New game (never pydantic's English), the
PIN and live-table refusals of sharing, and the Players screen; the English messages stay as the command line and
the tests read them. Money on the table follows the language's marks (``Settings.money_shown``)."""

from __future__ import annotations

from typing import Any, cast

import flet as ft
import pytest

from companion.i18n import Words
from companion.money import format_money
from companion.new_game import option_problems
from companion.services import AppServices
from companion.sharing import Access, InvalidPinError, LiveTable, NotAllowedError, Role, verify_pin_format
from tests.support.pseudo_walk import unwrapped_texts
from tests.support.screens import render, texts, walk
from views.table.entry import said

GERMAN = Words.of("de")


def test_a_refused_house_rule_is_said_in_german_and_its_english_is_kept() -> None:
    english = option_problems("financial-crisis", {"max_players": 12})
    assert english == {"max_players": "“Most players allowed” must be a whole number from 2 to 9, not 12 (BK-15)"}
    german = option_problems("financial-crisis", {"max_players": 12}, GERMAN)
    assert german == {"max_players": "“Höchstzahl an Spielern” muss eine ganze Zahl von 2 bis 9 sein, nicht 12 (BK-15)"}
    assert option_problems("bargain-bin", {"target": 0}, GERMAN) == {"target": "mindestens 1"}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("jokers-kill", {"playoff_wins": "two"}),
        ("jokers-kill", {"joker_upcard": "sideways"}),
        ("bargain-bin", {"x": 1}),
    ],
)
def test_pydantics_english_never_shows_in_german(game: str, options: dict[str, Any]) -> None:
    problems = option_problems(game, options, GERMAN)
    assert problems, "refused"
    english = option_problems(game, options)
    for key, problem in problems.items():
        assert problem != english[key], "worded, not pydantic's message"
        assert "Input should" not in problem and "Extra inputs" not in problem, problem


def test_a_refused_house_rule_on_new_game_is_german(services: AppServices) -> None:
    services.settings.set_language("de")
    _, view = render(services, "/new/financial-crisis")
    field = next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == "Höchstzahl an Spielern")
    field.value = "12"
    cast(Any, field).on_change(type("E", (), {"control": field})())
    assert field.error is not None and "muss eine ganze Zahl von 2 bis 9 sein, nicht 12" in str(field.error), (
        field.error
    )


def test_pin_refusals_are_said_in_german_and_keep_their_english() -> None:
    with pytest.raises(InvalidPinError) as refused:
        verify_pin_format("12a4")
    assert str(refused.value) == "a PIN is digits only (4 to 6 of them)"
    assert said(GERMAN, refused.value) == "eine PIN besteht nur aus Ziffern (4 bis 6)"
    with pytest.raises(InvalidPinError) as short:
        verify_pin_format("123")
    assert said(GERMAN, short.value) == "eine PIN hat 4 bis 6 Ziffern, diese hat 3"


def test_a_phone_without_a_pin_is_refused_in_german(services: AppServices) -> None:
    live = LiveTable(services.sessions)
    with pytest.raises(NotAllowedError) as refused:
        live.verify_edit(Access(Role.VIEWER, "192.0.2.7", 0))
    assert str(refused.value) == "this phone can only watch the game: enter the host's PIN to make changes"
    assert said(GERMAN, refused.value).startswith("dieses Telefon kann dem Spiel nur zuschauen")


def test_the_players_screen_of_a_player_speaks_german_and_has_no_unmarked_text(services: AppServices) -> None:
    ann = services.players.add("Ann")
    services.players.add("Ben")
    services.settings.set_language("de")
    _, view = render(services, f"/players/{ann.id}")
    assert any("Wertung" in text for text in texts(view)) and "Ratings" not in texts(view), texts(view)
    services.settings.set_language("en-XA")
    _, view = render(services, f"/players/{ann.id}")
    assert unwrapped_texts(view, ["Ann", "Ben"]) == []


def test_the_bargain_bin_table_writes_money_in_the_languages_pattern(services: AppServices) -> None:
    session = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"], {"vegas_unit_cents": 10})
    services.settings.set_language("de")
    _, view = render(services, f"/continue/{session.id}")
    settings = services.settings.current()
    german, english = format_money(10, settings.money_shown), format_money(10, settings.money)
    assert german != english, "German puts the symbol after the amount"
    shown = " ".join(texts(view))
    assert german in shown and english not in shown, shown
