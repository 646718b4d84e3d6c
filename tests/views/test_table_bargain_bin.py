"""Bargain Bin's receivers on the table screen: keys of a choice, reached and pressed from the keyboard, read out as
selected, and with no focusable node for a screen reader until the keyboard comes to them."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.services import AppServices
from tests.support.events import press_key
from tests.support.screens import buttons, greyed, keys, press, render, texts
from views.table.games import bargain_bin
from views.widgets import FOCUS_BORDER

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def _receiver(view: ft.View, name: str) -> tuple[Any, Any]:
    """The button node of the receiver of ``name``'s cards, and the keyboard listener inside it."""
    found = [key for label, key in keys(view).items() if label.startswith(f"To {name} (")]
    assert found, f"no receiver for {name}"
    return found[0]


def test_a_receiver_is_chosen_by_the_keyboard_and_read_out_as_selected(services: AppServices) -> None:
    table = services.sessions.start("bargain-bin", PLAYERS, {"selfless": True})
    _, view = render(services, f"/continue/{table.id}")
    node, ben = _receiver(view, "Ben")
    box = ben.content
    assert node.button and node.selected is False, "a receiver reads as a button, not selected"
    assert not ben.include_semantics, "no focusable node for a screen reader before the keyboard comes to it"
    press_key(ben, "Tab", up=True)  # a Tab brought the focus to Ben's receiver
    assert box.border.top.width == 3 and box.border.top.color == FOCUS_BORDER, "the focused receiver is drawn as such"
    assert ben.include_semantics, "from now on the browser's focus follows Flutter's to it"
    press_key(ben, "Enter")
    assert node.selected is True, "Enter chose Ben: read out as selected"
    assert box.bgcolor is not None and box.content.weight == ft.FontWeight.BOLD, "and shown filled, in bold"
    assert box.border.top.color == ft.Colors.ON_SURFACE, "focused and chosen: the focus border is not the outline's"
    assert any("plays to Ben" in t for t in texts(view)), texts(view)
    press_key(ben, "Tab")  # the focus goes on
    assert box.border.top.width == 3 and box.border.top.color == ft.Colors.PRIMARY, "chosen: a thick outline"
    value = next(label for label in buttons(view) if label.startswith("A") and not greyed(view, buttons(view)[label]))
    press(buttons(view)[value])
    node, ben = _receiver(view, "Ben")
    assert node.selected is False and ben.content.content.weight is None, "the card went: nobody is chosen"
    assert ben.content.content.value != "To Ben (0)", "Ben's receiver now says his card points"
    giver = next(name for name in PLAYERS if any(t.startswith(f"Next: {name} plays:") for t in texts(view)))
    _, own = _receiver(view, giver)
    assert greyed(view, own.content), "Selfless: the giver's own receiver is greyed out (BB-7)"
    press_key(own, "Enter")
    assert not any("plays to" in t for t in texts(view)), "a greyed-out receiver pressed: nothing"
    node, other = _receiver(view, next(name for name in PLAYERS if name != giver))
    press_key(other, " ")
    assert node.selected is True, "Space chose another receiver"


def test_a_receiver_whose_label_alone_changes_is_sent() -> None:
    """What a redraw compares of a kept receiver takes in the text of its key (inside the gesture detector that
    takes its taps, the keyboard listener and the box), so a receiver whose card points alone change is sent."""
    key = bargain_bin._receiver("To Ann (0)", lambda _: None)
    before = bargain_bin._look(key.control)
    assert key.set_label("To Ann (3)")
    assert bargain_bin._look(key.control) != before, "the new card points would not be sent"
    assert bargain_bin._look(key.control)[-1][0] == "To Ann (3)"
