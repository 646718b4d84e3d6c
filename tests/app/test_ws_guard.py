"""The WebSocket guard (``app/ws_guard.py``) in-process, between a stand-in for uvicorn and a stand-in for Flet:
what reaches Flet from a phone's page and from the host's, message by message (the real server on loopback is
``tests/app/test_ws_limits.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from typing import Any

import msgpack

from app.ws_guard import HOST_LIMITS, PHONE_LIMITS, ConnectionGuard
from tests.conftest import run_async
from tests.support.hostile_ws import event, packed, register

PAGE_ID, BUTTON = 1, 7
"""The controls the stand-in Flet sends the page: the page itself and one button."""


def answer(bytes_: int = 0, control: int = BUTTON) -> bytes:
    """A page's answer to a method call (the file picker's: the picked file's bytes)."""
    return packed(5, {"control_id": control, "call_id": "c1", "result": [{"bytes": b"\x00" * bytes_}], "error": None})


def run(messages: list[bytes], *, phone: bool = True) -> tuple[list[bytes], list[dict[str, Any]], bool]:
    """Send ``messages`` through the guard as a phone's page at ``/live`` (or the host's page at ``/``): what Flet
    received, what was sent to the page, and whether Flet was called at all."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    coming: list[dict[str, Any]] = [
        {"type": "websocket.connect"},
        *({"type": "websocket.receive", "bytes": data} for data in messages),
        {"type": "websocket.disconnect", "code": 1000},
    ]
    for message in coming:
        inbox.put_nowait(message)
    received: list[bytes] = []
    sent: list[dict[str, Any]] = []
    called = False

    async def flet(scope: Any, receive: Any, send: Any) -> None:
        nonlocal called
        called = True
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        drawn = {"_i": PAGE_ID, "_c": "Page", "views": [{"_i": BUTTON, "_c": "Button"}]}
        await send({"type": "websocket.send", "bytes": packed(1, {"session_id": "s1", "page_patch": drawn})})
        while (message := await receive())["type"] == "websocket.receive":
            received.append(message["bytes"])

    async def to_page(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    client, host = ("192.168.1.20", "192.168.1.5:8550") if phone else ("127.0.0.1", "127.0.0.1:8550")
    scope = {"type": "websocket", "client": (client, 50000), "headers": [(b"host", host.encode())]}
    first = register("/live" if phone else "/")
    run_async(ConnectionGuard(flet, clock=lambda: 0.0)(scope, inbox.get, to_page))  # time stands still
    return [m for m in received if m != first], sent, called


def closed(sent: list[dict[str, Any]]) -> int | None:
    codes = [m["code"] for m in sent if m["type"] == "websocket.close"]
    return codes[0] if codes else None


def test_a_phones_events_reach_flet_only_for_controls_it_was_sent() -> None:
    received, sent, _ = run([register("/live"), event(BUTTON), event(99), event(PAGE_ID, "resize")])
    assert received == [event(BUTTON), event(PAGE_ID, "resize")] and closed(sent) is None


def test_nothing_reaches_flet_from_a_connection_that_does_not_register_first() -> None:
    _, sent, called = run([event(BUTTON), register("/live")])
    assert not called and closed(sent) == 1008


def test_a_second_registration_closes_the_connection() -> None:
    received, sent, _ = run([register("/live"), register("/live"), event(BUTTON)])
    assert received == [] and closed(sent) == 1008


def test_a_phone_gets_its_burst_and_no_more_at_once() -> None:
    received, sent, _ = run([register("/live"), *[event(BUTTON)] * 100])
    assert len(received) == int(PHONE_LIMITS.burst)
    assert closed(sent) is None, "dropped, not closed: 60 drops are not a flood"


def test_the_host_is_not_held_back_at_a_phones_rate() -> None:
    received, _, _ = run([register("/"), *[event(BUTTON)] * 100], phone=False)
    assert len(received) == 100 <= HOST_LIMITS.burst


def test_the_file_pickers_answer_reaches_flet_from_the_host_only() -> None:
    three_mb = 3 * 1024 * 1024
    received, sent, _ = run([register("/"), answer(three_mb)], phone=False)
    assert received == [answer(three_mb)] and closed(sent) is None
    received, sent, _ = run([register("/live"), answer(three_mb)])
    assert received == [] and closed(sent) == 1009
    received, sent, _ = run(
        [register("/"), packed(3, {"target": BUTTON, "name": "x", "data": "y" * three_mb})], phone=False
    )
    assert received == [] and closed(sent) == 1009, "only a method's answer may be that large"


def test_a_message_not_of_flets_shape_closes_the_connection() -> None:
    received, sent, _ = run([register("/live"), packed(3, {"target": BUTTON, "name": "x", "data": 1, "more": 2})])
    assert received == [] and closed(sent) == 1003
    received, sent, _ = run([register("/live"), b"\x00" + msgpack.packb([3, {"target": BUTTON}]) + b"\xc1"])
    assert received == [] and closed(sent) == 1003


def test_uvicorn_cuts_off_another_devices_frames_at_the_phone_limit() -> None:
    """The server's WebSocket protocol takes at most a phone's message from another device as the frame arrives;
    from this computer, up to the host's file picker's answer (the guard then holds each page to its own)."""
    from unittest import mock

    import uvicorn
    from uvicorn.server import ServerState

    from app.ws_guard import HOST_FILE_BYTES, PHONE_MESSAGE_BYTES, bounded_websockets_protocol

    protocol = bounded_websockets_protocol()
    config = uvicorn.Config(lambda *_: None, ws=protocol, ws_max_size=HOST_FILE_BYTES, lifespan="off")
    config.load()

    async def limits() -> list[int | None]:
        found = []
        for peer in [("192.168.1.20", 50000), ("127.0.0.1", 50000)]:
            made = protocol(config, ServerState(), {}, _loop=asyncio.get_running_loop())
            transport = mock.Mock()
            extra = {"peername": peer, "sockname": ("127.0.0.1", 8550)}
            transport.get_extra_info = lambda name, default=None, extra=extra: extra.get(name, default)
            made.connection_made(transport)
            found.append(made.conn.max_message_size)
        return found

    assert run_async(limits()) == [PHONE_MESSAGE_BYTES, HOST_FILE_BYTES]
