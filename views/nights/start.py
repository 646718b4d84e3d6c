"""``/nights/new``: start a game night with its name and the table's players."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.i18n import N_
from companion.night_model import NightError
from companion.night_service import NightService, default_name
from scoring.base import MAX_NAME
from views.context import ViewContext
from views.nights.common import click, message_text, refresh, say
from views.widgets import TAP, big_button, empty_state, heading, icon_button, paragraph, screen

TITLE = N_("Start a game night")


class StartScreen:
    """The night's name and the table's players (those of the last game, to begin with), seated one by one."""

    def __init__(self, ctx: ViewContext) -> None:
        self.ctx = ctx
        self.words = ctx.words
        _ = self.words.gettext
        self.nights: NightService = ctx.services.nights
        recent = ctx.services.archive.list_sessions()
        self.seated: list[str] = list(recent[0].players) if recent else []
        self.name = default_name(words=self.words)
        self.typed = ""
        self.seats = ft.Column(spacing=4)
        self.roster = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.message = message_text()
        self.name_field = ft.TextField(
            label=_("Night name"), value=self.name, on_change=self.named, max_length=100, height=TAP + 24
        )
        self.seat_button = ft.OutlinedButton(
            content=_("Seat player"),
            tooltip=_("Seat player"),
            height=TAP,
            on_click=lambda _: self.add(self.typed),
            disabled=True,
        )
        self.player_field = ft.TextField(
            label=_("New player name"),
            on_change=self.typing,
            on_submit=lambda _: self.add(self.typed),
            max_length=MAX_NAME,
            expand=True,
            height=TAP + 24,
        )
        self.start_button = ft.FilledButton(
            content=_("Start the night"),
            icon=ft.Icons.NIGHTLIFE,
            tooltip=_("Start the night"),
            height=TAP,
            expand=True,
            on_click=lambda _: self.start(),
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
        )

    def view(self) -> ft.View:
        self.redraw()
        _ = self.words.gettext
        return screen(
            self.ctx,
            _(TITLE),
            [
                paragraph(
                    _(
                        "One evening, several games, one settle-up. Every game started while the night is open "
                        "belongs to it."
                    )
                ),
                self.name_field,
                heading(_("The table's players")),
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
        _ = self.words.gettext
        self.seats.controls = [
            ft.Row(
                [
                    ft.Text(
                        f"{i + 1}. {name}",
                        size=18,
                        expand=True,
                        semantics_label=_("Seat {n}: {name}").format(n=i + 1, name=name),
                    ),
                    icon_button(ft.Icons.CLOSE, _("Remove {name}").format(name=name), click(self.remove, name)),
                ]
            )
            for i, name in enumerate(self.seated)
        ] or [ft.Text(_("Nobody seated yet."), size=16)]
        keys = {n.casefold() for n in self.seated}
        self.roster.controls = [
            ft.OutlinedButton(
                content=p.name,
                tooltip=_("Seat {name}").format(name=p.name),
                height=TAP,
                on_click=click(self.add, p.name),
            )
            for p in self.ctx.services.players.players()
            if p.name.casefold() not in keys
        ]
        self.start_button.disabled = len(self.seated) < 2
        for control in (self.seats, self.roster, self.start_button):
            refresh(control)

    def add(self, name: str) -> None:
        _ = self.words.gettext
        clean = " ".join(name.split())
        if not clean:
            say(self.message, _("Type a name first."), error=True)
            return
        if clean.casefold() in {n.casefold() for n in self.seated}:
            say(self.message, _("{name} is already seated.").format(name=clean), error=True)
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
            night = self.nights.start(self.name or default_name(words=self.words), self.seated)
        except NightError as exc:
            said = self.words.gettext("Cannot start the night: {error}.").format(error=exc)
            say(self.message, said, error=True)
            return
        self.ctx.navigate(f"/nights/{night.id}")


def build_start(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/new``: a new night; while another night is open, the way back to it instead."""
    current = ctx.services.nights.current()
    if current is None:
        return StartScreen(ctx).view()
    _ = ctx.words.gettext
    return screen(
        ctx,
        _(TITLE),
        [
            empty_state(
                _("{name} is still open").format(name=current.name), _("Close it before starting another night.")
            ),
            ft.Row(
                [
                    big_button(
                        _("Open {name}").format(name=current.name), lambda e: ctx.navigate(f"/nights/{current.id}")
                    )
                ]
            ),
        ],
    )
