"""Random legal 1111-9999 records (raw JSON-like dicts) for property tests and benchmarks.

Cards are really dealt from a 36-card deck (four of each digit 1-9), so every hand is legal; the game stops when a
total reaches the target, and a tie for the lowest total is played out in sudden death. The scoring here is an
independent, deliberately plain re-statement of rules 4-5 (it only decides when to stop dealing).

>>> import random
>>> record = random_record(random.Random(7), players=3)
>>> record["game"], len(record["players"]), sorted(record["sides"]) == sorted(record["players"])
('1111-9999', 3, True)
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
DIGITS = "123456789"


def _target(players: int) -> int:
    return 7500 if players == 2 else 7000 if players <= 4 else 6500 if players <= 6 else 6000


def _deck(rng: random.Random) -> list[str]:
    deck = [d for d in DIGITS for _ in range(4)]
    rng.shuffle(deck)
    return deck


def _dist(number: str, target: str) -> int:
    return abs(int(number) - int(target))


def _best(digits: str, target: str) -> str:
    return min(("".join(p) for p in permutations(digits)), key=lambda n: (_dist(n, target), n))


def _triple(number: str) -> bool:
    return max(Counter(number).values()) >= 3


def _arrange(rng: random.Random, digits: list[str], target: str) -> str:
    if rng.random() < 0.5:
        return _best("".join(digits), target)
    shuffled = digits[:]
    rng.shuffle(shuffled)
    return "".join(shuffled)


def _deal_pair(rng: random.Random, deck: list[str], size: int) -> list[str]:
    """``size`` digits that can be dealt twice from ``deck`` (removed twice)."""
    counts = Counter(deck)
    candidates = [d for d in DIGITS for _ in range(counts[d] // 2)]
    chosen = rng.sample(candidates, size)
    for d in chosen:
        deck.remove(d)
        deck.remove(d)
    return chosen


def _play(
    rng: random.Random,
    names: list[str],
    sides: dict[str, str],
    length: int,
    mode: str,
    penalty: int,
    triple_rule: bool,
    pair: tuple[str, str] | None,
) -> tuple[dict[str, Any], dict[str, int]]:
    """Deal and play one hand; returns the raw hand and the points it gives."""
    deck = _deck(rng)
    table = "".join(deck.pop() for _ in range(length))
    held: dict[str, list[str]] = {}
    if pair is not None:
        digits = _deal_pair(rng, deck, length)
        held[pair[0]] = held[pair[1]] = digits
    for name in names:
        if name not in held:
            held[name] = [deck.pop() for _ in range(length)]
    numbers: dict[str, str] = {}
    for name in names:
        target = table if sides[name] == "A" else table[::-1]
        if pair is not None and name == pair[1]:
            numbers[name] = numbers[pair[0]]
        else:
            numbers[name] = _arrange(rng, held[name], target)
    hand: dict[str, Any] = {"table": table, "numbers": dict(numbers)}
    holders = [name for name in names if _triple(numbers[name])]
    first = rng.choice(holders) if holders and triple_rule and rng.random() < 0.75 else None
    if first is not None:
        hand["first_triple"] = first
        if rng.random() < 0.3:
            del hand["numbers"][first]
    points: dict[str, int] = {}
    for name in names:
        target = table if sides[name] == "A" else table[::-1]
        base = _dist(_best(numbers[name], target), target) if mode == "best" else _dist(numbers[name], target)
        if name == first:
            base = 0
        elif first is not None and name in holders:
            base += penalty
        points[name] = base
    return hand, points


def random_record(
    rng: random.Random,
    players: int | None = None,
    *,
    max_hands: int | None = None,
    long: bool = False,
    tie: bool | None = None,
    sudden_death: bool | None = None,
    max_sudden_death: int = 8,
) -> dict[str, Any]:
    """A random legal record: ``players`` (2-8, random if None), hands until the target is reached or ``max_hands``
    (random if None, so some games are still running).

        ``long``: a high target and up to 300 hands. ``tie``: the first two players sit on the same side and always get
        the same cards (so the game usually ends in a tie and sudden death, which itself may repeat). ``sudden_death``:
        play out a tie (else the record ends with sudden death pending; random if None).
    """
    if max_hands is None:
        max_hands = rng.choice([rng.randint(0, 6), 60])
    if sudden_death is None:
        sudden_death = rng.random() < 0.85
    count = players if players is not None else rng.randint(2, 8)
    names = list(NAMES[:count])
    if tie is None:
        tie = rng.random() < 0.3
    sides = {name: rng.choice("AB") for name in names}
    pair = (names[0], names[1]) if tie else None
    if pair is not None:
        sides[pair[1]] = sides[pair[0]]
    options: dict[str, Any] = {}
    target = _target(count)
    if long:
        target = rng.randint(200_000, 1_000_000)
        options["target"] = target
        max_hands = 300
    elif rng.random() < 0.3:
        target = rng.randint(1, 9000)
        options["target"] = target
    mode = rng.choice(["as-declared", "best"])
    if mode == "best" or rng.random() < 0.3:
        options["score"] = mode
    penalty = 250
    if rng.random() < 0.3:
        penalty = rng.randint(0, 1000)
        options["triple_penalty"] = penalty
    sd_rule = rng.random() < 0.7
    if not sd_rule or rng.random() < 0.3:
        options["triple_rule_in_sudden_death"] = sd_rule
    record: dict[str, Any] = {"game": "1111-9999", "players": names, "sides": sides}
    if options or rng.random() < 0.5:
        record["options"] = options
    hands: list[dict[str, Any]] = []
    totals = dict.fromkeys(names, 0)
    for _ in range(max_hands):
        hand, points = _play(rng, names, sides, 4, mode, penalty, True, pair)
        hands.append(hand)
        for name in names:
            totals[name] += points[name]
        if max(totals.values()) >= target:
            break
    record["hands"] = hands
    if max(totals.values()) < target or not sudden_death:
        return record
    low = min(totals.values())
    tied = [name for name in names if totals[name] == low]
    rounds: list[dict[str, Any]] = []
    while len(tied) > 1 and len(rounds) < max_sudden_death:
        sd_pair = (tied[0], tied[1]) if tie and rng.random() < 0.5 else None
        hand, points = _play(rng, tied, sides, 3, mode, penalty, sd_rule, sd_pair)
        rounds.append(hand)
        low = min(points.values())
        tied = [name for name in tied if points[name] == low]
    if rounds:
        record["sudden_death"] = rounds
    return record
