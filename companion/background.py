"""One background job at a time: the warm-ups that fill a cache while History is open, so that Statistics (and its
ratings) open at once."""

from __future__ import annotations

import threading
from collections.abc import Callable


class OneRun:
    """Runs a job in a daemon thread named ``name``, one at a time: :meth:`start` while the last job still runs starts
    nothing. The job handles its own errors (a warm-up leaves them to the screen that opens next).

    >>> gate = threading.Event()
    >>> runs = OneRun("example-warm-up")
    >>> first = runs.start(gate.wait)
    >>> runs.start(gate.wait) is None
    True
    >>> gate.set(); first.join()
    >>> runs.start(lambda: None) is not None
    True
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._running = False

    def start(self, job: Callable[[], object]) -> threading.Thread | None:
        """Start ``job`` in its thread; ``None`` (and nothing started) while the last one still runs."""
        with self._lock:
            if self._running:
                return None
            self._running = True

        def run() -> None:
            try:
                job()
            finally:
                with self._lock:
                    self._running = False

        thread = threading.Thread(target=run, name=self.name, daemon=True)
        thread.start()
        return thread
