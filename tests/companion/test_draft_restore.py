"""A kept draft is checked, when its game opens, by the game's own entry state (``EntryState.from_draft``), so a
draft of the right shape that would not restore (a card that is not a card, a player not at the table) is set
aside and reported on Home, and the game and its entry panel open without it (companion/drafts.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.drafts import DraftShapeError, draft_check
from companion.entry import EntryTarget
from companion.entry_bargain_bin import BargainBinState, BinEntry, PadKey
from companion.entry_financial_crisis import FinancialCrisisState, add_card
from companion.entry_jokers_kill import JokersKillState
from companion.entry_ones_to_nines import OnesToNinesState
from companion.games import find_entry
from companion.services import AppServices
from scoring.parts import Part
from tests.support.screens import shell_for, walk

JK_PLAYERS = ["Ann", "Ben"]
BB_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
SIDES = {"sides": {"Ann": "A", "Ben": "B"}}


def players_of(game: str) -> list[str]:
    return BB_PLAYERS if game == "bargain-bin" else JK_PLAYERS


def keep(data: Path, game: str, drafts: dict[str, dict[str, Any]], hands: list[dict[str, Any]] = ()) -> str:
    """A game with ``hands`` played and ``drafts`` kept on disk (as the entry screens keep them); returns its id."""
    with AppServices.open(data) as services:
        extra = SIDES if game == "1111-9999" else None
        table = services.sessions.start(game, players_of(game), extra=extra)
        for hand in hands:
            table.add_hand(hand)
        for target, draft in drafts.items():
            table.set_draft(draft, target)
        return table.id


def table_texts(services: AppServices, session_id: str) -> list[str]:
    shell, page = shell_for(services, f"/continue/{session_id}")
    shell.render()
    return [c.value for c, _ in walk(page.views[-1]) if getattr(c, "value", None) and isinstance(c.value, str)]


# Each draft has its game's shape (the shape check alone passes) but cannot be restored.
UNRESTORABLE = {
    "a Jokers Kill up-card that is not a card": (
        "jokers-kill",
        "new",
        {"up": "XX", "buried": [], "cards": {}, "tiebreaks": []},
        "'XX' is not a card",
    ),
    "a Jokers Kill card for a player not at the table": (
        "jokers-kill",
        "new",
        {"up": "5S", "buried": [], "cards": {"Zed": "KH"}, "tiebreaks": []},
        "Zed is not a player in this game",
    ),
    "a Jokers Kill card dealt twice": (
        "jokers-kill",
        "new",
        {"up": "5S", "buried": [], "cards": {"Ann": "5S"}, "tiebreaks": []},
        "appears twice",
    ),
    "a Bargain Bin play of a card that is not a card": (
        "bargain-bin",
        "new",
        {"plays": [{"by": "Ann", "to": "Ben", "card": "ZZ"}]},
        "'ZZ' is not a card",
    ),
    "a Bargain Bin play to a player not at the table": (
        "bargain-bin",
        "new",
        {"plays": [{"by": "Ann", "to": "Zed", "card": "KH"}]},
        "Zed is not a player in this game",
    ),
    "a Financial Crisis bank card that is not a card": (
        "financial-crisis",
        "new",
        {"hand": {"bank": ["ZZ"]}, "target": None},
        "'ZZ' is not a card",
    ),
    "a correction of a hand the game does not have": (
        "jokers-kill",
        "hands/4",
        {"up": "5S", "buried": [], "cards": {}, "tiebreaks": []},
        "corrects hand 5, which the game does not have",
    ),
}


@pytest.mark.parametrize("kind", sorted(UNRESTORABLE))
def test_a_draft_that_would_not_restore_is_set_aside_and_reported(tmp_path: Path, kind: str) -> None:
    game, target, draft, why = UNRESTORABLE[kind]
    find_entry(game).draft.validate_python(json.loads(json.dumps(draft)), strict=True)  # of the right shape
    data = tmp_path / "data"
    session_id = keep(data, game, {target: draft})
    drafts_file = data / "drafts" / f"{session_id}.drafts.json"
    assert drafts_file.exists()
    with AppServices.open(data) as services:
        table = services.sessions.open(session_id)
        assert table.draft(target) is None and table.drafts == {}
        assert not drafts_file.exists()
        (aside,) = (data / "damaged").glob(f"{session_id}.drafts.json.*")
        assert json.loads(aside.read_text())["drafts"][target] == draft, "the draft is kept aside, not lost"
        message = services.damage.message()
        assert f"drafts/{session_id}.drafts.json" in message and why in message, message
        assert f"({target}) " in message
        texts = table_texts(services, session_id)  # the table and its entry panel open, from a fresh start
        assert not any("cannot be entered" in t for t in texts), texts


def _good_drafts() -> list[tuple[str, str, dict[str, Any], list[dict[str, Any]]]]:
    jk = {"game": "jokers-kill", "players": JK_PLAYERS, "options": {}, "hands": []}
    jk_state = JokersKillState.start(jk, EntryTarget()).place("9S").place("4H")
    played = {"up": "8S", "cards": {"Ann": "2H", "Ben": "3H"}, "tiebreaks": []}
    correction = JokersKillState.from_hand(jk, EntryTarget(Part.HANDS, 0), played)
    bb = {"game": "bargain-bin", "players": BB_PLAYERS, "options": {}, "hands": []}
    bb_state = BargainBinState(BinEntry.start(bb).choose_receiver("Ben").choose_value(PadKey("K", red=True)))
    fc = {"game": "financial-crisis", "players": JK_PLAYERS, "options": {}, "hands": []}
    fc_state = FinancialCrisisState.start(fc, EntryTarget())
    for card in ("2S", "3S", "4H", "5H", "6D", "KC"):
        fc_state = FinancialCrisisState(fc, add_card(fc, fc_state.draft, card))
    o2n = {"game": "1111-9999", "players": JK_PLAYERS, **SIDES, "hands": []}
    o2n_state = OnesToNinesState.start(o2n, EntryTarget(Part.HANDS))
    o2n_state = o2n_state.press("4").press("2")
    return [
        ("jokers-kill", "new", jk_state.to_draft(), []),
        ("jokers-kill", "hands/0", correction.to_draft(), [played]),
        ("bargain-bin", "new", bb_state.to_draft(), []),
        ("financial-crisis", "new", fc_state.to_draft(), []),
        ("1111-9999", "new", o2n_state.to_draft(), []),
        ("feast-and-famine", "new", {"mode": "walk", "dealer": "Ann", "actions": ["JK", "7C"], "values": {}}, []),
    ]


@pytest.mark.parametrize(("game", "target", "draft", "hands"), _good_drafts())
def test_a_draft_the_screens_write_is_restored(
    tmp_path: Path, game: str, target: str, draft: dict[str, Any], hands: list[dict[str, Any]]
) -> None:
    data = tmp_path / "data"
    session_id = keep(data, game, {target: draft}, hands)
    with AppServices.open(data) as services:
        table = services.sessions.open(session_id)
        assert table.draft(target) == json.loads(json.dumps(draft))
        assert services.damage.message() == ""
        assert not (data / "damaged").exists() or not list((data / "damaged").iterdir())


def test_whatever_restoring_raises_refuses_the_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only the game's ValueError: a TypeError or KeyError would otherwise escape when the panel opens."""

    def broken(record: Any, target: Any, draft: Any) -> Any:
        raise KeyError("cards")

    monkeypatch.setattr(JokersKillState, "from_draft", broken)
    record = {"game": "jokers-kill", "players": JK_PLAYERS, "options": {}, "hands": []}
    check = draft_check("jokers-kill", record, next_part=Part.HANDS)
    with pytest.raises(DraftShapeError, match=r"^a hand being entered \(new\) cannot be restored: 'cards'$"):
        check("new", {"up": None, "buried": [], "cards": {}, "tiebreaks": []})


def test_the_new_draft_is_checked_for_the_part_the_game_asks_for_next(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[EntryTarget] = []

    def spy(cls: Any, record: Any, target: EntryTarget, draft: Any) -> None:
        seen.append(target)

    record = {"game": "jokers-kill", "players": JK_PLAYERS, "options": {}, "hands": []}
    draft = {"up": None, "buried": [], "cards": {}, "tiebreaks": []}
    monkeypatch.setattr(find_entry("jokers-kill").state, "from_draft", classmethod(spy))
    draft_check("jokers-kill", record, next_part=Part.PLAYOFF)("new", draft)
    draft_check("jokers-kill", record, next_part=None)("new", draft)  # finished: no panel opens it
    assert seen == [EntryTarget(Part.PLAYOFF)]
    with pytest.raises(DraftShapeError, match="names no hand of a game"):
        draft_check("jokers-kill", record, next_part=Part.HANDS)("tricks/1", draft)
