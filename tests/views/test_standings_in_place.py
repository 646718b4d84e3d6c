"""The standings strip a phone keeps above the entry, and the scoreboard under it: a confirmed hand that changes the
order changes what each place says, never the row of places.

Flet's client builds again every control a reply changes, and everything under it: chips (or rows) put in another
order change the control that holds them, which is then built again with all ten in it. These tests diff the
standings as a page's session does (Flet's ``ObjectPatch``, after they were sent whole) and look at what the reply
to a hand changes.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scoring import find_game
from tests.support.screens import walk
from tests.support.wire import Wire, changed
from views.table.scoreboard import Scoreboard, StandingsStrip, standings

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
GAME = find_game("bargain-bin")


def result_after(*hands: dict[str, int]) -> Any:
    """The result of ``hands``, each a hand's card points (a player not named has none)."""
    hands_in = [{"scores": {name: hand.get(name, 0) for name in PLAYERS}} for hand in hands]
    return GAME.score({"game": "bargain-bin", "players": PLAYERS, "hands": hands_in})


REORDERED = result_after({name: (i * 7) % 11 - 3 for i, name in enumerate(PLAYERS)})
"""A first hand that puts the table in another order than its seats'."""


def test_the_hand_reorders_the_table() -> None:
    assert [line.name for line in standings(REORDERED)] != PLAYERS


def test_a_hand_that_reorders_the_table_changes_what_the_chips_say_not_the_row() -> None:
    strip = StandingsStrip(PLAYERS)
    strip.show(result_after())
    Wire().send_first(strip.control)
    chips = list(strip.grid.controls)

    strip.show(REORDERED)
    sends = changed(strip.control)

    assert strip.grid.controls == chips, "the same chips, in the same order"
    assert sends, "the hand changed the standings"
    for control, prop in sends:  # a chip's label or one of its texts: never the row, a chip's box or its row
        if isinstance(control, ft.Semantics):
            assert prop == "label" and control in chips, (control, prop)
        else:
            assert isinstance(control, ft.Text) and prop in ("value", "color"), (control, prop)


def test_each_place_reads_as_its_line() -> None:
    strip = StandingsStrip(PLAYERS)
    first = {name: 1 if name == "Jon" else 0 for name in PLAYERS}
    result = result_after(first, {"Jon": 0, "Ann": 2})
    strip.show(result)

    read = []
    for chip in strip.grid.controls:
        assert isinstance(chip, ft.Semantics) and chip.exclude_semantics, "one node a chip, its texts inside it"
        place, who, total = (t.value for t, _ in walk(chip) if isinstance(t, ft.Text))
        assert chip.label.startswith(f"{place.lstrip('=')}. {who}: {total} point"), (chip.label, place, who, total)
        read.append(chip.label)
    assert read == [line.label for line in standings(result)]


def test_a_hand_that_changes_nothing_sends_nothing() -> None:
    strip = StandingsStrip(PLAYERS)
    strip.show(result_after({"Ann": 3}))
    Wire().send_first(strip.control)
    strip.show(result_after({"Ann": 3}))
    assert changed(strip.control) == []


def test_the_scoreboard_keeps_its_rows_in_place_too() -> None:
    board = Scoreboard()
    board.show(result_after(), [])
    Wire().send_first(board.control)
    rows = list(board.rows.controls)

    board.show(REORDERED, [])
    sends = changed(board.control)

    assert board.rows.controls == rows, "the same rows, in the same order"
    assert sends, "the hand changed the standings"
    for control, prop in sends:  # a row's label or one of its texts
        if isinstance(control, ft.Semantics):
            assert prop == "label" and control in rows, (control, prop)
        else:
            assert isinstance(control, ft.Text) and prop == "value", (control, prop)
    assert [r.label for r in board.rows.controls] == [line.label for line in standings(REORDERED)]
