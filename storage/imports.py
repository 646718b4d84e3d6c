"""The one import pipeline, used by the app and the command line alike: all-or-nothing per file, journaled, so a
killed import lands whole or not at all.

An import runs in three steps:

1. :func:`check_import_file` (or :func:`check_import_bytes`) reads one file (an export of this app, or bare game
   records) and validates every game through :mod:`scoring` and the bounds of :mod:`storage.limits`, without
   touching any archive. Only a regular file of at most 10 MB is read (a FIFO is refused, never waited on). A bad
   file raises :class:`ImportFileRefusedError`.
2. :func:`plan_import` decides, against an open archive, which games are new (the rest are skipped as duplicates)
   and builds their session documents, and the ids of the players new to the roster.
3. :func:`apply_import` writes the whole plan to the journal (:mod:`storage.journal`), saves the sessions, adds the
   players, and drops the journal.

:func:`import_file` does all three and reports in an :class:`ImportReport` (what ``Archive.import_file`` and the
app call); the command line runs the steps itself to check every file before it opens the archive. Both word their
refusals alike: ``<file> was not imported: <why>; nothing from this file was added``.

>>> import tempfile, pathlib, json
>>> from storage.core import ArchiveCore
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> src = folder / "game.json"
>>> _ = src.write_text(json.dumps({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}))
>>> with ArchiveCore(folder / "data") as archive:
...     first, again = import_file(archive, src), import_file(archive, src)
>>> (first.imported, first.skipped), (again.imported, again.skipped), first.messages
((1, 0), (0, 1), ['1 game imported from game.json.'])
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage.atomic import StorageWriteError, read_regular_bytes
from storage.core import ArchiveCore
from storage.errors import ImportRefusedError, InputLimitError, StorageError, UnreadableFileError
from storage.journal import Progress, add_players, drop
from storage.journal import write as write_journal
from storage.limits import MAX_DIGITS, MAX_IMPORT_BYTES, MAX_LOG_ENTRIES, MAX_NAME, MAX_PLAYERS, MAX_TITLE, check_text
from storage.models import LogEntry, SessionDoc, SessionStatus, check_id, migrate, new_id, record_fingerprint

EXPORT_FORMAT = "card-table-companion/sessions"
"""The ``format`` of this app's JSON exports."""
EXPORT_VERSION = 1
"""The newest export version this app reads (and writes)."""

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "MAX_IMPORT_BYTES",
    "CheckedFile",
    "CheckedGame",
    "ImportFileRefusedError",
    "ImportPlan",
    "ImportReport",
    "apply_import",
    "check_import_bytes",
    "check_import_file",
    "entries_of",
    "import_file",
    "plan_import",
]


class ImportFileRefusedError(ImportRefusedError):
    """A file refused as a whole; nothing from it was imported. ``games`` counts the games in it (0 if unknown)."""

    def __init__(self, name: str, why: str, games: int = 0) -> None:
        super().__init__(f"{name} was not imported: {why}; nothing from this file was added")
        self.name = name
        self.why = why
        self.games = games


@dataclass
class ImportReport:
    """What an import did. ``refused`` counts files refused (0 or 1); ``messages`` say why, in words."""

    imported: int = 0
    skipped: int = 0
    refused: int = 0
    messages: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    """Ids of the sessions imported."""

    @property
    def ok(self) -> bool:
        return self.refused == 0


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
    players: dict[str, str] = field(default_factory=dict)
    """Names new to the roster → the ids they will get."""


# --- step 1: read and check a file --------------------------------------------------------------------------


def check_import_file(path: Path) -> CheckedFile:
    """Read ``path`` (a regular file of at most 10 MB) and validate every game in it (no archive is touched).

    Raises :class:`ImportFileRefusedError` naming the first problem; for an invalid game the message holds the
    scoring error's message and its path in the record."""
    path = Path(path)
    name = path.name or str(path)
    try:
        raw = read_regular_bytes(path, MAX_IMPORT_BYTES)
    except FileNotFoundError:
        raise ImportFileRefusedError(name, "the file does not exist") from None
    except UnreadableFileError as exc:
        text = str(exc)
        if text.endswith("not a file"):
            text += "; only regular files can be imported"
        raise ImportFileRefusedError(name, text) from None
    return check_import_bytes(name, raw)


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise InputLimitError(f"a number in it has {digits} digits; at most {MAX_DIGITS} are allowed")
    return int(text)


def check_import_bytes(name: str, raw: bytes) -> CheckedFile:
    """Validate the bytes of an import file called ``name``; see :func:`check_import_file`."""
    import scoring

    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportFileRefusedError(name, "it is more than the 10 MB an import may be")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFileRefusedError(name, "it is not a text file") from None
    if text.lstrip().startswith("session_id,"):
        raise ImportFileRefusedError(name, "CSV exports are for spreadsheets and cannot be imported; use a JSON export")
    try:
        data = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise ImportFileRefusedError(
            name, f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except InputLimitError as exc:
        raise ImportFileRefusedError(name, str(exc)) from None
    except RecursionError:
        raise ImportFileRefusedError(name, "it is nested too deeply to hold game records") from None
    except ValueError as exc:  # a number Python refuses to read
        raise ImportFileRefusedError(name, f"it holds a value that cannot be read ({exc})") from None
    try:
        entries = entries_of(data)
    except (ValueError, StorageError, KeyError, TypeError) as exc:
        reason = str(exc) if isinstance(exc, ValueError | StorageError) else "a saved session in it is incomplete"
        raise ImportFileRefusedError(name, reason) from None
    games: list[CheckedGame] = []
    for n, (record, stored) in enumerate(entries, start=1):
        label = f"game {n} of {len(entries)}" if len(entries) > 1 else "the game"
        try:
            check_limits(record, stored)
        except InputLimitError as exc:
            raise ImportFileRefusedError(name, f"{label}: {exc}", len(entries)) from None
        try:
            result = scoring.score(record)
        except scoring.ScoringError as exc:
            where = f" (at {exc.path})" if exc.path else ""
            raise ImportFileRefusedError(name, f"{label} is not valid: {exc.message}{where}", len(entries)) from None
        except ImportError:
            raise ImportFileRefusedError(
                name, f"{label} is a game this version of the app cannot check yet", len(entries)
            ) from None
        except RecursionError:
            raise ImportFileRefusedError(name, f"{label} is nested too deeply", len(entries)) from None
        except (ValueError, TypeError, OverflowError) as exc:  # scoring should say ScoringError; never a traceback
            raise ImportFileRefusedError(name, f"{label} is not valid: {exc}", len(entries)) from None
        if stored is not None:
            try:
                check_id(stored.get("id"))
                SessionDoc.from_stored(stored)
            except StorageError as exc:
                raise ImportFileRefusedError(name, f"{label}: {exc}", len(entries)) from None
        games.append(CheckedGame(record, stored, SessionStatus.of(result), tuple(result.winners)))
    return CheckedFile(name, tuple(games))


def check_limits(record: dict[str, Any], stored: dict[str, Any] | None) -> None:
    """The bounds of :mod:`storage.limits` on one game: player names (at most 40 characters, no control or
    bidi-override character), at most 64 players, a title of at most 100, an edit log of at most 10,000 entries.

    >>> check_limits({"game": "x", "players": ["Ann", "B\\u202eob"]}, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    storage.errors.InputLimitError: the player name 'B\\u202eob' holds a control character (\\u202e); ...
    """
    players = record.get("players")
    if isinstance(players, list):
        if len(players) > MAX_PLAYERS:
            raise InputLimitError(f"it names {len(players)} players; at most {MAX_PLAYERS} are allowed")
        for player in players:
            if isinstance(player, str):
                check_text(player, field="player name", limit=MAX_NAME)
    if stored is not None:
        title = stored.get("title")
        if title is not None:
            check_text(title, field="session title", limit=MAX_TITLE)
        log = stored.get("log")
        if isinstance(log, list) and len(log) > MAX_LOG_ENTRIES:
            raise InputLimitError(f"its edit log has {len(log)} entries; at most {MAX_LOG_ENTRIES:,} are allowed")


def entries_of(data: Any) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """``(record, stored session data or None)`` for every game in a parsed file; ValueError if unrecognised."""
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        version = data.get("version")
        if not isinstance(version, int) or version > EXPORT_VERSION:
            raise ValueError("it was exported by a newer version of the app; please update the app")
        sessions = data.get("sessions")
        if not isinstance(sessions, list):
            raise ValueError("it has no list of sessions")
        items: list[Any] = sessions
    elif isinstance(data, list):
        items = data
    else:
        items = [data]
    out: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"entry {n} is not a game")
        if "id" in item and "record" in item:
            stored = migrate(dict(item))
            if not isinstance(stored.get("record"), dict):
                raise ValueError(f"entry {n} is a saved session without a game record")
            out.append((stored["record"], stored))
        elif isinstance(item.get("record"), dict) and "game" not in item:
            out.append((item["record"], None))
        elif "game" in item and "players" in item:
            out.append((item, None))
        else:
            raise ValueError(f"entry {n} is neither a game record nor a saved session")
    if not out:
        raise ValueError("it holds no games")
    return out


# --- step 2: plan against the archive -----------------------------------------------------------------------


def plan_import(archive: ArchiveCore, checked: CheckedFile) -> ImportPlan:
    """The sessions that ``checked`` adds to ``archive``: games already there (same record) are skipped; a saved
    session keeps its id unless the archive already has another session with that id."""
    summaries = archive.list_sessions()
    known = {summary.fingerprint for summary in summaries}
    taken = {summary.id for summary in summaries}
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
    names = sorted({p for doc in docs for p in doc.players})
    known_ids = archive.players.ids_of(names)
    players: dict[str, str] = {}
    for name in names:
        if name in known_ids:
            continue
        players[name] = uuid.uuid4().hex[:12]
    ids = {**known_ids, **players}
    docs = [doc.model_copy(update={"player_ids": {p: ids[p] for p in doc.players if p in ids}}) for doc in docs]
    return ImportPlan(checked.name, tuple(docs), skipped, players)


# --- step 3: apply, with a journal --------------------------------------------------------------------------


def apply_import(archive: ArchiveCore, plan: ImportPlan, progress: Progress | None = None) -> int:
    """Save every session of ``plan`` (all or none, even if the process is killed); returns how many.

    Raises :class:`~storage.atomic.StorageWriteError` if the disk refuses; then the sessions of this plan already
    saved are removed again and the journal too, so the archive is as it was."""
    if not plan.docs:
        return 0
    archive.check_writable()
    entry = LogEntry.now("imported", f"from {plan.name}")
    with archive.lock:
        write_journal(archive, plan.name, entry, plan.docs, plan.players)  # from here on, the import will complete
        written: list[str] = []
        total = len(plan.docs)
        try:
            for n, doc in enumerate(plan.docs, start=1):
                written.append(archive.save_session(doc, entry).id)
                if progress is not None:
                    progress(n, total)
            add_players(archive, plan.docs, plan.players)
        except StorageError:
            for sid in written:
                with contextlib.suppress(StorageError):
                    archive.delete_session(sid)
            drop(archive)
            raise
        drop(archive)
    return len(written)


def import_file(archive: ArchiveCore, path: Path, progress: Progress | None = None) -> ImportReport:
    """Import the games in ``path`` (this app's JSON export, one session or many, or bare game records) through
    the journaled pipeline; nothing raises for bad input: the report says what happened."""
    return _import(archive, Path(path).name or str(path), lambda: check_import_file(Path(path)), progress)


def import_bytes(archive: ArchiveCore, name: str, data: bytes, progress: Progress | None = None) -> ImportReport:
    """Like :func:`import_file`, for a file received as bytes (picked in a browser) called ``name``."""
    return _import(archive, name, lambda: check_import_bytes(name, data), progress)


def _import(
    archive: ArchiveCore, name: str, check: Callable[[], CheckedFile], progress: Progress | None
) -> ImportReport:
    report = ImportReport()
    if archive.read_only:
        report.refused = 1
        report.messages.append(
            str(
                ImportFileRefusedError(
                    name, "the archive is open read-only (another Card Table Companion may be using it)"
                )
            )
        )
        return report
    try:
        checked = check()
        with archive.lock:
            plan = plan_import(archive, checked)
            report.imported = apply_import(archive, plan, progress)
    except ImportFileRefusedError as exc:
        report.refused = 1
        report.messages.append(str(exc))
        return report
    except StorageWriteError as exc:
        report.refused = 1
        report.messages.append(str(ImportFileRefusedError(name, str(exc))))
        return report
    report.skipped = plan.skipped
    report.ids = [doc.id for doc in plan.docs] if report.imported else []
    if report.imported:
        report.messages.append(f"{report.imported} game{'s' if report.imported != 1 else ''} imported from {name}.")
    if report.skipped:
        report.messages.append(
            f"{report.skipped} game{'s were' if report.skipped != 1 else ' was'} already in the archive and skipped."
        )
    return report
