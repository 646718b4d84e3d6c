"""Issue 23's smallest phone in the table's other languages (issue 27): at 360 × 640, with each game's largest table
(up to 10 players), served in German, in the pseudo-language ``en-XA`` (about 30% longer) and in Swedish, the entry
controls and the docked Confirm are on screen without scrolling, found by their labels in that language; a hand of
Jokers Kill and of 1111-9999 is entered whole, each tap where the control is (nothing scrolls it into view); and no
word of a button's label is wider than the button (a label cut mid-word). One server a language, every game in one
page. The German and Swedish tables are the README's screenshots (``docs/screenshots/phone-de-*.png`` and
``phone-sv-*.png`` with ``CTC_SCREENSHOTS=1``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Words
from companion.services import AppServices
from storage import Archive
from tests.support.browser import close_context, enable_semantics, find_free_port, new_context, screenshot
from tests.support.languages import LanguageServer
from views.widgets import card_label

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
TEN = ["Alexandria", "Bartholomew", "Christophe", "Dominique", "Evangeline"]
TEN += ["Fredericka", "Gwendolyn", "Hieronymus", "Isabella", "Jonas"]
LARGEST: dict[str, tuple[int, dict[str, Any]]] = {
    "jokers-kill": (10, {}),
    "bargain-bin": (10, {"target": 1000}),
    "feast-and-famine": (10, {"circuits": 1}),
    "financial-crisis": (9, {"max_players": 9, "rounds": 9}),
    "1111-9999": (8, {"target": 1_000_000}),
}
CONFIRM = {"feast-and-famine": "Confirm round", "financial-crisis": "Confirm round"}
SAMPLES = {  # German at every game; the pseudo-language at the two longest entry panels; Swedish for its screenshot
    "de": list(LARGEST),
    "en-XA": ["bargain-bin", "feast-and-famine"],
    "sv": ["jokers-kill"],
}
PICTURED = "jokers-kill"


@pytest.fixture
def tables(data_dir: Path) -> dict[str, str]:
    """Each game with its largest table, made before the app starts."""
    ids = {}
    with AppServices.open(data_dir) as services:
        for game, (players, options) in LARGEST.items():
            names = TEN[:players]
            extra = {"sides": {name: "AB"[i % 2] for i, name in enumerate(names)}} if game == "1111-9999" else None
            ids[game] = services.sessions.start(game, names, options, extra=extra).id
    return ids


@pytest.fixture
def speaking(
    request: pytest.FixtureRequest, tables: dict[str, str], data_dir: Path, tmp_path: Path
) -> Iterator[LanguageServer]:
    """The app in the test's language, on the data folder of :func:`tables`."""
    server = LanguageServer(find_free_port(), data_dir, tmp_path, request.param)
    server.start()
    try:
        yield server
    finally:
        server.stop()


GO = """(path) => { history.pushState(null, '', path); window.dispatchEvent(new PopStateEvent('popstate')); }"""
"""JavaScript: open ``path`` inside the app, without loading the page again."""

BOX = """([name, prefix, any]) => {
    for (const e of document.querySelectorAll('flt-semantics[role=button]')) {
        const label = (e.getAttribute('aria-label') || e.textContent || '').trim();
        if (prefix ? !label.startsWith(name) : label !== name) continue;
        if (!any && e.getAttribute('aria-disabled') === 'true') continue;
        const r = e.getBoundingClientRect();
        if (r.width && r.height) return {x: r.x, y: r.y, width: r.width, height: r.height};
    }
    return null;
}"""
"""JavaScript: the box of the enabled button (or, with ``any``, of any button) labelled ``name`` (or starting with
it), ``null`` while there is none."""

STATE = """() => [...document.querySelectorAll('flt-semantics')].map(e => (e.getAttribute('aria-label') || '')
    + '|' + e.textContent + '|' + e.getAttribute('aria-disabled')).join('\\n')"""
"""JavaScript: the page's labels, texts and greyed-out states: it changes when the app has taken a tap."""

CUT_WORDS = """() => {
    const g = document.createElement('canvas').getContext('2d');
    g.font = '14px "DejaVu Sans"';
    const cut = [];
    for (const e of document.querySelectorAll('flt-semantics[role=button]')) {
        const label = (e.textContent || '').trim();
        const r = e.getBoundingClientRect();
        if (!label || r.bottom <= 0 || r.top >= window.innerHeight || !r.width) continue;
        if (r.width < 64) continue;  // an icon button (its label is its tooltip) or a card's key
        for (const word of label.split(/\\s+/)) {
            if (g.measureText(word).width > r.width + 0.5) cut.push(`${label} (${word} in ${Math.round(r.width)} px)`);
        }
    }
    return cut;
}"""
"""JavaScript: the buttons on screen with a word of their text wider than the button at the labels' 14 px (not
the narrow icon buttons, which show no text: their label is their tooltip)."""


class SmallPhone:
    """Taps on the 360 × 640 page, each control found by its label and checked to be on screen, above the docked
    Confirm, first."""

    def __init__(self, page: Any, words: Words, game: str) -> None:
        self.page = page
        self.words = words
        self.confirm = words.gettext(CONFIRM.get(game, "Confirm hand"))
        self.dock = self.box(self.confirm, "Confirm", greyed=True)["y"]

    def box(self, name: str, what: str, *, prefix: bool = False, greyed: bool = False) -> dict[str, float]:
        """The box of the button labelled ``name`` (enabled, unless ``greyed`` allows either), asserted wholly on
        screen and 48 px high."""
        found = self.page.wait_for_function(BOX, arg=[name, prefix, greyed]).json_value()
        box = {key: float(found[key]) for key in ("x", "y", "width", "height")}
        at = f"{what} ({name!r}) at 360×640: {box}"
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= SMALL["width"] + 0.5, f"cut off sideways: {at}"
        assert box["y"] >= -0.5 and box["y"] + box["height"] <= SMALL["height"] + 0.5, f"off screen: {at}"
        assert box["height"] >= 47.5, f"a tap target under 48 px: {at}"
        return box

    def visible(self, name: str, what: str, *, prefix: bool = False) -> dict[str, float]:
        box = self.box(name, what, prefix=prefix)
        assert box["y"] + box["height"] <= self.dock + 0.5, f"{what} ({name!r}) is under the docked bar: {box}"
        return box

    def tap(self, name: str, what: str, *, docked: bool = False) -> None:
        box = self.box(name, what) if docked else self.visible(name, what)
        before = self.page.evaluate(STATE)
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.wait_for_function(f"(before) => ({STATE})() !== before", arg=before)

    def card(self, code: str) -> str:
        return card_label(self.words, code)


def jokers_kill(phone: SmallPhone, names: list[str]) -> None:
    """The whole hand: the up-card and one card each, all spades, no tie."""
    phone.visible(phone.card("KC"), "the grid's last card")
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for rank in ranks[: len(names) + 1]:
        phone.tap(phone.card(f"{rank}S"), "a card")
    phone.tap(phone.confirm, "Confirm", docked=True)


def ones_to_nines(phone: SmallPhone, names: list[str]) -> None:
    """The whole hand: the table row, then each number, one tap a digit (the deck's four of each digit)."""
    for number in ["5555", "1234", "1236", "1247", "1348", "2679", "3689", "9786", "9847"][: len(names) + 1]:
        for digit in number:
            phone.tap(digit, f"digit {digit}")
    phone.tap(phone.confirm, "Confirm", docked=True)


def bargain_bin(phone: SmallPhone, names: list[str]) -> None:
    """Live play: the first and the last receiver, then a card to the first (its value key) are on screen."""
    to = phone.words.gettext("To {name} ({points})")
    phone.visible(to.format(name=names[-1], points="").split("(")[0], "the last receiver", prefix=True)
    phone.tap(phone.page.evaluate(BOX_LABEL, to.format(name=names[0], points="").split("(")[0]), "the first receiver")
    phone.visible(phone.words.gettext("Quick totals"), "Quick totals")


BOX_LABEL = """(start) => [...document.querySelectorAll('flt-semantics[role=button]')]
    .map(e => (e.getAttribute('aria-label') || e.textContent || '').trim()).find(l => l.startsWith(start))"""
"""JavaScript: the whole label of the first button whose label starts with ``start``."""


def feast_and_famine(phone: SmallPhone, names: list[str]) -> None:
    """The opening deal: the last dealer's button, the dealer tapped, then the grid's first and last keys."""
    dealer = phone.words.gettext("Dealer")
    phone.visible(f"{dealer}: {names[-1]}", "the last dealer's button")
    phone.tap(f"{dealer}: {names[0]}", "the dealer")
    phone.visible(phone.card("AS"), "the grid's first card")
    phone.visible(phone.words.gettext("Joker"), "the grid's last key")


def financial_crisis(phone: SmallPhone, names: list[str]) -> None:
    """The picker: its first and last cards."""
    phone.visible(phone.card("AS"), "the picker's first card")
    phone.visible(phone.card("2C"), "the picker's last card")


ENTER = {
    "jokers-kill": jokers_kill,
    "1111-9999": ones_to_nines,
    "bargain-bin": bargain_bin,
    "feast-and-famine": feast_and_famine,
    "financial-crisis": financial_crisis,
}


def hands_saved(data_dir: Path, session_id: str) -> int:
    with Archive(data_dir, read_only=True) as archive:
        return len(archive.load_session(session_id).record.get("hands") or [])


def wait_saved(data_dir: Path, session_id: str) -> None:
    deadline = time.monotonic() + 15
    while hands_saved(data_dir, session_id) < 1:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the hand of {session_id} was not saved")
        time.sleep(0.2)


@pytest.mark.parametrize("speaking", list(SAMPLES), indirect=True)
def test_the_smallest_phone_holds_the_largest_table_in_each_language(
    speaking: LanguageServer, tables: dict[str, str], browser: Any, data_dir: Path
) -> None:
    lang = speaking.lang
    words = Words.of(lang)
    context = new_context(browser, SMALL, timeout_ms=20_000)
    page = context.new_page()
    try:
        page.goto(speaking.url + f"/continue/{tables[SAMPLES[lang][0]]}")
        enable_semantics(page)
        for i, game in enumerate(SAMPLES[lang]):
            if i:
                before = page.evaluate(STATE)
                page.evaluate(GO, f"/continue/{tables[game]}")
                page.wait_for_function(f"(before) => ({STATE})() !== before", arg=before)
                page.wait_for_timeout(800)  # the rest of the screen
            names = TEN[: LARGEST[game][0]]
            phone = SmallPhone(page, words, game)
            cut = page.evaluate(CUT_WORDS)
            assert cut == [], f"{game} in {lang}: a button's word is cut: {cut}"
            ENTER[game](phone, names)
            if game in ("jokers-kill", "1111-9999"):
                wait_saved(data_dir, tables[game])
            if game == PICTURED and lang in ("de", "sv"):
                screenshot(page, f"phone-{lang}-{game}")
            assert page.evaluate(CUT_WORDS) == [], f"{game} in {lang}, after the taps: a button's word is cut"
    finally:
        close_context(context)
