"""The pseudo-language ``en-XA`` made from the message template: every message is its English text with accented
letters, about 30% longer, wrapped in ⟦ ⟧; placeholders (``{name}``, ``{value:+d}``) stay as they are. A string
shown without the brackets was never marked for translation; a layout that breaks in it breaks in a long language.

``make catalogues`` runs it after ``pybabel update``: ``python -m tools.pseudo companion/locales``.

>>> pseudo("{name} wins (rule 7)")
'⟦{name} ŵíñš (ŕúļé 7)······⟧'
>>> pseudo("{by} played as {value:+d}")
'⟦{by} ƥļáýéð áš {value:+d}········⟧'
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

CODE = "en_XA"
"""The catalogue's folder (``en-XA`` as the app names the language)."""
_ACCENTS = str.maketrans(
    "abcdeghiklnoprstuwyzABCDEGHIKLNOPRSTUWYZ",
    "áƀçðéĝĥíķļñóƥŕšţúŵýžÁƁÇÐÉĜĤÍĶĻÑÓƤŔŠŢÚŴÝŽ",
)
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language (placeholders kept, about 30% longer, in ⟦ ⟧)."""
    parts = _PLACEHOLDER.split(text)
    shown = "".join(part if _PLACEHOLDER.fullmatch(part) else part.translate(_ACCENTS) for part in parts)
    return f"⟦{shown}{'·' * math.ceil(len(text) * 0.3)}⟧"


def build(locales: Path) -> Path:
    """Write ``<locales>/en_XA/LC_MESSAGES/messages.po`` from ``<locales>/messages.pot``; returns its path."""
    with (locales / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    catalog = Catalog(
        locale="en",
        project=template.project,
        version=template.version,
        copyright_holder=template.copyright_holder,
        charset="utf-8",
        fuzzy=False,
    )
    catalog.language_team = "pseudo-language en-XA (tools/pseudo.py)"
    for message in template:
        if message.id:
            if isinstance(message.id, (list, tuple)):  # a plural: each form in the pseudo-language
                forms = tuple(pseudo(str(form)) for form in message.id)
                catalog.add(message.id, forms, auto_comments=message.auto_comments)
            else:
                catalog.add(message.id, pseudo(str(message.id)), auto_comments=message.auto_comments)
    target = locales / CODE / "LC_MESSAGES" / "messages.po"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        write_po(handle, catalog, width=120, omit_header=False)
    return target


if __name__ == "__main__":
    print(f"wrote {build(Path(sys.argv[1] if len(sys.argv) > 1 else 'companion/locales'))}")
