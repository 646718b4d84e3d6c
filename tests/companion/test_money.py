"""Currency and number format: amounts written with Babel's locale patterns and read back, refusals in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.money import (
    GROUP_MARKS,
    MAX_MINOR_UNITS,
    WORD_JOINER,
    MoneyError,
    MoneyFormat,
    Show,
    format_money,
    format_plain,
    parse_money,
)
from companion.settings import InvalidMoneyFormatError, Settings, SettingsError, SettingsService, Theme

US = MoneyFormat()
EURO_DE = MoneyFormat.for_locale("de_DE", "EUR")
EURO_FR = MoneyFormat.for_locale("fr_FR", "EUR")


def test_default_is_us_dollars_with_a_decimal_point() -> None:
    assert (US.currency, US.decimal, US.group, US.show) == ("USD", ".", ",", Show.SYMBOL)
    assert format_money(105, US) == "$1.05"
    assert format_money(-60, US) == f"−{WORD_JOINER}$0.60"  # the sign held to the symbol
    assert format_money(123456789, US) == "$1,234,567.89"
    assert format_money(7, US, signed=True) == f"+{WORD_JOINER}$0.07"
    assert format_money(0, US, signed=True) == "$0.00"


def test_locale_patterns_come_from_babel() -> None:
    # German: symbol after the amount, decimal comma, dot for thousands
    assert format_money(123456, EURO_DE).replace("\xa0", " ") == "1.234,56 €"
    # French: decimal comma, a (narrow) no-break space for thousands, symbol after
    fr = format_money(123456, EURO_FR)
    assert fr.endswith("€") and ",56" in fr and fr.startswith("1") and fr[1] in GROUP_MARKS and fr[1].isspace()
    # the code instead of the symbol, kept apart from the digits by a no-break space
    assert format_money(150, MoneyFormat(show=Show.CODE)) == "USD\xa01.50"
    assert format_money(150, MoneyFormat(currency="EUR", locale="de_DE", show="code", decimal=",", group=".")) == (
        "1,50\xa0EUR"
    )
    # a currency without minor units: the amount is whole yen
    assert MoneyFormat(currency="JPY").digits == 0
    assert format_money(1500, MoneyFormat(currency="JPY")) == "¥1,500"


def test_overridden_marks() -> None:
    fmt = MoneyFormat(decimal=",", group=" ")
    assert format_money(123456, fmt) == "$1 234,56"
    assert format_money(123456, MoneyFormat(group="")) == "$1234.56"
    assert format_plain(-123456, fmt) == "−1234,56"


@pytest.mark.parametrize(
    ("text", "fmt", "cents"),
    [
        ("0.25", US, 25),
        ("25¢", US, 25),
        ("25 ¢", US, 25),
        ("$0.25", US, 25),
        ("0.25$", US, 25),
        ("USD 0.25", US, 25),
        ("0,25", US, 25),  # the other mark, once, then two digits: decimals
        ("1,250", US, 125000),  # … then three digits: thousands
        ("$1,234,567.89", US, 123456789),
        ("3", US, 300),
        (".5", US, 50),
        ("  2.  ", US, 200),
        ("0,25", EURO_DE, 25),
        ("0.25", EURO_DE, 25),
        ("1.234,56 €", EURO_DE, 123456),
        ("€1.234,56", EURO_DE, 123456),
        ("1\u202f234,56\u202f€", EURO_FR, 123456),
        ("1 234,56", EURO_FR, 123456),
        ("1500", MoneyFormat(currency="JPY"), 1500),
    ],
)
def test_parse_accepts(text: str, fmt: MoneyFormat, cents: int) -> None:
    assert parse_money(text, fmt) == cents


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ("0.255", US, r"'0\.255' has more than two decimals: amounts are in whole cents"),
        ("0,255", EURO_DE, r"more than two decimals"),
        ("2.5¢", US, r"fraction of a cent"),
        ("0", US, r"the amount must be more than zero"),
        ("$0.00", US, r"the amount must be more than zero"),
        ("-1", US, r"the amount cannot be negative"),
        ("−$0.50", US, r"the amount cannot be negative"),
        ("", US, r"enter an amount"),
        ("   ", US, r"enter an amount"),
        ("ten", US, r"'ten' is not an amount \(for example 0\.25, \$1\.50 or 25¢\)"),
        ("1,2,3", US, r"'1,2,3' is not an amount: write the decimals after '\.' and group the digits in threes"),
        ("1.2.3", US, r"more than one decimal mark"),
        ("1.5", MoneyFormat(currency="JPY"), r"JPY amounts are whole numbers"),
        ("5¢", MoneyFormat(currency="JPY"), r"JPY has no minor unit"),
        ("99999999999", US, r"too large"),
        ("12" * 30, US, r"too long"),
        ("£3", US, r"not an amount"),
    ],
)
def test_parse_refuses_in_words(text: str, fmt: MoneyFormat, message: str) -> None:
    with pytest.raises(MoneyError, match=message):
        parse_money(text, fmt)


def test_zero_and_negative_where_allowed() -> None:
    assert parse_money("0", US, allow_zero=True) == 0
    assert parse_money("-1.05", US, allow_negative=True) == -105
    assert parse_money("$-1.05", US, allow_negative=True) == -105
    assert parse_money("−1,05 €", EURO_DE, allow_negative=True) == -105


FORMATS = st.builds(
    MoneyFormat.for_locale,
    st.sampled_from(["en_US", "de_DE", "fr_FR", "en_GB", "nl_NL", "es_ES", "it_IT", "pt_BR", "de_AT"]),
    st.sampled_from(["USD", "EUR", "GBP", "CHF", "JPY", "SEK"]),
    show=st.sampled_from(list(Show)),
)


@settings(max_examples=300, deadline=None)
@given(FORMATS, st.integers(min_value=-MAX_MINOR_UNITS, max_value=MAX_MINOR_UNITS))
def test_what_is_written_reads_back(fmt: MoneyFormat, cents: int) -> None:
    """Every amount the app writes, with the symbol or the code, in any offered locale, is read back exactly."""
    for text in (format_money(cents, fmt), format_money(cents, fmt, signed=True), format_plain(cents, fmt)):
        assert parse_money(text, fmt, allow_zero=True, allow_negative=True) == cents, text


def test_invalid_formats_are_refused_in_words() -> None:
    with pytest.raises(MoneyError, match=r"'XYZ' is not an ISO 4217 currency code"):
        MoneyFormat(currency="XYZ")
    with pytest.raises(MoneyError, match=r"'zz_ZZ' is not a locale"):
        MoneyFormat(locale="zz_ZZ")
    with pytest.raises(MoneyError, match=r"';' is not a decimal mark"):
        MoneyFormat(decimal=";")
    with pytest.raises(MoneyError, match=r"'_' is not a digit-group separator"):
        MoneyFormat(group="_")
    with pytest.raises(MoneyError, match=r"both '\.'"):
        MoneyFormat(group=".")
    with pytest.raises(MoneyError, match=r"'bold' is not a way to show the currency"):
        MoneyFormat(show="bold")  # type: ignore[arg-type]
    with pytest.raises(MoneyError, match=r"no setting named 'colour'"):
        MoneyFormat.from_dict({"colour": "red"})
    with pytest.raises(MoneyError, match=r"whole number of minor units"):
        format_money(1.5, US)  # type: ignore[arg-type]


def test_stored_form_round_trips_and_damaged_falls_back() -> None:
    for fmt in (US, EURO_DE, EURO_FR, MoneyFormat(currency="JPY", show=Show.CODE, group="")):
        assert MoneyFormat.from_dict(fmt.to_dict()) == fmt
    assert MoneyFormat.from_dict({"currency": "eur"}).currency == "EUR"
    assert MoneyFormat.from_stored({"currency": "EUR", "decimal": "x"}) == MoneyFormat()
    assert MoneyFormat.from_stored("USD") == MoneyFormat()


# -- the money setting ---------------------------------------------------------------------------------------------


def test_an_older_settings_file_without_money_opens_with_the_default(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"settings": {"1": {"theme": "dark"}}}))
    current = SettingsService.open(tmp_path).current()
    assert current.money == MoneyFormat() and current.theme is Theme.DARK
    assert format_money(105, current.money) == "$1.05"


def test_money_setting_survives_reopening_and_keeps_the_rest(tmp_path: Path) -> None:
    service = SettingsService.open(tmp_path)
    service.set_theme("dark")
    saved = service.set_money(EURO_DE)
    assert saved.money == EURO_DE
    reopened = SettingsService.open(tmp_path).current()
    assert reopened == Settings(theme=Theme.DARK, four_colour_suits=False, money=EURO_DE)
    stored = json.loads((tmp_path / "settings.json").read_text())["settings"]["1"]
    assert stored["money"] == {"currency": "EUR", "locale": "de_DE", "show": "symbol", "decimal": ",", "group": "."}


def test_invalid_money_setting_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    service = SettingsService.open(tmp_path)
    service.set_money({"currency": "GBP", "locale": "en_GB"})
    assert not service.can_set_money({"currency": "XYZ"})
    assert service.can_set_money(US)
    with pytest.raises(InvalidMoneyFormatError, match=r"'XYZ' is not an ISO 4217 currency code"):
        service.set_money({"currency": "XYZ"})
    with pytest.raises(SettingsError, match=r"both ','"):
        service.set_money({"decimal": ",", "group": ","})
    assert SettingsService.open(tmp_path).current().money.currency == "GBP"


def test_damaged_money_setting_falls_back_to_the_default(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps({"settings": {"1": {"four_colour_suits": True, "money": {"currency": 42}}}})
    )
    current = SettingsService.open(tmp_path).current()
    assert current.money == MoneyFormat() and current.four_colour_suits is True


# --- nothing that a line may break at ------------------------------------------------------------------------------

SIGN_FORMATS = [
    US,
    MoneyFormat(currency="EUR"),
    MoneyFormat(currency="GBP"),
    MoneyFormat(currency="JPY"),
    MoneyFormat(show=Show.CODE),
    EURO_DE,
    EURO_FR,
    MoneyFormat.for_locale("de_CH", "CHF"),
    MoneyFormat.for_locale("sv_SE", "SEK"),
    MoneyFormat.for_locale("en_US", "EUR"),
]


@pytest.mark.parametrize("fmt", SIGN_FORMATS, ids=lambda f: f"{f.locale}-{f.currency}-{f.show.value}")
@pytest.mark.parametrize("cents", [-1858, -5, 948, 123456789, -123456789])
def test_a_sign_and_a_symbol_never_wrap_apart_from_their_amount(fmt: MoneyFormat, cents: int) -> None:
    """ "Noah −" at a line's end and "€18,58" on the next reads as a gain: the sign is followed by a digit or held
    to the symbol by a word joiner, and every space inside an amount is a no-break space (the locale's own)."""
    for text in (format_money(cents, fmt), format_money(cents, fmt, signed=True)):
        if text[0] in "−+":
            assert text[1].isdigit() or text[1] == WORD_JOINER, repr(text)
        assert not any(c in text for c in " \t\n\u2009"), f"a breaking space in {text!r}"
        assert parse_money(text, fmt, allow_negative=True) == cents, "the app reads back what it wrote"


def test_a_word_joiner_typed_or_pasted_is_read_as_nothing() -> None:
    assert parse_money(f"−{WORD_JOINER}$0.60", US, allow_negative=True) == -60
    assert parse_money(f"{WORD_JOINER}2.50", US) == 250


def test_cents_are_offered_only_with_dollars() -> None:
    assert MoneyFormat().cent_sign and MoneyFormat(currency="CAD").cent_sign
    assert not MoneyFormat(currency="EUR").cent_sign and not EURO_DE.cent_sign
    assert not MoneyFormat(currency="JPY").cent_sign and not MoneyFormat(currency="GBP").cent_sign
    with pytest.raises(MoneyError) as refused:
        parse_money("ten", EURO_DE)
    assert "¢" not in str(refused.value)
    with pytest.raises(MoneyError) as refused:
        parse_money("ten", US)
    assert "25¢" in str(refused.value)
