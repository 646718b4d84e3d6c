"""The errors that :mod:`storage` raises. Every one carries a message a player understands."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every storage problem; ``str(error)`` is a message for people."""


class ArchiveLockedError(StorageError):
    """Another Card Table Companion already has this data folder open for writing."""


class ArchiveUnwritableError(StorageError):
    """The data folder cannot be created or written (no permission, read-only medium)."""


class ArchiveReadOnlyError(StorageError):
    """A change was asked of an archive that was opened read-only."""


class SessionNotFoundError(StorageError, KeyError):
    """No session has this id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "session not found"


class SessionDamagedError(StorageError):
    """A session file that cannot be read; it has been set aside, never overwritten."""


class SchemaVersionError(StorageError):
    """A document written by a newer version of the app (or with a version this app does not know)."""


class InvalidSessionError(StorageError, ValueError):
    """A session document of the wrong shape (a bad id, a record without game or players)."""


class DuplicatePlayerError(StorageError, ValueError):
    """A player name that matches an existing one (ignoring case and spacing)."""


class PlayerNotFoundError(StorageError, KeyError):
    """No player in the roster has this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "player not found"


class InvalidPlayerNameError(StorageError, ValueError):
    """An empty or over-long player name."""


class ImportRefusedError(StorageError):
    """A file that cannot be imported (too big, not JSON, not a game record); nothing was imported from it."""


class BackupError(StorageError):
    """A backup that cannot be made, read or restored."""


class EmptyBackupError(BackupError):
    """A whole, valid backup that holds no sessions: restoring it would empty the archive, so it is restored only
    when asked for explicitly (a confirmation in the app, ``--replace-with-empty`` on the command line)."""


class ExportFormatError(StorageError, ValueError):
    """An export format other than ``json`` or ``csv``."""


class InputLimitError(StorageError, ValueError):
    """Input beyond a bound of :mod:`storage.limits` (too long, too many, a control character); names the field."""


class UnreadableFileError(StorageError):
    """A file of the data folder that cannot be read as one: a folder, a FIFO or a device in its place, or a read
    refused (permission). Set aside like a damaged file."""


class LockFileError(StorageError):
    """The data folder's lock file is not a plain file (a symbolic link, a folder): the folder is not opened."""


class OutputPathError(StorageError):
    """An export or backup target that is refused: inside the data folder, or not a regular file or a new path."""
