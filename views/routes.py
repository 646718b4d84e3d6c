"""The route table: every screen of the app. A new screen is one module plus one line here.

>>> from views.routing import find_route
>>> find_route(ROUTES, "/rules/jokers-kill")[1]
{'game': 'jokers-kill'}
>>> sorted({route.pattern for route in ROUTES}) == sorted(route.pattern for route in ROUTES)
True
"""

from __future__ import annotations

from companion.i18n import N_
from views import home
from views.routing import Route, lazy

# Home is imported at start; every other screen when it is first opened (:func:`views.routing.lazy`).

ROUTES: tuple[Route, ...] = (
    Route("/", home.build, N_("Home")),
    Route("/new", lazy("views.new_game", "build_pick"), N_("New game")),
    Route("/new/:game", lazy("views.new_game", "build_setup"), N_("New game")),
    Route("/continue", lazy("views.continue_", "build"), N_("Continue")),
    Route("/continue/:id", lazy("views.table.screen", "build_table"), N_("Game")),
    Route(
        "/continue/:id/share", lazy("views.share", "build_share"), N_("Share the table")
    ),  # before :entry, which would take it
    Route("/continue/:id/:entry", lazy("views.table.screen", "build_correction"), N_("Correct a hand")),
    Route("/history", lazy("views.history", "build_list"), N_("History")),
    Route("/history/transfer", lazy("views.transfer", "build"), N_("Export and backup")),
    Route(
        "/history/nights", lazy("views.nights.listing", "build_list"), N_("Game nights")
    ),  # before :id, which takes it
    Route("/history/:id", lazy("views.history", "build_session"), N_("Session")),
    Route("/history/:id/:entry", lazy("views.history", "build_correction"), N_("Correct a hand")),
    Route("/players", lazy("views.players", "build_list"), N_("Players")),
    Route("/players/:id", lazy("views.players", "build_player"), N_("Player")),
    Route("/stats", lazy("views.stats", "build"), N_("Statistics")),
    Route("/stats/nights", lazy("views.nights.stats", "build_stats"), N_("Game nights")),
    Route("/nights", lazy("views.nights.listing", "build_list"), N_("Game nights")),
    Route("/nights/new", lazy("views.nights.start", "build_start"), N_("Start a game night")),  # before :id
    Route("/nights/:id", lazy("views.nights.night", "build_night"), N_("Game night")),
    Route("/nights/:id/recap", lazy("views.nights.recap", "build_recap"), N_("Recap")),
    Route("/rules", lazy("views.rules", "build_index"), N_("Rules")),
    Route("/rules/:game", lazy("views.rules", "build_game"), N_("Rules")),
    Route("/settings", lazy("views.settings", "build"), N_("Settings")),
    Route("/live", lazy("views.live", "build_live"), N_("Live scoreboard")),
    Route("/live/:id", lazy("views.live", "build_live"), N_("Live scoreboard")),
    Route("/share", lazy("views.share", "build_share"), N_("Share the table")),
)
