"""One phone against the host: the server's memory and the host's page under issue 25's attacks (loopback only).

The real app (``python -m app``, its default limits: ``app/ws_guard.py``) on a free port of 127.0.0.1, with one
Jokers Kill game. The baseline, measured first in the same run: the host's page opening (registering and receiving
its home screen) and a host tap answered (a route change sent, the new screen received) on the idle server, and
the server's resident memory. Then one phone (client address 127.0.0.2, at ``/live``) sends, in turn:

* the bomb: one 15 MB message, and a 130 kB message that decodes into 130,000 empty maps;
* the flood: events for controls it was never sent, 2,000 a second for 10 s, connecting again each time it is
  closed; meanwhile the host's page is opened and tapped again and again;
* the churn: 1,000 tabs opened and closed in turn (from another phone, 127.0.0.4: the flooding one holds as many
  pages as a device may until they are released);
* 1,000 connections that send an event before registering, then close.

The flood, churn and unregistered connections are sent twice (``--rounds``), each round followed by the wait
for the closed tabs' sessions to be released, to show whether the memory grows from one round to the next.
Reported: the host's page open time and tap answer time under the flood against the idle baseline (median, max,
and the ratio of the medians), the server's peak memory (``VmHWM``) against its memory before the attacks, and its
memory once the closed tabs' sessions are released (at most 40 s later). Every loop is bounded (about 2 minutes).

Run: ``.venv/bin/python -m bench.ws_bench`` (or ``python -m bench ws``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/ is a package at the project root
    sys.path.insert(0, str(ROOT))

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from tests.support.hostile_ws import (  # noqa: E402
    ANSWER_S,
    Server,
    big_message,
    decode_bomb,
    event,
    host_page_opens,
    packed,
    page,
    start_server,
    stop_server,
    unregistered,
)

PHONE = "127.0.0.2"


def page_id(first: list[Any]) -> int:
    """The page's control id, from the registration's answer."""
    answer = first[0][1]
    patch = answer.get("page_patch") if isinstance(answer, dict) else None
    found = patch.get("_i") if isinstance(patch, dict) else None
    return int(found) if isinstance(found, int) else 1


async def host_tap(port: int) -> float:
    """Seconds from a tap on the host's open page (going to Settings) to the server's answer (the new screen)."""
    async with page(port, route="/") as (ws, first):
        target = page_id(first)
        started = time.perf_counter()
        await ws.send(packed(3, {"target": target, "name": "route_change", "data": {"route": "/settings"}}))
        await asyncio.wait_for(ws.recv(), ANSWER_S)
        return time.perf_counter() - started


async def persistent_flood(port: int, seconds: float, per_s: float) -> tuple[int, int]:
    """Events for controls never sent, ``per_s`` a second for ``seconds``, connecting again whenever closed:
    (events sent, connections the server closed or refused)."""
    deadline = time.perf_counter() + seconds
    sent = closed = 0
    while time.perf_counter() < deadline:
        try:
            async with page(port, client=PHONE, route="/live") as (ws, _):
                started, mine = time.perf_counter(), 0
                while time.perf_counter() < deadline:
                    await ws.send(event(10_000_000 + sent))
                    sent += 1
                    mine += 1
                    pause = started + mine / per_s - time.perf_counter()
                    if pause > 0:
                        await asyncio.sleep(pause)
        except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
            closed += 1
            await asyncio.sleep(0.05)
    return sent, closed


async def churn_count(port: int, tabs: int, client: str) -> tuple[int, int]:
    opened = refused = 0
    for _ in range(tabs):
        try:
            async with page(port, client=client, route="/live"):
                opened += 1
        except (ConnectionClosed, InvalidStatus, TimeoutError):
            refused += 1
    return opened, refused


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms (n={len(values)})"


async def measure(server: Server, args: argparse.Namespace) -> None:
    port = server.port
    idle_open = [await host_page_opens(port) for _ in range(5)]
    idle_tap = [await host_tap(port) for _ in range(5)]
    rss_idle, _ = server.memory_kib()
    print(f"idle: host page opens {ms(idle_open)}; host tap answered {ms(idle_tap)}; server {rss_idle / 1024:.0f} MB")

    print(
        f"bomb: 15 MB message closed with {await big_message(port, PHONE, 15 * 1024 * 1024)}; "
        f"130,000 empty maps closed with {await decode_bomb(port, PHONE, 130_000)}"
    )
    rss, peak = server.memory_kib()
    print(f"  server now {rss / 1024:.0f} MB, peak {peak / 1024:.0f} MB")

    flood_open: list[float] = []
    flood_tap: list[float] = []
    for round_ in range(1, args.rounds + 1):
        print(f"-- round {round_} of {args.rounds}")
        attack = asyncio.create_task(persistent_flood(port, args.flood_s, args.per_s))
        opens: list[float] = []
        taps: list[float] = []
        while not attack.done():
            opens.append(await host_page_opens(port))
            taps.append(await host_tap(port))
        sent, closed = await attack
        flood_open += opens
        flood_tap += taps
        print(
            f"flood: {sent} events in {args.flood_s:g} s, {closed} connections closed or refused; "
            f"host page opens {ms(opens)}, host tap answered {ms(taps)}"
        )
        after_open = [await host_page_opens(port) for _ in range(3)]
        print(f"  just after the flood: host page opens {ms(after_open)}")

        opened, refused = await churn_count(port, args.tabs, "127.0.0.4")  # the flood's phone holds its pages
        print(f"churn: {args.tabs} tabs from one phone: {opened} opened, {refused} refused (pages per device)")
        codes = []
        for start in range(0, args.unregistered, 100):  # 100 at once (a process has about 1,000 files open at most)
            codes += await unregistered(port, min(100, args.unregistered - start), send_event=True, client="127.0.0.3")
        print(
            f"unregistered: {args.unregistered} connections sending an event first: "
            f"{sum(1 for c in codes if c == 1008)} closed (1008)"
        )
        rss, peak = server.memory_kib()
        print(f"  server now {rss / 1024:.0f} MB, peak {peak / 1024:.0f} MB")

        await asyncio.sleep(args.release_wait_s)
        rss_released, peak = server.memory_kib()
        print(f"after {args.release_wait_s:g} s (closed tabs released): server {rss_released / 1024:.0f} MB")
    open_ratio = statistics.median(flood_open) / statistics.median(idle_open)
    tap_ratio = statistics.median(flood_tap) / statistics.median(idle_tap)
    print(
        f"ratios: host page open under flood / idle {open_ratio:.2f}; host tap under flood / idle {tap_ratio:.2f}; "
        f"peak memory / idle {peak / rss_idle:.2f}; released / idle {rss_released / rss_idle:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood-s", type=float, default=10.0)
    parser.add_argument("--per-s", type=float, default=2000.0)
    parser.add_argument("--tabs", type=int, default=1000)
    parser.add_argument("--unregistered", type=int, default=1000)
    parser.add_argument("--release-wait-s", type=float, default=45.0)
    parser.add_argument("--rounds", type=int, default=2, help="the attacks again: does the memory grow?")
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder))
        try:
            asyncio.run(measure(server, args))
        finally:
            with contextlib.suppress(Exception):
                stop_server(server)


if __name__ == "__main__":
    main(sys.argv[1:])
