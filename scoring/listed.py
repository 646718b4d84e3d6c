"""A list of per-game descriptors that imports the games' modules when it is first used, not when it is imported.

Each game keeps one descriptor (``GAME``, ``ENTRY``, ``PANEL``) at the end of its own module, and each layer's list
names each of those modules in one line. Starting the app (Home) needs none of them: a game's record models, scorer,
entry state and panel are imported the first time anything reads the list (finds a game, lists the games).

>>> games = Listed("GAME", "scoring.jokers_kill", "scoring.bargain_bin")
>>> games.loaded
False
>>> [game.key for game in games], games.loaded
(['jokers-kill', 'bargain-bin'], True)
>>> games[0].name, len(games), games[-1:] == (games[1],)
('Jokers Kill', 2, True)
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Listed(Sequence[T], Generic[T]):
    """The ``attribute`` of each of ``modules`` (dotted names), in this order, imported on first use."""

    def __init__(self, attribute: str, *modules: str) -> None:
        self.attribute = attribute
        self.modules = modules
        self._items: tuple[T, ...] | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the modules were imported (the list was used)."""
        return self._items is not None

    def items(self) -> tuple[T, ...]:
        """Every descriptor, importing their modules the first time."""
        items = self._items
        if items is None:
            with self._lock:  # two pages may ask at once
                if self._items is None:
                    self._items = tuple(getattr(importlib.import_module(name), self.attribute) for name in self.modules)
                items = self._items
        return items

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self.items()[index]

    def __len__(self) -> int:
        return len(self.modules)

    def __iter__(self) -> Iterator[T]:
        return iter(self.items())

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Listed):
            return self.items() == other.items()
        return isinstance(other, tuple) and self.items() == other

    def __hash__(self) -> int:
        return hash((self.attribute, self.modules))

    def __repr__(self) -> str:
        return f"Listed({self.attribute!r}, {', '.join(map(repr, self.modules))})"


__all__ = ["Listed"]
