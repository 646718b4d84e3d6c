"""Each device keeps its own half-entered hand, in Chromium: the host and a phone with the PIN half-enter the same
hand, each reloads and gets its own taps back; the phone confirms first, and the host's taps stay on its table and
its own Confirm saves them as the next hand (issue 25's scene: before, the host's Continue showed the phone's
cards).

The app runs as ``companion --share``, the host on 127.0.0.1 and the phone through this machine's network
address (as in ``test_live.py``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import (
    UPDATE_WAIT_MS,
    AppServer,
    button,
    close_context,
    host_pin,
    live_count,
    new_tab,
    open_at,
    phone_url,
    send_pin,
    tap,
    tap_card,
)

pytestmark = pytest.mark.browser


def has(tab: Any, name: str) -> None:
    button(tab, name).first.wait_for(timeout=UPDATE_WAIT_MS)


def test_the_host_and_a_phone_each_keep_their_own_half_entered_hand(
    browser: Any,
    shared_server: AppServer,
    games: dict[str, str],
) -> None:
    table = games["table"]
    host, phone = new_tab(browser), new_tab(browser)
    try:
        open_at(host, f"{shared_server.url}/continue/{table}/share")
        pin = host_pin(host)
        open_at(phone, phone_url(shared_server, f"/live/{table}"))
        live_count(phone, 0)
        send_pin(phone, pin)
        phone.get_by_text("Editing with PIN").first.wait_for()

        open_at(host, f"{shared_server.url}/continue/{table}")
        for code in ("9S", "4H"):
            tap_card(host, code)
        has(host, "Ann: 4♥")
        for code in ("KD", "QC", "JS"):
            tap_card(phone, code)
        has(phone, "Ben: J♠")

        open_at(host, f"{shared_server.url}/continue/{table}")  # the host closes its tab and chooses Continue
        has(host, "Up-card: 9♠")
        has(host, "Ann: 4♥")
        assert button(host, "Up-card: K♦").count() == 0, "the phone's cards are not the host's"
        open_at(phone, phone_url(shared_server, f"/live/{table}"))  # the phone reloads
        has(phone, "Up-card: K♦")
        has(phone, "Ben: J♠")
        assert button(phone, "Up-card: 9♠").count() == 0

        tap_card(phone, "2C")
        tap(phone, "Confirm hand")
        live_count(phone, 1)
        host.get_by_text(re.compile(r"\(last hand [+-]?\d+\)")).first.wait_for(timeout=UPDATE_WAIT_MS)
        has(host, "Up-card: 9♠")  # the host's table is not redrawn empty: its taps still apply
        has(host, "Ann: 4♥")
        for code in ("7D", "3C"):
            tap_card(host, code)
        tap(host, "Confirm hand")
        live_count(phone, 2)
        assert host.get_by_text("someone else changed this game").count() == 0
    finally:
        close_context(host.context)
        close_context(phone.context)
