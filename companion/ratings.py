"""Skill ratings, rivals and the games they come from. No Flet in here.

Ratings are Weng-Lin ratings (``openskill``'s :class:`~openskill.models.PlackettLuce` at its defaults, μ = 25,
σ = 25/3), **derived** from the archive like every standing: nothing here is stored as the truth.

* **Which games.** Every finished game; a cancelled (or unfinished) game is not rated.
* **The order.** Games are rated in the order they ended (the session's last change), games that ended at the same
  moment by session id. Each game is rated once, a play-off or tie-break included: its final standings decide.
* **Each game.** Every player is a team of one; the ranks are the places of :func:`scoring.standings` (winners
  first with place 1; a shared place is a tie).
* **Scopes.** One rating per game (``bargain-bin``...) and one across all of them (:data:`ALL`).
* **Players.** A player is their roster id: a name recorded at the table is resolved to the player who has it now
  or had it before, so a rename keeps the rating and a merge puts both histories together.
* **Provisional.** Until a player has :data:`PROVISIONAL_GAMES` games in a scope.
* The **conservative rating** shown first is the ordinal μ − 3σ.

Three games of Jokers Kill between Ann, Ben and Cat: the first in that order; the second is the conformance case
JK-E11 (Ben and Cat tie on 12 and Ben wins the **play-off**, so Ben is 1st, Cat 2nd, Ann 3rd); in the third Ben and
Cat **tie** for second place.

>>> import json, pathlib
>>> from scoring import find_game
>>> case = pathlib.Path(__file__).parents[1] / "tests" / "cases" / "jokers-kill" / "14-playoff-first-to-three.json"
>>> playoff = find_game("jokers-kill").score(json.loads(case.read_text())["record"])
>>> who = lambda name: (name.lower(), name)
>>> games = [
...     RatedGame("s1", "jokers-kill", "2026-01-01T20:00Z", ("ann", "ben", "cat"), (1, 2, 3), (True, False, False)),
...     RatedGame.of(Outcome.of_result("s2", playoff, "2026-01-01T21:00Z"), who),
...     RatedGame("s3", "jokers-kill", "2026-01-01T22:00Z", ("ann", "ben", "cat"), (1, 2, 2), (True, False, False)),
... ]
>>> games[1].places, games[1].won
((3, 1, 2), (False, True, False))

The first game by hand (Weng-Lin 2011, Algorithm 4, with openskill's defaults β = 25/6, τ = 25/300, κ = 0.0001):
σ² grows by τ² first, c² = Σ (σ² + β²); with equal μ every exp(μ/c) is the same, so the winner's share among the
players ranked at or below 1st is 1/3, and among those at or below 2nd 1/2. Ann (1st) gains σ²/c · (1 − 1/3),
Ben (2nd) σ²/c · (−1/3 + 1 − 1/2), Cat (3rd) σ²/c · (−1/3 − 1/2); σ shrinks by the variance factor
γ σ²/c² · Σ t(1 − t) with γ = σ/c:

>>> from math import sqrt
>>> s2 = (25 / 3) ** 2 + (25 / 300) ** 2
>>> c = sqrt(3 * (s2 + (25 / 6) ** 2))
>>> [round(25 + s2 / c * omega, 3) for omega in (2 / 3, 1 / 6, -5 / 6)]
[27.869, 25.717, 21.414]
>>> [round(sqrt(s2 * (1 - sqrt(s2) / c * s2 / c**2 * d)), 3) for d in (2 / 9, 2 / 9 + 1 / 4, 2 / 9 + 1 / 4)]
[8.205, 8.058, 8.058]
>>> book = rate(games)
>>> [(c.id, round(c.mu, 3), round(c.sigma, 3)) for c in book.steps[0].changes]
[('ann', 27.869, 8.205), ('ben', 25.717, 8.058), ('cat', 21.414, 8.058)]

After all three, ranked by the conservative rating μ − 3σ (Ben's play-off win puts him ahead of Ann, who won two):

>>> [(p.id, round(p.mu, 3), round(p.sigma, 3), round(p.ordinal, 3), p.games, p.wins) for p in book.players()]
[('ben', 26.373, 7.673, 3.354, 3, 1), ('ann', 26.462, 7.812, 3.024, 3, 2), ('cat', 22.029, 7.594, -0.753, 3, 0)]

The same with ``openskill`` itself, one game after another:

>>> from openskill.models import PlackettLuce
>>> model = PlackettLuce()
>>> ann, ben, cat = model.rating(), model.rating(), model.rating()
>>> [[ann], [ben], [cat]] = model.rate([[ann], [ben], [cat]], ranks=[1, 2, 3])
>>> [[ann], [ben], [cat]] = model.rate([[ann], [ben], [cat]], ranks=[3, 1, 2])
>>> [[ann], [ben], [cat]] = model.rate([[ann], [ben], [cat]], ranks=[1, 2, 2])
>>> [round(r.ordinal(), 3) for r in (ben, ann, cat)]
[3.354, 3.024, -0.753]
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.background import OneRun
from companion.formats import signed_tenths, tenths
from companion.i18n import Words
from companion.stats import Outcome, OutcomeCache, game_name
from scoring import ScoringError, find_game
from storage import Archive, Player, SessionStatus, SessionSummary, StorageError
from storage.roster import name_key, player_id_for

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

_log = logging.getLogger(__name__)

ENGLISH = Words.of("en")
"""The words when no language is given (the English the app has always written)."""
ALL = "all"
"""The scope of every game together."""
PROVISIONAL_GAMES = 5
"""A rating is provisional until its player has this many games in its scope."""
MIN_SHARED = 3
"""Rivals count only opponents met in at least this many games."""
BULK = 64
"""More new or changed games than this are read through the statistics' outcome cache (which then saves them)."""
CHECKPOINT_EVERY = 256
"""Ratings are remembered every this many games, so a correction of an old game re-rates from there."""


def model() -> PlackettLuce:
    """The rating model: Plackett-Luce at openskill's defaults (μ = 25, σ = 25/3)."""
    from openskill.models import PlackettLuce  # here: the first ratings, not the app's start, need openskill

    return PlackettLuce()


class RatingError(ValueError):
    """An unknown scope (game key) or a player with no rating."""


def check_scope(scope: str | None) -> str:
    """The scope for ``scope`` (``None`` → :data:`ALL`), or :class:`RatingError` naming an unknown game key.

    >>> check_scope(None), check_scope("jokers-kill")
    ('all', 'jokers-kill')
    >>> check_scope("snap")
    Traceback (most recent call last):
    ...
    companion.ratings.RatingError: 'snap' is not a game key (choose all, bargain-bin, ... or jokers-kill)
    """
    from scoring import GAMES

    if scope is None or scope == ALL:
        return ALL
    keys = [g.key for g in GAMES]
    if scope not in keys:
        choices = ", ".join([ALL, *keys[:-1]]) + f" or {keys[-1]}"
        raise RatingError(f"{scope!r} is not a game key (choose {choices})")
    return scope


def scope_name(scope: str, words: Words | None = None) -> str:
    """``All games`` or the game's name.

    >>> scope_name("all"), scope_name("feast-and-famine")
    ('All games', 'Feast and Famine')
    """
    if scope != ALL:
        return game_name(scope)
    return words.gettext("All games") if words is not None else "All games"


# --- who is who ------------------------------------------------------------------------------------------------


class Identity:
    """Recorded names → (roster id, current name), over a snapshot of the roster: a player's current and earlier
    names (renames, merges) all give their id; a name nobody in the roster has gets the id the roster would give
    it (:func:`storage.roster.player_id_for`).

    >>> who = Identity([Player("a1", "Annie", "t", ("Ann",)), Player("b1", "Ben", "t")])
    >>> who(" ann "), who("Ben"), who("Zed")[1]
    (('a1', 'Annie'), ('b1', 'Ben'), 'Zed')
    """

    __slots__ = ("_by_key", "_memo", "names", "signature")

    def __init__(self, players: Iterable[Player]) -> None:
        listed = list(players)
        self._by_key: dict[str, tuple[str, str]] = {}
        for p in listed:
            for old in p.history:
                self._by_key.setdefault(name_key(old), (p.id, p.name))
        for p in listed:
            self._by_key[name_key(p.name)] = (p.id, p.name)
        self._memo: dict[str, tuple[str, str]] = {}
        self.names: dict[str, str] = {p.id: p.name for p in listed}
        """roster id → current name."""
        self.signature = tuple(sorted(self._by_key.items()))

    def __call__(self, name: str) -> tuple[str, str]:
        found = self._memo.get(name)
        if found is None:
            found = self._by_key.get(name_key(name))
            if found is None:
                clean = " ".join(name.split())
                found = (player_id_for(clean), clean)
                self.names.setdefault(found[0], clean)
            self._memo[name] = found
        return found

    def name(self, player_id: str) -> str:
        return self.names.get(player_id, player_id)


# --- the games rated -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished game as the ratings see it: its players (roster ids, seating order) and their final places."""

    session_id: str
    game: str
    ended: str
    """When it ended (ISO UTC): the session's last change."""
    ids: tuple[str, ...]
    places: tuple[int, ...]
    """:func:`scoring.standings` places (1 = a winner; equal places are a tie)."""
    won: tuple[bool, ...]

    @classmethod
    def of(cls, outcome: Outcome, who: Callable[[str], tuple[str, str]]) -> RatedGame:
        """The game of a finished ``outcome``; two seats that turn out to be one person count once (the first)."""
        winners = set(outcome.winners)
        ids: list[str] = []
        places: list[int] = []
        won: list[bool] = []
        for name, place in zip(outcome.players, outcome.positions, strict=True):
            pid = who(name)[0]
            if pid in ids:
                continue
            ids.append(pid)
            places.append(place)
            won.append(name in winners)
        return cls(outcome.session_id, outcome.game, outcome.at, tuple(ids), tuple(places), tuple(won))


def order_key(game: RatedGame) -> tuple[str, str]:
    """Games are rated by the time they ended, then by session id."""
    return (game.ended, game.session_id)


def rated_games(outcomes: Iterable[Outcome], who: Callable[[str], tuple[str, str]]) -> list[RatedGame]:
    """The rated games among ``outcomes`` (at least two players), in the order they are rated."""
    games = [RatedGame.of(o, who) for o in outcomes]
    games = [g for g in games if len(g.ids) >= 2]
    games.sort(key=order_key)
    return games


# --- rating ----------------------------------------------------------------------------------------------------


def conservative(mu: float, sigma: float) -> float:
    """The conservative rating (the ordinal), μ − 3σ: what a player's rating is shown and ranked by.

    >>> conservative(25.0, 25 / 3)
    0.0
    """
    return mu - 3 * sigma


class Change(NamedTuple):
    """One player's rating before and after one game (a named tuple: 10,000 games make 50,000 of them, built at a
    fraction of a frozen dataclass's cost)."""

    id: str
    place: int
    won: bool
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float

    @property
    def ordinal_before(self) -> float:
        return conservative(self.mu_before, self.sigma_before)

    @property
    def ordinal(self) -> float:
        return conservative(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Step:
    """One game rated: every player's change."""

    game: RatedGame
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's rating in one scope."""

    id: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative rating, μ − 3σ (what the table is ranked by)."""
        return conservative(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "games": self.games,
            "wins": self.wins,
        }


_State = dict[str, tuple[Any, int, int]]
"""roster id → (openskill rating, games, wins)."""


class Pauses:
    """Called after each game rated in a background thread, it lets any other thread that waits for the interpreter
    run at least every ``every_s`` seconds. Without it, rating thousands of games keeps the interpreter for Python's
    whole switch interval (5 ms) each time the server's thread asks for it, and that thread asks again after every
    message it reads or sends, so a screen opened meanwhile took about twice as long (``bench/gil_bench.py``).

    >>> pause = Pauses(every_s=0.0)
    >>> pause(), pause(), pause.pauses
    (None, None, 2)
    """

    def __init__(self, every_s: float = 0.001) -> None:
        self.every_s = every_s
        self.pauses = 0
        self._last = time.perf_counter()

    def __call__(self) -> None:
        now = time.perf_counter()
        if now - self._last >= self.every_s:
            time.sleep(0)  # lets go of the interpreter; a waiting thread takes it at once
            self.pauses += 1
            self._last = time.perf_counter()


class Book:
    """Ratings over a sequence of games, kept up to date as games are added or changed: :meth:`update` re-rates
    only from the first game that differs (from the nearest checkpoint before it), so one more game costs one
    rating."""

    def __init__(self) -> None:
        self.model = model()
        self.games: list[RatedGame] = []
        self.steps: list[Step] = []
        self.state: _State = {}
        self._checkpoints: list[_State] = [{}]
        """The state before game ``i * CHECKPOINT_EVERY``."""
        self.order: list[str] = []
        """The session ids of :attr:`games`."""
        self.by_player: dict[str, list[int]] = {}
        """roster id → the indexes of their games in :attr:`steps` (a player's rating over time at once)."""

    def update(self, games: Sequence[RatedGame], pause: Callable[[], None] | None = None) -> int:
        """Make the book rate exactly ``games`` (in this order); returns how many games were (re-)rated.
        ``pause`` is called after each game (:class:`Pauses` in the background)."""
        old = self.games
        limit = min(len(old), len(games))
        if games[:limit] == old[:limit]:  # the usual case: games were only added (compared in C, by identity first)
            common = limit
        else:
            common = 0
            while common < limit and (old[common] is games[common] or old[common] == games[common]):
                common += 1
        if common == len(old) == len(games):
            return 0
        if common < len(old):  # something changed: back to the checkpoint before it
            back = common // CHECKPOINT_EVERY
            del self._checkpoints[back + 1 :]
            self.state = dict(self._checkpoints[back])
            common = back * CHECKPOINT_EVERY
            del self.steps[common:]
            for indexes in self.by_player.values():
                while indexes and indexes[-1] >= common:
                    indexes.pop()
        self.games = list(games)
        del self.order[common:]
        self.order.extend(g.session_id for g in games[common:])
        for index in range(common, len(games)):
            if index and index % CHECKPOINT_EVERY == 0 and len(self._checkpoints) <= index // CHECKPOINT_EVERY:
                self._checkpoints.append(dict(self.state))
            self._rate(games[index])
            if pause is not None:
                pause()
        return len(games) - common

    def _rate(self, game: RatedGame) -> None:
        state = self.state
        new = self.model.rating
        before = []
        for pid in game.ids:
            known = state.get(pid)
            before.append(known if known is not None else (new(), 0, 0))
        after = self.model.rate([[b[0]] for b in before], ranks=list(game.places))
        changes = []
        index = len(self.steps)
        for pid in game.ids:
            self.by_player.setdefault(pid, []).append(index)
        for pid, place, won, (old, games, wins), (rating,) in zip(
            game.ids, game.places, game.won, before, after, strict=True
        ):
            state[pid] = (rating, games + 1, wins + int(won))
            changes.append(Change(pid, place, won, old.mu, old.sigma, rating.mu, rating.sigma))
        self.steps.append(Step(game, tuple(changes)))

    def players(self, names: Callable[[str], str] = str) -> list[PlayerRating]:
        """Every rated player, highest ordinal first (then by name)."""
        out = [PlayerRating(pid, names(pid), r.mu, r.sigma, g, w) for pid, (r, g, w) in self.state.items()]
        out.sort(key=lambda p: (-p.ordinal, p.name.casefold(), p.id))
        return out


def rate(games: Sequence[RatedGame]) -> Book:
    """A book of ratings over ``games`` (already in rating order)."""
    book = Book()
    book.update(games)
    return book


# --- a snapshot for screens and the command line ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    """A player's rating after one game (for the chart over time)."""

    session_id: str
    ended: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return conservative(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Rivals:
    """A player's rivals in a scope (each ``None`` when nobody qualifies): the one met most, the one beaten most
    often ("favourite victim") and the one who beat them most often ("nemesis"), among opponents met in at least
    :data:`MIN_SHARED` games. Beaten means finished ahead of."""

    player: str
    rival: tuple[str, int] | None
    """(name, games together)."""
    victim: tuple[str, int] | None
    """(name, games in which the player finished ahead)."""
    nemesis: tuple[str, int] | None
    """(name, games in which they finished ahead of the player)."""

    def lines(self, words: Words = ENGLISH) -> list[str]:
        """``Rival: Ben (7 games)``, ``Favourite victim: Cat (beaten 4 times)``, ``Nemesis: Ben (lost to 5 times)``."""
        ngettext = words.ngettext
        out = []
        if self.rival:
            said = ngettext("Rival: {name} ({n} game together)", "Rival: {name} ({n} games together)", self.rival[1])
            out.append(said.format(name=self.rival[0], n=self.rival[1]))
        if self.victim:
            said = ngettext(
                "Favourite victim: {name} (finished ahead {n} time)",
                "Favourite victim: {name} (finished ahead {n} times)",
                self.victim[1],
            )
            out.append(said.format(name=self.victim[0], n=self.victim[1]))
        if self.nemesis:
            said = ngettext(
                "Nemesis: {name} (finished behind {n} time)",
                "Nemesis: {name} (finished behind {n} times)",
                self.nemesis[1],
            )
            out.append(said.format(name=self.nemesis[0], n=self.nemesis[1]))
        return out or [words.gettext("No rivals yet: nobody has shared {n} games with them.").format(n=MIN_SHARED)]


@dataclass(frozen=True)
class Ratings:
    """Every player's rating in one scope, after the games of ``order`` (session ids, in the order rated)."""

    scope: str
    order: tuple[str, ...]
    players: tuple[PlayerRating, ...]
    """Highest ordinal first."""
    steps: tuple[Step, ...] = field(repr=False, default=())
    names: Mapping[str, str] = field(repr=False, default_factory=dict)
    by_player: Mapping[str, Sequence[int]] = field(repr=False, default_factory=dict, compare=False)
    """roster id → indexes of their games in ``steps`` (the book's; an index past ``steps`` is not this snapshot's)."""
    _index: dict[str, int] = field(repr=False, default_factory=dict, compare=False)
    """session id → its step (filled on first use)."""
    _history: dict[str, list[Point]] = field(repr=False, default_factory=dict, compare=False)
    """roster id → :meth:`history` (filled on first use: a snapshot does not change)."""

    @property
    def scope_name(self) -> str:
        return scope_name(self.scope)

    def to_json(self) -> dict[str, Any]:
        """What ``companion ratings --json`` prints."""
        return {"scope": self.scope, "order": list(self.order), "players": [p.to_json() for p in self.players]}

    def get(self, player_id: str) -> PlayerRating | None:
        return next((p for p in self.players if p.id == player_id), None)

    def name(self, player_id: str) -> str:
        return self.names.get(player_id, player_id)

    def history(self, player_id: str) -> list[Point]:
        """``player_id``'s rating after each of their games, oldest first."""
        count = len(self.steps)
        if self.by_player:
            where: Iterable[int] = [i for i in self.by_player.get(player_id, ()) if i < count]
        else:
            where = range(count)
        known = self._history.get(player_id)
        if known is not None:
            return list(known)
        out = []
        for i in where:
            step = self.steps[i]
            game = step.game
            if player_id in game.ids:  # the changes are in the order of the game's players
                change = step.changes[game.ids.index(player_id)]
                out.append(Point(game.session_id, game.ended, change.mu, change.sigma))
        self._history[player_id] = out
        return list(out)

    def changes(self, session_ids: Iterable[str]) -> dict[str, float]:
        """Each player's change of ordinal over the games ``session_ids`` (a night, a season): from before their
        first of these games to after their last; players who played none of them are left out."""
        if not self._index and self.steps:
            self._index.update((step.game.session_id, n) for n, step in enumerate(self.steps))
        where = sorted({self._index[sid] for sid in session_ids if sid in self._index})
        first: dict[str, float] = {}
        last: dict[str, float] = {}
        for n in where:
            for change in self.steps[n].changes:
                first.setdefault(change.id, change.ordinal_before)
                last[change.id] = change.ordinal
        return {pid: last[pid] - first[pid] for pid in first}

    def rivals(self, player_id: str) -> Rivals:
        """``player_id``'s rivals over the games of this scope (see :class:`Rivals`)."""
        met: dict[str, list[int]] = {}
        for step in self.steps:
            ids = step.game.ids
            if player_id not in ids:
                continue
            mine = step.game.places[ids.index(player_id)]
            for other, place in zip(ids, step.game.places, strict=True):
                if other == player_id:
                    continue
                row = met.setdefault(other, [0, 0, 0])
                row[0] += 1
                row[1] += mine < place
                row[2] += place < mine
        known = {pid: row for pid, row in met.items() if row[0] >= MIN_SHARED}

        def best(column: int) -> tuple[str, int] | None:
            ranked = sorted(
                ((row[column], row[0], self.name(pid)) for pid, row in known.items() if row[column] > 0),
                key=lambda t: (-t[0], -t[1], t[2].casefold()),
            )
            return (ranked[0][2], ranked[0][0]) if ranked else None

        return Rivals(self.name(player_id), best(0), best(1), best(2))


# --- the service -----------------------------------------------------------------------------------------------


class RatingService:
    """Ratings of one archive, per scope, through the statistics' outcome cache (each game's final standings):
    remembered until the archive or the roster changes, and then brought up to date by :class:`Book`.
    Thread-safe."""

    def __init__(self, archive: Archive, outcomes: OutcomeCache) -> None:
        self.archive = archive
        self.outcomes = outcomes
        self._lock = threading.RLock()
        self._books: dict[tuple[str, str, str], Book] = {}
        """(scope, first day, last day) → its book (which re-rates from the first game that differs)."""
        self._snapshots: dict[tuple[str, str, str], tuple[Any, Ratings]] = {}
        """the same key → (archive state, snapshot)."""
        self._warming = OneRun("ratings-warm-up")
        self._memo: dict[str, tuple[str, RatedGame | None]] = {}
        """session id → (its record's fingerprint, the game as rated, or None when it is not rated)."""
        self._memo_who: Any = None
        """The signature of the roster the games in ``_memo`` were read with."""
        self._seen: dict[str, str] = {}
        """Every name recorded in the games of ``_memo`` → the roster id it was given. A new roster keeps the games
        read while each of these names still gives the same id (a new player, a rename); otherwise (a merge, a
        name taken by another player) they are read again."""
        self._memo_names: dict[str, str] = {}
        """roster id → name of everyone in the remembered games (players not in the roster included)."""
        self._last: dict[Any, tuple[list[SessionSummary], list[RatedGame]]] = {}
        """scope slot → (the rows read last, their games in rating order), over the games of ``_memo``."""

    def identity(self) -> Identity:
        return Identity(self.archive.players.list())

    def finished(self) -> list[SessionSummary]:
        """The finished games, newest first by (last change, session id), as the archive lists them."""
        return self.archive.list_sessions(status=SessionStatus.FINISHED)

    def ratings(
        self,
        scope: str = ALL,
        *,
        within: Callable[[SessionSummary], bool] | None = None,
        key: tuple[str, str] = ("", ""),
        background: bool = False,
    ) -> Ratings:
        """The ratings of ``scope`` over every finished game (or those ``within`` accepts, remembered under
        ``key``: a season's first and last day). ``background``: worked out on a thread beside the server's, which
        they leave free to answer taps between games (:class:`Pauses`)."""
        scope = check_scope(scope)
        slot = (scope, *key)
        archive = self.archive
        players = tuple(archive.players.list())
        state = (id(archive), archive.generation, players)
        with self._lock:
            known = self._snapshots.get(slot)
            if known is not None and known[0] == state:
                return known[1]
            who = Identity(players)
            rows = [s for s in self.finished() if (scope == ALL or s.game == scope) and (within is None or within(s))]
            games = self._games(rows, who, slot)
            book = self._books.get(slot)
            if book is None:
                book = self._books[slot] = Book()
            book.update(games, Pauses() if background else None)
            names = {**self._memo_names, **who.names}
            snapshot = Ratings(
                scope,
                tuple(book.order),
                tuple(book.players(lambda pid: names.get(pid, pid))),
                tuple(book.steps),
                names,
                book.by_player,
            )
            self._snapshots[slot] = (state, snapshot)
            return snapshot

    def ratings_now(self, scope: str = ALL) -> Ratings | None:
        """The ratings of ``scope`` over every finished game when they are at hand or a few games away (one more
        game, a recent correction): ``None`` when they would take long (they are being worked out, or more than
        :data:`BULK` games were added or removed since), for the caller to show the rest at once and ask
        :meth:`ratings` in the background. A small archive's ratings are always at hand."""
        scope = check_scope(scope)
        if not self._lock.acquire(blocking=False):  # a warm-up (or another screen) is working them out
            return None
        try:
            slot = (scope, "", "")
            archive = self.archive
            known = self._snapshots.get(slot)
            if known is not None and known[0] == (id(archive), archive.generation, tuple(archive.players.list())):
                return known[1]
            last = self._last.get(slot)
            rows = [s for s in self.finished() if scope == ALL or s.game == scope]
            if abs(len(rows) - (len(last[0]) if last is not None else 0)) > BULK:
                return None
            return self.ratings(scope)
        finally:
            self._lock.release()

    def _games(self, rows: list[SessionSummary], who: Identity, slot: Any = None) -> list[RatedGame]:
        """The rated games among ``rows`` in rating order. Each game's standings are remembered by the fingerprint
        of its record: many new ones are read through the statistics' outcome cache, a few (one more game) are
        replayed here, so that one more game does not rewrite that cache's file."""
        if self._memo_who != who.signature:
            if any(who(name)[0] != pid for name, pid in self._seen.items()):  # a merge: read every game again
                self._memo.clear()
                self._seen.clear()
                self._last.clear()
                self._memo_names.clear()
            self._memo_who = who.signature
        last = self._last.get(slot)
        if last is not None and len(rows) >= len(last[0]):
            added = len(rows) - len(last[0])
            if rows[added:] == last[0]:  # only newer games than before (compared in C, by identity first)
                out = last[1] + self._read(rows[:added], who) if added else last[1]
                self._last[slot] = (rows, out)
                return out
        out = self._read(rows, who)
        if slot is not None:
            self._last[slot] = (rows, out)
        return out

    def _read(self, rows: list[SessionSummary], who: Identity) -> list[RatedGame]:
        memo = self._memo
        get = memo.get
        missing = []
        for summary in rows:
            known = get(summary.id)
            if known is None or known[0] != summary.fingerprint:
                missing.append(summary)
        if len(missing) > BULK:
            found = {o.session_id: o for o in self.outcomes.outcomes(self.archive, missing)}
        else:
            found = {s.id: o for s in missing if (o := self._outcome(s)) is not None}
        seen = self._seen

        def seen_who(name: str) -> tuple[str, str]:
            found = who(name)
            seen[name] = found[0]
            return found

        for summary in missing:
            outcome = found.get(summary.id)
            game = RatedGame.of(outcome, seen_who) if outcome is not None else None
            memo[summary.id] = (summary.fingerprint, game if game is not None and len(game.ids) >= 2 else None)
        self._memo_names.update(who.names)  # the names of players not in the roster, met while reading the games
        out: list[RatedGame] = []
        append = out.append
        # the archive lists the newest first, by (last change, id): backwards, that is the order of rating
        for summary in reversed(rows):
            fingerprint, game = memo[summary.id]
            if game is None:
                continue
            if game.ended != summary.updated_at:  # changed without a change to the record (a new title, say)
                game = dataclasses.replace(game, ended=summary.updated_at)
                memo[summary.id] = (fingerprint, game)
            append(game)
        return out

    def _outcome(self, summary: SessionSummary) -> Outcome | None:
        try:
            doc = self.archive.load_session(summary.id)
            result = find_game(doc.game).score(doc.record)
        except (StorageError, ScoringError):
            return None  # Statistics tells why it cannot be replayed
        if not result.finished or result.cancelled:
            return None
        return Outcome.of_result(summary.id, result, summary.updated_at)

    def warm_up(self) -> threading.Thread | None:
        """Work out the ratings of every game in a background thread (called when History opens, so that Statistics
        opens at once); ``None`` if one is already running."""

        def run() -> None:
            try:
                self.ratings(ALL, background=True)
            except Exception:  # the screen will meet and report it when it opens
                _log.debug("ratings warm-up failed", exc_info=True)

        return self._warming.start(run)

    def night_changes(self, session_ids: Iterable[str], names: Iterable[str]) -> dict[str, float]:
        """Each of ``names`` (as the night knows them) with their change of rating (all games) over the night's
        games ``session_ids``; a player with no finished game that night is left out."""
        changes = self.ratings(ALL).changes(session_ids)
        who = self.identity()
        out = {}
        for name in names:
            pid = who(name)[0]
            if pid in changes:
                out[name] = changes[pid]
        return out


def signed(value: float, words: Words = ENGLISH) -> str:
    """A rating change as shown: ``+1.2``, ``−0.4``, ``±0.0`` (the language's decimal mark).

    >>> signed(1.234), signed(-0.44), signed(0.01)
    ('+1.2', '−0.4', '±0.0')
    """
    return signed_tenths(value, words)


def rating_text(p: PlayerRating, words: Words = ENGLISH) -> str:
    """``18.3 (μ 27.1 ± 2.9)``, with ``provisional`` for fewer than :data:`PROVISIONAL_GAMES` games.

    >>> rating_text(PlayerRating("a", "Ann", 27.1, 2.9, 12, 4)), rating_text(PlayerRating("a", "Ann", 25, 8.33, 1, 0))
    ('18.4 (μ 27.1 ± 2.9)', '0.0 (μ 25.0 ± 8.3) provisional')
    """
    text = f"{tenths(p.ordinal, words)} (μ {tenths(p.mu, words)} ± {tenths(p.sigma, words)})"
    return text + (" " + words.gettext("provisional") if p.provisional else "")


__all__ = [
    "ALL",
    "MIN_SHARED",
    "PROVISIONAL_GAMES",
    "Book",
    "Change",
    "Identity",
    "PlayerRating",
    "Point",
    "RatedGame",
    "RatingError",
    "RatingService",
    "Ratings",
    "Rivals",
    "Step",
    "check_scope",
    "conservative",
    "model",
    "rate",
    "rated_games",
    "rating_text",
    "scope_name",
    "signed",
]
