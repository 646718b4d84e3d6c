"""Entering a Financial Crisis round (companion.entry_financial_crisis) and its thin Flet panel, without a browser."""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.entry_financial_crisis as entry
from companion.entry import MemoryDrafts
from companion.entry_financial_crisis import FinancialCrisisIncompleteError, RoundDraft
from companion.session import SessionService
from scoring import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    Part,
    ScoringError,
    UnknownPlayerError,
    find_game,
)
from scoring.cards import standard_deck
from storage import Archive
from tests.conftest import CASES
from tests.support.screens import label_of
from views.table.entry import EntryContext, EntryTarget, send_each
from views.table.games import financial_crisis as panel_module
from views.table.games import find_panel
from views.widgets import Key

GAME = find_game("financial-crisis")
TWO = {"game": "financial-crisis", "players": ["Ann", "Ben"], "options": {"rounds": 2}, "hands": []}
BANK_221 = ["QC", "3C", "7S", "KS", "4H"]  # 2♣ 2♠ 1♥: ♠ loses (BK-12 P11, reading A); Q♣ K♠ ranked


def enter(record: dict[str, Any], hand: dict[str, Any]) -> RoundDraft:
    """Enter a saved round tap by tap: the bank, then each pile after choosing it, then the table's override."""
    draft = RoundDraft.empty(record)
    for card in hand["bank"]:
        draft = entry.add_card(record, draft, card)
    for name, cards in (hand.get("piles") or {}).items():
        draft = entry.select(record, draft, name)
        for card in cards:
            draft = entry.add_card(record, draft, card)
    override = hand.get("override") or {}
    if "loss_suits" in override:
        said = entry.reading(record, draft)
        assert said is not None
        for letter in set(said.loss_letters) ^ {str(s).upper() for s in override["loss_suits"]}:
            draft = entry.toggle_loss_suit(record, draft, letter)
    if "ranked_valuable" in override:
        draft = entry.set_ranked_valuable(record, draft, override["ranked_valuable"])
    return draft


def test_doctests() -> None:
    result = doctest.testmod(entry, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


def _valid_cases() -> list[Path]:
    out = []
    for path in sorted((CASES / "financial-crisis").glob("*.json")):
        if not json.loads(path.read_text()).get("expect_error"):
            out.append(path)
    return out


@pytest.mark.parametrize("path", _valid_cases(), ids=lambda p: p.stem)
def test_every_conformance_round_entered_tap_by_tap_gives_the_scorers_breakdown(path: Path) -> None:
    record = json.loads(path.read_text())["record"]
    result = GAME.score(record)
    for index, hand in enumerate(record["hands"]):
        before = {**record, "hands": record["hands"][:index]}
        draft = enter(before, hand)
        scored: Any = result.hands[index]  # a Financial Crisis hand result carries the game's extra fields
        said = entry.reading(before, draft)
        assert said is not None
        assert said.loss_letters == scored.loss_suits
        assert said.ranked_valuable == scored.ranked_valuable
        views = {view.name: view for view in entry.piles(before, draft)}
        for name in record["players"]:
            view = views[name]
            assert view.total == scored.points[name]
            assert {
                "clubs": view.clubs_points,
                "ranked": view.ranked_points,
                "losses": view.losses_points,
                "straights": view.straights_points,
                "rest": len(view.rest),
                "most_rest": view.most_rest,
            } == scored.breakdown[name]
            assert [list(group) for group in view.straights] == scored.straights[name]
            assert view.size == len(hand.get("piles", {}).get(name, []))
        # The round the app records scores exactly like the saved one.
        rebuilt = entry.verify_round(before, draft)
        again = GAME.score({**record, "hands": [*record["hands"][:index], rebuilt, *record["hands"][index + 1 :]]})
        assert again.hands[index].points == scored.points
        assert RoundDraft.from_hand(before, rebuilt) == RoundDraft.from_hand(before, hand)


def test_the_bank_fills_first_then_the_first_empty_pile_is_chosen() -> None:
    draft = RoundDraft.empty(TWO)
    assert draft.target is None and entry.prompt(draft).startswith("Tap the 5 face-down bank cards")
    for card in BANK_221[:4]:
        draft = entry.add_card(TWO, draft, card)
    assert draft.target is None
    assert entry.reading(TWO, draft) is None and entry.piles(TWO, draft) == []
    draft = entry.add_card(TWO, draft, BANK_221[4])
    assert draft.target == "Ann"
    with pytest.raises(IllegalHandError, match="five face-down cards"):
        entry.add_card(TWO, entry.select(TWO, draft, None), "2D")


def test_used_cards_are_refused_and_greyed_out() -> None:
    draft = enter(TWO, {"bank": BANK_221, "piles": {"Ann": ["AC", "5C"]}})
    draft = entry.select(TWO, draft, "Ben")
    legal = entry.legal_codes(draft)
    assert len(legal) == 45
    assert {"QC", "AC", "5C"}.isdisjoint(legal)
    for used, where in (("QC", "the bank"), ("5C", "Ann's pile")):
        assert not entry.can_add_card(TWO, draft, used)
        with pytest.raises(DuplicateCardError, match=where):
            entry.add_card(TWO, draft, used)
    with pytest.raises(InvalidCardError, match="Joker"):
        entry.add_card(TWO, draft, "JK")
    with pytest.raises(UnknownPlayerError):
        entry.select(TWO, draft, "Zed")
    assert entry.can_add_card(TWO, draft, "2D")


def test_taking_cards_out_moves_the_target_to_where_the_card_was() -> None:
    draft = enter(TWO, {"bank": BANK_221, "piles": {"Ann": ["AC", "5C"], "Ben": ["KC"]}})
    assert draft.target == "Ben"
    out = entry.remove_card(draft, "4h")
    assert out.bank == ("QC", "3C", "7S", "KS") and out.target is None
    assert entry.reading(TWO, out) is None
    out = entry.remove_card(draft, "AC")
    assert out.pile("Ann") == ("5C",) and out.target == "Ann"
    assert entry.remove_last(draft).pile("Ben") == ()
    assert entry.remove_last(entry.remove_last(draft)) == entry.remove_last(draft)  # nothing left to take out
    assert entry.remove_card(draft, "2D") == draft


def test_next_target_follows_the_seats() -> None:
    three = {**TWO, "players": ["Ann", "Ben", "Cat"]}
    draft = RoundDraft.empty(three)
    assert entry.next_target(draft) == "Ann"
    assert entry.next_target(entry.select(three, draft, "Ben")) == "Cat"
    assert entry.next_target(entry.select(three, draft, "Cat")) is None


def test_the_table_overrides_the_two_two_one_reading_and_can_go_back() -> None:
    draft = enter(TWO, {"bank": BANK_221})
    said = entry.reading(TWO, draft)
    assert said is not None and said.loss_letters == ["S"] and said.ranked_valuable
    assert said.loss_reason == "2♣ 2♠ 1♥: clubs are set aside first; ♠ shows the most, ♠ loses (BK-12)."
    # Reading B: the 2-2-1 order reverses over all four suits, so ♥ loses.
    draft = entry.toggle_loss_suit(TWO, entry.toggle_loss_suit(TWO, draft, "S"), "H")
    draft = entry.set_ranked_valuable(TWO, draft, False)
    said = entry.reading(TWO, draft)
    assert said is not None and said.loss_letters == ["H"] and not said.ranked_valuable
    assert said.pattern == "override" and "The bank said: 2♣ 2♠ 1♥" in said.loss_reason
    assert draft.to_hand()["override"] == {"loss_suits": ["H"], "ranked_valuable": False}
    assert entry.clear_override(draft).override() is None
    # Saying what the bank says anyway is no override at all.
    assert entry.set_ranked_valuable(TWO, entry.clear_override(draft), True).override() is None
    # No suit loses at all.
    none = entry.toggle_loss_suit(TWO, entry.clear_override(draft), "S")
    assert none.override() == {"loss_suits": []}
    assert entry.reading(TWO, none).loss_letters == []  # type: ignore[union-attr]
    with pytest.raises(ScoringError, match="clubs never lose"):
        entry.toggle_loss_suit(TWO, draft, "C")


def test_the_table_reads_the_bank_only_once_it_is_complete() -> None:
    draft = enter(TWO, {"bank": BANK_221[:3]})
    assert not entry.can_override(draft)
    with pytest.raises(FinancialCrisisIncompleteError, match="3 of 5"):
        entry.toggle_loss_suit(TWO, draft, "H")
    with pytest.raises(FinancialCrisisIncompleteError):
        entry.set_ranked_valuable(TWO, draft, True)


def test_a_round_is_confirmed_only_with_a_full_bank_and_while_the_game_lasts() -> None:
    draft = enter(TWO, {"bank": BANK_221[:4]})
    assert not entry.can_confirm(TWO, draft)
    with pytest.raises(FinancialCrisisIncompleteError, match="4 entered"):
        entry.verify_round(TWO, draft)
    draft = entry.add_card(TWO, draft, BANK_221[4])
    hand = entry.verify_round(TWO, draft)
    assert hand == {"bank": BANK_221, "piles": {"Ann": [], "Ben": []}}
    over = {**TWO, "hands": [hand, hand]}
    assert not entry.can_confirm(over, draft)
    with pytest.raises(IllegalHandError, match="after the game was over"):
        entry.verify_round(over, draft)


def test_warnings_point_at_empty_piles_and_missing_laid_out_cards() -> None:
    draft = enter(TWO, {"bank": BANK_221, "piles": {"Ann": ["AC"]}})
    assert entry.warnings(draft) == [
        "Ben's pile is empty.",
        "The piles hold 1 card; all 27 laid-out cards end in piles (rule 4).",
    ]
    deck = [str(c) for c in standard_deck() if str(c) not in BANK_221]
    full = enter(TWO, {"bank": BANK_221, "piles": {"Ann": deck[:14], "Ben": deck[14:28]}})
    assert entry.warnings(full) == []
    assert entry.progress(full) == "Bank 5 of 5 · piles 28 cards · 19 not entered"


def test_a_draft_survives_json_and_a_stale_one_is_refused() -> None:
    draft = entry.toggle_loss_suit(TWO, enter(TWO, {"bank": BANK_221, "piles": {"Ann": ["AC"], "Ben": ["KC"]}}), "H")
    draft = entry.select(TWO, draft, "Ann")
    data = json.loads(json.dumps(draft.to_json()))
    assert RoundDraft.from_json(TWO, data) == draft
    broken = {"hand": {"bank": BANK_221, "piles": {"Ann": ["QC"]}}, "target": "Ann"}
    with pytest.raises(DuplicateCardError):
        RoundDraft.from_json(TWO, broken)
    with pytest.raises(UnknownPlayerError):
        RoundDraft.from_hand(TWO, {"bank": BANK_221, "piles": {"Zed": []}})
    with pytest.raises(ScoringError, match="override"):
        RoundDraft.from_hand(TWO, {"bank": BANK_221, "override": {"loss_suits": ["C"]}})
    assert entry.round_title(TWO) == "Round 1 of 2" and entry.round_title(TWO, 1) == "Round 2 of 2"


def test_a_confirmed_round_through_the_session_service(tmp_path: Path) -> None:
    with Archive(tmp_path) as archive:
        table = SessionService(archive).start("financial-crisis", ["Ann", "Ben"], {"rounds": 1})
        draft = enter(table.record, {"bank": BANK_221, "piles": {"Ann": ["AC", "JH", "8S"], "Ben": ["6H", "7H", "8H"]}})
        expected = {view.name: view.total for view in entry.piles(table.record, draft)}
        table.add_hand(entry.verify_round(table.record, draft))
        assert table.result.totals == expected == {"Ann": 4, "Ben": 2}  # A♣ +2, J♥ +3, 8♠ −1; 6♥ 7♥ 8♥ +1, rest +1
        assert table.result.finished


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4), st.sampled_from(["high", "one"]))
def test_random_rounds_break_down_like_the_scorer(rng: random.Random, players: int, ace: str) -> None:
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    record = {"game": "financial-crisis", "players": names, "options": {"ace": ace}, "hands": []}
    deck = [str(c) for c in standard_deck()]
    rng.shuffle(deck)
    cuts = sorted(rng.sample(range(5, 53), players))
    piles = {name: deck[start:end] for name, start, end in zip(names, [5, *cuts[:-1]], cuts, strict=True)}
    draft = enter(record, {"bank": deck[:5], "piles": piles})
    scored = GAME.score({**record, "hands": [entry.verify_round(record, draft)]}).hands[0]
    assert {view.name: view.total for view in entry.piles(record, draft)} == scored.points


# --- the Flet panel ----------------------------------------------------------------------------------------------


class FakeSession(MemoryDrafts):
    """The session's drafts, in memory."""


def make_panel(record: dict[str, Any], *, accept: bool = True, existing: dict[str, Any] | None = None) -> Any:
    submitted: list[dict[str, Any]] = []
    reports: list[str | None] = []

    class Table:
        def submit(self, target: EntryTarget, hand: Any) -> bool:
            submitted.append(dict(hand))
            return accept

        def report(self, text: str | None) -> None:
            reports.append(text)

        def send(self, changed: Any) -> None:
            send_each(changed)

    ectx = EntryContext(
        view=SimpleNamespace(settings=SimpleNamespace(four_colour_suits=True)),  # type: ignore[arg-type]
        session=FakeSession(),  # type: ignore[arg-type]
        target=EntryTarget(Part.HANDS, None if existing is None else 0),
        record=record,
        existing=existing,
        table=Table(),
    )
    panel = panel_module.FinancialCrisisEntry(ectx)
    return panel, submitted, reports


def controls(control: Any) -> list[Any]:
    out = [control]
    for name in ("content", "controls", "spans"):
        child = getattr(control, name, None)
        if isinstance(child, list):
            for item in child:
                out += controls(item)
        elif isinstance(child, ft.Control):
            out += controls(child)
    return out


def test_the_panel_is_registered_and_labels_every_control() -> None:
    ui = find_panel("financial-crisis")
    assert ui is not None and ui.entry is panel_module.build_entry
    panel, _, _ = make_panel(TWO)
    for tap in [*BANK_221, "AC"]:
        panel.tap(tap)
    found = controls(panel.control)
    interactive = [c for c in found if isinstance(c, (ft.FilledButton, ft.OutlinedButton, Key))]
    assert len(interactive) >= 52 + 3 + 2 + 4
    for control in interactive:
        assert control.tooltip or (isinstance(control, Key) and label_of(control)), f"{control} has no label"
        assert control.height is None or control.height >= 48


def test_the_panel_greys_out_used_cards_and_highlights_the_targets_own() -> None:
    panel, submitted, reports = make_panel(TWO)
    assert panel.confirm.disabled
    for code in BANK_221:
        panel.tap(code)
    assert panel.draft.target == "Ann"
    ann, bank = panel.target_keys["Ann"], panel.target_keys[None]
    assert ann.control.selected and not bank.control.selected, "the pile being entered is the chosen key"
    assert (bank.text.value, ann.text.value) == ("Bank 5 of 5", "Ann: 0 cards")
    assert not panel.remove_key.enabled and panel.remove.disabled, "Ann's pile is empty: nothing to take out"
    assert not panel.keys["QC"].enabled, "a bank card is greyed out while a pile is entered"
    assert panel.keys["QC"].control.disabled, "... and read out as dimmed"
    panel.tap("AC")
    assert ann.text.value == "Ann: 1 card" and panel.remove_key.enabled, "a pile's first card: Take out last card"
    assert panel.keys["AC"].enabled, "a card of the pile being entered is tapped again to take it out"
    assert panel.keys["AC"].selected and panel.keys["AC"].control.selected, "it is shown as in the pile"
    panel.tap("AC")
    assert panel.draft.pile("Ann") == ("AC",), "a bounce right after the tap does not take the card out"
    panel._last_added = ("", 0.0)
    panel.tap("AC")
    assert panel.draft.pile("Ann") == ()
    panel.tap("AC")
    panel.next_pile()
    assert panel.draft.target == "Ben" and not panel.keys["AC"].enabled and not panel.keys["AC"].selected
    panel.tap("6H")
    assert "Loses: ♠" in [getattr(c, "value", None) for c in controls(panel.reading_panel)]
    panel.confirm_round()
    assert submitted == [{"bank": BANK_221, "piles": {"Ann": ["AC"], "Ben": ["6H"]}}]
    assert panel.ectx.session.draft("new") is None
    assert reports[-1] is None


def test_a_refused_round_keeps_the_draft() -> None:
    panel, submitted, _ = make_panel(TWO, accept=False)
    for code in BANK_221:
        panel.tap(code)
    panel.confirm_round()
    assert submitted and RoundDraft.from_json(TWO, panel.ectx.session.draft("new")).bank == tuple(BANK_221)


def test_a_correction_starts_from_the_saved_round_with_its_override() -> None:
    saved = {"bank": BANK_221, "piles": {"Ann": ["AC"], "Ben": []}, "override": {"loss_suits": ["H"]}}
    panel, submitted, _ = make_panel(TWO, existing=saved)
    assert panel.draft.loss_override == ("H",)
    texts = [getattr(c, "value", None) for c in controls(panel.reading_panel)]
    assert "The table's reading" in texts and "Loses: ♥" in texts
    panel.change(entry.clear_override)
    assert "Loses: ♠" in [getattr(c, "value", None) for c in controls(panel.reading_panel)]
    panel.confirm_round()
    assert submitted == [{"bank": BANK_221, "piles": {"Ann": ["AC"], "Ben": []}}]


# --- taps at the physical limit (issue 15) ------------------------------------------------------------------------


def test_next_pile_waits_for_the_bank() -> None:
    """Before the bank's five cards are in, there is no pile to move on to (the button is greyed out)."""
    panel, _, reports = make_panel(TWO)
    assert panel.next_button.disabled and not entry.can_next_pile(panel.draft)
    panel.next_pile()
    assert panel.draft.target is None and reports[-1] and "bank cards first" in reports[-1]
    panel.hold("AC")
    assert panel.draft.cards_entered == 0, "a held card does not start a pile before the bank is in"
    for code in BANK_221[:4]:
        panel.tap(code)
    assert panel.next_button.disabled, "4 of 5: still the bank"
    panel.tap(BANK_221[4])
    assert not panel.next_button.disabled and panel.next_key.label.value == "Next: Ben's pile"
    with pytest.raises(IllegalHandError, match="last one"):
        entry.verify_next_pile(entry.select(TWO, panel.draft, "Ben"))


@pytest.mark.parametrize("players", [2, 4])
def test_a_round_is_one_gesture_a_card_and_confirm(players: int) -> None:
    """Bank 5 + every pile card, each one tap (the first card of each later pile held down), then Confirm: no
    "Next pile" between players."""
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    record = {"game": "financial-crisis", "players": names, "options": {"rounds": 1}, "hands": []}
    panel, submitted, reports = make_panel(record)
    deck = [str(card) for card in standard_deck() if str(card) not in BANK_221]
    piles = {name: deck[i * 6 : i * 6 + 6] for i, name in enumerate(names)}
    gestures = 0
    for code in BANK_221:
        panel.tap(code)
        gestures += 1
    for i, name in enumerate(names):
        for k, code in enumerate(piles[name]):
            panel._last_added = ("", 0.0)
            if k == 0 and i > 0:
                panel.hold(code)
            else:
                panel.tap(code)
            gestures += 1
        assert panel.draft.target == name and panel.draft.pile(name) == tuple(piles[name])
    panel.confirm_round()
    gestures += 1
    assert gestures == 5 + 6 * players + 1
    assert submitted and submitted[0]["piles"] == piles, reports
