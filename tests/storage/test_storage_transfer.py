"""Storage: export and import (JSON and CSV), rolling backups and restore."""

from __future__ import annotations

import csv
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

import scoring
from storage import (
    MAX_IMPORT_BYTES,
    Archive,
    ArchiveReadOnlyError,
    BackupError,
    SessionDoc,
    SessionStatus,
    StorageWriteError,
)
from tests.conftest import CASES
from tests.support.archives import scorable_cases


def valid_records() -> list[dict[str, Any]]:
    """Every valid conformance record whose game scores here (the five games at the time of writing)."""
    return [case["record"] for _, case in scorable_cases()]


def invalid_record() -> dict[str, Any]:
    case = json.loads((CASES / "jokers-kill" / "18-inv-card-twice-in-game.json").read_text())
    assert case["expect_error"]
    record: dict[str, Any] = case["record"]
    return record


def standings(record: dict[str, Any]) -> tuple[Any, ...]:
    result = scoring.score(record)
    return (result.totals, result.winners, result.finished, result.pending, result.cancelled)


def fill(archive: Archive, records: list[dict[str, Any]]) -> list[SessionDoc]:
    docs = []
    for n, record in enumerate(records):
        result = scoring.score(record)
        doc = archive.create_session(record, status=SessionStatus.of(result), winners=result.winners, title=f"game {n}")
        docs.append(archive.save_session(doc, "checked"))
    return docs


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    found = valid_records()
    assert len(found) >= 20, "the conformance cases should provide records of every game"
    return found


def test_json_round_trip_reproduces_the_standings(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as source:
        docs = fill(source, records)
        exported = source.export_sessions(None, "json")
    assert {r["game"] for r in records} == {
        "bargain-bin",
        "financial-crisis",
        "feast-and-famine",
        "1111-9999",
        "jokers-kill",
    }
    export_file = tmp_path / "all.json"
    export_file.write_bytes(exported)
    with Archive(tmp_path / "b") as target:
        report = target.import_file(export_file)
        assert (report.imported, report.skipped, report.refused) == (len(docs), 0, 0), report.messages
        for doc in docs:
            copy = target.load_session(doc.id)
            assert copy.record == doc.record
            assert standings(copy.record) == standings(doc.record)
            assert (copy.status, copy.winners, copy.title, copy.created_at) == (
                doc.status,
                doc.winners,
                doc.title,
                doc.created_at,
            )
            assert [e.action for e in copy.log] == ["session started", "checked", "imported"]
        again = target.import_file(export_file)  # the same file twice adds nothing
        assert (again.imported, again.skipped, again.refused) == (0, len(docs), 0)
        assert "already in the archive" in again.messages[-1]
        assert len(target.list_sessions()) == len(docs)


def test_single_session_export_and_bare_record_dedup(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as source:
        doc = fill(source, records[:3])[1]
        one = source.export_sessions([doc.id], "json")
    assert [s["id"] for s in json.loads(one)["sessions"]] == [doc.id]
    (tmp_path / "one.json").write_bytes(one)
    (tmp_path / "bare.json").write_text(json.dumps(doc.record))
    (tmp_path / "case.json").write_text(json.dumps({"title": "a case", "record": records[5]}))
    with Archive(tmp_path / "b") as target:
        assert target.import_file(tmp_path / "bare.json").imported == 1
        report = target.import_file(tmp_path / "one.json")  # the same game, already imported as a bare record
        assert (report.imported, report.skipped) == (0, 1)
        assert target.import_file(tmp_path / "case.json").imported == 1
        assert len(target.list_sessions()) == 2


def test_same_id_with_another_record_is_kept_as_a_new_session(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as archive:
        doc = fill(archive, records[:1])[0]
        data = json.loads(archive.export_sessions([doc.id]))
        data["sessions"][0]["record"] = records[1]
        (tmp_path / "edited.json").write_text(json.dumps(data))
        report = archive.import_file(tmp_path / "edited.json")
        assert report.imported == 1 and report.ids[0] != doc.id
        assert archive.load_session(doc.id).record == records[0]
        assert archive.load_session(report.ids[0]).record == records[1]


def test_csv_export_has_a_row_per_hand_per_player(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as archive:
        docs = fill(archive, records[:6])
        rows = list(csv.DictReader(io.StringIO(archive.export_sessions([d.id for d in docs], "csv").decode())))
    expected = sum(len(d.record["hands"]) * len(d.players) for d in docs)
    assert len(rows) == expected
    for doc in docs:
        result = scoring.score(doc.record)
        mine = [r for r in rows if r["session_id"] == doc.id]
        for row in mine:
            hand = int(row["hand"]) - 1
            assert int(row["points"]) == result.hands[hand].points[row["player"]]
            assert row["player"] == doc.players[int(row["seat"]) - 1]
        last = len(doc.record["hands"])
        sums = {r["player"]: int(r["total"]) for r in mine if int(r["hand"]) == last}
        assert sums == {p: sum(h.points[p] for h in result.hands) for p in doc.players}


def test_export_refuses_unknown_format(tmp_path: Path) -> None:
    with Archive(tmp_path / "a") as archive, pytest.raises(ValueError, match="json or csv"):
        archive.export_sessions(None, "xml")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"game": "jokers-kill", "players": ["Ann"', "not valid JSON (line 1"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b"session_id,title,game\n", "CSV exports are for spreadsheets"),
        (b'{"hello": "world"}', "neither a game record nor a saved session"),
        (b'{"format": "card-table-companion/sessions", "version": 99, "sessions": []}', "newer version"),
        (b'{"format": "card-table-companion/sessions", "version": 1, "sessions": []}', "holds no games"),
        (b'{"game": "chess", "players": ["Ann", "Ben"], "hands": []}', "'chess' is not a game this app knows"),
        (b"[1, 2]", "entry 1 is not a game"),
    ],
)
def test_import_refuses_malformed_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with Archive(tmp_path / "a") as archive:
        report = archive.import_file(path)
        assert (report.imported, report.refused) == (0, 1)
        assert message in report.messages[0] and "bad.json was not imported" in report.messages[0]
        assert archive.list_sessions() == []


def test_import_refuses_files_over_10_mb(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_IMPORT_BYTES + 1)
    with Archive(tmp_path / "a") as archive:
        report = archive.import_file(path)
        assert report.refused == 1 and "more than the 10 MB" in report.messages[0]
        missing = archive.import_file(tmp_path / "nowhere.json")
        assert missing.refused == 1 and "does not exist" in missing.messages[0]


def test_import_into_read_only_archive_is_refused(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    Archive(tmp_path / "a").close()
    path = tmp_path / "one.json"
    path.write_text(json.dumps(records[0]))
    with Archive(tmp_path / "a", read_only=True) as viewer:
        report = viewer.import_file(path)
        assert report.refused == 1 and "read-only" in report.messages[0]


def test_import_is_all_or_nothing(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([records[0], records[1], invalid_record()]))
    with Archive(tmp_path / "a") as archive:
        report = archive.import_file(path)
        assert (report.imported, report.refused) == (0, 1)
        assert "game 3 of 3 is not valid" in report.messages[0] and "appears twice" in report.messages[0]
        assert archive.list_sessions() == []


def test_import_write_failure_rolls_back(
    tmp_path: Path, records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "three.json"
    path.write_text(json.dumps(records[:3]))
    with Archive(tmp_path / "a") as archive:
        real = Archive.save_session
        calls = {"n": 0}

        def flaky(self: Archive, doc: SessionDoc, log: Any = None) -> SessionDoc:
            calls["n"] += 1
            if calls["n"] == 3:
                raise StorageWriteError(Path("x.json"), OSError(28, "No space left on device"))
            return real(self, doc, log)

        monkeypatch.setattr(Archive, "save_session", flaky)
        report = archive.import_file(path)
        assert (report.imported, report.refused) == (0, 1) and "disk is full" in report.messages[0]
        assert archive.list_sessions() == []


# --- backups ---------------------------------------------------------------------------------------------------


def test_backup_and_restore(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as archive:
        docs = fill(archive, records[:4])
        archive.players.add("Zed")
        made = archive.backup()
        assert made.parent == tmp_path / "a" / "backups" and zipfile.is_zipfile(made)
        archive.delete_session(docs[0].id)
        archive.save_session(docs[1].model_copy(update={"title": "changed"}), "renamed")
        extra = fill(archive, records[4:5])[0]
        assert archive.restore(made) == 4
        assert sorted(s.id for s in archive.list_sessions()) == sorted(d.id for d in docs)
        assert archive.load_session(docs[1].id).title == "game 1"
        assert archive.players.find("zed") is not None
        names = [p.name for p in archive.list_backups()]
        assert names[0].startswith("pre-restore-") and made.name in names
        assert archive.restore(archive.list_backups()[0]) == 4  # undo the restore
        assert archive.load_session(extra.id).record == extra.record
    with Archive(tmp_path / "a") as archive:  # the index written by the restore is consistent
        assert len(archive.list_sessions()) == 4 and archive.problems == []


def test_backup_to_a_chosen_folder(tmp_path: Path) -> None:
    with Archive(tmp_path / "a") as archive:
        archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
        out = tmp_path / "usb"
        out.mkdir()
        made = archive.backup(out)
        assert made.parent == out
        with zipfile.ZipFile(made) as zf:
            assert sum(n.startswith("sessions/") for n in zf.namelist()) == 1


def test_restore_refuses_damaged_backup_and_changes_nothing(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    with Archive(tmp_path / "a") as archive:
        docs = fill(archive, records[:2])
        made = archive.backup()
        truncated = tmp_path / "cut.zip"
        truncated.write_bytes(made.read_bytes()[:200])
        with pytest.raises(BackupError, match="damaged"):
            archive.restore(truncated)
        bad_member = tmp_path / "bad.zip"
        with zipfile.ZipFile(made) as src, zipfile.ZipFile(bad_member, "w") as dst:
            for name in src.namelist():
                dst.writestr(name, b"{broken" if name.startswith("sessions/") else src.read(name))
        with pytest.raises(BackupError, match="nothing was restored"):
            archive.restore(bad_member)
        not_ours = tmp_path / "other.zip"
        with zipfile.ZipFile(not_ours, "w") as dst:
            dst.writestr("readme.txt", "hello")
        with pytest.raises(BackupError, match="not a Card Table Companion backup"):
            archive.restore(not_ours)
        assert sorted(s.id for s in archive.list_sessions()) == sorted(d.id for d in docs)
    with Archive(tmp_path / "a", read_only=True) as viewer, pytest.raises(ArchiveReadOnlyError):
        viewer.restore(made)


def test_auto_backup_daily_keeps_seven(tmp_path: Path) -> None:
    with Archive(tmp_path / "a") as archive:
        archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
        folder = tmp_path / "a" / "backups"
        folder.mkdir()
        for day in range(1, 10):  # nine older automatic backups
            old = folder / f"auto-2020-01-{day:02d}T000000000000Z.zip"
            old.write_bytes(b"")
            os.utime(old, (1577836800 + day * 86400, 1577836800 + day * 86400))
        made = archive.auto_backup()
        assert made is not None and zipfile.is_zipfile(made)
        assert archive.auto_backup() is None  # already done today
        autos = [p.name for p in archive.list_backups() if p.name.startswith("auto-")]
        assert len(autos) == 7
        assert autos[0] == made.name and autos[-1].startswith("auto-2020-01-04")
