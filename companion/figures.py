"""Numbers as the table's language writes them (Babel, :attr:`companion.i18n.Words.locale`): ratings to a tenth,
their changes with a sign, season points. English is written exactly as the app always wrote it.

>>> from companion.i18n import Words
>>> de = Words.of("de")
>>> tenths(12.34), tenths(12.34, de), signed_tenths(-0.44, de), signed_tenths(0.01), points(1.5, de)
('12.3', '12,3', '−0,4', '±0.0', '1,5')
"""

from __future__ import annotations

from babel.numbers import format_decimal

from companion.i18n import Words

ENGLISH = Words.of("en")


def tenths(value: float, words: Words = ENGLISH) -> str:
    """A number to one decimal: ``12.3`` (``12,3`` in German and Swedish)."""
    if words.code == "en":
        return f"{value:.1f}"
    return format_decimal(round(value, 1), "0.0", locale=words.locale)


def signed_tenths(value: float, words: Words = ENGLISH) -> str:
    """A change to one decimal with its sign: ``+1.2``, ``−0.4``, ``±0.0``.

    >>> signed_tenths(1.234), signed_tenths(-0.44), signed_tenths(0.01)
    ('+1.2', '−0.4', '±0.0')
    """
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return "±" + tenths(0.0, words)
    return ("+" if value > 0 else "−") + tenths(abs(value), words)


def points(value: float, words: Words = ENGLISH) -> str:
    """Season points: ``3``, ``1.5``, ``0.67`` (at most two decimals; ``1,5`` in German).

    >>> points(3.0), points(1.5), points(2 / 3)
    ('3', '1.5', '0.67')
    """
    if words.code == "en":
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text or "0"
    return format_decimal(round(value, 2), "0.##", locale=words.locale)


__all__ = ["points", "signed_tenths", "tenths"]
