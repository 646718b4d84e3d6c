"""The quiet terminal (``app/quiet.py``) against Flet's own session and web connection, in-process: a page event that
ends in a write to a closed connection prints nothing, and an error in the app's own handler is still printed.

The closed connection is made the way Flet's server makes it: ``FletApp``'s send loop ends and sets its send queue to
``None`` (``flet_web/fastapi/flet_app.py``, Flet 1.0.5), and a closing tab's last messages still reach the session
(the lifecycle change to "hide" or "detach" that Flutter reports as the tab goes). The browser test that caught it
is ``tests/browser/test_quiet_terminal.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import flet as ft
import pytest
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub
from flet_web.fastapi.flet_app import FletApp

from app.quiet import FLET_SESSION_LOGGER, install_log_filter
from tests.conftest import run_async


def flet_session(*, closed: bool) -> tuple[Session, ThreadPoolExecutor]:
    """A Flet session on a real ``FletApp`` connection (to be made inside a running loop); ``closed``: its send loop
    has ended, as when the tab went away."""
    executor = ThreadPoolExecutor(1)
    loop = asyncio.get_running_loop()
    connection = FletApp(loop, executor, lambda page: None, None)
    connection.pubsubhub = PubSubHub(loop=loop, executor=executor)
    # What ``FletApp.handle`` sets as the page connects, and what its send loop sets as it ends:
    connection._FletApp__send_queue = None if closed else asyncio.Queue()  # type: ignore[attr-defined]
    return Session(connection), executor


def dispatch(closed: bool, handler: Callable[[ft.AppLifecycleStateChangeEvent], None] | None = None) -> None:
    """A tab reports that it hides, after the page changed on the server (a setting flipped in another tab), and
    Flet's session dispatches the event as its web server does."""

    async def go() -> None:
        session, executor = flet_session(closed=closed)
        try:
            session.page.title = "redrawn meanwhile"
            if handler is not None:
                session.page.on_app_lifecycle_state_change = handler
            with pytest.raises(AttributeError) if closed else contextlib.nullcontext():
                # Flet's session then reports the error to the page, which fails again on a closed connection: that
                # task's exception goes to asyncio's logger, which is filtered too.
                await session.dispatch_event(session.page._i, "app_lifecycle_state_change", {"state": "hide"})
        finally:
            executor.shutdown(wait=False)

    run_async(go())


def flet_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == FLET_SESSION_LOGGER and r.levelno >= logging.ERROR]


def test_a_closing_tab_s_event_whose_update_finds_no_connection_prints_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    install_log_filter()
    with caplog.at_level(logging.DEBUG):
        dispatch(closed=True)
    assert flet_errors(caplog) == []


def test_an_error_in_a_handler_is_still_printed(caplog: pytest.LogCaptureFixture) -> None:
    def broken(event: ft.AppLifecycleStateChangeEvent) -> None:
        raise ValueError("a bug of the app's own")

    install_log_filter()
    with caplog.at_level(logging.DEBUG):
        dispatch(closed=False, handler=broken)
    (record,) = flet_errors(caplog)
    assert "on_app_lifecycle_state_change" in record.getMessage()
    assert record.exc_info is not None and isinstance(record.exc_info[1], ValueError)


def test_without_the_filter_flet_prints_the_closed_connection_as_an_error(caplog: pytest.LogCaptureFixture) -> None:
    """The stand-in is the real thing: Flet itself logs the write to the closed connection, which the filter drops."""
    logger = logging.getLogger(FLET_SESSION_LOGGER)
    kept = list(logger.filters)
    for existing in kept:
        logger.removeFilter(existing)
    try:
        with caplog.at_level(logging.DEBUG):
            dispatch(closed=True)
    finally:
        for existing in kept:
            logger.addFilter(existing)
    (record,) = flet_errors(caplog)
    assert record.exc_info is not None and "put_nowait" in str(record.exc_info[1])
