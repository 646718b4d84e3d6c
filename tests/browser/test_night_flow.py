"""A game night through the UI only, in Chromium: Home → Start a game night (default name, four players) → two
Bargain Bin games with Vegas Rules, each ended by one quick hand (target 1), started from the night → one ledger
entry by hand (the
pizza, split) → the settle-up on screen checked against a computation of this test (each game's Vegas money from
``python -m scoring score`` on the saved record, the split, the fewest transfers by exhaustive search) → one transfer
marked paid → the recap (copied to the clipboard; the image saved to the exports folder) → the night exported and
imported into a fresh data folder with ``companion import``, where ``companion show-night`` gives the same settle-up.

Screenshots of the recap and of the shared image go to docs/screenshots/ only when ``CTC_SCREENSHOTS=1``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import (
    NIGHT_PLAYERS,
    SCREENSHOTS,
    AppServer,
    button,
    fill,
    open_app,
    play_game,
    reveal,
    run_companion,
    score_saved,
    screenshot,
    seat,
    tap,
    wait_text,
)

pytestmark = pytest.mark.browser

GAMES = [
    {"Ann": "10", "Ben": "4", "Cat": "-5", "Dan": "2"},
    {"Ann": "-3", "Ben": "12", "Cat": "7", "Dan": "-8"},
]
PIZZA = 1000
"""Cat pays $10.00 for the pizza, split among the four (BB rules do not apply: a ledger entry)."""


CLIPBOARD_TEXT = """() => Promise.race([
    navigator.clipboard.readText(),
    new Promise((_, fail) => setTimeout(() => fail(new Error("the clipboard gave no text within 10 s")), 10000)),
])"""
"""The clipboard's text, or an error after 10 s (``evaluate`` itself takes no timeout)."""


def screenshots_on() -> bool:
    return os.environ.get("CTC_SCREENSHOTS") == "1"


def maybe_screenshot(page: Any, name: str) -> None:
    if screenshots_on():
        screenshot(page, name)


def dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def fewest_transfers(balance: dict[str, int]) -> int:
    """The fewest transfers that settle ``balance``, by exhaustive search: the players with a balance, minus the
    most disjoint groups whose balances sum to zero (each group settles within itself in size − 1 transfers)."""
    names = [n for n, v in balance.items() if v]
    n = len(names)
    sums = [sum(balance[names[i]] for i in range(n) if mask >> i & 1) for mask in range(1 << n)]
    best = [0] * (1 << n)  # best[mask]: the most zero-sum groups that partition ``mask`` (0 if it cannot be)
    for mask in range(1, 1 << n):
        if sums[mask] != 0:
            continue
        sub = mask
        while sub:
            if sums[sub] == 0 and (sub == mask or best[mask ^ sub] > 0):
                best[mask] = max(best[mask], 1 + (best[mask ^ sub] if sub != mask else 0))
            sub = (sub - 1) & mask
    return n - best[(1 << n) - 1] if n else 0


def shown_transfers(page: Any) -> list[tuple[str, str, int]]:
    """Every "X pays Y $A" line in the page."""
    found = page.evaluate(
        """() => [...document.querySelectorAll('flt-semantics')].map(e => e.getAttribute('aria-label')
            || e.textContent.trim())"""
    )
    out = []
    for text in found:
        match = re.fullmatch(r"(\w+) pays (\w+) \$(\d+)\.(\d\d)", text or "")
        if match:
            out.append((match[1], match[2], int(match[3]) * 100 + int(match[4])))
    return list(dict.fromkeys(out))


def night_says(page: Any, pattern: str) -> None:
    """Wait for what the night screen says a change did: next to the control tapped (on screen, then, as Flutter
    leaves a text far off screen out of the semantics tree)."""
    wait_text(page, pattern)


def test_a_night_two_games_an_entry_settle_up_recap_export_import(
    page: Any, app_server: AppServer, tmp_path: Path
) -> None:
    tap(page, "Start a game night")
    page.wait_for_url(re.compile(r"/nights/new$"))
    seat(page, NIGHT_PLAYERS)
    tap(page, "Start the night")
    page.wait_for_url(re.compile(r"/nights/[0-9a-f]+$"))
    night_url = page.url
    night_id = night_url.rsplit("/", 1)[1]
    wait_text(page, r"^Open: every game started now belongs to this night\.$")

    sessions = []
    for scores in GAMES:
        sessions.append(play_game(page, scores))
        open_app(page, app_server, f"/nights/{night_id}")
        wait_text(page, rf"^Games tonight \({len(sessions)}\)$")

    # The pizza: Cat paid $10.00 for the four of them.
    reveal(page, button(page, "Cat pays")).click()
    reveal(page, button(page, "Everyone: a shared bill")).click()
    shared = r"^Cat paid \$10\.00 for everyone: each of the others owes Cat a share"
    fill(page, "Amount", "10.00", shared + r"\.$")
    fill(page, "Note", "pizza", r"^195 characters remaining$")  # the note's own counter: the text is in the note
    wait_text(page, shared + r"\.$")  # and the amount is as typed (not ``10.00pizza``)
    tap(page, "Add to the ledger")
    night_says(page, r"^Added to the ledger: " + shared[1:] + r"\.$")
    # The entry's own row ("Entry 1: Cat paid $10.00 …") is not looked for here: on the long night screen it was not
    # found in the semantics tree when this test ran after the others (it is found alone). What the entry does is
    # checked below: the settle-up on screen must include the pizza.

    # The settle-up against this test's own computation.
    expected = dict.fromkeys(NIGHT_PLAYERS, 0)
    for sid in sessions:
        result = score_saved(app_server, sid, page)
        assert result["finished"], result
        for name in NIGHT_PLAYERS:
            expected[name] += result["payouts"].get(name, 0) - result["payments"][name]
    for name in NIGHT_PLAYERS:
        expected[name] += PIZZA - PIZZA // 4 if name == "Cat" else -(PIZZA // 4)
    assert sum(expected.values()) == 0 and any(expected.values())
    reveal(page, page.get_by_text("Who pays whom tonight", exact=True))
    transfers = shown_transfers(page)
    left = dict(expected)
    for payer, receiver, cents in transfers:
        left[payer] += cents
        left[receiver] -= cents
    assert set(left.values()) == {0}, (transfers, expected)
    assert len(transfers) == fewest_transfers(expected), transfers

    payer, receiver, cents = transfers[0]
    pays = f"{payer} pays {receiver} {dollars(cents)}"
    mark = page.get_by_role("button", name=re.compile(re.escape(f"Mark paid: {pays}")))
    reveal(page, mark).first.click()
    night_says(page, rf"^Paid: {payer} pays {receiver} {re.escape(dollars(cents))}\.$")
    remaining = dict(expected)
    remaining[payer] += cents
    remaining[receiver] -= cents
    reveal(page, page.get_by_text("Who pays whom tonight", exact=True))
    wait_text(page, rf"^{payer} paid {receiver} {re.escape(dollars(cents))}$")
    after = shown_transfers(page)
    settled = dict(remaining)
    for p, r, c in after:
        settled[p] += c
        settled[r] -= c
    assert set(settled.values()) == {0}, (after, remaining)
    assert len(after) == fewest_transfers(remaining), after

    # The recap.
    tap(page, "Recap")
    page.wait_for_url(re.compile(r"/recap$"))
    wait_text(page, r"^1\. Bargain Bin: ")
    wait_text(page, r"^2\. Bargain Bin: ")
    wait_text(page, rf"^{payer} paid {receiver} {re.escape(dollars(cents))} ✓$")
    for p, r, c in after:
        wait_text(page, rf"^{p} pays {r} {re.escape(dollars(c))}$")
    maybe_screenshot(page, "night-recap")

    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_server.url)
    tap(page, "Copy the recap")
    wait_text(page, r"^The recap is copied: paste it into your messenger\.$")
    copied = page.evaluate(CLIPBOARD_TEXT)
    assert copied.startswith("Game night, ") and "Who pays whom tonight" in copied
    assert f"{payer} paid {receiver} {dollars(cents)} ✓" in copied

    tap(page, "Save the image to the exports folder")
    wait_text(page, r"^Saved to .*\.png$")
    images = sorted((app_server.data_dir / "exports").glob("night-game-night-*.png"))
    assert len(images) == 1 and images[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if screenshots_on():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / "night-recap-image.png").write_bytes(images[0].read_bytes())

    # Export the night, import it into a fresh folder: the same settle-up there.
    open_app(page, app_server, f"/nights/{night_id}")
    tap(page, "Export the night")
    night_says(page, r"^Saved to .*\.json$")
    exported = sorted((app_server.data_dir / "exports").glob("night-game-night-*.json"))
    assert len(exported) == 1
    data = json.loads(exported[0].read_text())
    assert [n["id"] for n in data["nights"]] == [night_id] and len(data["sessions"]) == 2

    fresh = tmp_path / "fresh"
    done = run_companion("import", str(exported[0]), "--data-dir", str(fresh))
    assert done.returncode == 0, done.stderr
    assert "2 imported, 0 skipped, 1 game night." in done.stdout
    shown = run_companion("show-night", night_id, "--json", "--data-dir", str(fresh))
    assert shown.returncode == 0, shown.stderr
    there = json.loads(shown.stdout)
    assert there["money"] == expected
    assert [(t["payer"], t["receiver"], t["amount"], t["paid"]) for t in there["settle_up"]] == [
        (payer, receiver, cents, True),
        *[(p, r, c, False) for p, r, c in after],
    ]
