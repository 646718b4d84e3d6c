"""The route table's building blocks: a :class:`Route` maps a path pattern to the function that builds its screen.

Screens form a stack by path: ``/rules/jokers-kill`` sits on ``/rules``, which sits on ``/``. Back always goes to
the parent path, so the back button works the same after a reload or when a link is opened directly.

>>> route = Route("/rules/:game", lambda ctx, params: None, "Rules")
>>> route.match("/rules/jokers-kill")
{'game': 'jokers-kill'}
>>> route.match("/rules") is None
True
>>> stack_paths("/rules/jokers-kill")
['/', '/rules', '/rules/jokers-kill']
>>> parent_path("/settings")
'/'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    import flet as ft

    from views.context import ViewContext

Builder = Callable[["ViewContext", dict[str, str]], "ft.View"]
"""Builds one screen from the context and the path's parameters (``:name`` parts of the pattern)."""


def lazy(module: str, name: str) -> Builder:
    """The builder ``name`` of the screen module ``module``, imported when the screen is first opened: the app
    starts (to Home) without importing the screens it does not show yet.

    >>> build = lazy("views.not_found", "build_not_found")
    >>> build.__qualname__
    'views.not_found.build_not_found'
    """

    def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
        return resolve(build)(ctx, params)

    build.__qualname__ = build.__name__ = f"{module}.{name}"
    build.__wrapped_screen__ = (module, name)  # type: ignore[attr-defined]
    return build


def resolve(builder: Builder) -> Builder:
    """The screen function behind ``builder`` (a :func:`lazy` one is imported now; any other is itself)."""
    where = getattr(builder, "__wrapped_screen__", None)
    if where is None:
        return builder
    from importlib import import_module

    found: Builder = getattr(import_module(where[0]), where[1])
    return found


@dataclass(frozen=True)
class Route:
    """One screen of the app: its path pattern (``/rules/:game``), its builder and a title for the back label (in
    English, marked for translation: ``words.gettext(route.title)`` where it is shown)."""

    pattern: str
    builder: Builder
    title: str

    def match(self, path: str) -> dict[str, str] | None:
        """The parameters if ``path`` fits this pattern, else ``None``."""
        want = _segments(self.pattern)
        have = _segments(path)
        if len(want) != len(have):
            return None
        params: dict[str, str] = {}
        for pattern_part, path_part in zip(want, have, strict=True):
            if pattern_part.startswith(":"):
                if not path_part:
                    return None
                params[pattern_part[1:]] = unquote(path_part)
            elif pattern_part != path_part:
                return None
        return params


def _segments(path: str) -> list[str]:
    return [part for part in path.split("/") if part]


def normalise(route: str | None) -> str:
    """The path part of a route, without query, fragment or trailing slash (``""`` → ``"/"``).

    >>> normalise("/rules/?x=1"), normalise(""), normalise(None)
    ('/rules', '/', '/')
    """
    path = urlsplit(route or "/").path
    parts = _segments(path)
    return "/" + "/".join(parts)


def parent_path(path: str) -> str:
    """The path one level up (``/`` is its own parent)."""
    parts = _segments(path)
    return "/" + "/".join(parts[:-1])


def stack_paths(path: str) -> list[str]:
    """Every path from ``/`` down to ``path``."""
    parts = _segments(normalise(path))
    return ["/" + "/".join(parts[:depth]) for depth in range(len(parts) + 1)]


def find_route(routes: Sequence[Route], path: str) -> tuple[Route, dict[str, str]] | None:
    """The first route matching ``path`` and its parameters, or ``None``."""
    for route in routes:
        params = route.match(path)
        if params is not None:
            return route, params
    return None
