"""Money as the table reads and types it: a currency and number format as data, amounts in minor units underneath.

Every stake, payout and ledger amount is a whole number of the currency's minor units (cents for dollars and euros,
yen for yen); only the screens, the recap and the exports turn it into text, through :func:`format_money`, and only
what a player types comes back through :func:`parse_money`. The patterns (where the symbol goes, the spacing, the
symbols themselves, how many decimals a currency has) are Babel's locale data (CLDR), not written by hand here;
the setting can override the decimal mark and the grouping.

>>> format_money(123456, MoneyFormat())
'$1,234.56'
>>> euro = MoneyFormat.for_locale("de_DE", "EUR")
>>> euro.decimal, euro.group
(',', '.')
>>> format_money(-60, euro).replace("\\xa0", " ")
'−0,60 €'
>>> parse_money("0,25", euro), parse_money("$0.25", MoneyFormat()), parse_money("25¢", MoneyFormat())
(25, 25, 25)
>>> parse_money("0.255", MoneyFormat())
Traceback (most recent call last):
...
companion.money.MoneyError: '0.255' has more than two decimals: amounts are in whole cents
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import (
    format_currency,
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
    list_currencies,
)

MINUS = "−"
"""The minus sign shown before a negative amount (U+2212, as wide as the plus; typed ``-`` is accepted too)."""
WORD_JOINER = "\u2060"
"""Put between a sign and a currency symbol (``−\u2060$0.60``): a line is never broken there, so a minus sign never
ends a line with its amount on the next (which would read as a gain). Invisible; the app's font has it."""
MAX_MINOR_UNITS = 10**11
"""The largest amount accepted from a player (a billion dollars in cents): a typo, not a stake."""
DECIMAL_MARKS = (".", ",")
"""The decimal marks the setting offers."""
GROUP_MARKS = (",", ".", " ", "\u202f", "\xa0", "'", "’", "")
"""The digit-group separators the setting offers ("" = no grouping; the spaces are a space, a narrow no-break
space and a no-break space)."""
COMMON_CURRENCIES = ("USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN")
"""The currencies the Settings screen offers first (any other ISO 4217 code can be stored, and is offered too once
it is the current one)."""
EXAMPLE_AMOUNT = Decimal("1234.56")
"""The amount the Settings screen writes as its live example (cut to the currency's decimals)."""
_SPACES = str.maketrans({"\xa0": " ", "\u202f": " ", "\u2009": " ", WORD_JOINER: ""})
_NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}


class MoneyError(ValueError):
    """An amount or a money format the app does not accept; ``str()`` says what is wrong in words."""


class Show(enum.StrEnum):
    """How the currency is named next to an amount."""

    SYMBOL = "symbol"
    """The locale's symbol: ``$``, ``€``, ``£``, ``CHF``."""
    CODE = "code"
    """The ISO 4217 code: ``USD 1.05``."""


@lru_cache(maxsize=1)
def currencies() -> frozenset[str]:
    """The ISO 4217 codes Babel knows (about 300).

    >>> {"USD", "EUR", "JPY"} <= currencies(), "XYZ" in currencies()
    (True, False)
    """
    return frozenset(list_currencies())


def currency_name(code: str, locale: Locale | str = "en") -> str:
    """The currency's plain name in a language (English by default), from Babel's locale data (the code itself if
    Babel has none).

    >>> currency_name("USD"), currency_name("chf"), currency_name("EUR", "de")
    ('US Dollar', 'Swiss Franc', 'Euro')
    """
    return str(get_currency_name(code.upper(), locale=locale))


def currency_choices(current: str, locale: Locale | str = "en") -> list[tuple[str, str]]:
    """The currencies to choose from, as ``(code, "CODE — name")``: :data:`COMMON_CURRENCIES`, and ``current``
    first when it is not one of them.

    >>> currency_choices("USD")[:2]
    [('USD', 'USD — US Dollar'), ('EUR', 'EUR — Euro')]
    >>> currency_choices("INR")[0], len(currency_choices("INR")) == len(COMMON_CURRENCIES) + 1
    (('INR', 'INR — Indian Rupee'), True)
    >>> currency_choices("USD", "sv")[0]
    ('USD', 'USD — amerikansk dollar')
    """
    codes = list(COMMON_CURRENCIES)
    if current.upper() not in codes:
        codes.insert(0, current.upper())
    return [(code, f"{code} — {currency_name(code, locale)}") for code in codes]


@lru_cache(maxsize=64)
def _locale(name: str) -> Locale:
    try:
        return Locale.parse(name)
    except (UnknownLocaleError, ValueError, TypeError) as exc:
        raise MoneyError(f"{name!r} is not a locale this app knows (for example en_US, de_DE, fr_FR)") from exc


class _MarkedLocale(Locale):
    """A Babel locale whose decimal mark and group separator are the setting's."""

    def __init__(self, base: Locale, decimal: str, group: str) -> None:
        super().__init__(base.language, base.territory, base.script, base.variant)
        self._marks = {"decimal": decimal, "group": group}

    @property
    def number_symbols(self) -> Any:
        symbols = dict(super().number_symbols)
        symbols["latn"] = {**dict(symbols["latn"]), **self._marks}
        return symbols


@dataclass(frozen=True)
class MoneyFormat:
    """How amounts are written: the currency, the locale whose pattern places the symbol, the marks.

    The default is US dollars as Americans write them: ``$1,234.56``. :meth:`for_locale` takes the marks from a
    locale's own data. Invalid values raise :class:`MoneyError` in words:

    >>> MoneyFormat(decimal=",", group=",")
    Traceback (most recent call last):
    ...
    companion.money.MoneyError: the decimal mark and the digit-group separator are both ','; choose two different marks
    >>> format_money(150, MoneyFormat(currency="EUR", show=Show.CODE, decimal=",", group="."))
    'EUR\\xa01,50'
    """

    currency: str = "USD"
    """ISO 4217 code."""
    locale: str = "en_US"
    """The Babel locale whose currency pattern is used (symbol before or after, spacing, the symbol itself)."""
    show: Show = Show.SYMBOL
    decimal: str = "."
    group: str = ","
    _babel: Locale = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.currency, str) or self.currency.upper() not in currencies():
            raise MoneyError(f"{self.currency!r} is not an ISO 4217 currency code (for example USD, EUR, GBP)")
        object.__setattr__(self, "currency", self.currency.upper())
        if not isinstance(self.locale, str):
            raise MoneyError(f"the money format's locale is a name such as en_US, not {self.locale!r}")
        base = _locale(self.locale)
        object.__setattr__(self, "show", _show(self.show))
        if self.decimal not in DECIMAL_MARKS:
            raise MoneyError(f"{self.decimal!r} is not a decimal mark (choose '.' or ',')")
        if self.group not in GROUP_MARKS:
            shown = ", ".join(repr(g) for g in GROUP_MARKS)
            raise MoneyError(f"{self.group!r} is not a digit-group separator (choose one of {shown})")
        if self.group == self.decimal:
            raise MoneyError(
                f"the decimal mark and the digit-group separator are both {self.decimal!r}; choose two different marks"
            )
        object.__setattr__(self, "_babel", _MarkedLocale(base, self.decimal, self.group))

    @classmethod
    def for_locale(cls, locale: str, currency: str, *, show: Show | str = Show.SYMBOL) -> MoneyFormat:
        """The format a locale uses for a currency, marks included (from Babel's locale data).

        >>> german = MoneyFormat.for_locale("de_DE", "EUR")
        >>> german.decimal, german.group, format_money(123456, german).replace("\\xa0", " ")
        (',', '.', '1.234,56 €')
        """
        base = _locale(locale)
        symbols = base.number_symbols["latn"]
        decimal = symbols.get("decimal", ".")
        group = symbols.get("group", ",")
        if decimal not in DECIMAL_MARKS:
            decimal = "."
        if group not in GROUP_MARKS or group == decimal:
            group = "," if decimal == "." else "."
        return cls(currency=currency, locale=str(base), show=_show(show), decimal=decimal, group=group)

    def changed(
        self, *, currency: str | None = None, show: Show | str | None = None, decimal: str | None = None
    ) -> MoneyFormat:
        """This format with one choice changed, as the Settings screen offers them; a new decimal mark that is the
        digit-group separator swaps the two (``.`` ↔ ``,``), so every choice the screen offers is valid.
        :class:`MoneyError` for a value that is not valid.

        >>> comma = MoneyFormat().changed(decimal=",")
        >>> comma.decimal, comma.group, format_money(123456, comma)
        (',', '.', '$1.234,56')
        >>> MoneyFormat(group=" ").changed(decimal=",").group
        ' '
        >>> format_money(123456, MoneyFormat().changed(currency="eur", show="code"))
        'EUR\xa01,234.56'
        """
        group = self.decimal if decimal is not None and decimal == self.group else self.group  # the marks swap
        return replace(
            self,
            currency=self.currency if currency is None else currency,
            show=self.show if show is None else _show(show),
            decimal=self.decimal if decimal is None else decimal,
            group=group,
        )

    # -- what the format implies ---------------------------------------------------------------------------------

    @property
    def digits(self) -> int:
        """How many decimals the currency has (2 for USD and EUR, 0 for JPY): minor units per unit = 10**digits.

        >>> MoneyFormat().digits, MoneyFormat(currency="JPY").digits
        (2, 0)
        """
        return int(get_currency_precision(self.currency))

    @property
    def cent_sign(self) -> bool:
        """Whether amounts of this currency are also written in cents with ``¢`` (``25¢``): the dollars (and the
        other currencies whose symbol is a ``$``), not the euro, the pound or the yen. Only then do hints offer it.

        >>> MoneyFormat().cent_sign, MoneyFormat(currency="CAD").cent_sign, MoneyFormat(currency="EUR").cent_sign
        (True, True, False)
        """
        return self.digits == 2 and "$" in str(get_currency_symbol(self.currency, "en_US"))

    @property
    def symbol(self) -> str:
        """What names the currency next to an amount: the locale's symbol, or the ISO code.

        >>> MoneyFormat().symbol, MoneyFormat(show=Show.CODE).symbol, MoneyFormat(currency="EUR").symbol
        ('$', 'USD', '€')
        """
        if self.show is Show.CODE:
            return self.currency
        return str(get_currency_symbol(self.currency, self._babel))

    def pattern(self) -> str:
        """The Babel (CLDR) number pattern used to write an amount.

        >>> MoneyFormat().pattern(), MoneyFormat(show="code").pattern()
        ('¤#,##0.00', '¤¤\\xa0#,##0.00')
        """
        standard = self._babel.currency_formats["standard"].pattern
        if self.show is Show.SYMBOL:
            return str(standard)
        coded = standard.replace("¤", "¤¤")
        coded = re.sub(r"¤¤(?=[#0-9])", "¤¤\xa0", coded)
        return re.sub(r"(?<=[#0-9])¤¤", "\xa0¤¤", coded)

    # -- as stored in the settings -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, str]:
        """The JSON-ready form kept in ``settings.json`` under ``money``.

        >>> MoneyFormat().to_dict()
        {'currency': 'USD', 'locale': 'en_US', 'show': 'symbol', 'decimal': '.', 'group': ','}
        """
        return {
            "currency": self.currency,
            "locale": self.locale,
            "show": self.show.value,
            "decimal": self.decimal,
            "group": self.group,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> MoneyFormat:
        """Read a stored format, strictly: :class:`MoneyError` naming the first bad value.

        >>> MoneyFormat.from_dict({"currency": "eur", "decimal": ",", "group": "."}).currency
        'EUR'
        """
        if not isinstance(raw, Mapping):
            raise MoneyError(f"a money format is a set of named values, not {type(raw).__name__}")
        unknown = sorted(set(raw) - {"currency", "locale", "show", "decimal", "group"})
        if unknown:
            raise MoneyError(f"a money format has no setting named {unknown[0]!r}")
        default = cls()
        values = {key: raw.get(key, getattr(default, key)) for key in ("currency", "locale", "decimal", "group")}
        for key, value in values.items():
            if not isinstance(value, str):
                raise MoneyError(f"the money format's {key} must be text, not {value!r}")
        return cls(show=_show(raw.get("show", default.show)), **values)

    @classmethod
    def from_stored(cls, raw: Any) -> MoneyFormat:
        """Read a stored format leniently: missing or unreadable falls back to the default (nothing is lost).

        >>> MoneyFormat.from_stored(None) == MoneyFormat.from_stored({"currency": "???"}) == MoneyFormat()
        True
        """
        try:
            return cls.from_dict(raw)
        except MoneyError:
            return cls()


def _show(value: Any) -> Show:
    if isinstance(value, Show):
        return value
    if isinstance(value, str) and value in Show._value2member_map_:
        return Show(value)
    raise MoneyError(f"{value!r} is not a way to show the currency (choose 'symbol' or 'code')")


def _amount(cents: int, fmt: MoneyFormat) -> Decimal:
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise MoneyError(f"an amount is a whole number of minor units (cents), not {cents!r}")
    return Decimal(cents).scaleb(-fmt.digits)


def format_money(cents: int, fmt: MoneyFormat | None = None, *, signed: bool = False) -> str:
    """An amount in minor units as the format writes it; ``signed`` puts ``+`` before a gain (for balances).

    A sign before a currency symbol is held to it by :data:`WORD_JOINER`, so that the two never wrap apart (a
    symbol and its number, or a number and a symbol after it, are held together by the locale's own pattern: no
    break is allowed between ``$`` and ``1``, and a space there is a no-break space).

    >>> us = MoneyFormat()
    >>> format_money(105, us), format_money(0, us)
    ('$1.05', '$0.00')
    >>> format_money(-60, us) == "−" + WORD_JOINER + "$0.60", format_money(60, us, signed=True) == "+\u2060$0.60"
    (True, True)
    >>> format_money(123456789, MoneyFormat(group=""))
    '$1234567.89'
    >>> format_money(1500, MoneyFormat(currency="JPY"))
    '¥1,500'
    """
    fmt = fmt or MoneyFormat()
    text = str(format_currency(_amount(cents, fmt), fmt.currency, format=fmt.pattern(), locale=fmt._babel))
    if cents < 0:  # Babel writes a pattern's negative prefix as a hyphen; the setting's minus sign is U+2212
        text = text.replace("-", MINUS, 1)
    text = f"+{text}" if signed and cents > 0 else text
    if text[:1] in (MINUS, "+") and not text[1:2].isdigit():  # a sign before a symbol: never wrapped apart
        text = text[0] + WORD_JOINER + text[1:]
    return text


def format_plain(cents: int, fmt: MoneyFormat | None = None) -> str:
    """An amount without the currency, with the format's marks (for a text field being edited, or a CSV column).

    >>> format_plain(123456, MoneyFormat()), format_plain(-5, MoneyFormat(decimal=",", group="."))
    ('1234.56', '−0,05')
    """
    fmt = fmt or MoneyFormat()
    _amount(cents, fmt)
    digits = fmt.digits
    sign = MINUS if cents < 0 else ""
    whole, part = divmod(abs(cents), 10**digits)
    return f"{sign}{whole}{fmt.decimal}{part:0{digits}d}" if digits else f"{sign}{whole}"


_MINOR_UNITS = re.compile(r"(?<![\w.,])(\d+)¢")


def money_in_text(text: str, fmt: MoneyFormat | None = None) -> str:
    """``text`` with every amount written in minor units (``210¢``, as the scoring notes write money) in the
    format's own way, so a note reads in the unit every other line of the app uses.

    >>> money_in_text("Vegas: A and D split the pot of 211¢ (A 105¢, D 106¢)")
    'Vegas: A and D split the pot of $2.11 (A $1.05, D $1.06)'
    >>> money_in_text("pays × 10¢", MoneyFormat.for_locale("de_DE", "EUR")).replace("\xa0", " ")
    'pays × 0,10 €'
    >>> money_in_text("no money here (rule 7)")
    'no money here (rule 7)'
    """
    return _MINOR_UNITS.sub(lambda match: format_money(int(match.group(1)), fmt), text)


def example(fmt: MoneyFormat | None = None) -> str:
    """:data:`EXAMPLE_AMOUNT` as the format writes it: the Settings screen's live example.

    >>> example(), example(MoneyFormat(currency="JPY")), example(MoneyFormat(currency="EUR").changed(decimal=","))
    ('$1,234.56', '¥1,234', '€1.234,56')
    """
    fmt = fmt or MoneyFormat()
    return format_money(int(EXAMPLE_AMOUNT.scaleb(fmt.digits)), fmt)


def _decimals_word(n: int) -> str:
    return f"{_NUMBER_WORDS.get(n, str(n))} decimal{'' if n == 1 else 's'}"


def parse_money(
    text: str, fmt: MoneyFormat | None = None, *, allow_zero: bool = False, allow_negative: bool = False
) -> int:
    """What a player typed, in minor units; :class:`MoneyError` in words when it is not an amount.

    Accepted: the format's decimal mark (``0.25``, or ``0,25`` with a decimal comma), its group separator in
    threes (``1,250.00``), the currency's symbol or code on either side (``$0.25``, ``0,25 €``, ``EUR 3``), and
    a whole number of minor units with ``¢`` (``25¢``). The other mark (``,`` when the format uses ``.``) is read
    as the decimal mark too when it appears once and is followed by one or two digits, so ``0,25`` is 25 cents
    everywhere; followed by three digits it is a group separator.

    >>> us = MoneyFormat()
    >>> [parse_money(t, us) for t in ("0.25", "25¢", "$0.25", "0,25", "3", "$1,250", ".5", "USD 2.00")]
    [25, 25, 25, 25, 300, 125000, 50, 200]
    >>> parse_money("−1.00", us, allow_negative=True)
    -100
    >>> parse_money("0", us)
    Traceback (most recent call last):
    ...
    companion.money.MoneyError: the amount must be more than zero
    >>> parse_money("-1", us)
    Traceback (most recent call last):
    ...
    companion.money.MoneyError: the amount cannot be negative
    >>> parse_money("ten", us)
    Traceback (most recent call last):
    ...
    companion.money.MoneyError: 'ten' is not an amount (for example 0.25, $1.50 or 25¢)
    """
    fmt = fmt or MoneyFormat()
    if not isinstance(text, str):
        raise MoneyError(f"an amount is text to read, not {type(text).__name__}")
    shown = text.strip()
    raw = " ".join(shown.translate(_SPACES).split())
    if not raw:
        raise MoneyError("enter an amount")
    if len(raw) > 40:
        raise MoneyError(f"{shown[:20]!r}… is too long to be an amount")
    example = f"{format_plain(25, fmt)}, {format_money(150, fmt)}" + (" or 25¢" if fmt.cent_sign else "")
    not_amount = MoneyError(f"{shown!r} is not an amount (for example {example})")
    negative, body = _strip_sign(raw)
    body = _strip_currency(body, fmt)
    if not negative:
        negative, body = _strip_sign(body)
    minor: int
    if body.endswith("¢"):
        if not fmt.digits:
            raise MoneyError(f"{shown!r}: {fmt.currency} has no minor unit, so there is no ¢ amount")
        digits = body[:-1].strip()
        if re.fullmatch(r"\d+", digits):
            minor = int(digits)
        elif re.fullmatch(r"\d+[.,]\d*", digits):
            raise MoneyError(f"{shown!r} is a fraction of a cent: amounts are in whole cents")
        else:
            raise not_amount
    else:
        minor = _parse_number(body, fmt, shown, not_amount)
    if minor > MAX_MINOR_UNITS:
        raise MoneyError(f"{shown!r} is too large to be a stake (at most {format_money(MAX_MINOR_UNITS, fmt)})")
    if negative and minor:
        if not allow_negative:
            raise MoneyError("the amount cannot be negative")
        minor = -minor
    if minor == 0 and not allow_zero:
        raise MoneyError("the amount must be more than zero")
    return minor


def _strip_sign(text: str) -> tuple[bool, str]:
    if text[:1] in ("-", MINUS, "+"):
        return text[0] != "+", text[1:].strip()
    return False, text


def _strip_currency(text: str, fmt: MoneyFormat) -> str:
    """Remove one currency symbol or code at either end (the format's, the code, or the en_US symbol)."""
    names = {fmt.symbol, fmt.currency, str(get_currency_symbol(fmt.currency, "en_US"))}
    for name in sorted((n for n in names if n), key=len, reverse=True):
        if text.upper().startswith(name.upper()):
            return text[len(name) :].strip()
        if text.upper().endswith(name.upper()):
            return text[: -len(name)].strip()
    return text


def _parse_number(body: str, fmt: MoneyFormat, shown: str, not_amount: MoneyError) -> int:
    """Digits with the format's marks → minor units."""
    decimal, group = fmt.decimal, fmt.group
    other = "," if decimal == "." else "."
    if group.strip() == "":  # a space as group separator: typed spaces between digit groups
        group = " " if group else ""
    if decimal not in body and body.count(other) == 1 and re.search(re.escape(other) + r"\d{1,2}$", body):
        whole, frac = body.split(other)
    elif body.count(decimal) > 1:
        raise MoneyError(f"{shown!r} has more than one decimal mark {decimal!r}")
    elif decimal in body:
        whole, frac = body.split(decimal)
    else:
        whole, frac = body, ""
    if not whole and not frac:
        raise not_amount
    if not re.fullmatch(r"\d*", frac):
        raise not_amount
    if whole and not re.fullmatch(r"\d+", whole):
        grouped = (group and re.fullmatch(r"\d{1,3}(" + re.escape(group) + r"\d{3})+", whole)) or re.fullmatch(
            r"\d{1,3}(" + re.escape(other) + r"\d{3})+", whole
        )
        if not grouped:
            if re.fullmatch(r"[\d.,' ’]+", whole):
                raise MoneyError(
                    f"{shown!r} is not an amount: write the decimals after {decimal!r}"
                    + (f" and group the digits in threes with {group!r}" if group else "")
                    + f" (for example {format_plain(125000, fmt)})"
                )
            raise not_amount
        whole = re.sub(r"\D", "", whole)
    if len(frac) > fmt.digits:
        if not fmt.digits:
            raise MoneyError(f"{shown!r} has decimals, but {fmt.currency} amounts are whole numbers")
        raise MoneyError(
            f"{shown!r} has more than {_decimals_word(fmt.digits)}: amounts are in whole "
            + ("cents" if fmt.digits == 2 else "minor units")
        )
    return int(whole or "0") * 10**fmt.digits + int(frac.ljust(fmt.digits, "0") or "0")


__all__ = [
    "COMMON_CURRENCIES",
    "DECIMAL_MARKS",
    "EXAMPLE_AMOUNT",
    "GROUP_MARKS",
    "MAX_MINOR_UNITS",
    "MINUS",
    "MoneyError",
    "MoneyFormat",
    "Show",
    "currencies",
    "currency_choices",
    "currency_name",
    "example",
    "format_money",
    "format_plain",
    "parse_money",
]
