"""Where things live in a data folder (names only; no I/O).

>>> shard_of("abc")
'a9'
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

SESSIONS = "sessions"
"""``sessions/<id>.json``: one small TinyDB per session (the truth)."""
INDEX = "index"
"""``index/<00..ff>.json``: 256 shards of session summaries (rebuildable)."""
DAMAGED = "damaged"
"""``damaged/<name>.<UTC time>``: files set aside because they could not be read."""
BACKUPS = "backups"
"""``backups/*.zip``: automatic, manual and pre-restore backups."""
DRAFTS = "drafts"
"""``drafts/<id>.drafts.json``: hands being entered, not confirmed yet."""
EXPORTS = "exports"
"""``exports/``: where the app writes exports by default (the only place inside the data folder an export may go)."""
PLAYERS = "players.json"
"""The player roster (TinyDB)."""
SETTINGS = "settings.json"
"""The app's settings (TinyDB)."""
JOURNAL = "pending-import.json"
"""The journal of an import under way; present only while (or if killed while) importing."""
RESTORE_JOURNAL = "pending-restore.json"
"""The journal of a restore under way: once it is on disk, the restore completes (see :mod:`storage.restoring`)."""
RESTORE_STAGING = ".restoring"
"""``.restoring/``: the backup's files, written before the restore journal; moved into place once it is written."""
LOCK_FILE = ".lock"
"""The single-instance lock."""
SESSION_TABLE = "session"
"""The TinyDB table of a session file (one document)."""
SHARD_TABLE = "sessions"
"""The TinyDB table of an index shard (one row per session)."""


def shard_of(session_id: str) -> str:
    """The index shard (two hex digits, 256 shards) that holds a session's summary."""
    return hashlib.sha1(session_id.encode("utf-8")).hexdigest()[:2]


def stamp() -> str:
    """The current UTC time as ``YYYYMMDDTHHMMSSffffffZ`` (for names of files set aside).

    >>> len(stamp())
    22
    """
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
