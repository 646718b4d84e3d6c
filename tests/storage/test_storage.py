"""Storage: sessions on TinyDB, index repair, damaged files, locking, migration, roster, thread safety."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from storage import (
    Archive,
    ArchiveLockedError,
    ArchiveReadOnlyError,
    ArchiveUnwritableError,
    DuplicatePlayerError,
    InvalidPlayerNameError,
    LogEntry,
    SchemaVersionError,
    SessionDamagedError,
    SessionDoc,
    SessionNotFoundError,
    SessionStatus,
)
from storage.archive import shard_of
from storage.atomic import AtomicJSONStorage
from storage.models import SCHEMA_VERSION
from tests.conftest import FIXTURES as TEST_FIXTURES

FIXTURES = TEST_FIXTURES / "storage"


def rec(players: tuple[str, ...] = ("Ann", "Ben", "Cat"), hands: int = 0, game: str = "jokers-kill") -> dict[str, Any]:
    return {
        "game": game,
        "players": list(players),
        "options": {},
        "hands": [{"up": f"{2 + i % 9}S", "n": i} for i in range(hands)],
    }


def add_hand(archive: Archive, doc: SessionDoc) -> SessionDoc:
    record = dict(doc.record)
    record["hands"] = [*record["hands"], {"up": "5S", "n": len(record["hands"])}]
    return archive.save_session(doc.model_copy(update={"record": record}), f"hand {len(record['hands'])} entered")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


# --- basic life cycle ------------------------------------------------------------------------------------------


def test_create_save_reload(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec(), title="Friday")
        for _ in range(3):
            doc = add_hand(archive, doc)
    with Archive(folder) as archive:
        loaded = archive.load_session(doc.id)
        assert loaded.record == doc.record
        assert len(loaded.record["hands"]) == 3
        assert [e.action for e in loaded.log] == ["session started", *(f"hand {n} entered" for n in (1, 2, 3))]
        assert loaded.title == "Friday"
        assert loaded.schema_version == SCHEMA_VERSION
        (summary,) = archive.list_sessions()
        assert (summary.id, summary.hands, summary.players) == (doc.id, 3, ("Ann", "Ben", "Cat"))
        assert summary.status is SessionStatus.IN_PROGRESS


def test_save_does_not_touch_callers_doc_and_keeps_created_at(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        changed = doc.model_copy(update={"created_at": "2000-01-01T00:00:00.000Z", "record": rec(hands=1)})
        saved = archive.save_session(changed, "hand 1 entered")
        assert changed.log == doc.log  # the caller's copy is unchanged
        assert saved.created_at == doc.created_at
        assert saved.updated_at >= doc.updated_at


def test_log_is_append_only(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        doc = archive.save_session(doc.model_copy(update={"record": rec(hands=1)}), "hand 1 entered")
        forged = doc.model_copy(update={"log": [LogEntry.now("nothing happened")]})
        saved = archive.save_session(forged, LogEntry.now("undo", "hand 1 removed"))
        assert [e.action for e in saved.log] == ["session started", "hand 1 entered", "undo"]
        assert saved.log[-1].detail == "hand 1 removed"
        extended = saved.model_copy(update={"log": [*saved.log, LogEntry.now("note", "by the caller")]})
        again = archive.save_session(extended, None)
        assert [e.action for e in again.log][-2:] == ["undo", "note"]
        assert archive.load_session(doc.id).log == again.log


def test_status_winners_and_filters(folder: Path) -> None:
    with Archive(folder) as archive:
        a = archive.create_session(rec(("Ann", "Ben")))
        b = archive.create_session(rec(("Cat", "Dan"), game="bargain-bin"))
        time.sleep(0.003)  # stamps have millisecond resolution: the save below must be strictly later than b
        archive.save_session(a.model_copy(update={"status": SessionStatus.FINISHED, "winners": ["Ann"]}), "finished")
        assert [s.id for s in archive.list_sessions()] == [a.id, b.id]  # newest (last saved) first
        assert [s.id for s in archive.list_sessions(game="bargain-bin")] == [b.id]
        assert [s.id for s in archive.list_sessions(player="Ann")] == [a.id]
        assert [s.id for s in archive.list_sessions(status="finished")] == [a.id]
        assert archive.list_sessions(status=SessionStatus.PENDING) == []
        assert archive.summary(a.id).winners == ("Ann",)


def test_delete_and_not_found(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        archive.delete_session(doc.id)
        with pytest.raises(SessionNotFoundError, match="no saved session"):
            archive.load_session(doc.id)
        with pytest.raises(SessionNotFoundError):
            archive.delete_session(doc.id)
        assert archive.list_sessions() == []
    with Archive(folder) as archive:
        assert archive.list_sessions() == []


def test_bad_ids_are_refused(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        with pytest.raises(SessionNotFoundError):
            archive.load_session("../players")
        with pytest.raises(ValueError, match="not a valid session id"):
            archive.save_session(doc.model_copy(update={"id": "../../etc/x"}), "x")
        with pytest.raises(ValueError, match="which game"):
            archive.create_session({"players": ["Ann"]})


def test_layout_one_file_per_session_and_sharded_index(folder: Path) -> None:
    with Archive(folder) as archive:
        docs = [archive.create_session(rec()) for _ in range(5)]
    for doc in docs:
        stored = json.loads((folder / "sessions" / f"{doc.id}.json").read_text())
        assert stored["session"]["1"]["id"] == doc.id
        shard = json.loads((folder / "index" / f"{shard_of(doc.id)}.json").read_text())
        assert any(row["id"] == doc.id for row in shard["sessions"].values())


# --- index repair (crash between the session file and its shard) -----------------------------------------------


def test_index_repaired_from_newer_session_file(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        shard = folder / "index" / f"{shard_of(doc.id)}.json"
        stale = shard.read_bytes()
        doc = add_hand(archive, doc)
        doc = add_hand(archive, doc)
        extra = archive.create_session(rec(("Eve", "Fay")))
    shard.write_bytes(stale)  # as if the app died after writing the session file, before the shard
    (folder / "index" / f"{shard_of(extra.id)}.json").unlink(missing_ok=True)
    with Archive(folder) as archive:
        assert archive.summary(doc.id).hands == 2
        assert archive.has_session(extra.id)
        assert archive.problems == []
    with Archive(folder) as archive:  # and the repair was written back
        shard_rows = json.loads(shard.read_text())["sessions"].values()
        assert [r["hands"] for r in shard_rows if r["id"] == doc.id] == [2]


def test_index_entry_without_session_file_is_dropped(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        keep = archive.create_session(rec())
    (folder / "sessions" / f"{doc.id}.json").unlink()
    with Archive(folder) as archive:
        assert [s.id for s in archive.list_sessions()] == [keep.id]
    rows = json.loads((folder / "index" / f"{shard_of(doc.id)}.json").read_text())["sessions"].values()
    assert doc.id not in {row["id"] for row in rows}  # the stale row was written out of its shard


def test_leftover_temp_files_are_cleaned(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
    leftover = folder / "sessions" / f".{doc.id}.json.abc.tmp"
    leftover.write_bytes(b'{"session": {"1": {"id"')
    with Archive(folder) as archive:
        assert not leftover.exists()
        assert archive.problems == []
        assert archive.load_session(doc.id).id == doc.id


# --- damaged files -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
        pytest.param(lambda b: b"", id="empty"),
        pytest.param(lambda b: b"\x00\xff garbage \x89PNG", id="garbage"),
        pytest.param(lambda b: b"[1, 2, 3]", id="not-an-object"),
        pytest.param(lambda b: b'{"session": {"1": {"id": 5}}}', id="wrong-shape"),
    ],
)
def test_damaged_session_file_is_set_aside_and_the_rest_opens(folder: Path, damage: Any) -> None:
    with Archive(folder) as archive:
        bad = archive.create_session(rec(hands=2))
        good = archive.create_session(rec(("Eve", "Fay"), hands=1))
    path = folder / "sessions" / f"{bad.id}.json"
    original = path.read_bytes()
    broken = damage(original)
    path.write_bytes(broken)
    with Archive(folder) as archive:
        assert [s.id for s in archive.list_sessions()] == [good.id]
        assert archive.load_session(good.id).record["hands"] == good.record["hands"]
        assert len(archive.problems) == 1
        assert bad.id in archive.problems[0] and "set aside" in archive.problems[0]
    aside = list((folder / "damaged").iterdir())
    assert len(aside) == 1 and aside[0].name.startswith(f"{bad.id}.json.")
    assert aside[0].read_bytes() == broken  # kept byte for byte, never overwritten
    assert not path.exists()


def test_damage_found_on_load_raises_clear_error(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec(hands=1))
        path = folder / "sessions" / f"{doc.id}.json"
        path.write_bytes(b'{"session": {"1": {"id": "')  # damaged behind the open archive's back
        with pytest.raises(SessionDamagedError, match=r"cannot be read.*kept as damaged/"):
            archive.load_session(doc.id)
        assert not archive.has_session(doc.id)


def test_two_damaged_copies_of_the_same_file_are_both_kept(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
    path = folder / "sessions" / f"{doc.id}.json"
    for n in range(2):
        path.write_bytes(f"broken {n}".encode())
        with Archive(folder):
            pass
    kept = sorted(p.read_bytes() for p in (folder / "damaged").iterdir())
    assert kept == [b"broken 0", b"broken 1"]


def test_damaged_index_shard_is_rebuilt(folder: Path) -> None:
    with Archive(folder) as archive:
        docs = [archive.create_session(rec(hands=n)) for n in range(4)]
    shard = folder / "index" / f"{shard_of(docs[0].id)}.json"
    shard.write_bytes(b'{"sessions": {"1": ')
    with Archive(folder) as archive:
        assert sorted(s.id for s in archive.list_sessions()) == sorted(d.id for d in docs)
        assert archive.summary(docs[3].id).hands == 3
        assert any("index" not in p or shard.name in p for p in archive.problems)
    assert json.loads(shard.read_text())  # rewritten whole


def test_damaged_roster_is_set_aside_and_rebuilt_from_sessions(folder: Path) -> None:
    with Archive(folder) as archive:
        archive.create_session(rec(("Ann", "Ben")))
    (folder / "players.json").write_bytes(b"\xff\xfe not json")
    with Archive(folder) as archive:
        assert sorted(p.name for p in archive.players.list()) == ["Ann", "Ben"]
        assert any("players.json" in p for p in archive.problems)


def test_save_over_a_damaged_file_keeps_the_damaged_copy(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
        path = folder / "sessions" / f"{doc.id}.json"
        path.write_bytes(b"garbage")
        saved = add_hand(archive, doc)
        assert archive.load_session(doc.id).record == saved.record
        assert [p.read_bytes() for p in (folder / "damaged").iterdir()] == [b"garbage"]


def test_newer_schema_is_not_touched(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
    path = folder / "sessions" / f"{doc.id}.json"
    data = json.loads(path.read_text())
    data["session"]["1"]["schema_version"] = SCHEMA_VERSION + 1
    path.write_text(json.dumps(data))
    with Archive(folder) as archive:
        assert archive.list_sessions() == []
        assert any("newer version" in p for p in archive.problems)
        with pytest.raises(SchemaVersionError, match="newer version"):
            archive.load_session(doc.id)
        with pytest.raises(SchemaVersionError):
            archive.save_session(doc, "x")
    assert json.loads(path.read_text()) == data


# --- migration -------------------------------------------------------------------------------------------------


def test_version_1_fixture_migrates_on_load(folder: Path) -> None:
    (folder / "sessions").mkdir(parents=True)
    fixture = FIXTURES / "session-v1.json"
    v1 = json.loads(fixture.read_text())["session"]["1"]
    shutil.copy(fixture, folder / "sessions" / f"{v1['id']}.json")
    with Archive(folder) as archive:
        doc = archive.load_session(v1["id"])
        assert doc.schema_version == SCHEMA_VERSION
        assert doc.status is SessionStatus.IN_PROGRESS
        assert doc.created_at == "2025-11-24T16:00:00.000Z"
        assert doc.updated_at == "2025-11-24T16:15:00.500Z"
        assert [e.action for e in doc.log] == ["session started", "hand 1 entered"]
        assert doc.record == v1["record"] and doc.winners == []
        (summary,) = archive.list_sessions()
        assert summary.hands == 1 and summary.players == tuple(v1["players"])
        saved = add_hand(archive, doc)  # a save writes the current version, keeping the old log
        assert [e.action for e in saved.log][:2] == ["session started", "hand 1 entered"]
    stored = json.loads((folder / "sessions" / f"{v1['id']}.json").read_text())["session"]["1"]
    assert stored["schema_version"] == SCHEMA_VERSION and "history" not in stored and "state" not in stored


def test_version_1_finished_with_winner() -> None:
    v1 = json.loads((FIXTURES / "session-v1.json").read_text())["session"]["1"]
    v1.update(state="over", winner="Ann")
    doc = SessionDoc.from_stored(v1)
    assert (doc.status, doc.winners) == (SessionStatus.FINISHED, ["Ann"])
    del v1["created"]
    with pytest.raises(ValueError, match="incomplete"):
        SessionDoc.from_stored(v1)


# --- locking, read-only, unwritable ------------------------------------------------------------------------------


def test_second_instance_is_refused_and_read_only_works(folder: Path) -> None:
    with Archive(folder) as first:
        doc = first.create_session(rec(hands=1))
        with pytest.raises(ArchiveLockedError, match=r"another Card Table Companion.*read-only"):
            Archive(folder)
        with Archive(folder, read_only=True) as viewer:
            assert viewer.other_instance
            assert viewer.load_session(doc.id).record == doc.record
            assert [s.id for s in viewer.list_sessions()] == [doc.id]
            with pytest.raises(ArchiveReadOnlyError, match="read-only"):
                viewer.save_session(doc, "x")
            with pytest.raises(ArchiveReadOnlyError):
                viewer.players.add("Zed")
    with Archive(folder) as again:  # the lock is released on close
        assert again.has_session(doc.id)


def test_lock_held_by_another_process(folder: Path) -> None:
    import subprocess
    import sys

    Archive(folder).close()
    code = (
        "import sys, time; from storage import Archive; a = Archive(sys.argv[1]); "
        "print('ready', flush=True); time.sleep(30)"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        with pytest.raises(ArchiveLockedError):
            Archive(folder)
    finally:
        child.kill()
        child.wait()
    Archive(folder).close()  # a killed holder leaves no stale lock


def test_unwritable_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ArchiveUnwritableError, match="cannot be created"):
        Archive(blocker / "data")


def test_read_only_does_not_repair_on_disk(folder: Path) -> None:
    with Archive(folder) as archive:
        doc = archive.create_session(rec())
    path = folder / "sessions" / f"{doc.id}.json"
    path.write_bytes(b"broken")
    with Archive(folder, read_only=True) as viewer:
        assert viewer.list_sessions() == []
        assert any("left untouched" in p for p in viewer.problems)
    assert path.read_bytes() == b"broken"


# --- thread safety -------------------------------------------------------------------------------------------------


def test_concurrent_saves_from_many_threads(folder: Path) -> None:
    with Archive(folder) as archive:
        shared = archive.create_session(rec())
        errors: list[BaseException] = []

        def worker(n: int) -> None:
            try:
                own = archive.create_session(rec((f"P{n}", "Q")))
                for i in range(10):
                    own = add_hand(archive, own)
                    archive.save_session(shared, f"thread {n} step {i}")
                    archive.list_sessions()
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(archive.list_sessions()) == 9
        log = archive.load_session(shared.id).log
        assert len(log) == 1 + 80
        assert {e.action for e in log[1:]} == {f"thread {n} step {i}" for n in range(8) for i in range(10)}
    with Archive(folder) as archive:
        assert sorted(s.hands for s in archive.list_sessions()) == [0] + [10] * 8


# --- roster ------------------------------------------------------------------------------------------------------


def test_roster_add_rename_merge(folder: Path) -> None:
    with Archive(folder) as archive:
        ann = archive.players.add("  Ann  ")
        assert ann.name == "Ann"
        with pytest.raises(DuplicatePlayerError, match="already in the roster as 'Ann'"):
            archive.players.add("ANN")
        with pytest.raises(InvalidPlayerNameError, match="empty"):
            archive.players.add("   ")
        with pytest.raises(InvalidPlayerNameError, match="longer than 40"):
            archive.players.add("x" * 41)
        ben = archive.players.add("Ben")
        with pytest.raises(DuplicatePlayerError):
            archive.players.rename(ben.id, "ann")
        assert archive.players.rename(ann.id, "ann").history == ("Ann",)  # a change of case is allowed
        benjamin = archive.players.add("Benjamin")
        kept = archive.players.merge(ben.id, benjamin.id)
        assert kept.history == ("Benjamin",)
        assert [p.name for p in archive.players.list()] == ["ann", "Ben"]
    with Archive(folder) as archive:
        assert [p.name for p in archive.players.list()] == ["ann", "Ben"]
        assert archive.players.get(ann.id).history == ("Ann",)
        assert archive.players.find("BEN") == archive.players.get(ben.id)


def test_create_session_adds_players_to_roster(folder: Path) -> None:
    with Archive(folder) as archive:
        archive.players.add("ann")
        archive.create_session(rec(("Ann", "Ben")))
        assert [p.name for p in archive.players.list()] == ["ann", "Ben"]


def test_atomic_storage_reads_missing_as_empty(tmp_path: Path) -> None:
    storage = AtomicJSONStorage(tmp_path / "nothing.json")
    assert storage.read() is None
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(json.JSONDecodeError):
        AtomicJSONStorage(tmp_path / "list.json").read()


@pytest.mark.parametrize("module", ["models", "roster", "archive", "atomic", "settings"])
def test_storage_doctests(module: str) -> None:
    """The examples in the storage modules' docstrings (``testpaths`` does not collect ``storage/`` itself)."""
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(f"storage.{module}"))
    assert attempted > 0 and failures == 0


def test_a_save_writes_one_session_file_and_one_small_shard(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Why a save costs the same with 10 or 10,000 sessions: it never rewrites anything but its own two files."""
    import storage.atomic

    with Archive(folder) as archive:
        docs = [archive.create_session(rec(hands=2)) for _ in range(300)]
        written: list[tuple[Path, int, bool]] = []
        real = storage.atomic.atomic_write_bytes

        def spy(path: Path, data: bytes, *, durable: bool = True) -> None:
            written.append((Path(path), len(data), durable))
            real(path, data, durable=durable)

        monkeypatch.setattr(storage.atomic, "atomic_write_bytes", spy)
        add_hand(archive, docs[123])
        session_file = folder / "sessions" / f"{docs[123].id}.json"
        shard_file = folder / "index" / f"{shard_of(docs[123].id)}.json"
        assert [(p, durable) for p, _, durable in written] == [(session_file, True), (shard_file, False)]
        assert written[1][1] < 20 * written[0][1]  # a shard holds ~1/256 of the summaries, not the archive


# --- the record's fingerprint, worked out after the save ------------------------------------------------------


def test_a_saved_records_fingerprint_is_there_when_a_summary_is_read(folder: Path) -> None:
    """A save does not work out the record's fingerprint (a long game's Confirm would pay for it); every way a
    summary leaves the archive has it, and it is the record's."""
    from storage import record_fingerprint

    with Archive(folder) as archive:
        doc = add_hand(archive, archive.create_session(rec()))
        assert archive.summary(doc.id).fingerprint == record_fingerprint(doc.record)
        doc = add_hand(archive, doc)
        [listed] = archive.list_sessions()
        assert listed.fingerprint == record_fingerprint(doc.record) != ""
        doc = add_hand(archive, doc)
        found = archive.find_fingerprint(record_fingerprint(doc.record))
        assert found is not None and found.id == doc.id and found.hands == 3


def test_a_shard_written_before_the_fingerprint_is_rebuilt_on_open(folder: Path) -> None:
    """The app dies after a save, before any summary was read or the archive closed: the shard's row has no
    fingerprint, and the next open rebuilds that row from the session file (the truth)."""
    from storage import record_fingerprint

    with Archive(folder) as archive:
        doc = add_hand(archive, archive.create_session(rec()))
        shard = folder / "index" / f"{shard_of(doc.id)}.json"
        died = shard.read_bytes()  # what the disk holds at this moment
        [row] = json.loads(died)["sessions"].values()
        assert row["fingerprint"] == "" and row["hands"] == 1
    shard.write_bytes(died)
    with Archive(folder) as archive:
        assert archive.summary(doc.id).fingerprint == record_fingerprint(doc.record)
        assert archive.problems == []
    with Archive(folder) as archive:  # and the rebuilt row was written back
        [row] = json.loads(shard.read_text())["sessions"].values()
        assert row["fingerprint"] == record_fingerprint(doc.record)


def test_a_session_file_holds_the_document_as_json(folder: Path) -> None:
    """The session file is the document serialised by pydantic in one pass: the same data as ``to_stored``,
    names outside ASCII kept as they are."""
    with Archive(folder) as archive:
        doc = add_hand(archive, archive.create_session(rec(("Åsa", "Ben", "Zoë"))))
    raw = (folder / "sessions" / f"{doc.id}.json").read_bytes()
    assert "Åsa".encode() in raw
    assert json.loads(raw) == {"session": {"1": doc.to_stored()}}
    with Archive(folder) as archive:
        assert archive.load_session(doc.id) == doc


def test_many_sessions_saved_unlisted_get_their_fingerprints_one_a_save(folder: Path) -> None:
    """An import saves many sessions and lists none: beyond the first 64 waiting, each save works out the oldest
    one's fingerprint, so nothing piles up; its shard row on disk gets it when the archive closes."""
    from storage import record_fingerprint
    from storage.core import UNPRINTED

    def row(doc: SessionDoc) -> dict[str, Any]:
        shard = json.loads((folder / "index" / f"{shard_of(doc.id)}.json").read_text())
        return next(r for r in shard["sessions"].values() if r["id"] == doc.id)

    with Archive(folder) as archive:
        docs = [archive.create_session(rec(hands=1)) for _ in range(UNPRINTED + 6)]
        assert len(archive._unprinted) == UNPRINTED
        assert {s.fingerprint for s in archive.list_sessions()} == {record_fingerprint(d.record) for d in docs}
        assert not archive._unprinted
    assert [row(doc)["fingerprint"] for doc in docs] == [record_fingerprint(doc.record) for doc in docs]
