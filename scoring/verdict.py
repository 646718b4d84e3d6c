"""Why a game was decided, as data: the :class:`Verdict` every finished (or cancelled) result carries.

The banner, History and the live view show the verdict; none of them reads the notes to find out who won or why.
``verdict`` is ``None`` while the game is undecided (still running, or a play-off, tie-break round or sudden death is
pending).

>>> import scoring
>>> top_two = {"scores": {"Ann": 9, "Ben": 5, "Cat": 1, "Dan": 0}}
>>> hands = [top_two, top_two, {"scores": {"Ann": 9, "Ben": 1, "Cat": 5, "Dan": 0}}]
>>> result = scoring.score({"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"],
...                         "options": {"target": 3}, "hands": hands})
>>> result.totals, result.verdict.decider, result.verdict.rulings
({'Ann': 3, 'Ben': 2, 'Cat': 1, 'Dan': 0}, <Decider.NEXT_HIGHEST: 'next-highest'>, ['BB-R6', 'BB-R7'])
>>> print(result.verdict.reasons["Ben"])
Ben wins as the next-highest, 2 game points, after Ann reached the target of 3 (rule 7).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from scoring.why import Note, NoteMap, OptionalNote, read_notes, render


class Decider(enum.StrEnum):
    """The way a game was decided."""

    MOST_POINTS = "most-points"
    """The unique highest total wins: Jokers Kill (rule 9), Financial Crisis (rule 12, BK-14), Feast and Famine
    (rule 7)."""
    LOWEST_TOTAL = "lowest-total"
    """The unique lowest total wins once someone reaches the target: 1111-9999 (rule 7, rule 8)."""
    NEXT_HIGHEST = "next-highest"
    """Bargain Bin (rule 7): the player who reached the target wins, and so does the player with the
    next-highest total."""
    TARGET_ALONE = "target-alone"
    """Bargain Bin (rule 7): the player who reached the target wins alone, because the next-highest total is
    shared (or nobody else is left, BB-13)."""
    BOTH_REACHED = "both-reached"
    """Bargain Bin (rule 7, BB-6): two players reached the target in the same hand; both win."""
    JOINT = "joint"
    """Joint winners stand: equal highest totals in Financial Crisis (BK-14); in Feast and Famine equal highest
    tie-break scores (FF-13), a shared next-highest total after an all-out tie-break (FF-11), or the house rule
    for an all-out tie-break with nobody left (FF-10)."""
    PLAYOFF = "playoff"
    """Jokers Kill: the first to win ``playoff_wins`` play-off hands (rule 9, JK-12)."""
    SUDDEN_DEATH = "sudden-death"
    """1111-9999: the unique lowest score of a sudden-death hand (rule 9, OO-13)."""
    TIEBREAK = "tiebreak"
    """Feast and Famine: the highest score of the tie-break round with the Ghost dealing (rule 8.3, FF-12)."""
    ALL_KNOCKED_OUT = "all-knocked-out"
    """Feast and Famine: every tied leader was Knocked Out in the tie-break round; they drop to 0 and the
    next-highest running total wins (rule 8.3, FF-11)."""
    CANCELLED = "cancelled"
    """Bargain Bin: enough removals cancel the game; nobody wins (rule 9.3, BB-14)."""


class Verdict(BaseModel):
    """How the game was decided: which way (``decider``), by which rules and rulings (ids as in
    :func:`scoring.base.rulings_of`), one sentence for the banner, and one sentence per winner.

    >>> verdict = Verdict(decider=Decider.CANCELLED, rulings=["BB-R9.3", "BB-14"], headline="Cancelled.")
    >>> verdict.model_dump(mode="json")
    {'decider': 'cancelled', 'rulings': ['BB-R9.3', 'BB-14'], 'headline': 'Cancelled.', 'reasons': {}, \
'headline_why': None, 'reasons_why': {}}
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    decider: Decider
    rulings: list[str] = Field(default_factory=list)
    """The ids of the rules and rulings that decided (``BB-R7``, ``FF-11``...)."""
    headline: str
    """One sentence for the end banner."""
    reasons: dict[str, str] = Field(default_factory=dict)
    """One sentence per winner, in seating order (empty when cancelled)."""
    headline_why: OptionalNote = None
    """``headline`` as data (:class:`scoring.why.Note`)."""
    reasons_why: NoteMap = Field(default_factory=dict)
    """``reasons`` as data, per winner."""

    @model_validator(mode="before")
    @classmethod
    def _read_notes(cls, data: Any) -> Any:
        return read_notes(data, headline_why=Note | None, reasons_why=dict[str, Note])

    @classmethod
    def of(
        cls, decider: Decider, rulings: Sequence[str], headline: Note, reasons: Mapping[str, Note] | None = None
    ) -> Verdict:
        """A verdict from its notes: the English sentences are rendered from them.

        >>> Verdict.of(Decider.MOST_POINTS, ["JK-R9"], Note.of("{name} wins.", name="Ann")).headline
        'Ann wins.'
        """
        reasons = dict(reasons or {})
        return cls(
            decider=decider,
            rulings=list(rulings),
            headline=render(headline),
            reasons={name: render(note) for name, note in reasons.items()},
            headline_why=headline,
            reasons_why=reasons,
        )


__all__ = ["Decider", "Verdict"]
