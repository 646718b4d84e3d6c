"""Each game's rules and house-rule options, told in the app's own words for the Rules screen.

This is reading matter, not scoring: the scoring rules live in :mod:`scoring`. Each game's :class:`GameGuide` is
declared next to its entry screen (``GUIDE`` in ``companion/entry_<game>.py``) and found through
:func:`companion.games.get_guide`. The game keys match the scoring registry and the option keys match the game
record's ``options`` (``shared/spec/records.md``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HouseRule:
    """One house-rule option: the record key, what it means, its default and what else the table may choose."""

    key: str
    label: str
    default: str
    alternatives: str
    ruling: str
    """The ruling in the rules file that settles it (for example ``BB-1``)."""
    choices: tuple[tuple[object, str], ...] = ()
    """For a rule chosen from a few values: each record value with the plain words a drop-down shows for it (the
    value stays the record's; the words are what a player reads)."""

    def word(self, value: object) -> str:
        """The plain words for one of the rule's values (the value itself when the rule has no words for it).

        >>> from companion.games import get_guide
        >>> get_guide("jokers-kill").options[3].word("dead")
        'Kills the hand'
        """
        return next((words for choice, words in self.choices if choice == value), str(value))


@dataclass(frozen=True)
class Section:
    """A headed part of a game's rules: a few short paragraphs or bullet points."""

    heading: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class GameGuide:
    """What a player needs to know about one game to play it with real cards and this app."""

    key: str
    name: str
    players: str
    summary: str
    sections: tuple[Section, ...]
    options: tuple[HouseRule, ...]

    @property
    def route(self) -> str:
        """The app route of this game's rules page."""
        return f"/rules/{self.key}"
