"""Numbers, dates and times as the table's language writes them, by Babel (CLDR data, nothing written by hand here).

Every function takes the :class:`~companion.i18n.Words` of the language in use (``ctx.words``); English is written
as the app always wrote it.

>>> from datetime import date, datetime
>>> from companion.i18n import Words
>>> en, sv, de = Words.of("en"), Words.of("sv"), Words.of("de")
>>> number(1234567, en), number(1234567, sv).replace("\\xa0", " "), number(1234567, de)
('1,234,567', '1 234 567', '1.234.567')
>>> decimal(2.5, en), decimal(2.5, sv), decimal(2.5, de)
('2.5', '2,5', '2,5')
>>> day = date(2026, 11, 27)
>>> long_date(day, en), long_date(day, sv), long_date(day, de)
('Fri 27 Nov 2026', 'fre 27 nov. 2026', 'Fr., 27. Nov. 2026')
>>> moment = datetime(2026, 11, 27, 20, 7)
>>> when(moment, en), when(moment, sv), when(moment, de)
('Fri 27 Nov 2026, 20:07', 'fre 27 nov. 2026 20:07', 'Fr., 27. Nov. 2026, 20:07')
>>> percent(0.667, en), percent(0.667, de).replace("\\xa0", " ")
('67%', '67 %')
"""

from __future__ import annotations

from datetime import date, datetime, time

from babel.dates import format_date, format_datetime, format_time
from babel.numbers import format_decimal, format_percent

from companion.i18n import Words

ENGLISH = Words.of("en")

_EN_DATE = "EEE d MMM y"
"""English: ``Fri 27 Nov 2026`` (as the app has always written a date)."""
_EN_TIME = "HH:mm"
_DATE_SKELETON = "yMMMEd"
"""The other languages: CLDR's own pattern for a weekday, day, short month and year (``fre 27 nov. 2026``)."""


def _english(words: Words) -> bool:
    return words.locale.language == "en"


def count(value: int, words: Words) -> str:
    """A count in running text (``4390 sessions``): in English as the app has always written it, in the other
    languages grouped as they group digits (``4 390``, ``4.390``).

    >>> count(4390, Words.of("en")), count(4390, Words.of("de"))
    ('4390', '4.390')
    """
    return str(value) if _english(words) else number(value, words)


def number(value: int, words: Words) -> str:
    """A whole number with the language's digit grouping (``1,234`` / ``1 234`` / ``1.234``)."""
    return str(format_decimal(value, locale=words.locale))


def decimal(value: float, words: Words, *, digits: int = 1) -> str:
    """A number with ``digits`` decimals and the language's decimal mark (``2.5`` / ``2,5``), as a rating or an
    average is written (English exactly as ``f"{value:.1f}"``).

    >>> decimal(12.0, Words.of("en")), decimal(-3.25, Words.of("de"), digits=2)
    ('12.0', '-3,25')
    """
    if _english(words):
        return f"{value:.{digits}f}"
    return str(format_decimal(round(value, digits), format=f"0.{'0' * digits}", locale=words.locale))


def tenths(value: float, words: Words = ENGLISH) -> str:
    """A rating to a tenth (:func:`decimal` with one decimal; English when no words are given).

    >>> tenths(12.34), tenths(12.34, Words.of("de"))
    ('12.3', '12,3')
    """
    return decimal(value, words)


def signed_tenths(value: float, words: Words = ENGLISH) -> str:
    """A change to one decimal with its sign: ``+1.2``, ``−0.4``, ``±0.0`` (``−0,4`` in German).

    >>> signed_tenths(1.234), signed_tenths(-0.44, Words.of("de")), signed_tenths(0.01)
    ('+1.2', '−0,4', '±0.0')
    """
    if f"{abs(value):.1f}" == "0.0":
        return "±" + tenths(0.0, words)
    return ("+" if value > 0 else "−") + tenths(abs(value), words)


def points(value: float, words: Words = ENGLISH) -> str:
    """Season points: ``3``, ``1.5``, ``0.67`` (at most two decimals; ``1,5`` in German).

    >>> points(3.0), points(1.5), points(2 / 3), points(1.5, Words.of("de"))
    ('3', '1.5', '0.67', '1,5')
    """
    if _english(words):
        return f"{value:.2f}".rstrip("0").rstrip(".") or "0"
    return str(format_decimal(round(value, 2), "0.##", locale=words.locale))


def percent(rate: float, words: Words) -> str:
    """A share as a whole percentage (``67%`` / ``67 %``)."""
    return str(format_percent(rate, locale=words.locale))


def long_date(day: date, words: Words) -> str:
    """A day with its weekday (``Fri 27 Nov 2026`` / ``fre 27 nov. 2026`` / ``Fr., 27. Nov. 2026``)."""
    if _english(words):
        return str(format_date(day, _EN_DATE, locale=words.locale))
    pattern = words.locale.datetime_skeletons[_DATE_SKELETON].pattern
    return str(format_date(day, pattern, locale=words.locale))


def clock(moment: time | datetime, words: Words) -> str:
    """A time of day on the 24-hour clock the three languages' tables read (``20:07``)."""
    if _english(words):
        return str(format_time(moment, _EN_TIME, locale=words.locale))
    return str(format_time(moment, "short", locale=words.locale))


def when(moment: datetime, words: Words) -> str:
    """A day and a time (``Fri 27 Nov 2026, 20:07`` / ``fre 27 nov. 2026 20:07`` / ``Fr., 27. Nov. 2026, 20:07``)."""
    if _english(words):
        return f"{long_date(moment, words)}, {clock(moment, words)}"
    joined = words.locale.datetime_formats["medium"]
    return str(joined).replace("{1}", long_date(moment, words)).replace("{0}", clock(moment, words))


def iso_moment(moment: datetime, words: Words) -> str:
    """A date and time written short (``2026-11-27 20:07`` / ``2026-11-27 20:07`` / ``27.11.26, 20:07``)."""
    if _english(words):
        return f"{moment:%Y-%m-%d %H:%M}"
    return str(format_datetime(moment, "short", locale=words.locale))


__all__ = ["clock", "count", "decimal", "iso_moment", "long_date", "number", "percent", "when"]
