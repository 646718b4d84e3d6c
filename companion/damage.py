"""What the app set aside in ``damaged/``, told to the user once: the banner on Home (no Flet in here).

The archive and the settings store add a :class:`storage.DamageNotice` for every file they set aside (on open, or
later: a drafts file when its game opens, ``settings.json`` when it is read). :class:`DamageReport` takes them from
the archive once and keeps them until the user dismisses the banner, so every browser tab shows the same banner,
until it is dismissed in one of them (the others drop it when they next draw Home).

>>> from storage.damage import DamageNotice, DamageNotices
>>> source = DamageNotices()
>>> report = DamageReport(source)
>>> report.message()
''
>>> source.add(DamageNotice(None, "players.json", "it is damaged or cut short"))
>>> report.message() == report.message()  # every tab reads the same banner
True
>>> len(report.notices()), len(source)
(1, 0)
>>> report.dismiss(); report.message(), report.notices()
('', [])
>>> source.add(DamageNotice(None, "settings.json", "it is not text"))
>>> report.message()
'1 damaged file could not be read and was left in place: settings.json (it is not text)'
"""

from __future__ import annotations

import threading

from companion.i18n import Words
from storage import DamageNotice, describe_damage
from storage.damage import DamageNotices
from storage.layout import DAMAGED


def damage_line(notices: list[DamageNotice], words: Words | None = None) -> str:
    """The banner's line about ``notices`` in the table's language (storage's English when ``words`` is ``None``
    or English; why each file could not be read stays as storage says it).

    >>> damage_line([DamageNotice(None, "players.json", "it is not text")], Words.of("de"))
    '1 beschädigte Datei konnte nicht gelesen werden und blieb, wo sie war: players.json (it is not text)'
    """
    if words is None or words.code == "en":
        return describe_damage(notices)
    moved = [n for n in notices if n.set_aside]
    kept = [n for n in notices if not n.set_aside]
    parts = []
    if moved:
        said = words.ngettext(
            "{n} damaged file was set aside in {folder}/: {files}",
            "{n} damaged files were set aside in {folder}/: {files}",
            len(moved),
        )
        parts.append(said.format(n=len(moved), folder=DAMAGED, files=", ".join(f"{x.name} ({x.why})" for x in moved)))
    if kept:
        said = words.ngettext(
            "{n} damaged file could not be read and was left in place: {files}",
            "{n} damaged files could not be read and were left in place: {files}",
            len(kept),
        )
        parts.append(said.format(n=len(kept), files=", ".join(f"{x.name} ({x.why})" for x in kept)))
    return "; ".join(parts)


class DamageReport:
    """The files set aside that the user has not dismissed yet (thread-safe; one per app)."""

    def __init__(self, source: DamageNotices) -> None:
        self._source = source
        self._lock = threading.Lock()
        self._held: list[DamageNotice] = []

    def notices(self) -> list[DamageNotice]:
        """Every notice not dismissed yet, oldest first (new ones are taken from the archive, once)."""
        with self._lock:
            self._held.extend(self._source.take())
            return list(self._held)

    def message(self, words: Words | None = None) -> str:
        """The banner's line ("2 damaged files were set aside in damaged/: …"), ``""`` when there is nothing; in
        the table's language when ``words`` are given."""
        return damage_line(self.notices(), words)

    def dismiss(self) -> None:
        """The user has read the banner: what it showed goes (from every tab's next drawing of Home). A file set
        aside after it was drawn is still to be told."""
        with self._lock:
            self._held.clear()


__all__ = ["DamageReport", "damage_line"]
