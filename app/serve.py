"""Serving the app: Flet's server (offline, no CDN), the display and desktop probes, the daily backup thread.

:func:`serve` builds the page handler from :mod:`views.shell` over one :class:`~companion.services.AppServices`
and hands it to :func:`run_flet`, the one place that calls ``ft.run`` (so another way of starting the web server
can take its place without touching the rest).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from app.signals import hold_stop_handlers
from companion.config import DEFAULT_HOST, DEFAULT_PORT
from companion.services import AppServices
from companion.uploads import clear_uploads
from storage import StorageError
from storage.limits import MAX_BACKUP_BYTES, MAX_IMPORT_BYTES

if TYPE_CHECKING:
    import flet as ft

MAX_UPLOAD_BYTES = max(MAX_BACKUP_BYTES, MAX_IMPORT_BYTES)
"""The largest file the browser view's page may upload (a backup to restore, 50 MB)."""

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
"""The app's assets folder, as an absolute path (Flet resolves relative ones against the entry script)."""


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


DESKTOP_EXTRA = "pip install 'card-table-companion[desktop]'"
"""What brings Flet's desktop client (the ``desktop`` extra: ``flet-desktop``)."""


def desktop_problem() -> str | None:
    """Why no native window can be opened here, in a few words (``None``: it can). Fetches Flet's desktop client
    now if it is not on this computer yet (a one-time download, ``FLET_CLIENT_URL`` overrides where from), so that
    a failed download is said in one line and the browser view served instead, rather than failing the start."""
    if os.environ.get("FLET_VIEW_PATH") or os.environ.get("FLET_PLATFORM"):
        # A client of its own: a developer's build, or the packaged app's, which sets FLET_PLATFORM and connects to
        # Flet's socket server (ft.run); a phone or desktop package has no flet-desktop and no use for it.
        return None
    if importlib.util.find_spec("flet_desktop") is None:
        return f"Flet's desktop client is not installed ({DESKTOP_EXTRA})"
    if not desktop_available():
        return "there is no display"
    import flet_desktop

    try:
        flet_desktop.ensure_client_cached()
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        return f"Flet's desktop client could not be fetched ({reason})"
    return None


def display_available() -> bool:
    """Whether a browser window could be shown (always on Windows/macOS; on Linux only with a display)."""
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


AUTO_BACKUP_EVERY_S = 6 * 3600
"""How often the running app checks whether today's automatic backup exists (it makes at most one a day)."""
AUTO_BACKUP_DELAY_S = 10.0
"""The first check waits for the first page to be drawn, or this many seconds when no page opens: zipping the
archive never competes with the start for the processor."""


def auto_backup_once(services: AppServices) -> str | None:
    """Make today's automatic backup of the archive if it is not there yet (keeps 7). Returns a one-line problem
    instead of raising: a failed backup must never stop the game at the table."""
    try:
        services.archive.auto_backup()
    except (OSError, StorageError) as exc:
        return f"automatic backup failed: {exc}"
    return None


def start_auto_backups(
    services: AppServices,
    every_s: float = AUTO_BACKUP_EVERY_S,
    *,
    after: threading.Event | None = None,
    delay_s: float = AUTO_BACKUP_DELAY_S,
) -> threading.Thread:
    """Run :func:`auto_backup_once` once ``after`` is set (the first page is drawn; at most ``delay_s`` seconds
    later), then every ``every_s`` seconds, in a daemon thread (zipping a large archive takes seconds, so it stays
    off the UI's threads and out of the start)."""

    def loop() -> None:
        if after is not None:
            after.wait(delay_s)
        while True:
            problem = auto_backup_once(services)
            if problem is not None:
                print(f"companion: {problem}", file=sys.stderr)
            time.sleep(every_s)

    thread = threading.Thread(target=loop, name="auto-backup", daemon=True)
    thread.start()
    return thread


def run_flet(
    handler: Callable[[ft.Page], None],
    *,
    host: str,
    port: int,
    desktop: bool,
    open_browser: bool = False,
    on_started: Callable[[str], None] | None = None,
    upload_dir: Path | None = None,
) -> None:
    """Run Flet's server (and, for ``desktop``, its native window) with ``handler`` for every page, until the
    process is stopped. The browser view is served offline (``no_cdn``) behind the Origin/Host guard of
    :mod:`app.web`, which refuses every other site's page before a screen is built; ``on_started(url)`` is called
    once it listens. With ``upload_dir``, a file picked in the browser view is uploaded there over HTTP (up to
    :data:`MAX_UPLOAD_BYTES`)."""
    if not desktop:
        from app.web import enable_uploads, serve_web

        if upload_dir is not None:
            enable_uploads(MAX_UPLOAD_BYTES)
        serve_web(
            handler,
            host=host,
            port=port,
            assets_dir=str(ASSETS_DIR),
            open_browser=open_browser,
            on_started=on_started,
            upload_dir=None if upload_dir is None else str(upload_dir),
        )
        return
    import flet as ft

    if on_started is not None:
        on_started(f"http://{host}:{port}")
    ft.run(handler, name="", host=host, port=port, view=ft.AppView.FLET_APP, assets_dir=str(ASSETS_DIR), no_cdn=True)


def serve(
    services: AppServices,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    presentation: Presentation = Presentation.SERVER,
    on_started: Callable[[str], None] | None = None,
) -> None:
    """Serve the app until the process is stopped.

    The screens' modules are imported, and the first page's Flet classes warmed up, in a thread once the server
    listens (:func:`views.shell.warm_up`), while the browser loads Flet's web client; a page that connects sooner
    waits for the import it needs."""
    if presentation is Presentation.SERVER:
        # Flet's own switch for "serve the browser view, open nothing" (it also picks this on a headless Linux).
        os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    upload_dir = None
    first_page = threading.Event()
    """Set once the first page is drawn: the work that can wait (the day's backup) starts then."""
    if not services.archive.read_only:
        start_auto_backups(services, after=first_page)
        with contextlib.suppress(OSError):  # without it, a picked file comes over the page's connection
            upload_dir = clear_uploads(services.archive.data_dir)
    desktop = presentation is Presentation.DESKTOP

    def handler(page: ft.Page) -> None:
        from views.shell import make_page_handler

        try:
            make_page_handler(services)(page)
        finally:
            first_page.set()

    def listening(url: str) -> None:
        threading.Thread(target=_warm_up, name="warm-up", daemon=True).start()
        if on_started is not None:
            on_started(url)

    # One stop handler from start to end (app.signals); the desktop window is Flet's to close.
    with contextlib.nullcontext() if desktop else hold_stop_handlers():
        run_flet(
            handler,
            host=host,
            port=port,
            desktop=desktop,
            open_browser=presentation is Presentation.BROWSER,
            on_started=listening,
            upload_dir=upload_dir,
        )


def _warm_up() -> None:
    from views.shell import warm_up

    warm_up()
