"""Game records and tables that tests of several layers start from (the conformance cases, or hands built here)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.session import TableSession
from scoring import score
from storage import LogEntry, SessionDoc, SessionStatus
from storage.archive import SESSION_TABLE, SESSIONS
from storage.atomic import atomic_write_json
from tests.conftest import CASES


def json_places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place inside a JSON-like value, as a path of keys and indexes, with what is there: ``()`` (the value
    itself) first, then each member's places in order."""
    out: list[tuple[tuple[Any, ...], Any]] = [(path, data)]
    if isinstance(data, dict):
        for key, value in data.items():
            out += json_places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += json_places(value, (*path, index))
    return out


def json_paths(data: Any) -> list[tuple[Any, ...]]:
    """The paths of :func:`json_places`."""
    return [path for path, _ in json_places(data)]


def hal_and_ivy() -> dict[str, Any]:
    """Bargain Bin: Ivy reaches 10 while Hal has the next-highest total, 7 (rule 7)."""
    hal = {"scores": {"Fay": -5, "Gus": 0, "Hal": 10, "Ivy": 20}}
    gus = {"scores": {"Fay": -5, "Gus": 10, "Hal": 0, "Ivy": 20}}
    return {"game": "bargain-bin", "players": ["Fay", "Gus", "Hal", "Ivy"], "hands": [gus] * 3 + [hal] * 7}


def cancelled_by_removals() -> dict[str, Any]:
    """Bargain Bin: Ben and Dan are removed in the second hand, two removals in a game of four cancel it (BB-14):
    nobody wins; the totals are Ann 2, Ben 1, Cat 1, Dan 0."""
    conduct = [{"player": "Ben", "action": "remove"}, {"player": "Dan", "action": "remove"}]
    return {
        "game": "bargain-bin",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "hands": [
            {"scores": {"Ann": 3, "Ben": 9, "Cat": 1, "Dan": 0}},
            {"scores": {"Ann": 3, "Cat": 1}, "conduct": conduct},
        ],
    }


def quin_after_all_out(tiebreak: dict[str, Any] | None = None) -> dict[str, Any]:
    """Feast and Famine (FF-E6 d): Ann and Ben tie on 85, both are Knocked Out in the tie-break; Quin has 60."""
    out = {"Ann": "out", "Ben": "out", "Quin": "out", "Dan": "out"}
    record: dict[str, Any] = {
        "game": "feast-and-famine",
        "players": ["Ann", "Ben", "Quin", "Dan"],
        "options": {"circuits": 1},
        "hands": [
            {"dealer": "Ann", "outcome": {"Ann": 40, "Ben": 40, "Quin": 30, "Dan": 20}},
            {"dealer": "Ben", "outcome": {"Ann": 45, "Ben": 45, "Quin": 30, "Dan": 21}},
            {"dealer": "Quin", "outcome": out},
            {"dealer": "Dan", "outcome": out},
        ],
    }
    if tiebreak is not None:
        record["tiebreak"] = tiebreak
    return record


PLAYOFF = "14-playoff-first-to-three.json"  # Ben 1, Cat 2, Ann 3 (Ben and Cat tied on 12; Ben won the play-off)


TIE = "15-deck-used-up.json"  # Ann 1, Ben 2, Cat 2 (Ben and Cat share second place)


PLAIN = "16-deck-used-up-after-tiebreak.json"  # Ann 1, Cat 2, Ben 3


def case_record(name: str, seats: Sequence[str] = ("Ann", "Ben", "Cat")) -> dict[str, Any]:
    """A Jokers Kill case with Ann, Ben and Cat played by ``seats`` (the same places, other people)."""
    text = json.dumps(json.loads((CASES / "jokers-kill" / name).read_text())["record"])
    for old, new in zip(('"Ann"', '"Ben"', '"Cat"'), seats, strict=True):
        text = text.replace(old, f'"\x00{new}"')
    record: dict[str, Any] = json.loads(text.replace("\x00", ""))
    return record


TIED_HAND = {"up": "8S", "cards": {"Ann": "8H", "Ben": "8D", "Cat": "2C"}, "tiebreaks": [{"Ann": "QH", "Ben": "3D"}]}
"""The hand with a tie-break that opens the game of :func:`end_of_main_game`."""


def end_of_main_game(table: TableSession) -> None:
    """Hands that end the main game with Ann and Ben tied (the app's browser test plays the same game)."""
    hands = [
        ("9S", "4H", "7D", "QC"),
        ("9H", "7C", "4D", "QD"),
        ("10S", "10H", "5C", "KC"),
        ("6S", "2S", "9D", "JD"),
        ("6H", "9C", "2H", "JC"),
        ("KS", "AS", "QS", "10D"),
        ("7S", "10C", "7H", "AH"),
        ("3S", "5S", "6D", "AD"),
        ("4S", "6C", "5H", "AC"),
        ("8C", "JS", "JH", "3H"),
        ("2D", "3C", "4C", "5D"),
    ]
    table.add_hand(TIED_HAND)
    for up, ann, ben, cat in hands:
        table.add_hand({"up": up, "cards": {"Ann": ann, "Ben": ben, "Cat": cat}})


PLAYERS = ["Ann", "Ben", "Cat"]


HAND_ANN = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
"""Jokers Kill: Ann's 4 is the lowest under the 9 → Ann +2."""


HAND_BEN = {"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}}
"""Ben pairs the up-card 8 → Ben +3."""


def write_session(folder: Path, record: dict[str, Any], ended: str, session_id: str | None = None) -> str:
    """Write a scored session straight into the archive's layout, ended at ``ended`` (as a game of that time)."""
    result = score(record)
    status = SessionStatus.of(result)
    doc = SessionDoc.new(record, status=status, winners=list(result.winners), session_id=session_id)
    doc = doc.model_copy(
        update={"created_at": ended, "updated_at": ended, "log": [LogEntry(at=ended, action="session started")]}
    )
    (folder / SESSIONS).mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / SESSIONS / f"{doc.id}.json", {SESSION_TABLE: {"1": doc.to_stored()}}, durable=False)
    return doc.id
