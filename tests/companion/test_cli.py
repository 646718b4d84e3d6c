"""The archive from the command line (``companion list|show|export|import|backup|restore``), issue 9.

Most tests call :func:`app.cli.run_command` in-process (fast); a few run the real ``companion`` script. Every
refusal is checked to leave the data folder byte-for-byte as it was (a hash of every file under it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import scoring
from app import cli
from companion import commands
from scoring.__main__ import main as scoring_main
from storage import MAX_IMPORT_BYTES, Archive, SessionStatus, StorageWriteError, record_fingerprint
from storage.imports import apply_import, check_import_file, plan_import
from storage.layout import JOURNAL
from storage.locking import folder_in_use
from tests.conftest import CASES, ROOT
from tests.conftest import case_files as all_case_files
from tests.support.archives import scorable_cases
from tests.support.matching import mismatches

COMPANION = Path(sys.executable).with_name("companion")


@pytest.fixture(autouse=True)
def tracebacks_in_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the command must fail a test loudly, not become a polite one-line message."""
    monkeypatch.setenv(commands.TRACEBACK_ENV, "1")


# --- helpers ------------------------------------------------------------------------------------------------


def case_files() -> list[Path]:
    return all_case_files()


def valid_cases() -> list[tuple[Path, dict[str, Any]]]:
    """Every conformance case whose record is valid here, the shared folder's too: (file, case)."""
    return scorable_cases(case_files())


def invalid_case() -> tuple[dict[str, Any], scoring.ScoringError]:
    case = json.loads((CASES / "jokers-kill" / "18-inv-card-twice-in-game.json").read_text(encoding="utf-8"))
    assert case["expect_error"]
    with pytest.raises(scoring.ScoringError) as caught:
        scoring.score(case["record"])
    return case["record"], caught.value


def snapshot(folder: Path) -> dict[str, str]:
    """SHA-256 of every file under ``folder`` (the lock file too), by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """``companion <argv>`` in-process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    code = cli.run_command([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_script(*argv: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real ``companion`` script."""
    return subprocess.run(
        [str(COMPANION), *[str(a) for a in argv]], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cases() -> list[tuple[Path, dict[str, Any]]]:
    found = valid_cases()
    assert len(found) >= 20, "the conformance cases should provide records of every game"
    return found


@pytest.fixture
def archive_dir(tmp_path: Path, cases: list[tuple[Path, dict[str, Any]]]) -> Path:
    """A data folder holding one session of each game (up to six), imported by the command, and closed."""
    folder = tmp_path / "data"
    picked: dict[str, Path] = {}
    for path, case in cases:
        picked.setdefault(case["record"]["game"], path)
    files = list(picked.values())[:6]
    assert cli.run_command(["import", *map(str, files), "--data-dir", str(folder)]) == 0
    with Archive(folder) as archive:
        assert len(archive) == len(files)
    return folder


@contextlib.contextmanager
def read_only_filesystem(where: Path) -> Iterator[bool]:
    """Make ``where`` (a fresh tmpfs, when mounting is permitted) read-only; yields whether that worked."""
    try:
        done = subprocess.run(["mount", "--bind", str(where), str(where)], capture_output=True, timeout=20)
        ok = done.returncode == 0
        if ok:
            ro = subprocess.run(["mount", "-o", "remount,ro,bind", str(where)], capture_output=True, timeout=20)
            if ro.returncode != 0:
                subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=20)
                ok = False
    except (OSError, subprocess.SubprocessError):
        ok = False
    try:
        yield ok
    finally:
        if ok:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=20)


# --- the round trip -----------------------------------------------------------------------------------------


def test_import_export_score_round_trip_over_every_valid_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cases: list[tuple[Path, dict[str, Any]]]
) -> None:
    data = tmp_path / "data"
    every = case_files()
    code, out, err = run(capsys, "import", *every, "--data-dir", data, "--json")
    report = json.loads(out)
    invalid = len(every) - len(cases)
    assert report["imported"] == len(cases)
    assert report["skipped"] == 0
    assert report["refused"] == invalid
    assert code == (1 if invalid else 0)
    assert len(err.splitlines()) == invalid  # one line per refused file

    exported = tmp_path / "all.json"
    code, out, _ = run(capsys, "export", "--all", "-o", exported, "--data-dir", data)
    assert code == 0 and f"Exported {len(cases)} sessions" in out
    sessions = json.loads(exported.read_text(encoding="utf-8"))["sessions"]
    by_fingerprint = {record_fingerprint(s["record"]): s for s in sessions}
    assert len(by_fingerprint) == len(cases)

    for n, (path, case) in enumerate(cases):
        stored = by_fingerprint[record_fingerprint(case["record"])]
        record_file = write_json(tmp_path / f"record-{n}.json", stored["record"])
        assert scoring_main(["score", str(record_file)]) == 0, path.name
        result = json.loads(capsys.readouterr().out)
        assert result == scoring.score(case["record"]).to_json(), path.name
        assert mismatches(case.get("expect", {}), result) == [], path.name
        assert stored["winners"] == result["winners"], path.name

    # The export imports again into a fresh archive unchanged, and a second time not at all.
    again = tmp_path / "again"
    code, out, _ = run(capsys, "import", exported, "--data-dir", again, "--json")
    assert code == 0 and json.loads(out)["imported"] == len(cases)
    code, out, _ = run(capsys, "import", exported, "--data-dir", again, "--json")
    assert code == 0 and (json.loads(out)["imported"], json.loads(out)["skipped"]) == (0, len(cases))
    with Archive(again, read_only=True) as archive:
        assert {s.fingerprint for s in archive.list_sessions()} == set(by_fingerprint)
        for s in archive.list_sessions():
            assert archive.load_session(s.id).record == by_fingerprint[s.fingerprint]["record"]


def test_round_trip_through_the_real_scripts(tmp_path: Path, cases: list[tuple[Path, dict[str, Any]]]) -> None:
    path, case = cases[0]
    data = tmp_path / "data"
    done = run_script("import", path, "--data-dir", data)
    assert done.returncode == 0, done.stderr
    assert "Imported 1 session, skipped 0, refused 0." in done.stdout
    out = tmp_path / "out.json"
    assert run_script("export", "--all", "-o", out, "--data-dir", data).returncode == 0
    record = json.loads(out.read_text(encoding="utf-8"))["sessions"][0]["record"]
    record_file = write_json(tmp_path / "record.json", record)
    scored = subprocess.run(
        [sys.executable, "-m", "scoring", "score", str(record_file)], capture_output=True, text=True, cwd=ROOT
    )
    assert scored.returncode == 0
    assert json.loads(scored.stdout) == scoring.score(case["record"]).to_json()


# --- refusals leave the archive byte-for-byte unchanged ---------------------------------------------------


def refuse(
    capsys: pytest.CaptureFixture[str], folder: Path, *argv: str | Path, code: int = 1
) -> tuple[str, dict[str, str]]:
    """Run a command that must be refused: one line on stderr, ``code``, and not one byte changed."""
    before = snapshot(folder)
    status, _, err = run(capsys, *argv, "--data-dir", folder)
    assert status == code
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("companion: error: ")
    assert "Traceback" not in err
    assert snapshot(folder) == before
    return err, before


def test_malformed_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "jokers-kill", "players": [', encoding="utf-8")
    err, _ = refuse(capsys, archive_dir, "import", bad)
    assert "bad.json was not imported: it is not valid JSON (line 1" in err
    assert "nothing from this file was added" in err


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b"[1, 2]", "entry 1 is not a game"),
        (b"{}", "neither a game record nor a saved session"),
        (b"[]", "holds no games"),
        (b"session_id,title\n", "CSV exports"),
        (b'{"format": "card-table-companion/sessions", "version": 99, "sessions": []}', "newer version"),
    ],
)
def test_files_that_are_not_game_records_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path, content: bytes, why: str
) -> None:
    bad = tmp_path / "odd.json"
    bad.write_bytes(content)
    err, _ = refuse(capsys, archive_dir, "import", bad)
    assert why in err


def test_oversized_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path
) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(MAX_IMPORT_BYTES + 1)  # sparse: 10 MB and a byte, no time spent writing it
    err, _ = refuse(capsys, archive_dir, "import", big)
    assert "more than the 10 MB" in err


def test_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    err, _ = refuse(capsys, archive_dir, "import", tmp_path / "nowhere.json")
    assert "does not exist" in err


def test_invalid_record_is_refused_with_the_scoring_message_and_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path
) -> None:
    record, error = invalid_case()
    assert error.path
    err, _ = refuse(capsys, archive_dir, "import", write_json(tmp_path / "game.json", record))
    assert error.message in err
    assert error.path in err


def test_one_invalid_game_refuses_the_whole_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    archive_dir: Path,
    cases: list[tuple[Path, dict[str, Any]]],
) -> None:
    record, error = invalid_case()
    good = [case["record"] for _, case in cases[10:14]]
    mixed = write_json(tmp_path / "mixed.json", [good[0], good[1], record, good[2], good[3]])
    err, _ = refuse(capsys, archive_dir, "import", mixed)
    assert f"game 3 of 5 is not valid: {error.message} (at {error.path})" in err


def test_unknown_id_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    err, _ = refuse(capsys, archive_dir, "show", "0123456789abcdef")
    assert "there is no saved session '0123456789abcdef'" in err
    with Archive(archive_dir, read_only=True) as archive:
        known = archive.list_sessions()[0].id
    out = tmp_path / "out.json"
    err, _ = refuse(capsys, archive_dir, "export", known, "nope-nope", "-o", out)
    assert "'nope-nope'" in err
    assert not out.exists()  # nothing half-exported either
    err, _ = refuse(capsys, archive_dir, "show", "../../etc/passwd")
    assert "no saved session" in err


def test_locked_folder_is_refused_for_changes_and_read_for_the_rest(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    archive_dir: Path,
    cases: list[tuple[Path, dict[str, Any]]],
) -> None:
    new_game = write_json(tmp_path / "new.json", cases[-1][1]["record"])
    backup_file = tmp_path / "b.zip"
    assert cli.run_command(["backup", "-o", str(backup_file), "--data-dir", str(archive_dir)]) == 0
    with Archive(archive_dir) as app:  # the running app holds the lock
        assert folder_in_use(archive_dir)
        for argv in (["import", new_game], ["restore", backup_file], ["backup"]):
            err, _ = refuse(capsys, archive_dir, *argv)
            assert "another Card Table Companion is already using the data folder" in err
        # Reading commands still work, read-only, and say so.
        before = snapshot(archive_dir)
        code, out, err = run(capsys, "list", "--data-dir", archive_dir)
        assert code == 0 and len(out.splitlines()) == 1 + len(app)
        assert "the app is using" in err and "read-only" in err
        code, out, err = run(capsys, "show", app.list_sessions()[0].id, "--data-dir", archive_dir)
        assert code == 0 and "Edit log:" in out
        assert snapshot(archive_dir) == before


def test_locked_folder_through_the_real_script(
    tmp_path: Path, archive_dir: Path, cases: list[tuple[Path, dict[str, Any]]]
) -> None:
    new_game = write_json(tmp_path / "new.json", cases[-1][1]["record"])
    with Archive(archive_dir):
        before = snapshot(archive_dir)
        done = run_script("import", new_game, "--data-dir", archive_dir)
        assert snapshot(archive_dir) == before
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "already using the data folder" in done.stderr
    assert "Traceback" not in done.stderr


def test_unwritable_folder_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    archive_dir: Path,
    cases: list[tuple[Path, dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    new_game = write_json(tmp_path / "new.json", cases[-1][1]["record"])
    count = len(list((archive_dir / "sessions").glob("*.json")))
    with read_only_filesystem(archive_dir) as mounted:
        if not mounted and os.geteuid() != 0:
            for p in [archive_dir, *archive_dir.rglob("*")]:
                p.chmod(p.stat().st_mode & ~0o222)
        elif not mounted:  # root without mount: the file system refuses every write, as a read-only one would
            real_open = os.open

            def refusing_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
                if str(path).startswith(str(archive_dir)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                    raise OSError(30, "Read-only file system")
                return real_open(path, flags, *args, **kwargs)

            monkeypatch.setattr(os, "open", refusing_open)
        err, _ = refuse(capsys, archive_dir, "import", new_game)
        assert "cannot be written" in err
        # Reading still works.
        code, out, _ = run(capsys, "list", "--json", "--data-dir", archive_dir)
        assert code == 0 and len(json.loads(out)) == count
    for p in [archive_dir, *archive_dir.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)


def test_bad_backup_and_bad_output_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path
) -> None:
    not_zip = tmp_path / "backup.zip"
    not_zip.write_bytes(b"PK\x03\x04 not really")
    err, _ = refuse(capsys, archive_dir, "restore", not_zip)
    assert "cannot be restored" in err
    err, _ = refuse(capsys, archive_dir, "restore", tmp_path / "none.zip")
    assert "no backup file" in err
    err, _ = refuse(capsys, archive_dir, "export", "--all", "-o", tmp_path / "no" / "such" / "dir.json")
    assert "cannot write" in err
    err, _ = refuse(capsys, archive_dir, "backup", "-o", tmp_path / "no" / "such" / "b.zip")
    assert "does not exist" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "--status", "sleeping"],
        ["list", "--bogus"],
        ["show"],
        ["export", "--all"],
        ["export", "--all", "-o", "x.json", "--format", "xml"],
        ["import"],
        ["restore"],
    ],
)
def test_wrong_command_lines_are_usage_errors(
    capsys: pytest.CaptureFixture[str], archive_dir: Path, argv: list[str]
) -> None:
    refuse(capsys, archive_dir, *argv, code=2)


def test_export_needs_ids_or_all(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    err, _ = refuse(capsys, archive_dir, "export", "-o", tmp_path / "x.json")
    assert "--all" in err
    with Archive(archive_dir, read_only=True) as archive:
        known = archive.list_sessions()[0].id
    err, _ = refuse(capsys, archive_dir, "export", known, "--all", "-o", tmp_path / "x.json")
    assert "not both" in err


# --- import: dedup, several files, all-or-nothing -----------------------------------------------------------


def test_importing_twice_skips_and_several_files_count_separately(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cases: list[tuple[Path, dict[str, Any]]]
) -> None:
    data = tmp_path / "data"
    records = [case["record"] for _, case in cases[:5]]
    many = write_json(tmp_path / "many.json", [*records[:3], records[0]])  # the same game twice in one file
    single = write_json(tmp_path / "single.json", records[3])
    bad = tmp_path / "bad.json"
    bad.write_text("nope", encoding="utf-8")
    code, out, err = run(capsys, "import", many, bad, single, "--data-dir", data)
    assert code == 1
    assert "many.json: 3 imported, 1 skipped." in out
    assert "single.json: 1 imported, 0 skipped." in out
    assert "Imported 4 sessions, skipped 1, refused 1." in out
    assert err.count("\n") == 1 and "bad.json was not imported" in err
    before = snapshot(data)
    code, out, _ = run(capsys, "import", many, single, "--data-dir", data)
    assert code == 0 and "Imported 0 sessions, skipped 5, refused 0." in out
    assert snapshot(data) == before
    with Archive(data, read_only=True) as archive:
        assert sorted(s.fingerprint for s in archive.list_sessions()) == sorted(
            record_fingerprint(r) for r in records[:4]
        )


def test_a_write_failure_halfway_leaves_nothing_of_the_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    archive_dir: Path,
    cases: list[tuple[Path, dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        known = {s.fingerprint for s in archive.list_sessions()}
    fresh = [case["record"] for _, case in cases if record_fingerprint(case["record"]) not in known][:5]
    source = write_json(tmp_path / "five.json", fresh)
    real_save = Archive.save_session
    calls = {"n": 0}

    def failing_save(self: Archive, doc: Any, log: Any = None) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise StorageWriteError(Path(f"{doc.id}.json"), OSError(28, "No space left on device"))
        return real_save(self, doc, log)

    monkeypatch.setattr(Archive, "save_session", failing_save)
    code, out, err = run(capsys, "import", source, "--data-dir", archive_dir)
    assert code == 1
    assert "five.json was not imported: could not save" in err and "the disk is full" in err
    assert "refused 5" in out
    monkeypatch.undo()
    with Archive(archive_dir) as archive:
        assert {s.fingerprint for s in archive.list_sessions()} == known
        assert not archive.problems
    assert not (archive_dir / JOURNAL).exists()


class Killed(BaseException):
    """Stands for the process dying between two saves."""


def test_an_import_cut_short_is_completed_on_the_next_open(
    tmp_path: Path, archive_dir: Path, cases: list[tuple[Path, dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        known = {s.fingerprint for s in archive.list_sessions()}
    fresh = [case["record"] for _, case in cases if record_fingerprint(case["record"]) not in known][:4]
    checked = check_import_file(write_json(tmp_path / "four.json", fresh))
    real_save = Archive.save_session
    calls = {"n": 0}

    def dying_save(self: Archive, doc: Any, log: Any = None) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise Killed
        return real_save(self, doc, log)

    with Archive(archive_dir) as archive:
        plan = plan_import(archive, checked)
        monkeypatch.setattr(Archive, "save_session", dying_save)
        with pytest.raises(Killed):
            apply_import(archive, plan)
        monkeypatch.undo()
        assert len(archive) == len(known) + 1
    assert (archive_dir / JOURNAL).exists()
    with Archive(archive_dir) as archive:  # as the app opens it
        assert {s.fingerprint for s in archive.list_sessions()} == known | {record_fingerprint(r) for r in fresh}
        assert any("four.json had been interrupted" in p and "3 of 4" in p for p in archive.problems)
        for doc in plan.docs:
            assert archive.load_session(doc.id).log[-1].action == "imported"
    assert not (archive_dir / JOURNAL).exists()


# --- list, show, export, backup, restore ----------------------------------------------------------------------


def test_list_filters_and_formats(capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        sessions = archive.list_sessions()
    code, out, _ = run(capsys, "list", "--data-dir", archive_dir)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["ID", "GAME", "DATE", "PLAYERS", "STATUS", "WINNERS"]
    assert [line.split()[0] for line in lines[1:]] == [s.id for s in sessions]
    first = sessions[0]
    assert first.game in lines[1] and ", ".join(first.players) in lines[1] and first.status.value in lines[1]
    game = sessions[-1].game
    code, out, _ = run(capsys, "list", "--game", game, "--json", "--data-dir", archive_dir)
    assert [row["id"] for row in json.loads(out)] == [s.id for s in sessions if s.game == game]
    player = sessions[0].players[0]
    code, out, _ = run(capsys, "list", "--player", player, "--json", "--data-dir", archive_dir)
    assert {row["id"] for row in json.loads(out)} == {s.id for s in sessions if player in s.players}
    code, out, _ = run(capsys, "list", "--status", "finished", "--json", "--data-dir", archive_dir)
    rows = json.loads(out)
    assert {row["id"] for row in rows} == {s.id for s in sessions if s.status is SessionStatus.FINISHED}
    assert all(row["winners"] for row in rows)
    code, out, _ = run(capsys, "list", "--game", "no-such-game", "--data-dir", archive_dir)
    assert code == 0 and out == "No sessions match.\n"


def test_list_of_a_folder_that_does_not_exist_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--data-dir", tmp_path / "none")
    assert code == 0 and out == "No sessions saved yet.\n"
    assert not (tmp_path / "none").exists()


def test_show_gives_standings_hands_with_notes_and_the_log(
    capsys: pytest.CaptureFixture[str], archive_dir: Path
) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        summary = archive.list_sessions()[0]
        doc = archive.load_session(summary.id)
    result = scoring.score(doc.record)
    code, out, _ = run(capsys, "show", summary.id[:8], "--data-dir", archive_dir)  # a prefix is enough
    assert code == 0
    assert summary.id in out and "Standings" in out and "Hands:" in out and "Edit log:" in out
    for player in result.players:
        assert any(line.split()[:2] == [player, str(result.totals[player])] for line in out.splitlines())
    for hand in result.hands:
        for note in hand.notes:
            assert note in out
    assert "imported (from " in out
    code, out, _ = run(capsys, "show", summary.id, "--json", "--data-dir", archive_dir)
    shown = json.loads(out)
    assert shown["result"] == result.to_json()
    assert shown["record"] == doc.record
    assert [entry["action"] for entry in shown["log"]] == [entry.action for entry in doc.log]


def test_export_csv_and_selected_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        ids = [s.id for s in archive.list_sessions()[:2]]
    before = snapshot(archive_dir)
    target = tmp_path / "two.csv"
    code, out, _ = run(capsys, "export", *ids, "-o", target, "--format", "csv", "--data-dir", archive_dir)
    assert code == 0 and "Exported 2 sessions" in out
    rows = target.read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("session_id,") and {row.split(",")[0] for row in rows[1:]} <= set(ids)
    target = tmp_path / "two.json"
    code, out, _ = run(capsys, "export", *ids, "-o", target, "--json", "--data-dir", archive_dir)
    assert json.loads(out)["sessions"] == 2
    assert [s["id"] for s in json.loads(target.read_text(encoding="utf-8"))["sessions"]] == ids
    assert snapshot(archive_dir) == before  # exporting changes nothing


def test_backup_and_restore(tmp_path: Path, capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    with Archive(archive_dir, read_only=True) as archive:
        original = {s.id: s.fingerprint for s in archive.list_sessions()}
    code, out, _ = run(capsys, "backup", "-o", tmp_path, "--json", "--data-dir", archive_dir)
    made = Path(json.loads(out)["backup"])
    assert code == 0 and made.parent == tmp_path and json.loads(out)["sessions"] == len(original)
    code, out, _ = run(capsys, "backup", "--data-dir", archive_dir)
    assert code == 0 and "backups" in out
    with Archive(archive_dir) as archive:
        archive.delete_session(next(iter(original)))
    code, out, _ = run(capsys, "restore", made, "--data-dir", archive_dir)
    assert code == 0 and f"Restored {len(original)} sessions" in out and "pre-restore-" in out
    with Archive(archive_dir, read_only=True) as archive:
        assert {s.id: s.fingerprint for s in archive.list_sessions()} == original


def test_the_real_script_never_shows_a_traceback(tmp_path: Path, archive_dir: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x", encoding="utf-8")
    commands: list[list[str | Path]] = [
        ["show", "zzzz", "--data-dir", archive_dir],
        ["import", "/dev/null", "--data-dir", archive_dir],
        ["import", tmp_path, "--data-dir", archive_dir],
        ["list", "--data-dir", not_a_folder],
        ["backup", "--data-dir", not_a_folder],
    ]
    for argv in commands:
        done = run_script(*argv)
        assert done.returncode in (1, 2), argv
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("companion: error: "), (argv, done.stderr)
        assert "unexpected" not in done.stderr, done.stderr


def test_an_unexpected_failure_is_one_line_too(
    capsys: pytest.CaptureFixture[str], archive_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(commands.TRACEBACK_ENV)

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Archive, "list_sessions", broken)
    err, _ = refuse(capsys, archive_dir, "list")
    assert "unexpected failure (RuntimeError: a bug)" in err


def test_export_to_standard_output(capsys: pytest.CaptureFixture[str], archive_dir: Path) -> None:
    code, out, _ = run(capsys, "export", "--all", "-o", "-", "--format", "csv", "--data-dir", archive_dir)
    assert code == 0
    with Archive(archive_dir, read_only=True) as archive:
        ids = {s.id for s in archive.list_sessions()}
    lines = out.splitlines()
    assert lines[0].startswith("session_id,") and {line.split(",")[0] for line in lines[1:]} == ids


# --- SIGKILL at random moments ----------------------------------------------------------------------------


@pytest.mark.slow
def test_sigkill_during_import_leaves_every_session_complete_or_absent(
    tmp_path: Path, cases: list[tuple[Path, dict[str, Any]]]
) -> None:
    """100 SIGKILLs of the real ``companion import`` (30 games, 5 already in the archive): a third at a random
    moment of the whole run, the rest 0-300 ms after the import's journal appears (while sessions are saved)."""
    records = [case["record"] for _, case in cases][:30]
    template = tmp_path / "template"
    seed = write_json(tmp_path / "seed.json", records[:5])
    assert run_script("import", seed, "--data-dir", template).returncode == 0
    source = write_json(tmp_path / "all.json", records)  # 5 already there, the rest new
    wanted = {record_fingerprint(r): r for r in records}
    before = {record_fingerprint(r) for r in records[:5]}

    # How long an import takes uninterrupted, so that the random kills land all over it.
    shutil.copytree(template, tmp_path / "timing")
    start = time.monotonic()
    done = run_script("import", source, "--data-dir", tmp_path / "timing")
    full = time.monotonic() - start
    assert done.returncode == 0 and f"Imported {len(records) - 5} sessions, skipped 5" in done.stdout

    rng = random.Random(9)
    delays = [rng.uniform(0.0, full if n % 3 == 0 else 0.3) for n in range(100)]

    def attempt(n: int) -> tuple[int, int]:
        folder = tmp_path / f"run-{n}"
        shutil.copytree(template, folder)
        proc = subprocess.Popen(
            [str(COMPANION), "import", str(source), "--data-dir", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        if n % 3:
            while not (folder / JOURNAL).exists() and proc.poll() is None:
                time.sleep(0.001)
        time.sleep(delays[n])
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        # What a read-only look sees: every session loads and is complete.
        with Archive(folder, read_only=True) as archive:
            assert not [p for p in archive.problems if "could not be read" in p]
            seen = archive.list_sessions()
            for s in seen:
                doc = archive.load_session(s.id)
                assert doc.record == wanted[s.fingerprint]
                assert doc.status is s.status
            after_kill = len(seen)
        # Opened for writing (by the app or any command), the file has landed whole or not at all.
        with Archive(folder) as archive:
            found = {s.fingerprint for s in archive.list_sessions()}
            assert found in (before, set(wanted)), f"kill {n} after {delays[n]:.3f}s left {len(found)} sessions"
            if found != before:  # the roster got the new players too
                assert {p.name for p in archive.players.list()} >= {p for r in records for p in r["players"]}
        assert not (folder / JOURNAL).exists()
        shutil.rmtree(folder)
        return after_kill, len(found)

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(attempt, range(100)))
    assert len(outcomes) == 100
    # The kills did land at different moments: before anything was written, while saving, and after.
    midway = [seen for seen, _ in outcomes if len(before) < seen < len(wanted)]
    print(
        f"full import {full:.2f}s; kills before any session was saved / midway / after all: "
        f"{sum(seen == len(before) for seen, _ in outcomes)} / {len(midway)} / "
        f"{sum(seen == len(wanted) for seen, _ in outcomes)}"
    )
    assert any(final == len(before) for _, final in outcomes)
    assert midway, "no kill landed while sessions were being saved"
