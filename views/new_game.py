"""New game: pick the game (``/new``), then seat the players and set the house rules (``/new/<game>``), then start.

The set-up is plain Python in :mod:`companion.new_game` (:class:`~companion.new_game.Seating`,
:func:`~companion.new_game.option_fields`, :func:`~companion.new_game.chosen_options`), tested without a page; the
screens only draw it. Starting goes through the session service and opens the table at ``/continue/<id>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.games import UnknownGameError, get_guide
from companion.i18n import N_
from companion.money import MoneyFormat
from companion.new_game import (
    OptionField,
    OptionInputError,
    OptionKind,
    Seating,
    SeatingError,
    SideDefaults,
    chosen_options,
    describe_options,
    in_words,
    money_feedback,
    option_errors,
    option_fields,
    parse_option,
    player_limit,
    verify_player_count,
)
from companion.storage_types import StorageError
from scoring import GAMES, ScoringError, find_game
from scoring.base import MAX_NAME
from views.context import ViewContext
from views.table.entry import refresh
from views.table.games import find_panel
from views.widgets import TAP, big_button, heading, icon_button, nav_tile, paragraph, screen, seat_text


def build_pick(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/new``: choose the game."""
    _ = ctx.words.gettext
    tiles: list[ft.Control] = [paragraph(_("Which game are you playing?"))]
    for game in GAMES:
        guide = get_guide(game.key)
        tiles.append(nav_tile(ctx, game.name, f"{_(guide.players)}. {_(guide.summary)}", f"/new/{game.key}"))
    return screen(ctx, _("New game"), tiles)


SWITCH_GROUP = N_("Rules you switch on or off")
"""The heading over a run of on/off house rules (each switch carries its rule's label)."""


class SetUp:
    """The set-up screen of one game: seats, house rules, start."""

    def __init__(self, ctx: ViewContext, game: str) -> None:
        self.ctx = ctx
        self.words = ctx.words
        _ = self.words.gettext
        self.game = game
        self.info = find_game(game)
        self.money = _money_format(ctx)
        self.seats = Seating(words=self.words)
        self.night = ctx.services.nights.current()
        """The open game night, which this game will join; its players are seated to begin with."""
        if self.night is not None:
            limit = self.info.max_players or len(self.night.players)
            for name in self.night.players[:limit]:
                if self.seats.can_add(name):
                    self.seats.add(name)
        self.fields = option_fields(game, self.money, self.words)
        self.values: dict[str, Any] = {f.key: f.default for f in self.fields}
        self.inputs: dict[str, ft.TextField] = {}
        """The text fields of the number and money rules (their error and helper lines follow what is typed)."""
        self.seat_list = ft.Column(spacing=4)
        self.roster_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.name_field = ft.TextField(
            label=_("New player name"),
            on_submit=self.add_typed,
            on_change=self._typed,
            expand=True,
            max_length=MAX_NAME,
            height=TAP + 24,
        )
        self.typed = ""
        self.seat_button = ft.OutlinedButton(
            content=_("Seat player"), tooltip=_("Seat player"), height=TAP, on_click=self.add_typed, disabled=True
        )
        self.message = ft.Text("", color=ft.Colors.ERROR, size=16, visible=False)
        self.start_button = big_button(_("Start game"), self.start, icon=ft.Icons.PLAY_ARROW, primary=True)
        self.count_hint = ft.Text("", size=15)
        """Why Start is greyed out (the seated count outside the game's limit, a house rule to fix), or the count."""
        self.limit_text = paragraph("")
        """The game's player-count limit under the house rules as they stand, shown before Start."""
        self.rules_summary = ft.Text(describe_options(self.fields, {}, self.money, self.words), size=15)
        ui = find_panel(game)
        self.setup_hook = ui.setup if ui is not None else None
        """The game's own set-up (1111-9999's sides), filling ``self.extra``: the record's extra top-level keys."""
        self.extra: dict[str, Any] = {}
        self.setup_box = ft.Column(spacing=8)
        self.sides = SideDefaults() if "sides" in self.info.record_model.model_fields else None
        """Default sides (first half A, second half B), recomputed as players are seated until set by hand."""

    def view(self) -> ft.View:
        _ = self.words.gettext
        rules = self._option_rows()
        self.redraw()
        joins = _("This game joins tonight's night, {night}.").format(night=self.night.name) if self.night else ""
        return screen(
            self.ctx,
            _("New game: {game}").format(game=self.info.name),
            [
                heading(_("Players, clockwise")),
                self.limit_text,
                *([paragraph(joins)] if self.night else []),
                self.seat_list,
                ft.Row(
                    [
                        self.name_field,
                        self.seat_button,
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
                self.roster_row,
                *([heading(_("Seats at the table")), self.setup_box] if self.setup_hook is not None else []),
                heading(_("House rules")),
                *rules,
                self.rules_summary,
                self.count_hint,
                self.message,
                ft.Row([self.start_button]),
            ],
        )

    def _option_rows(self) -> list[ft.Control]:
        """A row per house rule; a run of on/off rules goes under one heading."""
        rows: list[ft.Control] = []
        group: list[ft.Control] = []
        for option in self.fields:
            if option.kind is OptionKind.SWITCH:
                group.append(self._option_row(option))
                continue
            if group:
                rows.append(self._switch_group(group))
                group = []
            rows.append(self._option_row(option))
        if group:
            rows.append(self._switch_group(group))
        return rows

    def _switch_group(self, rows: list[ft.Control]) -> ft.Control:
        said = self.words.gettext(SWITCH_GROUP)
        title = ft.Text(said, size=16, weight=ft.FontWeight.BOLD, semantics_label=said)
        return ft.Column([title, *rows], spacing=4)

    def _option_row(self, option: OptionField) -> ft.Control:
        control: ft.Control
        explanation = ft.Text(option.explanation, size=14)
        if option.kind is OptionKind.SWITCH:
            control = ft.Switch(
                label=option.label, value=bool(option.default), on_change=self._setter(option), height=TAP
            )
            return ft.Column([control, explanation], spacing=0)
        if option.kind is OptionKind.CHOICE:
            control = ft.Dropdown(
                label=option.label,
                value=str(option.default),
                options=[
                    ft.DropdownOption(key=str(choice), text=words)
                    for choice, words in zip(option.choices, option.words, strict=True)
                ],
                on_select=self._setter(option),
                tooltip=option.label,
            )
        else:
            control = ft.TextField(
                label=option.label,
                value="" if option.default is None else str(option.default),
                keyboard_type=ft.KeyboardType.NUMBER if option.kind is OptionKind.NUMBER else ft.KeyboardType.TEXT,
                on_change=self._setter(option),
                tooltip=option.label,
                helper=option.hint or None,
                helper_max_lines=2,
                error_max_lines=3,
            )
            self.inputs[option.key] = control
        title = ft.Text(option.label, size=16, weight=ft.FontWeight.BOLD)
        return ft.Column([title, explanation, control], spacing=4)

    def _setter(self, option: OptionField) -> Callable[[Any], None]:
        def changed(event: Any) -> None:
            self.values[option.key] = event.control.value
            self.say(None)  # a refusal of Start is about what the fields held then
            self.check()
            for control in (self.inputs.get(option.key), self.rules_summary, self.limit_text):
                if control is not None:
                    refresh(control)
            self._refresh_start()

        return changed

    def options(self) -> dict[str, Any]:
        """The house rules as the fields hold them, those that cannot be read left at their defaults."""
        out: dict[str, Any] = {}
        for option in self.fields:
            try:
                value = parse_option(option, self.values.get(option.key), self.money, self.words)
            except OptionInputError:
                continue
            if value != option.default:
                out[option.key] = value
        return out

    def check(self) -> list[str]:
        """Show what each field stored or why it is refused, the player limit, and whether Start can be pressed;
        returns the reasons it cannot (in words, each naming what to change)."""
        _ = self.words.gettext
        errors = option_errors(self.game, self.fields, self.values, self.money, self.words)
        for option in self.fields:
            field_ = self.inputs.get(option.key)
            if field_ is None:
                continue
            problem = errors.get(option.key)
            field_.error = problem.removeprefix(f"{option.label}: ") if problem else None
            if option.kind is OptionKind.MONEY:
                said = money_feedback(self.values.get(option.key), self.money, empty=option.hint, words=self.words)
                field_.helper = said.helper or None
        options = self.options()
        limit = player_limit(self.game, options, self.words)
        self.limit_text.value = _("{limit} Seat them in the order they sit, clockwise.").format(limit=limit.text)
        if errors:
            unread = ", ".join(f"“{option.label}”" for option in self.fields if option.key in errors)
            self.rules_summary.value = _("Not read yet: {rules} (the red line under it says why).").format(rules=unread)
        else:
            self.rules_summary.value = describe_options(self.fields, options, self.money, self.words)
        blockers = [problem for problem in (limit.problem(len(self.seats.names)),) if problem is not None]
        blockers += [_("fix {problem}").format(problem=problem) for problem in errors.values()]
        self.start_button.disabled = bool(blockers)
        if blockers:
            self.count_hint.value = _("Start is greyed out: {reasons}.").format(reasons="; ".join(blockers))
        else:
            seated = len(self.seats.names)
            self.count_hint.value = self.words.ngettext("{n} players seated.", "{n} players seated.", seated).format(
                n=seated
            )
        return blockers

    def _refresh_start(self) -> None:
        for control in (self.count_hint, self.start_button, self.message):
            refresh(control)

    def redraw(self) -> None:
        _ = self.words.gettext
        rows: list[ft.Control] = []
        last = len(self.seats.names) - 1
        for i, name in enumerate(self.seats.names):
            up = icon_button(ft.Icons.ARROW_UPWARD, _("Move {name} up").format(name=name), self._mover(i, -1))
            down = icon_button(ft.Icons.ARROW_DOWNWARD, _("Move {name} down").format(name=name), self._mover(i, 1))
            for holder, allowed in ((up, i > 0), (down, i < last)):
                if isinstance(holder, ft.Semantics) and isinstance(holder.content, ft.IconButton):
                    holder.content.disabled = not allowed
            rows.append(
                ft.Row(
                    [
                        seat_text(i + 1, name, self.words),
                        up,
                        down,
                        icon_button(ft.Icons.CLOSE, _("Remove {name}").format(name=name), self._remover(i)),
                    ]
                )
            )
        if not rows:
            rows.append(ft.Text(_("Nobody seated yet."), size=16))
        self.seat_list.controls = rows
        roster = [p.name for p in self.ctx.services.players.players()]
        self.roster_row.controls = [
            ft.OutlinedButton(
                content=name,
                tooltip=_("Seat {name}").format(name=name),
                height=TAP,
                on_click=lambda _, n=name: self.add(n),
            )
            for name in roster
            if self.seats.can_add(name)
        ]
        self.check()
        if self.setup_hook is not None:
            if self.sides is not None:
                self.extra["sides"] = self.sides.fit(self.seats.names, self.extra.get("sides") or {})
            self.setup_box.controls = [self.setup_hook(list(self.seats.names), self.extra, self.words)]

    def _mover(self, index: int, step: int) -> Callable[[Any], None]:
        return lambda _: self.move(index, step)

    def _remover(self, index: int) -> Callable[[Any], None]:
        return lambda _: self.remove(index)

    def say(self, text: str | None) -> None:
        self.message.value = text or ""
        self.message.visible = bool(text)

    def add(self, name: str) -> None:
        known = self.ctx.services.players.find(name)
        try:
            self.seats.add(known.name if known is not None else name)
        except SeatingError as exc:
            self.say(f"{exc}.")
            return
        self.say(None)
        self.redraw()

    def _typed(self, event: Any) -> None:
        self.typed = str(event.control.value or "")
        self.seat_button.disabled = not self.seats.can_add(self.typed)
        refresh(self.seat_button)

    def add_typed(self, _: Any = None) -> None:
        name = self.name_field.value or self.typed or ""
        before = len(self.seats.names)
        self.add(name)
        if len(self.seats.names) > before:
            self.name_field.value = ""
            self.typed = ""
            self.seat_button.disabled = True

    def move(self, index: int, step: int) -> None:
        self.seats.move(index, step)
        self.say(None)
        self.redraw()

    def remove(self, index: int) -> None:
        self.seats.remove(index)
        self.say(None)
        self.redraw()

    def start(self, _: Any = None) -> None:
        blockers = self.check()
        if blockers:
            self.say(self.words.gettext("Cannot start yet: {reasons}.").format(reasons="; ".join(blockers)))
            self._refresh_start()
            return
        try:
            options = chosen_options(self.fields, self.values, self.money, self.words)
            verify_player_count(self.game, len(self.seats.names), options, self.words)
            session = self.ctx.services.sessions.start(
                self.game, list(self.seats.names), options, extra=self.extra or None
            )
        except (SeatingError, OptionInputError, ScoringError, StorageError) as exc:
            self.say(
                self.words.gettext("Cannot start: {problem}. Nothing was lost; change it and try again.").format(
                    problem=in_words(str(exc), self.game, self.words)
                )
            )
            self._refresh_start()
            return
        self.ctx.navigate(f"/continue/{session.id}")


def _money_format(ctx: ViewContext) -> MoneyFormat:
    money = getattr(ctx.settings, "money", None)
    return money if isinstance(money, MoneyFormat) else MoneyFormat()


def build_setup(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/new/<game>``: seat the players, set the house rules, start."""
    try:
        get_guide(params["game"])
        find_game(params["game"])
    except (UnknownGameError, ScoringError):
        raise ValueError(
            ctx.words.gettext("The app has no game called '{game}'.").format(game=params["game"])
        ) from None
    return SetUp(ctx, params["game"]).view()
