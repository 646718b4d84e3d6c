"""Serve a Flet app with a probe in its server: each page event's handler timed (wall and the thread's CPU) and each
message sent (its size and time), one JSON line each to a log the benchmark reads (:mod:`bench.screens_bench`).

Run as a file, so that it serves any tree of the project, an earlier commit's included:
``python bench/serverprobe.py --log FILE --tree DIR -- MODULE ARGS...`` runs ``python -m MODULE ARGS...`` from
``DIR`` (``app`` for the app, ``bench.trivial_app`` for the trivial app). It imports only the standard library and
Flet, so the tree it serves decides everything else.

The lines:

- ``{"event": NAME, "t": s, "wall": ms, "cpu": ms, "process": ms, "tapped": TEXT}`` when an event's handler
  (``Session.dispatch_event``, where Flet runs a synchronous handler on the event loop) is done: its wall time, its
  thread's CPU and the whole server's CPU meanwhile (its other threads' included), and what the control it went to
  says, read before the handler ran (:func:`said`: "Confirm hand", "A♠", "To Ann (0)");
- ``{"sent": BYTES, "t": s}`` for each message the server sends;
- ``{"received": ACTION, "name": EVENT, "t": s}`` for each message the page sends (its action, as Flet numbers
  them, and an event's name);
- ``{"scheduled": NAME, "t": s}`` when a component asks for a re-render (a later update of its own).

Times ``t`` are ``time.perf_counter()`` seconds of the server.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO


class ProbeLog:
    """Appends one JSON line per record to a file, from any thread."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._out: TextIO = path.open("a", encoding="utf-8", buffering=1)

    def write(self, **record: Any) -> None:
        line = json.dumps(record)
        with self._lock:
            self._out.write(line + "\n")


def said(control: Any, *, up: int = 3, down: int = 6) -> str:
    """What a control says, as a screen reader would read the key it is part of: the semantics label of the nearest
    control holding it (itself and ``up`` more) that has one, else the first text in it (breadth first, ``down``
    levels: a key's gesture detector → its box → the text), else ``""``.

    >>> import flet as ft
    >>> text = ft.Text("A♠")
    >>> key = ft.Semantics(button=True, content=ft.GestureDetector(content=ft.Container(content=text)))
    >>> said(key.content)
    'A♠'
    >>> said(ft.Button(content="Tap"))
    'Tap'
    >>> said(None)
    ''
    """
    node = control
    for _ in range(up + 1):
        if node is None:
            break
        label = getattr(node, "label", None) if type(node).__name__ == "Semantics" else None
        if isinstance(label, str) and label:
            return label
        node = getattr(node, "parent", None)
    level = [control] if control is not None else []
    for _ in range(down + 1):
        for one in level:
            for name in ("value", "content", "text"):
                value = getattr(one, name, None)
                if isinstance(value, str) and value:
                    return value
        level = [
            child
            for one in level
            for child in [getattr(one, "content", None), *(getattr(one, "controls", None) or [])]
            if child is not None and not isinstance(child, str)
        ]
    return ""


def install(log: ProbeLog) -> None:
    """Patch Flet's session and connection to write what they do to ``log``."""
    import msgpack
    from flet.messaging.session import Session
    from flet_web.fastapi import flet_app

    dispatch = Session.dispatch_event

    async def timed_dispatch(self: Session, control_id: int, event_name: str, event_data: Any) -> None:
        tapped = said(self.index.get(control_id))
        wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        try:
            await dispatch(self, control_id, event_name, event_data)
        finally:
            log.write(
                event=event_name,
                t=time.perf_counter(),
                wall=(time.perf_counter() - wall) * 1000,
                cpu=(time.thread_time() - cpu) * 1000,
                process=(time.process_time() - process) * 1000,
                tapped=tapped,
            )

    Session.dispatch_event = timed_dispatch  # type: ignore[method-assign]

    schedule = Session.schedule_update

    def noted_schedule(self: Session, control: Any) -> None:
        log.write(scheduled=type(control).__name__, t=time.perf_counter())
        schedule(self, control)

    Session.schedule_update = noted_schedule  # type: ignore[method-assign]

    class CountingMsgpack:
        """``msgpack`` as the connection sees it: ``packb`` notes each message's size."""

        def __getattr__(self, name: str) -> Any:
            return getattr(msgpack, name)

        @staticmethod
        def packb(*args: Any, **kwargs: Any) -> bytes:
            body: bytes = msgpack.packb(*args, **kwargs)
            log.write(sent=len(body) + 1, t=time.perf_counter())
            return body

        @staticmethod
        def unpackb(*args: Any, **kwargs: Any) -> Any:
            message = msgpack.unpackb(*args, **kwargs)
            body = message[1] if isinstance(message, list) and len(message) > 1 else None
            name = body.get("name") if isinstance(body, dict) else None
            log.write(received=message[0] if isinstance(message, list) else None, name=name, t=time.perf_counter())
            return message

    flet_app.msgpack = CountingMsgpack()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python bench/serverprobe.py", description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--tree", type=Path, required=True, help="the project tree to serve from")
    parser.add_argument("module", help="the module to run as __main__ (app, bench.trivial_app)")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    tree = str(options.tree.resolve())
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [tree] + [p for p in sys.path if p not in (here, tree, "")]
    os.chdir(tree)
    install(ProbeLog(options.log))
    sys.argv = [options.module, *[a for a in options.args if a != "--"]]
    runpy.run_module(options.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
