"""The real app server on loopback refuses other sites' pages and DNS rebinding, and serves its own page.

One ``companion --port P --data-dir D --no-browser`` runs for the whole module (a few seconds to start); a small
WebSocket client (the ``websockets`` package, which uvicorn uses too) and ``http.client`` knock on it the ways a
hostile page in the host's browser would:

* a page of ``http://evil.example`` opening ``ws://127.0.0.1:PORT/ws`` (the browser sends its ``Origin``);
* a DNS-rebinding page: its name ``evil.example`` now points at 127.0.0.1, so ``Origin`` and ``Host`` are both
  ``evil.example:PORT`` while the connection is on loopback;

and the way the app's own page does (``Origin: http://127.0.0.1:PORT``): that WebSocket registers a Flet session
and receives the home screen. A refused upgrade is answered ``403`` before Flet accepts it, so no session exists.
"""

from __future__ import annotations

import asyncio
import http.client
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from app.web import served_addresses
from companion.sharing import lan_address
from tests.support.hostile_ws import (
    Server,
    decoded,
    event,
    packed,
    register,
    run_apart,
    start_server,
    stop_server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("guard"))  # a game at the table, for the phone's PIN form
    try:
        yield running
    finally:
        stop_server(running)
    assert running.process.returncode == 0, f"SIGTERM did not stop the server cleanly:\n{running.log.read_text()}"


# --- a small WebSocket client ----------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    """101 when the WebSocket was accepted, else the HTTP status of the refusal."""
    body: str = ""
    messages: tuple[Any, ...] = ()
    """The Flet messages received after registering (decoded MsgPack: ``[action, body]``)."""


def open_ws(port: int, *, origin: str | None, host: str | None = None) -> Answer:
    """Open the app's WebSocket on 127.0.0.1:``port`` with ``Origin: origin`` and ``Host: host`` (the address a
    browser would have connected to, default 127.0.0.1:PORT); when accepted, register as Flet's web client does
    and return the first messages."""
    uri = f"ws://{host or f'127.0.0.1:{port}'}/ws"

    sent = None if origin is None else Origin(origin)

    async def run() -> Answer:
        try:
            # host/port: the TCP connection goes to loopback whatever name the URI (and so the Host header) has.
            async with connect(uri, origin=sent, host="127.0.0.1", port=port, open_timeout=10) as ws:
                await ws.send(register("/"))
                received = []
                for _ in range(2):
                    data = await asyncio.wait_for(ws.recv(), 15)
                    assert isinstance(data, bytes) and data[0] == 0
                    received.append(decoded(data))
                return Answer(101, messages=tuple(received))
        except InvalidStatus as refused:
            return Answer(refused.response.status_code, bytes(refused.response.body or b"").decode())

    return run_apart(run())


def get(port: int, path: str = "/", headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        conn.close()


def screen_texts(messages: tuple[Any, ...]) -> str:
    return repr(messages)


# --- the tests -------------------------------------------------------------------------------------------------


@pytest.mark.server
def test_the_apps_own_page_loads_and_its_websocket_builds_the_home_screen(server: Server) -> None:
    status, html = get(server.port, "/")
    assert status == 200 and "flutter" in html.lower()
    answer = open_ws(server.port, origin=server.origin)
    assert answer.status == 101
    registered, first_patch = answer.messages
    assert registered[0] == 1 and registered[1]["session_id"], "Flet registered a session"
    assert "Card Table Companion" in screen_texts((first_patch,)), "the home screen was built and sent"


@pytest.mark.server
@pytest.mark.parametrize("name", ["localhost", "[::1]"])
def test_the_apps_own_page_at_another_loopback_name_connects(server: Server, name: str) -> None:
    """``[::1]`` as a Host with an ``Origin`` of the same name (the server listens on 127.0.0.1 only)."""
    address = f"{name}:{server.port}"
    answer = open_ws(server.port, origin=f"http://{address}", host=address)
    assert answer.status == 101 and answer.messages[0][1]["session_id"]


@pytest.mark.server
@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://localhost:3000", "https://127.0.0.1"])
def test_another_sites_page_is_refused_before_any_session(server: Server, origin: str) -> None:
    answer = open_ws(server.port, origin=origin)
    assert answer.status == 403, f"Origin {origin} was served"
    assert "is not this app's page" in answer.body and server.origin in answer.body


@pytest.mark.server
def test_a_dns_rebinding_page_is_refused_although_its_origin_matches_its_host(server: Server) -> None:
    rebound = f"evil.example:{server.port}"
    answer = open_ws(server.port, origin=f"http://{rebound}", host=rebound)
    assert answer.status == 403
    assert answer.body.startswith("Host 'evil.example:") and "not an address of this app" in answer.body
    status, body = get(server.port, "/", {"Host": rebound})
    assert status == 403 and "not an address of this app" in body, "the rebinding page itself is not served"


@pytest.mark.server
def test_a_script_on_this_computer_without_origin_is_served(server: Server) -> None:
    answer = open_ws(server.port, origin=None)
    assert answer.status == 101 and answer.messages[0][1]["session_id"]


@pytest.mark.server
def test_page_requests_from_other_sites_are_refused_and_no_site_may_read_the_answers(server: Server) -> None:
    status, body = get(server.port, "/", {"Origin": "http://evil.example"})
    assert status == 403 and "is not this app's page" in body
    status, _ = get(server.port, "/upload", {"Origin": "http://evil.example"}, method="PUT")
    assert status == 403
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/", headers={"Host": f"127.0.0.1:{server.port}"})
        response = conn.getresponse()
        response.read()
        assert response.status == 200
        assert response.getheader("Access-Control-Allow-Origin") is None, "Flet's '*' is taken off"
        assert response.getheader("Cross-Origin-Opener-Policy") == "same-origin"
    finally:
        conn.close()


@pytest.mark.server
def test_the_refusals_are_logged_with_the_reason(server: Server) -> None:
    open_ws(server.port, origin="http://evil.example")
    deadline = time.monotonic() + 5
    while "refused websocket /ws" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "refused websocket /ws from 127.0.0.1" in server.log.read_text()


# --- the PIN through the real server --------------------------------------------------------------------------


def find_control(tree: Any, kind: str, **props: Any) -> int | None:
    """The id of the first control of class ``kind`` with ``props`` in a decoded Flet patch."""
    if isinstance(tree, dict):
        if tree.get("_c") == kind and all(tree.get(k) == v for k, v in props.items()):
            return int(tree["_i"])
        children = list(tree.values())
    elif isinstance(tree, list | tuple):
        children = list(tree)
    else:
        return None
    for child in children:
        found = find_control(child, kind, **props)
        if found is not None:
            return found
    return None


def try_pin(port: int, client: str, pin: str) -> str:
    """Open ``/live`` as a phone page from the address ``client`` (127.0.0.x: loopback, but another client
    address), type ``pin`` into the PIN field and submit it, as the browser does; return the app's answer."""
    wanted = ("not the PIN", "too many wrong PINs", "Editing with PIN")

    async def run() -> str:
        uri, origin = f"ws://127.0.0.1:{port}/ws", Origin(f"http://127.0.0.1:{port}")
        async with connect(uri, origin=origin, local_addr=(client, 0), open_timeout=10) as ws:

            async def receive() -> Any:
                data = await asyncio.wait_for(ws.recv(), 15)
                return decoded(data)

            await ws.send(register("/live"))
            field = None
            while field is None:
                field = find_control(await receive(), "TextField", label="PIN")
            await ws.send(packed(4, {"id": field, "props": {"value": pin}}))
            await ws.send(event(field, "submit"))
            while True:
                text = repr(await receive())
                for want in wanted:
                    if want in text:
                        start = text.index(want)
                        return text[max(0, start - 40) : start + 80]

    return run_apart(run())


@pytest.mark.server
def test_wrong_pins_through_the_real_server_make_every_address_wait(server: Server) -> None:
    """Five phones (five client addresses) each try one wrong PIN: the fifth wrong PIN starts the table's wait,
    and a sixth address is made to wait too (the server counts for the table, not per address)."""
    answers = [try_pin(server.port, f"127.0.0.{n}", f"{n:06d}") for n in range(2, 8)]
    assert all("that is not the PIN the host shows" in a for a in answers[:4]), answers
    assert "too many wrong PINs at this table: try again in 30 s" in answers[4], answers
    assert re.search(r"too many wrong PINs at this table: try again in (2\d|30) s", answers[5]), answers


# --- what the server serves (no server needed) ------------------------------------------------------------------


@pytest.mark.parametrize("bind", ["127.0.0.1", "localhost", "::1"])
def test_without_share_the_server_serves_loopback_only(bind: str) -> None:
    served = served_addresses(bind, 8550)
    assert not served.shared and not served.serves_host(lan_address() or "192.0.2.1")
    assert served.serves_host("127.0.0.1") and served.port == 8550


def test_with_share_the_server_serves_this_machines_lan_address() -> None:
    served = served_addresses("0.0.0.0", 8550)
    assert served.shared
    address = lan_address()
    if address is not None:
        assert served.serves_host(address) and f"http://{address}:8550" in served.origins()
    assert not served.serves_host("0.0.0.0") and not served.serves_host("evil.example")
    assert served_addresses("192.0.2.77", 8550).lan == ("192.0.2.77",), "a given address is served as it is"
