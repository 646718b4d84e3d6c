"""A game night: one evening, several games, one ledger, one settle-up and a recap worth sharing.

Pure: no Flet, no storage. A :class:`Night` is a frozen value (its games are session ids); every operation returns a
new Night, refusing bad input with a :class:`NightError` in words. The money is never stored as totals: the ledger
re-derives every Bargain Bin game's Vegas money by replaying its record through :mod:`scoring` (rule 8, BB-9…BB-11;
a cancelled game refunds every payment, rule 9.3, BB-14), adds the table's own entries, and settles the whole night in
the fewest transfers (:func:`scoring.bargain_bin.settle_up`, exact: the most zero-sum groups).

>>> night = Night.start("Friday", ["Ann", "Ben", "Cat", "Dan"], now="2026-12-04T19:00:00.000Z", night_id="n1")
>>> bb = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"],
...       "options": {"vegas_unit_cents": 10, "target": 1},
...       "hands": [{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}]}
>>> night = night.add_game("s1").add_entry("Ann", SPLIT, "8.00", note="pizza", entry_id="e1")
>>> book = ledger(night, {"s1": bb})
>>> book.from_games, book.from_entries
({'Ann': 105, 'Ben': -60, 'Cat': -150, 'Dan': 105}, {'Ann': 600, 'Ben': -200, 'Cat': -200, 'Dan': -200})
>>> print("\\n".join(settle(night, book).lines()))
Who pays whom tonight
Cat pays Ann $3.50
Ben pays Ann $2.60
Dan pays Ann $0.95
"""

from __future__ import annotations

import enum
import io
import re
import unicodedata
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.money import MoneyError, MoneyFormat, format_money, parse_money
from scoring import ScoringError, get_game
from scoring.base import MAX_NAME, Result, join_names

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
TITLE = "Who pays whom tonight"
"""The heading of the night's settle-up."""
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
    companion.night.NightError: the night's name contains a control character
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

    def describe(self, fmt: MoneyFormat | None = None) -> str:
        """The entry in words.

        >>> LedgerEntry("e", "Ann", SPLIT, 3000, "pizza", ("Ann", "Ben", "Cat")).describe()
        'Ann paid $30.00 for Ann, Ben and Cat (pizza)'
        >>> LedgerEntry("e", "Ben", "Ann", 500, "").describe()
        'Ben pays Ann $5.00'
        """
        money = format_money(self.amount, fmt)
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
        companion.night.NightError: the night's name is empty
        >>> Night.start("Friday", ["Ann", "ann"])
        Traceback (most recent call last):
        ...
        companion.night.NightError: 'ann' is seated twice (as 'Ann')
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
        companion.night.NightError: 'Zed' is not a player tonight (the players are Ann and Ben)
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
        companion.night.NightError: '1.234' has more than two decimals: amounts are in whole cents
        >>> night.add_entry("Ann", "Ann", 100)
        Traceback (most recent call last):
        ...
        companion.night.NightError: Ann cannot pay Ann: choose another receiver, or split
        >>> night.add_entry("Ann", "Zed", 100)
        Traceback (most recent call last):
        ...
        companion.night.NightError: 'Zed' is not a player tonight (the players are Ann, Ben and Cat)
        >>> night.add_entry("Ann", "Ben", 0)
        Traceback (most recent call last):
        ...
        companion.night.NightError: the amount must be more than zero
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


# --------------------------------------------------------------------------------------------------------------
# Replaying the night's games


@dataclass(frozen=True)
class Played:
    """One game of the night, replayed: its result, or why it could not be."""

    number: int
    """1 for the night's first game."""
    session_id: str
    game: str
    """The game's key (``bargain-bin``...), ``""`` when the record is missing."""
    result: Result | None
    problem: str = ""


def replay(night: Night, records: Mapping[str, Any]) -> tuple[Played, ...]:
    """Every game of the night in order, re-derived from its record (a dict or a parsed record) by scoring.

    A game whose record is missing or refused by the rules is kept with its ``problem`` in words (it adds nothing
    to the ledger), so one damaged game never hides the rest of the night.
    """
    out = []
    for number, session_id in enumerate(night.sessions, start=1):
        record = records.get(session_id)
        if record is None:
            out.append(Played(number, session_id, "", None, f"game {session_id[:8]} is not in the archive"))
            continue
        key = record.get("game") if isinstance(record, Mapping) else getattr(record, "game", "")
        try:
            result = get_game(str(key)).score(record)
        except ScoringError as exc:
            out.append(Played(number, session_id, str(key or ""), None, f"game {number} cannot be replayed: {exc}"))
            continue
        out.append(Played(number, session_id, result.game, result))
    return tuple(out)


# --------------------------------------------------------------------------------------------------------------
# The ledger


class MoneyStatus(enum.StrEnum):
    """What a game adds to the night's money."""

    PAID_OUT = "paid-out"
    """Finished with Vegas Rules: the pot went to the winners (BB-10, BB-11)."""
    REFUNDED = "refunded"
    """Cancelled with Vegas Rules: every payment was refunded (rule 9.3, BB-14)."""
    UNDECIDED = "undecided"
    """Vegas Rules, but the game is not over: its pot is still on the table and adds nothing yet."""
    NO_MONEY = "no-money"
    """Another game, or Bargain Bin without Vegas Rules."""
    UNREADABLE = "unreadable"
    """The record is missing or cannot be replayed."""


@dataclass(frozen=True)
class GameMoney:
    """One game's Vegas money, re-derived from its record."""

    number: int
    session_id: str
    game: str
    status: MoneyStatus
    payments: Mapping[str, int] = field(default_factory=dict)
    """What each player paid into the pot (BB-9)."""
    payouts: Mapping[str, int] = field(default_factory=dict)
    """What the winners took from the pot (BB-10, BB-11); empty when cancelled."""
    refunds: Mapping[str, int] = field(default_factory=dict)
    """What a cancelled game gave back (everyone's payments, BB-14); empty otherwise."""
    net: Mapping[str, int] = field(default_factory=dict)
    """Payouts + refunds − payments: what the game adds to the night (zero everywhere until it is decided)."""
    note: str = ""


@dataclass(frozen=True)
class Ledger:
    """The night's money: every game's Vegas money plus the table's entries, per player (sums to zero)."""

    games: tuple[GameMoney, ...]
    entries: tuple[LedgerEntry, ...]
    players: tuple[str, ...]
    """The night's players, then anyone who played a game of the night without being seated at it."""
    from_games: dict[str, int]
    from_entries: dict[str, int]
    net: dict[str, int]
    """Positive: is owed money; negative: owes."""

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(g.note for g in self.games if g.status is MoneyStatus.UNREADABLE)


def _game_money(played: Played) -> GameMoney:
    base = GameMoney(played.number, played.session_id, played.game, MoneyStatus.NO_MONEY)
    result = played.result
    if result is None:
        return replace(base, status=MoneyStatus.UNREADABLE, note=played.problem)
    from scoring.bargain_bin import BargainBinResult  # with the game's result, not at start (cold start)

    if not isinstance(result, BargainBinResult) or result.payments is None:  # only Bargain Bin plays for money
        return base
    payments: dict[str, int] = dict(result.payments)
    given: dict[str, int] = dict(result.payouts or {})
    if result.cancelled:  # the result's payouts of a cancelled game are the refunds (rule 9.3, BB-14)
        net = {name: given.get(name, 0) - payments[name] for name in payments}
        note = f"game {played.number} was cancelled: every payment is refunded (rule 9.3, BB-14)"
        return replace(base, status=MoneyStatus.REFUNDED, payments=payments, refunds=given, net=net, note=note)
    if not result.finished:
        note = f"game {played.number} is not over: its pot is still on the table and adds nothing yet"
        return replace(base, status=MoneyStatus.UNDECIDED, payments=payments, net=dict.fromkeys(payments, 0), note=note)
    net = {name: given.get(name, 0) - payments[name] for name in payments}
    note = f"game {played.number}: the pot went to {join_names(result.winners)} (BB-10, BB-11)"
    return replace(base, status=MoneyStatus.PAID_OUT, payments=payments, payouts=given, net=net, note=note)


def ledger(night: Night, records: Mapping[str, Any]) -> Ledger:
    """The night's ledger, re-derived: ``records`` maps each session id of the night to its game record.

    Removing a game from the night and asking again gives the ledger without it (nothing is cached).
    """
    return _ledger(night, replay(night, records))


def _ledger(night: Night, played: Sequence[Played]) -> Ledger:
    games = tuple(_game_money(p) for p in played)
    players = list(night.players)
    for p in played:
        if p.result is not None:
            players.extend(name for name in p.result.players if name not in players)
    from_games = dict.fromkeys(players, 0)
    for game in games:
        for name, cents in game.net.items():
            from_games[name] += cents
    from_entries = dict.fromkeys(players, 0)
    for entry in night.entries:
        for name, cents in entry.balances().items():
            from_entries[name] += cents
    net = {name: from_games[name] + from_entries[name] for name in players}
    return Ledger(games, night.entries, tuple(players), from_games, from_entries, net)


# --------------------------------------------------------------------------------------------------------------
# The settle-up


@dataclass(frozen=True)
class Transfer:
    """One payment of the settle-up."""

    payer: str
    receiver: str
    amount: int
    paid: bool = False

    def describe(self, fmt: MoneyFormat | None = None) -> str:
        """``Ben pays Ann $2.50`` (``… paid`` once marked paid)."""
        verb = "paid" if self.paid else "pays"
        return f"{self.payer} {verb} {self.receiver} {format_money(self.amount, fmt)}"


@dataclass(frozen=True)
class Settlement:
    """Who pays whom tonight: the transfers already marked paid, then the fewest that settle the rest."""

    paid: tuple[Transfer, ...]
    outstanding: tuple[Transfer, ...]
    balance: dict[str, int]
    """What each player is still owed (positive) or still owes (negative) after the payments marked paid."""

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.paid + self.outstanding

    @property
    def settled(self) -> bool:
        return not self.outstanding

    def lines(self, fmt: MoneyFormat | None = None) -> list[str]:
        """The settle-up as lines of text, under :data:`TITLE`."""
        body = [t.describe(fmt) + (" ✓" if t.paid else "") for t in self.transfers]
        return [TITLE, *(body or ["Nobody owes anybody anything."])]


def settle(night: Night, book: Ledger) -> Settlement:
    """The one settle-up of the night, in the fewest transfers.

    The payments marked paid are applied to the ledger's net first; what is left is settled by
    :func:`scoring.bargain_bin.settle_up`, which is exact (the fewest transfers is the number of players with a
    balance minus the most groups whose balances sum to zero) for up to 12 players with a balance.
    """
    from scoring.bargain_bin import settle_up  # when a night is settled, not at start (cold start)

    balance = dict(book.net)
    for payment in night.paid:
        for name in (payment.payer, payment.receiver):
            balance.setdefault(name, 0)
        balance[payment.payer] += payment.amount
        balance[payment.receiver] -= payment.amount
    outstanding = tuple(Transfer(a, b, cents) for a, b, cents in settle_up(balance))
    paid = tuple(Transfer(p.payer, p.receiver, p.amount, paid=True) for p in night.paid)
    return Settlement(paid, outstanding, balance)


# --------------------------------------------------------------------------------------------------------------
# The recap


@dataclass(frozen=True)
class GameRecap:
    """One game in the recap: who won it, and why (the result's verdict)."""

    number: int
    session_id: str
    game: str
    name: str
    """The game's name (``Bargain Bin``)."""
    decided: bool
    cancelled: bool
    winners: tuple[str, ...]
    verdict: str


@dataclass(frozen=True)
class Streak:
    """Consecutive games of the night won by one player (a shared win counts)."""

    player: str
    length: int
    first: int
    """The number of the streak's first game."""
    last: int


@dataclass(frozen=True)
class Recap:
    """The night in one page: games, winners and verdicts, wins per player, money, the settle-up, the streak."""

    name: str
    started: str
    closed: str | None
    players: tuple[str, ...]
    games: tuple[GameRecap, ...]
    wins: dict[str, int]
    money: dict[str, int]
    """Each player's net for the night (the ledger's)."""
    settlement: Settlement
    streaks: tuple[Streak, ...]
    """The longest streak (two wins or more), one per player who reached it; empty if nobody won twice running."""
    problems: tuple[str, ...] = ()
    rating_change: Mapping[str, float] = field(default_factory=dict)
    """Each player's change of rating (all games, :mod:`companion.ratings`) over the night's finished games, by
    name; empty when it was not worked out."""

    @property
    def has_money(self) -> bool:
        return any(self.money.values()) or bool(self.settlement.paid)


def verdict_of(result: Result) -> str:
    """The game's verdict sentence: the result's ``verdict.headline`` once scoring has decided (or cancelled) the
    game, else what the table plays next.

    >>> verdict_of(Result(game="jokers-kill", players=["Ann", "Ben"], totals={}, finished=False))
    'Not over yet (0 hands played)'
    """
    if result.verdict is not None:  # decided or cancelled: scoring says why (scoring.verdict)
        return result.verdict.headline
    if result.finished:
        return f"{join_names(result.winners)} {'wins' if len(result.winners) == 1 else 'win'}"
    if result.pending is not None:
        part = {"tiebreak": "a tie-break", "sudden-death": "sudden death", "playoff": "a play-off"}[result.pending.kind]
        return f"{join_names(result.pending.players)} are tied: {part} decides"
    hands = len(result.hands)
    return f"Not over yet ({hands} hand{'' if hands == 1 else 's'} played)"


def longest_streaks(games: Sequence[GameRecap]) -> tuple[Streak, ...]:
    """The longest run of consecutive wins (at least two), per player who reached it, in seating order of first
    appearance. A game not decided yet is skipped (it neither extends nor breaks a run); a cancelled game, which
    nobody wins, breaks every run.

    >>> g = lambda n, *w: GameRecap(n, f"s{n}", "jokers-kill", "Jokers Kill", True, False, w, "")
    >>> longest_streaks([g(1, "Ann"), g(2, "Ann", "Ben"), g(3, "Ben"), g(4, "Ann")])
    (Streak(player='Ann', length=2, first=1, last=2), Streak(player='Ben', length=2, first=2, last=3))
    """
    best: dict[str, Streak] = {}
    current: dict[str, Streak] = {}
    for game in games:
        if not game.decided:
            continue
        current = {
            name: Streak(name, current[name].length + 1, current[name].first, game.number)
            if name in current
            else Streak(name, 1, game.number, game.number)
            for name in game.winners
        }
        for name, streak in current.items():
            if name not in best or streak.length > best[name].length:
                best[name] = streak
    top = max((s.length for s in best.values()), default=0)
    return tuple(s for s in best.values() if s.length == top and top >= 2)


def recap(night: Night, records: Mapping[str, Any]) -> Recap:
    """The night's recap, every game re-derived from ``records`` (session id → game record)."""
    played = replay(night, records)
    book = _ledger(night, played)
    games = []
    for p in played:
        result = p.result
        if result is None:
            games.append(GameRecap(p.number, p.session_id, p.game, _name(p.game), False, False, (), p.problem))
            continue
        decided = result.finished or result.cancelled
        winners = tuple(result.winners) if decided and not result.cancelled else ()
        games.append(
            GameRecap(
                p.number, p.session_id, p.game, _name(p.game), decided, result.cancelled, winners, verdict_of(result)
            )
        )
    wins = dict.fromkeys(book.players, 0)
    for game in games:
        for name in game.winners:
            wins[name] = wins.get(name, 0) + 1
    return Recap(
        name=night.name,
        started=night.started,
        closed=night.closed,
        players=book.players,
        games=tuple(games),
        wins=wins,
        money=dict(book.net),
        settlement=settle(night, book),
        streaks=longest_streaks(games),
        problems=tuple(p.problem for p in played if p.problem),
    )


def _name(key: str) -> str:
    try:
        return get_game(key).name
    except ScoringError:
        return "Unknown game"


def _day(stamp: str) -> str:
    """The day of a UTC stamp on this computer's clock: ``Fri 4 Dec 2026`` (an evening that goes past midnight
    UTC keeps its local date); the stamp as it is if it is not a time."""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return stamp
    return f"{when:%a} {when.day} {when:%b %Y}"


def name_and_day(name: str, stamp: str) -> str:
    """A night's name with its day, the day said once: a name that already says it (``Game night, Wed 2 Dec``,
    the name a night gets when none is typed) is given as it is.

    >>> name_and_day("Friday", "2026-12-04T12:00:00.000Z")
    'Friday · Fri 4 Dec 2026'
    >>> name_and_day("Game night, Fri 4 Dec", "2026-12-04T12:00:00.000Z")
    'Game night, Fri 4 Dec'
    """
    day = _day(stamp)
    return name if says_day(name, stamp) else f"{name} · {day}"


def says_day(name: str, stamp: str) -> bool:
    """Whether ``name`` already says the day of ``stamp`` (``Wed 2 Dec``), so that a screen need not say it again.

    >>> says_day("Game night, Fri 4 Dec", "2026-12-04T12:00:00.000Z"), says_day("Friday", "2026-12-04T12:00:00Z")
    (True, False)
    """
    day = _day(stamp)
    short = day.rsplit(" ", 1)[0] if day.count(" ") == 3 else day
    return short.casefold() in name.casefold()


def games_span(first: int, last: int) -> str:
    """Games ``first`` to ``last`` in words.

    >>> games_span(2, 3), games_span(1, 4)
    ('games 2 and 3', 'games 1 to 4')
    """
    return f"games {first} and {last}" if last == first + 1 else f"games {first} to {last}"


def streak_line(streaks: Sequence[Streak]) -> str:
    """The longest streak in one readable line (``""`` when there is none).

    >>> streak_line([Streak("Rosa", 2, 2, 3)])
    'Rosa: 2 wins in a row (games 2 and 3)'
    >>> streak_line([Streak("Ann", 2, 1, 2), Streak("Rosa", 2, 4, 5)])
    'Ann and Rosa: 2 wins in a row each (Ann won games 1 and 2, Rosa games 4 and 5)'
    """
    if not streaks:
        return ""
    first = streaks[0]
    if len(streaks) == 1:
        return f"{first.player}: {first.length} wins in a row ({games_span(first.first, first.last)})"
    who = join_names(x.player for x in streaks)
    spans = [f"{first.player} won {games_span(first.first, first.last)}"]
    spans += [f"{x.player} {games_span(x.first, x.last)}" for x in streaks[1:]]
    return f"{who}: {first.length} wins in a row each ({', '.join(spans)})"


def _sections(recap: Recap, fmt: MoneyFormat | None) -> list[tuple[str, list[str]]]:
    """The recap's content as (heading, lines): shared by the text and the image."""
    games = [f"{g.number}. {g.name}: {g.verdict}" for g in recap.games] or ["No games yet."]
    ranked = sorted(recap.players, key=lambda name: (-recap.wins.get(name, 0), recap.players.index(name)))
    wins = [f"{name}: {recap.wins.get(name, 0)}" for name in ranked]
    out = [("Games", games), ("Wins", wins)]
    if recap.has_money:
        money = [f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}" for name in recap.players]
        out.append(("Money", money))
        out.append((TITLE, recap.settlement.lines(fmt)[1:]))
    if recap.streaks:
        out.append(("Longest streak", [streak_line(recap.streaks)]))
    if recap.rating_change:
        out.append(("Rating change", rating_change_lines(recap)))
    return out


def rating_change_lines(recap: Recap) -> list[str]:
    """``Ann: +1.2`` for each player with a rated game tonight, in the recap's order (then anyone else).

    >>> r = Recap("n", "", None, ("Ann", "Ben"), (), {}, {}, Settlement((), (), {}), (), (),
    ...           {"Ben": -0.44, "Ann": 1.234})
    >>> rating_change_lines(r)
    ['Ann: +1.2', 'Ben: −0.4']
    """
    order = [n for n in recap.players if n in recap.rating_change]
    order += sorted(n for n in recap.rating_change if n not in order)
    out = []
    for name in order:
        value = recap.rating_change[name]
        text = f"{abs(value):.1f}"
        out.append(f"{name}: {'±0.0' if text == '0.0' else ('+' if value > 0 else '−') + text}")
    return out


def recap_text(recap: Recap, fmt: MoneyFormat | None = None) -> str:
    """The recap as plain text for a messenger (no markup, one fact a line).

    >>> r = Recap("Friday", "2026-12-04T12:00:00.000Z", None, ("Ann", "Ben"), (), {"Ann": 0, "Ben": 0},
    ...           {"Ann": 0, "Ben": 0}, Settlement((), (), {}), ())
    >>> print(recap_text(r))
    Friday · Fri 4 Dec 2026
    <BLANKLINE>
    Games
    No games yet.
    <BLANKLINE>
    Wins
    Ann: 0
    Ben: 0
    """
    blocks = [name_and_day(recap.name, recap.started)]
    for heading, lines in _sections(recap, fmt):
        blocks.append("\n".join([heading, *lines]))
    return "\n\n".join(blocks)


# --------------------------------------------------------------------------------------------------------------
# The recap as an image

FONT_FILE = Path(__file__).resolve().parents[1] / "assets" / "fonts" / "DejaVuSans.ttf"
"""The app's own font (it has ♠ ♥ ♦ ♣); the image is drawn with it, offline."""
SEED = (0x2E, 0x7D, 0x32)
"""The app theme's seed colour, card-table green (Flet's GREEN_800)."""
PNG_WIDTH = 1080
_MARGIN = 56
_PALETTES = {
    False: {
        "background": (0xF3, 0xF7, 0xF0),
        "card": (0xFF, 0xFF, 0xFF),
        "text": (0x1A, 0x1C, 0x19),
        "accent": SEED,
        "on_accent": (0xFF, 0xFF, 0xFF),
        "rule": (0xC2, 0xC9, 0xBD),
    },
    True: {
        "background": (0x11, 0x14, 0x10),
        "card": (0x1D, 0x21, 0x1B),
        "text": (0xE2, 0xE3, 0xDD),
        "accent": (0x8B, 0xD8, 0x84),
        "on_accent": (0xFF, 0xFF, 0xFF),
        "rule": (0x42, 0x49, 0x40),
    },
}
"""Light and dark palettes after Material 3's scheme from the seed (surface, on-surface, primary); the header band is
the seed itself in both."""


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype(str(FONT_FILE), size)
    except OSError:
        return ImageFont.load_default(size)


def recap_png(recap: Recap, fmt: MoneyFormat | None = None, dark: bool = False) -> bytes:
    """The recap drawn as a PNG (1080 px wide, as tall as its content), in the app's theme and font, offline."""
    games = f"{len(recap.games)} game{'' if len(recap.games) == 1 else 's'}"
    day = "" if says_day(recap.name, recap.started) else _day(recap.started) + "  ·  "  # the name may say it
    return sections_png(recap.name, f"{day}{games}", _sections(recap, fmt), dark=dark)


def sections_png(title: str, subtitle: str, content: Sequence[tuple[str, Sequence[str]]], dark: bool = False) -> bytes:
    """A recap drawn as a PNG: a green band with ``title`` and ``subtitle``, then a card per (heading, lines) of
    ``content`` (the night's recap, a season's)."""
    from PIL import Image, ImageDraw

    colours = _PALETTES[bool(dark)]
    title_font, head_font, body_font = _font(52), _font(34), _font(30)
    width = PNG_WIDTH - 2 * _MARGIN - 2 * 32
    line_h, head_h, gap = 42, 56, 28

    def wrap(text: str) -> list[str]:
        """Break ``text`` into lines that fit the card (at spaces; a word wider than the card is cut)."""
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            trial = f"{current} {word}" if current else word
            if body_font.getlength(trial) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
                trial = "    " + word
            while body_font.getlength(trial) > width:  # one long word: cut it where it leaves the card
                cut = max(1, next(i for i in range(len(trial), 0, -1) if body_font.getlength(trial[:i]) <= width))
                lines.append(trial[:cut])
                trial = "    " + trial[cut:]
            current = trial
        return [*lines, current] if current else lines

    sections = [(heading, [piece for line in lines for piece in wrap(line)]) for heading, lines in content]
    header_h = 200
    height = header_h + gap + sum(head_h + len(lines) * line_h + 2 * 24 + gap for _, lines in sections) + _MARGIN
    image = Image.new("RGB", (PNG_WIDTH, height), colours["background"])
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, PNG_WIDTH, header_h), fill=SEED)  # the card-table green band, in both modes
    while title_font.getlength(title) > PNG_WIDTH - 2 * _MARGIN:
        title = title[:-2] + "…"
    draw.text((_MARGIN, 44), title, font=title_font, fill=colours["on_accent"])
    suits = "♠ ♥ ♦ ♣"
    draw.text(
        (_MARGIN, 124),
        f"{subtitle}  ·  {suits}",
        font=body_font,
        fill=colours["on_accent"],
    )
    y = header_h + gap
    for heading, lines in sections:
        box_h = head_h + len(lines) * line_h + 2 * 24
        draw.rounded_rectangle(
            (_MARGIN, y, PNG_WIDTH - _MARGIN, y + box_h),
            radius=24,
            fill=colours["card"],
            outline=colours["rule"],
            width=2,
        )
        draw.text((_MARGIN + 32, y + 24), heading, font=head_font, fill=colours["accent"])
        ty = y + 24 + head_h
        for line in lines:
            draw.text((_MARGIN + 32, ty), line, font=body_font, fill=colours["text"])
            ty += line_h
        y += box_h + gap
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


__all__ = [
    "BARGAIN_BIN",
    "FONT_FILE",
    "MAX_NAME",
    "MAX_NIGHT_NAME",
    "MAX_NOTE",
    "MAX_STORED_NAME",
    "PNG_WIDTH",
    "SEED",
    "SPLIT",
    "TITLE",
    "GameMoney",
    "GameRecap",
    "Ledger",
    "LedgerEntry",
    "MoneyStatus",
    "Night",
    "NightError",
    "NightStatus",
    "Payment",
    "Played",
    "Recap",
    "Settlement",
    "Streak",
    "Transfer",
    "check_night_id",
    "clean_text",
    "ledger",
    "longest_streaks",
    "rating_change_lines",
    "recap",
    "recap_png",
    "recap_text",
    "replay",
    "sections_png",
    "settle",
    "verdict_of",
]
