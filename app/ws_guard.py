"""Bounded work per connection on the app's WebSocket: no phone on the network can starve the host.

:class:`ConnectionGuard` is pure ASGI middleware between uvicorn and Flet's FastAPI app (inside
:class:`app.web.OriginGuard`, so only the app's own pages get this far). It accepts each WebSocket itself and hands
it to Flet only once the page has registered, then looks at every message before Flet does:

* **Registration.** A connection that does not register (Flet's first message) within :data:`REGISTER_WITHIN_S`
  seconds is closed, and so is one whose first message is anything else, or that registers twice: Flet never sees
  it, so nothing is kept for it (Flet keeps a connection that closed before registering waiting forever).
* **Sizes.** A message over its page's size limit (:data:`PHONE_MESSAGE_BYTES`, :data:`HOST_MESSAGE_BYTES`) is
  refused before it is decoded: the connection is closed (1009). A message is then decoded with
  :func:`decode_bounded`, which stops and refuses (1009) as soon as what it built passes the page's decoded limit
  (:data:`PHONE_DECODED_BYTES`, :data:`HOST_DECODED_BYTES`): a small message that would unpack into a gigabyte of
  empty maps never does. Each viewer's and phone's frame is cut off by uvicorn itself at the phone's size
  (:class:`BoundedWebSockets`) when it comes from another device.
* **Events.** Each connection has a token bucket (:class:`TokenBucket`): a phone may send :data:`PHONE_LIMITS`'s
  rate, the host far more than anyone taps. Messages over the rate are dropped unread; a connection that keeps
  flooding is closed. An event (or a property change, or a method's answer) for a control this connection was
  never sent is dropped before Flet looks for it (Flet would walk the whole page for each one).
* **Pages per device.** A device other than the host may hold at most :data:`PAGES_PER_DEVICE` page sessions
  (open, or closed and not yet released by Flet); more are refused (1013) until the older ones are released.
* **Release.** :func:`session_keep_s` is what Flet is told to keep a closed tab's session for
  (``FLET_SESSION_TIMEOUT``, :data:`SESSION_KEEP_S`); Flet evicts every 10 s, so a closed tab's session is
  released within 40 s, not an hour.

The host is the page :func:`companion.sharing.access_for` says is the host (this computer, not at ``/live``); every
other page, a viewer or a phone with the PIN, has the phone's limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import msgpack

from companion.sharing import Role, access_for, is_loopback
from storage.limits import MAX_BACKUP_BYTES

_log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MIB = 1024 * 1024
PHONE_MESSAGE_BYTES = 1 * MIB
"""The largest message a viewer's or a phone's page may send (its taps are a few hundred bytes)."""
PHONE_DECODED_BYTES = 1 * MIB
"""The most a viewer's or a phone's message may decode into (Python objects, counted as they are built)."""
HOST_MESSAGE_BYTES = 2 * MIB
"""The largest message the host's page may send (but see :data:`HOST_FILE_BYTES`)."""
HOST_DECODED_BYTES = 2 * MIB
"""The most a message of the host's page may decode into."""
HOST_FILE_BYTES = MAX_BACKUP_BYTES + MIB
"""The host's file picker answers with the file's bytes in one message (a method's answer): up to a backup of
the restore limit (50 MB) and its wrapping. Only the host's page, only for that kind of message."""
REGISTER_WITHIN_S = 5.0
"""Seconds a new connection has to register before it is closed."""
SESSION_KEEP_S = 30
"""Seconds Flet keeps a closed tab's session for the tab to come back to (a reload takes a second or two)."""
FLET_EVICTS_EVERY_S = 10
"""How often Flet looks for sessions to release (``flet_web``'s app manager)."""
PAGES_PER_DEVICE = 24
"""Page sessions one device other than the host may hold at once (open, or closed and not released yet)."""
FLOOD_DROPS = 200
"""Messages over the rate, dropped within :data:`FLOOD_WINDOW_S`, after which the connection is closed."""
FLOOD_WINDOW_S = 10.0
MAX_DEVICES_TRACKED = 1024
"""Devices whose page sessions are counted (past that, the oldest entries go)."""

REGISTER, CONTROL_EVENT, UPDATE_CONTROL_PROPS, INVOKE_METHOD = 1, 3, 4, 5
"""Flet's message actions (``flet.messaging.protocol.MessageAction``) that a page sends."""
BODY_KEYS = {
    REGISTER: frozenset({"session_id", "page_name", "page"}),
    CONTROL_EVENT: frozenset({"target", "name", "data"}),
    UPDATE_CONTROL_PROPS: frozenset({"id", "props"}),
    INVOKE_METHOD: frozenset({"control_id", "call_id", "result", "error"}),
}
"""The keys of each message's body (Flet builds its dataclass from them: any other key would end its loop)."""
TARGET_KEY = {CONTROL_EVENT: "target", UPDATE_CONTROL_PROPS: "id", INVOKE_METHOD: "control_id"}


@dataclass(frozen=True)
class Limits:
    """What one page's connection may send.

    >>> PHONE_LIMITS.message_bytes, HOST_LIMITS.message_bytes > PHONE_LIMITS.message_bytes
    (1048576, True)
    """

    message_bytes: int
    decoded_bytes: int
    events_per_s: float
    burst: float
    file_bytes: int = 0
    """A method's answer (the file picker's bytes) may be this large; 0: no larger than any message."""


PHONE_LIMITS = Limits(PHONE_MESSAGE_BYTES, PHONE_DECODED_BYTES, events_per_s=20.0, burst=40.0)
"""A viewer's or a phone's page: 20 messages a second, 40 at once (a person taps a few a second)."""
HOST_LIMITS = Limits(
    HOST_MESSAGE_BYTES, HOST_DECODED_BYTES, events_per_s=200.0, burst=400.0, file_bytes=HOST_FILE_BYTES
)
"""The host's page: never held back below what a person can tap."""


def session_keep_s(environ: MutableMapping[str, str] | None = None) -> int:
    """Seconds Flet keeps a closed tab's session: :data:`SESSION_KEEP_S`, or less if ``FLET_SESSION_TIMEOUT``
    asks for less (never more: a closed tab's session is released within a minute).

    >>> [session_keep_s(environ) for environ in ({}, {"FLET_SESSION_TIMEOUT": "5"}, {"FLET_SESSION_TIMEOUT": "3600"})]
    [30, 5, 30]
    >>> session_keep_s({"FLET_SESSION_TIMEOUT": "soon"})
    30
    """
    asked = (os.environ if environ is None else environ).get("FLET_SESSION_TIMEOUT", "")
    try:
        wanted = int(asked)
    except ValueError:
        return SESSION_KEEP_S
    return max(1, min(wanted, SESSION_KEEP_S))


def keep_sessions_briefly() -> int:
    """Tell Flet (``FLET_SESSION_TIMEOUT``, read for each connection) to keep a closed tab's session
    :func:`session_keep_s` seconds; returns them."""
    seconds = session_keep_s()
    os.environ["FLET_SESSION_TIMEOUT"] = str(seconds)
    return seconds


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; :meth:`take` takes one if there is one.

    >>> now = [0.0]
    >>> bucket = TokenBucket(2.0, 3.0, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> now[0] = 1.0
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class MessageRefused(ValueError):
    """A message the connection is closed for: :attr:`code` is the WebSocket close code, the text says why."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code


def decode_bounded(data: bytes, limit: int) -> Any:
    """``data`` unpacked from MsgPack, or :class:`MessageRefused` (1009) as soon as the objects built pass
    ``limit`` bytes (each container, string and number counted at its size in memory as it is built; no array,
    map, string or binary may even claim more than fits), or (1003) when it is not MsgPack.

    >>> decode_bounded(msgpack.packb([3, {"target": 7, "name": "click", "data": None}]), 1024)
    [3, {'target': 7, 'name': 'click', 'data': None}]
    >>> bomb = b"\\xdd" + (100_000).to_bytes(4, "big") + b"\\x80" * 100_000  # 100 kB: 100,000 empty maps
    >>> decode_bounded(bomb, 1024 * 1024)
    Traceback (most recent call last):
    ...
    app.ws_guard.MessageRefused: the message decodes to more than 1048576 bytes
    >>> decode_bounded(b"\\xc1", 100)
    Traceback (most recent call last):
    ...
    app.ws_guard.MessageRefused: the message is not a Flet message (MsgPack): ...
    """
    spent = 0

    def charge(size: int) -> None:
        nonlocal spent
        spent += size
        if spent > limit:
            raise MessageRefused(1009, f"the message decodes to more than {limit} bytes")

    def leaves(values: Any) -> int:
        return sum(sys.getsizeof(v) for v in values if not isinstance(v, list | dict | bool) and v is not None)

    def list_hook(items: list[Any]) -> list[Any]:
        charge(sys.getsizeof(items) + leaves(items))
        return items

    def object_hook(mapping: dict[str, Any]) -> dict[str, Any]:
        charge(sys.getsizeof(mapping) + leaves(mapping.keys()) + leaves(mapping.values()))
        return mapping

    def ext_hook(code: int, raw: bytes) -> bytes:
        charge(sys.getsizeof(raw))
        return raw

    most = max(1, min(len(data), limit))
    try:
        unpacker = msgpack.Unpacker(
            max_buffer_size=max(len(data), 1),
            max_str_len=most,
            max_bin_len=most,
            max_ext_len=most,
            max_array_len=max(1, min(len(data), limit // 8)),
            max_map_len=max(1, min(len(data) // 2, limit // 64)),
            list_hook=list_hook,
            object_hook=object_hook,
            ext_hook=ext_hook,
            strict_map_key=True,
        )
        unpacker.feed(data)
        value = unpacker.unpack()
        if unpacker.tell() != len(data):
            raise ValueError("bytes left over after the message")
    except MessageRefused:
        raise
    except (ValueError, TypeError, msgpack.OutOfData, msgpack.ExtraData, MemoryError) as exc:
        if "exceeds max" in str(exc):  # an array, map, string... claiming more than the limit allows
            raise MessageRefused(1009, f"the message decodes to more than {limit} bytes ({exc})"[:200]) from None
        raise MessageRefused(1003, f"the message is not a Flet message (MsgPack): {exc}"[:200]) from None
    if not isinstance(value, list | dict):
        charge(sys.getsizeof(value))
    return value


_CONTROL_ID = re.compile(rb"\xa2_i(?:([\x00-\x7f])|\xcc(.)|\xcd(..)|\xce(....)|\xcf(.{8}))", re.DOTALL)
"""A control's id as Flet sends it: the key ``_i`` (a MsgPack string of 2) and a positive integer."""


def sent_control_ids(data: bytes) -> set[int]:
    """The ids of the controls in a message Flet sends to a page (``[0x00][MsgPack]``).

    >>> sent = msgpack.packb([2, {"_c": "Text", "_i": 5, "x": [{"_i": 300}, {"_i": 70000}]}])
    >>> sorted(sent_control_ids(b"\\x00" + sent))
    [5, 300, 70000]
    """
    found: set[int] = set()
    for match in _CONTROL_ID.finditer(data):
        raw = next(group for group in match.groups() if group is not None)
        found.add(int.from_bytes(raw, "big"))
    return found


# --- the middleware ----------------------------------------------------------------------------------------------


@dataclass
class _Device:
    """The page sessions of one device other than the host: session (or connection) → when its slot is free
    again (``None`` while its connection is open)."""

    slots: dict[str, float | None] = field(default_factory=dict)

    def held(self, now: float) -> int:
        for key in [key for key, free_at in self.slots.items() if free_at is not None and free_at <= now]:
            del self.slots[key]
        return len(self.slots)


@dataclass
class _Connection:
    limits: Limits
    bucket: TokenBucket
    host: bool
    client: str
    slot: str = ""
    """Its page session's slot among its device's (:class:`_Device`): the session's id once known."""
    learned: bool = False
    sent: set[int] = field(default_factory=set)
    drops: list[float] = field(default_factory=list)
    closed: bool = False


class ConnectionGuard:
    """Pure ASGI middleware bounding what each WebSocket connection may make the server do (see the module's
    description); HTTP and everything else pass through."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        keep_s: float = SESSION_KEEP_S,
        phone: Limits = PHONE_LIMITS,
        host: Limits = HOST_LIMITS,
        register_within_s: float = REGISTER_WITHIN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.phone, self.host = phone, host
        self.register_within_s = register_within_s
        self.release_s = keep_s + FLET_EVICTS_EVERY_S
        self.clock = clock
        self.devices: dict[str, _Device] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        first = await receive()
        if first.get("type") != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        client = str(scope["client"][0]) if scope.get("client") else ""
        try:
            message = await asyncio.wait_for(receive(), self.register_within_s)
        except TimeoutError:
            await _close(send, 1008, f"no registration within {self.register_within_s:g} s")
            _log.info("closed a connection from %s: it did not register", client or "an unknown client")
            return
        if message.get("type") != "websocket.receive":
            return  # gone before registering: nothing was made for it
        try:
            body = self._registration(message)
        except MessageRefused as refused:
            await _close(send, refused.code, str(refused))
            _log.warning("closed a connection from %s before it registered: %s", client or "?", refused)
            return
        page = body.get("page")
        route = page.get("route") if isinstance(page, dict) and isinstance(page.get("route"), str) else None
        access = access_for(client_ip=client or None, page_url=_page_url(scope), route=route)
        is_host = access.role is Role.HOST
        limits = self.host if is_host else self.phone
        conn = _Connection(limits, TokenBucket(limits.events_per_s, limits.burst, self.clock), is_host, client)
        asked = body.get("session_id")
        wanted = asked if isinstance(asked, str) else ""
        if not is_host:
            refusal = self._take_slot(conn, wanted)
            if refusal is not None:
                await _close(send, 1013, refusal)
                _log.warning("refused a page from %s: %s", client, refusal)
                return
        waiting: list[Message] = [{"type": "websocket.connect"}, message]

        async def guarded_receive() -> Message:
            if waiting:
                return waiting.pop(0)
            while True:
                if conn.closed:
                    return {"type": "websocket.disconnect", "code": 1000}
                incoming = await receive()
                if incoming.get("type") != "websocket.receive":
                    conn.closed = True
                    return incoming
                try:
                    if self._passes(conn, incoming):
                        return incoming
                except MessageRefused as refused:
                    _log.warning("closed a page's connection from %s: %s", client or "?", refused)
                    conn.closed = True
                    with contextlib.suppress(Exception):
                        await send({"type": "websocket.close", "code": refused.code, "reason": str(refused)[:120]})
                    return {"type": "websocket.disconnect", "code": refused.code}

        async def guarded_send(outgoing: Message) -> None:
            kind = outgoing.get("type")
            if kind == "websocket.accept":
                return  # accepted already, before the page registered
            if conn.closed:
                return  # Flet's send loop must not fail (it would never release the session)
            data = outgoing.get("bytes")
            if kind == "websocket.send" and isinstance(data, bytes | bytearray):
                conn.sent |= sent_control_ids(bytes(data))
                if not is_host and not conn.learned and data[:3] == b"\x00\x92\x01":
                    self._learn_session(conn, bytes(data))
            try:
                await send(outgoing)
            except (OSError, RuntimeError):  # the client is gone: uvicorn's ClientDisconnected is an OSError
                conn.closed = True

        try:
            await self.app(scope, guarded_receive, guarded_send)
        finally:
            conn.closed = True
            if not is_host:
                self._free_slot(conn)

    # -- registration ------------------------------------------------------------------------------------------

    def _registration(self, message: Message) -> dict[str, Any]:
        data = message.get("bytes")
        if not isinstance(data, bytes | bytearray):
            raise MessageRefused(1003, "a page sends binary messages only")
        if len(data) > self.phone.message_bytes:
            raise MessageRefused(1009, f"the first message is over {self.phone.message_bytes} bytes")
        if data[:1] != b"\x00":
            raise MessageRefused(1008, "the first message must register the page")
        decoded = decode_bounded(bytes(data[1:]), self.phone.decoded_bytes)
        body = _body(decoded)
        if decoded[0] != REGISTER:
            raise MessageRefused(1008, "the first message must register the page")
        return body

    def _take_slot(self, conn: _Connection, wanted: str) -> str | None:
        """A slot for the page session of ``conn`` among its device's, or why there is none."""
        device = self.devices.pop(conn.client, None) or _Device()
        self.devices[conn.client] = device  # the most recent last
        while len(self.devices) > MAX_DEVICES_TRACKED:
            del self.devices[next(iter(self.devices))]
        if wanted and wanted in device.slots:  # the same page coming back (a reload, a dropped connection)
            conn.slot = wanted
        elif device.held(self.clock()) >= PAGES_PER_DEVICE:
            return f"this device has {PAGES_PER_DEVICE} pages of the app open or just closed: close some first"
        else:
            conn.slot = f"connection-{id(conn)}"
        device.slots[conn.slot] = None
        return None

    def _learn_session(self, conn: _Connection, data: bytes) -> None:
        """The registration's answer names the page's session: its slot goes by that name from now on, so the
        page coming back to its session takes no new slot."""
        conn.learned = True
        try:
            answer = msgpack.unpackb(data[1:], strict_map_key=False, ext_hook=lambda _c, _d: None)
            session_id = answer[1]["session_id"]
        except Exception:  # not the answer expected: the slot keeps the connection's name
            return
        device = self.devices.get(conn.client)
        if device is None or not isinstance(session_id, str) or session_id == conn.slot:
            return
        device.slots.pop(conn.slot, None)
        device.slots[session_id] = None
        conn.slot = session_id

    def _free_slot(self, conn: _Connection) -> None:
        """The connection ended: its page session's slot is free once Flet has released the session."""
        device = self.devices.get(conn.client)
        if device is not None and conn.slot in device.slots:
            device.slots[conn.slot] = self.clock() + self.release_s

    # -- every later message -------------------------------------------------------------------------------

    def _passes(self, conn: _Connection, message: Message) -> bool:
        """Whether ``message`` goes on to Flet (``False``: dropped); :class:`MessageRefused` closes the
        connection."""
        data = message.get("bytes")
        if not isinstance(data, bytes | bytearray):
            raise MessageRefused(1003, "a page sends binary messages only")
        limits = conn.limits
        size = len(data)
        file_answer = limits.file_bytes > 0 and data[:3] == b"\x00\x92\x05"
        if size > (max(limits.file_bytes, limits.message_bytes) if file_answer else limits.message_bytes):
            raise MessageRefused(1009, f"a message of {size} bytes is over this page's limit")
        if not conn.bucket.take():
            self._dropped(conn)
            return False
        if data[:1] != b"\x00":
            return data[:1] == b"\x01"  # a data channel's frame: Flet drops an unknown channel's at once
        decoded = decode_bounded(bytes(data[1:]), limits.file_bytes if file_answer else limits.decoded_bytes)
        body = _body(decoded)
        action = decoded[0]
        if action == REGISTER:
            raise MessageRefused(1008, "a page registers once")
        target = body[TARGET_KEY[action]]
        if not isinstance(target, int) or isinstance(target, bool) or target not in conn.sent:
            self._dropped(conn)
            return False
        return True

    def _dropped(self, conn: _Connection) -> None:
        now = self.clock()
        conn.drops.append(now)
        if len(conn.drops) > FLOOD_DROPS:
            oldest = conn.drops.pop(0)
            if now - oldest < FLOOD_WINDOW_S and not conn.host:
                raise MessageRefused(1008, f"more than {FLOOD_DROPS} messages dropped within {FLOOD_WINDOW_S:g} s")


def _body(decoded: Any) -> dict[str, Any]:
    """The body of a page's message ``[action, body]``, checked against its action's keys."""
    if not isinstance(decoded, list) or len(decoded) != 2 or not isinstance(decoded[1], dict):
        raise MessageRefused(1003, "not a Flet message ([action, body])")
    action, body = decoded
    keys = BODY_KEYS.get(action) if isinstance(action, int) and not isinstance(action, bool) else None
    if keys is None or set(body) != keys:
        raise MessageRefused(1003, f"not a message a page sends (action {str(action)[:20]})")
    return body


def _page_url(scope: Scope) -> str | None:
    for key, value in scope.get("headers", []):
        if bytes(key).lower() == b"host":
            return f"http://{bytes(value).decode('latin-1')}"
    return None


async def _close(send: Send, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await send({"type": "websocket.close", "code": code, "reason": reason[:120]})


def bounded_websockets_protocol() -> type:
    """uvicorn's WebSocket protocol (the one Flet uses) with a frame limit per connection: a connection from
    another device is cut off at :data:`PHONE_MESSAGE_BYTES` while the frame arrives, before it is kept whole
    (uvicorn's own ``ws_max_size`` is the host's largest, :data:`HOST_FILE_BYTES`)."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class BoundedWebSockets(WebSocketsSansIOProtocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if self.client is not None and not is_loopback(str(self.client[0])):
                self.conn.max_message_size = PHONE_MESSAGE_BYTES

    return BoundedWebSockets


__all__ = [
    "HOST_DECODED_BYTES",
    "HOST_FILE_BYTES",
    "HOST_LIMITS",
    "HOST_MESSAGE_BYTES",
    "PHONE_DECODED_BYTES",
    "PHONE_LIMITS",
    "PHONE_MESSAGE_BYTES",
    "REGISTER_WITHIN_S",
    "SESSION_KEEP_S",
    "ConnectionGuard",
    "Limits",
    "MessageRefused",
    "TokenBucket",
    "bounded_websockets_protocol",
    "decode_bounded",
    "keep_sessions_briefly",
    "sent_control_ids",
    "session_keep_s",
]
