"""A page's seat at the live table: its :class:`~companion.sharing.Access`, decided on the server when the page
connects, and the live screen it shows. Kept by the page's shell (:class:`views.context.PageState`)."""

from __future__ import annotations

import contextlib
from typing import Protocol

import flet as ft

from companion.services import AppServices
from companion.sharing import Access, LiveTable, Role, SharingError, access_for, is_live_path


class Following(Protocol):
    """A screen that follows a game and stops when it is no longer shown."""

    def stop(self) -> None: ...


class Seat:
    """One page session at the live table: its :class:`~companion.sharing.Access` and its live screen."""

    def __init__(self, page: ft.Page, services: AppServices, access: Access) -> None:
        self.page = page
        self.services = services
        self.live: LiveTable = services.live
        self.access = access
        self.screen: Following | None = None

    @property
    def locked(self) -> bool:
        """Held to the live view (a viewer or an editor)."""
        return self.access.locked

    def enter_pin(self, text: str) -> Access:
        """Become an editor with the host's PIN (the errors of :meth:`LiveTable.enter_pin` otherwise)."""
        self.access = self.live.enter_pin(self.access, text)
        return self.access

    def current_access(self) -> Access:
        """The access now: an editor whose PIN was revoked is a viewer again."""
        self.access = self.live.current_access(self.access)
        return self.access

    def at(self, path: str) -> None:
        """The shell is drawing ``path`` (normalised: no query, no trailing slash) for this page: the host's open
        game becomes the live one; a live screen that is no longer shown stops following its game."""
        parts = [part for part in path.split("/") if part]
        if self.access.role is Role.HOST and len(parts) >= 2 and parts[0] in ("continue", "share"):
            with contextlib.suppress(SharingError):
                self.live.open(parts[1])
                self.live.show(parts[1])
        if not is_live_path(path) and self.screen is not None:
            self.screen.stop()
            self.screen = None

    def release(self) -> None:
        """The page closed or lost its connection: stop following (a page that comes back draws itself anew)."""
        if self.screen is not None:
            self.screen.stop()
            self.screen = None


def _page_url(page: ft.Page) -> str | None:
    try:
        return page.url
    except Exception:  # no live connection (a unit test's page): no URL
        return None


def seat_for(page: ft.Page, services: AppServices) -> Seat:
    """The seat of a new page, its access decided from where it connects and the address it opened."""
    access = access_for(client_ip=getattr(page, "client_ip", None), page_url=_page_url(page), route=page.route)
    return Seat(page, services, access)
