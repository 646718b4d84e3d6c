"""The money format on the Settings screen: currency, symbol or code, decimal mark, and a live example.

The screen is built as the shell builds it (with a fake page, as in ``tests/views/test_app_views.py``); its handlers are
called with the control's new value, as Flet calls them.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft

from companion.money import COMMON_CURRENCIES, MoneyFormat, Show, format_money, parse_money
from companion.services import AppServices
from tests.support.screens import shell_for, walk


def settings_screen(services: AppServices) -> ft.View:
    shell, page = shell_for(services, "/settings")
    shell.render()
    return page.views[-1]


def controls(view: ft.View) -> list[Any]:
    return [control for control, _ in walk(view)]


def currency_menu(view: ft.View) -> ft.DropdownM2:
    (menu,) = [c for c in controls(view) if isinstance(c, ft.DropdownM2)]
    return menu


def group_of(view: ft.View, first_value: str) -> ft.RadioGroup:
    """The radio group whose first radio has ``first_value`` (the money groups: "symbol", ".")."""
    for control in controls(view):
        if isinstance(control, ft.RadioGroup):
            radios = [c for c in controls(control.content) if isinstance(c, ft.Radio)]
            if radios and radios[0].value == first_value:
                return control
    raise AssertionError(f"no radio group starting with {first_value!r}")


def radios(group: ft.RadioGroup) -> list[ft.Radio]:
    return [c for c in controls(group.content) if isinstance(c, ft.Radio)]


def example_line(view: ft.View) -> ft.Text:
    (line,) = [c for c in controls(view) if isinstance(c, ft.Text) and (c.value or "").startswith("Example: ")]
    return line


def choose(control: Any, value: str, handler: str) -> None:
    control.value = value
    getattr(control, handler)(SimpleNamespace(control=control))


def stored_money(services: AppServices) -> dict[str, str]:
    raw = json.loads((services.archive.data_dir / "settings.json").read_text())
    (doc,) = raw["settings"].values()
    return doc["money"]


def test_the_screen_offers_the_money_format_with_labels_and_large_targets(services: AppServices) -> None:
    view = settings_screen(services)
    menu = currency_menu(view)
    assert menu.label == "Currency" and (menu.item_height or 48) >= 48  # no tooltip: its node would take no tap
    assert menu.value == "USD"
    labelled = [c for c in controls(view) if isinstance(c, ft.Semantics) and c.content is menu]
    assert [c.label for c in labelled] == ["Currency: USD — US Dollar"]
    options = [(o.key, o.text) for o in menu.options]
    assert [key for key, _ in options] == list(COMMON_CURRENCIES)
    assert ("USD", "USD — US Dollar") in options and ("CHF", "CHF — Swiss Franc") in options
    assert ("PLN", "PLN — Polish Zloty") in options and ("JPY", "JPY — Japanese Yen") in options

    show = group_of(view, "symbol")
    assert show.value == "symbol"
    assert [r.label for r in radios(show)] == ["Show the symbol ($)", "Show the code (USD)"]
    decimal = group_of(view, ".")
    assert decimal.value == "."
    assert [r.label for r in radios(decimal)] == ["Decimal point ($1,234.56)", "Decimal comma ($1.234,56)"]
    for radio in radios(show) + radios(decimal):
        assert radio.height is not None and radio.height >= 48
    line = example_line(view)
    assert line.value == line.semantics_label == "Example: $1,234.56"
    labels = [c.semantics_label for c in controls(view) if isinstance(c, ft.Text)]
    assert {"Money", "Currency shown as", "Decimal mark"} <= set(labels)


def test_each_choice_is_saved_at_once_and_the_example_follows(services: AppServices, tmp_path: Path) -> None:
    view = settings_screen(services)
    choose(currency_menu(view), "EUR", "on_change")
    assert example_line(view).value == "Example: €1,234.56"
    assert services.settings.current().money.currency == "EUR"

    choose(group_of(view, "."), ",", "on_change")
    assert example_line(view).value == "Example: €1.234,56"
    money = services.settings.current().money
    assert (money.decimal, money.group) == (",", "."), "the group separator gives way to the decimal mark"

    choose(group_of(view, "symbol"), "code", "on_change")
    assert example_line(view).value == "Example: EUR\xa01.234,56"
    assert stored_money(services) == {
        "currency": "EUR",
        "locale": "en_US",
        "show": "code",
        "decimal": ",",
        "group": ".",
    }
    # the redrawn screen shows what was chosen
    again = settings_screen(services)
    assert currency_menu(again).value == "EUR"
    assert any(isinstance(c, ft.Semantics) and c.label == "Currency: EUR — Euro" for c in controls(again))
    assert group_of(again, "symbol").value == "code" and group_of(again, ".").value == ","
    assert example_line(again).value == "Example: EUR\xa01.234,56"

    # and it survives a restart of the app
    data = services.archive.data_dir
    services.close()
    with AppServices.open(data) as reopened:
        assert reopened.settings.current().money == MoneyFormat(currency="EUR", show=Show.CODE, decimal=",", group=".")


def test_stakes_stay_in_minor_units_under_the_format(services: AppServices) -> None:
    view = settings_screen(services)
    choose(group_of(view, "."), ",", "on_change")
    fmt = services.settings.current().money
    assert parse_money("1.234,56", fmt) == 123456 and parse_money("0,25", fmt) == 25
    assert format_money(25, fmt) == "$0,25"
    choose(currency_menu(settings_screen(services)), "JPY", "on_change")
    fmt = services.settings.current().money
    assert parse_money("1.500", fmt) == 1500 and format_money(1500, fmt) == "¥1.500"


def test_a_currency_outside_the_common_list_is_offered_first(services: AppServices) -> None:
    services.settings.set_money({"currency": "INR"})
    menu = currency_menu(settings_screen(services))
    assert menu.value == "INR"
    assert menu.options[0].key == "INR" and menu.options[0].text == "INR — Indian Rupee"
    assert [o.key for o in menu.options[1:]] == list(COMMON_CURRENCIES)


def test_a_save_that_fails_is_reported_and_nothing_changes(services: AppServices, monkeypatch: Any) -> None:
    view = settings_screen(services)

    def full(fmt: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services.settings, "set_money", full)
    choose(currency_menu(view), "GBP", "on_change")
    errors = [c.value for c in controls(view) if isinstance(c, ft.Text) and c.color == ft.Colors.ERROR]
    assert errors == ["[Errno 28] No space left on device"]
    assert example_line(view).value == "Example: $1,234.56"
    assert services.settings.current().money == MoneyFormat()


def test_an_unknown_currency_from_the_page_is_refused_in_words(services: AppServices) -> None:
    view = settings_screen(services)
    choose(currency_menu(view), "XYZ", "on_change")
    errors = [c.value for c in controls(view) if isinstance(c, ft.Text) and c.color == ft.Colors.ERROR]
    assert errors == ["'XYZ' is not an ISO 4217 currency code (for example USD, EUR, GBP)"]
    assert services.settings.current().money.currency == "USD"


def test_exports_keep_amounts_in_minor_units_whatever_the_format(services: AppServices) -> None:
    from storage.exports import CSV_COLUMNS

    table = services.sessions.start("bargain-bin", ["Ann", "Ben", "Cy", "Dee"], options={"vegas_unit_cents": 25})
    choose(currency_menu(settings_screen(services)), "EUR", "on_change")
    choose(group_of(settings_screen(services), "."), ",", "on_change")
    assert services.settings.current().money.decimal == ","
    exported = json.loads(services.archive.export_sessions([table.id], "json"))
    (session,) = exported["sessions"]
    assert session["record"]["options"]["vegas_unit_cents"] == 25
    text = services.archive.export_sessions([table.id], "csv").decode()
    assert text.splitlines()[0].split(",") == CSV_COLUMNS
    assert "€" not in text and "0,25" not in text
