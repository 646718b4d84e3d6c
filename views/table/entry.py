"""The per-game hooks of the table screen: what a game adds to the generic flow.

Every game module in :mod:`views.table.games` ends with ``PANEL = TableUI(...)``: its key, the builder of its
hand-entry panel, and optional scoreboard extras (Jokers Kill: cards and hands left). The table screen finds it
with :func:`views.table.games.find_panel` in the one list :data:`views.table.games.PANELS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

import flet as ft

from companion.entry import (
    DraftStore,
    EntryController,
    EntryKind,
    EntryState,
    EntryTarget,
)
from companion.i18n import N_, Words
from companion.money import MoneyFormat
from companion.session import TableSession
from scoring.parts import Part
from scoring.why import Note
from views.context import ViewContext
from views.flet_private import in_page_event, set_isolated
from views.widgets import VeilOver, sent_by_hand

__all__ = [
    "EntryContext",
    "EntryTarget",
    "FollowingPanel",
    "Panel",
    "Table",
    "TableUI",
    "VeilLater",
    "after_tap",
    "controller",
    "docked",
    "draft_store",
    "refresh",
    "said",
    "send_changes",
    "send_each",
    "sent_by_hand",
    "words_of",
]


class Table(Protocol):
    """The screen an entry panel sits in (the table screen, a phone's live view): the one place the panel sends
    what happened at the table. A panel is given one and calls it; nothing is handed back up to the screen."""

    def submit(self, target: EntryTarget, entry: Mapping[str, Any]) -> bool:
        """Confirm ``entry`` for ``target`` (add it, or replace the corrected one): ``True`` when it was recorded.
        Errors are shown by the screen (a message naming the problem; nothing entered is lost)."""
        ...

    def report(self, text: str | None) -> None:
        """Show (or with ``None`` clear) a message under the panel."""
        ...

    def send(self, changed: Sequence[ft.Control]) -> None:
        """Send the controls a tap changed (:meth:`redraw` results): the table screen sends them in one update of
        the screen (:func:`send_changes`); the live view each on its own (:func:`send_each`)."""
        ...


@dataclass
class EntryContext:
    """What a game's entry panel receives from the table screen."""

    view: ViewContext
    session: TableSession
    target: EntryTarget
    record: dict[str, Any]
    """The record the entry is checked against: the whole record for a new entry; for a correction, the record
    up to (not including) the corrected entry."""
    existing: dict[str, Any] | None
    """The entry being corrected, as saved."""
    table: Table
    """Where the panel's edits and messages go (:class:`Table`)."""
    extras: dict[str, Any] = field(default_factory=dict)
    dock: ft.Column = field(default_factory=ft.Column)
    """The screen's bottom bar: a panel puts its actions here (Confirm, and the one or two actions beside it), so
    they stay on screen however long the panel is (:func:`docked`)."""
    drafts: DraftStore | None = None
    """Where this device keeps its hands being entered (:meth:`TableSession.drafts_for
    <companion.session.TableSession.drafts_for>`); ``None``: the session's own (the host's)."""

    def submit(self, entry: Mapping[str, Any]) -> bool:
        """Confirm ``entry`` for this panel's target (:meth:`Table.submit`)."""
        return self.table.submit(self.target, entry)

    def report(self, text: str | None) -> None:
        """Show (or with ``None`` clear) a message under the panel (:meth:`Table.report`)."""
        self.table.report(text)

    def send(self, changed: Sequence[ft.Control]) -> None:
        """Send the controls a tap changed (:meth:`Table.send`)."""
        self.table.send(changed)


class Panel(Protocol):
    """A game's entry panel, as its builder returns it: the control the screen places."""

    @property
    def control(self) -> ft.Control: ...


@runtime_checkable
class FollowingPanel(Panel, Protocol):
    """A panel that can follow a change of the session in place (it keeps its controls, so the redraw after each
    hand stays small): the screen calls :meth:`follow` with the new record for the same target."""

    def follow(self, record: dict[str, Any]) -> bool:
        """Continue with ``record``, redrawn in place: ``True``; ``False`` when the panel must be built anew."""
        ...


@runtime_checkable
class ResizingPanel(Panel, Protocol):
    """A panel whose layout follows the page's size (Bargain Bin's large table on a short or a tall screen): the
    screen calls :meth:`resized` when the page changes size, and the panel sends what that changed, if anything."""

    def resized(self) -> None:
        """Lay the panel out again for the page's size now, sending only what changed (nothing, mostly)."""
        ...


def words_of(ectx: EntryContext) -> Words:
    """The table's words for an entry panel (English when its view has none: a stand-in view in a test)."""
    words = getattr(ectx.view, "words", None)
    return words if isinstance(words, Words) else Words.of("en")


def page_height(ectx: EntryContext) -> float | None:
    """The page's height in logical pixels, as its client last said (``None`` before it did, or with no page): what a
    panel whose layout follows the page's size reads (:class:`ResizingPanel`)."""
    height = getattr(ectx.view.page, "height", None)
    return float(height) if isinstance(height, int | float) else None


def said(words: Words, exc: BaseException) -> str:
    """What went wrong, in the table's language: an error that carries its words as data (``why``, a
    :class:`scoring.why.Note`) is worded in ``words``; any other says its own (English) message."""
    note = getattr(exc, "why", None)
    return words.note(note) if isinstance(note, Note) else str(exc)


STALE_COVER = N_("the keys were still covered when you tapped: nothing was entered, tap again")
"""A tap on a veil that the state no longer wants (:func:`cover_refusal`)."""


def cover_refusal(words: Words, dry_run: Callable[[], object]) -> str:
    """What a tap on a raised :class:`~views.widgets.VeilOver` says. The cover does not know which key is under
    the finger, so the tap enters nothing, whatever the state: ``dry_run`` makes a key's action on the state as it
    is now, its result thrown away. While the veil stands for a refusal (a complete hand, no receiver chosen),
    that refusal is said, in the table's words. When the state has moved on and would take the key (a Jokers Kill
    hand just confirmed, whose veil comes down after the reply), the tap is said to have come too early
    (:data:`STALE_COVER`), rather than entering some other key's card or value in its place. (A veil lowered in a
    reply loses its handler in that reply: a tap the page sent before it drew that reply finds none.)"""
    try:
        dry_run()
    except ValueError as exc:  # a WordedError, a ScoringError: what the key would meet now
        return said(words, exc)
    return words.gettext(STALE_COVER)


S = TypeVar("S", bound=EntryState)


def controller(ectx: EntryContext, kind: EntryKind[S]) -> EntryController[S]:
    """The draft lifecycle of a panel (:class:`companion.entry.EntryController`): the kept draft, else the entry
    being corrected, else a fresh start; kept on every change (:func:`after_tap`), cleared on submit, kept again on
    refusal."""
    return EntryController(kind, draft_store(ectx), ectx.record, ectx.target, ectx.existing, defer=after_tap)


def draft_store(ectx: EntryContext) -> DraftStore:
    """Where the panel's device keeps its hands being entered (its own, never another device's)."""
    return ectx.drafts if ectx.drafts is not None else ectx.session


def after_tap(work: Callable[[], None]) -> None:
    """Run ``work`` (writing the tap's draft to disk) once the tap's updates are on the wire: on the page's event
    loop, after the handler and after the task that sends what it queued, so the disk never delays what a tap
    shows. Flet's web server queues each message (``put_nowait``), which wakes its send task through the loop's
    queue of callbacks; a change is made before its controls are queued, so ``work`` goes in two hops: the first
    lands after the handler, the second after that send task's wake-up. (One hop wrote the draft, with its fsync,
    before the tap's reply was sent.) The next tap is handled after it (the loop runs what was queued first), so
    drafts are written in order. Outside a page's event (a unit test, a redraw on another thread), at once. A stop
    in between (SIGTERM) still writes it: the controller owes it to its store, which the app settles as it closes."""
    loop = _page_event_loop()
    if loop is None:
        work()
        return
    loop.call_soon(loop.call_soon, work)


def _in_page_event() -> bool:
    """Whether a page's event is being handled now (Flet 1.0 gives each event its own update state)."""
    return in_page_event()


def _page_event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running the page event being handled now, or ``None`` outside one."""
    if not _in_page_event():
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


AFTER_REPLY_S = 0.15
"""How long after a tap's reply what can wait for it is sent (:func:`after_reply`): long enough for the reply to be
on the wire and drawn first, far shorter than the next tap of a hand. On a phone-class page (Chromium slowed 4×) with
its semantics tree on, a Jokers Kill Confirm's new standings are in the page 84–109 ms after the pointerdown at the
median: with 50 ms the scoreboard's message came before the reply was drawn and went into the frame after it (that
frame's p95 188–301 ms over three runs, 146–159 ms over two with 150 ms)."""


def after_reply(work: Callable[[], None]) -> asyncio.TimerHandle | None:
    """Inside a page event, run ``work`` :data:`AFTER_REPLY_S` after it, on the page's event loop and outside any
    event (an empty context: no automatic update of the page after it), so that what it sends goes in a message of
    its own after the tap's reply; returns the handle that cancels it while it waits. Outside a page event (a unit
    test, a redraw on the page's thread) nothing is scheduled and it returns ``None``: the caller does the work
    now, with the rest of its update."""
    loop = _page_event_loop()
    if loop is None:
        return None
    return loop.call_later(AFTER_REPLY_S, work, context=contextvars.Context())


class Later:
    """One piece of work that waits for a tap's reply (:func:`after_reply`), then runs under ``lock`` (the panel's
    lock of taps, so it never lands in the middle of a tap): asking again replaces the work still waiting, and
    :meth:`cancel` drops it."""

    def __init__(self, work: Callable[[], None], lock: contextlib.AbstractContextManager[Any]) -> None:
        self.work = work
        self.lock = lock
        self._handle: asyncio.TimerHandle | None = None

    def want(self) -> bool:
        """Run the work after the reply, in place of any still waiting; returns whether it waits (``False``
        outside a page event: nothing is scheduled, and the caller does the work now, with the rest of its
        update)."""
        self.cancel()
        self._handle = after_reply(self._run)
        return self._handle is not None

    @property
    def waiting(self) -> bool:
        """Whether the work is waiting for the reply (asked for and not run or dropped yet)."""
        return self._handle is not None

    def soon(self) -> None:
        """Run the work after the reply (:meth:`want`), or now outside a page event (with the caller's update, under
        whatever the caller holds)."""
        if not self.want():
            self.work()

    def cancel(self) -> None:
        """Drop the work still waiting, if any."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _run(self) -> None:
        with self.lock:
            self._handle = None
            self.work()


class VeilLater:
    """Raises a :class:`~views.widgets.VeilOver` after the tap's reply instead of in it; lowers its cover at once,
    and its grid's ``disabled`` after the reply.

    Raising or lowering the veil disables or enables the grid under it, and Flet's client then builds every key of
    the grid again (52 cards of Jokers Kill, the value pad of Bargain Bin): on a slow phone that doubled the time
    until the tap that completes a hand showed its card. So inside a page event the raise goes in a message of its
    own, :data:`AFTER_REPLY_S` after the reply (the card, the prompt and Confirm come first). Nothing can slip in
    between: the hand refuses a card while it is complete whether the veil is up or not, with the same reason.

    Lowering takes the cover away at once (a key the next tap needs, a Bargain Bin value after who gets the card,
    can be tapped as soon as it shows: a key's taps do not wait for its grid), and the grid's ``disabled``, which
    only screen readers hear, after the reply. After a Confirm the whole next hand is drawn after the reply (the
    panels' ``follow``), the veil's lowering with it: until then the grid stays dimmed, and a tap on the cover
    enters nothing and says to tap again (:func:`cover_refusal`). A later change cancels a change still waiting.
    Outside a page event (a unit test, a redraw on the page's thread, a change drawn after a reply) both are
    immediate.

    ``lock`` is the panel's lock of taps, which the deferred change takes (:class:`Later`). ``send`` sends the
    controls it changed (the panel's own way of sending, as after a tap).
    """

    def __init__(
        self,
        veil: VeilOver,
        lock: contextlib.AbstractContextManager[Any],
        send: Callable[[list[ft.Control]], None],
    ) -> None:
        self.veil = veil
        self.send = send
        self.wanted = veil.raised
        """Whether the veil is to be up (it may still be waiting to go up or down)."""
        self._later = Later(self._apply, lock)

    def want(self, raised: bool) -> list[ft.Control]:
        """Ask for the veil up or down; returns what to send with the tap now (the cover when it comes down at once;
        nothing when the change is to follow, or none is due)."""
        self.wanted = raised
        self._later.cancel()
        if raised == self.veil.raised and raised == self.veil.grid_veiled:
            return []
        if not self._later.want():  # outside a page event: at once
            return self.veil.set_raised(raised)
        return [] if raised else self.veil.set_cover(False)

    def drop(self) -> None:
        """Drop a change still waiting, and want the veil as it is (a Confirm: the next hand, drawn after the reply,
        says how it should be; a raise still waiting for the hand just confirmed would cover the next one
        meanwhile)."""
        self._later.cancel()
        self.wanted = self.veil.raised

    def _apply(self) -> None:
        changed = self.veil.set_raised(self.wanted)
        if changed:
            self.send(changed)


class NextHand:
    """The next hand after a Confirm, drawn after the Confirm's reply (:class:`Later`): the reply is the new
    standings, and the emptied hand follows in a message of its own. Bargain Bin's and Jokers Kill's panels keep
    one, and ask it for three things:

    - :meth:`follow` when the session moved on (the panel's ``follow``): the veils' changes still waiting are
      dropped (a raise over the hand just confirmed would cover the next one until it is drawn), and the hand is
      drawn after the reply, or at once outside a page event;
    - :meth:`drawn` as a redraw begins: it brings the whole hand, so the one waiting is not drawn again;
    - :meth:`repeated` as a Confirm is tapped: while the next hand waits, *Confirm hand* still looks enabled, and a
      second tap (a quick double tap) is the hand just confirmed, not the empty next one: it draws the next hand
      now, clears what was said, and confirms nothing more.

    ``redraw`` brings the panel up to its hand and returns what changed; ``send`` sends it; ``lock`` is the panel's
    lock of taps; ``veils`` are the panel's :class:`VeilLater`.
    """

    def __init__(
        self,
        redraw: Callable[[], list[ft.Control]],
        send: Callable[[list[ft.Control]], None],
        lock: contextlib.AbstractContextManager[Any],
        veils: Sequence[VeilLater],
    ) -> None:
        self.redraw = redraw
        self.send = send
        self.veils = tuple(veils)
        self._later = Later(self._draw, lock)

    def follow(self) -> None:
        """Draw the next hand after the reply (at once outside a page event), with no veil change of the hand
        just confirmed still waiting."""
        for veil in self.veils:
            veil.drop()
        self._later.soon()

    def drawn(self) -> None:
        """A redraw is bringing the whole hand: the one waiting is dropped."""
        self._later.cancel()

    def repeated(self, report: Callable[[str | None], None]) -> bool:
        """A Confirm tapped: ``True`` (and the next hand drawn now, ``report`` cleared) when it repeats the Confirm
        whose next hand still waits; ``False`` when it is a Confirm of its own."""
        if not self._later.waiting:
            return False
        report(None)
        self._draw()
        return True

    def _draw(self) -> None:
        self.send(self.redraw())


EntryBuilder = Callable[[EntryContext], Panel]


class ExtrasHook(Protocol):
    """Scoreboard extras: (label, value) pairs such as ("Cards left", "40"); money in ``money``, the app's money
    setting (US dollars when not given); words in ``words``, the table's language (English when not given; a
    label marked with ``N_`` and left in English is translated by the scoreboard)."""

    def __call__(
        self, session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
    ) -> list[tuple[str, str]]: ...


class EndHook(Protocol):
    """The end-of-game panel of a game, or ``None`` when it has nothing to add; money as :class:`ExtrasHook`."""

    def __call__(
        self, session: TableSession, money: MoneyFormat | None = None, words: Words | None = None
    ) -> ft.Control | None: ...


SetupHook = Callable[[Sequence[str], dict[str, Any], Words], ft.Control]
"""Game-specific set-up on the New-game screen (1111-9999's sides): given the seated players, in order, the
record's extra top-level keys (a dict the control fills in place, passed to ``SessionService.start(extra=...)``)
and the table's words, the control to show; called again whenever the seats change."""


@dataclass(frozen=True)
class TableUI:
    """A game's part of the table screen."""

    key: str
    """The scoring registry's game key."""
    entry: EntryBuilder
    """Builds the hand-entry panel (also used for extra-part entries and corrections)."""
    extras: ExtrasHook | None = None
    end: EndHook | None = None
    """Optional panel shown at the end of the game, under the winners (Bargain Bin: Vegas payouts, settle-up)."""
    parts: tuple[Part, ...] = ()
    """Extra parts of the record this panel enters as list entries (Jokers Kill: :attr:`Part.PLAYOFF`)."""
    setup: SetupHook | None = None
    """Optional game-specific set-up shown on the New-game screen (see :data:`SetupHook`)."""


def docked(ectx: EntryContext, *actions: ft.Control) -> None:
    """Put a panel's actions in the screen's bottom bar (kept on screen while the panel scrolls)."""
    ectx.dock.controls = list(actions)


def refresh(control: ft.Control) -> None:
    """``control.update()`` when it is on a page (screens built in unit tests are not)."""
    with contextlib.suppress(RuntimeError, AssertionError):
        control.update()


def send_each(controls: Sequence[ft.Control]) -> None:
    """Send each control on its own (one message each, in this order)."""
    for control in controls:
        refresh(control)


def isolated_around(control: ft.BaseControl, root: ft.BaseControl) -> list[ft.BaseControl]:
    """The isolated controls between ``control`` and ``root``, through Flet's links to a control's parent (set when
    a control is sent to the page: none on a screen built in a unit test, which sends nothing)."""
    between = itertools.takewhile(lambda parent: parent is not root, ancestors(control))
    return [parent for parent in between if parent.is_isolated()]


def ancestors(control: ft.BaseControl) -> Iterator[ft.BaseControl]:
    """The controls holding ``control``, nearest first, up to the page, by Flet's links to a control's parent (set
    when a control is sent to the page: a control never sent has none)."""
    parent = control.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def send_changes(root: ft.Control, changed: Sequence[ft.Control], past: Sequence[ft.Control] = ()) -> None:
    """Send ``changed`` (controls under ``root``) in one update of ``root``: one message, whatever changed.

    The kept controls a tap may change are :func:`~views.widgets.isolated`, so that the update walks past those
    that did not change (the 52 cards, the value keys, the hand rows); the ones in ``changed`` are opened for this
    update only, so their changes go with it. So are the isolated controls around them (a grid of keys, isolated
    so that an update that changes none of its keys, a Confirm's, does not walk its 52 keys: a key greyed out
    opens its grid). ``past``: controls known unchanged, with all they hold, which this update alone walks past
    (isolated for it: the entry panel, when a Confirm's reply leaves it as it was)."""
    opened: list[ft.BaseControl] = [control for control in changed if control.is_isolated()]
    opened += [around for control in changed for around in isolated_around(control, root)]
    closed = [control for control in past if not control.is_isolated()]
    for control in opened:
        set_isolated(control, False)
    for control in closed:
        set_isolated(control, True)
    try:
        refresh(root)
    finally:
        for control in closed:
            set_isolated(control, False)
        for control in opened:
            set_isolated(control, True)
