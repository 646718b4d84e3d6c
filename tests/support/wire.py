"""What a page's session would send: controls diffed with Flet's own ``ObjectPatch`` and encoded with its own
msgpack encoder, as the session does, without a page or a browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack

ENCODE = configure_encode_object_for_msgpack(BaseControl)
"""Flet's encoder of a message: encoding a control takes the snapshots its next diff starts from."""


class Wire:
    """Updates made as a page's session makes them: each diffed (Flet's ``ObjectPatch``) and encoded; the controls
    each update walked (:meth:`saw`, when a test routes Flet's ``before_update`` of each control it compares there).
    """

    def __init__(self) -> None:
        self.walked: list[list[Any]] = []
        self._walking: list[Any] | None = None

    def send_first(self, control: ft.Control) -> None:
        """Send ``control`` whole, as a page sends a new screen: added to a list already sent."""
        holder = ft.Column([])
        msgpack.packb(holder, default=ENCODE)
        holder.controls.append(control)
        self.send(holder)
        self.walked.clear()

    def send(self, root: Any) -> None:
        """Diff ``root`` against what was last sent of it and encode the patch, as an ``update()`` does."""
        self._walking = []
        try:
            patch, _, _ = ObjectPatch.from_diff(root, root, control_cls=BaseControl)
            msgpack.packb(patch.to_message(), default=ENCODE)
        finally:
            self.walked.append(self._walking)
            self._walking = None

    def saw(self, control: Any) -> None:
        """Note ``control`` as walked by the update being made."""
        if self._walking is not None:
            self._walking.append(control)


def nodes(tree: list[Any], control: Any) -> Iterator[tuple[int, Any]]:
    """Each node of a patch's tree with the control it stands for (its children keyed by property or index)."""
    yield tree[0], control
    for key, child in (tree[1] if len(tree) > 1 else {}).items():
        yield from nodes(child, control[key] if isinstance(key, int) else getattr(control, key))


def changed(control: ft.Control) -> list[tuple[Any, str]]:
    """What the next update of ``control`` sends: each changed control and property, as Flet's diff finds them
    (the diff is then encoded, so the next one starts from here)."""
    patch, _, _ = ObjectPatch.from_diff(control, control, control_cls=BaseControl)
    message = patch.to_message()
    msgpack.packb(message, default=ENCODE)
    if not message:
        return []
    found = dict(nodes(message[0], control))
    return [(found[op[1]], op[2]) for op in message[1:]]
