"""The registry, the top-level ``score``, and the command line's handling of bad input."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import threading

import pytest

from scoring import GAMES, InvalidRecordError, ScoringError, find_game, score
from tests.conftest import ROOT


def test_every_game_is_registered_with_a_schema() -> None:
    keys = [game.key for game in GAMES]
    assert keys == ["bargain-bin", "financial-crisis", "feast-and-famine", "1111-9999", "jokers-kill"]
    for game in GAMES:
        schema = game.schema()
        assert schema["type"] == "object" and "players" in schema["properties"], game.key


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(InvalidRecordError) as info:
        find_game("poker")
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


# --- bounds on numbers and names (issue 14) ----------------------------------------------------------------------

SEATS = {
    "bargain-bin": {"players": ["Ann", "Ben", "Cat", "Dan"]},
    "financial-crisis": {"players": ["Ann", "Ben"]},
    "feast-and-famine": {"players": ["Ann", "Ben"]},
    "1111-9999": {"players": ["Ann", "Ben"], "sides": {"Ann": "A", "Ben": "B"}},
    "jokers-kill": {"players": ["Ann", "Ben"]},
}

BOUNDS = [
    ("bargain-bin", "target", 1000),
    ("bargain-bin", "vegas_unit_cents", 100_000),
    ("financial-crisis", "rounds", 1000),
    ("feast-and-famine", "circuits", 100),
    ("1111-9999", "target", 1_000_000),
    ("1111-9999", "triple_penalty", 10_000),
    ("jokers-kill", "playoff_wins", 100),
]


@pytest.mark.parametrize(("game", "option", "limit"), BOUNDS)
def test_integer_options_have_a_sane_upper_bound(game: str, option: str, limit: int) -> None:
    def record(value: int) -> dict[str, object]:
        return {"game": game, **SEATS[game], "options": {option: value}}

    assert score(record(limit)).finished is False  # the limit itself is allowed
    for value in (limit + 1, 10**40, int("9" * 4299)):
        with pytest.raises(ScoringError) as info:
            score(record(value))
        assert info.value.message.startswith(f"'{option}' must be at most {limit}, not "), info.value.message
        assert info.value.path == f"options.{option}"
        assert len(info.value.message) < 120
    published = json.dumps(find_game(game).schema()["$defs"]["Options"]["properties"][option])
    assert f'"maximum": {limit}' in published  # the published schema says so too


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\r", "\x7f", "\x85", "\u202e", "\u2066", "\u200f", "\u061c"])
@pytest.mark.parametrize("game", list(SEATS))
def test_names_with_control_or_bidi_characters_are_refused(game: str, char: str) -> None:
    players = list(SEATS[game]["players"])  # type: ignore[call-overload]
    players[1] = f"B{char}en"
    raw = {"game": game, **SEATS[game], "players": players}
    with pytest.raises(InvalidRecordError) as info:
        score(raw)
    message = info.value.message
    assert message.startswith("player 2's name 'B\\") and f"(U+{ord(char):04X})" in message
    assert message.isprintable()


def test_plain_names_from_many_scripts_are_accepted() -> None:
    names = ["Zoë", "Łukasz", "مريم", "李雷", "Ana María"]
    result = score({"game": "jokers-kill", "players": names})
    assert result.players == names


def test_cli_refuses_a_number_too_long_to_read() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input='{"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {"playoff_wins": ' + "9" * 5000 + "}}",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    message = json.loads(proc.stdout)["error"]["message"]
    assert message == "the standard input holds a number too long to be part of a game record"
