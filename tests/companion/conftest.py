"""Fixtures of the companion tests: a session service over the test's own archive, and a Jokers Kill game of Ann,
Ben and Cat started in it (a module that needs another table defines its own ``table``)."""

from __future__ import annotations

import pytest

from companion.session import SessionService, TableSession
from storage import Archive


@pytest.fixture
def service(archive: Archive) -> SessionService:
    return SessionService(archive)


@pytest.fixture
def table(service: SessionService) -> TableSession:
    return service.start("jokers-kill", ["Ann", "Ben", "Cat"])
