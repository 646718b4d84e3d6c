"""Durable storage for Card Table Companion, on TinyDB.

Every write is crash-safe (:mod:`storage.atomic`); sessions live one per file with a sharded index
(:mod:`storage.archive`), so a save costs the same however large the archive grows. Session documents are
versioned pydantic models migrated step by step on load (:mod:`storage.models`). Export, import
(:mod:`storage.transfer`) and rolling backups (:mod:`storage.backup`) complete the set.
"""

from storage.archive import Archive
from storage.atomic import AtomicJSONStorage, StorageWriteError
from storage.errors import (
    ArchiveLockedError,
    ArchiveReadOnlyError,
    ArchiveUnwritableError,
    BackupError,
    DuplicatePlayerError,
    ExportFormatError,
    ImportRefusedError,
    InvalidPlayerNameError,
    InvalidSessionError,
    PlayerNotFoundError,
    SchemaVersionError,
    SessionDamagedError,
    SessionNotFoundError,
    StorageError,
)
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
from storage.transfer import MAX_IMPORT_BYTES, ImportReport

__all__ = [
    "MAX_IMPORT_BYTES",
    "SCHEMA_VERSION",
    "Archive",
    "ArchiveLockedError",
    "ArchiveReadOnlyError",
    "ArchiveUnwritableError",
    "AtomicJSONStorage",
    "BackupError",
    "DuplicatePlayerError",
    "ExportFormatError",
    "ImportRefusedError",
    "ImportReport",
    "InvalidPlayerNameError",
    "InvalidSessionError",
    "LogEntry",
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
    "migrate",
    "record_fingerprint",
]
