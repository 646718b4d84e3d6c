"""What every screen builder receives: the page, the app's services and the current settings."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.app import AppServices
from companion.settings import Settings


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

    def navigate(self, route: str) -> None:
        """Go to ``route`` (from a synchronous handler); the shell rebuilds the screens."""
        self.page.navigate(route)
