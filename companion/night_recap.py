"""A game night's recap: games, winners and verdicts, wins per player, money, the settle-up and the longest
streak, as a value (:class:`Recap`) and as plain text for a messenger (:func:`recap_text`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel.dates import format_date

from companion.formats import signed_tenths
from companion.i18n import N_, Words
from companion.money import MoneyFormat, format_money
from companion.night_ledger import TITLE, Settlement, ledger_of, names_in, replay, settle
from companion.night_model import Night
from scoring import ScoringError, find_game
from scoring.base import Result

ENGLISH = Words.of("en")
"""The words of a recap when no language is given (what the English app says, byte for byte)."""


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


def verdict_of(result: Result, words: Words = ENGLISH) -> str:
    """The game's verdict sentence: the result's ``verdict.headline`` once scoring has decided (or cancelled) the
    game, else what the table plays next.

    >>> verdict_of(Result(game="jokers-kill", players=["Ann", "Ben"], totals={}, finished=False))
    'Not over yet (0 hands played)'
    """
    _ = words.gettext
    if result.verdict is not None:  # decided or cancelled: scoring says why (scoring.verdict)
        if words.code != "en" and result.verdict.headline_why is not None:
            return words.note(result.verdict.headline_why)
        return result.verdict.headline
    if result.finished:
        return words.ngettext("{names} wins", "{names} win", len(result.winners)).format(
            names=names_in(result.winners, words)
        )
    if result.pending is not None:
        said = {
            "tiebreak": _("{names} are tied: a tie-break decides"),
            "sudden-death": _("{names} are tied: sudden death decides"),
            "playoff": _("{names} are tied: a play-off decides"),
        }[result.pending.kind]
        return said.format(names=names_in(result.pending.players, words))
    hands = len(result.hands)
    return words.ngettext("Not over yet ({n} hand played)", "Not over yet ({n} hands played)", hands).format(n=hands)


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


def recap(night: Night, records: Mapping[str, Any], words: Words = ENGLISH) -> Recap:
    """The night's recap, every game re-derived from ``records`` (session id → game record); the verdicts in
    ``words``."""
    played = replay(night, records)
    book = ledger_of(night, played)
    games = []
    for p in played:
        result = p.result
        if result is None:
            games.append(GameRecap(p.number, p.session_id, p.game, _name(p.game, words), False, False, (), p.problem))
            continue
        decided = result.finished or result.cancelled
        winners = tuple(result.winners) if decided and not result.cancelled else ()
        games.append(
            GameRecap(
                p.number,
                p.session_id,
                p.game,
                _name(p.game, words),
                decided,
                result.cancelled,
                winners,
                verdict_of(result, words),
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


def _name(key: str, words: Words = ENGLISH) -> str:
    try:
        return find_game(key).name
    except ScoringError:
        return words.gettext("Unknown game")


def day_of(stamp: str, words: Words = ENGLISH) -> str:
    """The day of a UTC stamp on this computer's clock: ``Fri 4 Dec 2026`` (an evening that goes past midnight
    UTC keeps its local date), in the language's own way (Babel: ``fre 4 dec. 2026``, ``Fr. 4 Dez. 2026``); the
    stamp as it is if it is not a time."""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return stamp
    if words.code == "en":
        return f"{when:%a} {when.day} {when:%b %Y}"
    return format_date(when.date(), "EEE d MMM y", locale=words.locale)


def name_and_day(name: str, stamp: str, words: Words = ENGLISH) -> str:
    """A night's name with its day, the day said once: a name that already says it (``Game night, Wed 2 Dec``,
    the name a night gets when none is typed) is given as it is.

    >>> name_and_day("Friday", "2026-12-04T12:00:00.000Z")
    'Friday · Fri 4 Dec 2026'
    >>> name_and_day("Game night, Fri 4 Dec", "2026-12-04T12:00:00.000Z")
    'Game night, Fri 4 Dec'
    """
    day = day_of(stamp, words)
    return name if says_day(name, stamp) else f"{name} · {day}"


def says_day(name: str, stamp: str) -> bool:
    """Whether ``name`` already says the day of ``stamp`` (``Wed 2 Dec``), so that a screen need not say it again.

    >>> says_day("Game night, Fri 4 Dec", "2026-12-04T12:00:00.000Z"), says_day("Friday", "2026-12-04T12:00:00Z")
    (True, False)
    """
    day = day_of(stamp)
    short = day.rsplit(" ", 1)[0] if day.count(" ") == 3 else day
    return short.casefold() in name.casefold()


def games_span(first: int, last: int, words: Words = ENGLISH) -> str:
    """Games ``first`` to ``last`` in words.

    >>> games_span(2, 3), games_span(1, 4)
    ('games 2 and 3', 'games 1 to 4')
    """
    _ = words.gettext
    said = _("games {first} and {last}") if last == first + 1 else _("games {first} to {last}")
    return said.format(first=first, last=last)


def streak_line(streaks: Sequence[Streak], words: Words = ENGLISH) -> str:
    """The longest streak in one readable line (``""`` when there is none).

    >>> streak_line([Streak("Rosa", 2, 2, 3)])
    'Rosa: 2 wins in a row (games 2 and 3)'
    >>> streak_line([Streak("Ann", 2, 1, 2), Streak("Rosa", 2, 4, 5)])
    'Ann and Rosa: 2 wins in a row each (Ann won games 1 and 2, Rosa games 4 and 5)'
    """
    if not streaks:
        return ""
    _ = words.gettext
    first = streaks[0]
    if len(streaks) == 1:
        return _("{name}: {n} wins in a row ({games})").format(
            name=first.player, n=first.length, games=games_span(first.first, first.last, words)
        )
    who = names_in([x.player for x in streaks], words)
    spans = [_("{name} won {games}").format(name=first.player, games=games_span(first.first, first.last, words))]
    spans += [f"{x.player} {games_span(x.first, x.last, words)}" for x in streaks[1:]]
    return _("{names}: {n} wins in a row each ({spans})").format(names=who, n=first.length, spans=", ".join(spans))


GAMES, WINS, MONEY, STREAK, RATING_CHANGE = (
    N_("Games"),
    N_("Wins"),
    N_("Money"),
    N_("Longest streak"),
    N_("Rating change"),
)
"""The recap's headings (the night's; a season's uses some of them too)."""


def recap_sections(recap: Recap, fmt: MoneyFormat | None, words: Words = ENGLISH) -> list[tuple[str, list[str]]]:
    """The recap's content as (heading, lines): shared by the text and the image."""
    _ = words.gettext
    games = [f"{g.number}. {g.name}: {g.verdict}" for g in recap.games] or [_("No games yet.")]
    ranked = sorted(recap.players, key=lambda name: (-recap.wins.get(name, 0), recap.players.index(name)))
    wins = [f"{name}: {recap.wins.get(name, 0)}" for name in ranked]
    out = [(_(GAMES), games), (_(WINS), wins)]
    if recap.has_money:
        money = [f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}" for name in recap.players]
        out.append((_(MONEY), money))
        out.append((_(TITLE), recap.settlement.lines(fmt, words)[1:]))
    if recap.streaks:
        out.append((_(STREAK), [streak_line(recap.streaks, words)]))
    if recap.rating_change:
        out.append((_(RATING_CHANGE), rating_change_lines(recap, words)))
    return out


def rating_change_lines(recap: Recap, words: Words = ENGLISH) -> list[str]:
    """``Ann: +1.2`` for each player with a rated game tonight, in the recap's order (then anyone else).

    >>> r = Recap("n", "", None, ("Ann", "Ben"), (), {}, {}, Settlement((), (), {}), (), (),
    ...           {"Ben": -0.44, "Ann": 1.234})
    >>> rating_change_lines(r)
    ['Ann: +1.2', 'Ben: −0.4']
    """
    order = [n for n in recap.players if n in recap.rating_change]
    order += sorted(n for n in recap.rating_change if n not in order)
    return [f"{name}: {signed_tenths(recap.rating_change[name], words)}" for name in order]


def recap_text(recap: Recap, fmt: MoneyFormat | None = None, words: Words = ENGLISH) -> str:
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
    blocks = [name_and_day(recap.name, recap.started, words)]
    for heading, lines in recap_sections(recap, fmt, words):
        blocks.append("\n".join([heading, *lines]))
    return "\n\n".join(blocks)
