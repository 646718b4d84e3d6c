"""Tap-latency benchmark in Chromium: each tap at the table against a trivial Flet app, side by side in one run.

The real app and :mod:`bench.trivial_app` are served at the same time on loopback; every measured tap on the app
is preceded by a tap on the trivial app, so both see the same machine (absolute times here swing by 2× with the
load), and each measured tap, on either app, comes after the same :data:`QUIET_BEFORE_MS` of quiet. Each latency
is taken in the page's own clock (:mod:`bench.pagewatch`) in two clocks: pointerdown → the expected text in the
page (the semantics tree), and → the frame after it. Measured:

* trivial app: click → its text;
* Jokers Kill (2 players; a deck is 17 hands, so 30 hands are two games, each on a session seeded before the
  server starts): a card tap → the prompt moves on; Confirm → the updated standings (each game's first Confirm is
  among the samples);
* Bargain Bin, 10 players (50 cards a hand, each a receiver tap and a value tap): a receiver tap and a value tap
  → the prompt moves on (both taps of the first ``--values`` cards of a hand), and Confirm → the updated
  standings, at hand 1 (the game's first Confirm first) and at hand 60 (59 realistic hands seeded through the
  session service before the server starts), a hand of each in turn, 30 of each;
* for each: median and p95 in both clocks, their ratio to the trivial app's, the WebSocket bytes the page
  received, and where the time goes (server: pointerdown → the first message back; client: the last message
  before the text → its frame; :class:`bench.pagewatch.Sample`).

Every run is made twice (``--throttle 1,4``): unthrottled at 1280×1400, then with Chromium's CPU slowed 4×
(DevTools' ``Emulation.setCPUThrottlingRate``, both apps alike) at 390×844, a phone-class CPU (:class:`Cpu`: a page
only from the quiet before each of its measured taps until that tap is measured); each prints the load average.
Every tap is measured with semantics off too, on pages that never switch it on (Bargain Bin on twin sessions,
:class:`Stage`). Controls are found by their semantics labels (the same the browser tests use). Run:
``.venv/bin/python -m bench.tap_latency [--hands N] [--jk-hands N] [--values N] [--throttle 1,4] [--busy N]
[--samples FILE] [--probe LOG]`` (45 minutes a mode with the defaults on 2 cores before the receiver taps were
measured too, which add about 12 more, by estimate); ``make bench BENCH_ARGS=--taps`` runs it. Targets (issue 29):
card, receiver, value and digit taps p95 ≤ 1.5 × the trivial app's;
Confirm p95 ≤ 2 ×; the cost at hand 60 within 1.1 × that at hand 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import (  # noqa: E402
    PHONE,
    Sample,
    add_busy_option,
    advance,
    app_server,
    busy_cores,
    buttons,
    click_drawn,
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
    trivial_server,
    watched_page,
)
from bench.trivial_app import BUTTON, TEXT_PREFIX  # noqa: E402
from tests.support.browser import find_free_port  # noqa: E402

VIEWPORT = {"width": 1280, "height": 1400}
"""A tall desktop window: the table's two columns (entry and scoreboard) are on screen without scrolling, so a tap
never waits for a scroll; the trivial app gets the same window."""
JK_PLAYERS = ["Ann", "Ben"]
JK_GAME_HANDS = 17
"""Hands in one Jokers Kill game (one deck, three cards a hand): more hands are measured in further games."""
JK_GAMES = 2
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
TARGETS = {"tap": 1.5, "confirm": 2.0, "growth": 1.1}
"""p95 ratios to the trivial app (issue 29: taps ≤ 1.5×, Confirm ≤ 2×, throttled or not), and hand 60 / hand 1."""
THROTTLE_RATES = (1.0, 4.0)
"""CPU throttling of Chromium (DevTools' ``Emulation.setCPUThrottlingRate``): 1 = none; 4 = a phone-class CPU."""


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


class Cpu:
    """Chromium's CPU throttling per page (DevTools' ``Emulation.setCPUThrottlingRate``).

    A page is slowed from before the quiet that precedes one of its measured taps until that tap is measured, and
    only then (:meth:`Alternator.then`): at any moment one page at most is slowed, the one being measured. On Linux
    Chromium slows a page by interrupting its main thread every 200 µs with a signal whose handler busy-waits, so a
    slowed page burns most of a core even when idle: one idle page slowed 4× used 0.86 of a core, four of them 1.91
    of this machine's two (2026-12-05, :mod:`bench.throttle_cost`).
    Kept slowed throughout, the benchmark's four pages left the app's server waiting for a core, a handler of 8.5 ms
    of CPU taking 114 ms at p90, and the trivial app's, under a millisecond, rarely. The taps that are not measured
    (90 of a Bargain Bin hand's 100) run at full speed, so a throttled run takes as long as an unthrottled one."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.sessions: dict[int, Any] = {}

    def set(self, page: Any, rate: float) -> None:
        if self.rate == 1.0:
            return
        session = self.sessions.get(id(page))
        if session is None:
            session = self.sessions[id(page)] = page.context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})

    def slow(self, page: Any) -> None:
        self.set(page, self.rate)

    @contextmanager
    def slowed(self, page: Any) -> Iterator[None]:
        self.slow(page)
        try:
            yield
        finally:
            self.set(page, 1.0)


class Alternator:
    """Taps the trivial app once before every measured tap on the app, collecting both. ``drawn`` times the trivial
    tap to the frame after its message (for pages without semantics), else to its text. Each page is slowed by
    ``cpu`` for its own quiet and tap only."""

    def __init__(self, trivial: Any, cpu: Cpu, *, drawn: bool = False) -> None:
        self.trivial = trivial
        self.cpu = cpu
        self.drawn = drawn
        name = "click → frame after its message (semantics off)" if drawn else "click → text"
        self.series = Series(f"trivial app: {name}", "trivial")
        self.xy: tuple[float, float] | None = None

    def locate(self, xy: tuple[float, float]) -> None:
        self.xy = xy

    @contextmanager
    def then(self, page: Any) -> Iterator[None]:
        """A measured trivial tap after the quiet, then the same quiet for the app's ``page``, whose measured tap
        the caller makes inside the ``with``; each page slowed for its own quiet and tap."""
        if self.xy is None:
            [found] = buttons(self.trivial, rf"^{BUTTON}$")
            self.xy = (found["x"], found["y"])
        with self.cpu.slowed(self.trivial):
            quiet(self.trivial)
            if self.drawn:
                self.series.samples.append(tap_drawn(self.trivial, self.xy))
            else:
                self.series.samples.append(tap_until_changed(self.trivial, self.xy, rf"^{TEXT_PREFIX}\d+$"))
        with self.cpu.slowed(page):
            quiet(page)
            yield


def play_seeded(sessions: Any, table_id: str, hands: int) -> None:
    """Play ``hands`` Bargain Bin hands into the session, each card to the first player who can take one and of the
    first value it can have: the same choices :func:`bargain_bin_hand` taps."""
    from companion.entry_bargain_bin import BinEntry, pad_keys

    table = sessions.open(table_id)
    for _ in range(hands):
        entry = BinEntry.start(table.record)
        keys = pad_keys(entry.options)
        while entry.giver is not None:
            to = next(name for name in entry.players if entry.can_receive(name))
            entry = entry.choose_receiver(to)
            entry = entry.choose_value(next(key for key in keys if entry.can_value(key)))
        table.add_hand(entry.to_hand())


def seed(folder: Path) -> dict[str, str]:
    """The sessions measured, started (and the hand-60 ones played for 59 hands) through the session service. Each
    Bargain Bin session has a twin (``…_off``) in the same state, played with semantics off by the same taps."""
    from companion.session import SessionService
    from storage import Archive

    ids: dict[str, str] = {}
    with Archive(folder) as archive:
        sessions = SessionService(archive)
        for game in range(JK_GAMES):
            ids[jk_key(game)] = sessions.start("jokers-kill", JK_PLAYERS, title=f"Jokers Kill bench {game + 1}").id
            ids[jk_key(game, "_off")] = sessions.start(
                "jokers-kill", JK_PLAYERS, title=f"Jokers Kill {game + 1}, semantics off"
            ).id
        for key, title, hands in (("bb1", "at hand 1", 0), ("bb60", f"at hand {SEEDED_HANDS + 1}", SEEDED_HANDS)):
            for suffix in ("", "_off"):
                ids[key + suffix] = sessions.start(
                    "bargain-bin", BB_PLAYERS, BB_OPTIONS, title=f"Bargain Bin {title}{suffix}"
                ).id
                play_seeded(sessions, ids[key + suffix], hands)
        assert len(sessions.open(ids["bb60_off"]).hands) == SEEDED_HANDS
    return ids


def jk_key(game: int, suffix: str = "") -> str:
    """The seeded Jokers Kill session for the ``game``-th game measured (``_off``: its semantics-off twin)."""
    return f"jk{game + 1 if game else ''}{suffix}"


def jk_games(hands: int) -> list[range]:
    """The hands of each Jokers Kill game measured: ``hands`` split into games of :data:`JK_GAME_HANDS`."""
    hands = min(hands, JK_GAME_HANDS * JK_GAMES)
    return [range(start, min(hands, start + JK_GAME_HANDS)) for start in range(0, hands, JK_GAME_HANDS)]


def twins_differ(folder: Path, ids: dict[str, str]) -> str | None:
    """After the run: whether each Bargain Bin session and its semantics-off twin hold the same hands (so the taps
    replayed without semantics met the same screens); what differs, else ``None``. Printed with the figures: a
    failure here must not lose a run's samples."""
    from companion.session import SessionService
    from storage import Archive

    try:
        with Archive(folder) as archive:
            sessions = SessionService(archive)
            for key in ("bb1", "bb60"):
                played, twin = sessions.open(ids[key]).hands, sessions.open(ids[f"{key}_off"]).hands
                if played != twin:
                    return (
                        f"DIFFER ({key}: {len(played)} hands, its twin {len(twin)}): the semantics-off figures are void"
                    )
    except Exception as exc:  # reported with the figures, never instead of them
        return f"NOT CHECKED ({type(exc).__name__}: {exc})"
    return None


def open_table(page: Any, url: str, *, semantics: bool = True, ready: str = PROMPT) -> None:
    """Open a table's page and wait until it is drawn: with semantics, until a label matching ``ready`` (the prompt)
    is in it."""
    page.goto(url)
    if semantics:
        page.wait_for_function("(p) => __bench.labels(p).length > 0", arg=ready)
    else:
        page.wait_for_function("() => __bench.rxFrames > 0")
        page.wait_for_timeout(2_000)  # no semantics to wait for: the first screen's frames settle
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


def jokers_kill(page: Any, alt: Alternator, hands: int, urls: Sequence[str]) -> tuple[Series, Series]:
    """Jokers Kill with semantics on: each game's hands on its own session (``urls``, one a game), each card tap
    and Confirm measured after a trivial tap."""
    cards = Series("Jokers Kill: card tap → shown", "tap")
    confirms = Series("Jokers Kill: Confirm → scoreboard", "confirm")
    for game, played in enumerate(jk_games(hands)):
        open_table(page, urls[game])
        for n, deal in zip(played, jk_deals()[: len(played)], strict=True):
            for code in deal:
                xy = button_at(page, rf"^{code}$")
                with alt.then(page):
                    cards.samples.append(tap_until_changed(page, xy, PROMPT))
            xy = button_at(page, "^Confirm hand$")
            with alt.then(page):
                confirms.samples.append(tap_until_changed(page, xy, STANDING))
            progress(f"Jokers Kill hand {n + 1} confirmed")
    return cards, confirms


def jokers_kill_off(
    page: Any, places: dict[str, tuple[float, float]], alt: Alternator, hands: int, urls: Sequence[str]
) -> list[Series]:
    """Jokers Kill with semantics off, each tap timed to the frame after the first WebSocket message it brings
    (:func:`bench.pagewatch.tap_drawn`), at the places a page with semantics on showed (they stay put, and are the
    same at the start of every game)."""
    cards = Series("Jokers Kill: card tap → frame after its message (semantics off)", "tap")
    confirms = Series("Jokers Kill: Confirm → frame after its message (semantics off)", "confirm")
    for game, played in enumerate(jk_games(hands)):
        open_table(page, urls[game], semantics=False)
        for n, deal in zip(played, jk_deals()[: len(played)], strict=True):
            for code in deal:
                with alt.then(page):
                    cards.samples.append(tap_drawn(page, places[code]))
            with alt.then(page):
                confirms.samples.append(tap_drawn(page, places["confirm"]))
            progress(f"Jokers Kill hand {n + 1} confirmed (semantics off)")
    return [cards, confirms]


def jk_places(browser: Any, viewport: dict[str, int], url: str, hands: int) -> dict[str, tuple[float, float]]:
    """Where the cards of the deals and Confirm are, read from a page with semantics on."""
    finder = watched_page(browser, viewport)
    open_table(finder, url)
    places = {
        code: button_at(finder, rf"^{code}$", enabled=False)
        for deal in jk_deals()[: min(hands, JK_GAME_HANDS)]
        for code in deal
    }
    places["confirm"] = button_at(finder, "^Confirm hand$", enabled=False)
    finder.context.close()
    return places


@dataclass
class Stage:
    """One Bargain Bin stage (hand 1 or hand 60): its page with semantics on and its twin's page without, and what
    each measures."""

    at: int
    page: Any
    off: Any
    receivers: Series = field(init=False)
    values: Series = field(init=False)
    confirms: Series = field(init=False)
    receivers_off: Series = field(init=False)
    values_off: Series = field(init=False)
    confirms_off: Series = field(init=False)

    def __post_init__(self) -> None:
        where = f"Bargain Bin, 10 players, hand {self.at}"
        self.receivers = Series(f"{where}: receiver tap → shown", "tap")
        self.values = Series(f"{where}: value tap → shown", "tap")
        self.confirms = Series(f"{where}: Confirm → scoreboard", "confirm")
        self.receivers_off = Series(f"{where}: receiver tap → frame after its message (semantics off)", "tap")
        self.values_off = Series(f"{where}: value tap → frame after its message (semantics off)", "tap")
        self.confirms_off = Series(f"{where}: Confirm → frame after its message (semantics off)", "confirm")

    def measured(self, semantics: bool) -> list[Series]:
        """This stage's series, in the report's order."""
        if semantics:
            return [self.receivers, self.values, self.confirms]
        return [self.receivers_off, self.values_off, self.confirms_off]


Tap = tuple[float, float, str]
"""A Bargain Bin tap: where, and what it measured (``receiver``, ``value`` or ``confirm``; ``""``: nothing)."""


def bargain_bin_hand(stage: Stage, alt: Alternator, measured_values: int) -> list[Tap]:
    """One Bargain Bin hand by live play: each card a receiver tap and a value tap (those of the first
    ``measured_values`` cards are measured, each after a trivial tap), then Confirm (measured). Returns every tap:
    where, and what it measured."""
    page, taps = stage.page, []
    card = 0
    while not labels(page, HAND_PLAYED):
        for pattern, series, kind in ((RECEIVER, stage.receivers, "receiver"), (VALUE_KEY, stage.values, "value")):
            if card < measured_values:
                xy = button_at(page, pattern)
                with alt.then(page):
                    series.samples.append(tap_until_changed(page, xy, PROMPT))
                taps.append((*xy, kind))
            else:
                taps.append((*advance(page, pattern, PROMPT), ""))
        card += 1
    xy = button_at(page, "^Confirm hand$")
    with alt.then(page):
        stage.confirms.samples.append(tap_until_changed(page, xy, STANDING))
    taps.append((*xy, "confirm"))
    return taps


def bargain_bin_hand_off(stage: Stage, taps: list[Tap], alt: Alternator) -> None:
    """The same hand on the twin without semantics, by the same taps at the same places, the same ones measured
    (each after a trivial tap, to the frame after its first message)."""
    page = stage.off
    into = {"receiver": stage.receivers_off, "value": stage.values_off, "confirm": stage.confirms_off}
    for x, y, kind in taps:
        if not kind:
            click_drawn(page, (x, y))
            continue
        with alt.then(page):
            into[kind].samples.append(tap_drawn(page, (x, y)))


def bargain_bin(stages: list[Stage], alts: tuple[Alternator, Alternator], hands: int, values: int) -> None:
    """Bargain Bin at each stage, a hand of each in turn, so that the stages are measured side by side too (their
    ratio is not one half of the run against the other); each hand with semantics on, then on the twin without."""
    for n in range(hands):
        for stage in stages:
            taps = bargain_bin_hand(stage, alts[0], values)
            bargain_bin_hand_off(stage, taps, alts[1])
            progress(f"Bargain Bin hand {stage.at + n} confirmed (semantics on and off)")


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
    for kind in ("receiver tap", "value tap", "Confirm"):
        first = [s for s in measured if "hand 1:" in s.name and kind in s.name]
        later = [s for s in measured if f"hand {SEEDED_HANDS + 1}:" in s.name and kind in s.name]
        if first and later and first[0].samples and later[0].samples:  # none with --hands 0
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
    parser.add_argument(
        "--jk-hands",
        type=int,
        default=30,
        help=f"Jokers Kill hands measured (at most {JK_GAME_HANDS * JK_GAMES}: a game is {JK_GAME_HANDS} hands)",
    )
    parser.add_argument(
        "--hands", type=int, default=30, help="Bargain Bin hands measured at hand 1 and at hand 60 (30 Confirms a row)"
    )
    parser.add_argument(
        "--throttle",
        default=",".join(f"{r:g}" for r in THROTTLE_RATES),
        help="CPU throttling rates to run, comma-separated (default 1,4: unthrottled, then a phone-class CPU)",
    )
    parser.add_argument(
        "--values",
        type=int,
        default=4,
        help="cards of each Bargain Bin hand whose receiver and value taps are measured",
    )
    parser.add_argument(
        "--samples", type=Path, default=None, metavar="FILE", help="also write every sample, with its label, as JSON"
    )
    parser.add_argument(
        "--probe",
        type=Path,
        default=None,
        metavar="LOG",
        help="serve the app through bench/serverprobe.py, which writes each event's handler time to LOG, and the "
        "trivial app likewise to LOG.trivial (read them with python -m bench.tap_samples --probe LOG)",
    )
    parser.add_argument(
        "--viewport",
        type=window_size,
        default=None,
        metavar="WxH",
        help="the window of both apps, e.g. 390x844 (default: 1280x1400 unthrottled, 390x844 throttled)",
    )
    add_busy_option(parser)
    args = parser.parse_args(argv if argv is not None else [])
    stop_on_sigterm()
    out: dict[str, float] = {}
    runs: dict[str, Sequence[Series]] = {}
    with busy_cores(args.busy):
        for rate in [float(r) for r in args.throttle.split(",") if r.strip()]:
            out.update({f"{rate:g}x {k}": v for k, v in run_mode(args, rate, runs).items()})
            if args.samples is not None:
                write_samples(args.samples, runs)
    return out


def window_size(text: str) -> dict[str, int]:
    """``--viewport``'s ``WxH`` as Playwright's viewport.

    >>> window_size("390x844")
    {'width': 390, 'height': 844}
    """
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a window size (WxH, such as 390x844): {text!r}") from None
    if not (200 <= width <= 4000 and 200 <= height <= 4000):
        raise argparse.ArgumentTypeError(f"a window from 200 to 4000 px each way, not {text!r}")
    return {"width": width, "height": height}


def write_samples(path: Path, runs: dict[str, Sequence[Series]]) -> None:
    """Write every sample of every run to ``path`` as JSON: mode → series name → samples (each with its label, the
    text the tap waited for: a Jokers Kill card tap whose prompt says to confirm the hand completed it), so that
    a part of a series can be looked at on its own. Written again after each mode (a later failure keeps it)."""
    data = {
        mode: {one.name: [dataclasses.asdict(sample) for sample in one.samples] for one in series}
        for mode, series in runs.items()
    }
    path.write_text(json.dumps(data, indent=1, allow_nan=True), encoding="utf-8")


def run_mode(args: argparse.Namespace, rate: float, runs: dict[str, Sequence[Series]]) -> dict[str, float]:
    """One run of every tap with Chromium's CPU slowed ``rate`` times (both apps alike; at 390×844 when slowed, unless
    ``--viewport`` says); its series are added to ``runs`` under the mode's name (semantics on, then off)."""
    from playwright.sync_api import sync_playwright

    viewport = args.viewport or (VIEWPORT if rate == 1.0 else PHONE)
    load_before = load_average()
    cpu = Cpu(rate)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        started = time.perf_counter()
        ids = seed(folder)
        progress(f"set-up: sessions seeded ({SEEDED_HANDS} Bargain Bin hands) in {time.perf_counter() - started:.1f} s")
        app = app_server(find_free_port(), folder, Path(tmp) / "app.log", probe=args.probe)
        trivial_probe = args.probe.with_name(args.probe.name + ".trivial") if args.probe else None
        trivial_app = trivial_server(find_free_port(), Path(tmp) / "trivial.log", probe=trivial_probe)
        with app, trivial_app, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                jk_urls = [f"{app.url}/continue/{ids[jk_key(game)]}" for game in range(JK_GAMES)]
                jk_urls_off = [f"{app.url}/continue/{ids[jk_key(game, '_off')]}" for game in range(JK_GAMES)]
                places = jk_places(browser, viewport, jk_urls_off[0], args.jk_hands)
                trivial = watched_page(browser, viewport)
                trivial_off = watched_page(browser, viewport, semantics=False)
                for one in (trivial, trivial_off):
                    one.goto(trivial_app.url)
                trivial.wait_for_function("(p) => __bench.labels(p).length > 0", arg=rf"^{TEXT_PREFIX}\d+$")
                [found] = buttons(trivial, rf"^{BUTTON}$")
                alt, alt_off = Alternator(trivial, cpu), Alternator(trivial_off, cpu, drawn=True)
                alt_off.locate((found["x"], found["y"]))
                page = watched_page(browser, viewport)
                measured: list[Series] = [*jokers_kill(page, alt, args.jk_hands, jk_urls)]
                off = watched_page(browser, viewport, semantics=False)
                measured_off = jokers_kill_off(off, places, alt_off, args.jk_hands, jk_urls_off)
                stages = []
                for key, at in (("bb1", 1), ("bb60", SEEDED_HANDS + 1)):
                    stage = Stage(at, watched_page(browser, viewport), watched_page(browser, viewport, semantics=False))
                    open_table(stage.page, f"{app.url}/continue/{ids[key]}")
                    open_table(stage.off, f"{app.url}/continue/{ids[key + '_off']}", semantics=False)
                    stages.append(stage)
                bargain_bin(stages, (alt, alt_off), args.hands, args.values)
                measured += [one for stage in stages for one in stage.measured(semantics=True)]
                measured_off += [one for stage in stages for one in stage.measured(semantics=False)]
            finally:
                browser.close()
        twins = twins_differ(folder, ids)
    mode = "unthrottled" if rate == 1.0 else f"CPU throttled {rate:g}x"
    runs[mode] = [alt.series, *measured]
    runs[f"{mode}, semantics off"] = [alt_off.series, *measured_off]
    print(
        f"\n== {mode}, {viewport['width']}x{viewport['height']}, {args.busy} busy processes beside; load average "
        f"{load_before} at the start, {load_average()} at the end"
    )
    out = report(alt.series, measured)
    print(
        "\nSemantics off (no screen reader): the same taps timed by a signal that needs no semantics. Clocks: "
        "text = pointerdown → the first message back; frame = → the frame after that message is drawn."
    )
    out.update({f"semantics off {k}": v for k, v in report(alt_off.series, measured_off).items()})
    print(f"\nSemantics-off twins: {twins or 'each holds the same hands as the session played with semantics on'}")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
