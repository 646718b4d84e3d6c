"""1111-9999 at the table: the table row once, each player's number on a digit pad, three of a kind, the review.

The logic is :mod:`companion.entry_ones_to_nines`; this module only draws it. Tapping a row (the table row or a
player) sends the digit pad there; a digit the deck has no more of is greyed out. Once the table row is in, each
player sees their own target (side B reads it reversed). When every number is in, each player's best arrangement
is shown before the hand is confirmed. Sudden death is the same panel with three digits and the tied players.
The set-up hook chooses each player's side.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import flet as ft

from companion import entry_ones_to_nines as entry_oo
from companion.entry_ones_to_nines import TABLE, EntryError, HandEntry, OnesToNinesState
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring.base import join_names
from scoring.ones_to_nines import DIGITS, OnesToNinesResult
from views.table.entry import EntryContext, TableUI, controller, docked, refresh
from views.widgets import TAP, icon_button, panel

PAD_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 4, "md": 4}
"""Three digit keys a row, like a phone's keypad."""


def extras(session: TableSession, money: MoneyFormat | None = None) -> list[tuple[str, str]]:
    """The target (lowest total wins) and, after a hand, everyone's best arrangement of it."""
    result = session.result
    assert isinstance(result, OnesToNinesResult)
    out = [("Target", f"{result.target} ends the game; lowest total wins")]
    sudden = result.sudden_death_hands
    last = sudden[-1] if sudden else (result.hands[-1] if result.hands else None)
    if last is not None:
        lines = entry_oo.best_lines(last)
        if lines:
            out.append(("Best possible last hand", ", ".join(lines)))
    for k, hand in enumerate(sudden):
        said = ", ".join(f"{name} {value}" for name, value in hand.points.items())
        why = f" ({hand.notes[-1]})" if hand.notes else ""
        out.append((f"Sudden death {k + 1}", said + why))
    return out


# --- set-up: sides ---------------------------------------------------------------------------------------------------


def setup(players: Sequence[str], extra: dict[str, Any]) -> ft.Control:
    """The sides of the table row, one button per seated player (tap to move them to the other side)."""
    extra["sides"] = entry_oo.fit_sides(players, extra.get("sides") or {})
    box = ft.Column(spacing=8)

    def draw() -> None:
        sides = extra["sides"]
        rows: list[ft.Control] = [
            ft.Text(
                "Which side of the table row does each player sit on? Side A reads the row as it is laid out, "
                "side B reads it reversed (OO-1). Tap a player to change sides.",
                size=16,
            )
        ]
        buttons: list[ft.Control] = []
        for name in players:
            label = f"{name}: side {sides[name]}"
            buttons.append(
                ft.OutlinedButton(content=label, tooltip=label, height=TAP, on_click=lambda _, n=name: flip(n))
            )
        if not buttons:
            rows.append(ft.Text("Seat the players first.", size=16))
        rows.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
        box.controls = rows

    def flip(name: str) -> None:
        extra["sides"] = entry_oo.toggle_side(extra["sides"], name)
        draw()
        refresh(box)

    draw()
    return box


# --- the hand ---------------------------------------------------------------------------------------------------------


class HandPanel:
    """The entry panel of one hand, sudden-death hand, or correction."""

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self._lock = threading.Lock()
        self.record = ectx.record
        self.sudden = ectx.target.part == "sudden_death"
        self.ctl = controller(ectx, OnesToNinesState)
        """The draft lifecycle; a restored draft types into the first unfinished field (issue 13)."""
        self.pad: dict[str, ft.FilledTonalButton] = {}
        for digit in DIGITS:
            self.pad[digit] = ft.FilledTonalButton(
                content=ft.Text(digit, size=26, weight=ft.FontWeight.BOLD),
                tooltip=digit,
                height=TAP + 8,
                col=PAD_COLUMNS,
                on_click=lambda _, d=digit: self.press(d),
            )
        # made once and updated in place: a digit tap sends the digits' states and the texts that changed
        self.pad_row = ft.ResponsiveRow(list(self.pad.values()), columns=12, spacing=6, run_spacing=6)
        self.edit_row = ft.Row(
            [
                icon_button(ft.Icons.BACKSPACE_OUTLINED, "Delete digit", self.backspace),
                ft.OutlinedButton(
                    content="Clear hand", tooltip="Clear hand", height=TAP, expand=True, on_click=self.clear
                ),
            ],
            spacing=8,
        )
        label = "Confirm sudden-death hand" if self.sudden else "Confirm hand"
        self.confirm_button = ft.FilledButton(
            content=label,
            icon=ft.Icons.CHECK,
            tooltip=label,
            height=TAP,
            expand=True,
            on_click=self.confirm,
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
        )
        self.actions = ft.Row([self.confirm_button])
        self.body = ft.Column(spacing=10)
        self.control = panel(self.body)
        self.redraw()

    @property
    def entry(self) -> HandEntry:
        return self.ctl.state.entry

    # -- drawing ---------------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        entry = self.entry
        parts: list[ft.Control] = [self._title()]
        parts.append(self._field_button(TABLE))
        targets = entry.targets()
        for name in entry.players:
            parts.append(self._field_button(name, targets.get(name)))
        focus = entry.focus
        where = "the table row" if focus == TABLE else f"{focus}'s number"
        prompt = f"Typing {where}" if not entry.complete else "Every number is in: check and confirm"
        parts.append(ft.Text(prompt, size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Next: {prompt}"))
        for digit, button in self.pad.items():
            button.disabled = not entry.can_press(digit)
        parts.append(self.pad_row)
        left = entry.digits_left()
        text = "Left in the deck: " + " ".join(f"{d}×{n}" for d, n in left.items())
        parts.append(ft.Text(text, size=14, semantics_label=text))
        parts.append(self.edit_row)
        parts.extend(self._triple_parts())
        if entry.complete:
            parts.append(ft.Text("Best possible arrangements", theme_style=ft.TextThemeStyle.TITLE_SMALL))
            for row in entry.review():
                parts.append(ft.Text(row.text, size=16, semantics_label=row.text))
        self.confirm_button.disabled = not entry.complete
        if [id(c) for c in self.ectx.dock.controls] != [id(self.actions)]:
            docked(self.ectx, self.actions)
        self.body.controls = parts
        refresh(self.control)
        refresh(self.ectx.dock)

    def _title(self) -> ft.Control:
        entry = self.entry
        if self.sudden:
            index = self.ectx.target.index
            head = (
                f"Sudden death {len(self.ectx.session.part('sudden_death')) + 1}"
                if index is None
                else f"Correct sudden-death hand {index + 1}"
            )
            text = (
                f"{head}: {join_names(list(entry.players))}. Three table cards, three cards each; "
                "the lowest gap wins, a tie plays again (rule 9)."
            )
        elif self.ectx.target.index is not None:
            text = f"Correct hand {self.ectx.target.index + 1}"
        else:
            text = f"Hand {len(self.record.get('hands') or []) + 1}: the table row once, then each number"
        return ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=text)

    def _field_button(self, name: str, target: str | None = None) -> ft.Control:
        entry = self.entry
        value = entry.value(name)
        shown = " ".join(value.ljust(entry.length, "_"))
        if name == TABLE:
            label = f"Table row (as side A reads it): {value or 'empty'}"
            face = f"Table row (A): {shown}"
        else:
            side = entry.sides[name]
            aim = f", target {target}" if target else ""
            if name == entry.first_triple and not value:
                label = f"{name} (side {side}{aim}): first three of a kind, number optional"
            else:
                label = f"{name} (side {side}{aim}): {value or 'empty'}"
            face = f"{name} ({side}){' · target ' + target if target else ''}: {shown}"
        focused = name == entry.focus
        kind = ft.FilledButton if focused else ft.OutlinedButton
        return kind(
            content=ft.Text(face, size=18),
            tooltip=label,
            height=TAP,
            on_click=lambda _, n=name: self.focus(n),
            style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT),
        )

    def _triple_parts(self) -> list[ft.Control]:
        entry = self.entry
        if not entry.triple_rule:
            return []
        buttons: list[ft.Control] = []
        for name in entry.players:
            chosen = entry.first_triple == name
            label = f"First three of a kind: {name}"
            kind = ft.FilledButton if chosen else ft.OutlinedButton
            buttons.append(
                kind(
                    content=name,
                    icon=ft.Icons.CHECK if chosen else None,
                    tooltip=label,
                    height=TAP,
                    disabled=not chosen and not entry.can_first_triple(name),
                    on_click=lambda _, n=name: self.first_triple(n),
                )
            )
        nobody = entry.first_triple is None
        buttons.append(
            (ft.FilledButton if nobody else ft.OutlinedButton)(
                content="Nobody",
                icon=ft.Icons.CHECK if nobody else None,
                tooltip="First three of a kind: nobody",
                height=TAP,
                on_click=lambda _: self.first_triple(None),
            )
        )
        return [
            ft.Text("Who set down three of a kind first? (0 for them; +250 for other holders)", size=16),
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        ]

    # -- taps ------------------------------------------------------------------------------------------------------

    def _set(self, entry: HandEntry) -> None:
        self.ctl.set(self.ctl.state.but(entry))
        self.ectx.report(None)
        self.redraw()

    def press(self, digit: str) -> None:
        with self._lock:
            try:
                entry = self.entry.press(digit)
            except EntryError as exc:
                self.ectx.report(f"{exc}.")
                return
            self._set(entry)

    def focus(self, name: str) -> None:
        with self._lock:
            self._set(self.entry.with_focus(name))

    def backspace(self, _: Any = None) -> None:
        with self._lock:
            self._set(self.entry.backspace())

    def clear(self, _: Any = None) -> None:
        with self._lock:
            self.ctl.restart()
            self.ectx.report(None)
            self.redraw()

    def first_triple(self, name: str | None) -> None:
        with self._lock:
            try:
                entry = self.entry.set_first_triple(name)
            except EntryError as exc:
                self.ectx.report(f"{exc}.")
                return
            if name is not None and not entry.value(name) and entry.focus == name:
                entry = entry.with_focus(entry.next_field() or name)
            self._set(entry)

    def confirm(self, _: Any = None) -> None:
        with self._lock:
            try:
                self.ctl.confirm(self.ectx.submit)  # refused: the draft is kept again
            except EntryError as exc:
                self.ectx.report(f"The hand is not complete: {exc}. Nothing entered is lost.")


def build_entry(ectx: EntryContext) -> ft.Control:
    """The digit-pad panel for the next hand, a sudden-death hand, or a correction."""
    return HandPanel(ectx).control


UI = TableUI(key="1111-9999", entry=build_entry, extras=extras, parts=("sudden_death",), setup=setup)
