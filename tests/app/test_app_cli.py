"""``companion`` start-up: clear one-line errors, never a traceback; archive commands are handed to companion.cli."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import cli as entry
from companion.config import (
    DataDirError,
    InvalidPortError,
    PortInUseError,
    default_data_dir,
    ensure_data_dir,
    ensure_port_free,
)

ROOT = Path(__file__).resolve().parents[2]


def companion_command() -> list[str]:
    """``python -m app``: the same ``app.main:main`` that the installed ``companion`` script runs."""
    return [sys.executable, "-m", "app"]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port on which something is already listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.fixture
def file_in_the_way(tmp_path: Path) -> Path:
    """A path under a regular file: no folder can be made there, not even by root."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("I am a file")
    return blocker / "sub"


def run_companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*companion_command(), *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0]


def test_port_in_use_is_one_line_and_nonzero(busy_port: int, tmp_path: Path) -> None:
    result = run_companion("--port", str(busy_port), "--data-dir", str(tmp_path / "data"), "--no-browser")
    assert_one_line_error(result, f"port {busy_port} is already in use", "--port")


def test_unwritable_data_dir_is_one_line_and_nonzero(file_in_the_way: Path, free_port: int) -> None:
    result = run_companion("--port", str(free_port), "--data-dir", str(file_in_the_way), "--no-browser")
    assert_one_line_error(result, str(file_in_the_way), "--data-dir")


def test_bad_port_argument_is_one_line(tmp_path: Path) -> None:
    result = run_companion("--port", "eighty", "--data-dir", str(tmp_path))
    assert_one_line_error(result, "'eighty'", "--help")
    assert result.returncode == 2


@pytest.fixture
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_in_process_errors_do_not_start_a_server(
    busy_port: int, file_in_the_way: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.run(["--port", str(busy_port), "--data-dir", str(tmp_path), "--no-browser"]) == 2
    assert "already in use" in capsys.readouterr().err
    assert entry.run(["--data-dir", str(file_in_the_way), "--no-browser"]) == 2
    assert "cannot create the data folder" in capsys.readouterr().err


def test_config_checks(busy_port: int, file_in_the_way: Path, tmp_path: Path) -> None:
    with pytest.raises(PortInUseError):
        ensure_port_free("127.0.0.1", busy_port)
    with pytest.raises(InvalidPortError):
        ensure_port_free("127.0.0.1", 0)
    with pytest.raises(DataDirError, match="part of that path is a file"):
        ensure_data_dir(file_in_the_way)
    with pytest.raises(DataDirError, match="it is a file"):
        ensure_data_dir(file_in_the_way.parent)
    made = ensure_data_dir(tmp_path / "a" / "b")
    assert made.is_dir() and list(made.iterdir()) == []  # the write probe leaves nothing behind


def test_default_data_dir_prefers_flet_app_storage(tmp_path: Path) -> None:
    assert default_data_dir({"FLET_APP_STORAGE_DATA": str(tmp_path)}) == tmp_path
    assert "card-table-companion" in str(default_data_dir({}))


def test_archive_commands_go_to_companion_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    class FakeCli:
        @staticmethod
        def main(argv: list[str]) -> int:
            seen.append(argv)
            return 3

    monkeypatch.setattr(entry.importlib, "import_module", lambda name: FakeCli)
    assert entry.run(["export", "abc", "--to", "x.json"]) == 3
    assert seen == [["export", "abc", "--to", "x.json"]]


def test_missing_archive_commands_are_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(name: str) -> None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(entry.importlib, "import_module", missing)
    assert entry.run(["list"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'list' is not available" in err[0]


def test_help_mentions_every_option() -> None:
    text = entry.build_parser().format_help()
    for option in ("--port", "--data-dir", "--desktop", "--no-browser", "--host"):
        assert option in text
