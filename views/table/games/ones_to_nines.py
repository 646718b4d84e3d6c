"""1111-9999 at the table: the table row once, each player's number on a digit pad, three of a kind, the review.

The logic is :mod:`companion.entry_ones_to_nines`; this module only draws it. Tapping a row (the table row or a
player) sends the digit pad there; a digit the deck has no more of is greyed out. Once the table row is in, each
player sees their own target (side B reads it reversed). When every number is in, each player's best arrangement
is shown before the hand is confirmed. Sudden death is the same panel with three digits and the tied players.
The set-up hook chooses each player's side.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion import entry_ones_to_nines as entry_oo
from companion.entry_ones_to_nines import TABLE, EntryError, HandEntry, OnesToNinesState
from companion.i18n import Words
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring.ones_to_nines import DIGITS, OnesToNinesResult
from scoring.parts import Part
from scoring.why import Names, Note
from views.table.entry import EntryContext, TableUI, controller, docked, refresh, said, sent_by_hand, words_of
from views.widgets import MIN_TAP, TAP, ActionKey, FieldKey, TapKey, icon_button, isolated, panel, tapped

LARGE_TABLE = 5
"""From this many players (the table row and five or more numbers) the numbers are two a row."""
PAD_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 2, "md": 1}
"""The digit keys: five a row (of 10 columns) on a phone, two rows of 48 px keys, so that the pad, "Delete digit"
and "Clear hand" stay on screen at every table size on a 360 × 640 phone; all nine in one row when wider."""
LARGE_FIELD_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 6, "md": 4}
"""A large table's numbers: two a row on a portrait phone, three when wider."""
CHOSEN = ft.ButtonStyle(bgcolor=ft.Colors.PRIMARY, color=ft.Colors.ON_PRIMARY)
"""The chosen first three-of-a-kind declarer (or Nobody)."""


def extras(
    session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
) -> list[tuple[str, str]]:
    """The target (lowest total wins) and, after a hand, everyone's best arrangement of it."""
    result = session.result
    assert isinstance(result, OnesToNinesResult)
    words = words or Words.of("en")
    _ = words.gettext
    out = [(_("Target"), _("{target} ends the game; lowest total wins").format(target=result.target))]
    sudden = result.sudden_death_hands
    last = sudden[-1] if sudden else (result.hands[-1] if result.hands else None)
    if last is not None:
        lines = entry_oo.best_lines(last)
        if lines:
            out.append((_("Best possible last hand"), ", ".join(lines)))
    for k, hand in enumerate(sudden):
        said = ", ".join(f"{name} {value}" for name, value in hand.points.items())
        if hand.why and words.code != "en":
            why = f" ({words.note(hand.why[-1])})"
        else:
            why = f" ({hand.notes[-1]})" if hand.notes else ""
        out.append((_("Sudden death {n}").format(n=k + 1), said + why))
    return out


# --- set-up: sides ---------------------------------------------------------------------------------------------------


def setup(players: Sequence[str], extra: dict[str, Any], words: Words) -> ft.Control:
    """The sides of the table row, one button per seated player (tap to move them to the other side), in the table's
    language."""
    _ = words.gettext
    extra["sides"] = entry_oo.fit_sides(players, extra.get("sides") or {})
    box = ft.Column(spacing=8)

    def draw() -> None:
        sides = extra["sides"]
        rows: list[ft.Control] = [
            ft.Text(
                _(
                    "Which side of the table row does each player sit on? Side A reads the row as it is laid out, "
                    "side B reads it reversed (OO-1). Tap a player to change sides."
                ),
                size=16,
            )
        ]
        buttons: list[ft.Control] = []
        for name in players:
            label = _("{name}: side {side}").format(name=name, side=sides[name])
            buttons.append(
                ft.OutlinedButton(content=label, tooltip=label, height=TAP, on_click=lambda _, n=name: flip(n))
            )
        if not buttons:
            rows.append(ft.Text(_("Seat the players first."), size=16))
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
    """The entry panel of one hand, sudden-death hand, or correction.

    Its controls are made once and updated in place: a digit tap sends only what it changed (the field typed into,
    the prompt, the digits that greyed out, the deck's count), never the panel; nothing a tap does reads the game's
    record (the hand's players and sides are read once, when the panel opens).
    """

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self.words = words = words_of(ectx)
        _ = words.gettext
        self._lock = threading.Lock()
        self.record = ectx.record
        self.sudden = ectx.target.part is Part.SUDDEN_DEATH
        self.ctl = controller(ectx, OnesToNinesState)
        """The draft lifecycle; a restored draft types into the first unfinished field (issue 13)."""
        self.large = len(self.entry.players) >= LARGE_TABLE
        self.title = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_SMALL)
        self._set_title()
        self.fields: dict[str, FieldKey] = {}
        """Each number's field (the table row's first), its digits so far: the one the pad types into is chosen."""
        for name in self.entry.fields:
            self.fields[name] = FieldKey(
                tapped(self.focus, name), col=LARGE_FIELD_COLUMNS if self.large else 12, size=13 if self.large else 17
            )
        self.left = ft.Text("", size=12, max_lines=3, overflow=ft.TextOverflow.ELLIPSIS)
        """The deck's count: on a large table in the place beside the last number (free when the numbers and the
        table row are odd, as with 8 players), else under the prompt."""
        fields: list[ft.Control] = [key.control for key in self.fields.values()]
        if self.large:
            left = ft.Container(self.left, col=LARGE_FIELD_COLUMNS, height=MIN_TAP, alignment=ft.Alignment.CENTER_LEFT)
            fields = [ft.ResponsiveRow([*fields, left], spacing=6, run_spacing=4)]
        self.prompt = ft.Text("", size=16, weight=ft.FontWeight.BOLD, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
        self.pad: dict[str, TapKey] = {}
        """The digit keys (no ink: see :class:`views.widgets.TapKey`), kept and sent only when one changes."""
        for digit in DIGITS:
            text = ft.Text(digit, size=26, weight=ft.FontWeight.BOLD)
            self.pad[digit] = TapKey(text, tapped(self.press, digit), col=PAD_COLUMNS, height=MIN_TAP)
        delete = _("Delete digit")
        self.delete_key = TapKey(ft.Icon(ft.Icons.BACKSPACE_OUTLINED), self.backspace, col=PAD_COLUMNS, label=delete)
        """The pad's tenth place, as on a phone's keypad."""
        self.review_delete = icon_button(ft.Icons.BACKSPACE_OUTLINED, delete, self.backspace, size=MIN_TAP)
        """The same beside the prompt, while the review of a whole hand has the pad's place."""
        self.review_delete.visible = False
        self.pad_row = isolated(  # walked only when one of its keys changed (send_changes)
            ft.ResponsiveRow(
                [*(key.control for key in self.pad.values()), self.delete_key.control],
                columns=10,
                spacing=6,
                run_spacing=4,
            )
        )
        self.prompt_row = ft.Row(
            # what to type (and on a small table the deck's count under it) beside "Clear hand": no row of their own
            [
                ft.Column([self.prompt] if self.large else [self.prompt, self.left], spacing=0, expand=True),
                self.review_delete,
                ft.OutlinedButton(
                    content=_("Clear hand"), tooltip=_("Clear hand"), height=MIN_TAP, on_click=self.clear
                ),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        self.triples: dict[str | None, ft.OutlinedButton] = {}
        triple_parts: list[ft.Control] = []
        if self.entry.triple_rule:
            for who in [*self.entry.players, None]:
                self.triples[who] = ft.OutlinedButton(
                    content=who or _("Nobody"),
                    tooltip=_("First three of a kind: {name}").format(name=who or _("nobody")),
                    height=MIN_TAP,
                    on_click=lambda _, n=who: self.first_triple(n),
                )
            ask = _("Who set down three of a kind first? (0 for them; +250 for other holders)")
            triple_parts = [
                ft.Text(ask, size=14, semantics_label=ask),
                ft.Row(list(self.triples.values()), wrap=True, spacing=8, run_spacing=8),
            ]
        self.review = ft.Column(spacing=2 if self.large else 4, visible=False)
        self._review_rows: list[str] | None = None
        label = _("Confirm sudden-death hand") if self.sudden else _("Confirm hand")
        self.confirm_key = ActionKey(label, self.confirm)
        """A filled key, not a Material button: the hand's last digit enables it with no state animation."""
        self.confirm_button = self.confirm_key.control
        self.actions = ft.Row([self.confirm_button])
        self.body = ft.Column(
            [
                self.title,
                *fields,
                self.prompt_row,
                self.pad_row,
                self.review,
                *triple_parts,
            ],
            spacing=6,
        )
        self.control = panel(self.body, padding=8)
        docked(ectx, self.actions)
        self.redraw()

    @property
    def entry(self) -> HandEntry:
        return self.ctl.state.entry

    # -- drawing ---------------------------------------------------------------------------------------------------

    def _set_title(self) -> None:
        entry = self.entry
        _ = self.words.gettext
        if self.sudden:
            index = self.ectx.target.index
            head = (
                _("Sudden death {n}").format(n=len(self.ectx.session.part(Part.SUDDEN_DEATH)) + 1)
                if index is None
                else _("Correct sudden-death hand {n}").format(n=index + 1)
            )
            names = self.words.note(Note.of("{names}", names=Names.of(entry.players)))
            text = _(
                "{head}: {names}. Three table cards, three cards each; the lowest gap wins, a tie plays again (rule 9)."
            ).format(head=head, names=names)
        elif self.ectx.target.index is not None:
            text = _("Correct hand {n}").format(n=self.ectx.target.index + 1)
        else:
            said_now = _("Hand {n}: the table row once, then each number")
            text = said_now.format(n=len(self.record.get("hands") or []) + 1)
            self.title.visible = not self.large  # a large table: the prompt says what to type; its room is the pad's
        self.title.value = text
        self.title.semantics_label = text

    def redraw(self) -> list[ft.Control]:
        """Bring every control up to the hand's state, in place; returns the controls that changed (a tap sends
        only those)."""
        entry = self.entry
        _ = self.words.gettext
        changed: list[ft.Control] = []
        targets = entry.targets()
        for name, key in self.fields.items():
            if self._field(key, name, targets.get(name)):
                changed.append(key.control)
        if entry.complete:
            prompt = _("Every number is in: check and confirm")
        elif entry.focus == TABLE:
            prompt = _("Typing the table row")
        else:
            prompt = _("Typing {name}'s number").format(name=entry.focus)
        if self.prompt.value != prompt:
            self.prompt.value = prompt
            self.prompt.semantics_label = _("Next: {prompt}").format(prompt=prompt)
            changed.append(self.prompt)
        changed += [key.control for digit, key in self.pad.items() if key.set_enabled(entry.can_press(digit))]
        left = _("Left in the deck: {digits}").format(
            digits=" ".join(f"{d}×{n}" for d, n in entry.digits_left().items())
        )
        if self.left.value != left:
            self.left.value = left
            self.left.semantics_label = left
            changed.append(self.left)
        for who, choice in self.triples.items():
            chosen = entry.first_triple == who
            greyed = who is not None and not chosen and not entry.can_first_triple(who)
            if choice.data != chosen or bool(choice.disabled) != greyed:
                choice.data = chosen
                choice.disabled = greyed
                choice.icon = ft.Icons.CHECK if chosen else None
                choice.style = CHOSEN if chosen else None
                changed.append(choice)
        review = entry.review() if entry.complete else None
        rows = [row.text_in(self.words) for row in review] if review is not None else None
        if rows != self._review_rows:
            # Every number in, the review takes the digit pad's place (every digit greyed out then: a field is
            # corrected by deleting a digit first, which brings the pad back), above "Who set down three of a kind
            # first?": on a phone it is on screen above the docked Confirm, a correction's too.
            self._review_rows = rows
            self.review.visible = rows is not None
            self.review.controls = [
                ft.Text(_("Best possible arrangements"), theme_style=ft.TextThemeStyle.TITLE_SMALL),
                *(
                    ft.Text(row.text_in(self.words, short=True), size=13, semantics_label=row.text_in(self.words))
                    if self.large  # a line each, the whole of it read out
                    else ft.Text(row.text_in(self.words), size=16, semantics_label=row.text_in(self.words))
                    for row in review or []
                ),
            ]
            changed.append(self.review)
        pad = rows is None or any(key.enabled for key in self.pad.values())  # (a first three of a kind's number)
        if self.pad_row.visible != pad:
            self.pad_row.visible = pad
            self.review_delete.visible = not pad  # "Delete digit" beside the prompt while the pad is away
            changed += [self.pad_row, self.review_delete]  # the row's keys are isolated: only its visibility is sent
        if self.confirm_key.set_enabled(entry.complete):
            changed.append(self.confirm_button)  # in the screen's bottom bar, outside this panel
        return changed

    def _field(self, key: FieldKey, name: str, target: str | None) -> bool:
        """Bring one number's field up to date (its digits so far, chosen while the pad types into it); whether it
        changed."""
        entry = self.entry
        _ = self.words.gettext
        shown = " ".join(entry.value(name).ljust(entry.length, "_"))
        if name == TABLE:  # a large table's half-width field: what it is, then the digits, as a number's
            row = _("Table row (A)")  # marked outside the f-string: Babel reads marks inside one only on 3.12+
            face = f"{row}\n{shown}" if self.large else _("Table row (A): {digits}").format(digits=shown)
        else:
            side = entry.sides[name]
            aim = " · " + _("target {target}").format(target=target) if target else ""
            face = _("{name} ({side}){target}: {digits}").format(name=name, side=side, target=aim, digits=shown)
            if self.large:  # two lines in a half-width field: who and their target, then the digits
                face = f"{name} ({side}){' · ' + target if target else ''}\n{shown}"
        relabelled = key.set_label(face)
        return key.set_selected(name == entry.focus) or relabelled

    def _send(self, changed: list[ft.Control]) -> None:
        """Send just these controls (the tap's automatic whole-page diff is off,
        :func:`views.table.entry.sent_by_hand`)."""
        sent_by_hand()
        if changed:
            self.ectx.send(changed)  # one update, as the screen sends a panel's changes

    # -- taps ------------------------------------------------------------------------------------------------------

    def _set(self, entry: HandEntry) -> None:
        self.ctl.set(self.ctl.state.but(entry))
        self.ectx.report(None)
        self._send(self.redraw())

    def _unless_refused(self, change: Callable[[], HandEntry]) -> HandEntry | None:
        """The entry ``change()`` makes, or ``None`` with its refusal said under the panel."""
        try:
            return change()
        except EntryError as exc:
            self.ectx.report(f"{said(self.words, exc)}.")
            return None

    def press(self, digit: str) -> None:
        with self._lock:
            entry = self._unless_refused(lambda: self.entry.press(digit))
            if entry is not None:
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
            self._send(self.redraw())

    def first_triple(self, name: str | None) -> None:
        with self._lock:
            entry = self._unless_refused(lambda: self.entry.set_first_triple(name))
            if entry is None:
                return
            if name is not None and not entry.value(name) and entry.focus == name:
                entry = entry.with_focus(entry.next_field() or name)
            self._set(entry)

    def confirm(self, _: Any = None) -> None:
        with self._lock:
            try:
                self.ctl.confirm(self.ectx.submit)  # refused: the draft is kept again
            except EntryError as exc:
                told = self.words.gettext("The hand is not complete: {problem}. Nothing entered is lost.")
                self.ectx.report(told.format(problem=said(self.words, exc)))


def build_entry(ectx: EntryContext) -> HandPanel:
    """The digit-pad panel for the next hand, a sudden-death hand, or a correction."""
    return HandPanel(ectx)


PANEL = TableUI(key="1111-9999", entry=build_entry, extras=extras, parts=(Part.SUDDEN_DEATH,), setup=setup)
