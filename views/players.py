"""Players: everyone in the roster with their record; a profile per player with rename, merge, statistics per game
and head-to-head. Renaming and merging keep every game (see :mod:`companion.players`).

Both screens are ``@ft.component``s over ``@ft.observable`` state (:class:`RosterState`, :class:`PlayerState`): typing
and choosing change the state, the component renders again in place; a saved change also reads the roster again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from companion.history import ENGLISH
from companion.i18n import Words
from companion.players import PlayerDirectory, Profile
from companion.ratings import ALL
from companion.stats import format_rate
from companion.storage_types import Player, PlayerNotFoundError, StorageError
from scoring import GAMES
from views.context import ViewContext
from views.flet_private import component_node
from views.ratings import player_ratings
from views.stats import game_line_text, head_to_head_text, player_summary
from views.table.entry import said
from views.widgets import TAP, big_button, empty_state, heading, paragraph, screen

PLAYER_ERRORS = (StorageError, ValueError)
"""What adding, renaming or merging can refuse with (each with a message for people)."""


def profile_subtitle(profile: Profile, words: Words = ENGLISH) -> str:
    """``3 games finished · 2 wins (67%) · once Ann``."""
    parts = [
        words.ngettext("{n} game finished", "{n} games finished", profile.finished).format(n=profile.finished),
        words.ngettext("{n} win ({rate})", "{n} wins ({rate})", profile.wins).format(
            n=profile.wins, rate=format_rate(profile.win_rate)
        ),
    ]
    if profile.sessions > profile.finished:
        parts.append(words.gettext("{n} not finished").format(n=profile.sessions - profile.finished))
    if profile.earlier_names:
        parts.append(words.gettext("once {names}").format(names=", ".join(profile.earlier_names)))
    return " · ".join(parts)


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/players``: every player, and a field to add one."""
    return screen(ctx, ctx.words.gettext("Players"), [component_node(player_list, RosterState(), ctx)])


@ft.observable
@dataclass
class RosterState:
    """The Players list: the name being typed for a new player, the last refusal, and a count of the roster's
    changes (the list is read again after each)."""

    name: str = ""
    problem: str = ""
    changes: int = 0


@ft.component
def player_list(state: RosterState, ctx: ViewContext) -> ft.Control:
    """The Statistics link, the field that adds a player, and a tile per player."""
    _ = ctx.words.gettext
    players: PlayerDirectory = ctx.services.players
    profiles = ft.use_memo(players.profiles, [state.changes])
    problem, can_add = state.problem, False
    if not problem:
        try:
            players.verify_add(state.name)
        except PLAYER_ERRORS as exc:
            problem = said(ctx.words, exc) if state.name.strip() else ""
        else:
            can_add = True

    def add_player() -> None:
        try:
            players.add(state.name)
        except PLAYER_ERRORS as exc:
            state.problem = said(ctx.words, exc)
            return
        state.name, state.changes = "", state.changes + 1

    def typed(text: str) -> None:
        state.name, state.problem = text, ""

    name = ft.TextField(label=_("New player's name"), value=state.name, tooltip=_("New player's name"), expand=True)
    name.on_change = lambda _: typed(name.value or "")
    add = ft.FilledButton(
        content=_("Add"), icon=ft.Icons.PERSON_ADD, on_click=lambda _: add_player(), height=TAP, disabled=not can_add
    )
    tiles: list[ft.Control] = [
        ft.ListTile(
            title=ft.Text(p.name, size=18),
            subtitle=ft.Text(profile_subtitle(p, ctx.words)),
            leading=ft.Icon(ft.Icons.PERSON),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda _, pid=p.id: ctx.navigate(f"/players/{pid}"),
            tooltip=p.name,
            min_height=TAP + 8,
        )
        for p in profiles
    ] or [empty_state(_("No players yet"), _("Everyone you seat at a game will be listed here."))]
    return ft.Column(
        [
            ft.Row([big_button(_("Statistics"), lambda _: ctx.navigate("/stats"), icon=ft.Icons.BAR_CHART)]),
            ft.Row([name, add], vertical_alignment=ft.CrossAxisAlignment.START),
            ft.Text(problem, size=15, color=ft.Colors.ERROR),
            *tiles,
        ],
        spacing=12,
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
    return player_ratings(scopes, player_id, last, ctx.words)


def build_player(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/players/<id>``: one player's profile, rename, merge, statistics and head-to-head."""
    try:
        player = ctx.services.players.get(params["id"])
    except PlayerNotFoundError as exc:
        raise ValueError(str(exc)) from None
    state = PlayerState(player.id, player.name, player.name)
    view = screen(ctx, player.name, [component_node(player_profile, state, ctx)])
    if view.appbar is not None:  # the title follows a rename
        view.appbar.title = component_node(player_title, state)
    return view


@ft.observable
@dataclass
class PlayerState:
    """One player's page: their id and name, the new name being typed, the other player chosen for a merge, the last
    refusal, and a count of the changes made here (the figures are read again after each)."""

    player_id: str
    name: str
    new_name: str
    other: str = ""
    problem: str = ""
    changes: int = 0

    def done(self, player: Player) -> None:
        """A rename or merge was saved: show the player as they are now."""
        self.name, self.new_name, self.other, self.problem = player.name, player.name, "", ""
        self.changes += 1


@ft.component
def player_title(state: PlayerState) -> ft.Control:
    """The app bar's title: the player's name."""
    return ft.Text(state.name, semantics_label=state.name)


@ft.component
def player_profile(state: PlayerState, ctx: ViewContext) -> ft.Control:
    """The profile line, earlier names, statistics and ratings, then rename, merge and the player's games."""
    _ = ctx.words.gettext
    players: PlayerDirectory = ctx.services.players
    name = state.name
    profile = ft.use_memo(lambda: next(p for p in players.profiles() if p.id == state.player_id), [state.changes])
    figures = ft.use_memo(lambda: player_figures(ctx, state.player_id, name), [state.changes])
    earlier = (
        _("Also played as {names}.").format(names=", ".join(profile.earlier_names))
        if profile.earlier_names
        else _("No earlier names.")
    )
    return ft.Column(
        [
            ft.Text(profile_subtitle(profile, ctx.words), size=16),
            paragraph(earlier),
            heading(_("Statistics")),
            *figures,
            *_rename_and_merge(state, players, ctx.words),
            ft.Row(
                [
                    big_button(
                        _("{name}'s games").format(name=name),
                        lambda _: ctx.navigate(f"/history?player={name}"),
                        icon=ft.Icons.HISTORY,
                    )
                ]
            ),
        ],
        spacing=12,
    )


def player_figures(ctx: ViewContext, player_id: str, name: str) -> list[ft.Control]:
    """The player's statistics, head-to-head and ratings."""
    stats = ctx.services.stats.statistics(ctx.services.archive, aliases=ctx.services.players.aliases())
    figures: list[ft.Control] = []
    try:
        mine = stats.player(name)
    except KeyError:
        figures.append(paragraph(ctx.words.gettext("No finished games yet.")))
    else:
        summary = player_summary(mine, ctx.words)
        figures.append(ft.Text(summary, size=16, semantics_label=f"{name}: {summary}"))
        figures += [ft.Text(text, size=15) for text in game_line_text(mine, "all", ctx.words)]
        versus = stats.versus(name)
        if versus:
            figures.append(heading(ctx.words.gettext("Head-to-head")))
            figures += [ft.Text(head_to_head_text(h, ctx.words), size=15) for h in versus]
    return figures + rating_figures(ctx, player_id)


def _rename_and_merge(state: PlayerState, players: PlayerDirectory, words: Words = ENGLISH) -> list[ft.Control]:
    """Rename (checked as it is typed) and merge with another name of the player (checked when chosen)."""
    _ = words.gettext
    name, problem = state.name, state.problem
    can_rename = can_merge = False
    merge_tip = _("Merge")
    if state.new_name != name and not problem:
        try:
            players.verify_rename(state.player_id, state.new_name)
        except PLAYER_ERRORS as exc:
            problem = said(words, exc)
        else:
            can_rename = " ".join(state.new_name.split()) != name
    if state.other and not problem:
        try:
            players.verify_merge(state.player_id, state.other)
        except PLAYER_ERRORS as exc:
            problem = said(words, exc)
        else:
            can_merge = True
            merge_tip = _("Merge {other} into {name}").format(other=players.get(state.other).name, name=name)

    def save(change: Callable[[], Player]) -> None:
        try:
            state.done(change())
        except PLAYER_ERRORS as exc:
            state.problem = said(words, exc)

    def typed(text: str) -> None:
        state.new_name, state.problem = text, ""

    def chosen(other_id: str) -> None:
        state.other, state.problem = other_id, ""

    new_name = ft.TextField(label=_("New name"), value=state.new_name, tooltip=_("New name"), expand=True)
    new_name.on_change = lambda _: typed(new_name.value or "")
    rename = ft.FilledButton(content=_("Rename"), icon=ft.Icons.EDIT, height=TAP, disabled=not can_rename)
    rename.on_click = lambda _: save(lambda: players.rename(state.player_id, state.new_name))
    others = [p for p in players.players() if p.id != state.player_id]
    other = ft.Dropdown(
        label=_("Another name of {name}").format(name=name),
        value=state.other or None,
        options=[ft.DropdownOption(key=p.id, text=p.name) for p in others],
        tooltip=_("Another name of this player"),
        expand=True,
    )
    other.on_select = lambda _: chosen(other.value or "")
    merge = ft.FilledButton(
        content=_("Merge"), icon=ft.Icons.MERGE, height=TAP, disabled=not can_merge, tooltip=merge_tip
    )
    merge.on_click = lambda _: save(lambda: players.merge(state.player_id, state.other))
    return [
        heading(_("Rename")),
        paragraph(_("Games played under the old name stay with this player.")),
        ft.Row([new_name, rename], vertical_alignment=ft.CrossAxisAlignment.START),
        heading(_("Merge")),
        paragraph(
            _(
                "If someone else in the list is {name} under another name, choose them: their games join "
                "{name}'s and the other name is kept as an earlier name."
            ).format(name=name)
        ),
        ft.Row([other, merge], vertical_alignment=ft.CrossAxisAlignment.START)
        if others
        else paragraph(_("There is nobody else to merge.")),
        ft.Text(problem, size=15, color=ft.Colors.ERROR),
    ]
