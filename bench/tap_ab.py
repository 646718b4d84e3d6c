"""Jokers Kill (or Bargain Bin, 1111-9999, Financial Crisis, Feast and Famine) taps of this tree against an earlier
commit's, tap by tap in turns, in Chromium slowed 4×.

Each side's app is served from its own tree (the commit's taken out with ``git archive``, as
:mod:`bench.browser_ab` does) on its own data, seeded by this tree's session service, and each gets a page of its
own at 390×844. Every card and Confirm of ``--games`` games (17 hands a game) is tapped on one side's page, then at
the same place on the other's, the first side alternating; each page is slowed (``Emulation.setCPUThrottlingRate``)
only for its own quiet and its own tap (:class:`bench.tap_latency.Cpu`), as the tap benchmark does. A machine that
slows down or speeds up meanwhile weighs on both sides alike, which one run of the tap benchmark per side cannot
promise.

``--game bargain-bin`` plays ``--hands`` hands of Bargain Bin with 10 players the same way: each card a receiver
tap and a value tap (the first receiver and the first value that can take it, as the tap benchmark plays), each
measured, then Confirm. Where to tap is read before each pair of taps from a page with semantics on in the same
state: the first side's own page, or with ``--semantics off`` a third page that plays along on the first side's
server, unmeasured.

``--game 1111-9999`` plays ``--hands`` hands of 1111-9999 with four players the same way: each digit of the table
row and of the four numbers (:data:`OO_HAND`), then Confirm. The keys stay where they are during a hand, so each
side's places are read once, from a page with semantics on, before the first tap.

``--game financial-crisis`` plays ``--hands`` rounds of Financial Crisis with four players the same way: the five
bank cards, then six cards for each pile (:data:`FC_ROUND`), *Next pile* after each pile but the last, then
*Confirm round*. The keys stay where they are during a round, so each side's places are read once too.

``--game feast-and-famine`` walks ``--hands`` rounds of Feast and Famine with two players the same way as Bargain
Bin, where to tap read from a page before each tap: each player's first card, three Takes each (the card turned),
then both Refuse (:data:`FF_ROUND`), then *Confirm round*. Where the table chooses the dealer, Ann deals (a tap
not counted); the deal then passes.

With semantics on, a tap is timed to the frame after the new prompt (a card, *Next pile*, *Refuse*), number (a digit) or
standings line (a Confirm) is in the page; with ``--semantics off``, to the frame after the first WebSocket message
the tap brings (:func:`bench.pagewatch.tap_drawn`). The report gives each side's median, p90 and p95, the median
of its server part (pointerdown → the first message back) and of its client part (that message → the frame), and
this tree's median and p95 over the commit's.

Run from the project root: ``.venv/bin/python -m bench.tap_ab --against main`` (6–7 minutes with two games;
about 4 minutes a Bargain Bin hand).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.browser_ab import checkout  # noqa: E402
from bench.pagewatch import (  # noqa: E402
    PHONE,
    Sample,
    advance,
    app_server,
    buttons,
    labels,
    launch,
    load_average,
    median,
    percentile,
    print_table,
    progress,
    stop_on_sigterm,
    tap_drawn,
    tap_until_changed,
    watched_page,
)
from bench.tap_latency import (  # noqa: E402
    BB_OPTIONS,
    BB_PLAYERS,
    HAND_PLAYED,
    JK_PLAYERS,
    PROMPT,
    RECEIVER,
    STANDING,
    VALUE_KEY,
    Cpu,
    button_at,
    jk_deals,
    open_table,
    quiet,
)
from tests.support.browser import find_free_port  # noqa: E402

KINDS = {
    "jokers-kill": ("card", "Confirm"),
    "bargain-bin": ("receiver", "value", "Confirm"),
    "1111-9999": ("digit", "Confirm"),
    "financial-crisis": ("card", "Next pile", "Confirm"),
    "feast-and-famine": ("card", "Refuse", "Confirm"),
}
"""The kinds of tap measured in each game, in the order of the report."""
OO_SIDES = {"Ann": "A", "Ben": "B", "Cat": "A", "Dan": "B"}
"""1111-9999's table: four players, two on each side (numbers one a row on a phone)."""
OO_OPTIONS = {"target": 1_000_000}
"""A target no hand reaches: the game goes on for as many hands as are played."""
OO_HAND = "1234" + "5678" + "9123" + "4567" + "8912"
"""Every digit of a 1111-9999 hand, typed in order: the table row, then Ann's, Ben's, Cat's and Dan's numbers (no
digit more than three times, no three of a kind in a number)."""
FIELD = r"^(Table row \(A\)|\S+ \([AB]\)).*: [0-9_ ]+$"
"""A 1111-9999 number's field as shown (``Ann (A) · target 4239: 2 8 _ _``): a digit tap changes one."""
FC_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
"""Financial Crisis's table: four players (the target buttons in two rows on a phone)."""
FC_BANK = ["Q♣", "3♣", "7♠", "K♠", "4♥"]
"""The round's five face-down bank cards: two clubs set aside, two spades, a heart (♠ loses; Q♣ and K♠ are ranked,
so ranked cards are valuable: every round scores)."""
FC_REST = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7") for suit in "♠♥♦♣"]
FC_ROUND = [FC_BANK, *([card for card in FC_REST if card not in FC_BANK][6 * n : 6 * n + 6] for n in range(4))]
"""The cards of a Financial Crisis round, tapped in order: the bank, then Ann's, Ben's, Cat's and Dan's piles (six
cards each, rank by rank from the Aces: any card not used yet can go into a pile)."""
FF_PLAYERS = ["Ann", "Ben"]
"""Feast and Famine's table: two players."""
FF_ROUND = ["2♠", "3♠", "A♠", "A♥", "A♦", "A♣", "2♥", "2♦", "Refuse", "Refuse"]
"""A walked round of Feast and Famine, tapped in order: each player's first card, then three Takes each (a Take is
the card turned: low cards, so that a seat's line stays one line and the grid stays where it is), then each
Refuses (everyone is Frozen: the round can be confirmed)."""
Taps = dict[str, dict[str, list[Sample]]]
"""Each side's samples by kind of tap (in the order of the report)."""


def summary(sides: Taps) -> list[list[str]]:
    """One row per kind of tap and side: n, median, p90 and p95 (ms), the server and client medians, and for each
    side after the first its median and p95 over the first side's.

    >>> s = lambda ms: Sample(ms=ms, seen_ms=ms, rx_bytes=0, rx_frames=1, tx_bytes=0, tx_frames=1, label="",
    ...                       server_ms=ms / 2, client_ms=ms / 2)
    >>> rows = summary({"a": {"card": [s(100), s(120)], "Confirm": []}, "b": {"card": [s(80), s(90)]}})
    >>> rows[0]
    ['card', 'a', '2', '110', '120', '120', '55', '55', '', '']
    >>> rows[1][-2:]
    ['0.77×', '0.75×']
    """
    rows = []
    first = next(iter(sides))
    for kind in sides[first]:
        for side, taps in sides.items():
            samples = taps.get(kind, [])
            if not samples:
                continue
            ms = [one.ms for one in samples]
            base = [one.ms for one in sides[first].get(kind, [])]
            ratios = ["", ""]
            if side != first and base:
                ratios = [f"{median(ms) / median(base):.2f}×", f"{percentile(ms, 0.95) / percentile(base, 0.95):.2f}×"]
            rows.append(
                [
                    kind,
                    side,
                    str(len(samples)),
                    f"{median(ms):.0f}",
                    f"{percentile(ms, 0.9):.0f}",
                    f"{percentile(ms, 0.95):.0f}",
                    f"{median([one.server_ms for one in samples]):.0f}",
                    f"{median([one.client_ms for one in samples]):.0f}",
                    *ratios,
                ]
            )
    return rows


def seed(folder: Path, game: str, sessions_wanted: int) -> list[str]:
    """``sessions_wanted`` sessions of ``game`` started through the session service: Jokers Kill with two players,
    one a game measured; Bargain Bin with ten; 1111-9999 and Financial Crisis with four (as many rounds as are
    played)."""
    from companion.session import SessionService
    from storage import Archive

    with Archive(folder) as archive:
        sessions = SessionService(archive)
        if game == "1111-9999":
            return [
                sessions.start(game, list(OO_SIDES), OO_OPTIONS, extra={"sides": OO_SIDES}).id
                for _ in range(sessions_wanted)
            ]
        if game == "financial-crisis":
            return [sessions.start(game, FC_PLAYERS, {"rounds": 1000}).id for _ in range(sessions_wanted)]
        if game == "feast-and-famine":
            return [sessions.start(game, FF_PLAYERS, {"circuits": 100}).id for _ in range(sessions_wanted)]
        if game == "jokers-kill":
            return [sessions.start(game, JK_PLAYERS, title=f"Jokers Kill {n + 1}").id for n in range(sessions_wanted)]
        return [
            sessions.start(game, BB_PLAYERS, BB_OPTIONS, title=f"Bargain Bin {n + 1}").id
            for n in range(sessions_wanted)
        ]


def tap(page: Any, cpu: Cpu, xy: tuple[float, float], kind: str, semantics: bool) -> Sample:
    """One measured tap at ``xy``, the page slowed for its quiet and the tap only."""
    with cpu.slowed(page):
        quiet(page)
        if semantics:
            return tap_until_changed(page, xy, STANDING if kind == "Confirm" else FIELD if kind == "digit" else PROMPT)
        return tap_drawn(page, xy)


def bargain_bin(pages: dict[str, Any], finder: Any, cpu: Cpu, semantics: bool, taps: Taps, turn: int) -> int:
    """One Bargain Bin hand on every side's page, tap by tap in turns (the first side alternating from ``turn``):
    a receiver and a value for each card, then Confirm. ``finder`` shows where to tap (it is the first side's page,
    or a page of its own that then plays along). Returns the next turn."""
    names = list(pages)
    while not labels(finder, HAND_PLAYED):
        for kind, pattern in (("receiver", RECEIVER), ("value", VALUE_KEY)):
            xy = button_at(finder, pattern)
            for name in names[::-1] if turn % 2 else names:
                taps[name][kind].append(tap(pages[name], cpu, xy, kind, semantics))
            turn += 1
            if finder not in pages.values():
                advance(finder, pattern, PROMPT)
    xy = button_at(finder, "^Confirm hand$")
    for name in names[::-1] if turn % 2 else names:
        taps[name]["Confirm"].append(tap(pages[name], cpu, xy, "Confirm", semantics))
    if finder not in pages.values():
        advance(finder, "^Confirm hand$", PROMPT)
    return turn + 1


def feast_and_famine(pages: dict[str, Any], finder: Any, cpu: Cpu, semantics: bool, taps: Taps, turn: int) -> int:
    """One walked Feast and Famine round on every side's page (:data:`FF_ROUND`, then Confirm; where the table
    chooses the dealer, at the start of each circuit, Ann is chosen first, a tap not counted), tap by tap in turns,
    the first side alternating from ``turn``, each tap where ``finder`` shows it (as :func:`bargain_bin`). Returns
    the next turn."""
    names = list(pages)
    deadline = time.monotonic() + 30
    while not (dealer := buttons(finder, "^Dealer: Ann$")) and not [
        key for key in buttons(finder, f"^{FF_ROUND[0]}$") if not key["disabled"]
    ]:
        if time.monotonic() > deadline:
            raise RuntimeError("neither the dealer's choice nor the round's first card on the page")
        finder.wait_for_timeout(50)
    played = [("Dealer: Ann", "")] if dealer else []
    played += [(label, "Refuse" if label == "Refuse" else "card") for label in FF_ROUND]
    for label, kind in [*played, ("Confirm round", "Confirm")]:
        xy = button_at(finder, f"^{label}$")
        for name in names[::-1] if turn % 2 else names:
            sample = tap(pages[name], cpu, xy, kind, semantics)
            if kind:
                taps[name][kind].append(sample)
        turn += 1
        if finder not in pages.values():
            advance(finder, f"^{label}$", PROMPT)
    return turn


def in_place(
    pages: dict[str, Any],
    places: dict[str, dict[str, tuple[float, float]]],
    played: Sequence[tuple[str, str]],
    cpu: Cpu,
    semantics: bool,
    taps: Taps,
    turn: int,
) -> int:
    """One 1111-9999 hand or Financial Crisis round on every side's page: each of ``played`` (a key's name and the
    kind of its tap), each tap on one side and then on the other, the first side alternating from ``turn``; each
    side taps its own keys' places. Returns the next turn."""
    names = list(pages)
    for key, kind in played:
        for name in names[::-1] if turn % 2 else names:
            taps[name][kind].append(tap(pages[name], cpu, places[name][key], kind, semantics))
        turn += 1
    return turn


def run(trees: dict[str, Path], game: str, rounds: int, semantics: bool, rate: float, tmp: Path) -> Taps:
    """Play ``rounds`` games (Jokers Kill), hands (Bargain Bin, 1111-9999) or rounds (Financial Crisis, Feast and
    Famine) on each side's app, each tap on one side then the other, the first side alternating."""
    from playwright.sync_api import sync_playwright

    names = list(trees)
    # Bargain Bin, Feast and Famine: one session a side, and one for the finder; the others: the first is played
    wanted = rounds if game == "jokers-kill" else 2
    ids = {name: seed(tmp / f"data-{n}", game, wanted) for n, name in enumerate(names)}
    servers = {
        name: app_server(find_free_port(), tmp / f"data-{n}", tmp / f"app-{n}.log", root=tree)
        for n, (name, tree) in enumerate(trees.items())
    }
    taps: Taps = {name: {kind: [] for kind in KINDS[game]} for name in names}
    cpu = Cpu(rate)
    with ExitStack() as stack:
        for server in servers.values():
            stack.enter_context(server)
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        finder = watched_page(browser, PHONE)  # where the keys are, read from a page with semantics on
        pages = {name: watched_page(browser, PHONE, semantics=semantics) for name in names}
        if game in ("1111-9999", "financial-crisis"):
            if game == "1111-9999":
                sequence = [*((digit, "digit") for digit in OO_HAND), ("Confirm", "Confirm")]
                found = {digit: rf"^{digit}$" for digit in OO_HAND} | {"Confirm": "^Confirm hand$"}
            else:
                cards = [card for pile in FC_ROUND for card in pile]
                sequence = [(card, "card") for card in FC_ROUND[0]]
                for n, pile in enumerate(FC_ROUND[1:]):  # the bank's last card goes on to Ann's pile, Next pile on
                    sequence += [("Next", "Next pile")] if n else []  # to each other
                    sequence += [(card, "card") for card in pile]
                sequence.append(("Confirm", "Confirm"))
                found = {card: rf"^{card}$" for card in cards} | {"Next": "^Next", "Confirm": "^Confirm round$"}
            where: dict[str, dict[str, tuple[float, float]]] = {}
            for name in names:  # each side's own places (a Material button and a key need not be the same size)
                url = f"{servers[name].url}/continue/{ids[name][0]}"
                open_table(finder, url)
                where[name] = {key: button_at(finder, pattern, enabled=False) for key, pattern in found.items()}
                finder.goto("about:blank")
            finder.context.close()
            for name in names:
                open_table(pages[name], f"{servers[name].url}/continue/{ids[name][0]}", semantics=semantics)
            turn = 0
            for hand in range(rounds):
                turn = in_place(pages, where, sequence, cpu, semantics, taps, turn)
                what = "round" if game == "financial-crisis" else "hand"
                progress(f"{what} {hand + 1} of {rounds} confirmed on both sides")
            return taps
        if game in ("bargain-bin", "feast-and-famine"):
            ready = PROMPT if game == "bargain-bin" else "^Who deals"  # Feast and Famine: the dealer comes first
            for name in names:
                url = f"{servers[name].url}/continue/{ids[name][0]}"
                open_table(pages[name], url, semantics=semantics, ready=ready)
            if semantics:
                finder.context.close()
                finder = pages[names[0]]
            else:
                open_table(finder, f"{servers[names[0]].url}/continue/{ids[names[0]][1]}", ready=ready)
            turn = 0
            for hand in range(rounds):
                if game == "bargain-bin":
                    turn = bargain_bin(pages, finder, cpu, semantics, taps, turn)
                else:
                    turn = feast_and_famine(pages, finder, cpu, semantics, taps, turn)
                progress(
                    f"{'hand' if game == 'bargain-bin' else 'round'} {hand + 1} of {rounds} confirmed on both sides"
                )
            return taps
        open_table(finder, f"{servers[names[0]].url}/continue/{ids[names[0]][0]}")
        places = {code: button_at(finder, rf"^{code}$", enabled=False) for deal in jk_deals() for code in deal}
        places["Confirm"] = button_at(finder, "^Confirm hand$", enabled=False)
        finder.context.close()
        turn = 0
        for played in range(rounds):
            for name in names:
                open_table(pages[name], f"{servers[name].url}/continue/{ids[name][played]}", semantics=semantics)
            for deal in jk_deals():
                for code in [*deal, "Confirm"]:
                    kind = "Confirm" if code == "Confirm" else "card"
                    for name in names[::-1] if turn % 2 else names:
                        taps[name][kind].append(tap(pages[name], cpu, places[code], kind, semantics))
                    turn += 1
            progress(f"game {played + 1} of {rounds} played on both sides")
    return taps


def main(argv: Sequence[str] | None = None) -> Taps:
    parser = argparse.ArgumentParser(prog="python -m bench.tap_ab", description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the commit to compare with (main, a hash)")
    parser.add_argument("--game", choices=tuple(KINDS), default="jokers-kill", help="default: %(default)s")
    parser.add_argument("--games", type=int, default=2, help="Jokers Kill games of 17 hands (default: %(default)s)")
    parser.add_argument(
        "--hands",
        type=int,
        default=2,
        help="Bargain Bin or 1111-9999 hands, Financial Crisis rounds (default: %(default)s)",
    )
    parser.add_argument("--semantics", choices=("on", "off"), default="on", help="default: %(default)s")
    parser.add_argument("--throttle", type=float, default=4.0, help="Chromium's CPU slowed N× (default: 4)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        trees = {args.against: checkout(args.against, tmp / "against"), "this tree": ROOT}
        before = load_average()
        rounds = args.games if args.game == "jokers-kill" else args.hands
        taps = run(trees, args.game, rounds, args.semantics == "on", args.throttle, tmp)
    game = {
        "jokers-kill": "Jokers Kill",
        "bargain-bin": "Bargain Bin with 10 players",
        "financial-crisis": "Financial Crisis with 4 players",
        "feast-and-famine": "Feast and Famine with 2 players",
    }.get(args.game, "1111-9999 with 4 players")
    print(
        f"\n{game}, semantics {args.semantics}, CPU throttled {args.throttle:g}x, 390x844; load average {before} "
        f"at the start, {load_average()} at the end. ms from the pointerdown to the frame after "
        + ("the new prompt, field or standings line" if args.semantics == "on" else "the first message back")
    )
    print_table(
        ["tap", "side", "n", "median", "p90", "p95", "server", "client", "× median", "× p95"],
        summary({name: taps[name] for name in trees}),
    )
    return taps


if __name__ == "__main__":
    main(sys.argv[1:])
