"""Pure scoring rules for the five games of Card Table Companion.

No user interface, no storage, no I/O (except the command line in ``__main__``). A record goes in, a
:class:`~scoring.base.Result` comes out; every problem is a :class:`~scoring.errors.ScoringError`.
"""

from scoring.base import HandResult, PartProgress, Pending, Result, Step, next_step, rulings_of
from scoring.cards import JOKER, Card, Suit
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    IncompleteError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownGameError,
    UnknownPlayerError,
)
from scoring.game import Game, Replay
from scoring.parts import (
    EXTRA_PARTS,
    Part,
    UnknownPartError,
    entries,
    parse_entry_slug,
    part_for_step,
    part_of_key,
    part_of_slug,
    record_before,
    set_entries,
)
from scoring.registry import GAMES, find_game, parse, score
from scoring.standings import Standing, lower_wins, spoken, standings
from scoring.verdict import Decider, Verdict

__all__ = [
    "EXTRA_PARTS",
    "GAMES",
    "JOKER",
    "Card",
    "Decider",
    "DuplicateCardError",
    "Game",
    "HandResult",
    "IllegalHandError",
    "IncompleteError",
    "InvalidCardError",
    "InvalidRecordError",
    "Part",
    "PartProgress",
    "Pending",
    "Replay",
    "Result",
    "ScoringError",
    "Standing",
    "Step",
    "Suit",
    "UnknownGameError",
    "UnknownPartError",
    "UnknownPlayerError",
    "Verdict",
    "entries",
    "find_game",
    "lower_wins",
    "next_step",
    "parse",
    "parse_entry_slug",
    "part_for_step",
    "part_of_key",
    "part_of_slug",
    "record_before",
    "rulings_of",
    "score",
    "set_entries",
    "spoken",
    "standings",
]
