"""The command line run in the test's own process: its exit status and what it printed."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from app import cli


def run_cli(*argv: Any) -> tuple[int, str, str]:
    """Run ``companion ARGV...`` (each argument as text): its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.run_command([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()
