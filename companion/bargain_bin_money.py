"""Bargain Bin's money texts, for the scoreboard and the end of a game played with Vegas Rules: the pot, each
player's money, the headline, the notes that say how the game ended, and who pays whom (BB-9…BB-11, rule 9.3).

No Flet in here; money is written in the app's money format (:func:`companion.money.format_money`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.i18n import Words
from companion.money import MoneyFormat, format_money, money_in_text
from scoring import Result, ScoringError
from scoring import bargain_bin as bb

EN = Words.of("en")
"""English, when a caller gives no words (the command line, the tests)."""


def as_bin_result(result: Result) -> bb.BargainBinResult:
    """``result`` as Bargain Bin's result (:class:`TypeError` for another game's)."""
    if not isinstance(result, bb.BargainBinResult):
        raise TypeError(f"a Bargain Bin result is needed here, not one of {result.game}")
    return result


def pot_lines(result: Result, fmt: MoneyFormat | None = None, words: Words | None = None) -> list[tuple[str, str]]:
    """Scoreboard extras under Vegas: the pot and the last hand's payments in the app's money format (``fmt``),
    and the players removed so far ([] without Vegas and removals).

    >>> rec = {"game": "bargain-bin", "players": ["A", "B", "C", "D"], "options": {"vegas_unit_cents": 10},
    ...        "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]}
    >>> pot_lines(bb.GAME.score(rec))
    [('Pot', '$2.10'), ('Last hand paid', 'B $0.60, C $1.50')]
    """
    _ = (words or EN).gettext
    bin_result = as_bin_result(result)
    out: list[tuple[str, str]] = []
    if bin_result.pot is not None:
        out.append((_("Pot"), format_money(bin_result.pot, fmt)))
        if bin_result.hands:
            payments = bin_result.hands[-1].payments or {}
            paid = [f"{name} {format_money(cents, fmt)}" for name, cents in payments.items() if cents]
            out.append((_("Last hand paid"), ", ".join(paid) if paid else _("nobody")))
    if bin_result.removed:
        out.append((_("Removed"), ", ".join(bin_result.removed)))
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
        return self.text_in(EN)

    def text_in(self, words: Words) -> str:
        """:attr:`text` in the table's language."""
        fmt = self.fmt
        paid, taken, net = (format_money(cents, fmt) for cents in (self.paid, self.taken, self.net))
        said = words.gettext("{name}: paid {paid}, takes {taken}, net {net}")
        return said.format(name=self.name, paid=paid, taken=taken, net=net)


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


def end_headline(result: Result, fmt: MoneyFormat | None = None, words: Words | None = None) -> str:
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
    _ = (words or EN).gettext
    if bin_result.cancelled:
        said = _("The game is cancelled: the pot of {pot} is refunded: {who}")
        return said.format(pot=format_money(pot, fmt), who=", ".join(taken) or _("nobody paid"))
    said = _("The pot of {pot} is paid out: {who}")
    return said.format(pot=format_money(pot, fmt), who=", ".join(taken) or _("nothing to pay"))


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


def transfers(result: Result, fmt: MoneyFormat | None = None, words: Words | None = None) -> list[str]:
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
    said = (words or EN).gettext("{payer} pays {payee} {amount}")
    return [said.format(payer=payer, payee=payee, amount=format_money(cents, fmt)) for payer, payee, cents in moves]


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
