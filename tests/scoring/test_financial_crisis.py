"""Financial Crisis: the bank reading for all 56 suit patterns, every ruling and option, the table helpers, and
properties of random legal and malformed records."""

from __future__ import annotations

import copy
import functools
import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import find_game
from scoring.cards import RANKS, Card, Suit, standard_deck
from scoring.errors import (
    DuplicateCardError,
    IllegalHandError,
    InvalidCardError,
    InvalidRecordError,
    ScoringError,
    UnknownPlayerError,
)
from scoring.financial_crisis import (
    GAME,
    PATTERNS,
    BankReading,
    CardRole,
    Options,
    Override,
    Record,
    apply_override,
    best_straights,
    breakdown,
    can_add_card,
    can_add_round,
    can_bank,
    card_role,
    legal_cards,
    loss_suits_for,
    most_rest_points,
    read_bank,
    score_pile,
    verify_add_card,
    verify_add_round,
    verify_bank,
)
from tests.conftest import ROOT, RULES
from tests.support.generators.financial_crisis import random_record
from tests.support.records import json_paths

SYMBOL_SUIT = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS}
NUMERALS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


def record(hands: list[dict[str, Any]], players: tuple[str, ...] = ("Ann", "Ben"), **options: Any) -> dict[str, Any]:
    return {"game": "financial-crisis", "players": list(players), "options": options, "hands": hands}


def play(hands: list[dict[str, Any]], players: tuple[str, ...] = ("Ann", "Ben"), **options: Any) -> dict[str, Any]:
    return GAME.score(record(hands, players, **options)).to_json()


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


# ------------------------------------------------------------------------------------- the 56 bank patterns (§3.3)


PATTERN_TABLE = ROOT / "tests" / "fixtures" / "scoring" / "financial-crisis-bank-patterns.md"
"""The 56-row table of rules §3.3, kept in the repository."""


def _pattern_rows(table: Path = PATTERN_TABLE) -> list[tuple[int, dict[Suit, int], set[Suit], set[Suit], str]]:
    """The 56-row table of rules §3.3: number, counts, default (reading A), reading B, status."""
    rows = []
    text = table.read_text(encoding="utf-8")
    for line in text.splitlines():
        match = re.match(r"^\| (\d+) \| (\d) \| (\d) \| (\d) \| (\d) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", line)
        if not match:
            continue
        number, c, s, h, d = (int(match.group(i)) for i in range(1, 6))
        counts = {Suit.CLUBS: c, Suit.SPADES: s, Suit.HEARTS: h, Suit.DIAMONDS: d}
        default = {SYMBOL_SUIT[ch] for ch in match.group(6) if ch in SYMBOL_SUIT}
        alt = match.group(7).strip()
        reading_b = default if alt == "same" else {SYMBOL_SUIT[ch] for ch in alt if ch in SYMBOL_SUIT}
        rows.append((number, counts, default, reading_b, match.group(8).strip()))
    return rows


PATTERN_ROWS = _pattern_rows()


def bank_for(counts: dict[Suit, int]) -> list[str]:
    """Five numeral bank cards with these suit counts (numerals, so ranked cards are never valuable)."""
    return [f"{NUMERALS[i]}{suit.value}" for suit, n in counts.items() for i in range(n)]


def test_the_rules_table_has_all_56_compositions() -> None:
    assert len(PATTERN_ROWS) == 56
    assert sorted(row[0] for row in PATTERN_ROWS) == list(range(1, 57))
    compositions = {tuple(row[1].values()) for row in PATTERN_ROWS}
    assert len(compositions) == 56 and all(sum(c) == 5 for c in compositions)


def test_the_repository_table_is_the_rules_table() -> None:
    """When the rules files are beside the project, the repository's copy of §3.3 says the same."""
    rules = RULES / "financial-crisis.md"
    if not rules.is_file():
        pytest.skip(f"no rules file at {rules}: the repository's copy is the reference")
    assert _pattern_rows(rules) == PATTERN_ROWS


def test_pattern_table_covers_all_16_classes() -> None:
    assert sorted(int(cls[1:]) for cls, _ in PATTERNS.values()) == list(range(1, 17))


@pytest.mark.parametrize("row", PATTERN_ROWS, ids=lambda row: f"#{row[0]}")
def test_bk_12_bank_pattern_default_and_alternatives(
    row: tuple[int, dict[Suit, int], set[Suit], set[Suit], str],
) -> None:
    """Each of the 56 compositions against the rules table: reading A by default, reading B under
    ``clubs_tie_for_most`` "reverse", and the absent suit for 1♣ 2X 2Y under ``one_club_two_two`` "absent"."""
    _number, counts, default, reading_b, status = row
    bank = bank_for(counts)
    assert set(read_bank(bank).loss_suits) == default
    assert set(read_bank(bank, Options(clubs_tie_for_most="reverse")).loss_suits) == reading_b
    absent_alt = "the absent suit loses" in status
    expected_absent = {s for s in SYMBOL_SUIT.values() if counts[s] == 0} if absent_alt else default
    assert set(read_bank(bank, Options(one_club_two_two="absent")).loss_suits) == expected_absent
    both = Options(clubs_tie_for_most="reverse", one_club_two_two="absent")
    assert set(read_bank(bank, both).loss_suits) == (expected_absent if absent_alt else reading_b)
    reading = read_bank(bank)
    assert "BK-12" in reading.loss_reason
    assert Suit.CLUBS not in reading.loss_suits
    assert list(reading.loss_suits) == sorted(reading.loss_suits, key=[Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS].index)


def test_bk_12_bank_reason_texts() -> None:
    assert read_bank(["2S", "3S", "2H", "3H", "2D"]).loss_reason == "2♠ 2♥ 1♦: the tie reverses, ♦ loses (BK-12)."
    assert "no suit loses" in read_bank(["2C", "5C", "9C", "JC", "QC"]).loss_reason
    three = read_bank(["2C", "3C", "2S", "2H", "2D"])
    assert three.loss_letters == ["S", "H", "D"] and "all three lose" in three.loss_reason
    absent = read_bank(["2C", "2S", "3S", "2H", "3H"], Options(one_club_two_two="absent"))
    assert absent.loss_letters == ["D"] and "house rule" in absent.loss_reason
    assert "house rule" in read_bank(["2C", "7C", "KS", "4S", "6H"], Options(clubs_tie_for_most="reverse")).reason


def test_loss_suits_for_rejects_counts_that_are_not_five_cards() -> None:
    with pytest.raises(InvalidRecordError):
        loss_suits_for({Suit.CLUBS: 2, Suit.SPADES: 2})


# ----------------------------------------------------------------------------------- BK-13 and BK-1: ranked cards


@pytest.mark.parametrize(
    ("bank", "ace", "valuable"),
    [
        (["KS", "4H", "AD", "7S", "2C"], "high", True),  # BK-E6
        (["JS", "3S", "5H", "9D", "2D"], "high", False),  # BK-E7: one ranked card
        (["2C", "5C", "9C", "JC", "QC"], "high", True),  # BK-E11: ranked clubs count
        (["4H", "5H", "6H", "KC", "AS"], "high", True),
        (["4H", "5H", "6H", "KC", "AS"], "one", False),  # BK-E10: Ace = 1 is not ranked
        (["2H", "3H", "4H", "5C", "6D"], "high", False),
    ],
)
def test_bk_13_ranked_valuable_needs_two_ranked_bank_cards(bank: list[str], ace: str, valuable: bool) -> None:
    reading = read_bank(bank, Options(ace=ace))
    assert reading.ranked_valuable is valuable
    assert "BK-13" in reading.valuable_reason


def test_bk_1_ace_one_house_rule() -> None:
    """BK-1 HR: A♣ +1, a non-club Ace is a numeral (−1 in a loss suit, never +3)."""
    reading = read_bank(["2H", "3H", "4H", "KC", "QS"], Options(ace="one"))  # ♥ loses, valuable
    one = Options(ace="one")
    assert card_role(Card.parse("AC"), reading, one) is CardRole.CLUB
    assert card_role(Card.parse("AH"), reading, one) is CardRole.LOSS
    assert card_role(Card.parse("AS"), reading, one) is CardRole.REST
    assert card_role(Card.parse("AS"), reading) is CardRole.VALUABLE
    assert card_role(Card.parse("AC"), reading) is CardRole.RANKED_CLUB


# ------------------------------------------------------------------------------------------ rules 8: card values


def test_seed_example_bk_e4() -> None:
    reading = read_bank(["2H", "5H", "JS", "QD", "7C"])
    pile = score_pile(cards("4C QC 3S 10S KS 9H QH 8D 9D"), reading)
    assert (pile.clubs, pile.ranked, pile.losses, pile.straights.points, pile.total) == (3, 3, -1, 1, 6)
    assert set(pile.rest) == set(cards("3S 10S 8D 9D QH"))  # Q♥ is in the rest (errata of §5)


def test_ranked_clubs_always_two_bk2_bk3() -> None:
    for bank in (["JS", "QS", "2H", "3H", "4H"], ["2S", "3S", "2H", "3H", "4H"]):
        reading = read_bank(bank)
        assert score_pile(["JC", "QC", "KC", "AC"], reading).clubs == 8
        assert score_pile(["2C", "10C"], reading).clubs == 2


def test_ranked_loss_card_bk4() -> None:
    valuable = apply_override(read_bank(["2H", "3H", "4H", "5S", "6S"]), Override(ranked_valuable=True))
    worthless = read_bank(["2H", "3H", "4H", "5S", "6S"])
    minus = Options(ranked_loss_when_not_valuable=-1)
    # default: 0 and into the rest, valuable or not
    for reading in (valuable, worthless):
        pile = score_pile(["KH"], reading)
        assert pile.total == 0 and pile.rest == (Card.parse("KH"),)
    # house rule: −1 and out of the rest, only when ranked cards are not valuable
    pile = score_pile(["KH"], worthless, minus)
    assert pile.losses == -1 and pile.rest == ()
    pile = score_pile(["KH"], valuable, minus)
    assert pile.losses == 0 and pile.rest == (Card.parse("KH"),)


def test_worthless_ranked_cards_bk5_bk_e7() -> None:
    reading = read_bank(["JS", "3S", "5H", "9D", "2D"])
    pile = cards("KD QS 5C AC 7H JH 4D 5S 6S")
    assert score_pile(pile, reading).total == 4
    out = score_pile(pile, reading, Options(worthless_ranked_in_rest=False))
    assert out.total == 3 and set(out.rest) == set(cards("JH 4D 5S 6S"))


def test_loss_numerals_are_not_in_the_rest_bk6() -> None:
    reading = read_bank(["2S", "3S", "4S", "5H", "6D"])  # ♠ loses
    pile = score_pile(["7S", "8S", "9S"], reading)
    assert pile.losses == -3 and pile.rest == () and pile.straights.points == 0


def test_five_clubs_bk_e11() -> None:
    reading = read_bank(["2C", "5C", "9C", "JC", "QC"])
    assert reading.loss_suits == () and reading.ranked_valuable
    pile = score_pile(cards("AS KS QH JD 2S 3H"), reading)
    assert pile.ranked == 12 and pile.losses == 0


def test_two_loss_suits_bk_e8() -> None:
    reading = read_bank(["3C", "8C", "QC", "5S", "9H"])
    parts = breakdown({"P1": cards("2C KS QD 7D 8D"), "P2": cards("AC 4S 6H JH 9D 10D 5D")}, reading)
    assert {name: p.total for name, p in parts.items()} == {"P1": 1, "P2": 1}
    assert parts["P2"].straights == 1  # 9♦ 10♦ J♥


# ------------------------------------------------------------------------------------------- rule 9: straights


@pytest.mark.parametrize(
    ("rest", "points"),
    [
        ("8D 9D 10S", 1),  # BK-E5
        ("3S 4H 5D 6C", 2),
        ("3S 4H 5D 6C 7S", 3),
        ("3S 4S 5S 6S 7S 8S", 4),  # one 6-run, not two 3-runs (BK-7)
        ("8S 8D 9D 9S 10D 10S", 2),  # BK-E9, BK-8
        ("3S 4D 5S 5D 6S 7D", 3),
        ("9S 10S JH", 1),  # BK-10
        ("JH QS KD", 1),
        ("QH KH AH", 1),  # BK-9: Ace high
        ("AD 2D 3S", 0),
        ("KS AS 2S", 0),  # never wrap
        ("2S 3S", 0),
        ("", 0),
    ],
)
def test_best_straights_default(rest: str, points: int) -> None:
    assert best_straights(rest.split()).points == points


def test_best_straights_options() -> None:
    distinct = Options(straights="distinct")
    assert best_straights(["8S", "8D", "9D", "9S", "10D", "10S"], distinct).points == 1
    assert best_straights(["3S", "4D", "5S", "5D", "6S", "7D"], distinct).points == 3
    low, both = Options(ace_in_straights="low"), Options(ace_in_straights="both")
    assert best_straights(["QH", "KH", "AH"], low).points == 0
    assert best_straights(["AD", "2D", "3S"], low).points == 1
    assert best_straights(["AD", "2D", "3S", "QH", "KH", "AH"], both).points == 2  # one Ace low, the other high
    assert best_straights(["AD", "2D", "3S", "QH", "KH"], both).points == 1  # one Ace is never both ends
    assert (
        best_straights(
            ["AD", "AS", "2D", "3S", "QH", "KH"], Options(straights="distinct", ace_in_straights="both")
        ).points
        == 1
    )
    assert best_straights(["KS", "AS", "2S"], both).points == 0  # never wrap


def test_best_straights_groups_are_drawable() -> None:
    result = best_straights(["8S", "8D", "9D", "9S", "10D", "10S"])
    assert [[c.rank for c in group] for group in result.groups] == [["8", "9", "10"], ["8", "9", "10"]]
    assert result.to_json() == [[str(c) for c in g] for g in result.groups]
    assert best_straights(["AD", "2D", "3S"], Options(ace_in_straights="both")).to_json() == [["AD", "2D", "3S"]]


def test_best_straights_rejects_duplicates_and_jokers() -> None:
    with pytest.raises(DuplicateCardError):
        best_straights(["8S", "8s"])
    with pytest.raises(InvalidCardError):
        best_straights(["JK"])


def _position_choices(card: Card, options: Options) -> tuple[int, ...]:
    if card.rank != "A":
        return (RANKS.index(card.rank) + 1,)
    return {"high": (14,), "low": (1,), "both": (1, 14)}[options.ace_in_straights.value]


@functools.cache
def _oracle(counts: tuple[int, ...]) -> int:
    """Brute force: the lowest remaining card is either unused or starts a run of some length."""
    p = next((i for i, c in enumerate(counts) if c), None)
    if p is None:
        return 0
    rest = list(counts)
    rest[p] -= 1
    best = _oracle(tuple(rest))
    rest[p] += 1
    length = 0
    while p + length < len(counts) and counts[p + length]:
        length += 1
        if length >= 3:
            used = list(counts)
            for q in range(p, p + length):
                used[q] -= 1
            best = max(best, length - 2 + _oracle(tuple(used)))
    return best


def oracle_points(rest: list[Card], options: Options) -> int:
    """The best straight points by brute force over every place each Ace may take."""
    if options.straights.value == "distinct":
        keep: dict[str, Card] = {}
        for card in rest:
            keep.setdefault(card.rank, card)
        rest = list(keep.values())
    aces = [c for c in rest if c.rank == "A"]
    base = [0] * 15
    for card in rest:
        if card.rank != "A":
            base[_position_choices(card, options)[0]] += 1
    best = 0
    for places in itertools.product(*(_position_choices(ace, options) for ace in aces)):
        counts = list(base)
        for place in places:
            counts[place] += 1
        best = max(best, _oracle(tuple(counts)))
    return best


DECK = standard_deck()
OPTION_STRATEGY = st.builds(
    Options,
    straights=st.sampled_from(["disjoint", "distinct"]),
    ace_in_straights=st.sampled_from(["high", "low", "both"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=16), OPTION_STRATEGY)
def test_best_straights_is_optimal_and_drawable(rest: list[Card], options: Options) -> None:
    result = best_straights(rest, options)
    assert result.points == oracle_points(rest, options)
    assert result.points == sum(len(group) - 2 for group in result.groups)
    used = [card for group in result.groups for card in group]
    assert len(used) == len(set(used)), "a card appears in two straight groups"
    assert set(used) <= set(rest)
    for group in result.groups:
        assert len(group) >= 3
        assert _is_run(group, options)
    if options.straights.value == "distinct":
        assert len({c.rank for c in used}) == len(used)


def _is_run(group: tuple[Card, ...], options: Options) -> bool:
    """Consecutive ranks low to high, with the Ace at an end it may take."""
    positions = []
    for i, card in enumerate(group):
        choices = _position_choices(card, options)
        if len(choices) == 2:
            positions.append(1 if i == 0 else 14)
        else:
            positions.append(choices[0])
    return positions == list(range(positions[0], positions[0] + len(group)))


# ------------------------------------------------------------------------------------------ BK-11: most rest


def test_most_rest_point_bk11() -> None:
    assert most_rest_points({"A": 5, "B": 4}) == {"A": 1, "B": 0}
    assert most_rest_points({"A": 5, "B": 5}) == {"A": 0, "B": 0}
    assert most_rest_points({"A": 0, "B": 0}, Options(most_rest_tie="all")) == {"A": 0, "B": 0}
    assert most_rest_points({"A": 0, "B": 0}) == {"A": 0, "B": 0}
    assert most_rest_points({"A": 3, "B": 3, "C": 1}, Options(most_rest_tie="all")) == {"A": 1, "B": 1, "C": 0}


def test_complete_round_bk_e6_breakdown_and_notes() -> None:
    hand = {
        "bank": ["KS", "4H", "AD", "7S", "2C"],
        "piles": {
            "Ann": ["5C", "JC", "QH", "9S", "10D", "JD", "3S", "2H", "7H", "8H", "9H"],
            "Ben": ["KC", "AH", "8S", "6D", "7D", "8D", "QS", "4S", "4D", "2S"],
            "Cat": ["AC", "3C", "KD", "QD", "10S", "JS", "5H", "6H", "3D"],
        },
    }
    result = play([hand], ("Ann", "Ben", "Cat"))
    assert result["hands"][0]["points"] == {"Ann": 9, "Ben": 3, "Cat": 8}
    notes = result["hands"][0]["notes"]
    assert any("share the most cards in the rest (5): nobody gets the point (BK-11)" in n for n in notes)
    assert any("9♠ 3♠ −1 each" in n and "BK-6" in n for n in notes)
    assert any("Q♠ scores 0 and goes into the rest" in n and "BK-4" in n for n in notes)
    assert all(re.search(r"BK-\d+", note) for note in notes), notes
    assert result["hands"][0]["straights"]["Ann"] == [["7H", "8H", "9H", "10D"]]
    assert result["hands"][0]["rest_cards"]["Cat"] == ["JS", "5H", "6H", "3D"]
    tied_all = play([hand], ("Ann", "Ben", "Cat"), most_rest_tie="all")
    assert tied_all["hands"][0]["points"] == {"Ann": 10, "Ben": 4, "Cat": 8}


# ---------------------------------------------------------------------------------- BK-14, BK-15: game length


BANK = ["2H", "5H", "JS", "QD", "7C"]


def test_bk_14_rounds_finished_and_winners() -> None:
    one = {"bank": BANK, "piles": {"Ann": ["2C"]}}
    other = {"bank": BANK, "piles": {"Ben": ["2C"]}}
    result = play([one])
    assert not result["finished"] and result["winners"] == [] and result["pending"] is None
    result = play([one, one])
    assert result["finished"] and result["winners"] == ["Ann"] and result["totals"] == {"Ann": 2, "Ben": 0}
    joint = play([one, other])
    assert joint["finished"] and joint["winners"] == ["Ann", "Ben"]
    assert "joint winners (BK-14)" in joint["hands"][-1]["notes"][-1]
    assert play([one], rounds=1)["finished"]
    assert play([], rounds=1)["finished"] is False


def test_round_after_the_end_is_refused() -> None:
    one = {"bank": BANK}
    with pytest.raises(IllegalHandError) as info:
        GAME.score(record([one, one, one]))
    assert info.value.path == "hands[2]" and "after the game was over" in info.value.message


def test_player_count_bk15() -> None:
    hands: list[dict[str, Any]] = []
    five = ("A", "B", "C", "D", "E")
    with pytest.raises(InvalidRecordError) as info:
        GAME.score(record(hands, five))
    assert info.value.path == "players" and "max_players" in info.value.message
    assert GAME.score(record(hands, five, max_players=5)).totals == dict.fromkeys(five, 0)
    with pytest.raises(InvalidRecordError):
        GAME.score(record(hands, ("A",)))
    with pytest.raises(InvalidRecordError):
        GAME.score(record(hands, five, max_players=10))


# ------------------------------------------------------------------------------------------------- override


def test_override_partial_keys() -> None:
    piles = {"Ann": ["KD", "5S"]}
    base = play([{"bank": ["JS", "3S", "5H", "9D", "2D"], "piles": piles}])["hands"][0]  # ♥ loses, not valuable
    assert base["loss_suits"] == ["H"] and not base["ranked_valuable"] and not base["overridden"]
    only_loss = play([{"bank": ["JS", "3S", "5H", "9D", "2D"], "piles": piles, "override": {"loss_suits": ["s"]}}])
    hand = only_loss["hands"][0]
    assert hand["loss_suits"] == ["S"] and hand["ranked_valuable"] is False and hand["overridden"]
    assert hand["breakdown"]["Ann"]["losses"] == -1
    none_lose = play([{"bank": ["JS", "3S", "5H", "9D", "2D"], "piles": piles, "override": {"loss_suits": []}}])
    assert none_lose["hands"][0]["loss_suits"] == []
    valuable = play([{"bank": ["JS", "3S", "5H", "9D", "2D"], "piles": piles, "override": {"ranked_valuable": True}}])
    assert valuable["hands"][0]["breakdown"]["Ann"]["ranked"] == 3
    assert any("overrode" in n for n in valuable["hands"][0]["notes"])
    empty = play([{"bank": ["JS", "3S", "5H", "9D", "2D"], "piles": piles, "override": {}}])
    assert empty["hands"][0]["overridden"] is False


def test_override_rejects_clubs_and_repeats() -> None:
    for suits in (["C"], ["S", "S"], ["X"], [3]):
        with pytest.raises(ScoringError) as info:
            GAME.score(record([{"bank": BANK, "override": {"loss_suits": suits}}]))
        assert info.value.path.startswith("hands[0].override.loss_suits")


# -------------------------------------------------------------------------------------------- validation paths


@pytest.mark.parametrize(
    ("hand", "error", "path", "words"),
    [
        ({"bank": BANK[:4]}, IllegalHandError, "hands[0].bank", "five"),
        ({"bank": [*BANK[:4], "2h"]}, DuplicateCardError, "hands[0].bank[4]", "2♥ appears twice"),
        ({"bank": BANK, "piles": {"Ann": ["4C", "JS"]}}, DuplicateCardError, "hands[0].piles.Ann[1]", "bank"),
        ({"bank": BANK, "piles": {"Ann": ["4C"], "Ben": ["4c"]}}, DuplicateCardError, "hands[0].piles.Ben[0]", "Ann"),
        ({"bank": BANK, "piles": {"Ann": ["4C", "JK"]}}, InvalidCardError, "hands[0].piles.Ann[1]", "Joker"),
        ({"bank": BANK, "piles": {"Ann": ["1C"]}}, InvalidCardError, "hands[0].piles.Ann[0]", "'1C' is not a card"),
        ({"bank": BANK, "piles": {"Zed": ["4C"]}}, UnknownPlayerError, "hands[0].piles.Zed", "Zed is not a player"),
        ({"bank": BANK, "piles": {"Ann": "4C"}}, InvalidRecordError, "hands[0].piles", "list of cards"),
        ({"bank": BANK, "extra": 1}, InvalidRecordError, "hands[0].extra", "not a known key"),
        ({"piles": {}}, InvalidRecordError, "hands[0].bank", "missing"),
    ],
)
def test_validation_errors(hand: dict[str, Any], error: type[ScoringError], path: str, words: str) -> None:
    with pytest.raises(error) as info:
        GAME.score(record([hand]))
    assert info.value.path == path
    assert words in info.value.message
    assert "hand 1" in info.value.message


def test_pile_names_are_trimmed() -> None:
    result = play([{"bank": BANK, "piles": {" Ann ": ["2C"]}}])
    assert result["totals"]["Ann"] == 1  # 2♣ +1; nobody has a rest, so nobody gets the most-rest point
    with pytest.raises(InvalidRecordError):
        GAME.score(record([{"bank": BANK, "piles": {" Ann": ["2C"], "Ann": ["3C"]}}]))


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"ace": "low"}, "ace"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"ranked_loss_when_not_valuable": 1}, "ranked_loss_when_not_valuable"),
        ({"straights": "all"}, "straights"),
        ({"most_rest_tie": "some"}, "most_rest_tie"),
        ({"worthless_ranked_in_rest": "no"}, "worthless_ranked_in_rest"),
        ({"worthless_ranked_in_rest": 0}, "worthless_ranked_in_rest"),
        ({"wild": 1}, "wild"),
    ],
)
def test_bad_options(options: dict[str, Any], key: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        GAME.score(record([], **options))
    assert info.value.path == f"options.{key}"


def test_bk_14_any_number_of_rounds_from_one_to_a_thousand() -> None:
    """BK-14: ``rounds`` is any whole number ≥ 1, up to 1,000 rounds (issue 14: numbers within sane ranges)."""
    result = GAME.score(record([], rounds=1000))
    assert not result.finished and Options(rounds=1000).rounds_for(4) == 1000
    with pytest.raises(InvalidRecordError) as info:
        GAME.score(record([], rounds=5000))
    assert info.value.message == "'rounds' must be at most 1000, not 5000" and info.value.path == "options.rounds"


@pytest.mark.parametrize("value", ["yes", 1, "true"])
def test_override_ranked_valuable_is_true_or_false(value: Any) -> None:
    with pytest.raises(InvalidRecordError) as info:
        GAME.score(record([{"bank": BANK, "piles": {}, "override": {"ranked_valuable": value}}]))
    assert info.value.path == "hands[0].override.ranked_valuable" and "true or false" in info.value.message


def test_options_defaults_match_house_rules() -> None:
    options = Options()
    assert options.model_dump(mode="json") == {
        "rounds": None,
        "ace": "high",
        "straights": "disjoint",
        "ace_in_straights": "high",
        "worthless_ranked_in_rest": True,
        "ranked_loss_when_not_valuable": 0,
        "most_rest_tie": "nobody",
        "clubs_tie_for_most": "set-aside",
        "one_club_two_two": "both",
        "max_players": 4,
    }
    assert Options().rounds_for(3) == 3 and Options(rounds=7).rounds_for(3) == 7


def test_registry_and_schema() -> None:
    assert find_game("financial-crisis") is GAME
    schema = GAME.schema()
    assert schema["properties"]["game"]["const"] == "financial-crisis"
    assert "Hand" in schema["$defs"] and "Options" in schema["$defs"]
    assert Record.model_config["frozen"] and Record.model_config["extra"] == "forbid"


# ----------------------------------------------------------------------------------------------- table helpers


def test_read_bank_checks_its_input() -> None:
    assert not can_bank(["KS", "4H", "AD", "7S"])
    assert not can_bank(["KS", "4H", "AD", "7S", "JK"])
    assert not can_bank("KS 4H AD 7S 2C")
    assert can_bank(["KS", "4H", "AD", "7S", "2C"])
    with pytest.raises(IllegalHandError):
        verify_bank(["KS", "4H", "AD", "7S"])
    with pytest.raises(InvalidCardError) as info:
        read_bank(["KS", "4H", "AD", "7S", "JK"])
    assert info.value.path == "bank[4]"
    assert isinstance(read_bank(["KS", "4H", "AD", "7S", "2C"]), BankReading)


def test_legal_cards_and_add_card_pairs() -> None:
    game = record([])
    so_far = {"bank": ["KS", "4H", "AD", "7S", "2C"], "piles": {"Ann": ["5C", "jc"]}}
    legal = legal_cards(game, so_far)
    assert len(legal) == 45 and Card.parse("JC") not in legal and Card.parse("QC") in legal
    assert len(legal_cards(game, None)) == 52
    for card in legal:
        assert can_add_card(game, so_far, card, "Ben")
    assert not can_add_card(game, so_far, "JC", "Ben")
    assert not can_add_card(game, so_far, "QC", "Zed")
    assert not can_add_card(game, so_far, "QC", None)  # the bank is full
    assert not can_add_card(game, so_far, "JK", "Ann")
    with pytest.raises(DuplicateCardError):
        verify_add_card(game, so_far, "5c", "Ben")
    with pytest.raises(IllegalHandError):
        verify_add_card(game, so_far, "QC")
    with pytest.raises(UnknownPlayerError):
        verify_add_card(game, so_far, "QC", "Zed")
    assert verify_add_card(game, {"bank": ["KS"]}, "qc") == Card.parse("QC")


def test_add_round_pair() -> None:
    full = record([{"bank": BANK}, {"bank": BANK}])
    assert can_add_round(record([{"bank": BANK}]))
    assert not can_add_round(full)
    with pytest.raises(IllegalHandError):
        verify_add_round(full)


# ------------------------------------------------------------------------------------ properties: random games


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=2, max_value=9))
def test_random_legal_games(seed: int, players: int) -> None:
    raw = random_record(random.Random(seed), players=players)
    result = GAME.score(raw).to_json()
    names = raw["players"]
    options = Options.model_validate(raw["options"])
    assert result["players"] == names and list(result["totals"]) == names
    assert len(result["hands"]) == len(raw["hands"])
    for name in names:
        assert result["totals"][name] == sum(hand["points"][name] for hand in result["hands"])
    for raw_hand, hand in zip(raw["hands"], result["hands"], strict=True):
        assert list(hand["points"]) == names
        assert hand["loss_suits"] == [s for s in "SHD" if s in hand["loss_suits"]]
        assert hand["notes"] and all(re.search(r"BK-\d+", note) for note in hand["notes"])
        sizes = {name: hand["breakdown"][name]["rest"] for name in names}
        assert sum(hand["breakdown"][name]["most_rest"] for name in names) <= (
            1 if options.most_rest_tie.value == "nobody" else len(names)
        )
        for name in names:
            part = hand["breakdown"][name]
            total = part["clubs"] + part["ranked"] + part["losses"] + part["straights"] + part["most_rest"]
            assert total == hand["points"][name]
            assert part["losses"] <= 0 <= part["clubs"] and part["ranked"] % 3 == 0
            assert sizes[name] == len(hand["rest_cards"][name])
            pile = [Card.parse(c) for c in raw_hand["piles"].get(name, [])]
            rest = [Card.parse(c) for c in hand["rest_cards"][name]]
            assert set(rest) <= set(pile)
            ranked = {"J", "Q", "K"} | ({"A"} if options.ace.value == "high" else set())
            clubs = [c for c in pile if c.suit is Suit.CLUBS]
            assert part["clubs"] == sum(2 if c.rank in ranked else 1 for c in clubs)
            assert not any(c.suit is Suit.CLUBS for c in rest)
            groups = [[Card.parse(c) for c in group] for group in hand["straights"][name]]
            used = [c for group in groups for c in group]
            assert len(used) == len(set(used)) and set(used) <= set(rest)
            assert all(len(g) >= 3 and _is_run(tuple(g), options) for g in groups)
            assert part["straights"] == sum(len(g) - 2 for g in groups)
            assert part["straights"] == oracle_points(rest, options)
    rounds = options.rounds_for(len(names))
    assert result["finished"] == (len(raw["hands"]) == rounds)
    if result["finished"]:
        top = max(result["totals"].values())
        assert result["winners"] == [n for n in names if result["totals"][n] == top]
    else:
        assert result["winners"] == []


def test_long_random_game() -> None:
    raw = random_record(random.Random(11), players=4, rounds=200, hands=200)
    result = GAME.score(raw)
    assert result.finished and len(result.hands) == 200
    assert sum(result.totals.values()) == sum(sum(h.points.values()) for h in result.hands)


# ---------------------------------------------------------------------------------- properties: malformed input

JUNK: list[Any] = [None, 0, -1, 2.5, True, "", "x", "ZZ", "JK", "1S", [], {}, ["2C"], {"a": 1}, "Zed", 10**20]


def _mutate(raw: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(raw)
    paths = [p for p in json_paths(data) if p]
    path = rng.choice(paths)
    parent: Any = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    kind = rng.randrange(4)
    if kind == 0:
        del parent[last]
    elif kind == 1:
        parent[last] = rng.choice(JUNK)
    elif kind == 2 and isinstance(parent, dict):
        parent[rng.choice(["zzz", "Zed", " Ann", "bank", "piles", "override"])] = rng.choice(JUNK)
    else:
        parent[last] = copy.deepcopy(rng.choice([*JUNK, data]))
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_malformed_records_raise_only_scoring_errors(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_record(rng, players=rng.randint(2, 4), hands=rng.randint(1, 2))
    bad = raw
    for _ in range(rng.randint(1, 3)):
        bad = _mutate(bad, rng)
    try:
        GAME.score(bad)
    except ScoringError as exc:
        assert exc.message and isinstance(exc.path, str)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_duplicate_and_unknown_player_mutations_are_caught(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_record(rng, players=3, hands=1, spell=False)
    hand = raw["hands"][0]
    names = [name for name, pile in hand["piles"].items() if pile]
    # a card already in the bank or another pile, entered again
    dup = copy.deepcopy(raw)
    card = rng.choice(hand["bank"] + [c for n in names for c in hand["piles"][n]])
    target = rng.choice(raw["players"])
    dup["hands"][0]["piles"].setdefault(target, []).append(card.lower())
    with pytest.raises(DuplicateCardError) as info:
        GAME.score(dup)
    assert info.value.path.startswith("hands[0].")
    # a pile for somebody who is not seated
    unknown = copy.deepcopy(raw)
    unknown["hands"][0]["piles"]["Zed"] = []
    with pytest.raises(UnknownPlayerError):
        GAME.score(unknown)
