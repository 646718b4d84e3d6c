"""Ratings in the background against the server's thread: what a screen opened by a tap costs while the ratings of
every game are worked out beside it (History starts that work, so that Statistics opens with its ratings).

The server answers a tap on one thread: it reads the message, builds the screen and sends it, letting go of the
interpreter at each read and send. A thread rating thousands of games keeps the interpreter for Python's whole
switch interval (5 ms) each time the server's thread asks for it back. Measured side by side, interleaved, in one
run (the load is printed):

* a server-like job (60 messages: a little work, a send and a poll each) alone, beside a book of ratings rated
  without pauses, and beside one rated with :class:`companion.ratings.Pauses` (as the app rates in the
  background), median and p95, × = median against the job alone;
* rating the archive's worth of games (5,610, as in the 10,000-session archive of :mod:`bench.history_bench`)
  with and without the pauses: what they cost the ratings themselves.

Run: ``.venv/bin/python -m bench.gil_bench [ROUNDS]`` (about a minute). Target: the job beside the ratings within
1.2 × the job alone (median), the ratings with pauses within 1.2 × those without.
"""

from __future__ import annotations

import os
import random
import select
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pagewatch import median, percentile  # noqa: E402
from companion.ratings import Book, Pauses, RatedGame  # noqa: E402

GAMES = 5_610
"""The finished games of the 10,000-session benchmark archive."""
ROUNDS = 15
TARGET = 1.2


def games(count: int = GAMES, seed: int = 1) -> list[RatedGame]:
    """``count`` games of two to five of twelve players, in rating order."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(12)]
    out = []
    for n in range(count):
        who = tuple(rng.sample(ids, rng.randint(2, 5)))
        places = tuple(range(1, len(who) + 1))
        out.append(RatedGame(f"s{n}", "jokers-kill", f"2026-01-01T{n:08d}", who, places, tuple(p == 1 for p in places)))
    return out


def server_job(a: socket.socket, b: socket.socket, messages: int = 60) -> float:
    """Milliseconds for ``messages`` rounds of a little work, a send and a poll (an event loop answering a tap)."""
    started = time.perf_counter()
    for _ in range(messages):
        sum(i * i for i in range(2000))
        a.send(b"x")
        b.recv(1)
        select.select([b], [], [], 0)
    return (time.perf_counter() - started) * 1000


def beside(rated: list[RatedGame], pauses: bool) -> tuple[threading.Event, threading.Thread]:
    """A thread rating ``rated`` over and over (with :class:`Pauses` or without) until the event is set."""
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            Book().update(rated, Pauses() if pauses else None)

    thread = threading.Thread(target=run, name="ratings", daemon=True)
    thread.start()
    return stop, thread


def rate_ms(rated: list[RatedGame], pause: Callable[[], None] | None) -> float:
    started = time.perf_counter()
    Book().update(rated, pause)
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> dict[str, float]:
    rounds = int(argv[0]) if argv else ROUNDS
    rated = games()
    a, b = socket.socketpair()
    kinds = {"alone": None, "beside the ratings": False, "beside the ratings, with pauses": True}
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    loads = [os.getloadavg()[0]]
    with a, b:
        for _ in range(rounds):
            for kind, pauses in kinds.items():
                running = beside(rated[:400], pauses) if pauses is not None else None
                if running is not None:
                    time.sleep(0.05)
                times[kind].append(server_job(a, b))
                if running is not None:
                    running[0].set()
                    running[1].join()
    rating: dict[str, list[float]] = {"without pauses": [], "with pauses": []}
    for _ in range(3):
        rating["without pauses"].append(rate_ms(rated, None))
        rating["with pauses"].append(rate_ms(rated, Pauses()))
    loads.append(os.getloadavg()[0])
    base = median(times["alone"])
    out: dict[str, float] = {}
    print(f"A server-like job beside ratings worked out in a thread; {rounds} rounds, interleaved, load {loads[0]:.1f}")
    print(f"to {loads[1]:.1f} on {os.cpu_count()} cores")
    for kind, values in times.items():
        ratio = median(values) / base
        out[kind] = ratio
        print(f"  {kind}: median {median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, {ratio:.2f}×")
    slower = median(rating["with pauses"]) / median(rating["without pauses"])
    out["pauses' cost"] = slower
    for kind, values in rating.items():
        print(f"  rating {GAMES:,} games {kind}: median {median(values):,.0f} ms")
    job = out["beside the ratings, with pauses"]
    print(f"target the job beside the ratings ≤ {TARGET} × alone: {'met' if job <= TARGET else 'MISSED'} ({job:.2f}×)")
    print(f"target the pauses cost the ratings ≤ {TARGET} ×: {'met' if slower <= TARGET else 'MISSED'} ({slower:.2f}×)")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
