"""Game nights: start one with the table's players, the night's screen (its games, the ledger, who pays whom
tonight), the recap (shared as text or as an image), the nights listed with their games, and statistics across
nights. Thin: every figure comes from :class:`companion.night_service.NightService` (``ctx.services.nights``).

Routes: ``/nights`` (every night, with its games, date and players; also ``/history/nights``), ``/nights/new``,
``/nights/<id>``, ``/nights/<id>/recap``, ``/stats/nights``.

One module a screen: :mod:`views.nights.start`, :mod:`views.nights.night`, :mod:`views.nights.recap`,
:mod:`views.nights.listing` and :mod:`views.nights.stats`; what they share is in :mod:`views.nights.common`.
"""
