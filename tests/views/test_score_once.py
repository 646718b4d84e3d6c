"""The record is replayed through scoring once per change, never per tap within a hand (issue 15).

Each game's scorer is wrapped to count its calls, then a hand is played on the table screen (a fake page, tapped
through the handlers): the taps of a hand score nothing; a Confirm scores the new record exactly once, and the
screen, the scoreboard, the entry panel and the Vegas line all read the session's cached result.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from companion.entry_bargain_bin import BinEntry, money
from companion.services import AppServices
from companion.session import Edit
from tests.support.counting import counting_scorers
from tests.support.screens import buttons, greyed, render, tap, texts

VALUE_KEY = re.compile(r"^(A|K|Q|J|10|[2-9])(♠♣|♥♦)$")


@pytest.fixture
def scored() -> Iterator[Counter[str]]:
    """Counts of each game's scorer calls, by game key."""
    counts: Counter[str] = Counter()
    with counting_scorers(counts):
        yield counts


def test_a_change_is_scored_once_and_read_from_the_cache(services: AppServices, scored: Counter[str]) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    scored.clear()
    table.add_hand({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}})
    assert scored["jokers-kill"] == 1
    for _ in range(3):
        assert table.result.totals["Ann"] == 2
        assert table.preview(table.current) is table.result, "the current record is not replayed again"
    assert scored["jokers-kill"] == 1
    table.undo()
    table.redo()
    assert scored["jokers-kill"] == 1, "undo and redo: each record's replay was kept with it"
    assert table.result.totals["Ann"] == 2
    assert table.can_make(Edit.remove_last()) and scored["jokers-kill"] == 2, "a check is one replay"


def test_changes_share_the_entries_they_keep(services: AppServices) -> None:
    """A change copies the entry it adds, not the game: the hands before are the same objects, unchanged."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    first = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
    table.add_hand(first)
    first["cards"]["Ann"] = "2H"  # the caller's dict stays the caller's
    kept = table.current["hands"][0]
    table.add_hand({"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}})
    assert table.current["hands"][0] is kept and kept["cards"]["Ann"] == "4H"
    copy = table.record
    copy["hands"][0]["cards"]["Ann"] = "AS"  # a copy to change: the session's record is untouched
    assert table.current["hands"][0]["cards"]["Ann"] == "4H"
    table.undo()
    assert len(table.current["hands"]) == 1 and table.current["hands"][0] is kept


def test_jokers_kill_taps_score_nothing_and_a_confirm_scores_once(
    services: AppServices, scored: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoring import jokers_kill

    replays: list[int] = []
    replay = jokers_kill._replay

    def counted(record: Any) -> Any:
        replays.append(len(record.hands))
        return replay(record)

    monkeypatch.setattr(jokers_kill, "_replay", counted)
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    for hand, cards in enumerate([("9♠", "4♥", "7♦", "Q♣"), ("8♠", "2♥", "8♦", "5♣")], start=1):
        scored.clear()
        replays.clear()
        for card in cards:
            tap(view, card)
        assert scored["jokers-kill"] == 0, "a card tap replays nothing"
        assert replays == [], "nor does checking the card against the cards of the game (one deck, rule 7)"
        tap(view, "Confirm hand")
        assert scored["jokers-kill"] == 1, "a Confirm replays the record once"
        assert len(table.hands) == hand
    assert "1. Ben: 3 points (last hand +3)" in texts(view)


def play_bargain_bin_hand(view: Any) -> int:
    """Every card of a live-play hand: a receiver tap and a value tap each; the taps made."""
    taps = 0
    while True:
        shown = buttons(view)
        receivers = [label for label, c in shown.items() if label.startswith("To ") and not greyed(view, c)]
        if not receivers:
            return taps
        tap(view, receivers[0])
        shown = buttons(view)
        tap(view, next(label for label, c in shown.items() if VALUE_KEY.match(label) and not greyed(view, c)))
        taps += 2


def test_bargain_bin_vegas_taps_score_nothing_and_a_confirm_scores_once(
    services: AppServices, scored: Counter[str]
) -> None:
    """The Vegas line (what this hand pays, the pot after it) moves with every card, but the pot before the hand
    cannot change within a hand: it is the session's result, never a replay per tap."""
    players = ["Ann", "Ben", "Cat", "Dan"]
    table = services.sessions.start("bargain-bin", players, {"vegas_unit_cents": 10, "target": 1000})
    _, view = render(services, f"/continue/{table.id}")
    for hand in (1, 2, 3):
        scored.clear()
        assert play_bargain_bin_hand(view) > 0
        assert scored["bargain-bin"] == scored["bargain-bin hands"] == 0, "a receiver or value tap replays nothing"
        assert any(text.startswith("Vegas (") for text in texts(view))
        tap(view, "Confirm hand")
        assert scored["bargain-bin hands"] == 1, "a Confirm replays its own hand, on top of the replay before it"
        assert scored["bargain-bin"] == 0, "and not the whole record"
        assert len(table.hands) == hand
    scored.clear()
    table.undo()
    assert len(table.hands) == 2 and table.result.hands == table.preview(table.record).hands
    scored.clear()
    table.redo()
    assert len(table.hands) == 3 and table.result.hands == table.preview(table.record).hands
    scored.clear()
    table.undo()
    table.redo()
    assert scored["bargain-bin"] == scored["bargain-bin hands"] == 0, "undo and redo: each record's replay was kept"
    table.remove_last_hand()
    assert scored["bargain-bin"] == 1 and scored["bargain-bin hands"] == 2, "any other change: one whole replay"
    line = BinEntry.start(table.current).vegas_line()  # the pot found by replaying the record: the same
    assert line is not None and table.result.pot
    assert any(text.endswith(f"Pot after this hand: {money(line[1])}.") for text in texts(view))


def test_a_tap_turns_off_only_its_own_automatic_update() -> None:
    """Inside an event of a page, a panel's tap sends what it changed itself: Flet's whole-page auto-update is off
    for that event only; outside one (a unit test, a redraw on another thread) the app-wide default is untouched."""
    import contextvars

    import flet as ft

    from views.table.entry import sent_by_hand

    def event() -> tuple[bool, bool]:
        ft.context.reset_auto_update()  # what Flet does before it calls a handler
        before = ft.context.auto_update_enabled()
        sent_by_hand()
        return before, ft.context.auto_update_enabled()

    assert contextvars.copy_context().run(event) == (True, False)
    sent_by_hand()
    assert contextvars.copy_context().run(lambda: ft.context.auto_update_enabled()), "the default stays on"
    assert contextvars.copy_context().run(event) == (True, False), "the next event starts with it on again"
