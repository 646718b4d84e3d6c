"""Keep-awake: the screen stays on while a game is at the table (Flet's wakelock service), unless Settings turn
it off. One :class:`KeepAwake` per page; the shell tells it every screen it draws.

>>> wants_awake("/continue/3f2a", keep_awake=True), wants_awake("/continue/3f2a/hand-2", keep_awake=True)
(True, True)
>>> wants_awake("/continue", keep_awake=True), wants_awake("/history/3f2a", keep_awake=True)
(False, False)
>>> wants_awake("/continue/3f2a", keep_awake=False)
False
"""

from __future__ import annotations

import logging
from typing import Any

import flet as ft

from views.routing import normalise

_log = logging.getLogger(__name__)


def wants_awake(path: str, *, keep_awake: bool) -> bool:
    """Whether the screen at ``path`` keeps the device awake: a game's table (entering or correcting a hand, or
    sharing it), when the setting is on."""
    parts = [part for part in normalise(path).split("/") if part]
    return keep_awake and len(parts) >= 2 and parts[0] == "continue"


class KeepAwake:
    """Holds the page's wakelock while :func:`wants_awake` says so, and releases it otherwise."""

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.on = False
        """Whether the wakelock was last asked to be on."""
        self.lock: Any = None
        """Flet's wakelock service, made the first time a table is shown (a page that never shows one sends
        nothing for it); kept here, as a service needs a holder."""

    def follow(self, path: str, *, keep_awake: bool) -> None:
        """The page now shows ``path``: enable or disable the wakelock if that changes."""
        want = wants_awake(path, keep_awake=keep_awake)
        if want == self.on:
            return
        self.on = want
        if self.lock is None and want:
            try:
                self.lock = ft.Wakelock()  # registers itself with the page being drawn
            except Exception:  # no page to register with (a screen built in a unit test)
                _log.debug("no wakelock for this page", exc_info=True)
        if self.lock is None:
            return
        try:
            self.page.run_task(self._switch, want)
        except Exception:  # the page's session is gone, or a page without an event loop
            _log.debug("could not switch the wakelock", exc_info=True)

    async def _switch(self, want: bool) -> None:
        try:
            await (self.lock.enable() if want else self.lock.disable())
        except Exception:  # e.g. a browser that refuses it (no secure context): the app works on, the screen may sleep
            _log.info("the device refused to %s the wakelock", "enable" if want else "disable", exc_info=True)
