"""The live view (``/live``, ``/live/<id>``): every player follows the game on their own phone.

A page's :class:`~views.seat.Seat` is decided on the server when the page connects
(:func:`companion.sharing.access_for`): the host's browser gets the whole app; any other page is a viewer held to
this one screen (the shell asks :func:`locked_views` for every route such a page asks for, so typing another
address, or sending a route change by hand, shows this screen again and nothing else of the archive). A viewer
that enters the host's PIN becomes an editor: it gets the game's entry panel and Undo, and every change it makes
goes through :meth:`companion.sharing.LiveTable.apply_as`, which checks the seat's access on the server.

The screen follows the live game through the live table's feed (:class:`companion.sharing.LiveFeed`: the game is
followed once for every viewer, and the host's Confirm only marks it changed) and the PIN; after a change each
viewer redraws on its page's own executor, one after another, from a :class:`LiveModel` built once per version for
all of them, and sends its page one update.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import flet as ft

from companion.i18n import Words
from companion.session import TableSession
from companion.sharing import (
    LIVE_PATH,
    Access,
    Edit,
    NoLiveGameError,
    Role,
    SharingError,
    access_for,
    device_of,
    is_live_path,
)
from scoring import Part, Result, ScoringError, Step, find_game, part_for_step
from views.context import ViewContext
from views.edit_host import EditHost, Outcome
from views.routing import normalise
from views.seat import Seat
from views.standings import standings_panel, verdict_panel
from views.table.entry import EntryContext, EntryTarget, refresh, said, send_each
from views.table.games import find_panel
from views.table.scoreboard import HandLine, hand_lines, line_count
from views.widgets import app_bar_title, back_button, big_button, empty_state, icon_button, panel

_log = logging.getLogger(__name__)

RECENT_HANDS = 12
"""Hands listed on the live view until the viewer asks for all."""
DELIVER_WAIT_S = 1.0
"""The longest the live table's feed waits for one viewer's redraw before it goes on to the next viewer."""


@dataclass(frozen=True)
class LiveModel:
    """What every viewer of a game shows for one version of it, built once for all of them
    (:meth:`companion.sharing.LiveTable.shared_view`): each viewer's page draws its controls from this."""

    version: int
    result: Result
    status: str
    extras: tuple[tuple[str, str], ...]
    recent: tuple[HandLine, ...]
    """The newest :data:`RECENT_HANDS` lines of the hand list, newest first."""
    lines: int
    """How many lines the whole hand list has."""


LIVE_MODEL = "live-model"
"""The kind of shared view :func:`live_model` builds."""


def live_model(session: TableSession) -> LiveModel:
    """The :class:`LiveModel` of ``session`` now (its cached result: nothing is replayed)."""
    version = session.version  # first: the content read below is at least this new
    result = session.result
    ui = find_panel(session.game)
    extras = ui.extras(session) if ui is not None and ui.extras is not None else []
    status = live_status(session.game, len(result.hands))
    recent = tuple(reversed(hand_lines(result, newest=RECENT_HANDS)))
    return LiveModel(version, result, status, tuple(extras), recent, line_count(result))


def live_status(game: str, played: int, words: Words | None = None) -> str:
    """The live view's status line: ``Jokers Kill: 3 hands played``, in the table's language.

    >>> live_status("jokers-kill", 1), live_status("jokers-kill", 2, Words.of("de"))
    ('Jokers Kill: 1 hand played', 'Jokers Kill: 2 Spiele gespielt')
    """
    said = (words or Words.of("en")).ngettext("{game}: {n} hand played", "{game}: {n} hands played", played)
    return said.format(game=find_game(game).name, n=played)


def _go(page: ft.Page, route: str) -> None:
    try:
        page.navigate(route)
    except RuntimeError:  # not on the page's event loop (a redraw from another thread)
        with contextlib.suppress(Exception):
            page.run_task(page.push_route, route)


def locked_views(seat: Seat, ctx: ViewContext) -> list[ft.View]:
    """The only screen a viewer or editor gets, whatever route it asked for; another route is sent back to
    ``/live`` (the address bar shows where the page really is)."""
    path = normalise(ctx.path)
    if not is_live_path(path):
        _go(ctx.page, LIVE_PATH)
        path = LIVE_PATH
    live_ctx = ViewContext(page=ctx.page, services=ctx.services, settings=ctx.settings, path=path, state=ctx.state)
    parts = [part for part in path.split("/") if part]
    return [LiveScreen(live_ctx, seat, parts[1] if len(parts) > 1 else None, back=False).view()]


def build_live(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/live`` and ``/live/<id>`` for the host (a viewer's page gets :func:`locked_views`)."""
    seat = ctx.state.seat if ctx.state is not None else None
    if seat is None:  # a page built outside a shell (a unit test): it can only watch
        seat = Seat(ctx.page, ctx.services, access_for(client_ip=None, page_url=None, route=LIVE_PATH))
    return LiveScreen(ctx, seat, params.get("id")).view()


class LiveScreen:
    """The live scoreboard, the hand list with each hand's "why", and (for a viewer) the PIN field or (for an
    editor) the entry panel. Rebuilt in place after every change."""

    def __init__(self, ctx: ViewContext, seat: Seat, session_id: str | None, *, back: bool = True) -> None:
        self.ctx = ctx
        self.back = back
        """Whether the app bar has a Back button (not on a viewer's page: it has nowhere else to go)."""
        self.seat = seat
        self.session_id = session_id
        self.session: TableSession | None = None
        self.rendered = -1
        self.shown_access: Access | None = None
        self.body = ft.Column(spacing=12)
        self.message = ft.Text("", color=ft.Colors.ERROR, size=16, visible=False)
        self._lock = threading.RLock()
        self._unsubscribe: list[Callable[[], None]] = []
        self._session_unsubscribe: Callable[[], None] | None = None
        self._stopped = False
        self._pin_box: ft.Control | None = None
        self._pin_field: ft.TextField | None = None
        self._all_hands = False
        self._tiles: dict[tuple[Any, ...], ft.Control] = {}
        self.words = words = ctx.words
        self._hands_title = ft.Text(words.gettext("Hands"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM)
        self._hands_column = ft.Column(spacing=10)
        self.edits = EditHost(self, report=self.report, words=words)
        """Every change this page asks for goes through here, as on the host's table screen."""

    # -- building -----------------------------------------------------------------------------------------------

    def view(self) -> ft.View:
        previous, self.seat.screen = self.seat.screen, self
        if previous is not None and previous is not self:
            previous.stop()
        self.rebuild()
        self.follow()
        title = self.words.gettext("Live scoreboard")
        appbar = ft.AppBar(
            title=app_bar_title(title),
            leading=back_button(self.ctx) if self.back else None,
            automatically_imply_leading=False,
            toolbar_height=64,
        )
        return ft.View(
            route=self.ctx.path,
            appbar=appbar,
            controls=[self.body],
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.all(12),
        )

    def _find_session(self) -> TableSession:
        access = self.seat.access
        wanted = self.session_id if access.role is Role.HOST else None
        if access.role is not Role.HOST and self.session_id not in (None, self.seat.live.current_id):
            self.message.value = self.words.gettext("That game is not being shared; here is the game at the table.")
            self.message.visible = True
        return self.seat.live.session_for(access, wanted)

    def rebuild(self) -> None:
        with self._lock:
            access = self.seat.current_access()
            try:
                session = self._find_session()
            except SharingError as exc:
                self._watch(None)
                self.rendered = -1
                self.shown_access = access
                self.body.controls = [
                    empty_state(self.words.gettext("No game to follow yet"), said(self.words, exc)),
                    *self._access_parts(None),
                ]
                return
            self._watch(session)
            model = cast(LiveModel, self.seat.live.shared_view(session, LIVE_MODEL, live_model))
            result = model.result
            words = self.words
            status = model.status if words.code == "en" else live_status(session.game, len(result.hands), words)
            parts: list[ft.Control] = [
                ft.Text(
                    status,
                    theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                    semantics_label=words.gettext("Live: {status}").format(status=status),
                )
            ]
            verdict = verdict_panel(result, words)
            if verdict is not None:
                parts.append(verdict)
            extras = model.extras
            ui = find_panel(session.game)
            if words.code != "en" and ui is not None and ui.extras is not None:
                extras = tuple(ui.extras(session, None, words))
            parts.append(standings_panel(result, extras, words))
            parts.extend(self._access_parts(session))
            parts.append(self.message)
            parts.append(self._hands(model))
            self.body.controls = parts
            self.rendered = model.version
            self.shown_access = access

    def _hands(self, model: LiveModel) -> ft.Control:
        """The hands, newest first, each with its points and why: the last :data:`RECENT_HANDS` unless this
        page asked for all. The column and the rows of hands that did not change are kept from one redraw to the
        next, so an update sends (and the phone draws) only what is new."""
        words = self.words
        if self._all_hands and model.lines > len(model.recent):
            shown: Sequence[HandLine] = list(reversed(hand_lines(model.result, words=words)))
        elif words.code != "en":
            shown = list(reversed(hand_lines(model.result, newest=RECENT_HANDS, words=words)))
        else:
            shown = model.recent
        tiles: list[ft.Control] = [self._hands_title]
        cache: dict[tuple[Any, ...], ft.Control] = {}
        for line in shown:
            key = (line.part, line.index, line.title, line.points, line.notes)
            tile = self._tiles.get(key)
            if tile is None:
                tile = ft.Column(
                    [
                        ft.Text(f"{line.title}: {line.points}", size=17, weight=ft.FontWeight.W_500),
                        ft.Text("\n".join(line.notes), size=14),
                    ],
                    spacing=2,
                )
            cache[key] = tile
            tiles.append(tile)
        self._tiles = cache
        if not model.lines:
            tiles.append(ft.Text(words.gettext("No hands yet."), size=16))
        if model.lines > len(shown):
            more = words.gettext("Show all {n} hands").format(n=model.lines)
            tiles.append(ft.Row([big_button(more, self.show_all_hands)]))
        self._hands_column.controls = tiles
        return self._hands_column

    def show_all_hands(self, _: Any = None) -> None:
        """This page only: list every hand (changes nothing in the game)."""
        self._all_hands = True
        self.show(force=True)

    def _access_parts(self, session: TableSession | None) -> list[ft.Control]:
        access = self.seat.access
        if access.role is Role.VIEWER:
            return [self._pin_form()]
        if session is None:
            return []
        out: list[ft.Control] = []
        if access.role is Role.EDITOR:
            out.append(
                ft.Row(
                    [
                        ft.Text(
                            self.words.gettext("You can enter hands (PIN)"),
                            size=16,
                            expand=True,
                            semantics_label=self.words.gettext("Editing with PIN"),
                        ),
                        self._undo_button(session),
                    ]
                )
            )
        step = session.step
        if access.role is Role.EDITOR and step is not Step.FINISHED:
            out.append(self._entry(session, EntryTarget(part_for_step(step))))
        return out

    def _undo_button(self, session: TableSession) -> ft.Control:
        """Undo, greyed out when the live table would refuse it (nothing to undo, or no PIN any more)."""
        button = icon_button(ft.Icons.UNDO, self.words.gettext("Undo"), self.undo)
        inner = button.content if isinstance(button, ft.Semantics) else None
        if isinstance(inner, ft.IconButton):
            inner.disabled = not self.edits.can_submit(Edit.undo(expected_version=session.version))
        return button

    def _pin_form(self) -> ft.Control:
        """Built once per screen, so what a viewer is typing survives the redraws of the scoreboard around it."""
        if self._pin_box is not None:
            return self._pin_box
        _ = self.words.gettext
        field = ft.TextField(
            label=_("PIN"), password=True, keyboard_type=ft.KeyboardType.NUMBER, max_length=6, width=180
        )

        def submit(_: Any) -> None:
            self.submit_pin(field.value or "")

        field.on_submit = submit
        enter = big_button(_("Edit with PIN"), submit, icon=ft.Icons.KEY)
        self._pin_field = field
        self._pin_box = panel(
            ft.Column(
                [
                    ft.Text(_("Watching: read-only. To enter hands, type the PIN the host shows."), size=16),
                    ft.Row([field, enter], vertical_alignment=ft.CrossAxisAlignment.START),
                ],
                spacing=8,
            )
        )
        return self._pin_box

    def _entry(self, session: TableSession, target: EntryTarget) -> ft.Control:
        ui = find_panel(session.game)
        if ui is None or (target.part is not Part.HANDS and target.part not in ui.parts):
            _ = self.words.gettext
            return empty_state(
                _("Enter this on the host's screen"), _("This game's entry is not available on phones yet.")
            )
        ectx = EntryContext(
            view=self.ctx,
            session=session,
            target=target,
            record=session.record,
            existing=None,
            table=self,
            drafts=session.drafts_for(device_of(self.seat.access)),
        )
        try:
            # the panel's Confirm sits in its dock (the table screen's bottom bar); here it follows the panel
            return ft.Column([ui.entry(ectx).control, ectx.dock], spacing=12)
        except ScoringError as exc:
            return empty_state(self.words.gettext("This hand cannot be entered here"), said(self.words, exc))

    # -- actions (every change goes through LiveTable.apply_as, which checks the access) ----------------------

    def report(self, text: str | None) -> None:
        if (self.message.value or "") == (text or "") and self.message.visible == bool(text):
            return  # no update(): Flet then sends the handler's own changes (an update() here would replace that)
        self.message.value = text or ""
        self.message.visible = bool(text)
        self.message.semantics_label = self.words.gettext("Problem: {text}").format(text=text) if text else None
        refresh(self.message)

    def submit_pin(self, text: str) -> None:
        try:
            self.seat.enter_pin(text)
        except SharingError as exc:
            self.report(said(self.words, exc))
            return
        if self._pin_field is not None:
            self._pin_field.value = ""
        self.report(None)
        self.show(force=True)

    def apply(self, edit: Edit) -> bool:
        """Make ``edit`` as this page's seat (:meth:`LiveTable.apply_as` checks the access first); a refusal is
        shown and the newest state drawn."""
        session = self.session
        if session is None:
            self.report(self.words.gettext("There is no game to change."))
            return False
        outcome = self.edits.submit(edit)
        if outcome is Outcome.STALE:
            # The newest state is drawn once this handler is done, so that an entry panel can first keep what was
            # entered (it is offered again on the new state: nothing is lost).
            self._later(force=True)
        elif outcome:
            self.show()
        return bool(outcome)

    def make(self, edit: Edit) -> Any:
        """Make ``edit`` as this page's seat (its :class:`~views.edit_host.EditTarget` side)."""
        if self.session is None:
            raise NoLiveGameError("there is no game to change")
        return self.seat.live.apply_as(self.seat.access, self.session.id, edit)

    def can_make(self, edit: Edit) -> bool:
        """Whether this page's seat may make ``edit`` now, and the game would take it."""
        session = self.session
        return session is not None and self.seat.live.can_apply(self.seat.access, session.id, edit)

    def submit(self, target: EntryTarget, entry: Mapping[str, Any]) -> bool:
        """Confirm an entry panel's ``entry`` for ``target`` as this page's seat (the page's :class:`Table
        <views.table.entry.Table>` side)."""
        edit = Edit.add(entry, part=target.part, expected_version=self.rendered)
        return self.apply(edit.entered_on(device_of(self.seat.access)))  # its hand being entered goes with it

    def send(self, changed: Sequence[ft.Control]) -> None:
        """Send what an entry panel changed, each control on its own."""
        send_each(changed)

    def undo(self, _: Any = None) -> None:
        self.apply(Edit.undo(expected_version=self.rendered))

    # -- following ----------------------------------------------------------------------------------------------

    def show(self, force: bool = False) -> None:
        """Redraw now if the game, its version or this page's access changed (or when ``force``)."""
        if self._stopped:
            return
        try:
            self._show(force)
        except Exception:  # on the page's executor nobody would hear of it: say so in the server's log
            _log.exception("the live view could not be redrawn")

    def _show(self, force: bool) -> None:
        with self._lock:
            session = self.session
            access = self.seat.current_access()
            unchanged = (
                session is not None
                and session.version == self.rendered
                and access == self.shown_access
                and (self.seat.locked is False or self.seat.live.current_id == session.id)
            )
            if unchanged and not force:
                return
            self.rebuild()
            refresh(self.body)

    def _later(self, *_: Any, force: bool = False) -> None:
        """Called on the thread that made the change (maybe another page's): redraw on this page's executor."""
        if self._stopped:
            return
        try:
            self.ctx.page.run_thread(self.show, force)
        except Exception:  # the page's session is gone
            _log.debug("live page closed; it stops following", exc_info=True)
            self.stop()

    def _watch(self, session: TableSession | None) -> None:
        if session is self.session and (session is None or self._session_unsubscribe is not None):
            return
        if self._session_unsubscribe is not None:
            self._session_unsubscribe()
            self._session_unsubscribe = None
        self.session = session
        if session is not None and not self._stopped and self.seat.screen is self:
            self._session_unsubscribe = self.seat.live.feed.follow(session, self._deliver)

    def _deliver(self, _: TableSession) -> None:
        """Called by the live table's feed, one viewer after another: redraw on this page's executor, and return
        once it is drawn (or after :data:`DELIVER_WAIT_S`), so that the viewers' redraws do not all compete with
        the host for the processor at once."""
        if self._stopped:
            return
        drawn = threading.Event()

        def draw() -> None:
            try:
                self.show()
            finally:
                drawn.set()

        try:
            self.ctx.page.run_thread(draw)
        except Exception:  # the page's session is gone
            _log.debug("live page closed; it stops following", exc_info=True)
            self.stop()
            return
        drawn.wait(DELIVER_WAIT_S)

    def follow(self) -> None:
        """Follow the live game and the PIN (call once the screen is built)."""
        if self._stopped:
            return
        with self._lock:
            self._unsubscribe.append(self.seat.live.subscribe(lambda _: self._later(force=True)))
            if self.session is not None and self._session_unsubscribe is None:
                self._session_unsubscribe = self.seat.live.feed.follow(self.session, self._deliver)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            for unsubscribe in self._unsubscribe:
                unsubscribe()
            self._unsubscribe.clear()
            if self._session_unsubscribe is not None:
                self._session_unsubscribe()
                self._session_unsubscribe = None
