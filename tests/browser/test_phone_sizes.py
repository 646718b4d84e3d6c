"""Every game at its smallest table and its largest (up to 10 players) on four portrait phones, 360 × 640, 360 × 740,
390 × 844 and 412 × 915 (issue 23): at each size a whole hand is entered and confirmed without scrolling. Every
control tapped is found by its semantics label and tapped where it is (the mouse at its centre: nothing scrolls it
into view), after checking by its bounding box that it is wholly inside the viewport and, unless it is in the
docked bar, not under the docked bar; the hand's running state is checked the same way. Bargain Bin is entered in
live play (its value pad's last key on screen once a receiver is tapped, and the receivers beside it where the
screen is tall enough) and with the quick form. A correction of the first hand, from the table and from History,
is entered the same way on the smallest phone.

One page a game and table size: the viewport is resized between sizes (``page.set_viewport_size``), a new hand at
each. The game is made through the session service before the app starts (house rules that keep it going for the
hands entered here). With 10 players, the 360 px phone's screenshots are the README's
(``docs/screenshots/phone-10-<game>.png`` with ``CTC_SCREENSHOTS=1``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import AppServer, box_of, card_label, open_app, screenshot
from views.table.games.bargain_bin import LARGE_TABLE, TALL_SCREEN
from views.table.games.feast_and_famine import card_codes as ff_codes
from views.table.games.financial_crisis import card_codes as fc_codes

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

PHONES = [
    {"width": 360, "height": 640},
    {"width": 360, "height": 740},
    {"width": 390, "height": 844},
    {"width": 412, "height": 915},
]
TEN = [
    "Alexandria",
    "Bartholomew",  # 11 letters: at least its first 8 show
    "Christophe",
    "Dominique",
    "Evangeline",
    "Fredericka",
    "Gwendolyn",
    "Hieronymus",
    "Isabella",
    "Jonas",
]
FEW = ["Ann", "Ben", "Cat", "Dan"]
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("jokers-kill", 2, {}),
    ("jokers-kill", 10, {}),
    ("bargain-bin", 4, {"target": 1000}),
    ("bargain-bin", 10, {"target": 1000}),
    ("feast-and-famine", 2, {"circuits": 2}),
    ("feast-and-famine", 10, {"circuits": 1}),
    ("financial-crisis", 2, {"rounds": 4}),
    ("financial-crisis", 9, {"max_players": 9, "rounds": 9}),
    ("1111-9999", 2, {"target": 1_000_000}),
    ("1111-9999", 8, {"target": 1_000_000}),
]


def names_for(players: int) -> list[str]:
    return (FEW if players <= len(FEW) else TEN)[:players]


@pytest.fixture
def table(request: pytest.FixtureRequest, data_dir: Path) -> tuple[str, str, list[str]]:
    """The game of the test's parameters, made before the app starts: its key, its id and its players."""
    from companion.session import SessionService
    from storage import Archive

    game, players, options = request.param
    names = names_for(players)
    extra = {"sides": {name: "AB"[i % 2] for i, name in enumerate(names)}} if game == "1111-9999" else None
    with Archive(data_dir) as archive:
        session = SessionService(archive).start(game, names, options=options, extra=extra)
        return game, session.id, names


# --- what is on screen -------------------------------------------------------------------------------------------


class Phone:
    """Taps on a page at one viewport size, each checked against the viewport and the docked bar first."""

    def __init__(self, page: Any, size: dict[str, int], confirm: str) -> None:
        self.page = page
        self.size = size
        self.confirm = confirm
        self.taps = 0
        self._dock: float | None = None

    def where(self, locator: Any, what: str) -> dict[str, float]:
        """The box of ``locator``, asserted wholly inside the viewport."""
        box = box_of(locator.first)
        width, height = self.size["width"], self.size["height"]
        at = f"{what} at {self.size['width']}×{self.size['height']}: {box}"
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, f"cut off sideways: {at}"
        assert box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5, f"off screen: {at}"
        return box

    def dock_top(self) -> float:
        """The top of the docked bar (Confirm's row): it stays where it is at one size, so it is measured once."""
        if self._dock is None:
            self._dock = self.where(self.button(self.confirm), "Confirm")["y"]
        return self._dock

    def visible(self, locator: Any, what: str) -> dict[str, float]:
        """``locator`` is wholly on screen and above the docked bar."""
        box = self.where(locator, what)
        dock = self.dock_top()
        assert box["y"] + box["height"] <= dock + 0.5, f"{what} is under the docked bar (top {dock}): {box}"
        return box

    def key(self, locator: Any, what: str) -> dict[str, float]:
        """A key (a button) is wholly on screen, above the docked bar, and whole: a key partly under the docked bar
        has a box cut where the scrolling panel ends, just above the bar, shorter than a tap target."""
        box = self.visible(locator, what)
        assert box["height"] >= 47.5, f"{what} is cut by the panel's end, under the docked bar: {box}"
        return box

    def tap(self, locator: Any, what: str, *, docked: bool = False) -> None:
        """Tap ``locator`` where it is (no scrolling), once it is on screen (and above the docked bar)."""
        box = self.where(locator, what) if docked else self.visible(locator, what)
        self._click(box, what)

    def _click(self, box: dict[str, float], what: str) -> None:
        assert box["height"] >= 47.5, f"{what} is a tap target under 48 px: {box}"
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1

    def press(self, name: str, what: str, *, prefix: bool = False, docked: bool = False) -> None:
        """Tap the enabled button labelled ``name`` (or starting with it) where it is, and wait until the prompt
        has moved on. The button is found, measured and the prompt read in one call into the page (a hand of ten
        players is a hundred taps)."""
        found = self.page.wait_for_function(FIND, arg=[name, prefix]).json_value()
        box = {key: float(found[key]) for key in ("x", "y", "width", "height")}
        width, height = self.size["width"], self.size["height"]
        at = f"{what} at {width}×{height}: {box}"
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, f"cut off sideways: {at}"
        assert box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5, f"off screen: {at}"
        if not docked:
            dock = self.dock_top()
            assert box["y"] + box["height"] <= dock + 0.5, f"{what} is under the docked bar (top {dock}): {box}"
        self._click(box, what)
        self.page.wait_for_function(f"(before) => ({PROMPT})() !== before", arg=found["prompt"])

    def button(self, name: str, *, enabled: bool = False) -> Any:
        if enabled:
            return self.page.get_by_role("button", name=name, exact=True, disabled=False)
        return self.page.get_by_role("button", name=name, exact=True)

    def text(self, pattern: str) -> Any:
        return self.page.get_by_text(re.compile(pattern)).first

    def prompt(self) -> str:
        """What the panel says to do next (its ``Next: ...`` line)."""
        said: str = self.page.evaluate(PROMPT)
        return said

    def confirm_hand(self) -> None:
        self.tap(self.button(self.confirm, enabled=True), "Confirm, enabled", docked=True)


FIND = """([name, prefix]) => {
    for (const e of document.querySelectorAll('flt-semantics[role=button]')) {
        const label = (e.getAttribute('aria-label') || e.textContent || '').trim();
        if (prefix ? !label.startsWith(name) : label !== name) continue;
        if (e.getAttribute('aria-disabled') === 'true') continue;
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const prompt = [...document.querySelectorAll('flt-semantics')].filter(n => n.getAttribute('role') !== 'button'
            && !n.querySelector('flt-semantics') && n.textContent.trim().startsWith('Next: '))
            .map(n => n.textContent.trim()).join(' | ');
        return {x: r.x, y: r.y, width: r.width, height: r.height, prompt};
    }
    return null;
}"""
"""JavaScript: the box of the enabled button labelled ``name`` (or starting with it), and the prompt (as
:data:`PROMPT`), or ``null`` while there is none."""

PROMPT = """() => {
    const lines = [...document.querySelectorAll('flt-semantics')].filter(e => e.getAttribute('role') !== 'button'
        && !e.querySelector('flt-semantics') && e.textContent.trim().startsWith('Next: '));
    return lines.map(e => e.textContent.trim()).join(' | ');
}"""
"""JavaScript: the panel's ``Next: ...`` lines (not the buttons that start so: "Next: Ben's pile")."""


def hands_saved(server: AppServer, session_id: str, part: str = "hands") -> int:
    from storage import Archive

    with Archive(server.data_dir, read_only=True) as archive:
        return len(archive.load_session(session_id).record.get(part) or [])


def wait_saved(server: AppServer, session_id: str, count: int) -> None:
    deadline = time.monotonic() + 15
    while hands_saved(server, session_id) < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"hand {count} was not saved")
        time.sleep(0.1)


# --- one hand of each game -------------------------------------------------------------------------------------------


def jokers_kill_hand(phone: Phone, names: list[str], k: int) -> None:
    """The up-card and one card each, all of one suit (a new suit each hand) and of different ranks: no tie."""
    suit = "SHDC"[k]
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    cards = [f"{rank}{suit}" for rank in ranks[: len(names) + 1]]
    phone.key(phone.button(card_label("AS")), "the grid's first card")
    phone.key(phone.button(card_label("KC")), "the grid's last card")
    for code in cards:
        phone.press(card_label(code), card_label(code))
    if len(names) > 4:
        phone.visible(phone.text(r"^The hand: Up-card: "), "the hand entered")
    phone.confirm_hand()


BB_KEYS = [f"{rank}♠♣" for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
BB_KEYS += [f"{rank}♥♦" for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]


def bargain_bin_live(phone: Phone, names: list[str], k: int, *, whole: bool = True) -> None:
    """Every card of the hand (or, not ``whole``, a card from each player): card i goes to player i (round the
    table), its value the next key (two cards a key); the whole hand is confirmed."""
    live = phone.page.get_by_role("button", name="Live play", exact=True)
    if live.count():  # the quick form was used last
        phone.tap(live, "Live play")
    phone.text(r"^Next: .* plays: who gets the card\?$").wait_for()
    phone.key(phone.page.get_by_role("button", name=re.compile(rf"^To {names[-1]} \(")), "the last receiver")
    for i in range(5 * len(names) if whole else len(names)):
        to = names[i % len(names)]
        phone.press(f"To {to} (", f"To {to}", prefix=True)
        if i == 0:  # the whole pad is on screen; on a large table, beside the receivers from 830 px (TALL_SCREEN)
            phone.key(phone.button(BB_KEYS[-1]), "the pad's last key")
            last = phone.button(f"To {names[-1]} (0)")
            if phone.size["height"] >= TALL_SCREEN or len(names) < LARGE_TABLE:
                phone.key(last, "the last receiver, beside the pad")
            else:
                assert not last.count(), "the pad took the receivers' place"
        phone.press(BB_KEYS[i // 2], f"card {i + 1}: {BB_KEYS[i // 2]}")
    if whole:
        phone.text(r"^Next: Every card is played: confirm the hand$").wait_for()
        phone.confirm_hand()


def bargain_bin_quick(phone: Phone, names: list[str], k: int) -> None:
    """The quick form: every player's card points typed, then confirmed."""
    phone.tap(phone.button("Quick totals"), "Quick totals")
    phone.text(r"^Entered: ").wait_for()
    for i, name in enumerate(names):
        field = phone.page.get_by_label(f"{name}'s card points", exact=True)
        phone.visible(field, f"{name}'s card points")
        for attempt in range(3):  # typing while the app answers the previous field can be lost (a test is fast)
            field.fill(str(i - 2))
            try:
                phone.text(rf"^Entered: .*\b{re.escape(name)} {i - 2}(,|\.)").wait_for(timeout=3000)
                break
            except Exception:  # Playwright's TimeoutError
                if attempt == 2:
                    raise
    phone.visible(phone.text(r"^Entered: .*Ready: confirm the hand\.$"), "what is entered")
    phone.confirm_hand()


def feast_and_famine_hand(phone: Phone, names: list[str], k: int) -> None:
    """A walked round: the dealer (when the table chooses), an opening card each, then everyone Refuses."""
    phone.text(r"^(Next: Deal|Who deals\?)").wait_for()
    chooser = phone.page.get_by_role("button", name=re.compile(r"^Dealer: "))
    if chooser.count() > 1:
        phone.key(phone.button(f"Dealer: {names[-1]}"), "the last dealer's button")
        phone.press(f"Dealer: {names[0]}", "the dealer")
    cards = [code for code in ff_codes() if code != "JK"]
    for i in range(len(names)):
        phone.press(card_label(cards[i * 4 + k % 4]), f"opening card {i + 1}")
    phone.key(phone.button("Joker"), "the grid's last key")
    phone.visible(phone.text(r"^To play: |· to play$"), "the line of the player to play")
    for i in range(len(names)):
        phone.press("Refuse", f"Refuse {i + 1}", docked=True)
    phone.confirm_hand()


def financial_crisis_hand(phone: Phone, names: list[str], k: int) -> None:
    """The bank's five cards, then two cards a pile, "Next pile" between the piles."""
    cards = fc_codes()[k * 2 :]
    phone.key(phone.button(card_label(fc_codes()[-1])), "the grid's last card")
    for code in cards[:5]:
        phone.press(card_label(code), card_label(code))
    for i in range(len(names)):
        for code in cards[5 + 2 * i : 7 + 2 * i]:
            phone.press(card_label(code), card_label(code))
        if i < len(names) - 1:
            phone.press(f"Next: {names[i + 1]}'s pile", "Next pile", docked=True)
    phone.confirm_hand()


ONES_TO_NINES = {
    # The deck is four of each digit (rule 1); the table row and eight numbers use all 36.
    2: ("4239", ["2875", "8631"]),
    8: ("5555", ["1234", "1236", "1247", "1348", "2679", "3689", "9786", "9847"]),
}


def ones_to_nines_hand(phone: Phone, names: list[str], k: int) -> None:
    """The table row, then each number, one tap a digit."""
    row, numbers = ONES_TO_NINES[len(names)]
    typed = 0
    for number in [row, *numbers]:
        for digit in number:
            phone.tap(phone.button(digit, enabled=True), f"digit {digit}")
            typed += 1
            phone.page.wait_for_function(LEFT_IN_DECK, arg=36 - typed)
            if typed == 1:  # the keys that mend a hand are on screen while it is typed, as the digits are, whole
                for key in ("Delete digit", "Clear hand"):
                    phone.key(phone.button(key), key)
    phone.text(r"^Next: Every number is in: check and confirm$").wait_for()
    phone.confirm_hand()


LEFT_IN_DECK = """(left) => [...document.querySelectorAll('flt-semantics')].some(e => {
    const text = e.textContent.trim();
    if (!text.startsWith('Left in the deck: ')) return false;
    const counts = [...text.matchAll(/\\d×(\\d+)/g)].map(m => Number(m[1]));
    return counts.reduce((a, b) => a + b, 0) === left;
})"""
"""JavaScript: the deck's count says ``left`` digits (the app has taken the digit tapped)."""


HANDS = {
    "jokers-kill": ("Confirm hand", jokers_kill_hand),
    "bargain-bin": ("Confirm hand", bargain_bin_live),
    "feast-and-famine": ("Confirm round", feast_and_famine_hand),
    "financial-crisis": ("Confirm round", financial_crisis_hand),
    "1111-9999": ("Confirm hand", ones_to_nines_hand),
}


def strip_names(phone: Phone, names: list[str]) -> None:
    """Each player's line of the standings strip is on screen, and its name is not cut (at 360 px, 10 players)."""
    widths = phone.page.evaluate(NAME_WIDTHS, names)
    for name in names:
        line = phone.page.get_by_text(re.compile(rf"^\d+\. {re.escape(name)}: -?\d+ points?\b")).first
        box = phone.where(line, f"{name}'s standing")
        room = box["width"] - 8 - 20 - 4 * 2 - 36  # its padding, the place, the gaps, a 4-digit total
        shown = min(len(name), 10)
        assert widths[name][shown - 1] <= room, f"{name}'s first {shown} letters need {widths[name]} in {room} px"


NAME_WIDTHS = """(names) => {
    const g = document.createElement('canvas').getContext('2d');
    g.font = '12px "DejaVu Sans"';
    return Object.fromEntries(names.map(n => [n, [...n].map((_, i) => g.measureText(n.slice(0, i + 1)).width)]));
}"""
"""JavaScript: the width of each name's first 1, 2, ... letters in the strip's font."""


@pytest.mark.parametrize("table", TABLES, indirect=True, ids=[f"{g}-{n}" for g, n, _ in TABLES])
def test_a_hand_at_every_phone_size(table: tuple[str, str, list[str]], page: Any, app_server: AppServer) -> None:
    game, session_id, names = table
    confirm, enter = HANDS[game]
    page.set_viewport_size(PHONES[0])
    open_app(page, app_server, f"/continue/{session_id}")
    page.get_by_role("button", name=confirm, exact=True).wait_for()
    for k, size in enumerate(PHONES):
        page.set_viewport_size(size)
        page.wait_for_timeout(400)  # the page lays itself out again
        phone = Phone(page, size, confirm)
        phone.text(r"^(Next: |Who deals\?|Entered: )").wait_for()
        if size["width"] == 360:
            strip_names(phone, names)
        if k == 0 and len(names) >= 8:
            screenshot(page, f"phone-{len(names)}-{game}")
        if game != "bargain-bin":
            enter(phone, names, k)
            wait_saved(app_server, session_id, k + 1)
            continue
        # Bargain Bin: a whole hand in live play on the smallest phone (100 taps with 10 players), a table round
        # of it at the other sizes; and a hand by the quick form at every size
        bargain_bin_live(phone, names, k, whole=k == 0)
        if k == 0:
            wait_saved(app_server, session_id, 1)
        bargain_bin_quick(phone, names, k)
        wait_saved(app_server, session_id, k + 2)
    correct_first_hand(page, app_server, game, session_id, confirm)


def correct_first_hand(page: Any, server: AppServer, game: str, session_id: str, confirm: str) -> None:
    """Hand 1 opened for correction from the table and from History on the smallest phone: the panel's controls
    and Confirm are on screen, and confirming it as it was keeps it."""
    size = PHONES[0]
    page.set_viewport_size(size)
    before = hands_saved(server, session_id)
    for path in (f"/continue/{session_id}/hand-1", f"/history/{session_id}/hand-1"):
        open_app(page, server, path)
        phone = Phone(page, size, confirm)
        phone.text(r"^This is what was entered").wait_for()
        first = {
            "jokers-kill": card_label("AS"),
            "bargain-bin": None,
            "feast-and-famine": None,
            "financial-crisis": card_label("AS"),
            "1111-9999": "Delete digit",  # every number in: the review in the pad's place, until a digit is deleted
        }[game]
        if first is not None:
            phone.key(phone.button(first), f"the correction's {first}")
        phone.confirm_hand()
        page.wait_for_url(re.compile(re.escape(path.rsplit("/", 1)[0]) + "$"))
    assert hands_saved(server, session_id) == before
