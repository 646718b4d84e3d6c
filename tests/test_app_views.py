"""The app shell without a browser: the route table, the screen stacks, Back, and labels on every control.

Flet controls are plain dataclasses, so screens can be built and inspected here; only the page is faked.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

from companion.guides import all_guides, get_guide
from companion.services import AppServices
from companion.settings import Theme
from scoring import Part, UnknownPartError, registry
from tests.conftest import RULES
from views.home import HOME_ITEMS
from views.routes import ROUTES
from views.routing import find_route
from views.shell import Shell, apply_theme
from views.widgets import Key, Veil

INTERACTIVE = (ft.Button, ft.FilledButton, ft.OutlinedButton, ft.IconButton, ft.ListTile, ft.Radio, ft.Switch, Key)


class FakePage:
    """Just what the shell and the screens use of a Flet page."""

    def __init__(self, route: str = "/") -> None:
        self.route = route
        self.views: list[ft.View] = []
        self.navigated: list[str] = []
        self.updates = 0
        self.title = ""
        self.fonts: dict[str, str] | None = None
        self.theme: ft.Theme | None = None
        self.dark_theme: ft.Theme | None = None
        self.theme_mode: ft.ThemeMode | None = None

    def navigate(self, route: str) -> None:
        self.navigated.append(route)

    def update(self) -> None:
        self.updates += 1


@pytest.fixture
def services(tmp_path: Path) -> Iterator[AppServices]:
    with AppServices.open(tmp_path / "data") as opened:
        yield opened


def shell_for(services: AppServices, route: str) -> tuple[Shell, FakePage]:
    page = FakePage(route)
    return Shell(cast(ft.Page, page), services), page


def walk(control: Any, labelled: bool = False) -> Iterator[tuple[Any, bool]]:
    """Every control under ``control``, with whether a Semantics ancestor gives it a label."""
    if isinstance(control, ft.Semantics) and control.label:
        labelled = True
    yield control, labelled
    if isinstance(control, ft.Component):  # rendered from its state now, as the page's next update would
        yield from walk_body(rendered(control), labelled)
        return
    if not dataclasses.is_dataclass(control):
        return
    for field in dataclasses.fields(control):
        if field.name.startswith("_") or field.name in ("parent", "page"):
            continue
        value = getattr(control, field.name, None)
        yield from walk_body(value, labelled)


def walk_body(value: Any, labelled: bool) -> Iterator[tuple[Any, bool]]:
    for child in value if isinstance(value, list) else [value]:
        if isinstance(child, ft.BaseControl):
            yield from walk(child, labelled)


_RENDERED: weakref.WeakKeyDictionary[ft.Component, tuple[int, ...]] = weakref.WeakKeyDictionary()


def rendered(component: ft.Component) -> Any:
    """The body of ``component`` as its arguments and state are now. On a page Flet renders a component again when
    one of its observable arguments changes; a unit test has no page to do it, so it is done here, once per change
    (a body not rendered again keeps its controls, which the tests find and tap)."""
    versions = tuple(arg.__version__ for arg in component.args if isinstance(arg, ft.Observable))
    if ft.unwrap_component(component) is None or _RENDERED.get(component) != versions:
        component.before_update()
        _RENDERED[component] = versions
    return ft.unwrap_component(component)


def greyed(root: Any, target: Any) -> bool:
    """Whether ``target`` (under ``root``) is greyed out as the player sees it: it, or a control around it, is
    disabled (Flet passes a control's ``disabled`` down to everything inside it), or a raised veil covers it (a
    :class:`views.widgets.Veil` that takes the taps, in the same stack)."""

    def look(control: Any, off: bool) -> bool | None:
        off = off or bool(getattr(control, "disabled", False))
        if control is target:
            return off
        if not dataclasses.is_dataclass(control):
            return None
        if isinstance(control, ft.Stack):
            off = off or any(isinstance(c, Veil) and not c.ignore_interactions for c in control.controls)
        if isinstance(control, ft.Component):
            body = rendered(control)
            for child in body if isinstance(body, list) else [body]:
                found = look(child, off)
                if found is not None:
                    return found
            return None
        for field in dataclasses.fields(control):
            if field.name.startswith("_") or field.name in ("parent", "page"):
                continue
            value = getattr(control, field.name, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ft.BaseControl):
                    found = look(child, off)
                    if found is not None:
                        return found
        return None

    found = look(root, False)
    assert found is not None, f"{target} is not on the screen"
    return found


def label_of(control: Any) -> str:
    """What names a control for a screen reader: its tooltip, label or text, the label of a text or icon inside it
    (merged into its node), or the label of a :class:`ft.Semantics` holding its text (a choice button)."""
    for attribute in ("tooltip", "label", "content", "title", "icon"):
        value = getattr(control, attribute, None)
        if isinstance(value, ft.Semantics) and isinstance(value.content, ft.Text):
            value = value.content
        if isinstance(value, str) and value and attribute != "icon":
            return value
        if isinstance(value, ft.Text) and (value.value or value.semantics_label):
            return str(value.semantics_label or value.value)
        if isinstance(value, ft.Icon) and value.semantics_label:
            return str(value.semantics_label)
    return ""


def icon_label(control: Any) -> str:
    """The label of an icon button made by :func:`views.widgets.icon_button` (the :class:`ft.Semantics` around it),
    or of any other labelled :class:`ft.Semantics`; ``""`` for anything else."""
    if not isinstance(control, ft.Semantics):
        return ""
    icon = control.content.icon if isinstance(control.content, ft.IconButton) else None
    if isinstance(icon, ft.Icon) and icon.semantics_label:
        return str(icon.semantics_label)  # the name a screen reader gives the button (a tooltip is said after it)
    return str(control.label or "")


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
    assert [guide.key for guide in all_guides()] == list(registry._MODULES)
    for guide in all_guides():
        fields = importlib.import_module(registry._MODULES[guide.key]).Options.model_fields
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
    from scoring import get_game
    from views.table.scoreboard import HandLine, hand_lines, hand_list

    record = {
        "game": "1111-9999",
        "players": ["Ann", "Ben"],
        "sides": {"Ann": "A", "Ben": "B"},
        "options": {"target": 40},
        "hands": [{"table": "4239", "numbers": {"Ann": "4199", "Ben": "9364"}}],
        "sudden_death": [{"table": "123", "numbers": {"Ann": "124", "Ben": "322"}}],
    }
    result = get_game("1111-9999").score(record)
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
