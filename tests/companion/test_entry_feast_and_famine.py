"""The Feast and Famine dealer assistant and quick form (companion.entry_feast_and_famine), without a page."""

from __future__ import annotations

import doctest
from fractions import Fraction
from typing import Any

import pytest

import companion.entry_feast_and_famine as entry_ff
from companion.entry_feast_and_famine import (
    GHOST,
    CardError,
    NoDealerError,
    NotNowError,
    OutcomeError,
    Phase,
    RoundEntry,
    RoundOverError,
    Seat,
    actions_of,
    deal_info,
    dealer_choices,
    ghost_choices,
    quick_hand,
    tied_players,
)
from scoring import Card, Part, UnknownPartError, find_game
from tests.support.screens import greyed, press

PLAYERS = ["Ann", "Ben", "Cat"]


def record(players: list[str] | None = None, hands: list[dict[str, Any]] | None = None, **options: Any) -> dict:
    return {"game": "feast-and-famine", "players": players or PLAYERS, "options": options, "hands": hands or []}


def walk(entry: RoundEntry, taps: list[str]) -> RoundEntry:
    for tap in taps:
        entry = entry.act(tap)
    return entry


def score_with(rec: dict[str, Any], hand: dict[str, Any]) -> Any:
    return find_game("feast-and-famine").score({**rec, "hands": [*rec["hands"], hand]})


def test_doctests() -> None:
    result = doctest.testmod(entry_ff, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5
    assert result.failed == 0


def test_ff_e1_round_walked_tap_by_tap() -> None:
    rec = record()
    entry = RoundEntry.start(rec, "Cat")
    assert entry.state.order == ("Ann", "Ben", "Cat")
    assert entry.state.phase is Phase.OPENING and entry.state.turn == "Ann"
    assert not entry.can_take() and not entry.can_refuse()
    entry = walk(entry, ["7C", "JK"])  # Ben's opening Joker is put aside ...
    assert entry.state.turn == "Ben" and entry.state.set_aside == 1
    entry = walk(entry, ["KD", "3H"])  # ... and replaced
    assert entry.state.phase is Phase.DECIDE and entry.state.turn == "Ann"
    assert entry.can_take() and entry.can_refuse() and entry.can_card("5S"), "a card turned is Ann's Take"
    # the opening Joker is back in the deck: 2 Jokers among 51 cards
    assert entry.chance() == Fraction(2, 51)
    entry = walk(entry, ["take", "5S", "refuse", "take", "9D"])
    assert entry.total("Ann") == 12 and entry.state.seats["Ben"] is Seat.FROZEN
    assert entry.state.turn == "Ann", "Ben is Frozen: he is skipped"
    entry = walk(entry, ["refuse", "take", "4C", "take"])
    assert entry.state.turn == "Cat" and entry.state.phase is Phase.TURN
    entry = entry.act("JK")
    assert entry.complete and entry.state.ended_by_joker
    hand = entry.to_hand()
    assert hand == {
        "dealer": "Cat",
        "cards": {"Ann": ["7C", "5S"], "Ben": ["KD"], "Cat": ["3H", "9D", "4C"]},
        "status": {"Ann": "frozen", "Ben": "frozen", "Cat": "out"},
    }
    assert score_with(rec, hand).hands[0].points == {"Ann": 12, "Ben": 10, "Cat": 0}


def test_everyone_freezes_ends_the_round_ff_e2() -> None:
    entry = walk(RoundEntry.start(record(["Ann", "Ben"]), "Ben"), ["AS", "6C", "take", "QH", "refuse", "refuse"])
    assert entry.complete and not entry.state.ended_by_joker
    assert entry.preview_points() == {"Ann": 11, "Ben": 6}
    assert "Everyone is Frozen" in entry.prompt()


def test_joker_on_first_take_knocks_everyone_out_ff_e3() -> None:
    players = ["A", "B", "C", "D"]
    entry = walk(RoundEntry.start(record(players), "D"), ["2S", "3S", "4S", "5S", "take", "JK"])
    assert entry.to_hand()["status"] == dict.fromkeys(players, "out")


def test_cards_checked_and_greyed_out() -> None:
    entry = walk(
        RoundEntry.start(
            record(),
            "Cat",
        ),
        ["7C"],
    )
    assert not entry.can_card("7C")
    with pytest.raises(CardError, match="7♣ is already in this round"):
        entry.act("7C")
    assert "7C" not in entry.legal_cards() and "JK" in entry.legal_cards()
    with pytest.raises(CardError):
        entry.act("ZZ")


def test_opening_jokers_limited_by_the_house_rule() -> None:
    entry = walk(RoundEntry.start(record(jokers=1), "Cat"), ["JK"])
    assert not entry.can_card("JK")
    with pytest.raises(CardError, match="only 1 Joker"):
        entry.act("JK")
    assert "JK" not in entry.legal_cards()


def test_taps_out_of_turn_are_refused() -> None:
    entry = RoundEntry.start(record(["Ann", "Ben"]), "Ben")
    with pytest.raises(NotNowError, match="opening card"):
        entry.act("take")
    entry = walk(entry, ["2S", "3S", "take"])
    with pytest.raises(NotNowError):
        entry.act("refuse")
    entry = walk(entry, ["JK"])
    with pytest.raises(RoundOverError):
        entry.act("4S")
    with pytest.raises(NotNowError):
        walk(RoundEntry.start(record(["Ann", "Ben"]), "Ben"), ["2S"]).to_hand()


def test_undo_drops_the_last_tap() -> None:
    entry = walk(RoundEntry.start(record(), "Cat"), ["7C", "KD", "3H", "take"])
    back = entry.undo()
    assert back.state.phase is Phase.DECIDE and back.actions == ("7C", "KD", "3H")
    assert back.undo().state.phase is Phase.OPENING


def test_replay_from_saved_actions_and_bad_actions() -> None:
    entry = RoundEntry.start(record(), "Cat", ["7C", "KD", "3H", "refuse"])
    assert entry.state.seats["Ann"] is Seat.FROZEN and entry.state.turn == "Ben"
    with pytest.raises(CardError):
        RoundEntry.start(record(), "Cat", ["7C", "7C"])


def test_dealer_rotation_and_circuits() -> None:
    rec = record()
    assert dealer_choices(rec) == PLAYERS  # the first dealer of a circuit is free
    with pytest.raises(NoDealerError):
        RoundEntry.start(rec, None)
    rec["hands"] = [{"dealer": "Ben", "outcome": {"Ann": 1, "Ben": 2, "Cat": 3}}]
    assert dealer_choices(rec) == ["Cat"]
    with pytest.raises(NoDealerError, match="passes clockwise from Ben to Cat"):
        RoundEntry.start(rec, "Ann")
    info = deal_info(rec)
    assert (info.round, info.rounds, info.circuit, info.circuits, info.rounds_left, info.dealer) == (
        2,
        9,
        1,
        3,
        8,
        "Cat",
    )
    rec["hands"].append({"dealer": "Cat", "outcome": {"Ann": 1, "Ben": 2, "Cat": 3}})
    rec["hands"].append({"dealer": "Ann", "outcome": {"Ann": 1, "Ben": 2, "Cat": 3}})
    info = deal_info(rec)
    assert info.circuit == 2 and info.dealer is None and dealer_choices(rec) == PLAYERS


def _tied_game(players: list[str]) -> dict[str, Any]:
    """A one-circuit game whose first two players tie for the lead."""
    hands = []
    dealer = players[0]
    for i in range(len(players)):
        outcome: dict[str, Any] = {name: "out" for name in players}
        if i == 0:
            outcome = {name: 10 if name in players[:2] else 3 for name in players}
        hands.append({"dealer": dealer, "outcome": outcome})
        dealer = players[(players.index(dealer) + 1) % len(players)]
    return record(players, hands, circuits=1)


def test_tiebreak_with_a_ghost_seat() -> None:
    rec = _tied_game(["Ann", "Ben", "Cat", "Dan"])
    assert tied_players(rec) == ["Ann", "Ben"]
    assert ghost_choices(rec) == ["Cat", "Dan"]
    with pytest.raises(NoDealerError, match="Ghost"):
        RoundEntry.start(rec, None, tiebreak=True)
    with pytest.raises(NoDealerError, match="not tied"):
        RoundEntry.start(rec, "Ann", tiebreak=True)
    entry = RoundEntry.start(rec, "Cat", tiebreak=True)
    assert entry.state.order == ("Ann", "Ben", GHOST)  # from the Ghost's left among the tied, Ghost last (FF-14)
    entry = walk(entry, ["9S", "8S", "2C", "refuse", "take", "5H"])
    assert entry.state.turn == GHOST and entry.state.phase is Phase.TURN
    assert not entry.can_refuse(), "the Ghost never Refuses"
    assert "Ghost (Cat's seat) always Takes" in entry.prompt()
    entry = walk(entry, ["KC", "refuse"])  # the Ghost takes K♣; Ben Freezes: every tied player is settled
    assert entry.complete
    hand = entry.to_hand()
    assert hand == {
        "ghost": "Cat",
        "cards": {"Ann": ["9S"], "Ben": ["8S", "5H"]},
        "status": {"Ann": "frozen", "Ben": "frozen"},
    }
    result = find_game("feast-and-famine").score({**rec, "tiebreak": hand})
    assert result.winners == ["Ben"]
    # the Ghost's cards count as seen for the Joker chance
    assert RoundEntry.start(rec, "Cat", ["9S", "8S", "2C"], tiebreak=True).chance() == Fraction(2, 51)


def test_tiebreak_two_players_dummy_ghost_and_all_out() -> None:
    rec = _tied_game(["Ann", "Ben"])
    assert ghost_choices(rec) == []
    with pytest.raises(NoDealerError):
        RoundEntry.start(rec, "Ann", tiebreak=True)
    entry = walk(RoundEntry.start(rec, None, tiebreak=True), ["4D", "6D", "2H", "take", "3C", "take"])
    assert entry.name_of(entry.state.turn) == "Ben"
    entry = walk(entry, ["7S", "JK"])  # the dummy Ghost turns the Joker: both tied players are out
    hand = entry.to_hand()
    assert hand["ghost"] is None and hand["status"] == {"Ann": "out", "Ben": "out"}
    result = find_game("feast-and-famine").score({**rec, "tiebreak": [hand]})
    assert result.pending is not None and result.pending.kind == "tiebreak", "all out, nobody left: replay (FF-10)"


def test_quick_form() -> None:
    rec = record()
    hand = quick_hand(rec, "Ann", {"Ann": "12", "Ben": "out", "Cat": " 0 "})
    assert hand == {"dealer": "Ann", "outcome": {"Ann": 12, "Ben": "out", "Cat": 0}}
    assert score_with(rec, hand).totals == {"Ann": 12, "Ben": 0, "Cat": 0}
    with pytest.raises(OutcomeError, match="Ben: a Frozen total cannot be negative"):
        quick_hand(rec, "Ann", {"Ann": "12", "Ben": "-3", "Cat": "1"})
    with pytest.raises(OutcomeError, match="more than the whole deck"):
        quick_hand(rec, "Ann", {"Ann": "341", "Ben": "1", "Cat": "1"})
    with pytest.raises(NoDealerError):
        quick_hand(rec, None, {"Ann": "1", "Ben": "1", "Cat": "1"})
    tied = _tied_game(["Ann", "Ben", "Cat"])
    assert quick_hand(tied, "Cat", {"Ann": "6", "Ben": "out"}, tiebreak=True) == {
        "ghost": "Cat",
        "outcome": {"Ann": 6, "Ben": "out"},
    }


def test_actions_of_rebuilds_a_saved_round_for_correction() -> None:
    rec = record()
    taps = ["7C", "KD", "3H", "take", "5S", "refuse", "take", "9D", "refuse", "take", "4C", "take", "JK"]
    hand = walk(RoundEntry.start(rec, "Cat"), taps).to_hand()
    rebuilt = actions_of(RoundEntry.start(rec, "Cat"), hand)
    assert rebuilt is not None
    assert walk(RoundEntry.start(rec, "Cat"), rebuilt).to_hand() == hand
    assert actions_of(RoundEntry.start(rec, "Cat"), {"dealer": "Cat", "outcome": {"Ann": 1}}) is None
    impossible = {
        "dealer": "Cat",
        "cards": {"Ann": ["7C"], "Ben": ["KD"], "Cat": ["3H"]},
        "status": dict.fromkeys(PLAYERS, "frozen") | {"Ann": "out"},
    }
    assert actions_of(RoundEntry.start(rec, "Cat"), impossible) is None


def test_actions_of_tiebreak_with_ghost() -> None:
    rec = _tied_game(["Ann", "Ben", "Cat"])
    taps = ["9S", "8S", "2C", "take", "3D", "take", "4D", "KC", "refuse", "take", "JK"]
    hand = walk(RoundEntry.start(rec, "Cat", tiebreak=True), taps).to_hand()
    assert hand["status"] == {"Ann": "frozen", "Ben": "out"}
    rebuilt = actions_of(RoundEntry.start(rec, "Cat", tiebreak=True), hand)
    assert rebuilt is not None
    assert walk(RoundEntry.start(rec, "Cat", tiebreak=True), rebuilt).to_hand() == hand


# --- the panel on the table screen, without a browser ------------------------------------------------------------


def _screen(tmp_path: Any, players: list[str], options: dict[str, Any]) -> tuple[Any, Any, Any]:
    """A started game's table screen built by the shell on a fake page: (services, session, top view)."""
    from companion.services import AppServices
    from tests.support.screens import shell_for

    services = AppServices.open(tmp_path / "data")
    session = services.sessions.start("feast-and-famine", players, options)
    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    return services, session, page.views[-1]


def _controls(view: Any) -> list[Any]:
    from tests.support.screens import walk as walk_controls

    return [control for control, _ in walk_controls(view)]


def _button(view: Any, label: str) -> Any:
    import flet as ft

    from tests.support.screens import label_of
    from views.widgets import Key

    found = [
        c
        for c in _controls(view)
        if (isinstance(c, ft.Button | ft.FilledButton | ft.OutlinedButton) and c.tooltip == label)
        or (isinstance(c, Key) and label_of(c) == label)
    ]
    assert found, f"no button {label!r}"
    return found[0]


def test_panel_labels_every_control_and_walks_a_round(tmp_path: Any) -> None:
    import flet as ft

    from tests.support.screens import INTERACTIVE, label_of
    from tests.support.screens import walk as walk_controls

    services, session, view = _screen(tmp_path, ["Ann", "Ben"], {"circuits": 1})
    try:
        for control, labelled in walk_controls(view):
            if isinstance(control, INTERACTIVE):
                assert labelled or label_of(control), f"{type(control).__name__} has no label"
                if isinstance(control, ft.Button | ft.FilledButton | ft.OutlinedButton):
                    assert (control.height or 0) >= 48
        press(_button(view, "Dealer: Ann"))
        # the panel redraws in place: find the buttons again after each tap
        for label in ("JK", "7C", "5H"):
            press(_button(view, Card.parse(label).label))
        assert session.draft("new") == {
            "mode": "walk",
            "dealer": "Ann",
            "actions": ["JK", "7C", "5H"],
            "values": {},
        }, "the round being entered is kept by the session (a reload finds it)"
        texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
        assert "Ben: Take (tap the card turned) or Refuse?" in texts
        assert "Chance the next card is a Joker: 1 in 26 (3.8%)" in texts
        assert not [c for c in _controls(view) if getattr(c, "tooltip", None) == "Take"], "the card is the Take"
        from tests.support.screens import greyed

        refuse = _button(view, "Refuse")
        assert refuse.content.value == "❄ Refuse" and not greyed(view, refuse), "Ben decides: Refuse can be tapped"
        press(_button(view, "3♠"))  # Ben Takes 3♠ ...
        assert not greyed(view, refuse), "... and Ann decides"
        for label in ("Refuse", "Joker"):  # Ann Refuses, Ben Takes the Joker
            press(_button(view, label))
        assert greyed(view, refuse), "the round is over: nobody decides"
        press(_button(view, "Confirm round"))
        assert session.hands == [
            {"dealer": "Ann", "cards": {"Ann": ["5H"], "Ben": ["7C", "3S"]}, "status": {"Ann": "frozen", "Ben": "out"}}
        ]
        assert session.draft("new") is None
    finally:
        services.close()


def test_quick_form_names_the_problem_and_keeps_the_entry(tmp_path: Any) -> None:
    import flet as ft

    services, session, view = _screen(tmp_path, ["Ann", "Ben"], {"circuits": 1})
    try:
        press(_button(view, "Dealer: Ben"))
        press(_button(view, "Quick form"))
        fields: dict[Any, Any] = {c.label: c for c in _controls(view) if isinstance(c, ft.TextField)}
        fields["Ann's total"].on_change(type("E", (), {"control": type("C", (), {"value": "12"})()})())
        press(_button(view, "Confirm round"))
        messages = [c.value for c in _controls(view) if isinstance(c, ft.Text) and c.value and "Ben" in c.value]
        assert any("Ben: enter a Frozen total or tap Out" in m for m in messages), messages
        assert session.hands == [] and session.draft("new")["values"] == {"Ann": "12"}
        press(_button(view, "Ben was knocked out"))
        press(_button(view, "Confirm round"))
        assert session.hands == [{"dealer": "Ben", "outcome": {"Ann": 12, "Ben": "out"}}]
    finally:
        services.close()


def test_correcting_a_walked_round_and_a_quick_round(services: Any) -> None:
    import flet as ft

    from tests.support.screens import shell_for

    session = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    walked = {
        "dealer": "Ann",
        "cards": {"Ann": ["5H"], "Ben": ["7C", "3S"]},
        "status": {"Ann": "frozen", "Ben": "out"},
    }
    session.add_hand(walked)
    session.add_hand({"dealer": "Ben", "outcome": {"Ann": 4, "Ben": "out"}})
    shell, page = shell_for(services, f"/continue/{session.id}/hand-1")
    shell.render()
    view = page.views[-1]
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert "Correct round 1" in texts and "Ben: 7♣ 3♠ = 10 · Knocked Out" in texts, texts
    assert not greyed(view, _button(view, "Confirm round")), "the saved round is walked again, complete"
    press(_button(view, "Undo last tap"))  # the Joker and Ben's Take (one tap made both)
    press(_button(view, "Refuse"))  # Ben Froze on 10 after all
    press(_button(view, "Confirm round"))
    assert session.hands[0]["status"] == {"Ann": "frozen", "Ben": "frozen"}
    assert session.result.totals == {"Ann": 9, "Ben": 10}

    shell, page = shell_for(services, f"/continue/{session.id}/hand-2")
    shell.render()
    view = page.views[-1]
    fields = {c.label: c.value for c in _controls(view) if isinstance(c, ft.TextField)}
    assert fields == {"Ann's total": "4", "Ben's total": ""}, "a quick-form round opens in the quick form"
    press(_button(view, "Ben was knocked out (tap again to undo)"))
    inputs: dict[Any, Any] = {c.label: c for c in _controls(view) if isinstance(c, ft.TextField)}
    inputs["Ben's total"].on_change(type("E", (), {"control": type("C", (), {"value": "3"})()})())
    press(_button(view, "Confirm round"))
    assert session.hands[1] == {"dealer": "Ben", "outcome": {"Ann": 4, "Ben": 3}}


TIED_TWO = [
    {"dealer": "Ann", "outcome": {"Ann": 5, "Ben": 5}},
    {"dealer": "Ben", "outcome": {"Ann": "out", "Ben": "out"}},
]
"""Two rounds of a one-circuit game of Ann and Ben that end tied on 5: a tie-break against a dummy Ghost seat."""


def _type(field: Any, value: str) -> None:
    field.on_change(type("E", (), {"control": type("C", (), {"value": value})()})())


def test_a_tie_break_round_is_listed_and_corrected_from_the_hand_list(services: Any) -> None:
    import flet as ft

    from tests.support.screens import shell_for

    session = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    for hand in TIED_TWO:
        session.add_hand(hand)
    session.set_part("tiebreak", {"ghost": None, "outcome": {"Ann": 7, "Ben": "out"}}, "tie-break entered")
    assert session.result.winners == ["Ann"]

    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    labelled: dict[str, Any] = {
        c.label: c for c in _controls(page.views[-1]) if isinstance(c, ft.Semantics) and c.label
    }
    tile = labelled["Tie-break round 1: Ann 7, Ben 0. Tap to correct"]
    assert tile.button and isinstance(tile.content, ft.ListTile)
    row: Any = tile.content
    notes = row.subtitle.value
    assert "Ann wins the game with the highest tie-break score, 7" in notes, "the same why as for a hand"
    assert "Round 2: no points. Tap to correct" in labelled, "a round is called a round in the hand list"
    press(row)
    assert page.navigated[-1] == f"/continue/{session.id}/tiebreak-1"

    shell, page = shell_for(services, f"/continue/{session.id}/tiebreak-1")
    shell.render()
    view = page.views[-1]
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert "Correct tie-break round 1: Ann and Ben against the Ghost" in texts, texts
    fields = {c.label: c.value for c in _controls(view) if isinstance(c, ft.TextField)}
    assert fields == {"Ann's total": "7", "Ben's total": ""}, "the round opens as entered (Ben out)"
    press(_button(view, "Ben was knocked out (tap again to undo)"))
    inputs: dict[Any, Any] = {c.label: c for c in _controls(view) if isinstance(c, ft.TextField)}
    _type(inputs["Ben's total"], "9")
    assert session.draft("tiebreak/0") == {
        "mode": "quick",
        "dealer": None,
        "actions": [],
        "values": {"Ann": "7", "Ben": "9"},
    }, "the correction's draft is kept under the target's key"
    press(_button(view, "Confirm round"))
    assert session.record["tiebreak"] == {"ghost": None, "outcome": {"Ann": 7, "Ben": 9}}, "still one object"
    assert session.result.winners == ["Ben"]
    assert session.draft("tiebreak/0") is None
    assert page.navigated[-1] == f"/continue/{session.id}"


def test_a_walked_tie_break_round_opens_walked_and_a_bad_correction_loses_nothing(services: Any) -> None:
    import flet as ft

    from tests.support.screens import shell_for

    session = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    for hand in TIED_TWO:
        session.add_hand(hand)
    rec = session.record
    all_out = walk(RoundEntry.start(rec, None, tiebreak=True), ["4D", "6D", "2H", "take", "3C", "take", "7S", "JK"])
    session.append_part("tiebreak", all_out.to_hand())  # all out, nobody else seated: replayed (FF-10)
    session.append_part("tiebreak", {"ghost": None, "outcome": {"Ann": 3, "Ben": 2}})
    assert session.result.winners == ["Ann"]
    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    labels = [c.label for c in _controls(page.views[-1]) if isinstance(c, ft.Semantics) and c.label]
    assert "Tie-break round 1: Ann 0, Ben 0. Tap to correct" in labels
    assert "Tie-break round 2: Ann 3, Ben 2. Tap to correct" in labels

    shell, page = shell_for(services, f"/continue/{session.id}/tiebreak-1")
    shell.render()
    view = page.views[-1]
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert "Ann: 4♦ 3♣ = 7 · Knocked Out" in texts and "Ben: 6♦ 7♠ = 13 · Knocked Out" in texts, texts
    assert not greyed(view, _button(view, "Confirm round")), "the saved round is walked again, complete"
    for _ in range(2):  # the Ghost's Joker, then Ben's 7♠ with his Take
        press(_button(view, "Undo last tap"))
    press(_button(view, "Refuse"))  # Ben Froze on 6 ...
    press(_button(view, "K♣"))  # ... the Ghost turns K♣ ...
    press(_button(view, "Refuse"))  # ... and Ann Froze on 7: this round now decides the game
    press(_button(view, "Confirm round"))
    message = [c.value for c in _controls(view) if isinstance(c, ft.Text) and c.value and "decided" in c.value]
    assert message and "Tie-break round 2 was entered after the tie-break had decided the game" in message[0]
    assert "Nothing was changed" in message[0]
    assert session.part("tiebreak")[0] == all_out.to_hand(), "... so round 2 cannot follow: nothing changed"
    assert session.draft("tiebreak/0") is not None, "the correction being entered is kept"
    assert page.navigated == []


def test_tie_break_routes() -> None:
    from views.table.entry import EntryTarget

    assert EntryTarget.of_slug("tiebreak-2") == EntryTarget(Part.TIEBREAK, 1)
    assert EntryTarget(Part.TIEBREAK, 1).slug == "tiebreak-2" and EntryTarget(Part.TIEBREAK, 1).key == "tiebreak/1"
    assert EntryTarget(Part.TIEBREAK, 0).label == "tie-break round 1"
    with pytest.raises(UnknownPartError):
        EntryTarget.of_slug("tiebreak-0")


# --- taps at the physical limit (issue 15) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "taps", "takes", "refusals"),
    [
        # FF-E1: 3 players, 4 cards turned for Takes (the last one a Joker), 2 Refusals
        ("Cat", ["7C", "JK", "KD", "3H", "5S", "refuse", "9D", "refuse", "4C", "JK"], 4, 2),
        # 4 players, 5 Takes, everyone Freezes
        ("Dan", ["2S", "3S", "4S", "5S", "6H", "7H", "refuse", "8H", "9H", "refuse", "10C", "refuse", "refuse"], 5, 4),
    ],
)
def test_a_walked_round_takes_one_tap_a_card_dealt_and_one_a_refusal(
    dealer: str, taps: list[str], takes: int, refusals: int
) -> None:
    """The physical limit: one tap per card dealt (the opening cards, a Joker put aside, each card turned for a
    Take) and one per Refusal, plus Confirm; no tap says "Take" apart from the card it brings."""
    players = ["Ann", "Ben", "Cat", "Dan"][: 3 if dealer == "Cat" else 4]
    rec = record(players)
    state = entry_ff.FeastState.start(rec, entry_ff.EntryTarget()).choose_dealer(dealer)
    changes = 0
    for tap in taps:
        state = state.act(tap)
        changes += 1
    assert state.can_confirm()
    hand = state.to_hand()
    dealt = sum(len(cards) for cards in hand["cards"].values()) + taps.count("JK")
    assert dealt == len(players) + takes + taps[: len(players) + 1].count("JK")  # opening cards + Takes (+ Jokers)
    assert changes == dealt + refusals, "one state change a card dealt or a Refusal"
    assert state.entry is not None and taps.count("refuse") == refusals
    assert state.entry.actions.count(entry_ff.TAKE) == takes, "each card turned is kept as a Take and its card"


def test_a_card_tapped_while_a_player_decides_is_checked_like_the_card_turned() -> None:
    entry = RoundEntry.start(record(), "Cat", ["7C", "KD", "3H"])
    assert entry.state.phase is Phase.DECIDE
    assert "7C" not in entry.legal_cards() and "5S" in entry.legal_cards() and "JK" in entry.legal_cards()
    with pytest.raises(CardError):
        entry.act("7C")  # already on the table
    assert entry.actions == ("7C", "KD", "3H"), "a refused tap changes nothing"
    out = entry.act("JK")  # Ann Takes and turns a Joker: everyone not Frozen is out
    assert out.complete and out.state.ended_by_joker and out.actions[-2:] == ("take", "JK")
    assert out.undo().actions == entry.actions, "Undo takes back the Take with its card"


def test_the_quick_form_is_remembered_for_the_session(tmp_path: Any) -> None:
    """A table that keeps totals keeps doing so: the next round opens in the quick form (no tap to switch), in
    this session only, until the table walks a round again."""
    import flet as ft

    services, session, view = _screen(tmp_path, ["Ann", "Ben"], {"circuits": 2})
    try:
        press(_button(view, "Dealer: Ben"))
        press(_button(view, "Quick form"))
        fields: dict[Any, Any] = {c.label: c for c in _controls(view) if isinstance(c, ft.TextField)}
        _type(fields["Ann's total"], "12")
        press(_button(view, "Ben was knocked out"))
        press(_button(view, "Confirm round"))
        assert session.hands == [{"dealer": "Ben", "outcome": {"Ann": 12, "Ben": "out"}}]
        view = services_view(services, session)
        fields = {c.label: c for c in _controls(view) if isinstance(c, ft.TextField)}
        assert set(fields) == {"Ann's total", "Ben's total"}, "round 2 opens in the quick form"
        _type(fields["Ann's total"], "3")
        _type(fields["Ben's total"], "4")
        press(_button(view, "Confirm round"))  # Ann deals round 2 (the rotation): 2 typed totals + Confirm
        assert session.hands[1] == {"dealer": "Ann", "outcome": {"Ann": 3, "Ben": 4}}
        other = services.sessions.start("feast-and-famine", ["Cat", "Dan"], {"circuits": 1})
        assert not [c for c in _controls(services_view(services, other)) if isinstance(c, ft.TextField)], (
            "another game starts walked: the choice belongs to its session"
        )
        view = services_view(services, session)
        press(_button(view, "Walk the round"))
        assert not [c for c in _controls(services_view(services, session)) if isinstance(c, ft.TextField)]
    finally:
        services.close()


def services_view(services: Any, session: Any) -> Any:
    from tests.support.screens import shell_for

    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    return page.views[-1]


def test_the_dealer_chosen_by_the_table_is_said_under_the_standings(tmp_path: Any) -> None:
    from views.table.games.feast_and_famine import extras

    services, session, view = _screen(tmp_path, ["Ann", "Ben"], {"circuits": 1})
    try:
        assert "Dealer" not in dict(extras(session)), "nothing is said while the table chooses"
        press(_button(view, "Dealer: Ben"))
        assert dict(extras(session))["Dealer"] == "Ben (chosen by the table)"
        texts = [getattr(c, "value", None) for c in _controls(view)]
        assert "Round 1 of 2 · circuit 1 of 1 · Ben deals (chosen by the table)" in texts, texts
        press(_button(view, "7♣"))
        press(_button(view, "8♣"))
        press(_button(view, "Refuse"))
        press(_button(view, "Refuse"))
        press(_button(view, "Confirm round"))
        assert dict(extras(session))["Dealer"] == "Ann", "round 2: the rotation names the dealer"
    finally:
        services.close()


def test_a_round_is_called_a_round_in_the_hand_list_the_standings_and_the_undo(tmp_path: Any) -> None:
    from views.table.scoreboard import hand_lines, standings

    services, session, _ = _screen(tmp_path, ["Ann", "Ben"], {"circuits": 1})
    try:
        session.add_hand({"dealer": "Ben", "outcome": {"Ann": 12, "Ben": "out"}})
        assert session.undo_description == "round 1 entered"
        assert [line.title for line in hand_lines(session.result)] == ["Round 1"]
        assert standings(session.result)[0].label == "1. Ann: 12 points (last round +12)"
        labels = [c.tooltip for c in _controls(services_view(services, session)) if getattr(c, "tooltip", None)]
        assert "Round 1: Ann +12. Tap to correct" in labels, labels
    finally:
        services.close()
