"""New game: pick the game (``/new``), then seat the players and set the house rules (``/new/<game>``), then start.

The set-up is plain Python (:class:`Seating`, :func:`option_fields`, :func:`chosen_options`), tested without a
page; the screens only draw it. Starting goes through the session service and opens the table at
``/continue/<id>``.

>>> seats = Seating()
>>> for name in ("Ann", "Ben", " Cat "):
...     _ = seats.add(name)
>>> seats.move(2, -1).names
['Ann', 'Cat', 'Ben']
>>> seats.add("ann")
Traceback (most recent call last):
...
views.new_game.SeatingError: Ann is already seated
>>> [(f.key, f.kind.value, f.default) for f in option_fields("jokers-kill")][:2]
[('jokers', 'choice', 0), ('upcard_to_prize', 'switch', True)]
>>> chosen_options(option_fields("jokers-kill"), {"jokers": "2", "playoff_wins": "3"})
{'jokers': 2}
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.guides import UnknownGameError, get_guide
from companion.records import StorageError
from scoring import ScoringError, all_games, get_game
from views.context import ViewContext
from views.table.entry import refresh, table_ui
from views.widgets import TAP, heading, icon_button, nav_tile, paragraph, screen

MAX_NAME = 40


class SeatingError(ValueError):
    """A name that cannot be seated (empty, too long, already seated)."""


class OptionInputError(ValueError):
    """A house-rule value that is not one the game accepts."""


@dataclass
class Seating:
    """The players at the table, clockwise from the first seat."""

    names: list[str] = field(default_factory=list)

    def verify_add(self, name: str) -> str:
        """The trimmed name, or :class:`SeatingError` saying why it cannot be seated."""
        clean = " ".join(str(name).split())
        if not clean:
            raise SeatingError("type a name first")
        if len(clean) > MAX_NAME:
            raise SeatingError(f"a name has at most {MAX_NAME} characters ({clean[:12]}… has {len(clean)})")
        for seated in self.names:
            if seated.casefold() == clean.casefold():
                raise SeatingError(f"{seated} is already seated")
        return clean

    def can_add(self, name: str) -> bool:
        try:
            self.verify_add(name)
        except SeatingError:
            return False
        return True

    def add(self, name: str) -> Seating:
        self.names.append(self.verify_add(name))
        return self

    def remove(self, index: int) -> Seating:
        del self.names[index]
        return self

    def can_move(self, index: int, step: int) -> bool:
        return 0 <= index < len(self.names) and 0 <= index + step < len(self.names)

    def move(self, index: int, step: int) -> Seating:
        """Move seat ``index`` one place up (``-1``) or down (``+1``)."""
        if not self.can_move(index, step):
            raise SeatingError("that player cannot move further")
        names = self.names
        names[index], names[index + step] = names[index + step], names[index]
        return self


def verify_player_count(game: str, count: int) -> None:
    """:class:`SeatingError` unless ``count`` players can play ``game``."""
    info = get_game(game)
    if count < info.min_players:
        raise SeatingError(f"{info.name} needs at least {info.min_players} players; {count} seated")
    if info.max_players is not None and count > info.max_players:
        raise SeatingError(f"{info.name} takes at most {info.max_players} players; {count} seated")


class OptionKind(enum.Enum):
    """How a house rule is set on screen."""

    CHOICE = "choice"
    """One of a few values (a drop-down)."""
    SWITCH = "switch"
    """On or off."""
    NUMBER = "number"
    """A whole number (empty: the default)."""


@dataclass(frozen=True)
class OptionField:
    """One house rule of a game, for the set-up screen."""

    key: str
    label: str
    explanation: str
    kind: OptionKind
    default: Any
    choices: tuple[Any, ...] = ()


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def option_fields(game: str) -> list[OptionField]:
    """Every house rule of ``game``, with its label and one-line explanation from the rules guide."""
    model = get_game(game).record_model.model_fields["options"].annotation
    guide = {rule.key: rule for rule in get_guide(game).options}
    out: list[OptionField] = []
    for key, info in typing.cast(Any, model).model_fields.items():
        annotation = info.annotation
        default = _plain(info.default)
        rule = guide.get(key)
        label = rule.label if rule is not None else key.replace("_", " ").capitalize()
        explanation = f"Default: {rule.default}. Or: {rule.alternatives} ({rule.ruling})." if rule is not None else ""
        origin = typing.get_origin(annotation)
        if origin is typing.Literal:
            out.append(OptionField(key, label, explanation, OptionKind.CHOICE, default, typing.get_args(annotation)))
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            choices = tuple(member.value for member in annotation)
            out.append(OptionField(key, label, explanation, OptionKind.CHOICE, default, choices))
        elif annotation is bool:
            out.append(OptionField(key, label, explanation, OptionKind.SWITCH, default))
        elif annotation is int or origin in (typing.Union, types.UnionType):
            out.append(OptionField(key, label, explanation, OptionKind.NUMBER, default))
    return out


def parse_option(option: OptionField, value: Any) -> Any:
    """The record value for what the screen holds (a choice's text, a switch's bool, a number's text)."""
    if option.kind is OptionKind.SWITCH:
        return bool(value)
    if option.kind is OptionKind.CHOICE:
        for choice in option.choices:
            if str(choice) == str(value):
                return choice
        raise OptionInputError(f"{option.label}: choose one of {', '.join(map(str, option.choices))}")
    text = str(value if value is not None else "").strip()
    if not text:
        return option.default
    try:
        return int(text)
    except ValueError:
        raise OptionInputError(f"{option.label}: '{text}' is not a whole number") from None


def chosen_options(fields: list[OptionField], values: Mapping[str, Any]) -> dict[str, Any]:
    """The record's ``options``: only the rules changed from their default."""
    out: dict[str, Any] = {}
    for option in fields:
        if option.key in values:
            value = parse_option(option, values[option.key])
            if value != option.default:
                out[option.key] = value
    return out


def describe_options(fields: list[OptionField], options: Mapping[str, Any]) -> str:
    """One line saying which house rules differ from the defaults.

    >>> describe_options(option_fields("jokers-kill"), {"playoff_wins": 2})
    'House rules changed: Hands to win a play-off 2.'
    """
    changed = [f"{f.label} {_word(options[f.key])}" for f in fields if f.key in options]
    return f"House rules changed: {'; '.join(changed)}." if changed else "All house rules at their defaults."


def _word(value: Any) -> str:
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


# --- screens ---------------------------------------------------------------------------------------------------


def build_pick(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/new``: choose the game."""
    tiles: list[ft.Control] = [paragraph("Which game are you playing?")]
    for game in all_games():
        guide = get_guide(game.key)
        tiles.append(nav_tile(ctx, game.name, f"{guide.players}. {guide.summary}", f"/new/{game.key}"))
    return screen(ctx, "New game", tiles)


class SetUp:
    """The set-up screen of one game: seats, house rules, start."""

    def __init__(self, ctx: ViewContext, game: str) -> None:
        self.ctx = ctx
        self.game = game
        self.info = get_game(game)
        self.seats = Seating()
        self.night = ctx.services.nights.current()
        """The open game night, which this game will join; its players are seated to begin with."""
        if self.night is not None:
            limit = self.info.max_players or len(self.night.players)
            for name in self.night.players[:limit]:
                if self.seats.can_add(name):
                    self.seats.add(name)
        self.fields = option_fields(game)
        self.values: dict[str, Any] = {f.key: f.default for f in self.fields}
        self.seat_list = ft.Column(spacing=4)
        self.roster_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.name_field = ft.TextField(
            label="New player name",
            on_submit=self.add_typed,
            on_change=self._typed,
            expand=True,
            max_length=MAX_NAME,
            height=TAP + 24,
        )
        self.typed = ""
        self.seat_button = ft.OutlinedButton(
            content="Seat player", tooltip="Seat player", height=TAP, on_click=self.add_typed, disabled=True
        )
        self.message = ft.Text("", color=ft.Colors.ERROR, size=16, visible=False)
        self.start_button = ft.FilledButton(
            content="Start game",
            icon=ft.Icons.PLAY_ARROW,
            tooltip="Start game",
            height=TAP,
            expand=True,
            on_click=self.start,
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
        )
        self.count_hint = ft.Text("", size=15)
        self.rules_summary = ft.Text(describe_options(self.fields, {}), size=15)
        ui = table_ui(game)
        self.setup_hook = ui.setup if ui is not None else None
        """The game's own set-up (1111-9999's sides), filling ``self.extra``: the record's extra top-level keys."""
        self.extra: dict[str, Any] = {}
        self.setup_box = ft.Column(spacing=8)

    def view(self) -> ft.View:
        self.redraw()
        rules = [self._option_row(option) for option in self.fields]
        players = self.info.max_players
        span = f"{self.info.min_players} or more" if players is None else f"{self.info.min_players} to {players}"
        return screen(
            self.ctx,
            f"New game: {self.info.name}",
            [
                heading("Players, clockwise"),
                paragraph(f"{self.info.name} is for {span} players. Seat them in the order they sit, clockwise."),
                *([paragraph(f"This game joins tonight's night, {self.night.name}.")] if self.night else []),
                self.seat_list,
                ft.Row(
                    [
                        self.name_field,
                        self.seat_button,
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
                self.roster_row,
                *([heading("Seats at the table"), self.setup_box] if self.setup_hook is not None else []),
                heading("House rules"),
                *rules,
                self.rules_summary,
                self.count_hint,
                self.message,
                ft.Row([self.start_button]),
            ],
        )

    def _option_row(self, option: OptionField) -> ft.Control:
        control: ft.Control
        if option.kind is OptionKind.SWITCH:
            control = ft.Switch(
                label=option.label, value=bool(option.default), on_change=self._setter(option), height=TAP
            )
            title: list[ft.Control] = []
        elif option.kind is OptionKind.CHOICE:
            control = ft.Dropdown(
                label=option.label,
                value=str(option.default),
                options=[ft.DropdownOption(key=str(choice), text=str(choice)) for choice in option.choices],
                on_select=self._setter(option),
                tooltip=option.label,
            )
            title = [ft.Text(option.label, size=16, weight=ft.FontWeight.BOLD)]
        else:
            control = ft.TextField(
                label=option.label,
                value="" if option.default is None else str(option.default),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=self._setter(option),
                tooltip=option.label,
                height=TAP + 8,
            )
            title = [ft.Text(option.label, size=16, weight=ft.FontWeight.BOLD)]
        return ft.Column([*title, ft.Text(option.explanation, size=14), control], spacing=4)

    def _setter(self, option: OptionField) -> Callable[[Any], None]:
        def changed(event: Any) -> None:
            self.values[option.key] = event.control.value
            try:
                self.rules_summary.value = describe_options(self.fields, chosen_options(self.fields, self.values))
            except OptionInputError as exc:
                self.rules_summary.value = f"{exc}."
            refresh(self.rules_summary)

        return changed

    def redraw(self) -> None:
        rows: list[ft.Control] = []
        last = len(self.seats.names) - 1
        for i, name in enumerate(self.seats.names):
            up = icon_button(ft.Icons.ARROW_UPWARD, f"Move {name} up", self._mover(i, -1))
            down = icon_button(ft.Icons.ARROW_DOWNWARD, f"Move {name} down", self._mover(i, 1))
            for holder, allowed in ((up, i > 0), (down, i < last)):
                if isinstance(holder, ft.Semantics) and isinstance(holder.content, ft.IconButton):
                    holder.content.disabled = not allowed
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{i + 1}. {name}", size=18, expand=True, semantics_label=f"Seat {i + 1}: {name}"),
                        up,
                        down,
                        icon_button(ft.Icons.CLOSE, f"Remove {name}", self._remover(i)),
                    ]
                )
            )
        if not rows:
            rows.append(ft.Text("Nobody seated yet.", size=16))
        self.seat_list.controls = rows
        roster = [p.name for p in self.ctx.services.players.players()]
        self.roster_row.controls = [
            ft.OutlinedButton(content=name, tooltip=f"Seat {name}", height=TAP, on_click=lambda _, n=name: self.add(n))
            for name in roster
            if self.seats.can_add(name)
        ]
        try:
            verify_player_count(self.game, len(self.seats.names))
            self.start_button.disabled = False
            self.count_hint.value = f"{len(self.seats.names)} players seated."
        except SeatingError as exc:
            self.start_button.disabled = True
            self.count_hint.value = f"{exc}."
        if self.setup_hook is not None:
            self.setup_box.controls = [self.setup_hook(list(self.seats.names), self.extra)]

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
        self.redraw()

    def remove(self, index: int) -> None:
        self.seats.remove(index)
        self.redraw()

    def start(self, _: Any = None) -> None:
        try:
            verify_player_count(self.game, len(self.seats.names))
            options = chosen_options(self.fields, self.values)
            session = self.ctx.services.sessions.start(
                self.game, list(self.seats.names), options, extra=self.extra or None
            )
        except (SeatingError, OptionInputError, ScoringError, StorageError) as exc:
            self.say(f"Cannot start: {exc}. Nothing was lost; change it and try again.")
            return
        self.ctx.navigate(f"/continue/{session.id}")


def build_setup(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/new/<game>``: seat the players, set the house rules, start."""
    try:
        get_guide(params["game"])
        get_game(params["game"])
    except (UnknownGameError, ScoringError):
        raise ValueError(f"The app has no game called '{params['game']}'.") from None
    return SetUp(ctx, params["game"]).view()
