"""What the ``companion`` archive commands need beyond :class:`~storage.archive.Archive`: a read-only open that
changes no byte of the data folder, and an import that is all-or-nothing per file even if the process is killed.

An import runs in three steps:

1. :func:`check_import_file` reads one file (an export of this app, or bare game records) and validates every game
   through :mod:`scoring`, without touching any archive. A bad file raises :class:`ImportFileRefusedError`.
2. :func:`plan_import` decides, against an open archive, which games are new (the rest are skipped as duplicates)
   and builds their session documents.
3. :func:`apply_import` first writes the whole plan to a journal (``pending-import.json``, atomic and durable),
   then saves the sessions one by one, then removes the journal. If the process dies in between, the next
   :func:`replay_pending_import` (run whenever an :class:`~storage.archive.Archive` is opened for writing, by the
   app or a command) saves the sessions still missing: a file lands whole once its journal is on disk, and not at
   all before.

>>> import tempfile, pathlib, json
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> src = folder / "game.json"
>>> _ = src.write_text(json.dumps({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}))
>>> checked = check_import_file(src)
>>> with open_archive(folder / "data", write=True) as archive:
...     plan = plan_import(archive, checked)
...     apply_import(archive, plan), plan.skipped
(1, 0)
>>> with open_archive(folder / "data", write=True) as archive:
...     plan_import(archive, check_import_file(src)).skipped
1
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage.archive import Archive
from storage.atomic import atomic_write_json, fsync_dir
from storage.errors import ImportRefusedError, StorageError
from storage.locking import LOCK_FILE
from storage.models import LogEntry, SessionDoc, SessionStatus, check_id, new_id, record_fingerprint
from storage.transfer import MAX_IMPORT_BYTES, _entries

JOURNAL = "pending-import.json"
"""The journal of an import under way, in the data folder; present only while (or if killed while) importing."""
JOURNAL_FORMAT = "card-table-companion/pending-import"


class ImportFileRefusedError(ImportRefusedError):
    """A file refused as a whole; nothing from it was imported. ``games`` counts the games in it (0 if unknown)."""

    def __init__(self, name: str, why: str, games: int = 0) -> None:
        super().__init__(f"{name} was not imported: {why}; nothing from this file was added")
        self.name = name
        self.why = why
        self.games = games


@dataclass(frozen=True)
class CheckedGame:
    """A game of an import file that scoring accepted."""

    record: dict[str, Any]
    stored: dict[str, Any] | None
    """The saved session around it (an export of this app), or ``None`` for a bare record."""
    status: SessionStatus
    winners: tuple[str, ...]


@dataclass(frozen=True)
class CheckedFile:
    """An import file whose every game is valid."""

    name: str
    games: tuple[CheckedGame, ...]


@dataclass(frozen=True)
class ImportPlan:
    """What importing one checked file into one archive will add."""

    name: str
    docs: tuple[SessionDoc, ...]
    skipped: int
    """Games already in the archive (or twice in the file)."""


class _QuietArchive(Archive):
    """A read-only archive whose "is another app using it?" probe writes nothing (the base probe takes the
    lock, which rewrites ``.lock``)."""

    def _probe_locked(self) -> bool:
        return folder_in_use(self.data_dir)


def folder_in_use(data_dir: Path) -> bool:
    """Whether a running Card Table Companion holds the folder's lock; creates and writes nothing.

    >>> import tempfile, pathlib
    >>> folder_in_use(pathlib.Path(tempfile.mkdtemp()))
    False
    """
    try:
        fd = os.open(Path(data_dir) / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False  # no lock file: nobody has ever opened it for writing
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # also releases the shared lock
    return False


def open_archive(data_dir: Path, *, write: bool) -> Archive:
    """Open the archive: for writing (locks it, finishes an interrupted import) or read-only (changes nothing,
    not even the lock file; ``archive.other_instance`` says whether a running app holds it)."""
    if not write:
        return _QuietArchive(Path(data_dir), read_only=True)
    return Archive(Path(data_dir))  # which completes an interrupted import (Archive._finish_pending_import)


# --- step 1: read and check a file --------------------------------------------------------------------------


def check_import_file(path: Path) -> CheckedFile:
    """Read ``path`` and validate every game in it through :mod:`scoring` (no archive is touched).

    Raises :class:`ImportFileRefusedError` naming the first problem; for an invalid game the message holds the
    scoring error's message and its path in the record."""
    import scoring

    path = Path(path)
    name = path.name or str(path)
    try:
        if path.is_dir():
            raise ImportFileRefusedError(name, "it is a folder, not a file")
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise ImportFileRefusedError(name, f"it is {size / 1048576:.1f} MB, more than the 10 MB an import may be")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_IMPORT_BYTES + 1)
    except FileNotFoundError:
        raise ImportFileRefusedError(name, "the file does not exist") from None
    except OSError as exc:
        raise ImportFileRefusedError(name, f"it cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportFileRefusedError(name, "it is more than the 10 MB an import may be")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFileRefusedError(name, "it is not a text file") from None
    if text.lstrip().startswith("session_id,"):
        raise ImportFileRefusedError(name, "CSV exports are for spreadsheets and cannot be imported; use a JSON export")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFileRefusedError(
            name, f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise ImportFileRefusedError(name, "it is nested too deeply to hold game records") from None
    try:
        entries = _entries(data)
    except (ValueError, StorageError, KeyError, TypeError) as exc:
        reason = str(exc) if isinstance(exc, ValueError | StorageError) else "a saved session in it is incomplete"
        raise ImportFileRefusedError(name, reason) from None
    games: list[CheckedGame] = []
    for n, (record, stored) in enumerate(entries, start=1):
        label = f"game {n} of {len(entries)}" if len(entries) > 1 else "the game"
        try:
            result = scoring.score(record)
        except scoring.ScoringError as exc:
            where = f" (at {exc.path})" if exc.path else ""
            raise ImportFileRefusedError(name, f"{label} is not valid: {exc.message}{where}", len(entries)) from None
        except RecursionError:
            raise ImportFileRefusedError(name, f"{label} is nested too deeply", len(entries)) from None
        if stored is not None:
            try:
                check_id(stored.get("id"))
                SessionDoc.from_stored(stored)
            except StorageError as exc:
                raise ImportFileRefusedError(name, f"{label}: {exc}", len(entries)) from None
        games.append(CheckedGame(record, stored, SessionStatus.of(result), tuple(result.winners)))
    return CheckedFile(name, tuple(games))


# --- step 2: plan against the archive -----------------------------------------------------------------------


def plan_import(archive: Archive, checked: CheckedFile) -> ImportPlan:
    """The sessions that ``checked`` adds to ``archive``: games already there (same record) are skipped; a saved
    session keeps its id unless the archive already has another session with that id."""
    known = {summary.fingerprint for summary in archive.list_sessions()}
    taken = {summary.id for summary in archive.list_sessions()}
    docs: list[SessionDoc] = []
    skipped = 0
    for game in checked.games:
        fingerprint = record_fingerprint(game.record)
        if fingerprint in known:
            skipped += 1
            continue
        known.add(fingerprint)
        update = {"status": game.status, "winners": list(game.winners)}
        if game.stored is not None:
            doc = SessionDoc.from_stored(game.stored).model_copy(update=update)
            if doc.id in taken:
                doc = doc.model_copy(update={"id": new_id()})
        else:
            doc = SessionDoc.new(game.record, status=game.status, winners=list(game.winners))
        taken.add(doc.id)
        docs.append(doc)
    return ImportPlan(checked.name, tuple(docs), skipped)


# --- step 3: apply, with a journal --------------------------------------------------------------------------


def journal_path(archive: Archive) -> Path:
    return archive.data_dir / JOURNAL


def apply_import(archive: Archive, plan: ImportPlan) -> int:
    """Save every session of ``plan`` (all or none, even if the process is killed); returns how many.

    Raises :class:`~storage.atomic.StorageWriteError` if the disk refuses; then the sessions of this plan already
    saved are removed again and the journal too, so the archive is as it was."""
    if not plan.docs:
        return 0
    entry = LogEntry.now("imported", f"from {plan.name}")
    journal = {
        "format": JOURNAL_FORMAT,
        "file": plan.name,
        "entry": entry.model_dump(mode="json"),
        "sessions": [doc.to_stored() for doc in plan.docs],
    }
    atomic_write_json(journal_path(archive), journal)  # from here on, the import will complete
    written: list[str] = []
    try:
        for doc in plan.docs:
            written.append(archive.save_session(doc, entry).id)
        _ensure_players(archive, plan.docs)
    except StorageError:
        for sid in written:
            with contextlib.suppress(StorageError):
                archive.delete_session(sid)
        _drop_journal(archive)
        raise
    _drop_journal(archive)
    return len(written)


def _ensure_players(archive: Archive, docs: tuple[SessionDoc, ...] | list[SessionDoc]) -> None:
    for name in sorted({p for doc in docs for p in doc.players}):
        with contextlib.suppress(StorageError):
            archive.players.ensure(name)


def _drop_journal(archive: Archive) -> None:
    path = journal_path(archive)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fsync_dir(path.parent)


def replay_pending_import(archive: Archive) -> str | None:
    """Finish an import that was cut short (its journal is still there); returns a sentence saying so, or ``None``.

    Sessions of the journal already saved are left as they are (the app may have changed them since)."""
    path = journal_path(archive)
    if archive.read_only or not path.exists():
        return None
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
            raise ValueError("not a journal")
        entry = LogEntry.model_validate(data["entry"])
        docs = [SessionDoc.from_stored(item) for item in data["sessions"]]
    except (ValueError, KeyError, TypeError, StorageError) as exc:
        # Written atomically, so this is not a torn write: keep it for a person to look at, out of the way.
        archive.set_aside(path, f"it is not a readable import journal ({type(exc).__name__})")
        return None
    missing = [doc for doc in docs if not archive.has_session(doc.id)]
    for doc in missing:
        archive.save_session(doc, entry)
    _ensure_players(archive, docs)
    _drop_journal(archive)
    return (
        f"an import of {data.get('file', 'a file')} had been interrupted; it was completed "
        f"({len(missing)} of {len(docs)} sessions were still missing)"
    )
