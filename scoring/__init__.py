"""Pure scoring rules for the five games of Card Table Companion.

No user interface, no storage, no I/O (except the command line in ``__main__``). A record goes in, a
:class:`~scoring.base.Result` comes out; every problem is a :class:`~scoring.errors.ScoringError`.
"""

from scoring.base import HandResult, Pending, Result, Step, next_step
from scoring.cards import JOKER, Card, Suit
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from scoring.registry import Game, all_games, get_game, parse, score

__all__ = [
    "JOKER",
    "Card",
    "DuplicateCardError",
    "Game",
    "HandResult",
    "IllegalHandError",
    "InvalidCardError",
    "InvalidRecordError",
    "Pending",
    "Result",
    "ScoringError",
    "Step",
    "Suit",
    "UnknownPlayerError",
    "all_games",
    "get_game",
    "next_step",
    "parse",
    "score",
]
