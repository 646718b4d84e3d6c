"""The pseudo-language check of a screen: built in ``en-XA`` every message shows as ``⟦…⟧``, so a text a player
sees that still holds letters outside the brackets was never marked for translation. Names (of players, of a
night), card labels and numbers are not translated, and are left out of the check.

>>> import flet as ft
>>> unwrapped_texts(ft.Column([ft.Text("⟦Ćóñƒíŕɱ⟧"), ft.Text("Ann 7♥ 10"), ft.Text("Confirm")]), names=["Ann"])
['Confirm']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import flet as ft

from tests.support.screens import walk

SHOWN = ("value", "semantics_label", "tooltip", "label", "content", "title", "hint_text", "helper_text", "text")
"""The attributes of a control whose string a player sees or a screen reader says."""
_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
_CARD = re.compile(r"(?<![A-Za-z])(?:10|[2-9]|[JQKA]|Kn|[BDE])[♠♥♦♣]+(?![A-Za-z])")
_RANK = re.compile(r"\s*(?:10|[2-9]|[JQKA]|Kn|[BDE])\s*")
"""A rank alone (a value key of a pad): a card label too."""


def shown_texts(control: Any) -> list[str]:
    """Every string under ``control`` that a player sees or hears (texts, labels, tooltips, button texts)."""
    out: list[str] = []
    for item, _ in walk(control):
        if isinstance(item, ft.Icon):
            continue
        for attribute in SHOWN:
            if attribute == "value" and not isinstance(item, ft.Text):
                continue  # a radio's, switch's or drop-down's value is a key, not shown
            value = getattr(item, attribute, None)
            if isinstance(value, ft.Tooltip):
                value = value.message
            if isinstance(value, str) and value:
                out.append(value)
        for span in getattr(item, "spans", None) or []:
            if isinstance(span, ft.TextSpan) and span.text:
                out.append(span.text)
    return out


def unwrapped(text: str, names: Iterable[str] = ()) -> str:
    """What is left of ``text`` once the wrapped messages, the names and the card labels are taken out; ``""``
    when only numbers and signs are left."""
    if _RANK.fullmatch(text):
        return ""
    rest = text
    while _WRAPPED.search(rest):
        rest = _WRAPPED.sub(" ", rest)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    rest = _CARD.sub(" ", rest)
    return rest.strip() if any(ch.isalpha() for ch in rest) else ""


def unwrapped_texts(control: Any, names: Iterable[str] = (), allowed: Iterable[str] = ()) -> list[str]:
    """The texts under ``control`` that hold letters outside ``⟦ ⟧`` (apart from ``names``, the other ``allowed``
    words, such as a language's own name, and card labels)."""
    kept = [*names, *allowed]
    return [text for text in dict.fromkeys(shown_texts(control)) if unwrapped(text, kept)]
