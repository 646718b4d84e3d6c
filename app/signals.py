"""SIGINT (Ctrl+C) and SIGTERM end the app cleanly at any moment: exit status :data:`EXIT_STOPPED` (0), no
traceback, and the data folder's lock free again at once.

Only a few modules of the standard library that Python has loaded anyway (not even :mod:`typing`), so that
:func:`catch_stop_signals` runs a moment after Python starts.

* :func:`catch_stop_signals` (the first thing :func:`app.main.main` and ``python -m app`` do) makes both signals
  call :func:`stop_now`: the cleanups registered with :func:`on_stop` run (the app closes its data folder, which
  writes the index and releases the lock), given at most :data:`CLEANUP_SECONDS`, then the process ends at once.
  No exception unwinds through half-done start-up code, so nothing prints a traceback. Nothing is lost either:
  every save is an atomic write that a process ended at any instant leaves whole, and the lock is an ``flock``
  that ends with the process even if a cleanup could not finish.
* :func:`hold_stop_handlers` keeps these handlers while the web server runs. Flet and Uvicorn each put their own
  handlers in place as they start, and a signal between the two (Flet asks a server that has not started yet to
  shut down) ended in a traceback; one handler from start to end has no such gap.

A packaged app's runtime owns its signals, and the desktop window is Flet's to close: there the defaults stay.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: typing costs milliseconds at start-up
    from collections.abc import Callable, Iterator
    from types import FrameType
    from typing import Any

EXIT_STOPPED = 0
"""The exit status after SIGINT or SIGTERM: a stop that was asked for is a clean stop, not a failure."""
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
CLEANUP_SECONDS = 3.0
"""How long the cleanups may take before the process ends anyway (a thread may hold the archive)."""

_cleanups: list[Callable[[], object]] = []
_installed = False


def on_stop(cleanup: Callable[[], object]) -> Callable[[], None]:
    """Run ``cleanup`` when a stop signal ends the process; returns a function that takes it back."""
    _cleanups.append(cleanup)

    def forget() -> None:
        with contextlib.suppress(ValueError):
            _cleanups.remove(cleanup)

    return forget


def _run_cleanups() -> None:
    for cleanup in reversed(list(_cleanups)):
        with contextlib.suppress(Exception):
            cleanup()


def stop_now(signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
    """End the process cleanly: the cleanups (in a helper thread, so a lock held by the interrupted code cannot
    stop them for longer than :data:`CLEANUP_SECONDS`), what was printed, then :func:`os._exit`."""
    if _cleanups:
        helper = threading.Thread(target=_run_cleanups, name="stop-cleanup", daemon=True)
        helper.start()
        helper.join(CLEANUP_SECONDS)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(EXIT_STOPPED)


def catch_stop_signals(*, packaged: bool | None = None) -> bool:
    """Make SIGINT and SIGTERM call :func:`stop_now` from now on; returns whether it did (only in the main thread
    of a plain Python process, not in a packaged app)."""
    global _installed
    if packaged is None:
        packaged = bool(os.environ.get("FLET_APP_STORAGE_DATA"))  # companion.config.PACKAGED_DATA_ENV
    if packaged or threading.current_thread() is not threading.main_thread():
        return False
    try:
        for number in STOP_SIGNALS:
            signal.signal(number, stop_now)
    except (ValueError, OSError):  # not allowed here (an embedded interpreter): leave the defaults
        return False
    _installed = True
    return True


@contextlib.contextmanager
def hold_stop_handlers() -> Iterator[None]:
    """While inside, nothing replaces the handlers of :func:`catch_stop_signals` (the libraries' calls to
    ``signal.signal`` for SIGINT and SIGTERM return the current handler and change nothing). Does nothing when
    those handlers are not in place."""
    if not _installed or threading.current_thread() is not threading.main_thread():
        yield
        return
    real = signal.signal

    def keep(number: Any, handler: Any) -> Any:
        if number in STOP_SIGNALS:
            return signal.getsignal(number)
        return real(number, handler)

    signal.signal = keep  # type: ignore[assignment]
    try:
        yield
    finally:
        signal.signal = real
