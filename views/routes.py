"""The route table: every screen of the app. A new screen is one module plus one line here.

>>> from views.routing import find_route
>>> find_route(ROUTES, "/rules/jokers-kill")[1]
{'game': 'jokers-kill'}
>>> sorted({route.pattern for route in ROUTES}) == sorted(route.pattern for route in ROUTES)
True
"""

from __future__ import annotations

from views import continue_, history, home, live, new_game, players, rules, settings, share, stats, transfer
from views.routing import Route
from views.table import screen as table

ROUTES: tuple[Route, ...] = (
    Route("/", home.build, "Home"),
    Route("/new", new_game.build_pick, "New game"),
    Route("/new/:game", new_game.build_setup, "New game"),
    Route("/continue", continue_.build, "Continue"),
    Route("/continue/:id", table.build_table, "Game"),
    Route("/continue/:id/share", share.build_share, "Share the table"),  # before :entry, which would take it
    Route("/continue/:id/:entry", table.build_correction, "Correct a hand"),
    Route("/history", history.build_list, "History"),
    Route("/history/transfer", transfer.build, "Export and backup"),
    Route("/history/:id", history.build_session, "Session"),
    Route("/history/:id/:entry", history.build_correction, "Correct a hand"),
    Route("/players", players.build_list, "Players"),
    Route("/players/:id", players.build_player, "Player"),
    Route("/stats", stats.build, "Statistics"),
    Route("/rules", rules.build_index, "Rules"),
    Route("/rules/:game", rules.build_game, "Rules"),
    Route("/settings", settings.build, "Settings"),
    Route("/live", live.build_live, "Live scoreboard"),
    Route("/live/:id", live.build_live, "Live scoreboard"),
    Route("/share", share.build_share, "Share the table"),
)
