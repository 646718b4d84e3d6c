"""The places where the app reaches into Flet's private API, kept in this one module.

Checked against Flet 1.0.5 (the version pinned in constraints.txt, and in pyproject.toml), reading its source. No
other module of ``views/`` or ``app/`` reaches into Flet's private API (``tests/views/test_flet_private.py`` looks):

- ``flet/controls/context.py``: each page event is handled with its own ``UpdateBehavior`` held in the private
  context variable ``_update_behavior_context_var`` (``None`` outside an event); there is no public way to ask
  whether an event is being handled now.
- ``flet/controls/base_control.py``: ``is_isolated()`` reads the private attribute ``_isolated``, which Flet sets
  only per class (``@ft.control(isolated=True)``); the table marks single controls isolated, and opens them for one
  update. It is set with ``object.__setattr__``, around Flet's change tracking.
- ``flet/components/component.py`` and ``flet/controls/page.py``: ``page.render`` makes a component's node with
  ``Renderer().render(component, ...)`` (``Renderer`` is not exported by ``flet``) and starts the session's
  scheduler of component updates (``page.session.start_updates_scheduler()``), which runs the re-renders that
  ``@ft.observable`` state and ``ft.use_state`` ask for, and ``ft.use_effect``. The app's screens are built the
  imperative way (``page.views``), with components inside some of them: :func:`component_node` and
  :func:`run_component_updates` do those two steps for them.
- ``flet_web/fastapi/flet_static_files.py`` and ``flet_app_manager.py``: Flet's web server copies its index page
  into a temporary folder of its own, which the app manager (``flet_web.fastapi.app_manager``) removes in the
  server's shutdown (``delete_temp_dirs``); the app's stop handler ends the process before that shutdown, so it
  calls :func:`delete_web_temp_dirs` itself.

When Flet is upgraded, read those files again and update :data:`FLET_CHECKED` (``tests/views/test_flet_private.py``
fails until then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft
from flet.components.component import Renderer
from flet.controls.context import _update_behavior_context_var

FLET_CHECKED = "1.0.5"
"""The Flet version whose source this module was checked against."""


def in_page_event() -> bool:
    """Whether a page's event is being handled now (Flet 1.0 gives each event its own update state)."""
    return _update_behavior_context_var.get() is not None


def set_isolated(control: ft.BaseControl, isolated: bool) -> None:
    """Make ``control`` its own update boundary (``True``) or part of its parent's updates again (``False``)."""
    object.__setattr__(control, "_isolated", isolated)


def run_component_updates(page: ft.Page) -> None:
    """Start the page's scheduler of component re-renders and effects (from the page's event loop, once: Flet starts
    it only once). A page without a Flet session (a screen built in a unit test) has none to start."""
    start = getattr(getattr(page, "session", None), "start_updates_scheduler", None)
    if callable(start):
        start()


def component_node(component: Callable[..., Any], *args: Any) -> ft.Control:
    """The node of the ``@ft.component`` ``component`` called with ``args`` (in an isolated container), to place
    among a screen's controls; its body is rendered when the page first sends it, and again whenever its observable
    arguments or its state change."""
    node = ft.Container(content=Renderer().render(component, *args))
    # Isolated, so that an update of the page (or of a control around it) does not reach into the component: Flet
    # would render its body again outside its own update, and leave the new controls out of the session's index
    # (their events then find no control). The component updates itself (``Component.update``).
    set_isolated(node, True)
    return node


def delete_web_temp_dirs() -> None:
    """Remove the temporary folders that Flet's web server made for its index page (what its shutdown does)."""
    from flet_web.fastapi import app_manager

    app_manager.delete_temp_dirs()


__all__ = [
    "FLET_CHECKED",
    "component_node",
    "delete_web_temp_dirs",
    "in_page_event",
    "run_component_updates",
    "set_isolated",
]
