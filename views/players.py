"""Players: everyone in the roster with their record; a profile per player with rename, merge, statistics per game
and head-to-head. Renaming and merging keep every game (see :mod:`companion.players`).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.players import PlayerDirectory, Profile
from companion.ratings import ALL
from companion.stats import format_rate
from companion.storage_types import PlayerNotFoundError, StorageError
from scoring import GAMES
from views.context import ViewContext
from views.ratings import player_ratings
from views.stats import game_line_text, head_to_head_text, player_summary
from views.widgets import TAP, big_button, empty_state, heading, paragraph, screen

PLAYER_ERRORS = (StorageError, ValueError)
"""What adding, renaming or merging can refuse with (each with a message for people)."""


def profile_subtitle(profile: Profile) -> str:
    """``3 games finished · 2 wins (67%) · once Ann``."""
    parts = [
        f"{profile.finished} game{'s' if profile.finished != 1 else ''} finished",
        f"{profile.wins} win{'s' if profile.wins != 1 else ''} ({format_rate(profile.win_rate)})",
    ]
    if profile.sessions > profile.finished:
        parts.append(f"{profile.sessions - profile.finished} not finished")
    if profile.earlier_names:
        parts.append("once " + ", ".join(profile.earlier_names))
    return " · ".join(parts)


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/players``: every player, and a field to add one."""
    players: PlayerDirectory = ctx.services.players
    problem = ft.Text("", size=15, color=ft.Colors.ERROR)
    name = ft.TextField(
        label="New player's name", tooltip="New player's name", on_change=lambda _: check(), expand=True
    )
    add = ft.FilledButton(content="Add", icon=ft.Icons.PERSON_ADD, on_click=lambda _: add_player(), height=TAP)
    add.disabled = True

    def check() -> None:
        text = name.value or ""
        try:
            players.verify_add(text)
        except PLAYER_ERRORS as exc:
            problem.value = str(exc) if text.strip() else ""
            add.disabled = True
        else:
            problem.value = ""
            add.disabled = False
        problem.update()
        add.update()

    def add_player() -> None:
        try:
            players.add(name.value or "")
        except PLAYER_ERRORS as exc:
            problem.value = str(exc)
            problem.update()
            return
        ctx.page.views[-1] = build_list(ctx, params)
        ctx.page.update()

    profiles = players.profiles()
    tiles: list[ft.Control] = [
        ft.ListTile(
            title=ft.Text(p.name, size=18),
            subtitle=ft.Text(profile_subtitle(p)),
            leading=ft.Icon(ft.Icons.PERSON),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda _, pid=p.id: ctx.navigate(f"/players/{pid}"),
            tooltip=p.name,
            min_height=TAP + 8,
        )
        for p in profiles
    ]
    if not tiles:
        tiles = [empty_state("No players yet", "Everyone you seat at a game will be listed here.")]
    return screen(
        ctx,
        "Players",
        [
            ft.Row([big_button("Statistics", lambda _: ctx.navigate("/stats"), icon=ft.Icons.BAR_CHART)]),
            ft.Row([name, add], vertical_alignment=ft.CrossAxisAlignment.START),
            problem,
            *tiles,
        ],
    )


def rating_figures(ctx: ViewContext, player_id: str) -> list[ft.Control]:
    """The player's rating per game (and across all), rivals, and their change over the last night they played."""
    service = ctx.services.ratings
    scopes = [service.ratings(ALL)] + [service.ratings(g.key) for g in GAMES]
    last = None
    overall = scopes[0]
    for night in ctx.services.nights.all():  # newest first: the last night in which they played a rated game
        change = overall.changes(night.sessions).get(player_id)
        if change is not None:
            last = (night.name, change)
            break
    return player_ratings(scopes, player_id, last)


def build_player(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/players/<id>``: one player's profile, rename, merge, statistics and head-to-head."""
    players: PlayerDirectory = ctx.services.players
    try:
        player = players.get(params["id"])
    except PlayerNotFoundError as exc:
        raise ValueError(str(exc)) from None
    profile = next(p for p in players.profiles() if p.id == player.id)
    message = ft.Text("", size=15, color=ft.Colors.ERROR)

    def redraw() -> None:
        ctx.page.views[-1] = build_player(ctx, params)
        ctx.page.update()

    # --- rename
    new_name = ft.TextField(label="New name", value=player.name, tooltip="New name", expand=True)
    rename = ft.FilledButton(content="Rename", icon=ft.Icons.EDIT, height=TAP, disabled=True)

    def check_rename(_: Any) -> None:
        text = new_name.value or ""
        try:
            players.verify_rename(player.id, text)
        except PLAYER_ERRORS as exc:
            message.value = str(exc)
            rename.disabled = True
        else:
            message.value = ""
            rename.disabled = " ".join(text.split()) == player.name
        message.update()
        rename.update()

    def do_rename(_: Any) -> None:
        try:
            players.rename(player.id, new_name.value or "")
        except PLAYER_ERRORS as exc:
            message.value = str(exc)
            message.update()
            return
        redraw()

    new_name.on_change = check_rename
    rename.on_click = do_rename

    # --- merge
    others = [p for p in players.players() if p.id != player.id]
    other = ft.Dropdown(
        label=f"Another name of {player.name}",
        options=[ft.DropdownOption(key=p.id, text=p.name) for p in others],
        tooltip="Another name of this player",
        expand=True,
    )
    merge = ft.FilledButton(content="Merge", icon=ft.Icons.MERGE, height=TAP, disabled=True)

    def check_merge(_: Any) -> None:
        if not other.value:
            return
        try:
            players.verify_merge(player.id, other.value)
        except PLAYER_ERRORS as exc:
            message.value = str(exc)
            merge.disabled = True
        else:
            dropped = players.get(other.value).name
            message.value = ""
            merge.disabled = False
            merge.tooltip = f"Merge {dropped} into {player.name}"
        message.update()
        merge.update()

    def do_merge(_: Any) -> None:
        if not other.value:
            return
        try:
            players.merge(player.id, other.value)
        except PLAYER_ERRORS as exc:
            message.value = str(exc)
            message.update()
            return
        redraw()

    other.on_select = check_merge
    merge.on_click = do_merge

    # --- statistics
    stats = ctx.services.stats.statistics(ctx.services.archive, aliases=players.aliases())
    figures: list[ft.Control] = []
    try:
        mine = stats.player(player.name)
    except KeyError:
        figures.append(paragraph("No finished games yet."))
    else:
        figures.append(ft.Text(player_summary(mine), size=16, semantics_label=f"{player.name}: {player_summary(mine)}"))
        figures += [ft.Text(text, size=15) for text in game_line_text(mine, "all")]
        versus = stats.versus(player.name)
        if versus:
            figures.append(heading("Head-to-head"))
            figures += [ft.Text(head_to_head_text(h), size=15) for h in versus]

    figures += rating_figures(ctx, player.id)
    earlier = f"Also played as {', '.join(profile.earlier_names)}." if profile.earlier_names else "No earlier names."
    controls: list[ft.Control] = [
        ft.Text(profile_subtitle(profile), size=16),
        paragraph(earlier),
        heading("Statistics"),
        *figures,
        heading("Rename"),
        paragraph("Games played under the old name stay with this player."),
        ft.Row([new_name, rename], vertical_alignment=ft.CrossAxisAlignment.START),
        heading("Merge"),
        paragraph(
            f"If someone else in the list is {player.name} under another name, choose them: their games join "
            f"{player.name}'s and the other name is kept as an earlier name."
        ),
        ft.Row([other, merge], vertical_alignment=ft.CrossAxisAlignment.START)
        if others
        else paragraph("There is nobody else to merge."),
        message,
        ft.Row(
            [
                big_button(
                    f"{player.name}'s games",
                    lambda _: ctx.navigate(f"/history?player={player.name}"),
                    icon=ft.Icons.HISTORY,
                )
            ]
        ),
    ]
    return screen(ctx, player.name, controls)
