"""Rules: a list of the five games, and one page per game with its rules and house-rule options.

Each screen is an ``@ft.component`` (:func:`rules_index`, :func:`rules_page`); they have no state of their own (the
guides are fixed texts), so they render once.
"""

from __future__ import annotations

import flet as ft

from companion.games import all_guides, get_guide
from companion.guides import GameGuide
from views.context import ViewContext
from views.flet_private import component_node
from views.widgets import heading, nav_tile, paragraph, screen


def build_index(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The list of games."""
    return screen(ctx, "Rules", [component_node(rules_index, ctx)])


@ft.component
def rules_index(ctx: ViewContext) -> ft.Control:
    """A tile per game, opening its rules."""
    return ft.Column(
        [
            nav_tile(ctx, guide.name, f"{guide.players}. {guide.summary}", guide.route, icon=ft.Icons.STYLE)
            for guide in all_guides()
        ],
        spacing=12,
    )


def _bullet(text: str) -> ft.Control:
    return ft.Row(
        [ft.Text("•", size=16), ft.Container(paragraph(text), expand=True)],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _option_card(guide: GameGuide) -> list[ft.Control]:
    if not guide.options:
        return [paragraph("This game has no house-rule options.")]
    rows: list[ft.Control] = []
    for option in guide.options:
        rows.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(option.label, size=16, weight=ft.FontWeight.BOLD),
                        ft.Text(f"Default: {option.default}. Or: {option.alternatives}.", size=15),
                    ],
                    spacing=2,
                ),
                padding=ft.Padding.symmetric(vertical=6),
            )
        )
    return rows


def build_game(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """One game's rules (raises :class:`~companion.games.UnknownGameError` for a game the app does not know)."""
    guide = get_guide(params["game"])  # raised here, before anything is drawn: the shell shows "Not found"
    return screen(ctx, guide.name, [component_node(rules_page, guide)])


@ft.component
def rules_page(guide: GameGuide) -> ft.Control:
    """The game's players, summary, rules by section and house-rule options."""
    controls: list[ft.Control] = [
        ft.Text(guide.players, size=16, italic=True),
        paragraph(guide.summary),
    ]
    for section in guide.sections:
        controls.append(heading(section.heading))
        controls.extend(_bullet(text) for text in section.paragraphs)
    controls.append(heading("House rules"))
    controls.append(paragraph("Agree these before the game; the app scores with the defaults unless you change them."))
    controls.extend(_option_card(guide))
    return ft.Column(controls, spacing=12)
