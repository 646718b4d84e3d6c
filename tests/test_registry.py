"""The registry, the top-level ``score``, and the command line's handling of bad input."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import threading

import pytest

from scoring import InvalidRecordError, ScoringError, all_games, get_game, score
from tests.conftest import ROOT


def test_every_game_is_registered_with_a_schema() -> None:
    keys = [game.key for game in all_games()]
    assert keys == ["bargain-bin", "financial-crisis", "feast-and-famine", "1111-9999", "jokers-kill"]
    for game in all_games():
        schema = game.schema()
        assert schema["type"] == "object" and "players" in schema["properties"], game.key


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(InvalidRecordError) as info:
        get_game("poker")
    assert "jokers-kill" in info.value.message and info.value.path == "game"


@pytest.mark.parametrize("enabled", [True, False])
def test_scoring_restores_the_garbage_collector(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        score({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": []})
        assert gc.isenabled() is enabled
        with pytest.raises(ScoringError):
            score({"game": "jokers-kill", "players": ["Ann", "Ann"]})
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_concurrent_scoring_leaves_the_collector_on() -> None:
    record = {
        "game": "jokers-kill",
        "players": ["Ann", "Ben"],
        "hands": [{"up": "5S", "cards": {"Ann": "2H", "Ben": "9C"}}],
    }
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(50):
                assert score(record).totals["Ann"] == 2
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert gc.isenabled()


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"players": ["A"]}', "'game' is missing"),
        ('{"game": "chess", "players": ["A"]}', "not a game"),
        ("[" * 100000, "nested too deeply"),
    ],
)
def test_cli_bad_input_is_one_error_object(stdin: str, words: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"], input=stdin, capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert words in error["message"]


def test_cli_missing_file_and_games_and_schema(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = [sys.executable, "-m", "scoring"]
    missing = subprocess.run([*run, "score", str(tmp_path / "nope.json")], capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "cannot read" in json.loads(missing.stdout)["error"]["message"]
    games = subprocess.run([*run, "games"], capture_output=True, text=True, cwd=ROOT)
    assert games.returncode == 0
    assert {g["key"]: (g["min_players"], g["max_players"]) for g in json.loads(games.stdout)}["bargain-bin"] == (4, 10)
    schema = subprocess.run([*run, "schema", "jokers-kill"], capture_output=True, text=True, cwd=ROOT)
    assert schema.returncode == 0 and "hands" in json.loads(schema.stdout)["properties"]
    bad = subprocess.run([*run, "schema", "chess"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "error" in json.loads(bad.stdout)
