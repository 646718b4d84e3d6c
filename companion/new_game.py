"""The New-game set-up in words: how many may sit down, what a stake field stored, which side each player reads.

Plain Python for the New-game screen (``views/new_game.py`` only draws it). Every text here names a house rule by
its label on the screen (``companion.games.get_guide``), never by its record key.

>>> player_limit("financial-crisis", {}).text
'Financial Crisis is for 2 to 4 players: the house rule “Most players allowed” is 4 (it goes up to 9).'
>>> print(player_limit("financial-crisis", {}).problem(5))
Financial Crisis takes at most 4 players and 5 are seated: set “Most players allowed” to 5 (up to 9) or remove ...
>>> money_feedback("25¢").helper
'Stored as $0.25 a point'
>>> in_words("'max_players' must be from 2 to 9", "financial-crisis")
'“Most players allowed” must be from 2 to 9'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from companion.entry_ones_to_nines import default_sides
from companion.games import get_guide
from companion.money import MoneyError, MoneyFormat, format_money, parse_money
from scoring import find_game
from scoring.jokers_kill import Options as JokersKillOptions
from scoring.jokers_kill import deck_size


def options_model(game: str) -> type[BaseModel]:
    """The pydantic model of ``game``'s house rules (the record's ``options``)."""
    model: type[BaseModel] = find_game(game).record_model.model_fields["options"].annotation  # type: ignore[assignment]
    return model


def labels(game: str) -> dict[str, str]:
    """Each house rule's record key → its label on the screen.

    >>> labels("jokers-kill")["playoff_wins"]
    'Hands to win a play-off'
    """
    return {rule.key: rule.label for rule in get_guide(game).options}


def in_words(text: str, game: str) -> str:
    """``text`` with every house-rule record key of ``game`` replaced by the rule's label, in quotes.

    >>> in_words("the max_players house rule allows up to 9", "financial-crisis")
    'the “Most players allowed” house rule allows up to 9'
    """
    names = labels(game)
    if not names:
        return text
    keys = "|".join(re.escape(key) for key in sorted(names, key=len, reverse=True))
    return re.sub(rf"['\"`]?\b({keys})\b['\"`]?", lambda m: f"“{names[m.group(1)]}”", text)


def _lower_first(text: str) -> str:
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


# --- the number of players ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLimit:
    """How many players a game takes under the chosen house rules, and why, in words."""

    name: str
    """The game's name."""
    low: int
    high: int | None
    """``None``: no upper limit."""
    why: str = ""
    """What sets ``high`` when a house rule does (a clause naming the rule by its label), or ``""``."""
    raise_to: tuple[str, int] | None = None
    """The house rule (its label) that can allow more players, and the most it allows."""
    open_ended: bool = False
    """The rules set no most (Jokers Kill): ``high`` is what the cards allow, said in ``why``, not in the span."""

    @property
    def span(self) -> str:
        """
        >>> PlayerLimit("Jokers Kill", 2, None).span, PlayerLimit("Bargain Bin", 4, 10).span
        ('2 or more players', '4 to 10 players')
        """
        if self.high is None or self.open_ended:
            return f"{self.low} or more players"
        return f"{self.low} players" if self.high == self.low else f"{self.low} to {self.high} players"

    @property
    def text(self) -> str:
        """One sentence for the screen, shown before Start.

        >>> PlayerLimit("Bargain Bin", 4, 10).text
        'Bargain Bin is for 4 to 10 players.'
        """
        return f"{self.name} is for {self.span}" + (f": {self.why}" if self.why else "") + "."

    def problem(self, count: int) -> str | None:
        """Why ``count`` seated players cannot start (no full stop), or ``None`` when they can.

        >>> PlayerLimit("Bargain Bin", 4, 10).problem(3)
        'Bargain Bin needs at least 4 players and 3 are seated: seat 1 more'
        >>> PlayerLimit("Bargain Bin", 4, 10).problem(11)
        'Bargain Bin takes at most 10 players and 11 are seated: remove 1'
        >>> PlayerLimit("Bargain Bin", 4, 10).problem(4) is None
        True
        """
        seated = f"{count} {'is' if count == 1 else 'are'} seated"
        if count < self.low:
            return f"{self.name} needs at least {self.low} players and {seated}: seat {self.low - count} more"
        if self.high is not None and count > self.high:
            head = f"{self.name} takes at most {self.high} players and {seated}"
            if self.raise_to is not None and count <= self.raise_to[1]:
                label, ceiling = self.raise_to
                return f"{head}: set “{label}” to {count} (up to {ceiling}) or remove a player"
            return f"{head}: remove {count - self.high}"
        return None


def player_limit(game: str, options: Mapping[str, Any]) -> PlayerLimit:
    """The players ``game`` takes with these house rules (the record's ``options``; invalid ones count as their
    defaults): the registry's range, narrowed by a house rule that limits it. Financial Crisis allows 4 unless its
    "Most players allowed" rule says up to 9 (BK-15); Jokers Kill deals one card a player plus the up-card from one
    deck, so the Jokers in the deck set the most (JK-11).

    >>> player_limit("jokers-kill", {"jokers": 2}).high
    53
    >>> print(player_limit("jokers-kill", {}).text)
    Jokers Kill is for 2 or more players: a hand takes a card for each player and the up-card from one deck of 52 ...
    """
    info = find_game(game)
    model = options_model(game)
    try:
        chosen: Any = model.model_validate(dict(options))
    except ValidationError:
        chosen = model()
    names = labels(game)
    fields = model.model_fields
    if "max_players" in fields:
        high = int(chosen.max_players)
        ceiling = info.max_players
        more = f" (it goes up to {ceiling})" if ceiling is not None and high < ceiling else ""
        label = names["max_players"]
        raise_to = (label, ceiling) if ceiling is not None and high < ceiling else None
        return PlayerLimit(info.name, info.min_players, high, f"the house rule “{label}” is {high}{more}", raise_to)
    if isinstance(chosen, JokersKillOptions):
        deck = deck_size(chosen)
        rule = next(rule for rule in get_guide(game).options if rule.key == "jokers")
        high = deck - 1 if info.max_players is None else min(info.max_players, deck - 1)
        why = (
            f"a hand takes a card for each player and the up-card from one deck of {deck} cards "
            f"(“{rule.label}”: {_lower_first(rule.word(chosen.jokers))}), so {high} at most"
        )
        return PlayerLimit(info.name, info.min_players, high, why, open_ended=info.max_players is None)
    return PlayerLimit(info.name, info.min_players, info.max_players)


# --- house rules checked before Start ----------------------------------------------------------------------------


def option_problems(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """Each house rule of ``options`` that ``game`` refuses → why, in words (empty when all are fine).

    >>> option_problems("financial-crisis", {"max_players": 12})
    {'max_players': '“Most players allowed” must be a whole number from 2 to 9, not 12 (BK-15)'}
    >>> option_problems("jokers-kill", {"playoff_wins": 0})
    {'playoff_wins': 'at least 1'}
    """
    try:
        options_model(game).model_validate(dict(options))
    except ValidationError as exc:
        out: dict[str, str] = {}
        for error in exc.errors():
            key = str(error["loc"][0]) if error["loc"] else ""
            out.setdefault(key, in_words(_said(error), game))
        return out
    return {}


def _said(error: Any) -> str:
    ctx = error.get("ctx") or {}
    kind = error.get("type", "")
    if kind == "greater_than_equal":
        return f"at least {ctx['ge']}"
    if kind == "less_than_equal":
        return f"at most {ctx['le']}"
    if kind == "greater_than":
        return f"more than {ctx['gt']}"
    if kind == "less_than":
        return f"less than {ctx['lt']}"
    message = str(error.get("msg", "not accepted"))
    return message.removeprefix("Value error, ")


# --- a stake typed as money ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyFeedback:
    """What a stake field holds: the amount stored (minor units, ``None`` when empty) and the line under the field."""

    cents: int | None
    helper: str
    """What was stored, in the money format (``Stored as $0.25 a point``), or what an empty field means."""
    error: str | None = None
    """Why the text is not an amount, or ``None``."""


def money_feedback(
    text: Any, fmt: MoneyFormat | None = None, *, per: str = "a point", empty: str = ""
) -> MoneyFeedback:
    """Read a stake as the player typed it (``0.25``, ``$0.25``, ``25¢``; BB-8) and say what was stored.

    >>> money_feedback("0.25").cents, money_feedback("$0.25").cents, money_feedback("25¢").cents
    (25, 25, 25)
    >>> money_feedback("", empty="Empty: Vegas Rules off")
    MoneyFeedback(cents=None, helper='Empty: Vegas Rules off', error=None)
    >>> money_feedback("0.255").error
    "'0.255' has more than two decimals: amounts are in whole cents"
    """
    fmt = fmt or MoneyFormat()
    shown = str(text if text is not None else "").strip()
    if not shown:
        return MoneyFeedback(None, empty)
    try:
        cents = parse_money(shown, fmt)
    except MoneyError as exc:
        return MoneyFeedback(None, empty, str(exc))
    return MoneyFeedback(cents, f"Stored as {format_money(cents, fmt)} {per}")


# --- 1111-9999: the sides of the table row ---------------------------------------------------------------------


@dataclass
class SideDefaults:
    """Default sides while players are seated: the first half on side A, the second half on side B (OO-1),
    recomputed as players are added, removed or moved, except for a player whose side was changed by hand.

    >>> sides = SideDefaults()
    >>> current: dict[str, str] = {}
    >>> for seated in (["Ann"], ["Ann", "Ben"], ["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", "Dan"]):
    ...     current = sides.fit(seated, current)
    >>> current
    {'Ann': 'A', 'Ben': 'A', 'Cat': 'B', 'Dan': 'B'}
    >>> current["Ann"] = "B"  # tapped: Ann moves to side B
    >>> sides.fit(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], current)
    {'Ann': 'B', 'Ben': 'A', 'Cat': 'A', 'Dan': 'B', 'Eve': 'B', 'Fay': 'B'}
    """

    given: dict[str, str] = field(default_factory=dict)
    """The sides handed out last time: a side that differs from it now was changed by hand."""
    by_hand: set[str] = field(default_factory=set)

    def fit(self, players: Sequence[str], current: Mapping[str, str]) -> dict[str, str]:
        """The sides for exactly ``players`` (in seat order), given the sides as they are now."""
        for name, side in current.items():
            if name in self.given and self.given[name] != side:
                self.by_hand.add(name)
        self.by_hand &= set(players)
        default = default_sides(players)
        out = {name: current[name] if name in self.by_hand and name in current else default[name] for name in players}
        self.given = dict(out)
        return out
