"""The Bargain Bin entry state (companion.entry_bargain_bin): live play, the quick form, conduct, Vegas."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bargain_bin_money import deciding_notes, end_headline, money_lines, pot_lines, transfers
from companion.entry_bargain_bin import (
    JOKER_KEY,
    JOKER_MINUS,
    JOKER_PLUS,
    BargainBinIncompleteError,
    BinEntry,
    ConductError,
    EntryMode,
    JokerSignError,
    NotYourTurnError,
    PadKey,
    Played,
    ReceiverError,
    ScoreInputError,
    ValueUsedError,
    pad_keys,
)
from companion.services import AppServices
from scoring import ScoringError, find_game
from scoring import bargain_bin as bb
from scoring.bargain_bin import HAND_SIZE, Action, Sign
from tests.support.screens import INTERACTIVE, FakePage, greyed, label_of, press, walk
from views.shell import Shell
from views.widgets import Key, Veil

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def record(options: dict[str, Any] | None = None, hands: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"game": "bargain-bin", "players": list(PLAYERS), "options": options or {}, "hands": hands or []}


def play(entry: BinEntry, to: str, key: PadKey, sign: Sign | None = None) -> BinEntry:
    entry = entry.choose_receiver(to).choose_value(key)
    return entry.choose_sign(sign) if sign is not None else entry


def full_hand(entry: BinEntry) -> BinEntry:
    """Every remaining card played: each giver plays to the next player clockwise, the lowest free key."""
    while entry.giver is not None:
        giver = entry.giver
        to = next(name for name in entry.players[entry.players.index(giver) + 1 :] + entry.players if name != giver)
        to = next(n for n in [to, *entry.players] if entry.can_receive(n))
        key = next(k for k in pad_keys(entry.options) if not k.is_joker and entry.can_value(k))
        entry = play(entry, to, key)
    return entry


def score_with(rec: dict[str, Any], hand: dict[str, Any]) -> Any:
    return find_game("bargain-bin").score({**rec, "hands": [*rec["hands"], hand]})


# --- the value pad --------------------------------------------------------------------------------------------


def test_pad_has_26_keys_and_the_joker_only_with_its_rule() -> None:
    assert len(pad_keys(bb.Options())) == 26
    keys = pad_keys(bb.Options(joker=True))
    assert keys[-2:] == [JOKER_PLUS, JOKER_MINUS] and len(keys) == 28, "the Joker's sign is in its key (BB-7)"


@pytest.mark.parametrize(
    ("key", "king", "points"),
    [(PadKey("A"), 12, 1), (PadKey("J", red=True), 12, -11), (PadKey("K"), 12, 12), (PadKey("K", red=True), 13, -13)],
)
def test_pad_key_points_follow_rule_2(key: PadKey, king: int, points: int) -> None:
    assert key.points(king) == points
    card = f"{key.rank}{key.suits[0]}"
    assert bb.card_value(card, bb.Options(king=king)) == points


def test_each_colour_of_a_rank_is_two_cards_then_greyed_out() -> None:
    entry = BinEntry.start(record())
    five = PadKey("5")
    entry = play(entry, "Ben", five)
    entry = play(entry, "Cat", five)
    assert [p.card for p in entry.plays] == ["5S", "5C"], "two distinct physical cards"
    assert not entry.can_value(five)
    assert entry.can_value(PadKey("5", red=True))
    with pytest.raises(ValueUsedError, match="both 5♠♣ cards"):
        entry.choose_receiver("Dan").choose_value(five)


def test_a_value_needs_a_receiver_first() -> None:
    with pytest.raises(ReceiverError, match="tap who Ann's card goes to"):
        BinEntry.start(record()).choose_value(PadKey("3"))


# --- turns and Selfless ---------------------------------------------------------------------------------------


def test_selfless_greys_out_the_player_playing() -> None:
    entry = BinEntry.start(record({"selfless": True}))
    assert entry.giver == "Ann"
    assert [entry.can_receive(name) for name in PLAYERS] == [False, True, True, True]
    with pytest.raises(ReceiverError, match="Selfless is on"):
        entry.choose_receiver("Ann")
    entry = play(entry, "Cat", PadKey("2"))
    assert entry.giver == "Ben"
    assert not entry.can_receive("Ben") and entry.can_receive("Ann")


def test_without_selfless_a_player_may_keep_a_card() -> None:
    entry = BinEntry.start(record())
    assert entry.can_receive("Ann")
    assert play(entry, "Ann", PadKey("9")).running_points()["Ann"] == 9


def test_turn_passes_clockwise_and_rotates_each_hand() -> None:
    entry = BinEntry.start(record())
    order = []
    for _ in range(6):
        order.append(entry.giver)
        entry = play(entry, "Dan", next(k for k in pad_keys(entry.options) if entry.can_value(k)))
    assert order == ["Ann", "Ben", "Cat", "Dan", "Ann", "Ben"]
    second = BinEntry.start(record(hands=[{"scores": dict.fromkeys(PLAYERS, 0)}]))
    assert second.number == 2 and second.giver == "Ben"


def test_the_next_hand_opens_in_the_form_of_the_last_one() -> None:
    assert BinEntry.start(record()).mode is EntryMode.LIVE
    assert BinEntry.start(record(hands=[{"scores": dict.fromkeys(PLAYERS, 0)}])).mode is EntryMode.QUICK
    live = full_hand(BinEntry.start(record())).to_hand()
    assert BinEntry.start(record(hands=[live])).mode is EntryMode.LIVE


def test_someone_else_can_play_out_of_turn_but_not_with_an_empty_hand() -> None:
    entry = BinEntry.start(record()).choose_giver("Cat")
    assert entry.giver == "Cat"
    entry = play(entry, "Ann", PadKey("4"))
    assert entry.plays[-1].by == "Cat" and entry.giver == "Dan"
    for _ in range(4):
        entry = entry.choose_giver("Cat")
        entry = play(entry, "Ann", next(k for k in pad_keys(entry.options) if entry.can_value(k)))
    assert entry.cards_left("Cat") == 0
    assert not entry.can_give("Cat")
    with pytest.raises(NotYourTurnError, match="played all 5 cards"):
        entry.choose_giver("Cat")


def test_a_full_hand_is_accepted_by_the_scorer_with_the_running_points() -> None:
    rec = record({"selfless": True})
    entry = full_hand(BinEntry.start(rec))
    assert entry.giver is None and entry.can_confirm() and len(entry.plays) == 20
    hand = entry.to_hand()
    result = score_with(rec, hand)
    assert result.hands[0].model_dump()["card_points"] == entry.running_points()


def test_an_unfinished_hand_cannot_be_confirmed_and_says_who_still_holds_cards() -> None:
    entry = play(BinEntry.start(record()), "Ben", PadKey("Q", red=True))
    assert not entry.can_confirm()
    with pytest.raises(BargainBinIncompleteError, match="Ann has 4 cards left to play, Ben 5, Cat 5, Dan 5"):
        entry.to_hand()


def test_take_back_last_card() -> None:
    entry = play(play(BinEntry.start(record()), "Ben", PadKey("3")), "Cat", PadKey("7", red=True))
    entry = entry.undo_play()
    assert [p.card for p in entry.plays] == ["3S"] and entry.giver == "Ben"
    assert entry.can_value(PadKey("7", red=True))


# --- the Joker ------------------------------------------------------------------------------------------------


def test_joker_is_greyed_out_when_its_rule_is_off() -> None:
    entry = BinEntry.start(record())
    assert not entry.can_value(JOKER_KEY)
    with pytest.raises(ValueUsedError, match="Joker rule is off"):
        entry.choose_receiver("Ben").choose_value(JOKER_KEY)


def test_a_joker_key_plays_the_joker_with_its_sign_in_one_tap() -> None:
    """Receiver plus value: two taps a card, the Joker included (its player says the sign as it is played)."""
    entry = BinEntry.start(record({"joker": True, "selfless": True}))
    changes = 0
    for change in (lambda e: e.choose_receiver("Ben"), lambda e: e.choose_value(JOKER_MINUS)):
        entry = change(entry)
        changes += 1
    assert changes == 2 and not entry.joker_waiting
    assert entry.plays[-1] == Played("Ann", "Ben", "JK-") and entry.running_points()["Ben"] == -20
    assert not entry.can_value(JOKER_PLUS) and not entry.can_value(JOKER_MINUS), "one Joker a hand"
    again = BinEntry.from_draft(entry.record, entry.to_draft())
    assert again == entry and again.in_front_of("Ben") == ["Joker −20"]
    plus = BinEntry.start(record({"joker": True})).choose_receiver("Cat").choose_value(JOKER_PLUS)
    assert plus.to_draft()["plays"][-1]["card"] == "JK+" and plus.running_points()["Cat"] == 20
    assert JOKER_PLUS.spoken() == "Joker, plus 20" and PadKey.of("JK-") == JOKER_MINUS


def test_a_typical_live_hand_is_two_taps_a_card_and_confirm() -> None:
    """4 players, 5 cards each: 20 cards × (receiver, value) = 40 state changes, then the hand can be confirmed."""
    entry = BinEntry.start(record({"joker": True}))
    changes = 0
    while entry.giver is not None:
        giver = entry.giver
        to = next(n for n in entry.players if n != giver and entry.can_receive(n))
        entry = entry.choose_receiver(to)
        key = next(k for k in reversed(pad_keys(entry.options)) if entry.can_value(k))  # the Joker first
        entry = entry.choose_value(key)
        changes += 2
    assert changes == 2 * 4 * HAND_SIZE and entry.can_confirm()
    assert any(p.card.startswith("JK") for p in entry.plays)


def test_a_kept_joker_waiting_for_its_sign_still_gets_it() -> None:
    """A draft kept before the Joker had two keys (the Joker waiting for its sign) is finished with the sign."""
    entry = BinEntry.start(record({"joker": True, "selfless": True})).choose_receiver("Ben").choose_value(JOKER_KEY)
    assert entry.joker_waiting and not entry.plays
    with pytest.raises(JokerSignError, match="waiting for its sign"):
        entry.choose_value(PadKey("2"))
    entry = entry.choose_sign(Sign.MINUS)
    assert entry.plays[-1].card == "JK-" and entry.running_points()["Ben"] == -20
    assert not entry.can_value(JOKER_KEY), "one Joker a hand"
    assert entry.in_front_of("Ben") == ["Joker −20"]


def test_sign_without_a_joker_is_refused() -> None:
    with pytest.raises(JokerSignError):
        BinEntry.start(record({"joker": True})).choose_sign(Sign.PLUS)


# --- conduct --------------------------------------------------------------------------------------------------


def test_warning_discards_the_unplayed_cards_and_the_hand_still_validates() -> None:
    rec = record({"vegas_unit_cents": 5})
    entry = play(BinEntry.start(rec), "Cat", PadKey("8"))  # Ann plays one card, then is warned
    text = entry.conduct_text("Ann", Action.WARN)
    assert "Ann's 4 unplayed cards are discarded" in text and "still pays into the bin" in text
    entry = entry.give_conduct("Ann", Action.WARN)
    assert entry.cards_left("Ann") == 0 and not entry.can_give("Ann")
    entry = full_hand(entry)
    assert entry.play_count("Ann") == 1 and entry.play_count("Ben") == 5
    hand = entry.to_hand()
    assert hand["conduct"] == [{"player": "Ann", "action": "warn"}]
    assert score_with(rec, hand).warned == ["Ann"]


def test_second_warning_in_a_later_hand_points_to_removal() -> None:
    rec = record(hands=[{"scores": dict.fromkeys(PLAYERS, 0), "conduct": [{"player": "Ben", "action": "warn"}]}])
    text = BinEntry.start(rec).conduct_text("Ben", Action.WARN)
    assert "already warned in hand 1" in text


def test_removal_consequences_in_a_four_player_game() -> None:
    entry = BinEntry.start(record())
    first = entry.conduct_text("Ben", Action.REMOVE)
    assert "removal 1 of 2" in first and "1 more removal would cancel" in first
    assert not entry.removal_cancels("Ben")
    entry = entry.give_conduct("Ben", Action.REMOVE)
    assert not entry.can_receive("Ben") and entry.cards_left("Ben") == 0
    second = entry.conduct_text("Dan", Action.REMOVE)
    assert "removal 2 of 2" in second and "cancelled" in second
    assert entry.removal_cancels("Dan")
    entry = entry.give_conduct("Dan", Action.REMOVE)
    assert entry.cancels() and not entry.can_conduct("Cat", Action.REMOVE)


def test_five_players_need_three_removals_to_cancel() -> None:
    rec = {**record(), "players": [*PLAYERS, "Eve"]}
    entry = BinEntry.start(rec).give_conduct("Ann", Action.REMOVE).give_conduct("Ben", Action.REMOVE)
    assert not entry.cancels()
    assert "removal 3 of 3" in entry.conduct_text("Cat", Action.REMOVE)


def test_conduct_that_cannot_be_given() -> None:
    rec = record(hands=[{"scores": {"Ann": 1, "Cat": 0, "Dan": 0}, "conduct": [{"player": "Ben", "action": "remove"}]}])
    entry = BinEntry.start(rec)
    assert entry.active == ["Ann", "Cat", "Dan"]
    with pytest.raises(ConductError, match="already been removed"):
        entry.give_conduct("Ben", Action.WARN)
    warned = entry.give_conduct("Cat", Action.WARN)
    with pytest.raises(ConductError, match="already warned in this hand"):
        warned.give_conduct("Cat", Action.WARN)
    assert warned.take_back_conduct("Cat").conduct == ()


def test_cancelling_removal_and_refunds_through_the_scorer() -> None:
    rec = record({"vegas_unit_cents": 10}, hands=[{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}])
    entry = BinEntry.start(rec).set_mode(EntryMode.QUICK)
    entry = entry.give_conduct("Ben", Action.REMOVE).give_conduct("Cat", Action.REMOVE)
    entry = entry.set_score("Ann", "3").set_score("Dan", "-2")
    hand = entry.to_hand()
    assert hand == {
        "scores": {"Ann": 3, "Dan": -2},
        "conduct": [{"player": "Ben", "action": "remove"}, {"player": "Cat", "action": "remove"}],
    }
    result = score_with(rec, hand)
    assert result.cancelled and result.winners == []
    assert (
        end_headline(result) == "The game is cancelled: the pot of $2.60 is refunded: Ben $0.60, Cat $1.50, Dan $0.50"
    )
    assert [line.net for line in money_lines(result)] == [0, 0, 0, 0]
    assert transfers(result) == []


# --- the quick form -------------------------------------------------------------------------------------------


def test_quick_form_names_a_missing_or_wrong_total() -> None:
    entry = BinEntry.start(record()).set_mode(EntryMode.QUICK).set_score("Ann", "12").set_score("Ben", "x3")
    with pytest.raises(ScoreInputError, match="Ben's card points 'x3' is not a whole number"):
        entry.parsed_scores()
    entry = entry.set_score("Ben", "−3")
    assert entry.missing() == "Cat's card points are missing"
    entry = entry.set_score("Cat", "+4").set_score("Dan", " 0 ")
    assert entry.to_hand() == {"scores": {"Ann": 12, "Ben": -3, "Cat": 4, "Dan": 0}}


def test_quick_form_total_beyond_the_cards_is_refused_by_the_scorer() -> None:
    rec = record()
    hand = BinEntry.start(rec).set_mode(EntryMode.QUICK)
    for name in PLAYERS:
        hand = hand.set_score(name, "999" if name == "Cat" else "0")
    with pytest.raises(ScoringError, match="Cat's score 999"):
        hand.preview()


def test_switching_mode_loses_nothing() -> None:
    entry = play(BinEntry.start(record()), "Ben", PadKey("6"))
    entry = entry.set_mode(EntryMode.QUICK).set_score("Ann", "5").set_mode(EntryMode.LIVE)
    assert len(entry.plays) == 1 and entry.score_text("Ann") == "5"


# --- drafts and corrections -----------------------------------------------------------------------------------


def test_draft_round_trip() -> None:
    rec = record({"joker": True})
    entry = play(BinEntry.start(rec), "Ben", PadKey("K", red=True)).give_conduct("Dan", Action.WARN)
    entry = entry.choose_receiver("Cat").choose_value(JOKER_KEY)
    again = BinEntry.from_draft(rec, entry.to_draft())
    assert again == entry


def test_a_draft_naming_a_stranger_is_refused() -> None:
    draft = BinEntry.start(record()).to_draft() | {"plays": [{"by": "Zed", "to": "Ann", "card": "2S"}]}
    with pytest.raises(ValueError, match="Zed is not a player"):
        BinEntry.from_draft(record(), draft)


def test_correcting_saved_hands_of_each_form() -> None:
    rec = record({"selfless": True})
    live = full_hand(BinEntry.start(rec))
    again = BinEntry.from_hand(rec, live.to_hand())
    assert again.mode is EntryMode.LIVE and again.plays == live.plays
    quick = BinEntry.from_hand(rec, {"scores": {"Ann": 4, "Ben": 1, "Cat": 0, "Dan": -2}})
    assert quick.mode is EntryMode.QUICK and quick.score_text("Dan") == "-2"
    cards = BinEntry.from_hand(rec, {"cards": {"Ann": ["KS", "2H"]}, "conduct": [{"player": "Ben", "action": "warn"}]})
    assert cards.score_text("Ann") == "10" and cards.conduct == (("Ben", Action.WARN),)


# --- Vegas ----------------------------------------------------------------------------------------------------


def test_vegas_line_shows_this_hand_and_the_pot() -> None:
    rec = record({"vegas_unit_cents": 10}, hands=[{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}])
    entry = BinEntry.start(rec).set_mode(EntryMode.QUICK)
    for name, value in zip(PLAYERS, ["2", "7", "0", "-1"], strict=True):
        entry = entry.set_score(name, value)
    line = entry.vegas_line()
    assert line == ({"Ann": 50, "Ben": 0, "Cat": 70, "Dan": 80}, 210 + 200)
    assert BinEntry.start(record()).vegas_line() is None


def test_vegas_end_payouts_and_settle_up() -> None:
    rec = record({"vegas_unit_cents": 10, "target": 1})
    result = score_with(rec, {"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}})
    assert pot_lines(result)[0] == ("Pot", "$2.10")
    # a word joiner holds the sign to its amount
    assert [line.text for line in money_lines(result)][1] == "Ben: paid $0.60, takes $0.00, net −\u2060$0.60"
    assert end_headline(result) == "The pot of $2.10 is paid out: Ann $1.05, Dan $1.05"
    assert transfers(result) == ["Cat pays Ann $1.05", "Ben pays Dan $0.60", "Cat pays Dan $0.45"]
    assert pot_lines(find_game("bargain-bin").score(record())) == []


# --- property: whatever legal taps are made, the record is valid ----------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.data(), st.booleans(), st.booleans())
def test_any_legal_tap_sequence_gives_a_hand_the_scorer_accepts(data: Any, selfless: bool, joker: bool) -> None:
    rec = record({"selfless": selfless, "joker": joker, "vegas_unit_cents": 5})
    entry = BinEntry.start(rec)
    if data.draw(st.booleans()):
        entry = entry.give_conduct(data.draw(st.sampled_from(PLAYERS)), Action.WARN)
    while entry.giver is not None:
        to = data.draw(st.sampled_from([name for name in PLAYERS if entry.can_receive(name)]))
        key = data.draw(st.sampled_from([k for k in pad_keys(entry.options) if entry.can_value(k)]))
        entry = entry.choose_receiver(to).choose_value(key)
        if entry.joker_waiting:
            entry = entry.choose_sign(data.draw(st.sampled_from(list(Sign))))
    result = entry.preview()
    assert result.hands[0].model_dump()["card_points"] == entry.running_points()
    assert sum(result.hands[0].points.values()) <= 2
    line = entry.vegas_line()
    assert line is not None and line[0] == result.hands[0].model_dump()["payments"]


def test_a_draft_that_no_longer_fits_the_record_is_refused() -> None:
    """A draft kept for hand 2 that removes Ben cannot be reused for hand 3 once Ben is removed."""
    hand_two = BinEntry.start(record(hands=[{"scores": dict.fromkeys(PLAYERS, 0)}])).give_conduct("Ben", Action.REMOVE)
    later = record(
        hands=[
            {"scores": dict.fromkeys(PLAYERS, 0)},
            {"scores": {"Ann": 1, "Cat": 0, "Dan": 0}, "conduct": [{"player": "Ben", "action": "remove"}]},
        ]
    )
    with pytest.raises(ConductError, match="Ben has already been removed"):
        BinEntry.from_draft(later, hand_two.to_draft())


def test_a_draft_breaking_selfless_is_refused() -> None:
    draft = BinEntry.start(record()).to_draft() | {"plays": [{"by": "Ann", "to": "Ann", "card": "2S"}]}
    assert BinEntry.from_draft(record(), draft).plays[0].to == "Ann"
    with pytest.raises(ReceiverError, match="Selfless"):
        BinEntry.from_draft(record({"selfless": True}), draft)


# --- the entry panel on the table screen, on a fake page (no browser) -----------------------------------------


class _Page(FakePage):
    def navigate(self, route: str) -> None:
        super().navigate(route)
        self.route = route


def _render(services: AppServices, route: str) -> ft.View:
    page = _Page(route)
    Shell(cast(ft.Page, page), services).render()
    return page.views[-1]


def _buttons(view: ft.View) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for control, _ in walk(view):
        if isinstance(control, INTERACTIVE) and label_of(control):
            found.setdefault(label_of(control), control)
    return found


def _texts(view: ft.View) -> list[str]:
    out = []
    for control, _ in walk(view):
        if isinstance(control, ft.Text):
            out += [t for t in (control.value, control.semantics_label) if t]
    return out


def _tap(view: ft.View, label: str) -> None:
    control = _buttons(view)[label]
    assert not greyed(view, control), f"{label} is greyed out"
    press(control)


def _chosen(view: ft.View) -> list[str]:
    """The labels of the receivers read out as selected (their node's ``selected``; each is a key: its box, in its
    keyboard listener, in its gesture detector, holds the text)."""
    return [
        str(c.content.content.content.content.value)
        for c, _ in walk(view)
        if isinstance(c, ft.Semantics)
        and c.selected
        and isinstance(c.content, ft.GestureDetector)
        and isinstance(c.content.content, ft.KeyboardListener)
        and isinstance(c.content.content.content, Key)
        and isinstance(c.content.content.content.content, ft.Text)
        and str(c.content.content.content.content.value).startswith("To ")
    ]


def _type(view: ft.View, label: str, value: str) -> None:
    field = next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == label)
    field.value = value
    cast(Any, field.on_change)(SimpleNamespace(control=field))


def test_live_play_and_conduct_on_the_table_screen(services: AppServices) -> None:
    table = services.sessions.start("bargain-bin", PLAYERS, {"selfless": True, "joker": True, "vegas_unit_cents": 10})
    view = _render(services, f"/continue/{table.id}")
    for control, labelled in walk(view):
        if isinstance(control, INTERACTIVE):
            assert labelled or label_of(control), f"{type(control).__name__} has no label"
            if isinstance(control, ft.OutlinedButton | ft.FilledButton):
                assert (control.height or 0) >= 48, f"{label_of(control)} is smaller than 48 px"
    shown = _buttons(view)
    assert greyed(view, shown["To Ann (0)"]), "Selfless: Ann plays first"
    [over_receivers, veil] = [c for c, _ in walk(view) if isinstance(c, Veil)]  # the receivers', then the pad's
    assert over_receivers.bgcolor is None, "the receivers are not veiled while cards are left to play"
    assert greyed(view, shown["K♠♣"]) and veil.bgcolor is not None, "the pad is veiled until a receiver is tapped"
    cast(Any, veil.on_click)(None)  # a key tapped through the veil
    assert any("Tap who Ann's card goes to first" in t for t in _texts(view)), "a key tapped first is refused"
    assert table.draft() is None or not table.draft()["plays"]  # type: ignore[index]
    assert _chosen(view) == []
    _tap(view, "To Ben (0)")
    assert _chosen(view) == ["To Ben (0)"], "the receiver tapped is read out as selected"
    assert not greyed(view, _buttons(view)["K♠♣"]), "the veil is lowered"
    _tap(view, "K♠♣")
    assert _chosen(view) == [], "the card is given: no receiver is chosen"
    _tap(view, "To Ann (0)")
    _tap(view, "Joker −20")  # the sign is in the key: no third tap
    assert "Card points so far: Ann -20, Ben 12, Cat 0, Dan 0" in _texts(view)
    assert greyed(view, _buttons(view)["Joker −20"]) and greyed(view, _buttons(view)["Joker +20"])
    assert table.draft() is not None and len(table.draft()["plays"]) == 2  # type: ignore[index]
    assert any(t.startswith("Vegas ($0.10 a point): as it stands, this hand Ann $3.20") for t in _texts(view))

    _tap(view, "Warn or remove a player")
    _tap(view, "Remove Dan")
    assert any("removal 1 of 2" in t and "Dan's 5 unplayed cards are discarded" in t for t in _texts(view))
    _tap(view, "Confirm: remove Dan")
    assert greyed(view, _buttons(view)["To Dan (0)"])
    _tap(view, "Take back last card")
    assert "Card points so far: Ann 0, Ben 12, Cat 0, Dan 0" in _texts(view)
    assert "Take back: Dan removed" in _buttons(view), "taking back a card keeps the conduct"
    assert "Next: Ben plays: who gets the card?" in _texts(view)
    _tap(view, "Someone else plays")
    assert _buttons(view)["Dan plays"].disabled, "removed in this hand: no cards left"
    _tap(view, "Cat plays")
    assert "Next: Cat plays: who gets the card?" in _texts(view)
    assert greyed(view, _buttons(view)["To Cat (0)"]) and not greyed(view, _buttons(view)["To Ben (12)"])


def test_quick_form_end_payouts_and_settle_up_on_the_table_screen(services: AppServices) -> None:
    table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 10, "target": 1})
    view = _render(services, f"/continue/{table.id}")
    _tap(view, "Quick totals")
    for name, value in zip(PLAYERS, ["10", "4", "oops", "10"], strict=True):
        _type(view, f"{name}'s card points", value)
    assert greyed(view, _buttons(view)["Confirm hand"])
    assert any("Still needed: Cat's card points 'oops' is not a whole number." in t for t in _texts(view))
    _type(view, "Cat's card points", "-5")
    assert not greyed(view, _buttons(view)["Confirm hand"])
    _tap(view, "Confirm hand")
    assert table.hands == [{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}]
    shown = _texts(view)
    assert "The pot of $2.10 is paid out: Ann $1.05, Dan $1.05" in shown
    moves = list(dict.fromkeys(t for t in shown if re.fullmatch(r"\w+ pays \w+ \$[0-9.]+", t)))
    assert moves == ["Cat pays Ann $1.05", "Ben pays Dan $0.60", "Cat pays Dan $0.45"]
    # why the game ended is the verdict banner: scoring's headline and one sentence per winner, with the rulings
    assert "Ann and Dan win: both reached the target of 1 game point in the same hand." in shown, "the verdict"
    assert any(t.startswith("Ann wins with 1 game point") and "(rule 7, BB-6)" in t for t in shown), shown


# --- money in one unit, and the conduct dialog's words (issue 15) -----------------------------------------------


def _vegas_game(services: AppServices) -> Any:
    table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 25, "target": 9})
    table.add_hand({"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}})
    return table


def test_the_table_writes_money_in_the_apps_money_setting(services: AppServices) -> None:
    """Notes, the pot line and the Vegas line in the unit of the money setting: no amount in cents (¢)."""
    services.settings.set_money({"currency": "EUR", "locale": "de_DE", "decimal": ",", "group": "."})
    table = _vegas_game(services)
    view = _render(services, f"/continue/{table.id}")
    texts = [t.replace("\xa0", " ") for t in _texts(view)]
    notes = [t for t in texts if "Vegas: each ranked player pays" in t]
    assert notes and "× 0,25 €: Ben 1,50 €, Cat 3,75 €" in notes[0], notes
    assert any("Pot: 5,25 € · Last hand paid: Ben 1,50 €, Cat 3,75 €" in t for t in texts), texts
    assert any(t.startswith("Vegas (0,25 € a point): as it stands") for t in texts), texts
    assert not [t for t in texts if "¢" in t], [t for t in texts if "¢" in t]


def test_the_end_of_a_vegas_game_in_the_money_setting() -> None:
    from companion.money import MoneyFormat

    rec = record({"vegas_unit_cents": 10, "target": 1}, [{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}])
    result = find_game("bargain-bin").score(rec)
    euro = MoneyFormat.for_locale("de_DE", "EUR")
    assert end_headline(result, euro).replace("\xa0", " ") == "The pot of 2,10 € is paid out: Ann 1,05 €, Dan 1,05 €"
    assert transfers(result, euro)[0].replace("\xa0", " ") == "Cat pays Ann 1,05 €"
    assert money_lines(result, euro)[1].text.replace("\xa0", " ") == "Ben: paid 0,60 €, takes 0,00 €, net −0,60 €"
    notes = deciding_notes(result, euro)
    assert [n.replace("\xa0", " ") for n in notes] == [
        "Ann and Dan reach 1 game point in the same hand: both win (rule 7, BB-6)",
        "Vegas: Ann and Dan split the pot of 2,10 €: 1,05 € each (BB-10)",
    ], "picked by their ruling ids (rule 7, BB-10), money as the app shows it"


def test_the_warning_dialog_says_what_happens_in_plain_words() -> None:
    live = BinEntry.start(record({"vegas_unit_cents": 5}))
    text = live.conduct_text("Ben", Action.WARN)
    assert text.startswith("Warn Ben: Ben's 5 unplayed cards are discarded. Ben plays no more cards this hand")
    assert "stays in the ranking and still pays into the bin (rule 9.1, BB-12)" in text
    assert "they" not in text.replace("in front of them", ""), "no 'they … pays'"
    quick = live.set_mode(EntryMode.QUICK).conduct_text("Ben", Action.WARN)
    assert "Ben's unplayed cards are discarded." in quick and "5 unplayed" not in quick, "the quick form has no cards"
    warned = record(
        {}, [{"scores": {"Ann": 1, "Ben": 0, "Cat": 2, "Dan": 3}, "conduct": [{"player": "Ben", "action": "warn"}]}]
    )
    removal = BinEntry.start(warned).conduct_text("Ben", Action.REMOVE)
    assert "Ben was warned in hand 1: this second offence removes Ben (rule 9.2)." in removal
    assert "pays" not in removal and "stays in the pot" not in removal, "no money without Vegas"
    first = BinEntry.start(record({"vegas_unit_cents": 5})).conduct_text("Cat", Action.REMOVE)
    assert "Cat has not been warned before" in first and "What Cat has paid stays in the pot (BB-13)." in first
    both = BinEntry.start(record()).give_conduct("Dan", Action.WARN).conduct_text("Dan", Action.REMOVE)
    assert "Dan was warned earlier in this hand" in both


def test_the_vegas_line_does_not_replay_the_record_on_every_tap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pot before the hand is worked out once an entry (the first time the Vegas line asks for it), never once
    a tap; given the pot (the table screen passes the session's), the entry scores nothing at all."""
    rec = record({"vegas_unit_cents": 10}, [{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}])
    entry = BinEntry.start(rec)
    calls: list[int] = []
    real = bb.GAME

    class Counting:
        def score(self, record: Any) -> Any:
            calls.append(1)
            return real.score(record)

    monkeypatch.setattr(bb, "GAME", Counting())
    taps = (("Ben", PadKey("K")), ("Cat", PadKey("Q", red=True)), ("Dan", PadKey("3")))
    lines = []
    for to, key in taps:
        entry = entry.choose_receiver(to).choose_value(key)
        line = entry.vegas_line()
        assert line is not None and line[1] >= 210
        lines.append(line)
    assert calls == [1], "one replay for the entry, none per tap"
    fresh = BinEntry.start(rec)
    for (to, key), line in zip(taps, lines, strict=True):
        fresh = fresh.choose_receiver(to).choose_value(key)
        assert fresh.vegas_line(210) == line, "the pot given is the pot the replay found"
    assert calls == [1], "given the pot, no replay at all"
