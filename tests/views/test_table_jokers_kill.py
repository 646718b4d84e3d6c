"""Jokers Kill at the table without a browser: the card picker's draft logic (one tap per card), and the table,
correction, New game and Continue screens built on a fake page and tapped through their handlers."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

from companion.config import DataDirError
from companion.entry_jokers_kill import (
    HandCompleteError,
    card_codes,
    clear_slot,
    empty_draft,
    finish,
    need_of,
    place_card,
    prompt,
    remove_last,
    slots,
)
from companion.new_game import OptionInputError, Seating, SeatingError, chosen_options, option_fields
from companion.services import AppServices
from scoring import DuplicateCardError, InvalidCardError, find_game
from scoring.jokers_kill import Need
from storage import ArchiveLockedError
from tests.support.events import press_key
from tests.support.screens import (
    Page,
    assert_accessible,
    buttons,
    greyed,
    label_of,
    render,
    tap,
    texts,
    walk,
)
from views.shell import Shell
from views.table.scoreboard import standings, verdict
from views.widgets import FOCUS_BORDER, Key, Veil

ROOT = Path(__file__).resolve().parents[2]
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def record(players: list[str], hands: list[dict[str, Any]] | None = None, **options: Any) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": players, "options": options, "hands": hands or []}


def deal(rec: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    draft = empty_draft()
    for card in cards:
        draft = place_card(rec, draft, card)
    return draft


# --- the draft: one tap per physical card ----------------------------------------------------------------------


def test_the_seed_example_one_tap_per_card() -> None:
    """JK-E1: up 5; 7 7 9 K 7; tie-breaks 10 10 Q, then 6 6, then 4 5 → the 4 (Ann) wins 3 points."""
    rec = record(FIVE)
    taps = ["5S", "7H", "7D", "9C", "KH", "7C", "10H", "10D", "QC", "6H", "6D", "4H", "5D"]
    draft = empty_draft()
    prompts = []
    for card in taps:
        prompts.append(prompt(need_of(rec, draft)))
        draft = place_card(rec, draft, card)
    assert prompts[:3] == ["Turn the up-card", "Ann's card", "Ben's card"]
    assert prompts[6:9] == [
        "Tie-break: deal a card to Ann",
        "Tie-break: deal a card to Ben",
        "Tie-break: deal a card to Eve",
    ]
    need = need_of(rec, draft)
    assert (need.need, need.winner, need.points) == (Need.DECIDED, "Ann", 3)
    hand = finish(draft, need)
    assert hand["tiebreaks"] == [
        {"Ann": "10H", "Ben": "10D", "Eve": "QC"},
        {"Ann": "6H", "Ben": "6D"},
        {"Ann": "4H", "Ben": "5D"},
    ]
    result = find_game("jokers-kill").score(record(FIVE, [hand]))
    assert result.totals["Ann"] == 3 + 2  # the K♥ is in Ann's prize pile
    with pytest.raises(HandCompleteError):
        place_card(rec, draft, "2C")


def test_used_cards_are_refused_and_the_draft_is_kept() -> None:
    rec = record(["Ann", "Ben"], [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}])
    draft = deal(rec, ["8S"])
    with pytest.raises(DuplicateCardError, match="4♥ was already dealt"):
        place_card(rec, draft, "4H")
    with pytest.raises(DuplicateCardError, match="8♠ is already in this hand"):
        place_card(rec, draft, "8S")
    with pytest.raises(InvalidCardError, match="without Jokers"):
        place_card(rec, draft, "JK")
    assert draft == deal(rec, ["8S"])


def test_a_joker_kills_the_hand_only_when_the_option_is_on() -> None:
    rec = record(["Ann", "Ben", "Cat"], jokers=2)
    draft = deal(rec, ["7S", "3H", "JK", "9C"])
    need = need_of(rec, draft)
    assert need.need is Need.DEAD and prompt(need).startswith("Dead hand")
    assert finish(draft, need) == {"up": "7S", "cards": {"Ann": "3H", "Ben": "JK", "Cat": "9C"}}


def test_a_joker_up_card_is_buried_under_the_redraw_house_rule() -> None:
    rec = record(["Ann", "Ben"], jokers=2, joker_upcard="redraw")
    draft = deal(rec, ["JK", "9S", "4H", "7D"])
    assert draft["buried"] == ["JK"] and draft["up"] == "9S"
    assert need_of(rec, draft).winner == "Ann"
    assert [slot.label for slot in slots(rec, draft)][:2] == ["Buried Joker: Joker", "Up-card: 9♠"]


def test_a_tie_with_too_few_cards_left_is_marked_void() -> None:
    """JK-E12: twelve clean hands use 48 cards; the 13th ties with no card left → void (JK-7)."""
    suit_major = sorted(card_codes(), key=lambda code: "SHDC".index(code[-1]))  # A♠ 2♠ … K♠ A♥ …: no ties
    codes = [c for c in suit_major if c not in ("KS", "KH", "KD", "3C")]
    hands = []
    for i in range(12):
        up, ann, ben, cat = codes[4 * i : 4 * i + 4]
        hands.append({"up": up, "cards": {"Ann": ann, "Ben": ben, "Cat": cat}})
    rec = record(["Ann", "Ben", "Cat"], hands)
    draft = deal(rec, ["KS", "KH", "KD", "3C"])
    need = need_of(rec, draft)
    assert need.need is Need.VOID and prompt(need) == "Too few cards for the tie-break: mark the hand void"
    hand = finish(draft, need)
    assert hand["void"] is True
    result = find_game("jokers-kill").score(record(["Ann", "Ben", "Cat"], [*hands, hand]))
    assert result.finished and "Hand 13 was void, so the game is over (JK-7)." in getattr(result, "notes", [])


def test_clearing_a_card_and_removing_the_last() -> None:
    rec = record(["Ann", "Ben", "Cat"])
    draft = deal(rec, ["8S", "8H", "8D", "2C", "QH"])
    assert need_of(rec, draft).players == ("Ben",)
    assert remove_last(draft)["tiebreaks"] == []
    cleared = clear_slot(draft, ("cards", "Ben"))
    assert cleared["tiebreaks"] == [] and need_of(rec, cleared).players == ("Ben",)
    refilled = place_card(rec, cleared, "5D")
    assert list(refilled["cards"]) == ["Ann", "Ben", "Cat"], "seating order is kept"
    assert clear_slot(draft, ("up",))["up"] is None
    assert clear_slot(draft, ("tiebreaks", 0, "Ann"))["tiebreaks"] == []
    empty = empty_draft()
    assert remove_last(empty) == empty


def test_standings_positions_and_verdicts() -> None:
    result = find_game("jokers-kill").score(record(["Ann", "Ben"], [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]))
    assert [(s.place, s.name, s.total, s.last) for s in standings(result)] == [("1", "Ann", 2, 2), ("2", "Ben", 0, 0)]
    assert standings(result)[0].label == "1. Ann: 2 points (last hand +2)"
    assert verdict(result) is None


# --- screens on a fake page --------------------------------------------------------------------------------------


def test_a_hand_through_the_table_screen(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    assert_accessible(view)
    shown = buttons(view)
    assert "Joker" not in shown, "no Joker without the option"
    assert greyed(view, shown["Confirm hand"]) and shown["Undo"].disabled
    for card in ("9S", "4H", "7D"):
        tap(view, {"9S": "9♠", "4H": "4♥", "7D": "7♦"}[card])
    assert greyed(view, buttons(view)["4♥"]), "a card in this hand is greyed out"
    assert table.draft() == {"up": "9S", "buried": [], "cards": {"Ann": "4H", "Ben": "7D"}, "tiebreaks": []}
    assert "Next: Cat's card" in texts(view)
    assert greyed(view, buttons(view)["Confirm hand"]), "an open hand: nothing to confirm"
    tap(view, "Q♣")
    assert "Next: Ann wins 2 points: confirm the hand" in texts(view)
    assert not greyed(view, buttons(view)["Confirm hand"])
    tap(view, "Confirm hand")
    assert table.hands == [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]
    assert table.draft() is None
    shown_texts = texts(view)
    assert "1. Ann: 2 points (last hand +2)" in shown_texts
    assert "Cards left: 48 · Hands left: 12" in shown_texts
    assert any("Ann's 4♥ is the lowest card" in text for text in shown_texts), "each hand's why"
    assert greyed(view, buttons(view)["9♠"]), "used in an earlier hand"
    tap(view, "Undo")
    assert table.hands == [] and "1. Ann: 0 points (equal first)" in texts(view)
    tap(view, "Redo")
    assert len(table.hands) == 1


def test_a_hand_from_another_tab_redraws_the_table_and_keeps_the_cards_entered(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    page = Page(f"/continue/{table.id}")
    Shell(cast(ft.Page, page), services).render()
    for label in ("9♠", "4♥", "7♦", "Q♣"):
        tap(page.views[-1], label)
    other = services.sessions.open(table.id)  # the same live session, as another tab sees it
    other.add_hand({"up": "2S", "cards": {"Ann": "3S", "Ben": "5S", "Cat": "6S"}})
    view = page.views[-1]
    assert "1. Ann: 1 point (last hand +1)" in texts(view)
    assert greyed(view, buttons(view)["2♠"]), "redrawn with the other tab's hand"
    tap(view, "Confirm hand")
    assert len(table.hands) == 2 and table.hands[1]["cards"]["Cat"] == "QC"


def test_correcting_a_hand_changes_the_totals(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    table.add_hand({"up": "9S", "cards": {"Ann": "7D", "Ben": "4H", "Cat": "QC"}})
    table.add_hand({"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}})
    page, view = render(services, f"/continue/{table.id}")
    tiles = [c for c, _ in walk(view) if isinstance(c, ft.ListTile) and c.on_click is not None]
    hand_one = next(t for t in tiles if str(t.tooltip).startswith("Hand 1:"))
    cast(Any, hand_one).on_click(None)
    assert page.navigated[-1] == f"/continue/{table.id}/hand-1"
    page, view = render(services, f"/continue/{table.id}/hand-1")
    assert_accessible(view)
    tap(view, "Ann: 7♦")
    tap(view, "Ben: 4♥")
    tap(view, "4♥")
    tap(view, "7♦")
    tap(view, "Confirm hand")
    assert page.navigated[-1] == f"/continue/{table.id}"
    assert table.result.totals == {"Ann": 2, "Ben": 3, "Cat": 0}


def test_a_correction_that_clashes_with_a_later_hand_is_refused(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    table.add_hand({"up": "9S", "cards": {"Ann": "7D", "Ben": "4H", "Cat": "QC"}})
    table.add_hand({"up": "8S", "cards": {"Ann": "2H", "Ben": "8D", "Cat": "5C"}})
    _, view = render(services, f"/continue/{table.id}/hand-1")
    tap(view, "Cat: Q♣")
    tap(view, "2♥")  # free before hand 1, but hand 2 uses it
    tap(view, "Confirm hand")
    problems = [t for t in texts(view) if "2♥ appears twice" in t]
    assert problems and "Nothing was changed" in problems[0]
    assert table.hands[0]["cards"]["Cat"] == "QC"
    assert table.draft("hands/0") is not None, "the cards entered are kept"


def test_the_play_off_and_the_end_screen(services: AppServices) -> None:
    from tests.support.records import end_of_main_game

    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"], {"playoff_wins": 1})
    end_of_main_game(table)
    _, view = render(services, f"/continue/{table.id}")
    assert "Play-off: Ann and Ben" in texts(view)
    slot_labels = [label for label in buttons(view) if label.endswith(": —")]
    assert slot_labels == ["Up-card: —", "Ann: —", "Ben: —"], "only the tied players play off"
    assert not greyed(view, buttons(view)["9♠"]), "a fresh deck"
    for label in ("9♠", "4♥", "7♦"):
        tap(view, label)
    tap(view, "Confirm hand")
    assert table.result.winners == ["Ann"]
    _, view = render(services, f"/continue/{table.id}")
    shown = texts(view)
    assert "Ann wins the game" in shown
    assert any("(rule 9, JK-12)" in text for text in shown), "the rule that decided"
    assert "Confirm hand" not in buttons(view)


def test_four_colour_suits_and_jokers_in_the_picker(services: AppServices) -> None:
    services.settings.set_four_colour_suits(True)
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"], {"jokers": 2})
    _, view = render(services, f"/continue/{table.id}")
    shown = buttons(view)
    assert "Joker" in shown
    diamond = shown["5♦"].content
    assert isinstance(diamond, ft.Text) and diamond.color == ft.Colors.BLUE_600


def test_an_unknown_game_id_says_what_is_wrong(services: AppServices) -> None:
    _, view = render(services, "/continue/0123456789abcdef0123456789abcdef")
    assert "This page does not exist" in texts(view)
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    _, view = render(services, f"/continue/{table.id}/hand-4")
    assert any("no hand 4" in t for t in texts(view))


# --- New game and Continue --------------------------------------------------------------------------------------


def test_seating_rules() -> None:
    seats = Seating()
    with pytest.raises(SeatingError, match="type a name first"):
        seats.add("   ")
    with pytest.raises(SeatingError, match="at most 40"):
        seats.add("x" * 41)
    seats.add("Ann").add("Ben")
    assert not seats.can_move(0, -1) and seats.can_move(0, 1)
    with pytest.raises(SeatingError):
        seats.move(1, 1)
    assert seats.remove(0).names == ["Ben"]


def test_house_rule_fields_come_from_the_record_model() -> None:
    fields = {f.key: f for f in option_fields("jokers-kill")}
    assert set(fields) == {"jokers", "upcard_to_prize", "ace_upcard_matches_ace", "joker_in_tiebreak",
                           "joker_upcard", "playoff_wins"}  # fmt: skip
    assert fields["jokers"].choices == (0, 2, 4)
    assert fields["jokers"].explanation == "Default: no Jokers. Or: 2 Jokers or 4 Jokers (JK-11)."
    assert fields["joker_in_tiebreak"].explanation == "Default: kills the hand. Or: only that player drops out (JK-8)."
    assert chosen_options(list(fields.values()), {"jokers": "4", "upcard_to_prize": False, "playoff_wins": ""}) == {
        "jokers": 4,
        "upcard_to_prize": False,
    }
    with pytest.raises(OptionInputError, match="not a whole number"):
        chosen_options(list(fields.values()), {"playoff_wins": "three"})
    every_game = {
        f.key for g in ("bargain-bin", "financial-crisis", "feast-and-famine", "1111-9999") for f in option_fields(g)
    }
    assert {"king", "ace", "circuits", "triple_penalty"} <= every_game


def test_new_game_seats_players_and_starts(services: AppServices) -> None:
    services.players.add("Dora")
    page, view = render(services, "/new/jokers-kill")
    assert_accessible(view)
    start = buttons(view)["Start game"]
    assert start.disabled, "greyed out until two players are seated"
    field = next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == "New player name")
    for name in ("Ann", "Ben"):
        field.value = name
        cast(Any, field).on_submit(None)
    tap(view, "Seat Dora")
    field.value = "ann"
    cast(Any, field).on_submit(None)
    assert any("Ann is already seated" in t for t in texts(view))
    tap(view, "Move Dora up")
    jokers = next(c for c, _ in walk(view) if isinstance(c, ft.Dropdown) and c.label == "Jokers in the deck")
    jokers.value = "2"
    cast(Any, jokers).on_select(type("E", (), {"control": jokers})())
    assert [o.text for o in jokers.options] == ["No Jokers", "2 Jokers", "4 Jokers"], "plain words, keys kept"
    assert "House rules changed: Jokers in the deck: 2 Jokers." in texts(view)
    tap(view, "Start game")
    assert page.navigated[-1].startswith("/continue/")
    table = services.sessions.open(page.navigated[-1].rsplit("/", 1)[1])
    assert table.players == ["Ann", "Dora", "Ben"] and table.record["options"] == {"jokers": 2}
    _, listing = render(services, "/continue")
    assert any(t.startswith("Jokers Kill: Ann, Dora, Ben") for t in texts(listing))


def test_continue_is_empty_at_first_and_new_game_lists_every_game(services: AppServices) -> None:
    _, view = render(services, "/continue")
    assert "No unfinished games" in texts(view)
    _, view = render(services, "/new")
    assert {"Bargain Bin", "Financial Crisis", "Feast and Famine", "1111-9999", "Jokers Kill"} <= set(texts(view))
    _, view = render(services, "/new/poker")
    assert "This page does not exist" in texts(view)


def test_a_locked_data_folder_is_a_one_line_start_up_error(tmp_path: Path) -> None:
    first = AppServices.open(tmp_path / "data")
    try:
        with pytest.raises(DataDirError, match="already using the data folder"):
            AppServices.open(tmp_path / "data")  # one AppServices per folder, in this process too
        done = subprocess.run(
            [sys.executable, "-m", "app", "--data-dir", str(tmp_path / "data"), "--no-browser", "--port", "1"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "already using the data folder" in lines[0], done.stderr
    finally:
        first.close()


def test_an_archive_that_cannot_open_is_a_start_up_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.services

    def locked(folder: Path) -> None:
        raise ArchiveLockedError(f"another Card Table Companion is already using the data folder {folder}")

    monkeypatch.setattr(companion.services, "Archive", locked)
    with pytest.raises(DataDirError, match="already using the data folder"):
        AppServices.open(tmp_path / "elsewhere")


def test_a_full_disk_shows_retry_save_and_loses_nothing(services: AppServices, monkeypatch: pytest.MonkeyPatch) -> None:
    from storage import StorageWriteError

    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    page = Page(f"/continue/{table.id}")
    Shell(cast(ft.Page, page), services).render()
    real_save = services.archive.save_session

    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageWriteError(Path("session.json"), OSError(28, "No space left on device"))

    monkeypatch.setattr(services.archive, "save_session", full)
    for label in ("9♠", "4♥", "7♦", "Confirm hand"):
        tap(page.views[-1], label)
    view = page.views[-1]
    assert any(t.startswith("Not saved: could not save session.json: the disk is full") for t in texts(view))
    assert "1. Ann: 2 points (last hand +2)" in texts(view), "the hand counts while it waits to be saved"
    tap(view, "Retry save")
    assert any(t.startswith("Not saved") for t in texts(page.views[-1])), "still full"
    monkeypatch.setattr(services.archive, "save_session", real_save)
    tap(page.views[-1], "Retry save")
    assert not any(t.startswith("Not saved") for t in texts(page.views[-1]))
    assert services.archive.load_session(table.id).record["hands"] == table.hands


@pytest.mark.parametrize(
    "name",
    [
        "companion.session",
        "companion.new_game",
        "views.continue_",
        "views.table.games",
        "views.table.scoreboard",
        "companion.entry",
        "companion.entry_jokers_kill",
    ],
)
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_hand_list_shows_the_newest_hands_and_all_of_them_one_tap_away(services: AppServices) -> None:
    """A Confirm redraws the same number of rows however long the game: the newest 12, then *Show all*."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ranks]
    for i in range(0, 42, 3):  # 14 hands: the up-card, then Ann's and Ben's cards
        table.add_hand({"up": deck[i], "cards": {"Ann": deck[i + 1], "Ben": deck[i + 2]}})
    _, view = render(services, f"/continue/{table.id}")

    def rows() -> list[str]:
        return [label for label in buttons(view) if re.match(r"^Hand \d+: ", label)]

    assert len(rows()) == 12 and rows()[0].startswith("Hand 14: ") and rows()[-1].startswith("Hand 3: ")
    tap(view, "Show all 14 hands (2 more)")
    assert len(rows()) == 14 and rows()[-1].startswith("Hand 1: ")


def test_a_complete_hand_veils_the_grid_and_refuses_another_card(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    _, view = render(services, f"/continue/{table.id}")
    [veil] = [c for c, _ in walk(view) if isinstance(c, Veil)]
    assert veil.ignore_interactions and veil.bgcolor is None, "an open hand: the veil is down"
    for card in ("9♠", "4♥", "7♦"):
        tap(view, card)
    assert not veil.ignore_interactions and veil.bgcolor is not None, "the hand is complete: the grid is veiled"
    assert greyed(view, buttons(view)["2♣"]), "a card under the veil is greyed out as the player sees it"
    kept = table.draft()
    cast(Any, veil.on_click)(None)  # a tap on the veiled grid
    assert any("hand is complete" in t for t in texts(view)), texts(view)
    assert table.draft() == kept, "the refused card changed nothing"
    tap(view, "Confirm hand")
    assert veil.ignore_interactions and veil.bgcolor is None and len(table.hands) == 1
    assert not greyed(view, buttons(view)["2♣"]) and greyed(view, buttons(view)["9♠"]), "a dealt card stays grey"


def _listener(view: ft.View, label: str) -> Any:
    """The keyboard listener around the card key labelled ``label`` (what takes its keys when it has the focus)."""
    return next(
        c
        for c, _ in walk(view)
        if isinstance(c, ft.KeyboardListener) and isinstance(c.content, Key) and label_of(c.content) == label
    )


def test_the_focused_card_is_pressed_with_enter_or_space_and_shows_its_focus(services: AppServices) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    _, view = render(services, f"/continue/{table.id}")
    nine = _listener(view, "9♠")
    box = nine.content
    assert not nine.include_semantics, "no focusable node for a screen reader before the keyboard comes to the key"
    press_key(nine, "Tab", up=True)  # a Tab brought the focus to 9♠
    assert box.border.top.width == 3 and box.border.top.color == FOCUS_BORDER, "the focused key is drawn as such"
    assert nine.include_semantics, "from now on the browser's focus follows Flutter's to the key"
    kept = table.draft()
    press_key(nine, "a")
    assert table.draft() == kept and not greyed(view, box), "a key other than Enter or Space presses nothing"
    press_key(nine, "Enter")
    assert greyed(view, box), "Enter pressed it: the card is dealt (the up-card), its key greyed out"
    dealt = table.draft()
    press_key(nine, "Enter")
    assert table.draft() == dealt, "a greyed-out key pressed again: nothing"
    press_key(nine, "Tab")  # a Tab takes the focus away
    assert box.border.top.width == 1, "the focus highlight leaves with the focus"
    four = _listener(view, "4♥")
    press_key(four, "Tab", up=True)
    press_key(four, " ")  # Space presses it too
    assert greyed(view, four.content) and table.draft() != dealt
    press_key(_listener(view, "7♦"), "Enter")  # the hand is complete: the grid veiled
    kept = table.draft()
    press_key(_listener(view, "2♣"), "Enter")  # under the veil: refused with its reason, as a tap on the veil is
    assert table.draft() == kept and "The hand is complete: confirm it, or remove a card first" in texts(view)
    tap(view, "Confirm hand")
    assert len(table.hands) == 1 and table.hands[0]["cards"] == {"Ann": "4H", "Ben": "7D"}, table.hands


def test_confirm_is_a_filled_key_greyed_out_until_the_hand_is_complete(services: AppServices) -> None:
    """*Confirm hand* is a key (no Material button, whose state animation held the next frames): greyed out with a
    filled button's disabled look while the hand is open, filled once it is complete, pressed by Enter like a tap,
    and refusing Enter while greyed out."""
    from views.widgets import ACTION_KEY, ACTION_KEY_OFF

    table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
    _, view = render(services, f"/continue/{table.id}")
    assert not any(isinstance(c, ft.FilledButton) for c, _ in walk(view) if label_of(c) == "Confirm hand")
    confirm = _listener(view, "Confirm hand")
    box = confirm.content
    assert greyed(view, box) and box.bgcolor == ACTION_KEY_OFF
    press_key(confirm, "Enter")
    assert table.hands == [], "a greyed-out Confirm takes no Enter"
    for card in ("9♠", "4♥", "7♦"):
        tap(view, card)
    assert not greyed(view, box) and box.bgcolor == ACTION_KEY and box.content.color == ft.Colors.ON_PRIMARY
    press_key(confirm, "Enter")
    assert table.hands == [{"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}]
    assert greyed(view, box) and box.bgcolor == ACTION_KEY_OFF, "the next hand: greyed out again"
