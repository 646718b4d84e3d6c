"""The one entry of Card Table Companion: ``companion`` (``[project.scripts]``), ``python -m app``, and the
packaged app (``[tool.flet.app]``, through the root ``main.py``) all call :func:`main`.

A packaged app runs it with no arguments: it keeps its data in Flet's app-storage folder
(``FLET_APP_STORAGE_DATA``, see :func:`companion.config.default_data_dir`) and opens a native window when it can.

**Stopping.** SIGINT (Ctrl+C) or SIGTERM at any moment ends the app cleanly with exit status 0, no traceback, and
the data folder's lock released (:mod:`app.signals`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from app.signals import catch_stop_signals

PACKAGED_DATA_ENV = "FLET_APP_STORAGE_DATA"
"""Set by Flet in packaged apps (the same name as :data:`companion.config.PACKAGED_DATA_ENV`)."""


def packaged() -> bool:
    """Whether this is a packaged app (Flet sets its app-storage folder in the environment)."""
    return bool(os.environ.get(PACKAGED_DATA_ENV))


def main(argv: Sequence[str] | None = None) -> int:
    """Run Card Table Companion with ``argv`` (default: the process arguments, or none in a packaged app);
    returns the exit status."""
    catch_stop_signals(packaged=packaged())
    from app.cli import run

    if argv is None:
        argv = [] if packaged() else sys.argv[1:]
    return run(argv, prefer_desktop=packaged())
