"""Playing a game at the table: the live scoreboard screen, hand entry and corrections.

* :mod:`views.table.entry`: the per-game hook registry (:class:`~views.table.entry.TableUI`) that the screen asks
  for a game's hand-entry panel and scoreboard extras. A game's panel is one module in :mod:`views.table.games`.
* :mod:`views.table.scoreboard`: standings, the hand list with each hand's "why", the end and play-off banners.
* :mod:`views.table.screen`: the routes ``/continue/<id>`` (the table) and ``/continue/<id>/hand-<n>`` (correct a
  hand; ``playoff-<n>`` for a play-off hand).
"""
