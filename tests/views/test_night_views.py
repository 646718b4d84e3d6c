"""The game-night screens without a browser: each builds with its ancestors, labels every control, and shows the
night's figures; a tap on "Mark paid" and a refused ledger entry go through the service."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.services import AppServices
from tests.support.screens import INTERACTIVE, label_of, shell_for, walk

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def night_id(services: AppServices) -> str:
    night = services.nights.start("Friday", PLAYERS)
    table = services.sessions.start("bargain-bin", PLAYERS, {"vegas_unit_cents": 10, "target": 1})
    table.add_hand({"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2}})
    services.nights.add_entry(night.id, "Cat", "split", "8", "pizza")
    return night.id


def texts(view: ft.View) -> list[str]:
    return [c.value for c, _ in walk(view) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def controls(view: ft.View) -> list[Any]:
    return [c for c, _ in walk(view)]


def by_tooltip(view: ft.View, tooltip: str) -> Any:
    """The control labelled ``tooltip`` (by its tooltip, or by its text: a choice button)."""
    found = [c for c in controls(view) if getattr(c, "tooltip", None) == tooltip]
    found += [c for c in controls(view) if isinstance(c, INTERACTIVE) and label_of(c) == tooltip]
    assert found, f"no control labelled {tooltip!r}"
    return found[0]


@pytest.mark.parametrize("suffix", ["", "/recap"])
def test_night_screens_build_and_label_every_control(services: AppServices, night_id: str, suffix: str) -> None:
    path = f"/nights/{night_id}{suffix}"
    shell, page = shell_for(services, path)
    shell.render()
    assert [v.route for v in page.views] == ["/", "/nights", f"/nights/{night_id}", *([path] if suffix else [])]
    top = page.views[-1]
    for control, labelled in walk(top):
        if isinstance(control, INTERACTIVE):
            assert labelled or label_of(control), f"{type(control).__name__} on {path} has no label"
            height = getattr(control, "height", None)
            assert height is None or height >= 48, f"{label_of(control)} is {height} px tall"


def test_night_screen_shows_the_settle_up_and_marks_paid(services: AppServices, night_id: str) -> None:
    shell, page = shell_for(services, f"/nights/{night_id}")
    shell.render()
    view = page.views[-1]
    want = services.nights.settlement(services.nights.get(night_id))
    shown = texts(view)
    assert "Who pays whom tonight" in shown
    for t in want.outstanding:
        assert t.describe() in shown
    first = want.outstanding[0]
    by_tooltip(view, f"Mark paid: {first.describe()}").on_click(None)
    night = services.nights.get(night_id)
    assert [(p.payer, p.receiver, p.amount) for p in night.paid] == [(first.payer, first.receiver, first.amount)]
    assert f"{first.payer} paid {first.receiver} ${first.amount / 100:.2f} ✓" in texts(view)


def test_a_refused_entry_is_said_in_words_and_nothing_is_added(services: AppServices, night_id: str) -> None:
    shell, page = shell_for(services, f"/nights/{night_id}")
    shell.render()
    view = page.views[-1]
    by_tooltip(view, "Ann pays").on_click(None)
    by_tooltip(view, "To Ben").on_click(None)
    amount: Any = next(c for c in controls(view) if isinstance(c, ft.TextField) and c.label == "Amount")
    amount.value = "1.234"
    amount.on_change(type("E", (), {"control": amount})())
    assert "Amount: '1.234' has more than two decimals: amounts are in whole cents." in texts(view)
    by_tooltip(view, "Add to the ledger").on_click(None)
    assert any(t.startswith("Not done: '1.234' has more than two decimals") for t in texts(view))
    assert len(services.nights.get(night_id).entries) == 1


def test_home_offers_a_night_and_then_tonight(services: AppServices) -> None:
    shell, page = shell_for(services, "/")
    shell.render()
    assert "Start a game night" in [label_of(c) for c in controls(page.views[-1])]
    night = services.nights.start("Friday", ["Ann", "Ben"])
    shell.render()
    assert f"Tonight: {night.name}" in [label_of(c) for c in controls(page.views[-1])]


def test_nights_list_and_stats_show_the_night(services: AppServices, night_id: str) -> None:
    for path in ("/history/nights", "/stats/nights"):
        shell, page = shell_for(services, path)
        shell.render()
        shown = texts(page.views[-1])
        assert any("Friday" in t for t in shown), path
    shell, page = shell_for(services, "/history/nights")
    shell.render()
    assert any(t.startswith("1. Bargain Bin: Ann, Ben won") for t in texts(page.views[-1]))


def selected_state(view: ft.View) -> dict[str, bool]:
    """Each choice button's label → whether it is read out as selected (the state on its own button node)."""
    return {
        label_of(c.content): bool(c.selected)
        for c in controls(view)
        if isinstance(c, ft.Semantics) and c.button and isinstance(c.content, INTERACTIVE) and c.selected is not None
    }


def test_the_ledger_asks_who_pays_and_who_receives_and_says_the_entry_as_a_sentence(
    services: AppServices, night_id: str
) -> None:
    shell, page = shell_for(services, f"/nights/{night_id}")
    bars: list[Any] = []
    page.show_dialog = bars.append  # type: ignore[attr-defined]
    shell.render()
    view = page.views[-1]
    shown = texts(view)
    assert "Who receives the money?" in shown
    assert any(t.startswith("Who pays?") for t in shown)
    assert not [t for t in shown if "Paid by" in t or "Who paid?" in t], "nothing that reads backwards"
    assert selected_state(view)["Ann pays"] is False
    by_tooltip(view, "Ann pays").on_click(None)
    chosen = selected_state(view)
    assert chosen["Ann pays"] is True and chosen["Ben pays"] is False, "the chosen payer is read out as selected"
    assert "To Ann" not in chosen, "nobody pays themselves"
    amount: Any = next(c for c in controls(view) if isinstance(c, ft.TextField) and c.label == "Amount")
    amount.value = "12"
    amount.on_change(type("E", (), {"control": amount})())
    by_tooltip(view, "Everyone: a shared bill").on_click(None)
    assert selected_state(view)["Everyone: a shared bill"] is True
    assert "Ann paid $12.00 for everyone: each of the others owes Ann a share." in texts(view)
    by_tooltip(view, "To Ben").on_click(None)
    assert "Ann pays Ben $12.00." in texts(view)
    by_tooltip(view, "Add to the ledger").on_click(None)
    order = [c.value if isinstance(c, ft.Text) else label_of(c) for c in controls(view)]
    said = "Added to the ledger: Ann pays Ben $12.00."
    assert said in order
    assert order.index(said) > order.index("Add to the ledger"), "said next to the button tapped, not at the top"
    assert [bar.content.value for bar in bars if isinstance(bar, ft.SnackBar)] == [said], (
        "and at the bottom of the screen: the entry lengthens what is above the button, which moves its line down"
    )
    assert [e.describe() for e in services.nights.get(night_id).entries][-1] == "Ann pays Ben $12.00"


def test_each_mark_paid_button_is_named_with_its_own_transfer(services: AppServices, night_id: str) -> None:
    shell, page = shell_for(services, f"/nights/{night_id}")
    shell.render()
    view = page.views[-1]
    outstanding = services.nights.settlement(services.nights.get(night_id)).outstanding
    names = [
        c.content.semantics_label
        for c in controls(view)
        if isinstance(c, ft.FilledButton) and isinstance(c.content, ft.Text) and c.content.value == "Mark paid"
    ]
    assert names == [f"Mark paid: {t.describe()}" for t in outstanding] and len(set(names)) == len(names) > 1


def test_the_recap_says_the_day_once(services: AppServices) -> None:
    from companion.night_service import default_name

    night = services.nights.start(default_name(), ["Ann", "Ben"])
    shell, page = shell_for(services, f"/nights/{night.id}/recap")
    shell.render()
    shown = texts(page.views[-1])
    day = night.name.split(", ", 1)[1]  # "Wed 2 Dec"
    assert not [t for t in shown if t.startswith(day)], "the title already says the day"
    assert services.nights.recap_text(night).splitlines()[0] == night.name


def test_starting_a_night_seats_the_last_games_players_and_refuses_in_words(services: AppServices) -> None:
    services.sessions.start("jokers-kill", ["Ann", "Ben"])
    services.players.add("Cat")
    shell, page = shell_for(services, "/nights/new")
    shell.render()
    view = page.views[-1]
    shown = texts(view)
    assert "1. Ann" in shown and "2. Ben" in shown, "the last game's players are seated to begin with"
    assert "Seat Ann" not in [label_of(c) for c in controls(view)], "a seated player is not offered again"
    player = next(c for c in controls(view) if isinstance(c, ft.TextField) and c.label == "New player name")
    assert by_tooltip(view, "Seat player").disabled, "nothing typed: nothing to seat"
    player.value = " ann "
    player.on_change(None)  # type: ignore[misc]
    assert not by_tooltip(view, "Seat player").disabled
    by_tooltip(view, "Seat player").on_click(None)
    assert "ann is already seated." in texts(view)
    by_tooltip(view, "Seat Cat").on_click(None)
    assert "3. Cat" in texts(view) and "ann is already seated." not in texts(view)
    player.value = "Dan  Ek"
    player.on_change(None)  # type: ignore[misc]
    player.on_submit(None)  # type: ignore[misc]
    assert "4. Dan Ek" in texts(view)
    assert next(c for c in controls(view) if isinstance(c, ft.TextField) and c.label == "New player name").value == ""
    from tests.support.screens import buttons

    buttons(view)["Remove Ann"].on_click(None)
    assert [t for t in texts(view) if t[:2] in ("1.", "2.", "3.")] == ["1. Ben", "2. Cat", "3. Dan Ek"]
    name = next(c for c in controls(view) if isinstance(c, ft.TextField) and c.label == "Night name")
    name.value = "Quiz night"
    name.on_change(None)  # type: ignore[misc]
    by_tooltip(view, "Start the night").on_click(None)
    night = services.nights.current()
    assert night is not None and (night.name, night.players) == ("Quiz night", ("Ben", "Cat", "Dan Ek"))
    assert page.navigated == [f"/nights/{night.id}"]


def test_start_needs_two_players(services: AppServices) -> None:
    shell, page = shell_for(services, "/nights/new")
    shell.render()
    view = page.views[-1]
    assert "Nobody seated yet." in texts(view)
    assert by_tooltip(view, "Start the night").disabled
