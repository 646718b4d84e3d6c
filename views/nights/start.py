"""``/nights/new``: start a game night with its name and the table's players.

The screen is an ``@ft.component`` (:func:`start_page`) over :class:`StartState`, an ``@ft.observable`` holding the
night's name, the players seated so far, the name being typed and what the last tap said: a tap or a keystroke
changes the state, and the component renders again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from companion.i18n import N_
from companion.night_model import NightError
from companion.night_service import default_name
from scoring.base import MAX_NAME
from views.context import ViewContext
from views.flet_private import component_node
from views.nights.common import click
from views.widgets import TAP, big_button, empty_state, heading, icon_button, paragraph, screen, seat_text

TITLE = N_("Start a game night")


@ft.observable
@dataclass
class StartState:
    """The night being started: its name, the players seated (in order), the name being typed, and what the last
    tap said (``""``: nothing) and whether it was a refusal."""

    name: str
    seated: list[str] = field(default_factory=list)
    typed: str = ""
    said: str = ""
    error: bool = False

    def add(self, name: str, ctx: ViewContext) -> None:
        """Seat ``name`` (spaces tidied); a blank name or one already seated is refused in words."""
        _ = ctx.words.gettext
        clean = " ".join(name.split())
        if not clean:
            self.said, self.error = _("Type a name first."), True
        elif clean.casefold() in {n.casefold() for n in self.seated}:
            self.said, self.error = _("{name} is already seated.").format(name=clean), True
        else:
            self.seated, self.typed, self.said, self.error = [*self.seated, clean], "", "", False

    def remove(self, name: str) -> None:
        self.seated = [n for n in self.seated if n != name]

    def start(self, ctx: ViewContext) -> None:
        """Start the night and open it; a refusal is said and nothing changes."""
        try:
            night = ctx.services.nights.start(self.name or default_name(words=ctx.words), self.seated)
        except NightError as exc:
            self.said = ctx.words.gettext("Cannot start the night: {error}.").format(error=exc)
            self.error = True
            return
        ctx.navigate(f"/nights/{night.id}")


@ft.component
def start_page(state: StartState, ctx: ViewContext) -> ft.Control:
    """The night's name, the seats, the field and roster to seat players from, and the Start button."""
    _ = ctx.words.gettext
    name_field = ft.TextField(label=_("Night name"), value=state.name, max_length=100, height=TAP + 24)
    name_field.on_change = lambda e: setattr(state, "name", str(name_field.value or ""))
    player_field = ft.TextField(
        label=_("New player name"),
        value=state.typed,
        on_submit=lambda e: state.add(state.typed, ctx),
        max_length=MAX_NAME,
        expand=True,
        height=TAP + 24,
    )
    player_field.on_change = lambda e: setattr(state, "typed", str(player_field.value or ""))
    seat_button = ft.OutlinedButton(
        content=_("Seat player"),
        tooltip=_("Seat player"),
        height=TAP,
        on_click=lambda e: state.add(state.typed, ctx),
        disabled=not state.typed.strip(),
    )
    seats: list[ft.Control] = [
        ft.Row(
            [
                seat_text(i + 1, name, ctx.words),
                icon_button(ft.Icons.CLOSE, _("Remove {name}").format(name=name), click(state.remove, name)),
            ]
        )
        for i, name in enumerate(state.seated)
    ] or [ft.Text(_("Nobody seated yet."), size=16)]
    keys = {n.casefold() for n in state.seated}
    roster: list[ft.Control] = [
        ft.OutlinedButton(
            content=p.name,
            tooltip=_("Seat {name}").format(name=p.name),
            height=TAP,
            on_click=click(state.add, p.name, ctx),
        )
        for p in ctx.services.players.players()
        if p.name.casefold() not in keys
    ]
    start_button = big_button(
        _("Start the night"),
        lambda e: state.start(ctx),
        icon=ft.Icons.NIGHTLIFE,
        primary=True,
        disabled=len(state.seated) < 2,
    )
    message = ft.Text(state.said, size=16, visible=bool(state.said), color=ft.Colors.ERROR if state.error else None)
    return ft.Column(
        [
            paragraph(
                _(
                    "One evening, several games, one settle-up. Every game started while the night is open "
                    "belongs to it."
                )
            ),
            name_field,
            heading(_("The table's players")),
            ft.Column(seats, spacing=4),
            ft.Row([player_field, seat_button]),
            ft.Row(roster, wrap=True, spacing=8, run_spacing=8),
            message,
            ft.Row([start_button]),
        ],
        spacing=12,
    )


def build_start(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/new``: a new night, with the players of the last game seated to begin with; while another night is
    open, the way back to it instead."""
    current = ctx.services.nights.current()
    _ = ctx.words.gettext
    if current is None:
        recent = ctx.services.archive.list_sessions()
        state = StartState(default_name(words=ctx.words), list(recent[0].players) if recent else [])
        return screen(ctx, _(TITLE), [component_node(start_page, state, ctx)])
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
