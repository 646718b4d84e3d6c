"""Storage under faults: a full disk, permission errors, and SIGKILL at random moments during saves."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import storage.atomic
from storage import Archive, SessionDoc, StorageError, StorageWriteError
from tests.support.faults import full_drafts_disk


def rec(players: tuple[str, ...] = ("Ann", "Ben", "Cat"), hands: int = 0) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": list(players), "options": {}, "hands": [{"n": i} for i in range(hands)]}


def with_hand(doc: SessionDoc) -> SessionDoc:
    hands = [*doc.record["hands"], {"n": len(doc.record["hands"])}]
    return doc.model_copy(update={"record": {**doc.record, "hands": hands}})


@contextlib.contextmanager
def small_filesystem(where: Path, size: str = "256k") -> Iterator[Path | None]:
    """A real tmpfs of ``size`` mounted at ``where`` (None when mounting is not permitted here)."""
    where.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, timeout=20
        )
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is None or done.returncode != 0:
        yield None
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=20)


def fill(folder: Path) -> Path:
    """Fill the filesystem holding ``folder`` until it refuses (ENOSPC)."""
    filler = folder / "filler.bin"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_full_disk_keeps_previous_state_and_the_unsaved_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with small_filesystem(tmp_path / "small") as mount:
        folder = (mount or tmp_path) / "data"
        archive = Archive(folder)
        doc = archive.create_session(rec(hands=2))
        before = (folder / "sessions" / f"{doc.id}.json").read_bytes()
        if mount is not None:
            filler = fill(mount)
        else:  # no real small filesystem here: make every write fail as a full disk does
            real_fsync = os.fsync

            def full(fd: int) -> None:
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(storage.atomic.os, "fsync", full)
        bigger = with_hand(doc)
        with pytest.raises(StorageWriteError, match="the disk is full; the previous version is intact") as caught:
            archive.save_session(bigger, "hand 3 entered")
        assert caught.value.errno == errno.ENOSPC
        assert isinstance(caught.value, StorageError)
        assert (folder / "sessions" / f"{doc.id}.json").read_bytes() == before
        assert archive.load_session(doc.id).record == doc.record
        assert archive.summary(doc.id).hands == 2
        assert archive.unsaved[doc.id][0].record == bigger.record  # kept in memory to be saved again
        assert not [p for p in (folder / "sessions").iterdir() if p.name.endswith(".tmp")]
        with pytest.raises(StorageWriteError):
            archive.retry_unsaved()
        if mount is not None:
            filler.unlink()
        else:
            monkeypatch.setattr(storage.atomic.os, "fsync", real_fsync)
        (saved,) = archive.retry_unsaved()
        assert archive.unsaved == {}
        assert saved.record == bigger.record and saved.log[-1].action == "hand 3 entered"
        archive.close()
        with Archive(folder) as again:
            assert again.load_session(doc.id).record == bigger.record
            assert again.summary(doc.id).hands == 3
            assert again.problems == []


def test_permission_error_keeps_previous_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Archive(tmp_path / "data") as archive:
        doc = archive.create_session(rec(hands=1))

        def denied(*args: Any, **kwargs: Any) -> Any:
            raise PermissionError(errno.EACCES, "Permission denied")

        monkeypatch.setattr(storage.atomic.tempfile, "mkstemp", denied)
        with pytest.raises(StorageWriteError, match="permission denied"):
            archive.save_session(with_hand(doc), "hand 2 entered")
        monkeypatch.undo()
        assert archive.load_session(doc.id).record == doc.record
        assert doc.id in archive.unsaved
        archive.retry_unsaved()
        assert archive.load_session(doc.id).record["hands"] == [{"n": 0}, {"n": 1}]


# --- SIGKILL at random moments ---------------------------------------------------------------------------------

KILLS = 200


def _child(folder: Path, write_fd: int, seed: int) -> None:
    """Save hands in a loop, acknowledging each one (``id hands``) only after ``save_session`` returned."""
    rnd = random.Random(seed)
    archive = Archive(folder)
    docs = {s.id: archive.load_session(s.id) for s in archive.list_sessions()}
    os.write(write_fd, b"ready\n")  # the parent times its kill from here (a forked child can be slow to start)
    while True:
        if not docs or rnd.random() < 0.05:
            players = ("Ann", "Ben", f"P{rnd.randrange(1000)}")  # sometimes a new name: a roster write too
            doc = archive.create_session(rec(players))
            docs[doc.id] = doc
            os.write(write_fd, f"{doc.id} 0\n".encode())
            continue
        session_id = rnd.choice(sorted(docs))
        doc = archive.save_session(with_hand(docs[session_id]), f"hand {len(docs[session_id].record['hands']) + 1}")
        docs[session_id] = doc
        os.write(write_fd, f"{doc.id} {len(doc.record['hands'])}\n".encode())


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_hand(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    rnd = random.Random(20261129)
    acked: dict[str, int] = {}
    total_acks = 0
    kills_mid_run = 0
    for round_no in range(KILLS):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                os.close(read_fd)
                _child(folder, write_fd, round_no)
            finally:
                os._exit(0)
        os.close(write_fd)
        data = b""
        if round_no % 10:  # most kills land while hands are being saved; every tenth may land while opening
            deadline = time.monotonic() + 10.0
            while b"ready\n" not in data and time.monotonic() < deadline:
                readable, _, _ = select.select([read_fd], [], [], 0.5)
                if readable:
                    data += os.read(read_fd, 65536)
        time.sleep(rnd.uniform(0.0, 0.08))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        kills_mid_run += os.WIFSIGNALED(status)
        while chunk := os.read(read_fd, 65536):
            data += chunk
        os.close(read_fd)
        for line in data.decode().splitlines():
            if line == "ready":
                continue
            total_acks += 1
            session_id, count = line.split()
            acked[session_id] = max(acked.get(session_id, 0), int(count))
        with Archive(folder) as archive:
            assert archive.problems == [], f"round {round_no}: {archive.problems}"
            summaries = {s.id: s for s in archive.list_sessions()}
            on_disk = {p.stem for p in (folder / "sessions").glob("*.json")}
            assert set(summaries) == on_disk
            for session_id, summary in summaries.items():
                doc = archive.load_session(session_id)  # every file loads
                assert summary.hands == len(doc.record["hands"])
                assert len(doc.log) == 1 + len(doc.record["hands"])
            for session_id, hands in acked.items():
                assert session_id in summaries, f"round {round_no}: acknowledged session {session_id} is lost"
                saved = summaries[session_id].hands
                # every acknowledged hand is there; at most the one save in flight at the kill landed unacknowledged
                assert hands <= saved <= hands + 1, f"round {round_no}: {session_id} acked {hands}, on disk {saved}"
            for session_id in set(summaries) - set(acked):  # created, killed before the acknowledgement
                assert summaries[session_id].hands <= 1
            acked = {sid: s.hands for sid, s in summaries.items()}  # the next child starts from what is on disk
            assert not (folder / "damaged").exists()
    assert kills_mid_run == KILLS
    assert total_acks > KILLS  # the children really were saving when killed


# --- drafts on a full disk: quiet ----------------------------------------------------------------------------


def test_drafts_on_a_full_disk_log_one_line_per_change_of_state_and_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.session import SessionService

    archive = Archive(tmp_path / "data")
    table = SessionService(archive).start("jokers-kill", ["Ann", "Ben", "Cat"])
    full = full_drafts_disk(monkeypatch)
    caplog.set_level("DEBUG")
    for n in range(20):  # twenty taps on a full disk
        table.set_draft({"up": f"{2 + n % 8}S"})
    assert table.draft() == {"up": "5S"}  # kept in memory
    assert archive.draft_write_error(table.id) is not None and "the disk is full" in archive.draft_write_error(table.id)
    records = [r for r in caplog.records if "hands being entered" in r.getMessage()]
    assert len(records) == 1 and records[0].levelname == "WARNING" and "the disk is full" in records[0].getMessage()
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
    full["on"] = False
    table.set_draft({"up": "6S"})
    table.set_draft({"up": "7S"})
    records = [r for r in caplog.records if "hands being entered" in r.getMessage()]
    assert len(records) == 2 and "written to disk again" in records[1].getMessage()
    assert archive.draft_write_error(table.id) is None
    assert archive.load_drafts(table.id, stamp=len(table.doc.log)) == {"new": {"up": "7S"}}
    archive.close()
