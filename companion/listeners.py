"""One observer for the services that tell the screens about a change: a session, the live table, the settings.

A screen subscribes a listener and keeps the function that unsubscribes it; the service notifies every listener
after a change, with the changed value. A listener that raises (a closed browser tab) never stops the others from
hearing: it is logged, and dropped unless the service keeps it.

>>> heard = []
>>> listeners = Listeners("a test listener")
>>> stop = listeners.subscribe(heard.append)
>>> def broken(value: int) -> None:
...     raise RuntimeError("a closed tab")
>>> _ = listeners.subscribe(broken)
>>> listeners.notify(1)
>>> heard, len(listeners)
([1], 1)
>>> stop()
>>> listeners.notify(2)
>>> heard, len(listeners)
([1], 0)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

_log = logging.getLogger(__name__)

T = TypeVar("T")


class Listeners(Generic[T]):
    """The listeners of one service, each called with the changed value; safe to use from several threads."""

    def __init__(self, what: str, *, drop_failing: bool = True) -> None:
        self.what = what
        """What a listener is, for the log (``a session listener``)."""
        self.drop_failing = drop_failing
        """Whether a listener that raised is dropped (it is always logged, and the others are always told)."""
        self._lock = threading.Lock()
        self._listeners: list[Callable[[T], object]] = []

    def subscribe(self, listener: Callable[[T], object]) -> Callable[[], None]:
        """Call ``listener(value)`` on every :meth:`notify`; returns a function that unsubscribes it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            self.discard(listener)

        return unsubscribe

    def discard(self, listener: Callable[[T], object]) -> None:
        """Stop calling ``listener`` (nothing happens if it is not subscribed)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def each(self) -> list[Callable[[T], object]]:
        """The listeners now, for a service that calls them itself."""
        with self._lock:
            return list(self._listeners)

    def notify(self, value: T) -> None:
        """Call every listener with ``value``, in the order they subscribed."""
        for listener in self.each():
            try:
                listener(value)
            except Exception:  # a closed browser tab must not stop the others from hearing about the change
                if self.drop_failing:
                    _log.warning("%s failed; it is dropped", self.what, exc_info=True)
                    self.discard(listener)
                else:
                    _log.warning("%s failed", self.what, exc_info=True)

    def __len__(self) -> int:
        with self._lock:
            return len(self._listeners)
