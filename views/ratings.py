"""Ratings and seasons on screen: the ratings table of a scope, a player's rating over time, a player's rating per
game, and a season's standings with its recap. The figures come from :mod:`companion.ratings` and
:mod:`companion.seasons`; this module only lays them out."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.formats import points as points_in
from companion.formats import tenths
from companion.history import PAGE_SIZE
from companion.i18n import N_, Words
from companion.money import MoneyFormat, format_money
from companion.ratings import (
    MIN_SHARED,
    PROVISIONAL_GAMES,
    PlayerRating,
    Ratings,
    rating_text,
    scope_name,
    signed,
)
from companion.seasons import POINTS_RULE, SeasonLine, SeasonStandings, recap_png, recap_text
from views.charts import rating_chart
from views.paging import Paged
from views.widgets import TAP, big_button, heading, panel, paragraph

RULE = N_(
    "The rating is the conservative estimate μ − 3σ of a Weng-Lin (openskill) rating: μ is the skill, σ how sure "
    "it is. Provisional until {n} games."
)
ENGLISH = Words.of("en")


def rating_row_text(rank: int, p: PlayerRating, words: Words = ENGLISH) -> tuple[str, str]:
    """``1. Ann  18.4`` and ``μ 27.1 ± 2.9 · 12 games · 4 wins``.

    >>> rating_row_text(1, PlayerRating("a", "Ann", 27.1, 2.9, 3, 1))
    ('1. Ann  18.4', 'μ 27.1 ± 2.9 · 3 games · 1 win · provisional')
    """
    games = words.ngettext("{n} game", "{n} games", p.games).format(n=p.games)
    wins = words.ngettext("{n} win", "{n} wins", p.wins).format(n=p.wins)
    detail = f"μ {tenths(p.mu, words)} ± {tenths(p.sigma, words)} · {games} · {wins}"
    if p.provisional:
        detail += " · " + words.gettext("provisional")
    return f"{rank}. {p.name}  {tenths(p.ordinal, words)}", detail


def rating_row(rank: int, p: PlayerRating, on_open: Callable[[str], None] | None, words: Words = ENGLISH) -> ft.Control:
    """One row of the ratings table; a tap opens the player's page."""
    title, detail = rating_row_text(rank, p, words)
    label = words.gettext("Rank {rank}, {name}, rating {rating}, {detail}").format(
        rank=rank, name=p.name, rating=tenths(p.ordinal, words), detail=detail
    )
    return ft.ListTile(
        title=ft.Text(title, size=17, weight=ft.FontWeight.BOLD, semantics_label=label),
        subtitle=ft.Text(detail, size=14),
        on_click=(lambda _: on_open(p.id)) if on_open is not None else None,
        tooltip=label,
        min_height=TAP + 8,
        content_padding=ft.Padding.symmetric(horizontal=8),
    )


def ratings_section(
    ratings: Ratings,
    *,
    on_open: Callable[[str], None] | None = None,
    title: str | None = None,
    page_size: int = PAGE_SIZE,
    words: Words = ENGLISH,
) -> list[ft.Control]:
    """The ratings table of one scope (rank, name, rating, μ ± σ, games, wins) and a player's rating over time (on
    request: :func:`rating_over_time`)."""
    _ = words.gettext
    out: list[ft.Control] = [
        heading(title or _("Ratings · {scope}").format(scope=scope_name(ratings.scope, words))),
        paragraph(_(RULE).format(n=PROVISIONAL_GAMES)),
    ]
    if not ratings.players:
        out.append(paragraph(_("No rated games yet: every finished game is rated.")))
        return out
    ranked = list(enumerate(ratings.players, start=1))
    rows: Paged[tuple[int, PlayerRating]] = Paged(
        lambda item: rating_row(item[0], item[1], on_open, words),
        noun="player",
        empty=list,
        show_count="if-cut",
        first="first",
        page_size=page_size,
        words=words,
    )
    rows.show(ranked)
    out += rows.controls
    out.append(rating_over_time(ratings, words))
    return out


def rating_over_time(ratings: Ratings, words: Words = ENGLISH) -> ft.Column:
    """A player's rating over time, drawn on request: a button at first (the chart, its 60 points and the list of
    players to pick from are a fifth of what Statistics sends), then the chart of the top player and a list to pick
    another. ``ratings`` has at least one player."""
    _ = words.gettext
    box = ft.Column(spacing=8)
    chart_box = ft.Container()

    def draw(player_id: str, update: bool) -> None:
        points = ratings.history(player_id)
        chart_box.content = rating_chart(ratings.name(player_id), [p.ordinal for p in points], words)
        if update:
            with contextlib.suppress(RuntimeError):
                chart_box.update()

    def show(_event: Any) -> None:
        top = ratings.players[0]
        who = ft.Dropdown(
            label=_("Rating over time of"),
            value=top.id,
            options=[ft.DropdownOption(key=p.id, text=p.name) for p in ratings.players[:50]],
            on_select=lambda e: draw(str(e.control.value), True),
            tooltip=_("Rating over time of"),
            expand=True,
        )
        draw(top.id, False)
        box.controls = [heading(_("Rating over time")), ft.Row([who]), chart_box]
        with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
            box.update()

    box.controls = [ft.Row([big_button(_("Rating over time"), show, icon=ft.Icons.SHOW_CHART)])]
    return box


def player_ratings(
    scopes: list[Ratings], player_id: str, last_night: tuple[str, float] | None, words: Words = ENGLISH
) -> list[ft.Control]:
    """A player's rating in each scope they played, their rivals, and their change over the last night."""
    _ = words.gettext
    out: list[ft.Control] = [heading(_("Ratings"))]
    shown = False
    for ratings in scopes:
        mine = ratings.get(player_id)
        if mine is None:
            continue
        shown = True
        rank = ratings.players.index(mine) + 1
        line = _("{scope}: {rating} · rank {rank} of {n}").format(
            scope=scope_name(ratings.scope, words), rating=rating_text(mine, words), rank=rank, n=len(ratings.players)
        )
        out.append(ft.Text(line, size=15, semantics_label=line))
    if not shown:
        out.append(paragraph(_("No rated games yet.")))
        return out
    if last_night is not None:
        line = _("Last night ({night}): {change}").format(night=last_night[0], change=signed(last_night[1], words))
        out.append(ft.Text(line, size=15, semantics_label=line))
    out.append(heading(_("Rivals")))
    out.append(paragraph(_("Across all games, among players met in at least {n} games.").format(n=MIN_SHARED)))
    for line in scopes[0].rivals(player_id).lines(words):
        out.append(ft.Text(line, size=15, semantics_label=line))
    return out


def season_line_text(rank: int, x: SeasonLine, fmt: MoneyFormat | None, words: Words = ENGLISH) -> str:
    """``1. Ann: 6 points · 5 games · 3 wins · $1.00 · rating +2.1``."""
    games = words.ngettext("{n} game", "{n} games", x.games).format(n=x.games)
    wins = words.ngettext("{n} win", "{n} wins", x.wins).format(n=x.wins)
    money = f" · {format_money(x.money, fmt, signed=True)}" if x.money else ""
    change = signed(x.rating_change, words)
    return words.gettext("{n}. {name}: {points} points · {games} · {wins}{money} · rating {change}").format(
        n=rank, name=x.name, points=points_in(x.points, words), games=games, wins=wins, money=money, change=change
    )


def season_section(
    standings: SeasonStandings, fmt: MoneyFormat | None, *, dark: bool = False, words: Words = ENGLISH
) -> list[ft.Control]:
    """A season's standings (points, games, wins, money, rating change), the points rule and the recap as text and
    as an image."""
    _ = words.gettext
    season = standings.season
    games = (
        f"{standings.games} games"
        if words.code == "en"
        else words.ngettext("{n} game", "{n} games", standings.games).format(n=standings.games)
    )
    out: list[ft.Control] = [
        heading(_("Season {name}").format(name=season.name)),
        ft.Text(f"{season.span} · {games}", size=15),
        paragraph(_(POINTS_RULE)),
    ]
    for rank, line in enumerate(standings.lines, start=1):
        text = season_line_text(rank, line, fmt, words)
        out.append(ft.Text(text, size=15, semantics_label=_("Season standings, {line}").format(line=text)))
    if not standings.lines:
        out.append(paragraph(_("No finished games in this season yet.")))
    text = recap_text(standings, fmt, words)
    out += [
        heading(_("Season recap")),
        ft.Row([copy_button(text, _("Copy the season recap"))]),
        panel(ft.Text(text, size=14, selectable=True, semantics_label=_("The season recap as text"))),
        ft.Image(
            src=recap_png(standings, fmt, dark=dark, words=words),
            semantics_label=_("The season recap as an image"),
            fit=ft.BoxFit.CONTAIN,
            width=540,
        ),
    ]
    return out


def copy_button(text: str, label: str = "Copy the season recap") -> ft.Control:
    """A button that puts ``text`` on the clipboard."""

    async def copy(_: Any) -> None:
        with contextlib.suppress(Exception):
            await ft.Clipboard().set(text)

    return ft.FilledButton(content=label, icon=ft.Icons.CONTENT_COPY, tooltip=label, height=TAP, on_click=copy)


def season_form(
    add: Callable[[str, str, str], Any], on_added: Callable[[str], None], words: Words = ENGLISH
) -> list[ft.Control]:
    """Name a season: a name and its first and last days; ``add`` refuses in words (a start after the end...)."""
    _ = words.gettext
    name = ft.TextField(label=_("Season name"), tooltip=_("Season name"), expand=True)
    start = ft.TextField(label=_("First day"), hint_text="2026-01-01", tooltip=_("First day"), expand=True)
    end = ft.TextField(label=_("Last day"), hint_text="2026-03-31", tooltip=_("Last day"), expand=True)
    message = ft.Text("", size=15, color=ft.Colors.ERROR)

    def added(event: Any) -> None:
        try:
            season = add(name.value or "", start.value or "", end.value or "")
        except ValueError as exc:
            message.value = str(exc)
            with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                message.update()
            return
        on_added(season.name)

    button = ft.OutlinedButton(
        content=_("Add the season"), icon=ft.Icons.EVENT, tooltip=_("Add the season"), height=TAP, on_click=added
    )
    return [
        heading(_("Name a season")),
        paragraph(_("Every calendar year is a season already; name your own, a league or a winter, by its dates.")),
        ft.Row([name]),
        ft.Row([start, end]),
        ft.Row([button]),
        message,
    ]
