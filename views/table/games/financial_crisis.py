"""Financial Crisis at the table: the five bank cards and each player's pile on a card picker, the bank's reading
with its reasons (which the table can override), and every player's breakdown, live.

A thin screen over :mod:`companion.entry_financial_crisis`: one tap per physical card goes to the chosen target
(the bank, then a pile); a card already in this round is greyed out, except the cards of the target itself, which
are highlighted and taken out again with a tap. A card held down is the first card of the next pile (the piles follow
each other at one gesture a card); "Next pile" moves on without a card; "Confirm round" records the round.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion import entry_financial_crisis as entry
from companion.entry_financial_crisis import FinancialCrisisState, PileView, RecordLike, RoundDraft
from companion.i18n import Words
from scoring import Card, ScoringError
from scoring.cards import RANKS, Suit
from views.table.entry import EntryContext, Later, TableUI, controller, docked, sent_by_hand, words_of
from views.table.entry import said as error_text
from views.widgets import (
    MIN_TAP,
    TAP,
    ActionKey,
    ChoiceKey,
    OutlineKey,
    TapKey,
    big_button,
    card_label,
    isolated,
    panel,
    suit_colour_value,
    tapped,
)

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
GRID_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 9, "md": 8}
"""Cards a row, rank by rank: 9 on a portrait phone (52 cards in 6 rows of 48 px keys: the grid, the piles, Next
pile and Confirm fit a 360 × 640 screen with nothing to scroll), two ranks a row when wider."""
LARGE_TABLE = 5
"""From this many players the bank and the piles are one compact line (their buttons one tap away, "Choose pile"),
so that the grid stays on screen."""
TARGET_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 4, "md": 3}
"""The bank and pile buttons: three a row on a phone, four when wider (a fixed layout: the card grid below does not
move while counts change)."""
PROMPT_HEIGHT = 44
"""Room for two lines of the prompt on a 360 px phone: the card grid below it does not move as counts change."""
LARGE_PROMPT_HEIGHT = 38
"""The same for a large table's prompt, two lines in a smaller size."""
DOUBLE_TAP = 0.4
"""Seconds after a card is entered during which another tap on it is taken as a bounce, not as "take it out"."""


def card_codes() -> list[str]:
    """The 52 cards rank by rank (A♠ A♥ A♦ A♣ 2♠ …), as the picker shows them."""
    return [f"{rank}{suit.value}" for rank in RANKS for suit in SUIT_ORDER]


def target_button_label(draft: RoundDraft, target: str | None, words: Words | None = None) -> str:
    """``Bank 3 of 5`` or ``Ann: 12 cards`` (what the target's key says and is called: one line in a third of a
    360 px phone)."""
    words = words or Words.of("en")
    if target is None:
        return words.gettext("Bank {n} of 5").format(n=len(draft.bank))
    count = len(draft.pile(target))
    return words.ngettext("{name}: {n} card", "{name}: {n} cards", count).format(name=target, n=count)


def _signed(points: int) -> str:
    """``+3``, ``−2`` (a real minus sign, as the scoring notes write it) or ``0``."""
    return f"{points:+d}".replace("-", "−") if points else "0"


class FinancialCrisisEntry:
    """The entry panel of one round (a new round, or the correction of a saved one).

    Its controls are made once and updated in place: a tap sends only the controls it changed (the prompt, the
    target buttons, the cards whose state changed, the breakdown of the piles that changed...), never the panel.
    Nothing a tap does replays the game: the record is parsed once per change of the session
    (:class:`companion.entry_financial_crisis.RoundContext`).
    """

    # long: every control of the panel is made here once (cards, piles, bank, dock), so that a tap only updates them
    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self.words = words = words_of(ectx)
        _ = words.gettext
        self._lock = threading.RLock()
        """Taps are handled one at a time; a Confirm redraws the panel in place (:meth:`follow`) while it holds it."""
        self._last_added: tuple[str, float] = ("", 0.0)
        self._below = Later(self._draw_below, self._lock)
        """The reading and the breakdown, waiting to follow a tap's reply (:meth:`set_draft`)."""
        self.record = ectx.record
        self.four_colour = ectx.view.settings.four_colour_suits
        self.ctl = controller(ectx, FinancialCrisisState)
        self.heading = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_SMALL)
        self._set_heading()
        self.prompt = ft.Text("", size=16, weight=ft.FontWeight.BOLD)
        self.target_keys: dict[str | None, ChoiceKey] = {}
        """The bank and the piles, each a key of a choice (``Bank 3 of 5``, ``Ann: 6 cards``): the one being
        entered is the chosen key. Every card tap relabels one; as Material buttons, each was built again, its ink
        and state with it."""
        for target in [None, *(name for name, _ in self.draft.piles)]:
            key = ChoiceKey("", tapped(self.choose, target), col=TARGET_COLUMNS, size=13)
            assert isinstance(key.text, ft.Text)
            key.text.overflow = ft.TextOverflow.ELLIPSIS
            self.target_keys[target] = key
        self.targets = ft.ResponsiveRow(
            [key.control for key in self.target_keys.values()], columns=12, spacing=6, run_spacing=6
        )
        self.large = len(self.draft.piles) >= LARGE_TABLE
        if self.large:
            self.prompt.size = 14
        self.counts = ft.Text("", size=11, visible=self.large)
        """A large table's bank and piles in one line (their buttons are shown by "Choose pile")."""
        self.targets.visible = not self.large
        self.piles_button = big_button(
            _("Choose pile"),
            self.toggle_piles,
            height=MIN_TAP,
            expand=None,
            visible=self.large,
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=6)),  # the theme's text size
        )
        self.held = ft.Text("", size=14)
        self.keys: dict[str, TapKey] = {}
        """The card keys (no ink: see :class:`views.widgets.TapKey`); a card of the pile or bank being entered is
        shown selected."""
        for code in card_codes():
            card = Card.parse(code)
            colour = suit_colour_value(card.suit.symbol if card.suit else "♠", self.four_colour)
            text = ft.Text(card_label(words, code), size=16, weight=ft.FontWeight.BOLD, color=colour, no_wrap=True)
            self.keys[code] = TapKey(text, tapped(self.tap, code), on_long_press=tapped(self.hold, code))
        self.grid = isolated(  # walked only when one of its cards changed (send_changes)
            ft.ResponsiveRow(
                [key.control for key in self.keys.values()], columns=GRID_COLUMNS, spacing=3, run_spacing=2
            )
        )
        self.next_key = ActionKey(_("Next pile"), self.next_pile, size=14)
        """A filled key, not a Material button: a pile's first card enables it with no state animation."""
        self.next_button = self.next_key.control
        self.remove_key = OutlineKey(_("Take out last card"), self.undo_card)
        """An outlined key: a pile's first card enables it, with no state animation."""
        self.remove = self.remove_key.control
        self.reading_panel = ft.Column(spacing=6)
        self._reading_key: Any = ()
        self.breakdown_title = ft.Text(
            _("This round so far"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, visible=False
        )
        self.pile_boxes: dict[str, ft.Container] = {name: ft.Container(visible=False) for name, _ in self.draft.piles}
        """Each player's place for the breakdown (:meth:`_pile_card`), its content replaced when the pile changes."""
        self._pile_views: dict[str, PileView | None] = dict.fromkeys(self.pile_boxes)
        self.breakdown_panel = ft.Column([self.breakdown_title, *self.pile_boxes.values()], spacing=8)
        self.progress = ft.Text("", size=14)
        self.warnings = ft.Column(spacing=4)
        self.notes = ft.Column([self.progress, self.warnings], spacing=4)
        self.confirm_key = ActionKey(_("Confirm round"), self.confirm_round, size=16)
        """A filled key, as *Next pile*: the round's last card enables it."""
        self.confirm = self.confirm_key.control
        self.actions = ft.Row([self.next_button, self.confirm], spacing=6)
        """The bottom bar: Next pile beside Confirm, both where the thumb is, whatever the size of the table."""
        self.control = panel(
            ft.Column(
                [
                    self.heading,
                    ft.Container(
                        self.prompt,
                        height=LARGE_PROMPT_HEIGHT if self.large else PROMPT_HEIGHT,
                        alignment=ft.Alignment.CENTER_LEFT,
                    ),
                    self.counts,
                    self.targets,
                    self.grid,
                    ft.Row([self.remove, self.piles_button], spacing=6),
                    self.held,
                    self.reading_panel,
                    self.breakdown_panel,
                    self.notes,
                ],
                spacing=4 if self.large else 6,
            ),
            padding=6 if self.large else 8,
        )
        docked(ectx, self.actions)
        self.redraw()

    @property
    def draft(self) -> RoundDraft:
        return self.ctl.state.draft

    @property
    def game(self) -> RecordLike:
        """The record parsed once per change of the session (what every check of a tap reads)."""
        return self.ctl.state.game

    def toggle_piles(self, _: Any = None) -> None:
        """Show (or hide again) a large table's bank and pile buttons."""
        with self._lock:
            self.targets.visible = not self.targets.visible
            label = self.words.gettext("Hide piles") if self.targets.visible else self.words.gettext("Choose pile")
            self.piles_button.content = self.piles_button.tooltip = label
            self._send([self.targets, self.piles_button])

    def _set_heading(self) -> None:
        index = self.ectx.target.index
        title = entry.round_title(self.record, index, self.words)
        _ = self.words.gettext
        heading = (_("Enter {what}") if index is None else _("Correct {what}")).format(
            what=title[:1].lower() + title[1:]
        )
        heading = heading[:1].upper() + heading[1:]
        self.heading.value = heading
        self.heading.semantics_label = heading
        # a large table's next round: the prompt says what to do, the heading's room is the grid's
        self.heading.visible = not (index is None and len(self.draft.piles) >= LARGE_TABLE)

    def follow(self, record: dict[str, Any]) -> bool:
        """The session changed (a round confirmed here or elsewhere, an undo): continue with the new record in
        place (the same players: the same controls)."""
        with self._lock:
            if list(record.get("players") or []) != [name for name, _ in self.draft.piles]:
                return False
            try:
                self.ctl.reopen(record)
            except ScoringError:
                return False
            self.record = record
            self._set_heading()
            docked(self.ectx, self.actions)
            self._below.cancel()  # the whole redraw below brings the reading and breakdown too
            self._send(self.redraw())  # the keys it changed: the grid is walked only for keys that changed
            return True

    # -- drawing ----------------------------------------------------------------------------------------------

    def _colour(self, code: str) -> str:
        card = Card.parse(code)
        return suit_colour_value(card.suit.symbol if card.suit else "♠", self.four_colour)

    def _cards_text(self, codes: Sequence[str], size: int = 16) -> ft.Text:
        labels = [card_label(self.words, code) for code in codes]
        return ft.Text(
            spans=[
                ft.TextSpan(f"{label} ", style=ft.TextStyle(color=self._colour(code)))
                for code, label in zip(codes, labels, strict=True)
            ],
            size=size,
            semantics_label=" ".join(labels) if labels else self.words.gettext("none"),
        )

    def redraw(self, *, below: bool = True) -> list[ft.Control]:
        """Bring every control up to the round's state, in place; returns the controls that changed (a tap sends
        only those). With ``below=False`` the bank's reading and the piles' breakdown are left as they were
        (:meth:`_redraw_below` brings them up after the tap's reply)."""
        draft = self.draft
        changed: list[ft.Control] = []

        def text(control: ft.Text, value: str, label: str | None = None) -> None:
            label = value if label is None else label
            if control.value != value or control.semantics_label != label:
                control.value, control.semantics_label = value, label
                changed.append(control)

        _ = self.words.gettext
        said = entry.prompt(draft, self.words)
        text(self.prompt, said, _("Next: {prompt}").format(prompt=said))
        for target, target_key in self.target_keys.items():
            label = target_button_label(draft, target, self.words)
            if target_key.set_label(label) | target_key.set_selected(draft.target == target):
                changed.append(target_key.control)
        if self.large:
            bank = _("Bank {n}/5").format(n=len(draft.bank))
            said = ", ".join([bank, *(f"{name} {len(draft.pile(name))}" for name, _cards in draft.piles)])
            text(self.counts, said, _("Cards entered: {cards}").format(cards=said))
        held = draft.bank if draft.target is None else draft.pile(draft.target)
        where = entry.target_name(draft.target, self.words)
        cards = " ".join(card_label(self.words, c) for c in held) if held else _("no cards yet")
        text(self.held, _("In {where}: {cards}").format(where=where, cards=cards))
        legal = entry.legal_codes(draft)
        own = set(held)
        bank_full = draft.target is None and draft.bank_complete
        for code, key in self.keys.items():
            mine = code in own
            enabled = mine or (code in legal and not bank_full)
            if key.set_enabled(enabled) | key.set_selected(mine):
                changed.append(key.control)
        following = entry.next_target(draft) if entry.can_next_pile(draft) else None
        label = _("Next pile") if following is None else _("Next: {name}'s pile").format(name=following)
        if self.next_key.set_enabled(following is not None) | self.next_key.set_label(label):
            changed.append(self.next_button)
        if self.remove_key.set_enabled(bool(held)):
            changed.append(self.remove)
        if below:
            changed += self._redraw_below()
        text(self.progress, entry.progress(draft, self.words))
        notes = entry.warnings(draft, self.words)
        if [c.value for c in self.warnings.controls if isinstance(c, ft.Text)] != notes:
            self.warnings.controls = [
                ft.Text(note, size=14, color=ft.Colors.TERTIARY, semantics_label=note) for note in notes
            ]
            changed.append(self.warnings)
        if self.confirm_key.set_enabled(self.ctl.state.can_confirm()):
            changed.append(self.confirm)  # it sits in the screen's bottom bar, outside this panel
        return changed

    def _redraw_below(self) -> list[ft.Control]:
        """The bank's reading and the piles' breakdown, below the grid (out of sight on a phone): what changed."""
        return self._redraw_reading() + self._redraw_breakdown()

    def _draw_below(self) -> None:
        """After a tap's reply (under the lock of taps): the reading and the breakdown as the round now is, in a
        message of their own."""
        self._send(self._redraw_below())

    def _redraw_reading(self) -> list[ft.Control]:
        """The reading's texts and toggles, rebuilt only when the reading (or the table's override) changes."""
        said = entry.reading(self.game, self.draft)
        key = None if said is None else (said, self.draft.overridden)
        if key == self._reading_key:
            return []
        self._reading_key = key
        self.reading_panel.controls = self._reading_controls()
        return [self.reading_panel]

    def _redraw_breakdown(self) -> list[ft.Control]:
        """Each player's breakdown, rebuilt only for the piles whose score changed."""
        views = {view.name: view for view in entry.piles(self.game, self.draft)}
        changed: list[ft.Control] = []
        if self.breakdown_title.visible != bool(views):
            self.breakdown_title.visible = bool(views)
            changed.append(self.breakdown_title)
        for name, box in self.pile_boxes.items():
            view = views.get(name)
            if view == self._pile_views[name]:
                continue
            self._pile_views[name] = view
            box.visible = view is not None
            box.content = self._pile_card(view) if view is not None else None
            changed.append(box)
        return changed

    def _reading_controls(self) -> list[ft.Control]:
        draft = self.draft
        words = self.words
        _ = words.gettext
        said = entry.reading(self.game, draft)
        if said is None:
            text = _("The bank's reading shows once its five face-down cards are in.")
            return [ft.Text(text, size=16, semantics_label=text)]
        loses = " ".join(suit.symbol for suit in said.loss_suits) or _("no suit")
        headline = _("Loses: {suits}").format(suits=loses)
        valuable = _("Ranked cards: valuable") if said.ranked_valuable else _("Ranked cards: not valuable")
        whose = _("The table's reading") if draft.overridden else _("The bank's reading")
        loss_reason, valuable_reason = words.note(said.loss_note), words.note(said.valuable_note)
        out: list[ft.Control] = [
            ft.Text(whose, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=whose),
            ft.Text(headline, size=20, weight=ft.FontWeight.BOLD, semantics_label=headline),
            ft.Text(loss_reason, size=15, semantics_label=loss_reason),
            ft.Text(valuable, size=20, weight=ft.FontWeight.BOLD, semantics_label=valuable),
            ft.Text(valuable_reason, size=15, semantics_label=valuable_reason),
        ]
        toggles: list[ft.Control] = []
        for suit in entry.LOSS_SUITS:
            on = suit in said.loss_suits
            label = (_("{suit} loses") if on else _("{suit} safe")).format(suit=suit.symbol)
            toggles.append(self._toggle(label, on, self._suit_toggler(suit)))
        label = _("Ranked valuable") if said.ranked_valuable else _("Ranked not valuable")
        flip = not said.ranked_valuable
        toggles.append(
            self._toggle(
                label,
                said.ranked_valuable,
                lambda _: self.change(lambda d: entry.set_ranked_valuable(self.game, d, flip)),
            )
        )
        if draft.overridden:
            toggles.append(
                ft.OutlinedButton(
                    content=_("Use the bank's reading"),
                    tooltip=_("Use the bank's reading"),
                    height=TAP,
                    on_click=lambda _: self.change(entry.clear_override),
                )
            )
        hint = _("The table reads it differently? Tap to change:")
        out += [ft.Text(hint, size=14, semantics_label=hint), ft.Row(toggles, wrap=True, spacing=8, run_spacing=8)]
        return out

    def _suit_toggler(self, suit: Suit) -> Callable[[Any], None]:
        def toggled(_: Any) -> None:
            self.change(lambda draft: entry.toggle_loss_suit(self.game, draft, suit))

        return toggled

    @staticmethod
    def _toggle(label: str, on: bool, on_click: Callable[[Any], None]) -> ft.Control:
        kind = ft.FilledButton if on else ft.OutlinedButton
        return kind(content=label, tooltip=label, height=TAP, on_click=on_click)

    def _breakdown_controls(self) -> list[ft.Control]:
        views = entry.piles(self.game, self.draft)
        if not views:
            return []
        return [ft.Text(self.words.gettext("This round so far"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM)] + [
            self._pile_card(view) for view in views
        ]

    def _line(self, title: str, points: str, codes: Sequence[str]) -> ft.Control:
        cards = " ".join(card_label(self.words, c) for c in codes) or self.words.gettext("none")
        title = f"{title} {points}".strip()
        label = f"{title}: {cards}"
        return ft.Semantics(
            label=label,
            container=True,
            exclude_semantics=True,
            content=ft.Row(
                [ft.Text(title, size=15, width=150), ft.Container(self._cards_text(codes), expand=True)],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
        )

    def _pile_card(self, view: PileView) -> ft.Control:
        words = self.words
        _ = words.gettext
        headline = words.ngettext(
            "{name}: {n} point this round", "{name}: {n} points this round", abs(view.total)
        ).format(name=view.name, n=view.total)
        rows: list[ft.Control] = [
            ft.Text(headline, size=18, weight=ft.FontWeight.BOLD, semantics_label=headline),
            self._line(_("Clubs"), _signed(view.clubs_points), view.clubs),
            self._line(_("Ranked"), _signed(view.ranked_points), view.ranked),
            self._line(_("Losses"), _signed(view.losses_points), view.losses),
        ]
        runs = " · ".join(" ".join(card_label(words, c) for c in group) for group in view.straights) or _("none")
        straights = _("Straights {points}").format(points=_signed(view.straights_points))
        straights_label = f"{straights}: {runs}"
        groups: list[ft.Control] = [
            ft.Container(
                content=self._cards_text(group),
                border=ft.Border.all(1, ft.Colors.OUTLINE),
                border_radius=8,
                padding=ft.Padding.symmetric(horizontal=6, vertical=2),
            )
            for group in view.straights
        ] or [ft.Text(_("none"), size=15)]
        rows.append(
            ft.Semantics(
                label=straights_label,
                container=True,
                exclude_semantics=True,
                content=ft.Row(
                    [
                        ft.Text(straights, size=15, width=150),
                        ft.Row(groups, wrap=True, spacing=6, run_spacing=6, expand=True),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
            )
        )
        size = words.ngettext("{n} card", "{n} cards", len(view.rest)).format(n=len(view.rest))
        rest = (_("Rest ({size}), besides the straights") if view.straights else _("Rest ({size})")).format(size=size)
        rows.append(self._line(rest, "", view.leftover))
        if view.outside:
            rows.append(self._line(_("Out of the rest"), "0", view.outside))
        most = _("Most cards in the rest {points}").format(points="+1" if view.most_rest else "0")
        rows.append(ft.Text(most, size=15, semantics_label=most))
        return ft.Container(
            content=ft.Column(rows, spacing=4),
            padding=ft.Padding.all(10),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=10,
        )

    # -- taps -------------------------------------------------------------------------------------------------

    def set_draft(self, draft: RoundDraft, *, later: bool = False) -> None:
        """Take ``draft`` and send what changed. With ``later`` (a tap on the pad), the bank's reading and the
        piles' breakdown follow in a message of their own after the reply (:func:`~views.table.entry.after_reply`):
        a pile card's tap rebuilt that pile's breakdown (a score can move every pile's: the biggest rest), and
        the phone laid it out in the frame that shows the card, below the grid where it is out of sight. Outside a
        page event (a unit test) everything is drawn at once."""
        self.ctl.set(self.ctl.state.but(draft))
        waits = self._below.want() if later else False
        if not waits:  # drawn now, with the rest
            self._below.cancel()
        self._send(self.redraw(below=not waits))

    def _send(self, changed: list[ft.Control]) -> None:
        """Send just these controls, as the screen sends a panel's changes: one update (Flet's automatic
        whole-page diff is off for the tap, :func:`views.table.entry.sent_by_hand`)."""
        sent_by_hand()
        if changed:
            self.ectx.send(changed)

    def change(self, step: Callable[[RoundDraft], RoundDraft], *, later: bool = False) -> None:
        """Apply one change to the draft; a refused change is reported and nothing entered is lost. With ``later``
        (a tap on the pad) the reading and the breakdown follow the reply (:meth:`set_draft`)."""
        with self._lock:
            try:
                draft = step(self.draft)
            except (ScoringError, ValueError) as exc:
                self.ectx.report(error_text(self.words, exc))
                return
            self.ectx.report(None)
            self.set_draft(draft, later=later)

    def tap(self, code: str) -> None:
        """Add the card to the target, or take it out if it is already there (but not on a second tap that comes
        right after the first: a double tap on the table's phone should not undo the card it just entered)."""
        held = self.draft.bank if self.draft.target is None else self.draft.pile(self.draft.target)
        now = time.monotonic()
        if code in held:
            last, when = self._last_added
            if last == code and now - when < DOUBLE_TAP:
                return
            self.change(lambda d: entry.remove_card(d, code), later=True)
        else:
            self._last_added = (code, now)
            self.change(lambda d: entry.add_card(self.game, d, code), later=True)

    def choose(self, target: str | None) -> None:
        self.change(lambda d: entry.select(self.game, d, target), later=True)

    def hold(self, code: str) -> None:
        """A card held down starts the next pile: the move and the card in one gesture."""
        self._last_added = (code, time.monotonic())
        self.change(lambda d: entry.start_next_pile(self.game, d, code), later=True)

    def next_pile(self, _: Any = None) -> None:
        self.change(lambda d: entry.select(self.game, d, entry.verify_next_pile(d)), later=True)

    def undo_card(self, _: Any = None) -> None:
        self.change(entry.remove_last, later=True)

    def confirm_round(self, _: Any = None) -> None:
        with self._lock:
            try:
                # The draft is dropped before the round is recorded: the screen redraws at once with the next
                # round's panel, which must start empty. If the round is refused, the draft is kept again.
                self.ctl.confirm(self.ectx.submit)
            except ScoringError as exc:
                told = self.words.gettext("The round cannot be recorded yet: {problem}")
                self.ectx.report(told.format(problem=error_text(self.words, exc)))


def build_entry(ectx: EntryContext) -> FinancialCrisisEntry:
    """The round entry panel for the next round, or the correction of a saved one."""
    return FinancialCrisisEntry(ectx)


PANEL = TableUI(key="financial-crisis", entry=build_entry)
