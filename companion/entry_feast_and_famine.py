"""Feast and Famine at the table: the dealer assistant that walks a round, and the quick form (no Flet here).

A round is entered as the table plays it (rule 5): the dealer is chosen (or is the one the rotation names), the
opening cards are dealt from the dealer's left (a Joker is set aside and replaced), then each player who is not
Frozen Takes or Refuses in turn, and every card turned for a Take is entered. A Joker turned on a Take knocks out
everyone not Frozen; the round also ends when everyone is Frozen. The assistant knows whose turn it is, what each
player holds, and the chance that the next card is a Joker (:func:`scoring.feast_and_famine.joker_chance`).

The draft is just the list of taps (``actions``); the state is derived by replaying them, so undoing a tap is
dropping the last action. FF-E1 (Cat deals; Ben's opening Joker is set aside and replaced):

>>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "hands": []}
>>> entry = RoundEntry.start(record, dealer="Cat")
>>> for tap in ["7C", "JK", "KD", "3H", "take", "5S", "refuse", "take", "9D", "refuse", "take", "4C", "take"]:
...     entry = entry.act(tap)
>>> entry.state.turn, entry.state.phase, entry.chance_text()
('Cat', <Phase.TURN: 'turn'>, '1 in 24 (4.2%)')
>>> entry = entry.act("JK")
>>> entry.to_hand()["status"]
{'Ann': 'frozen', 'Ben': 'frozen', 'Cat': 'out'}
>>> entry.preview_points()
{'Ann': 12, 'Ben': 10, 'Cat': 0}
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing_extensions TypedDicts on 3.11

from companion.entry import DraftStore, EntryController, EntryKind, EntryTarget, GameEntry, WordedError
from companion.guides import GameGuide, HouseRule, Section
from companion.i18n import N_, Words
from scoring import IncompleteError, Result, ScoringError, find_game
from scoring import feast_and_famine as ff
from scoring.base import passes
from scoring.cards import Card
from scoring.parts import Part
from scoring.why import Note

GHOST = "\x00ghost"
"""The Ghost's place in the offer order of a tie-break round (it is nobody's name)."""

TAKE = "take"
REFUSE = "refuse"

Action = str
"""One tap: ``"take"``, ``"refuse"`` or a card code (``"7C"``, ``"JK"``)."""


class EntryError(WordedError):
    """A tap or a form value the round cannot take; the message names the problem."""


class NotNowError(EntryError):
    """Take, Refuse or a card tapped when the round needs something else."""


class RoundOverError(EntryError):
    """A tap after the round has ended."""


class CardError(EntryError):
    """A card that cannot be dealt now (already in this round, a Joker too many)."""


class OutcomeError(EntryError):
    """A quick-form value that is not a Frozen total or "out"."""


class NoDealerError(EntryError, IncompleteError):
    """The round needs a dealer (or the tie-break a Ghost) before cards can be dealt."""


class FeastAndFamineIncompleteError(NotNowError, IncompleteError):
    """The round is confirmed before everyone is Frozen or Knocked Out."""


class Phase(enum.Enum):
    """Where the round is."""

    OPENING = "opening"
    """Dealing the opening face-up cards, one to each player from the dealer's left (rule 5.1)."""
    DECIDE = "decide"
    """The player whose turn it is Takes or Refuses (rule 5.2)."""
    TURN = "turn"
    """The dealer turns a card for the player who Took (the Ghost always Takes, rule 8.1)."""
    DONE = "done"
    """Everyone is Frozen or Knocked Out (in a tie-break: every tied player is, rule 8.2)."""


class Seat(enum.Enum):
    """A player's state in the round."""

    IN = "in"
    """Still playing: will be offered a card."""
    FROZEN = "frozen"
    """Refused a card: keeps the cards and scores them (rule 6)."""
    OUT = "out"
    """Knocked Out by a Joker: scores 0 (rule 6, FF-7)."""


def offer_order(players: Sequence[str], who: Sequence[str], dealer: str | None, *, ghost: bool = False) -> list[str]:
    """Who is offered cards, in order: from the dealer's left round to the dealer, who acts last (rule 5); in a
    tie-break the Ghost deals and acts last (FF-14), a dummy Ghost seat after the tied players in seating order.

    >>> offer_order(["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat"], "Ben")
    ['Cat', 'Ann', 'Ben']
    >>> offer_order(["A", "B", "C", "D"], ["A", "D"], "C", ghost=True) == ["D", "A", GHOST]
    True
    """
    if dealer is None:
        order = list(who)
    else:
        start = list(players).index(dealer)
        rotated = [*players[start + 1 :], *players[: start + 1]]
        order = [name for name in rotated if name in who]
    if ghost:
        order.append(GHOST)
    return order


@dataclass(frozen=True)
class RoundState:
    """The round as the taps so far leave it."""

    order: tuple[str, ...]
    cards: dict[str, tuple[str, ...]]
    seats: dict[str, Seat]
    phase: Phase
    turn: str | None
    """Whose turn it is (the player still without an opening card, the one to decide, or the taker)."""
    set_aside: int
    """Jokers put aside in the opening deal (they go back into the deck, rule 5.1)."""
    ended_by_joker: bool = False

    def seen(self) -> list[Card]:
        """Every card dealt this round and still on the table (the Ghost's included)."""
        return [Card.parse(code) for name in self.order for code in self.cards[name]]


@dataclass(frozen=True)
class RoundEntry:
    """One round being entered: its players, dealer (or Ghost), house rules and the taps so far."""

    players: tuple[str, ...]
    who: tuple[str, ...]
    """The players who play it: everyone, or the tied leaders in a tie-break."""
    dealer: str | None
    """The dealer; in a tie-break the Ghost's seat (``None``: a dummy Ghost seat, FF-10)."""
    tiebreak: bool
    options: ff.Options
    actions: tuple[Action, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # --- making one ------------------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        record: Mapping[str, Any] | ff.Record,
        dealer: str | None,
        actions: Sequence[Action] = (),
        *,
        tiebreak: bool = False,
        context: RoundContext | None = None,
    ) -> RoundEntry:
        """The round that comes next in ``record`` (the tie-break when ``tiebreak``), dealt by ``dealer``; the
        ``actions`` are replayed (raises :class:`EntryError` if one does not fit). ``context``: what the record says
        about the round, when already worked out (:class:`RoundContext`), so the record is not read again."""
        if context is None or context.tiebreak != tiebreak:
            context = RoundContext.of(record, tiebreak=tiebreak)
        parsed = context.parsed
        players = tuple(parsed.players)
        who = context.tied if tiebreak else players
        if tiebreak:
            context.verify_ghost(dealer)
        elif dealer is None:
            raise NoDealerError(Note.of(N_("choose the dealer first")))
        else:
            _verify_dealer(parsed, dealer)
        entry = cls(players, who, dealer, tiebreak, parsed.options)
        entry.state  # noqa: B018 - a round with no taps is always valid; computes the cache
        for action in actions:
            entry = entry.act(action)
        return entry

    @property
    def state(self) -> RoundState:
        found = self._cache.get("state")
        if found is None:
            found = _replay(self)
            self._cache["state"] = found
        return found

    @cached_property
    def order(self) -> list[str]:
        return offer_order(self.players, self.who, self.dealer, ghost=self.tiebreak)

    # --- checks the screen uses to grey out what cannot be tapped ------------------------------------------------

    def verify_take(self) -> None:
        """Raise unless the player whose turn it is may Take now."""
        state = self.state
        if state.phase is Phase.DONE:
            raise RoundOverError(Note.of(N_("the round is over: confirm it, or undo the last tap")))
        if state.phase is not Phase.DECIDE:
            raise NotNowError(f"{self._need_text(state)} first")

    def can_take(self) -> bool:
        return _ok(self.verify_take)

    def verify_refuse(self) -> None:
        """Raise unless the player whose turn it is may Refuse now (the Ghost never Refuses, rule 8.1)."""
        self.verify_take()

    def can_refuse(self) -> bool:
        return _ok(self.verify_refuse)

    def verify_card(self, code: str) -> Card:
        """The card, or :class:`EntryError` unless it can be dealt now (rule 5; no card twice, FF-1 Jokers)."""
        state = self.state
        try:
            card = Card.parse(code)
        except ValueError as exc:
            raise CardError(str(exc)) from None
        if state.phase is Phase.DONE:
            raise RoundOverError(Note.of(N_("the round is over: confirm it, or undo the last tap")))
        if card.is_joker:
            if state.phase is Phase.OPENING and state.set_aside >= self.options.jokers:
                raise CardError(
                    f"the deck has only {self.options.jokers} Joker{'s' if self.options.jokers != 1 else ''} "
                    "(house rule FF-1), and all were already put aside"
                )
            return card
        try:
            ff.verify_hold(card, state.seen())
        except ScoringError as exc:
            raise CardError(str(exc)) from None
        return card

    def can_card(self, code: str) -> bool:
        return _ok(lambda: self.verify_card(code))

    # --- taps --------------------------------------------------------------------------------------------------

    def act(self, action: Action) -> RoundEntry:
        """The entry with one more tap (``"take"``, ``"refuse"`` or a card); raises :class:`EntryError`.

        A card tapped when a player is to Take or Refuse is the card turned for their Take (rule 5.2): the tap
        says both, so a Take costs one tap, as the card it brings. The draft keeps ``"take"`` and the card.

        >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
        >>> entry = RoundEntry.start(record, "Ben", ["7C", "6S"]).act("5H")
        >>> entry.actions, entry.state.cards["Ann"], entry.state.turn
        (('7C', '6S', 'take', '5H'), ('7C', '5H'), 'Ben')
        """
        if action not in (TAKE, REFUSE) and self.state.phase is Phase.DECIDE:
            self.verify_card(action)
            return self.act(TAKE).act(action)
        if action == TAKE:
            self.verify_take()
        elif action == REFUSE:
            self.verify_refuse()
        else:
            action = str(self.verify_card(action))
        new = replace(self, actions=(*self.actions, action), _cache={})
        new._cache["state"] = _step(self, self.state, action)
        return new

    def undo(self) -> RoundEntry:
        """The entry without its last tap: a card turned for a Take goes with its Take (one tap made both).

        >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
        >>> RoundEntry.start(record, "Ben", ["7C", "6S", "5H"]).undo().actions
        ('7C', '6S')
        >>> RoundEntry.start(record, "Ben", ["7C", "6S", "take"]).undo().actions
        ('7C', '6S')
        """
        actions = self.actions[:-1]
        if self.actions and self.actions[-1] not in (TAKE, REFUSE) and actions and actions[-1] == TAKE:
            actions = actions[:-1]
        return replace(self, actions=actions, _cache={})

    # --- reading -------------------------------------------------------------------------------------------------

    def name_of(self, seat: str | None, words: Words | None = None) -> str:
        _ = (words or Words.of("en")).gettext
        if seat == GHOST:
            return _("the Ghost") if self.dealer is None else _("the Ghost ({name}'s seat)").format(name=self.dealer)
        return seat or _("nobody")

    def _need_text(self, state: RoundState) -> str:
        if state.phase is Phase.OPENING:
            return f"deal {self.name_of(state.turn)}'s opening card"
        if state.phase is Phase.DECIDE:
            return f"{self.name_of(state.turn)}: Take or Refuse"
        return f"turn the card {self.name_of(state.turn)} takes"

    def prompt(self, words: Words | None = None) -> str:
        """What the table does next, in words.

        >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
        >>> RoundEntry.start(record, "Ben").prompt()
        "Deal Ann's opening card (a Joker is put aside and replaced)"
        >>> RoundEntry.start(record, "Ben", ["7C", "6S"]).prompt()
        'Ann: Take (tap the card turned) or Refuse?'
        """
        state = self.state
        _ = (words or Words.of("en")).gettext
        who = self.name_of(state.turn, words)
        if state.phase is Phase.OPENING:
            return _("Deal {who}'s opening card (a Joker is put aside and replaced)").format(who=who)
        if state.phase is Phase.DECIDE:
            return _("{who}: Take (tap the card turned) or Refuse?").format(who=who)
        if state.phase is Phase.TURN:
            said = _("{who} always Takes: turn its card") if state.turn == GHOST else _("{who} Takes: turn the card")
            said = said.format(who=who)
            return f"{said[0].upper()}{said[1:]}"
        if state.ended_by_joker:
            return _("A Joker: everyone not Frozen is Knocked Out. Confirm the round")
        return _("Everyone is Frozen. Confirm the round")

    def total(self, name: str) -> int:
        """The value of what ``name`` holds now (rule 1, FF-2)."""
        return ff.hand_total([Card.parse(code) for code in self.state.cards[name]], self.options)

    def chance(self) -> Fraction:
        """The chance that the next card turned is a Joker, given the cards on the table (opening Jokers are back
        in the deck)."""
        return ff.joker_chance(self.state.seen(), self.options)

    def chance_text(self, words: Words | None = None) -> str:
        """:meth:`chance` for people: ``2 in 45 (4.4%)``."""
        return chance_text(self.chance(), words)

    def legal_cards(self) -> list[str]:
        """The card codes that can be tapped now (the Joker included when it can come up): the opening cards, and
        the card turned for a Take (tapping it while a player decides is their Take)."""
        if self.state.phase is Phase.DONE:
            return []
        codes = [str(card) for card in ff.legal_cards(self.state.seen())]
        return [*codes, "JK"] if self.can_card("JK") else codes

    @property
    def complete(self) -> bool:
        return self.state.phase is Phase.DONE

    def to_hand(self) -> dict[str, Any]:
        """The round as the record keeps it (the cards form); raises :class:`NotNowError` until it is over."""
        state = self.state
        if state.phase is not Phase.DONE:
            raise FeastAndFamineIncompleteError(f"the round is not over yet: {self._need_text(state)}")
        cards = {name: list(state.cards[name]) for name in self.who}
        status = {name: state.seats[name].value for name in self.who}
        head: dict[str, Any] = {"ghost": self.dealer} if self.tiebreak else {"dealer": self.dealer}
        return {**head, "cards": cards, "status": status}

    def preview_points(self) -> dict[str, int]:
        """Each player's round score if the round ended now with the present states (rule 6)."""
        state = self.state
        return {name: self.total(name) if state.seats[name] is not Seat.OUT else 0 for name in self.who}


def _ok(check: Callable[[], object]) -> bool:
    return passes(check, (EntryError,))


def _initial(entry: RoundEntry) -> RoundState:
    order = tuple(entry.order)
    return RoundState(
        order=order,
        cards={name: () for name in order},
        seats=dict.fromkeys(order, Seat.IN),
        phase=Phase.OPENING,
        turn=order[0],
        set_aside=0,
    )


def _replay(entry: RoundEntry) -> RoundState:
    state = _initial(entry)
    base = replace(entry, actions=(), _cache={})
    base._cache["state"] = state
    for action in entry.actions:
        base = base.act(action)
    return base.state


def _next(state: RoundState, after: str, seats: Mapping[str, Seat]) -> tuple[Phase, str | None]:
    """Whose turn follows ``after`` (rule 5.2-5.3, rule 8.2)."""
    players = [name for name in state.order if name != GHOST]
    if all(seats[name] is not Seat.IN for name in players):
        return Phase.DONE, None
    order = list(state.order)
    start = order.index(after)
    for step in range(1, len(order) + 1):
        name = order[(start + step) % len(order)]
        if seats[name] is Seat.IN:
            return (Phase.TURN if name == GHOST else Phase.DECIDE), name
    return Phase.DONE, None  # pragma: no cover - some player is IN here


def _step(entry: RoundEntry, state: RoundState, action: Action) -> RoundState:
    """The state after one checked tap."""
    cards = dict(state.cards)
    seats = dict(state.seats)
    turn = state.turn
    assert turn is not None
    if state.phase is Phase.OPENING:
        if action == "JK":
            return replace(state, set_aside=state.set_aside + 1)
        cards[turn] = (action,)
        order = list(state.order)
        index = order.index(turn)
        if index + 1 < len(order):
            return replace(state, cards=cards, turn=order[index + 1])
        phase, nxt = _next(state, order[-1], seats)
        return replace(state, cards=cards, phase=phase, turn=nxt)
    if state.phase is Phase.DECIDE:
        if action == TAKE:
            return replace(state, phase=Phase.TURN)
        seats[turn] = Seat.FROZEN
        phase, nxt = _next(state, turn, seats)
        return replace(state, seats=seats, phase=phase, turn=nxt)
    # Phase.TURN
    if action == "JK":
        for name, seat in seats.items():
            if seat is Seat.IN:
                seats[name] = Seat.OUT
        return replace(state, seats=seats, phase=Phase.DONE, turn=None, ended_by_joker=True)
    cards[turn] = (*cards[turn], action)
    phase, nxt = _next(state, turn, seats)
    return replace(state, cards=cards, phase=phase, turn=nxt)


def chance_text(chance: Fraction, words: Words | None = None) -> str:
    """A chance for people.

    >>> chance_text(Fraction(2, 51)), chance_text(Fraction(0))
    ('2 in 51 (3.9%)', 'none (0%)')
    """
    _ = (words or Words.of("en")).gettext
    if chance == 0:
        return _("none (0%)")
    said = _("{k} in {n} ({percent}%)")
    return said.format(k=chance.numerator, n=chance.denominator, percent=f"{float(chance) * 100:.1f}")


# --- the record around a round ------------------------------------------------------------------------------------


def _parse(record: Mapping[str, Any] | ff.Record) -> ff.Record:
    if isinstance(record, ff.Record):
        return record
    parsed = find_game("feast-and-famine").parse(dict(record))
    assert isinstance(parsed, ff.Record)
    return parsed


def _verify_dealer(parsed: ff.Record, dealer: str) -> None:
    try:
        ff.verify_deal(parsed, dealer)
    except ScoringError as exc:
        raise NoDealerError(str(exc)) from None


def tied_players(record: Mapping[str, Any] | ff.Record, result: Result | None = None) -> list[str]:
    """The tied leaders who play the tie-break (empty when no tie-break is due): read from ``result``, what scoring
    gave for ``record`` when it is known already (the session's), else the record is scored."""
    if result is None:
        result = find_game("feast-and-famine").score(record if isinstance(record, ff.Record) else dict(record))
    if result.pending is None or result.pending.kind != "tiebreak":
        return []
    return list(result.pending.players)


def ghost_choices(record: Mapping[str, Any] | ff.Record) -> list[str]:
    """Who may be the Ghost (FF-9); empty: a dummy Ghost seat deals (FF-10)."""
    return ff.ghost_candidates(_parse(record), tied_players(record))


def verify_ghost(record: Mapping[str, Any], ghost: str | None) -> None:
    """Raise :class:`NoDealerError` unless ``ghost`` may be the Ghost (``None`` only when nobody else is seated)."""
    choices = ghost_choices(record)
    if ghost is None and choices:
        raise NoDealerError(f"choose the Ghost's seat first: {' or '.join(choices)}")
    if ghost is not None and ghost not in choices:
        raise NoDealerError(
            Note.of(
                N_("{ghost} cannot be the Ghost: the Ghost is a player who is not tied (rule 8.1, FF-9)"), ghost=ghost
            )
        )


def can_ghost(record: Mapping[str, Any], ghost: str | None) -> bool:
    return _ok(lambda: verify_ghost(record, ghost))


@dataclass(frozen=True)
class RoundContext:
    """What entering one round needs from the record, worked out once per record (a change of the session), never
    per tap: the record parsed, the tied leaders of a tie-break (the only part that scores the record) and who may
    deal (or be the Ghost).

    >>> record = {"game": "feast-and-famine", "players": ["A", "B"], "hands": [
    ...     {"dealer": "A", "outcome": {"A": 3, "B": "out"}}]}
    >>> context = RoundContext.of(record)
    >>> context.choices, deal_info(context.parsed).dealer
    (('B',), 'B')
    """

    parsed: ff.Record
    tiebreak: bool = False
    tied: tuple[str, ...] = ()
    """The tied leaders who play the tie-break (only for a tie-break round)."""
    choices: tuple[str, ...] = ()
    """Who may deal the round (in a tie-break: be the Ghost, FF-9; empty: a dummy Ghost seat, FF-10)."""

    @classmethod
    def of(
        cls, record: Mapping[str, Any] | ff.Record, *, tiebreak: bool = False, result: Result | None = None
    ) -> RoundContext:
        """The context of the next round of ``record`` (the tie-break's when ``tiebreak``). ``result``: what scoring
        gave for ``record``, when known (the session's result), so that the record is not scored again for the
        tie-break's players."""
        parsed = _parse(record)
        if not tiebreak:
            return cls(parsed, False, (), tuple(name for name in parsed.players if ff.can_deal(parsed, name)))
        tied = tuple(tied_players(parsed, result))
        return cls(parsed, True, tied, tuple(ff.ghost_candidates(parsed, list(tied))))

    def verify_ghost(self, ghost: str | None) -> None:
        """:func:`verify_ghost` with what is known already."""
        if ghost is None and self.choices:
            raise NoDealerError(f"choose the Ghost's seat first: {' or '.join(self.choices)}")
        if ghost is not None and ghost not in self.choices:
            raise NoDealerError(
                Note.of(
                    N_("{ghost} cannot be the Ghost: the Ghost is a player who is not tied (rule 8.1, FF-9)"),
                    ghost=ghost,
                )
            )


def dealer_choices(record: Mapping[str, Any] | ff.Record) -> list[str]:
    """Who may deal the next round: the player the rotation names, or anyone at the start of a circuit."""
    parsed = _parse(record)
    return [name for name in parsed.players if ff.can_deal(parsed, name)]


@dataclass(frozen=True)
class DealInfo:
    """Dealer rotation and circuits, for the table (rule 3, rule 4, FF-5)."""

    round: int
    """The next round's number (1-based)."""
    rounds: int
    circuit: int
    circuits: int
    rounds_left: int
    dealer: str | None
    """The dealer the rotation names; ``None`` when the table chooses (the first round of a circuit)."""

    @property
    def text(self) -> str:
        """
        >>> DealInfo(4, 9, 2, 3, 6, None).text
        'Round 4 of 9 · circuit 2 of 3 · the table chooses the dealer (rule 4)'
        """
        return self.text_with(None)

    def text_with(self, chosen: str | None, words: Words | None = None) -> str:
        """:attr:`text` once the table has chosen ``chosen`` to deal (the first round of a circuit, rule 4).

        >>> DealInfo(4, 9, 2, 3, 6, None).text_with("Cat")
        'Round 4 of 9 · circuit 2 of 3 · Cat deals (chosen by the table)'
        """
        _ = (words or Words.of("en")).gettext
        if self.dealer:
            who = _("{name} deals (the deal passes left)").format(name=self.dealer)
        elif chosen:
            who = _("{name} deals (chosen by the table)").format(name=chosen)
        else:
            who = _("the table chooses the dealer (rule 4)")
        said = _("Round {round} of {rounds} · circuit {circuit} of {circuits} · {who}")
        return said.format(round=self.round, rounds=self.rounds, circuit=self.circuit, circuits=self.circuits, who=who)


def dealer_line(info: DealInfo, draft: Mapping[str, Any] | None, words: Words | None = None) -> str | None:
    """Who deals the next round, for the line under the standings: the rotation's dealer, else the one the table
    chose for the round being entered (``draft``, as :meth:`FeastState.to_draft` keeps it), else ``None`` (the
    entry panel asks "Who deals?": nothing on the table says otherwise meanwhile).

    >>> info = DealInfo(1, 6, 1, 3, 6, None)
    >>> dealer_line(info, None), dealer_line(info, {"dealer": "Ben", "actions": []})
    (None, 'Ben (chosen by the table)')
    >>> dealer_line(DealInfo(2, 6, 1, 3, 5, "Cat"), None)
    'Cat'
    """
    if info.dealer:
        return info.dealer
    chosen = (draft or {}).get("dealer")
    if not isinstance(chosen, str) or not chosen:
        return None
    return (words or Words.of("en")).gettext("{name} (chosen by the table)").format(name=chosen)


def deal_info(record: Mapping[str, Any] | ff.Record) -> DealInfo:
    """Where the game is: the next round, its circuit, who deals.

    >>> deal_info({"game": "feast-and-famine", "players": ["A", "B"], "hands": [
    ...     {"dealer": "A", "outcome": {"A": 3, "B": "out"}}]}).text
    'Round 2 of 6 · circuit 1 of 3 · B deals (the deal passes left)'
    """
    parsed = _parse(record)
    count = len(parsed.players)
    done = len(parsed.hands)
    circuits = ff.circuit_count(count, parsed.options)
    return DealInfo(
        round=done + 1,
        rounds=ff.total_rounds(parsed),
        circuit=min(done // count + 1, circuits),
        circuits=circuits,
        rounds_left=ff.rounds_left(parsed),
        dealer=ff.expected_dealer(parsed),
    )


# --- the quick form -------------------------------------------------------------------------------------------------

OUT_WORDS = ("out", "ko", "x", "knocked out")


def parse_outcome(name: str, text: str) -> int | Literal["out"]:
    """A quick-form value: a Frozen total (0 to 340) or ``out``.

    >>> parse_outcome("Ann", " 12 "), parse_outcome("Ben", "OUT")
    (12, 'out')
    >>> parse_outcome("Cat", "twelve")
    Traceback (most recent call last):
    ...
    companion.entry_feast_and_famine.OutcomeError: Cat: 'twelve' is not a Frozen total (a whole number) or "out"
    """
    clean = " ".join(str(text).split()).lower()
    if not clean:
        raise OutcomeError(Note.of(N_("{name}: enter a Frozen total or tap Out"), name=name))
    if clean in OUT_WORDS:
        return "out"
    try:
        value = int(clean)
    except ValueError:
        raise OutcomeError(f'{name}: {text.strip()!r} is not a Frozen total (a whole number) or "out"') from None
    if value < 0:
        raise OutcomeError(Note.of(N_("{name}: a Frozen total cannot be negative ({value})"), name=name, value=value))
    if value > ff.DECK_VALUE:
        raise OutcomeError(
            Note.of(
                N_("{name}: {value} is more than the whole deck is worth ({DECK_VALUE})"),
                name=name,
                value=value,
                DECK_VALUE=ff.DECK_VALUE,
            )
        )
    return value


def quick_hand(
    record: Mapping[str, Any] | ff.Record,
    dealer: str | None,
    values: Mapping[str, str],
    *,
    tiebreak: bool = False,
    context: RoundContext | None = None,
) -> dict[str, Any]:
    """The round in the quick form from what the table typed (each player's total, or "out").

    >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
    >>> quick_hand(record, "Ben", {"Ann": "11", "Ben": "out"})
    {'dealer': 'Ben', 'outcome': {'Ann': 11, 'Ben': 'out'}}
    >>> quick_hand(record, "Ben", {"Ann": "11"})
    Traceback (most recent call last):
    ...
    companion.entry_feast_and_famine.OutcomeError: Ben: enter a Frozen total or tap Out
    """
    if context is None or context.tiebreak != tiebreak:
        context = RoundContext.of(record, tiebreak=tiebreak)
    parsed = context.parsed
    if tiebreak:
        context.verify_ghost(dealer)
        who = list(context.tied)
    else:
        if dealer is None:
            raise NoDealerError(Note.of(N_("choose the dealer first")))
        _verify_dealer(parsed, dealer)
        who = list(parsed.players)
    outcome = {name: parse_outcome(name, values.get(name, "")) for name in who}
    head: dict[str, Any] = {"ghost": dealer} if tiebreak else {"dealer": dealer}
    return {**head, "outcome": outcome}


# --- corrections -----------------------------------------------------------------------------------------------------


def actions_of(entry: RoundEntry, hand: Mapping[str, Any]) -> list[Action] | None:
    """Taps that give a saved cards-form round (to walk it again when correcting it); ``None`` when the round was
    entered with the quick form or cannot be replayed.

    >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
    >>> entry = RoundEntry.start(record, "Ben")
    >>> actions_of(entry, {"dealer": "Ben", "cards": {"Ann": ["AS", "QH"], "Ben": ["6C"]},
    ...                    "status": {"Ann": "frozen", "Ben": "frozen"}})
    ['AS', '6C', 'take', 'QH', 'refuse', 'refuse']
    """
    cards, status = hand.get("cards"), hand.get("status")
    if not isinstance(cards, Mapping) or not isinstance(status, Mapping):
        return None
    try:
        held = {name: [str(Card.parse(code)) for code in cards[name]] for name in entry.who}
        ends = {name: Seat(status[name]) for name in entry.who}
    except (KeyError, ValueError):
        return None
    if any(not held[name] for name in entry.who):
        return None
    actions: list[Action] = [held[name][0] for name in entry.order if name != GHOST]
    left = {name: held[name][1:] for name in entry.who}
    current = entry
    try:
        for action in actions:
            current = current.act(action)
        while not current.complete:
            state = current.state
            turn = state.turn
            assert turn is not None
            if turn == GHOST:
                waiting = [n for n in entry.who if state.seats[n] is Seat.IN]
                knocked = all(not left[n] and ends[n] is Seat.OUT for n in waiting)
                step = "JK" if knocked else _ghost_card(current)
                current = current.act(step)
                actions.append(step)
                continue
            if left[turn]:
                steps = [TAKE, left[turn].pop(0)]
            elif ends[turn] is Seat.FROZEN:
                steps = [REFUSE]
            else:
                steps = [TAKE, "JK"]
            for step in steps:
                current = current.act(step)
                actions.append(step)
    except (EntryError, AssertionError):
        return None
    if current.to_hand()["cards"] != held or current.to_hand()["status"] != {n: ends[n].value for n in entry.who}:
        return None
    return actions


def _ghost_card(entry: RoundEntry) -> str:
    legal = [code for code in entry.legal_cards() if code != "JK"]
    if not legal:
        raise CardError(Note.of(N_("no card left for the Ghost")))
    return legal[0]


# --- the entry lifecycle (companion.entry.EntryState) -------------------------------------------------------------

WALK = "walk"
"""Walk the round tap by tap (:class:`RoundEntry`)."""
QUICK = "quick"
"""The quick form: each player's Frozen total or "out"."""
MODE_KEY = "mode/feast-and-famine"
"""Where a session keeps the form its table enters rounds in (:func:`remembered_mode`), beside its drafts: a
table that keeps totals keeps doing so, round after round, until it switches back."""


def remembered_mode(store: DraftStore) -> str:
    """The form this session's table last chose (:data:`WALK` until it chooses the quick form).

    >>> from companion.entry import MemoryDrafts
    >>> store = MemoryDrafts()
    >>> remembered_mode(store)
    'walk'
    >>> remember_mode(store, QUICK)
    >>> remembered_mode(store)
    'quick'
    """
    kept = store.draft(MODE_KEY) or {}
    return QUICK if kept.get("mode") == QUICK else WALK


def remember_mode(store: DraftStore, mode: str) -> None:
    """Keep ``mode`` as this session's form for the rounds that follow (the walk is the default: nothing kept)."""
    if mode not in (WALK, QUICK):
        raise EntryError(f"{mode!r} is not a way to enter a round (walk or quick)")
    store.set_draft({"mode": QUICK} if mode == QUICK else None, MODE_KEY)


@dataclass(frozen=True)
class KnownRound:
    """:class:`FeastState`'s three constructors (an :class:`companion.entry.EntryKind`) for the record whose
    :class:`RoundContext` is known already, worked out from the session's result: the record is not scored again
    for the tie-break's players. Given another record (the entry reopened after a change), it works the context
    out from that record, as :class:`FeastState` does.

    >>> record = {"game": "feast-and-famine", "players": ["A", "B"], "options": {"circuits": 1}, "hands": [
    ...     {"dealer": "A", "outcome": {"A": 5, "B": 5}}, {"dealer": "B", "outcome": {"A": "out", "B": "out"}}]}
    >>> result = find_game("feast-and-famine").score(record)  # the session's, when this round is entered
    >>> kind = KnownRound(record, RoundContext.of(record, tiebreak=True, result=result))
    >>> kind.start(record, EntryTarget(Part.TIEBREAK)).who  # the tied leaders, read from the result
    ['A', 'B']
    """

    record: Mapping[str, Any]
    context: RoundContext

    def _context(self, record: Mapping[str, Any], target: EntryTarget) -> RoundContext | None:
        fits = self.context.tiebreak == (target.part is Part.TIEBREAK) and record == self.record
        return self.context if fits else None

    def start(self, record: Mapping[str, Any], target: EntryTarget) -> FeastState:
        return FeastState.start(record, target, context=self._context(record, target))

    def from_hand(self, record: Mapping[str, Any], target: EntryTarget, hand: Mapping[str, Any]) -> FeastState:
        return FeastState.from_hand(record, target, hand, context=self._context(record, target))

    def from_draft(self, record: Mapping[str, Any], target: EntryTarget, draft: Mapping[str, Any]) -> FeastState:
        return FeastState.from_draft(record, target, draft, context=self._context(record, target))


def open_round(
    store: DraftStore,
    record: Mapping[str, Any],
    target: EntryTarget,
    existing: Mapping[str, Any] | None = None,
    defer: Callable[[Callable[[], None]], None] | None = None,
    *,
    result: Result | None = None,
) -> EntryController[FeastState]:
    """The entry of one round (:class:`companion.entry.EntryController`), in the form the session's table last
    chose when nothing is kept for it yet: a new round starts in the quick form after a quick-form round.
    ``result``: what scoring gave for ``record``, when known (the session's result, for the next round): a
    tie-break round's players are read from it, and the record is not scored again (:class:`KnownRound`).

    >>> from companion.entry import MemoryDrafts
    >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben"], "hands": []}
    >>> store = MemoryDrafts()
    >>> open_round(store, record, EntryTarget()).state.mode
    'walk'
    >>> remember_mode(store, QUICK)
    >>> open_round(store, record, EntryTarget()).state.mode
    'quick'
    """
    kind: EntryKind[FeastState] = FeastState
    if result is not None:
        kind = KnownRound(dict(record), RoundContext.of(record, tiebreak=target.part is Part.TIEBREAK, result=result))
    ctl = EntryController(kind, store, record, target, existing, defer=defer)
    if target.is_new and not ctl.restored and remembered_mode(store) == QUICK:
        ctl.state = ctl.state.set_mode(QUICK)
    return ctl


@dataclass(frozen=True)
class FeastState:
    """A Feast and Famine round (or tie-break round) as :class:`companion.entry.EntryState`: the mode (walked or the
    quick form), the dealer (the Ghost's seat in a tie-break), the walked :class:`RoundEntry` and the quick form's
    values as typed.

    >>> from companion.entry import EntryTarget
    >>> record = {"game": "feast-and-famine", "players": ["Ann", "Ben", "Cat"], "hands": []}
    >>> state = FeastState.start(record, EntryTarget())
    >>> state.focus()  # the first round: the table chooses who deals
    'dealer'
    >>> state = state.choose_dealer("Cat").act("7C").act("KD")
    >>> FeastState.from_draft(record, EntryTarget(), state.to_draft()).focus()
    'opening/Cat'
    """

    record: Mapping[str, Any] = field(repr=False)
    tiebreak: bool = False
    mode: str = WALK
    dealer: str | None = None
    entry: RoundEntry | None = None
    values: dict[str, str] = field(default_factory=dict)
    context: RoundContext = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    """What the record says about this round, worked out once (:class:`RoundContext`; every tap carries it)."""

    def __post_init__(self) -> None:
        if self.context is None or self.context.tiebreak != self.tiebreak:
            object.__setattr__(self, "context", RoundContext.of(self.record, tiebreak=self.tiebreak))

    # --- who plays, who may deal ----------------------------------------------------------------------------------

    @property
    def who(self) -> list[str]:
        """The players of this round: everyone, or the tied leaders in a tie-break."""
        return list(self.context.tied) if self.tiebreak else list(self.context.parsed.players)

    @property
    def choices(self) -> list[str]:
        """Who may deal (or be the Ghost in a tie-break)."""
        return list(self.context.choices)

    # --- making one -------------------------------------------------------------------------------------------------

    @classmethod
    def start(
        cls, record: Mapping[str, Any], target: EntryTarget, *, context: RoundContext | None = None
    ) -> FeastState:
        """A round with nothing entered; the dealer is set when only one player may deal (or, in a tie-break with
        nobody else seated, the dummy Ghost seat, FF-10). ``context``: :class:`RoundContext` of ``record``, when
        worked out already."""
        state = cls(dict(record), tiebreak=target.part is Part.TIEBREAK, context=context)  # type: ignore[arg-type]
        if len(state.choices) == 1:
            return state.begin(state.choices[0], [])
        if state.tiebreak and not state.choices:
            return state.begin(None, [])
        return state

    @classmethod
    def from_hand(
        cls,
        record: Mapping[str, Any],
        target: EntryTarget,
        hand: Mapping[str, Any],
        *,
        context: RoundContext | None = None,
    ) -> FeastState:
        """A saved round, to correct it: walked again when its cards can be, else its totals in the quick form."""
        state = cls.start(record, target, context=context)
        dealer = hand.get("ghost") if state.tiebreak else hand.get("dealer")
        state = state.begin(dealer if isinstance(dealer, str) else None, [])
        if state.entry is not None:
            actions = actions_of(state.entry, hand)
            if actions is not None:
                return state.begin(state.dealer, actions)
        outcome = hand.get("outcome")
        if isinstance(outcome, Mapping):
            return replace(state, mode=QUICK, values={str(name): str(value) for name, value in outcome.items()})
        status = hand.get("status")
        if state.entry is not None and isinstance(status, Mapping):  # the cards cannot be walked: their totals
            values: dict[str, str] = {}
            for name in state.who:
                if status.get(name) == "out":
                    values[name] = "out"
                else:
                    cards = [Card.parse(code) for code in (hand.get("cards") or {}).get(name, [])]
                    values[name] = str(ff.hand_total(cards, state.entry.options))
            return replace(state, mode=QUICK, values=values)
        return state

    @classmethod
    def from_draft(
        cls,
        record: Mapping[str, Any],
        target: EntryTarget,
        draft: Mapping[str, Any],
        *,
        context: RoundContext | None = None,
    ) -> FeastState:
        """What :meth:`to_draft` kept; :class:`EntryError` when it is not a round of this game."""
        mode = draft.get("mode", WALK)
        values = draft.get("values") or {}
        actions = draft.get("actions") or []
        if mode not in (WALK, QUICK) or not isinstance(values, Mapping) or not isinstance(actions, list):
            raise EntryError(Note.of(N_("the round kept from before cannot be read")))
        fresh = cls.start(record, target, context=context)
        state = replace(fresh, mode=mode, values={str(k): str(v) for k, v in values.items()})
        dealer = draft.get("dealer")
        state = state.begin(dealer if isinstance(dealer, str) else None, [str(a) for a in actions])
        if state.entry is None and state.dealer is None and not state.values:
            return replace(fresh, mode=mode)
        return state

    def begin(self, dealer: str | None, actions: Sequence[Action]) -> FeastState:
        """The round with ``dealer`` (the Ghost in a tie-break), replaying ``actions`` (as many as still fit); a
        dealer who cannot deal leaves the round without one."""
        try:
            entry = RoundEntry.start(self.record, dealer, actions, tiebreak=self.tiebreak, context=self.context)
        except EntryError:
            try:
                entry = RoundEntry.start(self.record, dealer, [], tiebreak=self.tiebreak, context=self.context)
            except EntryError:
                return replace(self, dealer=None, entry=None)
        return replace(self, dealer=dealer, entry=entry)

    def to_draft(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "dealer": self.dealer,
            "actions": list(self.entry.actions) if self.entry is not None else [],
            "values": dict(self.values),
        }

    # --- taps -------------------------------------------------------------------------------------------------------

    def choose_dealer(self, name: str) -> FeastState:
        """``name`` deals (is the Ghost); the taps so far are kept where they still fit. Raises :class:`NoDealerError`
        when ``name`` cannot."""
        actions = list(self.entry.actions) if self.entry is not None else []
        new = self.begin(name, actions)
        if new.dealer != name:
            if self.tiebreak:
                raise NoDealerError(Note.of(N_("{name} cannot be the Ghost of this round"), name=name))
            raise NoDealerError(Note.of(N_("{name} cannot be the dealer of this round"), name=name))
        return new

    def set_mode(self, mode: str) -> FeastState:
        return replace(self, mode=mode)

    def act(self, action: Action) -> FeastState:
        if self.entry is None:
            raise NoDealerError("choose who deals first" if not self.tiebreak else "choose the Ghost's seat first")
        return replace(self, entry=self.entry.act(action))

    def undo(self) -> FeastState:
        return replace(self, entry=self.entry.undo()) if self.entry is not None else self

    def start_over(self) -> FeastState:
        return self.begin(self.dealer, [])

    def set_value(self, name: str, text: str) -> FeastState:
        return replace(self, values={**self.values, name: text})

    def toggle_out(self, name: str) -> FeastState:
        out = self.values.get(name, "").strip().lower() == "out"
        return self.set_value(name, "" if out else "out")

    # --- the round --------------------------------------------------------------------------------------------------

    def to_hand(self) -> dict[str, Any]:
        """The round as the record keeps it (the cards form walked, or the quick form); raises :class:`EntryError`
        naming what is missing."""
        if self.mode == QUICK:
            dealer = self.dealer
            if dealer is None and not self.tiebreak and len(self.choices) == 1:
                dealer = self.choices[0]
            return quick_hand(self.record, dealer, self.values, tiebreak=self.tiebreak, context=self.context)
        if self.entry is None:
            raise NoDealerError("choose who deals first" if not self.tiebreak else "choose the Ghost's seat first")
        return self.entry.to_hand()

    def verify(self) -> None:
        self.to_hand()

    def can_confirm(self) -> bool:
        return _ok(self.verify)

    def focus(self) -> str | None:
        """``dealer`` (or the Ghost's seat) until chosen; walked: ``opening/<name>``, ``decide/<name>``,
        ``card/<name>`` for whoever's turn it is; the quick form: ``total/<name>``, the first total missing or
        unreadable. ``None`` when the round can be confirmed."""
        if self.mode == QUICK:
            for name in self.who:
                try:
                    parse_outcome(name, self.values.get(name, ""))
                except EntryError:
                    return f"total/{name}"
            return None if self.can_confirm() else "dealer"
        if self.entry is None:
            return "dealer"
        state = self.entry.state
        if state.phase is Phase.DONE:
            return None
        word = {Phase.OPENING: "opening", Phase.DECIDE: "decide", Phase.TURN: "card"}[state.phase]
        return f"{word}/{'ghost' if state.turn == GHOST else state.turn}"


# --- what the app declares of Feast and Famine: its draft, its Rules page, its entry (companion.games.ENTRIES) -----


class _FeastAndFamineDraft(TypedDict):
    mode: NotRequired[str]
    dealer: NotRequired[str | None]
    actions: NotRequired[list[str] | None]
    values: NotRequired[dict[str, str] | None]


GUIDE = GameGuide(
    key="feast-and-famine",
    name="Feast and Famine",
    players=N_("2 to 6 players (more as a house rule)"),
    summary=N_("Push your luck: take another card or freeze, but a Joker knocks out everyone still in."),
    sections=(
        Section(
            N_("Card values"),
            (N_("2 to 10 at face value, J, Q and K 10, Ace 1. The Jokers (2 in the deck) are never scored."),),
        ),
        Section(
            N_("A round"),
            (
                N_("Everyone gets one card face up (a Joker is put aside and replaced)."),
                N_(
                    "In turn each player still in either takes a card from the dealer or refuses. Refusing freezes "
                    "you: you keep your cards and stop."
                ),
                N_(
                    "If a taken card is a Joker, the round ends and everyone not frozen is knocked out and scores 0. "
                    "Frozen players score the total of their cards, first card included."
                ),
            ),
        ),
        Section(
            N_("End of the game"),
            (
                N_("Every player deals once per circuit: 3 circuits for 2–3 players, 2 for 4, 1 for 5 or more."),
                N_(
                    "Highest total wins. Tied leaders play one tie-break round against a Ghost who always takes; "
                    "if all of them are knocked out, the next-highest player wins."
                ),
            ),
        ),
    ),
    options=(
        HouseRule("jokers", N_("Jokers in the deck"), N_("2"), N_("1 to 4"), "FF-1"),
        HouseRule(
            "circuits", N_("Circuits"), N_("3 (2–3 players), 2 (4), 1 (5 or more)"), N_("any number from 1"), "FF-5"
        ),
        HouseRule("opening_card_counts", N_("The first face-up card counts"), N_("yes"), N_("no"), "FF-2"),
        HouseRule(
            "all_out_nobody_left",
            N_("Tie-break: everyone knocked out and nobody else to win"),
            N_("replay"),
            N_("joint winners"),
            "FF-10",
            (("replay", N_("Replay the tie-break round")), ("joint", N_("Joint winners"))),
        ),
    ),
)
"""Feast and Famine in the app's own words: the Rules page (and ``docs/rules/feast-and-famine.md``)."""

ENTRY = GameEntry(
    key=ff.GAME.key,
    state=FeastState,
    draft=TypeAdapter(_FeastAndFamineDraft),
    guide=GUIDE,
)
"""Feast and Famine in the companion: listed once in :data:`companion.games.ENTRIES`."""
