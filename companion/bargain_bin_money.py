"""Bargain Bin's money texts, for the scoreboard and the end of a game played with Vegas Rules: the pot, each
player's money, the headline, the notes that say how the game ended, and who pays whom (BB-9…BB-11, rule 9.3).

No Flet in here; money is written in the app's money format (:func:`companion.money.format_money`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.money import MoneyFormat, format_money, money_in_text
from scoring import Result, ScoringError
from scoring import bargain_bin as bb


def as_bin_result(result: Result) -> bb.BargainBinResult:
    """``result`` as Bargain Bin's result (:class:`TypeError` for another game's)."""
    if not isinstance(result, bb.BargainBinResult):
        raise TypeError(f"a Bargain Bin result is needed here, not one of {result.game}")
    return result


def pot_lines(result: Result, fmt: MoneyFormat | None = None) -> list[tuple[str, str]]:
    """Scoreboard extras under Vegas: the pot and the last hand's payments in the app's money format (``fmt``),
    and the players removed so far ([] without Vegas and removals).

    >>> rec = {"game": "bargain-bin", "players": ["A", "B", "C", "D"], "options": {"vegas_unit_cents": 10},
    ...        "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]}
    >>> pot_lines(bb.GAME.score(rec))
    [('Pot', '$2.10'), ('Last hand paid', 'B $0.60, C $1.50')]
    """
    bin_result = as_bin_result(result)
    out: list[tuple[str, str]] = []
    if bin_result.pot is not None:
        out.append(("Pot", format_money(bin_result.pot, fmt)))
        if bin_result.hands:
            payments = bin_result.hands[-1].payments or {}
            paid = [f"{name} {format_money(cents, fmt)}" for name, cents in payments.items() if cents]
            out.append(("Last hand paid", ", ".join(paid) if paid else "nobody"))
    if bin_result.removed:
        out.append(("Removed", ", ".join(bin_result.removed)))
    return out


@dataclass(frozen=True)
class MoneyLine:
    """One player's money at the end: paid in, taken out (payout or refund), net."""

    name: str
    paid: int
    taken: int
    net: int
    fmt: MoneyFormat | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        fmt = self.fmt
        paid, taken, net = (format_money(cents, fmt) for cents in (self.paid, self.taken, self.net))
        return f"{self.name}: paid {paid}, takes {taken}, net {net}"


def money_lines(result: Result, fmt: MoneyFormat | None = None) -> list[MoneyLine]:
    """Each player's money (seating order); [] without Vegas."""
    bin_result = as_bin_result(result)
    if bin_result.payments is None:
        return []
    payouts = bin_result.payouts or {}
    net = bin_result.net or {}
    return [
        MoneyLine(name, bin_result.payments[name], payouts.get(name, 0), net.get(name, 0), fmt)
        for name in bin_result.players
    ]


def end_headline(result: Result, fmt: MoneyFormat | None = None) -> str:
    """One line on the pot at the end (payouts, or refunds when cancelled).

    >>> rec = {"game": "bargain-bin", "players": ["A", "B", "C", "D"], "options": {"vegas_unit_cents": 10, "target": 1},
    ...        "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]}
    >>> end_headline(bb.GAME.score(rec))
    'The pot of $2.10 is paid out: A $1.05, D $1.05'
    """
    bin_result = as_bin_result(result)
    pot = bin_result.pot or 0
    payouts = bin_result.payouts or {}
    taken = [f"{name} {format_money(cents, fmt)}" for name, cents in payouts.items() if cents]
    if bin_result.cancelled:
        return f"The game is cancelled: the pot of {format_money(pot, fmt)} is refunded: " + (
            ", ".join(taken) or "nobody paid"
        )
    return f"The pot of {format_money(pot, fmt)} is paid out: " + (", ".join(taken) or "nothing to pay")


DECIDING = ("BB-R6", "BB-R7", "BB-R9.3", "BB-10", "BB-11")
"""The rules and rulings whose notes say how a game ended: the target reached (rule 6), the winners (rule 7), the
cancellation (rule 9.3) and the pot's payout (BB-10, BB-11)."""


def deciding_notes(result: Result, fmt: MoneyFormat | None = None) -> list[str]:
    """The notes of the last hand that say how the game ended (by their ruling ids, :data:`DECIDING`), money in
    the app's format.

    >>> rec = {"game": "bargain-bin", "players": ["A", "B", "C", "D"], "options": {"target": 1, "vegas_unit_cents": 5},
    ...        "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]}
    >>> for note in deciding_notes(bb.GAME.score(rec)):
    ...     print(note)
    A and D reach 1 game point in the same hand: both win (rule 7, BB-6)
    Vegas: A and D split the pot of $1.05 (A $0.53, D $0.52); the odd cent goes to A, seated first, as game points \
are equal (BB-10)
    """
    if not result.finished or not result.hands:
        return []
    return [money_in_text(note, fmt) for note in result.hands[-1].noted(*DECIDING)]


def transfers(result: Result, fmt: MoneyFormat | None = None) -> list[str]:
    """Settle-up for a table that kept the pot in the app: who pays whom, the fewest transfers (settle_up).

    >>> rec = {"game": "bargain-bin", "players": ["Ann", "Ben", "Cat", "Dan"],
    ...        "options": {"vegas_unit_cents": 10, "target": 1},
    ...        "hands": [{"scores": {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 10}}]}
    >>> transfers(bb.GAME.score(rec))
    ['Cat pays Ann $1.05', 'Ben pays Dan $0.60', 'Cat pays Dan $0.45']
    """
    net = as_bin_result(result).net
    if not net:
        return []
    try:
        moves = bb.settle_up(dict(net))
    except ScoringError:
        return []
    return [f"{payer} pays {payee} {format_money(cents, fmt)}" for payer, payee, cents in moves]


__all__ = [
    "DECIDING",
    "MoneyLine",
    "as_bin_result",
    "deciding_notes",
    "end_headline",
    "money_lines",
    "pot_lines",
    "transfers",
]
