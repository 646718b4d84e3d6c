"""Financial Crisis, Feast and Famine and 1111-9999: the taps of a hand (round) replay nothing, a Confirm scores the
new record once, and a tap sends only the controls it changed (issue 15).

Each game's scorer and each game's record validation are wrapped to count their calls; then whole hands are played
on the table screen (a fake page, tapped through the handlers). A tap that replayed the record, scored it or even
validated it again (the per-tap replay these panels used to make) fails the test.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

import flet as ft
import pytest

from companion.services import AppServices
from scoring import GAMES
from tests.support.counting import counting_scorers
from tests.support.keys import bargain_bin_next, key_label, row_of
from tests.support.screens import Page, buttons, greyed, path_to, render, tap, texts, walk
from views.shell import Shell
from views.table.games.bargain_bin import TALL_SCREEN


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Calls by kind and game: ``score/<game>`` (the scorer: the record replayed) and ``parse/<game>`` (the whole
    record validated)."""
    counts: Counter[str] = Counter()
    for game in GAMES:
        model = game.record_model
        validate = model.model_validate.__func__  # type: ignore[attr-defined]

        def validating(cls: Any, *args: Any, key: str = game.key, validate: Any = validate, **kwargs: Any) -> Any:
            counts[f"parse/{key}"] += 1
            return validate(cls, *args, **kwargs)

        monkeypatch.setattr(model, "model_validate", classmethod(validating))
    with counting_scorers(counts, "score/"):
        yield counts


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[ft.Control]:
    """The controls the panels of these games send themselves, in order: what they give the screen to send (in
    one update, :func:`views.table.entry.send_changes`) and what they refresh on their own."""
    out: list[ft.Control] = []
    for module in ("financial_crisis", "ones_to_nines", "feast_and_famine"):
        if hasattr(importlib.import_module(f"views.table.games.{module}"), "refresh"):
            monkeypatch.setattr(f"views.table.games.{module}.refresh", out.append)
    monkeypatch.setattr("views.table.screen.send_changes", lambda root, changed: out.extend(changed))
    return out


def size(controls: list[ft.Control]) -> int:
    """How many controls sending these takes (each with everything under it)."""
    return sum(1 for control in controls for _ in walk(control))


def sent_size(controls: list[ft.Control]) -> int:
    """How many controls an update of these walks: each with what is under it, but not into an isolated control
    under it (Flet's update skips those: each sends itself)."""

    def under(control: Any, top: bool) -> int:
        if not top and isinstance(control, ft.BaseControl) and control.is_isolated():
            return 0
        return 1 + sum(under(child, False) for child in children(control))

    return sum(under(control, True) for control in controls)


def children(control: Any) -> list[ft.BaseControl]:
    found: list[ft.BaseControl] = []
    for field in dataclasses.fields(control) if dataclasses.is_dataclass(control) else []:
        if field.name.startswith("_") or field.name in ("parent", "page"):
            continue
        value = getattr(control, field.name, None)
        found += [one for one in (value if isinstance(value, list) else [value]) if isinstance(one, ft.BaseControl)]
    return found


def whole_row_sent(row: ft.Control, controls: list[ft.Control]) -> bool:
    """Whether sending ``controls`` sends ``row`` whole (it, or something around it, is among them)."""
    return any(found is row for control in controls for found, _ in walk(control))


def replays(counts: Counter[str], game: str) -> int:
    return counts[f"score/{game}"] + counts[f"parse/{game}"]


def hold(view: ft.View, label: str) -> None:
    """A long press on the key labelled ``label``, through the key's gesture detector (as its box's)."""
    control = buttons(view)[label]
    assert not control.disabled, f"{label} is greyed out"
    control.data.gestures.on_long_press(None)


# --- Financial Crisis ----------------------------------------------------------------------------------------------

FC_ROUND = (
    ["Q♣", "3♣", "7♠", "K♠", "4♥"],  # 2♣ 2♠ 1♥: ♠ loses; Q♣ and K♠ are ranked: valuable
    ["A♣", "5♣", "J♥", "8♠", "9♦", "10♦", "J♦", "6♠"],  # clubs +3, J♥ J♦ +6, 8♠ 6♠ −2: 7
    ["K♣", "2♠", "6♥", "7♥", "8♥", "Q♠", "9♠"],  # K♣ +2, 2♠ 9♠ −2, 6♥ 7♥ 8♥ +1, the biggest rest +1: 2
)


def test_financial_crisis_taps_replay_nothing_and_send_what_changed(
    services: AppServices, counted: Counter[str], sent: list[ft.Control]
) -> None:
    table = services.sessions.start("financial-crisis", ["Ann", "Ben"], {"rounds": 3})
    _, view = render(services, f"/continue/{table.id}")
    grid = row_of(view, "A♠")
    for number in (1, 2):
        counted.clear()
        bank, ann, ben = FC_ROUND
        taps = 0
        for k, card in enumerate([*bank, *ann, *ben]):
            sent.clear()
            if k == len(bank) + len(ann):
                hold(view, card)  # Ben's first card, held down: it starts his pile
            else:
                tap(view, card)
            taps += 1
            assert replays(counted, "financial-crisis") == 0, f"tap {taps} ({card}) replayed the record"
            assert sent, "a tap sends what it changed itself"
            assert not whole_row_sent(grid, sent), f"tap {taps} ({card}) sent the whole card grid"
            if taps > len(bank):  # a pile card: its key, the prompt, the counts, the piles' breakdown
                assert size(sent) < 100, f"tap {taps} ({card}) sent {size(sent)} controls"
        assert "Ann: 7 points this round" in texts(view) and "Ben: 2 points this round" in texts(view)
        tap(view, "Confirm round")
        assert counted["score/financial-crisis"] == 1, "a Confirm replays the record once"
        assert len(table.hands) == number and taps + 1 == 21
    assert table.result.totals == {"Ann": 14, "Ben": 4}


# --- Bargain Bin ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("height", [640, TALL_SCREEN], ids=["short", "tall"])
def test_bargain_bin_taps_on_the_largest_table_send_what_changed(
    services: AppServices, counted: Counter[str], sent: list[ft.Control], height: int
) -> None:
    """Ten players: the value pad takes the receivers' place once a receiver is tapped, and gives it back with the
    value, unless the screen is tall enough for both (:data:`TALL_SCREEN`). Each tap sends the receivers, keys and
    texts it changed, each on its own, and the two rows' visibility, never the panel with every receiver and key
    again (which sent 14.7 KB for a receiver tap and 4.9 KB for a value tap), nor the line of card points so far,
    which a large table leaves out (its receivers carry the points)."""
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    table = services.sessions.start("bargain-bin", players, {"target": 1000})
    page = Page(f"/continue/{table.id}")
    page.height = height  # as the client says it, before the table is drawn
    Shell(cast(ft.Page, page), services).render()
    view = page.views[-1]
    tall = height >= TALL_SCREEN
    for number in (1, 2):
        counted.clear()
        receivers = row_of(view, "To Ann (0)")
        pad = row_of(view, "A♠♣")
        body = receivers.parent
        rows = path_to(view, receivers), path_to(view, pad)
        taps = 0
        while (label := bargain_bin_next(view, taps)) is not None:
            sent.clear()
            tap(view, label)
            taps += 1
            shown = tuple(all(control.visible for control in path) for path in rows)
            if tall:
                assert shown == (True, True), f"tap {taps} ({label}): a tall screen shows both rows, not {shown}"
            else:
                assert shown == ((True, False) if taps % 2 == 0 else (False, True)), f"tap {taps} ({label}): {shown}"
            assert replays(counted, "bargain-bin") == 0, f"tap {taps} ({label}) replayed the record"
            assert sent, f"tap {taps} ({label}) sent nothing"
            assert body not in sent, f"tap {taps} ({label}) sent the panel whole"
            assert max(sent_size([one]) for one in sent) <= 8, f"tap {taps} ({label}) sent a whole row"
            if taps > 1:  # (a hand's first receiver shows its pad: each key greyed out no more, the veil lowered)
                assert sent_size(sent) < 72, f"tap {taps} ({label}) sent {sent_size(sent)} controls"
            assert all(one.is_isolated() for one in receivers.controls)
            so_far = [t for t, _ in walk(view) if isinstance(t, ft.Text) and "Card points so far" in (t.value or "")]
            assert not so_far, f"tap {taps} ({label}) brought the line a large table leaves out up to date"
        assert taps == 100, "fifty cards, two taps each"
        tap(view, "Confirm hand")
        assert counted["score/bargain-bin hands"] == 1, "a Confirm replays its own hand, on top of the replay before"
        assert counted["score/bargain-bin"] == 0, "and not the whole record"
        assert len(table.hands) == number


# --- Feast and Famine ----------------------------------------------------------------------------------------------


def test_feast_and_famine_taps_replay_nothing_and_send_what_changed(
    services: AppServices, counted: Counter[str], sent: list[ft.Control]
) -> None:
    table = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 2})
    _, view = render(services, f"/continue/{table.id}")
    rounds = [
        # Ann deals: Ben's opening Joker is put aside and replaced; Ben Takes 3♠, Ann Takes 8♦, Ben Refuses, Ann
        # Takes and turns a Joker: Ben 7♣ 3♠ = 10 Frozen, Ann Knocked Out.
        ["Dealer: Ann", "Joker", "7♣", "5♥", "3♠", "8♦", "Refuse", "Joker"],
        # Ben deals (the deal passes left): Ann 9♠, Ben 4♥; Ann Takes 2♣ (11), Ben Refuses (4), Ann Refuses.
        ["9♠", "4♥", "2♣", "Refuse", "Refuse"],
    ]
    for number, taps in enumerate(rounds, start=1):
        counted.clear()
        grid = row_of(view, "A♠")  # the round's panel
        for label in taps:
            sent.clear()
            shown = grid.visible
            tap(view, label)
            assert replays(counted, "feast-and-famine") == 0, f"{label!r} replayed the record"
            assert sent, "a tap sends what it changed itself"
            if grid.visible == shown:  # (the grid is shown once the dealer is chosen, hidden once the round is over)
                assert not whole_row_sent(grid, sent), f"{label!r} sent the whole card grid"
                assert size(sent) < 40, f"{label!r} sent {size(sent)} controls"
        tap(view, "Confirm round")
        assert counted["score/feast-and-famine"] == 1, "a Confirm replays the record once"
        assert len(table.hands) == number
    assert table.result.totals == {"Ann": 11, "Ben": 14}


# --- 1111-9999 -----------------------------------------------------------------------------------------------------


def test_ones_to_nines_digit_taps_replay_nothing_and_send_what_changed(
    services: AppServices, counted: Counter[str], sent: list[ft.Control]
) -> None:
    table = services.sessions.start("1111-9999", ["Ann", "Ben"], extra={"sides": {"Ann": "A", "Ben": "B"}})
    _, view = render(services, f"/continue/{table.id}")
    for number in (1, 2):
        counted.clear()
        pad = row_of(view, "5")  # (a new hand's panel after a Confirm)
        for k, digit in enumerate("423928758631"):
            sent.clear()
            tap(view, digit)
            assert replays(counted, "1111-9999") == 0, f"digit {k + 1} replayed the record"
            assert sent, f"digit {k + 1} sent nothing"
            if k < 11:  # the field typed into, the prompt, the deck's count, a digit that greys out
                # (the table row's last digit: every field, each then showing its player's target); a field and
                # a digit are keys, five controls each (node, gesture detector, listener, box, text), the pad 50
                assert not whole_row_sent(pad, sent), f"digit {k + 1} sent the whole digit pad"
                assert size(sent) <= 17, f"digit {k + 1} sent {size(sent)} controls"
            else:  # every number in: the review takes the pad's place, the row sent for its visibility alone
                assert pad.visible is False and whole_row_sent(pad, sent)
                assert all(key.is_isolated() for key in pad.controls), "an update of the row sends no key"
        tap(view, "Confirm hand")
        assert counted["score/1111-9999"] == 1, "a Confirm replays the record once"
        assert len(table.hands) == number
    assert table.result.totals == {"Ann": 2 * 1364, "Ben": 2 * 693}


def test_jokers_kill_a_complete_hand_veils_the_grid_without_sending_its_cards(
    services: AppServices, sent: list[ft.Control]
) -> None:
    """The card that completes a hand raises the veil: the cover and the grid are sent (the grid disabled, so each
    card reads as unavailable), not the 52 cards; a card taken back lowers it the same way."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    grid = row_of(view, "2♣")
    cards = [key for key in grid.controls if key_label(key)]
    for card in ("9♠", "4♥", "7♦"):
        tap(view, card)
    sent.clear()
    tap(view, "Q♣")  # the hand is complete
    keys_sent = [c for c in sent if any(c is key for key in cards)]
    assert [key_label(c) for c in keys_sent] == ["Q♣"], "only the card dealt is sent, greyed out"
    assert any(c is grid for c in sent) and grid.disabled, "the grid is sent, disabled under the veil"
    assert sent_size(sent) < 30, f"raising the veil walked {sent_size(sent)} controls"
    assert greyed(view, buttons(view)["2♣"]), "a card under the veil reads as unavailable"
    sent.clear()
    tap(view, "Remove last card")
    assert [key_label(c) for c in sent if any(c is key for key in cards)] == ["Q♣"], "Q♣ back in the deck"
    assert any(c is grid for c in sent) and not grid.disabled, "the veil lowered: the grid enabled again"
    assert not greyed(view, buttons(view)["2♣"])


def test_feast_and_famine_a_tie_is_scored_once_with_the_tie_break_panel_it_opens(
    services: AppServices, counted: Counter[str]
) -> None:
    """The round that ends the game tied, then a tie-break round: each change is scored once, the panel that opens
    for the next tie-break round included (its players, the tied leaders, are the session's result's)."""
    table = services.sessions.start("feast-and-famine", ["Ann", "Ben"], {"circuits": 1})
    table.add_hand({"dealer": "Ann", "outcome": {"Ann": 5, "Ben": 5}})
    _, view = render(services, f"/continue/{table.id}")
    counted.clear()
    table.add_hand({"dealer": "Ben", "outcome": {"Ann": "out", "Ben": "out"}})  # tied on 5: a tie-break is due
    assert table.result.pending is not None and table.result.pending.players == ["Ann", "Ben"]
    assert "Tie-break round: Ann and Ben against the Ghost" in texts(view), "the tie-break panel is open"
    assert counted["score/feast-and-famine"] == 1, "the tie and the tie-break panel: one replay"
    counted.clear()
    table.append_part("tiebreak", {"ghost": None, "outcome": {"Ann": 4, "Ben": 4}})  # tied again (FF-13: both win)
    assert counted["score/feast-and-famine"] == 1
