"""The table screen (``/continue/<id>``) and the correction screen (``/continue/<id>/hand-<n>``; also
``playoff-<n>``, ``tiebreak-<n>``, ``sudden-death-<n>`` for the extra parts of a tied game).

The table screen is laid out for a portrait phone first: a compact standings strip at the top, the game's entry
panel under it (the next hand or play-off hand), and the panel's Confirm in a bar at the bottom, always on screen;
the full scoreboard and the hand list are one tap away ("Scoreboard and hands"), shown in the panel's place, and the
hand one tap back ("Back to the hand"): the hand fits its screen and nothing under it scrolls. From
:data:`~views.widgets.WIDE` pixels (a landscape tablet, a desktop) the panel and the scoreboard stand side by side;
a correction and a finished game show the scoreboard under the panel.
At the end the banner shows the winners and the verdict (why, as :mod:`scoring` decided it).

The controls are made once per screen and updated in place after every change (Flet matches controls by
identity, so a confirmed hand sends the changed texts and the new hand-list row, not the whole table).

It follows its session: a change made in
another tab (or on another phone, later) redraws it. Undo and Redo sit in the app bar; a failed save shows a
banner with "Retry save" while the change stays in memory.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import flet as ft

from companion.entry import entry_word
from companion.i18n import N_
from companion.session import HOST_DEVICE, Edit, SaveFailedError, TableSession
from companion.storage_types import StorageError
from scoring import Part, ScoringError, Step, find_game, part_for_step, record_before
from views.context import ViewContext
from views.edit_host import EditHost
from views.flet_private import in_page_event
from views.table.entry import (
    EntryContext,
    EntryTarget,
    FollowingPanel,
    Panel,
    ResizingPanel,
    after_reply,
    ancestors,
    refresh,
    said,
    send_changes,
    sent_by_hand,
)
from views.table.games import find_panel
from views.table.scoreboard import HandLine, Scoreboard, StandingsStrip, VerdictBanner, hand_list, line_count
from views.widgets import (
    APPBAR_TAP,
    MIN_TAP,
    WIDE,
    app_bar_title,
    back_button,
    big_button,
    empty_state,
    icon_button,
    isolated,
)

_log = logging.getLogger(__name__)

CORRECTION_HINT = N_(
    "This is what was entered. Change what was wrong and confirm: everything after it is worked out again."
)
HAND_ROWS = 12
"""Hand-list rows shown (newest first) until *Show all* is tapped: what a Confirm sends and the page redraws stays
the same size however long the game (every hand is one tap away, and in History)."""


def open_session(ctx: ViewContext, session_id: str) -> TableSession:
    """The live session, or :class:`ValueError` saying why it cannot be shown (the shell shows "Not found")."""
    try:
        return ctx.services.sessions.open(session_id)
    except (StorageError, ScoringError) as exc:
        raise ValueError(f"The game {session_id} cannot be opened: {exc}") from None


class TableView:
    """One table screen: the body is rebuilt in place after every change of the session."""

    def __init__(
        self,
        ctx: ViewContext,
        session: TableSession,
        target: EntryTarget | None = None,
        note: ft.Control | None = None,
    ) -> None:
        self.ctx = ctx
        self.note = note
        """A correction's note under its panel (History's: the entry as it was entered)."""
        self.session = session
        self.target = target
        """``None`` on the table screen; the entry being corrected on a correction screen."""
        self.game = find_game(session.game)
        self.ui = find_panel(session.game)
        self.words = words = ctx.words
        _ = words.gettext
        self.message = ft.Text("", color=ft.Colors.ERROR, size=16, visible=False)
        self.draft_notice = ft.Text("", size=14, italic=True, visible=False)
        """One line while the hand being entered cannot be written to disk (a full disk): kept in memory only."""
        self.drafts_changed(session.draft_write_error)
        self.save_area = ft.Column(visible=False)
        self.title: ft.Text | None = None
        """The app bar's title: the game's name, and over it "Saving…" while this screen's change is shown and
        not on disk yet (:meth:`_submit`: a tap's reply leaves before the change is written). In the app bar, whose
        height is fixed, the line comes and goes without moving anything else: a line in the body made the phone
        lay out the whole scrolling part again, twice a Confirm."""
        self._title = ""
        self._saving = False
        """This screen made a change that is written after its reply (:attr:`Edit.saved_later`)."""
        self._want_title = False
        self.strip = StandingsStrip(session.players, words)
        self.board = Scoreboard(words)
        isolated(self.strip.control)  # changed only by a change of the session: sent by show(), not by every tap
        isolated(self.board.control)
        self.banner = VerdictBanner(words)
        self.hands = ft.Column(spacing=4)
        self.hands_title = ft.Text(_("Hands"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM)
        self.entry_area = ft.Column(spacing=12)
        self.dock = ft.Column(spacing=6)
        """The entry panel's actions (its Confirm): a bar at the bottom of the screen, outside the scrolling part."""
        self.scroller = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)
        self.body = ft.Column(spacing=6, expand=True)
        self.rendered = -1
        self.panel_version = -1
        """The version of the game the entry panel shows: what its Confirm is made on (a hand entered on an older
        version is refused with "someone else changed this game", never added on top of a newer one)."""
        self._draw_state = threading.Lock()
        """Held a moment only, for the fields below: one thread draws at a time, and a thread that finds another
        drawing leaves what it wants drawn to that one instead of waiting for it (a tap's handler holds its panel's
        lock while the session's listener, drawing, may need that lock: neither waits for the other)."""
        self._drawer: int | None = None
        self._want_show = False
        self._want_force = False
        self._want_all_hands = False
        self._want_board = False
        self._board_waiting: asyncio.TimerHandle | None = None
        """The scoreboard and the hand list waiting to be brought up to date after a tap's reply (:meth:`_board`)."""
        self._board_drawn = False
        self._queued: list[ft.Control] = []
        self._panels: dict[EntryTarget, Panel] = {}
        """The entry panel last built, kept when its game can redraw it in place (:class:`FollowingPanel`)."""
        self._tiles: dict[Any, ft.Control] = {}
        self._all_hands = False
        """Whether the whole hand list is shown (*Show all*), not just the newest :data:`HAND_ROWS`."""
        self._board_open = False
        """On a phone: the scoreboard and hands are shown in place of the hand (:meth:`_one_at_a_time`)."""
        self._want_layout = False
        self.more_hands = ft.OutlinedButton(content="", on_click=self._show_all_hands, height=48, visible=False)
        """Hand-list rows by what they show, reused from one redraw to the next."""
        self._view: ft.View | None = None
        self._showing = False
        self._opened: list[ft.Control] = []
        """What the entry panel changed while :meth:`show` redraws (sent with the rest of the redraw)."""
        self._making: int | None = None
        """The thread making this screen's edit, while it does: the session's one word of the change comes back on
        it (:meth:`follow`), and the screen redraws there and then, before the tap's handler returns."""
        self._following = False
        self.edits = EditHost(session, report=self.report, words=words)
        """Every change this screen asks for (a hand, a correction, undo, redo) goes through here."""
        self.undo_button = icon_button(ft.Icons.UNDO, _("Undo"), self.undo, size=APPBAR_TAP)
        self.redo_button = icon_button(ft.Icons.REDO, _("Redo"), self.redo, size=APPBAR_TAP)
        self._layout()

    # -- building -------------------------------------------------------------------------------------------

    def view(self) -> ft.View:
        title = (
            self.game.name
            if self.target is None
            else self.words.gettext("Correct {what}").format(what=self.target.label_in(self.words, self.session.game))
        )
        ctx = self.ctx
        self._title = title
        self.title = app_bar_title(title, size=18)
        appbar = ft.AppBar(
            title=self.title,
            leading=back_button(ctx),
            leading_width=APPBAR_TAP,
            title_spacing=4,
            automatically_imply_leading=False,
            toolbar_height=56,
            actions=[self.undo_button, self.redo_button, self._share_button()] if self.target is None else [],
        )
        self.rebuild()
        self._view = ft.View(
            route=ctx.path,
            appbar=appbar,
            controls=[self.body],
            padding=ft.Padding.symmetric(horizontal=8, vertical=6),
        )
        return self._view

    def _share_button(self) -> ft.Control:
        """Opens the Share screen (address, QR code, PIN) for this game: phones follow it at ``/live``."""
        return icon_button(
            ft.Icons.SHARE,
            self.words.gettext("Share"),
            lambda _: self.ctx.navigate(f"{self.ctx.path}/share"),
            size=APPBAR_TAP,
        )

    def _layout(self) -> None:
        """The screen's frame, made once: strip, scrolling part (panel, then scoreboard and hands; side by side
        when wide), message and the bottom bar."""
        board_key = "scoreboard"
        _ = self.words.gettext
        self.board_button = ft.Semantics(  # narrow beside the strip: its room is the names'
            # the label is the icon's own, merged into the button's node (as in views.widgets.icon_button): the node
            # a screen reader names is the one that takes the tap
            content=ft.IconButton(
                icon=ft.Icon(ft.Icons.LEADERBOARD, semantics_label=_("Scoreboard and hands")),
                tooltip=None,
                on_click=self._to_board,
                width=40,
                height=MIN_TAP,
            ),
        )
        self.back_button = ft.TextButton(
            content=_("Back to the hand"), icon=ft.Icons.ARROW_UPWARD, on_click=self._to_entry, height=48
        )
        self.board_column = board_column = ft.Column(
            [self.back_button, self.board.control, self.hands],
            spacing=12,
            key=board_key,
            col={"xs": 12, "lg": 5},
        )
        self._board_key = board_key
        self.entry_column = ft.Column([self.banner.control, self.entry_area], spacing=12, col={"xs": 12, "lg": 7})
        columns = ft.ResponsiveRow(
            [self.entry_column, board_column],
            spacing=12,
            run_spacing=12,
            breakpoints={"xs": 0, "sm": 576, "md": 768, "lg": WIDE, "xl": 1200, "xxl": 1400},
        )
        self.scroller.controls = [columns]
        if self.target is None:
            top = ft.Row(
                [ft.Container(self.strip.control, expand=True), self.board_button],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=4,
            )
            self.body.controls = [self.save_area, top, self.scroller, self.message, self.draft_notice, self.dock]
        else:
            self.body.controls = [self.save_area, self.scroller, self.message, self.draft_notice, self.dock]

    def _one_at_a_time(self) -> bool:
        """Whether the screen shows the hand or the scoreboard, one at a time: on the table screen of a phone (a
        page narrower than :data:`~views.widgets.WIDE`) while a hand is entered. The hand then fits its screen
        and nothing scrolls under the player's thumb (a scrolling page costs each tap's first milliseconds with a
        screen reader on: the browser lays its part of the page out again before it hands on the tap). A page
        whose width is not known yet, a correction and a finished game show both."""
        width = getattr(self.ctx.page, "width", None)  # as its client last said (none before it did)
        return (
            self.target is None
            and isinstance(width, int | float)
            and 0 < width < WIDE
            and self.session.step is not Step.FINISHED
        )

    def _show_board_or_entry(self) -> bool:
        """Show the hand, the scoreboard or both (:meth:`_one_at_a_time`); whether anything changed."""
        one = self._one_at_a_time()
        board = not one or self._board_open
        entry = not one or not self._board_open
        changed = (self.board_column.visible, self.entry_column.visible, self.dock.visible) != (board, entry, entry)
        self.board_column.visible = board
        self.entry_column.visible = entry
        self.dock.visible = entry
        self.back_button.visible = one  # both shown (a wide page, a finished game): no hand to go back to
        return changed

    def _switch(self, board_open: bool) -> bool:
        """Open or close the scoreboard and draw what that changes (:meth:`_draw`); whether the screen shows one
        at a time."""
        with self._draw_state:
            self._board_open = board_open
            self._want_layout = True
        self._draw()
        return self._one_at_a_time()

    async def _to_board(self, _: Any = None) -> None:
        if self._switch(True):
            await self.scroller.scroll_to(offset=0, duration=0)
        else:
            await self.scroller.scroll_to(scroll_key=self._board_key, duration=200)

    async def _to_entry(self, _: Any = None) -> None:
        self._switch(False)
        await self.scroller.scroll_to(offset=0, duration=0 if self._one_at_a_time() else 200)

    def rebuild(self) -> None:
        """Bring every part up to the session's version, in place (the frame and the kept controls stay)."""
        session = self.session
        self.rendered = session.version
        self._set_undo_state()
        if session.save_error is not None:
            self.save_area.controls = [self._save_banner(session.save_error)]
            self.save_area.visible = True
        elif self.save_area.visible:
            self.save_area.controls = []
            self.save_area.visible = False
        self._say_saving(self._saving and session.saving)
        if self.target is None:
            self._table_parts()
        else:
            self._correction_parts(self.target)
        self._show_board_or_entry()

    def _set_undo_state(self) -> None:
        for holder, allowed, what in (
            (self.undo_button, self.session.can_undo(), self.session.undo_description),
            (self.redo_button, self.session.can_redo(), self.session.redo_description),
        ):
            button = holder.content if isinstance(holder, ft.Semantics) else None
            if isinstance(button, ft.IconButton):
                button.disabled = not allowed
                _ = self.words.gettext
                told = _("Undo: {what}") if holder is self.undo_button else _("Redo: {what}")
                button.tooltip = told.format(what=what) if what else None

    def _table_parts(self) -> None:
        session = self.session
        result = session.result
        money = self.ctx.settings.money_shown
        ui = self.ui
        self.strip.show(result)
        self._board()
        self.banner.show(result)
        step = session.step
        if step is Step.FINISHED:
            end = ui.end(session, money, self.words) if ui is not None and ui.end is not None else None
            self._set(self.entry_area, [*self._night_note(end), end] if end is not None else [])
            self._set(
                self.dock,
                [
                    ft.Row(
                        [
                            big_button(
                                self.words.gettext("Home"),
                                lambda _: self.ctx.navigate("/"),
                                icon=ft.Icons.HOME,
                                primary=True,
                            )
                        ]
                    )
                ],
            )
            self._panels = {}
        else:
            target = EntryTarget(part_for_step(step))
            self._set(self.entry_area, [self._entry(target)])

    def _board(self) -> None:
        """The scoreboard and the hand list, brought up to date after the reply of a tap (in a message of their
        own, :func:`~views.table.entry.after_reply`): on a phone they are below the entry panel, and the reply of
        a Confirm, which shows the new standings at the top of the screen (Bargain Bin's and Jokers Kill's panels
        draw the next hand after it too), is drawn sooner without them (a throttled phone's frame builds every
        text of the board and every row of the list again). The first drawing, and a redraw outside a tap (another
        device's change), have them with the rest."""
        with self._draw_state:
            if self._board_waiting is not None:
                self._board_waiting.cancel()
            self._board_waiting = after_reply(self._board_due) if self._board_drawn else None
            if self._board_waiting is not None:
                return
        self._board_parts()
        self._board_drawn = True

    def _board_due(self) -> None:
        with self._draw_state:
            self._board_waiting = None
            self._want_board = True
        self._draw()

    def _board_parts(self) -> None:
        session = self.session
        money = self.ctx.settings.money_shown
        ui = self.ui
        extras = ui.extras(session, money, self.words) if ui is not None and ui.extras is not None else []
        self.board.show(session.result, extras)
        self._hand_rows(session.result)

    def _night_note(self, end: ft.Control | None) -> list[ft.Control]:
        """Above a game's money at its end, when the game belongs to an open night: its money is settled with the
        night's (netted with the other games and the ledger), so nobody pays what this game's own lines say."""
        if end is None:
            return []
        try:
            night = self.ctx.services.nights.night_of(self.session.id)
        except Exception:  # the nights cannot be read: the game's screen still shows
            return []
        if night is None or not night.is_open:
            return []
        _ = self.words.gettext
        words = _(
            "This game is part of {night}: its money is settled with the night's, netted with the other "
            "games and the ledger. Pay nothing yet: the night's screen says who pays whom, once, at the end."
        ).format(night=night.name)
        return [
            ft.Text(words, size=16, weight=ft.FontWeight.BOLD, semantics_label=words),
            ft.Row(
                [
                    big_button(
                        _("Open {night}").format(night=night.name),
                        lambda _: self.ctx.navigate(f"/nights/{night.id}"),
                        icon=ft.Icons.NIGHTLIFE,
                    )
                ]
            ),
        ]

    def _hand_rows(self, result: Any) -> None:
        """The hand list: the newest :data:`HAND_ROWS` rows, or all of them after *Show all*."""
        money = self.ctx.settings.money_shown
        newest = None if self._all_hands else HAND_ROWS  # the older rows are not even built
        hands = hand_list(
            result, self.open_hand if self.ui is not None else None, self._tiles, money, newest, self.words
        )
        # the rows straight into the kept column (a new column would send every row again: the hand list grows)
        heading = hands.controls[0]
        self.hands_title.value = heading.value if isinstance(heading, ft.Text) else self.hands_title.value
        rows = hands.controls[1:]
        total = line_count(result)
        hidden = total - len(rows) if not self._all_hands else 0
        self.more_hands.visible = hidden > 0
        if hidden > 0:
            said = _SHOW_ALL_ROUNDS if entry_word(self.session.game) == "round" else _SHOW_ALL_HANDS
            label = self.words.gettext(said).format(total=total, hidden=hidden)
            self.more_hands.content = self.more_hands.tooltip = label
            rows = [*rows, self.more_hands]
        self._set(self.hands, [self.hands_title, *rows])

    @staticmethod
    def _set(holder: ft.Column, controls: list[ft.Control]) -> None:
        """Give ``holder`` these controls, leaving its list alone when they are the same ones (nothing to send)."""
        if [id(c) for c in holder.controls] != [id(c) for c in controls]:
            holder.controls = controls

    def _correction_parts(self, target: EntryTarget) -> None:
        entries = self.session.part(target.part)
        if target.index is None or target.index >= len(entries):
            _ = self.words.gettext
            what = target.label_in(self.words)
            self._set(
                self.entry_area,
                [empty_state(_("There is no such hand"), _("This game has no {what}.").format(what=what))],
            )
            return
        # the panel first, where the table screen has it (its controls on screen on a small phone); what to do and
        # what was entered (a correction from History) under it
        hint_text = self.words.gettext(CORRECTION_HINT)
        hint = ft.Text(hint_text, size=16, semantics_label=hint_text)
        self._set(self.entry_area, [self._entry(target), hint, *([self.note] if self.note is not None else [])])
        self.back_button.visible = False
        self.board.control.visible = False

    def _entry(self, target: EntryTarget) -> ft.Control:
        _ = self.words.gettext
        if self.ui is None:
            return empty_state(
                _("Hand entry is not available for this game yet"),
                _("The scoreboard and the rules are; hand entry for this game comes in a later version."),
            )
        if target.part is not Part.HANDS and target.part not in self.ui.parts:
            return empty_state(_("This part of the game cannot be entered here yet"), target.label_in(self.words))
        version = self.session.version  # first: the record read next is at least this new
        record = dict(self.session.current)  # read, never changed in place: no copy of the whole game
        cached = self._panels.get(target)
        if isinstance(cached, FollowingPanel) and target.index is None:
            try:
                if cached.follow(record_before(record, target.part, target.index)):
                    self.panel_version = version
                    return cached.control
            except ScoringError:
                pass
        existing = None
        if target.index is not None:
            existing = dict(self.session.part(target.part)[target.index])
        ectx = EntryContext(
            view=self.ctx,
            session=self.session,
            target=target,
            record=record_before(record, target.part, target.index),
            existing=existing,
            table=self,
            dock=self.dock,
            drafts=self.session.drafts_for(HOST_DEVICE),
        )
        self.dock.controls = []
        try:
            panel = self.ui.entry(ectx)
            self._panels = {target: panel}
            self.panel_version = version
            return panel.control
        except ScoringError as exc:  # a saved record the panel cannot continue (should not happen): say so
            return empty_state(_("This hand cannot be entered"), said(self.words, exc))

    def _save_banner(self, error: str) -> ft.Control:
        _ = self.words.gettext
        text = _("Not saved: {error}. Your entries are kept in this app; nothing is lost while it stays open.").format(
            error=error
        )
        return ft.Container(
            content=ft.Column(
                [
                    ft.Text(text, size=16, color=ft.Colors.ON_ERROR_CONTAINER, semantics_label=text),
                    ft.Row([big_button(_("Retry save"), self.retry_save, icon=ft.Icons.SAVE, primary=True)]),
                ]
            ),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            padding=ft.Padding.all(12),
            border_radius=12,
        )

    # -- actions --------------------------------------------------------------------------------------------

    def report(self, text: str | None) -> None:
        """Show (or clear) the one-line message. Every tap of an entry panel reports (``None`` when it went
        through), so this is also where the tap's automatic whole-page update is turned off: the panel sends
        the controls it changed itself (:func:`~views.table.entry.sent_by_hand`)."""
        sent_by_hand()
        text = text[:1].upper() + text[1:] if text else text  # a refusal is a sentence: it starts with a capital
        if (self.message.value or "") == (text or ""):
            return
        self.message.value = text or ""
        self.message.visible = bool(text)
        self.message.semantics_label = self.words.gettext("Problem: {text}").format(text=text) if text else None
        refresh(self.message)

    def drafts_changed(self, problem: str | None) -> None:
        """Writing the hand being entered failed (``problem``) or works again (``None``): the one-line notice says
        so (only that line is sent)."""
        said_now = self.words.gettext("The hand being entered is kept in this app only (not on disk: {problem}).")
        text = said_now.format(problem=problem) if problem else ""
        self.draft_notice.value = text
        self.draft_notice.visible = bool(problem)
        self.draft_notice.semantics_label = text or None
        refresh(self.draft_notice)

    def submit(self, target: EntryTarget, entry: Mapping[str, Any]) -> bool:
        """Make the entry for ``target`` (the next hand or extra-part entry, or a correction) on the version the
        entry panel shows (:attr:`panel_version`). A stale edit is said ("someone else changed this game"); the
        redraw that the other change brings keeps this page's own taps when they still apply."""
        if target.index is None:
            edit = Edit.add(entry, part=target.part, expected_version=self.panel_version)
        else:
            edit = Edit.replace(target.index, entry, part=target.part, expected_version=self.panel_version)
        return self._submit(edit)

    def _submit(self, edit: Edit) -> bool:
        """Send ``edit`` down, once, as entered on the host's device (its hand being entered goes with the change);
        the change comes back once, through the session's listener (:meth:`follow`), which redraws.

        Made by a tap on the table (not a correction, which leaves its screen), the change is written after the
        tap's reply (:func:`~views.table.entry.after_reply`): the reply shows the new standings with "Saving…",
        which goes once the change is on disk (:meth:`_saved`). The hand's draft stays on disk until then, so an app
        stopped in between finds the hand as it was entered."""
        later = self.target is None and in_page_event()
        edit = edit.entered_on(HOST_DEVICE)
        self._making = threading.get_ident()
        self._saving = later
        try:
            made = self.edits.submit(edit.saving_later() if later else edit)
        finally:
            self._making = None
        if not self.session.saving:
            self._saving = False
        elif after_reply(self._saved) is None:
            self._saved()
        if made and edit.index is not None:  # a correction: back to the table
            self.ctx.navigate(parent_of(self.ctx.path))
        elif made and not self._following:  # a screen not following its session (not the page's route) draws it
            self.show()
        return bool(made)

    def _saved(self) -> None:
        """Write the change this screen made (:meth:`_submit`), then take "Saving…" away, or show the banner
        with Retry save if the disk refused."""
        self.session.save_pending()
        self._saving = False
        if self.session.save_error is not None:
            self.show(force=True)
        elif self._say_saving(False):
            with self._draw_state:
                self._want_title = True
            self._draw()

    def _say_saving(self, saving: bool) -> bool:
        """Show "Saving…" over the game's name, or not; returns whether the title changed."""
        if self.title is None:
            return False
        # first: a long name on a narrow phone takes two lines of its own, and the title has two
        said = self.words.gettext("Saving…")
        text = f"{said}\n{self._title}" if saving else self._title
        if self.title.value == text:
            return False
        self.title.value = self.title.semantics_label = text
        return True

    def undo(self, _: Any = None) -> None:
        self._submit(Edit.undo(expected_version=self.rendered))  # the hand being entered goes with it

    def redo(self, _: Any = None) -> None:
        self._submit(Edit.redo(expected_version=self.rendered))

    def retry_save(self, _: Any = None) -> None:
        self._making = threading.get_ident()
        try:
            self.session.retry_save()  # the session tells its listener (this screen's follower: redrawn there)
        except SaveFailedError as exc:
            self.report(said(self.words, exc))
        finally:
            self._making = None
        if not self._following:
            self.show(force=True)

    def _show_all_hands(self, _: Any = None) -> None:
        with self._draw_state:
            self._all_hands = True
            self._want_all_hands = True
        self._draw()

    def open_hand(self, line: HandLine) -> None:
        self.ctx.navigate(f"{self.ctx.path}/{line.slug}")

    def send(self, changed: Sequence[ft.Control]) -> None:
        """Send what the entry panel changed: in one update of the screen (one message a tap), or with the redraw
        when it changed during :meth:`show`."""
        with self._draw_state:
            if self._showing and self._drawer == threading.get_ident():
                self._opened.extend(changed)
                return
            self._queued.extend(changed)
        self._draw()

    def show(self, *, force: bool = False) -> None:
        """Redraw now, when the session changed since it was drawn (or ``force``: its save state changed): the
        whole screen in one update (one message), the app bar's Undo and Redo included. When another thread is
        drawing this screen, that thread redraws it once it is done, and this returns at once."""
        with self._draw_state:
            self._want_show = True
            self._want_force = self._want_force or force
        self._draw()

    def _draw(self) -> None:
        """Draw what was asked (:meth:`show`, :meth:`send`, *Show all*), on this thread unless another is
        drawing: that one then draws it too before it stops, so no thread ever waits for another's drawing."""
        me = threading.get_ident()
        with self._draw_state:
            if self._drawer is not None:
                return
            self._drawer = me
        try:
            while True:
                with self._draw_state:
                    show, force, all_hands = self._want_show, self._want_force, self._want_all_hands
                    board, title, layout = self._want_board, self._want_title, self._want_layout
                    queued, self._queued = self._queued, []
                    self._want_show = self._want_force = self._want_all_hands = self._want_board = False
                    self._want_title = self._want_layout = False
                    if not (show or all_hands or queued or board or title or layout):
                        self._drawer = None
                        return
                if show and (force or self.rendered != self.session.version):
                    self._redraw(queued)
                else:
                    if all_hands:
                        self._hand_rows(self.session.result)
                        send_changes(self.hands, [])
                    if queued:
                        send_changes(self.body, queued)
                if board and self.target is None:
                    self._board_parts()
                    send_changes(self.board_column, [self.board.control])
                if title and self.title is not None:
                    send_changes(self.title, [self.title])
                if layout and self._show_board_or_entry():
                    send_changes(self.body, [self.entry_column, self.board_column, self.dock])
        except BaseException:
            with self._draw_state:
                self._drawer = None
            raise

    def _redraw(self, queued: Sequence[ft.Control]) -> None:
        """The whole screen again, with what the panel changed meanwhile, in one update."""
        with self._draw_state:
            self._showing, self._opened = True, list(queued)
        panel_before = list(self.entry_area.controls)
        try:
            self.rebuild()
        finally:
            with self._draw_state:
                self._showing = False
                board = [self.board.control] if self._board_waiting is None else []  # the board, drawn now
                opened, self._opened = [*self._opened, self.strip.control, *board], []
        # a Confirm's reply leaves the entry panel as it was (the next hand is drawn after it): not walked
        past = [self.entry_area] if _untouched(self.entry_area, panel_before, opened) else []
        send_changes(self._view if self._view is not None else self.body, opened, past)

    # -- following the session -------------------------------------------------------------------------------

    def follow(self) -> None:
        """Redraw when the session changes (from this tab or another): the one way a change comes back to this
        screen, its own included. Its own change is drawn at once, on the tap's thread, once the change is saved
        (the session tells after the save: nothing shows as saved before it is on disk); another page's, on this
        page's. Replaces this page's earlier follower (one table screen a page: the page's
        :class:`~views.context.PageState` keeps it)."""
        page = self.ctx.page
        self._following = True

        def changed(session: TableSession) -> None:
            run = getattr(page, "run_thread", None)
            if self._making == threading.get_ident():
                self.show(force=True)  # this screen's own change (or its save retried): drawn once, now
                return
            if run is None:
                self.show()
                return
            run(self.show)

        unsubscribe = self.session.subscribe(changed)
        unwatch = self.session.watch_drafts(self.drafts_changed)

        def stop() -> None:
            self._following = False
            unsubscribe()
            unwatch()

        if self.ctx.state is not None:
            self.ctx.state.follow(stop, self.resized)

    def resized(self) -> None:
        """The page changed size (:meth:`views.context.PageState.resized`): each entry panel that lays itself out
        by the page's size does so again now, not at the next tap, while the page shows this screen (or a screen
        above it)."""
        route = _normal(self.ctx.page.route)
        if route != self.ctx.path and not route.startswith(f"{self.ctx.path}/"):
            return
        self._switch(self._board_open)
        for panel in list(self._panels.values()):
            if isinstance(panel, ResizingPanel):
                panel.resized()


def _untouched(holder: ft.Column, before: list[ft.Control], changed: Sequence[ft.Control]) -> bool:
    """Whether a redraw left ``holder`` as it was sent, with all it holds: the same controls in it (``before``),
    and each control it ``changed`` known to be beside it, neither in it nor around it, by its links to the page (a
    control never sent has none: then nobody can tell, and the answer is no)."""
    if [id(c) for c in holder.controls] != [id(c) for c in before]:
        return False
    around = {id(holder), *(id(parent) for parent in ancestors(holder))}
    return not any(
        id(control) in around or control.parent is None or any(parent is holder for parent in ancestors(control))
        for control in changed
    )


_SHOW_ALL_HANDS = N_("Show all {total} hands ({hidden} more)")
_SHOW_ALL_ROUNDS = N_("Show all {total} rounds ({hidden} more)")


def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def build_table(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/continue/<id>``: the live scoreboard and the next hand's entry."""
    session = open_session(ctx, params["id"])
    table = TableView(ctx, session)
    view = table.view()
    if ctx.path == ctx.page.route or _normal(ctx.page.route) == ctx.path:
        table.follow()
    return view


def build_correction(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/continue/<id>/hand-<n>`` (or ``playoff-<n>``, ``tiebreak-<n>``, ``sudden-death-<n>``): correct an entry
    already made; everything after it is re-derived."""
    session = open_session(ctx, params["id"])
    target = EntryTarget.of_slug(params["entry"])  # an UnknownPartError (a ValueError) is shown as "Not found"
    if target.index is None or target.index >= len(session.part(target.part)):
        raise ValueError(ctx.words.gettext("This game has no {what}.").format(what=target.label_in(ctx.words)))
    table = TableView(ctx, session, target)
    view = table.view()
    if ctx.state is not None and _normal(ctx.page.route) == ctx.path:
        ctx.state.follow(session.watch_drafts(table.drafts_changed), table.resized)
    return view


def _normal(route: str | None) -> str:
    from views.routing import normalise

    return normalise(route)
