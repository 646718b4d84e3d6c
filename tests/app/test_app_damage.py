"""A damaged data folder opens in the app and on the command line (issue 14): whatever stands where a session file,
an index shard, the roster, the import journal, a drafts file or ``settings.json`` should be (a folder, garbage,
a draft of the wrong shape) is set aside in ``damaged/``, the rest opens, and the user is told once: a banner on
Home (the same in every tab, until dismissed) and a line from ``companion``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.services import AppServices
from companion.settings import Theme
from tests.support.archives import first_id, place
from tests.support.command import run_cli
from tests.support.screens import shell_for, walk
from views.home import DISMISS_DAMAGE

PLAYERS = ("Ann", "Ben", "Cat")
DRAFT = {"up": "9S", "buried": [], "cards": {"Ann": "KH"}, "tiebreaks": []}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with AppServices.open(folder) as services:
        for n in range(3):
            table = services.sessions.start("jokers-kill", [*PLAYERS[:2], f"P{n}"])
            table.set_draft(DRAFT)  # a hand being entered in every game
        services.settings.set_theme("dark")
    return folder


def damage(path: Path, how: str, data: Path) -> None:
    if how == "a folder":
        path.unlink(missing_ok=True)
        path.mkdir(parents=True)
        (path / "inside.txt").write_text("x")
    elif how == "garbage":
        path.write_bytes(b"\x00{not json at all")
    else:  # "the wrong shape": JSON the app can read, but not what it expects there
        assert path.name.endswith(".drafts.json")
        doc = json.loads(path.read_text())
        del doc["drafts"]["new"]["buried"]  # a key the Jokers Kill entry screen reads
        path.write_text(json.dumps(doc))


def banners(services: AppServices) -> list[tuple[str, Any]]:
    """The damage banner's text and its dismiss button on a freshly drawn Home, for one new tab."""
    shell, _ = shell_for(services, "/")
    shell.render()
    home = shell.page.views[-1]
    found = []
    for control, _ in walk(home):
        if isinstance(control, ft.Semantics) and control.label == DISMISS_DAMAGE:
            texts = [c for c, _ in walk(home) if isinstance(c, ft.Text) and "damaged" in (c.value or "")]
            found.append((texts[0].value, control.content))
    return found


CASES = [
    *(
        (where, how)
        for where in ("session", "index shard", "roster", "journal", "drafts", "settings")
        for how in ("a folder", "garbage")
    ),
    ("drafts", "the wrong shape"),
]


@pytest.mark.parametrize(("where", "how"), CASES)
def test_a_damaged_entry_is_set_aside_the_app_and_the_command_line_open_and_the_user_is_told_once(
    data: Path, where: str, how: str
) -> None:
    first = first_id(data)
    path = place(data, where)
    if where == "journal":
        path.write_text("{}")
    damage(path, how, data)
    expected = 2 if where == "session" else 3
    name = path.relative_to(data).as_posix()

    # The app opens: Home says what was set aside, in every tab, until it is dismissed.
    with AppServices.open(data) as services:
        if where == "drafts":
            table = services.sessions.open(first)  # the drafts are read when the game opens
            assert table.drafts == {} and table.id == first
        assert len(services.archive.list_sessions()) == expected
        theme = services.settings.current().theme
        assert theme is (Theme.SYSTEM if where == "settings" else Theme.DARK)
        one, two = banners(services), banners(services)
        assert len(one) == 1 and one == [(one[0][0], one[0][1])] and one[0][0] == two[0][0]
        text, button = one[0]
        assert text.startswith("1 damaged file was set aside in damaged/: ") and name in text, text
        assert button.height >= 48 and button.tooltip == DISMISS_DAMAGE
        button.on_click(None)
        assert banners(services) == []  # dismissed: gone from every tab's Home
        if where != "session":  # the damaged game's neighbours open; the damaged one is simply not listed
            services.sessions.open(first)
    kept = list((data / "damaged").glob(f"{path.name}.*"))
    assert len(kept) == 1, sorted(p.name for p in (data / "damaged").iterdir())

    # Told once: neither the app nor the command line says it again.
    with AppServices.open(data) as services:
        assert banners(services) == [] and services.damage.message() == ""
    code, out, err = run_cli("list", "--json", "--data-dir", data)
    assert code == 0 and len(json.loads(out)) == expected and "damaged" not in err, err


@pytest.mark.parametrize("where", ["session", "index shard", "roster"])
def test_the_command_line_opens_a_damaged_folder_and_says_so_in_one_line(data: Path, where: str) -> None:
    path = place(data, where)
    damage(path, "garbage", data)
    code, out, err = run_cli("list", "--json", "--data-dir", data)
    assert code == 0 and len(json.loads(out)) == (2 if where == "session" else 3)
    lines = [line for line in err.splitlines() if "damaged" in line]
    assert len(lines) == 1 and path.name in lines[0], err


def test_a_file_set_aside_after_the_banner_was_drawn_is_still_told(data: Path) -> None:
    first = first_id(data)
    with AppServices.open(data) as services:
        assert banners(services) == []
        damage(place(data, "drafts"), "the wrong shape", data)
        shown = banners(services)
        assert shown == []  # nothing set aside yet: the drafts are read when the game opens
        services.sessions.open(first)
        ((text, button),) = banners(services)
        assert f"drafts/{first}.drafts.json" in text and "'buried'" in text
        button.on_click(None)
        assert services.damage.message() == ""


def _drafts_the_screens_write() -> list[tuple[str, dict[str, Any]]]:
    """Drafts as each game's entry screen writes them, empty and part-entered."""
    from companion.entry_bargain_bin import JOKER_KEY, BinEntry, PadKey
    from companion.entry_financial_crisis import RoundDraft, add_card
    from companion.entry_jokers_kill import empty_draft, from_hand, place_card
    from companion.entry_ones_to_nines import HandEntry
    from scoring.bargain_bin import Action

    bb = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"joker": True}, "hands": []}
    entry = BinEntry.start(bb).choose_receiver("Ben").choose_value(PadKey("K", red=True))
    entry = entry.give_conduct("Dan", Action.WARN).choose_receiver("Cat").choose_value(JOKER_KEY)
    jk = {"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}
    fc = {"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {}, "hands": []}
    round_ = RoundDraft.empty(fc)
    for card in ("2S", "3S", "4H", "5H", "6D", "KC"):
        round_ = add_card(fc, round_, card)
    o2n = {"game": "1111-9999", "players": ["Ann", "Ben"], "sides": {"Ann": "A", "Ben": "B"}, "hands": []}
    digits = HandEntry.start(o2n)
    for digit in "4239":
        digits = digits.press(digit)
    return [
        ("bargain-bin", BinEntry.start(bb).to_draft()),
        ("bargain-bin", entry.to_draft()),
        ("jokers-kill", empty_draft()),
        ("jokers-kill", place_card(jk, place_card(jk, empty_draft(), "8S"), "KH")),
        ("jokers-kill", from_hand({"up": "8S", "cards": {"Ann": "2H", "Ben": "3H"}, "tiebreaks": [{"Ann": "4S"}]})),
        ("financial-crisis", RoundDraft.empty(fc).to_json()),
        ("financial-crisis", round_.to_json()),
        ("1111-9999", HandEntry.start(o2n).to_draft()),
        ("1111-9999", digits.to_draft()),
        ("feast-and-famine", {"mode": "walk", "dealer": "Ann", "actions": ["JK", "7C", "5H"], "values": {}}),
        ("feast-and-famine", {"mode": "quick", "dealer": None, "actions": [], "values": {"Ann": "12", "Ben": "out"}}),
    ]


@pytest.mark.parametrize(("game", "draft"), _drafts_the_screens_write())
def test_the_drafts_each_entry_screen_writes_pass_the_check(game: str, draft: dict[str, Any]) -> None:
    from companion.drafts import draft_check

    stored = json.loads(json.dumps(draft))  # as read back from the drafts file
    draft_check(game)("new", stored)
    draft_check(game)("hands/0", stored)
