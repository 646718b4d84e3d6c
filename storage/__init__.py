"""Durable storage for Card Table Companion, on TinyDB.

Every write is crash-safe (:mod:`storage.atomic`); sessions live one per file with a sharded index
(:mod:`storage.core`), so a save costs the same however large the archive grows. Session documents are
versioned pydantic models migrated step by step on load (:mod:`storage.models`). Export (:mod:`storage.exports`),
the journaled import (:mod:`storage.imports`, :mod:`storage.journal`) and rolling backups (:mod:`storage.backup`)
complete the set; :class:`Archive` (:mod:`storage.archive`) puts them together. Files that cannot be read are set
aside and reported once (:mod:`storage.damage`).
"""

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
from storage.imports import ImportFileRefusedError, ImportReport
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
