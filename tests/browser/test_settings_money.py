"""The money format on the real Settings screen in Chromium: the decimal mark, the currency drop-down and the
symbol-or-code choice, each saved at once, with the live example following, and kept after a reload."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.browser import AppServer, open_app, reload_app, reveal

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]


def radio(page: Any, name: str) -> Any:
    return page.get_by_role("radio", name=name, exact=True)


def example(page: Any, text: str) -> None:
    reveal(page, page.get_by_text(re.compile("^Example: ")))
    page.get_by_text(text, exact=True).wait_for()


def stored_money(server: AppServer) -> dict[str, str]:
    raw = json.loads((server.data_dir / "settings.json").read_text(encoding="utf-8"))
    (doc,) = raw["settings"].values()
    return dict(doc["money"])


def test_choose_decimal_comma_euro_and_code(page: Any, app_server: AppServer) -> None:
    open_app(page, app_server, "/settings")
    example(page, "Example: $1,234.56")
    reveal(page, radio(page, "Decimal comma ($1.234,56)")).click()
    example(page, "Example: $1.234,56")

    currency = reveal(page, page.get_by_role("button", name=re.compile("Currency: USD — US Dollar")))
    currency.click()
    option = page.get_by_role("menuitem", name="EUR — Euro", exact=True)  # the open menu's entries
    option.wait_for()
    option.click()
    example(page, "Example: €1.234,56")
    page.get_by_role("button", name=re.compile("Currency: EUR — Euro")).wait_for(state="attached")

    reveal(page, radio(page, "Show the code (EUR)")).click()
    example(page, "Example: EUR\xa01.234,56")
    assert stored_money(app_server) == {
        "currency": "EUR",
        "locale": "en_US",
        "show": "code",
        "decimal": ",",
        "group": ".",
    }

    reload_app(page)
    example(page, "Example: EUR\xa01.234,56")
    assert radio(page, "Decimal comma (EUR\xa01.234,56)").get_attribute("aria-checked") == "true"
