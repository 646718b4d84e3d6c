"""Flet's private API is reached in one module, checked against the Flet version installed."""

from __future__ import annotations

from importlib.metadata import version

import flet as ft

from tests.conftest import run_async
from views.flet_private import FLET_CHECKED, in_page_event, set_isolated


def test_the_private_api_was_checked_against_the_installed_flet() -> None:
    assert version("flet") == FLET_CHECKED, "read views/flet_private.py's two Flet files again, then update it"


def test_isolation_is_what_flet_reads() -> None:
    text = ft.Text("A♠")
    assert not text.is_isolated()
    set_isolated(text, True)
    assert text.is_isolated()
    set_isolated(text, False)
    assert not text.is_isolated()


def test_a_page_event_is_told_from_code_outside_one() -> None:
    from flet.controls.context import context

    assert not in_page_event()

    async def handler() -> bool:
        context.reset_auto_update()  # what Flet does when it dispatches an event to its handler
        return in_page_event()

    assert run_async(handler())
    assert not in_page_event(), "the event's state stays with the event"
