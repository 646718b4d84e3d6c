"""A gettext mark is never inside an f-string.

Babel's extractor reads a mark inside an f-string only on Python 3.12 and later (PEP 701 tokenizes an f-string in
parts there), so such a mark would make the template differ by the Python that extracts it: on 3.11 the message
would be missing from the catalogues and shown in English in every language.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKS = {"_", "N_", "gettext", "ngettext"}
EXTRACTED = ("views", "companion", "app", "scoring")


def marks_in_fstrings(source: str, name: str) -> list[str]:
    """Each mark of a literal message found inside an f-string of ``source``, as ``name:line`` (a mark of a variable,
    ``_(label)``, extracts nothing on any Python: its message is marked where it is written, with ``N_``).

    >>> marks_in_fstrings('x = f"{_(\\'a\\')}"', "m.py")
    ['m.py:1']
    >>> marks_in_fstrings('a = _("a")\\nx = f"{a}"', "m.py")
    []
    >>> marks_in_fstrings('x = f"{_(label)}"', "m.py")
    []
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call):
                func = inner.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                literal = bool(inner.args) and isinstance(inner.args[0], ast.Constant)
                if called in MARKS and literal:
                    found.append(f"{name}:{inner.lineno}")
    return found


def test_no_mark_sits_inside_an_f_string() -> None:
    found = []
    for folder in EXTRACTED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += marks_in_fstrings(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == [], f"move these marks out of their f-strings: {found}"
