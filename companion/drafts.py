"""The shape of each game's hand being entered, as its entry screen keeps it (a draft), checked when a game opens.

A drafts file that the app wrote itself always passes. One whose draft lacks a key the entry screen reads, or holds
a value of another type (an edited or damaged file), is refused here, so :meth:`storage.Archive.load_drafts` sets
it aside and the game opens without it, instead of failing on every visit (issue 14).

The shapes are those of each game's ``to_draft`` (``companion/entry_<game>.py``; Jokers Kill's and Feast and
Famine's are built by their panels in ``views/table/games/``). Extra keys are allowed; a key an entry screen reads
with a default may be missing.

>>> check = draft_check("jokers-kill")
>>> check("new", {"up": "5S", "buried": [], "cards": {"Ann": "KH"}, "tiebreaks": []})
>>> check("new", {"cards": {}})
Traceback (most recent call last):
...
companion.drafts.DraftShapeError: a hand being entered (new) lacks 'up', 'buried', 'tiebreaks'
>>> draft_check("bargain-bin")("hands/0", {"plays": [{"by": "Ann", "to": 3, "card": "5"}]})
Traceback (most recent call last):
...
companion.drafts.DraftShapeError: a hand being entered (hands/0) has plays.0.to of the wrong type (expected string)
>>> draft_check("a game the app does not know")("new", {"anything": 1}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import (
    Any,
    NotRequired,  # pydantic reads typing_extensions TypedDicts on 3.11
)

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

from storage.errors import InvalidSessionError


class DraftShapeError(InvalidSessionError):
    """A draft that is not of its game's shape (a :class:`ValueError`; the message says which key, and is what the
    banner about the file set aside says)."""


# --- each game's draft ---------------------------------------------------------------------------------------


class _JokersKillDraft(TypedDict):
    up: str | None
    buried: list[str]
    cards: dict[str, str]
    tiebreaks: list[dict[str, str]]


class _Play(TypedDict):
    by: str
    to: str
    card: str


class _Conduct(TypedDict):
    player: str
    action: str


class _BargainBinDraft(TypedDict):
    mode: NotRequired[str]
    plays: NotRequired[list[_Play]]
    conduct: NotRequired[list[_Conduct]]
    scores: NotRequired[dict[str, str | int]]
    receiver: NotRequired[str | None]
    giver: NotRequired[str | None]
    joker_waiting: NotRequired[bool]


class _FeastAndFamineDraft(TypedDict):
    mode: NotRequired[str]
    dealer: NotRequired[str | None]
    actions: NotRequired[list[str] | None]
    values: NotRequired[dict[str, str] | None]


class _OnesToNinesDraft(TypedDict):
    table: NotRequired[str | int]
    numbers: NotRequired[dict[str, str | int] | None]
    first_triple: NotRequired[str | None]


class _FinancialCrisisHand(TypedDict):
    bank: NotRequired[list[str] | None]
    piles: NotRequired[dict[str, list[str] | None] | None]
    override: NotRequired[dict[str, Any] | None]


class _FinancialCrisisDraft(TypedDict):
    hand: NotRequired[_FinancialCrisisHand | None]
    target: NotRequired[str | None]


SHAPES: Mapping[str, TypeAdapter[Any]] = {
    "jokers-kill": TypeAdapter(_JokersKillDraft),
    "bargain-bin": TypeAdapter(_BargainBinDraft),
    "feast-and-famine": TypeAdapter(_FeastAndFamineDraft),
    "1111-9999": TypeAdapter(_OnesToNinesDraft),
    "financial-crisis": TypeAdapter(_FinancialCrisisDraft),
}
"""The draft of each game (by its key), as its entry screen reads it."""

DraftCheck = Callable[[str, dict[str, Any]], None]


def _problem(exc: ValidationError) -> str:
    missing = [".".join(str(part) for part in e["loc"]) for e in exc.errors() if e["type"] == "missing"]
    if missing:
        return "lacks " + ", ".join(f"'{name}'" for name in missing)
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "it"
    expected = first["type"].removesuffix("_type").removesuffix("_parsing")
    return f"has {where} of the wrong type (expected {expected})"


def draft_check(game: str) -> DraftCheck:
    """The check :meth:`storage.Archive.load_drafts` applies to each draft of a ``game`` session: raises
    :class:`DraftShapeError` (a :class:`ValueError`) naming what is wrong. A game without a known shape passes."""
    shape = SHAPES.get(game)

    def check(target: str, draft: dict[str, Any]) -> None:
        if shape is None:
            return
        try:
            shape.validate_python(draft, strict=True)
        except ValidationError as exc:
            raise DraftShapeError(f"a hand being entered ({target}) {_problem(exc)}") from None

    return check


__all__ = ["SHAPES", "DraftShapeError", "draft_check"]
