"""The live table in Chromium: a host and a phone in two browser contexts.

The app runs as ``companion --share`` (all interfaces). The host's browser opens it on 127.0.0.1; the "phone"
opens it through this machine's network address, so the server sees another client address, as it would see a
real phone. A page at any other name (``phone.test``, which the test browser maps to 127.0.0.1: DNS rebinding) or
a page of another site is refused.

The "within 1 s" of the issue is measured by ``bench/live_bench.py`` (speed targets are not asserted in tests);
here each update must reach the phone by itself, without a reload, within a generous wait.
"""

from __future__ import annotations

import contextlib
import http.server
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import (
    PHONE_HOST,
    UPDATE_WAIT_MS,
    AppServer,
    button,
    close_context,
    enter_jk_hand,
    host_pin,
    live_count,
    new_tab,
    open_at,
    phone_url,
    require_browser,
    send_pin,
    texts,
)

pytestmark = pytest.mark.browser

HANDS = [("9S", ["4H", "7D", "QC"]), ("9H", ["7C", "4D", "QD"]), ("10S", ["10H", "5C", "KC"])]
STANDINGS_AFTER = [
    "1. Ann: 5 points (last hand +3)",
    "2. Ben: 2 points (last hand +0)",
    "3. Cat: 0 points (last hand +0)",
]


def standings_on(tab: Any) -> list[str]:
    """The standings' lines in the page's order (a screen reader's): each line's own node, not a group around
    them (the host's strip is one, whose text is all its lines)."""
    leaves = tab.evaluate(
        "() => [...document.querySelectorAll('flt-semantics')].filter(e => !e.querySelector('flt-semantics'))"
        ".map(e => e.textContent)"
    )
    return [t for t in leaves if re.match(r"^\d+\. \w+: -?\d+ points", t)]


def assert_read_only(tab: Any) -> None:
    """No entry panel, no undo, no share, no card: only the PIN form can be used."""
    for name in ("Confirm hand", "Undo", "Redo", "Share", "9♦", "Remove last card", "Home", "Back"):
        assert button(tab, name).count() == 0, f"a viewer has a {name!r} button"
    assert button(tab, "Edit with PIN").count() == 1


def assert_no_archive(tab: Any) -> None:
    shown = " ".join(texts(tab))
    assert "Zed" not in shown and "History" not in shown and "Settings" not in shown


def send_route(tab: Any, path: str) -> None:
    """Send the server a route change by hand, as a page would when its address changes (no reload)."""
    tab.evaluate(
        "(path) => { history.pushState({}, '', path); window.dispatchEvent(new PopStateEvent('popstate')); }", path
    )


def test_a_phone_follows_every_hand_and_cannot_change_anything(
    browser: Any, shared_server: AppServer, games: dict[str, str]
) -> None:
    table = games["table"]
    host, phone = new_tab(browser), new_tab(browser)
    try:
        open_at(host, f"{shared_server.url}/continue/{table}")
        button(host, "Confirm hand").wait_for()
        open_at(phone, phone_url(shared_server))
        phone.get_by_text("Live scoreboard").first.wait_for()
        live_count(phone, 0)
        assert_read_only(phone)
        assert_no_archive(phone)

        for number, (up, cards) in enumerate(HANDS, start=1):
            enter_jk_hand(host, up, cards)
            live_count(phone, number)  # pushed by the server: the phone does nothing
        phone.get_by_text(STANDINGS_AFTER[0]).first.wait_for(timeout=UPDATE_WAIT_MS)
        assert standings_on(phone) == STANDINGS_AFTER
        assert any("Ann matches" in t or "rule" in t for t in texts(phone)), "the why of each hand is shown"

        # By sending events: route changes to the host's screens are answered with the live view only.
        for path in (f"/continue/{table}", f"/continue/{table}/hand-1", f"/history/{games['old']}", "/settings"):
            send_route(phone, path)
            phone.wait_for_url(re.compile(r"/live$"), timeout=UPDATE_WAIT_MS)
            phone.get_by_text("Live scoreboard").first.wait_for()
            assert_read_only(phone)
            assert_no_archive(phone)
        # ... and so is a fresh page at a host address.
        open_at(phone, phone_url(shared_server, f"/continue/{table}"))
        live_count(phone, len(HANDS))
        assert_read_only(phone)
        # Another game of the archive cannot be followed either.
        open_at(phone, phone_url(shared_server, f"/live/{games['old']}"))
        live_count(phone, len(HANDS))
        assert_no_archive(phone)

        # A wrong PIN is refused, with a message.
        send_pin(phone, "0000")
        phone.get_by_text(re.compile("not the PIN")).first.wait_for()
        assert_read_only(phone)

        # Nothing the phone did changed the game: the host still has its three hands and its standings.
        # The host's strip, two players a row on a phone, is read in place order (1, 2 on the first row, then 3).
        assert standings_on(host)[:3] == STANDINGS_AFTER
        assert button(host, "Confirm hand").count() == 1
        # The host's Share button leads to the address, the QR code and the PIN.
        button(host, "Share").click()
        host_pin(host)
        host.get_by_label(re.compile(r"^QR code of http://")).first.wait_for()
    finally:
        close_context(host.context)
        close_context(phone.context)


def test_with_the_pin_a_phone_enters_hands_until_the_host_revokes_it(
    browser: Any, shared_server: AppServer, games: dict[str, str]
) -> None:
    table = games["table"]
    host, phone = new_tab(browser), new_tab(browser)
    try:
        open_at(host, f"{shared_server.url}/continue/{table}/share")
        pin = host_pin(host)
        address = host.get_by_text(re.compile(r"^Address http://")).first
        assert f"/live/{table}" in str(address.text_content())
        host.get_by_label(re.compile(r"^QR code of http://")).first.wait_for()

        open_at(phone, phone_url(shared_server, f"/live/{table}"))
        live_count(phone, 0)
        send_pin(phone, pin)
        phone.get_by_text("Editing with PIN").first.wait_for()
        up, cards = HANDS[0]
        enter_jk_hand(phone, up, cards)
        live_count(phone, 1)

        # The host's table shows the phone's hand.
        open_at(host, f"{shared_server.url}/continue/{table}")
        host.get_by_text("1. Ann: 2 points (last hand +2)").first.wait_for(timeout=UPDATE_WAIT_MS)

        # Revoked: the phone is a viewer again at once, on the server.
        open_at(host, f"{shared_server.url}/continue/{table}/share")
        button(host, "Revoke PIN").click()
        host.get_by_text("No PIN: phones can only watch").first.wait_for()
        button(phone, "Edit with PIN").wait_for(timeout=UPDATE_WAIT_MS)
        assert_read_only(phone)
        send_pin(phone, pin)
        phone.get_by_text(re.compile("turned editing off")).first.wait_for()
        assert_read_only(phone)

        # A new PIN works again.
        button(host, "New PIN").click()
        host.get_by_text(re.compile(r"^PIN \d{4,6}$")).first.wait_for()
        send_pin(phone, host_pin(host))
        phone.get_by_text("Editing with PIN").first.wait_for()
        button(phone, "Undo").click()
        live_count(phone, 0)
    finally:
        close_context(host.context)
        close_context(phone.context)


def test_load_bounded_viewers_end_on_the_hosts_standings(browser: Any) -> None:
    """The bench's load test, small: 3 viewer pages while the host enters 6 hands (figures are printed only)."""
    require_browser()
    from bench.live_bench import run_pages

    report = run_pages(viewers=3, hands=6, wait=15.0, log=lambda _: None, browser=browser)
    print("\n".join(report.lines()))
    assert report.all_same, report.lines()
    assert report.missed == 0, "every viewer showed every hand"
    assert len(report.latencies_ms) == 3 * 6


def _listening_addresses(port: int) -> set[str]:
    """The local addresses of the sockets listening on ``port``, read from /proc (no traffic is sent)."""
    found: set[str] = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, port_hex = fields[1].split(":")
            if fields[3] == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
                raw = bytes.fromhex(address)
                if width == 8:
                    found.add(socket.inet_ntop(socket.AF_INET, raw[::-1]))
                else:
                    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
                    found.add(socket.inet_ntop(socket.AF_INET6, words))
    return found


def test_without_share_the_app_listens_on_loopback_only(app_server: AppServer) -> None:
    addresses = _listening_addresses(app_server.port)
    assert addresses, f"nothing listens on port {app_server.port}"
    assert addresses <= {"127.0.0.1", "::1"}, f"without --share the app must listen on loopback only: {addresses}"


def test_with_share_the_app_listens_on_every_interface(shared_server: AppServer) -> None:
    assert _listening_addresses(shared_server.port) & {"0.0.0.0", "::"}


@contextlib.contextmanager
def another_site() -> Iterator[str]:
    """A page of another site, served on loopback for the test (``http://phone.test:OTHER/``)."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><p>another site</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{PHONE_HOST}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


OPEN_WS = """(url) => new Promise((done) => {
    const ws = new WebSocket(url);
    ws.onopen = () => { ws.close(); done("open"); };
    ws.onerror = () => done("refused");
})"""


def test_a_rebinding_name_and_another_sites_page_are_refused_in_the_browser(
    browser: Any, shared_server: AppServer
) -> None:
    """The host's own browser: a page at a foreign name that points at 127.0.0.1 (DNS rebinding) is not served, and
    another site's page cannot open the app's WebSocket, while the app's own page can."""
    tab = new_tab(browser)
    port = shared_server.port
    try:
        response = tab.goto(f"http://{PHONE_HOST}:{port}/")
        assert response is not None and response.status == 403
        assert "not an address of this app" in tab.inner_text("body")

        # Another site: served on this computer (Chromium itself stops a page of a public address from reaching
        # 127.0.0.1, other browsers do not), so that only the app can refuse it.
        with another_site() as evil:
            tab.goto(evil)
            assert tab.evaluate(OPEN_WS, f"ws://127.0.0.1:{port}/ws") == "refused"
        refused = "refused websocket /ws from 127.0.0.1:"
        deadline = time.monotonic() + 5
        while f"Origin '{evil.rstrip('/')}'" not in shared_server.log() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert f"Origin '{evil.rstrip('/')}'" in shared_server.log(), "the app itself refused the other site"
        assert refused in shared_server.log()

        tab.goto(f"{shared_server.url}/")
        assert tab.evaluate(OPEN_WS, f"ws://127.0.0.1:{port}/ws") == "open"
    finally:
        close_context(tab.context)
