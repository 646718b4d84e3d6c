"""``/nights/<id>/recap``: the night in one screen, shared as text (clipboard) or as an image.

The screen is an ``@ft.component`` (:func:`recap_page`) over :class:`RecapState`, an ``@ft.observable`` holding what
the last share action said; the recap itself (its text and image) is made once, when the screen is opened. Amounts
are written with the Settings' money as the screens show it (:attr:`~companion.settings.Settings.money_shown`)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.i18n import Words
from companion.money import format_money
from companion.night_ledger import TITLE
from companion.night_model import Night, NightError
from companion.night_recap import ENGLISH, Recap, rating_change_lines, streak_line
from companion.night_service import NightService, file_stem
from companion.settings import Theme
from views.context import ViewContext
from views.flet_private import component_node
from views.nights.common import day_once, night_of
from views.widgets import TAP, big_button, heading, panel, paragraph, screen


def recap_controls(recap: Recap, fmt: Any, words: Words | None = None) -> list[ft.Control]:
    """The recap's parts: games with winners and verdicts, wins per player, money, settle-up, the streak."""
    words = words or ENGLISH
    _ = words.gettext
    out: list[ft.Control] = [heading(_("Games played"))]
    for g in recap.games:
        line = f"{g.number}. {g.name}: {g.verdict}"
        out.append(ft.Text(line, size=16, semantics_label=line))
    if not recap.games:
        out.append(paragraph(_("No games yet.")))
    out.append(heading(_("Wins")))
    ranked = sorted(recap.players, key=lambda n: (-recap.wins.get(n, 0), recap.players.index(n)))
    for name in ranked:
        wins = recap.wins.get(name, 0)
        line = words.ngettext("{name}: {n} win", "{name}: {n} wins", wins).format(name=name, n=wins)
        out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.has_money:
        out.append(heading(_("The night's money")))
        for name in recap.players:
            line = f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}"
            out.append(ft.Text(line, size=16, semantics_label=line))
        out.append(heading(_(TITLE)))
        for line in recap.settlement.lines(fmt, words)[1:]:
            out.append(ft.Text(line, size=16, semantics_label=line))
    out.append(heading(_("Longest streak")))
    line = streak_line(recap.streaks, words) or _("Nobody won two games in a row.")
    out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.rating_change:  # each player's change of rating over the night's games
        out.append(heading(_("Rating change")))
        for line in rating_change_lines(recap, words):
            out.append(ft.Text(line, size=16, semantics_label=_("Rating change, {line}").format(line=line)))
    for problem in recap.problems:
        out.append(ft.Text(problem, size=15, color=ft.Colors.ERROR))
    return out


@ft.observable
@dataclass
class RecapState:
    """What the recap screen's last share action said (``""``: nothing), and whether it went wrong."""

    said: str = ""
    error: bool = False

    def say(self, words: str, *, error: bool = False) -> None:
        self.said, self.error = words, error


@dataclass(frozen=True)
class RecapShown:
    """The recap as the screen shows it, made once when the screen is opened."""

    night: Night
    recap: Recap
    text: str
    png: bytes
    dark: bool
    copy_action: Any


def build_recap(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/<id>/recap``: the night in one screen, shared as text (clipboard) or as an image."""
    nights: NightService = ctx.services.nights
    night = night_of(ctx, params["id"])
    words = ctx.words
    text = nights.recap_text(night, words)
    dark = ctx.settings.theme is Theme.DARK
    copy_action: Any = None
    with contextlib.suppress(Exception):  # needs the page's context (a screen built in a unit test has none)
        copy_action = ft.CopyToClipboard(text)
    shown = RecapShown(
        night=night,
        recap=nights.recap(night, words),
        text=text,
        png=nights.recap_png(night, dark=dark, words=words),
        dark=dark,
        copy_action=copy_action,
    )
    title = words.gettext("Recap: {name}").format(name=night.name)
    return screen(ctx, title, [component_node(recap_page, RecapState(), shown, ctx)])


@ft.component
def recap_page(state: RecapState, shown: RecapShown, ctx: ViewContext) -> ft.Control:
    """The recap's parts, the ways to share it, and what the last of them said."""
    nights: NightService = ctx.services.nights
    night, recap, text, png, dark = shown.night, shown.recap, shown.text, shown.png, shown.dark
    fmt = ctx.settings.money_shown
    words = ctx.words
    _ = words.gettext

    async def copied(event: Any) -> None:
        if shown.copy_action is None:
            try:
                await ft.Clipboard().set(text)
            except Exception as exc:  # no clipboard here: the text is on screen to copy by hand
                state.say(
                    _("The clipboard is not available ({error}); the text is shown below.").format(error=exc),
                    error=True,
                )
                return
        state.say(_("The recap is copied: paste it into your messenger."))

    async def download(event: Any) -> None:
        try:
            saved = await ft.FilePicker().save_file(
                dialog_title=_("Save the recap image"), file_name=f"{file_stem(night)}.png", src_bytes=png
            )
        except (OSError, ValueError) as exc:
            state.say(_("The image could not be offered: {error}").format(error=exc), error=True)
            return
        state.say(_("Image saved as {path}").format(path=saved) if saved else _("The image is offered for download."))

    def save(kind: str) -> None:
        try:
            path = nights.save_to_exports(night.id, kind, dark=dark, words=words)
        except NightError as exc:
            state.say(_("Not saved: {error}.").format(error=exc), error=True)
            return
        state.say(_("Saved to {path}").format(path=path))

    copy_button = ft.FilledButton(
        content=_("Copy the recap"),
        icon=ft.Icons.CONTENT_COPY,
        tooltip=_("Copy the recap"),
        height=TAP,
        expand=True,
        on_click=copied,
        action=shown.copy_action,
    )
    games = words.ngettext("{n} game", "{n} games", len(recap.games)).format(n=len(recap.games))
    message = ft.Text(state.said, size=16, visible=bool(state.said), color=ft.Colors.ERROR if state.error else None)
    controls: list[ft.Control] = [
        ft.Text(day_once(night, f"{games} · {', '.join(night.players)}"), size=16),
        *recap_controls(recap, fmt, words),
        heading(_("Share")),
        ft.Row([copy_button]),
        message,
        panel(ft.Text(text, size=14, selectable=True, semantics_label=_("The recap as text"))),
        ft.Image(src=png, semantics_label=_("The recap as an image"), fit=ft.BoxFit.CONTAIN, width=540),
        ft.Row([big_button(_("Download the image"), download, icon=ft.Icons.DOWNLOAD)]),
        ft.Row(
            [
                big_button(
                    _("Save the image to the exports folder"),
                    lambda _: save("png"),
                    icon=ft.Icons.IMAGE,
                )
            ]
        ),
        ft.Row([big_button(_("Save the text to the exports folder"), lambda _: save("txt"), icon=ft.Icons.NOTES)]),
    ]
    return ft.Column(controls, spacing=12)
