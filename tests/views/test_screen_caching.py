"""Opening a screen does no work twice (issue 15): History, Continue and Statistics list, filter and compute once per
state of the archive; the shell keeps the screens below a new one instead of building (and sending) them again; a
tab that reconnects (a reload) to a page that is still current is not drawn again.

No timing here: the benchmark (``bench/screens_bench.py``) measures; these tests count the work done.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import flet as ft
import pytest

import companion.history
import companion.stats
import views.shell
from companion.history import HistoryFilter
from companion.services import AppServices
from companion.settings import Theme
from scoring import find_game
from storage import SessionStatus
from tests.conftest import CASES
from tests.support.screens import FakePage, walk
from views.shell import Shell


class Page(FakePage):
    """A fake page whose navigation changes its route (as Flet's does), with a session that may be connected."""

    def __init__(self, route: str = "/") -> None:
        super().__init__(route)
        self.session = type("Session", (), {"connection": None})()

    def navigate(self, route: str) -> None:
        super().navigate(route)
        self.route = route

    def run_thread(self, handler: Callable[..., Any], *args: Any) -> None:
        handler(*args)


def record(name: str = "14-playoff-first-to-three.json") -> dict[str, Any]:
    found: dict[str, Any] = json.loads((CASES / "jokers-kill" / name).read_text())["record"]
    return found


def save_finished(services: AppServices, title: str) -> str:
    rec = record()
    result = find_game(rec["game"]).score(rec)
    doc = services.archive.create_session(rec, status=SessionStatus.FINISHED, winners=list(result.winners), title=title)
    return doc.id


@pytest.fixture
def services(services: AppServices, monkeypatch: pytest.MonkeyPatch) -> AppServices:
    # History warms the statistics up in a thread of its own; here they are counted where they are asked for
    monkeypatch.setattr(services.stats, "warm_up", lambda *args, **kwargs: None)
    monkeypatch.setattr(services.ratings, "warm_up", lambda *args, **kwargs: None)  # and the ratings
    return services


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (still calling it)."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def open_tab(services: AppServices, route: str) -> tuple[Shell, Page]:
    page = Page(route)
    shell = Shell(cast(ft.Page, page), services)
    shell.start()
    return shell, page


def labels(view: ft.View) -> list[str]:
    return [str(c.value) for c, _ in walk(view) if isinstance(c, ft.Text) and isinstance(c.value, str)]


# --- the lists and the figures -----------------------------------------------------------------------------------


def test_history_opened_twice_on_an_unchanged_archive_lists_and_filters_once(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        save_finished(services, f"Evening {n}")
    listed = counting(monkeypatch, services.archive, "list_sessions")
    filtered = counting(monkeypatch, companion.history, "filter_sessions")
    _, first = open_tab(services, "/history")
    _, second = open_tab(services, "/history")  # another tab, or the same one reloaded as a new session
    assert "3 sessions" in labels(first.views[-1]) and "3 sessions" in labels(second.views[-1])
    assert (len(listed), len(filtered)) == (1, 1), "the second opening must reuse the first one's list"
    save_finished(services, "Evening 3")  # the archive changed: listed and filtered again, the new game shown
    _, third = open_tab(services, "/history")
    assert "4 sessions" in labels(third.views[-1])
    assert (len(listed), len(filtered)) == (2, 2)


def test_filters_still_cover_the_whole_archive(services: AppServices) -> None:
    # "3x", not "3": a search word is found anywhere in a session's text, its date too (on the 3rd of a month)
    ids = [save_finished(services, f"Evening {n}x") for n in range(30)]
    found = services.lists.filtered(HistoryFilter(search="evening 3x"))
    assert {s.title for s in found} == {"Evening 3x", "Evening 13x", "Evening 23x"}
    assert len(services.lists.filtered(HistoryFilter())) == len(ids) == 30
    assert services.lists.filtered(HistoryFilter(search="evening 3x")) is found, "the same filter is remembered"


def test_continue_lists_once_per_archive_state(services: AppServices, monkeypatch: pytest.MonkeyPatch) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    listed = counting(monkeypatch, services.archive, "list_sessions")
    first = services.lists.unfinished()
    assert [s.id for s in first] == [table.id]
    assert services.lists.unfinished() is first and len(listed) == 1
    services.sessions.start("jokers-kill", ["Cat", "Dan"])
    assert len(services.lists.unfinished()) == 2 and len(listed) == 2


def test_statistics_opened_twice_on_an_unchanged_archive_compute_once(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_finished(services, "Evening 1")
    computed = counting(monkeypatch, companion.stats, "compute")
    listed = counting(monkeypatch, services.archive, "list_sessions")
    _, first = open_tab(services, "/stats")
    assert "1 finished game" in labels(first.views[-1])
    after_first = len(listed)
    _, second = open_tab(services, "/stats")
    assert "1 finished game" in labels(second.views[-1])
    assert len(computed) == 1, "the figures of an unchanged archive are computed once"
    assert len(listed) == after_first, "nor is the archive listed again to find that out"
    # a hand of an unfinished game changes the archive but no finished game: checked, not computed again
    services.sessions.start("jokers-kill", ["Ann", "Ben"])
    open_tab(services, "/stats")
    assert len(computed) == 1 and len(listed) > after_first
    save_finished(services, "Evening 2")  # a finished game more: computed again, and shown
    _, fourth = open_tab(services, "/stats")
    assert len(computed) == 2 and "2 finished games" in labels(fourth.views[-1])


# --- the shell: screens kept, reloads not redrawn ----------------------------------------------------------------


def test_opening_a_screen_keeps_the_screens_below_it(services: AppServices) -> None:
    shell, page = open_tab(services, "/history")
    home, _history = page.views
    page.navigate("/stats")  # Statistics sits on Home
    shell.render()
    assert [v.route for v in page.views] == ["/", "/stats"] and page.views[0] is home, "Home was drawn: kept"
    page.navigate("/rules")
    shell.render()
    rules = page.views[1]
    page.navigate("/rules/jokers-kill")
    shell.render()
    assert [v.route for v in page.views] == ["/", "/rules", "/rules/jokers-kill"]
    assert page.views[0] is home and page.views[1] is rules, "the screens below the new one are not built again"
    page.navigate("/rules")  # Back: the Rules screen comes to the top and is built afresh (it may have changed)
    shell.render()
    assert page.views[0] is home and page.views[1] is not rules and len(page.views) == 2


def test_a_settings_change_builds_every_screen_again(services: AppServices) -> None:
    _shell, page = open_tab(services, "/history")
    home, history = page.views
    services.settings.set_theme(Theme.DARK)  # the shell follows settings: every screen is built again
    assert page.theme_mode == ft.ThemeMode.DARK
    assert page.views[0] is not home and page.views[1] is not history


def test_a_reconnect_to_a_current_page_draws_nothing(services: AppServices) -> None:
    save_finished(services, "Evening 1")
    shell, page = open_tab(services, "/history")
    drawn, updates = list(page.views), page.updates
    page.on_disconnect(None)  # the tab reloads: its connection goes...
    page.session.connection = object()
    page.on_connect(None)  # ...and comes back to the same session, which Flet has sent the page as it stands
    assert page.updates == updates and page.views == drawn and shell.drawings == 1
    # the tab kept following settings: a change in another tab still redraws it
    services.settings.set_theme(Theme.DARK)
    assert page.theme_mode == ft.ThemeMode.DARK and shell.drawings == 2


def test_a_reconnect_after_a_change_draws_the_top_screen_again(services: AppServices) -> None:
    save_finished(services, "Evening 1")
    _shell, page = open_tab(services, "/history")
    home, history = page.views
    page.on_disconnect(None)
    save_finished(services, "Evening 2")  # saved in another tab meanwhile
    page.session.connection = object()
    page.on_connect(None)
    assert page.views[0] is home and page.views[1] is not history
    assert "2 sessions" in labels(page.views[1])


def test_a_page_gone_longer_than_the_grace_period_stops_following(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views.shell, "RECONNECT_GRACE_S", 0.01)
    shell, page = open_tab(services, "/history")
    home, _ = page.views
    page.on_disconnect(None)
    timer = shell._release_timer
    assert timer is not None
    timer.join(5)
    assert shell._unsubscribe is None, "no longer following settings"
    page.session.connection = object()
    page.on_connect(None)  # it came back after all: followed again, and drawn anew
    assert shell._unsubscribe is not None and page.views[0] is not home


def test_a_connect_seen_before_its_disconnect_does_not_stop_the_page(
    services: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views.shell, "RECONNECT_GRACE_S", 0.01)
    shell, page = open_tab(services, "/history")
    page.session.connection = object()  # Flet reconnected the session already
    page.on_disconnect(None)  # (the old connection's event, handled late)
    timer = shell._release_timer
    assert timer is not None
    timer.join(5)
    assert shell._unsubscribe is not None, "a connected page keeps following"
