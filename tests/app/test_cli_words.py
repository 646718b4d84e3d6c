"""The command line in the table's language: ``companion --lang de`` prints its tables and messages in German, the
language chosen in Settings when there is no ``--lang``, and ``--json`` byte for byte what English prints."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from app.cli import run, run_command
from companion.services import AppServices

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with AppServices.open(folder) as services:
        for scores in ({"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2}, {"Ann": 1, "Ben": 9, "Cat": 3, "Dan": 0}):
            table = services.sessions.start("bargain-bin", PLAYERS, {"target": 1})
            table.add_hand({"scores": scores})
    return folder


def printed(*argv: str) -> tuple[int, str, str]:
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        code = run_command(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("command", "english", "german"),
    [
        (["seasons"], ["NAME", "FROM", "TO", "KIND", "calendar year"], ["NAME", "VON", "BIS", "ART", "Kalenderjahr"]),
        (["ratings"], ["Ratings · All games · 2 games rated", "provisional"], ["Wertungen · Alle", "vorläufig"]),
        (["list"], ["GAME", "PLAYERS", "finished"], ["PARTIE", "SPIELER", "beendet"]),
    ],
)
def test_plain_text_in_german_and_json_unchanged(
    data_dir: Path, command: list[str], english: list[str], german: list[str]
) -> None:
    code, en, _ = printed(*command, "--data-dir", str(data_dir))
    assert code == 0 and all(word in en for word in english), en
    code, de, _ = printed(*command, "--data-dir", str(data_dir), "--lang", "de")
    assert code == 0 and all(word in de for word in german), de
    assert not any(word in de for word in english if word not in german), de
    _, en_json, _ = printed(*command, "--data-dir", str(data_dir), "--json")
    _, de_json, _ = printed(*command, "--data-dir", str(data_dir), "--json", "--lang", "de")
    assert de_json == en_json and en_json.lstrip().startswith(("[", "{"))


def test_lang_before_the_command_and_the_saved_language(data_dir: Path) -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert run(["--lang", "sv", "seasons", "--data-dir", str(data_dir)]) == 0
    assert "kalenderår" in out.getvalue()
    with AppServices.open(data_dir) as services:
        services.settings.set_language("de")
    code, said, _ = printed("seasons", "--data-dir", str(data_dir))
    assert code == 0 and "Kalenderjahr" in said
    code, said, _ = printed("seasons", "--data-dir", str(data_dir), "--lang", "en")
    assert code == 0 and "calendar year" in said


def test_an_error_in_german_and_an_unknown_language_refused(data_dir: Path) -> None:
    code, _, err = printed("show", "zzzz", "--data-dir", str(data_dir), "--lang", "de")
    assert code == 1 and err.startswith("companion: Fehler: es gibt keine gespeicherte Sitzung 'zzzz'"), err
    code, _, err = printed("seasons", "--data-dir", str(data_dir), "--lang", "xx")
    assert code == 2 and "'xx' is not a language of the app" in err
