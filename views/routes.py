"""The route table: every screen of the app. A new screen is one module plus one line here.

>>> from views.routing import find_route
>>> find_route(ROUTES, "/rules/jokers-kill")[1]
{'game': 'jokers-kill'}
>>> sorted({route.pattern for route in ROUTES}) == sorted(route.pattern for route in ROUTES)
True
"""

from __future__ import annotations

from views import home
from views.routing import Route, lazy

# Home is imported at start; every other screen when it is first opened (:func:`views.routing.lazy`).

ROUTES: tuple[Route, ...] = (
    Route("/", home.build, "Home"),
    Route("/new", lazy("views.new_game", "build_pick"), "New game"),
    Route("/new/:game", lazy("views.new_game", "build_setup"), "New game"),
    Route("/continue", lazy("views.continue_", "build"), "Continue"),
    Route("/continue/:id", lazy("views.table.screen", "build_table"), "Game"),
    Route(
        "/continue/:id/share", lazy("views.share", "build_share"), "Share the table"
    ),  # before :entry, which would take it
    Route("/continue/:id/:entry", lazy("views.table.screen", "build_correction"), "Correct a hand"),
    Route("/history", lazy("views.history", "build_list"), "History"),
    Route("/history/transfer", lazy("views.transfer", "build"), "Export and backup"),
    Route("/history/nights", lazy("views.nights.listing", "build_list"), "Game nights"),  # before :id, which takes it
    Route("/history/:id", lazy("views.history", "build_session"), "Session"),
    Route("/history/:id/:entry", lazy("views.history", "build_correction"), "Correct a hand"),
    Route("/players", lazy("views.players", "build_list"), "Players"),
    Route("/players/:id", lazy("views.players", "build_player"), "Player"),
    Route("/stats", lazy("views.stats", "build"), "Statistics"),
    Route("/stats/nights", lazy("views.nights.stats", "build_stats"), "Game nights"),
    Route("/nights", lazy("views.nights.listing", "build_list"), "Game nights"),
    Route("/nights/new", lazy("views.nights.start", "build_start"), "Start a game night"),  # before :id
    Route("/nights/:id", lazy("views.nights.night", "build_night"), "Game night"),
    Route("/nights/:id/recap", lazy("views.nights.recap", "build_recap"), "Recap"),
    Route("/rules", lazy("views.rules", "build_index"), "Rules"),
    Route("/rules/:game", lazy("views.rules", "build_game"), "Rules"),
    Route("/settings", lazy("views.settings", "build"), "Settings"),
    Route("/live", lazy("views.live", "build_live"), "Live scoreboard"),
    Route("/live/:id", lazy("views.live", "build_live"), "Live scoreboard"),
    Route("/share", lazy("views.share", "build_share"), "Share the table"),
)
