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

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from companion.config import DataDirError, ensure_data_dir
from companion.damage import DamageReport
from companion.history import SessionLists
from companion.night_service import NightService
from companion.players import PlayerDirectory
from companion.ratings import RatingService
from companion.seasons import Seasons, SeasonService
from companion.session import SessionService
from companion.settings import SettingsService
from companion.sharing import LiveTable, ShareAddress
from companion.stats import CACHE_FILE, OutcomeCache
from storage import Archive, StorageError
from storage.settings import SettingsStore


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
    nights: NightService
    """The game nights: the open night (which every game started joins), its ledger, settle-up and recap."""
    damage: DamageReport
    """The files set aside in ``damaged/`` that the user has not dismissed yet (the banner on Home): the archive's
    and the settings' notices, taken once for the whole app, so every tab shows the same banner."""
    lists: SessionLists
    """The History and Continue lists, remembered until the archive changes (shared by every tab)."""
    ratings: RatingService
    """The players' ratings per game and across all games, derived from the finished games."""
    seasons: SeasonService
    """The seasons (kept with the settings), their standings and recaps."""

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
        stats = OutcomeCache(folder / CACHE_FILE)
        ratings = RatingService(archive, stats)
        nights = NightService(archive, sessions, settings)
        nights.ratings = ratings
        lists = SessionLists(archive)
        return cls(
            data_dir=folder,
            settings=settings,
            archive=archive,
            sessions=sessions,
            players=PlayerDirectory(archive),
            live=LiveTable(sessions, address=address, pin=pin),
            stats=stats,
            nights=nights,
            damage=DamageReport(archive.damage),
            lists=lists,
            ratings=ratings,
            seasons=SeasonService(Seasons(store, archive, lists.every), ratings, nights.all),
        )

    def close(self) -> None:
        """Release the data folder (its lock) for another app."""
        self.live.feed.close()
        self.archive.close()

    def __enter__(self) -> AppServices:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
