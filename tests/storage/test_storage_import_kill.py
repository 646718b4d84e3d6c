"""SIGKILL during an import started from the app's import entry point (``companion.history.import_path``, which
the Export-and-backup screen calls): the file lands whole or not at all, and nothing partial is ever visible."""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from pathlib import Path

import pytest

from companion.history import import_bytes, import_path
from storage import Archive, record_fingerprint
from storage.layout import JOURNAL
from tests.support.archives import valid_records
from tests.support.killing import fork_and_kill

KILLS = 100


def _child(folder: Path, source: Path, write_fd: int, as_bytes: bool) -> None:
    archive = Archive(folder)  # as the app opens it (completing nothing: there is no journal yet)
    os.write(write_fd, b"ready\n")
    entry = import_bytes if as_bytes else None
    report = entry(archive, source.name, source.read_bytes()) if entry else import_path(archive, str(source))
    os.write(write_fd, f"done {report.imported}\n".encode())


def _run(folder: Path, source: Path, delay: float | None, *, as_bytes: bool, wait_journal: bool) -> str:
    """Run one import in a forked child; kill it ``delay`` s after it opened the archive (or after the journal
    appeared); ``None``: let it finish. Returns what the child said."""
    journal = folder / JOURNAL if wait_journal else None
    return fork_and_kill(lambda write_fd: _child(folder, source, write_fd, as_bytes), delay, journal)


@pytest.mark.slow
def test_sigkill_during_an_app_import_leaves_it_whole_or_absent(tmp_path: Path) -> None:
    """100 SIGKILLs of an import through the app's entry points (``import_path``; every fourth through
    ``import_bytes``): 25 new games and 5 already there. After each kill, a read-only look sees only complete
    sessions; once the folder is opened for writing (as the app or any command opens it) the file has landed
    whole or not at all, its players are in the roster, and the journal is gone."""
    records = valid_records(30)
    assert len(records) == 30
    template = tmp_path / "template"
    with Archive(template) as archive:
        seed = tmp_path / "seed.json"
        seed.write_text(json.dumps(records[:5]))
        assert archive.import_file(seed).imported == 5
    source = tmp_path / "all.json"
    source.write_text(json.dumps(records))
    wanted = {record_fingerprint(r): r for r in records}
    before = {record_fingerprint(r) for r in records[:5]}

    shutil.copytree(template, tmp_path / "timing")
    start = time.monotonic()
    said = _run(tmp_path / "timing", source, None, as_bytes=False, wait_journal=False)
    full = time.monotonic() - start
    assert "done 25" in said, said
    with Archive(tmp_path / "timing", read_only=True) as archive:
        assert {s.fingerprint for s in archive.list_sessions()} == set(wanted)

    rng = random.Random(14)
    outcomes = []
    for n in range(KILLS):
        folder = tmp_path / f"run-{n}"
        shutil.copytree(template, folder)
        wait_journal = n % 3 != 0  # most kills while the sessions are being saved, the rest anywhere
        delay = rng.uniform(0.0, full * (0.5 if wait_journal else 1.0))
        _run(folder, source, delay, as_bytes=n % 4 == 3, wait_journal=wait_journal)
        with Archive(folder, read_only=True) as archive:
            assert not archive.take_damage_notices(), f"kill {n}: something was damaged"
            seen = archive.list_sessions()
            for s in seen:
                doc = archive.load_session(s.id)
                assert doc.record == wanted[s.fingerprint], f"kill {n}: session {s.id} is not complete"
            after_kill = len(seen)
        with Archive(folder) as archive:
            found = {s.fingerprint for s in archive.list_sessions()}
            assert found in (before, set(wanted)), f"kill {n} after {delay:.3f}s left {len(found)} sessions"
            if found != before:
                names = {p.name for p in archive.players.list()}
                assert names >= {p for r in records for p in r["players"]}
            assert not archive.take_damage_notices()
        assert not (folder / JOURNAL).exists()
        outcomes.append((after_kill, len(found)))
        shutil.rmtree(folder)
    midway = [seen for seen, _ in outcomes if len(before) < seen < len(wanted)]
    print(
        f"full import {full:.2f}s; kills before any session was saved / midway / after all: "
        f"{sum(seen == len(before) for seen, _ in outcomes)} / {len(midway)} / "
        f"{sum(seen == len(wanted) for seen, _ in outcomes)}"
    )
    assert any(final == len(before) for _, final in outcomes), "no kill landed before the journal"
    assert midway, "no kill landed while sessions were being saved"
