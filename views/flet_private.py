"""The two places where the app reaches into Flet's private API, kept in this one module.

Checked against Flet 1.0.5 (the version pinned in pyproject.toml), reading its source:

- ``flet/controls/context.py``: each page event is handled with its own ``UpdateBehavior`` held in the private
  context variable ``_update_behavior_context_var`` (``None`` outside an event); there is no public way to ask
  whether an event is being handled now.
- ``flet/controls/base_control.py``: ``is_isolated()`` reads the private attribute ``_isolated``, which Flet sets
  only per class (``@ft.control(isolated=True)``); the table marks single controls isolated, and opens them for one
  update. It is set with ``object.__setattr__``, around Flet's change tracking.

When Flet is upgraded, read those two files again and update :data:`FLET_CHECKED` (``tests/views/test_flet_private.py``
fails until then).
"""

from __future__ import annotations

import flet as ft
from flet.controls.context import _update_behavior_context_var

FLET_CHECKED = "1.0.5"
"""The Flet version whose source this module was checked against."""


def in_page_event() -> bool:
    """Whether a page's event is being handled now (Flet 1.0 gives each event its own update state)."""
    return _update_behavior_context_var.get() is not None


def set_isolated(control: ft.BaseControl, isolated: bool) -> None:
    """Make ``control`` its own update boundary (``True``) or part of its parent's updates again (``False``)."""
    object.__setattr__(control, "_isolated", isolated)


__all__ = ["FLET_CHECKED", "in_page_event", "set_isolated"]
