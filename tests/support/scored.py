"""Scoring a game's record in a test: its result as ``python -m scoring score`` prints it, or the error that
refuses it."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import ScoringError
from scoring.game import Game


def as_json(game: Game, record: dict[str, Any]) -> dict[str, Any]:
    """The result of ``record`` as JSON."""
    return game.score(record).to_json()


def refusal(game: Game, record: dict[str, Any]) -> ScoringError:
    """The error that refuses ``record`` (the test fails when it is scored)."""
    with pytest.raises(ScoringError) as info:
        game.score(record)
    return info.value
