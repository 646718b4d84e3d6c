"""The home screen: one large button per part of the app, under the banner about damaged files set aside (if any)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.i18n import N_
from views.context import ViewContext
from views.widgets import TAP, big_button, paragraph, screen

HOME_ITEMS: tuple[tuple[str, str, ft.IconData, bool], ...] = (
    (N_("New game"), "/new", ft.Icons.ADD_CIRCLE, True),
    (N_("Continue"), "/continue", ft.Icons.PLAY_ARROW, False),
    (N_("History"), "/history", ft.Icons.HISTORY, False),
    (N_("Players"), "/players", ft.Icons.PEOPLE, False),
    (N_("Rules"), "/rules", ft.Icons.MENU_BOOK, False),
    (N_("Settings"), "/settings", ft.Icons.SETTINGS, False),
)
"""(label, route, icon, primary) of each home button, in order (the labels in English: translated where shown)."""
DISMISS_DAMAGE = N_("Dismiss the notice about damaged files")
"""The accessible label of the banner's one button."""


def damage_banner(ctx: ViewContext) -> ft.Control | None:
    """ "2 damaged files were set aside in damaged/: …" with one dismiss button, while the app has files set aside
    that the user has not dismissed (the same banner in every tab: :class:`companion.damage.DamageReport`)."""
    message = ctx.services.damage.message()
    if not message:
        return None
    _ = ctx.words.gettext
    banner = ft.Container(
        bgcolor=ft.Colors.ERROR_CONTAINER,
        border_radius=12,
        padding=ft.Padding.all(12),
    )

    def dismiss(_: object) -> None:
        ctx.services.damage.dismiss()
        banner.visible = False
        ctx.page.update()

    banner.content = ft.Row(
        [
            ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
            ft.Text(
                _("{message}. Nothing else was changed; the rest of the data folder opened.").format(message=message),
                size=16,
                color=ft.Colors.ON_ERROR_CONTAINER,
                selectable=True,
                expand=True,
                semantics_label=message,
            ),
            ft.Semantics(  # named and activated here, for a screen reader (the button inside shows "Dismiss")
                label=_(DISMISS_DAMAGE),
                button=True,
                container=True,
                on_tap=dismiss,
                content=ft.TextButton(content=_("Dismiss"), on_click=dismiss, tooltip=_(DISMISS_DAMAGE), height=TAP),
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    return banner


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """The home screen."""
    _ = ctx.words.gettext

    def opener(route: str) -> Callable[[object], None]:
        return lambda _: ctx.navigate(route)

    buttons: list[ft.Control] = [
        ft.Row([big_button(_(label), opener(route), icon=icon, primary=primary)])
        for label, route, icon, primary in HOME_ITEMS
    ]
    tonight = ctx.services.nights.current()
    night = (
        big_button(
            _("Tonight: {night}").format(night=tonight.name), opener(f"/nights/{tonight.id}"), icon=ft.Icons.NIGHTLIFE
        )
        if tonight is not None
        else big_button(_("Start a game night"), opener("/nights/new"), icon=ft.Icons.NIGHTLIFE)
    )
    buttons.insert(1, ft.Row([night]))  # below New game: a game started now joins the open night
    intro = paragraph(_("Keep score for card games played with real cards."))
    banner = damage_banner(ctx)
    top = [banner] if banner is not None else []
    return screen(ctx, _("Card Table Companion"), [*top, intro, *buttons], home=True)
