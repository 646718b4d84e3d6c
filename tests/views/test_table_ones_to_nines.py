"""1111-9999's numbers on the table screen: keys of a choice, the one the digit pad types into read out as selected,
chosen by a tap or from the keyboard, and relabelled digit by digit."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.services import AppServices
from tests.support.events import press_key
from tests.support.screens import buttons, keys, label_of, press, render, texts

SIDES = {"Ann": "A", "Ben": "B"}


def _fields(view: ft.View) -> dict[str, tuple[Any, Any]]:
    """Each number's field by the start of its text (``Table row``, ``Ann``...): its button node and its keyboard
    listener."""
    return {label.split(" (")[0]: key for label, key in keys(view).items() if "(A)" in label or "(B)" in label}


def _chosen(view: ft.View) -> list[str]:
    return [name for name, (node, _) in _fields(view).items() if node.selected]


def test_the_field_typed_into_is_chosen_and_moves_by_tap_and_keyboard(services: AppServices) -> None:
    table = services.sessions.start("1111-9999", list(SIDES), extra={"sides": SIDES})
    _, view = render(services, f"/continue/{table.id}")
    fields = _fields(view)
    assert list(fields) == ["Table row", "Ann", "Ben"]
    assert _chosen(view) == ["Table row"], "a hand starts with the table row"
    node, listener = fields["Table row"]
    assert node.button and listener.content.bgcolor is not None, "the chosen field reads as a button and is filled"
    assert label_of(listener.content) == "Table row (A): _ _ _ _"
    for digit in "4239":
        press(buttons(view)[digit])
    assert label_of(_fields(view)["Table row"][1].content) == "Table row (A): 4 2 3 9", "a digit at a time"
    assert _chosen(view) == ["Ann"], "a whole number: the pad goes on to the next"
    assert label_of(_fields(view)["Ben"][1].content) == "Ben (B) · target 9324: _ _ _ _", "side B reads it reversed"
    _, ben = _fields(view)["Ben"]
    press(ben.content)
    assert _chosen(view) == ["Ben"], "a tap on a field sends the pad there"
    assert any(t == "Next: Typing Ben's number" for t in texts(view)), texts(view)
    _, row = _fields(view)["Table row"]
    press_key(row, "Tab", up=True)
    press_key(row, "Enter")
    assert _chosen(view) == ["Table row"], "Enter on a field sends the pad there too"
    node, row = _fields(view)["Table row"]
    assert row.content.content.weight is None, "a chosen field's text is not bold: its digits still fit"


def test_a_large_tables_table_row_says_what_it_is_then_its_digits(services: AppServices) -> None:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    sides = {name: "AB"[i % 2] for i, name in enumerate(names)}
    table = services.sessions.start("1111-9999", names, extra={"sides": sides})
    _, view = render(services, f"/continue/{table.id}")
    fields = _fields(view)
    assert label_of(fields["Table row"][1].content) == "Table row (A)\n_ _ _ _", "two lines, as a number's field"
    assert label_of(fields["Ann"][1].content) == "Ann (A)\n_ _ _ _"
