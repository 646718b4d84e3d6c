"""Seasons: named ranges of dates, their standings and their recap. No Flet in here.

A season covers the games that ended on its days (local dates, both ends included). There is a default season for
every calendar year in which a game ended (named after the year, ``2026``); seasons the table names itself are kept
with the settings (``settings.json``, key ``seasons``, a versioned document), and one with a year's name replaces
that year's default.

**Season standings** (per scope, a game or all of them): games, wins, points, money, and the change of rating.

* **Points by finishing place**: :data:`POINTS_RULE`. A game of *n* players gives 1 point for every player who
  finished below you: the winner gets *n* − 1, the last 0. Players who share a place share the points of the places
  they cover: two tied for 2nd of 4 get (2 + 1) / 2 = 1.5 each.
* **Money**: what each player won or lost with Vegas Rules in the season's games, plus, across all games, the
  entries of the ledgers of the game nights that started in the season.
* **Rating change**: the change of the player's rating in the scope (rated over every game, as
  :mod:`companion.ratings` says) from before their first game of the season to after their last.

>>> points_for([1, 2, 3, 4]), points_for([1, 2, 2, 4]), points_for([1, 1, 3])
([3.0, 2.0, 1.0, 0.0], [3.0, 1.5, 1.5, 0.0], [1.5, 1.5, 0.0])
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any, Protocol

from companion.formats import points as points_in
from companion.formats import signed_tenths, tenths
from companion.i18n import N_, Words
from companion.money import MoneyFormat, format_money
from companion.ratings import ALL, Ratings, RatingService, check_scope, scope_name
from scoring import ScoringError, find_game
from storage import Archive, SessionSummary, StorageError

ENGLISH = Words.of("en")
RATING_CHANGE, MONEY = N_("Rating change"), N_("Money")

SETTINGS_KEY = "seasons"
SEASONS_VERSION = 1
"""The version of the stored seasons document: ``{"schema_version": 1, "seasons": [{"name", "start", "end"}]}``."""
MAX_SEASON_NAME = 40
POINTS_RULE = N_(
    "Points by finishing place: 1 point for every player who finished below you (the winner of a game of n gets "
    "n − 1, the last 0); players who share a place share the points of the places they cover."
)


class SeasonError(ValueError):
    """A season that cannot be: an unknown name, a bad name or date, or a start after the end."""


class Store(Protocol):
    """Where the seasons are kept: the settings store (:class:`storage.settings.SettingsStore`)."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def set(self, key: str, value: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    start: date
    end: date
    default: bool = False
    """A calendar year's season, not one the table named."""

    def covers(self, day: date) -> bool:
        return self.start <= day <= self.end

    @property
    def span(self) -> str:
        """``2026-01-01 – 2026-12-31``."""
        return f"{self.start.isoformat()} – {self.end.isoformat()}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "default": self.default,
        }


def _date(text: Any, what: str, name: str) -> date:
    if isinstance(text, date):
        return text
    try:
        return date.fromisoformat(str(text).strip())
    except ValueError:
        raise SeasonError(f"season {name!r}: {what} {text!r} is not a date (write it as 2026-01-31)") from None


def make_season(name: Any, start: Any, end: Any) -> Season:
    """A season the table names, checked: a name of 1–40 characters, two dates, a start no later than the end.

    >>> make_season("Winter", "2026-01-01", "2026-03-31").span
    '2026-01-01 – 2026-03-31'
    >>> make_season("Spring", "2026-06-01", "2026-03-01")
    Traceback (most recent call last):
    ...
    companion.seasons.SeasonError: season 'Spring' starts on 2026-06-01, after it ends on 2026-03-01
    """
    if not isinstance(name, str) or not " ".join(name.split()):
        raise SeasonError("a season needs a name")
    clean = " ".join(name.split())
    if len(clean) > MAX_SEASON_NAME or any(ord(c) < 32 for c in clean):
        raise SeasonError(f"the season name {clean[:MAX_SEASON_NAME]!r}… is too long (at most {MAX_SEASON_NAME})")
    first, last = _date(start, "the start", clean), _date(end, "the end", clean)
    if first > last:
        raise SeasonError(f"season {clean!r} starts on {first}, after it ends on {last}")
    return Season(clean, first, last)


def year_season(year: int) -> Season:
    return Season(str(year), date(year, 1, 1), date(year, 12, 31), default=True)


def local_day(stamp: str, tz: tzinfo | None = None) -> date:
    """The local date of a stored ISO UTC time."""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (moment.astimezone(tz) if tz is not None else moment.astimezone()).date()


class Seasons:
    """The seasons: the calendar years in which games ended, and those the table named (kept in ``store``)."""

    def __init__(
        self, store: Store, archive: Archive, listing: Callable[[], Iterable[SessionSummary]] | None = None
    ) -> None:
        self.store = store
        self.archive = archive
        self.listing = listing if listing is not None else archive.list_sessions
        """Every session (the app passes its remembered list, :meth:`companion.history.SessionLists.every`)."""
        self.problems: list[str] = []
        """Stored seasons left out because they are not valid (each in words)."""
        self._years: tuple[Any, set[int]] = (None, set())
        """(the archive's state, the years in which its games ended), so that the list costs no listing while the
        archive does not change."""

    def named(self) -> list[Season]:
        """The seasons the table named, as stored (a damaged one is left out and told in :attr:`problems`)."""
        raw = self.store.get(SETTINGS_KEY)
        self.problems = []
        if not isinstance(raw, dict) or not isinstance(raw.get("seasons"), list):
            return []
        out = []
        for item in raw["seasons"]:
            try:
                if not isinstance(item, dict):
                    raise SeasonError("a stored season is not a name with two dates")
                out.append(make_season(item.get("name"), item.get("start"), item.get("end")))
            except SeasonError as exc:
                self.problems.append(str(exc))
        return out

    def all(self, tz: tzinfo | None = None) -> list[Season]:
        """Every season, newest first: named ones and the years with games (this year's always)."""
        named = self.named()
        names = {s.name.casefold() for s in named}
        state = (id(self.archive), self.archive.generation, str(tz))
        if self._years[0] != state:
            found = set()
            for summary in self.listing():
                with contextlib.suppress(ValueError):
                    found.add(local_day(summary.updated_at, tz).year)
            self._years = (state, found)
        years = {date.today().year, *self._years[1]}
        out = named + [year_season(y) for y in years if str(y) not in names]
        out.sort(key=lambda s: (s.end, s.start, s.name), reverse=True)
        return out

    def get(self, name: str, tz: tzinfo | None = None) -> Season:
        """The season called ``name`` (ignoring case), or :class:`SeasonError` naming it."""
        wanted = " ".join(str(name).split()).casefold()
        for season in self.all(tz):
            if season.name.casefold() == wanted:
                return season
        known = ", ".join(s.name for s in self.all(tz))
        raise SeasonError(f"there is no season {name!r} (the seasons are: {known})")

    def add(self, name: str, start: Any, end: Any) -> Season:
        """Name a season (refused with :class:`SeasonError` when it is not valid or the name is taken)."""
        season = make_season(name, start, end)
        named = self.named()
        taken = next((s for s in named if s.name.casefold() == season.name.casefold()), None)
        if taken is not None:
            raise SeasonError(f"there is already a season called {taken.name!r}")
        self._save([*named, season])
        return season

    def remove(self, name: str) -> None:
        named = self.named()
        kept = [s for s in named if s.name.casefold() != name.casefold()]
        if len(kept) == len(named):
            raise SeasonError(f"there is no season {name!r} that the table named")
        self._save(kept)

    def _save(self, seasons: Sequence[Season]) -> None:
        doc = {
            "schema_version": SEASONS_VERSION,
            "seasons": [{"name": s.name, "start": s.start.isoformat(), "end": s.end.isoformat()} for s in seasons],
        }
        self.store.set(SETTINGS_KEY, doc)


def within(season: Season, tz: tzinfo | None = None) -> Callable[[SessionSummary], bool]:
    """Whether a session ended on a day of ``season``."""
    return lambda s: season.covers(local_day(s.updated_at, tz))


# --- standings -------------------------------------------------------------------------------------------------


def points_for(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place (:data:`POINTS_RULE`); ``places`` as :func:`scoring.standings` gives them."""
    n = len(places)
    order = sorted(range(n), key=lambda i: places[i])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and places[order[j + 1]] == places[order[i]]:
            j += 1
        share = sum(n - 1 - k for k in range(i, j + 1)) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


@dataclass(frozen=True, slots=True)
class SeasonLine:
    id: str
    name: str
    games: int
    wins: int
    points: float
    money: int
    """Cents won (positive) or lost (negative)."""
    rating_change: float


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    scope: str
    games: int
    lines: tuple[SeasonLine, ...]
    """Most points first, then wins, then name."""
    ratings: Ratings
    """The ratings of the scope over the season's games only (what ``companion ratings --season`` prints)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "season": self.season.to_json(),
            "scope": self.scope,
            "games": self.games,
            "points_rule": POINTS_RULE,
            "players": [
                {
                    "id": x.id,
                    "name": x.name,
                    "games": x.games,
                    "wins": x.wins,
                    "points": x.points,
                    "money": x.money,
                    "rating_change": x.rating_change,
                }
                for x in self.lines
            ],
        }


def format_points(value: float) -> str:
    """``3``, ``1.5``.

    >>> format_points(3.0), format_points(1.5), format_points(2 / 3)
    ('3', '1.5', '0.67')
    """
    return points_in(value)


class SeasonService:
    """Season standings and recaps over the ratings and the game nights."""

    def __init__(self, seasons: Seasons, ratings: RatingService, nights: Callable[[], Iterable[Any]]) -> None:
        self.seasons = seasons
        self.ratings = ratings
        self.nights = nights
        """The game nights (:class:`companion.night_model.Night`), for their ledgers."""
        self._vegas: dict[str, tuple[str, dict[str, int]]] = {}

    def season_ratings(self, season: Season, scope: str = ALL, tz: tzinfo | None = None) -> Ratings:
        """Ratings of ``scope`` over the games of ``season`` only."""
        return self.ratings.ratings(
            scope, within=within(season, tz), key=(season.start.isoformat(), season.end.isoformat())
        )

    def _vegas_of(self, summary: SessionSummary) -> dict[str, int]:
        """What a finished Bargain Bin game with Vegas Rules paid each player (net, cents; by recorded name)."""
        known = self._vegas.get(summary.id)
        if known is not None and known[0] == summary.fingerprint:
            return known[1]
        net: dict[str, int] = {}
        try:
            result = find_game(summary.game).score(self.ratings.archive.load_session(summary.id).record)
        except (StorageError, ScoringError):
            result = None
        from scoring.bargain_bin import BargainBinResult  # imported by the game's result already

        if isinstance(result, BargainBinResult) and result.payments is not None and result.finished:
            given = dict(result.payouts or {})
            net = {name: given.get(name, 0) - paid for name, paid in result.payments.items()}
        self._vegas[summary.id] = (summary.fingerprint, net)
        return net

    def standings(self, season: Season, scope: str = ALL, tz: tzinfo | None = None) -> SeasonStandings:
        scope = check_scope(scope)
        inside = self.season_ratings(season, scope, tz)
        overall = self.ratings.ratings(scope)
        who = self.ratings.identity()
        games = 0
        rows: dict[str, list[float]] = {}

        def row(pid: str) -> list[float]:
            return rows.setdefault(pid, [0, 0, 0.0, 0])

        for step in inside.steps:
            games += 1
            for pid, won, points in zip(step.game.ids, step.game.won, points_for(step.game.places), strict=True):
                r = row(pid)
                r[0] += 1
                r[1] += int(won)
                r[2] += points
        finished = {s.id: s for s in self.ratings.finished()}
        for sid in inside.order:
            summary = finished.get(sid)
            if summary is not None and summary.game == "bargain-bin":
                for name, cents in self._vegas_of(summary).items():
                    row(who(name)[0])[3] += cents
        if scope == ALL:
            from companion.night_model import NightError

            for night in self.nights():
                with contextlib.suppress(NightError, ValueError):
                    if not season.covers(local_day(night.started, tz)):
                        continue
                    for entry in night.entries:
                        for name, cents in entry.balances().items():
                            row(who(name)[0])[3] += cents
        change = overall.changes(inside.order)
        names = {**inside.names, **who.names}
        lines = [
            SeasonLine(pid, names.get(pid, pid), int(r[0]), int(r[1]), r[2], int(r[3]), change.get(pid, 0.0))
            for pid, r in rows.items()
        ]
        lines.sort(key=lambda x: (-x.points, -x.wins, x.name.casefold()))
        return SeasonStandings(season, scope, games, tuple(lines), inside)


# --- the recap -------------------------------------------------------------------------------------------------


def recap_sections(
    standings: SeasonStandings, fmt: MoneyFormat | None = None, words: Words = ENGLISH
) -> list[tuple[str, list[str]]]:
    """The season recap as (heading, lines), shared by the text and the image."""
    _, ngettext = words.gettext, words.ngettext
    table = [
        _("{n}. {name}: {points} points · {games} · {wins}").format(
            n=n,
            name=x.name,
            points=points_in(x.points, words),
            games=ngettext("{n} game", "{n} games", x.games).format(n=x.games),
            wins=ngettext("{n} win", "{n} wins", x.wins).format(n=x.wins),
        )
        for n, x in enumerate(standings.lines, start=1)
    ] or [_("No games in this season yet.")]
    out = [(_("Standings"), table), (_("Points"), [_(POINTS_RULE)])]
    rated = [p for p in standings.ratings.players]
    if rated:
        out.append(
            (
                _("Ratings"),
                [
                    (_("{n}. {name}: {rating} (provisional)") if p.provisional else "{n}. {name}: {rating}").format(
                        n=n, name=p.name, rating=tenths(p.ordinal, words)
                    )
                    for n, p in enumerate(rated, start=1)
                ],
            )
        )
        out.append((_(RATING_CHANGE), [f"{x.name}: {signed_tenths(x.rating_change, words)}" for x in standings.lines]))
    if any(x.money for x in standings.lines):
        out.append((_(MONEY), [f"{x.name}: {format_money(x.money, fmt, signed=True)}" for x in standings.lines]))
    return out


def recap_title(standings: SeasonStandings, words: Words = ENGLISH) -> str:
    """``Season 2026 · All games``."""
    return words.gettext("Season {name} · {scope}").format(
        name=standings.season.name, scope=scope_name(standings.scope, words)
    )


def recap_text(standings: SeasonStandings, fmt: MoneyFormat | None = None, words: Words = ENGLISH) -> str:
    """The season recap as plain text for a messenger."""
    games = words.ngettext("{n} game", "{n} games", standings.games).format(n=standings.games)
    if words.code == "en":
        games = f"{standings.games} games"  # the English recap has always said "games", also for one
    blocks = [f"{recap_title(standings, words)}\n{standings.season.span} · {games}"]
    for heading, lines in recap_sections(standings, fmt, words):
        blocks.append("\n".join([heading, *lines]))
    return "\n\n".join(blocks)


def recap_png(
    standings: SeasonStandings, fmt: MoneyFormat | None = None, dark: bool = False, words: Words = ENGLISH
) -> bytes:
    """The season recap drawn as a PNG, like the night's (:func:`companion.night_image.sections_png`)."""
    from companion.night_image import sections_png

    games = words.ngettext("{n} game", "{n} games", standings.games).format(n=standings.games)
    subtitle = f"{standings.season.span}  ·  {games}"
    return sections_png(recap_title(standings, words), subtitle, recap_sections(standings, fmt, words), dark=dark)


def is_png(data: bytes) -> bool:
    return data[:8] == b"\x89PNG\r\n\x1a\n"
