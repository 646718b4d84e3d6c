"""The packaged app's own start, in Chromium: ``main.py`` run as ``flet build``'s package runs it.

A packaged app runs the root ``main.py`` with no arguments, and Flet's runtime gives it its app-storage folder in
``FLET_APP_STORAGE_DATA``. Here that folder is a temporary one, and Flet's own variables for its server
(``FLET_FORCE_WEB_SERVER``: serve the browser view; ``FLET_SERVER_PORT``: on this port; both read by
``flet.app.run``) serve the same app to Chromium instead of to the package's own Flutter client, which connects to
``ft.run``'s socket server (``FLET_PLATFORM`` set: ``tests/app/test_packaged_app.py``).

One hand is played, the app is stopped and started again the same way: the game is still there, every file the app
wrote is in the app-storage folder (and nothing in the home folder), the daily automatic backup was made there, and
the Share screen says what the packaged app offers (no live table: that needs the computer version).
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from storage import Archive
from storage.backup import check_backup
from tests.support.browser import (
    ROOT,
    START_TIMEOUT,
    AppServer,
    button,
    close_context,
    enter_jk_hand,
    new_context,
    open_app,
    require_browser,
    seat,
    session_id_of,
    tap,
    wait_text,
)
from views.share import PACKAGED_NOTE

pytestmark = pytest.mark.browser

STANDINGS_AFTER_ONE_HAND = r"^1\. Ann: 2 points \(last hand \+2\)"


class PackagedApp(AppServer):
    """``python main.py`` with no arguments, ``FLET_APP_STORAGE_DATA`` set, served by Flet's variables."""

    def __init__(self, port: int, storage: Path, home: Path, log_dir: Path) -> None:
        super().__init__(port, storage, log_dir)
        self.env = {**os.environ, "FLET_APP_STORAGE_DATA": str(storage), "HOME": str(home)}
        self.env |= {"FLET_FORCE_WEB_SERVER": "true", "FLET_SERVER_PORT": str(port)}
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "FLET_PLATFORM", "FLET_VIEW_PATH", "XDG_DATA_HOME"):
            self.env.pop(name, None)

    def start(self) -> None:
        if self.process is not None:
            raise RuntimeError("the app is already running")
        self._starts += 1
        log = (self.log_dir / f"server-{self._starts}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "main.py"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"main.py exited with {self.process.returncode}:\n{self.log()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"main.py did not answer on port {self.port} within {START_TIMEOUT} s:\n{self.log()}")


@pytest.fixture
def packaged_app(free_port: int, tmp_path: Path) -> Iterator[PackagedApp]:
    require_browser()
    (tmp_path / "home").mkdir()
    app = PackagedApp(free_port, tmp_path / "app-storage" / "data", tmp_path / "home", tmp_path)
    app.start()
    try:
        yield app
    finally:
        app.stop()


def _auto_backups(storage: Path) -> list[Path]:
    return sorted((storage / "backups").glob("auto-*.zip"))


def _wait_for(what: str, found: Any, timeout_s: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout_s} s: {what}")


def test_the_packaged_start_keeps_the_game_and_its_backups_in_the_app_storage_folder(
    browser: Any, packaged_app: PackagedApp, tmp_path: Path
) -> None:
    storage = packaged_app.data_dir
    # The first start makes the day's automatic backup in the app-storage folder.
    first = _wait_for("the first start's automatic backup", lambda: _auto_backups(storage))
    assert "Card Table Companion: open http://127.0.0.1:" in packaged_app.log()

    context = new_context(browser)
    tab = context.new_page()
    try:
        open_app(tab, packaged_app)
        tap(tab, "New game")
        tab.get_by_role("button", name=re.compile(r"^Jokers Kill")).click()
        seat(tab, ["Ann", "Ben", "Cat"])
        tap(tab, "Start game")
        tab.wait_for_url(re.compile(r"/continue/[0-9a-f]+$"))
        session = session_id_of(tab)
        enter_jk_hand(tab, "9S", ["4H", "7D", "QC"])
        wait_text(tab, STANDINGS_AFTER_ONE_HAND)

        # Share says what the packaged app offers: no live table, no address, no QR code.
        button(tab, "Share").click()
        tab.get_by_text(PACKAGED_NOTE[0], exact=True).wait_for()
        tab.get_by_text(PACKAGED_NOTE[1], exact=True).wait_for()
        assert tab.get_by_label(re.compile(r"^QR code of")).count() == 0
        assert tab.get_by_text(re.compile(r"http://|PIN")).count() == 0

        # The day changes while the app is closed: the next start makes a new automatic backup.
        packaged_app.stop()
        yesterday = datetime.now(UTC) - timedelta(days=1)
        moved = first[0].with_name(f"auto-{yesterday:%Y-%m-%dT%H%M%S%f}Z.zip")
        first[0].rename(moved)
        os.utime(moved, (yesterday.timestamp(), yesterday.timestamp()))
        packaged_app.start()

        open_app(tab, packaged_app, "/")
        button(tab, "Continue").click()
        tab.get_by_role("button", name=re.compile(r"Jokers Kill")).first.wait_for()
        open_app(tab, packaged_app, f"/continue/{session}")
        wait_text(tab, STANDINGS_AFTER_ONE_HAND)
    finally:
        close_context(context)

    new = _wait_for("the second start's automatic backup", lambda: set(_auto_backups(storage)) - {moved})
    checked = check_backup(next(iter(new)))
    assert any(session in name for name in checked.sessions), (session, sorted(checked.sessions))

    packaged_app.stop()
    with Archive(storage, read_only=True) as archive:
        record = archive.load_session(session).record
    assert record["hands"] == [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]
    assert [p.name for p in (tmp_path / "home").iterdir()] == [], "the packaged app wrote outside its storage"
    written = {p.relative_to(storage).parts[0] for p in storage.rglob("*")}
    assert {"backups"} < written, written
