"""Each game's hand being entered, as its entry screen keeps it (a draft), checked when a game opens.

A drafts file that the app wrote itself always passes. One whose draft lacks a key the entry screen reads, holds a
value of another type, or would not restore (an edited or damaged file: a card that is not a card, a player who is
not at the table) is refused here, so :meth:`storage.Archive.load_drafts` sets it aside, the banner on Home says
so, and the game opens without it, instead of failing (or silently starting afresh) when its panel opens (issues
14 and 16).

Two checks, in this order: the shape of each game's ``to_draft`` (a TypedDict per game: it names a missing key or
a value of the wrong type in words; extra keys are allowed, a key an entry screen reads with a default may be
missing), then, given the session's record, the game's own :class:`companion.entry.EntryState`:
``from_draft(record, target, draft)`` exactly as the entry panel calls it (:data:`ENTRY_STATES`), for the target
the draft is kept for: ``new`` is the entry the game asks for next (a hand, a play-off hand...), ``hands/2`` the
correction of hand 3, checked against the record before it.

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

With the record, a draft of the right shape that would not restore is refused too:

>>> record = {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}
>>> with_record = draft_check("jokers-kill", record, next_part=Part.HANDS)
>>> with_record("new", {"up": "5S", "buried": [], "cards": {"Ann": "KH"}, "tiebreaks": []})
>>> with_record("new", {"up": "XX", "buried": [], "cards": {}, "tiebreaks": []})
Traceback (most recent call last):
...
companion.drafts.DraftShapeError: a hand being entered (new) cannot be restored: 'XX' is not a card (write e.g. 10H, \
QS, AC or JK) in hand 1
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Mapping
from typing import (
    Any,
    NotRequired,  # pydantic reads typing_extensions TypedDicts on 3.11
)

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

from companion.entry import EntryState, EntryTarget
from scoring.parts import Part, UnknownPartError, entries, part_of_key, record_before
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

_ENTRY_STATE_OF = {
    "jokers-kill": ("companion.entry_jokers_kill", "JokersKillState"),
    "bargain-bin": ("companion.entry_bargain_bin", "BargainBinState"),
    "feast-and-famine": ("companion.entry_feast_and_famine", "FeastState"),
    "1111-9999": ("companion.entry_ones_to_nines", "OnesToNinesState"),
    "financial-crisis": ("companion.entry_financial_crisis", "FinancialCrisisState"),
}


class _EntryStates(dict[str, type[EntryState]]):
    """The entry states by game key, each imported when it is first asked for (with the game's modules: not at
    the app's start, which shows no game).

    >>> _EntryStates().get("jokers-kill").__name__, _EntryStates().get("snap")
    ('JokersKillState', None)
    """

    def __missing__(self, game: str) -> type[EntryState]:
        where = _ENTRY_STATE_OF.get(game)
        if where is None:
            raise KeyError(game)
        state: type[EntryState] = getattr(importlib.import_module(where[0]), where[1])
        self[game] = state
        return state

    def get(self, game: str, default: Any = None) -> Any:
        try:
            return self[game]
        except KeyError:
            return default


ENTRY_STATES: Mapping[str, type[EntryState]] = _EntryStates()
"""The :class:`~companion.entry.EntryState` of each game (by its key): what its entry panel restores a draft with."""

DraftCheck = Callable[[str, dict[str, Any]], None]

SETTING_PREFIX = "mode/"
"""Kept beside the drafts, a choice an entry screen keeps for the hands that follow (Feast and Famine's form,
``mode/feast-and-famine``): checked for its shape only, as it is for no hand in particular."""


def _bargain_bin_cards(draft: Mapping[str, Any]) -> None:
    """Every card played is a Bargain Bin card (``KH``, ``JK+``): its entry state replays the plays by their pad
    keys, which would take any text.

    >>> _bargain_bin_cards({"plays": [{"by": "Ann", "to": "Ben", "card": "ZZ"}]})
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: 'ZZ' is not a card (write e.g. 10H, QS, AC, or JK+ / JK- for the Joker)
    """
    from scoring.bargain_bin import BinCard  # with a Bargain Bin draft, not at start

    for play in draft.get("plays") or []:
        BinCard.parse(play["card"])


CARD_CHECKS: Mapping[str, Callable[[Mapping[str, Any]], None]] = {"bargain-bin": _bargain_bin_cards}
"""What a game's draft must also pass that its shape cannot say and its entry state does not check."""


def _problem(exc: ValidationError) -> str:
    missing = [".".join(str(part) for part in e["loc"]) for e in exc.errors() if e["type"] == "missing"]
    if missing:
        return "lacks " + ", ".join(f"'{name}'" for name in missing)
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "it"
    expected = first["type"].removesuffix("_type").removesuffix("_parsing")
    return f"has {where} of the wrong type (expected {expected})"


def draft_target(key: str, next_part: Part | None) -> EntryTarget | None:
    """The entry a draft is kept for, from its key (:attr:`companion.entry.EntryTarget.key`): ``new`` is the next
    entry of ``next_part`` (``None`` when the game asks for none: finished); ``<part>/<index>`` a correction.
    :class:`DraftShapeError` for a key that names no entry.

    >>> draft_target("new", Part.PLAYOFF), draft_target("hands/2", Part.HANDS), draft_target("new", None)
    (EntryTarget(part=<Part.PLAYOFF: 'playoff'>, index=None), EntryTarget(part=<Part.HANDS: 'hands'>, index=2), None)
    >>> draft_target("hands/x", Part.HANDS)
    Traceback (most recent call last):
    ...
    companion.drafts.DraftShapeError: a hand being entered is kept for 'hands/x', which names no hand of a game
    """
    if key == "new":
        return None if next_part is None else EntryTarget(next_part)
    part, _, index = key.partition("/")
    if index.isdigit() and len(index) <= 6:
        with contextlib.suppress(UnknownPartError):
            return EntryTarget(part_of_key(part), int(index))
    raise DraftShapeError(f"a hand being entered is kept for {key[:40]!r}, which names no hand of a game")


def draft_check(game: str, record: Mapping[str, Any] | None = None, *, next_part: Part | None = None) -> DraftCheck:
    """The check :meth:`storage.Archive.load_drafts` applies to each draft of a ``game`` session: raises
    :class:`DraftShapeError` (a :class:`ValueError`) naming what is wrong. A game without a known shape passes.

    With the session's ``record`` (and ``next_part``, the part whose entry the game asks for next, ``None`` when
    finished: see :func:`draft_target`), the draft must also restore through the game's
    :data:`ENTRY_STATES` ``from_draft``, as the entry panel does; whatever that raises (the game's
    :class:`ValueError`, or a :class:`TypeError`/:class:`KeyError`... from a value no screen writes) refuses it. A
    ``new`` draft of a finished game, which no panel opens, is checked for its shape only."""
    shape = SHAPES.get(game)
    state = ENTRY_STATES.get(game)

    def check(target: str, draft: dict[str, Any]) -> None:
        if shape is None:
            return
        try:
            shape.validate_python(draft, strict=True)
        except ValidationError as exc:
            raise DraftShapeError(f"a hand being entered ({target}) {_problem(exc)}") from None
        cards = CARD_CHECKS.get(game)
        if cards is not None:
            try:
                cards(draft)
            except ValueError as exc:
                raise DraftShapeError(f"a hand being entered ({target}) cannot be restored: {exc}"[:300]) from None
        if record is None or state is None or target.startswith(SETTING_PREFIX):
            return
        entry = draft_target(target, next_part)
        if entry is None:
            return
        if entry.index is not None and entry.index >= len(entries(record, entry.part)):
            raise DraftShapeError(
                f"a hand being entered ({target}) corrects {entry.label}, which the game does not have"
            )
        try:
            state.from_draft(record_before(record, entry.part, entry.index), entry, draft)
        except Exception as exc:  # any failure here would otherwise happen when the panel opens
            why = str(exc) or type(exc).__name__
            raise DraftShapeError(f"a hand being entered ({target}) cannot be restored: {why}"[:300]) from None

    return check


__all__ = ["CARD_CHECKS", "ENTRY_STATES", "SHAPES", "DraftShapeError", "draft_check", "draft_target"]
