"""Statistics: per player (games, wins, win rate, average place) and per game (average and best results), a chart of
wins per player, and head-to-head records. Only finished games count.

The figures come from :mod:`companion.stats` (with its outcome cache); this module only lays them out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import parse_qs, quote, urlsplit

import flet as ft
from babel.numbers import format_decimal

from companion.i18n import Words
from companion.players import Resolver
from companion.ratings import scope_name
from companion.seasons import Season, within
from companion.settings import Theme
from companion.stats import (
    HeadToHead,
    OutcomeCache,
    PlayerStats,
    Statistics,
    compute,
    format_average,
    format_rate,
    game_name,
)
from companion.storage_types import Archive
from scoring import GAMES, lower_wins
from views.charts import wins_chart
from views.context import ViewContext
from views.paging import Paged
from views.ratings import ratings_section, season_form, season_section
from views.widgets import TAP, big_button, empty_state, heading, paragraph, screen

ALL = "all"
ENGLISH = Words.of("en")
FIRST_ROWS = 10
"""Rows each list of Statistics shows before its "Show more" (a phone shows about that many; with 10,000 games
the screen is sent and drawn at a third less)."""
T = TypeVar("T")


def _first_rows(row: Callable[[T], ft.Control], noun: str, words: Words) -> Paged[T]:
    """A list of the first :data:`FIRST_ROWS` rows (counted when cut), the rest one tap away."""
    return Paged(
        row,
        noun=noun,
        empty=list,
        show_count="if-cut",
        first="first",
        spacing=8,
        page_size=FIRST_ROWS,
        words=words,
    )


def player_summary(p: PlayerStats, words: Words = ENGLISH) -> str:
    """``3 games · 2 wins · 67% won · average place 1.3``."""
    games = words.ngettext("{n} game", "{n} games", p.games).format(n=p.games)
    wins = words.ngettext("{n} win", "{n} wins", p.wins).format(n=p.wins)
    return words.gettext("{games} · {wins} · {rate} won · average place {place}").format(
        games=games,
        wins=wins,
        rate=format_rate(p.win_rate, words),
        place=format_average(p.average_position, words),
    )


def game_line_text(p: PlayerStats, game: str, words: Words = ENGLISH) -> list[str]:
    """One line per game the player played: ``Jokers Kill: 2 games, 1 win, average 10, best 12, average place 1.5``."""
    _, ngettext = words.gettext, words.ngettext
    out = []
    for line in p.by_game:
        if game != ALL and line.game != game:
            continue
        said = (
            _("{game}: {games}, {wins}, average {average}, best (lowest) {best}, average place {place}")
            if lower_wins(line.game)
            else _("{game}: {games}, {wins}, average {average}, best {best}, average place {place}")
        )
        out.append(
            said.format(
                game=game_name(line.game),
                games=ngettext("{n} game", "{n} games", line.games).format(n=line.games),
                wins=ngettext("{n} win", "{n} wins", line.wins).format(n=line.wins),
                average=format_average(line.average_result, words),
                best=line.best_result,
                place=format_average(line.average_position, words),
            )
        )
    return out


def head_to_head_text(h: HeadToHead, words: Words = ENGLISH) -> str:
    """``Ann v Ben: ahead 1, behind 2, level 1 (4 games)``."""
    games = words.ngettext("{n} game", "{n} games", h.games).format(n=h.games)
    return words.gettext("{name} v {other}: ahead {ahead}, behind {behind}, level {level} ({games})").format(
        name=h.player, other=h.opponent, ahead=h.ahead, behind=h.behind, level=h.level, games=games
    )


def player_block(
    p: PlayerStats, game: str, on_open: Callable[[str], None] | None, words: Words = ENGLISH
) -> ft.Control:
    """One player's figures: the name (a button to their profile), the summary and a line per game."""
    name: ft.Control = ft.TextButton(
        content=ft.Text(p.name, size=18, weight=ft.FontWeight.BOLD),
        on_click=(lambda _: on_open(p.name)) if on_open is not None else None,
        tooltip=words.gettext("{name}'s profile").format(name=p.name),
        height=TAP - 8,
    )
    summary = player_summary(p, words)
    rows: list[ft.Control] = [
        name,
        ft.Text(summary, size=15, semantics_label=f"{p.name}: {summary}"),
    ]
    rows += [ft.Text(text, size=14, semantics_label=f"{p.name}, {text}") for text in game_line_text(p, game, words)]
    return ft.Container(
        content=ft.Column(rows, spacing=2),
        padding=ft.Padding.symmetric(vertical=6, horizontal=8),
        border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
    )


def stats_controls(
    archive: Archive,
    game: str | None,
    *,
    cache: OutcomeCache | None = None,
    aliases: Mapping[str, str] | None = None,
    on_open: Callable[[str], None] | None = None,
    figures: Statistics | None = None,
    words: Words | None = None,
) -> tuple[list[ft.Control], Statistics]:
    """The controls of the Statistics screen below its game filter, and the figures they show (``figures`` when
    the caller worked them out, over a season say)."""
    source = cache if cache is not None else OutcomeCache(None)
    stats = figures if figures is not None else source.statistics(archive, game=game, aliases=aliases)
    key = game if game is not None else ALL
    words = words or ENGLISH
    _ = words.gettext
    controls: list[ft.Control] = [
        ft.Text(
            words.ngettext("{n} finished game", "{n} finished games", stats.games).format(n=stats.games),
            size=16,
            semantics_label=_("{n} finished games").format(n=stats.games),
        )
    ]
    for problem in source.problems[:5]:
        controls.append(ft.Text(problem, size=14, color=ft.Colors.ERROR))
    if not stats.players:
        controls.append(
            empty_state(_("No finished games yet"), _("Statistics appear once a game has been played to the end."))
        )
        return controls, stats
    controls += [heading(_("Wins per player")), wins_chart(stats.wins_per_player(), words=words)]
    controls.append(heading(_("Players")))
    if game is not None and lower_wins(game):
        controls.append(
            paragraph(
                _("In {game} the lowest total wins, so the best result is the lowest.").format(game=game_name(game))
            )
        )
    players: Paged[PlayerStats] = _first_rows(lambda p: player_block(p, key, on_open, words), "player", words)
    players.show(stats.players)
    controls += players.controls
    controls.append(heading(_("Head-to-head")))
    controls.append(paragraph(_("Who finished ahead of whom in the games both played.")))
    pairs: Paged[HeadToHead] = _first_rows(lambda h: ft.Text(head_to_head_text(h, words), size=14), "pairing", words)
    pairs.show([h for h in stats.head_to_head if h.player < h.opponent])
    controls += pairs.controls
    return controls, stats


# long: the two filters and the two fills (now, and when the ratings are ready) share the screen's controls
def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/stats``: the statistics, for every game or one."""
    archive: Archive = ctx.services.archive
    aliases = ctx.services.players.aliases()
    body = ft.Column(spacing=8)
    words = ctx.words
    _ = words.gettext

    def open_player(name: str) -> None:
        player = ctx.services.players.find(name)
        if player is not None:
            ctx.navigate(f"/players/{player.id}")

    def open_rated(player_id: str) -> None:
        ctx.navigate(f"/players/{player_id}")

    def added(name: str) -> None:  # a new season: the screen again, showing it
        ctx.navigate(f"/stats?season={quote(name)}")

    def fill(update: bool) -> None:
        chosen = None if game.value in (None, ALL) else game.value
        picked = next((s for s in seasons if s.name == season.value), None)
        figures = None
        if picked is not None:  # the figures of the season's games only
            figures = season_statistics(ctx.services, picked, chosen, aliases)
        controls, shown = stats_controls(
            archive,
            chosen,
            cache=ctx.services.stats,
            aliases=aliases,
            on_open=open_player,
            figures=figures,
            words=words,
        )
        scope = chosen or ALL
        filled[0] += 1
        if picked is None:
            now = ctx.services.ratings.ratings_now(scope)
            if now is not None:
                rated = ratings_section(now, on_open=open_rated, page_size=FIRST_ROWS, words=words)
            else:  # many games to rate (the first time after a start): the rest now, the ratings when ready
                count = format_decimal(shown.games, locale=words.locale)
                rated = [
                    heading(_("Ratings")),
                    paragraph(_("Working out the ratings of {n} finished games…").format(n=count)),
                ]
                ctx.page.run_thread(rate_later, scope, filled[0])
        else:
            standings = ctx.services.seasons.standings(picked, scope)
            title = _("Ratings · {scope} · season {season}").format(
                scope=scope_name(standings.ratings.scope, words), season=picked.name
            )
            rated = ratings_section(
                standings.ratings, on_open=open_rated, title=title, page_size=FIRST_ROWS, words=words
            )
            rated += season_section(
                standings, ctx.settings.money_shown, dark=ctx.settings.theme is Theme.DARK, words=words
            )
        ratings_box.controls = rated
        body.controls = [
            *controls[:1],
            ratings_box,
            *controls[1:],
            *season_form(ctx.services.seasons.seasons.add, added, words),
        ]
        if update:
            with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                body.update()

    def rate_later(scope: str, fill_number: int) -> None:
        """On a thread of the page: work out the ratings, then show them unless the filter changed meanwhile."""
        try:
            rated = ratings_section(
                ctx.services.ratings.ratings(scope, background=True),
                on_open=open_rated,
                page_size=FIRST_ROWS,
                words=words,
            )
        except Exception as exc:  # the screen says it; the rest of it stays
            rated = [
                heading(_("Ratings")),
                paragraph(_("The ratings could not be worked out: {error}").format(error=exc)),
            ]
        if fill_number != filled[0]:
            return
        ratings_box.controls = rated
        with contextlib.suppress(RuntimeError):
            ratings_box.update()

    filled = [0]
    """How many times the screen was filled (a later ratings table belongs to the last fill only)."""
    ratings_box = ft.Column(spacing=8)

    seasons = ctx.services.seasons.seasons.all()
    wanted = parse_qs(urlsplit(ctx.page.route or "").query).get("season", [ALL])[0]  # /stats?season=2026
    season = ft.Dropdown(
        label=_("Season"),
        value=wanted if any(s.name == wanted for s in seasons) else ALL,
        options=[ft.DropdownOption(key=ALL, text=_("All time"))]
        + [ft.DropdownOption(key=s.name, text=f"{s.name} ({s.span})") for s in seasons],
        on_select=lambda e: fill(True),
        tooltip=_("Season"),
    )

    game = ft.Dropdown(
        label=_("Game"),
        value=ALL,
        options=[ft.DropdownOption(key=ALL, text=_("All games"))]
        + [ft.DropdownOption(key=g.key, text=g.name) for g in GAMES],
        on_select=lambda e: fill(True),
        tooltip=_("Game"),
    )
    fill(False)
    nights = ft.Row([big_button(_("Game nights"), lambda e: ctx.navigate("/stats/nights"), icon=ft.Icons.NIGHTLIFE)])
    return screen(
        ctx,
        _("Statistics"),
        [nights, ft.Container(game, padding=ft.Padding.only(top=8)), ft.Container(season), body],
    )


def season_statistics(services: Any, season: Season, game: str | None, aliases: Mapping[str, str]) -> Statistics:
    """Statistics over the finished games of ``season`` only."""
    rows = [s for s in services.ratings.finished() if within(season)(s)]
    return compute(services.stats.outcomes(services.archive, rows), resolve=Resolver(dict(aliases)), game=game)
