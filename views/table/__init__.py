"""Playing a game at the table: the live scoreboard screen, hand entry and corrections.

* :mod:`views.table.entry`: the per-game hooks (:class:`~views.table.entry.TableUI`): a game's hand-entry panel and
  scoreboard extras. A game's panel is one module in :mod:`views.table.games`, listed in its ``PANELS``.
* :mod:`views.table.scoreboard`: standings, the hand list with each hand's "why", the end and play-off banners.
* :mod:`views.table.screen`: the routes ``/continue/<id>`` (the table) and ``/continue/<id>/hand-<n>`` (correct a
  hand; ``playoff-<n>`` for a play-off hand).
"""
