"""The New-game screen in words and state: the stake typed as money, the player-count limit before Start, plain
words in every drop-down, headed switch groups, 1111-9999's default sides; drawn on a fake page and tapped through
its handlers, with the pure logic (companion/new_game.py) tested on its own."""

from __future__ import annotations

import re
from typing import Any, cast

import flet as ft
import pytest

from companion.games import all_guides
from companion.money import MoneyFormat
from companion.new_game import (
    OptionKind,
    SideDefaults,
    describe_options,
    in_words,
    money_feedback,
    option_fields,
    option_problems,
    player_limit,
)
from companion.services import AppServices
from scoring import GAMES, ScoringError, find_game
from tests.support.screens import FakePage, assert_accessible, buttons, tap, texts, walk
from views.new_game import SWITCH_GROUP
from views.shell import Shell

GAMES = [game.key for game in GAMES]
RECORD_KEYS = {f.key for game in GAMES for f in option_fields(game) if "_" in f.key}
"""House-rule record keys that cannot be mistaken for a word (``max_players``, ``vegas_unit_cents``...)."""


class Page(FakePage):
    def navigate(self, route: str) -> None:
        super().navigate(route)
        self.route = route


def open_setup(services: AppServices, game: str) -> tuple[Page, ft.View]:
    page = Page(f"/new/{game}")
    Shell(cast(ft.Page, page), services).render()
    return page, page.views[-1]


def seat(view: ft.View, names: list[str]) -> None:
    field = text_field(view, "New player name")
    for name in names:
        field.value = name
        cast(Any, field).on_submit(None)


def text_field(view: ft.View, label: str) -> ft.TextField:
    return next(c for c, _ in walk(view) if isinstance(c, ft.TextField) and c.label == label)


def type_in(field: ft.TextField, value: str) -> None:
    field.value = value
    cast(Any, field).on_change(type("E", (), {"control": field})())


def shown(view: ft.View) -> list[str]:
    """Every text on the screen: texts, labels, a field's helper and error line, a drop-down's options."""
    out = texts(view)
    for control, _ in walk(view):
        if isinstance(control, ft.TextField):
            out += [str(v) for v in (control.helper, control.error, control.hint_text) if isinstance(v, str)]
        if isinstance(control, ft.Dropdown):
            out += [str(option.text) for option in control.options or []]
    return out


def start_button(view: ft.View) -> Any:
    return buttons(view)["Start game"]


# --- the Vegas stake --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["0.25", "$0.25", "25¢"])
def test_the_stake_is_typed_as_money_and_says_what_it_stored(services: AppServices, typed: str) -> None:
    page, view = open_setup(services, "bargain-bin")
    seat(view, ["Ann", "Ben", "Cat", "Dan"])
    stake = text_field(view, "Vegas Rules stake per point")
    assert stake.helper == "Empty: off"
    type_in(stake, typed)
    assert stake.helper == "Stored as $0.25 a point" and stake.error is None
    assert "House rules changed: Vegas Rules stake per point $0.25." in texts(view)
    tap(view, "Start game")
    table = services.sessions.open(page.navigated[-1].rsplit("/", 1)[1])
    assert table.record["options"] == {"vegas_unit_cents": 25}


def test_a_wrong_stake_greys_out_start_and_the_refusal_goes_once_corrected(services: AppServices) -> None:
    page, view = open_setup(services, "bargain-bin")
    seat(view, ["Ann", "Ben", "Cat", "Dan"])
    stake = text_field(view, "Vegas Rules stake per point")
    type_in(stake, "a quarter")
    assert stake.error == "'a quarter' is not an amount (for example 0.25, $1.50 or 25¢)"
    assert start_button(view).disabled
    assert "Not read yet: “Vegas Rules stake per point” (the red line under it says why)." in texts(view)
    reason = "Start is greyed out: fix Vegas Rules stake per point: 'a quarter' is not an amount"
    assert any(t.startswith(reason) for t in texts(view))
    cast(Any, start_button(view)).on_click(None)  # pressed anyway (a stale tap): refused, in words
    refusal = [t for t in texts(view) if t.startswith("Cannot start")]
    assert refusal and "'a quarter' is not an amount" in refusal[0]
    type_in(stake, "0.2")
    assert stake.error is None and stake.helper == "Stored as $0.20 a point"
    assert not any(t.startswith("Cannot start") for t in texts(view)), "the red refusal goes with the mistake"
    assert not start_button(view).disabled and "4 players seated." in texts(view)
    tap(view, "Start game")
    assert services.sessions.open(page.navigated[-1].rsplit("/", 1)[1]).record["options"] == {"vegas_unit_cents": 20}


def test_the_stake_follows_the_money_setting(services: AppServices) -> None:
    services.settings.set_money({"currency": "EUR", "locale": "de_DE", "decimal": ",", "group": "."})
    _, view = open_setup(services, "bargain-bin")
    stake = text_field(view, "Vegas Rules stake per point")
    type_in(stake, "0,25")
    assert str(stake.helper).replace("\xa0", " ") == "Stored as 0,25 € a point"


def test_stake_feedback() -> None:
    euro = MoneyFormat.for_locale("de_DE", "EUR")
    assert money_feedback("1,50", euro).cents == 150
    assert money_feedback("  ", empty="Empty: off") == money_feedback("", empty="Empty: off")
    assert money_feedback("", empty="Empty: off").cents is None
    assert money_feedback("-1").error == "the amount cannot be negative"
    assert money_feedback("0").error == "the amount must be more than zero"
    assert money_feedback("3").helper == "Stored as $3.00 a point"


# --- the number of players --------------------------------------------------------------------------------------


def test_financial_crisis_shows_its_limit_and_greys_out_start_beyond_it(services: AppServices) -> None:
    page, view = open_setup(services, "financial-crisis")
    limit = "Financial Crisis is for 2 to 4 players: the house rule “Most players allowed” is 4 (it goes up to 9)."
    assert any(t.startswith(limit) for t in texts(view)), "the limit is shown before anyone is seated"
    seat(view, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    assert start_button(view).disabled
    assert (
        "Start is greyed out: Financial Crisis takes at most 4 players and 5 are seated: "
        "set “Most players allowed” to 5 (up to 9) or remove a player." in texts(view)
    )
    type_in(text_field(view, "Most players allowed"), "5")
    assert not start_button(view).disabled
    assert any(t.startswith("Financial Crisis is for 2 to 5 players") for t in texts(view))
    type_in(text_field(view, "Most players allowed"), "12")
    assert start_button(view).disabled
    assert text_field(view, "Most players allowed").error == (
        "“Most players allowed” must be a whole number from 2 to 9, not 12 (BK-15)"
    )
    assert not [t for t in shown(view) if any(key in t for key in RECORD_KEYS)], "no record keys on screen"
    type_in(text_field(view, "Most players allowed"), "6")
    tap(view, "Start game")
    table = services.sessions.open(page.navigated[-1].rsplit("/", 1)[1])
    assert table.players == ["Ann", "Ben", "Cat", "Dan", "Eve"] and table.record["options"] == {"max_players": 6}


def test_too_few_players_say_how_many_more() -> None:
    assert (
        player_limit("bargain-bin", {}).problem(2)
        == "Bargain Bin needs at least 4 players and 2 are seated: seat 2 more"
    )
    assert (
        player_limit("jokers-kill", {}).problem(1)
        == "Jokers Kill needs at least 2 players and 1 is seated: seat 1 more"
    )
    assert player_limit("1111-9999", {}).problem(9) == "1111-9999 takes at most 8 players and 9 are seated: remove 1"
    assert player_limit("financial-crisis", {"max_players": 9}).problem(10) == (
        "Financial Crisis takes at most 9 players and 10 are seated: remove 1"
    )
    assert player_limit("feast-and-famine", {}).text == "Feast and Famine is for 2 or more players."


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("bargain-bin", {}),
        ("financial-crisis", {}),
        ("financial-crisis", {"max_players": 7}),
        ("financial-crisis", {"max_players": 9}),
        ("1111-9999", {}),
        ("jokers-kill", {}),
        ("jokers-kill", {"jokers": 4}),
        ("feast-and-famine", {}),
    ],
)
def test_the_limit_shown_is_the_one_scoring_applies(game: str, options: dict[str, Any]) -> None:
    limit = player_limit(game, options)

    def accepted(count: int) -> bool:
        record = {"game": game, "players": [f"P{i}" for i in range(count)], "options": options, "hands": []}
        if game == "1111-9999":
            record["sides"] = {name: "A" for name in record["players"]}
        try:
            find_game(game).score(record)
        except ScoringError:
            return False
        return True

    assert accepted(limit.low) and not accepted(limit.low - 1)
    if limit.high is not None:
        assert accepted(limit.high) and not accepted(limit.high + 1)
        assert limit.problem(limit.high) is None and limit.problem(limit.high + 1) is not None
    else:
        assert accepted(60)


def test_option_problems_name_the_field_not_the_key() -> None:
    assert option_problems("bargain-bin", {"target": 0}) == {"target": "at least 1"}
    assert option_problems("jokers-kill", {}) == {}
    message = "the max_players house rule allows up to 9 (BK-15)"
    assert in_words(message, "financial-crisis") == "the “Most players allowed” house rule allows up to 9 (BK-15)"
    assert in_words("max players", "financial-crisis") == "max players", "only record keys are replaced"


# --- labels that agree with the controls ------------------------------------------------------------------------


def test_jokers_kill_labels_agree_with_the_controls_and_switches_have_a_heading(services: AppServices) -> None:
    _, view = open_setup(services, "jokers-kill")
    assert_accessible(view)
    jokers = next(c for c, _ in walk(view) if isinstance(c, ft.Dropdown) and c.label == "Jokers in the deck")
    shows = next(o.text for o in jokers.options or [] if o.key == jokers.value)
    assert shows == "No Jokers" and "Default: no Jokers. Or: 2 Jokers or 4 Jokers (JK-11)." in texts(view)
    groups = [
        c
        for c, _ in walk(view)
        if isinstance(c, ft.Column) and c.controls and getattr(c.controls[0], "value", None) == SWITCH_GROUP
    ]
    assert len(groups) == 1, "Jokers Kill's two switches are one group under one heading"
    switches = [c.label for c, _ in walk(groups[0]) if isinstance(c, ft.Switch)]
    assert switches == ["The up-card goes to the winner's prize pile", "A player's Ace matches an Ace up-card"]
    assert "Default: on (JK-2)." in texts(cast(ft.View, groups[0])), "the explanation says on/off like the switch"


@pytest.mark.parametrize("game", GAMES)
def test_every_drop_down_shows_plain_words_and_keeps_the_codes_as_keys(services: AppServices, game: str) -> None:
    fields = {f.key: f for f in option_fields(game)}
    _, view = open_setup(services, game)
    assert_accessible(view)
    drop_downs = [c for c, _ in walk(view) if isinstance(c, ft.Dropdown)]
    assert len(drop_downs) == sum(f.kind is OptionKind.CHOICE for f in fields.values())
    for drop_down in drop_downs:
        field = next(f for f in fields.values() if f.label == drop_down.label)
        assert drop_down.tooltip == field.label, "the semantics label stays the rule's label"
        options = drop_down.options or []
        assert [o.key for o in options] == [str(c) for c in field.choices]
        for option in options:
            words = str(option.text)
            assert words[:1].isupper() or words[:1].isdigit(), words
            if isinstance(field.choices[0], str):
                assert words != option.key and re.search(r"\s", words), f"{field.label}: '{words}' is a code"
        default = next(o.text for o in options if o.key == drop_down.value)
        assert str(default).lower() in field.explanation.lower(), "the default named above is the one shown"
    for control, _ in walk(view):
        if isinstance(control, ft.Switch):
            assert control.label and control.height is not None and control.height >= 48
    assert not [t for t in shown(view) if any(key in t for key in RECORD_KEYS)], "no record keys on screen"


def test_every_choice_rule_has_words_in_the_guide() -> None:
    for guide in all_guides():
        fields = {f.key: f for f in option_fields(guide.key)}
        for rule in guide.options:
            if fields[rule.key].kind is OptionKind.CHOICE:
                assert [choice for choice, _ in rule.choices] == list(fields[rule.key].choices), rule.key


def test_describe_options_uses_the_words_of_the_controls() -> None:
    fields = option_fields("financial-crisis")
    line = describe_options(fields, {"clubs_tie_for_most": "reverse", "worthless_ranked_in_rest": False})
    assert line == "House rules changed: Worthless ranked cards join the rest off; Banks show 2♣, 2 of one suit, " \
        "1 of another: the 1-card suit loses."  # fmt: skip


# --- 1111-9999: default sides -------------------------------------------------------------------------------------


def test_sides_default_to_first_half_a_second_half_b_as_players_are_seated(services: AppServices) -> None:
    page, view = open_setup(services, "1111-9999")
    for name in ("Ann", "Ben", "Cat", "Dan"):
        seat(view, [name])
    labels = set(buttons(view))
    assert {"Ann: side A", "Ben: side A", "Cat: side B", "Dan: side B"} <= labels
    tap(view, "Remove Dan")
    assert {"Ann: side A", "Ben: side A", "Cat: side B"} <= set(buttons(view)), "3 players: two on A, one on B"
    tap(view, "Ann: side A")  # by hand: Ann moves to side B and stays there
    seat(view, ["Dan", "Eve", "Fay"])
    assert {"Ann: side B", "Ben: side A", "Cat: side A", "Dan: side B", "Eve: side B", "Fay: side B"} <= set(
        buttons(view)
    )
    tap(view, "Start game")
    table = services.sessions.open(page.navigated[-1].rsplit("/", 1)[1])
    assert table.record["sides"] == {"Ann": "B", "Ben": "A", "Cat": "A", "Dan": "B", "Eve": "B", "Fay": "B"}


def test_side_defaults_keep_only_the_sides_chosen_by_hand() -> None:
    sides = SideDefaults()
    current = sides.fit(["Ann", "Ben"], {})
    assert current == {"Ann": "A", "Ben": "B"}
    current = sides.fit(["Ann", "Ben", "Cat", "Dan"], current)
    assert current == {"Ann": "A", "Ben": "A", "Cat": "B", "Dan": "B"}
    current = {**current, "Dan": "A"}  # by hand
    current = sides.fit(["Dan", "Ann", "Ben", "Cat"], current)  # Dan moved to the first seat
    assert current == {"Dan": "A", "Ann": "A", "Ben": "B", "Cat": "B"}
    current = sides.fit(["Ann", "Ben"], current)
    assert current == {"Ann": "A", "Ben": "B"}, "Dan left: his choice goes with him"
    assert sides.fit(["Ann", "Ben", "Dan"], {"Ann": "A", "Ben": "B"}) == {"Ann": "A", "Ben": "A", "Dan": "B"}


def test_the_stake_hint_follows_the_money_format() -> None:
    from companion.money import MoneyFormat
    from companion.new_game import option_fields

    def hint(money: MoneyFormat) -> str:
        return next(f.explanation for f in option_fields("bargain-bin", money) if f.key == "vegas_unit_cents")

    assert "25¢" in hint(MoneyFormat())
    euro = hint(MoneyFormat.for_locale("de_DE", "EUR"))
    assert "¢" not in euro and "0,25" in euro


def test_jokers_kill_says_its_real_player_range() -> None:
    from companion.new_game import player_limit

    limit = player_limit("jokers-kill", {})
    assert limit.text.startswith("Jokers Kill is for 2 or more players: ")  # JK rules: "Players: 2 or more"
    assert limit.text.endswith(", so 51 at most.") and limit.high == 51  # one deck deals the players and the up-card
    assert limit.problem(52) is not None and limit.problem(51) is None
    assert player_limit("jokers-kill", {"jokers": 2}).text.endswith(", so 53 at most.")
