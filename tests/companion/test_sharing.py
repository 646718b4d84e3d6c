"""The live table's server-side rules: PINs, who may change the game, stale edits, concurrent editors."""

from __future__ import annotations

import contextlib
import random
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companion.services import AppServices
from companion.session import NothingToUndoError, SessionService, StaleEditError, TableSession
from companion.sharing import (
    HOST,
    MAX_TRACKED_CLIENTS,
    Access,
    Edit,
    EditKind,
    InvalidPinError,
    LiveTable,
    NoLiveGameError,
    NoPinError,
    NotAllowedError,
    PinLimits,
    PinLockedError,
    PinTries,
    Role,
    ShareAddress,
    WrongPinError,
    access_for,
    generate_pin,
    is_live_path,
    qr_png,
    verify_pin_format,
)
from storage import Archive
from tests.support.generators.financial_crisis import random_hand
from tests.support.records import HAND_ANN, HAND_BEN, PLAYERS
from tests.support.screens import DevicePage, all_texts

HAND_CAT = {"up": "9H", "cards": {"Ann": "KH", "Ben": "JD", "Cat": "3C"}}
PHONE = Access(Role.VIEWER, "192.168.1.20")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def live(archive: Archive, clock: FakeClock) -> LiveTable:
    return LiveTable(SessionService(archive), pin="4711", clock=clock, max_tries=3, lock_seconds=30)


@pytest.fixture
def table(live: LiveTable) -> TableSession:
    session = live.sessions.start("jokers-kill", PLAYERS)
    live.show(session.id)
    return session


def every_edit(version: int) -> list[Edit]:
    return [
        Edit.add(HAND_ANN, expected_version=version),
        Edit.replace(0, HAND_BEN, expected_version=version),
        Edit.remove_last(expected_version=version),
        Edit.undo(expected_version=version),
        Edit.redo(expected_version=version),
        Edit.add({"winner": "Ann"}, part="playoff", expected_version=version),
        Edit.set_part("playoff", None, "play-off removed", expected_version=version),
    ]


# --- PINs ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [4, 5, 6])
def test_generated_pins_have_the_asked_number_of_digits(length: int) -> None:
    pins = {generate_pin(length) for _ in range(50)}
    assert all(len(pin) == length and pin.isdigit() for pin in pins)
    assert len(pins) > 1, "PINs must be random, not a constant"


@pytest.mark.parametrize("length", [0, 3, 7, 10])
def test_a_pin_length_outside_4_to_6_is_refused(length: int) -> None:
    with pytest.raises(InvalidPinError, match="4 to 6 digits"):
        generate_pin(length)


@pytest.mark.parametrize(
    ("text", "problem"),
    [("123", "has 3"), ("1234567", "has 7"), ("12a4", "digits only"), ("", "digits only"), ("١٢٣٤", "digits only")],
)
def test_malformed_pins_are_refused_with_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(InvalidPinError, match=problem):
        verify_pin_format(text)


def test_a_pin_may_be_typed_with_spaces() -> None:
    assert verify_pin_format(" 47 11 ") == "4711"


def test_the_right_pin_makes_a_viewer_an_editor_and_a_wrong_one_does_not(live: LiveTable) -> None:
    with pytest.raises(WrongPinError):
        live.enter_pin(PHONE, "1111")
    editor = live.enter_pin(PHONE, "4711")
    assert editor.role is Role.EDITOR and editor.client == PHONE.client
    assert live.can_edit(editor) and not live.can_edit(PHONE)


def test_too_many_wrong_pins_make_every_device_wait(live: LiveTable, clock: FakeClock) -> None:
    for _ in range(2):
        with pytest.raises(WrongPinError):
            live.enter_pin(PHONE, "0000")
    with pytest.raises(PinLockedError, match="try again in 30 s"):
        live.enter_pin(PHONE, "0001")
    with pytest.raises(PinLockedError):  # even the right PIN waits: no guessing by brute force
        live.enter_pin(PHONE, "4711")
    other = Access(Role.VIEWER, "192.168.1.21")
    with pytest.raises(PinLockedError, match="at this table"):  # the wait is the table's, not the device's
        live.enter_pin(other, "4711")
    clock.now += 29
    with pytest.raises(PinLockedError, match="try again in 1 s"):
        live.enter_pin(other, "4711")
    clock.now += 1
    assert live.enter_pin(other, "4711").role is Role.EDITOR
    assert live.enter_pin(PHONE, "4711").role is Role.EDITOR


def test_after_the_free_tries_each_wrong_pin_doubles_the_wait(archive: Archive, clock: FakeClock) -> None:
    live = LiveTable(SessionService(archive), pin="471100", clock=clock)  # the app's own limits
    waits = []
    for n in range(1, 13):
        try:
            live.enter_pin(Access(Role.VIEWER, f"10.0.0.{n}"), f"{n:06d}")
            raise AssertionError("a wrong PIN was taken")
        except WrongPinError:
            waits.append(0)
        except PinLockedError:
            waits.append(round(live.pin_tries().wait_s))
        clock.now += live.pin_tries().wait_s
    assert waits == [0, 0, 0, 0, 30, 60, 120, 240, 480, 960, 1920, 3600]
    assert waits[4:-1] == [PinLimits().wait(n) for n in range(5, 12)]


def test_a_try_during_the_wait_is_refused_without_being_compared_and_does_not_lengthen_it(
    live: LiveTable, clock: FakeClock
) -> None:
    for pin in ("0000", "0001", "0002"):
        with contextlib.suppress(WrongPinError, PinLockedError):
            live.enter_pin(PHONE, pin)
    assert live.pin_tries().wait_s == 30 and live.pin_tries().wrong == 3
    for _ in range(20):
        with pytest.raises(PinLockedError):
            live.enter_pin(PHONE, "4711")
        clock.now += 1
    tries = live.pin_tries()
    assert tries.wrong == 3 and tries.refused == 23 and tries.wait_s == 10


def test_a_malformed_pin_is_not_counted_as_a_try(live: LiveTable) -> None:
    for text in ("12", "abcd", "1234567"):
        with pytest.raises(InvalidPinError):
            live.enter_pin(PHONE, text)
    assert live.pin_tries() == PinTries()


def test_a_new_pin_lifts_the_wait_and_starts_the_count_again(live: LiveTable, clock: FakeClock) -> None:
    for pin in ("0000", "0001", "0002"):
        with contextlib.suppress(WrongPinError, PinLockedError):
            live.enter_pin(PHONE, pin)
    assert live.pin_tries().wait_s > 0
    pin = live.new_pin(HOST)
    tries = live.pin_tries()
    assert tries.wait_s == 0 and tries.wrong == 0 and tries.refused == 3, "the host still sees the refused tries"
    assert live.enter_pin(PHONE, pin).role is Role.EDITOR


def test_the_host_sees_how_many_tries_were_refused_when_and_from_where(archive: Archive, clock: FakeClock) -> None:
    moments = iter(datetime(2026, 5, 1, 21, 0, second, tzinfo=UTC) for second in range(60))
    live = LiveTable(SessionService(archive), pin="471100", clock=clock, wall_clock=lambda: next(moments))
    assert live.pin_tries() == PinTries(), "nothing refused yet"
    for client, pin in [("10.0.0.7", "000000"), ("10.0.0.8", "000001"), ("10.0.0.7", "000002")]:
        with pytest.raises(WrongPinError):
            live.enter_pin(Access(Role.VIEWER, client), pin)
    live.enter_pin(Access(Role.VIEWER, "10.0.0.9"), "471100")  # the right PIN is not a refused try
    tries = live.pin_tries()
    assert tries.refused == 3 and tries.wrong == 3
    assert tries.clients == (("10.0.0.7", 2), ("10.0.0.8", 1)), "most recent first, with counts"
    assert tries.last == datetime(2026, 5, 1, 21, 0, 2, tzinfo=UTC)


def test_the_addresses_kept_for_the_host_are_bounded(archive: Archive, clock: FakeClock) -> None:
    live = LiveTable(SessionService(archive), pin="471100", clock=clock, max_tries=10**6)
    for n in range(MAX_TRACKED_CLIENTS + 50):
        with pytest.raises(WrongPinError):
            live.enter_pin(Access(Role.VIEWER, f"10.{n // 250}.{n % 250}.1"), "000000")
    tries = live.pin_tries()
    assert len(tries.clients) == MAX_TRACKED_CLIENTS + 1 and dict(tries.clients)["other"] == 50
    assert sum(count for _, count in tries.clients) == tries.refused == MAX_TRACKED_CLIENTS + 50


# --- brute force ----------------------------------------------------------------------------------------------


def attack(live: LiveTable, clock: FakeClock, *, seconds: float, addresses: int, every_s: float) -> int:
    """A guesser that tries a new PIN every ``every_s`` seconds for ``seconds``, each try from the next of
    ``addresses`` client addresses; returns how many of its PINs the table compared with the real one."""
    compared = 0
    start = clock.now
    n = 0
    while clock.now - start <= seconds:
        address = f"10.{(n % addresses) // 250}.{(n % addresses) % 250}.1"
        wrong_before = live.pin_tries().wrong
        with contextlib.suppress(WrongPinError, PinLockedError):
            live.enter_pin(Access(Role.VIEWER, address), f"{n:06d}")
        compared += live.pin_tries().wrong - wrong_before
        n += 1
        clock.now += every_s
    return compared


@pytest.mark.parametrize(("addresses", "every_s"), [(1, 1.0), (600, 1.0), (5000, 0.1), (50, 0.05)])
def test_in_ten_minutes_a_guesser_gets_nine_tries_however_many_addresses_it_uses(
    archive: Archive, clock: FakeClock, addresses: int, every_s: float
) -> None:
    live = LiveTable(SessionService(archive), pin="999999", clock=clock)  # the app's limits
    compared = attack(live, clock, seconds=600, addresses=addresses, every_s=every_s)
    assert compared == PinLimits().tries_within(600) == 9
    assert live.pin_tries().refused > compared, "the tries made during the waits were refused uncompared"


def test_a_guesser_that_waits_exactly_as_told_gets_no_more() -> None:
    limits = PinLimits()
    clock = FakeClock()
    tries_at = []
    wrong = 0
    start = clock.now
    while clock.now - start <= 24 * 3600:
        tries_at.append(clock.now - start)
        wrong += 1
        clock.now += limits.wait(wrong)
    assert len(tries_at) == limits.tries_within(24 * 3600) == 34
    assert tries_at[:10] == [limits.seconds_before_try(k) for k in range(1, 11)]


def test_the_readme_states_the_brute_force_figures_of_the_default_limits() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = " ".join(readme.split("## Security", 1)[1].split("\n## ", 1)[0].split())
    limits = PinLimits()
    year = 365.25 * 24 * 3600
    expected = round(limits.expected_seconds() / year)
    worst = round(limits.seconds_before_try(10**6) / year)
    assert (expected, worst) == (57, 114)
    assert f"about {expected} years" in section and f"{worst} years" in section
    assert f"{limits.tries_within(600)} PINs in the first 10 minutes" in section
    assert f"{limits.tries_within(24 * 3600)} in a whole day" in section


def test_revoking_the_pin_makes_every_editor_a_viewer_again(live: LiveTable, table: TableSession) -> None:
    editor = live.enter_pin(PHONE, "4711")
    live.apply_as(editor, table.id, Edit.add(HAND_ANN, expected_version=table.version))
    live.revoke_pin(HOST)
    assert live.pin is None
    assert live.current_access(editor).role is Role.VIEWER
    with pytest.raises(NotAllowedError, match="revoked"):
        live.apply_as(editor, table.id, Edit.add(HAND_BEN, expected_version=table.version))
    with pytest.raises(NoPinError):
        live.enter_pin(PHONE, "4711")
    assert len(table.hands) == 1


def test_a_new_pin_replaces_the_old_one(live: LiveTable, table: TableSession) -> None:
    editor = live.enter_pin(PHONE, "4711")
    pin = live.new_pin(HOST, 6)
    assert len(pin) == 6 and live.pin == pin
    assert not live.can_edit(editor)
    if pin != "4711":
        with pytest.raises(WrongPinError):
            live.enter_pin(PHONE, "4711")
    again = live.enter_pin(PHONE, pin)
    live.apply_as(again, table.id, Edit.add(HAND_ANN, expected_version=table.version))
    assert table.result.totals["Ann"] == 2


def test_only_the_host_manages_the_pin(live: LiveTable) -> None:
    editor = live.enter_pin(PHONE, "4711")
    for access in (PHONE, editor):
        with pytest.raises(NotAllowedError):
            live.revoke_pin(access)
        with pytest.raises(NotAllowedError):
            live.new_pin(access)
    assert live.pin == "4711"


def test_listeners_hear_about_pin_changes(live: LiveTable) -> None:
    heard: list[str | None] = []
    unsubscribe = live.subscribe(lambda lt: heard.append(lt.pin))
    live.revoke_pin(HOST)
    pin = live.new_pin(HOST)
    unsubscribe()
    live.revoke_pin(HOST)
    assert heard == [None, pin]


# --- who may change what ---------------------------------------------------------------------------------------


def test_access_is_decided_from_where_the_page_connects_from() -> None:
    host = access_for(client_ip="127.0.0.1", page_url="http://127.0.0.1:8550", route="/continue/x")
    assert host.role is Role.HOST and not host.locked
    desktop = access_for(client_ip=None, page_url=None, route="/")  # the native window has no client address
    assert desktop.role is Role.HOST
    for ip, url, route in [
        ("192.168.1.20", "http://192.168.1.5:8550", "/"),
        ("192.168.1.20", "http://127.0.0.1:8550", "/"),  # a forged Host header does not make a phone the host
        ("127.0.0.1", "http://192.168.1.5:8550", "/"),  # the host's own browser at the shared address is a viewer
        ("127.0.0.1", "http://127.0.0.1:8550", "/live"),
        ("127.0.0.1", "http://127.0.0.1:8550", "/live/abc"),
        ("", None, "/"),  # a web client whose address is unknown
    ]:
        access = access_for(client_ip=ip, page_url=url, route=route)
        assert access.role is Role.VIEWER and access.locked, (ip, url, route)


def test_live_paths() -> None:
    assert is_live_path("/live") and is_live_path("/live/abc") and is_live_path("/live?x=1")
    assert not is_live_path("/live/abc/hand-1") and not is_live_path("/") and not is_live_path("/liver")


def test_a_viewer_can_change_nothing(live: LiveTable, table: TableSession) -> None:
    table.add_hand(HAND_ANN)
    before = (table.record, table.version, table.log)
    for edit in every_edit(table.version):
        assert not live.can_apply(PHONE, table.id, edit)
        with pytest.raises(NotAllowedError, match="only watch"):
            live.apply_as(PHONE, table.id, edit)
    assert (table.record, table.version, table.log) == before


def test_an_editor_can_do_what_the_host_can_at_the_table(live: LiveTable, table: TableSession) -> None:
    editor = live.enter_pin(PHONE, "4711")
    live.apply_as(editor, table.id, Edit.add(HAND_ANN, expected_version=table.version))
    live.apply_as(editor, table.id, Edit.replace(0, HAND_BEN, expected_version=table.version))
    assert table.result.totals == {"Ann": 0, "Ben": 3, "Cat": 0}
    live.apply_as(editor, table.id, Edit.undo(expected_version=table.version))
    assert table.result.totals["Ann"] == 2
    live.apply_as(editor, table.id, Edit.redo(expected_version=table.version))
    live.apply_as(editor, table.id, Edit.remove_last(expected_version=table.version))
    assert table.hands == []
    with pytest.raises(NothingToUndoError):
        live.apply_as(editor, table.id, Edit.redo(expected_version=table.version))


def test_viewers_see_only_the_live_game(live: LiveTable, table: TableSession) -> None:
    other = live.sessions.start("jokers-kill", ["Dan", "Eve"])
    live.show(table.id)
    assert live.session_for(PHONE).id == table.id
    assert live.session_for(PHONE, table.id).id == table.id
    with pytest.raises(NotAllowedError, match="not being shared"):
        live.session_for(PHONE, other.id)
    editor = live.enter_pin(PHONE, "4711")
    with pytest.raises(NotAllowedError):
        live.apply_as(editor, other.id, Edit.add({"up": "9S", "cards": {"Dan": "4H", "Eve": "7D"}}))
    assert other.hands == []
    assert live.session_for(HOST, other.id).id == other.id


def test_the_live_game_defaults_to_the_newest_unfinished_one(archive: Archive) -> None:
    live = LiveTable(SessionService(archive))
    with pytest.raises(NoLiveGameError, match="no game has been started"):
        live.current()
    first = live.sessions.start("jokers-kill", PLAYERS)
    assert live.current().id == first.id
    second = live.sessions.start("jokers-kill", ["Dan", "Eve"])
    assert live.current_id == second.id
    live.show(first.id)
    assert live.current_id == first.id
    with pytest.raises(NoLiveGameError):
        live.open("no-such-game")


def test_an_edit_on_an_older_version_is_refused_and_changes_nothing(live: LiveTable, table: TableSession) -> None:
    editor = live.enter_pin(PHONE, "4711")
    seen = table.version
    live.apply_as(HOST, table.id, Edit.add(HAND_ANN, expected_version=seen))
    after_host = (table.record, table.version)
    with pytest.raises(StaleEditError, match="newest state is shown"):
        live.apply_as(editor, table.id, Edit.add(HAND_BEN, expected_version=seen))
    assert (table.record, table.version) == after_host


def test_edit_kinds_are_all_covered() -> None:
    assert {edit.kind for edit in every_edit(0)} == set(EditKind)


# --- two editors at once -----------------------------------------------------------------------------------------


def _edit_with_retry(live: LiveTable, access: Access, session: TableSession, make: Any, outcome: list[str]) -> None:
    """What an editor's page does: edit on the version it shows; on a stale edit, take the newest state, retry."""
    version = session.version
    for _ in range(50):
        try:
            live.apply_as(access, session.id, make(version))
            return
        except StaleEditError:
            outcome.append("stale")
            version = session.version
    raise AssertionError("the edit never went through")


def test_two_editors_correcting_the_same_hand_at_once_lose_nothing(live: LiveTable, table: TableSession) -> None:
    table.add_hand(HAND_ANN)
    one = live.enter_pin(Access(Role.VIEWER, "10.0.0.1"), "4711")
    two = live.enter_pin(Access(Role.VIEWER, "10.0.0.2"), "4711")
    version = table.version
    barrier = threading.Barrier(2)
    results: dict[str, str] = {}

    def editor(name: str, access: Access, hand: dict[str, Any]) -> None:
        barrier.wait()
        try:
            live.apply_as(access, table.id, Edit.replace(0, hand, expected_version=version))
            results[name] = "won"
        except StaleEditError:
            results[name] = "stale"

    threads = [
        threading.Thread(target=editor, args=("one", one, HAND_BEN)),
        threading.Thread(target=editor, args=("two", two, HAND_CAT)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(results.values()) == ["stale", "won"], results
    assert table.version == version + 1
    winner = "one" if results["one"] == "won" else "two"
    loser_hand, loser = (HAND_CAT, two) if winner == "one" else (HAND_BEN, one)
    won_hand = HAND_BEN if winner == "one" else HAND_CAT
    assert table.hands == [won_hand]
    # The loser sees the newest state and enters its correction again: both corrections are kept, in order.
    live.apply_as(loser, table.id, Edit.replace(0, loser_hand, expected_version=table.version))
    assert table.hands == [loser_hand]
    corrections = [entry for entry in table.log if entry.startswith("hand 1 corrected")]
    assert len(corrections) == 2
    assert table.version == version + 2
    assert table.result == table.preview(table.record), "the standings are derived from the final record"
    live.apply_as(HOST, table.id, Edit.undo())
    assert table.hands == [won_hand], "undo takes back the second correction only"


def test_many_editors_adding_hands_at_once_lose_no_hand(archive: Archive) -> None:
    live = LiveTable(SessionService(archive), pin="1234")
    players = ["Ann", "Ben", "Cat", "Dan"]
    session = live.sessions.start("financial-crisis", players, options={"rounds": 40})
    live.show(session.id)
    rng = random.Random(8)
    hands = [random_hand(rng, players, spell=False) for _ in range(24)]
    editors = [live.enter_pin(Access(Role.VIEWER, f"10.0.0.{n}"), "1234") for n in range(4)]
    outcome: list[str] = []

    def work(n: int) -> None:
        for hand in hands[n::4]:
            _edit_with_retry(
                live, editors[n], session, lambda v, hand=hand: Edit.add(hand, expected_version=v), outcome
            )

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    saved = session.hands
    assert len(saved) == len(hands)
    assert sorted(map(repr, saved)) == sorted(map(repr, hands)), "every hand is there exactly once"
    assert session.version == len(hands)
    reopened = SessionService(archive).open(session.id)
    assert reopened.hands == saved, "what is on disk is what the table shows"
    assert reopened.result.totals == session.result.totals


# --- addresses, QR, one live table per app ------------------------------------------------------------------------


def test_share_addresses() -> None:
    local = ShareAddress("127.0.0.1", 8550)
    assert not local.shared and local.live_url() == "http://127.0.0.1:8550/live"
    lan = ShareAddress("0.0.0.0", 9000, lan="192.168.1.5")
    assert lan.shared and lan.live_url("g1") == "http://192.168.1.5:9000/live/g1"
    assert ShareAddress("0.0.0.0", 9000).live_url() == "http://127.0.0.1:9000/live"
    assert ShareAddress("fd00::2", 9000).live_url() == "http://[fd00::2]:9000/live"


def test_qr_code_is_a_png_that_grows_with_its_text() -> None:
    short, long = qr_png("http://a:1/live"), qr_png("http://192.168.100.200:8550/live/" + "x" * 60)
    assert short.startswith(b"\x89PNG\r\n\x1a\n") and long.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(long) > len(short)


def test_the_app_owns_one_live_table_and_knows_where_it_listens(tmp_path: Path) -> None:
    with AppServices.open(tmp_path / "data", address=ShareAddress.listening("127.0.0.1", 8600)) as services:
        live = services.live
        assert live.sessions is services.sessions
        assert live.address == ShareAddress("127.0.0.1", 8600) and not live.address.shared
        assert live.pin is not None and len(live.pin) == 6 and live.pin.isdigit(), "a new table's PIN has 6 digits"
    with AppServices.open(tmp_path / "data", address=ShareAddress.listening("0.0.0.0", 8600)) as shared:
        assert shared.live.address.shared and shared.live.address.live_url().endswith(":8600/live")
        assert shared.live is not live, "a new app has its own live table"


# --- the server-side gate of the pages (no browser: the shell and the live screen with a fake page) -------------


@pytest.fixture
def app(services: AppServices) -> AppServices:
    """The app's services (the shared fixture), by the name these tests give them."""
    return services


def start_page(services: AppServices, route: str, client_ip: str, url: str) -> tuple[Any, DevicePage]:
    from typing import cast

    import flet as ft

    from views.shell import Shell

    page = DevicePage(route, client_ip, url)
    shell = Shell(cast(ft.Page, page), services)
    shell.start()
    return shell, page


def test_a_phone_asking_for_any_screen_gets_only_the_live_view(app: AppServices) -> None:
    old = app.sessions.start("jokers-kill", ["Zed", "Yan"])
    table = app.sessions.start("jokers-kill", PLAYERS)
    table.add_hand(HAND_ANN)
    app.live.show(table.id)
    shell, page = start_page(app, "/", "192.168.1.20", "http://192.168.1.5:8550")
    assert shell.seat is not None and shell.seat.access.role is Role.VIEWER
    for route in ("/", f"/continue/{table.id}", f"/history/{old.id}", "/settings", f"/live/{old.id}", "/share"):
        page.route = route
        shell.render()  # what a route change sent by the phone leads to
        assert len(page.views) == 1, route
        texts = all_texts(page.views[0])
        assert "Live scoreboard" in texts and "Jokers Kill: 1 hand played" in texts, route
        assert not any("Zed" in t for t in texts), f"{route} showed another game of the archive"
        assert not any(t in ("Undo", "Share", "Confirm hand") for t in texts)
    assert page.navigated and set(page.navigated) == {"/live"}, "other routes are sent back to /live"


def test_the_hosts_browser_gets_the_whole_app_and_makes_its_game_live(app: AppServices) -> None:
    app.sessions.start("jokers-kill", ["Zed", "Yan"])
    table = app.sessions.start("jokers-kill", PLAYERS)
    live = app.live
    shell, page = start_page(app, f"/continue/{table.id}", "127.0.0.1", "http://127.0.0.1:8550")
    assert shell.seat is not None and shell.seat.access.role is Role.HOST
    assert len(page.views) > 1 and not page.navigated
    assert live.current_id == table.id


def test_a_live_screen_follows_changes_and_refuses_edits_after_the_pin_is_revoked(app: AppServices) -> None:
    from typing import cast

    import flet as ft

    from views.context import ViewContext
    from views.live import LiveScreen, Seat

    table = app.sessions.start("jokers-kill", PLAYERS)
    live = app.live
    live.show(table.id)
    page = DevicePage("/live", "10.0.0.5", "http://10.0.0.1:8550/live")
    seat = Seat(cast(ft.Page, page), app, Access(Role.VIEWER, "10.0.0.5"))
    ctx = ViewContext(page=cast(ft.Page, page), services=app, settings=app.settings.current(), path="/live")
    screen = LiveScreen(ctx, seat, None, back=False)
    screen.view()
    assert "Jokers Kill: 0 hands played" in all_texts(screen.body)
    assert not screen.apply(Edit.add(HAND_ANN, expected_version=screen.rendered))
    assert table.hands == [] and "only watch" in str(screen.message.value)

    assert live.pin is not None
    screen.submit_pin(live.pin)
    assert seat.access.role is Role.EDITOR
    assert screen.apply(Edit.add(HAND_ANN, expected_version=screen.rendered))
    assert "Jokers Kill: 1 hand played" in all_texts(screen.body)

    table.add_hand(HAND_BEN)  # the host enters a hand: the screen follows by itself (off the host's thread)
    assert live.feed.idle(10)
    assert screen.rendered == table.version and "Jokers Kill: 2 hands played" in all_texts(screen.body)

    stale = screen.rendered - 1
    assert not screen.apply(Edit.undo(expected_version=stale))
    assert "newest state is shown" in str(screen.message.value) and len(table.hands) == 2

    live.revoke_pin(HOST)
    assert seat.access.role is Role.VIEWER, "the screen redrew as a viewer when the PIN was revoked"
    assert not screen.apply(Edit.undo(expected_version=screen.rendered))
    assert len(table.hands) == 2
    screen.stop()
    table.add_hand(HAND_CAT)
    assert live.feed.idle(10)
    assert screen.rendered == table.version - 1, "a stopped screen no longer follows"


def test_a_long_game_lists_the_recent_hands_until_the_viewer_asks_for_all(app: AppServices) -> None:
    from typing import cast

    import flet as ft

    from views.context import ViewContext
    from views.live import RECENT_HANDS, LiveScreen, Seat

    players = ["Ann", "Ben", "Cat", "Dan"]
    table = app.sessions.start("financial-crisis", players, options={"rounds": 40})
    rng = random.Random(3)
    for _ in range(RECENT_HANDS + 2):
        table.add_hand(random_hand(rng, players, spell=False))
    app.live.show(table.id)
    page = DevicePage("/live", "10.0.0.5", "http://10.0.0.1:8550/live")
    seat = Seat(cast(ft.Page, page), app, Access(Role.VIEWER, "10.0.0.5"))
    ctx = ViewContext(page=cast(ft.Page, page), services=app, settings=app.settings.current(), path="/live")
    screen = LiveScreen(ctx, seat, None, back=False)
    screen.view()

    def listed() -> list[str]:
        return [t for t in all_texts(screen.body) if re.match(r"^Round \d+: ", t)]  # Financial Crisis: rounds

    numbers = sorted(int(t.split()[1].rstrip(":")) for t in listed())
    assert numbers == list(range(3, RECENT_HANDS + 3)), "the newest hands"
    assert f"Show all {RECENT_HANDS + 2} hands" in [
        c.tooltip for c in _controls(screen.body) if isinstance(c, ft.OutlinedButton)
    ]
    before = (table.version, table.record)
    screen.show_all_hands()
    assert len(listed()) == RECENT_HANDS + 2
    assert (table.version, table.record) == before, "showing all hands changes nothing in the game"
    screen.stop()


def _controls(control: Any) -> list[Any]:
    import dataclasses

    import flet as ft

    out: list[Any] = []
    stack = [control]
    while stack:
        item = stack.pop()
        out.append(item)
        if dataclasses.is_dataclass(item):
            for f in dataclasses.fields(item):
                if f.name in ("parent", "page") or f.name.startswith("_"):
                    continue
                value = getattr(item, f.name, None)
                stack.extend(
                    c for c in (value if isinstance(value, list) else [value]) if isinstance(c, ft.BaseControl)
                )
    return out


def test_sharing_on_the_network_is_never_the_default() -> None:
    from app.cli import build_parser
    from companion.config import DEFAULT_HOST

    plain = build_parser().parse_args([])
    assert plain.share is False and plain.host == DEFAULT_HOST == "127.0.0.1"
    assert build_parser().parse_args(["--share"]).share is True


def test_the_examples_in_the_sharing_module_hold() -> None:
    import doctest

    import companion.sharing

    outcome = doctest.testmod(companion.sharing, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 10 and outcome.failed == 0


def test_the_hosts_share_screen_shows_the_refused_pin_tries(app: AppServices) -> None:
    table = app.sessions.start("jokers-kill", PLAYERS)
    live = app.live
    live.show(table.id)
    _, page = start_page(app, "/share", "127.0.0.1", "http://127.0.0.1:8550")
    assert "No refused PIN tries." in all_texts(page.views[-1])
    wrong = "000000" if live.pin != "000000" else "111111"
    for client in ["10.0.0.7", "10.0.0.8", "10.0.0.7", "10.0.0.9", "10.0.0.7"]:
        with contextlib.suppress(WrongPinError, PinLockedError):
            live.enter_pin(Access(Role.VIEWER, client), wrong)
    _, page = start_page(app, "/share", "127.0.0.1", "http://127.0.0.1:8550")
    shown = [t for t in all_texts(page.views[-1]) if t.startswith("Refused PIN tries")]
    assert len(shown) == 1, all_texts(page.views[-1])
    assert shown[0].startswith("Refused PIN tries: 5, the last at ")
    assert "from 10.0.0.7 (3), 10.0.0.9 (1), 10.0.0.8 (1)." in shown[0]
    assert "Phones wait 30 s before the next try; a new PIN lifts the wait." in shown[0]
