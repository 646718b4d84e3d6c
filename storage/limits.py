"""Bounds on what storage accepts from outside (imports, restores), and the text checks behind them.

Every refusal names the field and the limit:

>>> check_text("Ann\\x1b[31m", field="player name", limit=MAX_NAME)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
storage.errors.InputLimitError: the player name 'Ann\\x1b[31m' holds a control character (\\x1b); control and ...
>>> check_text("x" * 101, field="session title", limit=MAX_TITLE)
Traceback (most recent call last):
...
storage.errors.InputLimitError: the session title is 101 characters long; at most 100 are allowed
>>> check_text("Zoë", field="player name", limit=MAX_NAME)
'Zoë'
"""

from __future__ import annotations

import unicodedata

from scoring.base import MAX_NAME as MAX_NAME  # the one player's name limit, checked here on imports too
from storage.errors import InputLimitError

MAX_IMPORT_BYTES = 10 * 1024 * 1024
"""An import file (or one file inside a backup) larger than this (10 MB) is refused."""
MAX_TITLE = 100
"""The longest session title, in characters."""
MAX_LOG_ENTRIES = 10_000
"""The longest edit log one imported (or restored) session may bring."""
MAX_PLAYERS = 64
"""The most players a session may name."""
MAX_DIGITS = 15
"""The longest integer (in digits) an import may hold; anything longer is refused before scoring sees it."""
MAX_BACKUP_BYTES = 50 * 1024 * 1024
"""A backup zip larger than this (50 MB) is refused."""
MAX_BACKUP_ENTRIES = 20_000
"""The most files a backup may hold."""
MAX_BACKUP_UNCOMPRESSED = 50 * 1024 * 1024
"""The most a backup may inflate to, in total (50 MB), by its declared sizes and while reading."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that change the direction of the text around them (they can make a name or title read otherwise)."""


def is_unsafe_char(char: str) -> bool:
    """A control character (Unicode category Cc: NUL, ESC, BEL, CR, C1 controls) or a bidi control.

    >>> [is_unsafe_char(c) for c in ("a", "\\x00", "\\u202e", "\\x9b", "é")]
    [False, True, True, True, False]
    """
    return char in BIDI_CONTROLS or unicodedata.category(char) == "Cc"


def escape_char(char: str) -> str:
    """``\\xNN`` for a character below 256, else ``\\uNNNN``.

    >>> escape_char("\\x1b"), escape_char("\\u202e")
    ('\\\\x1b', '\\\\u202e')
    """
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def check_text(value: object, *, field: str, limit: int) -> str:
    """``value`` if it is text of at most ``limit`` characters with no control or bidi-override character;
    else :class:`~storage.errors.InputLimitError` naming ``field`` and the limit."""
    if not isinstance(value, str):
        raise InputLimitError(f"the {field} must be text")
    if len(value) > limit:
        raise InputLimitError(f"the {field} is {len(value)} characters long; at most {limit} are allowed")
    for char in value:
        if is_unsafe_char(char):
            raise InputLimitError(
                f"the {field} {value!r} holds a control character ({escape_char(char)}); "
                "control and bidi-override characters are not allowed"
            )
    return value
