"""History's replay of one session in the table's language: built in German it says its hand labels, what was
entered, the edit log, the verdict and its buttons in German (the saved log and record stay as they were written),
and built in the pseudo-language ``en-XA`` it shows no text that was never marked for translation; the same for a
correction opened from History, the 1111-9999 sides set-up on New game and the Players screen's refusals."""

from __future__ import annotations

import flet as ft
import pytest

from companion.history import when_text
from companion.i18n import Words
from companion.players import PlayedTogetherError
from companion.services import AppServices
from companion.session import Edit
from scoring import GAMES
from storage import DuplicatePlayerError, InvalidPlayerNameError
from tests.support.pseudo_walk import unwrapped_texts
from tests.support.screens import buttons, render, texts, walk
from views.table.entry import said

PLAYERS = ["Ann", "Ben"]
NOT_TRANSLATED = ("Card Table Companion", *(game.name for game in GAMES))


def _played(services: AppServices) -> str:
    """A Jokers Kill session of two hands, the first corrected once and an undo taken back with a redo."""
    session = services.sessions.start("jokers-kill", PLAYERS)
    session.make(Edit.add({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}))
    session.make(Edit.add({"up": "8S", "cards": {"Ann": "2H", "Ben": "QD"}}))
    session.make(Edit.replace(0, {"up": "9S", "cards": {"Ann": "4H", "Ben": "9D"}}))
    session.make(Edit.undo())
    session.make(Edit.redo())
    return session.id


def _dates(services: AppServices, session_id: str) -> list[str]:
    """The session's date as Babel writes it (numbers and a date, not a message: the pseudo-language keeps them)."""
    doc = services.archive.load_session(session_id)
    return [when_text(stamp, words=Words.of("en-XA")) for stamp in (doc.created_at, doc.updated_at)]


def _shown(view: ft.View) -> list[str]:
    return [*texts(view), *buttons(view)]


def test_the_replay_of_a_session_speaks_german(services: AppServices) -> None:
    session_id = _played(services)
    services.settings.set_language("de")
    _, view = render(services, f"/history/{session_id}")
    shown = _shown(view)
    assert "Spiel 1" in shown and "Hand 1" not in shown, "the hand's title"
    assert "Änderungsprotokoll" in shown and "Edit log" not in shown
    assert any(text.startswith("Partie begonnen um ") for text in shown), shown
    assert any(text.startswith("Eingegeben: Aufgedeckt 9♠; Karten Ann 4♥, Ben 9♦") for text in shown), shown
    assert any(text.startswith("Spiel 1 korrigiert um ") and "Karten Ben 7♦ → 9♦" in text for text in shown), shown
    assert any(text.startswith("rückgängig um ") and "Spiel 1 korrigiert" in text for text in shown), shown
    assert "Spiel 2 korrigieren" in buttons(view), "the correction button"
    assert any(text.startswith("Ergebnis: läuft") for text in shown), shown
    assert any(text.startswith("Warum: ") for text in shown)
    doc = services.archive.load_session(session_id)
    assert [entry.action for entry in doc.log[:2]] == ["session started", "hand 1 entered"], "kept as written"
    assert doc.record["hands"][1]["cards"]["Ben"] == "QD"


def test_the_replay_of_a_session_says_the_queen_in_german_letters(services: AppServices) -> None:
    session_id = _played(services)
    services.settings.set_language("de")
    _, view = render(services, f"/history/{session_id}")
    assert any("Ben D♦" in text for text in _shown(view)), "what was entered, with the German letter of the Queen"


def test_the_replay_of_a_session_shows_no_unwrapped_text_in_the_pseudo_language(services: AppServices) -> None:
    session_id = _played(services)
    services.settings.set_language("en-XA")
    _, view = render(services, f"/history/{session_id}")
    assert unwrapped_texts(view, [*PLAYERS, *NOT_TRANSLATED, *_dates(services, session_id)]) == []


def test_a_finished_session_says_its_winner_in_german(services: AppServices) -> None:
    session = services.sessions.start("1111-9999", PLAYERS, None, {"sides": {"Ann": "A", "Ben": "B"}})
    for _ in range(10):  # Ben's rows add up to the target within a few hands
        if session.result.finished:
            break
        session.make(Edit.add({"table": "1234", "numbers": {"Ann": "1234", "Ben": "9876"}}))
    services.settings.set_language("de")
    _, view = render(services, f"/history/{session.id}")
    shown = _shown(view)
    assert any(text.startswith("Ergebnis: ") and "gewonnen" in text for text in shown), shown
    services.settings.set_language("en-XA")
    _, view = render(services, f"/history/{session.id}")
    assert unwrapped_texts(view, [*PLAYERS, *NOT_TRANSLATED, *_dates(services, session.id)]) == []


def test_a_correction_opened_from_history_speaks_german(services: AppServices) -> None:
    session_id = _played(services)
    services.settings.set_language("de")
    _, view = render(services, f"/history/{session_id}/hand-1")
    shown = _shown(view)
    assert any("Spiel 1, wie eingegeben: Aufgedeckt 9♠" in text for text in shown), shown
    services.settings.set_language("en-XA")
    _, view = render(services, f"/history/{session_id}/hand-1")
    assert unwrapped_texts(view, [*PLAYERS, *NOT_TRANSLATED]) == []


def test_the_sides_set_up_of_1111_9999_speaks_german(services: AppServices) -> None:
    for name in ("Ann", "Ben", "Cat"):
        services.players.add(name)
    services.settings.set_language("de")
    _, view = render(services, "/new/1111-9999")
    shown = _shown(view)
    assert any(text.startswith("Auf welcher Seite der Tischreihe") for text in shown), shown
    services.settings.set_language("en-XA")
    _, view = render(services, "/new/1111-9999")
    assert unwrapped_texts(view, ["Ann", "Ben", "Cat", *NOT_TRANSLATED]) == []


def test_the_roster_refuses_in_the_table_language_and_keeps_its_english(services: AppServices) -> None:
    german = Words.of("de")
    ann = services.players.add("Ann")
    ben = services.players.add("Ben")
    with pytest.raises(DuplicatePlayerError) as duplicate:
        services.players.add("ann ")
    assert str(duplicate.value) == "'ann ' is already in the roster as 'Ann'", "the English as it was"
    assert said(german, duplicate.value) == "'ann ' ist schon als 'Ann' im Verzeichnis"
    with pytest.raises(InvalidPlayerNameError) as empty:
        services.players.add("   ")
    assert str(empty.value) == "a player's name is empty"
    assert said(german, empty.value) == "der Name eines Spielers ist leer"
    services.sessions.start("jokers-kill", ["Ann", "Ben"])
    with pytest.raises(PlayedTogetherError) as together:
        services.players.verify_merge(ann.id, ben.id)
    assert str(together.value).startswith("Ann and Ben both played in the game of ")
    assert said(german, together.value).startswith("Ann und Ben haben beide im Spiel vom ")


def test_the_games_short_guides_on_new_game_speak_german(services: AppServices) -> None:
    services.settings.set_language("de")
    _, view = render(services, "/new")
    summary = "Eine Karte für jeden gegen eine aufgedeckte Karte: triff sie oder halte die niedrigste Karte."
    assert any(summary in text for text in _shown(view)), _shown(view)
    assert not any("One card each against an up-card" in text for text in _shown(view))


def test_a_date_filter_history_cannot_read_is_refused_in_german(services: AppServices) -> None:
    services.settings.set_language("de")
    _, view = render(services, "/history")
    field = next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == "Von")
    field.value = "gestern"
    field.on_change(None)
    assert any(text.startswith("'gestern' ist kein Datum") for text in texts(view)), texts(view)
