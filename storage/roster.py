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
from collections.abc import Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from scoring.base import passes
from storage.atomic import AtomicJSONStorage
from storage.errors import (
    ArchiveReadOnlyError,
    DuplicatePlayerError,
    InvalidPlayerNameError,
    PlayerNotFoundError,
)
from storage.limits import MAX_NAME, is_unsafe_char
from storage.models import Player, utc_now

__all__ = ["MAX_NAME", "Roster", "check_roster_data", "clean_name", "name_key", "player_id_for"]


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
    if any(is_unsafe_char(char) for char in cleaned):
        raise InvalidPlayerNameError(
            f"the name {cleaned!r} holds a control or bidi-override character; those are not allowed in a name"
        )
    return cleaned


def player_id_for(name: str) -> str:
    """The id a rebuilt roster gives a name that no session recorded an id for (sessions saved before ids were
    kept in them): derived from the name, so every rebuild gives the same id.

    >>> player_id_for("Ann") == player_id_for(" ann ") != player_id_for("Ben")
    True
    """
    import hashlib

    return "n" + hashlib.sha1(name_key(name).encode("utf-8")).hexdigest()[:11]


def check_roster_data(data: Any) -> None:
    """Raise :class:`ValueError` unless ``data`` (a parsed ``players.json``) is a roster: a ``players`` table of
    ``{id, name, created_at[, history, merged_into]}`` rows.

    >>> check_roster_data({"players": {"1": {"id": "a", "name": "Ann", "created_at": "2026"}}})
    >>> check_roster_data({"players": [1, 2]})
    Traceback (most recent call last):
    ...
    ValueError: the players table is not a table of players
    """
    if not isinstance(data, dict):
        raise ValueError("the roster is not a JSON object")
    table = data.get("players", {})
    if not isinstance(table, dict):
        raise ValueError("the players table is not a table of players")
    for key, row in table.items():
        if not isinstance(row, dict):
            raise ValueError(f"player row {key} is not an object")
        for field in ("id", "name", "created_at"):
            if not isinstance(row.get(field), str):
                raise ValueError(f"player row {key} has no {field}")
        history = row.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
            raise ValueError(f"player row {key} has a history that is not a list of names")
        if row.get("merged_into") is not None and not isinstance(row["merged_into"], str):
            raise ValueError(f"player row {key} is merged into something that is not a player id")


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

    @classmethod
    def empty(cls, path: Path, lock: threading.RLock) -> Roster:
        """A read-only roster in memory with nobody in it (for a read-only archive whose roster is unreadable)."""
        roster = cls.__new__(cls)
        roster.path = Path(path)
        roster._lock = lock
        roster._read_only = True
        roster._players = {}
        return roster

    def reload(self) -> None:
        """Read the roster file (raises :class:`json.JSONDecodeError`, :class:`ValueError`,
        :class:`~storage.errors.UnreadableFileError` if it is damaged or not a file)."""
        with self._lock:
            check_roster_data(self._db.storage.read() or {})
            self._table.clear_cache()
            self._table._next_id = None  # TinyDB keeps the next document number in memory: the file may be another
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
        return passes(lambda: self.verify_add(name), (DuplicatePlayerError, InvalidPlayerNameError))

    # --- changing ---------------------------------------------------------------------------------------------

    def _writable(self) -> None:
        if self._read_only:
            raise ArchiveReadOnlyError("the archive is open read-only: players cannot be changed")

    def add(self, name: str, *, player_id: str | None = None, history: tuple[str, ...] = ()) -> Player:
        """Add a player (refuses a near-duplicate with :class:`DuplicatePlayerError`); ``player_id`` keeps an id
        known from elsewhere (a session, an import journal) unless another player has it."""
        with self._lock:
            self._writable()
            cleaned = self.verify_add(name)
            if player_id is None or player_id in self._players:
                player_id = uuid.uuid4().hex[:12]
            data: dict[str, Any] = {
                "id": player_id,
                "name": cleaned,
                "created_at": utc_now(),
                "history": list(history),
            }
            doc_id = self._table.insert(data)
            self._players[player_id] = (doc_id, data)
            return self._player(data)

    def ensure(self, name: str, *, player_id: str | None = None) -> Player:
        """The player matching ``name``, added first (with ``player_id`` if it is free) if there is none."""
        with self._lock:
            found = self.find(name)
            return found if found is not None else self.add(name, player_id=player_id)

    def ids_of(self, names: Iterable[str]) -> dict[str, str]:
        """``name → player id`` for those of ``names`` that are in the roster."""
        with self._lock:
            by_key = {name_key(d["name"]): pid for pid, (_, d) in self._players.items() if not d.get("merged_into")}
        out = {}
        for name in names:
            pid = by_key.get(name_key(name)) if isinstance(name, str) else None
            if pid is not None:
                out[name] = pid
        return out

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
