"""A Babel extraction method for the notes scoring writes: every ``Note.of(TEXT, ...)`` call's English text, both
texts of every ``one_or_more(NAMES, ONE, MORE, ...)`` (``scoring.why``: a note about one player or several), and
each verdict's reason.

``TEXT`` is a string literal, or a conditional choosing between literals (``"... was ..." if one else "... were
..."``); each literal is one message. Babel's own Python extractor would join the two literals of a conditional
into one message, so ``babel.cfg`` names this one for ``scoring/``. Used by ``make catalogues``::

    python -m babel.messages.frontend extract -F babel.cfg -o companion/locales/messages.pot .

>>> import io
>>> source = b'Note.of("{a} wins" if one else "{a} win", a=x)\\nNote.of("Joker")\\nNames.of(["x"])\\n'
>>> [(line, message) for line, _, message, _ in extract(io.BytesIO(source), [], [], {})]
[(1, '{a} wins'), (1, '{a} win'), (2, 'Joker')]
>>> source = b'one_or_more(top, "{name} wins", "{names} share")\\n'
>>> [message for _, _, message, _ in extract(io.BytesIO(source), [], [], {})]
['{name} wins', '{names} share']

and the reason of every ``sole_win``/``joint_win`` verdict (``scoring.base``), its fifth argument:

>>> source = b'sole_win(D, ["X"], w, Note.of("W wins."), "{name} wins (rule 7).", name=w)\\n'
>>> [message for _, _, message, _ in extract(io.BytesIO(source), [], [], {})]
['{name} wins (rule 7).', 'W wins.']
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

EXTRA = ("Joker", "{first} and {last}")
"""Messages the renderer itself asks for (``scoring.why``): the Joker's name and how names are joined."""


def _literals(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value:
            yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _is_note_of(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "of"
        and isinstance(func.value, ast.Name)
        and func.value.id == "Note"
    )


def extract(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction-method signature: ``(line, funcname, message, comments)`` for every note text."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _is_note_of(node):
            texts = node.args[:1]
        elif isinstance(node.func, ast.Name) and node.func.id == "one_or_more":
            texts = node.args[1:3]
        elif isinstance(node.func, ast.Name) and node.func.id in ("sole_win", "joint_win"):
            texts = node.args[4:5]  # the reason (the headline, a Note.of, is found as one)
        else:
            continue
        for arg in texts:
            for text in _literals(arg):
                yield node.lineno, None, text, []
    if options.get("extra") == "true":
        for text in EXTRA:
            yield 1, None, text, ["Used by scoring/why.py when it renders any note."]
