"""The app's settings as typed values, on top of :class:`storage.settings.SettingsStore`.

Views read :class:`Settings` and change it only through :class:`SettingsService`, which checks every value first
(``verify_theme`` raises, ``can_set_theme`` answers yes/no for greying out choices).

>>> import tempfile, pathlib
>>> service = SettingsService.open(pathlib.Path(tempfile.mkdtemp()))
>>> service.current().theme
<Theme.SYSTEM: 'system'>
>>> service.set_theme("dark").theme
<Theme.DARK: 'dark'>
>>> service.can_set_theme("purple")
False
>>> service.set_money({"currency": "EUR", "locale": "de_DE", "decimal": ",", "group": "."}).money.currency
'EUR'
>>> suit_colour("♦", four_colour=True).value
'blue'
>>> suit_colour("♦", four_colour=False).value
'red'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.i18n import N_, Words
from companion.i18n import SYSTEM as SYSTEM_LANGUAGE
from companion.i18n import known as known_language
from companion.i18n import normalize as normalize_language
from companion.i18n import resolve as resolve_language
from companion.listeners import Listeners
from companion.money import MoneyError, MoneyFormat
from scoring.base import passes
from storage.settings import SettingsStore

_log = logging.getLogger(__name__)


class SettingsError(ValueError):
    """A settings value the app does not accept."""


class InvalidThemeError(SettingsError):
    """A theme name that is not ``light``, ``dark`` or ``system``."""


class InvalidLanguageError(SettingsError):
    """A language the app does not speak."""


class InvalidMoneyFormatError(SettingsError):
    """A currency and number format the app does not accept (an unknown currency, twice the same mark...)."""


class Theme(StrEnum):
    """The colour scheme the app is drawn in."""

    LIGHT = "light"
    """Dark text on a light background."""
    DARK = "dark"
    """Light text on a dark background: easier on the eyes at a dim card table."""
    SYSTEM = "system"
    """Follow the device's (or browser's) own light/dark setting."""

    @property
    def label(self) -> str:
        """The name shown in Settings (in English: translated where it is shown, ``words.gettext(theme.label)``)."""
        return {"light": N_("Light"), "dark": N_("Dark"), "system": N_("System")}[self.value]


class SuitColour(StrEnum):
    """The colour a suit symbol is drawn in (``black`` means "the text colour", so it stays readable in dark mode)."""

    BLACK = "black"
    """The normal text colour (black in light mode, near-white in dark mode)."""
    RED = "red"
    """Red (hearts, and diamonds unless four-colour suits are on)."""
    BLUE = "blue"
    """Blue (diamonds with four-colour suits)."""
    GREEN = "green"
    """Green (clubs with four-colour suits)."""


_TWO_COLOUR = {"♠": SuitColour.BLACK, "♥": SuitColour.RED, "♦": SuitColour.RED, "♣": SuitColour.BLACK}
_FOUR_COLOUR = {"♠": SuitColour.BLACK, "♥": SuitColour.RED, "♦": SuitColour.BLUE, "♣": SuitColour.GREEN}
SUITS = ("♠", "♥", "♦", "♣")
"""The four suit symbols, in the order the app shows them."""


def suit_colour(suit: str, four_colour: bool) -> SuitColour:
    """The colour of a suit symbol (``♠ ♥ ♦ ♣``) under the two- or four-colour scheme.

    >>> suit_colour("♣", four_colour=True), suit_colour("♣", four_colour=False)
    (<SuitColour.GREEN: 'green'>, <SuitColour.BLACK: 'black'>)
    """
    table = _FOUR_COLOUR if four_colour else _TWO_COLOUR
    if suit not in table:
        raise ValueError(f"{suit!r} is not a suit symbol (expected one of {' '.join(SUITS)})")
    return table[suit]


@dataclass(frozen=True)
class Settings:
    """A snapshot of every setting, with its default where nothing was saved."""

    theme: Theme = Theme.SYSTEM
    four_colour_suits: bool = False
    keep_awake: bool = True
    """Keep the screen on while a game is at the table (a long hand must not let the phone go dark)."""
    money: MoneyFormat = field(default_factory=MoneyFormat)
    """Currency and number format (stakes are in minor units underneath); US dollars, ``$1,234.56``, by default."""
    language: str = SYSTEM_LANGUAGE
    """The table's language: ``system`` (the device's own, English when the app does not speak it), or a code of
    :data:`companion.i18n.LANGUAGES` (``en``, ``sv``, ``de``) or the pseudo-language ``en-XA``."""
    english_card_letters: bool = False
    """Show J Q K A for the court cards and the Ace in every language (off: Swedish Kn D K E, German B D K A)."""

    @property
    def spoken(self) -> str:
        """The language in use: :attr:`language`, with ``system`` resolved to the device's.

        >>> Settings(language="de").spoken
        'de'
        """
        return resolve_language(self.language)

    @property
    def words(self) -> Words:
        """The words of the language in use, with the card letters as set.

        >>> Settings(language="sv", english_card_letters=True).words
        Words('sv', english_ranks=True)
        """
        return Words.of(self.spoken, english_ranks=self.english_card_letters)

    @property
    def money_shown(self) -> MoneyFormat:
        """The money format as the screens write amounts: the language's own pattern (Babel's, where the symbol
        goes and how it is spaced) with the currency, its symbol or code and the marks chosen in :attr:`money`.
        English, or a format set for a locale of its own, is :attr:`money` as it is.

        >>> from companion.money import format_money
        >>> swedish = Settings(language="sv", money=MoneyFormat(currency="SEK", decimal=",", group="."))
        >>> format_money(123456, swedish.money_shown).replace("\\xa0", " ")
        '1.234,56 kr'
        >>> english, german = Settings(language="en"), Settings(language="de")
        >>> format_money(123456, english.money_shown), format_money(123456, german.money_shown)
        ('$1,234.56', '1,234.56\xa0$')
        """
        locale = self.words.locale
        if locale.language == "en" or self.money.locale != MoneyFormat().locale:
            return self.money
        return replace(self.money, locale=str(locale))

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Settings:
        """Read stored values; anything missing or unreadable falls back to its default (nothing is lost)."""
        theme = raw.get("theme")
        four = raw.get("four_colour_suits")
        awake = raw.get("keep_awake")
        language = raw.get("language")  # absent in settings written before languages: the device's
        letters = raw.get("english_card_letters")
        return cls(
            language=language if isinstance(language, str) and known_language(language) else SYSTEM_LANGUAGE,
            english_card_letters=letters if isinstance(letters, bool) else False,
            theme=Theme(theme) if isinstance(theme, str) and theme in Theme._value2member_map_ else Theme.SYSTEM,
            four_colour_suits=four if isinstance(four, bool) else False,
            keep_awake=awake if isinstance(awake, bool) else True,
            money=MoneyFormat.from_stored(raw.get("money")),  # absent (older settings.json) or damaged: the default
        )


Listener = Callable[[Settings], None]


class SettingsService:
    """Reads and changes settings; every change is on disk before the call returns, then listeners are told."""

    def __init__(self, store: SettingsStore) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._listeners: Listeners[Settings] = Listeners("a settings listener", drop_failing=False)
        self._language_override: str | None = None

    @classmethod
    def open(cls, data_dir: Path) -> SettingsService:
        """The settings kept in ``data_dir`` (the file is created on the first change)."""
        return cls(SettingsStore(Path(data_dir)))

    def current(self) -> Settings:
        """The settings as saved now (the language as ``companion --lang`` chose it for this run, if it did)."""
        with self._lock:
            settings = Settings.from_dict(self._store.all())
            if self._language_override is not None:
                settings = replace(settings, language=self._language_override)
            return settings

    # -- language --------------------------------------------------------------------------------------------------

    def verify_language(self, code: str) -> str:
        """The app's code for ``code`` (``system``, ``en``, ``sv``, ``de``, ``en-XA``; ``sv_SE`` is ``sv``), or
        :class:`InvalidLanguageError` naming the accepted ones.

        >>> import tempfile, pathlib
        >>> SettingsService.open(pathlib.Path(tempfile.mkdtemp())).verify_language("sv_SE")
        'sv'
        """
        if code == SYSTEM_LANGUAGE:
            return code
        found = normalize_language(code) if isinstance(code, str) else None
        if found is None:
            raise InvalidLanguageError(
                f"{code!r} is not a language of the app (choose one of: system, en, sv, de, en-XA)"
            )
        return found

    def set_language(self, code: str) -> Settings:
        """Save the table's language (``system`` follows the device); returns the new settings. It also ends a
        ``companion --lang`` choice for this run.

        >>> import tempfile, pathlib
        >>> service = SettingsService.open(pathlib.Path(tempfile.mkdtemp()))
        >>> service.current().language, service.set_language("de").spoken, service.current().language
        ('system', 'de', 'de')
        """
        value = self.verify_language(code)
        with self._lock:
            self._language_override = None
        return self._save(language=value)

    def use_language(self, code: str) -> Settings:
        """Speak ``code`` for this run without saving it (``companion --lang``); returns the settings in use.

        >>> import tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> SettingsService.open(folder).use_language("sv").spoken, SettingsService.open(folder).current().language
        ('sv', 'system')
        """
        value = self.verify_language(code)
        with self._lock:
            self._language_override = value
        return self.current()

    def set_english_card_letters(self, on: bool) -> Settings:
        """Keep the English letters J Q K A for cards in every language, or use the language's own; returns the new
        settings."""
        if not isinstance(on, bool):
            raise SettingsError(f"English card letters is on or off, not {on!r}")
        return self._save(english_card_letters=on)

    # -- theme ---------------------------------------------------------------------------------------------------

    def verify_theme(self, theme: Theme | str) -> Theme:
        """The :class:`Theme` for ``theme``, or :class:`InvalidThemeError` naming the accepted values."""
        if isinstance(theme, Theme):
            return theme
        if isinstance(theme, str) and theme in Theme._value2member_map_:
            return Theme(theme)
        accepted = ", ".join(t.value for t in Theme)
        raise InvalidThemeError(f"{theme!r} is not a theme (choose one of: {accepted})")

    def can_set_theme(self, theme: Theme | str) -> bool:
        """Whether :meth:`set_theme` would accept ``theme``."""
        return passes(lambda: self.verify_theme(theme), (InvalidThemeError,))

    def set_theme(self, theme: Theme | str) -> Settings:
        """Save the theme; returns the new settings."""
        value = self.verify_theme(theme)
        return self._save(theme=value)

    # -- four-colour suits ---------------------------------------------------------------------------------------

    def set_four_colour_suits(self, on: bool) -> Settings:
        """Switch four-colour suits (♠ black, ♥ red, ♦ blue, ♣ green) on or off; returns the new settings."""
        if not isinstance(on, bool):
            raise SettingsError(f"four-colour suits is on or off, not {on!r}")
        return self._save(four_colour_suits=on)

    # -- keep the screen on ----------------------------------------------------------------------------------------

    def set_keep_awake(self, on: bool) -> Settings:
        """Keep the screen on during a game, or let it sleep as usual; returns the new settings.

        >>> import tempfile, pathlib
        >>> service = SettingsService.open(pathlib.Path(tempfile.mkdtemp()))
        >>> service.current().keep_awake, service.set_keep_awake(False).keep_awake, service.current().keep_awake
        (True, False, False)
        """
        if not isinstance(on, bool):
            raise SettingsError(f"keeping the screen on is on or off, not {on!r}")
        return self._save(keep_awake=on)

    # -- currency and number format ------------------------------------------------------------------------------

    def verify_money(self, fmt: MoneyFormat | Mapping[str, Any]) -> MoneyFormat:
        """The :class:`MoneyFormat` for ``fmt``, or :class:`InvalidMoneyFormatError` saying what is wrong."""
        if isinstance(fmt, MoneyFormat):
            return fmt
        try:
            return MoneyFormat.from_dict(fmt)
        except MoneyError as exc:
            raise InvalidMoneyFormatError(str(exc)) from None

    def can_set_money(self, fmt: MoneyFormat | Mapping[str, Any]) -> bool:
        """Whether :meth:`set_money` would accept ``fmt``."""
        return passes(lambda: self.verify_money(fmt), (InvalidMoneyFormatError,))

    def set_money(self, fmt: MoneyFormat | Mapping[str, Any]) -> Settings:
        """Save the currency and number format; returns the new settings."""
        return self._save(money=self.verify_money(fmt))

    # -- listeners -----------------------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after every change; returns a function that stops it."""
        return self._listeners.subscribe(listener)

    def _save(self, **changes: Any) -> Settings:
        with self._lock:
            new = replace(self.current(), **changes)
            for key, value in changes.items():
                if isinstance(value, MoneyFormat):
                    value = value.to_dict()
                self._store.set(key, value.value if isinstance(value, Theme) else value)
        self._listeners.notify(new)  # a listener that fails is logged and kept; the others hear
        return new
