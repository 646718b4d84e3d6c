"""App settings (theme, four-colour suits, the money format, ...) as one TinyDB document in ``settings.json``.

Values are JSON (the money format is an object under ``money``); a key that an older file lacks reads as the
caller's default, so adding a setting needs no migration.

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
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from storage.atomic import AtomicJSONStorage

SETTINGS_FILE = "settings.json"


class SettingsStore:
    """Key/value settings kept durably (every ``set`` is on disk before it returns). Thread-safe."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / SETTINGS_FILE
        self._lock = threading.RLock()
        self._db = TinyDB(self.path, storage=AtomicJSONStorage)
        self._table = self._db.table("settings")

    def _doc(self) -> dict[str, Any]:
        docs = self._table.all()
        return dict(docs[0]) if docs else {}

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
