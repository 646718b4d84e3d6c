"""The host's Share screen shows an address, QR code and PIN only when phones can use them.

With ``--share`` it shows them; with sharing off it says how to share and shows no 127.0.0.1 address or QR code; in the
packaged app (Flet's app-storage folder set) it says plainly that the live table needs the computer version.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.config import PACKAGED_DATA_ENV
from companion.session import SessionService
from companion.sharing import LiveTable, ShareAddress
from storage import Archive
from tests.support.screens import child_controls
from views.share import PACKAGED_NOTE, SHARING_OFF_NOTE, ShareScreen

SHARED = ShareAddress("0.0.0.0", 8550, lan="192.168.1.5")
LOCAL = ShareAddress("127.0.0.1", 8550)


def controls(control: Any) -> Iterator[Any]:
    yield control
    for child in child_controls(control):
        yield from controls(child)


def shown(address: ShareAddress, tmp_path: Path) -> tuple[list[str], list[ft.Image]]:
    """The texts and images of the Share screen's body for a live table at ``address``."""
    archive = Archive(tmp_path / "data")
    screen = ShareScreen.__new__(ShareScreen)  # the body alone: no page is needed to draw it
    screen.live = LiveTable(SessionService(archive), address=address, pin="4321")
    screen.session_id = None
    screen.body = ft.Column()
    screen.message = ft.Text("", visible=False)
    screen.rebuild()
    found = list(controls(screen.body))
    archive.close()
    return [str(c.value) for c in found if isinstance(c, ft.Text) and c.value], [
        c for c in found if isinstance(c, ft.Image)
    ]


@pytest.fixture(autouse=True)
def not_packaged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PACKAGED_DATA_ENV, raising=False)


def test_shared_it_shows_the_lan_address_its_qr_code_and_the_pin(tmp_path: Path) -> None:
    texts, images = shown(SHARED, tmp_path)
    assert "http://192.168.1.5:8550/live" in texts and "4 3 2 1" in texts
    assert [image.semantics_label for image in images] == ["QR code of http://192.168.1.5:8550/live"]


def test_sharing_off_says_how_to_share_and_shows_no_dead_qr_code(tmp_path: Path) -> None:
    texts, images = shown(LOCAL, tmp_path)
    assert texts[:2] == list(SHARING_OFF_NOTE) and "companion --share" in texts[1]
    assert images == [] and not any("127.0.0.1" in t or "http://" in t for t in texts)
    assert "4 3 2 1" in texts, "the PIN stays on the host's screen, ready for when the table is shared"


def test_the_packaged_app_says_the_live_table_needs_the_computer_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PACKAGED_DATA_ENV, str(tmp_path / "app-storage"))
    for address in (LOCAL, SHARED):
        texts, images = shown(address, tmp_path)
        assert texts[:2] == list(PACKAGED_NOTE) and texts[0] == "The live table needs the computer version"
        assert images == [] and not any("http://" in t or "PIN" in t for t in texts)
