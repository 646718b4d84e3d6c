"""The packaged app inside its own package: Flet's runtime sets ``FLET_PLATFORM`` (and ``FLET_APP_STORAGE_DATA``) and
its Flutter client connects to the socket server of ``flet.run`` (``is_embedded()``, ``AppView.FLET_APP``), not to a
web server. A phone or desktop package has no ``flet-desktop`` (an extra) and no display variable. ``flet.run`` is
replaced here to see what it is given; the browser view of the same start is ``tests/browser/test_packaged_start.py``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app import serve, web
from app.main import main


@pytest.mark.parametrize("platform", ["android", "ios", "linux"])
def test_the_packaged_app_runs_flets_socket_server_for_its_own_client(
    platform: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = tmp_path / "app-storage"
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(storage))
    monkeypatch.setenv("FLET_PLATFORM", platform)
    for name in ("FLET_FORCE_WEB_SERVER", "FLET_VIEW_PATH", "DISPLAY", "WAYLAND_DISPLAY", "FLET_SERVER_PORT"):
        monkeypatch.delenv(name, raising=False)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "flet_desktop" else real(name, *a)
    )
    monkeypatch.setattr(sys, "argv", ["main.py", "--no-browser", "--port", "1"])  # a packaged app takes none
    monkeypatch.setattr(serve, "start_auto_backups", lambda services, **when: None)
    runs: list[dict[str, Any]] = []

    def run(handler: Any, **options: Any) -> None:
        runs.append({"handler": handler, **options, "force_web_server": os.environ.get("FLET_FORCE_WEB_SERVER")})

    monkeypatch.setattr(ft, "run", run)
    web_servers: list[dict[str, Any]] = []
    monkeypatch.setattr(web, "serve_web", lambda handler, **options: web_servers.append(options))
    assert main() == 0
    assert web_servers == [], "the package's client does not open a web page: the browser view serves nobody"
    assert len(runs) == 1
    assert runs[0]["view"] == ft.AppView.FLET_APP and runs[0]["port"] == 0 and runs[0]["force_web_server"] is None
    assert runs[0]["no_cdn"] is True and Path(runs[0]["assets_dir"]) == serve.ASSETS_DIR
    assert (storage / "sessions").is_dir() or any(storage.iterdir()), "the data folder is the app-storage folder"
