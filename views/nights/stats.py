"""``/stats/nights``: statistics across game nights, with the money chart.

The screen is an ``@ft.component`` (:func:`nights_stats`) with no state of its own: it renders once, from the night
service as it is when the screen is opened. Amounts are written with the Settings' money as the screens show it
(:attr:`~companion.settings.Settings.money_shown`)."""

from __future__ import annotations

import flet as ft

from companion.i18n import Words
from companion.money import MoneyFormat, format_money
from companion.night_recap import day_of
from companion.night_service import NightService, NightStats
from views.charts import CHART_HEIGHT, colour, legend
from views.context import ViewContext
from views.flet_private import component_node
from views.widgets import empty_state, heading, paragraph, screen


def money_chart(stats: NightStats, fmt: MoneyFormat, words: Words) -> ft.Control:
    """A line per player: their money, summed night after night."""
    import flet_charts as fch

    _ = words.gettext
    series = stats.money_over_time
    count = len(stats.rows)
    values = [v / 100 for points in series.values() for v in points] or [0.0]
    low, high = min(0.0, *values), max(0.0, *values)
    pad = max(1.0, (high - low) / 10)
    said = "; ".join(
        f"{name}: {', '.join(format_money(v, fmt, signed=True) for v in points)}" for name, points in series.items()
    )
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(x=x + 1, y=v / 100, tooltip=f"{name} {format_money(v, fmt, signed=True)}")
                    for x, v in enumerate(points)
                ],
                color=colour(n),
                stroke_width=3,
                point=True,
            )
            for n, (name, points) in enumerate(series.items())
        ],
        min_x=1,
        max_x=max(count, 2),
        min_y=low - pad,
        max_y=high + pad,
        left_axis=fch.ChartAxis(label_size=52),
        bottom_axis=fch.ChartAxis(
            title=ft.Text(_("Night"), size=12),
            labels=[fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=12)) for x in range(1, count + 1)]
            if count <= 20
            else [],
            label_size=24,
        ),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )
    return ft.Semantics(
        label=_("Money over the nights chart, each player's running total. {values}").format(values=said),
        container=True,
        content=ft.Column(
            [ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)), legend(list(series))]
        ),
    )


def build_stats(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/stats/nights``: nights played and won, money over time, head-to-head across nights."""
    return screen(ctx, ctx.words.gettext("Statistics: game nights"), [component_node(nights_stats, ctx)])


@ft.component
def nights_stats(ctx: ViewContext) -> ft.Control:
    """The figures across nights, drawn from the night service."""
    nights: NightService = ctx.services.nights
    fmt = ctx.settings.money_shown
    stats = nights.stats()
    words = ctx.words
    _, ngettext = words.gettext, words.ngettext
    count = len(stats.rows)
    out: list[ft.Control] = [
        ft.Text(
            ngettext("{n} game night", "{n} game nights", count).format(n=count),
            size=16,
            semantics_label=_("{n} game nights").format(n=count),
        )
    ]
    if not stats.rows:
        out.append(empty_state(_("No game nights yet"), _("Statistics across nights appear once a night is played.")))
        return ft.Column(out, spacing=12)
    if stats.most_won:
        most = stats.most_won
        line = _("Most nights won: {names} ({n})").format(names=", ".join(most), n=stats.won[most[0]])
        out.append(ft.Text(line, size=18, semantics_label=line))
    out.append(heading(_("Nights played and won")))
    for name in sorted(stats.played, key=lambda n: (-stats.won[n], -stats.played[n], n)):
        line = _("{name}: {played} played, {won} won").format(name=name, played=stats.played[name], won=stats.won[name])
        out.append(ft.Text(line, size=16, semantics_label=line))
    out.append(heading(_("Money over time")))
    out.append(money_chart(stats, fmt, words))
    out.append(heading(_("Head-to-head across nights")))
    out.append(paragraph(_("On the nights both played: who won more games that night.")))
    for h in stats.head_to_head:
        score = f"{h.first} – {h.second}: {h.first_ahead}–{h.second_ahead}"
        nights_said = ngettext("{n} night", "{n} nights", h.nights).format(n=h.nights)
        line = (
            _("{score}, {level} level ({nights})").format(score=score, level=h.level, nights=nights_said)
            if h.level
            else f"{score} ({nights_said})"
        )
        out.append(ft.Text(line, size=15, semantics_label=line))
    out.append(heading(_("Night by night")))
    for n, row in enumerate(stats.rows, start=1):
        won = ", ".join(row.winners) or _("nobody")
        line = _("{n}. {name} ({day}): {games} games, won by {winners}").format(
            n=n, name=row.name, day=day_of(row.started, words), games=row.games, winners=won
        )
        out.append(ft.Text(line, size=15, semantics_label=line))
    return ft.Column(out, spacing=12)
