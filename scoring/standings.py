"""One standings rule for every screen (the table, History, Statistics, the live view).

- Before the game is decided, players are ordered by total in the game's direction (the lowest first in 1111-9999,
  :attr:`scoring.registry.Game.lower_wins`); players level on total share a place.
- Once decided, the winners come first with place 1 (joint winners, and Bargain Bin's two winners, share it);
  everyone else follows by total, places counted after the winners (one winner, then place 2).
- During and after a play-off, a tie-break round or sudden death, the players in it show that part's progress
  (``"2 play-off wins"``, ``"tie-break 14"``, ``"sudden death 74"``); once it has decided, it also orders them.
- A cancelled game has no winners: it is ordered by total.

Places are competition places ("1, 2, 2, 4"); ``spoken_place`` is what a screen reader says ("equal second").

OO-E10: Ben and Cat tie for the lowest total; in sudden death Cat's 74 beats Ben's 111.

>>> import scoring
>>> hand = {"table": "4239", "numbers": {"Ann": "7744", "Ben": "6339", "Cat": "7224"}}
>>> record = {"game": "1111-9999", "players": ["Ann", "Ben", "Cat"], "sides": {"Ann": "A", "Ben": "A", "Cat": "B"},
...           "hands": [hand, hand]}
>>> [(s.player, s.place, s.spoken_place, s.progress) for s in standings(scoring.score(record))]
[('Ben', 1, 'equal first', 'in sudden death'), ('Cat', 1, 'equal first', 'in sudden death'), ('Ann', 3, 'third', None)]
>>> record["sudden_death"] = [{"table": "518", "numbers": {"Ben": "629", "Cat": "741"}}]
>>> [(s.player, s.place, s.winner, s.progress) for s in standings(scoring.score(record))]
[('Cat', 1, True, 'sudden death 74'), ('Ben', 2, False, 'sudden death 111'), ('Ann', 3, False, None)]
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.base import Result
from scoring.registry import find_game
from scoring.why import Note, render


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    player: str
    place: int
    """1-based competition place: players who share a place have the same number, the next place skips."""
    shared: bool
    """Another player has the same place."""
    total: int
    """The player's total (``result.totals``)."""
    winner: bool
    progress: str | None
    """The player's progress in the play-off, tie-break round or sudden death, or ``None`` when not in one."""
    spoken_place: str
    """The place in words for a screen reader: ``"first"``, ``"equal first"``, ``"third"``."""
    place_note: Note | None = None
    """``spoken_place`` as data (:class:`scoring.why.Note`), for any language."""
    progress_note: Note | None = None
    """``progress`` as data."""


def _ordinal(place: int) -> Note:
    words = (
        Note.of("first"),
        Note.of("second"),
        Note.of("third"),
        Note.of("fourth"),
        Note.of("fifth"),
        Note.of("sixth"),
        Note.of("seventh"),
        Note.of("eighth"),
        Note.of("ninth"),
        Note.of("tenth"),
        Note.of("eleventh"),
        Note.of("twelfth"),
        Note.of("thirteenth"),
        Note.of("fourteenth"),
        Note.of("fifteenth"),
        Note.of("sixteenth"),
        Note.of("seventeenth"),
        Note.of("eighteenth"),
        Note.of("nineteenth"),
        Note.of("twentieth"),
    )
    if 1 <= place <= len(words):
        return words[place - 1]
    if 11 <= place % 100 <= 13:
        return Note.of("{place}th", place=place)
    return {
        1: Note.of("{place}st", place=place),
        2: Note.of("{place}nd", place=place),
        3: Note.of("{place}rd", place=place),
    }.get(place % 10, Note.of("{place}th", place=place))


def place_note(place: int, shared: bool = False) -> Note:
    """A place in words, as data (:class:`scoring.why.Note`): :func:`spoken` in any language.

    >>> render(place_note(2, shared=True))
    'equal second'
    """
    word = _ordinal(place)
    return Note.of("equal {place}", place=word) if shared else word


def spoken(place: int, shared: bool = False) -> str:
    """A place in words: ``"first"``, ``"equal third"``, ``"21st"`` beyond twenty.

    >>> spoken(1), spoken(3, shared=True), spoken(21), spoken(22), spoken(113)
    ('first', 'equal third', '21st', '22nd', '113th')
    """
    return render(place_note(place, shared))


def lower_wins(game: str) -> bool:
    """Whether the lowest total wins in this game (declared once, :attr:`scoring.registry.Game.lower_wins`).

    >>> lower_wins("1111-9999"), lower_wins("bargain-bin")
    (True, False)
    """
    return find_game(game).lower_wins


def standings(result: Result) -> list[Standing]:
    """The standings of a result, best first (see the module's docstring for the rule).

    OO-E9 (the lowest total wins) and BB-E9 (A 10, B 9: the next-highest also wins, both share first place):

    >>> import scoring
    >>> hand = {"table": "4239", "numbers": {"Ann": "7764", "Ben": "6339", "Cat": "1689"}}
    >>> done = scoring.score({"game": "1111-9999", "players": ["Ann", "Ben", "Cat"],
    ...     "sides": {"Ann": "A", "Ben": "A", "Cat": "A"}, "hands": [hand, hand]})
    >>> [(s.place, s.player, s.total) for s in standings(done)]
    [(1, 'Ben', 4200), (2, 'Cat', 5100), (3, 'Ann', 7050)]
    >>> running = scoring.score({"game": "1111-9999", "players": ["Ann", "Ben", "Cat"],
    ...     "sides": {"Ann": "A", "Ben": "A", "Cat": "B"}, "hands": [{"table": "4239", "numbers": {"Ann": "7744",
    ...     "Ben": "6339", "Cat": "7224"}}]})
    >>> [(s.place, s.player, s.spoken_place) for s in standings(running)]
    [(1, 'Ben', 'equal first'), (1, 'Cat', 'equal first'), (3, 'Ann', 'third')]
    """
    sign = 1 if lower_wins(result.game) else -1
    totals = result.totals
    progress = result.part_progress()
    decided = result.finished and not result.cancelled and bool(result.winners)
    winners = set(result.winners) if decided else set()

    def place_key(name: str) -> tuple[int, ...]:
        if name in winners:
            return (0,)
        part = progress[name].rank if decided and name in progress else ()
        return (1, sign * totals[name], *part)

    def order_key(name: str) -> tuple[int, ...]:
        return (*place_key(name), sign * totals[name])

    seats = {name: seat for seat, name in enumerate(result.players)}
    ordered = sorted(result.players, key=lambda name: (order_key(name), seats[name]))
    keys = [place_key(name) for name in ordered]
    out: list[Standing] = []
    place = 0
    for i, name in enumerate(ordered):
        if i == 0 or keys[i] != keys[i - 1]:
            place = i + 1
        shared = (i > 0 and keys[i] == keys[i - 1]) or (i + 1 < len(keys) and keys[i] == keys[i + 1])
        entry = progress.get(name)
        out.append(
            Standing(
                player=name,
                place=place,
                shared=shared,
                total=totals[name],
                winner=name in winners,
                progress=entry.text if entry is not None else None,
                spoken_place=spoken(place, shared),
                place_note=place_note(place, shared),
                progress_note=entry.note if entry is not None else None,
            )
        )
    return out


__all__ = ["Standing", "lower_wins", "place_note", "spoken", "standings"]
