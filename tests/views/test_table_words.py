"""The table in the table's language: each game's table screen built in German shows German words (and the card
letters of German: B D K A), and built in the pseudo-language ``en-XA`` shows no text that was never marked for
translation (every text a player sees or hears is ``⟦…⟧``, apart from names, cards and numbers)."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.i18n import Words
from companion.services import AppServices
from companion.session import Edit, NothingToUndoError
from scoring import find_game
from scoring.why import Note
from tests.support.pseudo_walk import unwrapped_texts
from tests.support.screens import buttons, press, render, tap, texts
from views.edit_host import EditHost

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
GAMES: dict[str, dict[str, Any]] = {
    "jokers-kill": {},
    "bargain-bin": {"options": {"vegas_unit_cents": 10}},
    "financial-crisis": {},
    "feast-and-famine": {"options": {"circuits": 1}},
    "1111-9999": {"extra": {"sides": {"Ann": "A", "Ben": "A", "Cat": "B", "Dan": "B"}}},
}
"""The games whose table is checked, with what starts one."""


def _table(services: AppServices, game: str, language: str) -> tuple[Any, ft.View]:
    services.settings.set_language(language)
    setup = GAMES[game]
    session = services.sessions.start(game, PLAYERS, setup.get("options"), setup.get("extra"))
    page, view = render(services, f"/continue/{session.id}")
    return page, view


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_table_of_each_game_speaks_german(services: AppServices, game: str) -> None:
    _, view = _table(services, game, "de")
    shown = texts(view)
    assert "Spieler" in shown and "Gesamt" in shown, "the scoreboard's header"
    assert "Rückgängig" in buttons(view), "the app bar's Undo"
    assert "Undo" not in buttons(view) and "Player" not in shown


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_table_of_each_game_shows_no_unwrapped_text_in_the_pseudo_language(
    services: AppServices, game: str
) -> None:
    _, view = _table(services, game, "en-XA")
    assert unwrapped_texts(view, [*PLAYERS, find_game(game).name]) == []


def test_jokers_kill_in_german_deals_with_german_letters_and_refuses_in_german(services: AppServices) -> None:
    _, view = _table(services, "jokers-kill", "de")
    keys = buttons(view)
    assert {"B♠", "D♥", "K♦", "A♣"} <= set(keys) and "J♠" not in keys and "Q♥" not in keys
    assert "Die aufgedeckte Karte umdrehen" in texts(view)
    tap(view, "D♥")
    assert "Aufgedeckte Karte: D♥" in buttons(view), "the hand's place, in German and with the German letter"
    assert "Karte von Ann" in texts(view)
    for card in ("2♠", "3♠", "4♠", "5♠"):
        tap(view, card)
    assert "Spiel bestätigen" in buttons(view)
    press(keys["7♦"])  # the hand is complete: refused, in German
    assert any("das spiel ist vollständig" in text.lower() for text in texts(view)), texts(view)


def test_jokers_kill_keeps_the_english_letters_when_the_setting_says_so(services: AppServices) -> None:
    services.settings.set_english_card_letters(True)
    _, view = _table(services, "jokers-kill", "sv")
    keys = buttons(view)
    assert {"J♠", "Q♥", "A♣"} <= set(keys) and "Kn♠" not in keys
    assert "Ångra" in keys


def test_jokers_kill_in_swedish_says_the_standings_and_the_notes_in_swedish(services: AppServices) -> None:
    services.settings.set_language("sv")
    session = services.sessions.start("jokers-kill", PLAYERS)
    _, view = render(services, f"/continue/{session.id}")
    for card in ("9S", "4H", "7D", "QC", "2C"):
        tap(view, {"9S": "9♠", "4H": "4♥", "7D": "7♦", "QC": "D♣", "2C": "2♣"}[card])
    tap(view, "Bekräfta given")
    _, view = render(services, f"/continue/{session.id}")
    shown = texts(view)
    assert any(text.startswith("Giv 1:") for text in shown), shown
    assert any("Uppkort 9♠" in text for text in shown), "the hand's why, in Swedish"
    assert any("poäng" in text for text in shown)
    assert session.record["hands"][0]["cards"]["Cat"] == "QC", "the record keeps the English letters"


def test_bargain_bin_in_german_has_german_value_keys_and_prompts(services: AppServices) -> None:
    _, view = _table(services, "bargain-bin", "de")
    shown = texts(view)
    assert "Ann spielt: wer bekommt die Karte?" in shown
    keys = buttons(view)
    assert {"B♠♣", "D♥♦", "A♠♣"} <= set(keys) and "J♠♣" not in keys, "the value keys in the German letters"
    assert any(text.startswith("Schwarze Karten plus, rote minus; A = 1, B = 11, D = 12, K = 12") for text in shown)
    press(keys["B♠♣"])  # no receiver chosen yet: refused, in German
    assert any("Tippe zuerst an, wer die Karte von Ann bekommt." in text for text in texts(view)), texts(view)


def test_financial_crisis_in_german_reads_the_bank_and_the_piles_in_german(services: AppServices) -> None:
    _, view = _table(services, "financial-crisis", "de")
    assert "Tippe die 5 verdeckten Bankkarten an (0 von 5)" in texts(view)
    for card in ("3♠", "7♠", "4♥", "9♥", "6♦"):
        tap(view, card)
    shown = texts(view)
    assert "Die Lesart der Bank" in shown and "Verliert: ♦" in shown, shown
    assert "Rangkarten: nicht wertvoll" in shown
    assert any(text.startswith("2♠ 2♥ 1♦") and "♦ verliert" in text for text in shown), "the reason, in German"
    tap(view, "D♣")  # the German letter of the Queen
    assert "In dem Stapel von Ann: D♣" in texts(view)


def test_feast_and_famine_in_german_walks_the_round_in_german(services: AppServices) -> None:
    _, view = _table(services, "feast-and-famine", "de")
    shown = texts(view)
    assert "Wer gibt?" in shown
    assert any(text.startswith("Runde 1 von 4 · Durchgang 1 von 1") for text in shown), shown
    tap(view, "Geber: Dan")
    assert "Gib Ann die erste Karte (ein Joker wird beiseitegelegt und ersetzt)" in texts(view)
    assert {"Ablehnen", "Runde durchgehen", "Schnellformular"} <= set(buttons(view))


def test_ones_to_nines_in_german_types_the_table_row_in_german(services: AppServices) -> None:
    _, view = _table(services, "1111-9999", "de")
    shown = texts(view)
    assert "Eingabe der Tischreihe" in shown
    assert "Spiel 1: einmal die Tischreihe, dann jede Zahl" in shown
    assert {"Ziffer löschen", "Spiel leeren", "Spiel bestätigen"} <= set(buttons(view))
    for digit in "4239":
        tap(view, digit)
    assert "Eingabe der Zahl von Ann" in texts(view)


def test_a_refused_edit_is_said_in_the_tables_language() -> None:
    said: list[str | None] = []

    class Refusing:
        def make(self, edit: Edit) -> None:
            raise NothingToUndoError(Note.of("there is nothing to undo"))

        def can_make(self, edit: Edit) -> bool:
            return False

    assert not EditHost(Refusing(), report=said.append, words=Words.of("de")).submit(Edit.undo())
    assert said == ["es gibt nichts rückgängig zu machen. Nichts wurde geändert."]
    assert not EditHost(Refusing(), report=said.append).submit(Edit.undo())
    assert said[-1] == "there is nothing to undo. Nothing was changed.", "English as before"
