"""Settings in Chromium on a small phone: the currency drop-down is one named node that opens its list when
activated through semantics (as a screen reader does), a currency chosen there is saved, and the screen keeps its
scroll position after the choice (the decimal mark below it needs no new scroll)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.browser import AppServer, box_of, open_app, reveal

pytestmark = [pytest.mark.browser, pytest.mark.opens_app]

SMALL_PHONE = {"width": 360, "height": 640}


def activate(locator: Any) -> None:
    """A click dispatched on the control's semantics node: what a screen reader's activation does."""
    locator.wait_for(state="attached")
    locator.dispatch_event("click")


def stored_currency(server: AppServer) -> str:
    raw = json.loads((server.data_dir / "settings.json").read_text(encoding="utf-8"))
    (doc,) = raw["settings"].values()
    return str(doc["money"]["currency"])


def test_the_currency_is_chosen_through_semantics_and_the_screen_keeps_its_place(
    page: Any, app_server: AppServer
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    open_app(page, app_server, "/settings")
    page.get_by_role("radio", name="Dark", exact=True).wait_for()
    currency = reveal(page, page.get_by_role("button", name=re.compile("Currency: USD — US Dollar")))
    assert currency.get_attribute("flt-tappable") is not None, "the named currency node takes the activation"
    before = box_of(reveal(page, page.get_by_role("radio", name="Decimal point ($1,234.56)", exact=True)))
    assert before["y"] > 0, "the screen was scrolled down to the money format"

    activate(currency)
    option = page.get_by_role("menuitem", name="EUR — Euro", exact=True)  # the list it opened
    option.wait_for()
    activate(option)
    page.get_by_role("button", name=re.compile("Currency: EUR — Euro")).wait_for(state="attached")
    page.get_by_text("Example: €1,234.56", exact=True).wait_for(state="attached")
    assert stored_currency(app_server) == "EUR"

    after = box_of(page.get_by_role("radio", name="Decimal point (€1,234.56)", exact=True))
    assert abs(after["y"] - before["y"]) < 4, f"Settings scrolled from y {before['y']} to {after['y']}"
    assert 0 <= after["y"] + after["height"] / 2 <= SMALL_PHONE["height"], "the decimal mark is still on screen"
