"""The games the app keeps score for: one list, :data:`GAMES`, of each game module's :class:`~scoring.game.Game`.

Adding a game is one module (``scoring/<game>.py``, ending with ``GAME = Game(...)``) and one line (the module's
name) in :data:`GAMES`.

>>> [game.key for game in GAMES]
['bargain-bin', 'financial-crisis', 'feast-and-famine', '1111-9999', 'jokers-kill']
>>> find_game("jokers-kill").name, find_game("jokers-kill").ruling_prefix
('Jokers Kill', 'JK')
"""

from __future__ import annotations

from typing import Any

from scoring.base import RecordBase, Result
from scoring.errors import InvalidRecordError, UnknownGameError
from scoring.game import Game, collector_paused
from scoring.listed import Listed

GAMES: Listed[Game] = Listed(
    "GAME",
    "scoring.bargain_bin",
    "scoring.financial_crisis",
    "scoring.feast_and_famine",
    "scoring.ones_to_nines",
    "scoring.jokers_kill",
)
"""Every game, in the order the app lists them (each module's ``GAME``; the modules are imported on first use, so
that starting the app does not build every game's record models).

>>> [(game.name, game.min_players, game.max_players, game.hand_word) for game in GAMES][:2]
[('Bargain Bin', 4, 10, 'hand'), ('Financial Crisis', 2, 9, 'round')]
"""


def find_game(key: str) -> Game:
    """The game with this key, or :class:`~scoring.errors.UnknownGameError` (an
    :class:`~scoring.errors.InvalidRecordError` at the record's ``game``) naming the known keys.

    >>> find_game("1111-9999").lower_wins, find_game("feast-and-famine").hand_word
    (True, 'round')
    >>> find_game("poker")
    Traceback (most recent call last):
    ...
    scoring.errors.UnknownGameError: 'poker' is not a game this app knows (known: bargain-bin, financial-crisis, \
feast-and-famine, 1111-9999, jokers-kill)
    """
    for game in GAMES:
        if game.key == key:
            return game
    known = ", ".join(game.key for game in GAMES)
    raise UnknownGameError(f"{key!r} is not a game this app knows (known: {known})", "game")


def parse(data: Any) -> RecordBase:
    """Validate a raw game record of any game (its ``game`` key picks the rules).

    >>> parse({"players": ["Ann", "Ben"]})
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidRecordError: the record does not say which game it is ('game' is missing)
    """
    if not isinstance(data, dict):
        raise InvalidRecordError("a game record must be a JSON object", "")
    if "game" not in data:
        raise InvalidRecordError("the record does not say which game it is ('game' is missing)", "game")
    return find_game(data["game"]).parse(data)


def score(data: Any) -> Result:
    """Validate and score a raw game record of any game. Example JK-E2:

    >>> score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"],
    ...          "hands": [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]}).hands[0].notes[1]
    "Nobody matches; Ann's 4♥ is the lowest card and below the up-card: 2 points (rule 4.3)."
    """
    with collector_paused():
        record = parse(data)
        return find_game(record.game).score(record)


__all__ = ["GAMES", "Game", "find_game", "parse", "score"]
