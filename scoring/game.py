"""What the app knows of one game, declared by the game's module next to its rules: :class:`Game`.

Each module of a game (``scoring/bargain_bin.py``...) ends with ``GAME = Game(key=..., name=..., ...)``, and
:data:`scoring.registry.GAMES` lists them, so adding a game is one module and one line there.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.base import RecordBase, Result, parse_record
from scoring.parts import EXTRA_PARTS, Part

_gc_lock = threading.Lock()


class _CollectorPause:
    """The context manager :func:`collector_paused` hands out (a class: a generator-based one costs several Python
    calls, twice for every record scored)."""

    depth = 0
    was_enabled = False

    def __enter__(self) -> None:
        with _gc_lock:
            if _CollectorPause.depth == 0:
                _CollectorPause.was_enabled = gc.isenabled()
                gc.disable()
            _CollectorPause.depth += 1

    def __exit__(self, *exc: object) -> None:
        with _gc_lock:
            _CollectorPause.depth -= 1
            if _CollectorPause.depth == 0 and _CollectorPause.was_enabled:
                gc.enable()


def collector_paused() -> contextlib.AbstractContextManager[None]:
    """Pause Python's cyclic garbage collector while a record is validated and replayed.

    A long card-by-card record becomes thousands of short-lived objects that trigger full collections mid-replay
    (about 7 ms each for a 60-hand Bargain Bin game); nothing in a replay makes reference cycles, so collection can
    wait until the record is freed. Nested and concurrent calls are counted: the collector comes back on (if it was
    on) when the last one ends.

    >>> import gc
    >>> with collector_paused():
    ...     with collector_paused():
    ...         pass
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    return _PAUSE


_PAUSE = _CollectorPause()


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


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game the app keeps score for: its names, its rules' words, who may play, the parts of its record, and
    how a record is read and scored. A game's module declares it once, as ``GAME``."""

    key: str
    """The record's ``game`` value and the app's name for the game in routes and files."""
    name: str
    """The game's name for people."""
    ruling_prefix: str
    """The prefix of its ruling ids in ``shared/rules/<game>.md`` (``BB-2``, ``BK-14``...): every note it writes
    cites its rules and rulings with it (:func:`scoring.base.rulings_of`)."""
    hand_word: str
    """What its rules call one entry of the main game: ``"round"`` (Financial Crisis, "Round structure"; Feast and
    Famine, rule 3: "Round = one deal by one dealer") or ``"hand"``."""
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

    >>> from scoring.registry import GAMES
    >>> [game.key for game in GAMES if game.lower_wins]
    ['1111-9999']
    """

    @property
    def extra_part(self) -> Part | None:
        """The extra part this game plays when its main game ends tied (read off its record model), or ``None``.

        >>> from scoring.registry import GAMES
        >>> [(game.key, game.extra_part.whole if game.extra_part else None) for game in GAMES]
        ... # doctest: +NORMALIZE_WHITESPACE
        [('bargain-bin', None), ('financial-crisis', None), ('feast-and-famine', 'tie-break'),
         ('1111-9999', 'sudden death'), ('jokers-kill', 'play-off')]
        """
        fields = self.record_model.model_fields
        return next((part for part in EXTRA_PARTS if part.key in fields), None)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The parts of its record: the main game's hands, then the extra part a tie brings, if any.

        >>> from scoring.registry import find_game
        >>> find_game("jokers-kill").parts, find_game("bargain-bin").parts
        ((<Part.HANDS: 'hands'>, <Part.PLAYOFF: 'playoff'>), (<Part.HANDS: 'hands'>,))
        """
        extra = self.extra_part
        return (Part.HANDS,) if extra is None else (Part.HANDS, extra)

    @functools.cached_property
    def limits(self) -> Mapping[str, int]:
        """The largest value of each bounded option, as its record model declares it (and its published schema
        says): a record asking for more is refused.

        >>> from scoring.registry import find_game
        >>> find_game("bargain-bin").limits
        {'target': 1000, 'vegas_unit_cents': 100000}
        >>> find_game("jokers-kill").limits
        {'playoff_wins': 100}
        """
        options = self.schema().get("$defs", {}).get("Options", {}).get("properties", {})
        found: dict[str, int] = {}
        for name, spec in options.items():
            bounds = [spec.get("maximum"), *(choice.get("maximum") for choice in spec.get("anyOf", []))]
            top = next((bound for bound in bounds if isinstance(bound, int)), None)
            if top is not None:
                found[name] = top
        return found

    def word(self, part: Part = Part.HANDS) -> str:
        """What this game calls one entry of ``part``: :attr:`hand_word` for the main game, the part's own word
        for an extra part.

        >>> from scoring.registry import find_game
        >>> find_game("feast-and-famine").word(), find_game("jokers-kill").word()
        ('round', 'hand')
        >>> find_game("feast-and-famine").word(Part.TIEBREAK)
        'tie-break round'
        """
        return self.hand_word if part is Part.HANDS else part.word

    def label(self, part: Part, index: int) -> str:
        """Entry ``index`` (0-based) of ``part`` named for people, in this game's words.

        >>> from scoring.registry import find_game
        >>> find_game("financial-crisis").label(Part.HANDS, 2), find_game("1111-9999").label(Part.SUDDEN_DEATH, 0)
        ('round 3', 'sudden-death hand 1')
        """
        return f"{self.word(part)} {index + 1}"

    def parse(self, data: Any) -> RecordBase:
        """Validate raw record data for this game (raises :class:`~scoring.errors.ScoringError`).

        >>> from scoring.registry import find_game
        >>> find_game("jokers-kill").parse({"game": "jokers-kill", "players": ["Ann", "Ben"], "wild": 1})
        Traceback (most recent call last):
        ...
        scoring.errors.InvalidRecordError: 'wild' is not a known key here
        """
        return parse_record(self.record_model, data)

    def score(self, data: Any) -> Result:
        """Validate and score raw record data (or an already parsed record). Example JK-E2 (up-card 9♠; Ann's 4♥
        is the lowest, below the up-card: 2 points):

        >>> from scoring.registry import find_game
        >>> find_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"],
        ...          "hands": [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]}).totals
        {'Ann': 2, 'Ben': 0, 'Cat': 0}
        """
        with collector_paused():
            record = data if isinstance(data, self.record_model) else self.parse(data)
            return self.scorer(record)

    def replay(self, data: Any) -> Replay:
        """Validate and replay raw record data: its :attr:`~Replay.result` is what :meth:`score` gives, and the
        next hand is added with :meth:`~Replay.add`. A game with a long session (Bargain Bin) then replays that
        hand only, so hand 60 costs what hand 1 did. Example BB-E10 with target 1, entered hand by hand:

        >>> from scoring.registry import find_game
        >>> game = find_game("bargain-bin")
        >>> start = game.replay({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
        ...                      "options": {"vegas_unit_cents": 10, "target": 1}})
        >>> after = start.add({"scores": {"A": 10, "B": 4, "C": -5, "D": 10}})
        >>> after.result.winners, after.result == game.score(after.record)
        (['A', 'D'], True)

        Example JK-E2, in a game that scores its record whole:

        >>> game = find_game("jokers-kill")
        >>> start = game.replay({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]})
        >>> start.add({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}).result.totals
        {'Ann': 2, 'Ben': 0, 'Cat': 0}
        """
        with collector_paused():
            record = data if isinstance(data, self.record_model) else self.parse(data)
            if self.replayer is not None:
                return self.replayer(record)
            raw = data if isinstance(data, Mapping) else record.model_dump(mode="json")
            return WholeReplay(self, raw, record, self.scorer(record))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of this game's record.

        >>> from scoring.registry import find_game
        >>> find_game("1111-9999").schema()["properties"]["game"]
        {'const': '1111-9999', 'title': 'Game', 'type': 'string'}
        """
        return self.record_model.model_json_schema()
