"""Medians of the samples the tap benchmark writes (``python -m bench.tap_latency --samples FILE``), with the Jokers
Kill card taps in two parts: the card that completes a hand, and the others.

The card that completes a hand is the one tap that raises the veil over the grid, so it is looked at on its own. With
semantics on, it is the tap whose prompt then says to confirm the hand (or to mark it void); with semantics off there
is no text to read, and it is every third card (the benchmark's hands have no ties: up-card, Ann, Ben). Run:
``python -m bench.tap_samples FILE [FILE ...]``; each row gives the medians in ms (the text, or the first message
with semantics off; the frame after it; the page's share before its message leaves; pointerdown → the first message
back; that message → its frame; with semantics off, pointerdown → the frame after the answer's last message, what
follows the reply included) and, over the run's trivial app, the ratio of the medians in both clocks.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

LAST_CARD = ("confirm the hand", "mark the hand void")
"""A Jokers Kill prompt after the card that completes a hand says one of these."""
CARDS_A_HAND = 3
"""Cards in each of the benchmark's Jokers Kill hands (:func:`bench.tap_latency.jk_deals`: no ties)."""


def parts(name: str, samples: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """A series' samples, the Jokers Kill card taps split into the card that completes a hand and the others.

    >>> taps = [{"label": "Next: Ann's card"}, {"label": "Next: Ben's card"}, {"label": "Next: Ben wins 2 points: confirm the hand"}]
    >>> {k: len(v) for k, v in parts("Jokers Kill: card tap → shown", taps).items()}
    {'Jokers Kill: card tap → shown, completing the hand': 1, 'Jokers Kill: card tap → shown, other cards': 2}
    >>> {k: len(v) for k, v in parts("Jokers Kill: card tap → frame", [{"label": ""}] * 6).items()}
    {'Jokers Kill: card tap → frame, completing the hand': 2, 'Jokers Kill: card tap → frame, other cards': 4}
    """  # noqa: E501
    if not name.startswith("Jokers Kill: card tap"):
        return {name: list(samples)}
    if samples and not any(sample["label"] for sample in samples):  # semantics off: every third card
        last = [i for i in range(len(samples)) if i % CARDS_A_HAND == CARDS_A_HAND - 1]
    else:
        last = [i for i, sample in enumerate(samples) if any(end in sample["label"].lower() for end in LAST_CARD)]
    return {
        f"{name}, completing the hand": [samples[i] for i in last],
        f"{name}, other cards": [sample for i, sample in enumerate(samples) if i not in set(last)],
    }


def median(samples: Sequence[dict[str, Any]], key: str) -> float:
    """The median of ``key`` over the samples that have it (a missing part is NaN in the file)."""
    values = [float(s[key]) for s in samples if s.get(key) is not None and not math.isnan(float(s[key]))]
    return float(statistics.median(values)) if values else float("nan")


def rows(data: dict[str, dict[str, list[dict[str, Any]]]]) -> list[list[str]]:
    """One row a part of a series (its mode first), mode by mode."""
    out: list[list[str]] = []
    for mode, series in data.items():
        trivial = next((s for name, s in series.items() if name.startswith("trivial")), [])
        base = (median(trivial, "seen_ms"), median(trivial, "ms"))
        for name, samples in series.items():
            for part, chosen in parts(name, samples).items():
                if not chosen:
                    continue
                seen, frame = median(chosen, "seen_ms"), median(chosen, "ms")
                cells = [mode, part, str(len(chosen)), f"{seen:.0f}", f"{frame:.0f}"]
                cells += [f"{median(chosen, key):.0f}" for key in ("out_ms", "server_ms", "client_ms", "settled_ms")]
                cells += [f"{seen / base[0]:.2f}×", f"{frame / base[1]:.2f}×"]
                out.append(cells)
    return out


HEADERS = ["tap", "n", "text", "frame", "out", "server", "client", "settled", "text × trivial", "frame × trivial"]

CONFIRM_REPLY = 1200
"""Bytes: a Jokers Kill or Bargain Bin Confirm's reply is larger than this (1.4–3.3 KB); a card or value tap's is
smaller (0.2–0.9 KB)."""


TAPS = ("click", "tap")
"""The events of a tap: a button's ``click``, and a key's ``tap`` (its gesture detector: :class:`views.widgets.TapKey`,
*Confirm hand* among them)."""


def handlers(records: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The click handlers in a log of :mod:`bench.serverprobe`, by what the tapped control says (``tapped``): the
    Confirms', the receiver taps' (Bargain Bin's "To Ann (3)") and the other taps' (a card, a value). A log written
    before the probe noted it tells a Confirm by its reply: the largest message sent while the handler ran is at
    least :data:`CONFIRM_REPLY` bytes (no longer true since the next hand follows a Confirm's reply).

    >>> log = [{"event": "tap", "t": 1.0, "wall": 20.0, "cpu": 8.0, "tapped": "Confirm hand"},
    ...        {"event": "tap", "t": 2.0, "wall": 4.0, "cpu": 3.0, "tapped": "To Ann (0)"},
    ...        {"event": "tap", "t": 3.0, "wall": 5.0, "cpu": 4.0, "tapped": "A♠"},
    ...        {"event": "route_change", "t": 4.0, "wall": 9.0, "cpu": 9.0}]
    >>> {kind: [r["cpu"] for r in found] for kind, found in handlers(log).items()}
    {'Confirm': [8.0], 'receiver taps': [3.0], 'other taps': [4.0]}
    >>> old = [{"sent": 1486, "t": 1.0}, {"event": "click", "t": 1.001, "wall": 20.0, "cpu": 8.0},
    ...        {"sent": 640, "t": 2.0}, {"event": "click", "t": 2.001, "wall": 4.0, "cpu": 3.0}]
    >>> {kind: [r["cpu"] for r in found] for kind, found in handlers(old).items()}
    {'Confirm': [8.0], 'receiver taps': [], 'other taps': [3.0]}
    """
    out: dict[str, list[dict[str, Any]]] = {"Confirm": [], "receiver taps": [], "other taps": []}
    for i, record in enumerate(records):
        if record.get("event") not in TAPS:
            continue
        tapped = record.get("tapped")
        if tapped is not None:
            kind = "Confirm" if tapped.startswith("Confirm") else "receiver taps" if tapped.startswith("To ") else None
            out[kind or "other taps"].append(record)
            continue
        sent, j = [], i - 1
        while j >= 0 and "sent" in records[j] and record["t"] - records[j]["t"] <= record["wall"] / 1000 + 0.001:
            sent.append(int(records[j]["sent"]))
            j -= 1
        out["Confirm" if sent and max(sent) >= CONFIRM_REPLY else "other taps"].append(record)
    return out


class Arrivals:
    """The times in a probe's log of the clicks' messages arriving and of the messages sent, each in order, to time
    a click handler from its click's arrival (:meth:`of`)."""

    def __init__(self, records: Sequence[dict[str, Any]]) -> None:
        self.clicks = sorted(r["t"] for r in records if r.get("name") in TAPS and "received" in r)
        self.sent = sorted(r["t"] for r in records if "sent" in r)

    def of(self, handler: dict[str, Any]) -> tuple[float, float] | None:
        """For a click ``handler``: ms from the click's message arriving at the server to its handler starting, and
        to the first message the server sends after it (``None`` for a log without arrivals).

        >>> log = [{"received": 3, "name": "click", "t": 1.000}, {"sent": 900, "t": 1.012},
        ...        {"event": "click", "t": 1.013, "wall": 10.0, "cpu": 4.0}]
        >>> [round(ms, 1) for ms in Arrivals(log).of(log[2])]
        [3.0, 12.0]
        """
        start = handler["t"] - handler["wall"] / 1000
        at = bisect.bisect_right(self.clicks, start)
        if at == 0:
            return None
        came = self.clicks[at - 1]
        after = bisect.bisect_left(self.sent, came)
        first = self.sent[after] if after < len(self.sent) else handler["t"]
        return (start - came) * 1000, (first - came) * 1000


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


PROBE_HEADERS = [
    *["tap", "n", "CPU median", "server CPU median", "wall median", "wall p90", "wall p95"],
    *["waited", "to first message"],
]
"""The columns of :func:`probe_rows`; the last two are medians from the click's message arriving (:class:`Arrivals`)."""


def probe_rows(path: Path) -> list[list[str]]:
    """Per kind of tap: n, the handler's CPU and the whole server's meanwhile (medians), its wall time (median,
    p90, p95), and from the click's message arriving, the median wait before the handler and the median time to the
    first message sent, ms."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out: list[list[str]] = []
    for kind, found in handlers(records).items():
        if found:
            wall = [float(r["wall"]) for r in found]
            cpu = statistics.median(float(r["cpu"]) for r in found)
            process = f"{statistics.median(float(r['process']) for r in found):.1f}" if "process" in found[0] else "-"
            spread = (statistics.median(wall), quantile(wall, 0.9), quantile(wall, 0.95))
            arrivals = Arrivals(records)
            arrived = [a for a in (arrivals.of(r) for r in found) if a is not None]
            waits = [f"{statistics.median(a[i] for a in arrived):.1f}" if arrived else "-" for i in (0, 1)]
            out.append([kind, str(len(found)), f"{cpu:.1f}", process, *(f"{v:.1f}" for v in spread), *waits])
    return out


def main(argv: list[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(prog="python -m bench.tap_samples", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="samples written by bench.tap_latency --samples")
    parser.add_argument(
        "--probe",
        type=Path,
        action="append",
        default=[],
        metavar="LOG",
        help="also read a server's log written with bench.tap_latency --probe LOG: each tap's handler, ms",
    )
    args = parser.parse_args(argv if argv is not None else [])
    from bench.pagewatch import print_table

    out: list[list[str]] = []
    for log in args.probe:
        for one in (log, log.with_name(log.name + ".trivial")):
            if one.exists():
                print(f"\n{one}: the server's handler of each click (ms)")
                print_table(PROBE_HEADERS, probe_rows(one))
    for path in args.files:
        found = rows(json.loads(path.read_text(encoding="utf-8")))
        for mode in dict.fromkeys(row[0] for row in found):
            print(f"\n{path}: {mode} (medians, ms)")
            print_table(HEADERS, [row[1:] for row in found if row[0] == mode])
        out += found
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
