"""Game nights on TinyDB: ``nights.json`` in the data folder, one document per night.

What a night document holds, its schema version and the checks it passes are in :mod:`storage.night_docs`; a
night is checked there before it is kept, and a night of a newer version is left in the file untouched.

Writes go through :class:`storage.atomic.AtomicJSONStorage` (temp file, fsync, rename, fsync folder): every change
is on disk before the call returns, and a crash leaves the old file or the new one. An unreadable ``nights.json`` is
moved aside by the archive's own helper (``Archive.set_aside``: ``damaged/nights.json.<time>``) and the app goes on
with no nights. A data folder from before nights existed has no ``nights.json``: it opens with no nights, and the
file is created by the first save only.

Export and import (:func:`export_nights`, :func:`read_nights`, :func:`import_nights`) carry nights as JSON
documents, validated and bounded (:func:`storage.night_docs.check_night`).
Wiring them into the archive's export file is a few lines: put ``export_nights(store, ids)`` under a ``"nights"``
key of the export payload, and on import pass that list to :func:`read_nights` before anything is written, then to
:func:`import_nights` with the map of exported session ids to the ids the games have in this archive.

>>> import tempfile, pathlib
>>> from storage.archive import Archive
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with Archive(folder) as archive:
...     store = NightStore.of(archive)
...     saved = store.save({"id": "n1", "name": "Friday", "started": "2026-12-04T19:00:00.000Z", "closed": None,
...                         "status": "open", "players": ["Ann", "Ben"], "sessions": [], "entries": [], "paid": []})
>>> [n["name"] for n in NightStore(folder).list()], saved["schema_version"]
(['Friday'], 1)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB
from tinydb.table import Document

from storage.atomic import AtomicJSONStorage, StorageWriteError, atomic_write_bytes, fsync_dir
from storage.errors import ArchiveReadOnlyError, ImportRefusedError, StorageError
from storage.models import new_id
from storage.night_docs import (
    MAX_IMPORT_NIGHTS,
    NIGHTS_FILE,
    NIGHTS_TABLE,
    check_night,
    check_nights_file,
)

if TYPE_CHECKING:
    from storage.core import ArchiveCore

DAMAGE_ERRORS = (json.JSONDecodeError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError)
"""What reading a damaged ``nights.json`` raises."""

SetAside = Callable[[Path, str], "Path | None"]
"""The archive's helper that moves a damaged file to ``damaged/`` (``Archive.set_aside``)."""


class NightNotFoundError(StorageError, KeyError):
    """No night has this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "night not found"


class NightConflictError(StorageError, ValueError):
    """A game that already belongs to another night (a game belongs to one night at most)."""


# --------------------------------------------------------------------------------------------------------------
# The store


class NightStore:
    """Every night of one data folder (``nights.json``). Thread-safe; every change is durable on return.

    ``problems`` lists, in words, what could not be read when the store opened (a damaged file set aside, a night
    of a newer version left untouched). Open it with :meth:`of` beside the archive, or with the archive's
    ``set_aside`` helper.
    """

    def __init__(self, data_dir: Path, *, set_aside: SetAside | None = None, read_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / NIGHTS_FILE
        self.read_only = read_only
        self.problems: list[str] = []
        self._set_aside = set_aside
        self._lock = threading.RLock()
        self._untouchable = False
        """True when ``nights.json`` is damaged and could not be set aside: it is never written then."""
        self._db = TinyDB(self.path, storage=AtomicJSONStorage)
        self._table = self._db.table(NIGHTS_TABLE, cache_size=0)
        self._nights: dict[str, tuple[int, dict[str, Any]]] = {}
        self.reload()

    @classmethod
    def of(cls, archive: ArchiveCore) -> NightStore:
        """The nights beside an open archive (same folder, its set-aside helper, its read-only mode)."""
        return cls(archive.data_dir, set_aside=archive.set_aside, read_only=archive.read_only)

    def reload(self) -> None:
        """Read ``nights.json`` again: valid nights are listed; a damaged file is set aside."""
        with self._lock:
            self._nights = {}
            self._untouchable = False
            try:
                docs = self._table.all() if self.path.exists() else []
                rows = [(doc.doc_id, dict(doc)) for doc in docs]
            except DAMAGE_ERRORS as exc:
                why = f"{type(exc).__name__}: {exc}"[:200]
                moved = self._set_aside(self.path, why) if self._set_aside is not None else None
                if moved is None or self.path.exists():  # not moved (read-only, no helper): untouched, never written
                    self.problems.append(f"{NIGHTS_FILE} could not be read ({why}); it was left untouched")
                    self._untouchable = True
                else:
                    self.problems.append(
                        f"{NIGHTS_FILE} could not be read ({why}); it was set aside as damaged/{moved.name} "
                        "and the app goes on with no nights"
                    )
                return
            for doc_id, raw in rows:
                label = raw.get("id") if isinstance(raw.get("id"), str) else f"#{doc_id}"
                try:
                    stored = check_night(raw)
                except (StorageError, ValueError) as exc:
                    self.problems.append(f"night {str(label)[:64]} in {NIGHTS_FILE} was left untouched: {exc}")
                    continue
                self._nights[stored["id"]] = (doc_id, stored)

    # -- reading -------------------------------------------------------------------------------------------------

    def list(self) -> list[dict[str, Any]]:
        """Every readable night, the newest first (by start time)."""
        with self._lock:
            docs = [dict(doc) for _, doc in self._nights.values()]
        return sorted(docs, key=lambda d: (d["started"], d["id"]), reverse=True)

    def get(self, night_id: str) -> dict[str, Any]:
        """One night's document; :class:`NightNotFoundError` if there is none with this id."""
        with self._lock:
            found = self._nights.get(night_id)
            if found is None:
                raise NightNotFoundError(f"there is no night {night_id!r}")
            return dict(found[1])

    def __len__(self) -> int:
        return len(self._nights)

    def __contains__(self, night_id: object) -> bool:
        return night_id in self._nights

    def night_of(self, session_id: str) -> str | None:
        """The id of the night a game belongs to, if any."""
        with self._lock:
            for night_id, (_, doc) in self._nights.items():
                if session_id in doc["sessions"]:
                    return night_id
        return None

    # -- writing -------------------------------------------------------------------------------------------------

    def _writable(self) -> None:
        if self.read_only:
            raise ArchiveReadOnlyError("the nights cannot be changed: the archive is open read-only")
        if self._untouchable:
            raise ArchiveReadOnlyError(f"the nights cannot be changed: {NIGHTS_FILE} could not be read or set aside")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageWriteError(self.path, exc) from exc

    def _check_games(self, doc: Mapping[str, Any]) -> None:
        for session_id in doc["sessions"]:
            other = self.night_of(session_id)
            if other is not None and other != doc["id"]:
                name = self._nights[other][1]["name"]
                raise NightConflictError(f"game {session_id[:8]} already belongs to the night {name!r}")

    def save(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and save a night (new or changed); returns the stored document.

        Raises :class:`NightDocumentError` (invalid), :class:`NightConflictError` (a game of another night),
        :class:`~storage.errors.ArchiveReadOnlyError`, or :class:`~storage.atomic.StorageWriteError` (the disk
        refused; the file is as it was).
        """
        with self._lock:
            self._writable()
            stored = check_night(doc)
            self._check_games(stored)
            found = self._nights.get(stored["id"])
            if found is None:
                doc_id = self._table.insert(stored)
            else:
                doc_id = found[0]
                self._table.upsert(Document(stored, doc_id=doc_id))
            self._nights[stored["id"]] = (doc_id, stored)
            return dict(stored)

    def delete(self, night_id: str) -> None:
        """Forget a night (its games stay in the archive)."""
        with self._lock:
            self._writable()
            found = self._nights.get(night_id)
            if found is None:
                raise NightNotFoundError(f"there is no night {night_id!r}")
            self._table.remove(doc_ids=[found[0]])
            del self._nights[night_id]

    def replace_file(self, data: bytes | None) -> None:
        """Replace the whole ``nights.json`` by ``data`` (checked first with :func:`check_nights_file`), or remove
        it when ``None`` (no nights), durably, and read it again: what a restore does. A file that could not be
        read before is replaced too (the restore's own backup kept it)."""
        with self._lock:
            if self.read_only:
                raise ArchiveReadOnlyError("the nights cannot be changed: the archive is open read-only")
            if data is not None:
                check_nights_file(json.loads(data.decode("utf-8")))
                atomic_write_bytes(self.path, data)
            elif self.path.exists() or self.path.is_symlink():
                try:
                    self.path.unlink()
                    fsync_dir(self.data_dir)
                except OSError as exc:
                    raise StorageWriteError(self.path, exc) from exc
            self._db.close()  # a fresh table: TinyDB keeps the next document number in memory
            self._db = TinyDB(self.path, storage=AtomicJSONStorage)
            self._table = self._db.table(NIGHTS_TABLE, cache_size=0)
            self.problems.clear()
            self.reload()

    def remove_session(self, session_id: str) -> str | None:
        """Take a deleted game out of the night that holds it; returns that night's id (or ``None``)."""
        with self._lock:
            night_id = self.night_of(session_id)
            if night_id is None:
                return None
            doc = self.get(night_id)
            doc["sessions"] = [s for s in doc["sessions"] if s != session_id]
            self.save(doc)
            return night_id


# --------------------------------------------------------------------------------------------------------------
# Export and import


def export_nights(store: NightStore, ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The nights ``ids`` (all when ``None``) as JSON-ready documents, for the ``"nights"`` key of an export."""
    if ids is None:
        return store.list()
    return [store.get(night_id) for night_id in ids]


def read_nights(items: Any) -> list[dict[str, Any]]:
    """Validate the ``"nights"`` list of an import file before anything is written.

    Raises :class:`~storage.errors.ImportRefusedError` naming the first night that is not valid.

    >>> read_nights([{"id": "n1", "name": "Fri\\x1bday", "started": "", "status": "open", "players": ["A", "B"]}])
    Traceback (most recent call last):
    ...
    storage.errors.ImportRefusedError: night 1 of the file cannot be imported: night 'n1' is not valid: name: it \
contains a control character
    """
    if not isinstance(items, list):
        raise ImportRefusedError("the file's nights are not a list")
    if len(items) > MAX_IMPORT_NIGHTS:
        raise ImportRefusedError(f"the file has {len(items)} nights, more than the {MAX_IMPORT_NIGHTS} an import takes")
    out = []
    for n, item in enumerate(items, start=1):
        try:
            out.append(check_night(item))
        except (StorageError, ValueError) as exc:
            raise ImportRefusedError(f"night {n} of the file cannot be imported: {exc}") from None
    if len({d["id"] for d in out}) != len(out):
        raise ImportRefusedError("the file lists the same night twice")
    return out


@dataclass
class NightImportReport:
    """What :func:`import_nights` did; ``messages`` say it in words."""

    imported: int = 0
    skipped: int = 0
    ids: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "schema_version"} == {
        k: v for k, v in b.items() if k != "schema_version"
    }


def import_nights(
    store: NightStore, nights: list[dict[str, Any]], session_ids: Mapping[str, str | None] | None = None
) -> NightImportReport:
    """Add nights read by :func:`read_nights`, all of them in one durable write (all or nothing).

    ``session_ids`` maps each exported game id to the id it has in this archive (``None`` or absent: the game is
    not there, and is left out of its night, in words); without a map the ids are kept. A night already in the
    store unchanged is skipped; the same id with other content is added under a new id. A game that already
    belongs to another night stays there and is left out of the imported one.
    """
    report = NightImportReport()
    with store._lock:
        store._writable()
        claimed = {s: n for n, (_, doc) in store._nights.items() for s in doc["sessions"]}
        incoming: list[dict[str, Any]] = []
        for doc in nights:
            doc = dict(doc)
            existing = store._nights.get(doc["id"])
            if existing is not None and _same(existing[1], doc):
                report.skipped += 1
                continue
            if existing is not None:
                doc["id"] = new_id()
            kept = []
            for old in doc["sessions"]:
                sid = old if session_ids is None else session_ids.get(old)
                if sid is None:
                    report.messages.append(f"{doc['name']!r}: game {old[:8]} is not in this archive and was left out")
                elif sid in claimed and claimed[sid] != doc["id"]:
                    other = store._nights[claimed[sid]][1]["name"] if claimed[sid] in store._nights else "another"
                    report.messages.append(
                        f"{doc['name']!r}: game {sid[:8]} already belongs to the night {other!r} and was left out"
                    )
                elif sid not in kept:
                    kept.append(sid)
                    claimed[sid] = doc["id"]
            doc["sessions"] = kept
            incoming.append(check_night(doc))
        if incoming:
            ids = store._table.insert_multiple(incoming)  # one write of nights.json: every night or none
            for doc_id, doc in zip(ids, incoming, strict=True):
                store._nights[doc["id"]] = (doc_id, doc)
        report.imported = len(incoming)
        report.ids = [d["id"] for d in incoming]
    if report.imported:
        report.messages.insert(0, f"{report.imported} night{'s' if report.imported != 1 else ''} imported.")
    if report.skipped:
        report.messages.append(
            f"{report.skipped} night{'s were' if report.skipped != 1 else ' was'} already there and skipped."
        )
    return report
