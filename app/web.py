"""The browser view's web server: Flet's own FastAPI app, behind a guard that answers only the app's own pages.

:func:`serve_web` starts the same server that ``ft.run(..., view=WEB_BROWSER)`` starts (Flet's FastAPI app, built
by ``ft.run(..., export_asgi_app=True)``, on uvicorn with the same WebSocket implementation), with one difference:
every HTTP request and every WebSocket upgrade first goes through :class:`OriginGuard`, which asks
:func:`companion.origin.check` and refuses what it refuses *before* Flet sees the request, so no session, page or
screen is ever built for another site:

* an HTTP request gets ``403`` with a one-line plain-text reason;
* a WebSocket upgrade is denied before it is accepted (``403`` with the reason, through the ASGI
  ``websocket.http.response`` extension, else a plain close).

The page keeps working as before: the printed address is the same (no token), the browser view is served offline
(``no_cdn``) with the app's assets, and the page's own WebSocket (``Origin: http://127.0.0.1:PORT``, or the LAN
address with ``--share``) connects as it always did.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import secrets
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

from app.signals import on_stop
from app.ws_guard import (
    HOST_FILE_BYTES,
    ASGIApp,
    ConnectionGuard,
    Message,
    Receive,
    Scope,
    Send,
    bounded_websockets_protocol,
    keep_sessions_briefly,
)
from companion.origin import Refusal, Served, check
from companion.sharing import is_loopback, lan_address

_log = logging.getLogger(__name__)

ANY_INTERFACE = ("0.0.0.0", "::", "", "*")
DROPPED_HEADERS = frozenset({b"access-control-allow-origin"})
"""Response headers taken off Flet's answers: Flet allows every site to read them (``*``); the app's own pages
are same-origin and need no such permission."""
ADDED_HEADERS = ((b"x-content-type-options", b"nosniff"),)
SHUTDOWN_WAIT_S = 3
"""Seconds that stopping the server waits for open connections before it ends them."""


def served_addresses(bind_host: str, port: int) -> Served:
    """What the app serves when it listens on ``bind_host``: loopback always; when that is not loopback
    (``--share`` binds every interface) also this machine's own addresses on the network."""
    shared = not is_loopback(bind_host)
    lan: list[str] = []
    if shared:
        if bind_host in ANY_INTERFACE:
            found = lan_address()
            if found:
                lan.append(found)
            lan.extend(_own_addresses(socket.gethostname()))
        else:
            lan.extend(_own_addresses(bind_host))
    return Served(port=port, lan=tuple(lan), shared=shared)


def _own_addresses(name: str) -> list[str]:
    """The IP addresses ``name`` stands for (an IP literal stands for itself), loopback and unusable ones left out."""
    with contextlib.suppress(ValueError):
        return [str(ipaddress.ip_address(name.strip("[]")))]
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    found = []
    for info in infos:
        address = str(info[4][0]).split("%", 1)[0]  # an IPv6 scope id is not part of a Host header
        with contextlib.suppress(ValueError):
            ip = ipaddress.ip_address(address)
            if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
                found.append(str(ip))
    return found


def _headers(scope: Scope) -> list[tuple[str, str]]:
    return [(bytes(k).decode("latin-1"), bytes(v).decode("latin-1")) for k, v in scope.get("headers", [])]


class OriginGuard:
    """Pure ASGI middleware: every ``http`` and ``websocket`` request is checked with
    :func:`companion.origin.check` before the wrapped app sees it; everything else (``lifespan``) passes."""

    def __init__(self, app: ASGIApp, served: Served) -> None:
        self.app = app
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        refusal = check(
            _headers(scope),
            str(client[0]) if client else None,
            self.served,
            websocket=kind == "websocket",
            method=str(scope.get("method", "GET")),
        )
        if refusal is not None:
            where = f"{client[0]}:{client[1]}" if client else "an unknown client"
            _log.warning("refused %s %s from %s: %s", kind, scope.get("path", ""), where, refusal.reason)
            if kind == "http":
                await _refuse_http(send, refusal)
            else:
                await _refuse_websocket(scope, receive, send, refusal)
            return
        if kind == "http":
            await self.app(scope, receive, _tidy_headers(send))
        else:
            await self.app(scope, receive, send)


async def _send_refusal(send: Send, refusal: Refusal, kind: str, extra_headers: tuple[Any, ...] = ()) -> None:
    """The refusal as a plain-text answer: ``kind`` is ``http.response`` (a page or a file) or
    ``websocket.http.response`` (a WebSocket's handshake answered with an HTTP response)."""
    body = f"{refusal.reason}\n".encode()
    await send(
        {
            "type": f"{kind}.start",
            "status": refusal.status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *extra_headers,
            ],
        }
    )
    await send({"type": f"{kind}.body", "body": body})


async def _refuse_http(send: Send, refusal: Refusal) -> None:
    await _send_refusal(send, refusal, "http.response", ADDED_HEADERS)


async def _refuse_websocket(scope: Scope, receive: Receive, send: Send, refusal: Refusal) -> None:
    message = await receive()
    if message.get("type") != "websocket.connect":  # the client went away first
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await _send_refusal(send, refusal, "websocket.http.response")
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": refusal.reason[:120]})


def _tidy_headers(send: Send) -> Send:
    async def tidy(message: Message) -> None:
        if message.get("type") == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", []) if bytes(k).lower() not in DROPPED_HEADERS]
            message = {**message, "headers": [*headers, *ADDED_HEADERS]}
        await send(message)

    return tidy


UPLOAD_SECRET_ENV = "FLET_SECRET_KEY"
"""Where Flet reads the key that signs upload URLs (its FastAPI app takes no other way when built by ``ft.run``)."""
UPLOAD_LIMIT_ENV = "FLET_MAX_UPLOAD_SIZE"
"""Where Flet reads the largest upload it accepts, in bytes (``413`` beyond)."""


def enable_uploads(max_bytes: int) -> None:
    """Let Flet's upload endpoint (``PUT /upload``, URLs signed by the server for the host's page only, through
    the Origin guard like every request) accept files of up to ``max_bytes``: a file picked in the browser view
    then arrives over HTTP, not as one WebSocket message, so its size is not bound by the socket's message limit.
    A signing key of this process is made unless one is set."""
    os.environ.setdefault(UPLOAD_SECRET_ENV, secrets.token_hex(32))
    os.environ[UPLOAD_LIMIT_ENV] = str(max_bytes)


def guarded_app(
    main: Callable[[Any], Any], *, served: Served, assets_dir: str, upload_dir: str | None = None
) -> OriginGuard:
    """Flet's FastAPI app for ``main`` (the browser view, offline, with ``assets_dir``; files picked in the page
    uploaded into ``upload_dir`` when given, see :func:`enable_uploads`), behind the guard, and each WebSocket
    behind :class:`app.ws_guard.ConnectionGuard` (bounded work per page)."""
    import flet as ft

    from app.fonts import FallbackFonts
    from app.quiet import QuietDisconnects, install_log_filter

    flet_app = ft.run(main, name="", assets_dir=assets_dir, upload_dir=upload_dir, no_cdn=True, export_asgi_app=True)
    install_log_filter()  # a tab that closes is not an error (app.quiet)
    guarded = ConnectionGuard(flet_app, keep_s=keep_sessions_briefly())
    return OriginGuard(QuietDisconnects(FallbackFonts(guarded)), served)


def _uvicorn_log_level() -> str:
    """The log level Flet gives uvicorn: Flet's own, and only fatal errors when Flet's logging is off."""
    level = logging.getLogger("flet").getEffectiveLevel()
    if level in (logging.CRITICAL, logging.NOTSET):
        level = logging.FATAL
    return logging.getLevelName(level).lower()


def serve_web(
    main: Callable[[Any], Any],
    *,
    host: str,
    port: int,
    assets_dir: str,
    open_browser: bool = False,
    on_started: Callable[[str], None] | None = None,
    upload_dir: str | None = None,
) -> None:
    """Serve the browser view of ``main`` on ``host:port`` until the process is stopped (Ctrl+C or SIGTERM end it
    cleanly: the server shuts down and this returns). Files picked in the page are uploaded into ``upload_dir``
    (when given; see :func:`enable_uploads`).

    ``on_started(url)`` is called once the server listens (``url`` is ``http://HOST:PORT``, as Flet prints it);
    ``open_browser`` then opens that address in the default browser (unless Flet's own rule says this machine
    has no browser: ``FLET_FORCE_WEB_SERVER`` or a Linux server).
    """
    import uvicorn
    from flet.utils import get_bool_env_var, get_free_tcp_port, is_linux_server, open_in_browser

    if port == 0:
        port = get_free_tcp_port()
    served = served_addresses(host, port)
    app = guarded_app(main, served=served, assets_dir=assets_dir, upload_dir=upload_dir)
    url_host = "127.0.0.1" if host in ("", "*") else host
    url = f"http://{url_host}:{port}"
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=_uvicorn_log_level(),
        ws=bounded_websockets_protocol(),  # what Flet uses, with a phone's frames cut off at a phone's limit
        ws_max_size=HOST_FILE_BYTES,  # the host's file picker's answer; every other message is refused far sooner
        proxy_headers=False,  # nothing stands in front of this server: the client address is the real one
        # Flet keeps a WebSocket that closed before registering waiting forever; do not wait for it on the way out.
        timeout_graceful_shutdown=SHUTDOWN_WAIT_S,
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.started:
                return
            if on_started is not None:
                on_started(url)
            if open_browser and not (get_bool_env_var("FLET_FORCE_WEB_SERVER") or is_linux_server()):
                open_in_browser(url.replace("//0.0.0.0:", "//127.0.0.1:"))

    server = Server(config)
    # Flet copies its index page into a temporary folder of its own, which it removes when the server shuts down;
    # the app's stop handler (app.signals) ends the process before that, so it removes the folder too.
    from views.flet_private import delete_web_temp_dirs

    forget = on_stop(delete_web_temp_dirs)
    try:
        if threading.current_thread() is not threading.main_thread():  # no signals there (uvicorn ignores them)
            server.run()
            return
        # uvicorn shuts down gracefully on SIGINT/SIGTERM and then raises the signal again for the handler that was
        # there before: make that a KeyboardInterrupt for both, which the command line turns into a clean exit.
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            server.run()
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        forget()
