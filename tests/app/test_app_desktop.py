"""``companion --desktop`` (issue 16): when Flet's desktop client is missing or cannot be fetched, the app says so in
one line and serves the browser view instead of failing the start.

The real start-up runs with the client's download URL (``FLET_CLIENT_URL``, read by ``flet_desktop``) pointed at a
closed port on loopback, a home folder without a cached client, and a display name so that a window is attempted.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app import serve

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed once the socket is: nothing listens there


def free_port() -> int:
    return closed_port()


def test_no_client_installed_is_said_with_the_extra_that_brings_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "flet_desktop" else real(name))
    assert serve.desktop_problem() == (
        "Flet's desktop client is not installed (pip install 'card-table-companion[desktop]')"
    )


@pytest.mark.skipif(importlib.util.find_spec("flet_desktop") is None, reason="the desktop extra is not installed")
def test_a_client_that_cannot_be_fetched_falls_back_to_the_browser_view(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),  # no client cached in ~/.flet
        "DISPLAY": ":99",  # a display name, so that a window is attempted (none is opened: the fetch fails first)
        "FLET_CLIENT_URL": f"http://127.0.0.1:{closed_port()}/flet-client.tar.gz",
        "BROWSER": "true",  # the browser view is "opened" by a command that does nothing
        "PYTHONPATH": str(ROOT),
    }
    for name in ("FLET_VIEW_PATH", "FLET_PLATFORM", "FLET_FORCE_WEB_SERVER", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "--desktop", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        assert process.stdout is not None
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("Card Table Companion: open "):
                break
        notes = [line for line in lines if line.startswith("companion: no desktop window here")]
        assert len(notes) == 1, lines
        assert "Flet's desktop client could not be fetched" in notes[0] and "refused" in notes[0].lower(), notes
        assert notes[0].endswith("; serving the browser view")
        assert lines[-1].startswith(f"Card Table Companion: open http://127.0.0.1:{port} "), lines
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "Traceback" not in out + err and "could not start the server" not in err
        assert not (tmp_path / "home" / ".flet" / "client" / "flet-desktop-light-1.0.5").exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
