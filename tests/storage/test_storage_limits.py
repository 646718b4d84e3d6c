"""Bounded input (issue 14): only regular files are read, names, titles, numbers and edit logs have limits, every
refusal names the field and the limit, and a restore is checked entirely (sizes from the zip's directory, a bounded
reader, every document) before anything is replaced. Also backups from cron (issue 16) and progress callbacks."""

from __future__ import annotations

import json
import os
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest

from companion import commands
from companion.history import import_path
from storage import Archive, BackupError
from storage.limits import MAX_BACKUP_BYTES, MAX_BACKUP_ENTRIES
from tests.support.command import run_cli


def rec(players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": players or ["Ann", "Ben"], "options": {}, "hands": [], **extra}


def exported(doc: dict[str, Any]) -> dict[str, Any]:
    return {"format": "card-table-companion/sessions", "version": 1, "sessions": [doc]}


def saved_session(**changes: Any) -> dict[str, Any]:
    doc = {
        "schema_version": 2,
        "id": "abc123",
        "game": "jokers-kill",
        "players": ["Ann", "Ben"],
        "options": {},
        "created_at": "2026-01-01T00:00:00.000Z",
        "updated_at": "2026-01-01T00:00:00.000Z",
        "status": "in-progress",
        "winners": [],
        "record": rec(),
        "log": [],
        "title": None,
    }
    doc.update(changes)
    return doc


# --- only regular files ------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_fifo_given_to_import_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run_cli("import", fifo, "--data-dir", tmp_path / "data")
    assert code == 1 and "pipe.json was not imported: it is a FIFO (named pipe), not a file" in err
    with Archive(tmp_path / "data") as archive:
        report = import_path(archive, str(fifo))
        assert report.refused == 1 and "it is a FIFO (named pipe), not a file" in report.messages[0]
        report = archive.import_file(Path("/dev/zero"))
        assert report.refused == 1 and "it is a device, not a file" in report.messages[0]
        assert len(archive) == 0


# --- names, titles, numbers, logs: the same message from the app and the command line -----------------------

BAD_INPUT = {
    "a 41-character name": (rec(["A" * 41, "Ben"]), "the player name is 41 characters long; at most 40 are allowed"),
    "a NUL in a name": (rec(["An\x00n", "Ben"]), "holds a control character (\\x00)"),
    "an ESC in a name": (rec(["\x1b[31mAnn", "Ben"]), "holds a control character (\\x1b)"),
    "a BEL in a name": (rec(["Ann\x07", "Ben"]), "holds a control character (\\x07)"),
    "a CR in a name": (rec(["Ann\rBob", "Ben"]), "holds a control character (\\x0d)"),
    "a right-to-left override in a name": (rec(["\u202eAnn", "Ben"]), "holds a control character (\\u202e)"),
    "a 101-character title": (
        exported(saved_session(title="t" * 101)),
        "the session title is 101 characters long; at most 100 are allowed",
    ),
    "an ESC in a title": (exported(saved_session(title="x\x1b[2Jy")), "the session title"),
    "a 4,000-digit number": (rec(unit=int("9" * 4000)), "a number in it has 4000 digits; at most 15 are allowed"),
    "a 10,001-entry log": (
        exported(saved_session(log=[{"at": "2026-01-01T00:00:00.000Z", "action": "x"}] * 10_001)),
        "its edit log has 10001 entries; at most 10,000 are allowed",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUT))
def test_input_beyond_the_limits_is_refused_naming_the_field_and_limit(tmp_path: Path, kind: str) -> None:
    content, message = BAD_INPUT[kind]
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(content, ensure_ascii=True))
    code, out, err = run_cli("import", source, "--data-dir", tmp_path / "data")
    assert code == 1 and message in err and "\x1b" not in err + out and "\u202e" not in err + out
    cli_message = err.strip().splitlines()[-1].removeprefix("companion: error: ")
    with Archive(tmp_path / "data") as archive:
        report = archive.import_file(source)
        assert report.refused == 1 and len(archive) == 0
        assert message in report.messages[0]
    assert commands.terminal_safe(report.messages[0]) == cli_message  # the same words from both entry points


def test_a_title_or_name_given_to_the_archive_is_checked_too(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        with pytest.raises(ValueError, match="at most 100"):
            archive.create_session(rec(), title="x" * 101)
        with pytest.raises(ValueError, match="control or bidi-override"):
            archive.players.add("Ann\x1b")
        assert len(archive) == 0


def test_control_characters_already_saved_never_reach_the_terminal(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:  # saved by an older version, before the checks
        doc = archive.create_session(rec(["Ann\x1b[2J", "B\u202een"]))
        archive.save_session(doc.model_copy(update={"title": "\x1b[31mred\x07"}), "retitled \x1b]0;x\x07")
    for argv in (["list"], ["list", "--json"], ["show", doc.id], ["show", doc.id, "--json"]):
        code, out, err = run_cli(*argv, "--data-dir", tmp_path / "data")
        assert code == 0, err
        assert not any(c in out + err for c in "\x1b\x07\u202e\r\x00"), (argv, out)
        assert "\\x1b" in out or "\\u001b" in out


# --- restore: checked entirely first --------------------------------------------------------------------------


@pytest.fixture
def archive_with_backup(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.create_session(rec(["Ann", "Ben"]))
        archive.create_session(rec(["Cat", "Dan"]))
        made = archive.backup()
        archive.create_session(rec(["Eve", "Fay"]))  # so that a restore would change something
    return data, made


def state(data: Path) -> tuple[set[str], bytes]:
    return {p.name for p in (data / "sessions").glob("*.json")}, (data / "players.json").read_bytes()


def rewrite(made: Path, target: Path, change: dict[str, bytes | None]) -> Path:
    """A copy of backup ``made`` with members replaced, added or (``None``) left out, its manifest listing them
    (so that what is refused is the document itself)."""
    with zipfile.ZipFile(made) as src:
        files = {name: src.read(name) for name in src.namelist()}
    for name, value in change.items():
        if value is None:
            files.pop(name, None)
        else:
            files[name] = value
    listed = [name for name in files if name != "manifest.json"]
    manifest = json.loads(files["manifest.json"])
    manifest.update(files=listed, sessions=sum(name.startswith("sessions/") for name in listed))
    files["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in files.items():
            dst.writestr(name, data)
    return target


def _bad_session(name: str, session_id: str) -> bytes:
    return json.dumps({"session": {"1": saved_session(id=session_id)}}).encode()


BAD_BACKUPS = {
    "a roster of the wrong shape": (
        {"players.json": b'{"players": [1, 2, 3]}'},
        "players.json has a table 'players' that is not a table of rows",
    ),
    "a roster row without a name": (
        {"players.json": b'{"players": {"1": {"id": "x", "created_at": "t"}}}'},
        "player row 1 has no name",
    ),
    "settings of the wrong shape": ({"settings.json": b"[1]"}, "settings.json is not a table file (not a JSON object)"),
    "a session with an invalid id": (
        {"sessions/a b.json": _bad_session("a b", "a b")},
        "'a b' is not a valid session id",
    ),
    "a session under another name": ({"sessions/zzz.json": _bad_session("zzz", "abc123")}, "holds another session"),
    "a session with a 101-character title": (
        {"sessions/t1.json": json.dumps({"session": {"1": saved_session(id="t1", title="x" * 101)}}).encode()},
        "at most 100 are allowed",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_BACKUPS))
def test_a_backup_with_one_bad_document_changes_nothing(
    archive_with_backup: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    data, made = archive_with_backup
    change, message = BAD_BACKUPS[kind]
    bad = rewrite(made, tmp_path / "bad.zip", change)
    before = state(data)
    code, _, err = run_cli("restore", bad, "--data-dir", data)
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1, err
    with Archive(data) as archive:
        with pytest.raises(BackupError, match=r"nothing was restored|not valid"):
            archive.restore(bad)
        assert not [p for p in archive.list_backups() if p.name.startswith("pre-restore-")]
    assert state(data) == before


def test_the_restored_count_is_the_number_of_sessions_restored(archive_with_backup: tuple[Path, Path]) -> None:
    data, made = archive_with_backup
    code, out, _ = run_cli("restore", made, "--json", "--data-dir", data)
    assert code == 0 and json.loads(out)["restored"] == 2
    with Archive(data) as archive:
        assert len(archive) == 2


def test_a_zip_bomb_is_refused_from_its_declared_sizes_without_inflating_it(
    archive_with_backup: tuple[Path, Path], tmp_path: Path
) -> None:
    data, made = archive_with_backup
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name))
        with dst.open("sessions/zeros.json", "w") as member:  # 60 MB of zeros: about 60 KB compressed
            chunk = b"0" * (1 << 20)
            for _ in range(60):
                member.write(chunk)
    assert bomb.stat().st_size < 1 << 20
    before = state(data)
    tracemalloc.start()
    code, _, err = run_cli("restore", bomb, "--data-dir", data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert code == 1 and "would inflate to 60.0 MB" in err and "at most 50 MB uncompressed" in err
    assert peak < 10 * 1024 * 1024, f"{peak / 1048576:.1f} MB used to refuse it"
    assert state(data) == before


def test_a_backup_with_too_many_entries_or_too_large_is_refused(
    archive_with_backup: tuple[Path, Path], tmp_path: Path
) -> None:
    data, _ = archive_with_backup
    many = tmp_path / "many.zip"
    with zipfile.ZipFile(many, "w") as zf:
        zf.writestr("manifest.json", json.dumps({"format": "card-table-companion/backup", "version": 1}))
        for n in range(MAX_BACKUP_ENTRIES):
            zf.writestr(f"junk/{n}", b"")
    code, _, err = run_cli("restore", many, "--data-dir", data)
    assert code == 1 and "holds 20,001 files; a backup may hold at most 20,000" in err
    huge = tmp_path / "huge.zip"
    with open(huge, "wb") as handle:
        handle.truncate(MAX_BACKUP_BYTES + 1)
    code, _, err = run_cli("restore", huge, "--data-dir", data)
    assert code == 1 and "a backup may be at most 50 MB" in err
    fifo = tmp_path / "fifo.zip"
    os.mkfifo(fifo)
    code, _, err = run_cli("restore", fifo, "--data-dir", data)
    assert code == 1 and "not a regular file" in err


# --- backups from cron, progress ------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["trailing slash", "existing folder"])
def test_backup_into_a_folder_twice_gives_two_dated_zips(
    archive_with_backup: tuple[Path, Path], tmp_path: Path, spelling: str
) -> None:
    data, _ = archive_with_backup
    folder = tmp_path / "card-backups" / "nested"
    if spelling == "existing folder":
        folder.mkdir(parents=True)
        arg = str(folder)
    else:
        arg = f"{folder}/"
    for _ in range(2):
        code, _, err = run_cli("backup", "-o", arg, "--data-dir", data)
        assert code == 0, err
    zips = sorted(folder.glob("backup-*.zip"))
    assert len(zips) == 2 and all(zipfile.is_zipfile(z) for z in zips)
    assert zips[0].name[len("backup-") : len("backup-") + 10].count("-") == 2  # dated: YYYY-MM-DD...


def test_a_backup_file_inside_the_data_folder_is_refused(archive_with_backup: tuple[Path, Path]) -> None:
    data, _ = archive_with_backup
    code, _, err = run_cli("backup", "-o", data / "players.json", "--data-dir", data)
    assert code == 1 and "inside the data folder" in err
    code, _, err = run_cli("backup", "-o", data / "backups" / "mine.zip", "--data-dir", data)
    assert code == 0, err


def test_import_backup_and_restore_report_progress(archive_with_backup: tuple[Path, Path], tmp_path: Path) -> None:
    data, made = archive_with_backup
    source = tmp_path / "three.json"
    source.write_text(json.dumps([rec(["G1", "H1"]), rec(["G2", "H2"]), rec(["G3", "H3"])]))
    with Archive(data) as archive:
        seen: dict[str, list[tuple[int, int]]] = {"import": [], "backup": [], "restore": []}
        assert archive.import_file(source, progress=lambda d, t: seen["import"].append((d, t))).imported == 3
        archive.backup(progress=lambda d, t: seen["backup"].append((d, t)))
        archive.restore(made, progress=lambda d, t: seen["restore"].append((d, t)))
    assert seen["import"] == [(1, 3), (2, 3), (3, 3)]
    assert seen["backup"][-1][0] == seen["backup"][-1][1] == 6 + 3  # six sessions, roster, settings and nights
    assert seen["restore"] == [(1, 2), (2, 2)]
