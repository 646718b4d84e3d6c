"""Storage benchmark: saving a hand with 10 and 10,000 sessions in the archive (and TinyDB's default single-file
JSON storage as the baseline), writing the hand being entered (a draft, on every tap), opening the archive and
listing 10,000 sessions (time and peak memory added), and bytes on disk per typical session.

Run: ``.venv/bin/python -m bench.storage_bench`` (about a minute). Targets: p95 save <= 20 ms; ratio of the p95
with 10,000 sessions to that with 10 <= 1.5; opening and listing 10,000 sessions <= 300 ms and <= 50 MB added.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import JSONStorage

from storage import Archive, LogEntry, SessionDoc, SessionStatus
from storage.archive import SESSION_TABLE, SESSIONS
from storage.atomic import atomic_write_json

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SAVES = 200
BASELINE_SAVES_LARGE = 5
TARGETS = {"p95_ms": 20.0, "ratio": 1.5, "list_ms": 300.0, "list_mb": 50.0}


def typical_record(rnd: random.Random, hands: int = 12) -> dict[str, Any]:
    """A Bargain Bin game of five players with ``hands`` hands entered card by card (a typical evening)."""
    return {
        "game": "bargain-bin",
        "players": PLAYERS,
        "options": {},
        "hands": [typical_hand(rnd) for _ in range(hands)],
    }


def typical_hand(rnd: random.Random) -> dict[str, Any]:
    deck = [r + s for r in RANKS for s in "SHDC"]
    rnd.shuffle(deck)
    return {"cards": {p: [deck.pop() for _ in range(rnd.randint(2, 5))] for p in PLAYERS}}


def typical_doc(rnd: random.Random, n: int) -> SessionDoc:
    hands = rnd.randint(8, 16)
    doc = SessionDoc.new(typical_record(rnd, hands), title=f"Evening {n}")
    log = [LogEntry(at=doc.created_at, action="session started")]
    log += [LogEntry(at=doc.created_at, action=f"hand {i + 1} entered") for i in range(hands)]
    finished = n % 3 != 0
    return doc.model_copy(
        update={
            "log": log,
            "status": SessionStatus.FINISHED if finished else SessionStatus.IN_PROGRESS,
            "winners": [rnd.choice(PLAYERS)] if finished else [],
        }
    )


def seed(folder: Path, count: int, rnd: random.Random) -> list[SessionDoc]:
    """Write ``count`` session files straight into the archive layout (no fsync: this is set-up, not measured);
    the first open then builds the index from them."""
    (folder / SESSIONS).mkdir(parents=True, exist_ok=True)
    docs = [typical_doc(rnd, n) for n in range(count)]
    for doc in docs:
        atomic_write_json(folder / SESSIONS / f"{doc.id}.json", {SESSION_TABLE: {"1": doc.to_stored()}}, durable=False)
    return docs


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_saves(archives: list[Archive], ids: list[list[str]], saves: int, rnd: random.Random) -> list[list[float]]:
    """Milliseconds per save in each archive, each save appending one hand to one of its ``ids`` in turn.

    The archives take turns, save by save, so that disk noise (other processes' fsyncs) hits them alike."""
    docs = [{sid: archive.load_session(sid) for sid in own} for archive, own in zip(archives, ids, strict=True)]
    out: list[list[float]] = [[] for _ in archives]
    for i in range(saves + 10):
        for k, archive in enumerate(archives):
            sid = ids[k][i % len(ids[k])]
            doc = docs[k][sid]
            record = {**doc.record, "hands": [*doc.record["hands"], typical_hand(rnd)]}
            changed = doc.model_copy(update={"record": record})
            start = time.perf_counter()
            docs[k][sid] = archive.save_session(changed, f"hand {len(record['hands'])} entered")
            if i >= 10:  # the first ten are warm-up
                out[k].append((time.perf_counter() - start) * 1000)
    return out


def time_drafts(archive: Archive, session_id: str, taps: int) -> list[float]:
    """Milliseconds per draft write while a Bargain Bin hand is played card by card (a draft grows by one play a
    tap, 25 plays a hand, as :meth:`companion.session.TableSession.set_draft` writes it)."""
    deck = [r + s for r in RANKS for s in "SHDC"]
    out: list[float] = []
    for i in range(taps + 10):
        plays = [{"by": PLAYERS[k % 5], "to": PLAYERS[(k + 1) % 5], "card": deck[k]} for k in range(i % 25 + 1)]
        start = time.perf_counter()
        archive.save_drafts(session_id, {"new": {"plays": plays, "receiver": None}}, stamp=i)
        if i >= 10:  # the first ten are warm-up
            out.append((time.perf_counter() - start) * 1000)
    archive.save_drafts(session_id, {}, stamp=0)
    return out


def time_baseline(folder: Path, docs: list[SessionDoc], saves: int, rnd: random.Random) -> list[float]:
    """The same save with TinyDB's default storage: every session a document in one JSON file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "db.json"
    path.write_text(json.dumps({"sessions": {str(n + 1): d.to_stored() for n, d in enumerate(docs)}}))
    db = TinyDB(path, storage=JSONStorage)
    table = db.table("sessions")
    out = []
    for i in range(saves):
        doc_id = 1 + i % 10
        stored = table.get(doc_id=doc_id)
        assert stored is not None and not isinstance(stored, list)
        record = {**stored["record"], "hands": [*stored["record"]["hands"], typical_hand(rnd)]}
        log = [*stored["log"], LogEntry.now(f"hand {len(record['hands'])} entered").model_dump()]
        start = time.perf_counter()
        table.update({"record": record, "log": log}, doc_ids=[doc_id])
        out.append((time.perf_counter() - start) * 1000)
    db.close()
    return out


def open_and_list(folder: Path) -> int:
    with Archive(folder) as archive:
        return len(archive.list_sessions())


def measure(fn: Callable[[], Any], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def disk_bytes(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file() and p.name != ".lock"]
    return sum(p.stat().st_size for p in files), sum(p.stat().st_blocks * 512 for p in files)


def main() -> int:
    rnd = random.Random(2026)
    rows: list[tuple[str, str]] = []
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(dir=Path.cwd() if "--here" in sys.argv else None) as tmp:
        root = Path(tmp)
        folders = {count: root / f"archive-{count}" for count in (10, 10_000)}
        seeded = {count: seed(folder, count, rnd) for count, folder in folders.items()}
        started = time.perf_counter()
        Archive(folders[10_000]).close()  # first open: builds the index from the session files
        rows.append(
            ("set-up: first open of 10,000 session files, index built (s)", f"{time.perf_counter() - started:.1f}")
        )
        with Archive(folders[10]) as small, Archive(folders[10_000]) as large:
            timed = time_saves([small, large], [[d.id for d in seeded[n][:10]] for n in (10, 10_000)], SAVES, rnd)
            drafts = time_drafts(large, seeded[10_000][0].id, SAVES)
        saves = {10: timed[0], 10_000: timed[1]}
        folder = folders[10_000]
        listing = measure(lambda: open_and_list(folder), 7)
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        with Archive(folder) as archive:
            listed = archive.list_sessions()
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        assert len(listed) == 10_000
        del listed
        apparent, allocated = disk_bytes(folder)
        results["list_ms"] = statistics.median(listing)
        results["list_mb"] = peak / 1e6
        results["bytes_per_session"] = apparent / 10_000
        results["allocated_per_session"] = allocated / 10_000
        for count in (10, 10_000):
            results[f"median_{count}"] = statistics.median(saves[count])
            results[f"p95_{count}"] = percentile(saves[count], 0.95)
        results["ratio"] = results["p95_10000"] / results["p95_10"]
        results["median_ratio"] = results["median_10000"] / results["median_10"]
        base_small = time_baseline(root / "base-10", seed(root / "base-10", 10, rnd), SAVES, rnd)
        big_docs = [typical_doc(rnd, n) for n in range(10_000)]
        base_large = time_baseline(root / "base-10000", big_docs, BASELINE_SAVES_LARGE, rnd)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values):8.2f} ms   p95 {percentile(values, 0.95):8.2f} ms"

    rows += [
        ("save a hand, 10 sessions (this storage)", ms(saves[10])),
        ("save a hand, 10,000 sessions (this storage)", ms(saves[10_000])),
        ("  ratio 10,000 / 10 (p95; median)", f"{results['ratio']:.2f}; {results['median_ratio']:.2f}"),
        ("write the hand being entered (a draft, every tap)", ms(drafts)),
        ("save a hand, 10 sessions (TinyDB JSONStorage)", ms(base_small)),
        (f"save a hand, 10,000 sessions (TinyDB JSONStorage, {BASELINE_SAVES_LARGE} saves)", ms(base_large)),
        (
            "  baseline ratio 10,000 / 10 (median)",
            f"{statistics.median(base_large) / statistics.median(base_small):.0f}",
        ),
        ("open archive + list 10,000 sessions (median of 7)", f"{results['list_ms']:.0f} ms"),
        ("  peak memory added (tracemalloc)", f"{results['list_mb']:.1f} MB"),
        (
            "bytes on disk per typical session (files; allocated)",
            f"{results['bytes_per_session']:.0f} B; {results['allocated_per_session']:.0f} B",
        ),
    ]
    width = max(len(label) for label, _ in rows)
    print("Storage benchmark (Card Table Companion)")
    for label, value in rows:
        print(f"{label.ljust(width)}  {value}")
    checks = {
        "p95 save <= 20 ms": max(results["p95_10"], results["p95_10000"]) <= TARGETS["p95_ms"],
        "ratio 10,000/10 <= 1.5": results["ratio"] <= TARGETS["ratio"],
        "open + list 10,000 <= 300 ms": results["list_ms"] <= TARGETS["list_ms"],
        "open + list 10,000 <= 50 MB": results["list_mb"] <= TARGETS["list_mb"],
    }
    for name, ok in checks.items():
        print(f"target {name}: {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
