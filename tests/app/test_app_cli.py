"""``companion`` start-up: clear one-line errors, never a traceback; archive commands are parsed by the same command
line and done by companion.commands."""

from __future__ import annotations

import inspect
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import cli as entry
from companion import commands
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


def test_archive_commands_go_to_their_work_in_companion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Path, dict[str, object]]] = []

    def fake_export(ctx: commands.Context, **values: object) -> int:
        seen.append((ctx.data_dir, values))
        return 3

    monkeypatch.setattr(commands, "cmd_export", fake_export)
    assert entry.run(["--data-dir", str(tmp_path), "export", "abc", "-o", "x.json"]) == 3
    assert seen == [(tmp_path, {"every": False, "ids": ["abc"], "output": "x.json", "kind": "json"})]


def test_every_archive_command_is_parsed_and_has_its_work() -> None:
    """Each command of the one parser names a function of companion.commands that takes exactly its values."""
    parser = entry.build_parser(commands=True)
    for name, (function, takes) in entry.COMMANDS.items():
        parameters = inspect.signature(getattr(commands, function)).parameters
        first, *rest = parameters
        assert first == "ctx" and set(rest) == set(takes), name
        with pytest.raises(SystemExit) as shown:
            parser.parse_args([name, "--help"])
        assert shown.value.code == 0


def test_help_mentions_every_option() -> None:
    text = entry.build_parser().format_help()
    for option in ("--port", "--data-dir", "--desktop", "--no-browser", "--host"):
        assert option in text
