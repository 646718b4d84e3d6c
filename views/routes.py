"""The route table: every screen of the app. A new screen is one module plus one line here.

>>> from views.routing import find_route
>>> find_route(ROUTES, "/rules/jokers-kill")[1]
{'game': 'jokers-kill'}
>>> sorted({route.pattern for route in ROUTES}) == sorted(route.pattern for route in ROUTES)
True
"""

from __future__ import annotations

from views import home, placeholders, rules, settings
from views.routing import Route

ROUTES: tuple[Route, ...] = (
    Route("/", home.build, "Home"),
    Route("/new", placeholders.build_new_game, "New game"),
    Route("/continue", placeholders.build_continue, "Continue"),
    Route("/history", placeholders.build_history, "History"),
    Route("/players", placeholders.build_players, "Players"),
    Route("/rules", rules.build_index, "Rules"),
    Route("/rules/:game", rules.build_game, "Rules"),
    Route("/settings", settings.build, "Settings"),
)
