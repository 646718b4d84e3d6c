"""Each device keeps its own half-entered hand: the host's page and a phone with the PIN entering the same hand
never overwrite each other; a reload (or a restart of the app) gives each its own taps back; when one confirms,
the other's hand is kept only if it still applies to the new record; and the host's Confirm always gets an answer.

The scene of issue 25: the host taps the up-card A♠ and Uma's 2♥; a phone with the PIN taps K♦, Q♣ and J♠ on the
same game. Before, the one draft on disk was the game's, and the host's Continue showed the phone's cards.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import flet as ft

from companion.entry import EntryController, EntryTarget
from companion.entry_jokers_kill import JokersKillState
from companion.services import AppServices
from companion.session import HOST_DEVICE, SessionService
from companion.sharing import Access, Edit, Role, device_of
from storage import Archive
from tests.support.screens import DevicePage as PhonePage
from tests.support.screens import Page, buttons, child_controls, label_of, press, tap, texts
from views.context import ViewContext
from views.live import LiveScreen
from views.seat import Seat
from views.shell import Shell
from views.widgets import Key

PLAYERS = ["Uma", "Vic"]
PHONE = Access(Role.EDITOR, "192.168.1.20", pin_epoch=1)
"""A phone that entered the PIN (its device: its address)."""


def entry(store: Any, record: dict[str, Any]) -> EntryController[JokersKillState]:
    return EntryController(JokersKillState, store, record, EntryTarget("hands"))


def taps(ctl: EntryController[JokersKillState], *cards: str) -> None:
    for card in cards:

        def place(state: JokersKillState, card: str = card) -> JokersKillState:
            return state.place(card)

        ctl.change(place)


def places(ctl: EntryController[JokersKillState]) -> list[str]:
    return [slot.label for slot in ctl.state.slots()]


# --- the session's drafts, device by device ---------------------------------------------------------------------


def test_two_devices_entering_the_same_hand_each_get_their_own_taps_back_after_a_restart(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        host = entry(table.drafts_for(HOST_DEVICE), table.record)
        taps(host, "AS", "2H")
        phone = entry(table.drafts_for(device_of(PHONE)), table.record)
        taps(phone, "KD", "QC", "JS")
        # the same tab reloaded: a new panel on each device, in the same running app
        assert places(entry(table.drafts_for(HOST_DEVICE), table.record)) == ["Up-card: A♠", "Uma: 2♥", "Vic: —"]
        assert places(entry(table.drafts_for(device_of(PHONE)), table.record)) == [
            "Up-card: K♦",
            "Uma: Q♣",
            "Vic: J♠",
        ]
        session_id = table.id
    with Archive(tmp_path / "data") as archive:  # the app started again: read back from the drafts file
        table = SessionService(archive).open(session_id)
        assert places(entry(table.drafts_for(HOST_DEVICE), table.record)) == ["Up-card: A♠", "Uma: 2♥", "Vic: —"]
        assert places(entry(table.drafts_for(device_of(PHONE)), table.record))[0] == "Up-card: K♦"
        assert entry(table.drafts_for("seat:192.168.1.99"), table.record).restored is False, "another phone: none"


def test_a_drafts_file_of_before_devices_is_read_as_the_hosts(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).start("jokers-kill", PLAYERS)
        session_id = table.id
    old: dict[str, Any] = {
        "session": session_id,
        "stamp": 1,
        "drafts": {"new": {"up": "AS", "buried": [], "cards": {}, "tiebreaks": []}},
    }
    (tmp_path / "data" / "drafts").mkdir(exist_ok=True)
    (tmp_path / "data" / "drafts" / f"{session_id}.drafts.json").write_text(json.dumps(old))
    with Archive(tmp_path / "data") as archive:
        table = SessionService(archive).open(session_id)
        assert table.draft() == old["drafts"]["new"]
        assert table.draft(device=device_of(PHONE)) is None
        table.set_draft({"up": "KD", "buried": [], "cards": {}, "tiebreaks": []}, device=device_of(PHONE))
    written = json.loads((tmp_path / "data" / "drafts" / f"{session_id}.drafts.json").read_text())
    assert written["drafts"] == old["drafts"], "the host's drafts stay where an older app reads them"
    assert written["devices"] == {
        "seat:192.168.1.20": {"new": {"up": "KD", "buried": [], "cards": {}, "tiebreaks": []}}
    }


def test_a_confirm_keeps_the_other_devices_hand_only_if_it_still_applies(tmp_path: Path) -> None:
    with Archive(tmp_path / "data") as archive:
        service = SessionService(archive)
        table = service.start("jokers-kill", PLAYERS)
        host = entry(table.drafts_for(HOST_DEVICE), table.record)
        taps(host, "AS", "2H")
        phone = entry(table.drafts_for(device_of(PHONE)), table.record)
        taps(phone, "KD", "QC", "JS")
        assert phone.confirm(lambda hand: bool(table.make(Edit.add(hand, expected_version=table.version))))
        assert table.draft(device=device_of(PHONE)) is None, "the confirmed hand's draft is gone"
        assert table.draft() == {"up": "AS", "buried": [], "cards": {"Uma": "2H"}, "tiebreaks": []}, (
            "A♠ and 2♥ can still be dealt: the host's taps are kept for the next hand"
        )
        # the phone starts the next hand with a card the host is holding in its draft: both still apply
        phone = entry(table.drafts_for(device_of(PHONE)), table.record)
        taps(phone, "3C")
        # the host confirms a hand with 3♣ in it: the phone's up-card 3♣ is dealt now, its draft no longer applies
        host = entry(table.drafts_for(HOST_DEVICE), table.record)
        taps(host, "3C")
        assert host.confirm(lambda hand: bool(table.make(Edit.add(hand, expected_version=table.version))))
        assert table.draft(device=device_of(PHONE)) is None, "3♣ is in the record now: the phone's hand is dropped"
        assert not entry(table.drafts_for(device_of(PHONE)), table.record).restored
        session_id = table.id
    with Archive(tmp_path / "data") as archive:  # and so it is on disk
        table = SessionService(archive).open(session_id)
        assert table.draft() is None and table.draft(device=device_of(PHONE)) is None


# --- the host's page and a phone's live screen ---------------------------------------------------------------


def host_table(services: AppServices, session_id: str) -> tuple[Page, ft.View]:
    page = Page(f"/continue/{session_id}")
    Shell(cast(ft.Page, page), services).render()
    return page, page.views[-1]


def phone_screen(services: AppServices) -> LiveScreen:
    page = PhonePage("/live", PHONE.client, "http://192.168.1.5:8550/live")
    assert services.live.pin is not None
    seat = Seat(
        cast(ft.Page, page), services, services.live.enter_pin(Access(Role.VIEWER, PHONE.client), services.live.pin)
    )
    ctx = ViewContext(page=cast(ft.Page, page), services=services, settings=services.settings.current(), path="/live")
    screen = LiveScreen(ctx, seat, None, back=False)
    screen.view()
    return screen


def phone_tap(screen: LiveScreen, label: str) -> None:
    for control in walk_live(screen.body):
        named = isinstance(control, ft.Control) and label in (getattr(control, "tooltip", None), _text(control))
        tappable = control.data.enabled if isinstance(control, Key) else getattr(control, "on_click", None)
        if named and tappable and not getattr(control, "disabled", False):
            press(control)
            return
    raise AssertionError(f"no {label!r} to tap on the phone")


def _text(control: Any) -> str | None:
    content = getattr(control, "content", None)
    if isinstance(content, ft.Text):
        return str(content.value)
    return content if isinstance(content, str) else None


def walk_live(root: Any) -> Iterator[Any]:
    stack = [root]
    while stack:
        item = stack.pop()
        yield item
        stack += child_controls(item)


def phone_places(screen: LiveScreen) -> list[str]:
    return [
        label_of(c)
        for c in walk_live(screen.body)
        if isinstance(c, Key) and label_of(c).startswith(("Up-card", *PLAYERS))
    ]


def host_places(view: ft.View) -> list[str]:
    return [label for label in texts(view) if label.startswith(("Up-card:", "Uma:", "Vic:"))] or [
        label for label in buttons(view) if label.startswith(("Up-card:", "Uma:", "Vic:"))
    ]


def test_the_host_and_a_phone_reload_and_each_get_their_own_taps_back(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", PLAYERS)
    services.live.show(table.id)
    _, view = host_table(services, table.id)
    for card in ("A♠", "2♥"):
        tap(view, card)
    phone = phone_screen(services)
    for card in ("K♦", "Q♣", "J♠"):
        phone_tap(phone, card)
    assert "Up-card: K♦" in phone_places(phone)

    _, view = host_table(services, table.id)  # the host closes its tab and chooses Continue
    assert {"Up-card: A♠", "Uma: 2♥"} <= set(buttons(view)), buttons(view).keys()
    assert not {"Up-card: K♦", "Uma: Q♣", "Vic: J♠"} & set(buttons(view)), "the phone's cards are not the host's"
    phone.stop()
    phone = phone_screen(services)  # the phone reloads
    assert {"Up-card: K♦", "Uma: Q♣", "Vic: J♠"} <= set(phone_places(phone))
    phone.stop()


def test_when_the_phone_confirms_first_the_hosts_taps_stay_and_its_confirm_is_answered(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", PLAYERS)
    services.live.show(table.id)
    _, view = host_table(services, table.id)
    for card in ("A♠", "2♥"):
        tap(view, card)
    phone = phone_screen(services)
    for card in ("K♦", "Q♣", "J♠"):
        phone_tap(phone, card)
    phone_tap(phone, "Confirm hand")
    assert len(table.hands) == 1 and table.hands[0]["up"] == "KD"
    assert "Problem" not in " ".join(texts(view))
    assert {"Up-card: A♠", "Uma: 2♥"} <= set(buttons(view)), "the host's table is not redrawn empty"
    tap(view, "3♣")
    tap(view, "Confirm hand")
    assert len(table.hands) == 2 and table.hands[1] == {"up": "AS", "cards": {"Uma": "2H", "Vic": "3C"}}, (
        "the host's Confirm is answered: its own hand, saved as the next one"
    )
    assert table.draft() is None and table.draft(device=device_of(PHONE)) is None
    phone.stop()


class LaterPage(Page):
    """A page whose redraws asked from another thread wait until :meth:`run_later` (Flet runs them on the page's
    own executor, some time after the change)."""

    def __init__(self, route: str) -> None:
        super().__init__(route)
        self.later: list[Any] = []

    def run_thread(self, handler: Any, *args: Any) -> None:
        self.later.append((handler, args))

    def run_later(self) -> None:
        while self.later:
            handler, args = self.later.pop(0)
            handler(*args)


def test_a_host_confirm_made_before_its_redraw_says_someone_else_changed_the_game(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", PLAYERS)
    page = LaterPage(f"/continue/{table.id}")
    Shell(cast(ft.Page, page), services).render()
    view = page.views[-1]
    for card in ("A♠", "2♥", "3♣"):
        tap(view, card)
    phone = services.live.enter_pin(Access(Role.VIEWER, PHONE.client), str(services.live.pin))
    services.live.apply_as(phone, table.id, Edit.add({"up": "KD", "cards": {"Uma": "QC", "Vic": "JS"}}))
    assert page.later, "the host's redraw is on its way, not drawn yet"
    tap(view, "Confirm hand")
    assert len(table.hands) == 1, "not added on top of a hand the host has not seen"
    said = " ".join(texts(view))
    assert "Someone else changed this game" in said, said
    page.run_later()
    assert {"Up-card: A♠", "Uma: 2♥", "Vic: 3♣"} <= set(buttons(view)), "the host's own taps, on the new state"
    tap(view, "Confirm hand")
    assert len(table.hands) == 2 and table.hands[1]["up"] == "AS"
    assert "Someone else changed this game" not in " ".join(texts(view))


class ThreadedPage(Page):
    """A page whose redraws asked from another thread run on a thread of their own, as Flet runs them on the
    page's executor while the tap's handler runs on another."""

    def __init__(self, route: str) -> None:
        super().__init__(route)
        self.threads: list[threading.Thread] = []

    def run_thread(self, handler: Any, *args: Any) -> None:
        thread = threading.Thread(target=handler, args=args, daemon=True)
        self.threads.append(thread)
        thread.start()


def test_in_twenty_races_every_host_confirm_is_answered(services: AppServices) -> None:
    """The phone confirms its hand while the host confirms its own, twenty times: each host Confirm ends (no
    thread waits for another's drawing) with its hand saved or with "someone else changed this game"."""
    phone = services.live.enter_pin(Access(Role.VIEWER, PHONE.client), str(services.live.pin))
    for race in range(20):
        table = services.sessions.start("jokers-kill", PLAYERS)
        page = ThreadedPage(f"/continue/{table.id}")
        Shell(cast(ft.Page, page), services).render()
        view = page.views[-1]
        for card in ("A♠", "2♥", "3♣"):
            tap(view, card)
        start = threading.Barrier(2)

        def host_confirms(view: ft.View = view, start: threading.Barrier = start) -> None:
            start.wait()
            tap(view, "Confirm hand")

        def phone_confirms(table: Any = table, start: threading.Barrier = start) -> None:
            hand = {"up": "KD", "cards": {"Uma": "QC", "Vic": "JS"}}
            start.wait()
            services.live.apply_as(phone, table.id, Edit.add(hand, expected_version=0))

        racers = [threading.Thread(target=host_confirms), threading.Thread(target=phone_confirms)]
        for racer in racers:
            racer.start()
        for thread in [*racers, *page.threads]:
            thread.join(timeout=10)
            assert not thread.is_alive(), f"race {race}: a thread is stuck"
        for thread in page.threads:  # redraws the racers' changes asked for
            thread.join(timeout=10)
            assert not thread.is_alive(), f"race {race}: a redraw is stuck"
        saved = any(hand["up"] == "AS" for hand in table.hands)
        said = " ".join(texts(view))
        assert saved or "Someone else changed this game" in said, f"race {race}: no answer ({table.hands}, {said})"
        if not saved:
            assert table.draft() == {"up": "AS", "buried": [], "cards": {"Uma": "2H", "Vic": "3C"}, "tiebreaks": []}
