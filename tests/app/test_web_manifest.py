"""The browser view is the app: a real server on 127.0.0.1 serves the app's page title, web manifest and icons.

Flet's web server takes ``index.html``, ``manifest.json`` and any other file from the app's ``assets/`` before its own
web client's, so "Add to home screen" on a phone gives the app's name and icon; everything is served by the app
itself (offline). The files are written by ``python -m tools.app_icons`` from Flet's own.
"""

from __future__ import annotations

import json
import re
import struct
import urllib.request
from collections.abc import Iterator

import pytest

from tests.conftest import ROOT
from tests.support.browser import AppServer, find_free_port
from tools import app_icons

pytest.importorskip("flet_web", reason="the browser view needs the web extra: pip install -e '.[web]'")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("web")
    (folder / "data").mkdir()
    app = AppServer(find_free_port(), folder / "data", folder)
    app.start()
    try:
        yield app
    finally:
        app.stop()


def _get(server: AppServer, path: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(server.url + path, timeout=30) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.server
def test_the_manifest_names_the_app(server: AppServer) -> None:
    status, kind, body = _get(server, "/manifest.json")
    assert status == 200 and "json" in kind
    manifest = json.loads(body)
    assert manifest["name"] == "Card Table Companion" and manifest["short_name"] == "Card Table"
    assert manifest["description"].startswith("Scorekeeper for card games")
    assert manifest["theme_color"] == manifest["background_color"] == "#116B3A"
    assert manifest["display"] == "standalone" and "Flet" not in json.dumps(manifest)
    purposes = set()
    for icon in manifest["icons"]:
        status, kind, png = _get(server, "/" + icon["src"])
        assert status == 200 and kind == "image/png", icon
        assert "x".join(map(str, _png_size(png))) == icon["sizes"], icon
        assert png == (ROOT / "assets" / icon["src"]).read_bytes()
        purposes.add(icon.get("purpose", "any"))
    assert purposes == {"any", "maskable"}


@pytest.mark.server
def test_the_page_has_the_apps_title_icons_and_no_cdn(server: AppServer) -> None:
    status, kind, body = _get(server, "/")
    page = body.decode("utf-8")
    assert status == 200 and "html" in kind
    assert "<title>Card Table Companion</title>" in page
    assert '<meta name="apple-mobile-web-app-title" content="Card Table">' in page
    assert '<meta name="theme-color" content="#116B3A">' in page
    assert '<link rel="manifest" href="manifest.json">' in page
    assert not re.search(r"""(src|href)=["']https?://""", page), "the page loads something from the internet"
    for path in ("/favicon.png", "/icons/apple-touch-icon-192.png"):
        status, kind, png = _get(server, path)
        assert status == 200 and png == (ROOT / "assets" / path.lstrip("/")).read_bytes(), path


def test_the_web_files_are_up_to_date_with_flet() -> None:
    """``assets/index.html`` and ``manifest.json`` are Flet's, changed only where the app's own text goes."""
    assert app_icons.stale_web_files() == [], "run python -m tools.app_icons"
    flet_index = app_icons._flet_web_file("index.html").splitlines()
    ours = (ROOT / "assets" / "index.html").read_text(encoding="utf-8").splitlines()
    changed = [line for line in ours if line not in flet_index]
    assert len(changed) == 4 and all(
        "Card Table" in line or "#116B3A" in line or "Scorekeeper" in line for line in changed
    )


def test_the_icons_are_the_apps() -> None:
    """1024×1024 source, transparent corners (a generic icon flet-cli frames per platform), green with white."""
    from PIL import Image

    icon = Image.open(ROOT / "assets" / "icon.png").convert("RGBA")
    assert icon.size == (1024, 1024)
    assert icon.getpixel((0, 0))[3] == 0 and icon.getpixel((512, 40)) == (17, 107, 58, 255)
    assert icon.getpixel((512, 300))[:3] == (255, 255, 255)  # the card
    for name in ("splash.png", "splash_dark.png"):
        splash = Image.open(ROOT / "assets" / name).convert("RGBA")
        assert splash.size == (1024, 1024) and splash.getpixel((0, 0))[3] == 0
