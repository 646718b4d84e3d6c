"""1111-9999 entry: sides, the digit pad, three of a kind, review, sudden death (companion.entry_ones_to_nines)."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import companion.entry_ones_to_nines as entry_oo
from companion.entry_ones_to_nines import (
    TABLE,
    DigitError,
    HandEntry,
    OnesToNinesIncompleteError,
    SidesError,
    TripleError,
    default_sides,
    fit_sides,
    toggle_side,
)
from companion.i18n import Words
from scoring import Part, find_game
from tests.support.screens import press

SIDES = {"Ann": "A", "Ben": "B", "Cat": "A"}


def record(hands: list[dict[str, Any]] | None = None, **options: Any) -> dict[str, Any]:
    return {
        "game": "1111-9999",
        "players": list(SIDES),
        "sides": dict(SIDES),
        "options": options,
        "hands": hands or [],
    }


def typed(entry: HandEntry, digits: str) -> HandEntry:
    for digit in digits:
        entry = entry.press(digit)
    return entry


def test_doctests() -> None:
    result = doctest.testmod(entry_oo, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5
    assert result.failed == 0


def test_sides_at_set_up() -> None:
    assert default_sides(["A", "B", "C", "D"]) == {"A": "A", "B": "A", "C": "B", "D": "B"}
    sides = toggle_side(default_sides(["Ann", "Ben"]), "Ann")
    assert sides == {"Ann": "B", "Ben": "B"}
    assert fit_sides(["Ben", "Cat"], sides) == {"Ben": "B", "Cat": "B"}
    with pytest.raises(SidesError):
        toggle_side(sides, "Zed")


def test_table_row_once_then_each_number_with_targets() -> None:
    entry = HandEntry.start(record())
    assert entry.focus == TABLE and entry.targets() == {}
    entry = typed(entry, "4239")
    assert entry.focus == "Ann", "a full field moves on to the next"
    assert entry.targets() == {"Ann": "4239", "Ben": "9324", "Cat": "4239"}
    entry = typed(entry, "52788631")
    assert entry.focus == "Cat" and not entry.complete
    with pytest.raises(OnesToNinesIncompleteError, match="Cat's number"):
        entry.to_hand()
    entry = typed(entry, "1234")
    hand = entry.to_hand()
    assert hand == {"table": "4239", "numbers": {"Ann": "5278", "Ben": "8631", "Cat": "1234"}}
    result = find_game("1111-9999").score({**record(), "hands": [hand]})
    assert result.hands[0].points == {"Ann": 1039, "Ben": 693, "Cat": 3005}
    rows = {row.name: row for row in entry.review()}
    assert (rows["Cat"].gap, rows["Cat"].best, rows["Cat"].best_score) == (3005, "4231", 8)
    assert rows["Ben"].best == "8631" and "the best arrangement" in rows["Ben"].text


def test_digits_checked_four_of_each() -> None:
    entry = typed(HandEntry.start(record()), "3339")
    entry = typed(entry, "3")  # Ann's first digit: the last 3 in the deck
    assert not entry.can_press("3")
    with pytest.raises(DigitError, match="only four 3s"):
        entry.press("3")
    assert entry.digits_left()["3"] == 0 and entry.digits_left()["9"] == 3
    for bad in ("0", "x", "12"):
        assert not entry.can_press(bad)
    entry = typed(entry, "124")
    with pytest.raises(DigitError):  # the focus moved to Ben; pressing into a full field is refused
        entry.with_focus("Ann").press("5")


def test_backspace_and_refocus() -> None:
    entry = typed(HandEntry.start(record()), "42395")
    entry = entry.backspace()
    assert entry.numbers["Ann"] == "" and entry.focus == "Ann"
    entry = entry.backspace()
    assert entry.table == "423" and entry.focus == TABLE
    entry = typed(entry, "9")
    entry = typed(entry.with_focus(TABLE).backspace(), "8")
    assert entry.table == "4238"
    assert HandEntry.start(record()).backspace().table == ""


def test_first_triple_declaration() -> None:
    entry = typed(HandEntry.start(record()), "423977729333")
    assert entry.can_first_triple("Ann") and entry.can_first_triple("Ben")
    assert entry.can_first_triple("Cat"), "Cat's number is not typed yet: she may have set hers down first"
    entry = typed(entry, "5278")
    assert not entry.can_first_triple("Cat")
    with pytest.raises(TripleError, match="holds no three of a kind"):
        entry.set_first_triple("Cat")
    entry = entry.set_first_triple("Ann")
    result = find_game("1111-9999").score({**record(), "hands": [entry.to_hand()]})
    assert result.hands[0].points == {"Ann": 0, "Ben": 259, "Cat": 1039}
    assert entry.set_first_triple(None).first_triple is None


def test_first_declarer_may_be_left_out() -> None:
    entry = typed(HandEntry.start(record()), "4239").set_first_triple("Ann")
    assert entry.next_field() == "Ben"
    entry = typed(entry.with_focus("Ben"), "86315278")
    hand = entry.to_hand()
    assert hand == {"table": "4239", "numbers": {"Ben": "8631", "Cat": "5278"}, "first_triple": "Ann"}
    assert find_game("1111-9999").score({**record(), "hands": [hand]}).hands[0].points["Ann"] == 0
    assert [row.number for row in entry.review()] == [None, "8631", "5278"]


def test_correction_restores_a_saved_hand() -> None:
    saved = {"table": "4239", "numbers": {"Ann": "7772", "Ben": "9333", "Cat": "5278"}, "first_triple": "Ann"}
    entry = HandEntry.of_hand(HandEntry.start(record()), saved)
    assert entry.to_hand() == saved


def test_sudden_death_three_digits_only_the_tied() -> None:
    # OO-E10 shape: Ben and Cat tie for the lowest total when Ann passes a low target.
    hands = [{"table": "4239", "numbers": {"Ann": "9876", "Ben": "4238", "Cat": "9325"}}]
    rec = {**record(hands, target=100), "sides": {"Ann": "A", "Ben": "A", "Cat": "B"}}
    result = find_game("1111-9999").score(rec)
    assert result.pending is not None and result.pending.players == ["Ben", "Cat"]
    entry = HandEntry.start(rec, sudden_death=True)
    assert entry.players == ("Ben", "Cat") and entry.length == 3
    entry = typed(entry, "518")
    assert entry.targets() == {"Ben": "518", "Cat": "815"}
    entry = typed(entry, "269741")
    assert not entry.can_press("1")
    hand = entry.to_hand()
    final = find_game("1111-9999").score({**rec, "sudden_death": [hand]})
    assert final.winners == ["Cat"]
    off = HandEntry.start({**rec, "options": {"target": 100, "triple_rule_in_sudden_death": False}}, sudden_death=True)
    with pytest.raises(TripleError, match="off in sudden death"):
        off.set_first_triple("Ben")


# --- the screens, without a browser --------------------------------------------------------------------------------


def _controls(view: Any) -> list[Any]:
    from tests.support.screens import walk as walk_controls

    return [control for control, _ in walk_controls(view)]


def _button(view: Any, label: str) -> Any:
    import flet as ft

    from tests.support.screens import label_of
    from views.widgets import Key

    kinds = ft.Button | ft.FilledButton | ft.OutlinedButton | ft.FilledTonalButton
    found = [
        c
        for c in _controls(view)
        if (isinstance(c, kinds) and c.tooltip == label) or (isinstance(c, Key) and label_of(c) == label)
    ]
    assert found, f"no button {label!r}"
    return found[0]


def test_setup_hook_chooses_sides() -> None:
    from views.table.games import find_panel

    ui = find_panel("1111-9999")
    assert ui is not None and ui.setup is not None
    extra: dict[str, Any] = {}
    control = ui.setup(["Ann", "Ben", "Cat"], extra, Words.of("en"))
    assert extra["sides"] == {"Ann": "A", "Ben": "A", "Cat": "B"}
    press(_button(control, "Ben: side A"))
    assert extra["sides"]["Ben"] == "B"
    press(_button(control, "Ben: side B"))  # redrawn in place
    ui.setup(["Ann", "Ben"], extra, Words.of("en"))  # Cat left the table: her side goes too
    assert extra["sides"] == {"Ann": "A", "Ben": "A"}


def test_new_game_screen_starts_with_the_sides(services: Any) -> None:
    import flet as ft

    from tests.support.screens import shell_for

    shell, page = shell_for(services, "/new/1111-9999")
    shell.render()
    view = page.views[-1]
    name_field: Any = next(c for c in _controls(view) if isinstance(c, ft.TextField) and c.label == "New player name")
    for name in ("Ann", "Ben"):
        name_field.value = name
        name_field.on_submit(None)
    press(_button(view, "Ben: side B"))
    press(_button(view, "Start game"))
    assert page.navigated and page.navigated[-1].startswith("/continue/")
    session = services.sessions.open(page.navigated[-1].rsplit("/", 1)[1])
    assert session.record["sides"] == {"Ann": "A", "Ben": "A"}


def test_table_panel_digit_pad_triple_and_sudden_death(services: Any) -> None:
    import flet as ft

    from tests.support.screens import INTERACTIVE, label_of, shell_for
    from tests.support.screens import walk as walk_controls

    session = services.sessions.start(
        "1111-9999", ["Ann", "Ben"], {"target": 40}, extra={"sides": {"Ann": "A", "Ben": "B"}}
    )
    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    view = page.views[-1]
    for control, labelled in walk_controls(view):
        if isinstance(control, INTERACTIVE):
            assert labelled or label_of(control), f"{type(control).__name__} has no label"
    for digit in "42397772":
        press(_button(view, digit))
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert "Left in the deck: 1×4 2×2 3×3 4×3 5×4 6×4 7×1 8×4 9×3" in texts
    press(_button(view, "First three of a kind: Ann"))
    for digit in "9364":
        press(_button(view, digit))
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert "Ben (side B, target 9324): 9364, gap 40; best 9346, gap 22" in texts
    press(_button(view, "Confirm hand"))
    assert session.hands == [{"table": "4239", "numbers": {"Ann": "7772", "Ben": "9364"}, "first_triple": "Ann"}]
    assert session.result.totals == {"Ann": 0, "Ben": 40} and session.result.winners == ["Ann"]


def test_sudden_death_panel(services: Any) -> None:
    import flet as ft

    from tests.support.screens import shell_for

    session = services.sessions.start(
        "1111-9999", ["Ann", "Ben"], {"target": 40}, extra={"sides": {"Ann": "A", "Ben": "B"}}
    )
    session.add_hand({"table": "4239", "numbers": {"Ann": "4199", "Ben": "9364"}})
    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    view = page.views[-1]
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert any(t and t.startswith("Sudden death 1: Ann and Ben") for t in texts), texts
    for digit in "518629741":
        press(_button(view, digit))
    press(_button(view, "Confirm sudden-death hand"))
    assert session.record["sudden_death"] == [{"table": "518", "numbers": {"Ann": "629", "Ben": "741"}}]
    assert session.result.winners == ["Ben"]


def test_correcting_a_hand(services: Any) -> None:
    from tests.support.screens import icon_label, shell_for

    session = services.sessions.start("1111-9999", ["Ann", "Ben"], extra={"sides": {"Ann": "A", "Ben": "B"}})
    session.add_hand({"table": "4239", "numbers": {"Ann": "2875", "Ben": "8631"}})
    assert session.result.totals == {"Ann": 1364, "Ben": 693}
    shell, page = shell_for(services, f"/continue/{session.id}/hand-1")
    shell.render()
    view = page.views[-1]
    press(_button(view, "Ann (A) · target 4239: 2 8 7 5"))
    # clear Ann's number with the backspace key (an icon button, found by its Semantics label)
    backspace = next(c for c in _controls(view) if icon_label(c) == "Delete digit")
    for _ in range(4):
        press(backspace.content)
    for digit in "5278":
        press(_button(view, digit))
    press(_button(view, "Confirm hand"))
    assert session.hands[0]["numbers"] == {"Ann": "5278", "Ben": "8631"}
    assert session.result.totals == {"Ann": 1039, "Ben": 693}


def test_a_sudden_death_hand_is_listed_and_corrected_from_the_hand_list(services: Any) -> None:
    import flet as ft

    from tests.support.screens import icon_label, shell_for

    session = services.sessions.start(
        "1111-9999", ["Ann", "Ben"], {"target": 40}, extra={"sides": {"Ann": "A", "Ben": "B"}}
    )
    session.add_hand({"table": "4239", "numbers": {"Ann": "4199", "Ben": "9364"}})
    session.append_part("sudden_death", {"table": "123", "numbers": {"Ann": "124", "Ben": "322"}})
    session.append_part("sudden_death", {"table": "518", "numbers": {"Ann": "629", "Ben": "741"}})
    assert session.result.winners == ["Ben"]

    shell, page = shell_for(services, f"/continue/{session.id}")
    shell.render()
    labelled: dict[str, Any] = {
        c.label: c for c in _controls(page.views[-1]) if isinstance(c, ft.Semantics) and c.label
    }
    assert "Sudden-death hand 1: Ann 1, Ben 1. Tap to correct" in labelled
    tile = labelled["Sudden-death hand 2: Ann 111, Ben 74. Tap to correct"]
    assert "Ben has the lowest sudden-death score, 74, and wins (rule 9)." in tile.content.subtitle.value
    press(tile.content)
    assert page.navigated[-1] == f"/continue/{session.id}/sudden-death-2"

    shell, page = shell_for(services, f"/continue/{session.id}/sudden-death-2")
    shell.render()
    view = page.views[-1]
    texts = [c.value for c in _controls(view) if isinstance(c, ft.Text)]
    assert any(t and t.startswith("Correct sudden-death hand 2: Ann and Ben.") for t in texts), texts
    press(_button(view, "Ann (A) · target 518: 6 2 9"))  # the hand opens as entered
    backspace = next(c for c in _controls(view) if icon_label(c) == "Delete digit")
    for _ in range(3):
        press(backspace.content)
    for digit in "519":
        press(_button(view, digit))
    assert session.draft("sudden_death/1") is not None, "the correction's draft uses the target's key"
    press(_button(view, "Confirm sudden-death hand"))
    assert session.part("sudden_death")[1] == {"table": "518", "numbers": {"Ann": "519", "Ben": "741"}}
    assert session.result.winners == ["Ann"] and session.draft("sudden_death/1") is None
    assert page.navigated[-1] == f"/continue/{session.id}"

    # a correction that makes hand 1 decide leaves hand 2 after the end: the scoring error, nothing lost
    shell, page = shell_for(services, f"/continue/{session.id}/sudden-death-1")
    shell.render()
    view = page.views[-1]
    press(_button(view, "Ben (B) · target 321: 3 2 2"))
    backspace = next(c for c in _controls(view) if icon_label(c) == "Delete digit")
    press(backspace.content)
    press(_button(view, "1"))
    press(_button(view, "Confirm sudden-death hand"))
    messages = [c.value for c in _controls(view) if isinstance(c, ft.Text) and c.value and "won" in c.value]
    assert messages and "Sudden-death hand 2 was entered, but Ben has already won" in messages[0], messages
    assert session.part("sudden_death")[0] == {"table": "123", "numbers": {"Ann": "124", "Ben": "322"}}
    assert session.draft("sudden_death/0") == {
        "table": "123",
        "numbers": {"Ann": "124", "Ben": "321"},
        "first_triple": None,
    }, "the correction being entered is kept"
    assert page.navigated == []


def test_sudden_death_routes() -> None:
    from views.table.entry import EntryTarget

    assert EntryTarget.of_slug("sudden-death-1") == EntryTarget(Part.SUDDEN_DEATH, 0)
    assert EntryTarget(Part.SUDDEN_DEATH, 0).slug == "sudden-death-1"
    assert EntryTarget(Part.SUDDEN_DEATH, 0).label == "sudden-death hand 1"
