"""Charts (flet-charts): the score progression of a session hand by hand, and wins per player.

Each chart is wrapped in a labelled :class:`ft.Semantics` that says what it shows in words (a screen reader cannot
read a canvas), with a legend in text beside it. Colours are mid-tone so that they read on light and dark themes.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft
import flet_charts as fch

from companion.history import Replay

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
        if not step.standings:
            continue
        totals = {s.name: s.total for s in step.standings}
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


def progression_chart(rep: Replay) -> ft.Control:
    """A line per player: their total after each hand."""
    series = progression_series(rep)
    hands = max((len(points) for points in series.values()), default=1) - 1
    values = [v for points in series.values() for v in points] or [0]
    low, high = min(values), max(values)
    pad = max(1, (high - low) // 10)
    words = "; ".join(
        f"{name}: {', '.join(str(v) for v in points[1:]) or 'no hands'}" for name, points in series.items()
    )
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=x, y=y, tooltip=f"{name} {y}") for x, y in enumerate(points)],
                color=colour(n),
                stroke_width=3,
                point=True,
            )
            for n, (name, points) in enumerate(series.items())
        ],
        min_x=0,
        max_x=max(hands, 1),
        min_y=low - pad if low < 0 else 0,
        max_y=high + pad,
        left_axis=fch.ChartAxis(label_size=44),
        bottom_axis=fch.ChartAxis(
            title=ft.Text("Hand", size=12),
            labels=[fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=12)) for x in range(hands + 1)]
            if hands <= 20
            else [],
            label_size=24,
        ),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )
    return ft.Semantics(
        label=f"Score progression chart, totals after each hand. {words}",
        container=True,
        content=ft.Column(
            [ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)), _legend(list(series))]
        ),
    )


def wins_chart(wins: Sequence[tuple[str, int]], *, limit: int = 12) -> ft.Control:
    """A bar per player (the ``limit`` with most wins): their wins."""
    shown = list(wins)[:limit]
    top = max((w for _, w in shown), default=0)
    words = "; ".join(f"{name} {count}" for name, count in shown) or "no finished games"
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
        max_y=top + 1,
        left_axis=fch.ChartAxis(label_size=36, label_spacing=max(1, (top + 1) // 5)),
        bottom_axis=fch.ChartAxis(
            labels=[fch.ChartAxisLabel(value=n, label=ft.Text(name[:8], size=12)) for n, (name, _) in enumerate(shown)],
            label_size=28,
        ),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )
    return ft.Semantics(
        label=f"Wins per player chart: {words}",
        container=True,
        content=ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)),
    )
