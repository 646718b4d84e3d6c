"""A game night: one evening, several games, the table's ledger entries and the payments marked paid.

Pure: no Flet, no storage. A :class:`Night` is a frozen value (its games are session ids); every operation returns a
new Night, refusing bad input with a :class:`NightError` in words. What the night's money comes to is worked out in
:mod:`companion.night_ledger`, its recap in :mod:`companion.night_recap` and :mod:`companion.night_image`.
"""

from __future__ import annotations

import enum
import re
import unicodedata
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from companion.i18n import Words
from companion.money import MoneyError, MoneyFormat, format_money, parse_money
from scoring.base import MAX_NAME, join_names

SPLIT = "split"
"""The receiver of a ledger entry that the payer laid out for the table (see :class:`LedgerEntry`)."""
MAX_NIGHT_NAME = 100
"""The longest night name, in characters (a night's name is a title, as long as a session's title may be). A
player's name is limited to :data:`scoring.base.MAX_NAME`, as in every game."""
MAX_STORED_NAME = 100
"""The longest player's name read back from a saved night. Nights saved before a player's name was limited to
:data:`scoring.base.MAX_NAME` here too may hold names of up to 100 characters: they are read and kept as they are
(nothing saved is lost); a name seated now is limited to :data:`scoring.base.MAX_NAME`."""
MAX_NOTE = 200
"""The longest note on a ledger entry."""
MAX_PLAYERS = 30
MAX_GAMES = 200
MAX_ENTRIES = 500
BARGAIN_BIN = "bargain-bin"
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class NightError(ValueError):
    """A change to a night that is refused; ``str()`` says why in words."""


class NightStatus(enum.StrEnum):
    """Whether games and entries can still be added to a night."""

    OPEN = "open"
    CLOSED = "closed"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def clean_text(value: Any, what: str, limit: int, *, empty_ok: bool = False) -> str:
    """``value`` trimmed, with single spaces, at most ``limit`` characters and no control characters.

    >>> clean_text("  Friday   night ", "the night's name", 100)
    'Friday night'
    >>> clean_text("a\\x07b", "the night's name", 100)
    Traceback (most recent call last):
    ...
    companion.night_model.NightError: the night's name contains a control character
    """
    if not isinstance(value, str):
        raise NightError(f"{what} must be text, not {type(value).__name__}")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") and ch not in "\t\n" for ch in value):
        raise NightError(f"{what} contains a control character")
    cleaned = " ".join(value.split())
    if not cleaned and not empty_ok:
        raise NightError(f"{what} is empty")
    if len(cleaned) > limit:
        raise NightError(f"{what} is longer than {limit} characters")
    return cleaned


def check_night_id(value: Any, what: str = "a night id") -> str:
    """An id of letters, digits, ``-`` and ``_`` (1–64), as sessions have; else :class:`NightError`."""
    if not isinstance(value, str) or not _ID.match(value):
        raise NightError(f"{value!r} is not a valid {what.removeprefix('a ').removeprefix('an ')}")
    return value


# --------------------------------------------------------------------------------------------------------------
# Ledger entries and payments


def names_in(names: Sequence[str], words: Words | None = None) -> str:
    """Names joined as the language joins them: ``Ann, Ben and Cat`` (``und``, ``och``).

    >>> names_in(["Ann", "Ben", "Cat"], Words.of("de")), names_in(["Ann"])
    ('Ann, Ben und Cat', 'Ann')
    """
    names = list(names)
    if words is None or words.code == "en" or len(names) < 2:
        return join_names(names)
    return words.gettext("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True)
class LedgerEntry:
    """Money the table adds to the night by hand: a side bet, the pizza.

    * ``receiver`` is a player: the payer owes the receiver ``amount`` (a side bet lost): payer −amount,
      receiver +amount.
    * ``receiver`` is :data:`SPLIT`: the payer laid out ``amount`` for the players in ``among`` (the pizza), so each
      of them owes the payer an equal share. ``among`` is fixed when the entry is made: by default every player of
      the night, the payer included (whose own share is a wash); or only the others. **Remainder rule:** each share
      is ``amount // len(among)`` and the ``amount % len(among)`` odd cents are owed, one each, by the first members
      of ``among`` other than the payer, in the night's seating order; so the shares add up exactly to the amount,
      and the payer never carries an odd cent.

    >>> LedgerEntry("e1", "Ann", SPLIT, 1000, "pizza", ("Ann", "Ben", "Cat")).balances()
    {'Ann': 667, 'Ben': -334, 'Cat': -333}
    >>> LedgerEntry("e2", "Ben", "Ann", 500, "side bet").balances()
    {'Ben': -500, 'Ann': 500}
    """

    id: str
    payer: str
    receiver: str
    amount: int
    """In minor units (cents), more than zero."""
    note: str = ""
    among: tuple[str, ...] = ()
    """Who shares a split (empty for an entry with a receiver)."""

    @property
    def is_split(self) -> bool:
        return self.receiver == SPLIT

    def shares(self) -> dict[str, int]:
        """What each member of ``among`` owes for a split (the remainder rule above); ``{}`` otherwise.

        >>> LedgerEntry("e", "Cat", SPLIT, 10, "", ("Ann", "Ben", "Cat")).shares()
        {'Ann': 4, 'Ben': 3, 'Cat': 3}
        """
        if not self.is_split:
            return {}
        share, odd = divmod(self.amount, len(self.among))
        out = dict.fromkeys(self.among, share)
        for name in [n for n in self.among if n != self.payer][:odd]:
            out[name] += 1
        return out

    def balances(self) -> dict[str, int]:
        """How the entry moves each player's balance (positive: is owed); the values add up to zero."""
        if not self.is_split:
            return {self.payer: -self.amount, self.receiver: self.amount}
        out = {self.payer: 0}
        for name, share in self.shares().items():
            if name != self.payer:
                out[name] = out.get(name, 0) - share
                out[self.payer] += share
        return out

    def describe(self, fmt: MoneyFormat | None = None, words: Words | None = None) -> str:
        """The entry in words (in ``words``' language when given).

        >>> LedgerEntry("e", "Ann", SPLIT, 3000, "pizza", ("Ann", "Ben", "Cat")).describe()
        'Ann paid $30.00 for Ann, Ben and Cat (pizza)'
        >>> LedgerEntry("e", "Ben", "Ann", 500, "").describe()
        'Ben pays Ann $5.00'
        """
        money = format_money(self.amount, fmt)
        if words is not None:
            _ = words.gettext
            said = (
                _("{payer} paid {money} for {names}").format(
                    payer=self.payer, money=money, names=names_in(self.among, words)
                )
                if self.is_split
                else _("{payer} pays {receiver} {money}").format(payer=self.payer, receiver=self.receiver, money=money)
            )
            return f"{said} ({self.note})" if self.note else said
        text = (
            f"{self.payer} paid {money} for {join_names(self.among)}"
            if self.is_split
            else f"{self.payer} pays {self.receiver} {money}"
        )
        return f"{text} ({self.note})" if self.note else text


@dataclass(frozen=True)
class Payment:
    """A transfer of the settle-up marked as paid: money that changed hands tonight."""

    payer: str
    receiver: str
    amount: int
    at: str = ""


# --------------------------------------------------------------------------------------------------------------
# The night


@dataclass(frozen=True)
class Night:
    """One evening: its players, its games (session ids, in the order played), the table's ledger entries, and
    the transfers marked paid. Change it only through its methods, which check every value."""

    id: str
    name: str
    started: str
    """ISO 8601 UTC."""
    players: tuple[str, ...]
    """Seating order; a game added with new players appends them."""
    sessions: tuple[str, ...] = ()
    entries: tuple[LedgerEntry, ...] = ()
    paid: tuple[Payment, ...] = ()
    closed: str | None = None
    """When the night was closed; ``None`` while it is open."""

    @property
    def status(self) -> NightStatus:
        return NightStatus.OPEN if self.closed is None else NightStatus.CLOSED

    @property
    def is_open(self) -> bool:
        return self.closed is None

    # -- creating and naming -------------------------------------------------------------------------------------

    @classmethod
    def start(cls, name: str, players: Iterable[str], *, now: str | None = None, night_id: str | None = None) -> Night:
        """A new open night with the table's players (at least two, no name twice).

        >>> Night.start("", ["Ann", "Ben"])
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: the night's name is empty
        >>> Night.start("Friday", ["Ann", "ann"])
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: 'ann' is seated twice (as 'Ann')
        """
        seated = _seat([], players)
        if len(seated) < 2:
            raise NightError("a night needs at least two players")
        return cls(
            id=check_night_id(night_id) if night_id is not None else uuid.uuid4().hex,
            name=clean_text(name, "the night's name", MAX_NIGHT_NAME),
            started=now or _now(),
            players=tuple(seated),
        )

    def rename(self, name: str) -> Night:
        """The same night under a new name (allowed open or closed)."""
        return replace(self, name=clean_text(name, "the night's name", MAX_NIGHT_NAME))

    def close(self, *, now: str | None = None) -> Night:
        """Close the night: no more games or entries; transfers can still be marked paid."""
        if not self.is_open:
            raise NightError(f"{self.name!r} is already closed")
        return replace(self, closed=now or _now())

    def reopen(self) -> Night:
        """Open a closed night again."""
        if self.is_open:
            raise NightError(f"{self.name!r} is already open")
        return replace(self, closed=None)

    def _open(self, doing: str) -> None:
        if not self.is_open:
            raise NightError(f"{self.name!r} is closed: reopen it to {doing}")

    # -- players -------------------------------------------------------------------------------------------------

    def player(self, name: Any) -> str:
        """The night's spelling of ``name`` (case and spacing ignored), or :class:`NightError`.

        >>> Night.start("Friday", ["Ann", "Ben"]).player(" ann ")
        'Ann'
        >>> Night.start("Friday", ["Ann", "Ben"]).player("Zed")
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: 'Zed' is not a player tonight (the players are Ann and Ben)
        """
        if isinstance(name, str):
            key = _key(name)
            for player in self.players:
                if _key(player) == key:
                    return player
        raise NightError(f"{name!r} is not a player tonight (the players are {join_names(self.players)})")

    # -- games ---------------------------------------------------------------------------------------------------

    def add_game(self, session_id: str, players: Iterable[str] = ()) -> Night:
        """Add a game (a session id) at the end of the night's order; its players join the night if new.

        A game started outside the night can be added later the same way.
        """
        self._open("add a game")
        check_night_id(session_id, "a session id")
        if session_id in self.sessions:
            raise NightError(f"game {session_id[:8]} is already part of {self.name!r}")
        if len(self.sessions) >= MAX_GAMES:
            raise NightError(f"a night holds at most {MAX_GAMES} games")
        seated = _seat(list(self.players), players, allow_known=True)
        return replace(self, sessions=(*self.sessions, session_id), players=tuple(seated))

    def remove_game(self, session_id: str) -> Night:
        """Take a game out of the night (the session itself is kept); the ledger is re-derived without it."""
        self._open("remove a game")
        if session_id not in self.sessions:
            raise NightError(f"game {str(session_id)[:8]!r} is not part of {self.name!r}")
        return replace(self, sessions=tuple(s for s in self.sessions if s != session_id))

    # -- the ledger's manual entries -----------------------------------------------------------------------------

    def add_entry(
        self,
        payer: str,
        receiver: str,
        amount: int | str,
        note: str = "",
        *,
        fmt: MoneyFormat | None = None,
        include_payer: bool = True,
        entry_id: str | None = None,
    ) -> Night:
        """Add a ledger entry (see :class:`LedgerEntry`); ``amount`` is minor units, or text read by
        :func:`companion.money.parse_money` in ``fmt``. A split is shared by every player of the night, or with
        ``include_payer=False`` by the others only.

        >>> night = Night.start("Friday", ["Ann", "Ben", "Cat"])
        >>> night.add_entry("Ann", "Ben", "1.234")
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: '1.234' has more than two decimals: amounts are in whole cents
        >>> night.add_entry("Ann", "Ann", 100)
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: Ann cannot pay Ann: choose another receiver, or split
        >>> night.add_entry("Ann", "Zed", 100)
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: 'Zed' is not a player tonight (the players are Ann, Ben and Cat)
        >>> night.add_entry("Ann", "Ben", 0)
        Traceback (most recent call last):
        ...
        companion.night_model.NightError: the amount must be more than zero
        """
        self._open("add an entry")
        if len(self.entries) >= MAX_ENTRIES:
            raise NightError(f"a night holds at most {MAX_ENTRIES} entries")
        who = self.player(payer)
        cents = _amount(amount, fmt)
        text = clean_text(note, "the note", MAX_NOTE, empty_ok=True)
        if isinstance(receiver, str) and receiver.strip().casefold() == SPLIT:
            among = tuple(p for p in self.players if include_payer or p != who)
            entry = LedgerEntry(entry_id or uuid.uuid4().hex[:12], who, SPLIT, cents, text, among)
        else:
            to = self.player(receiver)
            if to == who:
                raise NightError(f"{who} cannot pay {who}: choose another receiver, or split")
            entry = LedgerEntry(entry_id or uuid.uuid4().hex[:12], who, to, cents, text)
        check_night_id(entry.id, "an entry id")
        if any(e.id == entry.id for e in self.entries):
            raise NightError(f"there is already an entry {entry.id!r}")
        return replace(self, entries=(*self.entries, entry))

    def remove_entry(self, entry_id: str) -> Night:
        """Take an entry out of the ledger."""
        self._open("remove an entry")
        if not any(e.id == entry_id for e in self.entries):
            raise NightError(f"there is no entry {entry_id!r} in {self.name!r}")
        return replace(self, entries=tuple(e for e in self.entries if e.id != entry_id))

    # -- transfers marked paid -----------------------------------------------------------------------------------

    def mark_paid(
        self, payer: str, receiver: str, amount: int | str, *, fmt: MoneyFormat | None = None, now: str | None = None
    ) -> Night:
        """Record that ``payer`` paid ``receiver`` (a transfer of the settle-up, usually): the settle-up then shows
        it as paid and settles only what is left. Allowed on a closed night (people pay after the last game)."""
        who, to = self.player(payer), self.player(receiver)
        if who == to:
            raise NightError(f"{who} cannot pay {who}")
        return replace(self, paid=(*self.paid, Payment(who, to, _amount(amount, fmt), now or _now())))

    def unmark_paid(self, payer: str, receiver: str, amount: int) -> Night:
        """Undo the latest :meth:`mark_paid` of this transfer."""
        for index in range(len(self.paid) - 1, -1, -1):
            p = self.paid[index]
            if (p.payer, p.receiver, p.amount) == (payer, receiver, amount):
                return replace(self, paid=self.paid[:index] + self.paid[index + 1 :])
        raise NightError(f"no payment of {format_money(amount)} from {payer} to {receiver} is marked paid")

    # -- as a document ----------------------------------------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        """The night as plain JSON data (what :mod:`storage.nights` keeps, without its schema version)."""
        return {
            "id": self.id,
            "name": self.name,
            "started": self.started,
            "closed": self.closed,
            "status": self.status.value,
            "players": list(self.players),
            "sessions": list(self.sessions),
            "entries": [
                {"id": e.id, "payer": e.payer, "receiver": e.receiver, "amount": e.amount, "note": e.note}
                | ({"among": list(e.among)} if e.is_split else {})
                for e in self.entries
            ],
            "paid": [{"payer": p.payer, "receiver": p.receiver, "amount": p.amount, "at": p.at} for p in self.paid],
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Night:
        """A night from :meth:`to_doc`'s data, every value checked again (:class:`NightError` on the first bad one).

        >>> n = Night.start("Friday", ["Ann", "Ben"]).add_entry("Ben", "Ann", 250, "bet")
        >>> Night.from_doc(n.to_doc()) == n
        True
        """
        try:
            players = _seat([], doc["players"], limit=MAX_STORED_NAME)
            night = cls(
                id=check_night_id(doc["id"]),
                name=clean_text(doc["name"], "the night's name", MAX_NIGHT_NAME),
                started=clean_text(doc["started"], "the start time", 40),
                players=tuple(players),
                closed=None if doc.get("closed") is None else clean_text(doc["closed"], "the closing time", 40),
            )
            sessions = [check_night_id(s, "a session id") for s in doc.get("sessions", [])]
            if len(set(sessions)) != len(sessions):
                raise NightError("a game is listed twice in the night")
            entries: list[LedgerEntry] = []
            for raw in doc.get("entries", []):
                entry = _entry_from_doc(night, raw)
                if any(e.id == entry.id for e in entries):
                    raise NightError(f"there is already an entry {entry.id!r}")
                entries.append(entry)
            paid: list[Payment] = []
            for raw in doc.get("paid", []):
                who, to = night.player(raw["payer"]), night.player(raw["receiver"])
                if who == to:
                    raise NightError(f"{who} cannot pay {who}")
                paid.append(
                    Payment(
                        who,
                        to,
                        _amount(raw["amount"], None),
                        clean_text(raw.get("at", ""), "the payment time", 40, empty_ok=True),
                    )
                )
        except (KeyError, TypeError, AttributeError) as exc:
            raise NightError(f"the night is missing a value or has one of the wrong kind ({exc})") from None
        return replace(night, sessions=tuple(sessions), entries=tuple(entries), paid=tuple(paid))


def _entry_from_doc(night: Night, raw: Mapping[str, Any]) -> LedgerEntry:
    who = night.player(raw["payer"])
    cents = _amount(raw["amount"], None)
    note = clean_text(raw.get("note", ""), "the note", MAX_NOTE, empty_ok=True)
    entry_id = check_night_id(raw["id"], "an entry id")
    if raw["receiver"] == SPLIT:
        among = tuple(night.player(p) for p in raw.get("among", night.players))
        if not among or len(set(among)) != len(among):
            raise NightError("a split is shared by at least one player, each once")
        return LedgerEntry(entry_id, who, SPLIT, cents, note, among)
    to = night.player(raw["receiver"])
    if to == who:
        raise NightError(f"{who} cannot pay {who}")
    return LedgerEntry(entry_id, who, to, cents, note)


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _seat(seated: list[str], names: Iterable[str], *, allow_known: bool = False, limit: int = MAX_NAME) -> list[str]:
    """``seated`` with ``names`` added; a new name has at most ``limit`` characters (a saved night is read with
    :data:`MAX_STORED_NAME`), a name already seated may be longer (it was saved so)."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise NightError("the players are a list of names")
    keys = {_key(p): p for p in seated}
    for raw in names:
        name = clean_text(raw, "a player's name", MAX_STORED_NAME)
        if name.casefold() == SPLIT:
            raise NightError(f"{name!r} cannot be a player's name (it means sharing an entry)")
        if _key(name) in keys:
            if allow_known:
                continue
            raise NightError(f"{raw!r} is seated twice (as {keys[_key(name)]!r})")
        if len(name) > limit:
            raise NightError(f"a player's name is longer than {limit} characters")
        if len(seated) >= MAX_PLAYERS:
            raise NightError(f"a night has at most {MAX_PLAYERS} players")
        keys[_key(name)] = name
        seated.append(name)
    return seated


def _amount(amount: int | str, fmt: MoneyFormat | None) -> int:
    if isinstance(amount, str):
        try:
            return parse_money(amount, fmt)
        except MoneyError as exc:
            raise NightError(str(exc)) from None
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise NightError(f"an amount is a whole number of cents or text such as 0.25, not {amount!r}")
    if amount <= 0:
        raise NightError("the amount must be more than zero" if amount == 0 else "the amount cannot be negative")
    return amount
