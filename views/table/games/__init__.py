"""One module per game with its hand-entry panel: each ends with ``PANEL``, a :class:`views.table.entry.TableUI`,
listed once in :data:`PANELS`.

Adding a game's entry screen is one module here and one line in :data:`PANELS`; the table screen, the live view
and the New-game screen find it with :func:`find_panel`.

>>> [panel.key for panel in PANELS]
['bargain-bin', 'financial-crisis', 'feast-and-famine', '1111-9999', 'jokers-kill']
"""

from __future__ import annotations

from views.table.entry import TableUI
from views.table.games.bargain_bin import PANEL as BARGAIN_BIN
from views.table.games.feast_and_famine import PANEL as FEAST_AND_FAMINE
from views.table.games.financial_crisis import PANEL as FINANCIAL_CRISIS
from views.table.games.jokers_kill import PANEL as JOKERS_KILL
from views.table.games.ones_to_nines import PANEL as ONES_TO_NINES

PANELS: tuple[TableUI, ...] = (
    BARGAIN_BIN,
    FINANCIAL_CRISIS,
    FEAST_AND_FAMINE,
    ONES_TO_NINES,
    JOKERS_KILL,
)
"""Every game's panel, in the order the app lists the games."""


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
