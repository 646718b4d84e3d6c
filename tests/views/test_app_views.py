"""The app shell without a browser: the route table, the screen stacks, Back, and labels on every control.

Flet controls are plain dataclasses, so screens can be built and inspected here; only the page is faked.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

from companion.games import all_guides, get_guide
from companion.services import AppServices
from companion.settings import Theme
from scoring import GAMES, Part, UnknownPartError, find_game
from tests.conftest import RULES
from tests.support.screens import INTERACTIVE, FakePage, icon_label, label_of, shell_for, walk
from views.home import HOME_ITEMS
from views.routes import ROUTES
from views.routing import find_route
from views.shell import apply_theme


def every_path() -> list[str]:
    paths = [pattern for pattern in (route.pattern for route in ROUTES) if ":" not in pattern]
    return paths + [guide.route for guide in all_guides()]


def test_every_home_button_leads_to_a_screen() -> None:
    assert [label for label, *_ in HOME_ITEMS] == ["New game", "Continue", "History", "Players", "Rules", "Settings"]
    for label, route, *_ in HOME_ITEMS:
        assert find_route(ROUTES, route) is not None, f"{label} → {route} has no screen"
    patterns = [route.pattern for route in ROUTES]
    assert len(patterns) == len(set(patterns))


@pytest.mark.parametrize("path", every_path())
def test_each_screen_builds_with_its_ancestors_and_labels_every_control(services: AppServices, path: str) -> None:
    shell, page = shell_for(services, path)
    shell.render()
    assert page.updates == 1
    assert [view.route for view in page.views][-1] == path
    assert page.views[0].route == "/"
    top = page.views[-1]
    assert top.appbar is not None
    controls = list(walk(top))
    interactive = [(control, labelled) for control, labelled in controls if isinstance(control, INTERACTIVE)]
    assert interactive, f"{path} has nothing to tap"
    for control, labelled in interactive:
        assert labelled or label_of(control), f"{type(control).__name__} on {path} has no label"
        height = getattr(control, "height", None) or getattr(control, "min_height", None)
        if not isinstance(control, ft.Radio | ft.Switch | ft.ListTile) or height is not None:
            assert height is not None and height >= 48, f"{type(control).__name__} on {path} is too small"
    if path != "/":
        back = [c for c, _ in controls if icon_label(c) == "Back"]
        assert len(back) == 1, f"{path} needs one Back button"


def test_back_goes_to_the_parent_screen(services: AppServices) -> None:
    shell, page = shell_for(services, "/rules/jokers-kill")
    shell.render()
    back = next(c for c, _ in walk(page.views[-1]) if icon_label(c) == "Back")
    assert isinstance(back.content, ft.IconButton) and back.content.on_click is not None
    cast(Any, back.content.on_click)(None)
    assert page.navigated == ["/rules"]


@pytest.mark.parametrize(
    ("path", "message"),
    [("/nowhere", "no page at /nowhere"), ("/rules/poker", "no rules for 'poker'"), ("/rules/x/y", "no page")],
)
def test_unknown_paths_say_what_is_wrong_and_keep_a_way_back(services: AppServices, path: str, message: str) -> None:
    shell, page = shell_for(services, path)
    shell.render()
    top = page.views[-1]
    texts = [c.value for c, _ in walk(top) if isinstance(c, ft.Text) and c.value]
    assert "This page does not exist" in texts
    assert any(message in text for text in texts), texts
    assert any(icon_label(c) == "Back" for c, _ in walk(top))


def test_theme_follows_settings(services: AppServices) -> None:
    page = FakePage()
    apply_theme(cast(ft.Page, page), services.settings.current())
    assert page.theme_mode == ft.ThemeMode.SYSTEM
    services.settings.set_theme(Theme.DARK)
    apply_theme(cast(ft.Page, page), services.settings.current())
    assert page.theme_mode == ft.ThemeMode.DARK
    assert page.fonts and all(Path("assets", url).exists() for url in page.fonts.values())


def test_rules_screen_shows_every_house_rule(services: AppServices) -> None:
    shell, page = shell_for(services, "/rules/financial-crisis")
    shell.render()
    texts = {c.value for c, _ in walk(page.views[-1]) if isinstance(c, ft.Text)}
    for option in get_guide("financial-crisis").options:
        assert option.label in texts


def test_guides_match_the_scoring_games_and_house_rules() -> None:
    """Every guide's options are exactly its game record's ``options`` (and the house-rules table beside the
    project, when there is one)."""
    assert [guide.key for guide in all_guides()] == [game.key for game in GAMES]
    for guide in all_guides():
        fields = importlib.import_module(find_game(guide.key).record_model.__module__).Options.model_fields
        assert [option.key for option in guide.options] == list(fields), guide.name
    assert get_guide("bargain-bin").route == "/rules/bargain-bin"
    table_file = RULES / "house-rules.md"
    if not table_file.is_file():
        return  # a clone on its own: the record models above are the reference
    names = {guide.key: guide.name for guide in all_guides()}
    documented: dict[str, set[str]] = {key: set() for key in names}
    for line in table_file.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        match = re.fullmatch(r"`(\w+)`.*", cells[1]) if len(cells) > 2 else None
        if match:
            key = next(key for key, name in names.items() if name == cells[0])
            documented[key].add(match.group(1))
    for guide in all_guides():
        assert {option.key for option in guide.options} == documented[guide.key], guide.name


# --- the hand list and the correction routes of every part of a record ---------------------------------------------


@pytest.mark.parametrize(
    ("slug", "part", "index", "label"),
    [
        ("hand-3", "hands", 2, "hand 3"),
        ("playoff-1", "playoff", 0, "play-off hand 1"),
        ("tiebreak-2", "tiebreak", 1, "tie-break round 2"),
        ("sudden-death-1", "sudden_death", 0, "sudden-death hand 1"),
    ],
)
def test_correction_routes_name_every_part(slug: str, part: str, index: int, label: str) -> None:
    from views.table.entry import EntryTarget

    target = EntryTarget.of_slug(slug)
    assert target == EntryTarget(Part(part), index)
    assert target.slug == slug and target.label == label and target.key == f"{part}/{index}"


@pytest.mark.parametrize("slug", ["hand-0", "tiebreak", "sudden_death-1", "round-2", "share"])
def test_a_slug_that_names_no_entry_is_refused_with_the_forms_it_could_take(slug: str) -> None:
    from views.table.entry import EntryTarget

    with pytest.raises(
        UnknownPartError, match=r"is not an entry of a game \(hand-1, playoff-1, tiebreak-1, sudden-death"
    ):
        EntryTarget.of_slug(slug)


def test_hand_list_rows_are_labelled_and_open_their_correction() -> None:
    from scoring import find_game
    from views.table.scoreboard import HandLine, hand_lines, hand_list

    record = {
        "game": "1111-9999",
        "players": ["Ann", "Ben"],
        "sides": {"Ann": "A", "Ben": "B"},
        "options": {"target": 40},
        "hands": [{"table": "4239", "numbers": {"Ann": "4199", "Ben": "9364"}}],
        "sudden_death": [{"table": "123", "numbers": {"Ann": "124", "Ben": "322"}}],
    }
    result = find_game("1111-9999").score(record)
    lines = hand_lines(result)
    assert [(line.part, line.index, line.label, line.slug) for line in lines] == [
        (Part.HANDS, 0, "Hand 1: Ann +40, Ben +40", "hand-1"),
        (Part.SUDDEN_DEATH, 0, "Sudden-death hand 1: Ann 1, Ben 1", "sudden-death-1"),
    ]
    assert lines[1].notes[-1].startswith("Ann and Ben tie for the lowest sudden-death score, 1")
    opened: list[HandLine] = []
    column = hand_list(result, opened.append)
    rows = [c for c, _ in walk(column) if isinstance(c, ft.Semantics)]
    assert [row.label for row in rows] == [
        "Sudden-death hand 1: Ann 1, Ben 1. Tap to correct",
        "Hand 1: Ann +40, Ben +40. Tap to correct",
    ], "newest first, each row labelled"
    for row in rows:
        assert row.button and isinstance(row.content, ft.ListTile)
        cast(Any, row.content.on_click)(None)
    assert [line.slug for line in opened] == ["sudden-death-1", "hand-1"]
    read_only = hand_list(result, None)
    assert not [c for c, _ in walk(read_only) if isinstance(c, ft.Semantics)], "nothing to tap on a read-only list"


def test_a_correction_of_a_part_the_game_has_not_played_says_so(services: AppServices) -> None:
    session = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    for slug, missing in (("tiebreak-1", "tie-break round 1"), ("sudden-death-2", "sudden-death hand 2")):
        shell, page = shell_for(services, f"/continue/{session.id}/{slug}")
        shell.render()
        texts = [c.value for c, _ in walk(page.views[-1]) if isinstance(c, ft.Text) and c.value]
        assert any(f"This game has no {missing}" in text for text in texts), texts
