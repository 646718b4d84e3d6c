"""Taps made as Flet makes them: on the page's event loop, inside a page event with its own update state (what the
table screen's replies, and the messages that follow them, depend on)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import flet as ft

from tests.support.screens import tap

REPLY_S = 0.01
"""What :data:`views.table.entry.AFTER_REPLY_S` is in a test that waits for the messages after a tap's reply (the
fixture ``quick_replies``): they still wait for the loop's turn after the tap, as they do on a page, but a hand of a
hundred taps does not sleep 0.3 s after each (a minute of a view test's time)."""
LATER = REPLY_S * 2
"""Long enough for the messages that follow a tap's reply (the veil, the board, the write) to have gone, under
the fixture ``quick_replies``."""


def in_event(handler: Callable[[], object]) -> None:
    """Call ``handler`` as Flet calls one: in the page's event loop, inside an event with its own update state."""

    def call() -> None:
        ft.context.reset_auto_update()  # what Flet does before it calls a handler
        handler()

    contextvars.copy_context().run(call)


def event_tap(view: ft.View, label: str) -> None:
    """Tap ``label`` as Flet calls a handler (:func:`in_event`)."""
    in_event(lambda: tap(view, label))


def press_key(listener: Any, key: str, *, up: bool = False) -> None:
    """A key pressed (or, ``up``, released) while the :class:`ft.KeyboardListener` ``listener`` has the focus, as
    Flet calls its handler (``key`` is Flutter's key label: ``"Tab"``, ``"Enter"``, ``" "``)."""
    (listener.on_key_up if up else listener.on_key_down)(SimpleNamespace(key=key))
