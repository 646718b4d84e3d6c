"""Flet's private API is reached in one module, checked against the Flet version installed."""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path

import flet as ft

from tests.conftest import run_async
from views.flet_private import FLET_CHECKED, in_page_event, set_isolated

ROOT = Path(__file__).resolve().parents[2]


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


def private_flet_uses(tree: ast.AST) -> list[str]:
    """What a module reaches of Flet's private API: a name imported from inside a ``flet`` package that ``flet``
    does not export (or that starts with ``_``), a private attribute read on anything but ``self``/``cls``/``os``,
    and a private attribute set with ``object.__setattr__`` or ``setattr``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0].startswith("flet"):
            package = node.module or ""
            public = package in ("flet", "flet.utils")  # flet.utils: Flet's public helpers (the port, the browser)
            for alias in node.names:
                if alias.name.startswith("_") or (not public and not hasattr(ft, alias.name)):
                    found.append(f"{node.lineno}: from {package} import {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value.id if isinstance(node.value, ast.Name) else ""
            if owner not in ("self", "cls", "os"):
                found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ("__setattr__", "setattr") and any(s.startswith("_") for s in strings):
                found.append(f"{node.lineno}: {name}({', '.join(strings)})")
    return found


def test_every_private_flet_use_in_views_and_app_is_in_the_one_module() -> None:
    private = {
        str(path.relative_to(ROOT)): uses
        for folder in ("views", "app")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (uses := private_flet_uses(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert set(private) == {"views/flet_private.py"}, private


def test_the_scan_finds_what_it_looks_for() -> None:
    code = (
        "from flet.controls.context import _update_behavior_context_var\n"
        "from flet.components.component import Renderer\n"
        "object.__setattr__(control, '_isolated', True)\n"
        "page.session._index\n"
    )
    assert len(private_flet_uses(ast.parse(code))) == 4
