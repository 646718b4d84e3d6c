"""The games the companion knows: one list, :data:`ENTRIES`, of each ``companion/entry_<game>.py``'s
:class:`~companion.entry.GameEntry` (its entry state, draft shape, card check and Rules-screen guide).

Adding a game is one module (``companion/entry_<game>.py``, ending with ``ENTRY = GameEntry(...)``) and one line (its
name) in :data:`ENTRIES`, in the order of :data:`scoring.GAMES`.

>>> [entry.key for entry in ENTRIES]
['bargain-bin', 'financial-crisis', 'feast-and-famine', '1111-9999', 'jokers-kill']
>>> [guide.name for guide in all_guides()]
['Bargain Bin', 'Financial Crisis', 'Feast and Famine', '1111-9999', 'Jokers Kill']
>>> get_guide("jokers-kill").players
'2 or more players'
>>> [option.key for option in get_guide("bargain-bin").options][:2]
['king', 'target']
"""

from __future__ import annotations

from companion.entry import GameEntry
from companion.guides import GameGuide
from scoring.listed import Listed

ENTRIES: Listed[GameEntry] = Listed(
    "ENTRY",
    "companion.entry_bargain_bin",
    "companion.entry_financial_crisis",
    "companion.entry_feast_and_famine",
    "companion.entry_ones_to_nines",
    "companion.entry_jokers_kill",
)
"""Every game's :class:`~companion.entry.GameEntry`, in the order the app lists the games (the modules are imported
on first use)."""


class UnknownGameError(ValueError):
    """A game key that the companion has no entry screen and no rules for."""


def find_entry(key: str) -> GameEntry:
    """The game with this key, or :class:`UnknownGameError` naming the games there are.

    >>> find_entry("1111-9999").state.__name__
    'OnesToNinesState'
    >>> find_entry("poker")
    Traceback (most recent call last):
    ...
    companion.games.UnknownGameError: there are no rules for 'poker' (known games: bargain-bin, financial-crisis, \
feast-and-famine, 1111-9999, jokers-kill)
    """
    for entry in ENTRIES:
        if entry.key == key:
            return entry
    known = ", ".join(entry.key for entry in ENTRIES)
    raise UnknownGameError(f"there are no rules for {key!r} (known games: {known})")


def all_guides() -> tuple[GameGuide, ...]:
    """Every game's guide, in the order the app lists the games."""
    return tuple(entry.guide for entry in ENTRIES)


def get_guide(key: str) -> GameGuide:
    """The guide for game ``key``, or :class:`UnknownGameError` naming the games there are.

    >>> get_guide("feast-and-famine").route
    '/rules/feast-and-famine'
    """
    return find_entry(key).guide


__all__ = ["ENTRIES", "UnknownGameError", "all_guides", "find_entry", "get_guide"]
