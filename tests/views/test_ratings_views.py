"""Ratings and seasons on screen: Statistics (the ratings table, the chart, a season's standings and recap), a
player's page (rating per game, rivals, the last night) and History's season filter, every control labelled."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.ratings import ALL
from companion.seasons import Season
from companion.services import AppServices
from scoring import score
from storage import SessionStatus
from tests.support.records import PLAIN, PLAYOFF, TIE, case_record
from tests.support.screens import INTERACTIVE, label_of, shell_for, walk


@pytest.fixture
def services(services: AppServices) -> AppServices:
    """The shared services with a night of three Jokers Kill games (a plain one, a play-off and a tie)."""
    night = services.nights.start("Friday", ["Ann", "Ben", "Cat"])
    for case in (PLAIN, PLAYOFF, TIE):
        table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
        record = case_record(case)
        result = score(record)
        services.archive.save_session(
            table.doc.model_copy(
                update={"record": record, "status": SessionStatus.of(result), "winners": list(result.winners)}
            ),
            "entered",
        )
    assert len(services.nights.get(night.id).sessions) == 3
    return services


def texts(view: Any) -> list[str]:
    out = []
    for control, _ in walk(view):
        if isinstance(control, ft.Text):
            out.append(str(control.semantics_label or control.value or ""))
    return out


def check_labels(view: Any) -> None:
    for control, labelled in walk(view):
        if isinstance(control, INTERACTIVE):
            assert labelled or label_of(control), f"{type(control).__name__} has no label"
            height = getattr(control, "height", None) or getattr(control, "min_height", None)
            if isinstance(control, ft.ListTile):
                assert height is not None and height >= 48


def test_statistics_shows_the_ratings_table_and_a_chart(services: AppServices) -> None:
    shell, page = shell_for(services, "/stats")
    shell.render()
    view = page.views[-1]
    check_labels(view)
    ratings = services.ratings.ratings(ALL)
    shown = texts(view)
    for rank, p in enumerate(ratings.players, start=1):
        assert any(
            t.startswith(f"Rank {rank}, {p.name}, rating {p.ordinal:.1f}, μ {p.mu:.1f} ± {p.sigma:.1f}") for t in shown
        )
    assert any(t.startswith("Ratings · All games") for t in shown)

    def charts() -> list[ft.Semantics]:
        return [c for c, _ in walk(view) if isinstance(c, ft.Semantics) and str(c.label).startswith("Rating chart of")]

    assert charts() == [], "the chart is drawn on request"
    (button,) = [c for c, _ in walk(view) if isinstance(c, ft.OutlinedButton) and c.tooltip == "Rating over time"]
    button.on_click(None)  # type: ignore[misc]
    (chart,) = charts()
    assert ratings.players[0].name in str(chart.label)
    check_labels(view)


def _by_first_season(services: AppServices, route: str) -> tuple[ft.View, Season]:
    """The screen at ``route`` with the first season chosen in its Season drop-down."""
    shell, page = shell_for(services, route)
    shell.render()
    view = page.views[-1]
    season = next(c for c, _ in walk(view) if isinstance(c, ft.Dropdown) and c.label == "Season")
    chosen = services.seasons.seasons.all()[0]
    season.value = chosen.name
    season.on_select(None)  # type: ignore[misc]
    return view, chosen


def test_statistics_by_season_shows_its_standings_and_recap(services: AppServices) -> None:
    view, this_year = _by_first_season(services, "/stats")
    shown = texts(view)
    standings = services.seasons.standings(this_year)
    assert any(t.startswith("Season standings, 1. ") for t in shown)
    assert "The season recap as text" in shown
    images = [
        c for c, _ in walk(view) if isinstance(c, ft.Image) and c.semantics_label == "The season recap as an image"
    ]
    assert len(images) == 1
    assert standings.games == 3
    check_labels(view)


def test_a_players_page_shows_ratings_rivals_and_the_last_night(services: AppServices) -> None:
    ann = services.players.find("Ann")
    assert ann is not None
    shell, page = shell_for(services, f"/players/{ann.id}")
    shell.render()
    view = page.views[-1]
    check_labels(view)
    shown = texts(view)
    mine = services.ratings.ratings(ALL).get(ann.id)
    assert mine is not None
    assert any(
        t.startswith(f"All games: {mine.ordinal:.1f} (μ {mine.mu:.1f} ± {mine.sigma:.1f}) provisional") for t in shown
    )
    assert any(t.startswith("Jokers Kill: ") for t in shown)
    change = services.ratings.ratings(ALL).changes(services.nights.all()[0].sessions)[ann.id]
    sign = "+" if change > 0 else "−"
    assert f"Last night (Friday): {sign}{abs(change):.1f}" in shown
    assert any(t.startswith("Rival: ") for t in shown)


def test_the_nights_recap_screen_shows_the_rating_change(services: AppServices) -> None:
    night = services.nights.all()[0]
    shell, page = shell_for(services, f"/nights/{night.id}/recap")
    shell.render()
    shown = texts(page.views[-1])
    assert "Rating change" in shown
    assert any(t.startswith("Rating change, Ann: ") for t in shown)


def test_history_filters_by_season(services: AppServices) -> None:
    view, chosen = _by_first_season(services, "/history")
    fields = {c.label: c.value for c, _ in walk(view) if isinstance(c, ft.TextField)}
    assert (fields["From"], fields["To"]) == (chosen.start.isoformat(), chosen.end.isoformat())
    assert any(t.startswith("3 sessions") for t in texts(view))


def test_a_season_is_named_on_statistics_and_a_bad_one_refused_in_words(services: AppServices) -> None:
    shell, page = shell_for(services, "/stats")
    shell.render()
    view = page.views[-1]
    fields = {c.label: c for c, _ in walk(view) if isinstance(c, ft.TextField)}
    add = next(c for c, _ in walk(view) if isinstance(c, ft.OutlinedButton) and c.tooltip == "Add the season")
    fields["Season name"].value = "Spring"
    fields["First day"].value = "2026-06-01"
    fields["Last day"].value = "2026-03-01"
    add.on_click(None)  # type: ignore[misc]
    assert "season 'Spring' starts on 2026-06-01, after it ends on 2026-03-01" in texts(view)
    assert "Spring" not in [s.name for s in services.seasons.seasons.all()]
    fields["First day"].value = "2026-01-01"
    add.on_click(None)  # type: ignore[misc]
    assert page.navigated[-1] == "/stats?season=Spring"
    assert ("Spring", "2026-01-01", "2026-03-01") in [
        (s.name, s.start.isoformat(), s.end.isoformat()) for s in services.seasons.seasons.all()
    ]
