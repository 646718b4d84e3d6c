"""The "why" as data and in three languages (issue 27's foundations).

- Over every conformance case, the structured notes (``why``, as ``python -m scoring score`` prints them) rendered in
  English are exactly the contract's ``notes``, and the verdict's ``headline``/``reasons`` likewise.
- The catalogues: every message of the template has a Swedish and a German translation, none empty, none fuzzy, with
  the English placeholders; the pseudo-language wraps every message; the compiled ``.mo`` files and the template
  are current with their sources; every note the cases produce is in the template.
- A hand of each game in Swedish and German: the words change, the numbers and the record do not.
- The language setting and ``companion --lang``.
"""

from __future__ import annotations

import json
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from pydantic import TypeAdapter

import scoring
from companion import i18n
from companion.settings import InvalidLanguageError, SettingsService
from scoring.standings import standings
from scoring.why import Items, Note, render, render_all
from tests.conftest import ROOT, case_files
from tools import extract_notes

LOCALES = ROOT / "companion" / "locales"
CASES = [path for path in case_files() if not json.loads(path.read_text(encoding="utf-8")).get("expect_error")]
NOTES = TypeAdapter(list[Note])


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _hand_lists(data: dict[str, Any]) -> list[dict[str, Any]]:
    hands = list(data.get("hands") or [])
    for key in ("playoff", "sudden_death_hands"):
        hands += data.get(key) or []
    return hands


# --- English: the contract's notes, rendered from the data --------------------------------------------------------


@pytest.mark.parametrize("case_file", CASES, ids=_ids)
def test_the_why_rendered_in_english_is_the_contracts_notes(case_file: Path) -> None:
    record = json.loads(case_file.read_text(encoding="utf-8"))["record"]
    data = scoring.score(record).to_json()
    checked = 0
    for hand in _hand_lists(data):
        # read back from the JSON, as a program reading `python -m scoring score` would
        assert render_all(NOTES.validate_python(hand["why"])) == hand["notes"]
        checked += len(hand["notes"])
    for notes, why in zip(data.get("tiebreak_notes") or [], data.get("tiebreak_why") or [], strict=True):
        assert render_all(NOTES.validate_python(why)) == notes
    if "why" in data:
        assert render_all(NOTES.validate_python(data["why"])) == data["notes"]
    verdict = data.get("verdict")
    if verdict is not None:
        assert render(Note.from_json(verdict["headline_why"])) == verdict["headline"]
        reasons = {name: render(Note.from_json(note)) for name, note in verdict["reasons_why"].items()}
        assert reasons == verdict["reasons"]
    assert checked or not data["hands"], "a case with hands has notes"
    for line in standings(scoring.score(record)):  # the standings' words too: place and play-off progress
        assert line.place_note is not None and render(line.place_note) == line.spoken_place
        assert (line.progress_note is None and line.progress is None) or render(line.progress_note) == line.progress


def test_the_command_line_prints_the_why_beside_the_notes() -> None:
    case = ROOT / "tests" / "cases" / "jokers-kill" / "01-seed-tiebreak-example.json"
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", str(case)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    hand = json.loads(proc.stdout)["hands"][0]
    first = hand["why"][0]
    assert first["text"] == "Up-card {up}; {dealt}."
    assert first["values"]["up"] == {"cards": ["5S"], "sep": " "}  # cards as records write them: language-neutral
    assert render_all(NOTES.validate_python(hand["why"])) == hand["notes"]
    assert hand["why"][1]["rulings"] == ["R4.3", "JK-4"]


# --- the catalogues ----------------------------------------------------------------------------------------------


def _catalogue(path: Path) -> Any:
    with path.open("rb") as handle:
        return read_po(handle)


def _fields(text: str) -> list[tuple[str | None, str | None]]:
    return sorted((name, spec) for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def _key(message_id: Any) -> str:
    """A message's id; a plural's by its singular (the plural is checked beside it)."""
    return str(message_id if isinstance(message_id, str) else message_id[0])


def _forms(value: Any) -> list[str]:
    """A message's text, or each form of a plural's."""
    return [str(value)] if isinstance(value, str) else [str(form) for form in value]


TEMPLATE = _catalogue(LOCALES / "messages.pot")
MESSAGES = [_key(message.id) for message in TEMPLATE if message.id]
IDS = {_key(message.id): _forms(message.id) for message in TEMPLATE if message.id}
"""Every message's English forms (one, or a plural's singular and plural)."""


def test_the_template_holds_every_note_text_of_the_code() -> None:
    found = set(extract_notes.EXTRA)
    for path in sorted((ROOT / "scoring").glob("*.py")):
        with path.open("rb") as handle:
            found |= {message for _, _, message, _ in extract_notes.extract(handle, [], [], {})}
    assert found <= set(MESSAGES), "run `make catalogues`"


def test_the_template_holds_every_message_marked_in_the_code() -> None:
    """What ``make catalogues`` extracts (babel.cfg: scoring's notes, and the marks in views, companion and app)
    is the template, message for message."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = {_key(message) for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map) if message}
    assert found == set(MESSAGES), "run `make catalogues`"


def _texts(note: Note) -> set[str]:
    out = {note.text}
    for value in note.values.values():
        if isinstance(value, Note):
            out |= _texts(value)
        elif isinstance(value, Items):
            for item in value.items:
                out |= _texts(item)
    return out


def test_every_note_the_cases_produce_is_in_the_template() -> None:
    seen: set[str] = set()
    verdicts: set[str] = set()
    for case_file in CASES:
        result = scoring.score(json.loads(case_file.read_text(encoding="utf-8"))["record"])
        for hand in _hand_lists({"hands": result.hands, "playoff": getattr(result, "playoff", None) or []}):
            for note in hand.why:
                seen |= _texts(note)
        verdict = getattr(result, "verdict", None)
        if verdict is not None:  # the banner and each winner's reason: said in the table's language too
            for note in [verdict.headline_why, *verdict.reasons_why.values()]:
                verdicts |= _texts(note)
    seen |= verdicts
    assert len(seen) > 100 and len(verdicts) > 10
    assert seen - {""} <= set(MESSAGES), sorted(seen - {""} - set(MESSAGES))


@pytest.mark.parametrize("code", ["sv", "de"])
def test_every_message_is_translated_none_fuzzy_placeholders_kept(code: str) -> None:
    catalogue = _catalogue(LOCALES / code / "LC_MESSAGES" / "messages.po")
    assert not catalogue.fuzzy
    translated = {_key(message.id): message for message in catalogue if message.id}
    assert set(translated) == set(MESSAGES), "missing or obsolete messages: run `make catalogues`"
    for msgid in MESSAGES:
        message = translated[msgid]
        assert all(_forms(message.string)), f"{code}: no translation of {msgid!r}"
        assert not message.fuzzy, f"{code}: fuzzy translation of {msgid!r}"
        english = {field for form in IDS[msgid] for field in _fields(form)}
        for form in _forms(message.string):
            assert set(_fields(form)) <= english, f"{code}: placeholders differ in {msgid!r}"
        assert english == {field for form in _forms(message.string) for field in _fields(form)}, msgid


def test_the_pseudo_language_wraps_every_message_and_is_longer() -> None:
    catalogue = _catalogue(LOCALES / "en_XA" / "LC_MESSAGES" / "messages.po")
    translated = {_key(message.id): message for message in catalogue if message.id}
    assert set(translated) == set(MESSAGES)
    for msgid, message in translated.items():
        for english, text in zip(IDS[msgid], _forms(message.string), strict=True):
            assert text.startswith("⟦") and text.endswith("⟧"), text
            assert len(text) - 2 >= 1.3 * len(english), text
            assert _fields(text) == _fields(english)


@pytest.mark.parametrize("code", ["sv", "de", "en_XA"])
def test_the_compiled_catalogue_is_current(code: str) -> None:
    folder = LOCALES / code / "LC_MESSAGES"
    source = {_key(m.id): _forms(m.string) for m in _catalogue(folder / "messages.po") if m.id}
    with (folder / "messages.mo").open("rb") as handle:
        compiled = {_key(m.id): _forms(m.string) for m in read_mo(handle) if m.id}
    assert compiled == source, "run `make catalogues`"


# --- a hand of each game in Swedish and German --------------------------------------------------------------------

HANDS = {
    "bargain-bin": {
        "game": "bargain-bin",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": {"joker": True},
        "hands": [{"cards": {"Ann": ["KS", "QC", "JK+"], "Ben": ["5H"], "Cat": ["9S"], "Dan": ["2D"]}}],
    },
    "financial-crisis": {
        "game": "financial-crisis",
        "players": ["Ann", "Ben", "Cat"],
        "options": {"rounds": 1},
        "hands": [
            {
                "bank": ["KS", "4H", "AD", "7S", "2C"],
                "piles": {
                    "Ann": ["5C", "JC", "QH", "9S", "10D", "JD", "3S", "2H", "7H", "8H", "9H"],
                    "Ben": ["KC", "AH", "8S", "6D", "7D", "8D", "QS", "4S", "4D", "2S"],
                    "Cat": ["AC", "3C", "KD", "QD", "10S", "JS", "5H", "6H", "3D"],
                },
            }
        ],
    },
    "feast-and-famine": {
        "game": "feast-and-famine",
        "players": ["Ann", "Ben"],
        "options": {"circuits": 1},
        "hands": [
            {"dealer": "Ann", "cards": {"Ann": ["QH", "5S"], "Ben": ["9C"]}, "status": {"Ann": "frozen", "Ben": "out"}}
        ],
    },
    "1111-9999": {
        "game": "1111-9999",
        "players": ["Ann", "Ben", "Cat"],
        "sides": {"Ann": "A", "Ben": "A", "Cat": "B"},
        "hands": [{"table": "4239", "numbers": {"Ann": "7744", "Ben": "6339", "Cat": "7224"}}],
    },
    "jokers-kill": {
        "game": "jokers-kill",
        "players": ["Ann", "Ben", "Cat"],
        "hands": [
            {"up": "9S", "cards": {"Ann": "QH", "Ben": "QD", "Cat": "KC"}, "tiebreaks": [{"Ann": "3H", "Ben": "JD"}]}
        ],
    },
}
WORDS = {"sv": ("regel", "spelpoäng", "kort", "vinner", "omgång", "giv", "särspel", "rest"), "de": ("Regel", "Spiel")}


@pytest.mark.parametrize("game", sorted(HANDS))
@pytest.mark.parametrize("code", ["sv", "de"])
def test_a_hand_of_each_game_in_swedish_and_german(game: str, code: str) -> None:
    record = HANDS[game]
    english = scoring.score(record)
    said = i18n.result_in(english, code)
    notes = said["hands"][0]
    assert len(notes) == len(english.hands[0].notes)
    # every sentence with words in it is in the table's language, none is left in English
    for note, original in zip(notes, english.hands[0].notes, strict=True):
        if any(word in original for word in ("rule ", "(BB-", "(BK-", "(FF-", "(OO-", "(JK-")):
            assert note != original, f"{code}: left in English: {original}"
    if any("rule " in original for original in english.hands[0].notes):  # the citations are in the language too
        assert any("regel " in note.lower() for note in notes), notes
    # the numbers, the record and the English notes are the same whatever language is shown
    again = scoring.score(record)
    assert again.to_json() == english.to_json()
    assert [hand.points for hand in again.hands] == [hand.points for hand in english.hands]


def test_card_letters_in_the_tables_language_or_english_by_choice() -> None:
    result = scoring.score(HANDS["jokers-kill"])
    first = result.hands[0].why[0]
    assert render(first) == "Up-card 9♠; Ann Q♥, Ben Q♦, Cat K♣."
    assert i18n.render_in(first, "sv") == "Uppkort 9♠; Ann D♥, Ben D♦, Cat K♣."
    assert i18n.render_in(first, "de") == "Aufgedeckte Karte 9♠; Ann D♥, Ben D♦, Cat K♣."
    assert i18n.render_in(first, "sv", english_ranks=True) == "Uppkort 9♠; Ann Q♥, Ben Q♦, Cat K♣."
    tie = i18n.render_in(result.hands[0].why[-2], "sv")
    assert "Kn♦" in tie, tie  # Ben's J♦ in the tie-break, as a Swedish table says it


def test_places_and_progress_in_the_tables_language() -> None:
    hand = {"table": "4239", "numbers": {"Ann": "7744", "Ben": "6339", "Cat": "7224"}}
    record = {"game": "1111-9999", "players": ["Ann", "Ben", "Cat"], "sides": {"Ann": "A", "Ben": "A", "Cat": "B"}}
    lines = standings(scoring.score(record | {"hands": [hand]}))
    assert [i18n.render_in(line.place_note, "sv") for line in lines if line.place_note] == [
        "delad första",
        "delad första",
        "tredje",
    ]
    third = lines[2].place_note
    assert third is not None and i18n.render_in(third, "de") == "dritter"
    tied = scoring.score(record | {"hands": [hand, hand]})  # Ann reaches 7000; Ben and Cat tie on 4200
    progress = tied.part_progress()
    assert {name: i18n.render_in(part.note, "de") for name, part in progress.items()} == {
        "Ben": "im Sudden Death",
        "Cat": "im Sudden Death",
    }


def test_the_pseudo_language_wraps_every_note_of_a_game() -> None:
    result = scoring.score(HANDS["bargain-bin"])
    for note in i18n.result_in(result, i18n.PSEUDO)["hands"][0]:
        assert note.startswith("⟦") and note.endswith("⟧"), note


# --- the setting and the command line -----------------------------------------------------------------------------


def test_an_old_settings_file_without_a_language_follows_the_device(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"settings": {"1": {"theme": "dark"}}}), encoding="utf-8")
    service = SettingsService.open(tmp_path)
    settings = service.current()
    assert settings.theme.value == "dark" and settings.language == "system" and not settings.english_card_letters
    assert service.set_language("de_DE").language == "de"
    assert SettingsService.open(tmp_path).current().spoken == "de"
    with pytest.raises(InvalidLanguageError, match="'fr' is not a language"):
        service.set_language("fr")
    assert service.set_english_card_letters(True).english_card_letters


def test_a_damaged_language_value_falls_back_to_the_device(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"settings": {"1": {"language": 42}}}), encoding="utf-8")
    assert SettingsService.open(tmp_path).current().language == "system"


def test_the_device_language_falls_back_to_english() -> None:
    assert i18n.resolve("system", {"LANG": "sv_SE.UTF-8"}) == "sv"
    assert i18n.resolve("system", {"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.resolve("system", {}) == "en"


def test_companion_lang_refuses_a_language_it_does_not_speak(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import EXIT_USAGE, build_parser, run

    assert build_parser().parse_args(["--lang", "sv"]).lang == "sv"
    assert run(["--data-dir", str(tmp_path), "--no-browser", "--port", "18555", "--lang", "xx"]) == EXIT_USAGE
    assert "--lang: 'xx' is not a language of the app" in capsys.readouterr().err


def test_a_translated_note_reads_from_the_catalogue_file() -> None:
    # the .mo the package ships, loaded through gettext as Babel's Translations
    catalogue = i18n.translations("sv")
    assert catalogue.gettext("{first} and {last}") == "{first} och {last}"
    assert i18n.translations("de").gettext("no suit loses") == "keine Farbe verliert"
    assert i18n.translations("fr").gettext("no suit loses") == "no suit loses"  # no catalogue: English


def test_the_app_package_and_the_wheel_carry_the_compiled_catalogues() -> None:
    import tomllib
    from fnmatch import fnmatch

    from flet_cli.utils.app_excludes import find_default_excludes

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    explicit = ["build", *pyproject["tool"]["flet"]["app"]["exclude"]]
    excluded = set(explicit) | set(find_default_excludes(ROOT, [], explicit))
    compiled = sorted(LOCALES.glob("*/LC_MESSAGES/messages.mo"))
    assert {path.parent.parent.name for path in compiled} == {"sv", "de", "en_XA"}
    for path in compiled:  # `flet build` packs the app folder minus these: none of them is a catalogue's folder
        parts = path.relative_to(ROOT).parts
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        assert not any(fnmatch(prefix, pattern) for prefix in prefixes for pattern in excluded), path
    data = pyproject["tool"]["setuptools"]["package-data"]["companion"]
    assert any(fnmatch(str(path.relative_to(ROOT / "companion")), pattern) for path in compiled for pattern in data)
