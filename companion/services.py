"""The app's services: one object per running app that owns everything the screens share. No Flet in here.

:class:`AppServices` holds the data folder, the settings service, the session archive, the live sessions, the
players roster, the live table (sharing, the PIN), the statistics cache and the game nights. It is built once, by
the composition root (:mod:`app.main`), and handed to every page; nothing in the app keeps per-app state in a
module-global.

>>> import tempfile, pathlib
>>> services = AppServices.open(pathlib.Path(tempfile.mkdtemp()) / "data")
>>> services.settings.current().theme.value
'system'
>>> table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
>>> [s.id for s in services.sessions.unfinished()] == [table.id], services.players.find("Ann") is not None
(True, True)
>>> services.live.sessions is services.sessions, services.live.address.shared
(True, False)
>>> services.damage.message()  # nothing was set aside
''
>>> services.close()
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from companion.config import DataDirError, ensure_data_dir
from companion.damage import DamageReport
from companion.night_service import NightService
from companion.players import PlayerDirectory
from companion.session import SessionService
from companion.settings import SettingsService
from companion.sharing import LiveTable, ShareAddress
from storage import Archive, StorageError
from storage.settings import SettingsStore

if TYPE_CHECKING:  # made, and their modules imported, when first used: Home shows none of them
    from companion.history import SessionLists
    from companion.ratings import RatingService
    from companion.seasons import SeasonService
    from companion.stats import OutcomeCache


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
    nights: NightService
    """The game nights: the open night (which every game started joins), its ledger, settle-up and recap."""
    damage: DamageReport
    """The files set aside in ``damaged/`` that the user has not dismissed yet (the banner on Home): the archive's
    and the settings' notices, taken once for the whole app, so every tab shows the same banner."""
    store: SettingsStore
    """The settings file (the seasons are kept in it)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stats: OutcomeCache | None = field(default=None, repr=False)
    _lists: SessionLists | None = field(default=None, repr=False)
    _ratings: RatingService | None = field(default=None, repr=False)
    _seasons: SeasonService | None = field(default=None, repr=False)

    # The services below are made when a screen first asks for them (Home needs none), each once, under the lock.

    @property
    def stats(self) -> OutcomeCache:
        """The statistics cache of this data folder (each game's outcome, kept until its record changes)."""
        with self._lock:
            if self._stats is None:
                from companion.stats import CACHE_FILE, OutcomeCache

                self._stats = OutcomeCache(self.data_dir / CACHE_FILE)
            return self._stats

    @property
    def lists(self) -> SessionLists:
        """The History and Continue lists, remembered until the archive changes (shared by every tab)."""
        with self._lock:
            if self._lists is None:
                from companion.history import SessionLists

                self._lists = SessionLists(self.archive)
            return self._lists

    @property
    def ratings(self) -> RatingService:
        """The players' ratings per game and across all games, derived from the finished games."""
        stats = self.stats
        with self._lock:
            if self._ratings is None:
                from companion.ratings import RatingService

                self._ratings = RatingService(self.archive, stats)
            return self._ratings

    @property
    def seasons(self) -> SeasonService:
        """The seasons (kept with the settings), their standings and recaps."""
        lists, ratings = self.lists, self.ratings
        with self._lock:
            if self._seasons is None:
                from companion.seasons import Seasons, SeasonService

                self._seasons = SeasonService(Seasons(self.store, self.archive, lists.every), ratings, self.nights.all)
            return self._seasons

    def data_version(self) -> tuple[object, ...]:
        """What the screens show from the data folder, in a value that differs whenever any of it changed: the
        archive's sessions (its :attr:`~storage.Archive.generation`), the players roster, the game nights and the
        damage notice. Cheap (no session is listed); a page compares it to tell whether a screen it already drew
        is still current.

        >>> import tempfile, pathlib
        >>> services = AppServices.open(pathlib.Path(tempfile.mkdtemp()) / "data")
        >>> before = services.data_version()
        >>> before == services.data_version()
        True
        >>> _ = services.sessions.start("jokers-kill", ["Ann", "Ben"])
        >>> before == services.data_version()
        False
        >>> services.close()
        """
        archive = self.archive
        return (archive.generation, tuple(archive.players.list()), archive.nights.list(), self.damage.message())

    @classmethod
    def open(cls, data_dir: Path, *, address: ShareAddress | None = None, pin: str | None = None) -> AppServices:
        """Open (creating if needed) the data folder; :class:`~companion.config.DataDirError` if it is unusable or
        another Card Table Companion (another process, or another :class:`AppServices` here) is using it.

        ``address`` is where the server listens (see :meth:`ShareAddress.listening`); ``pin`` fixes the PIN
        (tests), else a new one is made."""
        folder = ensure_data_dir(data_dir)
        try:
            archive = Archive(folder)
        except StorageError as exc:  # locked by another app, or not writable: one line at start-up
            raise DataDirError(str(exc)) from None
        try:
            # One set of notices: a damaged settings.json is told in the same banner as the archive's files.
            store = SettingsStore(folder, notices=archive.damage)
            settings = SettingsService(store)
            settings.current()  # read it now: a damaged file is set aside (and told) before the first page
        except BaseException:
            archive.close()
            raise
        sessions = SessionService(archive)
        services = cls(
            data_dir=folder,
            settings=settings,
            archive=archive,
            sessions=sessions,
            players=PlayerDirectory(archive),
            live=LiveTable(sessions, address=address, pin=pin),
            nights=NightService(archive, sessions, settings),
            damage=DamageReport(archive.damage),
            store=store,
        )
        services.nights.ratings = lambda: services.ratings
        return services

    def close(self) -> None:
        """Release the data folder (its lock) for another app, once the hands being entered are written (a tap's
        draft waits for its reply to leave: the app may stop in between)."""
        self.sessions.settle()
        self.live.feed.close()
        self.archive.close()

    def __enter__(self) -> AppServices:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
