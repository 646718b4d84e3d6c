"""Chart axes whose labels never collide: the label step chosen from the range and the chart's size."""

from __future__ import annotations

import random
from typing import Any

import flet_charts as fch
import pytest

from companion.history import replay
from views.charts import LABEL_GAP, PLOT_HEIGHT, AxisScale, axis_scale, nice_step, progression_chart, wins_chart


def _mantissa(step: int) -> int:
    while step % 10 == 0:
        step //= 10
    return step


@pytest.mark.parametrize("seed", range(5))
def test_labels_are_a_gap_apart_on_every_range(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        low = rng.choice([0, 0, rng.randint(-500, 0)])
        high = low + rng.choice([0, 1, rng.randint(0, 20), rng.randint(0, 10_000)])
        length = rng.uniform(60, 800)
        scale = axis_scale(low, high, length)
        assert scale.bottom <= low and scale.top > high, (low, high, scale)
        assert scale.bottom % scale.step == 0 and scale.top % scale.step == 0, "the ends are on the grid"
        assert _mantissa(scale.step) in (1, 2, 5)
        intervals = (scale.top - scale.bottom) // scale.step
        assert length / intervals >= LABEL_GAP or intervals == 1, (low, high, length, scale)
        if scale.step > 1:  # the next smaller nice step would crowd the labels
            smaller = scale.step * 2 // 5 if _mantissa(scale.step) == 5 else scale.step // 2  # 5→2, 2→1, 10→5
            assert not _fits(low, high, length, smaller), (low, high, length, scale)


def _fits(low: int, high: int, length: float, step: int) -> bool:
    bottom = 0 if low >= 0 else -((-low + step - 1) // step) * step
    top = (high // step + 1) * step
    return length / ((top - bottom) / step) >= LABEL_GAP


def test_the_step_is_the_smallest_that_fits() -> None:
    assert nice_step(0, 86, PLOT_HEIGHT) == 20, "86 over 80: 10 would give 9 labels in 192 px"
    assert nice_step(0, 86, 3000) == 1 and nice_step(0, 86, 2000) == 2
    assert [nice_step(0, high, 140) for high in (3, 4, 8, 12, 40, 90, 400)] == [1, 1, 2, 5, 10, 20, 100]
    assert axis_scale(-3, 0, PLOT_HEIGHT) == AxisScale(-3, 1, 1)
    assert axis_scale(0, 13, 260, headroom=False) == AxisScale(0, 14, 2)


def _left_labels(control: Any) -> tuple[Any, list[int]]:
    chart = next(c for c in _walk(control) if isinstance(c, fch.LineChart | fch.BarChart))
    return chart, [label.value for label in chart.left_axis.labels]


def _walk(control: Any) -> Any:
    yield control
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        for item in child if isinstance(child, list) else [child]:
            if item is not None and hasattr(item, "_c"):
                yield from _walk(item)


def test_the_progression_chart_labels_only_round_values_up_to_its_top() -> None:
    hands = [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}} for _ in range(1)]
    rep = replay({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": hands})
    chart, values = _left_labels(progression_chart(rep))
    assert values == list(range(int(chart.min_y), int(chart.max_y) + 1, int(chart.left_axis.label_spacing)))
    assert values[0] == chart.min_y and values[-1] == chart.max_y, "the end labels are on the grid too"
    assert chart.horizontal_grid_lines.interval == chart.left_axis.label_spacing


def test_the_wins_chart_labels_fit() -> None:
    chart, values = _left_labels(wins_chart([("Ann", 86), ("Ben", 80)]))
    assert values == [0, 20, 40, 60, 80, 100] and chart.max_y == 100
