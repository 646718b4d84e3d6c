"""Scoring benchmark: re-deriving the whole result of a long session from its raw record (issue 3).

Target: validating and scoring the whole record (``scoring.score(record)``, from the raw dict) takes under 10 ms at
p95 on a 2-core machine, for

- Bargain Bin, 10 players, 60 hands entered card by card (the ``plays`` form);
- Financial Crisis, 4 players, 4 rounds;
- Jokers Kill, 2 players, a whole deck dealt.

The sessions come from the random legal record generators of ``tests/support/generators`` (fixed seeds). Each is timed
over ``RUNS`` runs after a warm-up; the median and p95 are printed with pass/FAIL against the target.

It also times what a Confirm costs the session: one hand added to the replay of the hands before it
(:meth:`scoring.Game.replay`), at hand 1 and at hand 60 of the Bargain Bin session; target within 1.1 × (issue 15).

Run from the project root: ``.venv/bin/python -m bench.scoring_bench`` (a few seconds).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/ is a package at the project root
    sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from tests.support.generators import bargain_bin, financial_crisis, jokers_kill  # noqa: E402

RUNS = 300
WARM_UP = 20
TARGET_P95_MS = 10.0


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``.

    >>> percentile([float(n) for n in range(1, 101)], 0.95)
    95.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bargain_bin_session() -> dict[str, Any]:
    """Bargain Bin, 10 players, 60 hands card by card, Joker and Vegas on (the target is out of reach)."""
    record = bargain_bin.random_record(
        random.Random(3),
        players=10,
        options={"target": 1000, "selfless": True, "joker": True, "vegas_unit_cents": 25},
        hands=60,
        form="plays",
        conduct_rate=0,
    )
    assert len(record["players"]) == 10
    assert len(record["hands"]) == 60
    assert all(len(hand["plays"]) == 50 for hand in record["hands"]), "every hand has 10 x 5 plays"
    return record


def financial_crisis_session() -> dict[str, Any]:
    """Financial Crisis, 4 players, all 4 rounds entered."""
    record = financial_crisis.random_record(random.Random(3), players=4, rounds=4, hands=4)
    assert len(record["players"]) == 4
    assert record["options"]["rounds"] == 4
    assert len(record["hands"]) == 4
    return record


def jokers_kill_session() -> dict[str, Any]:
    """Jokers Kill, 2 players, no Jokers, dealt until fewer than 3 of the 52 cards are left."""
    record = jokers_kill.random_record(random.Random(3), players=2, options={}, complete=True, playoff=False)
    assert len(record["players"]) == 2
    used = sum(
        2 + 1 + len(hand.get("buried", ())) + sum(len(deal) for deal in hand.get("tiebreaks", ()))
        for hand in record["hands"]
    )
    assert not any(hand.get("void") for hand in record["hands"]), "the deck ran out in a tie-break"
    assert 52 - used < 3, f"only {used} of 52 cards were dealt"
    return record


SESSIONS: dict[str, Callable[[], dict[str, Any]]] = {
    "Bargain Bin, 10 players, 60 hands (plays)": bargain_bin_session,
    "Financial Crisis, 4 players, 4 rounds": financial_crisis_session,
    "Jokers Kill, 2 players, whole deck": jokers_kill_session,
}


def time_score(record: dict[str, Any], runs: int = RUNS, warm_up: int = WARM_UP) -> tuple[list[float], int]:
    """Milliseconds per ``scoring.score(record)`` (validation and scoring from the raw dict), ``runs`` times, and
    how many full (generation 2) garbage collections ran during the timed runs.

    The collector is left as it is in the app (enabled, default thresholds): its pauses are part of the figures.
    """
    for _ in range(warm_up):
        scoring.score(record)
    out: list[float] = []
    full: list[int] = []

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.collect()
    gc.callbacks.append(count)
    try:
        for _ in range(runs):
            started = time.perf_counter()
            scoring.score(record)
            out.append((time.perf_counter() - started) * 1000)
    finally:
        gc.callbacks.remove(count)
    return out, len(full)


def time_add(record: dict[str, Any], at: int, runs: int = RUNS, warm_up: int = WARM_UP) -> list[float]:
    """Milliseconds per ``replay.add(hand)``: hand ``at`` (1-based) of ``record`` added to the replay of the hands
    before it (what a Confirm costs the session; validation of the hand included)."""
    game = scoring.find_game(record["game"])
    before = game.replay({**record, "hands": record["hands"][: at - 1]})
    hand = record["hands"][at - 1]
    for _ in range(warm_up):
        before.add(hand)
    out: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        before.add(hand)
        out.append((time.perf_counter() - started) * 1000)
    return out


def hand_by_hand() -> dict[str, float]:
    """The Bargain Bin session's first and 60th hand, each added to the replay before it: their medians and ratio
    (target: within 1.1, a Confirm at hand 60 replays no more than one at hand 1)."""
    record = bargain_bin_session()
    first, last = statistics.median(time_add(record, 1)), statistics.median(time_add(record, 60))
    print(
        f"Bargain Bin, one hand added to the replay before it (median): hand 1 {first:.3f} ms, hand 60 {last:.3f} ms,"
        f" hand 60 / hand 1 = {last / first:.2f} (target <= 1.1: {'pass' if last / first <= 1.1 else 'FAIL'})"
    )
    return {"hand_1_ms": first, "hand_60_ms": last, "ratio": last / first}


def main() -> dict[str, dict[str, Any]]:
    """Time every session; print the table and return ``{session: {hands, median_ms, p95_ms, target_ms, ok,
    full_gcs}}``."""
    figures: dict[str, dict[str, Any]] = {}
    for name, build in SESSIONS.items():
        record = build()
        result = scoring.score(record)
        assert len(result.hands) == len(record["hands"]), "every hand was scored"
        times, full_gcs = time_score(record)
        p95 = percentile(times, 0.95)
        figures[name] = {
            "hands": len(record["hands"]),
            "median_ms": statistics.median(times),
            "p95_ms": p95,
            "target_ms": TARGET_P95_MS,
            "ok": p95 < TARGET_P95_MS,
            "full_gcs": full_gcs,
        }
    width = max(len(name) for name in figures)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"Scoring benchmark (Card Table Companion): scoring.score(raw record), {RUNS} runs after {WARM_UP} warm-up")
    print(f"{os.cpu_count()} CPUs, load average {load} (other work on the machine widens the p95)")
    print(f"{'session'.ljust(width)}  {'hands':>5}  {'median ms':>9}  {'p95 ms':>8}  {'target':>10}  result  full GCs")
    for name, row in figures.items():
        print(
            f"{name.ljust(width)}  {row['hands']:>5}  {row['median_ms']:>9.2f}  {row['p95_ms']:>8.2f}  "
            f"{'p95 < ' + format(row['target_ms'], 'g'):>10}  {'pass' if row['ok'] else 'FAIL':<6}  "
            f"{row['full_gcs']:>8}"
        )
    added = hand_by_hand()
    figures["Bargain Bin, hand 60 added to the replay of 59"] = {
        "hands": 60,
        "median_ms": added["hand_60_ms"],
        "ratio_to_hand_1": added["ratio"],
        "ok": added["ratio"] <= 1.1,
    }
    return figures


if __name__ == "__main__":
    raise SystemExit(0 if all(row["ok"] for row in main().values()) else 1)
