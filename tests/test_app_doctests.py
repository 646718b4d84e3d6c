"""Run the doctested examples of the app's modules (pytest's doctest collection only covers tests/ and scoring/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "companion.app",
    "companion.config",
    "companion.guides",
    "companion.settings",
    "views.routing",
    "views.routes",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
