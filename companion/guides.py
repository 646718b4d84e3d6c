"""Each game's rules and house-rule options, told in the app's own words for the Rules screen.

This is reading matter, not scoring: the scoring rules live in :mod:`scoring`. The game keys match the scoring
registry and the option keys match the game record's ``options`` (``shared/spec/records.md``).

>>> [guide.name for guide in all_guides()]
['Bargain Bin', 'Financial Crisis', 'Feast and Famine', '1111-9999', 'Jokers Kill']
>>> get_guide("jokers-kill").players
'2 or more players'
>>> [option.key for option in get_guide("bargain-bin").options][:2]
['king', 'target']
"""

from __future__ import annotations

from dataclasses import dataclass


class UnknownGameError(ValueError):
    """A game key that the app has no rules for."""


@dataclass(frozen=True)
class HouseRule:
    """One house-rule option: the record key, what it means, its default and what else the table may choose."""

    key: str
    label: str
    default: str
    alternatives: str
    ruling: str
    """The ruling in the rules file that settles it (for example ``BB-1``)."""
    choices: tuple[tuple[object, str], ...] = ()
    """For a rule chosen from a few values: each record value with the plain words a drop-down shows for it (the
    value stays the record's; the words are what a player reads)."""

    def word(self, value: object) -> str:
        """The plain words for one of the rule's values (the value itself when the rule has no words for it).

        >>> get_guide("jokers-kill").options[3].word("dead")
        'Kills the hand'
        """
        return next((words for choice, words in self.choices if choice == value), str(value))


@dataclass(frozen=True)
class Section:
    """A headed part of a game's rules: a few short paragraphs or bullet points."""

    heading: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class GameGuide:
    """What a player needs to know about one game to play it with real cards and this app."""

    key: str
    name: str
    players: str
    summary: str
    sections: tuple[Section, ...]
    options: tuple[HouseRule, ...]

    @property
    def route(self) -> str:
        """The app route of this game's rules page."""
        return f"/rules/{self.key}"


_GUIDES: tuple[GameGuide, ...] = (
    GameGuide(
        key="bargain-bin",
        name="Bargain Bin",
        players="4 to 10 players",
        summary="Give black cards to yourself, red cards to your rivals: the two best hands score a point each.",
        sections=(
            Section(
                "Card values",
                (
                    "Black cards (♠ ♣) count plus, red cards (♥ ♦) count minus.",
                    "Ace 1, 2 to 10 at face value, Jack 11, Queen 12, King 12 (13 as a house rule).",
                    "With the Joker option, the Joker is worth 20, plus or minus as the player who plays it decides.",
                ),
            ),
            Section(
                "A hand",
                (
                    "Everyone gets 5 cards. In turn, each player lays one card face up in front of any player "
                    "(anyone but themselves under the Selfless option) until all cards are played.",
                    "Your hand score is the total of the cards lying in front of you. It can be negative.",
                ),
            ),
            Section(
                "Game points",
                (
                    "The highest and second-highest hand scores get 1 game point each.",
                    "Two players tied for highest: both get a point. Three or more tied for highest: nobody does.",
                    "A tie for second place: only the highest player gets a point.",
                ),
            ),
            Section(
                "End of the game",
                (
                    "The game ends after the hand in which someone reaches 10 game points.",
                    "That player and the player with the next-highest total both win; if that next total is "
                    "shared, only the top player wins. Two players reaching 10 together both win.",
                ),
            ),
            Section(
                "Vegas Rules and penalties",
                (
                    "Vegas Rules: after every hand each player pays the gap between the top hand score and their "
                    "own, times the agreed stake, into the pot. The winner takes the pot; two winners share it.",
                    "Bad conduct: the first offence loses the rest of your hand, the second removes you from the "
                    "game. Three removals (two in a four-player game) cancel the game and everyone is refunded.",
                ),
            ),
        ),
        options=(
            HouseRule("king", "Value of a King", "12", "13", "BB-1", ((12, "12"), (13, "13"))),
            HouseRule("target", "Game points to win", "10", "any number from 1", "BB-5"),
            HouseRule("selfless", "Selfless: never play a card in front of yourself", "off", "on", "BB-7"),
            HouseRule("joker", "Add one Joker worth plus or minus 20", "off", "on", "BB-7"),
            HouseRule(
                "vegas_unit_cents",
                "Vegas Rules stake per point",
                "off",
                "a stake per point, such as 0.25 or 25¢",
                "BB-8",
            ),
        ),
    ),
    GameGuide(
        key="financial-crisis",
        name="Financial Crisis",
        players="2 to 4 players (up to 9 as a house rule)",
        summary="Capture cards from five banks; the hidden bank cards decide which suits are losses.",
        sections=(
            Section(
                "Set-up and play",
                (
                    "Five banks of 5 cards each: one face down under four face up. The other 27 cards are laid out "
                    "three at a time; you take one and pass two to the next player.",
                    "A card captures every top bank card of the same rank, and keeps capturing while the card "
                    "beneath has that rank too. Everything you take, get or capture goes into your pile.",
                ),
            ),
            Section(
                "The banks decide",
                (
                    "At the end of the round the five face-down bank cards are turned over.",
                    "Loss suit: the suit that shows most (clubs never lose). A tie for most reverses the order: "
                    "the suit that shows least loses instead; if no other suit is there, all tied suits lose.",
                    "Ranked cards (J, Q, K, A) are valuable when two or more of the face-down cards are ranked.",
                ),
            ),
            Section(
                "Scoring your pile",
                (
                    "Clubs: 1 point each, 2 for a ranked club.",
                    "Loss suit: minus 1 per card; a ranked card of a loss suit scores 0.",
                    "Other ranked cards: 3 points each when ranked cards are valuable, otherwise 0.",
                    "The rest (cards that scored nothing): each straight of 3 or more ranks scores its length "
                    "minus 2, and the one player with the most cards in the rest gets 1 more point.",
                ),
            ),
            Section(
                "End of the game",
                ("One round per player unless agreed otherwise. Highest total wins; equal totals win jointly.",),
            ),
        ),
        options=(
            HouseRule("rounds", "Number of rounds", "one per player", "any number from 1", "BK-14"),
            HouseRule(
                "ace",
                "The Ace",
                "a ranked card above the King",
                "a plain 1",
                "BK-1",
                (("high", "A ranked card above the King"), ("one", "A plain 1, not ranked")),
            ),
            HouseRule(
                "straights",
                "Repeated ranks in straights",
                "best split into separate straights",
                "repeats ignored",
                "BK-8",
                (("disjoint", "Best split into separate straights"), ("distinct", "Repeated ranks ignored")),
            ),
            HouseRule(
                "ace_in_straights",
                "The Ace in straights",
                "high (Q-K-A)",
                "low (A-2-3) or both",
                "BK-9",
                (
                    ("high", "High (Q-K-A)"),
                    ("low", "Low (A-2-3)"),
                    ("both", "Both ways (Q-K-A and A-2-3, never K-A-2)"),
                ),
            ),
            HouseRule("worthless_ranked_in_rest", "Worthless ranked cards join the rest", "yes", "no", "BK-5"),
            HouseRule(
                "ranked_loss_when_not_valuable",
                "Ranked loss-suit card when ranked cards are worthless",
                "0, into the rest",
                "minus 1",
                "BK-4",
                ((0, "0, into the rest"), (-1, "Minus 1, not in the rest")),
            ),
            HouseRule(
                "most_rest_tie",
                "Tie for most cards in the rest",
                "nobody scores",
                "all tied score 1",
                "BK-11",
                (("nobody", "Nobody scores"), ("all", "All tied score 1")),
            ),
            HouseRule(
                "clubs_tie_for_most",
                "Banks show 2♣, 2 of one suit, 1 of another",
                "the 2-card suit loses",
                "the 1-card suit loses",
                "BK-12",
                (("set-aside", "The 2-card suit loses"), ("reverse", "The 1-card suit loses")),
            ),
            HouseRule(
                "one_club_two_two",
                "Banks show 1♣ and two pairs",
                "both pair suits lose",
                "the missing suit loses",
                "BK-12",
                (("both", "Both pair suits lose"), ("absent", "The missing suit loses")),
            ),
            HouseRule("max_players", "Most players allowed", "4", "up to 9", "BK-15"),
        ),
    ),
    GameGuide(
        key="feast-and-famine",
        name="Feast and Famine",
        players="2 to 6 players (more as a house rule)",
        summary="Push your luck: take another card or freeze, but a Joker knocks out everyone still in.",
        sections=(
            Section(
                "Card values",
                ("2 to 10 at face value, J, Q and K 10, Ace 1. The Jokers (2 in the deck) are never scored.",),
            ),
            Section(
                "A round",
                (
                    "Everyone gets one card face up (a Joker is put aside and replaced).",
                    "In turn each player still in either takes a card from the dealer or refuses. Refusing freezes "
                    "you: you keep your cards and stop.",
                    "If a taken card is a Joker, the round ends and everyone not frozen is knocked out and scores 0. "
                    "Frozen players score the total of their cards, first card included.",
                ),
            ),
            Section(
                "End of the game",
                (
                    "Every player deals once per circuit: 3 circuits for 2–3 players, 2 for 4, 1 for 5 or more.",
                    "Highest total wins. Tied leaders play one tie-break round against a Ghost who always takes; "
                    "if all of them are knocked out, the next-highest player wins.",
                ),
            ),
        ),
        options=(
            HouseRule("jokers", "Jokers in the deck", "2", "1 to 4", "FF-1"),
            HouseRule("circuits", "Circuits", "3 (2–3 players), 2 (4), 1 (5 or more)", "any number from 1", "FF-5"),
            HouseRule("opening_card_counts", "The first face-up card counts", "yes", "no", "FF-2"),
            HouseRule(
                "all_out_nobody_left",
                "Tie-break: everyone knocked out and nobody else to win",
                "replay",
                "joint winners",
                "FF-10",
                (("replay", "Replay the tie-break round"), ("joint", "Joint winners")),
            ),
        ),
    ),
    GameGuide(
        key="1111-9999",
        name="1111-9999",
        players="2 to 8 players",
        summary="Arrange your four cards into a number as close as you can to the number on the table.",
        sections=(
            Section(
                "Deck and seats",
                (
                    "36 cards: Ace (the digit 1) to 9 in four suits.",
                    "Four cards lie in a row on the table. Players on one side read them left to right, players on "
                    "the other side read them the other way round: 4 2 3 9 is 4239 from one side, 9324 from the other.",
                ),
            ),
            Section(
                "A hand",
                (
                    "Arrange your four cards into a number. Your score is the gap between it and your table "
                    "number. Low is good.",
                    "Three or four of a kind: the first player to set one down scores 0; every other player holding "
                    "one adds 250 to their gap.",
                ),
            ),
            Section(
                "End of the game",
                (
                    "The game ends after the hand in which someone reaches the target: 7,500 for 2 players, 7,000 "
                    "for 3–4, 6,500 for 5–6, 6,000 for 7–8.",
                    "Lowest total wins. Tied players play sudden death with three cards each until one is lowest.",
                ),
            ),
        ),
        options=(
            HouseRule(
                "target", "Target total", "7,500 / 7,000 / 6,500 / 6,000 by players", "any number from 1", "OO-11"
            ),
            HouseRule(
                "score",
                "Which number is scored",
                "the number set down",
                "each player's best arrangement",
                "OO-3",
                (("as-declared", "The number set down"), ("best", "Each player's best arrangement")),
            ),
            HouseRule("triple_penalty", "Penalty for a late three of a kind", "250", "any number from 0", "OO-6"),
            HouseRule("triple_rule_in_sudden_death", "Three of a kind rule in sudden death", "on", "off", "OO-15"),
        ),
    ),
    GameGuide(
        key="jokers-kill",
        name="Jokers Kill",
        players="2 or more players",
        summary="One card each against an up-card: match it, or hold the lowest card.",
        sections=(
            Section(
                "A hand",
                (
                    "Everyone gets one card face down and one card is turned face up.",
                    "Your Ace is the lowest card; an Ace turned up is above everything.",
                ),
            ),
            Section(
                "Who wins the hand",
                (
                    "One player matches the up-card's rank: 3 points.",
                    "Nobody matches: the lowest card wins 2 points if it is below the up-card, 1 if above.",
                    "Two or more match, or tie for lowest: they each get another card until one is lowest; "
                    "that player gets 3 points.",
                    "The winner collects all the cards of the hand into their prize pile.",
                ),
            ),
            Section(
                "Jokers",
                (
                    "Playing with Jokers: anyone dealt a Joker kills the hand. Nobody scores; the Joker goes into "
                    "its receiver's prize pile, the other cards are discarded.",
                ),
            ),
            Section(
                "End of the game",
                (
                    "Play until the deck cannot give everyone a card plus an up-card.",
                    "Score your points, plus 2 for the K♥ and 1 each for the J♠ and J♥ in your prize pile, minus "
                    "1 per Joker. Most points wins; tied players play off, first to win 3 hands.",
                ),
            ),
        ),
        options=(
            HouseRule(
                "jokers",
                "Jokers in the deck",
                "no Jokers",
                "2 or 4 Jokers",
                "JK-11",
                ((0, "No Jokers"), (2, "2 Jokers"), (4, "4 Jokers")),
            ),
            HouseRule("upcard_to_prize", "The up-card goes to the winner's prize pile", "yes", "no", "JK-2"),
            HouseRule("ace_upcard_matches_ace", "A player's Ace matches an Ace up-card", "yes", "no", "JK-1"),
            HouseRule(
                "joker_in_tiebreak",
                "A Joker dealt in a tie-break",
                "kills the hand",
                "only that player drops out",
                "JK-8",
                (("dead", "Kills the hand"), ("drop", "Only that player drops out")),
            ),
            HouseRule(
                "joker_upcard",
                "A Joker turned up",
                "kills the hand",
                "bury it and turn another",
                "JK-9",
                (("dead", "Kills the hand"), ("redraw", "Bury it and turn another")),
            ),
            HouseRule("playoff_wins", "Hands to win a play-off", "3", "any number from 1", "JK-12"),
        ),
    ),
)

_BY_KEY = {guide.key: guide for guide in _GUIDES}


def all_guides() -> tuple[GameGuide, ...]:
    """Every game's guide, in the order the app lists the games."""
    return _GUIDES


def get_guide(key: str) -> GameGuide:
    """The guide for game ``key``, or :class:`UnknownGameError` naming the games there are."""
    guide = _BY_KEY.get(key)
    if guide is None:
        known = ", ".join(_BY_KEY)
        raise UnknownGameError(f"there are no rules for {key!r} (known games: {known})")
    return guide
