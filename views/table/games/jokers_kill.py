"""Jokers Kill at the table: the card picker (one tap per physical card, one more to confirm the hand).

The hand being entered is :class:`companion.entry_jokers_kill.JokersKillState` and its draft lifecycle is the
shared :class:`companion.entry.EntryController`; this module only draws them: the prompt, the hand's card places
(tap one to take its card out), the card grid (cards that cannot be dealt now are greyed out) and the actions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from companion import entry_jokers_kill as entry_jk
from companion.entry_jokers_kill import JokersKillState, Slot, card_codes, prompt
from companion.i18n import Words
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring import Card, Part, ScoringError
from scoring.jokers_kill import Need
from views.table.entry import (
    EntryContext,
    NextHand,
    TableUI,
    VeilLater,
    controller,
    cover_refusal,
    docked,
    said,
    words_of,
)
from views.widgets import (
    MIN_TAP,
    ActionKey,
    TapKey,
    VeilOver,
    card_label,
    icon_button,
    isolated,
    suit_colour_value,
    tapped,
)


def extras(
    session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
) -> list[tuple[str, str]]:
    """Cards and hands left (rule 7); play-off wins once a play-off is on."""
    return entry_jk.extras(session.result)


# --- the card picker ---------------------------------------------------------------------------------------------

GRID_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 9, "md": 13}
"""Cards a row: 9 on a portrait phone (52 cards and the Joker's double key in 6 rows of 48 px keys: the whole grid,
ten players' hand and Confirm fit a 360 × 640 screen), 13 when wider."""
PLACE_BUTTONS = 5
"""Up to this many places (the up-card and four players) the hand is shown as buttons (tap one to take its card out);
a larger table's hand is one compact line (the last card is taken out with "Remove last card"), so that the grid
stays on screen."""


class CardPicker:
    """The Jokers Kill entry panel: prompt, the hand's card places, the card grid, and the actions."""

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self.words = words = words_of(ectx)
        _ = words.gettext
        self._lock = threading.RLock()
        """Taps are handled one at a time (Flet may run handlers of quick taps at once)."""
        self.record = ectx.record
        self.options = dict(self.record.get("options") or {})
        self.four_colour = ectx.view.settings.four_colour_suits
        self.ctl = controller(ectx, JokersKillState)
        self.prompt = ft.Text("", size=17, weight=ft.FontWeight.BOLD)
        title = _("Enter {what}").format(what=ectx.target.label_in(words))
        self.title = ft.Text(title[:1].upper() + title[1:], theme_style=ft.TextThemeStyle.TITLE_SMALL)
        """Left out for the next hand of a large table (the prompt says what to do): its line is the grid's."""
        self.slot_row = ft.Row(wrap=True, spacing=4, run_spacing=4)
        self.slot_text = ft.Text("", size=12, visible=False)
        """The hand's places in one compact text, for a table of more than :data:`PLACE_BUTTONS` places."""
        self.chips: list[TapKey] = []
        """The hand's card places (tap one to take its card out), kept and relabelled from tap to tap: keys that
        hug their text (a Material button's state animations cost a throttled phone a frame's worth more a tap)."""
        self.chip_texts: list[ft.Text] = []
        self.chip_slots: list[tuple[Any, ...]] = []
        """The place each of :attr:`chips` shows (its slot's key)."""
        self.keys: dict[str, TapKey] = {}
        """The card keys, one a card of the deck (and the Joker): kept, and sent only when one changes."""
        for code in card_codes() + (["JK"] if self.options.get("jokers") else []):
            card = Card.parse(code)
            colour = suit_colour_value(card.suit.symbol, self.four_colour) if card.suit else ft.Colors.PURPLE_400
            text = ft.Text(card_label(words, code), size=16, weight=ft.FontWeight.BOLD, color=colour, no_wrap=True)
            col: int | dict[str | ft.ResponsiveRowBreakpoint, int | float] = 1 if code != "JK" else {"xs": 2, "md": 2}
            self.keys[code] = TapKey(text, tapped(self.tap, code), col=col)
        self.grid = isolated(
            ft.ResponsiveRow(
                [key.control for key in self.keys.values()], columns=GRID_COLUMNS, spacing=3, run_spacing=2
            )
        )
        """Isolated: an update that changes none of the cards (a Confirm's) does not walk them; a card greyed out
        opens it (:func:`~views.table.entry.send_changes`)."""
        self.veil = VeilOver(self.grid, self.refused)
        """Raised over the grid while the hand is complete: a card tapped then is refused (see :meth:`refused`)."""
        self.veil_later = VeilLater(self.veil, self._lock, self._send)
        """Raises it after the reply of the tap that completes the hand; lowers it at once when a card is taken back,
        with the next hand (after the reply) when the hand is confirmed."""
        self.next_hand = NextHand(self.redraw, self._send, self._lock, [self.veil_later])
        """The next hand drawn after the reply of the Confirm that began it (:meth:`follow`)."""
        self.confirm_key = ActionKey(_("Confirm hand"), self.confirm_hand)
        """A filled key, not a Material button: the card that completes a hand enables it at once, with no state
        animation holding the next frames (:class:`~views.widgets.ActionKey`)."""
        self.confirm = self.confirm_key.control
        self.remove = icon_button(ft.Icons.BACKSPACE_OUTLINED, _("Remove last card"), self.remove_last, size=MIN_TAP)
        self.clear = icon_button(ft.Icons.DELETE_SWEEP_OUTLINED, _("Clear hand"), self.clear_all, size=MIN_TAP)
        self.control = ft.Column(
            [
                self.title,
                self.prompt,
                self.slot_row,
                self.slot_text,
                self.veil.control,
            ],
            spacing=4,
        )
        self.actions = ft.Row([self.remove, self.clear, self.confirm], spacing=6)
        docked(ectx, self.actions)
        self.redraw()

    def follow(self, record: dict[str, Any]) -> bool:
        """The session changed (a hand confirmed here or elsewhere): continue with the new record in place."""
        with self._lock:
            if dict(record.get("options") or {}) != self.options:
                return False
            self.record = record
            try:
                self.ctl.reopen(record)
            except ScoringError:
                return False
            docked(self.ectx, self.actions)
            # the Confirm's reply is the new standings: the emptied hand, and the veil of the hand just confirmed
            # coming down, follow in a message of its own; the cards are isolated: the screen's update of the
            # panel skips them
            self.next_hand.follow()
            return True

    # -- state ----------------------------------------------------------------------------------------------

    @property
    def state(self) -> JokersKillState:
        return self.ctl.state

    def redraw(self) -> list[ft.Control]:
        """Bring the controls up to the hand's state, in place; returns the ones that changed (a card tap sends
        only those: the prompt, the hand's places, the cards whose state changed, the actions). It brings the whole
        hand: a next hand still waiting to be drawn (:meth:`follow`) is dropped."""
        self.next_hand.drawn()
        state = self.state
        need = state.need()
        changed: list[ft.Control] = [self.actions]
        _ = self.words.gettext
        self.prompt.value = prompt(need, self.words)
        self.prompt.semantics_label = _("Next: {prompt}").format(prompt=self.prompt.value)
        # A complete hand raises the veil over the grid (one box dims the 52 cards; the grid, disabled, makes each
        # card's node say it is unavailable); a card tapped then is refused with "the hand is complete: confirm it,
        # or remove a card first", said on screen and read out. A card dealt greys its own key. The veil goes up
        # after the reply of the tap that completes the hand (its last card shows first: VeilLater), and comes
        # down with the next hand, after the reply of its Confirm (the new standings first: follow).
        changed += self.veil_later.want(need.complete)  # the cover and the grid, not its keys
        legal = state.unused_cards()
        changed += [key.control for code, key in self.keys.items() if key.set_enabled(code in legal)]
        places = state.slots()
        changed += self._show_places(places)
        label = _("Mark hand void") if need.need is Need.VOID else _("Confirm hand")
        enabled = self.confirm_key.set_enabled(need.complete)
        if self.confirm_key.set_label(label) or enabled:  # a key: isolated, sent when it changed
            changed.append(self.confirm)
        inner = self.remove.content if isinstance(self.remove, ft.Semantics) else None
        if isinstance(inner, ft.IconButton):
            inner.disabled = not any(slot.card for slot in places)
        return [*changed, self.prompt]  # one message each, the prompt last: when it has moved on, all has

    def _show_places(self, places: list[Slot]) -> list[ft.Control]:
        """The hand's card places as kept keys (one a place, reused from tap to tap): returns what changed, the
        row when places came or went, and the places whose card changed."""
        changed: list[ft.Control] = []
        compact = len(places) > PLACE_BUTTONS
        title = not (compact and self.ectx.target.is_new and self.ectx.target.part is Part.HANDS)
        if self.title.visible != title:
            self.title.visible = title
            changed.append(self.title)
        if compact or self.slot_text.visible:
            text = " · ".join(slot.label_in(self.words) for slot in places) if compact else ""
            if (self.slot_text.value, self.slot_text.visible) != (text, compact):
                self.slot_text.value = text
                self.slot_text.semantics_label = (
                    self.words.gettext("The hand: {cards}").format(cards=text) if compact else None
                )
                self.slot_text.visible = compact
                changed.append(self.slot_text)
        if compact:
            if self.slot_row.visible:
                self.slot_row.visible = False
                changed.append(self.slot_row)
            return changed
        if not self.slot_row.visible:
            self.slot_row.visible = True
            changed.append(self.slot_row)
        for i, slot in enumerate(places):
            if i == len(self.chips):
                self.chip_texts.append(ft.Text("", size=14, no_wrap=True))
                self.chips.append(TapKey(self.chip_texts[i], self._clear_place(i), hug=True))
                self.chip_slots.append(())
            chip, shows = self.chips[i], self.chip_texts[i]
            label = slot.label_in(self.words)
            self.chip_slots[i] = slot.key
            greyed = chip.set_enabled(slot.card is not None)
            if shows.value != label or greyed:
                shows.value = label
                changed.append(chip.control)
        shown: list[ft.Control] = [chip.control for chip in self.chips[: len(places)]]
        if [id(c) for c in self.slot_row.controls] != [id(c) for c in shown]:
            self.slot_row.controls = shown
            return [self.slot_row, *changed]  # the places are isolated: those kept and changed go too
        return changed

    def _clear_place(self, i: int) -> Callable[[Any], None]:
        return lambda _: self.clear_one(self.chip_slots[i])

    def _send(self, changed: list[ft.Control]) -> None:
        """Send just these controls, as the screen sends a panel's changes (an explicit update also spares the
        page Flet's automatic whole-page diff)."""
        if changed:
            self.ectx.send(changed)

    # -- taps -----------------------------------------------------------------------------------------------

    def change(self, step: Any) -> None:
        with self._lock:
            try:
                self.ctl.change(step)
            except ValueError as exc:  # a card the hand cannot take (HandCompleteError, a ScoringError)
                self.ectx.report(said(self.words, exc))
                return
            self.ectx.report(None)
            self._send(self.redraw())

    def tap(self, code: str) -> None:
        self.change(lambda state: state.place(code))

    def refused(self, _: Any = None) -> None:
        """A tap on the veiled grid of a complete hand: the card is refused, whichever it was, with the reason. After
        a Confirm the veil comes down after the reply, so a tap can reach it on a hand that would take a card: that
        tap is told to come again, and no card is entered in its place (:func:`~views.table.entry.cover_refusal`)."""
        first = next(iter(self.keys))
        with self._lock:
            self.ectx.report(cover_refusal(self.words, lambda: self.state.place(first)))

    def clear_one(self, key: tuple[Any, ...]) -> None:
        self.change(lambda state: state.clear_slot(key))

    def remove_last(self, _: Any = None) -> None:
        self.change(lambda state: state.remove_last())

    def clear_all(self, _: Any = None) -> None:
        with self._lock:
            self.ctl.restart()
            self._send(self.redraw())

    def confirm_hand(self, _: Any = None) -> None:
        """Confirm the hand. A second tap within the moment before the next hand is drawn (*Confirm hand* still
        looks enabled until then: a quick double tap) is the hand just confirmed, not the empty next one: it draws
        the next hand now, and says nothing."""
        with self._lock:
            if self.next_hand.repeated(self.ectx.report):
                return
            try:
                self.ctl.confirm(self.ectx.submit)  # refused: every card entered is kept
            except ValueError as exc:
                text = said(self.words, exc)
                self.ectx.report(f"{text[:1].upper()}{text[1:]}")


def build_entry(ectx: EntryContext) -> CardPicker:
    """The card picker for the next hand, a play-off hand, or a correction."""
    return CardPicker(ectx)


PANEL = TableUI(key="jokers-kill", entry=build_entry, extras=extras, parts=(Part.PLAYOFF,))
