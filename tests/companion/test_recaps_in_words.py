"""The night's and the season's recaps in the table's language: Swedish and German words around the same figures
as the English (only the words, the day's name and the decimal mark change), and the recap image drawn in German
with the app's font, which has the letters å ä ö ü ß."""

from __future__ import annotations

import re

import pytest

from companion.i18n import Words
from companion.night_image import FONT_FILE, _font
from companion.seasons import recap_text as season_recap_text
from companion.services import AppServices

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def night_id(services: AppServices) -> str:
    night = services.nights.start("Friday", PLAYERS)
    for scores in ({"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2}, {"Ann": 1, "Ben": 9, "Cat": 3, "Dan": 0}):
        table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 10, "target": 1})
        table.add_hand({"scores": scores})
    services.nights.add_entry(night.id, "Cat", "split", "8", "pizza")
    return night.id


def figures(text: str) -> list[str]:
    """The numbers of a text, in order (a decimal mark of either kind splits a number alike)."""
    return re.findall(r"\d+", text)


WORDS = {
    "sv": ["Spel", "Vinster", "Vem betalar vem i kväll", "Pengar", "betalar", "Längsta segersvit", "vinster i rad"],
    "de": ["Partien", "Siege", "Wer zahlt wem heute Abend", "Geld", "zahlt", "Längste Siegesserie", "hintereinander"],
}


@pytest.mark.parametrize("code", ["sv", "de"])
def test_the_night_recap_in_swedish_and_german_has_the_english_figures(
    services: AppServices, night_id: str, code: str
) -> None:
    night = services.nights.get(night_id)
    english = services.nights.recap_text(night)
    said = services.nights.recap_text(night, Words.of(code))
    assert english == services.nights.recap_text(night, Words.of("en"))  # English is English, word for word
    assert "Who pays whom tonight" in english and "Longest streak" in english
    for word in WORDS[code]:
        assert word in said, (word, said)
    assert "Who pays whom" not in said and "Games" not in said
    assert figures(said) == figures(english)
    assert said.count("\n") == english.count("\n")  # the same facts, one a line


@pytest.mark.parametrize("code", ["sv", "de"])
def test_a_season_recap_in_swedish_and_german_has_the_english_figures(
    services: AppServices, night_id: str, code: str
) -> None:
    season = services.seasons.seasons.all()[0]
    standings = services.seasons.standings(season, "all")
    assert standings.games == 2
    english = season_recap_text(standings, services.nights.money)
    said = season_recap_text(standings, services.nights.money, Words.of(code))
    assert "Points by finishing place" in english and "Points by finishing place" not in said
    heading = {"sv": "Ställning", "de": "Tabelle"}[code]
    rule = {"sv": "Poäng efter placering", "de": "Punkte nach Platzierung"}[code]
    assert heading in said.splitlines() and rule in said
    assert figures(said) == figures(english)


def test_the_recap_image_draws_german_letters_with_the_apps_font(services: AppServices, night_id: str) -> None:
    from PIL import Image, ImageChops

    assert FONT_FILE.is_file()
    font = _font(30)

    def drawn(text: str) -> Image.Image:
        image = Image.new("L", (60, 60), 0)
        from PIL import ImageDraw

        ImageDraw.Draw(image).text((10, 10), text, font=font, fill=255)
        return image

    missing = drawn("\ue000")  # a private-use character no font has: the font's .notdef box
    for letter in "åäöüßÅÄÖÜ":
        assert ImageChops.difference(drawn(letter), missing).getbbox() is not None, f"{letter} is drawn as a box"
        assert drawn(letter).getbbox() is not None
    night = services.nights.get(night_id)
    german = services.nights.recap_png(night, words=Words.of("de"))
    english = services.nights.recap_png(night)
    assert german[:8] == b"\x89PNG\r\n\x1a\n" and german != english
