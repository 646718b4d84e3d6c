"""Keep-awake: the wakelock is on while a game's table is shown and the setting allows it, off elsewhere."""

from __future__ import annotations

import asyncio
import concurrent.futures
import doctest
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

import views.keep_awake
from companion.services import AppServices
from companion.settings import Settings, SettingsService
from tests.support.screens import buttons, render
from views.keep_awake import KeepAwake
from views.settings import KEEP_AWAKE


def run_apart(coroutine: Any) -> Any:
    """Run ``coroutine`` to its end in a thread of its own: the browser tests' Playwright keeps an event loop
    running in this thread for the whole test session, and ``asyncio.run`` refuses to start inside it."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class FakeLock:
    """Stands in for Flet's wakelock service: records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def enable(self) -> None:
        self.calls.append("enable")

    async def disable(self) -> None:
        self.calls.append("disable")


class TaskPage:
    """Just ``run_task`` of a Flet page: runs the coroutine at once."""

    def run_task(self, handler: Callable[..., Any], *args: Any) -> None:
        run_apart(handler(*args))


def test_doctests() -> None:
    result = doctest.testmod(views.keep_awake)
    assert result.attempted > 0 and result.failed == 0


def test_the_setting_defaults_to_on_and_is_kept(tmp_path: Path) -> None:
    service = SettingsService.open(tmp_path)
    assert service.current().keep_awake is True
    service.set_keep_awake(False)
    assert SettingsService.open(tmp_path).current().keep_awake is False, "saved across a restart"
    assert Settings.from_dict({"keep_awake": "yes"}).keep_awake is True, "an unreadable value falls back"
    with pytest.raises(ValueError, match="on or off"):
        service.set_keep_awake(cast(Any, "no"))


def test_the_wakelock_follows_the_table_and_the_setting() -> None:
    awake = KeepAwake(cast(ft.Page, TaskPage()))
    lock = FakeLock()
    awake.lock = lock
    awake.follow("/", keep_awake=True)
    awake.follow("/continue/abc", keep_awake=True)
    awake.follow("/continue/abc/hand-1", keep_awake=True)  # still at the table: asked once
    awake.follow("/history", keep_awake=True)
    awake.follow("/continue/abc", keep_awake=False)  # the setting is off: it stays off
    awake.follow("/continue/abc", keep_awake=True)
    awake.follow("/continue/abc", keep_awake=False)  # turned off in Settings while at the table
    assert lock.calls == ["enable", "disable", "enable", "disable"]


def test_a_refused_wakelock_does_not_stop_the_app() -> None:
    class Refusing(FakeLock):
        async def enable(self) -> None:
            raise RuntimeError("NotAllowedError: no secure context")

    awake = KeepAwake(cast(ft.Page, TaskPage()))
    awake.lock = Refusing()
    awake.follow("/continue/abc", keep_awake=True)  # logged, not raised
    assert awake.on


def test_settings_screen_switches_it(services: AppServices) -> None:
    _, view = render(services, "/settings")
    switch = buttons(view)[KEEP_AWAKE]
    assert switch.value is True
    switch.value = False
    switch.on_change(type("E", (), {"control": switch})())
    assert services.settings.current().keep_awake is False
