"""A grid of keys is its own update boundary: an update that changes none of its keys (a Confirm's reply) walks
past them, and a key that changed opens its grid for the update that sends it (:func:`views.table.entry.send_changes`).

These taps are sent through Flet's own diff, as the page's session makes it: the screen is first sent whole (which
takes Flet's snapshots and links each control to its parent), then every update of the table screen is diffed and
encoded. After each tap the test diffs each grid of keys again with nothing in it isolated: whatever that finds
was changed and never sent (a key greyed out on the server, still bright on the phone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch

from companion.services import AppServices
from tests.conftest import run_async
from tests.support.events import LATER, event_tap
from tests.support.keys import bargain_bin_next, row_of
from tests.support.screens import buttons, greyed, render, walk
from tests.support.wire import Wire, changed
from views.flet_private import set_isolated

pytestmark = pytest.mark.usefixtures("quick_replies")


def left_unsent(view: ft.View) -> list[Any]:
    """What diffs of the screen's grids of keys, with nothing in them isolated, would still send (their operations).

    (Only the grids: a whole screen diffed again always finds a Material button's ``style``, which Flet's own
    ``before_update`` sets again whenever the button is walked.)"""
    grids = [c for c, _ in walk(view) if isinstance(c, ft.ResponsiveRow) and c.is_isolated()]
    assert grids, "the screen shows a grid of keys"
    found: list[Any] = []
    for grid in grids:
        inside = [c for c, _ in walk(grid) if isinstance(c, BaseControl) and c.is_isolated()]
        for control in inside:
            set_isolated(control, False)
        try:
            patch, _, _ = ObjectPatch.from_diff(grid, grid, control_cls=BaseControl)
            found += patch.to_message()[1:]
        finally:
            for control in inside:
                set_isolated(control, True)
    return found


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[Wire]:
    out = Wire()
    monkeypatch.setattr("views.table.entry.refresh", out.send)
    seen = BaseControl.before_update

    def noted(self: BaseControl) -> None:
        out.saw(self)
        seen(self)

    monkeypatch.setattr(BaseControl, "before_update", noted)
    yield out


def play(view: ft.View, wire: Wire, labels: list[str]) -> list[list[Any]]:
    """Tap each of ``labels`` as Flet calls a handler, each with the messages after its reply; checks after each
    tap that nothing it changed was left unsent. Returns, for each tap, the controls its reply walked."""
    replies: list[list[Any]] = []

    async def taps() -> None:
        for label in labels:
            wire.walked.clear()
            event_tap(view, label)
            await asyncio.sleep(LATER)
            assert wire.walked, f"{label!r} sent nothing"
            replies.append(wire.walked[0])
            assert left_unsent(view) == [], f"{label!r} left changes unsent"

    run_async(taps())
    return replies


def test_jokers_kill_a_confirm_walks_past_the_cards_and_a_card_tap_sends_its_card(
    services: AppServices, wire: Wire
) -> None:
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    wire.send_first(view)
    keys = row_of(view, "2♣").controls
    assert len(keys) == 52 and all(isinstance(key.content, ft.GestureDetector) for key in keys)
    hand = ["9♠", "4♥", "7♦", "Q♣"]
    replies = play(view, wire, [*hand, "Confirm hand", "2♣"])
    for label, walked in zip([*hand, "2♣"], [*replies[:4], replies[5]], strict=True):
        assert any(c is buttons(view)[label] for c in walked), f"the reply to {label!r} carries its card"
        assert greyed(view, buttons(view)[label])
    confirm = replies[4]
    assert not any(c is key for c in confirm for key in keys), "the Confirm's reply walked the card grid"
    assert len(table.hands) == 1


@pytest.mark.parametrize(
    ("game", "players", "options", "labels"),
    [
        ("1111-9999", ["Ann", "Ben"], None, [*"423928758631", "Confirm hand", "5"]),
        (
            "feast-and-famine",
            ["Ann", "Ben"],
            {"circuits": 2},
            ["Dealer: Ann", "Joker", "7♣", "5♥", "3♠", "8♦", "Refuse", "Joker", "Confirm round", "9♠"],
        ),
        (
            "financial-crisis",
            ["Ann", "Ben"],
            {"rounds": 3},
            ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "Next: Ben's pile", "8♠", "9♠", "Confirm round", "10♠"],
        ),
    ],
)
def test_each_game_sends_every_key_it_changes(
    services: AppServices,
    wire: Wire,
    game: str,
    players: list[str],
    options: dict[str, Any] | None,
    labels: list[str],
) -> None:
    extra = {"sides": {"Ann": "A", "Ben": "B"}} if game == "1111-9999" else None
    table = services.sessions.start(game, players, options, extra=extra)
    _, view = render(services, f"/continue/{table.id}")
    wire.send_first(view)
    play(view, wire, labels)


def bargain_bin_hand(services: AppServices, wire: Wire, players: list[str]) -> tuple[Any, ft.View]:
    """A Bargain Bin table of ``players`` on the wire, its first hand played tap by tap (every card, not confirmed)."""
    table = services.sessions.start("bargain-bin", players, {"target": 1000})
    _, view = render(services, f"/continue/{table.id}")
    wire.send_first(view)
    taps = 0
    while (label := bargain_bin_next(view, taps)) is not None:
        play(view, wire, [label])
        taps += 1
    return table, view


def test_bargain_bin_every_receiver_and_value_tap_is_sent(services: AppServices, wire: Wire) -> None:
    """A hand of four players, tapped receiver, value, receiver..., its Confirm and the next hand's first tap: the
    value pad and the receivers are grids too (each receiver tap greys a receiver out, each value tap can grey a
    value out, the Confirm brings them all back)."""
    table, view = bargain_bin_hand(services, wire, ["Ann", "Ben", "Cat", "Dan"])
    play(view, wire, ["Confirm hand", "To Ann (0)"])  # the next hand's pad and receivers, as new
    assert len(table.hands) == 1


def test_a_confirm_s_reply_walks_past_the_entry_panel(services: AppServices, wire: Wire) -> None:
    """The Confirm's reply is the new standings; the next hand is drawn after it, so the reply leaves the entry
    panel as it was and walks past it (none of its controls compared: Bargain Bin's is the largest of the screen).
    The next hand's message then sends every control of the panel that changed: none is left unsent."""
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    table, view = bargain_bin_hand(services, wire, names)
    title = next(c for c, _ in walk(view) if isinstance(c, ft.Text) and c.value == "Hand 1")
    prompt = next(c for c, _ in walk(view) if isinstance(c, ft.Text) and str(c.value).startswith("Every card"))
    ann = next(c for k, c in buttons(view).items() if k.startswith("To Ann ("))
    kept = [title, prompt, ann, buttons(view)["Confirm hand"]]
    wire.walked.clear()
    [confirm] = play(view, wire, ["Confirm hand"])
    assert len(table.hands) == 1
    assert any(str(getattr(c, "label", "")).startswith("1. Ann: ") for c in confirm), "the new standings"
    assert not any(c is control for c in confirm for control in kept), "the reply walked the entry panel"
    assert len(wire.walked) > 1, "the next hand followed in a message of its own"
    assert title.value == "Hand 2" and str(prompt.value).endswith(" plays: who gets the card?"), prompt.value
    for control in kept:
        assert changed(control) == [], f"{control} left changes unsent"
