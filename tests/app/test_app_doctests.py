"""Run the doctested examples of the app's modules (pytest's doctest collection only covers tests/ and scoring/)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest


def _modules_with_examples() -> list[str]:
    """Every module of companion/, views/ and storage/ whose source has a doctest example (found, not listed, so a
    new module's examples run without a change here)."""
    root = Path(__file__).resolve().parents[2]
    names = []
    for package in ("companion", "views", "storage"):
        for path in sorted((root / package).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                names.append(".".join(path.relative_to(root).with_suffix("").parts))
    return names


MODULES = _modules_with_examples()


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
