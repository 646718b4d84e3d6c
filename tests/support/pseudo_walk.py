"""The texts of a screen built in the pseudo-language ``en-XA`` that were never marked for translation.

Every marked message shows wrapped in ⟦ ⟧ in ``en-XA``; a visible text, label, tooltip or semantics label that holds
letters outside the brackets was never marked. Names, cards and numbers are not translated: a test passes the names
it seated (``allowed``), and texts with no letters (numbers, suits, ``·``) are never reported. Screens are walked as
:func:`tests.support.screens.walk` walks them (components rendered from their state).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import flet as ft

from tests.support.screens import walk

ATTRIBUTES = ("value", "label", "tooltip", "semantics_label", "hint_text", "helper", "error", "text", "content")
"""The attributes of a control that a player reads or hears, when they hold text."""
_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
_CARD = re.compile(r"^(10|[2-9AJQKEDB]|Kn)[♠♥♦♣]$|^JK[+-]?$")


def _leftover(text: str, allowed: Iterable[str]) -> str:
    """What of ``text`` is outside the brackets and not an allowed name or a card (``""``: nothing)."""
    rest = text
    while _WRAPPED.search(rest):  # a message inside a message: the innermost first
        rest = _WRAPPED.sub(" ", rest)
    for name in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(name, " ")
    words = [word for word in re.split(r"[\s,.:;()/·•—–\-+=×]+", rest) if word and not _CARD.match(word)]
    return " ".join(word for word in words if any(ch.isalpha() for ch in word))


def unwrapped_texts(control: Any, allowed: Iterable[str] = ()) -> list[str]:
    """Each text under ``control`` with letters outside ⟦ ⟧ (apart from the ``allowed`` names and cards)."""
    names = tuple(allowed)
    found: list[str] = []
    for item, _ in walk(control):
        if isinstance(item, ft.Icon):
            continue
        for attribute in ATTRIBUTES:
            if attribute == "value" and not isinstance(item, ft.Text):
                continue  # a radio's, switch's or drop-down's value is a key, not shown
            value = getattr(item, attribute, None)
            if isinstance(value, str) and value and _leftover(value, names):
                found.append(value)
    return found
