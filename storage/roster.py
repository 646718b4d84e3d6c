"""The player roster (``players.json``): names with stable ids, no accidental duplicates.

Names are matched ignoring case and spacing, so "ann", " Ann " and "ANN" are the same player. A rename keeps the old
name in the player's history; a merge folds one player into another (the dropped one's names go to the history).

>>> import tempfile, pathlib, threading
>>> roster = Roster(pathlib.Path(tempfile.mkdtemp()) / "players.json", threading.RLock())
>>> ann = roster.add("Ann")
>>> roster.can_add(" ann ")
False
>>> roster.add("ANN")
Traceback (most recent call last):
...
storage.errors.DuplicatePlayerError: 'ANN' is already in the roster as 'Ann'
>>> roster.rename(ann.id, "Annie").history
('Ann',)
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from storage.atomic import AtomicJSONStorage
from storage.errors import (
    ArchiveReadOnlyError,
    DuplicatePlayerError,
    InvalidPlayerNameError,
    PlayerNotFoundError,
)
from storage.models import Player, utc_now

MAX_NAME = 40


def name_key(name: str) -> str:
    """The form in which two names count as the same player.

    >>> name_key("  Mary   Ann ") == name_key("mary ann")
    True
    """
    return " ".join(name.split()).casefold()


def clean_name(name: Any) -> str:
    """A trimmed name with single spaces, or :class:`InvalidPlayerNameError`."""
    if not isinstance(name, str):
        raise InvalidPlayerNameError("a player's name must be text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidPlayerNameError("a player's name is empty")
    if len(cleaned) > MAX_NAME:
        raise InvalidPlayerNameError(f"the name {cleaned!r} is longer than {MAX_NAME} characters")
    return cleaned


class Roster:
    """Players known to the archive. Thread-safe (shares the archive's lock); every change is on disk on return."""

    def __init__(self, path: Path, lock: threading.RLock, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self._lock = lock
        self._read_only = read_only
        self._db = TinyDB(self.path, storage=AtomicJSONStorage)
        self._table = self._db.table("players")
        self._players: dict[str, tuple[int, dict[str, Any]]] = {}
        """player id → (TinyDB doc id, stored data), merged players included."""
        self.reload()

    def reload(self) -> None:
        """Read the roster file (raises :class:`json.JSONDecodeError` if it is damaged)."""
        with self._lock:
            self._table.clear_cache()
            self._players = {str(doc["id"]): (doc.doc_id, dict(doc)) for doc in self._table.all()}

    # --- reading ----------------------------------------------------------------------------------------------

    @staticmethod
    def _player(data: dict[str, Any]) -> Player:
        return Player(
            id=data["id"], name=data["name"], created_at=data["created_at"], history=tuple(data.get("history", ()))
        )

    def list(self) -> list[Player]:
        """Every current player, by name."""
        with self._lock:
            active = [self._player(d) for _, d in self._players.values() if not d.get("merged_into")]
        return sorted(active, key=lambda p: name_key(p.name))

    def get(self, player_id: str) -> Player:
        with self._lock:
            entry = self._players.get(player_id)
            if entry is None or entry[1].get("merged_into"):
                raise PlayerNotFoundError(f"there is no player with id {player_id!r}")
            return self._player(entry[1])

    def find(self, name: str) -> Player | None:
        """The current player whose name matches ``name`` (ignoring case and spacing), if any."""
        key = name_key(name) if isinstance(name, str) else ""
        with self._lock:
            for _, data in self._players.values():
                if not data.get("merged_into") and name_key(data["name"]) == key:
                    return self._player(data)
        return None

    # --- checking ---------------------------------------------------------------------------------------------

    def verify_add(self, name: str, *, except_id: str | None = None) -> str:
        """The cleaned name, or the error that :meth:`add` (or a rename) would raise."""
        cleaned = clean_name(name)
        existing = self.find(cleaned)
        if existing is not None and existing.id != except_id:
            raise DuplicatePlayerError(f"{name!r} is already in the roster as {existing.name!r}")
        return cleaned

    def can_add(self, name: str) -> bool:
        try:
            self.verify_add(name)
        except (DuplicatePlayerError, InvalidPlayerNameError):
            return False
        return True

    # --- changing ---------------------------------------------------------------------------------------------

    def _writable(self) -> None:
        if self._read_only:
            raise ArchiveReadOnlyError("the archive is open read-only: players cannot be changed")

    def add(self, name: str) -> Player:
        """Add a player (refuses a near-duplicate with :class:`DuplicatePlayerError`)."""
        with self._lock:
            self._writable()
            cleaned = self.verify_add(name)
            player_id = uuid.uuid4().hex[:12]
            data: dict[str, Any] = {"id": player_id, "name": cleaned, "created_at": utc_now(), "history": []}
            doc_id = self._table.insert(data)
            self._players[player_id] = (doc_id, data)
            return self._player(data)

    def ensure(self, name: str) -> Player:
        """The player matching ``name``, added first if there is none."""
        with self._lock:
            found = self.find(name)
            return found if found is not None else self.add(name)

    def _update(self, changes: dict[str, Callable[[MutableMapping[str, Any]], None]]) -> None:
        """Apply per-player changes in one write, then mirror them in memory."""
        by_doc = {self._players[pid][0]: fn for pid, fn in changes.items()}

        def apply(doc: MutableMapping[str, Any]) -> None:
            by_doc[self._players[str(doc["id"])][0]](doc)

        self._table.update(apply, doc_ids=list(by_doc))
        for pid, fn in changes.items():
            fn(self._players[pid][1])

    def rename(self, player_id: str, new_name: str) -> Player:
        """Rename a player; the old name is kept in ``history``."""
        with self._lock:
            self._writable()
            old = self.get(player_id)
            cleaned = self.verify_add(new_name, except_id=player_id)
            if cleaned == old.name:
                return old

            def change(doc: MutableMapping[str, Any]) -> None:
                doc["history"] = [*doc.get("history", []), old.name]
                doc["name"] = cleaned

            self._update({player_id: change})
            return self.get(player_id)

    def merge(self, keep_id: str, drop_id: str) -> Player:
        """Fold ``drop_id`` into ``keep_id`` (the same person entered twice); returns the kept player."""
        with self._lock:
            self._writable()
            keep, drop = self.get(keep_id), self.get(drop_id)
            if keep.id == drop.id:
                raise DuplicatePlayerError("a player cannot be merged with themselves")

            def grow(doc: MutableMapping[str, Any]) -> None:
                doc["history"] = [*doc.get("history", []), *drop.history, drop.name]

            def retire(doc: MutableMapping[str, Any]) -> None:
                doc["merged_into"] = keep.id

            self._update({keep_id: grow, drop_id: retire})
            return self.get(keep_id)
