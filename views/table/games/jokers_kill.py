"""Jokers Kill at the table: the card picker (one tap per physical card, one more to confirm the hand).

The draft logic is plain Python over :mod:`scoring.jokers_kill`'s table helpers: every tap goes to the card the
table needs next (the up-card, then each player's card in seating order, then the tie-break cards of the players
still tied), cards already used are refused, and the hand is complete when the rules say it is decided, dead or
void. JK-E5 (up-card 8; 8 8 2 → tie-break between the 8s; Q and 3 → the 3 wins):

>>> record = {"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"]}
>>> draft = empty_draft()
>>> for card in ("8S", "8H", "8D", "2C", "QH", "3D"):
...     draft = place_card(record, draft, card)
>>> need = need_of(record, draft)
>>> need.winner, need.points, finish(draft, need)["tiebreaks"]
('Ben', 3, [{'Ann': 'QH', 'Ben': '3D'}])
>>> place_card(record, draft, "4C")
Traceback (most recent call last):
...
views.table.games.jokers_kill.HandCompleteError: the hand is complete: confirm it, or remove a card first
>>> remove_last(draft)["tiebreaks"]
[{'Ann': 'QH'}]
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.session import TableSession
from scoring import Card, ScoringError, get_game
from scoring import jokers_kill as jk
from scoring.cards import RANKS, Suit
from scoring.jokers_kill import DealNeed, Need
from views.table.entry import EntryContext, TableUI
from views.widgets import TAP, panel, suit_colour_value

Draft = dict[str, Any]


class HandCompleteError(ValueError):
    """A card tapped after the hand is already decided, dead or void."""


def empty_draft() -> Draft:
    """A hand with no card yet."""
    return {"up": None, "buried": [], "cards": {}, "tiebreaks": []}


def from_hand(hand: Mapping[str, Any]) -> Draft:
    """A draft holding a saved hand (to correct it)."""
    return {
        "up": hand.get("up"),
        "buried": list(hand.get("buried", [])),
        "cards": dict(hand.get("cards", {})),
        "tiebreaks": [dict(deal) for deal in hand.get("tiebreaks", [])],
    }


def partial(draft: Draft) -> dict[str, Any]:
    """The draft in the shape of a record hand, leaving out what is not entered yet."""
    out: dict[str, Any] = {"cards": dict(draft["cards"])}
    if draft["up"] is not None:
        out["up"] = draft["up"]
    if draft["buried"]:
        out["buried"] = list(draft["buried"])
    deals = [dict(deal) for deal in draft["tiebreaks"] if deal]
    if deals:
        out["tiebreaks"] = deals
    return out


def need_of(record: Mapping[str, Any], draft: Draft) -> DealNeed:
    """What the hand needs next (raises :class:`ScoringError` if the draft breaks a rule)."""
    return jk.next_deal(record, partial(draft))


def hand_players(record: Mapping[str, Any]) -> list[str]:
    """Who plays the next hand: everyone, or the tied players in a play-off."""
    if jk.phase(record) is jk.Phase.PLAYOFF:
        pending = get_game("jokers-kill").score(record).pending
        if pending is not None:
            return list(pending.players)
    return list(record["players"])


def place_card(record: Mapping[str, Any], draft: Draft, card: str) -> Draft:
    """The draft with ``card`` dealt where the table needs it next (a new draft; ``draft`` is unchanged)."""
    need = need_of(record, draft)
    if need.complete:
        raise HandCompleteError("the hand is complete: confirm it, or remove a card first")
    code = str(jk.verify_card(record, card, partial(draft)))
    new = copy.deepcopy(draft)
    if need.need is Need.UP_CARD:
        if new["up"] is not None:  # a Joker up-card under house rule JK-9 "redraw": bury it
            new["buried"].append(new["up"])
        new["up"] = code
    elif need.need is Need.CARDS:
        new["cards"][need.players[0]] = code
        seats = list(record["players"])
        new["cards"] = dict(sorted(new["cards"].items(), key=lambda item: seats.index(item[0])))
    else:
        who = need.players[0]
        deals = new["tiebreaks"]
        if not deals or who in deals[-1]:
            deals.append({who: code})
        else:
            deals[-1][who] = code
    need_of(record, new)
    return new


def remove_last(draft: Draft) -> Draft:
    """The draft without the last card dealt."""
    new = copy.deepcopy(draft)
    if new["tiebreaks"]:
        deal = new["tiebreaks"][-1]
        deal.pop(list(deal)[-1])
        if not deal:
            new["tiebreaks"].pop()
    elif new["cards"]:
        new["cards"].pop(list(new["cards"])[-1])
    elif new["up"] is not None:
        new["up"] = None
    elif new["buried"]:
        new["buried"].pop()
    return new


def clear_slot(draft: Draft, slot: tuple[Any, ...]) -> Draft:
    """The draft without one card, and without the tie-break cards that depended on it.

    >>> draft = {"up": "8S", "buried": [], "cards": {"Ann": "8H", "Ben": "8D"}, "tiebreaks": [{"Ann": "QH"}]}
    >>> clear_slot(draft, ("cards", "Ben"))
    {'up': '8S', 'buried': [], 'cards': {'Ann': '8H'}, 'tiebreaks': []}
    """
    new = copy.deepcopy(draft)
    if slot[0] == "up":
        new["up"] = None
        new["tiebreaks"] = []
    elif slot[0] == "buried":
        new["buried"].pop(slot[1])
    elif slot[0] == "cards":
        new["cards"].pop(slot[1], None)
        new["tiebreaks"] = []
    else:
        k, name = slot[1], slot[2]
        deals = new["tiebreaks"][: k + 1]
        deals[k].pop(name, None)
        new["tiebreaks"] = [deal for deal in deals if deal]
    return new


def finish(draft: Draft, need: DealNeed) -> dict[str, Any]:
    """The hand as the record keeps it (``void`` when the tie-break could not be dealt, JK-7)."""
    hand = partial(draft)
    if need.need is Need.VOID:
        hand["void"] = True
    return hand


@dataclass(frozen=True)
class Slot:
    """One card place of the hand on screen."""

    key: tuple[Any, ...]
    title: str
    card: str | None

    @property
    def label(self) -> str:
        shown = Card.parse(self.card).label if self.card else "—"
        return f"{self.title}: {shown}"


def slots(record: Mapping[str, Any], draft: Draft) -> list[Slot]:
    """Every card place of the hand so far, in dealing order."""
    out = [Slot(("buried", i), "Buried Joker", card) for i, card in enumerate(draft["buried"])]
    out.append(Slot(("up",), "Up-card", draft["up"]))
    out += [Slot(("cards", name), name, draft["cards"].get(name)) for name in hand_players(record)]
    for k, deal in enumerate(draft["tiebreaks"]):
        out += [Slot(("tiebreaks", k, name), f"Tie-break {k + 1}, {name}", card) for name, card in deal.items()]
    return out


def prompt(need: DealNeed) -> str:
    """What the table does next, in words.

    >>> prompt(DealNeed(Need.TIEBREAK, ("Ann", "Ben")))
    'Tie-break: deal a card to Ann'
    """
    if need.need is Need.UP_CARD:
        return "Turn the up-card"
    if need.need is Need.CARDS:
        return f"{need.players[0]}'s card"
    if need.need is Need.TIEBREAK:
        return f"Tie-break: deal a card to {need.players[0]}"
    if need.need is Need.DECIDED:
        return f"{need.winner} wins {need.points} point{'s' if need.points != 1 else ''}: confirm the hand"
    if need.need is Need.DEAD:
        return "Dead hand (a Joker): confirm the hand"
    return "Too few cards for the tie-break: mark the hand void"


def extras(session: TableSession) -> list[tuple[str, str]]:
    """Cards and hands left (rule 7); play-off wins once a play-off is on."""
    result = session.result
    out = [("Cards left", str(getattr(result, "cards_left", 0))), ("Hands left", str(getattr(result, "hands_left", 0)))]
    wins = getattr(result, "playoff_wins", None)
    if wins:
        out.append(("Play-off wins", ", ".join(f"{name} {count}" for name, count in wins.items())))
    return out


# --- the card picker ---------------------------------------------------------------------------------------------

SUIT_ORDER = (Suit("S"), Suit("H"), Suit("D"), Suit("C"))
CARD_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 3, "md": 1.5}
"""A card button's width in a 12-column row: 4 a row (one rank) on a phone, 8 a row (two ranks) when wider."""


def card_codes() -> list[str]:
    """The 52 cards, rank by rank (A♠ A♥ A♦ A♣ 2♠ …), as the picker shows them."""
    return [f"{rank}{suit.value}" for rank in RANKS for suit in SUIT_ORDER]


class CardPicker:
    """The Jokers Kill entry panel: prompt, the hand's card places, the card grid, and the actions."""

    def __init__(self, ectx: EntryContext) -> None:
        self.ectx = ectx
        self._lock = threading.RLock()
        """Taps are handled one at a time (Flet may run handlers of quick taps at once)."""
        self.record = ectx.record
        self.options = dict(self.record.get("options") or {})
        self.four_colour = ectx.view.settings.four_colour_suits
        session = ectx.session
        key = ectx.target.key
        kept = session.draft(key)
        if kept is not None:
            self.draft: Draft = kept
        elif ectx.existing is not None:
            self.draft = from_hand(ectx.existing)
        else:
            self.draft = empty_draft()
        try:
            need_of(self.record, self.draft)
        except ScoringError:
            self.draft = empty_draft() if ectx.existing is None else from_hand(ectx.existing)
        self.prompt = ft.Text("", size=22, weight=ft.FontWeight.BOLD)
        self.slot_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.buttons: dict[str, ft.OutlinedButton] = {}
        grid: list[ft.Control] = []
        codes = card_codes() + (["JK"] if self.options.get("jokers") else [])
        for code in codes:
            card = Card.parse(code)
            colour = suit_colour_value(card.suit.symbol, self.four_colour) if card.suit else ft.Colors.PURPLE_400
            button = ft.OutlinedButton(
                content=ft.Text(card.label, size=19, weight=ft.FontWeight.BOLD, color=colour, no_wrap=True),
                tooltip=card.label,
                height=TAP,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=2)),
                col=CARD_COLUMNS if code != "JK" else {"xs": 6, "md": 3},
                on_click=lambda _, code=code: self.tap(code),
                data=colour,
            )
            self.buttons[code] = button
            grid.append(button)
        self.grid = ft.ResponsiveRow(grid, columns=12, spacing=6, run_spacing=6)
        self.confirm = ft.FilledButton(
            content="Confirm hand",
            icon=ft.Icons.CHECK,
            tooltip="Confirm hand",
            height=TAP,
            expand=True,
            on_click=self.confirm_hand,
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
        )
        self.remove = ft.OutlinedButton(
            content="Remove last card", tooltip="Remove last card", height=TAP, expand=True, on_click=self.remove_last
        )
        self.clear = ft.OutlinedButton(content="Clear hand", tooltip="Clear hand", height=TAP, on_click=self.clear_all)
        self.control = panel(
            ft.Column(
                [
                    ft.Text(f"Enter {ectx.target.label}", theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
                    self.prompt,
                    self.slot_row,
                    self.grid,
                    ft.Row([self.remove, self.clear]),
                    ft.Row([self.confirm]),
                ],
                spacing=10,
            )
        )
        self.redraw()
        ectx.reuse = self.follow

    def follow(self, record: dict[str, Any]) -> bool:
        """The session changed (a hand confirmed here or elsewhere): continue with the new record in place."""
        with self._lock:
            if dict(record.get("options") or {}) != self.options:
                return False
            self.record = record
            kept = self.ectx.session.draft(self.ectx.target.key)
            self.draft = kept if kept is not None else empty_draft()
            try:
                self.redraw()
            except ScoringError:  # the hand being entered clashes with the change: start it again
                self.draft = empty_draft()
                self.ectx.session.set_draft(None, self.ectx.target.key)
                self.redraw()
            return True

    # -- state ----------------------------------------------------------------------------------------------

    def need(self) -> DealNeed:
        return need_of(self.record, self.draft)

    def set_draft(self, draft: Draft) -> None:
        self.draft = draft
        self.ectx.session.set_draft(draft, self.ectx.target.key)
        self.redraw()

    def redraw(self) -> None:
        need = self.need()
        self.prompt.value = prompt(need)
        self.prompt.semantics_label = f"Next: {prompt(need)}"
        legal = {str(card) for card in jk.legal_cards(self.record, partial(self.draft))} if not need.complete else set()
        for code, button in self.buttons.items():
            enabled = code in legal
            button.disabled = not enabled
            text = button.content
            if isinstance(text, ft.Text):
                text.color = button.data if enabled else ft.Colors.OUTLINE_VARIANT
        chips: list[ft.Control] = []
        for slot in slots(self.record, self.draft):
            chips.append(
                ft.OutlinedButton(
                    content=slot.label,
                    tooltip=slot.label,
                    height=TAP,
                    disabled=slot.card is None,
                    on_click=lambda _, key=slot.key: self.clear_one(key),
                )
            )
        self.slot_row.controls = chips
        self.confirm.disabled = not need.complete
        label = "Mark hand void" if need.need is Need.VOID else "Confirm hand"
        self.confirm.content = label
        self.confirm.tooltip = label
        self.remove.disabled = not any(slot.card for slot in slots(self.record, self.draft))

    # -- taps -----------------------------------------------------------------------------------------------

    def tap(self, code: str) -> None:
        with self._lock:
            try:
                draft = place_card(self.record, self.draft, code)
            except (ScoringError, HandCompleteError) as exc:
                self.ectx.report(str(exc))
                return
            self.ectx.report(None)
            self.set_draft(draft)

    def clear_one(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self.set_draft(clear_slot(self.draft, key))

    def remove_last(self, _: Any = None) -> None:
        with self._lock:
            self.set_draft(remove_last(self.draft))

    def clear_all(self, _: Any = None) -> None:
        with self._lock:
            self.set_draft(empty_draft())

    def confirm_hand(self, _: Any = None) -> None:
        with self._lock:
            need = self.need()
            if not need.complete:
                self.ectx.report(f"The hand is not complete yet: {prompt(need).lower()}")
                return
            hand = finish(self.draft, need)
            key = self.ectx.target.key
            self.ectx.session.set_draft(None, key)  # before submitting: the redrawn screen starts a fresh hand
            if self.ectx.submit(hand):
                self.draft = empty_draft()
            else:
                self.ectx.session.set_draft(self.draft, key)  # refused: keep every card entered


def build_entry(ectx: EntryContext) -> ft.Control:
    """The card picker for the next hand, a play-off hand, or a correction."""
    return CardPicker(ectx).control


UI = TableUI(key="jokers-kill", entry=build_entry, extras=extras, parts=("playoff",))
