"""History: find past sessions (filter by game, player and date, search), replay one hand by hand with the
standings and the "why" of every hand, and read its edit log. No Flet in here. A hand (a play-off hand, a tie-break
round...) is corrected with the game's own entry panel, as at the table: each replay step names the entry it
corrects (:attr:`ReplayStep.entry`).

The replay goes through :mod:`scoring`: the standings after hand *n* are those of the record cut after hand *n*,
so they are exactly what the table saw at that moment (bonuses and end-of-game rules included).

>>> hands = [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}, {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D"}}]
>>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": hands}
>>> steps = replay(record).steps
>>> [(s.label, s.points["Ann"], s.points["Ben"]) for s in steps]
[('Hand 1', 2, 0), ('Hand 2', 0, 3)]
>>> [(st.place, st.player, st.total) for st in steps[1].standings]
[(1, 'Ben', 3), (2, 'Ann', 2)]
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path as FsPath
from typing import Any

from companion import formats
from companion.entry import EntryTarget, entry_label
from companion.i18n import N_, Words
from companion.players import Resolver
from companion.stats import game_name
from companion.uploads import UPLOADS as UPLOADS
from companion.uploads import clear_uploads, uploads_folder
from scoring import Result, ScoringError, Standing, Verdict, find_game, standings
from scoring.cards import Card
from scoring.parts import EXTRA_PARTS, Part, entries, record_before
from scoring.why import Cards, Names, Note, render
from storage import Archive, ImportReport, LogEntry, SessionStatus, SessionSummary
from storage.atomic import StorageWriteError, atomic_write_bytes, free_path
from storage.backup import CheckedBackup, check_backup
from storage.layout import EXPORTS

ENGLISH = Words.of("en")
"""The words when no language is given (English, as the app has always said it)."""

PAGE_SIZE = 12
"""Rows shown at once in a long list (History, Continue, the ratings); "Show more" adds as many again. A screen then
sends the same few rows whether the archive holds 10 sessions or 10,000. With 10,000 sessions, 12 rows instead of 25
took History's tap from 310 / 434 to 237 / 375 ms (median / p95, ``python -m bench.screens_bench --only History``,
2026-12-07)."""

STATUS_LABELS = {
    SessionStatus.IN_PROGRESS: N_("in progress"),
    SessionStatus.PENDING: N_("tie to settle"),
    SessionStatus.FINISHED: N_("finished"),
    SessionStatus.CANCELLED: N_("cancelled"),
}
"""Each state in English (what a search matches); a screen shows ``words.gettext(label)``."""
TO_PLAY = {
    Part.PLAYOFF: N_("play-off to play"),
    Part.TIEBREAK: N_("tie-break to play"),
    Part.SUDDEN_DEATH: N_("sudden death to play"),
}
"""What an unfinished game waits for, by the extra part its rules prescribe for a tie."""
ENGLISH = Words.of("en")


class DateRangeError(ValueError):
    """A date filter that cannot be read, or that ends before it starts; ``why`` is the message as data (a
    :class:`scoring.why.Note`), for a screen to say in the table's language."""

    def __init__(self, note: Note) -> None:
        super().__init__(render(note))
        self.why = note


# --- times -----------------------------------------------------------------------------------------------------


def parse_time(stamp: str) -> datetime:
    """An ISO UTC time as stored (``2026-11-27T20:07:00.000Z``) as an aware datetime.

    >>> parse_time("2026-11-27T20:07:05.123Z").isoformat()
    '2026-11-27T20:07:05.123000+00:00'
    """
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def local_time(stamp: str, tz: tzinfo | None = None) -> datetime:
    """A stored time in ``tz`` (default: this computer's time zone)."""
    moment = parse_time(stamp)
    return moment.astimezone(tz) if tz is not None else moment.astimezone()


def when_text(stamp: str, tz: tzinfo | None = None, words: Words = ENGLISH) -> str:
    """``Fri 27 Nov 2026, 20:07`` (in English; Babel's way in another language: :func:`companion.formats.when`).

    >>> from datetime import UTC
    >>> when_text("2026-11-27T20:07:05.123Z", UTC)
    'Fri 27 Nov 2026, 20:07'
    """
    moment = local_time(stamp, tz)
    if words.locale.language == "en":
        return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M}"
    return formats.when(moment, words)


def parse_date(text: str) -> date | None:
    """A date typed as ``2026-11-27`` (``None`` for empty text; :class:`DateRangeError` if unreadable).

    >>> parse_date(" 2026-11-27 "), parse_date("")
    (datetime.date(2026, 11, 27), None)
    """
    text = text.strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        said = N_("{text} is not a date; write it as year-month-day, e.g. 2026-11-27")
        raise DateRangeError(Note.of(said, text=repr(text))) from None


# --- the list --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """What the History list is limited to. Empty fields limit nothing; dates are local and inclusive."""

    game: str | None = None
    player: str | None = None
    """A player's current name: their games under earlier names are included."""
    since: date | None = None
    until: date | None = None
    search: str = ""
    """Words that must all appear in the title, game, players, winners, status or date."""

    def verify(self) -> None:
        """Raise :class:`DateRangeError` when the range ends before it starts."""
        if self.since is not None and self.until is not None and self.until < self.since:
            said = N_("the range ends ({until}) before it starts ({since})")
            raise DateRangeError(Note.of(said, until=str(self.until), since=str(self.since)))


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One line of the History list."""

    id: str
    title: str
    """The session's title, or the game's name."""
    game: str
    game_name: str
    when: str
    players: tuple[str, ...]
    status: SessionStatus
    status_label: str
    winners: tuple[str, ...]
    hands: int
    words: Words = ENGLISH
    """The language of :attr:`when`, :attr:`status_label` and :attr:`subtitle`."""

    @property
    def subtitle(self) -> str:
        """``Fri 27 Nov 2026, 20:07 · Ann, Ben, Cat · won by Ben``."""
        _ = self.words.gettext
        if self.status is SessionStatus.FINISHED:
            end = _("won by {names}").format(names=", ".join(self.winners)) if self.winners else _("finished")
        else:
            end = self.status_label
        return f"{self.when} · {', '.join(self.players)} · {end}"


def row_of(summary: SessionSummary, tz: tzinfo | None = None, words: Words = ENGLISH) -> SessionRow:
    """The History row of a session, in ``words``' language.

    >>> summary = SessionSummary("abc", "jokers-kill", None, ("Ann", "Ben"), SessionStatus.FINISHED, ("Ben",),
    ...                          "2026-11-27T20:00:00Z", "2026-11-27T20:07:00Z", 12, "f")
    >>> from datetime import UTC
    >>> row_of(summary, UTC).subtitle
    'Fri 27 Nov 2026, 20:07 · Ann, Ben · won by Ben'
    >>> row_of(summary, UTC, Words.of("de")).subtitle
    'Fr., 27. Nov. 2026, 20:07 · Ann, Ben · gewonnen von Ben'
    """
    name = game_name(summary.game)
    return SessionRow(
        id=summary.id,
        title=summary.title or name,
        game=summary.game,
        game_name=name,
        when=when_text(summary.updated_at, tz, words),
        players=summary.players,
        status=summary.status,
        status_label=words.gettext(STATUS_LABELS[summary.status]),
        winners=summary.winners,
        hands=summary.hands,
        words=words,
    )


def _counted(total: int, noun: str, words: Words) -> str:
    n = formats.count(total, words)
    if noun == "session":
        return words.ngettext("{n} session", "{n} sessions", total).format(n=n)
    if noun == "unfinished game":
        return words.ngettext("{n} unfinished game", "{n} unfinished games", total).format(n=n)
    if noun == "player":
        return words.ngettext("{n} player", "{n} players", total).format(n=n)
    if noun == "pairing":
        return words.ngettext("{n} pairing", "{n} pairings", total).format(n=n)
    return f"{n} {noun}{'s' if total != 1 else ''}"  # a list no screen shows yet: English


def count_text(total: int, shown: int, noun: str, first: str = "newest", words: Words = ENGLISH) -> str:
    """How many rows a list has, and how many it shows when that is fewer (``noun`` is singular; ``first`` says
    which rows come first), in ``words``' language.

    >>> count_text(2, 2, "session"), count_text(1, 1, "session"), count_text(0, 0, "session")
    ('2 sessions', '1 session', '0 sessions')
    >>> count_text(4390, 25, "unfinished game")
    '4390 unfinished games, showing the newest 25'
    >>> count_text(40, 25, "player", "first")
    '40 players, showing the first 25'
    >>> count_text(4390, 25, "unfinished game", words=Words.of("de"))
    '4.390 unfertige Spiele, die neuesten 25 werden gezeigt'
    """
    counted = _counted(total, noun, words)
    if total <= shown:
        return counted
    if first == "first":
        showing = words.gettext("{counted}, showing the first {shown}")
    else:
        showing = words.gettext("{counted}, showing the newest {shown}")
    return showing.format(counted=counted, shown=formats.count(shown, words))


def page_end(total: int, shown: int, size: int = PAGE_SIZE) -> int:
    """Where the rows shown end after one more page ("Show more" on a list showing ``shown`` of ``total``).

    >>> page_end(30, 0), page_end(30, 12), page_end(30, 24), page_end(30, 30), page_end(3, 0)
    (12, 24, 30, 30, 3)
    """
    return min(total, max(0, shown) + size)


def unfinished_row(summary: SessionSummary, words: Words = ENGLISH) -> tuple[str, str]:
    """Title and subtitle of an unfinished session's row on the Continue screen, in ``words``' language.

    >>> unfinished_row(SessionSummary("abc", "jokers-kill", None, ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                               "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 12, "f"))
    ('Jokers Kill: Ann, Ben', '12 hands · play-off to play · last change 2026-01-02 10:30')
    >>> unfinished_row(SessionSummary("abd", "bargain-bin", "Friday", ("Ann", "Ben", "Cat", "Dan"),
    ...                               SessionStatus.IN_PROGRESS, (), "2026-01-02T10:00:00Z",
    ...                               "2026-01-02T10:30:00Z", 1, "g"))
    ('Friday', '1 hand · in progress · last change 2026-01-02 10:30')
    >>> unfinished_row(SessionSummary("abe", "1111-9999", "Sat", ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                               "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 3, "f"))[1]
    '3 hands · sudden death to play · last change 2026-01-02 10:30'
    >>> unfinished_row(SessionSummary("abe", "1111-9999", "Sat", ("Ann", "Ben"), SessionStatus.PENDING, (),
    ...                               "2026-01-02T10:00:00Z", "2026-01-02T10:30:00Z", 3, "f"), Words.of("sv"))[1]
    '3 givar · sudden death återstår · senast ändrad 2026-01-02 10:30'
    """
    _ = words.gettext
    try:
        game = find_game(summary.game)
    except ScoringError:
        name, extra = summary.game, None
    else:
        name, extra = game.name, game.extra_part
    title = summary.title or f"{name}: {', '.join(summary.players)}"
    state = _(STATUS_LABELS[SessionStatus.IN_PROGRESS])
    if summary.status is SessionStatus.PENDING:  # the extra part the game's rules prescribe for a tie
        state = _(TO_PLAY.get(extra if extra is not None else Part.TIEBREAK, TO_PLAY[Part.TIEBREAK]))
    when = summary.updated_at.replace("T", " ")[:16]
    hands = words.ngettext("{n} hand", "{n} hands", summary.hands).format(n=formats.count(summary.hands, words))
    return title, _("{hands} · {state} · last change {when}").format(hands=hands, state=state, when=when)


_MEMO_LIMIT = 50_000
_SEARCH_TEXT: dict[tuple[str, str, str], str] = {}
_LOCAL_DAY: dict[tuple[str, str], date] = {}


def _local_day(stamp: str, tz: tzinfo | None) -> date:
    key = (stamp, str(tz))
    day = _LOCAL_DAY.get(key)
    if day is None:
        if len(_LOCAL_DAY) > _MEMO_LIMIT:
            _LOCAL_DAY.clear()
        day = _LOCAL_DAY[key] = local_time(stamp, tz).date()
    return day


def _search_text(s: SessionSummary, tz: tzinfo | None) -> str:
    """Everything a search looks at in one summary, lower-cased (remembered: typing a search re-filters 10,000)."""
    key = (s.id, s.updated_at, str(tz))
    text = _SEARCH_TEXT.get(key)
    if text is None:
        if len(_SEARCH_TEXT) > _MEMO_LIMIT:
            _SEARCH_TEXT.clear()
        moment = local_time(s.updated_at, tz)
        parts = [s.title or "", s.game, game_name(s.game), *s.players, *s.winners, STATUS_LABELS[s.status]]
        parts.append(moment.strftime("%Y-%m-%d %a %A %b %B"))
        text = _SEARCH_TEXT[key] = " ".join(parts).casefold()
    return text


def filter_sessions(
    summaries: Iterable[SessionSummary],
    flt: HistoryFilter,
    *,
    resolve: Callable[[str], str] | None = None,
    tz: tzinfo | None = None,
) -> list[SessionSummary]:
    """The summaries that pass ``flt``, newest first (``resolve`` maps a recorded name to the current name)."""
    flt.verify()
    words = [w.casefold() for w in flt.search.split()]
    wanted_player = flt.player.casefold() if flt.player else None
    out: list[SessionSummary] = []
    needs_names = resolve is not None and (wanted_player is not None or bool(words))
    for s in summaries:
        if flt.game is not None and s.game != flt.game:
            continue
        names = [resolve(p) for p in s.players] if needs_names and resolve is not None else s.players
        if wanted_player is not None and all(n.casefold() != wanted_player for n in names):
            continue
        if flt.since is not None or flt.until is not None:
            day = _local_day(s.updated_at, tz)
            if (flt.since is not None and day < flt.since) or (flt.until is not None and day > flt.until):
                continue
        if words:
            text = _search_text(s, tz)
            if needs_names:
                text += " " + " ".join(names).casefold()
            if not all(w in text for w in words):
                continue
        out.append(s)
    out.sort(key=lambda s: (s.updated_at, s.id), reverse=True)
    return out


class SessionLists:
    """The lists that History and Continue open with, remembered until the archive changes: opening either screen
    again (another tab, a reload, Back) on an unchanged archive lists and filters nothing. Thread-safe.

    The archive's :attr:`~storage.Archive.generation` says when it changed; every filter over the whole archive
    (game, player, dates, search) is still computed over all of it, once per archive state, and the last few are
    kept (a search typed letter by letter makes one each).

    >>> import tempfile, pathlib
    >>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
    >>> lists = SessionLists(archive)
    >>> lists.filtered(HistoryFilter()) is lists.filtered(HistoryFilter()), lists.unfinished()
    (True, [])
    >>> archive.close()
    """

    KEEP = 16
    """Filtered lists kept per archive state."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self._lock = threading.Lock()
        self._generation: int | None = None
        self._filtered: dict[tuple[HistoryFilter, tuple[tuple[str, str], ...]], list[SessionSummary]] = {}
        self._unfinished: list[SessionSummary] | None = None
        self._all: list[SessionSummary] | None = None

    def _current(self) -> None:
        """Forget what was remembered if the archive changed since (call with the lock held)."""
        generation = self.archive.generation
        if generation != self._generation:
            self._generation = generation
            self._filtered.clear()
            self._unfinished = None
            self._all = None

    def _every(self) -> list[SessionSummary]:
        if self._all is None:
            self._all = self.archive.list_sessions()
        return self._all

    def filtered(self, flt: HistoryFilter, aliases: Mapping[str, str] | None = None) -> list[SessionSummary]:
        """:func:`filter_sessions` over the whole archive, names resolved through ``aliases`` (earlier name →
        current name); :class:`DateRangeError` for a range that ends before it starts. Do not change the list."""
        flt.verify()
        names = tuple(sorted((aliases or {}).items()))
        key = (flt, names)
        with self._lock:
            self._current()
            found = self._filtered.get(key)
            if found is None:
                resolve = Resolver(dict(names)) if names else None
                found = filter_sessions(self._every(), flt, resolve=resolve)
                if len(self._filtered) >= self.KEEP:
                    self._filtered.pop(next(iter(self._filtered)))
                self._filtered[key] = found
            return found

    def every(self) -> list[SessionSummary]:
        """Every session, remembered until the archive changes (the seasons' years come from it). Do not change
        the list."""
        with self._lock:
            self._current()
            return self._every()

    def unfinished(self) -> list[SessionSummary]:
        """The sessions still being played (in progress or pending an extra part), newest first. Do not change
        the list."""
        with self._lock:
            self._current()
            if self._unfinished is None:
                wanted = (SessionStatus.IN_PROGRESS, SessionStatus.PENDING)
                self._unfinished = [s for s in self._every() if s.status in wanted]
            return self._unfinished


# --- replay ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One hand (or one entry of the extra part) as the table saw it."""

    label: str
    """``Hand 3``, ``Play-off hand 1``, ``Tie-break round 1``, ``Sudden-death hand 1``."""
    index: int | None
    """The hand's place in the record's ``hands`` (0-based), or ``None`` for an entry of the extra part."""
    entered: str
    """What was entered, in words (``up 9♠; cards Ann 4♥, Ben 7♦``)."""
    points: dict[str, int]
    notes: tuple[str, ...]
    """The "why": every rule that decided something in this hand."""
    standings: tuple[Standing, ...]
    """The standings after this entry (:func:`scoring.standings`; during the extra part they show its progress)."""
    entry: EntryTarget | None = None
    """The entry of the record this step shows, to correct it (``hands`` 2, ``tiebreak`` 0...)."""
    why: tuple[Note, ...] = ()
    """:attr:`notes` as data (:class:`scoring.why.Note`), to say them in the table's language."""

    raw: Any = None
    """The entry as the record holds it (what :attr:`entered` says), to say it in the table's language."""

    def label_in(self, words: Words) -> str:
        """:attr:`label` in the table's language (``Spiel 3`` in German).

        >>> hand = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}
        >>> step = replay({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [hand]}).steps[0]
        >>> step.label_in(Words.of("de")), step.label_in(ENGLISH), step.said_in(ENGLISH)
        ('Spiel 1', 'Hand 1', 'hand 1')
        """
        text = self.said_in(words)
        return text[:1].upper() + text[1:]

    def said_in(self, words: Words) -> str:
        """The step's name inside a sentence (``hand 3``; German ``Spiel 3``)."""
        if self.entry is None or self.entry.index is None:
            return self.label.lower()
        return entry_label(words, self.entry.part.word, self.entry.index)

    def entered_in(self, words: Words) -> str:
        """:attr:`entered` in the table's language and card letters."""
        return _said(self.raw, words) if self.raw is not None else self.entered

    def notes_in(self, words: Words) -> tuple[str, ...]:
        """:attr:`notes` in the table's language (as they are when only the English was kept)."""
        return _notes_in(self.why, self.notes, words)


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole session, hand by hand, and how it ended."""

    game: str
    players: tuple[str, ...]
    steps: tuple[ReplayStep, ...]
    final: tuple[Standing, ...]
    """The standings at the end (:func:`scoring.standings`)."""
    winners: tuple[str, ...]
    finished: bool
    cancelled: bool
    pending: Part | None
    """The extra part still to play (a play-off...), if any."""
    notes: tuple[str, ...]
    """How the game ended, when the rules say something about it."""
    verdict: Verdict | None = None
    """Why the game was decided (:attr:`scoring.Result.verdict`): a headline and one sentence per winner."""
    error: str | None = None
    """Why the record could not be replayed (a damaged record); the steps are then empty."""
    why: tuple[Note, ...] = ()
    """:attr:`notes` as data (:class:`scoring.why.Note`)."""

    @property
    def outcome_text(self) -> str:
        """``Ben won``, ``Ann and Cat won``, ``cancelled``, ``play-off to play``, ``in progress``."""
        return self.outcome_in(ENGLISH)

    def outcome_in(self, words: Words) -> str:
        """:attr:`outcome_text` in the table's language.

        >>> rep = replay({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": []})
        >>> rep.outcome_in(ENGLISH), rep.outcome_in(Words.of("de"))
        ('in progress', 'läuft')
        """
        _ = words.gettext
        if self.error is not None:
            return _("cannot be replayed")
        if self.cancelled:
            return _("cancelled: nobody won")
        if self.finished:
            if not self.winners:
                return _("finished")
            names = words.note(Note.of("{names}", names=Names.of(self.winners)))
            return words.ngettext("{names} won", "{names} won", len(self.winners)).format(names=names)
        if self.pending is not None:
            return _(TO_PLAY[self.pending]) if self.pending in TO_PLAY else f"{self.pending.whole} to play"
        return _("in progress")

    def notes_in(self, words: Words) -> tuple[str, ...]:
        """:attr:`notes` in the table's language."""
        return _notes_in(self.why, self.notes, words)

    def verdict_in(self, words: Words) -> tuple[str, list[str]] | None:
        """The verdict's headline and its sentences (one per winner) in the table's language; ``None`` without
        one."""
        verdict = self.verdict
        if verdict is None:
            return None
        if verdict.headline_why is None:
            return verdict.headline, list(verdict.reasons.values())
        reasons = [
            words.note(verdict.reasons_why[name]) if name in verdict.reasons_why else reason
            for name, reason in verdict.reasons.items()
        ]
        return words.note(verdict.headline_why), reasons


def _notes_in(why: tuple[Note, ...], notes: tuple[str, ...], words: Words) -> tuple[str, ...]:
    """Notes in the table's language from their data, or as written when only the English was kept."""
    return tuple(words.note(note) for note in why) if len(why) == len(notes) else notes


ENTRY_WORDS = {
    "up": N_("up"),
    "cards": N_("cards"),
    "card": N_("card"),
    "void": N_("void"),
    "plays": N_("plays"),
    "to": N_("to"),
    "by": N_("by"),
    "bank": N_("bank"),
    "piles": N_("piles"),
    "ranked_valuable": N_("ranked valuable"),
    "loss_suits": N_("loss suits"),
    "ghost": N_("ghost"),
    "buried": N_("buried"),
    "dealer": N_("dealer"),
    "outcome": N_("outcome"),
    "table": N_("table"),
    "numbers": N_("numbers"),
    "first_triple": N_("first triple"),
    "scores": N_("scores"),
    "override": N_("override"),
    "status": N_("status"),
}
"""The words of an entry's record keys, as History says what was entered (``first_triple``: ``first triple``)."""
_YES, _NO, _NONE = N_("yes"), N_("no"), N_("none")


def _key_text(key: str, words: Words) -> str:
    return words.gettext(ENTRY_WORDS[key]) if key in ENTRY_WORDS else key.replace("_", " ")


def _card_text(value: Any, words: Words = ENGLISH) -> str:
    if isinstance(value, str):
        try:
            card = Card.parse(value)
        except ValueError:
            return value
        # its canonical code: a record may spell a card "10h" or "7♣", which the scoring accepts too
        return words.note(Note.of("{card}", card=Cards.of([str(card)])))
    if isinstance(value, list):
        return " ".join(_card_text(v, words) for v in value) if value else words.gettext(_NONE)
    if isinstance(value, bool):
        return words.gettext(_YES if value else _NO)
    if value is None:
        return words.gettext(_NONE)
    return str(value)


def describe_entry(entry: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """What was entered for a hand, in words (in ``words``' language and card letters).

    >>> describe_entry({"up": "9S", "cards": {"Ann": "4H", "Ben": "QD"}})
    'up 9♠; cards Ann 4♥, Ben Q♦'
    >>> describe_entry({"up": "9S", "cards": {"Ann": "4H", "Ben": "QD"}}, Words.of("de"))
    'Aufgedeckt 9♠; Karten Ann 4♥, Ben D♦'
    >>> describe_entry({"up": "9s", "cards": {"Ann": "10h", "Ben": "Q♦"}})  # as a record may spell them
    'up 9♠; cards Ann 10♥, Ben Q♦'
    >>> describe_entry({"table": "4239", "numbers": {"Ann": "5278"}, "first_triple": "Ben"})
    'table 4239; numbers Ann 5278; first triple Ben'
    """
    parts = []
    for key, value in entry.items():
        label = _key_text(key, words)
        if isinstance(value, Mapping):
            inner = ", ".join(f"{k} {_card_text(v, words)}" for k, v in value.items())
            parts.append(f"{label} {inner}")
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            inner = " / ".join(
                ", ".join(f"{_key_text(k, words)} {_card_text(v, words)}" for k, v in item.items()) for item in value
            )
            parts.append(f"{label} {inner}")
        else:
            parts.append(f"{label} {_card_text(value, words)}")
    return "; ".join(parts)


def _score(record: Mapping[str, Any]) -> Result:
    return find_game(str(record.get("game"))).score(dict(record))


def _said(entry: Any, words: Words = ENGLISH) -> str:
    return describe_entry(entry, words) if isinstance(entry, Mapping) else str(entry)


def _title(part: Part, index: int) -> str:
    """``Hand 3``, ``Play-off hand 1``, ``Tie-break round 1``, ``Sudden-death hand 2`` (the table's hand list says
    the same)."""
    label = part.label(index)
    return label[:1].upper() + label[1:]


def replay(record: Mapping[str, Any]) -> Replay:
    """Replay a game record hand by hand through the rules (never raises for a bad record: see ``error``).

    The standings of every step are :func:`scoring.standings` of the record cut after that entry, so History
    ranks a game exactly as the table and Statistics do. JK-E11: Ben and Cat tie on 12; Ben wins the play-off:

    >>> import json, pathlib
    >>> case = pathlib.Path(__file__).parents[1] / "tests" / "cases" / "jokers-kill" / "14-playoff-first-to-three.json"
    >>> rep = replay(json.loads(case.read_text())["record"])
    >>> [(s.place, s.player, s.progress) for s in rep.final]
    [(1, 'Ben', '3 play-off wins'), (2, 'Cat', '1 play-off win'), (3, 'Ann', None)]
    >>> print(rep.verdict.headline)
    Ben wins the play-off, first to win 3 play-off hands, after tying for the most points with 12.
    >>> rep.steps[13].label, [(s.place, s.player, s.progress) for s in rep.steps[13].standings]
    ('Play-off hand 1', [(1, 'Ben', '1 play-off win'), (1, 'Cat', '0 play-off wins'), (3, 'Ann', None)])
    """
    players = tuple(str(p) for p in record.get("players", ()) if isinstance(p, str))
    game = str(record.get("game", ""))
    try:
        full = _score(record)
    except ScoringError as exc:
        where = f" ({exc.path})" if exc.path else ""
        return Replay(game, players, (), (), (), False, False, None, (), error=f"{exc.message}{where}")
    hands = entries(record, Part.HANDS)
    extra = [(part, entries(record, part)) for part in EXTRA_PARTS]
    extra = [(part, made) for part, made in extra if made]
    steps: list[ReplayStep] = []
    for n, entry in enumerate(hands):
        is_last = n == len(hands) - 1 and not extra
        result = full if is_last else _score(record_before(record, Part.HANDS, n + 1))
        hand = result.hands[n]
        steps.append(
            ReplayStep(
                label=_title(Part.HANDS, n),
                index=n,
                entered=_said(entry),
                points=dict(hand.points),
                notes=tuple(hand.notes),
                standings=tuple(standings(result)),
                entry=EntryTarget(Part.HANDS, n),
                why=tuple(hand.why),
                raw=entry,
            )
        )
    for part, made in extra:
        scored = _part_results(full, part)
        for n, entry in enumerate(made):
            is_last = n == len(made) - 1
            result = full if is_last else _score(record_before(record, part, n + 1))
            points, why, notes = scored[n] if n < len(scored) else ({}, (), ())
            steps.append(
                ReplayStep(
                    label=_title(part, n),
                    index=None,
                    entered=_said(entry),
                    points=points,
                    notes=why,
                    standings=tuple(standings(result)),
                    entry=EntryTarget(part, n),
                    why=notes,
                    raw=entry,
                )
            )
    return Replay(
        game=game,
        players=tuple(full.players),
        steps=tuple(steps),
        final=tuple(standings(full)),
        winners=tuple(full.winners),
        finished=full.finished,
        cancelled=full.cancelled,
        pending=full.pending.part if full.pending is not None else None,
        notes=tuple(_game_notes(full)),
        verdict=full.verdict,
        why=tuple(_game_why(full)),
    )


def _game_notes(result: Result) -> list[str]:
    """The notes a game's result keeps about the game as a whole (Jokers Kill, Feast and Famine)."""
    from scoring.feast_and_famine import FeastAndFamineResult  # the games' modules: with a result, not at start
    from scoring.jokers_kill import JokersKillResult

    if isinstance(result, JokersKillResult | FeastAndFamineResult):
        return list(result.notes)
    return []


def _game_why(result: Result) -> list[Note]:
    """:func:`_game_notes` as data (:class:`scoring.why.Note`)."""
    from scoring.feast_and_famine import FeastAndFamineResult  # the games' modules: with a result, not at start
    from scoring.jokers_kill import JokersKillResult

    if isinstance(result, JokersKillResult | FeastAndFamineResult):
        return list(result.why)
    return []


def _part_results(result: Result, part: Part) -> list[tuple[dict[str, int], tuple[str, ...], tuple[Note, ...]]]:
    """(points, notes, the notes as data) of every entry of an extra part, read off the game's typed result."""
    from scoring.feast_and_famine import FeastAndFamineResult  # the games' modules: with a result, not at start
    from scoring.jokers_kill import JokersKillResult
    from scoring.ones_to_nines import OnesToNinesResult

    if part is Part.PLAYOFF and isinstance(result, JokersKillResult):
        return [(dict(hand.points), tuple(hand.notes), tuple(hand.why)) for hand in result.playoff or []]
    if part is Part.SUDDEN_DEATH and isinstance(result, OnesToNinesResult):
        return [(dict(hand.points), tuple(hand.notes), tuple(hand.why)) for hand in result.sudden_death_hands]
    if part is Part.TIEBREAK and isinstance(result, FeastAndFamineResult):
        notes, why = result.tiebreak_notes, result.tiebreak_why
        return [
            (dict(points), tuple(notes[n]) if n < len(notes) else (), tuple(why[n]) if n < len(why) else ())
            for n, points in enumerate(result.tiebreaks)
        ]
    return []


# --- the edit log ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EditLine:
    """One line of a session's edit log, for people: ``hand 3 corrected at 21:07: cards Ben 7♥ → 7♦``."""

    at: datetime
    text: str
    correction: bool
    """Whether this line changed an earlier hand (a correction, an undo or redo of one, a removal)."""


_HEAD = re.compile(r"^(?P<head>[^:]+?)(?::\s*(?P<rest>.*))?$", re.S)
_ENTRY_HEAD = re.compile(r"^(?P<word>[a-z -]+?) (?P<n>\d+) (?P<verb>entered|corrected|removed)$")
_VERBS = {"entered": N_("{entry} entered"), "corrected": N_("{entry} corrected"), "removed": N_("{entry} removed")}
_HEADS = {
    "undo": N_("undo"),
    "redo": N_("redo"),
    "imported": N_("imported"),
    "session started": N_("session started"),
    "hands set": N_("hands set"),
    "rounds set": N_("rounds set"),
    "play-off hands set": N_("play-off hands set"),
    "tie-break rounds set": N_("tie-break rounds set"),
    "sudden-death hands set": N_("sudden-death hands set"),
}
"""The edit log's own words (the log keeps them in English, as they were written)."""
_FROM = re.compile(r"^from (?P<name>.+)$", re.S)


def _head_in(head: str, words: Words) -> str:
    """The head of a log line (``hand 3 corrected``, ``undo``) in the table's language."""
    if words.code == "en":
        return head
    if head in _HEADS:
        return words.gettext(_HEADS[head])
    match = _ENTRY_HEAD.match(head)
    if match is None:
        return head
    entry = entry_label(words, match.group("word"), int(match.group("n")) - 1)
    return words.gettext(_VERBS[match.group("verb")]).format(entry=entry)


def _detail_in(detail: str, words: Words) -> str:
    """A log line's details in the table's language: what an undo took back, where an import came from, or the
    change made (``cards Ben 7♥ → 7♦``: its record key in words)."""
    if words.code == "en":
        return detail
    found = _FROM.match(detail)
    if found is not None:
        return words.gettext("from {name}").format(name=found.group("name"))
    match = _HEAD.match(detail)
    head = match.group("head") if match else detail
    rest = match.group("rest") if match else None
    said = _head_in(head, words)
    if said != head:  # "hand 3 corrected: …", what an undo or a redo took back
        return said if rest is None else f"{said}: {_detail_in(rest, words)}"
    parts = []
    for part in detail.split("; "):
        key, _, tail = part.partition(" ")
        parts.append(f"{words.gettext(ENTRY_WORDS[key])} {tail}".rstrip() if key in ENTRY_WORDS else part)
    return _CARD_LABEL.sub(
        lambda m: _card_text(m.group("rank") + _SUIT_CODES[m.group("suit")], words), "; ".join(parts)
    )


_SUIT_CODES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_CARD_LABEL = re.compile(r"(?<![\w])(?P<rank>10|[2-9JQKA])(?P<suit>[♠♥♦♣])")
"""A card's label as the log wrote it (``Q♥``), to say it in the table's letters (German ``D♥``)."""


def edit_line(entry: LogEntry, tz: tzinfo | None = None, words: Words = ENGLISH) -> EditLine:
    """Say one log entry in words, with its local time of day, in the table's language.

    >>> from datetime import UTC
    >>> edit_line(LogEntry(at="2026-11-27T21:07:00.000Z", action="hand 3 corrected: cards Ben 7♥ → 7♦"), UTC).text
    'hand 3 corrected at 21:07: cards Ben 7♥ → 7♦'
    >>> edit_line(LogEntry(at="2026-11-27T20:15:00.000Z", action="imported", detail="from a.json"), UTC).text
    'imported at 20:15: from a.json'
    >>> german = Words.of("de")
    >>> edit_line(LogEntry(at="2026-11-27T21:07:00.000Z", action="undo: hand 3 entered"), UTC, german).text
    'rückgängig um 21:07: Spiel 3 eingegeben'
    >>> corrected = LogEntry(at="2026-11-27T21:07:00.000Z", action="hand 3 corrected: cards Ben Q♥ → 10♦")
    >>> edit_line(corrected, UTC, german).text
    'Spiel 3 korrigiert um 21:07: Karten Ben D♥ → 10♦'
    """
    moment = local_time(entry.at, tz)
    match = _HEAD.match(entry.action.strip())
    head = match.group("head") if match else entry.action
    rest = match.group("rest") if match else None
    details = [_detail_in(d, words) for d in (rest, entry.detail) if d]
    what, time = _head_in(head, words), f"{moment:%H:%M}"
    if details:
        text = words.gettext("{what} at {time}: {details}").format(what=what, time=time, details="; ".join(details))
    else:
        text = words.gettext("{what} at {time}").format(what=what, time=time)
    correction = any(word in entry.action for word in ("corrected", "removed", "undo", "redo"))
    return EditLine(moment, text, correction)


def edit_log(entries: Iterable[LogEntry], tz: tzinfo | None = None, words: Words = ENGLISH) -> list[EditLine]:
    """A session's edit log in words (in ``words``' language), oldest first."""
    return [edit_line(e, tz, words) for e in entries]


def corrections(entries: Iterable[LogEntry], tz: tzinfo | None = None) -> list[EditLine]:
    """Only the lines that changed an earlier hand."""
    return [line for line in edit_log(entries, tz) if line.correction]


# --- export and import through files ---------------------------------------------------------------------------

IMPORTS = "imports"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def export_name(fmt: str, moment: datetime | None = None) -> str:
    """The file name of an export made at ``moment`` (default now, local time).

    >>> export_name("csv", datetime(2026, 11, 27, 21, 7, 5))
    'card-table-companion-2026-11-27-210705.csv'
    """
    when = moment if moment is not None else datetime.now()
    return f"card-table-companion-{when:%Y-%m-%d-%H%M%S}.{fmt}"


def export_to_folder(archive: Archive, fmt: str, folder: FsPath | None = None) -> FsPath:
    """Export every session as ``fmt`` (json or csv) into ``folder`` (default: the data folder's ``exports``);
    returns the file written (:class:`~storage.ExportFormatError`, :class:`~storage.atomic.StorageWriteError`)."""
    data = archive.export_sessions(None, fmt)
    target_dir = folder if folder is not None else archive.data_dir / EXPORTS
    target = free_path(
        target_dir, lambda n: export_name(fmt).replace(f".{fmt}", f"-{n}.{fmt}") if n else export_name(fmt)
    )
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageWriteError(target, exc) from exc
    atomic_write_bytes(target, data)
    return target


Progress = Callable[[int, int], None]
"""``progress(done, total)``, called from the thread doing the work as it advances (the app shows a bar)."""


def import_path(
    archive: Archive, text: str, progress: Progress | None = None, words: Words | None = None
) -> ImportReport:
    """Import the file whose path was typed (``~`` allowed); a report says what happened, nothing raises."""
    _ = (words or ENGLISH).gettext
    cleaned = text.strip().strip('"').strip("'")
    report = ImportReport()
    if not cleaned:
        report.refused = 1
        report.messages.append(_("Type the path of a file exported by this app (or choose one)."))
        return report
    path = FsPath(cleaned).expanduser()
    if path.is_dir():
        report.refused = 1
        report.messages.append(_("{path} is a folder; type the path of a file inside it.").format(path=path))
        return report
    result: ImportReport = archive.import_file(path, progress)
    return result


def keep_picked(archive: Archive, name: str, data: bytes) -> FsPath:
    """Keep a file received as bytes (picked in the browser, ``name`` as the browser gave it) in the data folder's
    ``imports``, under a dated name that cannot leave that folder; returns where (raises
    :class:`~storage.atomic.StorageWriteError`)."""
    folder = archive.data_dir / IMPORTS
    safe = _SAFE_NAME.sub("-", FsPath(name).name).strip("-.") or "picked"
    target = free_path(
        folder,
        lambda n: f"{datetime.now():%Y%m%d-%H%M%S}-{n}-{safe}" if n else f"{datetime.now():%Y%m%d-%H%M%S}-{safe}",
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageWriteError(folder, exc) from exc
    atomic_write_bytes(target, data, durable=False)
    return target


def import_bytes(
    archive: Archive, name: str, data: bytes, progress: Progress | None = None, words: Words | None = None
) -> ImportReport:
    """Import a file received as bytes (picked in the browser): kept in the data folder's ``imports`` first."""
    try:
        target = keep_picked(archive, name, data)
    except (OSError, StorageWriteError) as exc:
        report = ImportReport(refused=1)
        said = (words or ENGLISH).gettext("{file} could not be kept for importing: {error}")
        report.messages.append(said.format(file=name, error=exc))
        return report
    result: ImportReport = archive.import_file(target, progress)
    return result


def check_backup_file(path: FsPath, name: str | None = None, progress: Progress | None = None) -> CheckedBackup:
    """Read and check a whole backup before anything is replaced (:func:`storage.backup.check_backup`): raises
    :class:`~storage.errors.BackupError`, one line naming the member and what is wrong; ``name`` is how the
    backup is called in that line (a file picked in the browser keeps its own name)."""
    return check_backup(FsPath(path), progress, name=name)


def restore_checked(archive: Archive, checked: CheckedBackup, progress: Progress | None = None) -> int:
    """Restore a backup that :func:`check_backup_file` accepted (an empty one only once the person confirmed it:
    call this then); returns the number of sessions."""
    count: int = archive.restore(checked, progress, allow_empty=checked.empty)
    return count


def restore_bytes(archive: Archive, name: str, data: bytes, progress: Progress | None = None) -> int:
    """Restore a backup received as bytes (picked in the browser): checked whole before anything is replaced, the
    current state backed up first (:meth:`storage.Archive.restore`); returns the number of sessions. The copy kept
    for the restore is removed afterwards. Raises :class:`~storage.StorageError` saying why nothing was restored."""
    target = keep_picked(archive, name, data)
    try:
        count: int = archive.restore(target, progress)
    finally:
        target.unlink(missing_ok=True)
    return count


__all__ = [
    "PAGE_SIZE",
    "CheckedBackup",
    "DateRangeError",
    "EditLine",
    "HistoryFilter",
    "Replay",
    "ReplayStep",
    "SessionRow",
    "Standing",
    "check_backup_file",
    "clear_uploads",
    "corrections",
    "count_text",
    "describe_entry",
    "edit_line",
    "edit_log",
    "export_to_folder",
    "filter_sessions",
    "import_bytes",
    "import_path",
    "keep_picked",
    "page_end",
    "replay",
    "restore_bytes",
    "restore_checked",
    "row_of",
    "unfinished_row",
    "uploads_folder",
    "when_text",
]
