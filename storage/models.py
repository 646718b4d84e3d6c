"""The documents that storage keeps: sessions (with their edit log), their index summaries, and players.

A session document is versioned (``schema_version``). Older documents are migrated step by step on load
(:func:`migrate`), so a file written by any earlier version of the app still opens.

>>> doc = SessionDoc.new({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
>>> doc.status, doc.players, doc.schema_version
(<SessionStatus.IN_PROGRESS: 'in-progress'>, ['Ann', 'Ben'], 2)
>>> summary = SessionSummary.of(doc)
>>> summary.hands, summary.fingerprint == record_fingerprint(doc.record)
(0, True)
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from storage.errors import InvalidSessionError, SchemaVersionError
from storage.limits import MAX_TITLE, check_text

SCHEMA_VERSION = 2
"""The session document version this app writes."""

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def utc_now() -> str:
    """The current time as an ISO 8601 UTC string with milliseconds (sorts as text)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def iso_from_epoch(seconds: float) -> str:
    """An epoch time as :func:`utc_now` formats it.

    >>> iso_from_epoch(0)
    '1970-01-01T00:00:00.000Z'
    """
    return datetime.fromtimestamp(float(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def new_id() -> str:
    """A fresh session id: 32 lowercase hex digits."""
    return uuid.uuid4().hex


def check_id(session_id: Any) -> str:
    """Return ``session_id`` if it is a valid id (letters, digits, ``-``, ``_``; 1-64), else raise.

    >>> check_id("../etc")
    Traceback (most recent call last):
    ...
    storage.errors.InvalidSessionError: '../etc' is not a valid session id
    """
    if not isinstance(session_id, str) or not _ID.match(session_id):
        raise InvalidSessionError(f"{session_id!r} is not a valid session id")
    return session_id


def record_fingerprint(record: Any) -> str:
    """A short digest of a game record's content, used to recognise the same game imported twice.

    Key order and spacing do not matter:

    >>> record_fingerprint({"a": 1, "b": [1, 2]}) == record_fingerprint({"b": [1, 2], "a": 1})
    True
    """
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class SessionStatus(enum.Enum):
    """Where a session stands."""

    IN_PROGRESS = "in-progress"
    """Hands are still being played."""
    PENDING = "pending"
    """The main game is over but tied: the table must play the extra part (tie-break, sudden death, play-off)."""
    FINISHED = "finished"
    """The game is decided; the winners are known."""
    CANCELLED = "cancelled"
    """The game was called off (Bargain Bin)."""

    @classmethod
    def of(cls, result: Any) -> SessionStatus:
        """The status a scoring result implies (its ``cancelled``, ``finished`` and ``pending``).

        >>> from types import SimpleNamespace as R
        >>> SessionStatus.of(R(cancelled=False, finished=False, pending={"kind": "playoff"})).value
        'pending'
        """
        if result.cancelled:
            return cls.CANCELLED
        if result.finished:
            return cls.FINISHED
        if result.pending is not None:
            return cls.PENDING
        return cls.IN_PROGRESS


class LogEntry(BaseModel):
    """One line of a session's append-only edit log: when, what ("hand 3 edited", "undo"), and details."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    at: str
    """ISO 8601 UTC time."""
    action: str
    detail: str = ""

    @classmethod
    def now(cls, action: str, detail: str = "") -> LogEntry:
        """An entry stamped with the current time.

        >>> LogEntry.now("hand 3 edited").action
        'hand 3 edited'
        """
        return cls(at=utc_now(), action=action, detail=detail)


class SessionDoc(BaseModel):
    """One session as stored: metadata, the game record (``records.md``) and the edit log."""

    model_config = ConfigDict(extra="ignore")

    schema_version: int = SCHEMA_VERSION
    id: str
    game: str
    players: list[str]
    options: dict[str, Any] = Field(default_factory=dict)
    created_at: str
    updated_at: str
    status: SessionStatus = SessionStatus.IN_PROGRESS
    winners: list[str] = Field(default_factory=list)
    record: dict[str, Any]
    log: list[LogEntry] = Field(default_factory=list)
    title: str | None = None
    player_ids: dict[str, str] = Field(default_factory=dict)
    """name → roster id of each player when the session was saved (so that a rebuilt roster keeps the ids).
    Absent from documents saved before it was added; optional, so no schema version bump."""

    @classmethod
    def new(
        cls,
        record: dict[str, Any],
        *,
        status: SessionStatus = SessionStatus.IN_PROGRESS,
        winners: list[str] | None = None,
        title: str | None = None,
        session_id: str | None = None,
    ) -> SessionDoc:
        """A new document for ``record`` (raises :class:`InvalidSessionError` if it has no game or players)."""
        check_record_shape(record)
        if title is not None:
            check_text(title, field="session title", limit=MAX_TITLE)
        now = utc_now()
        return cls(
            id=check_id(session_id) if session_id is not None else new_id(),
            game=record["game"],
            players=list(record["players"]),
            options=dict(record.get("options") or {}),
            created_at=now,
            updated_at=now,
            status=SessionStatus(status),
            winners=list(winners or []),
            record=record,
            log=[],
            title=title,
        )

    @classmethod
    def from_stored(cls, data: Any) -> SessionDoc:
        """Migrate stored data to the current version and validate it (raises :class:`StorageError` kinds)."""
        data = migrate(data)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in err.get("loc", ()))
            raise InvalidSessionError(f"the session document is not valid ({where}: {err.get('msg')})") from None

    def to_stored(self) -> dict[str, Any]:
        """Plain JSON data as written to disk."""
        return self.model_dump(mode="json")

    def to_stored_json(self) -> bytes:
        """:meth:`to_stored` as compact UTF-8 JSON, serialised by pydantic in one pass (what a session file holds).

        >>> doc = SessionDoc.new({"game": "jokers-kill", "players": ["Åsa", "Ben"], "options": {}, "hands": []})
        >>> json.loads(doc.to_stored_json()) == doc.to_stored()
        True
        """
        return self.model_dump_json().encode("utf-8")

    def synced(self) -> SessionDoc:
        """A copy whose ``game``, ``players`` and ``options`` follow its record."""
        check_record_shape(self.record)
        return self.model_copy(
            update={
                "game": self.record["game"],
                "players": list(self.record["players"]),
                "options": dict(self.record.get("options") or {}),
                "status": SessionStatus(self.status),
            }
        )


def check_record_shape(record: Any) -> None:
    """The least storage needs of a record: an object with a game key and a list of player names."""
    if not isinstance(record, dict):
        raise InvalidSessionError("a game record must be a JSON object")
    if not isinstance(record.get("game"), str) or not record["game"]:
        raise InvalidSessionError("the record does not say which game it is ('game' is missing)")
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidSessionError("the record has no list of players")


# --- migration ---------------------------------------------------------------------------------------------

_V1_STATES = {"playing": "in-progress", "tiebreak": "pending", "over": "finished", "cancelled": "cancelled"}


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (the first release) stored epoch-second times (``created``, ``updated``), a ``state`` of
    playing/tiebreak/over/cancelled, a single ``winner`` and a ``history`` of ``{time, change}``."""
    out = {k: v for k, v in data.items() if k not in ("created", "updated", "state", "winner", "history")}
    out["created_at"] = iso_from_epoch(data["created"])
    out["updated_at"] = iso_from_epoch(data.get("updated", data["created"]))
    state = data.get("state", "playing")
    if state not in _V1_STATES:
        raise InvalidSessionError(f"unknown version-1 state {state!r}")
    out["status"] = _V1_STATES[state]
    winner = data.get("winner")
    out["winners"] = [winner] if isinstance(winner, str) else list(winner or [])
    out["log"] = [
        {"at": iso_from_epoch(item["time"]), "action": str(item["change"]), "detail": ""}
        for item in data.get("history", [])
    ]
    out.setdefault("title", None)
    out["schema_version"] = 2
    return out


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}
"""``MIGRATIONS[n]`` turns a version-n document into version n+1."""


def migrate(data: Any) -> dict[str, Any]:
    """Bring stored session data up to :data:`SCHEMA_VERSION`, one step at a time.

    >>> old = {"schema_version": 1, "id": "a1", "game": "jokers-kill", "players": ["Ann", "Ben"], "options": {},
    ...        "created": 0, "updated": 60, "state": "over", "winner": "Ann",
    ...        "record": {"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": []},
    ...        "history": [{"time": 30, "change": "hand 1 entered"}]}
    >>> new = migrate(old)
    >>> new["schema_version"], new["status"], new["winners"], new["log"][0]["action"], new["updated_at"]
    (2, 'finished', ['Ann'], 'hand 1 entered', '1970-01-01T00:01:00.000Z')
    """
    if not isinstance(data, dict):
        raise InvalidSessionError("the session document is not a JSON object")
    version = data.get("schema_version", 1)
    if not isinstance(version, int) or version < 1:
        raise SchemaVersionError(f"the session document has an unknown schema version {version!r}")
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"this session was saved by a newer version of the app (format {version}; this app reads up to "
            f"{SCHEMA_VERSION}); please update the app to open it"
        )
    try:
        while version < SCHEMA_VERSION:
            data = MIGRATIONS[version](data)
            version = data["schema_version"]
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidSessionError):
            raise
        raise InvalidSessionError(f"the version-{version} session document is incomplete ({exc})") from None
    return data


# --- index summaries -----------------------------------------------------------------------------------------

_STATUS = {status.value: status for status in SessionStatus}


class SessionSummary(NamedTuple):
    """What the archive list shows about a session, kept in the index so listing needs no session files.

    A named tuple (immutable, and the cheapest object to build: the archive makes 10,000 of them on open)."""

    id: str
    game: str
    title: str | None
    players: tuple[str, ...]
    status: SessionStatus
    winners: tuple[str, ...]
    created_at: str
    updated_at: str
    hands: int
    """Number of hands entered (the extra parts are not counted)."""
    fingerprint: str
    """:func:`record_fingerprint` of the record."""

    @classmethod
    def of(cls, doc: SessionDoc, *, fingerprint: str | None = None) -> SessionSummary:
        """The summary of ``doc``; ``fingerprint`` when the caller knows it (``""``: worked out later), else it is
        worked out from the record."""
        hands = doc.record.get("hands")
        return cls(
            id=doc.id,
            game=doc.game,
            title=doc.title,
            players=tuple(doc.players),
            status=SessionStatus(doc.status),
            winners=tuple(doc.winners),
            created_at=doc.created_at,
            updated_at=doc.updated_at,
            hands=len(hands) if isinstance(hands, list) else 0,
            fingerprint=record_fingerprint(doc.record) if fingerprint is None else fingerprint,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "players": list(self.players),
            "status": self.status.value,
            "winners": list(self.winners),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "hands": self.hands,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SessionSummary:
        """Rebuild a summary from an index row (KeyError/TypeError/ValueError when the row is damaged)."""
        return cls(
            str(data["id"]),
            str(data["game"]),
            data.get("title"),
            tuple(data["players"]),
            _STATUS[data["status"]],  # a dict look-up: 10,000 of these on every open
            tuple(data.get("winners", ())),
            str(data["created_at"]),
            str(data["updated_at"]),
            int(data.get("hands", 0)),
            _fingerprint_in(data),
        )


def _fingerprint_in(row: dict[str, Any]) -> str:
    """An index row's fingerprint; a row written before its record's fingerprint was worked out has none, and is
    rebuilt from its session file (ValueError, as for a damaged row)."""
    fingerprint = row["fingerprint"]
    if not isinstance(fingerprint, str) or not fingerprint:
        raise ValueError("the index row has no fingerprint")
    return fingerprint


@dataclass(frozen=True, slots=True)
class Player:
    """A player in the roster. ``id`` never changes; ``history`` holds earlier names (renames, merges)."""

    id: str
    name: str
    created_at: str
    history: tuple[str, ...] = ()
