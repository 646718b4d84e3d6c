"""Small building blocks every screen uses: the screen frame with its back button, large buttons, suit symbols.

Every interactive control gets a tooltip (Flutter turns it into the control's accessible label), and every tap
target is at least :data:`TAP` pixels tall, for one-handed use at a card table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import flet as ft

from companion.settings import SUITS, SuitColour, suit_colour
from views.context import ViewContext
from views.routing import parent_path

TAP = 56
"""Height of a primary tap target, in logical pixels (Material's minimum is 48)."""
MIN_TAP = 48
"""The smallest tap target (Material's minimum): keys of a dense pad (the Jokers Kill card grid) on a phone."""
APPBAR_TAP = 48
"""The app bar's icon buttons: 48 px, so a 360 px wide phone keeps room for the title beside Undo, Redo, Share."""
WIDE = 900
"""From this width (a landscape tablet, a desktop) the table screen puts its panel and scoreboard side by side."""
CONTENT_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 12, "md": 10, "lg": 8, "xl": 6}
"""Width of the content column: the whole phone screen, a centred column on a desktop."""

_SUIT_COLOURS = {
    SuitColour.BLACK: ft.Colors.ON_SURFACE,
    SuitColour.RED: ft.Colors.RED_600,
    SuitColour.BLUE: ft.Colors.BLUE_600,
    SuitColour.GREEN: ft.Colors.GREEN_600,
}
SUIT_NAMES = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}

C = TypeVar("C", bound=ft.Control)


def isolated(control: C) -> C:
    """Make ``control`` its own update boundary (Flet's isolated controls): an update of a control around it
    neither walks into it nor sends its changes, so the screen's update after a tap or a hand stays the same size
    however many keys, cards or hand rows the screen holds. Whoever changes an isolated control sends it with its
    own ``update()``; one never changed after it is shown (a hand-list row) needs nothing more."""
    object.__setattr__(control, "_isolated", True)
    return control


def icon_button(icon: ft.IconData, label: str, on_click: Callable[[Any], Any], *, size: int = TAP) -> ft.Control:
    """An icon-only button, ``size`` (:data:`TAP`) pixels square, labelled ``label`` for screen readers and tests.

    (A tooltip alone does not give an icon button an accessible name in the browser view, so it is wrapped in
    :class:`ft.Semantics`.)
    """
    return ft.Semantics(
        label=label,
        button=True,
        container=True,
        content=ft.IconButton(icon=icon, on_click=on_click, width=size, height=size),
    )


def back_button(ctx: ViewContext) -> ft.Control:
    """The app bar's back arrow (labelled "Back"): goes to the parent screen."""
    target = ctx.back_to if ctx.back_to is not None else parent_path(ctx.path)
    return icon_button(ft.Icons.ARROW_BACK, "Back", lambda _: ctx.navigate(target))


def screen(ctx: ViewContext, title: str, controls: Sequence[ft.Control], *, home: bool = False) -> ft.View:
    """A full screen: an app bar with the title (and a back button unless ``home``) over a scrolling column."""
    appbar = ft.AppBar(
        title=ft.Text(title, semantics_label=title),
        leading=None if home else back_button(ctx),
        automatically_imply_leading=False,
        toolbar_height=64,
    )
    body = ft.ResponsiveRow(
        controls=[ft.Container(content=ft.Column(list(controls), spacing=12), col=CONTENT_COLUMNS)],
        alignment=ft.MainAxisAlignment.CENTER,
    )
    return ft.View(
        route=ctx.path,
        appbar=appbar,
        controls=[body],
        scroll=ft.ScrollMode.AUTO,
        padding=ft.Padding.all(16),
    )


def big_button(
    label: str,
    on_click: Callable[[Any], None],
    *,
    icon: ft.IconData | None = None,
    tooltip: str | None = None,
    primary: bool = False,
) -> ft.Control:
    """A full-width button at least :data:`TAP` pixels tall; its accessible label is ``tooltip`` or ``label``."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(
        content=label,
        icon=icon,
        on_click=on_click,
        tooltip=tooltip or label,
        height=TAP,
        expand=True,
        style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
    )


def nav_tile(ctx: ViewContext, title: str, subtitle: str, route: str, *, icon: ft.IconData | None = None) -> ft.Control:
    """A tappable row that opens ``route``; labelled with its title."""
    return ft.ListTile(
        title=ft.Text(title, size=18),
        subtitle=ft.Text(subtitle),
        leading=ft.Icon(icon) if icon is not None else None,
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _: ctx.navigate(route),
        tooltip=title,
        min_height=TAP + 8,
    )


def heading(text: str) -> ft.Text:
    """A section heading."""
    return ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_LARGE, semantics_label=text)


def paragraph(text: str) -> ft.Text:
    """Body text, comfortably large."""
    return ft.Text(text, size=16)


def suit_colour_value(suit: str, four_colour: bool) -> str:
    """The Flet colour of a suit symbol under the chosen scheme."""
    return _SUIT_COLOURS[suit_colour(suit, four_colour)]


def suits_sample(four_colour: bool, size: int = 32) -> ft.Text:
    """The four suit symbols in their colours, labelled for screen readers."""
    scheme = "four-colour" if four_colour else "two-colour"
    return ft.Text(
        spans=[
            ft.TextSpan(f"{suit} ", style=ft.TextStyle(color=suit_colour_value(suit, four_colour), size=size))
            for suit in SUITS
        ],
        semantics_label=f"Suits in {scheme}: " + ", ".join(SUIT_NAMES[s] for s in SUITS),
    )


def panel(content: ft.Control, *, padding: int = 12) -> ft.Container:
    """A framed panel: a thin outline with rounded corners around ``content`` (entry panels, the scoreboard's
    parts, history rows)."""
    return ft.Container(
        content=content,
        padding=ft.Padding.all(padding),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=12,
    )


def empty_state(message: str, detail: str) -> ft.Control:
    """An honest "nothing here yet" panel."""
    return panel(
        ft.Column(
            [
                ft.Text(message, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=message),
                ft.Text(detail, size=16),
            ],
            spacing=8,
        ),
        padding=16,
    )
