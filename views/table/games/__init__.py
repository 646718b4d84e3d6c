"""One module per game with its hand-entry panel: each defines ``UI``, a :class:`views.table.entry.TableUI`.

Adding a game's entry screen is adding one module here; :func:`views.table.entry.table_ui` finds it by its key.
"""
