"""Checking a settle-up: what each player's balance becomes once the transfers are paid."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def apply(balance: Mapping[str, int], transfers: Iterable[Any]) -> dict[str, int]:
    """``balance`` after every transfer is paid (its payer's goes up, its receiver's down by its amount): all zeros
    when the transfers settle it."""
    out = dict(balance)
    for t in transfers:
        out[t.payer] += t.amount
        out[t.receiver] -= t.amount
    return out
