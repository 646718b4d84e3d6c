"""Twenty phones follow the game: the host's confirm is given to each viewer once, as one message, and what the
viewers show is built once for all of them (counted, as ``tests/views/test_score_once.py`` counts replays).

The viewers are live screens on fake pages (the server-side path of a viewer's page, no browser); every update a
screen sends its page goes through ``views.live.refresh``, which is counted per screen.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

from companion.services import AppServices
from companion.sharing import HOST, Access, Edit, Role
from tests.support.counting import counting_scorers
from tests.support.records import HAND_ANN, HAND_BEN, PLAYERS
from tests.support.screens import DevicePage as FakePage
from tests.support.screens import all_texts
from views import live as live_view
from views.context import ViewContext
from views.live import LiveScreen, Seat

VIEWERS = 20


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppServices]:
    services = AppServices.open(tmp_path / "app")
    try:
        yield services
    finally:
        services.close()


class ThreadedPage(FakePage):
    """A page whose redraws run on a thread of their own, as a real page's executor does; records the threads."""

    def __init__(self, client_ip: str) -> None:
        super().__init__("/live", client_ip, "http://10.0.0.1:8550/live")
        self.threads: list[str] = []

    def run_thread(self, handler: Any, *args: Any) -> None:
        def run() -> None:
            self.threads.append(threading.current_thread().name)
            handler(*args)

        threading.Thread(target=run, name=f"page-{self.client_ip}").start()


def _viewers(app: AppServices, count: int) -> list[LiveScreen]:
    screens = []
    for n in range(count):
        page = ThreadedPage(f"10.0.0.{n + 10}")
        seat = Seat(cast(ft.Page, page), app, Access(Role.VIEWER, page.client_ip))
        ctx = ViewContext(page=cast(ft.Page, page), services=app, settings=app.settings.current(), path="/live")
        screen = LiveScreen(ctx, seat, None, back=False)
        screen.view()
        screens.append(screen)
    return screens


def test_one_confirm_sends_each_of_twenty_viewers_one_message_built_once(
    app: AppServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = app.sessions.start("jokers-kill", PLAYERS)
    app.live.show(table.id)
    screens = _viewers(app, VIEWERS)
    assert all("Jokers Kill: 0 hands played" in all_texts(s.body) for s in screens)
    assert len(table._listeners) == 1, "the game is followed once, whatever the number of viewers"

    sent: Counter[int] = Counter()
    built: Counter[str] = Counter()
    by_body = {id(s.body): n for n, s in enumerate(screens)}
    real_model = live_view.live_model

    def counting_refresh(control: Any) -> None:
        sent[by_body.get(id(control), -1)] += 1

    on_disk: list[int] = []

    def counting_model(session: Any) -> Any:
        built[session.id] += 1
        on_disk.append(len(app.archive.load_session(session.id).record["hands"]))
        return real_model(session)

    monkeypatch.setattr(live_view, "refresh", counting_refresh)
    monkeypatch.setattr(live_view, "live_model", counting_model)
    replays: Counter[str] = Counter()
    confirm_thread: list[str] = []
    table.subscribe(lambda _: confirm_thread.append(threading.current_thread().name))
    with counting_scorers(replays):
        app.live.apply_as(HOST, table.id, Edit.add(HAND_ANN, expected_version=table.version))
        assert app.live.feed.idle(30)

    assert sent == Counter(dict.fromkeys(range(VIEWERS), 1)), "each viewer's page got exactly one update"
    assert built == Counter({table.id: 1}), "the viewers' view of the change was built once, not once per viewer"
    assert replays == Counter({"jokers-kill": 1}), "the record was replayed once for the host and every viewer"
    assert on_disk == [1], "viewers are given the hand only once it is saved"
    assert all(s.rendered == table.version for s in screens)
    assert all("Jokers Kill: 1 hand played" in all_texts(s.body) for s in screens)
    pages = [cast(ThreadedPage, s.ctx.page) for s in screens]
    assert all(len(p.threads) == 1 and p.threads[0] not in confirm_thread for p in pages), (
        "each viewer redrew once, on its page's thread, not on the host's"
    )
    for screen in screens:
        screen.stop()


def test_changes_made_while_viewers_redraw_are_all_shown_and_a_closed_viewer_stops_following(
    app: AppServices,
) -> None:
    table = app.sessions.start("jokers-kill", PLAYERS)
    app.live.show(table.id)
    screens = _viewers(app, 5)
    table.add_hand(HAND_ANN)
    table.add_hand(HAND_BEN)
    assert app.live.feed.idle(30)
    assert all(s.rendered == table.version == 2 for s in screens)
    assert all("Jokers Kill: 2 hands played" in all_texts(s.body) for s in screens)
    screens[0].stop()
    assert app.live.feed.viewers(table.id) == 4
    for screen in screens[1:]:
        screen.stop()
    assert app.live.feed.viewers(table.id) == 0 and len(table._listeners) == 0
