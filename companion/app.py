"""The app's services, shared by every screen, and the function that serves the app.

:class:`AppServices` is the one object that views receive: the data folder, the settings service, and (as later
issues add them) the session archive and the live session service. Views call it; they never touch storage.

>>> import tempfile, pathlib
>>> services = AppServices.open(pathlib.Path(tempfile.mkdtemp()) / "data")
>>> services.settings.current().theme.value
'system'

This module is also the entry of a packaged app (``[tool.flet.app] module`` in pyproject): run as a script, it
serves the app in a native window with its data in Flet's app-storage folder.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from companion.config import DEFAULT_HOST, DEFAULT_PORT, default_data_dir, ensure_data_dir
from companion.settings import SettingsService

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

    @classmethod
    def open(cls, data_dir: Path) -> AppServices:
        """Open (creating if needed) the data folder; :class:`~companion.config.DataDirError` if it is unusable."""
        folder = ensure_data_dir(data_dir)
        return cls(data_dir=folder, settings=SettingsService.open(folder))


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

    view = ft.AppView.FLET_APP if presentation is Presentation.DESKTOP else ft.AppView.WEB_BROWSER
    if presentation is Presentation.SERVER:
        # Flet's own switch for "serve the browser view, open nothing" (it also picks this on a headless Linux).
        os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    if on_started is not None:
        on_started(f"http://{host}:{port}")
    ft.run(
        make_page_handler(services),
        name="",
        host=host,
        port=port,
        view=view,
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
