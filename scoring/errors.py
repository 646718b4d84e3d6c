"""The errors that scoring raises.

Every problem with a record is a :class:`ScoringError` (a :class:`ValueError`), carrying a message in words a
player understands and a ``path`` into the record (``"hands[2].cards.Ann[1]"``). The command line prints both as
``{"error": {"message": ..., "path": ...}}`` and exits 2.
"""

from __future__ import annotations

from scoring.parts import Part
from scoring.why import Note, render

_PLACES = (Part.HANDS, Part.SUDDEN_DEATH, Part.PLAYOFF, Part.TIEBREAK)
"""The parts an error's path can point into (their words name the place, :attr:`Part.word`)."""


class ScoringError(ValueError):
    """A record that cannot be scored. ``message`` is for people, ``path`` points into the record. Made from a
    :class:`~scoring.why.Note`, the message is the note in English and ``why`` keeps the note, so that a screen can
    say it in the table's language.

    >>> error = DuplicateCardError(Note.of("{card} is already in this hand", card="Q♥"))
    >>> error.message, error.why.text
    ('Q♥ is already in this hand', '{card} is already in this hand')
    """

    def __init__(self, message: str | Note, path: str = "") -> None:
        why = message if isinstance(message, Note) else None
        text = render(message) if isinstance(message, Note) else message
        super().__init__(text)
        self.message = text
        self.path = path
        self.why = why
        """The message as data (a :class:`~scoring.why.Note`), when it was made from one."""

    def at(self, path: str) -> ScoringError:
        """Return the same error with ``path`` set (keeps the subclass).

        >>> DuplicateCardError("Q♥ appears twice in hand 3").at("hands[2].cards.Ben")
        DuplicateCardError('Q♥ appears twice in hand 3')
        >>> _.path
        'hands[2].cards.Ben'
        """
        self.path = path
        return self

    def to_json(self) -> dict[str, dict[str, str]]:
        """What ``python -m scoring score`` prints for an invalid record (records.md):

        >>> DuplicateCardError("Q♥ appears twice in hand 3", "hands[2].cards.Ben").to_json()
        {'error': {'message': 'Q♥ appears twice in hand 3', 'path': 'hands[2].cards.Ben'}}
        """
        return {"error": {"message": self.message, "path": self.path}}


class InvalidCardError(ScoringError):
    """Text that is not a card, or a card that this game's deck does not have."""


class DuplicateCardError(ScoringError):
    """The same physical card entered twice."""


class UnknownPlayerError(ScoringError):
    """A name that is not seated in this game."""


class InvalidRecordError(ScoringError):
    """A record of the wrong shape: a missing or unknown key, a wrong type, a bad option."""


class UnknownGameError(InvalidRecordError):
    """A game key that names none of the games the app knows (:func:`scoring.registry.find_game`)."""


class IllegalHandError(ScoringError):
    """A hand that the rules do not allow here (after the game is over, the wrong dealer, the wrong players)."""


class IncompleteError(ValueError):
    """A hand (round, play-off hand, tie-break round, sudden-death hand) being entered that is not complete yet: the
    message names what is still missing (a card still to deal, a number still to type, the dealer to choose...).
    The one "not complete yet" error of every game; a game subclasses it only to make it one of its own errors
    too (:class:`companion.entry_financial_crisis.FinancialCrisisIncompleteError` is an :class:`IllegalHandError`
    pointing at the bank).

    >>> raise IncompleteError("the hand is not complete yet: deal Ann's second card")
    Traceback (most recent call last):
    ...
    scoring.errors.IncompleteError: the hand is not complete yet: deal Ann's second card
    """

    def __init__(self, message: str | Note) -> None:
        super().__init__(render(message) if isinstance(message, Note) else message)
        self.why = message if isinstance(message, Note) else None
        """The message as data, when it was made from a :class:`~scoring.why.Note`."""


def path_of(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """Format a location as a record path.

    >>> path_of(("hands", 2, "cards", "Ann", 1))
    'hands[2].cards.Ann[1]'
    >>> path_of(())
    ''
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def where(path: str) -> str:
    """Say in words where a path points, for messages.

    >>> where("hands[2].cards.Ann[1]")
    ' in hand 3'
    >>> where("sudden_death[0].numbers.Ann")
    ' in sudden-death hand 1'
    >>> where("options.king")
    ''
    """
    for part in _PLACES:
        if path.startswith(f"{part.key}["):
            index = path[len(part.key) + 1 : path.index("]")]
            if index.isdigit():
                return f" in {part.word} {int(index) + 1}"
    if path.startswith("tiebreak"):
        return " in the tie-break"
    return ""
