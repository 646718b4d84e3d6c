"""The registry of games: key → :class:`Game` (name, player range, record model, scorer, table helpers).

>>> [game.key for game in all_games()]
['bargain-bin', 'financial-crisis', 'feast-and-famine', '1111-9999', 'jokers-kill']
>>> get_game("jokers-kill").name
'Jokers Kill'
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.base import RecordBase, Result, parse_record
from scoring.errors import InvalidRecordError
from scoring.parts import EXTRA_PARTS, Part, hand_word

_MODULES = {
    "bargain-bin": "scoring.bargain_bin",
    "financial-crisis": "scoring.financial_crisis",
    "feast-and-famine": "scoring.feast_and_famine",
    "1111-9999": "scoring.ones_to_nines",
    "jokers-kill": "scoring.jokers_kill",
}


_gc_lock = threading.Lock()
_gc_depth = 0
_gc_was_enabled = False


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a record is validated and replayed.

    A long card-by-card record becomes thousands of short-lived objects that trigger full collections mid-replay
    (about 7 ms each for a 60-hand Bargain Bin game); nothing in a replay makes reference cycles, so collection can
    wait until the record is freed. Nested and concurrent calls are counted: the collector comes back on (if it was
    on) when the last one ends.
    """
    global _gc_depth, _gc_was_enabled
    with _gc_lock:
        if _gc_depth == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_depth += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0 and _gc_was_enabled:
                gc.enable()


class Replay(Protocol):
    """A record replayed so far, to which the next hand can be added (:meth:`Game.replay`)."""

    @property
    def record(self) -> RecordBase:
        """The record replayed (validated)."""
        ...

    @property
    def result(self) -> Result:
        """What :meth:`Game.score` gives for :attr:`record`."""
        ...

    def add(self, hand: Any) -> Replay:
        """The replay with ``hand`` (raw record data) added after the last hand; raises what :meth:`Game.score`
        of the whole record would."""
        ...


@dataclass(frozen=True, eq=False)
class WholeReplay:
    """The :class:`Replay` of a game that replays its record whole: :meth:`add` scores the longer record again
    (a game with few hands a session, where that costs nothing a player notices)."""

    game: Game
    raw: Mapping[str, Any]
    """The record data as given."""
    record: RecordBase
    result: Result

    def add(self, hand: Any) -> WholeReplay:
        raw = dict(self.raw)
        raw["hands"] = [*(raw.get("hands") or []), hand]
        return self.game.replay(raw)  # type: ignore[return-value]


@dataclass(frozen=True)
class Game:
    """One game the app keeps score for."""

    key: str
    name: str
    min_players: int
    max_players: int | None
    """``None``: no upper limit."""
    record_model: type[RecordBase]
    scorer: Callable[[Any], Result]
    """Scores a validated record of ``record_model``."""
    replayer: Callable[[Any], Replay] | None = None
    """Replays a validated record of ``record_model`` so that a hand can be added on top (:meth:`replay`);
    ``None``: a :class:`WholeReplay`."""
    lower_wins: bool = False
    """The direction of the game's totals, declared once for every screen: ``True`` when the lowest total wins
    (1111-9999, rule 8), ``False`` when the highest does (the other four games).

    >>> [game.key for game in all_games() if game.lower_wins]
    ['1111-9999']
    """

    @property
    def hand_word(self) -> str:
        """What this game's rules call one entry of the main game (:func:`scoring.parts.hand_word`).

        >>> get_game("feast-and-famine").hand_word, get_game("jokers-kill").hand_word
        ('round', 'hand')
        """
        return hand_word(self.key)

    @property
    def extra_part(self) -> Part | None:
        """The extra part this game plays when its main game ends tied (read off its record model), or ``None``.

        >>> [(game.key, game.extra_part.whole if game.extra_part else None) for game in all_games()]
        ... # doctest: +NORMALIZE_WHITESPACE
        [('bargain-bin', None), ('financial-crisis', None), ('feast-and-famine', 'tie-break'),
         ('1111-9999', 'sudden death'), ('jokers-kill', 'play-off')]
        """
        fields = self.record_model.model_fields
        return next((part for part in EXTRA_PARTS if part.key in fields), None)

    def parse(self, data: Any) -> RecordBase:
        """Validate raw record data for this game (raises :class:`~scoring.errors.ScoringError`).

        >>> get_game("jokers-kill").parse({"game": "jokers-kill", "players": ["Ann", "Ben"], "wild": 1})
        Traceback (most recent call last):
        ...
        scoring.errors.InvalidRecordError: 'wild' is not a known key here
        """
        return parse_record(self.record_model, data)

    def score(self, data: Any) -> Result:
        """Validate and score raw record data (or an already parsed record). Example JK-E2 (up-card 9♠; Ann's 4♥
        is the lowest, below the up-card: 2 points):

        >>> get_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"],
        ...          "hands": [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]}).totals
        {'Ann': 2, 'Ben': 0, 'Cat': 0}
        """
        with _collector_paused():
            record = data if isinstance(data, self.record_model) else self.parse(data)
            return self.scorer(record)

    def replay(self, data: Any) -> Replay:
        """Validate and replay raw record data: its :attr:`~Replay.result` is what :meth:`score` gives, and the
        next hand is added with :meth:`~Replay.add`. A game with a long session (Bargain Bin) then replays that
        hand only, so hand 60 costs what hand 1 did. Example BB-E10 with target 1, entered hand by hand:

        >>> game = get_game("bargain-bin")
        >>> start = game.replay({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
        ...                      "options": {"vegas_unit_cents": 10, "target": 1}})
        >>> after = start.add({"scores": {"A": 10, "B": 4, "C": -5, "D": 10}})
        >>> after.result.winners, after.result == game.score(after.record)
        (['A', 'D'], True)

        Example JK-E2, in a game that scores its record whole:

        >>> game = get_game("jokers-kill")
        >>> start = game.replay({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]})
        >>> start.add({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}).result.totals
        {'Ann': 2, 'Ben': 0, 'Cat': 0}
        """
        with _collector_paused():
            record = data if isinstance(data, self.record_model) else self.parse(data)
            if self.replayer is not None:
                return self.replayer(record)
            raw = data if isinstance(data, Mapping) else record.model_dump(mode="json")
            return WholeReplay(self, raw, record, self.scorer(record))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of this game's record.

        >>> get_game("1111-9999").schema()["properties"]["game"]
        {'const': '1111-9999', 'title': 'Game', 'type': 'string'}
        """
        return self.record_model.model_json_schema()


def get_game(key: str) -> Game:
    """The game with this key, or :class:`~scoring.errors.InvalidRecordError` naming the known keys.

    >>> get_game("poker")
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidRecordError: 'poker' is not a game this app knows (known: bargain-bin, financial-crisis, \
feast-and-famine, 1111-9999, jokers-kill)
    """
    module = _MODULES.get(key) if isinstance(key, str) else None
    if module is None:
        known = ", ".join(_MODULES)
        raise InvalidRecordError(f"{key!r} is not a game this app knows (known: {known})", "game")
    game: Game = importlib.import_module(module).GAME
    return game


def all_games() -> list[Game]:
    """Every game, in the order the app lists them.

    >>> [(game.name, game.min_players, game.max_players) for game in all_games()][:2]
    [('Bargain Bin', 4, 10), ('Financial Crisis', 2, 9)]
    """
    return [get_game(key) for key in _MODULES]


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
    return get_game(data["game"]).parse(data)


def score(data: Any) -> Result:
    """Validate and score a raw game record of any game. Example JK-E2:

    >>> score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"],
    ...          "hands": [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]}).hands[0].notes[1]
    "Nobody matches; Ann's 4♥ is the lowest card and below the up-card: 2 points (rule 4.3)."
    """
    with _collector_paused():
        record = parse(data)
        return get_game(record.game).score(record)
