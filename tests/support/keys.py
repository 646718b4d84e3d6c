"""The table's keys as the unit tests find them: a key's label, the row of keys that holds a key, a Bargain Bin value
key's label."""

from __future__ import annotations

import re

import flet as ft

from tests.support.screens import buttons, greyed, label_of, walk
from views.widgets import Key

VALUE_KEY = re.compile(r"^(A|K|Q|J|10|[2-9])(♠♣|♥♦)$")
"""A Bargain Bin value key's label (the two cards of a value: ``K♠♣``)."""


def row_of(view: ft.View, label: str) -> ft.ResponsiveRow:
    """The row of keys that holds the key labelled ``label`` (the card grid, the digit pad)."""
    return next(
        control
        for control, _ in walk(view)
        if isinstance(control, ft.ResponsiveRow) and any(key_label(c) == label for c in control.controls)
    )


def key_label(control: ft.Control) -> str | None:
    """A key's label: a button's tooltip, or the text of a box in a button node (a :class:`views.widgets.TapKey`,
    a receiver)."""
    inner = control.content if isinstance(control, ft.Semantics) else None
    if isinstance(inner, ft.GestureDetector):  # a TapKey: its box in the listener that takes the keyboard's keys,
        inner = inner.content  # in the detector that takes its taps
    if isinstance(inner, ft.KeyboardListener):
        inner = inner.content
    if isinstance(inner, Key):
        return label_of(inner)
    return getattr(control, "tooltip", None)


def bargain_bin_next(view: ft.View, taps: int) -> str | None:
    """The next tap of a Bargain Bin hand entered card by card, after ``taps`` taps: who gets a card (the first
    receiver not greyed out), then its value (the first value key not greyed out); ``None`` once every card is in."""
    shown = buttons(view)
    if taps % 2 == 0:
        return next((k for k, c in shown.items() if k.startswith("To ") and not greyed(view, c)), None)
    return next(k for k, c in shown.items() if VALUE_KEY.match(k) and not greyed(view, c))
