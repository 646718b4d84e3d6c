"""A game night as ``nights.json`` stores it: the document (:class:`NightDoc`), its schema version and migration,
and the checks a night passes before it is kept, restored or imported (:func:`check_night`,
:func:`check_nights_file`). The store itself is :mod:`storage.nights`.

A night document holds the night's name, its start and closing times, its players, the ids of its games (sessions),
the ledger entries the table added and the transfers marked paid (the money of the games themselves is never
stored: it is re-derived from the session records). Documents carry ``schema_version``; :func:`migrate` brings an
older one up step by step (:data:`MIGRATIONS`) and refuses a newer one, which stays in the file untouched. Names
have at most :data:`MAX_STORED_NAME` characters, and no text holds a control character.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from storage.errors import SchemaVersionError, StorageError
from storage.models import check_id

NIGHTS_FILE = "nights.json"
NIGHTS_TABLE = "nights"
NIGHT_SCHEMA_VERSION = 1
"""The night document version this app writes."""
MAX_STORED_NAME = 100
"""The longest night name or player's name a night document may hold, in characters. A player's name typed now is
limited to :data:`scoring.base.MAX_NAME` (40, by :mod:`companion.night_model`); nights saved before that limit applied
to them may hold names of up to 100 characters, and are read, restored and imported as they are (nothing saved is
lost)."""
MAX_NOTE = 200
MAX_PLAYERS = 30
MAX_GAMES = 200
MAX_ENTRIES = 500
MAX_AMOUNT = 10**11
"""The largest amount in minor units (a billion dollars in cents)."""
MAX_IMPORT_NIGHTS = 10_000
SPLIT = "split"
"""An entry's receiver when the payer laid out the amount for the players in its ``among``."""


class NightDocumentError(StorageError, ValueError):
    """A night document that is not valid; ``str()`` names the value and what is wrong with it."""


# --------------------------------------------------------------------------------------------------------------
# The document


def _text(value: str, limit: int, *, empty_ok: bool = False) -> str:
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in value):
        raise ValueError("it contains a control character")
    if not value.strip() and not empty_ok:
        raise ValueError("it is empty")
    if len(value) > limit:
        raise ValueError(f"it is longer than {limit} characters")
    return value


def _id(value: str) -> str:
    check_id(value)
    return value


Name = Annotated[StrictStr, AfterValidator(lambda v: _text(v, MAX_STORED_NAME))]
Note = Annotated[StrictStr, AfterValidator(lambda v: _text(v, MAX_NOTE, empty_ok=True))]
Stamp = Annotated[StrictStr, AfterValidator(lambda v: _text(v, 40, empty_ok=True))]
Id = Annotated[StrictStr, AfterValidator(_id)]
Amount = Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EntryDoc(_Model):
    """A ledger entry: the payer owes the receiver ``amount``, or (receiver ``split``) laid it out for ``among``."""

    id: Id
    payer: Name
    receiver: Name
    amount: Amount
    note: Note = ""
    among: list[Name] | None = Field(default=None, max_length=MAX_PLAYERS)


class PaymentDoc(_Model):
    """A transfer of the settle-up marked as paid."""

    payer: Name
    receiver: Name
    amount: Amount
    at: Stamp = ""


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


class NightDoc(_Model):
    """A night as stored (``schema_version`` :data:`NIGHT_SCHEMA_VERSION`)."""

    schema_version: StrictInt = NIGHT_SCHEMA_VERSION
    id: Id
    name: Name
    started: Stamp
    closed: Stamp | None = None
    status: Literal["open", "closed"]
    players: list[Name] = Field(min_length=2, max_length=MAX_PLAYERS)
    sessions: list[Id] = Field(default_factory=list, max_length=MAX_GAMES)
    entries: list[EntryDoc] = Field(default_factory=list, max_length=MAX_ENTRIES)
    paid: list[PaymentDoc] = Field(default_factory=list, max_length=MAX_ENTRIES)

    @model_validator(mode="after")
    def _consistent(self) -> NightDoc:
        if (self.status == "closed") != (self.closed is not None):
            raise ValueError(f"its status is {self.status} but its closing time is {self.closed!r}")
        seen: dict[str, str] = {}
        for name in self.players:
            if _key(name) in seen or _key(name) == SPLIT:
                raise ValueError(f"the player {name!r} is seated twice or has a reserved name")
            seen[_key(name)] = name
        players = set(self.players)
        if len(set(self.sessions)) != len(self.sessions):
            raise ValueError("a game is listed twice")
        if len({e.id for e in self.entries}) != len(self.entries):
            raise ValueError("two ledger entries have the same id")
        for n, entry in enumerate(self.entries, start=1):
            if entry.payer not in players:
                raise ValueError(f"entry {n}: {entry.payer!r} is not a player of the night")
            if entry.receiver == SPLIT:
                among = entry.among or []
                if not among or len(set(among)) != len(among) or not set(among) <= players:
                    raise ValueError(f"entry {n}: a split is shared by players of the night, each once")
            elif entry.receiver not in players or entry.receiver == entry.payer or entry.among:
                raise ValueError(f"entry {n}: {entry.receiver!r} cannot receive from {entry.payer!r}")
        for n, payment in enumerate(self.paid, start=1):
            if payment.payer not in players or payment.receiver not in players or payment.payer == payment.receiver:
                raise ValueError(f"payment {n} is not between two players of the night")
        return self

    def to_stored(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``MIGRATIONS[v]`` turns a version-``v`` document into version ``v + 1`` (none yet: version 1 is the first)."""


def migrate(doc: Any) -> dict[str, Any]:
    """Bring a stored night document up to :data:`NIGHT_SCHEMA_VERSION`, step by step.

    A document without ``schema_version`` is version 1 (the first). A newer one raises
    :class:`~storage.errors.SchemaVersionError` and is never rewritten.

    >>> migrate({"id": "n1"})["schema_version"]
    1
    >>> migrate({"id": "n1", "schema_version": 9})
    Traceback (most recent call last):
    ...
    storage.errors.SchemaVersionError: night n1 was saved by a newer version of the app (night format 9; this one \
reads up to 1)
    """
    if not isinstance(doc, Mapping):
        raise NightDocumentError(f"a night is a set of named values, not {type(doc).__name__}")
    data = dict(doc)
    version = data.get("schema_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise NightDocumentError(f"night {data.get('id')!r} has an unreadable format version {version!r}")
    if version > NIGHT_SCHEMA_VERSION:
        raise SchemaVersionError(
            f"night {data.get('id')} was saved by a newer version of the app (night format {version}; "
            f"this one reads up to {NIGHT_SCHEMA_VERSION})"
        )
    while version < NIGHT_SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["schema_version"] = version
    data["schema_version"] = version
    return data


def _describe(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        message = "is not a known value here"
    return f"{where}: {message}" if where else message


def check_night(doc: Any) -> dict[str, Any]:
    """``doc`` migrated and validated, as stored; :class:`NightDocumentError` says what is wrong in words.

    >>> check_night({"id": "n1", "name": "x" * 101, "started": "", "status": "open", "players": ["A", "B"]})
    Traceback (most recent call last):
    ...
    storage.night_docs.NightDocumentError: night 'n1' is not valid: name: it is longer than 100 characters
    """
    data = migrate(doc)
    try:
        return NightDoc.model_validate(data).to_stored()
    except ValidationError as exc:
        label = data.get("id") if isinstance(data.get("id"), str) and len(data["id"]) <= 64 else "?"
        raise NightDocumentError(f"night {label!r} is not valid: {_describe(exc)}") from None


def check_nights_file(data: Any) -> list[dict[str, Any]]:
    """Every night of a whole ``nights.json`` (its JSON, as TinyDB writes it: ``{"nights": {"1": {...}, ...}}``),
    each migrated and checked by :func:`check_night`; what a backup's ``nights.json`` must pass before a restore
    replaces anything. :class:`NightDocumentError` names the first problem.

    >>> night = {"id": "n1", "name": "Friday", "started": "", "status": "open", "players": ["A", "B"],
    ...          "sessions": ["g1"]}
    >>> [d["name"] for d in check_nights_file({"nights": {"1": night}})], check_nights_file({})
    (['Friday'], [])
    >>> check_nights_file({"nights": {"1": night, "2": {**night, "id": "n2"}}})
    Traceback (most recent call last):
    ...
    storage.night_docs.NightDocumentError: nights.json lists game g1 in two nights ('n1' and 'n2')
    >>> check_nights_file({"nights": {"1": {**night, "players": ["A"]}}})
    Traceback (most recent call last):
    ...
    storage.night_docs.NightDocumentError: night 'n1' is not valid: players: List should have at least 2 items after \
validation, not 1
    """
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise NightDocumentError(f"{NIGHTS_FILE} is not a table of nights")
    table = data.get(NIGHTS_TABLE, {})
    if len(table) > MAX_IMPORT_NIGHTS:
        raise NightDocumentError(f"{NIGHTS_FILE} holds {len(table):,} nights, more than {MAX_IMPORT_NIGHTS:,}")
    out: list[dict[str, Any]] = []
    ids: set[str] = set()
    games: dict[str, str] = {}
    for key, raw in table.items():
        if not (isinstance(key, str) and key.isdigit() and len(key) <= 12):
            raise NightDocumentError(f"{NIGHTS_FILE} has a row {str(key)[:20]!r} that is not a document number")
        doc = check_night(raw)
        if doc["id"] in ids:
            raise NightDocumentError(f"{NIGHTS_FILE} lists the night {doc['id']!r} twice")
        ids.add(doc["id"])
        for game in doc["sessions"]:
            if game in games:
                raise NightDocumentError(
                    f"{NIGHTS_FILE} lists game {game[:8]} in two nights ({games[game]!r} and {doc['id']!r})"
                )
            games[game] = doc["id"]
        out.append(doc)
    return out
