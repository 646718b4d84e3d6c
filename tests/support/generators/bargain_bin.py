"""Random legal Bargain Bin records (raw JSON-like dicts) for property tests and benchmarks.

Every hand is really dealt: five cards to each player still in the game, played in turn to players still in the game
(never to oneself under *Selfless*); a warned or removed player may stop early. The hand is then written in one of
the three entry forms. The game stops when someone reaches the target, or when removals cancel it. The scoring here
is an independent, deliberately plain re-statement of rules 2, 5, 6 and 9 (it only decides when to stop dealing).

>>> import random
>>> record = random_record(random.Random(7), players=5)
>>> record["game"], len(record["players"]), len(record["hands"]) >= 1
('bargain-bin', 5, True)
"""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FORMS = ("cards", "plays", "scores")


def _value(card: str, king: int) -> int:
    if card.startswith("JK"):
        return 20 if card.endswith("+") else -20
    rank, suit = card[:-1], card[-1]
    value = king if rank == "K" else RANKS.index(rank) + 1
    return -value if suit in "HD" else value


def _random_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if rng.random() < 0.3:
        options["king"] = rng.choice([12, 13])
    if rng.random() < 0.5:
        options["target"] = rng.choice([1, 2, 3, 5, 10, 15, 30])
    if rng.random() < 0.4:
        options["selfless"] = rng.random() < 0.7
    if rng.random() < 0.4:
        options["joker"] = rng.random() < 0.7
    if rng.random() < 0.5:
        options["vegas_unit_cents"] = rng.choice([1, 5, 10, 25])
    return options


def _spell(rng: random.Random, card: str) -> str:
    """Card text, sometimes in a forgiving spelling (lower case, T for 10, suit symbols)."""
    if card.startswith("JK") or rng.random() < 0.8:
        return card
    text = card.replace("10", "T") if rng.random() < 0.5 else card
    if rng.random() < 0.5:
        text = text[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[text[-1]]
    return text.lower() if rng.random() < 0.5 else text


def random_record(
    rng: random.Random,
    players: int | None = None,
    *,
    options: dict[str, Any] | None = None,
    hands: int | None = None,
    form: str | None = None,
    conduct_rate: float = 0.03,
) -> dict[str, Any]:
    """A random legal record.

    ``players`` 4-10 (random if None); ``options`` replaces the random house rules; ``hands`` caps the number of
    hands (random, up to 120, if None; the game may end sooner); ``form`` forces one entry form (cards, plays,
    scores); ``conduct_rate`` is the chance per player and hand of a warning or removal.
    """
    n = players if players is not None else rng.randint(4, 10)
    names = list(NAMES[:n])
    opts = dict(options) if options is not None else _random_options(rng)
    king = opts.get("king", 12)
    target = opts.get("target", 10)
    selfless = opts.get("selfless", False)
    joker = opts.get("joker", False)
    limit = hands if hands is not None else rng.choice([1, 3, 10, 40, 120])
    threshold = 2 if n == 4 else 3
    totals = dict.fromkeys(names, 0)
    removed: list[str] = []
    out: list[dict[str, Any]] = []
    while len(out) < limit:
        active = [p for p in names if p not in removed]
        conduct: list[dict[str, str]] = []
        removed_now: list[str] = []
        short: set[str] = set()
        for p in active:
            if rng.random() < conduct_rate:
                if rng.random() < 0.5 and len(removed) + len(removed_now) < threshold:
                    conduct.append({"player": p, "action": "remove"})
                    removed_now.append(p)
                else:
                    conduct.append({"player": p, "action": "warn"})
                short.add(p)
        deck = [r + s for s in "SHDC" for r in RANKS] + (["JK"] if joker else [])
        rng.shuffle(deck)
        held = {p: deck[5 * i : 5 * i + 5] for i, p in enumerate(active)}
        quota = {p: rng.randint(0, 5) if p in short else 5 for p in active}
        plays: list[dict[str, str]] = []
        start = rng.randrange(len(active))
        order = active[start:] + active[:start]
        for turn in range(5):
            for p in order:
                if turn >= quota[p]:
                    continue
                card = held[p][turn]
                if card == "JK":
                    card = rng.choice(["JK+", "JK-"])
                receivers = [q for q in active if not (selfless and q == p)]
                plays.append({"by": p, "to": rng.choice(receivers), "card": card})
        card_points = dict.fromkeys(names, 0)
        for play in plays:
            card_points[play["to"]] += _value(play["card"], king)
        kind = form or rng.choice(FORMS)
        hand: dict[str, Any]
        if kind == "plays":
            hand = {"plays": [dict(play, card=_spell(rng, play["card"])) for play in plays]}
        elif kind == "cards":
            lying: dict[str, list[str]] = {}
            for p in active:
                got = [_spell(rng, play["card"]) for play in plays if play["to"] == p]
                if got or rng.random() < 0.5:
                    lying[p] = got
            hand = {"cards": lying}
        else:
            hand = {
                "scores": {p: card_points[p] for p in active if p not in removed_now or rng.random() < 0.5},
            }
        if conduct:
            hand["conduct"] = conduct
        out.append(hand)
        ranked = [p for p in active if p not in removed_now]
        if ranked:
            ordered = sorted(ranked, key=lambda p: -card_points[p])
            top = card_points[ordered[0]]
            firsts = [p for p in ranked if card_points[p] == top]
            if len(firsts) == 2:
                for p in firsts:
                    totals[p] += 1
            elif len(firsts) == 1:
                totals[firsts[0]] += 1
                rest = [p for p in ranked if p != firsts[0]]
                if rest:
                    second = max(card_points[p] for p in rest)
                    seconds = [p for p in rest if card_points[p] == second]
                    if len(seconds) == 1:
                        totals[seconds[0]] += 1
        removed += removed_now
        if len(removed) >= threshold or max(totals.values()) >= target:
            break
    record: dict[str, Any] = {"game": "bargain-bin", "players": names, "hands": out}
    if opts or rng.random() < 0.5:
        record["options"] = opts
    return record
