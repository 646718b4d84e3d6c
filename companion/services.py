"""The app's services: one object per running app that owns everything the screens share. No Flet in here.

:class:`AppServices` holds the data folder, the settings service, the session archive, the live sessions, the
players roster, the live table (sharing, the PIN) and the statistics cache. It is built once, by the composition
root (:mod:`app.main`), and handed to every page; nothing in the app keeps per-app state in a module-global.

>>> import tempfile, pathlib
>>> services = AppServices.open(pathlib.Path(tempfile.mkdtemp()) / "data")
>>> services.settings.current().theme.value
'system'
>>> table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
>>> [s.id for s in services.sessions.unfinished()] == [table.id], services.players.find("Ann") is not None
(True, True)
>>> services.live.sessions is services.sessions, services.live.address.shared
(True, False)
>>> services.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from companion.config import DataDirError, ensure_data_dir
from companion.players import PlayerDirectory
from companion.session import SessionService
from companion.settings import SettingsService
from companion.sharing import LiveTable, ShareAddress
from companion.stats import CACHE_FILE, OutcomeCache
from storage import Archive, StorageError


@dataclass(eq=False)
class AppServices:
    """Everything the screens need from the app, created once per server process and shared by every page.

    Views reach these as ``ctx.services.<name>``; they never touch storage themselves.
    """

    data_dir: Path
    settings: SettingsService
    archive: Archive
    """The saved sessions and the players roster (one writer per data folder)."""
    sessions: SessionService
    """The live table sessions: start, reopen, record hands."""
    players: PlayerDirectory
    """The players roster with renames and merges."""
    live: LiveTable
    """The live table: where the app is shared, the PIN, which game ``/live`` shows."""
    stats: OutcomeCache
    """The statistics cache of this data folder (each game's outcome, kept until its record changes)."""

    @classmethod
    def open(cls, data_dir: Path, *, address: ShareAddress | None = None, pin: str | None = None) -> AppServices:
        """Open (creating if needed) the data folder; :class:`~companion.config.DataDirError` if it is unusable or
        another Card Table Companion (another process, or another :class:`AppServices` here) is using it.

        ``address`` is where the server listens (see :meth:`ShareAddress.listening`); ``pin`` fixes the PIN
        (tests), else a new one is made."""
        folder = ensure_data_dir(data_dir)
        settings = SettingsService.open(folder)
        try:
            archive = Archive(folder)
        except StorageError as exc:  # locked by another app, or not writable: one line at start-up
            raise DataDirError(str(exc)) from None
        sessions = SessionService(archive)
        return cls(
            data_dir=folder,
            settings=settings,
            archive=archive,
            sessions=sessions,
            players=PlayerDirectory(archive),
            live=LiveTable(sessions, address=address, pin=pin),
            stats=OutcomeCache(folder / CACHE_FILE),
        )

    def close(self) -> None:
        """Release the data folder (its lock) for another app."""
        self.archive.close()

    def __enter__(self) -> AppServices:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
