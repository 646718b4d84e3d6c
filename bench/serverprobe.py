"""Serve a Flet app with a probe in its server: each page event's handler timed (wall and the thread's CPU) and each
message sent (its size and time), one JSON line each to a log the benchmark reads (:mod:`bench.screens_bench`).

Run as a file, so that it serves any tree of the project, an earlier commit's included:
``python bench/serverprobe.py --log FILE --tree DIR -- MODULE ARGS...`` runs ``python -m MODULE ARGS...`` from
``DIR`` (``app`` for the app, ``bench.trivial_app`` for the trivial app). It imports only the standard library and
Flet, so the tree it serves decides everything else.

The lines:

- ``{"event": NAME, "t": s, "wall": ms, "cpu": ms, "process": ms}`` when an event's handler
  (``Session.dispatch_event``, where Flet runs a synchronous handler on the event loop) is done: its wall time, its
  thread's CPU and the whole server's CPU meanwhile (its other threads' included);
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


def install(log: ProbeLog) -> None:
    """Patch Flet's session and connection to write what they do to ``log``."""
    import msgpack
    from flet.messaging.session import Session
    from flet_web.fastapi import flet_app

    dispatch = Session.dispatch_event

    async def timed_dispatch(self: Session, control_id: int, event_name: str, event_data: Any) -> None:
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
