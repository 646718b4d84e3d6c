"""``/nights`` (also ``/history/nights``): every night, with its games, date and players."""

from __future__ import annotations

import flet as ft

from companion.night_recap import day_of
from companion.night_service import NightService
from views.context import ViewContext
from views.nights.common import game_name
from views.widgets import TAP, big_button, empty_state, panel, screen


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights`` and ``/history/nights``: every night, newest first, with its date, players and games."""
    nights: NightService = ctx.services.nights
    current = nights.current()
    out: list[ft.Control] = []
    if current is None:
        out.append(
            ft.Row(
                [
                    big_button(
                        "Start a game night",
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
        out.append(empty_state("No game nights yet", "Start one from Home; its games, money and recap gather here."))
    for night in every:
        lines: list[ft.Control] = [
            ft.TextButton(
                content=ft.Text(night.name, size=18, weight=ft.FontWeight.BOLD),
                tooltip=f"Open the night {night.name}",
                on_click=lambda _, nid=night.id: ctx.navigate(f"/nights/{nid}"),
                height=TAP,
            ),
            ft.Text(f"{day_of(night.started)} · {night.status.value} · {', '.join(night.players)}", size=15),
        ]
        for game in nights.games(night):
            s = game.summary
            if s is None:
                words = f"{game.number}. (no longer in the archive)"
            else:
                won = f": {', '.join(s.winners)} won" if s.winners else f": {s.status.value}"
                words = f"{game.number}. {game_name(s.game)}{won}"
            lines.append(ft.Text(words, size=15, semantics_label=f"{night.name}, game {words}"))
        if not night.sessions:
            lines.append(ft.Text("No games yet.", size=15))
        out.append(panel(ft.Column(lines, spacing=2)))
    return screen(ctx, "Game nights", out)
