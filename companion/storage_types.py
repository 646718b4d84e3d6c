"""The storage types and errors the screens name (values the archive returns, errors it raises), given to them here
so that ``views/`` never imports :mod:`storage`.

Screens reach the archive only through :class:`~companion.services.AppServices` (``ctx.services.archive`` and the
services beside it); these are the value types and errors those calls return or raise.

>>> SessionStatus.FINISHED.value
'finished'
>>> issubclass(PlayerNotFoundError, StorageError)
True
"""

from __future__ import annotations

from storage import (
    Archive,
    ImportReport,
    Player,
    PlayerNotFoundError,
    SessionDoc,
    SessionStatus,
    SessionSummary,
    StorageError,
    StorageWriteError,
)

__all__ = [
    "Archive",
    "ImportReport",
    "Player",
    "PlayerNotFoundError",
    "SessionDoc",
    "SessionStatus",
    "SessionSummary",
    "StorageError",
    "StorageWriteError",
]
