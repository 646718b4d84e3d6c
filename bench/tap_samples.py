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


def main(argv: list[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(prog="python -m bench.tap_samples", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="samples written by bench.tap_latency --samples")
    args = parser.parse_args(argv if argv is not None else [])
    from bench.pagewatch import print_table

    out: list[list[str]] = []
    for path in args.files:
        found = rows(json.loads(path.read_text(encoding="utf-8")))
        for mode in dict.fromkeys(row[0] for row in found):
            print(f"\n{path}: {mode} (medians, ms)")
            print_table(HEADERS, [row[1:] for row in found if row[0] == mode])
        out += found
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
