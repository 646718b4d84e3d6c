"""One descriptor per game and layer: scoring's ``GAME`` (:data:`scoring.GAMES`), the companion's ``ENTRY``
(:data:`companion.games.ENTRIES`) and the table's ``PANEL`` (:data:`views.table.games.PANELS`) name the same games,
each exactly once, and agree on what they both say."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from companion.entry import EntryTarget
from companion.games import ENTRIES, UnknownGameError, find_entry, get_guide
from scoring import GAMES, InvalidRecordError, find_game
from scoring import UnknownGameError as UnknownScoringGameError
from tests.conftest import CASES
from views.table.games import PANELS, find_panel

KEYS = [game.key for game in GAMES]


def empty_record(key: str) -> dict[str, Any]:
    """The record of the game's first conformance case with its hands taken out (players, sides, options kept)."""
    case = sorted((CASES / key).glob("*.json"))[0]
    record: dict[str, Any] = json.loads(case.read_text("utf-8"))["record"]
    return {name: value for name, value in record.items() if name != "hands"}


def test_every_game_has_one_descriptor_in_each_layer_and_no_other_layer_has_more() -> None:
    for keys in ([entry.key for entry in ENTRIES], [panel.key for panel in PANELS]):
        assert Counter(keys) == Counter(KEYS)
        assert keys == KEYS  # listed in the same order as scoring's list
    assert len(set(KEYS)) == len(KEYS) == 5


@pytest.mark.parametrize("key", KEYS)
def test_the_lookups_find_each_games_own_descriptor(key: str) -> None:
    assert find_game(key).key == find_entry(key).key == key
    panel = find_panel(key)
    assert panel is not None and panel.key == key
    assert get_guide(key) is find_entry(key).guide


@pytest.mark.parametrize("key", KEYS)
def test_the_layers_agree_on_names_and_parts(key: str) -> None:
    game, entry, panel = find_game(key), find_entry(key), find_panel(key)
    assert panel is not None
    assert entry.guide.key == key and entry.guide.name == game.name
    assert panel.parts == game.parts[1:]  # the panel enters the extra part the game's record has, and no other
    assert game.hand_word in {"hand", "round"}


def test_each_game_cites_its_own_ruling_prefix() -> None:
    prefixes = [game.ruling_prefix for game in GAMES]
    assert len(set(prefixes)) == len(prefixes)
    for game in GAMES:
        result = game.score(empty_record(game.key))
        assert game.ruling_prefix == type(result).RULING_PREFIX, game.key


@pytest.mark.parametrize("key", KEYS)
def test_a_fresh_draft_has_the_shape_its_game_declares(key: str) -> None:
    entry = find_entry(key)
    draft = entry.state.start(empty_record(key), EntryTarget()).to_draft()
    entry.draft.validate_python(json.loads(json.dumps(draft)), strict=True)
    if entry.card_check is not None:
        entry.card_check(draft)


def test_an_unknown_key_is_refused_in_each_layer() -> None:
    with pytest.raises(UnknownScoringGameError) as info:
        find_game("poker")
    assert isinstance(info.value, InvalidRecordError) and info.value.path == "game"
    assert "jokers-kill" in info.value.message
    with pytest.raises(UnknownGameError, match="known games: bargain-bin"):
        find_entry("poker")
    assert find_panel("poker") is None


@pytest.mark.parametrize("key", KEYS)
def test_each_limit_a_game_declares_is_the_one_its_records_are_held_to(key: str) -> None:
    game = find_game(key)
    record = empty_record(key)
    for option, limit in game.limits.items():
        game.parse(record | {"options": {**record.get("options", {}), option: limit}})
        with pytest.raises(InvalidRecordError, match=f"^'{option}' must be .*{limit}"):
            game.parse(record | {"options": {**record.get("options", {}), option: limit + 1}})
