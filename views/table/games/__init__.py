"""One module per game with its hand-entry panel: each ends with ``PANEL``, a :class:`views.table.entry.TableUI`,
listed once in :data:`PANELS`.

Adding a game's entry screen is one module here and one line (its name) in :data:`PANELS`; the table screen, the
live view and the New-game screen find it with :func:`find_panel`.

>>> [panel.key for panel in PANELS]
['bargain-bin', 'financial-crisis', 'feast-and-famine', '1111-9999', 'jokers-kill']
"""

from __future__ import annotations

from scoring.listed import Listed
from views.table.entry import TableUI

PANELS: Listed[TableUI] = Listed(
    "PANEL",
    "views.table.games.bargain_bin",
    "views.table.games.financial_crisis",
    "views.table.games.feast_and_famine",
    "views.table.games.ones_to_nines",
    "views.table.games.jokers_kill",
)
"""Every game's panel, in the order the app lists the games (the modules are imported on first use)."""


def find_panel(key: str) -> TableUI | None:
    """The panel of game ``key``, or ``None`` for a game without one (its table shows the scoreboard and a note
    that entry is not available yet).

    >>> find_panel("jokers-kill").parts
    (<Part.PLAYOFF: 'playoff'>,)
    >>> find_panel("no-such-game") is None
    True
    """
    return next((panel for panel in PANELS if panel.key == key), None)


__all__ = ["PANELS", "find_panel"]
