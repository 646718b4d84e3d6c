"""Ratings benchmark: rating 10,000 finished games, one more game, and Statistics with its ratings.

Set-up: 10,000 finished games of the five games (1,000 distinct random legal records from ``tests/support/generators``,
finished and not cancelled, reused), four an evening, written straight into the archive layout, their players
in the roster (as the app keeps them: a game started or imported adds its players); the outcome cache
(each game's final standings) built once, as after the app's first run. Measured, median of several runs, side by
side with a named baseline in the same run:

* **from scratch**: every player's rating across all games worked out by a new :class:`companion.ratings.
  RatingService` (games listed, standings read from the outcome cache, names resolved, 10,000 games rated by
  openskill). Baseline: Statistics' own figures over the same outcomes (:func:`companion.stats.compute`).
* **one more game**: a finished game is saved, then the ratings are asked for again (only the new game is rated).
  Baseline: Statistics' figures after the same change (:meth:`companion.stats.OutcomeCache.statistics`).
* **Statistics opens**: the Statistics screen's controls with the ratings table and chart (built, not drawn), the
  ratings already worked out (History works them out in the background when it opens). Baseline: the same screen
  without the ratings.

Run: ``.venv/bin/python -m bench.ratings_bench [GAMES]`` (about two minutes, most of it the set-up) or
``make bench BENCH_ARGS=ratings``. Targets: from scratch ≤ 2 s, one more game ≤ 50 ms, Statistics ≤ 300 ms.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/ is a package at the project root
    sys.path.insert(0, str(ROOT))

from bench.history_bench import GENERATORS  # noqa: E402
from companion.ratings import ALL, Book, Identity, RatingService, rated_games  # noqa: E402
from companion.stats import CACHE_FILE, OutcomeCache, compute  # noqa: E402
from scoring import find_game  # noqa: E402
from storage import Archive, LogEntry, SessionDoc, SessionStatus  # noqa: E402
from storage.archive import SESSION_TABLE, SESSIONS  # noqa: E402
from storage.atomic import atomic_write_json  # noqa: E402

GAMES = 10_000
DISTINCT = 1_000
RUNS = 5
SCRATCH_TARGET_S = 2.0
UPDATE_TARGET_MS = 50.0
SCREEN_TARGET_MS = 300.0


def finished_pool(rnd: random.Random) -> list[tuple[dict[str, Any], list[str]]]:
    """``DISTINCT`` random finished (not cancelled) records with their winners."""
    pool: list[tuple[dict[str, Any], list[str]]] = []
    n = 0
    while len(pool) < DISTINCT:
        record = GENERATORS[n % len(GENERATORS)].random_record(rnd)
        n += 1
        result = find_game(record["game"]).score(record)
        if result.finished and not result.cancelled:
            pool.append((record, list(result.winners)))
    return pool


def seed(folder: Path, count: int, pool: list[tuple[dict[str, Any], list[str]]]) -> None:
    """``count`` finished games, four an evening (28-day months: 10,000 games span about seven years)."""
    (folder / SESSIONS).mkdir(parents=True, exist_ok=True)
    for n in range(count):
        record, winners = pool[n % len(pool)]
        doc = SessionDoc.new(record, status=SessionStatus.FINISHED, winners=winners, title=f"Game {n}")
        day = n // 4
        stamp = f"{2019 + day // 336}-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T{19 + n % 4}:{n % 60:02d}:00.000Z"
        doc = doc.model_copy(
            update={"created_at": stamp, "updated_at": stamp, "log": [LogEntry(at=stamp, action="session started")]}
        )
        atomic_write_json(folder / SESSIONS / f"{doc.id}.json", {SESSION_TABLE: {"1": doc.to_stored()}}, durable=False)


CPU: list[float] = []
"""The process's CPU time of every call :func:`timed` measured (on a machine others share, the wall-clock time
also holds the time the process waited for a core)."""


def with_newcomer(record: dict[str, Any], winners: list[str], name: str) -> tuple[dict[str, Any], list[str]]:
    """``record`` with its first player renamed ``name`` (a player the roster does not know yet)."""
    first = record["players"][0]
    text = json.dumps(record).replace(json.dumps(first), json.dumps(name))
    return json.loads(text), [name if w == first else w for w in winners]


def timed(fn: Callable[[], Any]) -> float:
    started, cpu = time.perf_counter(), time.process_time()
    fn()
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - started


def median_of(fn: Callable[[], Any], runs: int = RUNS) -> float:
    """The median wall-clock time of ``runs`` calls (their CPU times are left in :data:`CPU`)."""
    CPU.clear()
    return statistics.median(timed(fn) for _ in range(runs))


def cpu_median() -> float:
    return statistics.median(CPU) if CPU else float("nan")


def screen(archive: Archive, cache: OutcomeCache, ratings: RatingService | None, aliases: dict[str, str]) -> None:
    """The Statistics screen's controls (every game), with the ratings section when ``ratings`` is given."""
    from views.ratings import ratings_section
    from views.stats import stats_controls

    controls, _ = stats_controls(archive, None, cache=cache, aliases=aliases)
    if ratings is not None:
        controls += ratings_section(ratings.ratings(ALL), on_open=lambda _: None)


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = sys.argv[1:] if argv is None else argv
    count = int(args[0]) if args and args[0].isdigit() else GAMES
    figures: dict[str, float] = {}
    rnd = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        started = time.perf_counter()
        pool = finished_pool(rnd)
        seed(folder, count, pool)
        with Archive(folder) as archive:
            for name in sorted({name for record, _ in pool for name in record["players"]}):
                archive.players.ensure(name)  # as the app keeps them: every player of the archive is in the roster
            cache = OutcomeCache(folder / CACHE_FILE)
            outcomes = cache.outcomes(archive)
            print(
                f"set-up: {count:,} finished games written, indexed and scored in {time.perf_counter() - started:.1f} s"
            )
            aliases = {p.name.casefold(): p.name for p in archive.players.list()}

            # from scratch
            scratch = median_of(lambda: RatingService(archive, cache).ratings(ALL))
            scratch_cpu = cpu_median()
            stats_base = median_of(lambda: compute(outcomes))
            stats_base_cpu = cpu_median()
            games = rated_games(outcomes, Identity(archive.players.list()))
            openskill_only = median_of(lambda: Book().update(games))
            openskill_cpu = cpu_median()
            figures.update(scratch_s=scratch, scratch_stats_s=stats_base, scratch_openskill_s=openskill_only)

            # one more game
            service = RatingService(archive, cache)
            service.ratings(ALL)
            cache.statistics(archive)
            updates, stats_updates, update_cpus, stats_cpus = [], [], [], []
            for n in range(RUNS + 2):
                record, winners = pool[n]
                archive.create_session(record, status=SessionStatus.FINISHED, winners=winners)
                CPU.clear()
                updates.append(timed(lambda: service.ratings(ALL)))
                stats_updates.append(timed(lambda: cache.statistics(archive)))
                update_cpus.append(CPU[0])
                stats_cpus.append(CPU[1])
            newcomers, newcomer_cpus = [], []
            for n in range(RUNS):  # one more game with a player new to the roster (a friend joins the table)
                record, winners = with_newcomer(*pool[RUNS + 2 + n], f"Newcomer {n}")
                archive.create_session(record, status=SessionStatus.FINISHED, winners=winners)
                CPU.clear()
                newcomers.append(timed(lambda: service.ratings(ALL)))
                newcomer_cpus.append(CPU[0])
            newcomer, newcomer_cpu = statistics.median(newcomers), statistics.median(newcomer_cpus)
            figures.update(newcomer_ms=newcomer * 1000)
            update = statistics.median(updates)
            stats_update = statistics.median(stats_updates)
            update_cpu, stats_update_cpu = statistics.median(update_cpus), statistics.median(stats_cpus)
            figures.update(update_ms=update * 1000, update_stats_ms=stats_update * 1000)
            kept, fresh = service.ratings(ALL).to_json(), RatingService(archive, cache).ratings(ALL).to_json()
            if kept != fresh:  # the updates must give what a fresh computation gives
                diff = [k for k in kept if kept[k] != fresh[k]]
                bad = [(a, b) for a, b in zip(kept["players"], fresh["players"], strict=False) if a != b][:2]
                where = [i for i, (a, b) in enumerate(zip(kept["order"], fresh["order"], strict=False)) if a != b][:3]
                raise AssertionError(f"updated ratings differ from fresh ones: {diff} {bad} {where}")

            # Statistics opens
            screen(archive, cache, service, aliases)
            with_ratings = median_of(lambda: screen(archive, cache, service, aliases))
            with_cpu = cpu_median()
            without = median_of(lambda: screen(archive, cache, None, aliases))
            without_cpu = cpu_median()
            figures.update(screen_ms=with_ratings * 1000, screen_base_ms=without * 1000)
            rated = len(service.ratings(ALL).order)

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    rows = [
        ("", "wall clock", "CPU", "baseline (wall / CPU)", "× baseline (wall / CPU)", "target (wall)"),
        (
            f"ratings of {rated:,} games from scratch",
            f"{scratch:.2f} s",
            f"{scratch_cpu:.2f} s",
            f"Statistics' figures {stats_base:.2f} / {stats_base_cpu:.2f} s",
            f"{scratch / stats_base:.1f} / {scratch_cpu / stats_base_cpu:.1f}",
            f"≤ {SCRATCH_TARGET_S:.0f} s: {verdict(scratch <= SCRATCH_TARGET_S)}",
        ),
        ("  of which openskill rating the games", f"{openskill_only:.2f} s", f"{openskill_cpu:.2f} s", "", "", ""),
        (
            "after one more game",
            f"{update * 1000:.1f} ms",
            f"{update_cpu * 1000:.1f} ms",
            f"Statistics' figures {stats_update * 1000:.1f} / {stats_update_cpu * 1000:.1f} ms",
            f"{update / stats_update:.2f} / {update_cpu / stats_update_cpu:.2f}",
            f"≤ {UPDATE_TARGET_MS:.0f} ms: {verdict(update * 1000 <= UPDATE_TARGET_MS)}",
        ),
        (
            "  one more game, with a new player",
            f"{newcomer * 1000:.1f} ms",
            f"{newcomer_cpu * 1000:.1f} ms",
            "",
            "",
            f"≤ {UPDATE_TARGET_MS:.0f} ms: {verdict(newcomer * 1000 <= UPDATE_TARGET_MS)}",
        ),
        (
            "Statistics with ratings opens (controls)",
            f"{with_ratings * 1000:.0f} ms",
            f"{with_cpu * 1000:.0f} ms",
            f"without ratings {without * 1000:.0f} / {without_cpu * 1000:.0f} ms",
            f"{with_ratings / without:.2f} / {with_cpu / without_cpu:.2f}",
            f"≤ {SCREEN_TARGET_MS:.0f} ms: {verdict(with_ratings * 1000 <= SCREEN_TARGET_MS)}",
        ),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Ratings, {count:,} finished games, median of {RUNS} runs (one more game: of {RUNS + 2}); "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return figures


if __name__ == "__main__":
    main()
