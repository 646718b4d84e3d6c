"""What every screen builder receives: the page, the app's services, the current settings and the page's own
state (kept by its shell)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from companion.i18n import Words
from companion.services import AppServices
from companion.settings import Settings
from views.seat import Seat

FOLLOWS_SETTINGS = "follows-settings"
"""The ``data`` of a screen that follows settings changes itself (its components re-render): the shell keeps it on a
settings change instead of building it again, so it keeps its scroll position."""


@dataclass(eq=False)
class PageState:
    """What belongs to one page (browser tab) and lives as long as its :class:`~views.shell.Shell`: its seat at
    the live table and how to stop following the game its table screen shows."""

    seat: Seat | None = None
    """Decided when the shell starts (from where the page connects and the address it opened)."""
    _unfollow: Callable[[], None] | None = field(default=None, repr=False)
    _resized: Callable[[], None] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def follow(self, unsubscribe: Callable[[], None], resized: Callable[[], None] | None = None) -> None:
        """The table screen now follows a game (``unsubscribe`` stops it; ``resized`` is what it does when the page
        changes size): the one it followed before stops."""
        with self._lock:
            previous, self._unfollow, self._resized = self._unfollow, unsubscribe, resized
        if previous is not None:
            previous()

    def resized(self) -> None:
        """The page changed size (a phone turned, a window resized): the table screen it follows lays itself out
        again if it needs to."""
        with self._lock:
            resized = self._resized
        if resized is not None:
            resized()

    def release(self) -> None:
        """The page closed: stop following anything."""
        with self._lock:
            previous, self._unfollow, self._resized = self._unfollow, None, None
        if previous is not None:
            previous()
        if self.seat is not None:
            self.seat.release()


@dataclass(frozen=True)
class ViewContext:
    """The page being drawn, the shared services (the only way a screen reaches app logic) and settings."""

    page: ft.Page
    services: AppServices
    settings: Settings
    path: str
    """The path of the screen being built (``/rules/jokers-kill``)."""
    back_to: str | None = None
    """Where Back goes, when not simply one level up (a "Not found" screen goes to the last screen that exists)."""
    state: PageState | None = None
    """This page's own state (``None`` for a screen built outside a shell, e.g. in a unit test)."""

    @property
    def words(self) -> Words:
        """The words of the table's language: ``_ = ctx.words.gettext`` marks and translates a screen's strings."""
        return self.settings.words

    def navigate(self, route: str) -> None:
        """Go to ``route`` (from a synchronous handler); the shell rebuilds the screens."""
        self.page.navigate(route)
