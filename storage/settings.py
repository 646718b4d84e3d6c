"""App settings (theme, four-colour suits, the money format, ...) as one TinyDB document in ``settings.json``.

Values are JSON (the money format is an object under ``money``); a key that an older file lacks reads as the
caller's default, so adding a setting needs no migration.

A ``settings.json`` that cannot be read (garbage, the wrong shape, a folder in its place) never stops the app: it
is set aside to ``damaged/`` like any damaged file (reported once through :meth:`SettingsStore.take_damage_notices`,
or the archive's notices when ``notices`` is shared) and the defaults apply.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = SettingsStore(folder)
>>> store.get("theme", "system")
'system'
>>> store.set("theme", "dark")
>>> SettingsStore(folder).get("theme")
'dark'
>>> store.set("money", {"currency": "EUR", "decimal": ","})
>>> SettingsStore(folder).get("money")
{'currency': 'EUR', 'decimal': ','}
>>> _ = (folder / "settings.json").write_text("garbage")
>>> store.get("theme", "system"), [n.name for n in store.take_damage_notices()]
('system', ['settings.json'])
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from storage.atomic import AtomicJSONStorage
from storage.damage import DAMAGE_ERRORS, DamageNotice, DamageNotices, set_aside, why
from storage.layout import SETTINGS

SETTINGS_FILE = SETTINGS


class SettingsStore:
    """Key/value settings kept durably (every ``set`` is on disk before it returns). Thread-safe.

    ``notices``: where to report a damaged settings file (share the archive's ``damage`` so that one banner
    tells about every file set aside); by default the store keeps its own."""

    def __init__(self, data_dir: Path, *, notices: DamageNotices | None = None, read_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / SETTINGS_FILE
        self.read_only = read_only
        self.damage = notices if notices is not None else DamageNotices()
        self._lock = threading.RLock()
        self._db = TinyDB(self.path, storage=AtomicJSONStorage)
        self._table = self._db.table("settings")

    def take_damage_notices(self) -> list[DamageNotice]:
        """A damaged settings file set aside since the last call (each reported once)."""
        return self.damage.take()

    def _doc(self) -> dict[str, Any]:
        try:
            docs = self._table.all()
            doc = dict(docs[0]) if docs else {}
        except DAMAGE_ERRORS as exc:
            if self.read_only:
                return {}
            set_aside(self.data_dir, self.path, why(exc), self.damage)
            self._table.clear_cache()
            return {}
        return doc

    def get(self, key: str, default: Any = None) -> Any:
        with self._lock:
            return self._doc().get(key, default)

    def all(self) -> dict[str, Any]:
        with self._lock:
            return self._doc()

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``; raises :class:`storage.atomic.StorageWriteError` if the disk refuses."""
        with self._lock:
            doc = self._doc()
            doc[key] = value
            self._table.upsert(Document(doc, doc_id=1))  # one write: the old or the new document, never none
