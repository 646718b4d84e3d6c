"""Ratings and seasons on screen: the ratings table of a scope, a player's rating over time, a player's rating per
game, and a season's standings with its recap. The figures come from :mod:`companion.ratings` and
:mod:`companion.seasons`; this module only lays them out."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.history import PAGE_SIZE
from companion.money import MoneyFormat, format_money
from companion.ratings import MIN_SHARED, PROVISIONAL_GAMES, PlayerRating, Ratings, rating_text, signed
from companion.seasons import POINTS_RULE, SeasonLine, SeasonStandings, format_points, recap_png, recap_text
from views.charts import rating_chart
from views.paging import Paged
from views.widgets import TAP, heading, panel, paragraph

RULE = (
    f"The rating is the conservative estimate μ − 3σ of a Weng-Lin (openskill) rating: μ is the skill, σ how sure "
    f"it is. Provisional until {PROVISIONAL_GAMES} games."
)


def rating_row_text(rank: int, p: PlayerRating) -> tuple[str, str]:
    """``1. Ann  18.4`` and ``μ 27.1 ± 2.9 · 12 games · 4 wins``.

    >>> rating_row_text(1, PlayerRating("a", "Ann", 27.1, 2.9, 3, 1))
    ('1. Ann  18.4', 'μ 27.1 ± 2.9 · 3 games · 1 win · provisional')
    """
    games = f"{p.games} game{'s' if p.games != 1 else ''}"
    wins = f"{p.wins} win{'s' if p.wins != 1 else ''}"
    detail = f"μ {p.mu:.1f} ± {p.sigma:.1f} · {games} · {wins}" + (" · provisional" if p.provisional else "")
    return f"{rank}. {p.name}  {p.ordinal:.1f}", detail


def rating_row(rank: int, p: PlayerRating, on_open: Callable[[str], None] | None) -> ft.Control:
    """One row of the ratings table; a tap opens the player's page."""
    title, detail = rating_row_text(rank, p)
    label = f"Rank {rank}, {p.name}, rating {p.ordinal:.1f}, {detail}"
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
) -> list[ft.Control]:
    """The ratings table of one scope (rank, name, rating, μ ± σ, games, wins) and a player's rating over time."""
    out: list[ft.Control] = [heading(title or f"Ratings · {ratings.scope_name}"), paragraph(RULE)]
    if not ratings.players:
        out.append(paragraph("No rated games yet: every finished game is rated."))
        return out
    ranked = list(enumerate(ratings.players, start=1))
    rows: Paged[tuple[int, PlayerRating]] = Paged(
        lambda item: rating_row(item[0], item[1], on_open),
        noun="player",
        empty=list,
        show_count="if-cut",
        first="first",
        page_size=page_size,
    )
    rows.show(ranked)
    out += rows.controls
    chart_box = ft.Container()
    top = ratings.players[0]

    def draw(player_id: str, update: bool) -> None:
        points = ratings.history(player_id)
        chart_box.content = rating_chart(ratings.name(player_id), [p.ordinal for p in points])
        if update:
            with contextlib.suppress(RuntimeError):
                chart_box.update()

    who = ft.Dropdown(
        label="Rating over time of",
        value=top.id,
        options=[ft.DropdownOption(key=p.id, text=p.name) for p in ratings.players[:50]],
        on_select=lambda e: draw(str(e.control.value), True),
        tooltip="Rating over time of",
        expand=True,
    )
    draw(top.id, False)
    out += [heading("Rating over time"), ft.Row([who]), chart_box]
    return out


def player_ratings(scopes: list[Ratings], player_id: str, last_night: tuple[str, float] | None) -> list[ft.Control]:
    """A player's rating in each scope they played, their rivals, and their change over the last night."""
    out: list[ft.Control] = [heading("Ratings")]
    shown = False
    for ratings in scopes:
        mine = ratings.get(player_id)
        if mine is None:
            continue
        shown = True
        rank = ratings.players.index(mine) + 1
        line = f"{ratings.scope_name}: {rating_text(mine)} · rank {rank} of {len(ratings.players)}"
        out.append(ft.Text(line, size=15, semantics_label=line))
    if not shown:
        out.append(paragraph("No rated games yet."))
        return out
    if last_night is not None:
        line = f"Last night ({last_night[0]}): {signed(last_night[1])}"
        out.append(ft.Text(line, size=15, semantics_label=line))
    out.append(heading("Rivals"))
    out.append(paragraph(f"Across all games, among players met in at least {MIN_SHARED} games."))
    for line in scopes[0].rivals(player_id).lines():
        out.append(ft.Text(line, size=15, semantics_label=line))
    return out


def season_line_text(rank: int, x: SeasonLine, fmt: MoneyFormat | None) -> str:
    """``1. Ann: 6 points · 5 games · 3 wins · $1.00 · rating +2.1``."""
    games = f"{x.games} game{'s' if x.games != 1 else ''}"
    wins = f"{x.wins} win{'s' if x.wins != 1 else ''}"
    money = f" · {format_money(x.money, fmt, signed=True)}" if x.money else ""
    change = signed(x.rating_change)
    return f"{rank}. {x.name}: {format_points(x.points)} points · {games} · {wins}{money} · rating {change}"


def season_section(standings: SeasonStandings, fmt: MoneyFormat | None, *, dark: bool = False) -> list[ft.Control]:
    """A season's standings (points, games, wins, money, rating change), the points rule and the recap as text and
    as an image."""
    season = standings.season
    out: list[ft.Control] = [
        heading(f"Season {season.name}"),
        ft.Text(f"{season.span} · {standings.games} games", size=15),
        paragraph(POINTS_RULE),
    ]
    for rank, line in enumerate(standings.lines, start=1):
        text = season_line_text(rank, line, fmt)
        out.append(ft.Text(text, size=15, semantics_label=f"Season standings, {text}"))
    if not standings.lines:
        out.append(paragraph("No finished games in this season yet."))
    text = recap_text(standings, fmt)
    out += [
        heading("Season recap"),
        ft.Row([copy_button(text)]),
        panel(ft.Text(text, size=14, selectable=True, semantics_label="The season recap as text")),
        ft.Image(
            src=recap_png(standings, fmt, dark=dark),
            semantics_label="The season recap as an image",
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


def season_form(add: Callable[[str, str, str], Any], on_added: Callable[[str], None]) -> list[ft.Control]:
    """Name a season: a name and its first and last days; ``add`` refuses in words (a start after the end...)."""
    name = ft.TextField(label="Season name", tooltip="Season name", expand=True)
    start = ft.TextField(label="First day", hint_text="2026-01-01", tooltip="First day", expand=True)
    end = ft.TextField(label="Last day", hint_text="2026-03-31", tooltip="Last day", expand=True)
    message = ft.Text("", size=15, color=ft.Colors.ERROR)

    def added(_: Any) -> None:
        try:
            season = add(name.value or "", start.value or "", end.value or "")
        except ValueError as exc:
            message.value = str(exc)
            with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                message.update()
            return
        on_added(season.name)

    button = ft.OutlinedButton(
        content="Add the season", icon=ft.Icons.EVENT, tooltip="Add the season", height=TAP, on_click=added
    )
    return [
        heading("Name a season"),
        paragraph("Every calendar year is a season already; name your own, a league or a winter, by its dates."),
        ft.Row([name]),
        ft.Row([start, end]),
        ft.Row([button]),
        message,
    ]
