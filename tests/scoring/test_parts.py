"""The one vocabulary of a game's parts (scoring.parts): names, routes, steps, and reading/writing entries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import scoring
from scoring import Part, Step, UnknownPartError, find_game, next_step
from scoring.parts import (
    entries,
    parse_entry_slug,
    part_for_step,
    part_of_key,
    part_of_slug,
    record_before,
    set_entries,
)
from tests.conftest import CASES

REPLAY = json.loads((CASES / "feast-and-famine" / "16-two-player-all-out-replay.json").read_text("utf-8"))["record"]
"""FF-E8: a 2-player game ends tied and both are Knocked Out in the tie-break: the round is replayed (FF-10)."""


def test_every_part_round_trips_through_key_slug_and_step() -> None:
    for part in Part:
        assert part_of_key(part.key) is part
        assert part_of_slug(part.slug) is part
        assert part_for_step(part.step) is part
        for index in (0, 4, 99):
            assert parse_entry_slug(part.entry_slug(index)) == (part, index)


def test_words_follow_each_games_rules() -> None:
    assert {game.key: game.hand_word for game in scoring.GAMES} == {
        "bargain-bin": "hand",
        "financial-crisis": "round",
        "feast-and-famine": "round",
        "1111-9999": "hand",
        "jokers-kill": "hand",
    }
    assert find_game("feast-and-famine").label(Part.HANDS, 0) == "round 1"
    assert find_game("feast-and-famine").word(Part.TIEBREAK) == "tie-break round"
    assert find_game("1111-9999").word(Part.SUDDEN_DEATH) == "sudden-death hand"


@pytest.mark.parametrize(
    ("call", "arg", "words"),
    [
        (part_of_key, "tiebreaks", "'tiebreaks' is not a part"),
        (part_of_key, 3, "3 is not a part"),
        (part_of_slug, "sudden_death", "'sudden_death' is not a part"),
        (parse_entry_slug, "hand-0", "'hand-0' is not an entry"),
        (parse_entry_slug, "round-2", "'round-2' is not an entry"),
        (part_for_step, Step.FINISHED, "the game is finished"),
    ],
)
def test_unknown_names_are_refused_with_a_clear_message(call: Any, arg: Any, words: str) -> None:
    with pytest.raises(UnknownPartError, match=words):
        call(arg)
    assert issubclass(UnknownPartError, ValueError)


def test_error_places_use_the_part_words() -> None:
    assert scoring.errors.where("playoff[1].cards.Ann") == " in play-off hand 2"
    assert scoring.errors.where("tiebreak[0].outcome") == " in tie-break round 1"


def test_the_step_of_a_pending_game_names_the_part_to_enter() -> None:
    pending = scoring.score(REPLAY)  # both Knocked Out, nobody else: the round is replayed (FF-10)
    assert part_for_step(next_step(pending)) is Part.TIEBREAK


def test_one_tiebreak_round_is_one_object_and_a_replay_makes_a_list() -> None:
    without = set_entries(REPLAY, Part.TIEBREAK, [])
    assert "tiebreak" not in without
    first = entries(REPLAY, Part.TIEBREAK)
    assert len(first) == 1
    again = set_entries(without, Part.TIEBREAK, first)
    assert again["tiebreak"] == REPLAY["tiebreak"]  # one round: one object, as records.md shows
    replay = {"ghost": None, "outcome": {"Ann": 5, "Ben": "out"}}
    two = set_entries(again, Part.TIEBREAK, [*first, replay])
    assert isinstance(two["tiebreak"], list) and len(two["tiebreak"]) == 2
    assert scoring.score(two).winners == ["Ann"]
    corrected = set_entries(two, Part.TIEBREAK, [first[0], {**replay, "outcome": {"Ann": "out", "Ben": 3}}])
    assert scoring.score(corrected).winners == ["Ben"]
    assert REPLAY["tiebreak"] == {"ghost": None, "outcome": {"Ann": "out", "Ben": "out"}}  # not changed in place


def test_record_before_a_hand_drops_the_extra_part_and_scores() -> None:
    before = record_before(REPLAY, Part.HANDS, 5)
    assert len(before["hands"]) == 5 and "tiebreak" not in before
    assert scoring.score(before).rounds_left == 1  # type: ignore[attr-defined]
    assert record_before(REPLAY, Part.TIEBREAK, 0) == {k: v for k, v in REPLAY.items() if k != "tiebreak"}
    assert record_before(REPLAY, Part.TIEBREAK, None) == REPLAY


entry = st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 9), max_size=2)


@given(st.sampled_from(list(Part)), st.lists(entry, max_size=4), st.sampled_from([None, "object", "list"]))
def test_set_then_read_gives_the_same_entries(part: Part, items: list[dict[str, int]], saved: str | None) -> None:
    record: dict[str, Any] = {"game": "x", "players": ["A"], "hands": []}
    if saved == "object" and part is not Part.HANDS:
        record[part.key] = {"old": 1}
    elif saved == "list":
        record[part.key] = [{"old": 1}]
    written = set_entries(record, part, items)
    assert entries(written, part) == items
    if part is Part.HANDS:
        assert isinstance(written["hands"], list)
    elif not items:
        assert part.key not in written
    elif len(items) > 1 or part is not Part.TIEBREAK or saved == "list":
        assert isinstance(written[part.key], list)
    else:
        assert written[part.key] == items[0]
    for index in range(len(items) + 1):
        before = record_before(written, part, index)
        assert entries(before, part) == items[:index]
