"""The table's language: gettext catalogues compiled with Babel, and the "why" of scoring in that language.

Catalogues live in ``companion/locales/<lang>/LC_MESSAGES/messages.mo`` (package data, so an installed package and
``flet build`` carry them); ``make catalogues`` extracts, updates and compiles them (README, "Languages"). A language
without a catalogue, or a message without a translation, falls back to English.

>>> from scoring.why import Cards, Names, Note
>>> note = Note.of("Up-card {up}; {dealt}.", up=Cards.of(["QH"]), dealt="Ann 7♥")
>>> render_in(note, "sv"), render_in(note, "de"), render_in(note, "en")
('Uppkort D♥; Ann 7♥.', 'Aufgedeckte Karte D♥; Ann 7♥.', 'Up-card Q♥; Ann 7♥.')
>>> render_in(note, "sv", english_ranks=True)
'Uppkort Q♥; Ann 7♥.'
>>> render_in(Note.of("{names} tie", names=Names.of(["Ann", "Ben"])), "xx")  # no such catalogue: English
'Ann and Ben tie'
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from scoring.why import ENGLISH, RANKS_DE, RANKS_SV, Language, Note, render

LOCALES = Path(__file__).with_name("locales")
"""Where the catalogues are: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po`` (and ``.mo``)."""
DOMAIN = "messages"

SYSTEM = "system"
"""The setting that follows the device's language (the default)."""
PSEUDO = "en-XA"
"""The pseudo-language for testing: every message accented, about 30% longer and wrapped in ⟦ ⟧."""
LANGUAGES: Mapping[str, str] = {"en": "English", "sv": "Svenska", "de": "Deutsch"}
"""The languages the app speaks, each by its own name (the Settings choice lists them so)."""
RANKS: Mapping[str, Mapping[str, str]] = {"sv": RANKS_SV, "de": RANKS_DE}
"""The card letters a table says in each language (J Q K A in English)."""


def known(code: str) -> bool:
    """Whether ``code`` is a language the app speaks, or the pseudo-language.

    >>> known("sv"), known("en-XA"), known("fr")
    (True, True, False)
    """
    return code in LANGUAGES or code == PSEUDO


def normalize(code: str | None) -> str | None:
    """The app's code for a language or locale name (``sv_SE.UTF-8`` → ``sv``, ``de-AT`` → ``de``, ``en_XA`` →
    ``en-XA``), or ``None`` when the app does not speak it.

    >>> normalize("sv_SE.UTF-8"), normalize("de-AT"), normalize("en_xa"), normalize("fr_FR"), normalize("C")
    ('sv', 'de', 'en-XA', None, None)
    """
    if not code:
        return None
    text = code.split(".")[0].split("@")[0].replace("_", "-").strip()
    if text.lower() == PSEUDO.lower():
        return PSEUDO
    try:
        language = Locale.parse(text, sep="-").language
    except (ValueError, UnknownLocaleError):
        return None
    return language if language in LANGUAGES else None


def device_language(environ: Mapping[str, str] | None = None) -> str:
    """The device's language as gettext reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), when the
    app speaks it; English otherwise.

    >>> device_language({"LANG": "sv_SE.UTF-8"}), device_language({"LANGUAGE": "fr:de", "LANG": "C"})
    ('sv', 'de')
    >>> device_language({})
    'en'
    """
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(key, "").split(":"):
            found = normalize(part)
            if found is not None:
                return found
    return "en"


def resolve(setting: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak for a setting: ``system`` (or nothing) is the device's; an unknown code is English.

    >>> resolve("de"), resolve("system", {"LANG": "sv_SE"}), resolve("xx")
    ('de', 'sv', 'en')
    """
    if not setting or setting == SYSTEM:
        return device_language(environ)
    return normalize(setting) or "en"


def _folder(code: str) -> str:
    return code.replace("-", "_")


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (:class:`babel.support.Translations`, a :class:`gettext`
    translations object, imported with the first language that has one); for English, or a language without one,
    :class:`gettext.NullTranslations`.

    >>> translations("de").gettext("The players' cards are discarded.")
    'Die Karten der Spieler werden abgeworfen.'
    >>> translations("en").gettext("Joker")
    'Joker'
    """
    if code == "en":
        return gettext.NullTranslations()
    from babel.support import Translations

    found = Translations.load(str(LOCALES), [_folder(code)], DOMAIN)
    return found if isinstance(found, gettext.GNUTranslations) else gettext.NullTranslations()


def language(code: str, *, english_ranks: bool = False) -> Language:
    """How scoring's notes are worded in ``code``: its catalogue, and its card letters unless ``english_ranks``.

    >>> language("sv").ranks["J"], language("sv", english_ranks=True).ranks
    ('Kn', {})
    """
    if code == "en":
        return ENGLISH
    catalogue = translations(code)
    return Language(gettext=catalogue.gettext, ranks={} if english_ranks else RANKS.get(code, {}))


class Words:
    """The words of one language, for the screens, the command line and the recaps: mark a string where it is
    written with ``_ = words.gettext`` and ``_("Confirm")`` (or ``N_("…")`` for a module-level constant, translated
    where it is shown with ``words.gettext(CONSTANT)``), so that ``make catalogues`` extracts it. Placeholders are
    ``str.format`` names, filled after translation: ``_("{name} deals").format(name=name)``.

    >>> Words.of("de").gettext("Joker"), Words.of("en").gettext("Joker")
    ('Joker', 'Joker')
    >>> Words.of("sv").ngettext("{n} game", "{n} games", 2).format(n=2)
    '2 spel'
    >>> Words.of("en-XA").locale, Words.of("sv").locale
    (Locale('en'), Locale('sv'))
    """

    __slots__ = ("_catalogue", "_language", "code", "english_ranks")

    def __init__(self, code: str, *, english_ranks: bool = False) -> None:
        self.code = code
        """The language: ``en``, ``sv``, ``de`` or the pseudo-language ``en-XA``."""
        self.english_ranks = english_ranks
        self._catalogue = translations(code)
        self._language = language(code, english_ranks=english_ranks)

    @classmethod
    @functools.cache
    def of(cls, code: str, *, english_ranks: bool = False) -> Words:
        """The words of ``code`` (made once per language and letters setting)."""
        return cls(code, english_ranks=english_ranks)

    @property
    def locale(self) -> Locale:
        """Babel's locale for numbers, dates and money (English for the pseudo-language)."""
        return Locale.parse("en" if self.code == PSEUDO else self.code)

    def gettext(self, message: str) -> str:
        """``message`` in this language (the English when it has no translation)."""
        return self._catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form of a message for ``n``, in this language."""
        return self._catalogue.ngettext(singular, plural, n)

    def note(self, note: Note) -> str:
        """A note of scoring (:class:`scoring.why.Note`) in this language, with its card letters."""
        return render(note, self._language)

    def __repr__(self) -> str:
        return f"Words({self.code!r}, english_ranks={self.english_ranks})"


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined (a module-level constant) and leave it as it is; it is
    translated where it is shown, with :meth:`Words.gettext`.

    >>> N_("Confirm")
    'Confirm'
    """
    return message


def render_in(note: Note, code: str, *, english_ranks: bool = False) -> str:
    """One note in a language (English for ``en`` is exactly the contract's ``notes``)."""
    return render(note, language(code, english_ranks=english_ranks))


def notes_in(notes: Iterable[Note], code: str, *, english_ranks: bool = False) -> list[str]:
    """Notes in a language, in order."""
    lang = language(code, english_ranks=english_ranks)
    return [render(note, lang) for note in notes]


def result_in(result: Any, code: str, *, english_ranks: bool = False) -> dict[str, Any]:
    """What a scored result says, in a language: each hand's notes (``hands`` and, where a game has them, the
    play-off, tie-break and sudden-death parts), the game-end notes and the verdict. The numbers are the result's
    own: only the words change.

    >>> import scoring
    >>> hand = {"up": "5S", "cards": {"Ann": "7H", "Ben": "KD"}}
    >>> said = result_in(scoring.score({"game": "jokers-kill", "players": ["Ann", "Ben"], "hands": [hand]}), "de")
    >>> said["hands"][0][0]
    'Aufgedeckte Karte 5♠; Ann 7♥, Ben K♦.'
    """
    lang = language(code, english_ranks=english_ranks)

    def words(notes: Iterable[Note]) -> list[str]:
        return [render(note, lang) for note in notes]

    out: dict[str, Any] = {"hands": [words(hand.why) for hand in result.hands]}
    for key in ("playoff", "sudden_death_hands"):
        part = getattr(result, key, None)
        if part:
            out[key] = [words(hand.why) for hand in part]
    if getattr(result, "tiebreak_why", None):
        out["tiebreak"] = [words(notes) for notes in result.tiebreak_why]
    if getattr(result, "why", None):
        out["notes"] = words(result.why)
    verdict = result.verdict
    if verdict is not None and verdict.headline_why is not None:
        out["headline"] = render(verdict.headline_why, lang)
        out["reasons"] = {name: render(note, lang) for name, note in verdict.reasons_why.items()}
    return out


__all__ = [
    "LANGUAGES",
    "LOCALES",
    "N_",
    "PSEUDO",
    "SYSTEM",
    "Words",
    "device_language",
    "known",
    "language",
    "normalize",
    "notes_in",
    "render_in",
    "resolve",
    "result_in",
    "translations",
]
