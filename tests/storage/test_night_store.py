"""Nights on disk: nights.json beside the archive, durable and atomic, versioned, damage set aside, an older data
folder unchanged; export and import of nights as validated, bounded JSON documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import storage.atomic
import storage.night_docs as night_docs_module
from companion.night_model import SPLIT, Night
from storage.archive import Archive
from storage.atomic import StorageWriteError
from storage.errors import ArchiveReadOnlyError, ImportRefusedError, SchemaVersionError
from storage.night_docs import NIGHT_SCHEMA_VERSION, NIGHTS_FILE, NightDocumentError, check_night, migrate
from storage.nights import (
    NightConflictError,
    NightNotFoundError,
    NightStore,
    export_nights,
    import_nights,
    read_nights,
)

P4 = ["Ann", "Ben", "Cat", "Dan"]
JK = {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}


def a_night(night_id: str = "n1", name: str = "Friday", sessions: tuple[str, ...] = ()) -> Night:
    n = Night.start(name, P4, now="2026-12-04T19:00:00.000Z", night_id=night_id)
    for sid in sessions:
        n = n.add_game(sid)
    return n.add_entry("Ann", SPLIT, 800, "pizza", entry_id="e1").add_entry("Ben", "Cat", 150, "bet", entry_id="e2")


def doc(**changes: Any) -> dict[str, Any]:
    return {**a_night().to_doc(), **changes}


def test_save_reopen_and_read_back_as_a_night(tmp_path: Path) -> None:
    night = a_night(sessions=("s1", "s2")).mark_paid("Dan", "Ann", 200, now="2026-12-04T23:00:00.000Z")
    with Archive(tmp_path) as archive:
        store = NightStore.of(archive)
        saved = store.save(night.to_doc())
        assert saved["schema_version"] == NIGHT_SCHEMA_VERSION == 1
        closed = store.save(night.close(now="2026-12-05T01:00:00.000Z").to_doc())
        assert closed["status"] == "closed" and len(store) == 1
    reopened = NightStore(tmp_path)
    assert reopened.problems == []
    assert Night.from_doc(reopened.get("n1")) == night.close(now="2026-12-05T01:00:00.000Z")
    assert reopened.night_of("s2") == "n1" and reopened.night_of("s9") is None
    on_disk = json.loads((tmp_path / NIGHTS_FILE).read_text(encoding="utf-8"))
    assert list(on_disk) == ["nights"] and next(iter(on_disk["nights"].values()))["schema_version"] == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_night_saved_with_a_name_longer_than_a_games_limit_is_kept(tmp_path: Path) -> None:
    """Nights once accepted players' names of up to 100 characters; a player's name is now limited to 40 where it is
    typed, and such a saved night is still read, listed and saved again as it is."""
    long_name = "L" * 100
    saved = doc(players=[*P4, long_name])
    NightStore(tmp_path).save(saved)
    reopened = NightStore(tmp_path)
    assert reopened.problems == [] and reopened.get("n1")["players"] == [*P4, long_name]
    night = Night.from_doc(reopened.get("n1"))
    assert NightStore(tmp_path).save(night.add_game("s7").to_doc())["players"] == [*P4, long_name]


def test_list_is_newest_first_and_delete_forgets(tmp_path: Path) -> None:
    store = NightStore(tmp_path)
    store.save(doc(id="old", started="2026-11-01T19:00:00.000Z"))
    store.save(doc(id="new", started="2026-12-01T19:00:00.000Z"))
    assert [d["id"] for d in store.list()] == ["new", "old"]
    store.delete("old")
    assert [d["id"] for d in NightStore(tmp_path).list()] == ["new"]
    with pytest.raises(NightNotFoundError, match=r"there is no night 'old'"):
        store.get("old")
    with pytest.raises(NightNotFoundError):
        store.delete("old")


def test_every_write_is_atomic_and_durable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, bool]] = []
    real = storage.atomic.atomic_write_json

    def spy(path: Path, data: Any, *, durable: bool = True) -> None:
        calls.append((Path(path).name, durable))
        real(path, data, durable=durable)

    monkeypatch.setattr(storage.atomic, "atomic_write_json", spy)
    store = NightStore(tmp_path)
    store.save(doc())
    store.save(doc(name="Friday again"))
    store.delete("n1")
    assert calls == [(NIGHTS_FILE, True)] * 3


def test_a_refused_write_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = NightStore(tmp_path)
    store.save(doc())
    before = (tmp_path / NIGHTS_FILE).read_bytes()

    def full(path: Path, data: bytes, *, durable: bool = True) -> None:
        raise StorageWriteError(Path(path), OSError(28, "No space left on device"))

    monkeypatch.setattr(storage.atomic, "atomic_write_bytes", full)
    with pytest.raises(StorageWriteError, match=r"could not save nights\.json: the disk is full"):
        store.save(doc(name="Renamed"))
    assert (tmp_path / NIGHTS_FILE).read_bytes() == before
    monkeypatch.undo()
    assert NightStore(tmp_path).get("n1")["name"] == "Friday"


def test_an_older_data_folder_gains_no_nights_and_loses_nothing(tmp_path: Path) -> None:
    with Archive(tmp_path) as archive:
        session = archive.create_session(JK)
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name != ".lock")
    with Archive(tmp_path) as archive:
        store = NightStore.of(archive)
        assert store.list() == [] and store.problems == [] and archive.problems == []
        assert archive.load_session(session.id).record == JK
    after = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name != ".lock")
    assert after == before and not (tmp_path / NIGHTS_FILE).exists()  # created by the first save only


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe\x00", b"[1, 2]", b'{"nights": [1, 2]}'])
def test_a_damaged_file_is_set_aside_by_the_archive(tmp_path: Path, content: bytes) -> None:
    (tmp_path / NIGHTS_FILE).write_bytes(content)
    with Archive(tmp_path) as archive:
        store = NightStore.of(archive)
        assert store.list() == []
        assert "set aside as damaged/nights.json." in store.problems[0]
        assert any(p.startswith("nights.json could not be read") for p in archive.problems)
        (aside,) = (tmp_path / "damaged").iterdir()
        assert aside.read_bytes() == content  # byte for byte
        store.save(doc())  # the app goes on
    assert [d["id"] for d in NightStore(tmp_path).list()] == ["n1"]


def test_a_damaged_file_in_a_read_only_archive_is_left_untouched(tmp_path: Path) -> None:
    (tmp_path / NIGHTS_FILE).write_bytes(b"{oops")
    with Archive(tmp_path, read_only=True) as archive:
        store = NightStore.of(archive)
        assert store.list() == [] and "left untouched" in store.problems[0]
        with pytest.raises(ArchiveReadOnlyError):
            store.save(doc())
    assert (tmp_path / NIGHTS_FILE).read_bytes() == b"{oops"
    alone = NightStore(tmp_path)  # no set-aside helper: reported, never written
    with pytest.raises(ArchiveReadOnlyError, match=r"could not be read or set aside"):
        alone.save(doc())
    assert (tmp_path / NIGHTS_FILE).read_bytes() == b"{oops"


def test_unreadable_and_newer_nights_are_reported_and_kept_byte_for_byte(tmp_path: Path) -> None:
    bad = {**doc(id="bad"), "players": "nobody"}
    newer = {**doc(id="newer"), "schema_version": 7, "colour": "green"}
    good = check_night(doc(id="good"))
    (tmp_path / NIGHTS_FILE).write_text(json.dumps({"nights": {"1": bad, "2": newer, "3": good}}), encoding="utf-8")
    store = NightStore(tmp_path)
    assert [d["id"] for d in store.list()] == ["good"]
    assert any("night bad in nights.json was left untouched" in p and "players" in p for p in store.problems)
    assert any("newer version of the app (night format 7" in p for p in store.problems)
    store.save(doc(id="another"))
    store.save({**good, "name": "Good, renamed"})
    kept = json.loads((tmp_path / NIGHTS_FILE).read_text(encoding="utf-8"))["nights"]
    assert kept["1"] == bad and kept["2"] == newer and kept["3"]["name"] == "Good, renamed"


def test_migrate_steps_through_every_version(monkeypatch: pytest.MonkeyPatch) -> None:
    assert migrate({"id": "n1"}) == {"id": "n1", "schema_version": 1}
    with pytest.raises(SchemaVersionError, match=r"newer version"):
        migrate({"id": "n1", "schema_version": 2})
    with pytest.raises(NightDocumentError, match=r"unreadable format version"):
        migrate({"id": "n1", "schema_version": "one"})
    # the mechanism, with a next version whose step trims names (v1 → v2) and one more (v2 → v3)
    monkeypatch.setattr(night_docs_module, "NIGHT_SCHEMA_VERSION", 3)
    monkeypatch.setattr(
        night_docs_module,
        "MIGRATIONS",
        {1: lambda d: {**d, "name": d["name"].strip()}, 2: lambda d: {**d, "players": list(d["players"])}},
    )
    assert migrate({"name": "  Friday ", "players": ("A", "B")}) == {
        "name": "Friday",
        "players": ["A", "B"],
        "schema_version": 3,
    }


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "x" * 101}, r"name: it is longer than 100 characters"),
        ({"name": "Fri\x00day"}, r"name: it contains a control character"),
        ({"name": "Fri\u202eday"}, r"name: it contains a control character"),  # a bidi override
        ({"name": "   "}, r"name: it is empty"),
        ({"players": ["Ann", "x" * 101]}, r"players\.1: it is longer than 100 characters"),
        ({"players": ["Ann", "ANN "]}, r"seated twice"),
        ({"players": ["Ann"]}, r"players: List should have at least 2 items"),
        ({"id": "../x"}, r"is not a valid session id"),
        ({"sessions": ["s1", "s1"]}, r"a game is listed twice"),
        ({"status": "closed"}, r"its status is closed but its closing time is None"),
        ({"colour": "green"}, r"colour: is not a known value here"),
        ({"entries": [{"id": "e", "payer": "Zed", "receiver": "Ann", "amount": 5}]}, r"'Zed' is not a player"),
        ({"entries": [{"id": "e", "payer": "Ann", "receiver": "Ann", "amount": 5}]}, r"cannot receive"),
        ({"entries": [{"id": "e", "payer": "Ann", "receiver": "Ben", "amount": 0}]}, r"greater than or equal to 1"),
        ({"entries": [{"id": "e", "payer": "Ann", "receiver": "Ben", "amount": 2.5}]}, r"valid integer"),
        ({"entries": [{"id": "e", "payer": "Ann", "receiver": "split", "amount": 5}]}, r"a split is shared"),
        ({"entries": [{"id": "e", "payer": "Ann", "receiver": "Ben", "amount": 5, "note": "n" * 201}]}, r"200"),
        ({"paid": [{"payer": "Ann", "receiver": "Zed", "amount": 5}]}, r"payment 1 is not between two players"),
    ],
)
def test_invalid_documents_are_refused_in_words(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    store = NightStore(tmp_path)
    with pytest.raises(NightDocumentError, match=message):
        store.save(doc(**changes))
    assert len(store) == 0 and not (tmp_path / NIGHTS_FILE).exists()


def test_a_game_belongs_to_one_night(tmp_path: Path) -> None:
    store = NightStore(tmp_path)
    store.save(a_night("n1", sessions=("s1",)).to_doc())
    with pytest.raises(NightConflictError, match=r"game s1 already belongs to the night 'Friday'"):
        store.save(a_night("n2", "Saturday", sessions=("s2", "s1")).to_doc())
    store.save(a_night("n1", sessions=("s1", "s3")).to_doc())  # the same night may keep its own games
    assert store.remove_session("s1") == "n1" and store.get("n1")["sessions"] == ["s3"]
    assert store.remove_session("s1") is None


def test_export_then_import_into_a_fresh_folder(tmp_path: Path) -> None:
    source = NightStore(tmp_path / "a")
    first = source.save(a_night("n1", sessions=("s1", "s2")).to_doc())
    second = source.save(a_night("n2", "Saturday", sessions=("s3",)).close(now="2026-12-06T01:00:00.000Z").to_doc())
    payload = json.loads(json.dumps({"nights": export_nights(source)}))  # through a JSON file and back
    assert [d["id"] for d in export_nights(source, ["n2"])] == ["n2"]

    target = NightStore(tmp_path / "b")  # a folder that does not exist yet
    report = import_nights(target, read_nights(payload["nights"]))
    assert (report.imported, report.skipped) == (2, 0) and report.messages == ["2 nights imported."]
    assert NightStore(tmp_path / "b").get("n1") == first and NightStore(tmp_path / "b").get("n2") == second
    again = import_nights(target, read_nights(payload["nights"]))
    assert (again.imported, again.skipped) == (0, 2) and "2 nights were already there and skipped." in again.messages


def test_import_maps_game_ids_and_keeps_a_game_in_one_night(tmp_path: Path) -> None:
    target = NightStore(tmp_path)
    target.save(a_night("mine", "Mine", sessions=("x1",)).to_doc())
    incoming = read_nights(
        [
            a_night("n1", sessions=("s1", "s2", "s3")).to_doc(),
            {**a_night("mine", "Theirs").to_doc()},  # same id as a night here, other content
        ]
    )
    report = import_nights(target, incoming, session_ids={"s1": "t1", "s2": None, "s3": "x1"})
    assert report.imported == 2
    assert target.get("n1")["sessions"] == ["t1"]
    assert any("game s2 is not in this archive and was left out" in m for m in report.messages)
    assert any("game x1 already belongs to the night 'Mine' and was left out" in m for m in report.messages)
    renamed = [i for i in report.ids if i != "n1"]
    assert len(renamed) == 1 and renamed[0] != "mine" and target.get(renamed[0])["name"] == "Theirs"
    assert target.get("mine")["name"] == "Mine"


def test_a_bad_import_is_refused_whole_and_writes_nothing(tmp_path: Path) -> None:
    store = NightStore(tmp_path)
    good = a_night("n1").to_doc()
    for items, message in [
        ({"n1": good}, r"not a list"),
        ([good, {**good, "id": "n2", "name": "\x1b[2J"}], r"night 2 of the file cannot be imported.*control"),
        ([good, {**good, "name": "y" * 500, "id": "n3"}], r"night 2 .*longer than 100 characters"),
        ([good, good], r"the same night twice"),
        ([good, "a night"], r"night 2 .*not str"),
        ([{**good, "schema_version": 99}], r"newer version"),
    ]:
        with pytest.raises(ImportRefusedError, match=message):
            import_nights(store, read_nights(items))
    assert len(store) == 0 and not (tmp_path / NIGHTS_FILE).exists()


def test_read_only_store_refuses_changes(tmp_path: Path) -> None:
    NightStore(tmp_path).save(doc())
    store = NightStore(tmp_path, read_only=True)
    assert store.get("n1")["name"] == "Friday"
    for change in (lambda: store.save(doc()), lambda: store.delete("n1"), lambda: import_nights(store, [])):
        with pytest.raises(ArchiveReadOnlyError, match=r"read-only"):
            change()
