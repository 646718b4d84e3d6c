"""Settings, Players and Rules are ``@ft.component``s over ``@ft.observable`` state: a change renders the component
again in place (Settings even on a change of the settings, so it keeps its scroll position).

Built as the shell builds them, on a fake page; a component's body is rendered as Flet would render it
(``tests/test_app_views.py``: :func:`rendered`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import flet as ft

from companion.services import AppServices
from companion.settings import Theme
from tests.support.screens import FakePage, walk
from views.shell import Shell


class Page(FakePage):
    """A fake page that runs the shell's settings redraw at once (Flet runs it on the page's executor)."""

    def run_thread(self, handler: Any, *args: Any) -> None:
        handler(*args)


def shell_for(services: AppServices, route: str) -> tuple[Shell, Page]:
    page = Page(route)
    return Shell(cast(ft.Page, page), services), page


def components(view: ft.View) -> list[ft.Component]:
    return [c for c, _ in walk(view) if isinstance(c, ft.Component)]


def theme_group(view: ft.View) -> ft.RadioGroup:
    """The theme's radio buttons (the language's are above them, also set to "system" at first)."""
    return next(
        c
        for c, _ in walk(view)
        if isinstance(c, ft.RadioGroup) and any(isinstance(r, ft.Radio) and r.value == "dark" for r, _ in walk(c))
    )


def test_settings_stays_on_a_settings_change_and_shows_it(services: AppServices) -> None:
    shell, page = shell_for(services, "/settings")
    shell.start()
    home, settings = page.views
    (form,) = components(settings)
    (state,) = [a for a in form.args if isinstance(a, ft.Observable)]
    theme = theme_group(settings)
    theme.value = "dark"
    theme.on_change(SimpleNamespace(control=theme))  # type: ignore[misc]
    assert services.settings.current().theme is Theme.DARK
    assert page.views[1] is settings, "Settings is not built again: it keeps its scroll position"
    assert page.views[0] is not home, "the screen below it is built with the new settings"
    assert state.settings.theme is Theme.DARK and page.theme_mode == ft.ThemeMode.DARK
    assert any(isinstance(c, ft.RadioGroup) and c.value == "dark" for c, _ in walk(settings))


def test_a_refused_theme_is_said_and_nothing_changes(services: AppServices) -> None:
    shell, page = shell_for(services, "/settings")
    shell.render()
    theme = theme_group(page.views[-1])
    theme.value = "neon"
    theme.on_change(SimpleNamespace(control=theme))  # type: ignore[misc]
    errors: list[Any] = [c.value for c, _ in walk(page.views[-1]) if isinstance(c, ft.Text) and c.value and c.color]
    assert any("'neon' is not a theme" in str(e) for e in errors), errors
    assert services.settings.current().theme is Theme.SYSTEM


def texts(view: ft.View) -> list[str]:
    return [str(c.value) for c, _ in walk(view) if isinstance(c, ft.Text) and c.value]


def field(view: ft.View, label: str) -> ft.TextField:
    return next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == label)


def button(view: ft.View, text: str) -> Any:
    return next(c for c, _ in walk(view) if isinstance(c, ft.FilledButton) and c.content == text)


def type_into(view: ft.View, label: str, text: str) -> None:
    typed = field(view, label)
    typed.value = text
    typed.on_change(None)  # type: ignore[misc]


def test_a_player_added_joins_the_list_in_place(services: AppServices) -> None:
    services.players.add("Ann")
    shell, page = shell_for(services, "/players")
    shell.render()
    view = page.views[-1]
    assert button(view, "Add").disabled
    type_into(view, "New player's name", "ann")
    assert button(view, "Add").disabled and any("Ann" in t for t in texts(view) if "roster" in t)
    type_into(view, "New player's name", "Ben")
    assert not button(view, "Add").disabled
    button(view, "Add").on_click(None)
    assert page.views[-1] is view and page.updates == 1, "the list renders again in place, not as a new screen"
    assert "Ben" in texts(view) and field(view, "New player's name").value == ""
    assert [p.name for p in services.players.players()] == ["Ann", "Ben"]


def test_a_rename_shows_the_new_name_in_the_title_and_the_old_one_as_earlier(services: AppServices) -> None:
    ben = services.players.add("Ben")
    shell, page = shell_for(services, f"/players/{ben.id}")
    shell.render()
    view = page.views[-1]
    type_into(view, "New name", "Benjamin")
    button(view, "Rename").on_click(None)
    assert services.players.get(ben.id).name == "Benjamin"
    assert view.appbar is not None and "Benjamin" in [c.value for c, _ in walk(view.appbar) if isinstance(c, ft.Text)]
    assert "Also played as Ben." in texts(view) and field(view, "New name").value == "Benjamin"
    assert button(view, "Rename").disabled, "nothing to rename until the name is changed again"
