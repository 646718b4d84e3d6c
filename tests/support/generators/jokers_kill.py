"""Random legal Jokers Kill records (raw JSON-like dicts) for property tests and benchmarks.

Every game is really dealt from one shuffled deck (52 cards plus the Jokers): one card to each player, then the
up-card (a Joker up-card is buried and redrawn under the "redraw" house rule), then tie-break deals for the players
still tied, until fewer than players + 1 cards remain or a hand is void. A tie for the most points at the end is
played off with a fresh deck for every play-off hand. The hand resolution here is an independent, deliberately plain
re-statement of rules 3-8 and JK-1 … JK-12; :func:`random_game` also returns what it decided, so tests can compare.

>>> import random
>>> record = random_record(random.Random(3), players=3)
>>> record["game"], len(record["players"]), len(record["hands"]) >= 1
('jokers-kill', 3, True)
"""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
BONUS = {"KH": 2, "JS": 1, "JH": 1, "JK": -1}


def _deck(jokers: int, rng: random.Random) -> list[str]:
    deck = [rank + suit for suit in SUITS for rank in RANKS] + ["JK"] * jokers
    rng.shuffle(deck)
    return deck


def _rank(card: str) -> str:
    return card[:-1]


def _low(card: str) -> int:
    """A player's card: Ace lowest."""
    return RANKS.index(_rank(card)) + 1


def _high(up: str) -> int:
    """The up-card: Ace above everything."""
    return 14 if _rank(up) == "A" else _low(up)


def random_options(rng: random.Random) -> dict[str, Any]:
    """Random house rules (some keys left out, so defaults are exercised)."""
    options: dict[str, Any] = {}
    if rng.random() < 0.6:
        options["jokers"] = rng.choice([0, 2, 4])
    if rng.random() < 0.3:
        options["upcard_to_prize"] = rng.random() < 0.5
    if rng.random() < 0.3:
        options["ace_upcard_matches_ace"] = rng.random() < 0.5
    if rng.random() < 0.4:
        options["joker_in_tiebreak"] = rng.choice(["dead", "drop"])
    if rng.random() < 0.4:
        options["joker_upcard"] = rng.choice(["dead", "redraw"])
    if rng.random() < 0.4:
        options["playoff_wins"] = rng.choice([1, 2, 3, 4])
    return options


def _messy(card: str, rng: random.Random) -> str:
    """The same card written the forgiving way sometimes (lower case, T for 10, suit symbols)."""
    roll = rng.random()
    if roll < 0.9:
        return card
    if card == "JK":
        return rng.choice(["jk", "Joker"])
    rank, suit = card[:-1], card[-1]
    if roll < 0.95:
        return (("t" if rank == "10" else rank.lower()) + suit.lower()).strip()
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]


def play_hand(
    names: list[str], deck: list[str], options: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Deal one hand from ``deck`` (cards are popped); returns the record hand and what it gave.

    The outcome is ``{"winner", "points", "dead", "void", "prize": {name: [cards]}}`` in canonical card text.
    """
    redraw = options.get("joker_upcard", "dead") == "redraw"
    drop = options.get("joker_in_tiebreak", "dead") == "drop"
    matches_ace = options.get("ace_upcard_matches_ace", True)
    to_prize = options.get("upcard_to_prize", True)
    cards = {name: deck.pop() for name in names}
    up = deck.pop()
    buried: list[str] = []
    while up == "JK" and redraw and deck:
        buried.append(up)
        up = deck.pop()
    hand: dict[str, Any] = {"up": _messy(up, rng), "cards": {n: _messy(c, rng) for n, c in cards.items()}}
    if buried:
        hand["buried"] = buried
    outcome: dict[str, Any] = {"winner": None, "points": 0, "dead": False, "void": False, "prize": {}}
    jokered = [n for n in names if cards[n] == "JK"]
    if jokered or up == "JK":
        outcome["dead"] = True
        outcome["prize"] = {n: ["JK"] for n in jokered}
        return hand, outcome

    def is_match(card: str) -> bool:
        if _rank(card) != _rank(up):
            return False
        return _rank(up) != "A" or matches_ace

    collected = ([up] if to_prize else []) + [cards[n] for n in names]
    matchers = [n for n in names if is_match(cards[n])]
    tied: list[str] = []
    if len(matchers) == 1:
        outcome["winner"], outcome["points"] = matchers[0], 3
    elif matchers:
        tied = matchers
    else:
        low = min(_low(cards[n]) for n in names)
        lowest = [n for n in names if _low(cards[n]) == low]
        if len(lowest) == 1:
            outcome["winner"] = lowest[0]
            outcome["points"] = 2 if low < _high(up) else 1
        else:
            tied = lowest
    deals: list[dict[str, str]] = []
    jokers_to: dict[str, list[str]] = {}
    while tied:
        if len(deck) < len(tied):
            outcome["void"] = True
            hand["void"] = True
            break
        deal = {n: deck.pop() for n in tied}
        deals.append({n: _messy(c, rng) for n, c in deal.items()})
        got_joker = [n for n in tied if deal[n] == "JK"]
        for n in got_joker:
            jokers_to.setdefault(n, []).append("JK")
        collected += [deal[n] for n in tied if deal[n] != "JK"]
        if got_joker:
            if not drop or len(got_joker) == len(tied):
                outcome["dead"] = True
                tied = []
                break
            tied = [n for n in tied if n not in got_joker]
            if len(tied) == 1:
                outcome["winner"], outcome["points"] = tied[0], 3
                break
        low = min(_low(deal[n]) for n in tied)
        lowest = [n for n in tied if _low(deal[n]) == low]
        if len(lowest) == 1:
            outcome["winner"], outcome["points"] = lowest[0], 3
            break
        tied = lowest
    if deals:
        hand["tiebreaks"] = deals
    prize = {n: list(p) for n, p in jokers_to.items()}
    if outcome["winner"] is not None:
        prize.setdefault(outcome["winner"], []).extend(collected)
    outcome["prize"] = prize
    return hand, outcome


def random_game(
    rng: random.Random,
    players: int | None = None,
    *,
    options: dict[str, Any] | None = None,
    complete: bool | None = None,
    playoff: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random legal record and what the plain simulation decided:
    ``{"hands": [outcome, ...], "prize", "totals", "over", "tied", "playoff": [outcome, ...], "champion"}``.

    ``complete`` False stops after a random number of hands (a game in progress); None picks at random.
    """
    count = players if players is not None else rng.choice([2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 12])
    names = list(NAMES[:count])
    opts = random_options(rng) if options is None else dict(options)
    jokers = opts.get("jokers", 0)
    wins_needed = opts.get("playoff_wins", 3)
    if complete is None:
        complete = rng.random() < 0.7
    stop_after = None if complete else rng.randint(0, 60 // (count + 1))
    deck = _deck(jokers, rng)
    hands: list[dict[str, Any]] = []
    outcomes: list[dict[str, Any]] = []
    over = False
    while not over and (stop_after is None or len(hands) < stop_after):
        hand, outcome = play_hand(names, deck, opts, rng)
        hands.append(hand)
        outcomes.append(outcome)
        over = outcome["void"] or len(deck) < count + 1
    prize: dict[str, list[str]] = {n: [] for n in names}
    points = dict.fromkeys(names, 0)
    for outcome in outcomes:
        for n, pile in outcome["prize"].items():
            prize[n].extend(pile)
        if outcome["winner"] is not None:
            points[outcome["winner"]] += outcome["points"]
    totals = {n: points[n] + sum(BONUS.get(c, 0) for c in prize[n]) for n in names}
    record: dict[str, Any] = {"game": "jokers-kill", "players": names, "options": opts, "hands": hands}
    expected: dict[str, Any] = {
        "hands": outcomes,
        "prize": prize,
        "totals": totals,
        "over": over,
        "tied": [],
        "playoff": [],
        "champion": None,
    }
    if over:
        best = max(totals.values())
        leaders = [n for n in names if totals[n] == best]
        if len(leaders) == 1:
            expected["champion"] = leaders[0]
        else:
            expected["tied"] = leaders
            wins = dict.fromkeys(leaders, 0)
            stop = None if (playoff and rng.random() < 0.8) else rng.randint(0, wins_needed)
            played: list[dict[str, Any]] = []
            while max(wins.values()) < wins_needed and len(played) < 200:
                if stop is not None and len(played) >= stop:
                    break
                hand, outcome = play_hand(leaders, _deck(jokers, rng), opts, rng)
                played.append(hand)
                expected["playoff"].append(outcome)
                if outcome["winner"] is not None:
                    wins[outcome["winner"]] += 1
            if played:
                record["playoff"] = played
            if max(wins.values()) >= wins_needed:
                expected["champion"] = max(leaders, key=lambda n: wins[n])
            expected["playoff_wins"] = wins
    return record, expected


def random_record(rng: random.Random, players: int | None = None, **kw: Any) -> dict[str, Any]:
    """A random legal record (see :func:`random_game` for the keywords); long games included."""
    return random_game(rng, players, **kw)[0]
