"""``/nights/<id>/recap``: the night in one screen, shared as text (clipboard) or as an image."""

from __future__ import annotations

import contextlib
from typing import Any

import flet as ft

from companion.money import format_money
from companion.night_ledger import TITLE
from companion.night_model import NightError
from companion.night_recap import Recap, rating_change_lines, streak_line
from companion.night_service import NightService, file_stem
from companion.settings import Theme
from views.context import ViewContext
from views.nights.common import day_once, message_text, night_of, say
from views.widgets import TAP, big_button, heading, panel, paragraph, screen


def recap_controls(recap: Recap, fmt: Any) -> list[ft.Control]:
    """The recap's parts: games with winners and verdicts, wins per player, money, settle-up, the streak."""
    out: list[ft.Control] = [heading("Games played")]
    for g in recap.games:
        line = f"{g.number}. {g.name}: {g.verdict}"
        out.append(ft.Text(line, size=16, semantics_label=line))
    if not recap.games:
        out.append(paragraph("No games yet."))
    out.append(heading("Wins"))
    ranked = sorted(recap.players, key=lambda n: (-recap.wins.get(n, 0), recap.players.index(n)))
    for name in ranked:
        wins = recap.wins.get(name, 0)
        line = f"{name}: {wins} win{'s' if wins != 1 else ''}"
        out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.has_money:
        out.append(heading("The night's money"))
        for name in recap.players:
            line = f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}"
            out.append(ft.Text(line, size=16, semantics_label=line))
        out.append(heading(TITLE))
        for line in recap.settlement.lines(fmt)[1:]:
            out.append(ft.Text(line, size=16, semantics_label=line))
    out.append(heading("Longest streak"))
    line = streak_line(recap.streaks) or "Nobody won two games in a row."
    out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.rating_change:  # each player's change of rating over the night's games
        out.append(heading("Rating change"))
        for line in rating_change_lines(recap):
            out.append(ft.Text(line, size=16, semantics_label=f"Rating change, {line}"))
    for problem in recap.problems:
        out.append(ft.Text(problem, size=15, color=ft.Colors.ERROR))
    return out


def build_recap(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/<id>/recap``: the night in one screen, shared as text (clipboard) or as an image."""
    nights: NightService = ctx.services.nights
    night = night_of(ctx, params["id"])
    fmt = nights.money
    recap = nights.recap(night)
    text = nights.recap_text(night)
    dark = ctx.settings.theme is Theme.DARK
    png = nights.recap_png(night, dark=dark)
    message = message_text()
    copy_action: Any = None
    with contextlib.suppress(Exception):  # needs the page's context (a screen built in a unit test has none)
        copy_action = ft.CopyToClipboard(text)

    async def copied(_: Any) -> None:
        if copy_action is None:
            try:
                await ft.Clipboard().set(text)
            except Exception as exc:  # no clipboard here: the text is on screen to copy by hand
                say(message, f"The clipboard is not available ({exc}); the text is shown below.", error=True)
                return
        say(message, "The recap is copied: paste it into your messenger.")

    async def download(_: Any) -> None:
        try:
            saved = await ft.FilePicker().save_file(
                dialog_title="Save the recap image", file_name=f"{file_stem(night)}.png", src_bytes=png
            )
        except (OSError, ValueError) as exc:
            say(message, f"The image could not be offered: {exc}", error=True)
            return
        say(message, f"Image saved as {saved}" if saved else "The image is offered for download.")

    def save(kind: str) -> None:
        try:
            path = nights.save_to_exports(night.id, kind, dark=dark)
        except NightError as exc:
            say(message, f"Not saved: {exc}.", error=True)
            return
        say(message, f"Saved to {path}")

    copy_button = ft.FilledButton(
        content="Copy the recap",
        icon=ft.Icons.CONTENT_COPY,
        tooltip="Copy the recap",
        height=TAP,
        expand=True,
        on_click=copied,
        action=copy_action,
    )
    games = f"{len(recap.games)} game{'s' if len(recap.games) != 1 else ''}"
    controls: list[ft.Control] = [
        ft.Text(day_once(night, f"{games} · {', '.join(night.players)}"), size=16),
        *recap_controls(recap, fmt),
        heading("Share"),
        ft.Row([copy_button]),
        message,
        panel(ft.Text(text, size=14, selectable=True, semantics_label="The recap as text")),
        ft.Image(src=png, semantics_label="The recap as an image", fit=ft.BoxFit.CONTAIN, width=540),
        ft.Row(
            [
                ft.OutlinedButton(
                    content="Download the image",
                    icon=ft.Icons.DOWNLOAD,
                    tooltip="Download the image",
                    on_click=download,
                    height=TAP,
                    expand=True,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
                )
            ]
        ),
        ft.Row(
            [
                big_button(
                    "Save the image to the exports folder",
                    lambda _: save("png"),
                    icon=ft.Icons.IMAGE,
                )
            ]
        ),
        ft.Row([big_button("Save the text to the exports folder", lambda _: save("txt"), icon=ft.Icons.NOTES)]),
    ]
    return screen(ctx, f"Recap: {night.name}", controls)
