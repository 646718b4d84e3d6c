"""Export and import of sessions: JSON (record plus metadata) or CSV (a row per hand per player).

An import is all-or-nothing per file: every game in it is checked by :mod:`scoring` first, and nothing is
written unless all of them pass. A game already in the archive (same record fingerprint) is skipped, so importing
the same file twice changes nothing.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.atomic import StorageWriteError
from storage.errors import ExportFormatError, SessionNotFoundError, StorageError
from storage.models import (
    LogEntry,
    SessionDoc,
    SessionStatus,
    check_id,
    migrate,
    new_id,
    record_fingerprint,
    utc_now,
)

if TYPE_CHECKING:
    from storage.archive import Archive

EXPORT_FORMAT = "card-table-companion/sessions"
EXPORT_VERSION = 1
MAX_IMPORT_BYTES = 10 * 1024 * 1024
"""Files larger than this (10 MB) are refused."""
CSV_COLUMNS = [
    "session_id",
    "title",
    "game",
    "status",
    "created_at",
    "updated_at",
    "hand",
    "seat",
    "player",
    "points",
    "total",
]


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


# --- export ------------------------------------------------------------------------------------------------


def _docs(archive: Archive, ids: Iterable[str] | None) -> list[SessionDoc]:
    wanted = [s.id for s in archive.list_sessions()] if ids is None else list(ids)
    return [archive.load_session(sid) for sid in wanted]


def export_sessions(archive: Archive, ids: Iterable[str] | None = None, fmt: str = "json") -> bytes:
    """The sessions ``ids`` (all when ``None``, newest first) as JSON or CSV bytes (UTF-8)."""
    if fmt not in ("json", "csv"):
        raise ExportFormatError(f"cannot export as {fmt!r}: choose json or csv")
    docs = _docs(archive, ids)
    if fmt == "json":
        payload = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": utc_now(),
            "sessions": [doc.to_stored() for doc in docs],
        }
        return json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8")
    return _csv(docs)


def _csv(docs: list[SessionDoc]) -> bytes:
    import scoring

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for doc in docs:
        try:
            result = scoring.score(doc.record)
            hand_points: list[dict[str, int]] | None = [h.points for h in result.hands]
        except (scoring.ScoringError, ImportError):
            hand_points = None
        hands = doc.record.get("hands") or []
        running = dict.fromkeys(doc.players, 0)
        for n in range(len(hands)):
            for seat, player in enumerate(doc.players, start=1):
                points: Any = ""
                total: Any = ""
                if hand_points is not None and n < len(hand_points):
                    points = hand_points[n].get(player, 0)
                    running[player] += points
                    total = running[player]
                writer.writerow(
                    [
                        doc.id,
                        doc.title or "",
                        doc.game,
                        doc.status.value,
                        doc.created_at,
                        doc.updated_at,
                        n + 1,
                        seat,
                        player,
                        points,
                        total,
                    ]
                )
    return out.getvalue().encode("utf-8")


# --- import ------------------------------------------------------------------------------------------------


@dataclass
class _Incoming:
    record: dict[str, Any]
    doc: SessionDoc | None
    label: str


def _entries(data: Any) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
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


def _refuse(report: ImportReport, name: str, why: str) -> ImportReport:
    report.refused = 1
    report.messages.append(f"{name} was not imported: {why}. Nothing from this file was added.")
    return report


def import_file(archive: Archive, path: Path) -> ImportReport:
    """Import the games in ``path``: this app's JSON export (one session or many) or bare game records."""
    import scoring

    report = ImportReport()
    name = path.name
    if archive.read_only:
        return _refuse(report, name, "the archive is open read-only (another Card Table Companion may be using it)")
    try:
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            return _refuse(report, name, f"it is {size / 1048576:.1f} MB, more than the 10 MB an import may be")
        raw = path.read_bytes()
    except FileNotFoundError:
        return _refuse(report, name, "the file does not exist")
    except OSError as exc:
        return _refuse(report, name, f"it cannot be read ({exc.strerror or exc})")
    if len(raw) > MAX_IMPORT_BYTES:
        return _refuse(report, name, "it is more than the 10 MB an import may be")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _refuse(report, name, "it is not a text file")
    if text.lstrip().startswith("session_id,"):
        return _refuse(report, name, "CSV exports are for spreadsheets and cannot be imported; use a JSON export")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _refuse(report, name, f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    try:
        entries = _entries(data)
    except (ValueError, StorageError, KeyError, TypeError) as exc:
        reason = str(exc) if isinstance(exc, ValueError | StorageError) else "a saved session is incomplete"
        return _refuse(report, name, reason)

    incoming: list[_Incoming] = []
    seen: set[str] = set()
    known = {summary.fingerprint for summary in archive.list_sessions()}
    for n, (record, stored) in enumerate(entries, start=1):
        label = f"game {n}" if len(entries) > 1 else "the game"
        try:
            result = scoring.score(record)
        except scoring.ScoringError as exc:
            where = f" ({exc.path})" if exc.path else ""
            return _refuse(report, name, f"{label} is not valid: {exc.message}{where}")
        except ImportError:
            return _refuse(report, name, f"{label} is a game this version of the app cannot check yet")
        fingerprint = record_fingerprint(record)
        if fingerprint in seen or fingerprint in known:
            report.skipped += 1
            continue
        seen.add(fingerprint)
        status, winners = SessionStatus.of(result), list(result.winners)
        doc: SessionDoc | None = None
        try:
            if stored is not None:
                doc = SessionDoc.from_stored(stored).model_copy(update={"status": status, "winners": winners})
                check_id(doc.id)
                if archive.has_session(doc.id):  # the same id with a different record: keep both
                    doc = doc.model_copy(update={"id": new_id()})
            else:
                doc = SessionDoc.new(record, status=status, winners=winners)
        except StorageError as exc:
            return _refuse(report, name, f"{label}: {exc}")
        incoming.append(_Incoming(record, doc, label))

    written: list[str] = []
    try:
        for item in incoming:
            assert item.doc is not None
            saved = archive.save_session(item.doc, LogEntry.now("imported", f"from {name}"))
            written.append(saved.id)
            for player in saved.players:
                with contextlib.suppress(StorageError):
                    archive.players.ensure(player)
    except StorageWriteError as exc:
        for sid in written:
            with contextlib.suppress(SessionNotFoundError, StorageError):
                archive.delete_session(sid)
        return _refuse(report, name, str(exc))
    report.imported = len(written)
    report.ids = written
    if report.imported:
        report.messages.append(f"{report.imported} game{'s' if report.imported != 1 else ''} imported from {name}.")
    if report.skipped:
        report.messages.append(
            f"{report.skipped} game{'s were' if report.skipped != 1 else ' was'} already in the archive and skipped."
        )
    return report
