"""``/nights`` (also ``/history/nights``): every night, with its games, date and players.

The list is an ``@ft.component`` (:func:`nights_list`) with no state of its own: it renders once, from the night
service as it is when the screen is opened."""

from __future__ import annotations

import flet as ft

from companion.i18n import N_
from companion.night_recap import day_of
from companion.night_service import NightService
from views.context import ViewContext
from views.flet_private import component_node
from views.nights.common import game_name
from views.widgets import TAP, big_button, empty_state, panel, screen

STATUS = {"open": N_("open"), "closed": N_("closed")}
"""A night's status as the list says it."""
GAME_STATUS = {
    "in-progress": N_("in-progress"),
    "pending": N_("pending"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
"""A game's status as the list says it (one nobody won yet)."""


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights`` and ``/history/nights``: every night, newest first, with its date, players and games."""
    return screen(ctx, ctx.words.gettext("Game nights"), [component_node(nights_list, ctx)])


@ft.component
def nights_list(ctx: ViewContext) -> ft.Control:
    """The button to start a night (when none is open), what could not be read, and a panel per night."""
    nights: NightService = ctx.services.nights
    current = nights.current()
    words = ctx.words
    _ = words.gettext
    out: list[ft.Control] = []
    if current is None:
        out.append(
            ft.Row(
                [
                    big_button(
                        _("Start a game night"),
                        lambda _: ctx.navigate("/nights/new"),
                        icon=ft.Icons.NIGHTLIFE,
                        primary=True,
                    )
                ]
            )
        )
    for problem in nights.problems[:3]:
        out.append(ft.Text(problem, size=14, color=ft.Colors.ERROR))
    every = nights.all()
    if not every:
        out.append(
            empty_state(_("No game nights yet"), _("Start one from Home; its games, money and recap gather here."))
        )
    for night in every:
        lines: list[ft.Control] = [
            ft.TextButton(
                content=ft.Text(night.name, size=18, weight=ft.FontWeight.BOLD),
                tooltip=_("Open the night {name}").format(name=night.name),
                on_click=lambda _, nid=night.id: ctx.navigate(f"/nights/{nid}"),
                height=TAP,
            ),
            ft.Text(
                f"{day_of(night.started, words)} · {_(STATUS[night.status.value])} · {', '.join(night.players)}",
                size=15,
            ),
        ]
        for game in nights.games(night):
            s = game.summary
            if s is None:
                said = _("{n}. (no longer in the archive)").format(n=game.number)
            else:
                said = (
                    words.ngettext("{n}. {game}: {names} won", "{n}. {game}: {names} won", len(s.winners)).format(
                        n=game.number, game=game_name(s.game, words), names=", ".join(s.winners)
                    )
                    if s.winners
                    else f"{game.number}. {game_name(s.game, words)}: {_(GAME_STATUS[s.status.value])}"
                )
            lines.append(
                ft.Text(said, size=15, semantics_label=_("{night}, game {line}").format(night=night.name, line=said))
            )
        if not night.sessions:
            lines.append(ft.Text(_("No games yet."), size=15))
        out.append(panel(ft.Column(lines, spacing=2)))
    return ft.Column(out, spacing=12)
