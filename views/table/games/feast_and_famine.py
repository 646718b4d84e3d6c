"""Feast and Famine at the table: the dealer assistant (walk the round tap by tap) and the quick form.

The logic is :mod:`companion.entry_feast_and_famine`; this module only draws it. Walking a round: the dealer (or
the Ghost of a tie-break), the opening cards (a Joker is put aside and replaced), then Take / Refuse for whoever's
turn it is and the card turned, each player's running hand with Frozen and Knocked-Out states, and the chance that
the next card is a Joker. The quick form takes each player's Frozen total or "out" instead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from companion import entry_feast_and_famine as entry_ff
from companion.entry_feast_and_famine import GHOST, QUICK, WALK, EntryError, FeastState, Phase, RoundEntry, Seat
from companion.i18n import N_, Words
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring import Card, Part, ScoringError
from scoring.cards import RANKS, SUITS
from scoring.feast_and_famine import FeastAndFamineResult
from views.table.entry import (
    EntryContext,
    TableUI,
    after_tap,
    docked,
    draft_store,
    page_height,
    refresh,
    said,
    sent_by_hand,
    words_of,
)
from views.widgets import (
    MIN_TAP,
    TAP,
    ActionKey,
    OutlineKey,
    TapKey,
    card_label,
    isolated,
    panel,
    suit_colour_value,
    tapped,
)

GRID_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 9, "md": 8}
"""Cards a row, rank by rank: 9 on a portrait phone (the 52 cards and the Joker in 6 rows of 48 px keys: the
round's lines, the grid and Confirm fit a 360 × 640 screen), two ranks a row when wider. Refuse sits beside
Confirm in the bottom bar (a decision, not a card, where the thumb already is)."""
DEALER_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 6, "sm": 4, "md": 3}
"""The dealer's (the Ghost's) choice: two names a row on a portrait phone."""
SEAT_LINES = 4
"""Up to this many players each has a line of the round; a larger table's lines are one compact text (the player
to play first), so that the grid stays on screen."""
SEATS_SCREEN = 800
"""The page's height (logical pixels) from which the round's lines stay above the grid while it is walked. On a
shorter page the line of the player to play is above it, alone, everyone's lines (a large table's compact text of
the others) go under it, and the dealer's line, which the round's title already says, is left out: measured at
360 × 640, two players' lines above the grid put its last row (the Joker) 32 px under the end of the panel, ten
players' compact text 15 px, and both grow as the round does."""
SEAT_WORDS = {Seat.IN: N_("still in"), Seat.FROZEN: N_("Frozen"), Seat.OUT: N_("Knocked Out")}


def card_codes() -> list[str]:
    """The 52 cards rank by rank (A♠ A♥ A♦ A♣ 2♠ …), then the Joker."""
    return [f"{rank}{suit.value}" for rank in RANKS for suit in SUITS] + ["JK"]


def extras(
    session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
) -> list[tuple[str, str]]:
    """Rounds, circuits and the next dealer under the standings."""
    try:
        info = entry_ff.deal_info(session.current)  # read, never changed: no copy of the game
    except ScoringError:
        return []
    words = words or Words.of("en")
    _ = words.gettext
    out = [(_("Rounds left"), str(info.rounds_left))]
    if info.rounds_left:
        said = _("round {round} of {rounds}, circuit {circuit} of {circuits}")
        next_round = said.format(round=info.round, rounds=info.rounds, circuit=info.circuit, circuits=info.circuits)
        out.append((_("Next"), next_round))
        dealer = entry_ff.dealer_line(info, session.draft("new"), words)
        if dealer is not None:
            out.append((_("Dealer"), dealer))
    result = session.result
    assert isinstance(result, FeastAndFamineResult)
    rounds, notes = result.tiebreaks, result.tiebreak_notes
    for k, points in enumerate(rounds):
        said = ", ".join(f"{name} {value}" for name, value in points.items())
        worded = result.tiebreak_why
        if k < len(worded) and worded[k] and words.code != "en":
            why = f" ({words.note(worded[k][-1])})"
        else:
            why = f" ({notes[k][-1]})" if k < len(notes) and notes[k] else ""
        title = _("Tie-break round {n}").format(n=k + 1) if len(rounds) > 1 else _("Tie-break round")
        out.append((title, said + why))
    return out


class RoundPanel:
    """The entry panel of one round (a main-game round, a tie-break round, or a correction)."""

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self.words = words = words_of(ectx)
        _ = words.gettext
        self._lock = threading.Lock()
        self.record = ectx.record
        self.tiebreak = ectx.target.part is Part.TIEBREAK
        self.four_colour = ectx.view.settings.four_colour_suits
        # a new round of the session's record: the tie-break's players are the session's result's (scored once)
        known = ectx.session.result if ectx.target.is_new and ectx.record == ectx.session.current else None
        self.ctl = entry_ff.open_round(
            draft_store(ectx), ectx.record, ectx.target, ectx.existing, defer=after_tap, result=known
        )
        self.who = self.ctl.state.who
        self.choices = self.ctl.state.choices
        self.info = (
            entry_ff.deal_info(self.ctl.state.context.parsed)
            if not self.tiebreak and ectx.target.index is None
            else None
        )
        """Where the game is (round, circuit, dealer): read once from the record, not on every tap."""
        label = _("Confirm round")
        self.confirm_key = ActionKey(label, self.confirm)
        """A filled key, not a Material button: the round's last card enables it with no state animation."""
        self.confirm_key.set_enabled(False)
        self.confirm_button = self.confirm_key.control

        self.card_keys: dict[str, TapKey] = {}
        """The card keys (no ink: see :class:`views.widgets.TapKey`), kept and sent only when one changes."""
        for code in card_codes():
            card = Card.parse(code)
            colour = suit_colour_value(card.suit.symbol, self.four_colour) if card.suit else ft.Colors.PURPLE_400
            text = ft.Text(card_label(words, code), size=16, weight=ft.FontWeight.BOLD, color=colour, no_wrap=True)
            self.card_keys[code] = TapKey(text, tapped(self.tap, code), col=2 if code == "JK" else 1)
        refuse = _("Refuse")
        self.refuse_key = OutlineKey(
            "❄ " + refuse, lambda _: self.tap(entry_ff.REFUSE), size=16, hug=True, semantics_label=refuse
        )
        """An outlined key (the snowflake: a Refuse freezes the player): each decision enables it and each card
        dealt greys it out again, with no state animation, as a Material button had."""
        self.refuse_key.set_enabled(False)
        self.refuse = self.refuse_key.control
        self.refuse.visible = False
        self.actions = ft.Row([self.refuse, self.confirm_button], spacing=8)
        docked(ectx, self.actions)
        self.grid = isolated(  # walked only when one of its cards changed (send_changes)
            ft.ResponsiveRow(
                [key.control for key in self.card_keys.values()], columns=GRID_COLUMNS, spacing=3, run_spacing=2
            )
        )
        self.dealer_open = False
        """Whether the dealer's choice is shown again after one was chosen ("Change dealer")."""
        self.large = len(self.who) > SEAT_LINES
        self._short: bool | None = None
        """Whether the page was shorter than :data:`SEATS_SCREEN` at the last redraw (``None`` before the first)."""
        self.head = ft.Column(spacing=4)
        """The title, the dealer and the prompt (the quick form's switch)."""
        self.seats = ft.Column(spacing=4)
        """Each player's hand (the quick form's fields)."""
        self.foot = ft.Column(spacing=4)
        """Under the grid: the chance of a Joker, the Jokers put aside, Undo and the form's switch."""
        self.body = ft.Column([self.head, self.seats, self.grid, self.foot], spacing=4)
        self.control = panel(self.body, padding=8)
        self._kept: dict[tuple[Any, ...], ft.Control] = {}
        """The panel's parts by what they show, reused from one redraw to the next (Flet matches controls by
        identity: a tap sends the parts it changed, not the panel)."""
        self._now: dict[tuple[Any, ...], ft.Control] = {}
        self._changed: list[ft.Control] = []
        self.redraw()

    # -- state ---------------------------------------------------------------------------------------------------

    @property
    def state(self) -> FeastState:
        return self.ctl.state

    @property
    def mode(self) -> str:
        return self.state.mode

    @property
    def dealer(self) -> str | None:
        return self.state.dealer

    @property
    def entry(self) -> RoundEntry | None:
        return self.state.entry

    @property
    def values(self) -> dict[str, str]:
        return self.state.values

    def change(self, step: Callable[[FeastState], FeastState], *, redraw: bool = True) -> None:
        """Apply one tap (kept as the draft); a tap the round cannot take is reported and nothing is lost."""
        with self._lock:
            try:
                self.ctl.change(step)
            except EntryError as exc:
                self.ectx.report(f"{said(self.words, exc)}.")
                return
            self.ectx.report(None)
            if redraw:
                self.redraw()

    # -- drawing ---------------------------------------------------------------------------------------------------

    def _part(self, key: tuple[Any, ...], make: Callable[[], ft.Control]) -> ft.Control:
        """The part that shows ``key``: the one drawn last time when it showed the same, else a new one."""
        found = self._kept.get(key) or self._now.get(key) or make()
        self._now[key] = found
        return found

    def redraw(self) -> None:
        """Bring the panel up to the round's state: parts that show the same stay (nothing sent for them), the card
        keys whose state changed are sent one by one."""
        self._now, self._changed = {}, []
        self._short = self._page_short()
        head: list[ft.Control] = [self._title(), *self._dealer_row()]
        if self.large and self.dealer is not None and not self.dealer_open and self.mode != QUICK:
            # a large table, the dealer known: the round's line and the dealer are in the scoreboard's notes;
            # their room is the grid's (the way to choose the dealer again is under the grid)
            head = [self._title()] if self.tiebreak or self.ectx.target.index is not None else []
        seats: list[ft.Control] = []
        foot: list[ft.Control] = []
        walking = False
        if self.mode == QUICK:
            head.append(self._mode_row())
            seats = self._quick_parts()
        elif self.entry is not None:
            prompt, seats, foot, walking = self._walk_parts(self.entry)
            head.append(prompt)
            foot.append(self._mode_row())  # under the walk: a table that walks its rounds does not tap it
        else:
            foot.append(self._mode_row())
            self._confirm(disabled=True)  # the dealer comes first
        if self.large and self.dealer is not None and not self.dealer_open and self.mode != QUICK:
            dealt = self.entry is not None and bool(self.entry.actions)
            if len(self.choices) > 1 and not dealt:  # chosen by the table, nothing dealt: it can still change
                word = self.words.gettext("Ghost") if self.tiebreak else self.words.gettext("Dealer")
                text = f"{word}: {self.dealer}"
                foot.insert(0, self._part(("chosen", text), lambda: self._chosen_row(text, word)))
        self._kept = self._now
        changed = self._changed
        for holder, parts in ((self.head, head), (self.seats, seats), (self.foot, foot)):
            if [id(c) for c in holder.controls] != [id(c) for c in parts]:
                holder.controls = parts
                changed.append(holder)
        if self.grid.visible != walking:
            self.grid.visible = walking
            changed.append(self.grid)
        if self.refuse.visible != walking:
            self.refuse.visible = walking
            changed.append(self.refuse)
        sent_by_hand()
        if changed:
            self.ectx.send(changed)  # one update, as the screen sends a panel's changes

    def _page_short(self) -> bool:
        """Whether the page is shorter than :data:`SEATS_SCREEN`, as its client last said (not before it did)."""
        height = page_height(self.ectx)
        return height is not None and height < SEATS_SCREEN

    def resized(self) -> None:
        """The page changed size (a phone turned): when it crossed :data:`SEATS_SCREEN`, the round is drawn again for
        it now, as after a tap, instead of at the next tap."""
        with self._lock:
            if self._short is not None and self._page_short() != self._short:
                self.redraw()

    def _title(self) -> ft.Control:
        _ = self.words.gettext
        if self.tiebreak:
            index = self.ectx.target.index
            head = _("Tie-break round") if index is None else _("Correct tie-break round {n}").format(n=index + 1)
            who = _(" and ").join(self.who)
            text = _("{head}: {names} against the Ghost").format(head=head, names=who)
        elif self.ectx.target.index is not None:
            text = _("Correct round {n}").format(n=self.ectx.target.index + 1)
        else:
            assert self.info is not None
            text = self.info.text_with(self.dealer, self.words)
        return self._part(
            ("title", text), lambda: ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_SMALL, semantics_label=text)
        )

    def _dealer_row(self) -> list[ft.Control]:
        _ = self.words.gettext
        if self.tiebreak and not self.choices:
            text = _("Nobody else is seated: a dummy Ghost seat deals and always Takes (FF-10).")
            return [self._part(("text", text), lambda: ft.Text(text, size=16, semantics_label=text))]
        word = _("Ghost") if self.tiebreak else _("Dealer")
        dealt = self.mode != QUICK and self.entry is not None and bool(self.entry.actions)
        if (len(self.choices) == 1 and self.dealer == self.choices[0]) or (dealt and self.dealer is not None):
            # chosen and dealt from (undo back to the first card to choose again): one line, not the choice; none
            # on a short page when the round's title says who deals (SEATS_SCREEN)
            if self._short and self.info is not None and not self.tiebreak:
                return []
            text = f"{word}: {self.dealer}"
            line = self._part(
                ("dealer", text), lambda: ft.Text(text, size=16, weight=ft.FontWeight.BOLD, semantics_label=text)
            )
            return [line]
        if self.dealer is not None and not self.dealer_open:
            # chosen, nothing dealt yet: one line and the way to choose again, not the whole choice
            text = f"{word}: {self.dealer}"
            return [self._part(("chosen", text), lambda: self._chosen_row(text, word))]
        ask = _("Who is the Ghost? (any player not tied; it always Takes)") if self.tiebreak else _("Who deals?")

        def choice() -> ft.Control:
            buttons: list[ft.Control] = []
            for name in self.choices:
                label = f"{word}: {name}"
                kind = ft.FilledButton if name == self.dealer else ft.OutlinedButton
                buttons.append(
                    kind(
                        content=ft.Text(label, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                        tooltip=label,
                        height=MIN_TAP,
                        col=DEALER_COLUMNS,
                        on_click=lambda _, n=name: self.choose_dealer(n),
                        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)),
                    )
                )
            return ft.ResponsiveRow(buttons, spacing=6, run_spacing=4)

        row = self._part(("dealers", word, tuple(self.choices), self.dealer), choice)
        return [self._part(("ask", ask), lambda: ft.Text(ask, size=14)), row]

    def _chosen_row(self, text: str, word: str) -> ft.Control:
        _ = self.words.gettext
        again = _("Change ghost") if word == _("Ghost") else _("Change dealer")
        return ft.Row(
            [
                ft.Text(text, size=16, weight=ft.FontWeight.BOLD, semantics_label=text, expand=True),
                ft.OutlinedButton(content=again, tooltip=again, height=MIN_TAP, on_click=self.reopen_dealer),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def _mode_row(self) -> ft.Control:
        return self._part(("mode", self.mode), self._make_mode_row)

    def _make_mode_row(self) -> ft.Control:
        out: list[ft.Control] = []
        _ = self.words.gettext
        for mode, label in ((WALK, _("Walk the round")), (QUICK, _("Quick form"))):
            kind = ft.FilledButton if mode == self.mode else ft.OutlinedButton
            out.append(
                kind(
                    content=label,
                    tooltip=label,
                    height=MIN_TAP,
                    expand=True,
                    on_click=lambda _, m=mode: self.set_mode(m),
                )
            )
        return ft.Row(out, spacing=8)

    def _walk_parts(self, entry: RoundEntry) -> tuple[ft.Control, list[ft.Control], list[ft.Control], bool]:
        """The prompt, each player's line, what goes under the grid, and whether the grid is shown."""
        state = entry.state
        _ = self.words.gettext
        prompt = entry.prompt(self.words)
        next_label = _("Next: {prompt}").format(prompt=prompt)
        shown = self._part(
            ("prompt", prompt),
            lambda: ft.Text(prompt, size=16, weight=ft.FontWeight.BOLD, semantics_label=next_label),
        )
        parts: list[ft.Control] = []
        turn, others = self._seat_words(entry)
        compact = len(state.order) > SEAT_LINES  # a tie-break's Ghost has a seat too
        if self._short and state.phase is not Phase.DONE and turn is not None:
            # a short page: the grid right under the line of the player to play, everyone's lines under the grid
            seats = [self._seats_part(turn)]
            if compact:
                parts += [self._seats_part(" · ".join(others), under=True)] if others else []
            else:
                parts += [self._seat_line(entry, name, under=True) for name in state.order]
        elif compact:
            seats = [self._seats_text(entry)]
        else:
            seats = [self._seat_line(entry, name) for name in state.order]
        legal = set(entry.legal_cards())
        self._changed += [key.control for code, key in self.card_keys.items() if key.set_enabled(code in legal)]
        # a Take is the card turned for it, tapped on the grid; Refuse sits in the grid's last row
        if self.refuse_key.set_enabled(state.phase is Phase.DECIDE):
            self._changed.append(self.refuse)
        if state.phase is not Phase.DONE:
            chance = _("Chance the next card is a Joker: {chance}").format(chance=entry.chance_text(self.words))
            parts.append(self._part(("chance", chance), lambda: ft.Text(chance, size=14, semantics_label=chance)))
        if state.set_aside:
            aside = _("Jokers put aside in the opening deal: {n} (they go back into the deck)").format(
                n=state.set_aside
            )
            parts.append(self._part(("aside", aside), lambda: ft.Text(aside, size=14, semantics_label=aside)))
        parts.append(self._part(("undo", bool(entry.actions)), lambda: self._undo_row(entry)))
        self._confirm(disabled=not entry.complete)
        return shown, seats, parts, state.phase is not Phase.DONE

    def _undo_row(self, entry: RoundEntry) -> ft.Control:
        return ft.Row(
            [
                ft.OutlinedButton(
                    content=self.words.gettext("Undo last tap"),
                    tooltip=self.words.gettext("Undo last tap"),
                    height=MIN_TAP,
                    expand=True,
                    disabled=not entry.actions,
                    on_click=self.undo_tap,
                ),
                ft.OutlinedButton(
                    content=self.words.gettext("Start over"),
                    tooltip=self.words.gettext("Start over"),
                    height=MIN_TAP,
                    disabled=not entry.actions,
                    on_click=self.start_over,
                ),
            ],
            spacing=8,
        )

    def _seat_line(self, entry: RoundEntry, name: str, *, under: bool = False) -> ft.Control:
        state = entry.state
        _ = self.words.gettext
        cards = " ".join(card_label(self.words, code) for code in state.cards[name]) or _("no card yet")
        who = entry.name_of(name, self.words)
        who = who[0].upper() + who[1:]
        if name == GHOST:
            text = f"{who}: {cards}"
        else:
            text = f"{who}: {cards} = {entry.total(name)} · {_(SEAT_WORDS[state.seats[name]])}"
        turn = name == state.turn
        if turn:
            text += " · " + _("to play")
        colour = {Seat.FROZEN: ft.Colors.BLUE_400, Seat.OUT: ft.Colors.ERROR}.get(state.seats[name])
        key = ("seat", text, colour, turn, under)  # above the grid or under it: a control is never moved
        return self._part(key, lambda: self._seat_box(text, colour, turn))

    def _seats_text(self, entry: RoundEntry) -> ft.Control:
        """A large table's round in one compact text, in seating order: the player to play first, with their cards,
        then everyone else who has a card, with their total and state (Frozen, out)."""
        turn, others = self._seat_words(entry)
        said = [turn, *others] if turn is not None else others
        return self._seats_part(" · ".join(said) or self.words.gettext("No card dealt yet"))

    def _seats_part(self, text: str, *, under: bool = False) -> ft.Control:
        """A compact text of the round (above the grid, or ``under`` it: a control is never moved between the
        two)."""
        return self._part(("seats", text, under), lambda: ft.Text(text, size=12, semantics_label=text))

    def _seat_words(self, entry: RoundEntry) -> tuple[str | None, list[str]]:
        """The compact words of the player to play (``None`` when nobody is), with their cards, and of everyone
        else who has a card, in seating order after them, with their total and state (Frozen, out)."""
        state = entry.state
        _ = self.words.gettext
        short = {Seat.IN: "", Seat.FROZEN: " " + _("Frozen"), Seat.OUT: " " + _("out")}
        order = list(state.order)
        if state.turn in order:
            at = order.index(state.turn)
            order = order[at:] + order[:at]
        turn: str | None = None
        others: list[str] = []
        for name in order:
            who = entry.name_of(name, self.words)
            if name == state.turn:
                cards = " ".join(card_label(self.words, code) for code in state.cards[name]) or _("no card yet")
                total = "" if name == GHOST else f" = {entry.total(name)}"
                turn = _("To play: {who}: {cards}").format(who=who, cards=cards) + total
            elif state.cards[name] and name != GHOST:
                others.append(f"{who} {entry.total(name)}{short[state.seats[name]]}")
        return turn, others

    @staticmethod
    def _seat_box(text: str, colour: str | None, turn: bool) -> ft.Control:
        return ft.Container(
            content=ft.Text(
                text, size=16, color=colour, weight=ft.FontWeight.BOLD if turn else None, semantics_label=text
            ),
            padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            border=ft.Border.all(2 if turn else 1, ft.Colors.PRIMARY if turn else ft.Colors.OUTLINE_VARIANT),
            border_radius=8,
        )

    def _quick_parts(self) -> list[ft.Control]:
        head = self.words.gettext("Each player's Frozen total, or Out for a player knocked out.")
        parts: list[ft.Control] = [self._part(("quick", head), lambda: ft.Text(head, size=16))]
        for name in self.who:
            value = self.values.get(name, "")
            out = value.strip().lower() == "out"
            parts.append(self._part(("quick", name, value, out), partial(self._quick_row, name, value, out)))
        self._confirm(disabled=False)
        return parts

    def _quick_row(self, name: str, value: str, out: bool) -> ft.Control:
        _ = self.words.gettext
        field = ft.TextField(
            label=_("{name}'s total").format(name=name),
            value="" if out else value,
            disabled=out,
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=lambda event, n=name: self.type_value(n, event.control.value),
            expand=True,
            height=TAP + 8,
            text_size=18,
        )
        label = _("{name} out").format(name=name)
        kind = ft.FilledButton if out else ft.OutlinedButton
        toggle = kind(
            content=label,
            icon=ft.Icons.CHECK if out else None,
            tooltip=(_("{name} was knocked out (tap again to undo)") if out else _("{name} was knocked out")).format(
                name=name
            ),
            height=TAP,
            on_click=lambda _, n=name: self.toggle_out(n),
        )
        return ft.Row([field, toggle], spacing=8)

    def _confirm(self, *, disabled: bool) -> None:
        """Confirm sits in the screen's bottom bar (made once), on screen however long the round's lines get: only
        its state is sent, when it changes."""
        if self.confirm_key.set_enabled(not disabled):
            refresh(self.confirm_button)

    # -- taps ------------------------------------------------------------------------------------------------------

    def choose_dealer(self, name: str) -> None:
        self.dealer_open = False
        self.change(lambda state: state.choose_dealer(name))

    def reopen_dealer(self, _: Any = None) -> None:
        """Show the dealer's choice again (the one chosen is marked)."""
        self.dealer_open = True
        self.redraw()

    def set_mode(self, mode: str) -> None:
        """Switch the form; a new round keeps it for the session's next rounds."""
        self.change(lambda state: state.set_mode(mode))
        if self.ectx.target.is_new:
            entry_ff.remember_mode(draft_store(self.ectx), mode)

    def tap(self, action: str) -> None:
        self.change(lambda state: state.act(action))

    def undo_tap(self, _: Any = None) -> None:
        self.change(lambda state: state.undo())

    def start_over(self, _: Any = None) -> None:
        self.change(lambda state: state.start_over())

    def type_value(self, name: str, value: str | None) -> None:
        self.change(lambda state: state.set_value(name, value or ""), redraw=False)

    def toggle_out(self, name: str) -> None:
        self.change(lambda state: state.toggle_out(name))

    def confirm(self, _: Any = None) -> None:
        with self._lock:
            try:
                self.ctl.confirm(self.ectx.submit)  # the draft is cleared first, and kept again if refused
            except EntryError as exc:
                told = self.words.gettext("{problem}. Nothing entered is lost.")
                self.ectx.report(told.format(problem=said(self.words, exc)))


def build_entry(ectx: EntryContext) -> RoundPanel:
    """The round panel for the next round, the tie-break round, or a correction."""
    return RoundPanel(ectx)


PANEL = TableUI(key="feast-and-famine", entry=build_entry, extras=extras, parts=(Part.TIEBREAK,))
