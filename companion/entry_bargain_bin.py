"""Entering a Bargain Bin hand at the table: live play card by card, or the quick form of hand totals.

No Flet in here: the view only draws a :class:`BinEntry` and calls its methods. A :class:`BinEntry` is the hand
being entered (a frozen value: every method returns a new one), checked against the record *before* that hand.
The rules come from :mod:`scoring.bargain_bin` (Selfless through :func:`~scoring.bargain_bin.can_receive`, the
removal count through :func:`~scoring.bargain_bin.removal_consequence`, Vegas through
:func:`~scoring.bargain_bin.vegas_payments` and :func:`~scoring.bargain_bin.settle_up`).

Live play: the player whose turn it is plays one card, the table taps who it goes to and the card's value on the
value pad (the Joker has two keys, ``Joker +20`` and ``Joker −20``: its sign is in the key, BB-7); the turn passes
clockwise to the next player with cards left. Two taps a card, which is the information a card carries.

>>> record = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"selfless": True}}
>>> entry = BinEntry.start(record)
>>> entry.giver, entry.can_receive("Ann"), entry.can_receive("Ben")
('Ann', False, True)
>>> entry = entry.choose_receiver("Ben").choose_value(PadKey("K", red=False))
>>> entry.giver, entry.running_points()
('Ben', {'Ann': 0, 'Ben': 12, 'Cat': 0, 'Dan': 0})
>>> entry.play_count("Ann"), entry.cards_left("Ann")
(1, 4)
>>> entry.can_confirm()
False
>>> entry.missing()
'Ann has 4 cards left to play, Ben 5, Cat 5, Dan 5'

The quick form takes each player's card points instead:

>>> quick = BinEntry.start(record).set_mode(EntryMode.QUICK)
>>> for name, text in zip("Ann Ben Cat Dan".split(), ["14", "-3", "9", "0"]):
...     quick = quick.set_score(name, text)
>>> quick.to_hand()
{'scores': {'Ann': 14, 'Ben': -3, 'Cat': 9, 'Dan': 0}}
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing_extensions TypedDicts on 3.11

from companion.bargain_bin_money import as_bin_result
from companion.entry import EntryOf, EntryTarget, GameEntry, WordedError
from companion.guides import GameGuide, HouseRule, Section
from companion.i18n import N_, Words
from companion.money import MoneyFormat, format_money
from scoring import InvalidRecordError, Result
from scoring import bargain_bin as bb
from scoring.bargain_bin import HAND_SIZE, JOKER_VALUE, Action, Sign
from scoring.base import passes
from scoring.cards import RANKS
from scoring.errors import IncompleteError
from scoring.why import Note, Rank, render

# --------------------------------------------------------------------------------------------------------------
# Errors


class EntryError(WordedError):
    """Something the table tried that this hand does not allow (the message names the problem)."""


class NotYourTurnError(EntryError):
    """A player chosen to play who has no cards left in this hand."""


class ReceiverError(EntryError):
    """A card sent to a player who may not receive it (Selfless, removed)."""


class ValueUsedError(EntryError):
    """A card value whose cards are all played already in this hand (or the Joker when it is not in the game)."""


class JokerSignError(EntryError):
    """A Joker sign chosen when no Joker is waiting for one, or a card tapped while the Joker waits for its sign."""


class ConductError(EntryError):
    """A warning or removal that cannot be given (removed already, warned twice in one hand...)."""


class ScoreInputError(EntryError):
    """A quick-form total that is not a whole number."""


class BargainBinIncompleteError(EntryError, IncompleteError):
    """The hand is confirmed before everything needed is entered."""


# --------------------------------------------------------------------------------------------------------------
# The value pad


class EntryMode(enum.Enum):
    """How the hand is entered."""

    LIVE = "live"
    """Card by card, as it is played: who it goes to and the card's value (records.md ``plays``)."""
    QUICK = "quick"
    """Each player's card points at the end of the hand (records.md ``scores``)."""


_BLACK = ("S", "C")
_RED = ("H", "D")


@dataclass(frozen=True, slots=True)
class PadKey:
    """A key of the value pad: a rank in black (♠ ♣, plus) or red (♥ ♦, minus), or the Joker (``rank="JK"``) with
    the sign its player chose (BB-7).

    Card points depend only on rank and colour (rule 2), so the pad has 26 keys and the Joker's two; each colour of
    a rank stands for two physical cards.

    >>> PadKey("Q", red=True).points(12), PadKey("K", red=False).points(13), PadKey("7", red=True).label
    (-12, 13, '7♥♦')
    >>> JOKER_PLUS.label, JOKER_MINUS.points(), JOKER_KEY.label, JOKER_KEY.is_joker
    ('Joker +20', -20, 'Joker', True)
    """

    rank: str
    red: bool = False
    sign: Sign | None = None
    """The Joker's sign (``None`` for every other key, and for :data:`JOKER_KEY`, the Joker whatever its sign)."""

    @property
    def is_joker(self) -> bool:
        return self.rank == "JK"

    @property
    def suits(self) -> tuple[str, ...]:
        """The suit letters this key stands for."""
        if self.is_joker:
            return ()
        return _RED if self.red else _BLACK

    @property
    def label(self) -> str:
        """What the pad shows: the rank and its colour's suits, ``7♥♦``; the Joker with its sign, ``Joker −20``."""
        if self.is_joker:
            if self.sign is None:
                return "Joker"
            return f"Joker {'+' if self.sign is Sign.PLUS else '−'}{JOKER_VALUE}"
        return self.rank + ("♥♦" if self.red else "♠♣")

    def points(self, king: int = 12) -> int:
        """Card points (rule 2, BB-1; the Joker ±20 by its key's sign, BB-7)."""
        if self.is_joker:
            if self.sign is None:
                raise JokerSignError(Note.of(N_("the Joker is +20 or −20 as its player chooses: choose the sign")))
            return JOKER_VALUE if self.sign is Sign.PLUS else -JOKER_VALUE
        value = king if self.rank == "K" else RANKS.index(self.rank) + 1
        return -value if self.red else value

    def spoken(self, king: int = 12) -> str:
        """The key's accessible label: ``black 7, plus 7``."""
        if self.is_joker and self.sign is None:
            return f"Joker, plus or minus {JOKER_VALUE}"
        if self.is_joker:
            return f"Joker, {'plus' if self.sign is Sign.PLUS else 'minus'} {JOKER_VALUE}"
        value = self.points(king)
        return f"{'red' if self.red else 'black'} {self.rank}, {'minus' if value < 0 else 'plus'} {abs(value)}"

    @staticmethod
    def of(card: str) -> PadKey:
        """The pad key of a card code (``"7H"`` → red 7; ``"JK+"`` → the Joker +20; ``"JK"`` → the Joker)."""
        text = str(card).upper()
        if text.startswith("JK"):
            return PadKey("JK", sign=Sign(text[2])) if text[2:] in ("+", "-") else JOKER_KEY
        return PadKey(text[:-1], red=text[-1] in _RED)


JOKER_KEY = PadKey("JK")
"""The Joker whatever its sign (how many are left, whether it may be played)."""
JOKER_PLUS = PadKey("JK", sign=Sign.PLUS)
"""The Joker played as +20 (only with the Joker rule, BB-7)."""
JOKER_MINUS = PadKey("JK", sign=Sign.MINUS)
"""The Joker played as −20."""


def pad_keys(options: bb.Options) -> list[PadKey]:
    """Every key of the pad: black A…K, red A…K, then the Joker's two keys when the rule is on (its player says the
    sign as it is played, so the key says it too: no extra tap, BB-7).

    >>> len(pad_keys(bb.Options())), [key.label for key in pad_keys(bb.Options(joker=True))[-2:]]
    (26, ['Joker +20', 'Joker −20'])
    """
    keys = [PadKey(rank, red=False) for rank in RANKS] + [PadKey(rank, red=True) for rank in RANKS]
    return keys + ([JOKER_PLUS, JOKER_MINUS] if options.joker else [])


def money(cents: int, fmt: MoneyFormat | None = None) -> str:
    """Cents as the app's money setting writes them (:func:`companion.money.format_money`; US dollars by default).

    >>> money(105), money(-60), money(0), money(20975, MoneyFormat.for_locale("de_DE", "EUR")).replace("\xa0", " ")
    ('$1.05', '−\u2060$0.60', '$0.00', '209,75 €')
    """
    return format_money(cents, fmt)


# --------------------------------------------------------------------------------------------------------------
# The hand being entered


@dataclass(frozen=True, slots=True)
class Played:
    """One card as it was played (records.md ``plays``)."""

    by: str
    to: str
    card: str
    """Card code, ``7H``; the Joker with its sign, ``JK-``."""

    def as_dict(self) -> dict[str, str]:
        return {"by": self.by, "to": self.to, "card": self.card}


@dataclass(frozen=True)
class BinEntry:
    """One Bargain Bin hand being entered, against the record before it (a new value after every change)."""

    record: Mapping[str, Any] = field(repr=False)
    """The record before this hand (validated when the entry starts)."""
    mode: EntryMode = EntryMode.LIVE
    plays: tuple[Played, ...] = ()
    conduct: tuple[tuple[str, Action], ...] = ()
    scores: tuple[tuple[str, str], ...] = ()
    """Quick form: what was typed for each player (kept as typed, so nothing is lost)."""
    receiver: str | None = None
    """The player the next card goes to, once tapped."""
    chosen_giver: str | None = None
    """The player the table chose to play next (``None``: whoever's turn it is, clockwise)."""
    joker_waiting: bool = False
    """The Joker was tapped: its sign is asked next."""
    _before: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What the record before this hand gives (its Vegas pot), worked out once when the entry starts and shared by
    every value made from it by a tap (the record does not change within a hand)."""

    # --- set-up ---------------------------------------------------------------------------------------------

    @staticmethod
    def start(record: Mapping[str, Any]) -> BinEntry:
        """An empty hand after ``record`` (raises :class:`~scoring.ScoringError` if the record is invalid), in the
        form the previous hand was entered in (a table that keeps totals keeps doing so). Its set-up (players,
        house rules) is validated; its hands are the session's, each replayed once when it was confirmed, and are
        not read again here (a long game's next hand starts as fast as its first)."""
        rec = dict(record)
        rec.setdefault("options", {})
        rec.setdefault("hands", [])
        bb.parse({**rec, "hands": []})
        hands = rec["hands"]
        if not isinstance(hands, list) or not all(isinstance(hand, Mapping) for hand in hands):
            raise InvalidRecordError("'hands' must be a list of hands (objects)", "hands")
        quick = bool(hands) and isinstance(hands[-1], Mapping) and hands[-1].get("scores") is not None
        return BinEntry(rec, mode=EntryMode.QUICK if quick else EntryMode.LIVE)

    @staticmethod
    def from_hand(record: Mapping[str, Any], hand: Mapping[str, Any]) -> BinEntry:
        """An entry holding a saved hand, to correct it. A ``cards`` hand is shown as its card points (quick)."""
        entry = BinEntry.start(record)
        conduct = tuple((str(c["player"]), Action(c["action"])) for c in hand.get("conduct", []))
        if hand.get("plays") is not None:
            plays = tuple(Played(p["by"], p["to"], str(p["card"]).upper()) for p in hand["plays"])
            return replace(entry, plays=plays, conduct=conduct)
        if hand.get("scores") is not None:
            scores = tuple((name, str(value)) for name, value in hand["scores"].items())
        else:
            options = entry.options
            scores = tuple(
                (name, str(sum(bb.card_value(card, options) for card in cards)))
                for name, cards in (hand.get("cards") or {}).items()
            )
        return replace(entry, mode=EntryMode.QUICK, scores=scores, conduct=conduct)

    def to_draft(self) -> dict[str, Any]:
        """The entry as plain data, for :meth:`companion.session.TableSession.set_draft`."""
        return {
            "mode": self.mode.value,
            "plays": [play.as_dict() for play in self.plays],
            "conduct": [{"player": name, "action": action.value} for name, action in self.conduct],
            "scores": dict(self.scores),
            "receiver": self.receiver,
            "giver": self.chosen_giver,
            "joker_waiting": self.joker_waiting,
        }

    @staticmethod
    def from_draft(record: Mapping[str, Any], draft: Mapping[str, Any]) -> BinEntry:
        """The entry that :meth:`to_draft` saved; raises :class:`EntryError` or :class:`ScoringError` if it no
        longer fits the record (the view then starts afresh)."""
        entry = BinEntry.start(record)
        try:
            result = replace(
                entry,
                mode=EntryMode(draft.get("mode", "live")),
                plays=tuple(Played(p["by"], p["to"], p["card"]) for p in draft.get("plays", [])),
                conduct=tuple((c["player"], Action(c["action"])) for c in draft.get("conduct", [])),
                scores=tuple((str(k), str(v)) for k, v in dict(draft.get("scores", {})).items()),
                receiver=draft.get("receiver"),
                chosen_giver=draft.get("giver"),
                joker_waiting=bool(draft.get("joker_waiting", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EntryError(Note.of(N_("the hand kept from before cannot be read ({exc})"), exc=exc)) from None
        for name in [p.by for p in result.plays] + [p.to for p in result.plays] + [c[0] for c in result.conduct]:
            if name not in result.players:
                raise EntryError(Note.of(N_("{name} is not a player in this game"), name=name))
        result._replay()
        return result

    def _replay(self) -> None:
        """Check the plays and conduct against the record by making them again (raises :class:`EntryError`)."""
        again = replace(self, plays=(), conduct=(), receiver=None, chosen_giver=None, joker_waiting=False)
        for play in self.plays:
            key = PadKey.of(play.card)
            if key.is_joker and key.sign is None:
                raise JokerSignError(Note.of(N_("a Joker played without its sign")))
            again = again.choose_giver(play.by).choose_receiver(play.to).choose_value(key)
            again = replace(again, plays=(*again.plays[:-1], play))
        for name, action in self.conduct:
            again = again.give_conduct(name, action)
        if self.joker_waiting and (self.receiver is None or not self.can_value(JOKER_KEY)):
            raise JokerSignError(Note.of(N_("no Joker is waiting for its sign")))
        if self.receiver is not None and self.giver is not None:
            self.verify_receive(self.receiver)

    # --- the table ------------------------------------------------------------------------------------------

    @property
    def options(self) -> bb.Options:
        return bb.Options.model_validate(self.record.get("options") or {})

    @property
    def players(self) -> list[str]:
        return list(self.record["players"])

    @property
    def number(self) -> int:
        """This hand's number (1-based)."""
        return len(self.record.get("hands") or []) + 1

    @cached_property
    def removed_before(self) -> list[str]:
        """Players removed in earlier hands (BB-13), seating order (read over the game's hands once an entry: a
        tap asks it dozens of times)."""
        hands = self.record.get("hands") or []
        out = {c["player"] for hand in hands for c in hand.get("conduct", []) if c.get("action") == "remove"}
        return [name for name in self.players if name in out]

    def warned_in(self, name: str) -> int | None:
        """The earlier hand (1-based) in which ``name`` was warned, if any."""
        for i, hand in enumerate(self.record.get("hands") or []):
            if any(c.get("player") == name and c.get("action") == "warn" for c in hand.get("conduct", [])):
                return i + 1
        return None

    @property
    def active(self) -> list[str]:
        """Players still in the game at the start of this hand, seating order."""
        removed = self.removed_before
        return [name for name in self.players if name not in removed]

    def conduct_of(self, name: str) -> Action | None:
        """What this hand's conduct says of ``name`` (a removal outranks a warning)."""
        actions = [action for who, action in self.conduct if who == name]
        if Action.REMOVE in actions:
            return Action.REMOVE
        return actions[0] if actions else None

    @property
    def removed_now(self) -> list[str]:
        return [name for name in self.players if self.conduct_of(name) is Action.REMOVE]

    @property
    def ranked(self) -> list[str]:
        """Players ranked in this hand: active and not removed in it (BB-13)."""
        return [name for name in self.active if self.conduct_of(name) is not Action.REMOVE]

    # --- live play ------------------------------------------------------------------------------------------

    def play_count(self, name: str) -> int:
        return sum(1 for play in self.plays if play.by == name)

    def cards_left(self, name: str) -> int:
        """Cards ``name`` still holds: 0 once warned or removed in this hand (discarded, BB-12) or removed before."""
        if name not in self.active or self.conduct_of(name) is not None:
            return 0
        return max(0, HAND_SIZE - self.play_count(name))

    def turn_order(self) -> list[str]:
        """The active players clockwise from this hand's first player (the seat after the dealer, rotating one
        seat each hand, BB-15; not score-relevant)."""
        active = self.active
        if not active:
            return []
        players = self.players
        start = (self.number - 1) % len(players)
        seats = players[start:] + players[:start]
        return [name for name in seats if name in active]

    @property
    def giver(self) -> str | None:
        """Who plays the next card: the table's choice, else the next player clockwise with cards left."""
        if self.chosen_giver is not None and self.cards_left(self.chosen_giver) > 0:
            return self.chosen_giver
        order = self.turn_order()
        if not order:
            return None
        if self.plays:
            last = self.plays[-1].by
            players = self.players
            start = (players.index(last) + 1) % len(players)
            seats = players[start:] + players[:start]
            order = [name for name in seats if name in order]
        for name in order:
            if self.cards_left(name) > 0:
                return name
        return None

    def verify_giver(self, name: str) -> None:
        """Raise unless ``name`` can play the next card (seated, in the game, cards left)."""
        if name not in self.players:
            raise NotYourTurnError(Note.of(N_("{name} is not a player in this game"), name=name))
        if name not in self.active:
            raise NotYourTurnError(Note.of(N_("{name} has been removed from the game (BB-13)"), name=name))
        if self.cards_left(name) == 0:
            why = (
                Note.of(N_("their hand was taken away this hand (rule 9)"))
                if self.conduct_of(name) is not None
                else Note.of(N_("they have played all {n} cards"), n=HAND_SIZE)
            )
            raise NotYourTurnError(Note.of(N_("{name} has no cards left: {why}"), name=name, why=why))

    def can_give(self, name: str) -> bool:
        return passes(lambda: self.verify_giver(name), (EntryError,))

    def choose_giver(self, name: str) -> BinEntry:
        """The table says ``name`` plays next (out of the usual turn)."""
        self.verify_giver(name)
        keep = (
            self.receiver if self.receiver is not None and self._receive_problem(name, self.receiver) is None else None
        )
        return replace(self, chosen_giver=name, receiver=keep)

    def _receive_problem(self, by: str, to: str) -> str | None:
        if to not in self.players:
            return f"{to} is not a player in this game"
        if to not in self.active or self.conduct_of(to) is Action.REMOVE:
            return f"{to} has been removed from the game and cannot receive cards (BB-13)"
        if not bb.can_receive(self.options, by, to):
            return f"{by} cannot play a card in front of themselves: Selfless is on (BB-7)"
        return None

    def verify_receive(self, to: str) -> None:
        """Raise unless the next card may go in front of ``to`` (Selfless, BB-7; removed players, BB-13)."""
        giver = self.giver
        if giver is None:
            raise ReceiverError(Note.of(N_("every card of this hand has been played: confirm the hand")))
        problem = self._receive_problem(giver, to)
        if problem is not None:
            raise ReceiverError(problem)

    def can_receive(self, to: str) -> bool:
        return passes(lambda: self.verify_receive(to), (EntryError,))

    def choose_receiver(self, to: str) -> BinEntry:
        """The next card goes in front of ``to`` (tapping the same player again un-chooses them)."""
        if self.receiver == to:
            return replace(self, receiver=None)
        self.verify_receive(to)
        return replace(self, receiver=to)

    def _used(self, key: PadKey) -> list[str]:
        if key.is_joker:
            return [p.card for p in self.plays if p.card.startswith("JK")]
        return [p.card for p in self.plays if PadKey.of(p.card) == key]

    @cached_property
    def _key_counts(self) -> Counter[PadKey]:
        """Cards played this hand by key (the Joker under :data:`JOKER_KEY` whatever its sign), counted once per
        value of the entry (every key asks after each tap)."""
        return Counter(JOKER_KEY if p.card.startswith("JK") else PadKey.of(p.card) for p in self.plays)

    def keys_left(self, key: PadKey) -> int:
        """How many cards of this key are still unplayed in this hand (2, 1 or 0; the Joker 1 or 0)."""
        if key.is_joker:
            return 1 if self.options.joker and not self._key_counts[JOKER_KEY] else 0
        return len(key.suits) - self._key_counts[key]

    def verify_value(self, key: PadKey) -> None:
        """Raise unless a card of ``key`` can still be played in this hand (no card twice, BB-7 for the Joker)."""
        if key.is_joker and not self.options.joker:
            raise ValueUsedError(Note.of(N_("the Joker is not in this game: the Joker rule is off (rule 1)")))
        if self.keys_left(key) == 0:
            if key.is_joker:
                raise ValueUsedError(Note.of(N_("the Joker has already been played in this hand")))
            raise ValueUsedError(Note.of(N_("both {key} cards have already been played in this hand"), key=key.label))

    def can_value(self, key: PadKey) -> bool:
        return passes(lambda: self.verify_value(key), (EntryError,))

    def choose_value(self, key: PadKey) -> BinEntry:
        """Play a card of ``key`` from the player whose turn it is to the chosen receiver: a Joker key plays the
        Joker with its sign (BB-7); :data:`JOKER_KEY`, without one, waits for it (:meth:`choose_sign`)."""
        if self.joker_waiting:
            raise JokerSignError(Note.of(N_("the Joker is waiting for its sign: + 20 or − 20")))
        giver = self.giver
        if giver is None:
            raise BargainBinIncompleteError(Note.of(N_("every card of this hand has been played: confirm the hand")))
        if self.receiver is None:
            raise ReceiverError(Note.of(N_("tap who {giver}'s card goes to first"), giver=giver))
        self.verify_value(key)
        if key.is_joker and key.sign is None:
            return replace(self, joker_waiting=True)
        if key.is_joker:
            assert key.sign is not None
            return self._played(Played(giver, self.receiver, f"JK{key.sign.value}"))
        used = self._used(key)
        suit = next(s for s in key.suits if f"{key.rank}{s}" not in used)
        return self._played(Played(giver, self.receiver, f"{key.rank}{suit}"))

    def choose_sign(self, sign: Sign) -> BinEntry:
        """The Joker's player chose its sign (BB-7): the Joker is played."""
        giver = self.giver
        if not self.joker_waiting or giver is None or self.receiver is None:
            raise JokerSignError(Note.of(N_("no Joker is waiting for its sign")))
        return self._played(Played(giver, self.receiver, f"JK{sign.value}"))

    def cancel_joker(self) -> BinEntry:
        return replace(self, joker_waiting=False)

    def _played(self, play: Played) -> BinEntry:
        return replace(self, plays=(*self.plays, play), receiver=None, chosen_giver=None, joker_waiting=False)

    def undo_play(self) -> BinEntry:
        """Take back the last card played (or the Joker waiting for its sign)."""
        if self.joker_waiting:
            return replace(self, joker_waiting=False)
        if not self.plays:
            raise EntryError(Note.of(N_("no card has been played in this hand yet")))
        return replace(self, plays=self.plays[:-1], receiver=None, chosen_giver=None)

    def running_points(self) -> dict[str, int]:
        """Each player's card points from the cards played so far (rule 4), seating order."""
        return bb.hand_card_points([p.as_dict() for p in self.plays], self.players, self.options)

    def in_front_of(self, name: str) -> list[str]:
        """The labels of the cards lying in front of ``name`` (``K♠``, ``Joker −20``)."""
        return [bb.BinCard.parse(p.card).label for p in self.plays if p.to == name]

    # --- conduct --------------------------------------------------------------------------------------------

    def verify_conduct(self, name: str, action: Action) -> None:
        """Raise unless ``name`` can be warned / removed in this hand."""
        if name not in self.players:
            raise ConductError(Note.of(N_("{name} is not a player in this game"), name=name))
        if name not in self.active:
            raise ConductError(Note.of(N_("{name} has already been removed from the game (BB-13)"), name=name))
        now = self.conduct_of(name)
        if now is Action.REMOVE:
            raise ConductError(Note.of(N_("{name} is already removed in this hand"), name=name))
        if action is Action.WARN and now is Action.WARN:
            raise ConductError(Note.of(N_("{name} is already warned in this hand"), name=name))
        if action is Action.REMOVE and self.cancels():
            raise ConductError(Note.of(N_("the removals of this hand already cancel the game")))

    def can_conduct(self, name: str, action: Action) -> bool:
        return passes(lambda: self.verify_conduct(name, action), (EntryError,))

    def conduct_text(self, name: str, action: Action, words: Words | None = None) -> str:
        """What warning or removing ``name`` now means, for the confirm dialog (rule 9, BB-12…BB-14).

        >>> rec = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"vegas_unit_cents": 5}}
        >>> print(BinEntry.start(rec).conduct_text("Ben", Action.WARN))
        Warn Ben: Ben's 5 unplayed cards are discarded. Ben plays no more cards this hand but keeps the cards in \
front of them, stays in the ranking and still pays into the bin (rule 9.1, BB-12). A second offence removes Ben from \
the game (rule 9.2).
        >>> warned = {**rec, "hands": [{"scores": {"Ann": 1, "Ben": 0, "Cat": 2, "Dan": 3},
        ...                              "conduct": [{"player": "Ben", "action": "warn"}]}]}
        >>> print(BinEntry.start(warned).conduct_text("Ben", Action.REMOVE))
        Remove Ben: Ben's unplayed cards are discarded. Ben was warned in hand 1: this second offence removes Ben \
(rule 9.2). Removing Ben is removal 1 of 2 in a game that started with 4 players: Ben is out of the ranking and cannot \
win; 1 more removal would cancel the game (rule 9.3, BB-13, BB-14). What Ben has paid stays in the pot (BB-13).
        """
        self.verify_conduct(name, action)
        words = words or Words.of("en")
        _ = words.gettext
        cards = words.note(self._discarded(name))
        if action is Action.WARN:
            if self.options.vegas:
                text = _(
                    "Warn {name}: {cards}. {name} plays no more cards this hand but keeps the cards in front of them, "
                    "stays in the ranking and still pays into the bin (rule 9.1, BB-12)."
                )
            else:
                text = _(
                    "Warn {name}: {cards}. {name} plays no more cards this hand but keeps the cards in front of them, "
                    "stays in the ranking (rule 9.1, BB-12)."
                )
            text = text.format(name=name, cards=cards)
            earlier = self.warned_in(name)
            if earlier is not None:
                more = _("{name} was already warned in hand {earlier}: the rules call for removal now (rule 9.2).")
                return f"{text} {more.format(name=name, earlier=earlier)}"
            more = _("A second offence removes {name} from the game (rule 9.2).")
            return f"{text} {more.format(name=name)}"
        earlier = None
        if self.conduct_of(name) is Action.WARN:
            why = _("{name} was warned earlier in this hand: this second offence removes {name} (rule 9.2).")
        elif (earlier := self.warned_in(name)) is not None:
            why = _("{name} was warned in hand {earlier}: this second offence removes {name} (rule 9.2).")
        else:
            why = _("{name} has not been warned before: the rules remove a player at the second offence (rule 9.2).")
        why = why.format(name=name, earlier=earlier)
        removals = [{"player": who, "action": "remove"} for who in self.removed_now]
        probe = dict(self.record)
        probe["hands"] = [*(self.record.get("hands") or []), {"scores": {}, "conduct": removals}]
        consequence = bb.removal_consequence(probe, name)
        told = words.note(consequence.why) if consequence.why is not None else consequence.text
        text = _("Remove {name}: {cards}.").format(name=name, cards=cards) + f" {why} {told}"
        if self.options.vegas and not consequence.cancels:
            text += " " + _("What {name} has paid stays in the pot (BB-13).").format(name=name)
        return text

    def _discarded(self, name: str) -> Note:
        """What happens to ``name``'s cards now (BB-12): the unplayed ones are discarded. The quick form records no
        cards, so it cannot say how many."""
        if self.mode is EntryMode.QUICK:
            return Note.of(N_("{name}'s unplayed cards are discarded"), name=name)
        left = self.cards_left(name)
        if left == 1:
            return Note.of(N_("{name}'s 1 unplayed card is discarded"), name=name)
        if left:
            return Note.of(N_("{name}'s {n} unplayed cards are discarded"), name=name, n=left)
        return Note.of(N_("{name} has no unplayed cards in this hand, so nothing is discarded"), name=name)

    def removal_cancels(self, name: str) -> bool:
        """Whether removing ``name`` now cancels the game (rule 9.3, BB-14)."""
        return len(self.removed_before) + len(self.removed_now) + 1 >= bb.cancel_threshold(len(self.players))

    def cancels(self) -> bool:
        """Whether this hand's removals cancel the game."""
        count = len(self.removed_before) + len(self.removed_now)
        return bool(self.removed_now) and count >= bb.cancel_threshold(len(self.players))

    def give_conduct(self, name: str, action: Action) -> BinEntry:
        """Warn or remove ``name`` in this hand (the chosen receiver is dropped if it is ``name``)."""
        self.verify_conduct(name, action)
        conduct = (*(c for c in self.conduct if c[0] != name), (name, action))
        receiver = None if self.receiver == name else self.receiver
        giver = None if self.chosen_giver == name else self.chosen_giver
        joker = self.joker_waiting and self.giver != name
        return replace(self, conduct=conduct, receiver=receiver, chosen_giver=giver, joker_waiting=joker)

    def take_back_conduct(self, name: str) -> BinEntry:
        """Withdraw this hand's warning or removal of ``name``."""
        if self.conduct_of(name) is None:
            raise ConductError(Note.of(N_("{name} has no warning or removal in this hand"), name=name))
        return replace(self, conduct=tuple(c for c in self.conduct if c[0] != name))

    # --- quick form -----------------------------------------------------------------------------------------

    def set_mode(self, mode: EntryMode) -> BinEntry:
        """Switch between live play and the quick form (nothing entered in the other is lost)."""
        return replace(self, mode=mode, receiver=None, joker_waiting=False)

    def set_score(self, name: str, text: str) -> BinEntry:
        """What was typed for ``name``'s card points (checked on :meth:`verify_complete`)."""
        if name not in self.players:
            raise ScoreInputError(Note.of(N_("{name} is not a player in this game"), name=name))
        scores = dict(self.scores)
        scores[name] = str(text)
        return replace(self, scores=tuple(scores.items()))

    def score_text(self, name: str) -> str:
        return dict(self.scores).get(name, "")

    def score_players(self) -> list[str]:
        """Who needs a total in the quick form: the active players (one removed in this hand may be left out)."""
        return self.active

    def parsed_scores(self) -> dict[str, int]:
        """The quick form's totals (raises :class:`ScoreInputError` for text that is not a whole number)."""
        typed = dict(self.scores)
        out: dict[str, int] = {}
        for name in self.score_players():
            text = typed.get(name, "").strip().replace("−", "-").replace(" ", "")
            if not text:
                if self.conduct_of(name) is Action.REMOVE:
                    continue
                raise ScoreInputError(Note.of(N_("{name}'s card points are missing"), name=name))
            try:
                out[name] = int(text)
            except ValueError:
                raise ScoreInputError(f"{name}'s card points '{typed[name]}' is not a whole number") from None
        return out

    def typed_summary(self) -> str:
        """The quick form as typed so far, ``Ann 10, Ben —`` (— for nothing yet).

        >>> rec = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"]}
        >>> BinEntry.start(rec).set_score("Ann", "10").set_score("Cat", " -4 ").typed_summary()
        'Ann 10, Ben —, Cat -4, Dan —'
        """
        typed = dict(self.scores)
        return ", ".join(f"{name} {typed.get(name, '').strip() or '—'}" for name in self.score_players())

    def shown_points(self) -> dict[str, int]:
        """The card points this entry gives so far (live: from the plays; quick: what parses)."""
        if self.mode is EntryMode.LIVE:
            return self.running_points()
        points = dict.fromkeys(self.players, 0)
        for name, text in self.scores:
            try:
                points[name] = int(text.strip().replace("−", "-"))
            except ValueError:
                continue
        return points

    # --- the whole hand -------------------------------------------------------------------------------------

    def missing(self) -> str:
        """What is still to be entered, in words ('' when the hand is complete)."""
        note = self.missing_note()
        return "" if note is None else render(note)

    def missing_note(self) -> Note | None:
        """:meth:`missing` as data, for the table's language (``None`` when the hand is complete)."""
        if self.mode is EntryMode.QUICK:
            try:
                self.parsed_scores()
            except ScoreInputError as exc:
                return exc.why if exc.why is not None else Note.of("{text}", text=str(exc))
            return None
        if self.joker_waiting:
            return Note.of(N_("the Joker's sign"))
        waiting = [(name, self.cards_left(name)) for name in self.active if self.cards_left(name)]
        if not waiting:
            return None
        first, count = waiting[0]
        if count == 1:
            head = Note.of(N_("{name} has 1 card left to play"), name=first)
        else:
            head = Note.of(N_("{name} has {n} cards left to play"), name=first, n=count)
        return Note.of("{head}{rest}", head=head, rest="".join(f", {name} {left}" for name, left in waiting[1:]))

    def to_hand(self) -> dict[str, Any]:
        """The hand as the record keeps it (raises :class:`BargainBinIncompleteError` if it is not complete)."""
        self.verify_complete()
        hand: dict[str, Any]
        if self.mode is EntryMode.QUICK:
            hand = {"scores": self.parsed_scores()}
        else:
            hand = {"plays": [play.as_dict() for play in self.plays]}
        if self.conduct:
            hand["conduct"] = [{"player": name, "action": action.value} for name, action in self.conduct]
        return hand

    def verify_complete(self) -> None:
        """Raise :class:`BargainBinIncompleteError` naming what is missing."""
        gap = self.missing_note()
        if gap is not None:
            raise BargainBinIncompleteError(Note.of(N_("the hand is not complete: {gap}"), gap=gap))

    def can_confirm(self) -> bool:
        return not self.missing()

    def preview(self) -> Result:
        """The result with this hand added (raises :class:`~scoring.ScoringError` or :class:`EntryError`)."""
        rec = dict(self.record)
        rec["hands"] = [*(self.record.get("hands") or []), self.to_hand()]
        return bb.GAME.score(rec)

    # --- Vegas ----------------------------------------------------------------------------------------------

    def vegas_line(self, pot_before: int | None = None) -> tuple[dict[str, int], int] | None:
        """Under Vegas Rules: what each ranked player would pay for this hand as it stands, and the pot then
        (everything paid before plus this hand); ``None`` without Vegas. ``pot_before`` is the pot before this
        hand when the caller knows it (the session's result: it cannot change within a hand); without it the
        record is replayed to find it."""
        unit = self.options.vegas_unit_cents
        if unit is None:
            return None
        payments, _ = bb.vegas_payments(self.shown_points(), self.ranked, unit)
        pot = self.pot_before if pot_before is None else pot_before
        return payments, pot + sum(payments.values())

    @property
    def pot_before(self) -> int:
        """Under Vegas, the pot before this hand (the record is replayed once per entry when asked, never once per
        tap; the table screen passes the session's pot to :meth:`vegas_line` and replays nothing)."""
        if "pot" not in self._before:
            self._before["pot"] = as_bin_result(bb.GAME.score(self.record)).pot or 0
        return int(self._before["pot"])


# --------------------------------------------------------------------------------------------------------------
# The entry lifecycle (companion.entry.EntryState)


@dataclass(frozen=True)
class BargainBinState(EntryOf[BinEntry]):
    """A Bargain Bin hand as :class:`companion.entry.EntryState`: a :class:`BinEntry` (live play or quick form).

    >>> from companion.entry import EntryTarget
    >>> record = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"]}
    >>> state = BargainBinState.start(record, EntryTarget())
    >>> state.focus()
    'receiver/Ann'
    >>> quick = state.but(state.entry.set_mode(EntryMode.QUICK).set_score("Ann", "3"))
    >>> BargainBinState.from_draft(record, EntryTarget(), quick.to_draft()).focus()
    'score/Ben'
    """

    @classmethod
    def start(cls, record: Mapping[str, Any], target: EntryTarget | None = None) -> BargainBinState:
        return cls(BinEntry.start(record))

    @classmethod
    def from_hand(cls, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> BargainBinState:
        return cls(BinEntry.from_hand(record, hand))

    @classmethod
    def from_draft(cls, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> BargainBinState:
        return cls(BinEntry.from_draft(record, draft))

    def can_confirm(self) -> bool:
        return self.entry.can_confirm()

    def focus(self) -> str | None:
        """Live play: ``receiver/<giver>`` (who the giver's next card goes to), ``value/<giver>`` once the receiver
        is tapped, ``sign/<giver>`` for a Joker; the quick form: ``score/<name>``, the first total missing or
        unreadable. ``None`` when the hand is complete."""
        entry = self.entry
        if entry.mode is EntryMode.QUICK:
            typed = dict(entry.scores)
            for name in entry.score_players():
                text = typed.get(name, "").strip().replace("−", "-").replace(" ", "")
                if not text and entry.conduct_of(name) is Action.REMOVE:
                    continue
                try:
                    int(text)
                except ValueError:
                    return f"score/{name}"
            return None
        giver = entry.giver
        if giver is None:
            return None
        if entry.joker_waiting:
            return f"sign/{giver}"
        return f"value/{giver}" if entry.receiver is not None else f"receiver/{giver}"


def explain_keys(keys: Sequence[PadKey], king: int, words: Words | None = None) -> str:
    """A one-line reminder of the card values (rule 2, BB-1), in the table's language and card letters.

    >>> explain_keys([], 12, Words.of("de"))
    'Schwarze Karten plus, rote minus; A = 1, B = 11, D = 12, K = 12'
    """
    words = words or Words.of("en")
    letters = {rank: words.note(Note.of("{rank}", rank=Rank(rank=rank))) for rank in ("A", "J", "Q", "K")}
    if any(k.is_joker for k in keys):
        said = words.gettext("Black cards plus, red minus; {a} = 1, {j} = 11, {q} = 12, {k} = {king}, Joker ±{joker}")
    else:
        said = words.gettext("Black cards plus, red minus; {a} = 1, {j} = 11, {q} = 12, {k} = {king}")
    return said.format(a=letters["A"], j=letters["J"], q=letters["Q"], k=letters["K"], king=king, joker=JOKER_VALUE)


# --- what the app declares of Bargain Bin: its draft, its Rules page, its entry (companion.games.ENTRIES) ----------


class _Play(TypedDict):
    by: str
    to: str
    card: str


class _Conduct(TypedDict):
    player: str
    action: str


class _BargainBinDraft(TypedDict):
    mode: NotRequired[str]
    plays: NotRequired[list[_Play]]
    conduct: NotRequired[list[_Conduct]]
    scores: NotRequired[dict[str, str | int]]
    receiver: NotRequired[str | None]
    giver: NotRequired[str | None]
    joker_waiting: NotRequired[bool]


def _cards_are_cards(draft: Mapping[str, Any]) -> None:
    """Every card played is a Bargain Bin card (``KH``, ``JK+``): its entry state replays the plays by their pad
    keys, which would take any text.

    >>> _cards_are_cards({"plays": [{"by": "Ann", "to": "Ben", "card": "ZZ"}]})
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidCardError: 'ZZ' is not a card (write e.g. 10H, QS, AC, or JK+ / JK- for the Joker)
    """
    for play in draft.get("plays") or []:
        bb.BinCard.parse(play["card"])


GUIDE = GameGuide(
    key="bargain-bin",
    name="Bargain Bin",
    players=N_("4 to 10 players"),
    summary=N_("Give black cards to yourself, red cards to your rivals: the two best hands score a point each."),
    sections=(
        Section(
            N_("Card values"),
            (
                N_("Black cards (♠ ♣) count plus, red cards (♥ ♦) count minus."),
                N_("Ace 1, 2 to 10 at face value, Jack 11, Queen 12, King 12 (13 as a house rule)."),
                N_("With the Joker option, the Joker is worth 20, plus or minus as the player who plays it decides."),
            ),
        ),
        Section(
            N_("A hand"),
            (
                N_(
                    "Everyone gets 5 cards. In turn, each player lays one card face up in front of any player "
                    "(anyone but themselves under the Selfless option) until all cards are played."
                ),
                N_("Your hand score is the total of the cards lying in front of you. It can be negative."),
            ),
        ),
        Section(
            N_("Game points"),
            (
                N_("The highest and second-highest hand scores get 1 game point each."),
                N_("Two players tied for highest: both get a point. Three or more tied for highest: nobody does."),
                N_("A tie for second place: only the highest player gets a point."),
            ),
        ),
        Section(
            N_("End of the game"),
            (
                N_("The game ends after the hand in which someone reaches 10 game points."),
                N_(
                    "That player and the player with the next-highest total both win; if that next total is "
                    "shared, only the top player wins. Two players reaching 10 together both win."
                ),
            ),
        ),
        Section(
            N_("Vegas Rules and penalties"),
            (
                N_(
                    "Vegas Rules: after every hand each player pays the gap between the top hand score and their "
                    "own, times the agreed stake, into the pot. The winner takes the pot; two winners share it."
                ),
                N_(
                    "Bad conduct: the first offence loses the rest of your hand, the second removes you from the "
                    "game. Three removals (two in a four-player game) cancel the game and everyone is refunded."
                ),
            ),
        ),
    ),
    options=(
        HouseRule("king", N_("Value of a King"), N_("12"), N_("13"), "BB-1", ((12, N_("12")), (13, N_("13")))),
        HouseRule("target", N_("Game points to win"), N_("10"), N_("any number from 1"), "BB-5"),
        HouseRule("selfless", N_("Selfless: never play a card in front of yourself"), N_("off"), N_("on"), "BB-7"),
        HouseRule("joker", N_("Add one Joker worth plus or minus 20"), N_("off"), N_("on"), "BB-7"),
        HouseRule(
            "vegas_unit_cents",
            N_("Vegas Rules stake per point"),
            N_("off"),
            N_("a stake per point, such as 0.25 or 25¢"),
            "BB-8",
        ),
    ),
)
"""Bargain Bin in the app's own words: the Rules page (and ``docs/rules/bargain-bin.md``)."""

ENTRY = GameEntry(
    key=bb.GAME.key,
    state=BargainBinState,
    draft=TypeAdapter(_BargainBinDraft),
    guide=GUIDE,
    card_check=_cards_are_cards,
)
"""Bargain Bin in the companion: listed once in :data:`companion.games.ENTRIES`."""
