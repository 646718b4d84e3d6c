"""The benchmark harness's own logic (no browser): which benchmarks run, the trivial app, percentiles."""

from __future__ import annotations

from typing import Any, cast

import flet as ft

import bench.__main__ as runner
from bench import trivial_app
from bench.pagewatch import percentile


def test_the_tap_latency_benchmark_runs_only_when_asked(monkeypatch: Any) -> None:
    ran: list[str] = []

    class Module:
        def __init__(self, name: str) -> None:
            self.name = name

        def main(self) -> None:
            ran.append(self.name)

    monkeypatch.setattr(runner.importlib, "import_module", Module)
    assert runner.main(["scoring"]) == 0 and ran == ["bench.scoring_bench"]
    ran.clear()
    assert runner.main(["scoring", "--taps"]) == 0 and ran == ["bench.scoring_bench", "bench.tap_latency"]
    assert "bench.tap_latency" not in runner.bench_modules(None), "not in the default run"
    assert "bench.screens_bench" in runner.bench_modules(None)


def test_the_trivial_app_has_one_button_that_counts() -> None:
    class Page:
        title = ""

        def __init__(self) -> None:
            self.controls: list[ft.Control] = []

        def add(self, *controls: ft.Control) -> None:
            self.controls += controls

    page = Page()
    trivial_app.main(cast(ft.Page, page))
    button, text = page.controls
    assert isinstance(button, ft.FilledButton) and button.tooltip == trivial_app.BUTTON
    assert isinstance(text, ft.Text) and text.value == "Taps: 0"
    text.update = lambda: None  # type: ignore[method-assign]  # not on a page
    for _ in range(3):
        cast(Any, button).on_click(None)
    assert text.value == text.semantics_label == "Taps: 3"


def test_percentile_picks_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0 and percentile(values, 0.5) == 51.0 and percentile([7.0], 0.95) == 7.0
