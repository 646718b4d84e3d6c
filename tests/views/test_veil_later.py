"""After the reply: a tap that raises a veil over a grid of keys (the card that completes a Jokers Kill hand, the
card played on a small Bargain Bin table) sends its reply without it, and the veil follows in a message of its own
(:class:`views.table.entry.VeilLater`). A Confirm's reply is the new standings at the top of the screen: the next
hand (the veil lowered with it), the scoreboard and the hand list follow it. A tap on a cover enters nothing in the
place of the key under it. A Financial Crisis card's reply leaves out the bank's reading and the piles' breakdown
below the grid, which follow it.

The taps are made as Flet makes them: on a running event loop, inside a page event (its own update state). The
table screen's one update of a tap is caught (``sent``), so the test sees each message's controls in order.
"""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft
import pytest

from companion.services import AppServices
from tests.conftest import run_async
from tests.support.events import LATER, event_tap, in_event
from tests.support.keys import bargain_bin_next, key_label
from tests.support.screens import buttons, greyed, press, render, texts, walk
from views.widgets import Veil

pytestmark = pytest.mark.usefixtures("quick_replies")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[list[ft.Control]]:
    """The table screen's updates, each the controls it sends in one message."""
    out: list[list[ft.Control]] = []
    monkeypatch.setattr("views.table.screen.send_changes", lambda root, changed, past=(): out.append(list(changed)))
    return out


def veil_of(view: ft.View, over: str | None = None) -> Veil:
    """The veil over the screen's grid of keys; where there are several (Bargain Bin's pad and receivers), the one
    over the key labelled ``over``."""
    found = [control for control, _ in walk(view) if isinstance(control, Veil)]
    if over is not None:
        found = [veil for veil in found if any(key_label(key) == over for key in grid_under(view, veil).controls)]
    [veil] = found
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
    reason. The Confirm's reply leaves the veil up; it comes down with the next hand, after the reply."""
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
        assert len(sent) == 1 and not has(sent, grid) and grid.disabled, "the Confirm's reply: the veil still up"
        assert greyed(view, buttons(view)["A♠"]), "under the veil"
        in_event(lambda: veil.on_click(None))  # a tap on the cover before it is down (it cannot tell which card)
        assert any("still covered" in text for text in texts(view)), texts(view)
        sent.clear()
        await asyncio.sleep(LATER)
        [hand] = [message for message in sent if has([message], veil)]
        assert has([hand], grid), "then the veil comes down, with the next hand"
        assert not grid.disabled and veil.bgcolor is None
        assert not greyed(view, buttons(view)["A♠"]), "nothing entered in its place (the first card)"
        event_tap(view, "A♠")
        assert greyed(view, buttons(view)["A♠"]), "the next hand's first card, tapped again"

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
    """A small table (both rows shown): the tap on who gets the card lowers the pad's cover in its reply, and the
    pad's grid reads as unavailable until a message of its own after it; the value tap that plays the card sends
    its reply without the veil, which follows alone over the pad. A value tapped before the grid's message (a fast
    player) is played all the same: a key's taps do not wait for its grid."""
    table = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view, over="2♠♣")
    pad = grid_under(view, veil)
    assert pad.disabled, "the pad is veiled until who gets the card is tapped"

    def receiver() -> str:
        return next(label for label, c in buttons(view).items() if label.startswith("To ") and not greyed(view, c))

    def value() -> str:
        return next(label for label, c in buttons(view).items() if label.startswith("2") and not greyed(view, c))

    async def play() -> None:
        sent.clear()
        event_tap(view, receiver())
        assert [[id(c) for c in message if c in (veil, pad)] for message in sent] == [[id(veil)]], "the cover only"
        assert veil.bgcolor is None and veil.on_click is None and pad.disabled, "lowered; the grid still unavailable"
        sent.clear()
        await asyncio.sleep(LATER)
        assert [[id(c) for c in message] for message in sent] == [[id(pad)]], "then the grid, alone"
        assert not pad.disabled
        sent.clear()
        event_tap(view, value())
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, pad), "the card played: no veil in it"
        assert not pad.disabled
        sent.clear()
        await asyncio.sleep(LATER)
        assert [[id(c) for c in message] for message in sent] == [[id(veil), id(pad)]], "then the veil, alone"
        assert pad.disabled and veil.bgcolor is not None
        # a fast player: the value tapped before the grid's message (the grid still reads as unavailable)
        event_tap(view, receiver())
        assert pad.disabled and veil.bgcolor is None
        sent.clear()
        in_event(lambda: press(buttons(view)["2♥♦"]))  # under a grid still disabled: the helper would call it grey
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, pad), "the card played: no veil in it"
        sent.clear()
        await asyncio.sleep(LATER)
        assert len(table.draft()["plays"]) == 2, f"the second card played: {table.draft()}"
        assert [[id(c) for c in message] for message in sent] == [[id(veil)]], "the cover again; the grid stayed"
        assert pad.disabled and veil.bgcolor is not None

    run_async(play())


def test_bargain_bin_a_value_greyed_out_follows_the_reply_with_the_veil(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The tap that plays a value's second card: its reply carries neither the veil nor the key greyed out; both
    follow, the veil first, then the key (a new hand brings every key back the same way, after the Confirm's
    reply)."""
    table = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view, over="2♠♣")
    pad = grid_under(view, veil)
    two = buttons(view)["2♠♣"]
    key = next(c for c in pad.controls if any(found is two for found, _ in walk(c)))

    async def play() -> None:
        for card in (1, 2):
            receiver = next(
                label for label, c in buttons(view).items() if label.startswith("To ") and not greyed(view, c)
            )
            event_tap(view, receiver)
            await asyncio.sleep(LATER)  # the pad's grid enabled after the receiver's reply
            sent.clear()
            event_tap(view, "2♠♣")
            assert len(sent) == 1 and not has(sent, veil) and not has(sent, key), f"card {card}: the reply alone"
            assert not key.disabled, f"card {card}: the key not greyed out in the reply"
            sent.clear()
            await asyncio.sleep(LATER)
            after = [[id(c) for c in message] for message in sent]
            assert after == ([[id(veil), id(pad)], [id(key)]] if card == 2 else [[id(veil), id(pad)]]), after
        assert key.disabled, "both cards of 2 black are out: greyed out"

    run_async(play())


def test_bargain_bin_a_tap_on_the_pad_s_cover_plays_no_value(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The pad's cover cannot tell which value was under the finger: before who gets the card is tapped it says to
    tap that first. Its handler called after that (the receiver's reply lowers the veil and takes the handler
    away, so only a handler that outlived the veil could be) plays nothing and says to tap again, where it played
    the pad's first value."""
    table = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view, over="2♠♣")
    on_cover = veil.on_click
    assert on_cover is not None

    async def play() -> None:
        in_event(lambda: on_cover(None))
        assert any("card goes to first" in text for text in texts(view)), texts(view)
        prompt = [text for text in texts(view) if text.startswith("Next: ")]
        receiver = next(label for label, c in buttons(view).items() if label.startswith("To ") and not greyed(view, c))
        event_tap(view, receiver)
        assert veil.on_click is None, "lowered in the receiver's reply"
        chosen = [text for text in texts(view) if text.startswith("Next: ")]
        assert chosen != prompt
        in_event(lambda: on_cover(None))  # a tap the page sent while the cover still showed
        assert any("still covered" in text for text in texts(view)), texts(view)
        assert [text for text in texts(view) if text.startswith("Next: ")] == chosen, "no value played"
        await asyncio.sleep(LATER)
        assert not table.draft() or not table.draft().get("plays"), table.draft()

    run_async(play())


def test_a_confirm_s_reply_shows_the_standings_and_the_hand_and_board_follow(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The Confirm's reply carries the standings at the top of the screen and no more of the panel than the title's
    *Saving…*; the next hand (the emptied places, the prompt, Confirm greyed out), the scoreboard (each player's last
    hand, the game's extras) and the hand list follow, each in a message of its own. A card tapped meanwhile lands
    on the veil, which still covers the cards: nothing is entered, and the tap is said to have come too early."""
    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view)

    async def play() -> None:
        for card in ("9♠", "4♥", "7♦", "Q♣"):
            event_tap(view, card)
        await asyncio.sleep(LATER)  # the veil up over the complete hand
        sent.clear()
        event_tap(view, "Confirm hand")
        shown = texts(view)
        assert "1. Ann: 2 points (last hand +2)" in shown, shown
        assert "Next: Ann wins 2 points: confirm the hand" in shown, "the next hand is drawn after the reply"
        assert "+2" not in shown and not any(text.startswith("Hand 1: Ann +2") for text in shown)
        assert len(sent) == 1 and not has(sent, veil)
        in_event(lambda: veil.on_click(None))  # the next hand's first card, tapped too soon
        assert any("still covered" in text for text in texts(view)), texts(view)
        await asyncio.sleep(LATER)
        shown = texts(view)
        assert "+2" in shown and "Hand 1: Ann +2" in shown and "Next: Turn the up-card" in shown, shown
        later = sent[1:]
        assert len(later) == 3, "the board, the next hand and the title's Saving… each in a message of its own"
        [board] = [message[0] for message in later if len(message) == 1 and message[0] is not sent[-1][0]]
        assert any(c is board for c, _ in walk(view)), "the scoreboard"
        assert not any(c is board for c in sent[0]), "the reply does not walk the scoreboard it leaves as it was"
        assert [getattr(c, "value", None) for c in sent[-1]] == ["Jokers Kill"], "the hand on disk: Saving… goes"
        assert any(has([message], veil) for message in later), "the veil down with the next hand"
        assert not table.draft() or not table.draft().get("plays"), "nothing entered by the early tap"

    run_async(play())


def test_a_tap_before_the_next_hand_is_drawn_draws_it_once(
    services: AppServices, sent: list[list[ft.Control]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tap that redraws the panel in the moment after a Confirm's reply (*Clear hand*, still enabled from the hand
    just confirmed) brings the whole next hand in its own reply, the veil down with it; the redraw that was waiting
    for that moment is dropped, not run again."""
    from views.table.games.jokers_kill import CardPicker

    table = services.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view)
    redraws: list[object] = []
    redraw = CardPicker.redraw

    def counted(self: CardPicker) -> list[ft.Control]:
        redraws.append(self)
        return redraw(self)

    monkeypatch.setattr(CardPicker, "redraw", counted)

    async def play() -> None:
        for card in ("9♠", "4♥", "7♦", "Q♣"):
            event_tap(view, card)
        await asyncio.sleep(LATER)
        event_tap(view, "Confirm hand")
        assert "Next: Ann wins 2 points: confirm the hand" in texts(view), "the next hand waits for the reply"
        redraws.clear()
        sent.clear()
        event_tap(view, "Clear hand")
        assert len(redraws) == 1 and has(sent, veil) and "Next: Turn the up-card" in texts(view), texts(view)
        await asyncio.sleep(LATER)
        assert len(redraws) == 1, "the waiting redraw dropped"
        assert len(table.hands) == 1 and not (table.draft() or {}).get("plays")

    run_async(play())


def test_a_second_confirm_before_the_next_hand_is_drawn_confirms_nothing_more(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """A quick double tap on *Confirm hand*: the second tap comes before the next hand is drawn, while the key still
    looks enabled. It is the hand just confirmed, not the empty next one: nothing more is made, nothing is said
    (no "the hand is not complete"), and the next hand is drawn in its reply, *Confirm hand* greyed out."""
    for game, players in (("jokers-kill", ["Ann", "Ben", "Cat"]), ("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])):
        table = services.sessions.start(game, players)
        _, view = render(services, f"/continue/{table.id}")
        confirm = buttons(view)["Confirm hand"]

        async def play(game: str = game, table: Any = table, view: ft.View = view, confirm: Any = confirm) -> None:
            if game == "jokers-kill":
                for card in ("9♠", "4♥", "7♦", "Q♣"):
                    event_tap(view, card)
                    await asyncio.sleep(LATER)
            else:
                taps = 0
                while (label := bargain_bin_next(view, taps)) is not None:
                    event_tap(view, label)
                    await asyncio.sleep(LATER)
                    taps += 1
            event_tap(view, "Confirm hand")
            assert len(table.hands) == 1 and not greyed(view, confirm), "the next hand not drawn yet"
            sent.clear()
            in_event(lambda: press(confirm))
            assert len(table.hands) == 1, game
            assert not any(text.startswith("Problem") for text in texts(view)), f"{game}: said {texts(view)}"
            assert greyed(view, confirm) and sent, f"{game}: the next hand drawn in the second tap's reply"
            await asyncio.sleep(LATER)
            assert len(table.hands) == 1

        run_async(play())


def test_a_confirm_right_after_the_last_card_raises_no_veil_over_the_next_hand(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """*Confirm hand* tapped within the moment after the card that completes the hand, before its veil went up: the
    veil waiting to go up over the hand just confirmed is dropped. It went up in a message of its own between the
    Confirm's reply and the next hand's message, over the next hand, and a card tapped then landed on it and was
    not entered. After the Confirm, a veil changes only with the next hand (its prompt in the same message)."""
    for game, players in (("jokers-kill", ["Ann", "Ben", "Cat"]), ("bargain-bin", ["Ann", "Ben", "Cat", "Dan"])):
        table = services.sessions.start(game, players)
        _, view = render(services, f"/continue/{table.id}")

        async def play(
            game: str = game, table: Any = table, view: ft.View = view, players: list[str] = players
        ) -> None:
            labels = ["9♠", "4♥", "7♦", "Q♣"] if game == "jokers-kill" else []
            total = len(labels) or 2 * 5 * len(players)  # Bargain Bin: five cards each, two taps a card
            for taps in range(total):
                label = labels[taps] if labels else bargain_bin_next(view, taps)
                assert label is not None
                event_tap(view, label)
                if taps < total - 1:
                    await asyncio.sleep(LATER)  # the last card's veil: still waiting for the Confirm below
            event_tap(view, "Confirm hand")  # at once
            sent.clear()
            await asyncio.sleep(LATER)
            assert len(table.hands) == 1
            for message in sent:
                if any(isinstance(control, Veil) for control in message):
                    prompts = [c for c in message if str(getattr(c, "semantics_label", "")).startswith("Next: ")]
                    assert prompts, f"{game}: a veil sent without the next hand"

        run_async(play())


def test_financial_crisis_the_reading_and_the_breakdown_follow_a_card_s_reply(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The bank's last card and each pile card: the reply shows the card, the prompt and the count on the pile's
    key; the bank's reading and the piles' breakdown, below the grid, follow in one message of their own. A change
    of the reading by the table (a tap on the reading itself) shows in its own reply."""
    table = services.sessions.start("financial-crisis", ["Ann", "Ben"], {"rounds": 2})
    _, view = render(services, f"/continue/{table.id}")

    async def play() -> None:
        for card in ("Q♣", "3♣", "7♠", "K♠"):
            event_tap(view, card)
        sent.clear()
        event_tap(view, "4♥")  # the bank is complete: ♠ loses, ranked cards are valuable
        shown = texts(view)
        assert "Bank 5 of 5" in shown, shown
        assert any(text.startswith("Next: Tap each card of Ann's pile (0 so far)") for text in shown), shown
        assert "Loses: ♠" not in shown and len(sent) == 1, "the reading is not in the reply"
        await asyncio.sleep(LATER)
        assert "Loses: ♠" in texts(view) and len(sent) == 2, "it follows in a message of its own"
        sent.clear()
        event_tap(view, "A♣")
        shown = texts(view)
        assert "Ann: 1 card" in shown and not greyed(view, buttons(view)["A♣"]), "in Ann's pile: tap it to take it out"
        assert "Ann: 2 points this round" not in shown and len(sent) == 1, "the breakdown is not in the reply"
        event_tap(view, "J♥")  # a second card before the first one's breakdown came: one breakdown follows both
        sent.clear()
        await asyncio.sleep(LATER)
        shown = texts(view)
        assert "Ann: 5 points this round" in shown and "Ann: 2 points this round" not in shown, shown
        assert len(sent) == 1, "the breakdown of both cards, in one message"
        sent.clear()
        event_tap(view, "♥ safe")  # the table reads the bank otherwise: at once, in the reply
        assert "Loses: ♠ ♥" in texts(view) and len(sent) == 1, texts(view)

    run_async(play())


def test_bargain_bin_the_receivers_are_veiled_once_every_card_is_played(
    services: AppServices, sent: list[list[ft.Control]]
) -> None:
    """The hand's last card: its reply carries no receiver; the receivers' veil follows alone, and then every
    receiver reads as unavailable and a tap on the veil says why. The last card taken back lowers the cover in its
    reply; the row's ``disabled`` follows in a message of its own, and a receiver tapped before it (a fast player) is
    taken all the same. The Confirm's reply leaves the receivers as they were (veiled, their card points of the hand
    just confirmed): the next hand, its receivers brought back, follows in a message of its own, and a receiver
    tapped meanwhile lands on the veil, enters nothing and is said to have come too early."""
    players = ["Ann", "Ben", "Cat", "Dan"]
    table = services.sessions.start("bargain-bin", players)
    _, view = render(services, f"/continue/{table.id}")
    veil = veil_of(view, over="To Ann (0)")
    row = grid_under(view, veil)
    receivers = list(row.controls)

    def receiver() -> str | None:
        return next((k for k, c in buttons(view).items() if k.startswith("To ") and not greyed(view, c)), None)

    def value() -> str:
        return next(k for k, c in buttons(view).items() if k[0] in "23456789" and not greyed(view, c))

    async def play() -> None:
        played = 0
        while True:
            to = receiver()
            assert to is not None, f"a receiver after {played} cards"
            event_tap(view, to)
            await asyncio.sleep(LATER)  # the pad's grid after the receiver's reply
            sent.clear()
            event_tap(view, value())
            played += 1
            if any(t == "Next: Every card is played: confirm the hand" for t in texts(view)):
                break
            await asyncio.sleep(LATER)
        assert played == 5 * len(players)
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, row), "the last card's reply: no veil"
        assert not any(key.disabled for key in receivers), "no receiver greyed out on its own"
        sent.clear()
        await asyncio.sleep(LATER)
        assert [id(veil), id(row)] in [[id(c) for c in message] for message in sent], "then the receivers' veil"
        assert row.disabled and veil.bgcolor is not None and receiver() is None
        in_event(lambda: veil.on_click(None))
        assert "Every card of this hand has been played: confirm the hand." in texts(view), "said under the panel"
        sent.clear()
        last = table.draft()["plays"][-1]
        event_tap(view, "Take back last card")
        assert has(sent, veil) and not has(sent, row), "the reply: the cover, not the row"
        assert veil.bgcolor is None and row.disabled
        # a fast player: a receiver tapped before the row's message (its node still reads as unavailable)
        sent.clear()
        to = f"To {last['to']} ("
        in_event(lambda: press(next(c for k, c in buttons(view).items() if k.startswith(to))))
        assert has(sent, receivers[players.index(last["to"])]), f"{last['to']} chosen, in the tap's reply"
        sent.clear()
        await asyncio.sleep(LATER)
        assert table.draft() is not None and table.draft()["receiver"] == last["to"], table.draft()
        assert [id(row)] in [[id(c) for c in message] for message in sent], "then the row, alone"
        assert not row.disabled
        event_tap(view, value())  # the last card played again
        await asyncio.sleep(LATER)
        assert row.disabled and receiver() is None, "veiled again"
        sent.clear()
        event_tap(view, "Confirm hand")
        assert len(table.hands) == 1
        assert len(sent) == 1 and not has(sent, veil) and not has(sent, row), "the reply: the standings alone"
        assert not any(has(sent, key) for key in receivers) and row.disabled and veil.bgcolor is not None
        in_event(lambda: veil.on_click(None))  # the next hand's first receiver, tapped too soon
        assert any("still covered" in text for text in texts(view)), texts(view)
        sent.clear()
        await asyncio.sleep(LATER)
        [hand] = [message for message in sent if has([message], veil)]
        assert has([hand], row) and not row.disabled and veil.bgcolor is None, "the next hand, receivers back"
        assert receiver() == "To Ann (0)" and not table.draft(), "nothing entered by the early tap"

    run_async(play())
