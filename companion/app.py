"""The app's services, shared by every screen, and the function that serves the app.

:class:`AppServices` is the one object that views receive: the data folder, the settings service, and (as later
issues add them) the session archive and the live session service. Views call it; they never touch storage.

>>> import tempfile, pathlib
>>> services = AppServices.open(pathlib.Path(tempfile.mkdtemp()) / "data")
>>> services.settings.current().theme.value
'system'
>>> table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
>>> [s.id for s in services.sessions.unfinished()] == [table.id], services.players.find("Ann") is not None
(True, True)
>>> services.close()

This module is also the entry of a packaged app (``[tool.flet.app] module`` in pyproject): run as a script, it
serves the app in a native window with its data in Flet's app-storage folder.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from companion.config import DEFAULT_HOST, DEFAULT_PORT, DataDirError, default_data_dir, ensure_data_dir
from companion.players import PlayerDirectory
from companion.session import SessionService
from companion.settings import SettingsService
from storage import Archive, StorageError

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
"""The app's assets folder, as an absolute path (Flet resolves relative ones against the entry script)."""
APP_TITLE = "Card Table Companion"


@dataclass
class AppServices:
    """Everything the screens need from the app, created once per server process and shared by every page.

    Later issues add fields here (the session archive, the live session service); views reach them as
    ``ctx.services.<name>``.
    """

    data_dir: Path
    settings: SettingsService
    archive: Archive
    """The saved sessions and the players roster (one writer per data folder)."""
    sessions: SessionService
    """The live table sessions: start, reopen, record hands."""
    players: PlayerDirectory
    """The players roster with renames and merges."""

    @classmethod
    def open(cls, data_dir: Path) -> AppServices:
        """Open (creating if needed) the data folder; :class:`~companion.config.DataDirError` if it is unusable or
        another Card Table Companion is using it."""
        folder = ensure_data_dir(data_dir)
        settings = SettingsService.open(folder)
        archive, sessions, players = _open_archive(folder)
        return cls(data_dir=folder, settings=settings, archive=archive, sessions=sessions, players=players)

    def close(self) -> None:
        """Release the data folder (its lock) for another app; every :class:`AppServices` of this folder in this
        process shares the archive, so this closes it for them too."""
        with _ARCHIVES_LOCK:
            key = self.data_dir.resolve()
            if key in _ARCHIVES and _ARCHIVES[key][0] is self.archive:
                del _ARCHIVES[key]
        self.archive.close()


_ARCHIVES: dict[Path, tuple[Archive, SessionService, PlayerDirectory]] = {}
"""The open archive of each data folder in this process (one writer per folder: a second app *process* gets
:class:`~storage.ArchiveLockedError`; opening the folder again in the same process shares the open one)."""
_ARCHIVES_LOCK = threading.Lock()


def _open_archive(folder: Path) -> tuple[Archive, SessionService, PlayerDirectory]:
    key = folder.resolve()
    with _ARCHIVES_LOCK:
        found = _ARCHIVES.get(key)
        if found is not None:
            return found
        try:
            archive = Archive(folder)
        except StorageError as exc:  # locked by another app, or not writable: one line at start-up
            raise DataDirError(str(exc)) from None
        opened = (archive, SessionService(archive), PlayerDirectory(archive))
        _ARCHIVES[key] = opened
        return opened


class Presentation(StrEnum):
    """How the app is shown."""

    BROWSER = "browser"
    """Serve the browser view and open it in the default web browser."""
    SERVER = "server"
    """Serve the browser view only; someone opens the printed address."""
    DESKTOP = "desktop"
    """A native window (needs Flet's desktop client and a display)."""


def desktop_available() -> bool:
    """Whether a native window can be opened here: Flet's desktop client is installed and there is a display."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if os.name == "posix" and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return os.uname().sysname == "Darwin"
    return True


def display_available() -> bool:
    """Whether a browser window could be shown (always on Windows/macOS; on Linux only with a display)."""
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


AUTO_BACKUP_EVERY_S = 6 * 3600
"""How often the running app checks whether today's automatic backup exists (it makes at most one a day)."""


def auto_backup_once(services: AppServices) -> str | None:
    """Make today's automatic backup of the archive if it is not there yet (keeps 7). Returns a one-line problem
    instead of raising: a failed backup must never stop the game at the table."""
    try:
        services.archive.auto_backup()
    except (OSError, StorageError) as exc:
        return f"automatic backup failed: {exc}"
    return None


def start_auto_backups(services: AppServices, every_s: float = AUTO_BACKUP_EVERY_S) -> threading.Thread:
    """Run :func:`auto_backup_once` now and then every ``every_s`` seconds, in a daemon thread (zipping a large
    archive takes seconds, so it stays off the UI's threads)."""

    def loop() -> None:
        while True:
            problem = auto_backup_once(services)
            if problem is not None:
                print(f"companion: {problem}", file=sys.stderr)
            time.sleep(every_s)

    thread = threading.Thread(target=loop, name="auto-backup", daemon=True)
    thread.start()
    return thread


def serve(
    services: AppServices,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    presentation: Presentation = Presentation.SERVER,
    on_started: Callable[[str], None] | None = None,
) -> None:
    """Serve the app until the process is stopped. The browser view is served offline (no CDN)."""
    import flet as ft

    from views.shell import make_page_handler  # the composition root: the only place companion reaches views

    if not services.archive.read_only:
        start_auto_backups(services)
    if presentation is not Presentation.DESKTOP:
        # The browser view: Flet's web server behind the Origin/Host guard (app/web.py), which refuses every other
        # site's page before a screen is built.
        from app.web import serve_web

        if presentation is Presentation.SERVER:
            # Flet's own switch for "serve the browser view, open nothing" (it also picks this on a headless Linux).
            os.environ["FLET_FORCE_WEB_SERVER"] = "true"
        serve_web(
            make_page_handler(services),
            host=host,
            port=port,
            assets_dir=str(ASSETS_DIR),
            open_browser=presentation is Presentation.BROWSER,
            on_started=on_started,
        )
        return
    if on_started is not None:
        on_started(f"http://{host}:{port}")
    ft.run(
        make_page_handler(services),
        name="",
        host=host,
        port=port,
        view=ft.AppView.FLET_APP,
        assets_dir=str(ASSETS_DIR),
        no_cdn=True,
    )


def main() -> None:
    """Entry of the packaged app: a native window, data in Flet's app-storage folder."""
    services = AppServices.open(default_data_dir())
    if desktop_available():
        serve(services, port=0, presentation=Presentation.DESKTOP)
    else:
        serve(services, port=DEFAULT_PORT, presentation=Presentation.BROWSER)


if __name__ == "__main__":
    main()
