"""The game-night service: one evening of several games, its ledger, its settle-up and its recap. No Flet in here.

:class:`NightService` keeps the nights of one data folder (``archive.nights``, :mod:`storage.nights`) and changes
them only through :class:`companion.night_model.Night`'s methods, so every refusal is in words (:class:`NightError`).
While a night is open, every game started through the :class:`~companion.session.SessionService` belongs to it
(the service hooks into :meth:`SessionService.start`); a game started outside a night can be added later. Money is
never stored: the ledger is re-derived from the games' records on every call (:func:`companion.night_ledger.ledger`).

>>> import tempfile, pathlib
>>> from companion.services import AppServices
>>> with AppServices.open(pathlib.Path(tempfile.mkdtemp())) as services:
...     night = services.nights.start("Friday", ["Ann", "Ben"])
...     table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
...     night = services.nights.add_entry(night.id, "Ann", "Ben", "2.50", "side bet")
...     services.nights.get(night.id).sessions == (table.id,), services.nights.settlement(night).lines()
(True, ['Who pays whom tonight', 'Ann pays Ben $2.50'])
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.i18n import Words
from companion.money import MoneyFormat
from companion.night_model import Night, NightError, check_night_id
from companion.session import SessionService, TableSession
from companion.settings import SettingsService
from storage import Archive, SessionSummary, StorageError
from storage.atomic import StorageWriteError, atomic_write_bytes, free_path
from storage.layout import EXPORTS
from storage.nights import NightStore

if TYPE_CHECKING:  # the ledger, the recap and its image are imported when a night's screen first shows them
    from companion.night_ledger import Ledger, Settlement
    from companion.night_recap import Recap

ENGLISH = Words.of("en")

_log = logging.getLogger(__name__)

MIN_PREFIX = 4
"""The shortest night-id prefix :meth:`NightService.resolve` accepts."""
_SLUG = re.compile(r"[^a-z0-9]+")


def default_name(moment: datetime | None = None, words: Words = ENGLISH) -> str:
    """The name a new night gets when none is typed: ``Game night, Fri 4 Dec`` (``Spieleabend, Fr. 4 Dez.``).

    >>> default_name(datetime(2026, 12, 4, 20, 0))
    'Game night, Fri 4 Dec'
    """
    when = moment or datetime.now()
    if words.code == "en":
        return f"Game night, {when:%a} {when.day} {when:%b}"
    from babel.dates import format_date

    day = format_date(when.date(), "EEE d MMM", locale=words.locale)
    return words.gettext("Game night, {day}").format(day=day)


def file_stem(night: Night) -> str:
    """A safe file name for a night's exports: ``night-friday-2026-12-04``.

    >>> file_stem(Night.start("Fri/day ♠", ["A", "B"], now="2026-12-04T19:00:00.000Z"))
    'night-fri-day-2026-12-04'
    """
    slug = _SLUG.sub("-", night.name.casefold()).strip("-")[:40] or "night"
    return f"night-{slug}-{night.started[:10]}"


@dataclass(frozen=True)
class NightGame:
    """One game of a night as the night screen lists it: its number, its summary (``None`` if it is gone)."""

    number: int
    session_id: str
    summary: SessionSummary | None


class NightService:
    """Every game night of one data folder; thread-safe (one lock for every change)."""

    def __init__(self, archive: Archive, sessions: SessionService, settings: SettingsService) -> None:
        self.archive = archive
        self.store: NightStore = archive.nights
        self.settings = settings
        self._lock = threading.RLock()
        self.last_problem: str | None = None
        """Why the last game started during a night could not be added to it (shown on the night's screen)."""
        self.ratings: Callable[[], Any] | None = None
        """What gives the archive's ratings (:class:`companion.ratings.RatingService`), when the recap is to show
        each player's change of rating over the night (a function: the ratings are made when first needed)."""
        sessions.on_start(self._game_started)

    # -- reading -------------------------------------------------------------------------------------------------

    @property
    def money(self) -> MoneyFormat:
        """The currency setting every amount is read and shown in."""
        return self.settings.current().money

    @property
    def problems(self) -> list[str]:
        """What could not be read from ``nights.json`` (a damaged file set aside, a newer night left untouched)."""
        return list(self.store.problems)

    def all(self) -> list[Night]:
        """Every night, the newest first."""
        out = []
        for doc in self.store.list():
            try:
                out.append(Night.from_doc(doc))
            except NightError as exc:  # the store checked it; a night the model refuses is skipped, in words
                _log.warning("night %s skipped: %s", doc.get("id"), exc)
        return out

    def get(self, night_id: str) -> Night:
        """One night; :class:`NightError` if there is none with this id."""
        if night_id not in self.store:
            raise NightError(f"there is no game night {str(night_id)[:64]!r}")
        return Night.from_doc(self.store.get(night_id))

    def resolve(self, wanted: str) -> Night:
        """The night with id ``wanted``, or the only one whose id starts with it (at least :data:`MIN_PREFIX`)."""
        if wanted in self.store:
            return self.get(wanted)
        matches = [n for n in self.all() if len(wanted) >= MIN_PREFIX and n.id.startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NightError(f"{wanted!r} is the start of {len(matches)} night ids; give more of it")
        raise NightError(f"there is no game night {wanted[:64]!r}")

    def current(self) -> Night | None:
        """The open night (the newest, should there be several), which new games join; ``None`` if none is open."""
        return next((n for n in self.all() if n.is_open), None)

    def night_of(self, session_id: str) -> Night | None:
        """The night a game belongs to, if any."""
        night_id = self.store.night_of(session_id)
        return self.get(night_id) if night_id is not None else None

    def games(self, night: Night) -> list[NightGame]:
        """The night's games in the order played, with their summaries."""
        summaries = {s.id: s for s in self.archive.list_sessions()}
        return [NightGame(n, sid, summaries.get(sid)) for n, sid in enumerate(night.sessions, start=1)]

    def candidates(self, night: Night, limit: int = 20) -> list[SessionSummary]:
        """Games that belong to no night, newest first: those that can be added to ``night`` later."""
        out = []
        for summary in self.archive.list_sessions():
            if summary.id not in night.sessions and self.store.night_of(summary.id) is None:
                out.append(summary)
                if len(out) >= limit:
                    break
        return out

    def records(self, night: Night) -> dict[str, Any]:
        """Each game's record by session id (a game no longer in the archive is left out: the recap says so)."""
        out: dict[str, Any] = {}
        for sid in night.sessions:
            try:
                out[sid] = self.archive.load_session(sid).record
            except StorageError:
                continue
        return out

    def ledger(self, night: Night) -> Ledger:
        """The night's money, re-derived from the records now."""
        from companion.night_ledger import ledger

        return ledger(night, self.records(night))

    def settlement(self, night: Night) -> Settlement:
        """Who pays whom tonight, in the fewest transfers."""
        from companion.night_ledger import settle

        return settle(night, self.ledger(night))

    def recap(self, night: Night, words: Words = ENGLISH) -> Recap:
        from companion.night_recap import recap

        out = recap(night, self.records(night), words)
        if self.ratings is not None:
            out = dataclasses.replace(out, rating_change=self.ratings().night_changes(night.sessions, out.players))
        return out

    def recap_text(self, night: Night, words: Words = ENGLISH) -> str:
        """The recap as plain text for a messenger, in the currency setting and the table's language."""
        from companion.night_recap import recap_text

        return recap_text(self.recap(night, words), self.money, words)

    def recap_png(self, night: Night, *, dark: bool = False, words: Words = ENGLISH) -> bytes:
        """The recap drawn as a PNG in the app's theme (``dark`` for the dark scheme) and the table's language."""
        from companion.night_image import recap_png

        return recap_png(self.recap(night, words), self.money, dark=dark, words=words)

    # -- changing ------------------------------------------------------------------------------------------------

    def _save(self, night: Night) -> Night:
        try:
            self.store.save(night.to_doc())
        except StorageError as exc:
            raise NightError(f"{night.name!r} could not be saved: {exc}") from None
        return night

    def _change(self, night_id: str, change: Any) -> Night:
        with self._lock:
            return self._save(change(self.get(night_id)))

    def start(self, name: str, players: Iterable[str], *, now: str | None = None) -> Night:
        """Start a night with the table's players; refused while another night is open (games would not know
        which night they belong to)."""
        with self._lock:
            current = self.current()
            if current is not None:
                raise NightError(f"{current.name!r} is still open: close it before starting another night")
            return self._save(Night.start(name, players, now=now))

    def add_game(self, night_id: str, session_id: str) -> Night:
        """Add a game (also one started outside the night); its players join the night. A game belongs to one
        night at most."""
        check_night_id(session_id, "a session id")
        try:
            players = self.archive.load_session(session_id).players
        except StorageError as exc:
            raise NightError(f"game {session_id[:8]} cannot be added: {exc}") from None
        with self._lock:
            other = self.store.night_of(session_id)
            if other is not None and other != night_id:
                raise NightError(f"game {session_id[:8]} already belongs to the night {self.get(other).name!r}")
            return self._save(self.get(night_id).add_game(session_id, players))

    def remove_game(self, night_id: str, session_id: str) -> Night:
        """Take a game out of the night (the game itself is kept); the ledger is re-derived without it."""
        return self._change(night_id, lambda n: n.remove_game(session_id))

    def rename(self, night_id: str, name: str) -> Night:
        return self._change(night_id, lambda n: n.rename(name))

    def close(self, night_id: str) -> Night:
        """Close the night: new games no longer join it; transfers can still be marked paid."""
        return self._change(night_id, lambda n: n.close())

    def reopen(self, night_id: str) -> Night:
        """Open a closed night again (refused while another night is open)."""
        with self._lock:
            current = self.current()
            if current is not None and current.id != night_id:
                raise NightError(f"{current.name!r} is open: close it before reopening another night")
            return self._save(self.get(night_id).reopen())

    def add_entry(
        self, night_id: str, payer: str, receiver: str, amount: int | str, note: str = "", *, include_payer: bool = True
    ) -> Night:
        """Add a ledger entry; ``receiver`` is a player or ``"split"``; ``amount`` text is read in the currency
        setting (:func:`companion.money.parse_money`). Refused in words: an unknown player, a zero or negative
        amount, more than two decimals."""
        fmt = self.money
        return self._change(
            night_id, lambda n: n.add_entry(payer, receiver, amount, note, fmt=fmt, include_payer=include_payer)
        )

    def remove_entry(self, night_id: str, entry_id: str) -> Night:
        return self._change(night_id, lambda n: n.remove_entry(entry_id))

    def mark_paid(self, night_id: str, payer: str, receiver: str, amount: int) -> Night:
        """Record that a transfer of the settle-up was paid."""
        return self._change(night_id, lambda n: n.mark_paid(payer, receiver, amount))

    def unmark_paid(self, night_id: str, payer: str, receiver: str, amount: int) -> Night:
        return self._change(night_id, lambda n: n.unmark_paid(payer, receiver, amount))

    def delete(self, night_id: str) -> None:
        """Forget a night (its games stay in the archive)."""
        with self._lock:
            try:
                self.store.delete(night_id)
            except StorageError as exc:
                raise NightError(str(exc)) from None

    def _game_started(self, session: TableSession) -> None:
        night = self.current()
        if night is None:
            return
        try:
            self.add_game(night.id, session.id)
        except NightError as exc:
            self.last_problem = f"The game started at {_clock()} was not added to {night.name!r}: {exc}"
            _log.warning("%s", self.last_problem)
        else:
            self.last_problem = None

    # -- export --------------------------------------------------------------------------------------------------

    def export(self, night_id: str) -> bytes:
        """The night and its games as one JSON export file (``companion import`` and the app read it)."""
        night = self.get(night_id)
        ids = [sid for sid in night.sessions if self.archive.has_session(sid)]
        try:
            return self.archive.export_sessions(ids, "json", nights=[night.id])
        except StorageError as exc:
            raise NightError(f"{night.name!r} could not be exported: {exc}") from None

    def save_to_exports(self, night_id: str, kind: str, *, dark: bool = False, words: Words = ENGLISH) -> Path:
        """Write the night's export (``json``), its recap as text (``txt``) or as an image (``png``) into the data
        folder's ``exports/``; returns the file written."""
        night = self.get(night_id)
        data = {
            "json": lambda: self.export(night_id),
            "txt": lambda: self.recap_text(night, words).encode("utf-8"),
            "png": lambda: self.recap_png(night, dark=dark, words=words),
        }
        if kind not in data:
            raise NightError(f"cannot export a night as {kind!r}: choose json, txt or png")
        folder = self.archive.data_dir / EXPORTS
        target = free_path(folder, lambda n: f"{file_stem(night)}-{n}.{kind}" if n else f"{file_stem(night)}.{kind}")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, data[kind]())
        except (OSError, StorageWriteError) as exc:
            raise NightError(f"the file could not be written to {folder}: {exc}") from None
        return target

    # -- across nights -------------------------------------------------------------------------------------------

    def stats(self) -> NightStats:
        """Statistics across every night (see :func:`night_stats`)."""
        pairs = [(night, self.recap(night)) for night in reversed(self.all())]
        return night_stats(pairs)


def _clock() -> str:
    return datetime.now().strftime("%H:%M")


# ------------------------------------------------------------------------------------------------------------------
# Statistics across nights


@dataclass(frozen=True)
class NightRow:
    """One night in the statistics."""

    id: str
    name: str
    started: str
    players: tuple[str, ...]
    games: int
    wins: dict[str, int]
    winners: tuple[str, ...]
    """Who won the most games that night (at least one); several on a tie."""
    money: dict[str, int]


@dataclass(frozen=True)
class HeadToHead:
    """Two players across the nights both played: on how many each won more games than the other, or as many."""

    first: str
    second: str
    first_ahead: int
    second_ahead: int
    level: int

    @property
    def nights(self) -> int:
        return self.first_ahead + self.second_ahead + self.level


@dataclass(frozen=True)
class NightStats:
    """Nights played and won per player, money night by night, head-to-head across nights."""

    rows: tuple[NightRow, ...]
    """Every night, the oldest first."""
    played: dict[str, int]
    won: dict[str, int]
    money_over_time: dict[str, list[int]]
    """Each player's running money total after each night (in :attr:`rows` order; unchanged on a night missed)."""
    head_to_head: tuple[HeadToHead, ...] = field(default_factory=tuple)

    @property
    def most_won(self) -> tuple[str, ...]:
        """Who won the most nights (at least one)."""
        top = max(self.won.values(), default=0)
        return tuple(name for name, n in self.won.items() if n == top and top > 0)


def night_stats(nights: Sequence[tuple[Night, Recap]]) -> NightStats:
    """Statistics across ``nights`` (each with its recap, the oldest first).

    A night is won by whoever won the most of its games; a tie gives it to each of them.

    >>> from companion.night_ledger import Settlement
    >>> from companion.night_recap import Recap
    >>> def r(wins, money): return Recap("n", "", None, tuple(wins), (), wins, money, Settlement((), (), {}), ())
    >>> a = Night.start("One", ["Ann", "Ben"], night_id="a", now="2026-12-01T19:00:00Z")
    >>> b = Night.start("Two", ["Ann", "Ben", "Cat"], night_id="b", now="2026-12-08T19:00:00Z")
    >>> s = night_stats([(a, r({"Ann": 2, "Ben": 1}, {"Ann": 500, "Ben": -500})),
    ...                  (b, r({"Ann": 1, "Ben": 1, "Cat": 0}, {"Ann": -200, "Ben": 0, "Cat": 200}))])
    >>> s.played, s.won, s.most_won
    ({'Ann': 2, 'Ben': 2, 'Cat': 1}, {'Ann': 2, 'Ben': 1, 'Cat': 0}, ('Ann',))
    >>> s.money_over_time
    {'Ann': [500, 300], 'Ben': [-500, -500], 'Cat': [0, 200]}
    >>> [(h.first, h.second, h.first_ahead, h.second_ahead, h.level) for h in s.head_to_head]
    [('Ann', 'Ben', 1, 0, 1), ('Ann', 'Cat', 1, 0, 0), ('Ben', 'Cat', 1, 0, 0)]
    """
    rows = []
    names: list[str] = []
    for night, rec in nights:
        top = max(rec.wins.values(), default=0)
        winners = tuple(name for name in rec.players if rec.wins.get(name, 0) == top and top > 0)
        rows.append(
            NightRow(
                night.id, night.name, night.started, rec.players, len(rec.games), dict(rec.wins), winners, rec.money
            )
        )
        names.extend(name for name in rec.players if name not in names)
    played = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    running = dict.fromkeys(names, 0)
    over_time: dict[str, list[int]] = {name: [] for name in names}
    pairs: dict[tuple[str, str], list[int]] = {}
    for row in rows:
        for name in row.players:
            played[name] += 1
        for name in row.winners:
            won[name] += 1
        for name in names:
            running[name] += row.money.get(name, 0)
            over_time[name].append(running[name])
        seated = [n for n in names if n in row.players]
        for i, a in enumerate(seated):
            for b in seated[i + 1 :]:
                tally = pairs.setdefault((a, b), [0, 0, 0])
                wa, wb = row.wins.get(a, 0), row.wins.get(b, 0)
                tally[0 if wa > wb else 1 if wb > wa else 2] += 1
    h2h = tuple(HeadToHead(a, b, *t) for (a, b), t in pairs.items())
    return NightStats(tuple(rows), played, won, over_time, h2h)


__all__ = [
    "HeadToHead",
    "NightGame",
    "NightRow",
    "NightService",
    "NightStats",
    "default_name",
    "file_stem",
    "night_stats",
]
