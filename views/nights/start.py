"""``/nights/new``: start a game night with its name and the table's players."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.night_model import NightError
from companion.night_service import NightService, default_name
from scoring.base import MAX_NAME
from views.context import ViewContext
from views.nights.common import click, message_text, refresh, say
from views.widgets import TAP, big_button, empty_state, heading, icon_button, paragraph, screen

TITLE = "Start a game night"


class StartScreen:
    """The night's name and the table's players (those of the last game, to begin with), seated one by one."""

    def __init__(self, ctx: ViewContext) -> None:
        self.ctx = ctx
        self.nights: NightService = ctx.services.nights
        recent = ctx.services.archive.list_sessions()
        self.seated: list[str] = list(recent[0].players) if recent else []
        self.name = default_name()
        self.typed = ""
        self.seats = ft.Column(spacing=4)
        self.roster = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.message = message_text()
        self.name_field = ft.TextField(
            label="Night name", value=self.name, on_change=self.named, max_length=100, height=TAP + 24
        )
        self.seat_button = ft.OutlinedButton(
            content="Seat player",
            tooltip="Seat player",
            height=TAP,
            on_click=lambda _: self.add(self.typed),
            disabled=True,
        )
        self.player_field = ft.TextField(
            label="New player name",
            on_change=self.typing,
            on_submit=lambda _: self.add(self.typed),
            max_length=MAX_NAME,
            expand=True,
            height=TAP + 24,
        )
        self.start_button = ft.FilledButton(
            content="Start the night",
            icon=ft.Icons.NIGHTLIFE,
            tooltip="Start the night",
            height=TAP,
            expand=True,
            on_click=lambda _: self.start(),
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
        )

    def view(self) -> ft.View:
        self.redraw()
        return screen(
            self.ctx,
            TITLE,
            [
                paragraph(
                    "One evening, several games, one settle-up. Every game started while the night is open belongs "
                    "to it."
                ),
                self.name_field,
                heading("The table's players"),
                self.seats,
                ft.Row([self.player_field, self.seat_button]),
                self.roster,
                self.message,
                ft.Row([self.start_button]),
            ],
        )

    def named(self, event: Any) -> None:
        self.name = str(event.control.value or "")

    def typing(self, event: Any) -> None:
        self.typed = str(event.control.value or "")
        self.seat_button.disabled = not self.typed.strip()
        refresh(self.seat_button)

    def redraw(self) -> None:
        self.seats.controls = [
            ft.Row(
                [
                    ft.Text(f"{i + 1}. {name}", size=18, expand=True, semantics_label=f"Seat {i + 1}: {name}"),
                    icon_button(ft.Icons.CLOSE, f"Remove {name}", click(self.remove, name)),
                ]
            )
            for i, name in enumerate(self.seated)
        ] or [ft.Text("Nobody seated yet.", size=16)]
        keys = {n.casefold() for n in self.seated}
        self.roster.controls = [
            ft.OutlinedButton(content=p.name, tooltip=f"Seat {p.name}", height=TAP, on_click=click(self.add, p.name))
            for p in self.ctx.services.players.players()
            if p.name.casefold() not in keys
        ]
        self.start_button.disabled = len(self.seated) < 2
        for control in (self.seats, self.roster, self.start_button):
            refresh(control)

    def add(self, name: str) -> None:
        clean = " ".join(name.split())
        if not clean:
            say(self.message, "Type a name first.", error=True)
            return
        if clean.casefold() in {n.casefold() for n in self.seated}:
            say(self.message, f"{clean} is already seated.", error=True)
            return
        self.seated.append(clean)
        self.player_field.value = ""
        self.typed = ""
        self.seat_button.disabled = True
        refresh(self.player_field)
        refresh(self.seat_button)
        say(self.message, "")
        self.redraw()

    def remove(self, name: str) -> None:
        self.seated.remove(name)
        self.redraw()

    def start(self) -> None:
        try:
            night = self.nights.start(self.name or default_name(), self.seated)
        except NightError as exc:
            say(self.message, f"Cannot start the night: {exc}.", error=True)
            return
        self.ctx.navigate(f"/nights/{night.id}")


def build_start(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/new``: a new night; while another night is open, the way back to it instead."""
    current = ctx.services.nights.current()
    if current is None:
        return StartScreen(ctx).view()
    return screen(
        ctx,
        TITLE,
        [
            empty_state(f"{current.name} is still open", "Close it before starting another night."),
            ft.Row([big_button(f"Open {current.name}", lambda _: ctx.navigate(f"/nights/{current.id}"))]),
        ],
    )
