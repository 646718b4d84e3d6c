"""Statistics per player and per game: games, wins, win rate, average and best results, average finishing
position, head-to-head records. No Flet in here.

Only finished games count (not those in progress, pending an extra part, or cancelled). A player's **result** in a
game is their final total; **best** means the highest total, except where the lowest total wins (1111-9999,
:attr:`scoring.Game.lower_wins`). **Positions** are the places of :func:`scoring.standings`, the one standings rule
of every screen: the winners share 1st place (the loser of a play-off, sudden death or tie-break round is 2nd,
joint winners share 1st); everyone else is placed after them by total.

The outcome of a game (totals, winners, positions) is derived by replaying its record, which is too slow to do for
10,000 games every time the screen opens; :class:`OutcomeCache` keeps each game's outcome keyed by the fingerprint
of its record, so it is only recomputed when the record changes.

JK-E11: Ben and Cat tie on 12 and Ben wins the play-off; Cat is 2nd, Ann 3rd:

>>> import json, pathlib
>>> case = pathlib.Path(__file__).parents[1] / "tests" / "cases" / "jokers-kill" / "14-playoff-first-to-three.json"
>>> outcome = Outcome.of_result("s1", find_game("jokers-kill").score(json.loads(case.read_text())["record"]), "t")
>>> outcome.players, outcome.totals, outcome.positions, outcome.winners
(('Ann', 'Ben', 'Cat'), (8, 12, 12), (3, 1, 2), ('Ben',))
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal, format_percent

from companion.background import OneRun
from companion.i18n import Words
from companion.players import Resolver, win_rate_of
from scoring import Result, ScoringError, find_game, lower_wins, standings
from storage import Archive, SessionStatus, SessionSummary, StorageError
from storage.atomic import StorageWriteError, atomic_write_bytes

CACHE_FILE = "stats-cache.json"
CACHE_VERSION = 2
"""Version 2: positions are :func:`scoring.standings` places (a cache of version 1 is recomputed)."""

Resolve = Callable[[str], str]


def game_name(game: str) -> str:
    """The name people use for a game key (the key itself for a game this app does not know).

    >>> game_name("feast-and-famine"), game_name("snap")
    ('Feast and Famine', 'snap')
    """
    try:
        return find_game(game).name
    except ScoringError:
        return game


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one finished game ended: each player's total and position, and the winners (seating order)."""

    session_id: str
    game: str
    players: tuple[str, ...]
    totals: tuple[int, ...]
    positions: tuple[int, ...]
    winners: tuple[str, ...]
    at: str
    """When the session was last changed (ISO UTC)."""

    @classmethod
    def of_result(cls, session_id: str, result: Result, at: str) -> Outcome:
        """The outcome of a scored game: totals in seating order, positions from :func:`scoring.standings`."""
        places = {standing.player: standing.place for standing in standings(result)}
        names = tuple(result.players)
        return cls(
            session_id,
            result.game,
            names,
            tuple(int(result.totals[n]) for n in names),
            tuple(places[n] for n in names),
            tuple(w for w in names if w in set(result.winners)),
            at,
        )

    @classmethod
    def of(cls, session_id: str, game: str, totals: Mapping[str, int], winners: Sequence[str], at: str) -> Outcome:
        """The outcome of a finished game known only by its final totals and winners (no extra part was played):
        the same rule, :func:`scoring.standings`, places it.

        >>> Outcome.of("s", "1111-9999", {"Ann": 7050, "Ben": 4200, "Cat": 5100}, ["Ben"], "t").positions
        (3, 1, 2)
        """
        result = Result(game=game, players=list(totals), totals=dict(totals), finished=True, winners=list(winners))
        return cls.of_result(session_id, result, at)


# --- the outcome cache ---------------------------------------------------------------------------------------


class OutcomeCache:
    """Each finished game's outcome, keyed by session id and checked against the record's fingerprint; kept in
    ``stats-cache.json`` in the data folder (a cache: deleting it only costs time). Thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries: dict[str, dict[str, Any]] = {}
        """session id → stored entry (as in the file)."""
        self._memo: dict[str, tuple[str, Outcome | None]] = {}
        """session id → (fingerprint, outcome or None when it cannot be replayed), built from the entries."""
        self._stats: dict[str | None, tuple[Any, Statistics]] = {}
        """game (or None) → (signature of the finished games and the roster, the statistics computed for it)."""
        self._state: dict[str | None, tuple[int, int, tuple[tuple[str, str], ...]]] = {}
        """game (or None) → (the archive, its generation, the roster's names) when ``_stats`` was last checked: while
        they stay the same, opening Statistics costs a look-up."""
        self._encoded: dict[str, tuple[dict[str, Any], str]] = {}
        """session id → (its entry, that entry as JSON in the file): what :meth:`_save` wrote last."""
        self._lock = threading.RLock()
        self._loaded = False
        self._warming = OneRun("stats-warm-up")
        self.problems: list[str] = []
        """Games left out by the last :meth:`outcomes` because they cannot be replayed (a damaged record), in words."""

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_bytes())
            if isinstance(data, dict) and data.get("version") == CACHE_VERSION and isinstance(data["entries"], dict):
                self._entries = data["entries"]
        except (OSError, ValueError, KeyError, TypeError):
            self._entries = {}  # missing or damaged: rebuilt as games are looked at

    def _save(self) -> None:
        if self.path is None:
            return
        # Each entry is encoded once and kept (by identity): one more game re-encodes one entry, not 10,000.
        encoded, kept = self._encoded, {}
        parts = []
        for key, entry in self._entries.items():
            known = encoded.get(key)
            if known is None or known[0] is not entry:
                known = (entry, json.dumps(key) + ":" + json.dumps(entry, separators=(",", ":")))
            kept[key] = known
            parts.append(known[1])
        self._encoded = kept
        payload = '{"version":' + json.dumps(CACHE_VERSION) + ',"entries":{' + ",".join(parts) + "}}"
        with contextlib.suppress(StorageWriteError, OSError):  # best effort: it is only a cache
            atomic_write_bytes(self.path, payload.encode("utf-8"), durable=False)

    def outcomes(self, archive: Archive, summaries: Iterable[SessionSummary] | None = None) -> list[Outcome]:
        """The outcomes of the finished games among ``summaries`` (default: the whole archive), newest first.

        Games not in the cache (or whose record changed) are replayed and the cache is saved."""
        rows = archive.list_sessions(status=SessionStatus.FINISHED) if summaries is None else list(summaries)
        out: list[Outcome] = []
        changed = False
        with self._lock:
            self._load()
            memo = self._memo
            problems: list[str] = []
            for summary in rows:
                if summary.status is not SessionStatus.FINISHED:
                    continue
                known = memo.get(summary.id)
                if known is None or known[0] != summary.fingerprint:
                    entry = self._entries.get(summary.id)
                    if entry is None or entry.get("fp") != summary.fingerprint:
                        entry = self._compute(archive, summary)
                        self._entries[summary.id] = entry
                        changed = True
                    known = (summary.fingerprint, _outcome(summary, entry))
                    memo[summary.id] = known
                outcome = known[1]
                if outcome is None:
                    entry = self._entries.get(summary.id) or {}
                    problems.append(
                        f"{summary.title or summary.id} is left out of the statistics: {entry.get('error')}"
                    )
                    continue
                if outcome.at != summary.updated_at:
                    outcome = dataclasses.replace(outcome, at=summary.updated_at)
                    memo[summary.id] = (summary.fingerprint, outcome)
                out.append(outcome)
            self.problems = problems
            if summaries is None and len(self._entries) > len(rows):  # forget games deleted or no longer finished
                wanted = {s.id for s in rows}
                self._entries = {k: v for k, v in self._entries.items() if k in wanted}
                self._memo = {k: v for k, v in self._memo.items() if k in wanted}
                changed = True
            if changed and not archive.read_only:
                self._save()
        return out

    def statistics(
        self, archive: Archive, *, game: str | None = None, aliases: Mapping[str, str] | None = None
    ) -> Statistics:
        """:func:`compute` over the archive's finished games, remembered until a game or the roster changes: opening
        the screen again (another phone, a reload) on an unchanged archive costs a look-up (the archive's
        :attr:`~storage.Archive.generation`); after a change elsewhere in the archive, a check of the finished
        games' fingerprints; only a change to a finished game (or to the roster) computes them again."""
        names = tuple(sorted((aliases or {}).items()))
        state = (id(archive), archive.generation, names)
        with self._lock:
            known = self._stats.get(game)
            if known is not None and self._state.get(game) == state:  # the archive did not change: no listing
                return known[1]
            rows = archive.list_sessions(status=SessionStatus.FINISHED)
            signature = (names, tuple([(s.id, s.fingerprint) for s in rows]))
            if known is None or known[0] != signature:  # a finished game (or the roster) changed: compute again
                resolve = Resolver(dict(names)) if names else None
                known = (signature, compute(self.outcomes(archive, rows), resolve=resolve, game=game))
                self._stats[game] = known
            self._state[game] = state
            return known[1]

    def warm_up(self, archive: Archive, aliases: Mapping[str, str] | None = None) -> threading.Thread | None:
        """Fill this cache and its statistics in a background thread (called when History opens, so that
        Statistics opens at once); ``None`` if one is already running."""

        def run() -> None:
            with contextlib.suppress(StorageError, ScoringError, OSError):  # the screen will report it when it opens
                self.statistics(archive, aliases=aliases)

        return self._warming.start(run)

    def _compute(self, archive: Archive, summary: SessionSummary) -> dict[str, Any]:
        try:
            doc = archive.load_session(summary.id)
            result = find_game(doc.game).score(doc.record)
        except (StorageError, ScoringError) as exc:
            message = getattr(exc, "message", None) or str(exc)
            return {"fp": summary.fingerprint, "error": message}
        outcome = Outcome.of_result(summary.id, result, summary.updated_at)
        return {
            "fp": summary.fingerprint,
            "game": outcome.game,
            "players": list(outcome.players),
            "totals": list(outcome.totals),
            "positions": list(outcome.positions),
            "winners": list(outcome.winners),
        }


def _outcome(summary: SessionSummary, entry: Mapping[str, Any]) -> Outcome | None:
    if "error" in entry:
        return None
    try:
        return Outcome(
            summary.id,
            str(entry["game"]),
            tuple(entry["players"]),
            tuple(entry["totals"]),
            tuple(entry["positions"]),
            tuple(entry["winners"]),
            summary.updated_at,
        )
    except (KeyError, TypeError, ValueError):
        return None


# --- statistics ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLine:
    """One player's record in one game."""

    game: str
    games: int
    wins: int
    average_result: float
    best_result: int
    """Highest total, or lowest for a game whose lowest total wins."""
    average_position: float

    @property
    def name(self) -> str:
        return game_name(self.game)

    @property
    def win_rate(self) -> float:
        return win_rate_of(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's record over every game counted, with a line per game (results only compare within a game)."""

    name: str
    games: int
    wins: int
    average_position: float
    by_game: tuple[GameLine, ...]

    @property
    def win_rate(self) -> float:
        """Wins per game (joint wins count as wins)."""
        return win_rate_of(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How ``player`` did against ``opponent`` in the games both played: finished ahead, behind or level."""

    player: str
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True, slots=True)
class Statistics:
    """Statistics over a set of finished games; ``players`` sorted by wins, then win rate, then name."""

    games: int
    """Finished games counted."""
    game: str | None
    """The game they were limited to, or ``None`` for every game."""
    players: tuple[PlayerStats, ...]
    head_to_head: tuple[HeadToHead, ...]
    """Both directions of every pair who met, sorted by player then opponent."""

    def player(self, name: str) -> PlayerStats:
        """One player's statistics (:class:`KeyError` if they played none of these games)."""
        for stats in self.players:
            if stats.name == name:
                return stats
        raise KeyError(f"{name} played none of these games")

    def versus(self, name: str) -> list[HeadToHead]:
        """``name``'s head-to-head records, by opponent."""
        return [h for h in self.head_to_head if h.player == name]

    def wins_per_player(self) -> list[tuple[str, int]]:
        """(name, wins) for every player, most wins first (the data of the "wins per player" chart)."""
        return [(p.name, p.wins) for p in self.players]


def compute(outcomes: Iterable[Outcome], *, resolve: Resolve | None = None, game: str | None = None) -> Statistics:
    """Statistics over ``outcomes`` (only ``game``'s when given); names go through ``resolve`` (earlier names →
    current name, see :class:`companion.players.PlayerDirectory`).

    >>> a = Outcome.of("s1", "jokers-kill", {"Ann": 8, "Ben": 12, "Cat": 12}, ["Ben"], "2026-01-01")
    >>> b = Outcome.of("s2", "jokers-kill", {"Ann": 10, "Ben": 4}, ["Ann"], "2026-01-02")
    >>> stats = compute([a, b])
    >>> [(p.name, p.games, p.wins, p.average_position) for p in stats.players]
    [('Ann', 2, 1, 2.0), ('Ben', 2, 1, 1.5), ('Cat', 1, 0, 2.0)]
    >>> [(h.opponent, h.ahead, h.behind) for h in stats.versus("Ann")]
    [('Ben', 1, 1), ('Cat', 0, 1)]
    """
    name_of: Resolve = resolve if resolve is not None else (lambda n: n)
    # per player: games, wins, position sum; per (player, game): games, wins, result sum, best, position sum
    totals: dict[str, list[int]] = {}
    per_game: dict[tuple[str, str], list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    counted = 0
    lowest: dict[str, bool] = {}
    for outcome in outcomes:
        if game is not None and outcome.game != game:
            continue
        counted += 1
        low = lowest.get(outcome.game)
        if low is None:
            low = lowest[outcome.game] = lower_wins(outcome.game)
        winners = {name_of(w) for w in outcome.winners}
        seated: list[tuple[str, int, int]] = []
        seen: set[str] = set()
        for name, total, place in zip(outcome.players, outcome.totals, outcome.positions, strict=True):
            who = name_of(name)
            if who in seen:  # two seats resolving to one person: count the first only
                continue
            seen.add(who)
            seated.append((who, total, place))
            won = 1 if who in winners else 0
            row = totals.setdefault(who, [0, 0, 0])
            row[0] += 1
            row[1] += won
            row[2] += place
            key = (who, outcome.game)
            line = per_game.get(key)
            if line is None:
                per_game[key] = [1, won, total, total, place]
            else:
                line[0] += 1
                line[1] += won
                line[2] += total
                line[3] = min(line[3], total) if low else max(line[3], total)
                line[4] += place
        seated.sort()  # by name: each pair is counted once, as (earlier name, later name)
        for i, (a, _, pa) in enumerate(seated):
            for b, _, pb in seated[i + 1 :]:
                pair = pairs.get((a, b))
                if pair is None:
                    pair = pairs[(a, b)] = [0, 0, 0, 0]
                pair[0] += 1
                pair[1 if pa < pb else 2 if pb < pa else 3] += 1
    lines: dict[str, list[GameLine]] = {}
    for (who, key_game), (n, wins, result_sum, best, place_sum) in sorted(per_game.items()):
        lines.setdefault(who, []).append(GameLine(key_game, n, wins, result_sum / n, best, place_sum / n))
    players = [
        PlayerStats(who, n, wins, place_sum / n, tuple(lines.get(who, ())))
        for who, (n, wins, place_sum) in totals.items()
    ]
    players.sort(key=lambda p: (-p.wins, -p.win_rate, p.name.casefold()))
    both = [HeadToHead(a, b, *counts) for (a, b), counts in pairs.items()]
    both += [HeadToHead(b, a, n, behind, ahead, level) for (a, b), (n, ahead, behind, level) in pairs.items()]
    h2h = sorted(both, key=lambda h: (h.player.casefold(), h.opponent.casefold()))
    return Statistics(counted, game, tuple(players), tuple(h2h))


def statistics(
    archive: Archive,
    *,
    game: str | None = None,
    resolve: Resolve | None = None,
    aliases: Mapping[str, str] | None = None,
    cache: OutcomeCache | None = None,
) -> Statistics:
    """Statistics over every finished game of ``archive``, through ``cache`` (default: a new cache on the data
    folder's cache file; the app passes its own, :attr:`companion.services.AppServices.stats`). Names go through
    ``aliases`` (remembered result) or ``resolve`` (computed afresh)."""
    source = cache if cache is not None else OutcomeCache(archive.data_dir / CACHE_FILE)
    if resolve is not None:
        return compute(source.outcomes(archive), resolve=resolve, game=game)
    return source.statistics(archive, game=game, aliases=aliases)


def format_rate(rate: float, words: Words | None = None) -> str:
    """A win rate as a whole percentage (Babel's percent for the table's language: ``67 %`` in German).

    >>> format_rate(2 / 3), format_rate(2 / 3, Words.of("de"))
    ('67%', '67\xa0%')
    """
    if words is None or words.code == "en":
        return f"{round(rate * 100)}%"
    return format_percent(round(rate, 2), locale=words.locale)


def format_average(value: float, words: Words | None = None) -> str:
    """An average with one decimal, without a trailing ``.0`` (the language's decimal mark).

    >>> format_average(2.0), format_average(1.25), format_average(10.06), format_average(1.25, Words.of("sv"))
    ('2', '1.2', '10.1', '1,2')
    """
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    if words is None or words.code == "en":
        return text
    return format_decimal(float(text), "0.#", locale=words.locale)
