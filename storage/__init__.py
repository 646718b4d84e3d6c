"""Durable storage for Card Table Companion, on TinyDB.

Every write is crash-safe (:mod:`storage.atomic`); sessions live one per file with a sharded index
(:mod:`storage.core`), so a save costs the same however large the archive grows. Session documents are
versioned pydantic models migrated step by step on load (:mod:`storage.models`). Export (:mod:`storage.exports`),
the journaled import (:mod:`storage.imports`, :mod:`storage.journal`) and rolling backups (:mod:`storage.backup`)
complete the set; :class:`Archive` (:mod:`storage.archive`) puts them together. Files that cannot be read are set
aside and reported once (:mod:`storage.damage`).
"""

import importlib
from typing import TYPE_CHECKING, Any

from storage.archive import Archive, open_archive
from storage.atomic import AtomicJSONStorage, StorageWriteError
from storage.damage import DamageNotice, describe_damage
from storage.errors import (
    ArchiveLockedError,
    ArchiveReadOnlyError,
    ArchiveUnwritableError,
    BackupError,
    DuplicatePlayerError,
    ExportFormatError,
    ImportRefusedError,
    InputLimitError,
    InvalidPlayerNameError,
    InvalidSessionError,
    LockFileError,
    OutputPathError,
    PlayerNotFoundError,
    SchemaVersionError,
    SessionDamagedError,
    SessionNotFoundError,
    StorageError,
)
from storage.limits import MAX_IMPORT_BYTES
from storage.models import (
    SCHEMA_VERSION,
    LogEntry,
    Player,
    SessionDoc,
    SessionStatus,
    SessionSummary,
    migrate,
    record_fingerprint,
)
from storage.roster import Roster

if TYPE_CHECKING:
    from storage.imports import ImportFileRefusedError, ImportReport

_LAZY = {"ImportFileRefusedError": "storage.imports", "ImportReport": "storage.imports"}
"""Names of the package imported from their module when first asked for (opening the app imports no import code)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'storage' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_IMPORT_BYTES",
    "SCHEMA_VERSION",
    "Archive",
    "ArchiveLockedError",
    "ArchiveReadOnlyError",
    "ArchiveUnwritableError",
    "AtomicJSONStorage",
    "BackupError",
    "DamageNotice",
    "DuplicatePlayerError",
    "ExportFormatError",
    "ImportFileRefusedError",
    "ImportRefusedError",
    "ImportReport",
    "InputLimitError",
    "InvalidPlayerNameError",
    "InvalidSessionError",
    "LockFileError",
    "LogEntry",
    "OutputPathError",
    "Player",
    "PlayerNotFoundError",
    "Roster",
    "SchemaVersionError",
    "SessionDamagedError",
    "SessionDoc",
    "SessionNotFoundError",
    "SessionStatus",
    "SessionSummary",
    "StorageError",
    "StorageWriteError",
    "describe_damage",
    "migrate",
    "open_archive",
    "record_fingerprint",
]
