"""A game night's money: its games replayed, the ledger, and the settle-up in the fewest transfers.

The money is never stored as totals: the ledger re-derives every Bargain Bin game's Vegas money by replaying its
record through :mod:`scoring` (rule 8, BB-9…BB-11; a cancelled game refunds every payment, rule 9.3, BB-14), adds the
table's own entries (:class:`companion.night_model.LedgerEntry`), and settles the whole night in the fewest transfers
(:func:`scoring.bargain_bin.settle_up`, exact: the most zero-sum groups).

>>> from companion.night_model import SPLIT, Night
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.i18n import N_, Words
from companion.money import MoneyFormat, format_money
from companion.night_model import LedgerEntry, Night, names_in
from scoring import ScoringError, find_game
from scoring.base import Result, join_names

TITLE = N_("Who pays whom tonight")
"""The heading of the night's settle-up."""
ENGLISH = Words.of("en")

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
            result = find_game(str(key)).score(record)
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
    winners: tuple[str, ...] = ()

    def note_in(self, words: Words) -> str:
        """:attr:`note` in the table's language (a game that could not be replayed says why in English)."""
        _ = words.gettext
        if self.status is MoneyStatus.REFUNDED:
            return _("game {n} was cancelled: every payment is refunded (rule 9.3, BB-14)").format(n=self.number)
        if self.status is MoneyStatus.UNDECIDED:
            return _("game {n} is not over: its pot is still on the table and adds nothing yet").format(n=self.number)
        if self.status is MoneyStatus.PAID_OUT:
            return _("game {n}: the pot went to {names} (BB-10, BB-11)").format(
                n=self.number, names=names_in(self.winners, words)
            )
        return self.note


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
    from scoring.bargain_bin import BargainBinResult  # here: a night's screen, not the app's start, needs the game

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
    return replace(
        base,
        status=MoneyStatus.PAID_OUT,
        payments=payments,
        payouts=given,
        net=net,
        note=note,
        winners=tuple(result.winners),
    )


def ledger(night: Night, records: Mapping[str, Any]) -> Ledger:
    """The night's ledger, re-derived: ``records`` maps each session id of the night to its game record.

    Removing a game from the night and asking again gives the ledger without it (nothing is cached).
    """
    return ledger_of(night, replay(night, records))


def ledger_of(night: Night, played: Sequence[Played]) -> Ledger:
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

    def describe(self, fmt: MoneyFormat | None = None, words: Words | None = None) -> str:
        """``Ben pays Ann $2.50`` (``… paid`` once marked paid)."""
        if words is None:
            verb = "paid" if self.paid else "pays"
            return f"{self.payer} {verb} {self.receiver} {format_money(self.amount, fmt)}"
        _ = words.gettext
        said = _("{payer} paid {receiver} {money}") if self.paid else _("{payer} pays {receiver} {money}")
        return said.format(payer=self.payer, receiver=self.receiver, money=format_money(self.amount, fmt))


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

    def lines(self, fmt: MoneyFormat | None = None, words: Words | None = None) -> list[str]:
        """The settle-up as lines of text, under :data:`TITLE`."""
        _ = (words or ENGLISH).gettext
        body = [t.describe(fmt, words) + (" ✓" if t.paid else "") for t in self.transfers]
        return [_(TITLE), *(body or [_("Nobody owes anybody anything.")])]


def settle(night: Night, book: Ledger) -> Settlement:
    """The one settle-up of the night, in the fewest transfers.

    The payments marked paid are applied to the ledger's net first; what is left is settled by
    :func:`scoring.bargain_bin.settle_up`, which is exact (the fewest transfers is the number of players with a
    balance minus the most groups whose balances sum to zero) for up to 12 players with a balance.
    """
    from scoring.bargain_bin import settle_up  # here: a night's screen, not the app's start, needs the game

    balance = dict(book.net)
    for payment in night.paid:
        for name in (payment.payer, payment.receiver):
            balance.setdefault(name, 0)
        balance[payment.payer] += payment.amount
        balance[payment.receiver] -= payment.amount
    outstanding = tuple(Transfer(a, b, cents) for a, b, cents in settle_up(balance))
    paid = tuple(Transfer(p.payer, p.receiver, p.amount, paid=True) for p in night.paid)
    return Settlement(paid, outstanding, balance)
