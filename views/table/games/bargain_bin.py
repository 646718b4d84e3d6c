"""Bargain Bin at the table: live play (who gets the card, and its value), the quick form, conduct, Vegas.

A thin view over :class:`companion.entry_bargain_bin.BinEntry`: every tap calls one of its methods and redraws;
what a tap may not do is greyed out by the matching ``can_x`` (Selfless, used cards, players without cards).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.bargain_bin_money import end_headline, money_lines, pot_lines, transfers
from companion.entry_bargain_bin import (
    BargainBinState,
    BinEntry,
    EntryError,
    EntryMode,
    PadKey,
    explain_keys,
    money,
    pad_keys,
)
from companion.i18n import Words
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring import ScoringError
from scoring.bargain_bin import JOKER_VALUE, Action, Sign
from views.table.entry import (
    EntryContext,
    Later,
    NextHand,
    TableUI,
    VeilLater,
    controller,
    cover_refusal,
    docked,
    page_height,
    said,
    words_of,
)
from views.widgets import (
    MIN_TAP,
    TAP,
    ActionKey,
    ChoiceKey,
    Key,
    TapKey,
    VeilOver,
    isolated,
    panel,
    rank_label,
    suit_colour_value,
)

RECEIVER_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 6, "sm": 4, "md": 3}
"""A receiver's share of a row of 12: two a row on a portrait phone (ten players in five rows), more when wider."""
LARGE_TABLE = 5
"""From this many players, on a screen less than :data:`TALL_SCREEN` tall, the value pad takes the receivers' place
once who gets the card is tapped ("Other receiver" brings them back): receivers and pad together do not fit a
360 × 640 screen. A smaller table, or a taller screen, shows both, the pad veiled until a receiver is tapped."""
TALL_SCREEN = 830
"""The page's height (logical pixels) from which a large table shows its receivers and value pad together, as a
smaller table does: ten players' five rows of receivers and the pad's four rows, with the hand's title, a prompt of
two lines and the bottom bar, fit a 390 × 844 screen (15 px to spare), not a 360 × 740 one (89 px short). There a
card is two taps in one place, with nothing swapped in between; the swap built a whole row of keys again at each tap
(the pad's 27 at the receiver's tap, the ten receivers at the value's). Below it a smaller table leaves out the line
of card points so far, which its receivers also say (with it, a 4-player table's last row of keys was 13 px below
the edge of a 360 × 640 screen). The height is read at each redraw: a phone turned sideways swaps from its next
tap."""
QUICK_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 6, "md": 4}
"""A large table's quick form: two fields a row on a portrait phone (ten in five rows), three when wider."""
PAD_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 7, "md": 14}
"""Value-pad keys a row: 7 on a portrait phone (26 keys and the Joker's double key in 4 rows of 48 px keys, so a
whole hand is entered without scrolling on a 360 × 740 screen), 14 when wider."""


def _button(
    label: str,
    on_click: Callable[[Any], None],
    *,
    primary: bool = False,
    disabled: bool = False,
    width: float | None = None,
    expand: bool = False,
    colour: str | None = None,
    size: int = 18,
    height: int = TAP,
) -> ft.Control:
    """A button labelled ``label`` (shown and read out the same), at least :data:`TAP` pixels tall."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(
        content=ft.Text(label, size=size, weight=ft.FontWeight.BOLD if primary else None, color=colour),
        tooltip=label,
        height=height,
        width=width,
        expand=True if expand else None,
        disabled=disabled,
        on_click=on_click,
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)),
    )


def _look(control: ft.Control) -> tuple[Any, ...]:
    """What a tap may change in a kept control: its text, state, greying, label and selection."""
    text = getattr(control, "content", None)
    if isinstance(text, ft.GestureDetector):  # a key (a receiver): its text is in the box, inside its listener,
        text = text.content  # inside the gesture detector that takes its taps
    if isinstance(text, ft.KeyboardListener):
        text = text.content
    if isinstance(text, Key):
        text = text.content
    inner = (text.value, text.color, text.weight) if isinstance(text, ft.Text) else None
    return (
        getattr(control, "value", None),
        control.disabled,
        getattr(control, "selected", None),
        control.opacity,
        getattr(control, "tooltip", None),
        control.visible,
        getattr(control, "semantics_label", None),
        getattr(control, "bgcolor", None),
        id(getattr(control, "style", None)),
        inner,
    )


SELECTED = ft.ButtonStyle(
    padding=ft.Padding.symmetric(horizontal=8),
    bgcolor=ft.Colors.PRIMARY_CONTAINER,
    side=ft.BorderSide(3, ft.Colors.PRIMARY),
)
PLAIN = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8))


def _outlined(
    label: str, on_click: Callable[[Any], None], *, width: float | None = None, size: int = 18, pad: int = 8
) -> ft.OutlinedButton:
    """An outlined button kept across redraws (its label, colour and state are updated in place)."""
    return ft.OutlinedButton(
        content=ft.Text(label, size=size, no_wrap=True),
        tooltip=label,
        height=TAP,
        width=width,
        on_click=on_click,
        style=PLAIN if pad == 8 else ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=pad)),
    )


def _receiver(label: str, on_click: Callable[[Any], None]) -> ChoiceKey:
    """A receiver ("To Ann (12)": who gets the card, with their card points), kept across redraws: a
    :class:`~views.widgets.ChoiceKey`, outlined, and filled with a thick outline while chosen
    (:func:`_update_receiver`); its button node names it, says whether it is selected, and takes the tap."""
    return ChoiceKey(label, on_click, col=RECEIVER_COLUMNS)


def _update_receiver(key: ChoiceKey, *, label: str, disabled: bool, selected: bool) -> None:
    """Set a receiver's label (shown and read out), state (greyed out: its node disabled, a tap on it does
    nothing) and selection (read out as selected, shown filled)."""
    key.set_label(label)
    key.set_enabled(not disabled)
    key.set_selected(selected)


def _update(
    button: ft.OutlinedButton,
    *,
    label: str | None = None,
    disabled: bool,
    colour: str | None = None,
    selected: bool = False,
) -> None:
    """Set a kept button's label (shown and read out), state, text colour and selection."""
    text = button.content
    if isinstance(text, ft.Text):
        if label is not None:
            text.value = label
            button.tooltip = label
        text.color = colour if not disabled else ft.Colors.OUTLINE_VARIANT
        text.weight = ft.FontWeight.BOLD if selected else None
    button.disabled = disabled
    button.style = SELECTED if selected else PLAIN


def joker_key_label(words: Words, key: PadKey) -> str:
    """The Joker's key in the table's language: ``Joker +20``, ``Joker −20`` (``Joker`` before its sign)."""
    if key.sign is None:
        return words.gettext("Joker")
    plus = key.sign is Sign.PLUS
    return (words.gettext("Joker +{value}") if plus else words.gettext("Joker −{value}")).format(value=JOKER_VALUE)


class BinPanel:
    """The entry panel of one hand (new or corrected)."""

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self.words = words = words_of(ectx)
        _ = words.gettext
        self._lock = threading.Lock()
        self._drawn_layout: tuple[bool, bool] | None = None
        """What the page's size decided at the last drawing of live play (:meth:`_layout`)."""
        self.four_colour = ectx.view.settings.four_colour_suits
        self.money = ectx.view.settings.money_shown
        self.ctl = controller(ectx, BargainBinState)
        self.pot_before = self._pot_before()
        self.conduct_open = False
        self.pending: tuple[str, Action] | None = None
        self.giver_open = False
        self.body = ft.Column(spacing=6)
        self.quick_preview = ft.Text("", size=16)
        self.vegas_text = ft.Text("", size=16)
        self.vegas_box = ft.Container(
            content=self.vegas_text,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            padding=ft.Padding.all(8),
            border_radius=8,
        )
        self.confirm_key = ActionKey(_("Confirm hand"), self.confirm)
        """A filled key, not a Material button: the hand's last card enables it with no state animation."""
        self.confirm_button = self.confirm_key.control
        self.title = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_MEDIUM, no_wrap=True)
        self.mode_holder = ft.Container()
        self.header = ft.Row(
            [ft.Container(self.title, expand=True), self.mode_holder],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        """The hand's title, "Someone else plays" (live play) and the switch to the other way of entering, on one
        line."""
        self._mode_rows: dict[bool, ft.Control] = {}
        """The Live play / Quick totals switch, one row a mode (made once each): the mode shown is the filled one."""
        self.conduct_button = _button(_("Warn or remove a player"), lambda _: self._toggle_conduct(), size=16)
        self._build_live()
        self.control = panel(self.body, padding=8)
        self.redraw()

    def _build_live(self) -> None:
        """The live-play controls, made once and updated in place on every tap (a tap sends only what changed)."""
        entry = self.entry
        _ = self.words.gettext
        self.large = len(entry.players) >= LARGE_TABLE
        self.prompt_text = ft.Text("", size=17, weight=ft.FontWeight.BOLD)
        self.points_text = ft.Text("", size=13 if self.large else 15)
        self.giver_text = ft.Text("", size=14, expand=True)
        self.someone = _button(_("Someone else plays"), lambda _: self._toggle_giver(), size=14, height=MIN_TAP)
        self.header.controls.insert(1, self.someone)
        self.other_receiver = _outlined(_("Other receiver"), self._unchoose, size=14, pad=6)
        self.other_receiver.height = MIN_TAP
        self.other_receiver.visible = False
        """A large table, while the pad takes the receivers' place: back to the receivers."""
        self.giver_row = ft.Row([self.giver_text, self.other_receiver], vertical_alignment=ft.CrossAxisAlignment.CENTER)
        """Whose card it is and how many are left (a large table, while the pad is shown: who gets it, and the
        way back to the receivers)."""
        self._build_receivers()
        keys = pad_keys(entry.options)
        self.keys = {key: self._key(key) for key in keys}
        self.pad_keys = isolated(  # walked only when one of its keys changed (send_changes)
            ft.ResponsiveRow([key.control for key in self.keys.values()], columns=PAD_COLUMNS, spacing=3, run_spacing=4)
        )
        self.veil = VeilOver(self.pad_keys, self._refused(keys[0]))
        """The value pad is veiled (dimmed as one, each key's node read as unavailable) until who gets the card is
        tapped; a key tapped then is refused with "tap who Ann's card goes to first", shown and read out. A key on
        its own is greyed out once both cards of its value are out."""
        self.veil.set_raised(True)
        self.veil_later = VeilLater(self.veil, self._lock, self._send)
        """Raises it after the reply of the tap that plays a card (lowers its cover at once when who gets it is
        tapped, and its grid after the reply)."""
        self._keys_later = Later(self._grey_keys_later, self._lock)
        """The keys' greying out, waiting to follow a tap's reply (:meth:`_grey_keys_later`)."""
        self.next_hand = NextHand(self.redraw, self._send, self._lock, [self.veil_later, self.receiver_veil_later])
        """The next hand drawn after the reply of the Confirm that began it (:meth:`follow`)."""
        self.pad = ft.Column(
            [
                self.veil.control,
                ft.Text(explain_keys(keys, entry.options.king, self.words) + ".", size=13, visible=not self.large),
            ],
            spacing=4,
        )
        self.sign_row = ft.Row(
            [
                _button(
                    _("Joker +{value}").format(value=JOKER_VALUE),
                    self._act("choose_sign", Sign.PLUS),
                    primary=True,
                    width=150,
                ),
                _button(
                    _("Joker −{value}").format(value=JOKER_VALUE),
                    self._act("choose_sign", Sign.MINUS),
                    primary=True,
                    width=150,
                ),
                _button(_("Cancel the Joker"), self._act("cancel_joker")),
            ],
            wrap=True,
        )
        self._rows: list[ft.Control] = [self.receiver_veil.control, self.pad]
        """The rows live play shows or hides as the hand goes (always in the panel while it is shown)."""
        self.take_back = _outlined(_("Take back last card"), self._act("undo_play"), size=15)
        self.take_back.height = MIN_TAP
        self.actions = ft.Row([self.take_back, self.confirm_button], spacing=8)
        """The bottom bar: one row, so the panel keeps the height of a second one."""
        self._kept: list[ft.Control] = [
            self.title,
            self.points_text,
            self.giver_row,
            self.giver_text,
            self.someone,
            self.other_receiver,
            *(key.control for key in self.receivers.values()),
            self.receiver_veil.cover,
            self.receiver_row,  # disabled under the raised veil (its receivers then read as unavailable)
            self.veil.cover,
            self.pad_keys,  # disabled under the raised veil (its keys then read as unavailable)
            *(key.control for key in self.keys.values()),
            self.take_back,
            self.confirm_button,
            self.vegas_text,
            self.quick_preview,
            self.conduct_button,
            self.prompt_text,
        ]
        """The controls made once and changed in place: after a tap, those whose look changed are sent, in this
        order, one message each: the prompt last, so that when it has moved on the whole panel has."""
        around = {id(self.giver_text): self.giver_row, id(self.veil.cover): self.pad, id(self.pad_keys): self.pad}
        around |= {id(self.other_receiver): self.giver_row, id(self.someone): self.header}
        around |= {id(self.title): self.header}
        around |= {id(self.vegas_text): self.vegas_box}
        receivers = (*(key.control for key in self.receivers.values()), self.receiver_veil.cover, self.receiver_row)
        around |= {id(control): self.receiver_veil.control for control in receivers}
        around |= {id(key.control): self.pad for key in self.keys.values()}
        around |= {id(c): self.actions for c in (self.take_back, self.confirm_button)}
        self._homes = [around.get(id(control), control) for control in self._kept]
        """The part of the panel (or the bottom bar's actions) each kept control is shown in."""

    def _build_receivers(self) -> None:
        """The receivers (one key a player, "To Ann (12)"), their row, and the veil over it, made once."""
        _ = self.words.gettext
        entry = self.entry
        self.receivers = {
            name: _receiver(_("To {name} ({points})").format(name=name, points=0), self._act("choose_receiver", name))
            for name in entry.players
        }
        self.receiver_row = isolated(
            ft.ResponsiveRow([key.control for key in self.receivers.values()], spacing=6, run_spacing=4)
        )
        self.receiver_veil = VeilOver(self.receiver_row, self._receivers_refused)
        """Once every card of the hand is played, the receivers are veiled as one (dimmed, each read as unavailable,
        a tap refused with "every card of this hand has been played: confirm the hand"), where each was greyed out
        on its own: the Confirm then brought all ten back in its reply, each key's node, border and colour (33 of
        its 48 changes), and the phone built each again before it showed the new standings."""
        self.receiver_veil_later = VeilLater(self.receiver_veil, self._lock, self._send)
        """Raises it after the reply of the hand's last card; lowers its cover in the Confirm's reply and the row's
        ``disabled`` after it."""

    def _pot_before(self) -> int | None:
        """The Vegas pot before this hand, found once per version of the session (it cannot change within a
        hand): the session's result for the next hand; for a correction, the record before it scored once."""
        if self.entry.options.vegas_unit_cents is None:
            return None
        session = self.ectx.session
        result = session.result if self.ectx.target.is_new else session.preview(self.ectx.record)
        return int(getattr(result, "pot", 0) or 0)

    @property
    def entry(self) -> BinEntry:
        return self.ctl.state.entry

    def follow(self, record: dict[str, Any]) -> bool:
        """Follow a change of the session in place (the next hand after a confirm, an undo, another tab's entry):
        the hand kept as a draft if it still fits, else an empty hand. Players and house rules never change within
        a game, so the kept controls still fit. Inside a page event the hand is drawn after the reply
        (:func:`~views.table.entry.after_reply`); a tap meanwhile acts on the new hand."""
        self.ectx.record = record
        try:
            self.ctl.reopen(record)
        except ScoringError:
            return False
        self.pot_before = self._pot_before()
        self.conduct_open = False
        self.pending = None
        self.giver_open = False
        # the Confirm's reply is the new standings: the next hand follows in a message of its own; keys and
        # receivers are isolated: the screen's update of the panel skips them
        self.next_hand.follow()
        return True

    # -- state ----------------------------------------------------------------------------------------------

    def change(self, make: Callable[[], BinEntry], *, redraw: bool = True) -> None:
        """Apply one change (a message instead when the entry refuses it; nothing is lost)."""
        with self._lock:
            try:
                self.ctl.change(lambda state: state.but(make()))
            except (EntryError, ScoringError) as exc:
                self.ectx.report(f"{said(self.words, exc)}.")
                return
            self.ectx.report(None)
        if redraw:
            self._send(self.redraw())

    def _refused(self, key: PadKey) -> Callable[[Any], None]:
        """A tap on the veiled pad: no value is played, whichever key was under it, and the reason is said; never
        ``key``'s value in its place, whatever the state (:func:`~views.table.entry.cover_refusal`)."""

        def handler(_: Any) -> None:
            with self._lock:
                self.ectx.report(f"{cover_refusal(self.words, lambda: self.entry.choose_value(key))}.")

        return handler

    def _receivers_refused(self, _: Any) -> None:
        """A tap on the veiled receivers: nobody gets a card, and the reason is said (every card is played), or
        that the tap came too early when the next hand has begun (:func:`~views.table.entry.cover_refusal`)."""
        with self._lock:
            entry = self.entry
            anyone = next((name for name in entry.players if entry.can_receive(name)), entry.players[0])
            self.ectx.report(f"{cover_refusal(self.words, lambda: entry.choose_receiver(anyone))}.")

    def _act(self, method: str, *args: Any) -> Callable[[Any], None]:
        """A tap handler calling ``BinEntry.<method>(*args)`` on the entry as it is at the time of the tap."""

        def handler(_: Any) -> None:
            self.change(lambda: getattr(self.entry, method)(*args))

        return handler

    # -- drawing --------------------------------------------------------------------------------------------

    def _mode_row(self, live: bool) -> ft.Control:
        """The way of entering the hand: "Quick totals" during live play (beside "Someone else plays"); in the quick
        form "Live play" and the chosen "Quick totals" (made once each)."""
        row = self._mode_rows.get(live)
        _ = self.words.gettext
        if row is None:
            quick = self._act("set_mode", EntryMode.QUICK)
            if live:
                row = _button(_("Quick totals"), quick, size=14, height=MIN_TAP)
            else:
                row = ft.Row(
                    [
                        _button(_("Live play"), self._act("set_mode", EntryMode.LIVE), size=14, height=MIN_TAP),
                        _button(_("Quick totals"), quick, primary=True, size=14, height=MIN_TAP),
                    ],
                    spacing=6,
                )
            self._mode_rows[live] = row
        return row

    def redraw(self) -> list[ft.Control]:
        """Bring the panel up to the hand, in place, and return what to send: the kept controls whose look
        changed, or the panel's body when its parts came or went (a Joker's sign, the quick form, the conduct
        rows). The controls a tap does not change are the same objects as before, so a tap sends only the texts
        and states that changed (never more as the game grows). It brings the whole hand: a next hand still waiting
        to be drawn (:meth:`follow`) is dropped."""
        self.next_hand.drawn()
        before = [_look(control) for control in self._kept]
        shown_before = [row.visible for row in self._rows]
        entry = self.entry
        live = entry.mode is EntryMode.LIVE
        _ = self.words.gettext
        title = _("Hand {n}") if self.ectx.target.is_new else _("Correct hand {n}")
        self.title.value = title.format(n=entry.number)
        mode_row = self._mode_row(live)
        switched = self.mode_holder.content is not mode_row
        self.mode_holder.content = mode_row
        parts: list[ft.Control] = [self.header]
        parts += self._live_parts() if live else self._quick_parts()
        parts += self._vegas_parts()
        parts += self._conduct_parts()
        actions = self._actions()
        changed: list[ft.Control] = [self.mode_holder] if switched else []
        if [id(c) for c in self.ectx.dock.controls] != [id(actions)]:
            docked(self.ectx, actions)
            changed.append(self.ectx.dock)
        if [id(c) for c in self.body.controls] != [id(c) for c in parts]:
            self.body.controls = parts
            changed.append(self.body)
        else:  # the rows shown or hidden (sent before the kept controls in them)
            changed += [row for row, was in zip(self._rows, shown_before, strict=True) if row.visible != was]
        shown = self._shown_kept(parts)
        changed += [c for c, look in zip(self._kept, before, strict=True) if _look(c) != look and id(c) in shown]
        return changed

    def _shown_kept(self, parts: list[ft.Control]) -> set[int]:
        """The ids of the kept controls on screen: those whose part (or the bottom bar) is shown."""
        shown = {id(part) for part in (*parts, *self.ectx.dock.controls)}
        return {id(control) for control, home in zip(self._kept, self._homes, strict=True) if id(home) in shown}

    def _send(self, changed: list[ft.Control]) -> None:
        """Send just these controls, as the screen sends a panel's changes (an explicit update also spares the
        page Flet's automatic whole-page diff)."""
        if changed:
            self.ectx.send(changed)

    def _prompt(self) -> str:
        entry = self.entry
        giver = entry.giver
        _ = self.words.gettext
        if giver is None:
            return _("Every card is played: confirm the hand")
        if entry.joker_waiting:
            said_now = _("Joker from {giver} to {receiver}: plus or minus {value}?")
            return said_now.format(giver=giver, receiver=entry.receiver, value=JOKER_VALUE)
        if entry.receiver is None:
            return _("{giver} plays: who gets the card?").format(giver=giver)
        return _("{giver} plays to {receiver}: which card?").format(giver=giver, receiver=entry.receiver)

    def _live_parts(self) -> list[ft.Control]:
        entry = self.entry
        prompt = self._prompt()
        giver = entry.giver
        self.prompt_text.value = prompt
        _ = self.words.gettext
        self.prompt_text.semantics_label = _("Next: {prompt}").format(prompt=prompt)
        points = entry.running_points()
        # the receivers carry the card points: a large table, or a short screen, leaves the line out (TALL_SCREEN),
        # and a line left out is not brought up to date (nor sent) until it is shown again
        self._drawn_layout = self._layout()
        self.points_text.visible = self._drawn_layout[1]
        if self.points_text.visible:
            so_far = ", ".join(f"{name} {value}" for name, value in points.items())
            summary = _("Card points so far: {points}").format(points=so_far)
            self.points_text.value = summary
            self.points_text.semantics_label = summary
        parts: list[ft.Control] = [self.prompt_text, self.giver_row, self.points_text]
        # hidden, not left out, once every card is played: the next hand shows it again with two values sent
        self.giver_text.visible = giver is not None
        if giver is not None:
            left = entry.cards_left(giver)
            left_text = self.words.ngettext("{name} has {n} card left.", "{name} has {n} cards left.", left)
            self.giver_text.value = left_text.format(name=giver, n=left)
        choosing = entry.receiver is None or entry.joker_waiting
        if self.giver_open:
            parts.append(
                ft.Row(
                    [
                        _button(
                            _("{name} plays").format(name=name),
                            self._give_handler(name),
                            disabled=not entry.can_give(name),
                            primary=name == giver,
                            size=15,
                        )
                        for name in entry.players
                    ],
                    wrap=True,
                )
            )
        for name, receiver_key in self.receivers.items():
            _update_receiver(
                receiver_key,
                label=_("To {name} ({points})").format(name=name, points=points[name]),
                # once every card is played, the veil says so for all of them (below)
                disabled=(giver is not None and not entry.can_receive(name)) or entry.joker_waiting,
                selected=entry.receiver == name,
            )
        receiver = entry.receiver
        swaps = self._drawn_layout[0]  # the page's size, read once a draw (above)
        swapped = swaps and not choosing and receiver is not None  # the pad in the receivers' place
        self.someone.visible = giver is not None and not swapped
        self.other_receiver.visible = swapped
        if swapped and receiver is not None:  # the giver's line says who gets the card, and their points
            _update(self.other_receiver, disabled=False)
            told = _("{receiver}: {points} card points.").format(receiver=receiver, points=points[receiver])
            self.giver_text.value = f"{self.giver_text.value} {told}"
        # The receivers and the pad stay in the panel, shown or hidden: a tap that swaps them (a large table's pad
        # in the receivers' place) sends two visibilities, not both rows' every key again. The Joker's signs come
        # and go (rare, and their buttons share the Joker keys' words).
        self.receiver_veil.control.visible = not swapped
        self.receiver_veil_later.want(giver is None)
        show_pad = not entry.joker_waiting and not (swaps and choosing)  # a large table's: with the receiver
        if show_pad:
            ready = entry.receiver is not None and giver is not None
            # the cover and the pad's grid are sent as their look changed (_look); raised after the reply of the
            # tap that plays the card (its text first: VeilLater), lowered with the tap on who gets it
            self.veil_later.want(not ready)
            # under a raised veil (a card just played, a new hand) the keys cannot be tapped: which are greyed out
            # follows the reply, as the veil does; with the veil lowered, at once
            if ready:
                self._keys_later.cancel()
            if ready or not self._keys_later.want():
                self._grey_keys()
        self.pad.visible = show_pad
        signs = [self.sign_row] if entry.joker_waiting else []
        return [*parts, self.receiver_veil.control, *signs, self.pad]

    def _grey_keys(self) -> list[ft.Control]:
        """Grey out each key whose cards are all played (both of a value, the Joker) and bring back the others;
        returns the keys whose look changed."""
        entry = self.entry
        return [tap.control for key, tap in self.keys.items() if tap.set_enabled(entry.can_value(key))]

    def _grey_keys_later(self) -> None:
        """After a tap's reply (under the lock of taps): the keys greyed out as the hand now is, each key that
        changed sent on its own. A new hand brings back every key of the pad: 26 keys built again by the phone,
        which in the Confirm's own reply held its new standings back (the veil over them dims them meanwhile, and
        takes their taps)."""
        if self.pad.visible and self.pad in self.body.controls:  # (else greyed out when the pad is shown)
            self._send(self._grey_keys())

    def _layout(self) -> tuple[bool, bool]:
        """What the page's size decides: whether the value pad takes the receivers' place (:meth:`_swaps`), and
        whether the line of card points so far is shown (not on a large table, nor on a short screen)."""
        height = page_height(self.ectx)
        return self._swaps(height), not self.large and (height is None or height >= TALL_SCREEN)

    def resized(self) -> None:
        """The page changed size (a phone turned): when that changes the layout (:meth:`_layout`), the hand is
        drawn again for it now, as after a tap, instead of at the next tap."""
        with self._lock:
            if self._drawn_layout is None or self._layout() == self._drawn_layout:
                return
        self._send(self.redraw())

    def _swaps(self, height: float | None) -> bool:
        """Whether the value pad takes the receivers' place (:data:`LARGE_TABLE`): a large table on a page less than
        :data:`TALL_SCREEN` tall, or of a height not known (a page not yet sized); ``height`` is the page's
        (:func:`~views.table.entry.page_height`)."""
        return self.large and (height is None or height < TALL_SCREEN)

    def _key(self, key: PadKey) -> TapKey:
        """A value-pad key: the rank, then its colour's two suits, each in its suit colour (four-colour setting)."""
        shown = rank_label(self.words, key.rank) if not key.is_joker else joker_key_label(self.words, key)
        spans = [ft.TextSpan(shown)]
        spans += [ft.TextSpan(symbol) for symbol in key.label[len(key.rank) :]] if not key.is_joker else []
        if key.is_joker:
            spans[0].style = ft.TextStyle(color=ft.Colors.PURPLE_400)
        else:
            rank, *suits = spans
            rank.style = ft.TextStyle(color=self._colour(key), weight=ft.FontWeight.BOLD)
            for span in suits:
                span.style = ft.TextStyle(color=suit_colour_value(str(span.text), self.four_colour))
        label = f"{shown}{key.label[len(key.rank) :]}" if not key.is_joker else shown
        text = ft.Text(spans=spans, size=15, no_wrap=True, semantics_label=label)
        return TapKey(text, self._act("choose_value", key), col=2 if key.is_joker else 1)

    def _colour(self, key: PadKey) -> str:
        if key.is_joker:
            return ft.Colors.PURPLE_400
        return suit_colour_value("♥" if key.red else "♠", self.four_colour)

    def _quick_parts(self) -> list[ft.Control]:
        entry = self.entry
        self.someone.visible = False
        fields: list[ft.Control] = []
        for name in entry.score_players():
            label = self.words.gettext("{name}'s card points").format(name=name)
            fields.append(
                ft.TextField(
                    label=label,
                    tooltip=label,
                    value=entry.score_text(name),
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=self._typed_handler(name),
                    height=MIN_TAP if self.large else TAP + 8,
                    col=QUICK_COLUMNS if self.large else {"xs": 12, "sm": 6},
                    text_size=18 if self.large else 20,
                    dense=self.large,
                    label_style=ft.TextStyle(size=12, overflow=ft.TextOverflow.ELLIPSIS) if self.large else None,
                    content_padding=ft.Padding.symmetric(horizontal=6, vertical=12) if self.large else None,
                )
            )
        self._update_quick_preview()
        if self.large:  # what is entered and what is still needed above the fields, where the eye is
            self.quick_preview.size = 13
            return [self.quick_preview, ft.ResponsiveRow(fields, spacing=6, run_spacing=6)]
        return [
            ft.Text(self.words.gettext("Type each player's card points for the hand (minus allowed)."), size=16),
            ft.ResponsiveRow(fields, spacing=8, run_spacing=8),
            self.quick_preview,
        ]

    def _typed_handler(self, name: str) -> Callable[[Any], None]:
        return lambda event: self._typed(name, str(event.control.value or ""))

    def _typed(self, name: str, text: str) -> None:
        self.change(lambda: self.entry.set_score(name, text), redraw=False)
        self._update_quick_preview()
        # only what changed is sent: the running line, the Vegas line and the Confirm in the bottom bar
        self._send([self.quick_preview, self.vegas_text, self.confirm_button])

    def _update_quick_preview(self) -> None:
        """The quick form's running line, the Vegas line and the confirm button, without rebuilding the fields."""
        entry = self.entry
        _ = self.words.gettext
        gap = entry.missing_note()
        left = (
            _("Still needed: {gap}.").format(gap=self.words.note(gap))
            if gap is not None
            else _("Ready: confirm the hand.")
        )
        text = _("Entered: {typed}. {left}").format(typed=entry.typed_summary(), left=left)
        # a large table's fields show what is entered: the line says what is still needed (read out whole)
        self.quick_preview.value = left if self.large else text
        self.quick_preview.semantics_label = text
        self._update_vegas()
        self.confirm_key.set_enabled(entry.can_confirm())

    def _update_vegas(self) -> None:
        line = self.entry.vegas_line(self.pot_before)
        if line is None:
            return
        payments, pot = line
        unit = self.entry.options.vegas_unit_cents or 0
        fmt = self.money
        ranked = self.entry.ranked
        pays = ", ".join(f"{name} {money(cents, fmt)}" for name, cents in payments.items() if name in ranked)
        text = self.words.gettext(
            "Vegas ({unit} a point): as it stands, this hand {pays}. Pot after this hand: {pot}."
        ).format(unit=money(unit, fmt), pays=pays, pot=money(pot, fmt))
        self.vegas_text.value = text
        self.vegas_text.semantics_label = text

    def _vegas_parts(self) -> list[ft.Control]:
        if self.entry.options.vegas_unit_cents is None:
            return []
        self._update_vegas()
        return [self.vegas_box]

    def _conduct_parts(self) -> list[ft.Control]:
        entry = self.entry
        _ = self.words.gettext
        parts: list[ft.Control] = []
        given = [(name, action) for name, action in entry.conduct]
        if given:
            parts.append(
                ft.Row(
                    [
                        _button(
                            (
                                _("Take back: {name} warned")
                                if action is Action.WARN
                                else _("Take back: {name} removed")
                            ).format(name=name),
                            self._act("take_back_conduct", name),
                            size=15,
                        )
                        for name, action in given
                    ],
                    wrap=True,
                )
            )
        parts.append(self.conduct_button)
        if self.pending is not None:
            name, action = self.pending
            try:
                text = entry.conduct_text(name, action, self.words)
            except (EntryError, ScoringError) as exc:
                text = f"{said(self.words, exc)}."
            confirm = _("Confirm: warn {name}") if action is Action.WARN else _("Confirm: remove {name}")
            parts.append(
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(text, size=16, semantics_label=text),
                            ft.Row(
                                [
                                    _button(confirm.format(name=name), lambda _: self._give_conduct(), primary=True),
                                    _button(self.words.gettext("Cancel"), lambda _: self._pick_conduct(None)),
                                ],
                                wrap=True,
                            ),
                        ]
                    ),
                    bgcolor=ft.Colors.ERROR_CONTAINER if action is Action.REMOVE else ft.Colors.SECONDARY_CONTAINER,
                    padding=ft.Padding.all(10),
                    border_radius=8,
                )
            )
        elif self.conduct_open:
            rows: list[ft.Control] = []
            for name in entry.active:
                rows.append(
                    ft.Row(
                        [
                            ft.Text(name, size=18, width=90),
                            _button(
                                _("Warn {name}").format(name=name),
                                self._pick_handler(name, Action.WARN),
                                disabled=not entry.can_conduct(name, Action.WARN),
                                size=15,
                            ),
                            _button(
                                _("Remove {name}").format(name=name),
                                self._pick_handler(name, Action.REMOVE),
                                disabled=not entry.can_conduct(name, Action.REMOVE),
                                size=15,
                            ),
                        ],
                        wrap=True,
                    )
                )
            parts.append(ft.Column(rows, spacing=4))
        return parts

    def _actions(self) -> ft.Control:
        self.confirm_key.set_enabled(self.entry.can_confirm())
        live = self.entry.mode is EntryMode.LIVE
        self.take_back.visible = live
        if live:
            _update(self.take_back, disabled=not self.entry.plays and not self.entry.joker_waiting)
        return self.actions

    # -- taps -----------------------------------------------------------------------------------------------

    def _unchoose(self, _: Any = None) -> None:
        """Back to the receivers (the chosen one tapped again)."""
        receiver = self.entry.receiver
        if receiver is not None:
            self.change(lambda: self.entry.choose_receiver(receiver))

    def _toggle_giver(self) -> None:
        self.giver_open = not self.giver_open
        self._send(self.redraw())

    def _give_handler(self, name: str) -> Callable[[Any], None]:
        return lambda _: self._give(name)

    def _pick_handler(self, name: str, action: Action) -> Callable[[Any], None]:
        return lambda _: self._pick_conduct((name, action))

    def _give(self, name: str) -> None:
        self.giver_open = False
        self.change(lambda: self.entry.choose_giver(name))

    def _toggle_conduct(self) -> None:
        self.conduct_open = not self.conduct_open
        self.pending = None
        self._send(self.redraw())

    def _pick_conduct(self, pick: tuple[str, Action] | None) -> None:
        self.pending = pick
        if pick is None:
            self.conduct_open = False
        self._send(self.redraw())

    def _give_conduct(self) -> None:
        if self.pending is None:
            return
        name, action = self.pending
        self.pending = None
        self.conduct_open = False
        self.change(lambda: self.entry.give_conduct(name, action))

    def confirm(self, _: Any = None) -> None:
        """Confirm the hand. A second tap within the moment before the next hand is drawn (*Confirm hand* still
        looks enabled until then: a quick double tap) is the hand just confirmed, not the empty next one: it draws
        the next hand now, and says nothing."""
        with self._lock:
            if self.next_hand.repeated(self.ectx.report):
                return
            try:
                self.ctl.confirm(self.ectx.submit)  # the draft is cleared first, and kept again if refused
            except EntryError as exc:
                self.ectx.report(f"{said(self.words, exc)}.")


def build_entry(ectx: EntryContext) -> BinPanel:
    """The Bargain Bin entry panel for the next hand or a correction."""
    return BinPanel(ectx)


def extras(
    session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
) -> list[tuple[str, str]]:
    """Under the standings: the pot and the last hand's payments (Vegas), removed players."""
    return pot_lines(session.result, money, words)


def build_end(session: TableSession, money: MoneyFormat | None = None, words: Words | None = None) -> ft.Control | None:
    """The end of a Vegas game: payouts (refunds when cancelled) and the settle-up (fewest transfers). Why the game
    ended is the screen's banner (the verdict)."""
    result = session.result
    words = words or Words.of("en")
    _ = words.gettext
    lines = money_lines(result, money)
    if not lines:
        return None
    headline = end_headline(result, money, words)
    moves = transfers(result, money, words)
    settle = moves or [_("Nobody owes anybody anything.")]
    body: list[ft.Control] = [
        ft.Text(_("Money"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=_("Money")),
        ft.Text(headline, size=17, semantics_label=headline),
        *[ft.Text(line.text_in(words), size=16, semantics_label=line.text_in(words)) for line in lines],
        ft.Text(
            _("Settle up (pot kept in the app): who pays whom"),
            theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
            semantics_label=_("Settle up"),
        ),
        *[ft.Text(move, size=18, weight=ft.FontWeight.BOLD, semantics_label=move) for move in settle],
    ]
    return panel(ft.Column(body, spacing=6))


PANEL = TableUI(key="bargain-bin", entry=build_entry, extras=extras, end=build_end)
