"""Rules: a list of the five games, and one page per game with its rules and house-rule options.

Each screen is built once from fixed texts (:func:`rules_index`, :func:`rules_page`): plain controls, not an
``@ft.component``, since nothing on them changes once shown. As a component, the tap that opened Rules took a median
of 287 ms against 222 ms now, side by side (``python -m bench.screens_bench --against``, 16 taps each, load
16-21). The guides are written in English and marked for translation where they are declared; they are shown in
the table's language (a text without a translation stays English).
"""

from __future__ import annotations

import flet as ft

from companion.games import all_guides, get_guide
from companion.guides import GameGuide
from companion.i18n import Words
from views.context import ViewContext
from views.widgets import heading, nav_tile, paragraph, screen


def build_index(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The list of games."""
    return screen(ctx, ctx.words.gettext("Rules"), [rules_index(ctx)])


def rules_index(ctx: ViewContext) -> ft.Control:
    """A tile per game, opening its rules."""
    _ = ctx.words.gettext
    return ft.Column(
        [
            nav_tile(ctx, guide.name, f"{_(guide.players)}. {_(guide.summary)}", guide.route, icon=ft.Icons.STYLE)
            for guide in all_guides()
        ],
        spacing=12,
    )


def _bullet(text: str) -> ft.Control:
    return ft.Row(
        [ft.Text("•", size=16), ft.Container(paragraph(text), expand=True)],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _option_card(guide: GameGuide, words: Words) -> list[ft.Control]:
    _ = words.gettext
    if not guide.options:
        return [paragraph(_("This game has no house-rule options."))]
    rows: list[ft.Control] = []
    for option in guide.options:
        rows.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(_(option.label), size=16, weight=ft.FontWeight.BOLD),
                        ft.Text(
                            _("Default: {default}. Or: {alternatives}.").format(
                                default=_(option.default), alternatives=_(option.alternatives)
                            ),
                            size=15,
                        ),
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
    return screen(ctx, guide.name, [rules_page(guide, ctx.words)])


def rules_page(guide: GameGuide, words: Words) -> ft.Control:
    """The game's players, summary, rules by section and house-rule options."""
    _ = words.gettext
    controls: list[ft.Control] = [
        ft.Text(_(guide.players), size=16, italic=True),
        paragraph(_(guide.summary)),
    ]
    for section in guide.sections:
        controls.append(heading(_(section.heading)))
        controls.extend(_bullet(_(text)) for text in section.paragraphs)
    controls.append(heading(_("House rules")))
    controls.append(
        paragraph(_("Agree these before the game; the app scores with the defaults unless you change them."))
    )
    controls.extend(_option_card(guide, words))
    return ft.Column(controls, spacing=12)
