"""SIGINT and SIGTERM at any moment of start-up (and while serving) end the app cleanly: exit status 0, no
traceback, promptly, and the data folder can be opened again at once (its lock was released)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app.signals import EXIT_STOPPED, STOP_SIGNALS, hold_stop_handlers
from companion.services import AppServices

ROOT = Path(__file__).resolve().parents[2]
PYTHON_STARTS = 0.15
"""Before this, the signal may reach Python while it starts itself (before the app's first line runs): SIGTERM
then ends the process by the signal (no traceback either), so only the exit status differs."""
PROMPT_S = 5.0
"""How soon after the signal the process must be gone."""
TRIES = [
    (signal.SIGTERM, 0.0),
    (signal.SIGINT, 0.15),
    (signal.SIGTERM, 0.3),
    (signal.SIGINT, 0.45),
    (signal.SIGTERM, 0.6),
    (signal.SIGINT, 0.75),
    (signal.SIGTERM, 0.9),
    (signal.SIGINT, 1.05),
    (signal.SIGTERM, 1.2),
    (signal.SIGINT, 1.5),
]
"""Ten tries over the first 1.5 s: imports, opening the data folder, binding the port, Flet and Uvicorn starting."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(data_dir: Path, **extra_env: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **extra_env}
    return subprocess.Popen(
        [sys.executable, "-m", "app", "--no-browser", "--port", str(free_port()), "--data-dir", str(data_dir)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: a stray signal reaches nothing else
    )


def stop_and_check(process: subprocess.Popen[bytes], number: int, data_dir: Path, *, early: bool) -> float:
    """Send ``number``, wait for the exit; returns how long the exit took."""
    sent = time.monotonic()
    process.send_signal(number)
    try:
        _, err = process.communicate(timeout=PROMPT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"{signal.Signals(number).name} was ignored: still running {PROMPT_S} s later") from None
    took = time.monotonic() - sent
    text = err.decode(errors="replace")
    name = signal.Signals(number).name
    assert "Traceback" not in text, f"{name}: a traceback on stderr:\n{text}"
    allowed = {EXIT_STOPPED, -number} if early else {EXIT_STOPPED}
    assert process.returncode in allowed, f"{name}: exit status {process.returncode}\n{text}"
    if data_dir.exists():  # the lock is free again: another app can open the folder at once
        with AppServices.open(data_dir):
            pass
    return took


@pytest.mark.parametrize(("number", "delay"), TRIES, ids=[f"{s.name}-{d}s" for s, d in TRIES])
def test_a_stop_signal_during_start_up_is_a_clean_exit(tmp_path: Path, number: int, delay: float) -> None:
    data_dir = tmp_path / "data"
    process = start(data_dir)
    time.sleep(delay)
    took = stop_and_check(process, number, data_dir, early=delay < PYTHON_STARTS)
    assert took < PROMPT_S


@pytest.mark.parametrize("number", STOP_SIGNALS, ids=[s.name for s in STOP_SIGNALS])
def test_a_stop_signal_while_serving_is_a_clean_exit(tmp_path: Path, number: int) -> None:
    """... and leaves nothing in the temporary folder: Flet's copy of its index page, made when the page is first
    asked for, is removed too."""
    data_dir = tmp_path / "data"
    temp = tmp_path / "temp"
    temp.mkdir()
    process = start(data_dir, TMPDIR=str(temp))
    assert process.stdout is not None
    line = process.stdout.readline().decode()  # printed once the server is about to listen
    assert "Card Table Companion: open http://127.0.0.1:" in line, line
    port = int(line.split("http://127.0.0.1:")[1].split()[0].rstrip("/"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
        assert b"<html" in answer.read()
    assert [path.name for path in temp.iterdir()], "Flet made no temporary folder for its index page"
    stop_and_check(process, number, data_dir, early=False)
    assert not list(temp.iterdir()), f"left in the temporary folder: {sorted(p.name for p in temp.rglob('*'))}"


def test_while_held_no_library_replaces_the_stop_handlers() -> None:
    def mine(signum: int, frame: object) -> None:
        raise AssertionError("not called")

    def theirs(signum: int, frame: object) -> None:
        raise AssertionError("not called")

    import app.signals as signals

    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    installed = signals._installed
    try:
        for number in STOP_SIGNALS:
            signal.signal(number, mine)
        signals._installed = True
        with hold_stop_handlers():
            assert signal.signal(signal.SIGTERM, theirs) is mine, "the caller is told the handler in place"
            assert signal.getsignal(signal.SIGTERM) is mine and signal.getsignal(signal.SIGINT) is mine
            previous = signal.signal(signal.SIGUSR1, theirs)  # other signals are not held
            assert signal.getsignal(signal.SIGUSR1) is theirs
            signal.signal(signal.SIGUSR1, previous)
        signal.signal(signal.SIGTERM, theirs)
        assert signal.getsignal(signal.SIGTERM) is theirs, "outside, signal.signal works as before"
    finally:
        signals._installed = installed
        for number, handler in before.items():
            signal.signal(number, handler)
