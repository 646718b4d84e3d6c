"""The per-game hooks of the table screen: what a game adds to the generic flow.

Every game module in :mod:`views.table.games` defines ``UI = TableUI(...)``: its key, the builder of its
hand-entry panel, and optional scoreboard extras (Jokers Kill: cards and hands left). The table screen finds it
with :func:`table_ui`; a game without a module gets the scoreboard and a note that entry is not available yet.

>>> table_ui("jokers-kill").key
'jokers-kill'
>>> table_ui("no-such-game") is None
True
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import flet as ft

from companion.session import TableSession
from views.context import ViewContext


@dataclass(frozen=True)
class EntryTarget:
    """What an entry panel fills in: the next entry of a part, or a correction of entry ``index``.

    >>> EntryTarget("hands").label, EntryTarget("playoff", 1).label, EntryTarget("hands", 0).slug
    ('next hand', 'play-off hand 2', 'hand-1')
    """

    part: str = "hands"
    """``hands`` or an extra part of the record (``playoff``)."""
    index: int | None = None
    """0-based index of the entry being corrected; ``None`` for a new entry."""

    @property
    def is_new(self) -> bool:
        return self.index is None

    @property
    def word(self) -> str:
        return "play-off hand" if self.part == "playoff" else "hand"

    @property
    def label(self) -> str:
        return f"next {self.word}" if self.index is None else f"{self.word} {self.index + 1}"

    @property
    def slug(self) -> str:
        """The last segment of the correction's route (``hand-3``, ``playoff-1``)."""
        return f"{'playoff' if self.part == 'playoff' else 'hand'}-{(self.index or 0) + 1}"

    @property
    def key(self) -> str:
        """Names the draft kept by :meth:`TableSession.set_draft`."""
        return "new" if self.index is None else f"{self.part}/{self.index}"


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
    submit: Callable[[Mapping[str, Any]], bool]
    """Confirm the entry (add it, or replace the corrected one): ``True`` when it was recorded. Errors are shown by
    the screen (a message naming the problem; nothing entered is lost)."""
    report: Callable[[str | None], None]
    """Show (or with ``None`` clear) a message under the panel."""
    extras: dict[str, Any] = field(default_factory=dict)
    reuse: Callable[[dict[str, Any]], bool] | None = None
    """Set by a panel that can follow a change of the session in place: called with the new ``record`` for the same
    target, it redraws itself and returns ``True`` (the screen then keeps the panel instead of building a new one,
    which keeps redraws after each hand small)."""


EntryBuilder = Callable[[EntryContext], ft.Control]
ExtrasHook = Callable[[TableSession], list[tuple[str, str]]]
"""Scoreboard extras: (label, value) pairs such as ("Cards left", "40")."""
EndHook = Callable[[TableSession], "ft.Control | None"]
"""The end-of-game panel of a game, or ``None`` when it has nothing to add."""
SetupHook = Callable[[Sequence[str], dict[str, Any]], ft.Control]
"""Game-specific set-up on the New-game screen (1111-9999's sides): given the seated players, in order, and the
record's extra top-level keys (a dict the control fills in place, passed to ``SessionService.start(extra=...)``),
the control to show; called again whenever the seats change."""


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
    parts: tuple[str, ...] = ()
    """Extra parts of the record this panel enters as list entries (Jokers Kill: ``playoff``)."""
    setup: SetupHook | None = None
    """Optional game-specific set-up shown on the New-game screen (see :data:`SetupHook`)."""


@cache
def _registry() -> dict[str, TableUI]:
    from views.table import games

    found: dict[str, TableUI] = {}
    for info in pkgutil.iter_modules(games.__path__):
        module = importlib.import_module(f"{games.__name__}.{info.name}")
        ui = getattr(module, "UI", None)
        if isinstance(ui, TableUI):
            found[ui.key] = ui
    return found


def table_ui(game: str) -> TableUI | None:
    """The table hooks of ``game``, or ``None`` if its entry panel is not written yet."""
    return _registry().get(game)


def refresh(control: ft.Control) -> None:
    """``control.update()`` when it is on a page (screens built in unit tests are not)."""
    with contextlib.suppress(RuntimeError, AssertionError):
        control.update()
