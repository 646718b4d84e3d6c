"""Import, backup and restore from the app (issue 16): progress reported as they run, and a backup picked in the
browser (bytes) restored like a file, checked whole first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.history import import_bytes, import_path, restore_bytes
from storage import Archive, StorageError
from views.transfer import JobProgress


def rec(n: int) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": ["Ann", "Ben", f"P{n}"], "options": {}, "hands": [{"up": "5S"}] * 0}


def export_of(tmp_path: Path, count: int) -> Path:
    with Archive(tmp_path / "source") as source:
        for n in range(count):
            source.create_session(rec(n), title=f"game {n}")
        path = tmp_path / "export.json"
        path.write_bytes(source.export_sessions(None, "json"))
    return path


def test_an_import_reports_its_progress_up_to_the_whole(archive: Archive, tmp_path: Path) -> None:
    path = export_of(tmp_path, 12)
    calls: list[tuple[int, int]] = []
    report = import_path(archive, str(path), lambda done, total: calls.append((done, total)))
    assert report.ok and len(archive) == 12
    assert calls and calls[-1][0] == calls[-1][1] > 0, calls
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    more: list[tuple[int, int]] = []
    assert import_bytes(archive, "again.json", path.read_bytes(), lambda d, t: more.append((d, t))).ok
    assert len(archive) == 12  # the same games: skipped


def test_a_backup_picked_as_bytes_is_restored_with_progress_and_its_copy_removed(
    archive: Archive, tmp_path: Path
) -> None:
    for n in range(3):
        archive.create_session(rec(n))
    made = archive.backup()
    archive.create_session(rec(9))
    calls: list[tuple[int, int]] = []
    assert restore_bytes(archive, made.name, made.read_bytes(), lambda d, t: calls.append((d, t))) == 3
    assert len(archive) == 3 and calls and calls[-1][0] == calls[-1][1]
    assert list((archive.data_dir / "imports").iterdir()) == []
    assert len(list((archive.data_dir / "backups").glob("pre-restore-*.zip"))) == 1


@pytest.mark.parametrize("data", [b"not a zip", json.dumps({"sessions": []}).encode()])
def test_a_picked_file_that_is_not_a_backup_restores_nothing(archive: Archive, data: bytes) -> None:
    archive.create_session(rec(1))
    with pytest.raises(StorageError):
        restore_bytes(archive, "../../evil.zip", data)
    assert len(archive) == 1 and list((archive.data_dir / "imports").iterdir()) == []


def test_the_progress_line_says_how_far_and_is_sent_at_most_ten_times_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    job = JobProgress("Importing")
    sent: list[str] = []
    monkeypatch.setattr(job, "_push", lambda: sent.append(job.line.value or ""))
    job.start()
    assert job.control.visible and job.bar.value is None and sent == ["Importing…"]
    for done in range(1, 1001):
        job(done, 1000)
    assert job.line.value == "Importing: 1,000 of 1,000" and job.bar.value == 1.0
    assert sent[-1] == "Importing: 1,000 of 1,000" and len(sent) < 50, len(sent)
    job.end()
    assert not job.control.visible
