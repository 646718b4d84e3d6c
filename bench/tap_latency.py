"""Tap-latency benchmark in Chromium: each tap at the table against a trivial Flet app, side by side in one run.

The real app and :mod:`bench.trivial_app` are served at the same time on loopback; every measured tap on the app
is preceded by a tap on the trivial app, so both see the same machine (absolute times here swing by 2× with the
load), and each measured tap, on either app, comes after the same :data:`QUIET_BEFORE_MS` of quiet. Each latency
is taken in the page's own clock (:mod:`bench.pagewatch`) in two clocks: pointerdown → the expected text in the
page (the semantics tree), and → the frame after it. Measured:

* trivial app: click → its text;
* Jokers Kill (2 players, one deck: 17 hands): a card tap → the prompt moves on; Confirm → the updated standings
  (the first sample is the game's first Confirm);
* Bargain Bin, 10 players (50 cards a hand, each a receiver tap and a value tap): a value tap → the prompt moves
  on, and Confirm → the updated standings, at hand 1 (the game's first Confirm first) and at hand 60 (59 realistic
  hands seeded through the session service before the server starts), a hand of each in turn, 30 of each;
* for each: median and p95 in both clocks, their ratio to the trivial app's, the WebSocket bytes the page
  received, and where the time goes (server: pointerdown → the first message back; client: the last message
  before the text → its frame; :class:`bench.pagewatch.Sample`).

Every run is made twice (``--throttle 1,4``): unthrottled at 1280×1400, then with Chromium's CPU slowed 4× (DevTools'
``Emulation.setCPUThrottlingRate``, both apps alike) at 390×844, a phone-class CPU; each prints the load average.
Controls are found by their semantics labels (the same the browser tests use). Run:
``.venv/bin/python -m bench.tap_latency [--hands N] [--values N] [--throttle 1,4]`` (long: an hour or more with
the defaults on 2 cores); ``make bench BENCH_ARGS=--taps`` runs it. Targets (issue 29): card, value and digit taps
p95 ≤ 1.5 × the trivial app's; Confirm p95 ≤ 2 ×; the cost at hand 60 within 1.1 × that at hand 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import (  # noqa: E402
    PHONE,
    Sample,
    app_server,
    buttons,
    labels,
    launch,
    median,
    percentile,
    print_table,
    progress,
    stop_on_sigterm,
    tap_drawn,
    tap_until_changed,
    trivial_server,
    watched_page,
)
from bench.trivial_app import BUTTON, TEXT_PREFIX  # noqa: E402
from tests.support.browser import find_free_port  # noqa: E402

VIEWPORT = {"width": 1280, "height": 1400}
"""A tall desktop window: the table's two columns (entry and scoreboard) are on screen without scrolling, so a tap
never waits for a scroll; the trivial app gets the same window."""
JK_PLAYERS = ["Ann", "Ben"]
BB_PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
BB_OPTIONS = {"target": 1000}
"""A game that does not end within the hands measured."""
SEEDED_HANDS = 59

PROMPT = r"^Next: "
"""The entry panels' prompt (``Next: Ann plays: who gets the card?``): it moves on with every card taken."""
HAND_PLAYED = r"^Next: Every card is played"
"""Bargain Bin's prompt once the hand's last card is in."""
STANDING = r"^\d+\. .+: -?\d+ points?"
"""A standings line of the scoreboard (``1. Ann: 7 points (last hand +2)``)."""
RECEIVER = r"^To .+ \(-?\d+\)$"
"""A Bargain Bin receiver button (``To Ben (12)``)."""
VALUE_KEY = r"^(A|K|Q|J|10|[2-9])(♠♣|♥♦)$"
"""A Bargain Bin value-pad key (``7♥♦``)."""
QUIET_BEFORE_MS = 600
"""The quiet both apps get before each measured tap (no tap, no frame expected), the same for both: the trivial
app's ripple and the app's last redraw are over before the next tap."""
UNMEASURED_QUIET_MS = 20
"""How long the page must stay quiet after a tap that is not measured (a measured tap waits 80 ms): the trivial
app's tap, made before every measured one, gives the page its time to settle, and a hand of 50 cards is played in
half the time, so a run can measure enough Confirms for a p95."""
TARGETS = {"tap": 1.5, "confirm": 2.0, "growth": 1.1}
"""p95 ratios to the trivial app (issue 29: taps ≤ 1.5×, Confirm ≤ 2×, throttled or not), and hand 60 / hand 1."""
THROTTLE_RATES = (1.0, 4.0)
"""CPU throttling of Chromium (DevTools' ``Emulation.setCPUThrottlingRate``): 1 = none; 4 = a phone-class CPU."""


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def throttle(page: Any, rate: float) -> None:
    """Slow ``page``'s CPU ``rate`` times (DevTools protocol); 1 leaves it as it is."""
    if rate != 1.0:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def quiet(page: Any) -> None:
    """The same quiet before every measured tap, on either app."""
    page.wait_for_timeout(QUIET_BEFORE_MS)


@dataclass
class Series:
    """The samples of one kind of tap."""

    name: str
    kind: str
    """``tap`` (a card, value or digit), ``confirm`` or ``trivial``."""
    samples: list[Sample] = field(default_factory=list)

    def ms(self) -> list[float]:
        """Pointerdown → the frame after the text is in the page (painted)."""
        return [s.ms for s in self.samples]

    def seen(self) -> list[float]:
        """Pointerdown → the text in the page (the semantics tree), before its frame."""
        return [s.seen_ms for s in self.samples]


class Alternator:
    """Taps the trivial app once before every measured tap on the app, collecting both."""

    def __init__(self, trivial: Any) -> None:
        self.trivial = trivial
        self.series = Series("trivial app: click → text", "trivial")
        self.xy: tuple[float, float] | None = None

    def tap(self) -> None:
        """A measured trivial tap after the quiet, then the quiet the app's measured tap gets (the caller taps)."""
        if self.xy is None:
            [found] = buttons(self.trivial, rf"^{BUTTON}$")
            self.xy = (found["x"], found["y"])
        quiet(self.trivial)
        self.series.samples.append(tap_until_changed(self.trivial, self.xy, rf"^{TEXT_PREFIX}\d+$"))
        quiet(self.trivial)


def seed(folder: Path) -> dict[str, str]:
    """The sessions measured, started (and the hand-60 one played for 59 hands) through the session service."""
    from companion.entry_bargain_bin import BinEntry, pad_keys
    from companion.session import SessionService
    from storage import Archive

    ids: dict[str, str] = {}
    with Archive(folder) as archive:
        sessions = SessionService(archive)
        ids["jk"] = sessions.start("jokers-kill", JK_PLAYERS, title="Jokers Kill bench").id
        ids["jk_off"] = sessions.start("jokers-kill", JK_PLAYERS, title="Jokers Kill, semantics off").id
        ids["bb1"] = sessions.start("bargain-bin", BB_PLAYERS, BB_OPTIONS, title="Bargain Bin at hand 1").id
        table = sessions.start("bargain-bin", BB_PLAYERS, BB_OPTIONS, title="Bargain Bin at hand 60")
        for _ in range(SEEDED_HANDS):
            entry = BinEntry.start(table.record)
            keys = pad_keys(entry.options)
            while entry.giver is not None:
                to = next(name for name in entry.players if entry.can_receive(name))
                entry = entry.choose_receiver(to)
                entry = entry.choose_value(next(key for key in keys if entry.can_value(key)))
            table.add_hand(entry.to_hand())
        assert len(table.hands) == SEEDED_HANDS
        ids["bb60"] = table.id
    return ids


def open_table(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("(p) => __bench.labels(p).length > 0", arg=PROMPT)
    page.wait_for_timeout(1_000)  # the page transition and first frames settle


def jk_deals() -> list[tuple[str, str, str]]:
    """17 hands without ties: the deck suit by suit, three cards at a time (up-card, Ann, Ben)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    deck = [f"{rank}{suit}" for suit in "♠♥♦♣" for rank in ranks]
    return [(deck[i], deck[i + 1], deck[i + 2]) for i in range(0, 51, 3)]


def button_at(page: Any, pattern: str, *, enabled: bool = True) -> tuple[float, float]:
    """The centre of the first (enabled) button whose label matches ``pattern``, waiting for it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [b for b in buttons(page, pattern) if not (enabled and b["disabled"])]
        if found:
            return found[0]["x"], found[0]["y"]
        page.wait_for_timeout(50)
    raise RuntimeError(f"no {'enabled ' if enabled else ''}button labelled {pattern!r} on the page")


def jokers_kill(page: Any, alt: Alternator, hands: int) -> tuple[Series, Series]:
    cards = Series("Jokers Kill: card tap → shown", "tap")
    confirms = Series("Jokers Kill: Confirm → scoreboard", "confirm")
    for n, deal in enumerate(jk_deals()[:hands], start=1):
        for code in deal:
            xy = button_at(page, rf"^{code}$")
            alt.tap()
            cards.samples.append(tap_until_changed(page, xy, PROMPT))
        xy = button_at(page, "^Confirm hand$")
        alt.tap()
        confirms.samples.append(tap_until_changed(page, xy, STANDING))
        progress(f"Jokers Kill hand {n} confirmed")
    return cards, confirms


def semantics_off(
    browser: Any, viewport: dict[str, int], rate: float, app_url: str, trivial_url: str, hands: int
) -> list[Series]:
    """Jokers Kill and the trivial app with Flutter's semantics tree off, alternating as above. The buttons' places
    are read once from a page with semantics on (the cards and Confirm stay where they are); each tap is then timed
    to the frame after the first WebSocket message it brings (:func:`bench.pagewatch.tap_drawn`)."""
    deals = jk_deals()[:hands]
    finder = watched_page(browser, viewport)
    open_table(finder, app_url)
    places = {code: button_at(finder, rf"^{code}$", enabled=False) for deal in deals for code in deal}
    confirm = button_at(finder, "^Confirm hand$", enabled=False)
    finder.goto(trivial_url)
    finder.wait_for_function("(p) => __bench.labels(p).length > 0", arg=rf"^{TEXT_PREFIX}\d+$")
    [tap_button] = buttons(finder, rf"^{BUTTON}$")
    finder.context.close()
    trivial = watched_page(browser, viewport, semantics=False)
    page = watched_page(browser, viewport, semantics=False)
    for one, url in ((trivial, trivial_url), (page, app_url)):
        throttle(one, rate)
        one.goto(url)
        one.wait_for_function("() => __bench.rxFrames > 0")
        one.wait_for_timeout(3_000)  # no semantics to wait for: the first screen's frames settle
    base = Series("trivial app: click → frame after its message (semantics off)", "trivial")
    cards = Series("Jokers Kill: card tap → frame after its message (semantics off)", "tap")
    confirms = Series("Jokers Kill: Confirm → frame after its message (semantics off)", "confirm")

    def pair(xy: tuple[float, float], into: Series) -> None:
        quiet(trivial)
        base.samples.append(tap_drawn(trivial, (tap_button["x"], tap_button["y"])))
        quiet(page)
        into.samples.append(tap_drawn(page, xy))

    for n, deal in enumerate(deals, start=1):
        for code in deal:
            pair(places[code], cards)
        pair(confirm, confirms)
        progress(f"Jokers Kill hand {n} confirmed (semantics off)")
    trivial.context.close()
    page.context.close()
    return [base, cards, confirms]


def bargain_bin_hand(page: Any, alt: Alternator, values: Series, confirms: Series, measured_values: int) -> None:
    """One Bargain Bin hand by live play: each card a receiver tap and a value tap (the first ``measured_values``
    value taps are measured, each after a trivial tap), then Confirm (measured)."""
    card = 0
    while not labels(page, HAND_PLAYED):
        tap_until_changed(page, button_at(page, RECEIVER), PROMPT, quiet_ms=UNMEASURED_QUIET_MS)
        xy = button_at(page, VALUE_KEY)
        if card < measured_values:
            alt.tap()
            values.samples.append(tap_until_changed(page, xy, PROMPT))
        else:
            tap_until_changed(page, xy, PROMPT, quiet_ms=UNMEASURED_QUIET_MS)
        card += 1
    xy = button_at(page, "^Confirm hand$")
    alt.tap()
    confirms.samples.append(tap_until_changed(page, xy, STANDING))


def bargain_bin(pages: dict[int, Any], alt: Alternator, hands: int, measured_values: int) -> list[Series]:
    """Bargain Bin at each stage (hand number → the page of that session), a hand of each in turn, so that the
    stages are measured side by side too (their ratio is not one half of the run against the other)."""
    series = {
        at: (
            Series(f"Bargain Bin, 10 players, hand {at}: value tap → shown", "tap"),
            Series(f"Bargain Bin, 10 players, hand {at}: Confirm → scoreboard", "confirm"),
        )
        for at in pages
    }
    for n in range(hands):
        for at, page in pages.items():
            values, confirms = series[at]
            bargain_bin_hand(page, alt, values, confirms, measured_values)
            progress(f"Bargain Bin hand {at + n} confirmed")
    return [one for pair in series.values() for one in pair]


def report(trivial: Series, measured: Sequence[Series]) -> dict[str, float]:
    """Every ratio in both clocks (the text in the page; the frame after it), then where each tap's time goes."""
    base = {"text": trivial.seen(), "frame": trivial.ms()}
    rows = []
    out: dict[str, float] = {}
    for series in (trivial, *[s for s in measured if s.samples]):  # a part not run (--hands 0) has none
        clocks = {"text": series.seen(), "frame": series.ms()}
        rx = median([s.rx_bytes for s in series.samples])
        target = TARGETS.get(series.kind)
        row = [series.name, str(len(series.samples))]
        verdicts = []
        for clock, ms in clocks.items():
            med, p95 = median(ms), percentile(ms, 0.95)
            ratio = p95 / percentile(base[clock], 0.95)
            out[f"{series.name} {clock} p95_ms"] = p95
            out[f"{series.name} {clock} p95_ratio"] = ratio
            row += [f"{med:,.0f}", f"{p95:,.0f}", f"{ratio:.2f}×"]
            verdicts.append(target is None or ratio <= target)
        out[f"{series.name} rx_bytes"] = rx
        verdict = "" if target is None else ("met" if all(verdicts) else "MISSED")
        rows.append([*row, f"{rx / 1000:,.1f}", f"≤ {target}× {verdict}" if target else ""])
    print("Tap latency in Chromium, page clock; each app tap alternating with a trivial Flet app tap, each after")
    print(f"{QUIET_BEFORE_MS} ms of quiet. Clocks: text = pointerdown → the text in the page; frame = → its frame.")
    print_table(
        [
            "tap",
            "n",
            "text median",
            "text p95",
            "text × p95",
            "frame median",
            "frame p95",
            "frame × p95",
            "KB in",
            "target (p95)",
        ],
        rows,
    )
    print("\nWhere the time goes (medians): server = pointerdown → the first WebSocket message back; client = the last")
    print("message before the text → its frame (decode, build, layout, paint); the rest is between those messages.")
    where = []
    for series in (trivial, *[s for s in measured if s.samples]):  # a part not run (--hands 0) has none
        server = median([s.server_ms for s in series.samples])
        client = median([s.client_ms for s in series.samples])
        total = median(series.ms())
        where.append(
            [
                series.name,
                f"{server:,.0f}",
                f"{median([float(s.rx_frames) for s in series.samples]):.0f}",
                f"{median([float(s.rx_bytes) for s in series.samples]) / 1000:,.1f}",
                f"{client:,.0f}",
                f"{total:,.0f}",
            ]
        )
    print_table(["tap", "server ms", "messages in", "KB in", "client ms", "total ms"], where)
    for kind in ("value tap", "Confirm"):
        first = [s for s in measured if "hand 1:" in s.name and kind in s.name]
        later = [s for s in measured if f"hand {SEEDED_HANDS + 1}:" in s.name and kind in s.name]
        if first and later:
            growth = median(later[0].ms()) / median(first[0].ms())
            out[f"Bargain Bin {kind} growth"] = growth
            verdict = "met" if growth <= TARGETS["growth"] else "MISSED"
            print(
                f"Bargain Bin {kind}: hand {SEEDED_HANDS + 1} / hand 1 (median) = {growth:.2f} "
                f"(target ≤ {TARGETS['growth']}: {verdict})"
            )
    return out


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m bench.tap_latency", description=__doc__.splitlines()[0])
    parser.add_argument("--jk-hands", type=int, default=17, help="Jokers Kill hands measured (at most 17)")
    parser.add_argument(
        "--hands", type=int, default=30, help="Bargain Bin hands measured at hand 1 and at hand 60 (30 Confirms a row)"
    )
    parser.add_argument(
        "--throttle",
        default=",".join(f"{r:g}" for r in THROTTLE_RATES),
        help="CPU throttling rates to run, comma-separated (default 1,4: unthrottled, then a phone-class CPU)",
    )
    parser.add_argument("--values", type=int, default=10, help="value taps measured in each Bargain Bin hand")
    args = parser.parse_args(argv if argv is not None else [])
    stop_on_sigterm()
    out: dict[str, float] = {}
    for rate in [float(r) for r in args.throttle.split(",") if r.strip()]:
        out.update({f"{rate:g}x {k}": v for k, v in run_mode(args, rate).items()})
    return out


def run_mode(args: argparse.Namespace, rate: float) -> dict[str, float]:
    """One run of every tap with Chromium's CPU slowed ``rate`` times (both apps alike; at 390×844 when slowed)."""
    from playwright.sync_api import sync_playwright

    viewport = VIEWPORT if rate == 1.0 else PHONE
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        started = time.perf_counter()
        ids = seed(folder)
        progress(f"set-up: sessions seeded ({SEEDED_HANDS} Bargain Bin hands) in {time.perf_counter() - started:.1f} s")
        app = app_server(find_free_port(), folder, Path(tmp) / "app.log")
        trivial_app = trivial_server(find_free_port(), Path(tmp) / "trivial.log")
        with app, trivial_app, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                trivial = watched_page(browser, viewport)
                throttle(trivial, rate)
                trivial.goto(trivial_app.url)
                trivial.wait_for_function("(p) => __bench.labels(p).length > 0", arg=rf"^{TEXT_PREFIX}\d+$")
                alt = Alternator(trivial)
                page = watched_page(browser, viewport)
                throttle(page, rate)
                measured: list[Series] = []
                open_table(page, f"{app.url}/continue/{ids['jk']}")
                measured += jokers_kill(page, alt, min(args.jk_hands, 17))
                open_table(page, f"{app.url}/continue/{ids['bb1']}")
                later = watched_page(browser, viewport)
                throttle(later, rate)
                open_table(later, f"{app.url}/continue/{ids['bb60']}")
                measured += bargain_bin({1: page, SEEDED_HANDS + 1: later}, alt, args.hands, args.values)
                off = semantics_off(
                    browser,
                    viewport,
                    rate,
                    f"{app.url}/continue/{ids['jk_off']}",
                    trivial_app.url,
                    min(args.jk_hands, 17),
                )
            finally:
                browser.close()
    mode = "unthrottled" if rate == 1.0 else f"CPU throttled {rate:g}x"
    print(
        f"\n== {mode}, {viewport['width']}x{viewport['height']}; load average {load_before} at the start, "
        f"{load_average()} at the end"
    )
    out = report(alt.series, measured)
    print(
        "\nSemantics off (no screen reader): the same taps timed by a signal that needs no semantics. Clocks: "
        "text = pointerdown → the first message back; frame = → the frame after that message is drawn."
    )
    out.update({f"semantics off {k}": v for k, v in report(off[0], off[1:]).items()})
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
