"""The pseudo-language check of a screen: every text a player sees or hears (a text's value, a label, a tooltip, a
semantics label, a button's text, a choice's text) that holds letters is a translated message, so in ``en-XA`` it
is wrapped in ⟦ ⟧; names, cards and numbers are not messages and are let through (``allowed``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import flet as ft

from tests.support.screens import walk

_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
_LETTER = re.compile(r"[A-Za-z]")
_SHOWN = ("value", "label", "tooltip", "semantics_label", "content", "text", "title", "hint_text", "helper_text")


def shown_texts(control: Any) -> list[str]:
    """Every string under ``control`` that a player sees or a screen reader says."""
    out: list[str] = []
    for node, _ in walk(control):
        for attribute in _SHOWN:
            if attribute == "value" and not isinstance(node, ft.Text):
                continue  # a field's value is what was typed, not the app's words
            value = getattr(node, attribute, None)
            if isinstance(value, str) and value:
                out.append(value)
        for option in getattr(node, "options", None) or []:  # a dropdown's choices
            text = getattr(option, "text", None)
            if isinstance(text, str) and text:
                out.append(text)
    return out


def unwrapped_texts(control: Any, allowed: Iterable[str] = ()) -> list[str]:
    """The texts under ``control`` with letters outside ⟦ ⟧, once the ``allowed`` words (names, cards, dates, paths)
    are taken out: in the pseudo-language ``en-XA`` each is a string that was never marked for translation.

    >>> unwrapped_texts(ft.Column([ft.Text("⟦Ŝéáţ·⟧ Ann"), ft.Text("Seat Ben"), ft.Text("12")]), ["Ann", "Ben"])
    ['Seat Ben']
    """
    names = sorted({a for a in allowed if a}, key=len, reverse=True)
    out = []
    for text in shown_texts(control):
        rest, before = text, ""
        while rest != before:  # a message inside a message: the innermost first
            before, rest = rest, _WRAPPED.sub(" ", rest)
        for name in names:
            rest = rest.replace(name, " ")
        if _LETTER.search(rest):
            out.append(text)
    return out


__all__ = ["shown_texts", "unwrapped_texts"]
