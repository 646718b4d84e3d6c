"""A quiet terminal: a browser tab that closes, reloads or loses its connection is not an error.

Flet's server writes to a page's WebSocket from its own send loop; when the tab has gone in the meantime, the write
raises (``ClientDisconnected`` from uvicorn, ``WebSocketDisconnect`` from Starlette, ``InvalidState`` from
``websockets``), the exception leaves Flet's WebSocket handler, and uvicorn prints a 40-line traceback under
"Exception in ASGI application"; Flet's receive loop logs another one ("Receive loop error") when the socket closed
before it was accepted. Nothing is wrong: the person closed a tab.

* :class:`QuietDisconnects` wraps the ASGI app: a WebSocket connection that ends with such an exception ends
  quietly (one line in the ``app.quiet`` log at debug level, which the terminal does not show). Any other
  exception passes through unchanged and is printed as before.
* :func:`install_log_filter` puts :class:`DisconnectFilter` on Flet's web and session loggers, so a record about a
  connection that went away is not printed either.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

_log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

FLET_WEB_LOGGER = "flet_web.fastapi"
"""The logger Flet's web server writes to (``flet_web/fastapi/flet_app.py``)."""
FLET_SESSION_LOGGER = "flet"
"""The logger of Flet's sessions (``flet/messaging/session.py``): it prints "Unhandled error in 'on_<event>'
handler" when a page's event ends in a write to a connection that has closed (a closing tab reports its lifecycle
change, and the page's automatic update after it finds no connection)."""
QUIET_LOGGERS = (FLET_WEB_LOGGER, FLET_SESSION_LOGGER, "asyncio")
"""The loggers :func:`install_log_filter` filters: Flet's web server's, Flet's sessions', and asyncio's, which prints
"Future exception was never retrieved" for a page redrawn on its own thread (a setting changed in another tab) whose
tab had just closed, and "Task exception was never retrieved" for an event whose error report could not be sent
either."""


def _disconnect_types() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the other end has gone", from the libraries that serve the browser view (those
    not installed are left out)."""
    found: list[type[BaseException]] = []
    try:
        from starlette.websockets import WebSocketDisconnect

        found.append(WebSocketDisconnect)
        from starlette.websockets import WebSocketDisconnected  # Starlette >= 1.0

        found.append(WebSocketDisconnected)
    except ImportError:
        pass
    try:
        from uvicorn.protocols.utils import ClientDisconnected

        found.append(ClientDisconnected)
    except ImportError:
        pass
    try:
        from websockets.exceptions import ConnectionClosed, InvalidState

        found += [ConnectionClosed, InvalidState]
    except ImportError:
        pass
    return tuple(found)


def is_disconnect(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from or while handling, or one of a group's exceptions) says that
    the browser's end of a connection went away.

    >>> from uvicorn.protocols.utils import ClientDisconnected
    >>> from starlette.websockets import WebSocketDisconnect
    >>> is_disconnect(ClientDisconnected()), is_disconnect(ValueError("bad card"))
    (True, False)
    >>> try:
    ...     try:
    ...         raise ClientDisconnected()
    ...     except ClientDisconnected:
    ...         raise WebSocketDisconnect(code=1006)
    ... except WebSocketDisconnect as chained:
    ...     is_disconnect(chained)
    True
    """
    kinds = _disconnect_types()
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, kinds) or _write_to_closed_page(current):
            return True
        if isinstance(current, BaseExceptionGroup):
            todo.extend(current.exceptions)
        todo += [current.__cause__, current.__context__]
    return False


def _write_to_closed_page(exc: BaseException) -> bool:
    """Whether ``exc`` is Flet 1.0's way of refusing a write to a page whose connection has closed: its
    ``send_message`` finds its send queue gone (``None``) and raises ``AttributeError``."""
    if not isinstance(exc, AttributeError):
        return False
    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    if frame is None:
        return False
    code = frame.tb_frame.f_code
    return code.co_name == "send_message" and code.co_filename.replace("\\", "/").endswith(
        "flet_web/fastapi/flet_app.py"
    )


class QuietDisconnects:
    """ASGI middleware: a WebSocket connection whose handler ends because the browser went away ends quietly."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except Exception as exc:
            if not is_disconnect(exc):
                raise
            client = scope.get("client")
            where = f"{client[0]}:{client[1]}" if client else "a page"
            _log.debug("the connection of %s closed while the app was writing to it (%s)", where, type(exc).__name__)


class DisconnectFilter(logging.Filter):
    """Drops a log record whose exception says that the browser's end of a connection went away."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not is_disconnect(exc)


def install_log_filter(names: tuple[str, ...] = QUIET_LOGGERS) -> None:
    """Put a :class:`DisconnectFilter` on each logger of ``names`` (once: a second call adds none)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, DisconnectFilter) for existing in logger.filters):
            logger.addFilter(DisconnectFilter())


__all__ = ["DisconnectFilter", "QuietDisconnects", "install_log_filter", "is_disconnect"]
