"""Charts (flet-charts): the score progression of a session hand by hand, and wins per player.

Each chart is wrapped in a labelled :class:`ft.Semantics` that says what it shows in words (a screen reader cannot
read a canvas), with a legend in text beside it. Colours are mid-tone so that they read on light and dark themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import flet as ft
import flet_charts as fch

from companion import formats
from companion.history import ENGLISH, Replay
from companion.i18n import Words

PALETTE = (
    ft.Colors.BLUE_400,
    ft.Colors.ORANGE_400,
    ft.Colors.GREEN_400,
    ft.Colors.PINK_300,
    ft.Colors.PURPLE_300,
    ft.Colors.TEAL_300,
    ft.Colors.AMBER_400,
    ft.Colors.RED_300,
    ft.Colors.CYAN_300,
    ft.Colors.LIME_400,
    ft.Colors.BROWN_300,
    ft.Colors.INDIGO_300,
)
CHART_HEIGHT = 240
LABEL_GAP = 28
"""The least distance in pixels between two axis labels' centres: a 12-point label is about 16 px tall (and a
hand number about 16 px wide), so labels this far apart never touch."""
PLOT_HEIGHT = CHART_HEIGHT - 48
"""The height of a chart's plot area: the chart less its bottom axis (labels and title)."""
PLOT_WIDTH = 260
"""The narrowest plot area the bottom axis is laid out for: a 360 px phone less the margins and the left axis."""


@dataclass(frozen=True)
class AxisScale:
    """An axis from ``bottom`` to ``top`` with a label every ``step``; both ends are multiples of the step, so the
    end labels fall on the same grid as the others (a top label at the highest value, say 86, would sit on 80)."""

    bottom: int
    top: int
    step: int

    @property
    def values(self) -> list[int]:
        """
        >>> AxisScale(0, 100, 20).values
        [0, 20, 40, 60, 80, 100]
        """
        return list(range(self.bottom, self.top + 1, self.step))


def axis_scale(low: int, high: int, length: float, *, gap: float = LABEL_GAP, headroom: bool = True) -> AxisScale:
    """The smallest step of 1, 2 or 5 × 10ⁿ whose labels on an axis ``length`` px long, spanning at least ``low``
    to ``high``, are ``gap`` px apart or more. With ``headroom`` the top is above ``high`` (a point at the very top
    is not cut in half); the bottom is 0 unless ``low`` is negative.

    >>> axis_scale(0, 86, PLOT_HEIGHT)
    AxisScale(bottom=0, top=100, step=20)
    >>> axis_scale(-7, 12, PLOT_HEIGHT)
    AxisScale(bottom=-10, top=15, step=5)
    >>> axis_scale(0, 7250, PLOT_HEIGHT).step, axis_scale(0, 3, PLOT_HEIGHT).step
    (2000, 1)
    >>> axis_scale(0, 0, PLOT_HEIGHT)
    AxisScale(bottom=0, top=1, step=1)
    """
    slots = max(int(length // gap), 1)
    """The most intervals that fit."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            bottom = 0 if low >= 0 else -((-low + step - 1) // step) * step
            top = (high // step + 1) * step if headroom else max(-(-high // step) * step, step)
            if (top - bottom) // step <= slots:
                return AxisScale(bottom, top, step)
        magnitude *= 10


def nice_step(low: int, high: int, length: float, *, gap: float = LABEL_GAP) -> int:
    """The label step of :func:`axis_scale`: labels ``gap`` px apart or more on an axis ``length`` px long.

    >>> nice_step(0, 86, 192), nice_step(0, 86, 600), nice_step(0, 60, 260)
    (20, 5, 10)
    """
    return axis_scale(low, high, length, gap=gap).step


def _axis_labels(scale: AxisScale, upto: int | None = None) -> list[fch.ChartAxisLabel]:
    return [
        fch.ChartAxisLabel(value=v, label=ft.Text(str(v), size=12)) for v in scale.values if upto is None or v <= upto
    ]


def _scaled_line_chart(
    data_series: list[fch.LineChartData], *, x: AxisScale, y: AxisScale, min_x: int, max_x: int, upto: int, title: str
) -> fch.LineChart:
    """A line chart on the scales ``x`` and ``y``: labels every step on both axes (the bottom one up to ``upto``,
    titled ``title``), grid lines at the left axis' steps."""
    return fch.LineChart(
        data_series=data_series,
        min_x=min_x,
        max_x=max_x,
        min_y=y.bottom,
        max_y=y.top,
        left_axis=fch.ChartAxis(
            label_size=44, labels=_axis_labels(y), label_spacing=y.step, show_min=True, show_max=True
        ),
        bottom_axis=fch.ChartAxis(
            title=ft.Text(title, size=12),
            labels=_axis_labels(x, upto=upto),
            label_spacing=x.step,
            label_size=24,
            show_min=True,
            show_max=True,
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=y.step, color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )


def colour(n: int) -> str:
    return PALETTE[n % len(PALETTE)]


def progression_series(rep: Replay) -> dict[str, list[int]]:
    """Each player's total before the first hand (0) and after every hand of the main game.

    >>> from companion.history import replay
    >>> hands = [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}, {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D"}}]
    >>> progression_series(replay({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": hands}))
    {'Ann': [0, 2, 2], 'Ben': [0, 0, 3]}
    """
    series: dict[str, list[int]] = {name: [0] for name in rep.players}
    for step in rep.steps:
        if step.index is None or not step.standings:  # an entry of the extra part does not change the totals
            continue
        totals = {s.player: s.total for s in step.standings}
        for name in rep.players:
            series[name].append(totals.get(name, series[name][-1]))
    return series


def _legend(names: Sequence[str]) -> ft.Control:
    return ft.Row(
        [
            ft.Row(
                [ft.Container(width=14, height=14, bgcolor=colour(n), border_radius=7), ft.Text(name, size=14)],
                spacing=4,
                tight=True,
            )
            for n, name in enumerate(names)
        ],
        wrap=True,
        spacing=12,
    )


def legend(names: Sequence[str]) -> ft.Control:
    """A colour swatch and the name of each series, in the charts' colours."""
    return _legend(names)


def progression_chart(rep: Replay, words: Words = ENGLISH) -> ft.Control:
    """A line per player: their total after each hand (its words in ``words``' language)."""
    _ = words.gettext
    series = progression_series(rep)
    hands = max((len(points) for points in series.values()), default=1) - 1
    values = [v for points in series.values() for v in points] or [0]
    low, high = min(values), max(values)
    y = axis_scale(low, high, PLOT_HEIGHT)
    x = axis_scale(0, max(hands, 1), PLOT_WIDTH, headroom=False)
    no_hands = _("no hands")  # outside the f-string: Babel reads a mark inside one only on Python 3.12 and later
    said = "; ".join(f"{name}: {', '.join(str(v) for v in points[1:]) or no_hands}" for name, points in series.items())
    chart = _scaled_line_chart(
        [
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=x, y=y, tooltip=f"{name} {y}") for x, y in enumerate(points)],
                color=colour(n),
                stroke_width=3,
                point=True,
            )
            for n, (name, points) in enumerate(series.items())
        ],
        x=x,
        y=y,
        min_x=0,
        max_x=max(hands, 1),
        upto=max(hands, 1),
        title=_("Hand"),
    )
    return ft.Semantics(
        label=_("Score progression chart, totals after each hand. {totals}").format(totals=said),
        container=True,
        content=ft.Column(
            [ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)), _legend(list(series))]
        ),
    )


def wins_chart(wins: Sequence[tuple[str, int]], *, limit: int = 12, words: Words = ENGLISH) -> ft.Control:
    """A bar per player (the ``limit`` with most wins): their wins (its words in ``words``' language)."""
    _ = words.gettext
    shown = list(wins)[:limit]
    top = max((w for _, w in shown), default=0)
    scale = axis_scale(0, top, PLOT_HEIGHT)
    said = "; ".join(f"{name} {count}" for name, count in shown) or _("no finished games")
    chart = fch.BarChart(
        groups=[
            fch.BarChartGroup(
                x=n,
                rods=[
                    fch.BarChartRod(
                        from_y=0,
                        to_y=count,
                        width=22,
                        color=colour(n),
                        border_radius=4,
                        tooltip=f"{name}: {count}",
                    )
                ],
            )
            for n, (name, count) in enumerate(shown)
        ],
        min_y=0,
        max_y=scale.top,
        left_axis=fch.ChartAxis(
            label_size=36, labels=_axis_labels(scale), label_spacing=scale.step, show_min=True, show_max=True
        ),
        bottom_axis=fch.ChartAxis(
            labels=[fch.ChartAxisLabel(value=n, label=ft.Text(name[:8], size=12)) for n, (name, _) in enumerate(shown)],
            label_size=28,
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=scale.step, color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )
    return ft.Semantics(
        label=_("Wins per player chart: {wins}").format(wins=said),
        container=True,
        content=ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)),
    )


RATING_POINTS = 60
"""The most points a rating chart draws: a long history is sampled evenly (its last game always included). Sixty
points are 6 px apart on a phone's 360 px, closer than a finger tells apart; each point carries its tooltip, so
this halves what the chart sends."""


def sampled(count: int, most: int = RATING_POINTS) -> list[int]:
    """Which of ``count`` games a chart draws: all of them, or ``most`` spread evenly ending with the last.

    >>> sampled(5), sampled(1000, 4)
    ([0, 1, 2, 3, 4], [0, 333, 666, 999])
    """
    if count <= most:
        return list(range(count))
    return [round(i * (count - 1) / (most - 1)) for i in range(most)]


def rating_chart(name: str, ordinals: Sequence[float], words: Words = ENGLISH) -> ft.Control:
    """A line of one player's conservative rating (μ − 3σ) after each of their games, from their first (its words
    in ``words``' language)."""
    _ = words.gettext
    values = [round(v, 1) for v in ordinals] or [0.0]
    picked = sampled(len(values))
    low, high = int(min(0.0, min(values)) // 1), int(max(values) // 1 + 1)
    y = axis_scale(low, high, PLOT_HEIGHT)
    games = max(len(values), 1)
    x = axis_scale(1, games, PLOT_WIDTH, headroom=False)
    said = ", ".join(formats.decimal(v, words) for v in values[-12:])
    chart = _scaled_line_chart(
        [
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(
                        x=n + 1,
                        y=values[n],
                        tooltip=_("{name} after game {n}: {rating}").format(
                            name=name, n=n + 1, rating=formats.decimal(values[n], words)
                        ),
                    )
                    for n in picked
                ],
                color=colour(0),
                stroke_width=3,
                point=len(values) <= RATING_POINTS,
            )
        ],
        x=x,
        y=y,
        min_x=1,
        max_x=max(games, 2),
        upto=games,
        title=_("Game"),
    )
    return ft.Semantics(
        label=_("Rating chart of {name}: the rating after each of {count} games; the last: {ratings}").format(
            name=name, count=len(ordinals), ratings=said
        ),
        container=True,
        content=ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)),
    )
