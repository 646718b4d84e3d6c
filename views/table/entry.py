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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import flet as ft

from companion.session import TableSession
from views.context import ViewContext

PART_SLUGS = {"hands": "hand", "playoff": "playoff", "tiebreak": "tiebreak", "sudden_death": "sudden-death"}
"""The route word of each part of a record: ``/continue/<id>/hand-3``, ``.../tiebreak-1``, ``.../sudden-death-2``."""
PART_WORDS = {
    "hands": "hand",
    "playoff": "play-off hand",
    "tiebreak": "tie-break round",
    "sudden_death": "sudden-death hand",
}
"""What a player calls one entry of each part."""


class EntrySlugError(ValueError):
    """A route segment that names no entry of a game (``hand-0``, ``round-2``...)."""


@dataclass(frozen=True)
class EntryTarget:
    """What an entry panel fills in: the next entry of a part, or a correction of entry ``index``.

    >>> EntryTarget("hands").label, EntryTarget("playoff", 1).label, EntryTarget("hands", 0).slug
    ('next hand', 'play-off hand 2', 'hand-1')
    >>> EntryTarget("tiebreak", 0).label, EntryTarget("sudden_death", 1).slug, EntryTarget("sudden_death", 1).key
    ('tie-break round 1', 'sudden-death-2', 'sudden_death/1')
    """

    part: str = "hands"
    """``hands`` or an extra part of the record (``playoff``, ``tiebreak``, ``sudden_death``)."""
    index: int | None = None
    """0-based index of the entry being corrected; ``None`` for a new entry."""

    @property
    def is_new(self) -> bool:
        return self.index is None

    @property
    def word(self) -> str:
        return PART_WORDS.get(self.part, "hand")

    @property
    def label(self) -> str:
        return f"next {self.word}" if self.index is None else f"{self.word} {self.index + 1}"

    @property
    def slug(self) -> str:
        """The last segment of the correction's route (``hand-3``, ``playoff-1``, ``tiebreak-1``,
        ``sudden-death-2``)."""
        return f"{PART_SLUGS.get(self.part, 'hand')}-{(self.index or 0) + 1}"

    @property
    def key(self) -> str:
        """Names the draft kept by :meth:`TableSession.set_draft`."""
        return "new" if self.index is None else f"{self.part}/{self.index}"


def parse_entry(slug: str) -> EntryTarget:
    """The entry a correction route names: ``hand-3`` → hand index 2; ``playoff-1``, ``tiebreak-1``,
    ``sudden-death-1`` → entry 0 of that part. Raises :class:`EntrySlugError` for anything else.

    >>> parse_entry("hand-3"), parse_entry("playoff-1").part
    (EntryTarget(part='hands', index=2), 'playoff')
    >>> parse_entry("tiebreak-2"), parse_entry("sudden-death-1")
    (EntryTarget(part='tiebreak', index=1), EntryTarget(part='sudden_death', index=0))
    >>> parse_entry("round-0")
    Traceback (most recent call last):
    ...
    views.table.entry.EntrySlugError: 'round-0' is not a hand of a game (hand-1, playoff-1, ...)
    """
    words = "|".join(PART_SLUGS.values())
    match = re.fullmatch(rf"({words})-([1-9][0-9]*)", slug)
    if match is None:
        examples = ", ".join(f"{word}-1" for word in PART_SLUGS.values())
        raise EntrySlugError(f"'{slug}' is not a hand of a game ({examples}, …)")
    part = next(part for part, word in PART_SLUGS.items() if word == match.group(1))
    return EntryTarget(part, int(match.group(2)) - 1)


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
