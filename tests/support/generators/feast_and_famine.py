"""Random legal Feast and Famine records (raw JSON-like dicts), played out by simulating the real deal.

>>> import random
>>> from scoring.feast_and_famine import GAME
>>> record = random_record(random.Random(1), players=4, complete=True)
>>> len(record["hands"]), GAME.score(record).rounds_left
(8, 0)
"""

from __future__ import annotations

import random
from typing import Any

from scoring.cards import JOKER, Card, standard_deck

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def _value(card: Card) -> int:
    return min(card.rank_index, 10)


def simulate_round(
    rng: random.Random, seats: list[str], jokers: int, ghost: bool = False
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Play one round for ``seats`` (clockwise from the dealer's left, the dealer last; with ``ghost`` the Ghost
    deals and always Takes, and is left out of the result). Returns each player's cards and status."""
    order = [*seats, "<ghost>"] if ghost else list(seats)
    deck = standard_deck(jokers)
    rng.shuffle(deck)
    hands: dict[str, list[Card]] = {name: [] for name in order}
    for name in order:  # opening cards: a Joker is put aside and replaced (rule 5.1)
        put_aside = 0
        while deck[-1].is_joker:
            deck.pop()
            put_aside += 1
        hands[name].append(deck.pop())
        deck.extend([JOKER] * put_aside)
    rng.shuffle(deck)
    frozen: set[str] = set()
    greed = {name: rng.randint(5, 30) for name in order}
    out = False
    while not out and len(frozen) < len(order):
        for name in order:
            if name in frozen:
                continue
            total = sum(_value(card) for card in hands[name])
            takes = name == "<ghost>" or (total < greed[name] and rng.random() < 0.9)
            if not takes:
                frozen.add(name)
                continue
            card = deck.pop()
            if card.is_joker:
                out = True
                break
            hands[name].append(card)
            if not deck:  # cannot happen with at least one Joker (FF-6)
                break
    cards = {name: [str(card) for card in hands[name]] for name in seats}
    status = {name: "frozen" if name in frozen else "out" for name in seats}
    return cards, status


def _entry(
    rng: random.Random, seats: list[str], jokers: int, opening_counts: bool, form: str, ghost: bool = False
) -> dict[str, Any]:
    cards, status = simulate_round(rng, seats, jokers, ghost)
    use = form if form in ("cards", "outcome") else rng.choice(["cards", "outcome"])
    if use == "cards":
        # list the players in a random order: the record's maps are keyed by name
        names = list(seats)
        rng.shuffle(names)
        return {"cards": {n: cards[n] for n in names}, "status": {n: status[n] for n in names}}
    outcome: dict[str, Any] = {}
    for name in seats:
        held = [Card.parse(c) for c in cards[name]]
        counted = held if opening_counts else held[1:]
        outcome[name] = sum(_value(c) for c in counted) if status[name] == "frozen" else "out"
    return {"outcome": outcome}


def random_record(rng: random.Random, players: int | None = None, **kw: Any) -> dict[str, Any]:
    """A random legal record.

    Keywords: ``options`` (dict, else random house rules), ``complete`` (play every round; default random),
    ``hands`` (how many rounds to enter, capped at the game length), ``form`` ("cards", "outcome" or "mixed"),
    ``tie`` (force a tie for the lead at the end: True/False/None = random), ``tiebreak`` (play the tie-break when
    one is due; default random), ``long`` (many circuits).
    """
    n = players if players is not None else rng.randint(2, 8)
    names = NAMES[:n] if n <= len(NAMES) else [f"P{i + 1}" for i in range(n)]
    if "options" in kw:
        options: dict[str, Any] = dict(kw["options"])
    else:
        options = {}
        if rng.random() < 0.5:
            options["jokers"] = rng.randint(1, 4)
        if kw.get("long"):
            options["circuits"] = rng.randint(4, 10)
        elif rng.random() < 0.3:
            options["circuits"] = rng.randint(1, 3)
        if rng.random() < 0.3:
            options["opening_card_counts"] = rng.random() < 0.5
        if rng.random() < 0.3:
            options["all_out_nobody_left"] = rng.choice(["replay", "joint"])
    jokers = options.get("jokers", 2)
    opening_counts = options.get("opening_card_counts", True)
    circuits = options.get("circuits") or (3 if n <= 3 else 2 if n == 4 else 1)
    total = circuits * n
    complete = kw.get("complete", rng.random() < 0.6)
    count = total if complete else min(kw.get("hands", rng.randint(0, total)), total)
    form = kw.get("form", "mixed")
    hands: list[dict[str, Any]] = []
    dealer = 0
    for index in range(count):
        # the first dealer of each circuit is free; then the deal passes to the left (rule 4)
        dealer = rng.randrange(n) if index % n == 0 else (dealer + 1) % n
        seats = names[dealer + 1 :] + names[: dealer + 1]
        hands.append({"dealer": names[dealer], **_entry(rng, seats, jokers, opening_counts, form)})
    record: dict[str, Any] = {"game": "feast-and-famine", "players": names, "options": options, "hands": hands}
    if count < total or not hands:
        return record
    tie = kw.get("tie")
    if tie is None:
        tie = rng.random() < 0.4
    if tie:
        _force_tie(rng, record)
    totals = _totals(record, opening_counts)
    best = max(totals.values())
    tied = [name for name in names if totals[name] == best]
    if len(tied) < 2 or not kw.get("tiebreak", rng.random() < 0.8):
        return record
    rest = [name for name in names if name not in tied]
    rounds: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 4)):
        ghost = rng.choice([*rest, None]) if rest else None
        start = names.index(ghost) if ghost is not None else rng.randrange(n)
        seats = [name for name in names[start + 1 :] + names[: start + 1] if name in tied]
        entry = _entry(rng, seats, jokers, opening_counts, form, ghost=True)
        rounds.append({"ghost": ghost, **entry} if ghost is not None or rng.random() < 0.5 else entry)
        statuses = entry.get("status") or {k: "out" if v == "out" else "frozen" for k, v in entry["outcome"].items()}
        all_out = all(value == "out" for value in statuses.values())
        if not (all_out and not rest and options.get("all_out_nobody_left", "replay") == "replay"):
            break
    record["tiebreak"] = rounds[0] if len(rounds) == 1 and rng.random() < 0.5 else rounds
    return record


def _totals(record: dict[str, Any], opening_counts: bool) -> dict[str, int]:
    totals = dict.fromkeys(record["players"], 0)
    for hand in record["hands"]:
        if "outcome" in hand:
            for name, value in hand["outcome"].items():
                totals[name] += 0 if value == "out" else value
        else:
            for name, cards in hand["cards"].items():
                if hand["status"][name] == "frozen":
                    held = [Card.parse(c) for c in cards]
                    totals[name] += sum(_value(c) for c in (held if opening_counts else held[1:]))
    return totals


def _force_tie(rng: random.Random, record: dict[str, Any]) -> None:
    """Rewrite the last round as a quick outcome so that two or more players tie for the lead."""
    last = record["hands"][-1]
    record["hands"][-1] = {"dealer": last["dealer"], "outcome": dict.fromkeys(record["players"], "out")}
    before = _totals(record, record["options"].get("opening_card_counts", True))
    target = max(before.values()) + rng.randint(1, 30)
    eligible = [name for name in record["players"] if target - before[name] <= 340]
    if len(eligible) < 2:
        return
    outcome = record["hands"][-1]["outcome"]
    for name in rng.sample(eligible, rng.randint(2, len(eligible))):
        outcome[name] = target - before[name]
