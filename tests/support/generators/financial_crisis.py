"""Random legal Financial Crisis records (raw JSON-like dicts) for property tests and benchmarks.

Each round is dealt from a shuffled 52-card deck: five face-down bank cards, twenty face-up bank cards, and 27
cards laid out three at a time. All 27 laid-out cards end in piles (BK-18) and so do the face-up bank cards they
captured (a random share of the twenty); the rest of the face-up bank cards are discarded. The laid-out triples go
round the table, so pile sizes are uneven like at a real table. Sometimes the table overrides the bank's reading.

>>> import random
>>> record = random_record(random.Random(3), players=3)
>>> record["game"], len(record["players"]), len(record["hands"]) <= 3
('financial-crisis', 3, True)
>>> long = random_record(random.Random(3), players=4, rounds=60, hands=60)
>>> len(long["hands"]), long["options"]["rounds"]
(60, 60)
"""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(rank + suit for suit in "SHDC" for rank in RANKS)
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "ace": ("high", "one"),
    "straights": ("disjoint", "distinct"),
    "ace_in_straights": ("high", "low", "both"),
    "worthless_ranked_in_rest": (True, False),
    "ranked_loss_when_not_valuable": (0, -1),
    "most_rest_tie": ("nobody", "all"),
    "clubs_tie_for_most": ("set-aside", "reverse"),
    "one_club_two_two": ("both", "absent"),
}


def _spell(rng: random.Random, card: str) -> str:
    """Card text, sometimes in a forgiving spelling (lower case, T for 10, suit symbols)."""
    roll = rng.random()
    if roll < 0.85:
        return card
    if roll < 0.9:
        return card.lower()
    if roll < 0.95 and card.startswith("10"):
        return "T" + card[2:]
    return card[:-1] + SYMBOLS[card[-1]]


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """A random set of house rules (each key present about half the time)."""
    options: dict[str, Any] = {}
    for key, choices in OPTION_CHOICES.items():
        if rng.random() < 0.5:
            options[key] = rng.choice(choices)
    if rng.random() < 0.3:
        options["rounds"] = rng.randint(1, 6)
    if players > 4 or rng.random() < 0.2:
        options["max_players"] = rng.randint(max(players, 4), 9)
    return options


def random_hand(rng: random.Random, players: list[str], spell: bool = True) -> dict[str, Any]:
    """One legal round: the five face-down bank cards and every pile."""
    deck = list(DECK)
    rng.shuffle(deck)
    bank, face_up, laid_out = deck[:5], deck[5:25], deck[25:]
    captured = rng.sample(face_up, rng.randint(0, len(face_up)))
    piles: dict[str, list[str]] = {name: [] for name in players}
    seat = rng.randrange(len(players))
    for start in range(0, 27, 3):
        triple = laid_out[start : start + 3]
        chooser, receiver = players[seat], players[(seat + 1) % len(players)]
        piles[chooser].append(triple[0])
        piles[receiver].extend(triple[1:])
        seat = (seat + 1) % len(players)
    for card in captured:
        piles[rng.choice(players)].append(card)
    for pile in piles.values():
        rng.shuffle(pile)
    write = (lambda c: _spell(rng, c)) if spell else (lambda c: c)
    hand: dict[str, Any] = {
        "bank": [write(card) for card in bank],
        "piles": {name: [write(card) for card in pile] for name, pile in piles.items() if pile or rng.random() < 0.7},
    }
    if rng.random() < 0.1:
        override: dict[str, Any] = {}
        if rng.random() < 0.7:
            override["loss_suits"] = rng.sample(["S", "H", "D"], rng.randint(0, 3))
        if rng.random() < 0.7:
            override["ranked_valuable"] = rng.random() < 0.5
        hand["override"] = override
    return hand


def random_record(rng: random.Random, players: int | None = None, **kw: Any) -> dict[str, Any]:
    """A random legal record. Keywords: ``options`` (merged over random ones), ``rounds`` (sets the option),
    ``hands`` (how many rounds to enter, at most the game's length; default random), ``spell`` (forgiving card text,
    default True)."""
    count = players if players is not None else rng.randint(2, 6)
    names = list(NAMES[:count])
    options = random_options(rng, count)
    options.update(kw.get("options", {}))
    if "rounds" in kw:
        options["rounds"] = kw["rounds"]
    rounds = options.get("rounds", count)
    entered = kw.get("hands", rng.randint(0, rounds))
    entered = min(entered, rounds)
    spell = kw.get("spell", True)
    return {
        "game": "financial-crisis",
        "players": names,
        "options": options,
        "hands": [random_hand(rng, names, spell) for _ in range(entered)],
    }
