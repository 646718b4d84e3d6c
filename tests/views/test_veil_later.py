"""The veil after the reply: a tap that raises a veil over a grid of keys (the card that completes a Jokers Kill
hand, the card played on a small Bargain Bin table) sends its reply without it, and the veil follows in a message of
its own (:class:`views.table.entry.VeilLater`); lowering it is never deferred.

The taps are made as Flet makes them: on a running event loop, inside a page event (its own update state). The
table screen's one update of a tap is caught (``sent``), so the test sees each message's controls in order.
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import flet as ft
import pytest

from companion.services import AppServices
from tests.conftest import run_async
from tests.support.screens import buttons, greyed, render, tap, texts, walk
from views.table.entry import VEIL_AFTER_S
from views.widgets import Veil

LATER = VEIL_AFTER_S * 4
"""Long enough for the veil's message to have gone."""


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[list[ft.Control]]:
    """The table screen's updates, each the controls it sends in one message."""
    out: list[list[ft.Control]] = []
    monkeypatch.setattr("views.table.screen.send_changes", lambda root, changed: out.append(list(changed)))
    return out


def event_tap(view: ft.View, label: str) -> None:
    """Tap ``label`` as Flet calls a handler: in the page's event loop, inside an event with its own update state."""

    def handler() -> None:
        ft.context.reset_auto_update()  # what Flet does before it calls a handler
        tap(view, label)

    contextvars.copy_context().run(handler)


def veil_of(view: ft.View) -> Veil:
    [veil] = [control for control, _ in walk(view) if isinstance(control, Veil)]
    return veil


def grid_under(view: ft.View, veil: Veil) -> Any:
    """The grid of keys the veil covers (the first control of the stack that holds both)."""
    return next(c.controls[0] for c, _ in walk(view) if isinstance(c, ft.Stack) and veil in c.controls)


def has(messages: list[list[ft.Control]], control: Any) -> bool:
    return any(c is control for message in messages for c in message)


def test_jokers_kill_the_last_card_of_a_hand_is_sent_before_the_veil(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The card that completes the hand: its reply (the card greyed out, the prompt, Confirm) carries no veil; the
    cover and the disabled grid follow alone. A card tapped before the veil is up is refused all the same, with the
    reason, and the Confirm lowers the veil in its own reply."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view)
    grid = grid_under(view, veil)

    async def play() -> None:
        for card in ("9♠", "4♥", "7♦"):
            event_tap(view, card)
        sent.clear()
        event_tap(view, "Q♣")  # the hand is complete
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, grid), "the reply: no veil in it"
        assert greyed(view, buttons(view)["Q♣"]) and not grid.disabled and veil.bgcolor is None
        assert not greyed(view, buttons(view)["2♣"]), "the veil is not up yet"
        sent.clear()
        event_tap(view, "2♣")  # before the veil is up: the hand refuses it
        assert any("the hand is complete" in text.lower() for text in texts(view)), texts(view)
        assert not greyed(view, buttons(view)["2♣"]), "2♣ was not dealt"
        sent.clear()
        await asyncio.sleep(LATER)
        assert [[id(c) for c in message] for message in sent] == [[id(veil), id(grid)]], "then the veil, alone"
        assert grid.disabled and veil.bgcolor is not None and greyed(view, buttons(view)["2♣"])
        sent.clear()
        event_tap(view, "Confirm hand")
        assert len(table.hands) == 1
        assert has(sent, grid) and not grid.disabled and veil.bgcolor is None, "the Confirm lowers it at once"
        sent.clear()
        await asyncio.sleep(LATER)
        assert sent == [], "and nothing follows"

    run_async(play())


def test_jokers_kill_a_card_taken_back_at_once_cancels_the_veil(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The last card taken back before the veil went up: the veil never goes up (no message follows)."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view)
    grid = grid_under(view, veil)

    async def play() -> None:
        for card in ("9♠", "4♥", "7♦", "Q♣"):
            event_tap(view, card)
        event_tap(view, "Remove last card")
        sent.clear()
        await asyncio.sleep(LATER)
        assert sent == [] and not grid.disabled and veil.bgcolor is None

    run_async(play())


def test_bargain_bin_the_card_played_is_sent_before_the_pad_is_veiled(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """A small table (both rows shown): the tap on who gets the card lowers the pad's veil in its reply; the value
    tap that plays the card sends its reply without the veil, which follows alone over the pad."""
    table = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view)
    pad = grid_under(view, veil)
    assert pad.disabled, "the pad is veiled until who gets the card is tapped"

    async def play() -> None:
        receiver = next(label for label, c in buttons(view).items() if label.startswith("To ") and not greyed(view, c))
        sent.clear()
        event_tap(view, receiver)
        assert has(sent, pad) and not pad.disabled and veil.bgcolor is None, "lowered in the receiver's reply"
        value = next(label for label, c in buttons(view).items() if label.startswith("2") and not greyed(view, c))
        sent.clear()
        event_tap(view, value)
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, pad), "the card played: no veil in it"
        assert not pad.disabled
        sent.clear()
        await asyncio.sleep(LATER)
        assert [[id(c) for c in message] for message in sent] == [[id(veil), id(pad)]], "then the veil, alone"
        assert pad.disabled and veil.bgcolor is not None

    run_async(play())
