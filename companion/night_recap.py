"""A game night's recap: games, winners and verdicts, wins per player, money, the settle-up and the longest
streak, as a value (:class:`Recap`) and as plain text for a messenger (:func:`recap_text`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.money import MoneyFormat, format_money
from companion.night_ledger import TITLE, Settlement, ledger_of, replay, settle
from companion.night_model import Night
from scoring import ScoringError, find_game
from scoring.base import Result, join_names


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
    book = ledger_of(night, played)
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
        return find_game(key).name
    except ScoringError:
        return "Unknown game"


def day_of(stamp: str) -> str:
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
    day = day_of(stamp)
    return name if says_day(name, stamp) else f"{name} · {day}"


def says_day(name: str, stamp: str) -> bool:
    """Whether ``name`` already says the day of ``stamp`` (``Wed 2 Dec``), so that a screen need not say it again.

    >>> says_day("Game night, Fri 4 Dec", "2026-12-04T12:00:00.000Z"), says_day("Friday", "2026-12-04T12:00:00Z")
    (True, False)
    """
    day = day_of(stamp)
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


def recap_sections(recap: Recap, fmt: MoneyFormat | None) -> list[tuple[str, list[str]]]:
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
    for heading, lines in recap_sections(recap, fmt):
        blocks.append("\n".join([heading, *lines]))
    return "\n\n".join(blocks)
