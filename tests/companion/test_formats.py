"""Numbers, dates and money written as the table's language writes them (Babel's CLDR data), with English as the
app has always written it."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from companion import formats
from companion.i18n import Words
from companion.money import MoneyFormat, format_money
from companion.settings import Settings

NBSP = "\xa0"


@pytest.mark.parametrize(
    ("code", "number", "decimal", "day", "moment"),
    [
        ("en", "12,345", "2.5", "Sat 5 Dec 2026", "Sat 5 Dec 2026, 09:30"),
        ("sv", f"12{NBSP}345", "2,5", "lör 5 dec. 2026", "lör 5 dec. 2026 09:30"),
        ("de", "12.345", "2,5", "Sa., 5. Dez. 2026", "Sa., 5. Dez. 2026, 09:30"),
    ],
)
def test_a_number_and_a_date_in_each_language(code: str, number: str, decimal: str, day: str, moment: str) -> None:
    words = Words.of(code)
    assert formats.number(12345, words) == number
    assert formats.decimal(2.5, words) == decimal
    assert formats.long_date(date(2026, 12, 5), words) == day
    assert formats.when(datetime(2026, 12, 5, 9, 30), words) == moment


def test_a_count_in_english_reads_as_it_always_did() -> None:
    assert formats.count(4390, Words.of("en")) == "4390"
    assert formats.count(4390, Words.of("sv")) == f"4{NBSP}390"


def test_money_follows_the_language_but_the_setting_keeps_its_currency_and_marks() -> None:
    dollars = MoneyFormat()  # $1,234.56, the default
    assert format_money(123456, Settings(language="en", money=dollars).money_shown) == "$1,234.56"
    german = format_money(123456, Settings(language="de", money=dollars).money_shown)
    assert german == f"1,234.56{NBSP}$"  # German places the symbol; the setting's marks and currency hold
    crowns = MoneyFormat(currency="SEK", decimal=",", group=" ")
    assert format_money(123456, Settings(language="sv", money=crowns).money_shown) == f"1 234,56{NBSP}kr"
    by_locale = MoneyFormat.for_locale("de_CH", "CHF")  # a format set for a locale of its own stays as it is
    assert Settings(language="sv", money=by_locale).money_shown == by_locale
