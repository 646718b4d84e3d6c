"""Archives and backups for the storage tests: valid records to import, a big backup to restore."""

from __future__ import annotations

import base64
import json
import random
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import scoring
from storage import Archive, LogEntry, record_fingerprint
from storage.layout import JOURNAL, shard_of
from tests.conftest import CASES


def scorable_cases(paths: Iterable[Path] | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Every conformance case of ``paths`` (default: the repository's own, ``tests/cases``) whose record is valid
    and whose game scores here: (file, case)."""
    out = []
    for path in sorted(CASES.glob("*/*.json")) if paths is None else paths:
        case = json.loads(path.read_text(encoding="utf-8"))
        if case.get("expect_error"):
            continue
        try:
            scoring.score(case["record"])
        except (scoring.ScoringError, ImportError):
            continue
        out.append((path, case))
    return out


def valid_records(limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` valid records of :func:`scorable_cases`, no two the same."""
    out: list[dict[str, Any]] = []
    for _, case in scorable_cases():
        if record_fingerprint(case["record"]) not in {record_fingerprint(r) for r in out}:
            out.append(case["record"])
    return out[:limit]


def first_id(data: Path) -> str:
    """The id of the data folder's first session (ids sorted)."""
    with Archive(data, read_only=True) as archive:
        return sorted(s.id for s in archive.list_sessions())[0]


def place(data: Path, where: str) -> Path:
    """The file of one kind of entry of the data folder (``session``, ``index shard``, ``roster``, ``journal``,
    ``drafts`` or ``settings``), the first session's where there is one per session."""
    first = first_id(data)
    return {
        "session": data / "sessions" / f"{first}.json",
        "index shard": data / "index" / f"{shard_of(first)}.json",
        "roster": data / "players.json",
        "journal": data / JOURNAL,
        "drafts": data / "drafts" / f"{first}.drafts.json",
        "settings": data / "settings.json",
    }[where]


def big_backup(tmp_path: Path) -> Path:
    """A valid backup of 11 sessions whose edit logs hold 9,000 notes of random text each (about 4.2 MB a session),
    re-zipped without compression: a file of about 46 MB, under the 50 MB restore limit and far over one WebSocket
    message's 16 MiB."""
    rng = random.Random(25)
    folder = tmp_path / "big"
    with Archive(folder) as source:
        for n in range(11):
            doc = source.create_session(
                {"game": "jokers-kill", "players": ["Ann", "Ben", f"P{n}"], "options": {}, "hands": []},
                title=f"big game {n}",
            )
            notes = [
                LogEntry(at=doc.created_at, action="note", detail=base64.b64encode(rng.randbytes(330)).decode())
                for _ in range(9_000)
            ]
            source.save_session(doc.model_copy(update={"log": [*doc.log, *notes]}))
        made = source.backup(tmp_path / "made.zip")
    big = tmp_path / "big-backup.zip"
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(big, "w", zipfile.ZIP_STORED) as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name))
    return big
