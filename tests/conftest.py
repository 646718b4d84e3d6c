"""Shared fixtures and paths for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CTC_SHARED", ROOT.parent / "shared"))
CASES = SHARED / "cases"
RULES = SHARED / "rules"
