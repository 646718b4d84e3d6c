"""Game nights in backups: ``nights.json`` goes into the zip, is checked with the rest before anything is replaced,
and comes back with the sessions on restore (storage/backup.py, storage/nights.py)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from storage.archive import Archive
from storage.backup import BACKUP_VERSION, MANIFEST, check_backup
from storage.errors import BackupError
from storage.night_docs import NIGHTS_FILE

P4 = ["Ann", "Ben", "Cat", "Dan"]
JK = {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}


def manifest(made: Path) -> dict[str, Any]:
    with zipfile.ZipFile(made) as zf:
        return dict(json.loads(zf.read(MANIFEST)))


def rewrite(made: Path, target: Path, change: dict[str, bytes | None]) -> Path:
    """A copy of backup ``made`` with members replaced, added, or (``None``) left out."""
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            if name not in change:
                dst.writestr(name, src.read(name))
        for name, value in change.items():
            if value is not None:
                dst.writestr(name, value)
    return target


def nights_on_disk(data: Path) -> bytes | None:
    path = data / NIGHTS_FILE
    return path.read_bytes() if path.exists() else None


def test_a_restore_brings_the_nights_back_with_the_sessions(services: AppServices) -> None:
    nights = services.nights
    night = nights.start("Friday", P4)
    game = services.sessions.start("bargain-bin", P4, options={"vegas_unit_cents": 25})
    night = nights.add_entry(night.id, "Ann", "split", "8.00", "pizza")
    assert night.sessions == (game.id,)
    made = services.archive.backup()
    assert manifest(made)["version"] == BACKUP_VERSION == 3 and manifest(made)["nights"] == 1
    with zipfile.ZipFile(made) as zf:
        assert NIGHTS_FILE in zf.namelist()

    # change the night in every way, and add another one
    nights.rename(night.id, "Saturday")
    nights.add_entry(night.id, "Ben", "Cat", "1.50", "bet")
    nights.remove_game(night.id, game.id)
    nights.close(night.id)
    other = nights.start("Sunday", ["Eve", "Fay"])
    services.archive.delete_session(game.id)
    changed = nights_on_disk(services.archive.data_dir)
    assert nights.get(night.id).name == "Saturday"

    assert services.archive.restore(made) == 1
    # the open services see the restored nights at once: no restart needed
    assert [n.id for n in nights.all()] == [night.id]
    assert nights.get(night.id) == night
    assert nights.current() == night and nights.store.night_of(game.id) == night.id
    assert other.id not in nights.store
    # the state before the restore is in its pre-restore backup, nights included
    (pre,) = [p for p in services.archive.list_backups() if p.name.startswith("pre-restore-")]
    with zipfile.ZipFile(pre) as zf:
        assert zf.read(NIGHTS_FILE) == changed

    # after the restore the store writes on: a new night does not overwrite the restored one
    nights.close(night.id)
    third = nights.start("Monday", P4)
    data = services.archive.data_dir
    services.close()
    with AppServices.open(data) as reopened:
        assert sorted(n.name for n in reopened.nights.all()) == ["Friday", "Monday"]
        assert reopened.nights.get(third.id).name == "Monday"
        assert reopened.nights.problems == []


def test_a_backup_of_a_folder_without_nights_restores_to_no_nights(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.create_session(JK)
        made = archive.backup()
        assert manifest(made)["nights"] == 0 and nights_on_disk(data) is None
        archive.nights.save({"id": "n1", "name": "Later", "started": "", "status": "open", "players": ["Ann", "Ben"]})
        archive.restore(made)
        assert len(archive.nights) == 0 and nights_on_disk(data) is None


def test_an_older_backup_without_nights_leaves_them_as_they_are(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.create_session(JK)
        made = archive.backup()
        old_manifest = {k: v for k, v in manifest(made).items() if k != "nights"} | {"version": 1}
        old = rewrite(made, tmp_path / "v1.zip", {MANIFEST: json.dumps(old_manifest).encode(), NIGHTS_FILE: None})
        archive.nights.save({"id": "n1", "name": "Kept", "started": "", "status": "open", "players": ["A", "B"]})
        before = nights_on_disk(data)
        assert check_backup(old).has_nights is False
        archive.restore(old)
        assert nights_on_disk(data) == before and [d["name"] for d in archive.nights.list()] == ["Kept"]


def test_a_damaged_nights_file_is_left_out_of_a_backup_rather_than_spoiling_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.create_session(JK)
    (data / NIGHTS_FILE).write_bytes(b"{not json")
    with Archive(data) as archive:  # the nights store is not opened: the file is still there, damaged
        made = archive.backup()
    with zipfile.ZipFile(made) as zf:
        assert NIGHTS_FILE not in zf.namelist()
    assert manifest(made)["nights"] is None
    assert check_backup(made).has_nights is False  # the backup restores; the nights are left as they are


GOOD = {"id": "n1", "name": "Friday", "started": "", "status": "open", "players": ["Ann", "Ben"], "sessions": []}


def nights_json(*docs: dict[str, Any]) -> bytes:
    return json.dumps({"nights": {str(n): d for n, d in enumerate(docs, start=1)}}).encode()


BAD_NIGHTS = {
    "not JSON": (b"{not json", "nights.json cannot be read (Expecting property name"),
    "not a table": (b"[1, 2]", "nights.json is not a table file (not a JSON object)"),
    "a night with one player": (
        nights_json({**GOOD, "players": ["Ann"]}),
        "nights.json is not valid (night 'n1' is not valid: players:",
    ),
    "a name with a control character": (
        nights_json({**GOOD, "name": "Fri\x1bday"}),
        "name: it contains a control character",
    ),
    "a night of a newer version": (
        nights_json({**GOOD, "schema_version": 9}),
        "night n1 was saved by a newer version of the app",
    ),
    "the same night twice": (nights_json(GOOD, GOOD), "lists the night 'n1' twice"),
    "a game in two nights": (
        nights_json({**GOOD, "sessions": ["g1"]}, {**GOOD, "id": "n2", "sessions": ["g1"]}),
        "lists game g1 in two nights",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_NIGHTS))
def test_a_backup_with_a_damaged_nights_document_is_refused_whole(tmp_path: Path, kind: str) -> None:
    content, message = BAD_NIGHTS[kind]
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.create_session(JK)
        archive.nights.save(GOOD)
        made = archive.backup()
        bad = rewrite(made, tmp_path / "bad.zip", {NIGHTS_FILE: content})
        archive.create_session({**JK, "players": ["Cat", "Dan"]})  # so that a restore would change something
        archive.nights.save({**GOOD, "name": "Changed"})
        sessions = sorted(p.name for p in (data / "sessions").glob("*.json"))
        before = nights_on_disk(data)
        with pytest.raises(BackupError) as caught:
            archive.restore(bad)
        assert message in str(caught.value) and "nothing was restored" in str(caught.value)
        assert len(str(caught.value).splitlines()) == 1
        assert sorted(p.name for p in (data / "sessions").glob("*.json")) == sessions
        assert nights_on_disk(data) == before and archive.nights.get("n1")["name"] == "Changed"
        assert not [p for p in archive.list_backups() if p.name.startswith("pre-restore-")]


def test_a_backup_that_lost_its_nights_file_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Archive(data) as archive:
        archive.nights.save(GOOD)
        made = archive.backup()
        lost = rewrite(made, tmp_path / "lost.zip", {NIGHTS_FILE: None})
        with pytest.raises(BackupError, match=r"nights\.json is listed in the manifest\.json but is not in the backup"):
            archive.restore(lost)
        assert len(archive.nights) == 1
