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
>>> [f.words for f in option_fields("jokers-kill") if f.key == "jokers"]
[('No Jokers', '2 Jokers', '4 Jokers')]
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.games import UnknownGameError, get_guide
from companion.money import MoneyFormat, format_money, format_plain
from companion.new_game import SideDefaults, in_words, money_feedback, option_problems, player_limit
from companion.records import StorageError
from scoring import GAMES, ScoringError, find_game
from scoring.base import MAX_NAME
from views.context import ViewContext
from views.table.entry import refresh
from views.table.games import find_panel
from views.widgets import TAP, heading, icon_button, nav_tile, paragraph, screen


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


def verify_player_count(game: str, count: int, options: Mapping[str, Any] | None = None) -> None:
    """:class:`SeatingError` unless ``count`` players can play ``game`` with these house rules (see
    :func:`companion.new_game.player_limit`: Financial Crisis's "Most players allowed", BK-15)."""
    problem = player_limit(game, options or {}).problem(count)
    if problem is not None:
        raise SeatingError(problem)


class OptionKind(enum.Enum):
    """How a house rule is set on screen."""

    CHOICE = "choice"
    """One of a few values (a drop-down)."""
    SWITCH = "switch"
    """On or off."""
    NUMBER = "number"
    """A whole number (empty: the default)."""
    MONEY = "money"
    """An amount of money, typed as the table says it (``0.25``, ``$0.25``, ``25¢``) and stored in minor units
    (cents): a record key ending in ``_cents`` (empty: the default, off)."""


@dataclass(frozen=True)
class OptionField:
    """One house rule of a game, for the set-up screen."""

    key: str
    label: str
    explanation: str
    kind: OptionKind
    default: Any
    choices: tuple[Any, ...] = ()
    words: tuple[str, ...] = ()
    """A choice's plain words, one per item of ``choices`` (what the drop-down shows; the record keeps the value)."""
    hint: str = ""
    """What an empty field means (a number or money rule whose default depends on the table)."""

    def word(self, value: Any) -> str:
        """The plain words for a value of this rule (a choice's words, "on"/"off", or the number).

        >>> field = next(f for f in option_fields("jokers-kill") if f.key == "joker_upcard")
        >>> field.word("redraw"), field.word(field.default)
        ('Bury it and turn another', 'Kills the hand')
        """
        for choice, words in zip(self.choices, self.words, strict=False):
            if str(choice) == str(value):
                return words
        return _word(value)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def _lower_first(text: str) -> str:
    """The words with a small first letter, for use mid-sentence (not an abbreviation: "JK" stays)."""
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def option_fields(game: str, money: MoneyFormat | None = None) -> list[OptionField]:
    """Every house rule of ``game``, with its label and one-line explanation from the rules guide.

    A choice's explanation uses the words its drop-down shows, a switch's says "on" or "off" like the switch:

    >>> [f.explanation for f in option_fields("jokers-kill")][:2]
    ['Default: no Jokers. Or: 2 Jokers or 4 Jokers (JK-11).', 'Default: on (JK-2).']
    >>> [f.words for f in option_fields("1111-9999") if f.key == "score"]
    [('The number set down', "Each player's best arrangement")]
    """
    model = find_game(game).record_model.model_fields["options"].annotation
    guide = {rule.key: rule for rule in get_guide(game).options}
    out: list[OptionField] = []
    for key, info in typing.cast(Any, model).model_fields.items():
        annotation = info.annotation
        default = _plain(info.default)
        rule = guide.get(key)
        label = rule.label if rule is not None else key.replace("_", " ").capitalize()
        ruling = f" ({rule.ruling})" if rule is not None else ""
        explanation = f"Default: {rule.default}. Or: {rule.alternatives}{ruling}." if rule is not None else ""
        origin = typing.get_origin(annotation)
        choices: tuple[Any, ...] | None = None
        if origin is typing.Literal:
            choices = typing.get_args(annotation)
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            choices = tuple(member.value for member in annotation)
        if choices is not None:
            words = tuple(rule.word(c) if rule is not None else str(c) for c in choices)
            said = dict(zip(choices, words, strict=True))
            others = " or ".join(_lower_first(said[c]) for c in choices if c != default)
            explanation = f"Default: {_lower_first(said[default])}. Or: {others}{ruling}."
            out.append(OptionField(key, label, explanation, OptionKind.CHOICE, default, choices, words))
        elif annotation is bool:
            explanation = f"Default: {_word(bool(default))}{ruling}."
            out.append(OptionField(key, label, explanation, OptionKind.SWITCH, default))
        elif annotation is int or origin in (typing.Union, types.UnionType):
            kind = OptionKind.MONEY if key.endswith("_cents") else OptionKind.NUMBER
            hint = f"Empty: {rule.default}" if rule is not None and default is None else ""
            if kind is OptionKind.MONEY:
                fmt = money or MoneyFormat()
                examples = f"{format_plain(25, fmt)}, {format_money(25, fmt)}" + (" or 25¢" if fmt.cent_sign else "")
                explanation = f"Default: off. Or: a stake per point, such as {examples}{ruling}."
            out.append(OptionField(key, label, explanation, kind, default, hint=hint))
    return out


def parse_option(option: OptionField, value: Any, money: MoneyFormat | None = None) -> Any:
    """The record value for what the screen holds (a choice's key, a switch's bool, a number's or amount's text).

    >>> stake = next(f for f in option_fields("bargain-bin") if f.kind is OptionKind.MONEY)
    >>> [parse_option(stake, text) for text in ("0.25", "$0.25", "25¢", "")]
    [25, 25, 25, None]
    >>> parse_option(stake, "25 cents")
    Traceback (most recent call last):
    ...
    views.new_game.OptionInputError: Vegas Rules stake per point: '25 cents' is not an amount (for example 0.25, ...)
    """
    if option.kind is OptionKind.SWITCH:
        return bool(value)
    if option.kind is OptionKind.CHOICE:
        for choice in option.choices:
            if str(choice) == str(value):
                return choice
        raise OptionInputError(f"{option.label}: choose one of {', '.join(option.words or map(str, option.choices))}")
    text = str(value if value is not None else "").strip()
    if not text:
        return option.default
    if option.kind is OptionKind.MONEY:
        feedback = money_feedback(text, money)
        if feedback.error is not None:
            raise OptionInputError(f"{option.label}: {feedback.error}")
        return feedback.cents
    try:
        return int(text)
    except ValueError:
        raise OptionInputError(f"{option.label}: '{text}' is not a whole number") from None


def chosen_options(
    fields: list[OptionField], values: Mapping[str, Any], money: MoneyFormat | None = None
) -> dict[str, Any]:
    """The record's ``options``: only the rules changed from their default."""
    out: dict[str, Any] = {}
    for option in fields:
        if option.key in values:
            value = parse_option(option, values[option.key], money)
            if value != option.default:
                out[option.key] = value
    return out


def option_errors(
    game: str, fields: list[OptionField], values: Mapping[str, Any], money: MoneyFormat | None = None
) -> dict[str, str]:
    """Each house rule whose field holds what the game refuses → the line to show (naming it by its label).

    >>> fields = option_fields("financial-crisis")
    >>> option_errors("financial-crisis", fields, {"max_players": "12", "rounds": "two"})
    {'rounds': "Number of rounds: 'two' is not a whole number", 'max_players': 'Most players allowed: \
“Most players allowed” must be a whole number from 2 to 9, not 12 (BK-15)'}
    """
    out: dict[str, str] = {}
    parsed: dict[str, Any] = {}
    for option in fields:
        if option.key not in values:
            continue
        try:
            parsed[option.key] = parse_option(option, values[option.key], money)
        except OptionInputError as exc:
            out[option.key] = str(exc)
    labels = {option.key: option.label for option in fields}
    for key, problem in option_problems(game, parsed).items():
        out.setdefault(key, f"{labels[key]}: {problem}" if key in labels else problem)
    return out


def describe_options(fields: list[OptionField], options: Mapping[str, Any], money: MoneyFormat | None = None) -> str:
    """One line saying which house rules differ from the defaults.

    >>> describe_options(option_fields("jokers-kill"), {"playoff_wins": 2, "joker_upcard": "redraw"})
    'House rules changed: A Joker turned up: bury it and turn another; Hands to win a play-off 2.'
    >>> describe_options(option_fields("bargain-bin"), {"vegas_unit_cents": 25})
    'House rules changed: Vegas Rules stake per point $0.25.'
    """
    changed = []
    for f in fields:
        if f.key not in options:
            continue
        value = options[f.key]
        if f.kind is OptionKind.CHOICE:
            changed.append(f"{f.label}: {_lower_first(f.word(value))}")
        elif f.kind is OptionKind.MONEY and isinstance(value, int):
            changed.append(f"{f.label} {format_money(value, money)}")
        else:
            changed.append(f"{f.label} {_word(value)}")
    return f"House rules changed: {'; '.join(changed)}." if changed else "All house rules at their defaults."


def _word(value: Any) -> str:
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


# --- screens ---------------------------------------------------------------------------------------------------


def build_pick(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/new``: choose the game."""
    tiles: list[ft.Control] = [paragraph("Which game are you playing?")]
    for game in GAMES:
        guide = get_guide(game.key)
        tiles.append(nav_tile(ctx, game.name, f"{guide.players}. {guide.summary}", f"/new/{game.key}"))
    return screen(ctx, "New game", tiles)


SWITCH_GROUP = "Rules you switch on or off"
"""The heading over a run of on/off house rules (each switch carries its rule's label)."""


class SetUp:
    """The set-up screen of one game: seats, house rules, start."""

    def __init__(self, ctx: ViewContext, game: str) -> None:
        self.ctx = ctx
        self.game = game
        self.info = find_game(game)
        self.money = _money_format(ctx)
        self.seats = Seating()
        self.night = ctx.services.nights.current()
        """The open game night, which this game will join; its players are seated to begin with."""
        if self.night is not None:
            limit = self.info.max_players or len(self.night.players)
            for name in self.night.players[:limit]:
                if self.seats.can_add(name):
                    self.seats.add(name)
        self.fields = option_fields(game, self.money)
        self.values: dict[str, Any] = {f.key: f.default for f in self.fields}
        self.inputs: dict[str, ft.TextField] = {}
        """The text fields of the number and money rules (their error and helper lines follow what is typed)."""
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
        """Why Start is greyed out (the seated count outside the game's limit, a house rule to fix), or the count."""
        self.limit_text = paragraph("")
        """The game's player-count limit under the house rules as they stand, shown before Start."""
        self.rules_summary = ft.Text(describe_options(self.fields, {}, self.money), size=15)
        ui = find_panel(game)
        self.setup_hook = ui.setup if ui is not None else None
        """The game's own set-up (1111-9999's sides), filling ``self.extra``: the record's extra top-level keys."""
        self.extra: dict[str, Any] = {}
        self.setup_box = ft.Column(spacing=8)
        self.sides = SideDefaults() if "sides" in self.info.record_model.model_fields else None
        """Default sides (first half A, second half B), recomputed as players are seated until set by hand."""

    def view(self) -> ft.View:
        rules = self._option_rows()
        self.redraw()
        return screen(
            self.ctx,
            f"New game: {self.info.name}",
            [
                heading("Players, clockwise"),
                self.limit_text,
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

    @staticmethod
    def _switch_group(rows: list[ft.Control]) -> ft.Control:
        title = ft.Text(SWITCH_GROUP, size=16, weight=ft.FontWeight.BOLD, semantics_label=SWITCH_GROUP)
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
                value = parse_option(option, self.values.get(option.key), self.money)
            except OptionInputError:
                continue
            if value != option.default:
                out[option.key] = value
        return out

    def check(self) -> list[str]:
        """Show what each field stored or why it is refused, the player limit, and whether Start can be pressed;
        returns the reasons it cannot (in words, each naming what to change)."""
        errors = option_errors(self.game, self.fields, self.values, self.money)
        for option in self.fields:
            field_ = self.inputs.get(option.key)
            if field_ is None:
                continue
            problem = errors.get(option.key)
            field_.error = problem.removeprefix(f"{option.label}: ") if problem else None
            if option.kind is OptionKind.MONEY:
                said = money_feedback(self.values.get(option.key), self.money, empty=option.hint)
                field_.helper = said.helper or None
        options = self.options()
        limit = player_limit(self.game, options)
        self.limit_text.value = f"{limit.text} Seat them in the order they sit, clockwise."
        if errors:
            unread = ", ".join(f"“{option.label}”" for option in self.fields if option.key in errors)
            self.rules_summary.value = f"Not read yet: {unread} (the red line under it says why)."
        else:
            self.rules_summary.value = describe_options(self.fields, options, self.money)
        blockers = [problem for problem in (limit.problem(len(self.seats.names)),) if problem is not None]
        blockers += [f"fix {problem}" for problem in errors.values()]
        self.start_button.disabled = bool(blockers)
        if blockers:
            self.count_hint.value = f"Start is greyed out: {'; '.join(blockers)}."
        else:
            self.count_hint.value = f"{len(self.seats.names)} players seated."
        return blockers

    def _refresh_start(self) -> None:
        for control in (self.count_hint, self.start_button, self.message):
            refresh(control)

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
        self.check()
        if self.setup_hook is not None:
            if self.sides is not None:
                self.extra["sides"] = self.sides.fit(self.seats.names, self.extra.get("sides") or {})
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
        self.say(None)
        self.redraw()

    def remove(self, index: int) -> None:
        self.seats.remove(index)
        self.say(None)
        self.redraw()

    def start(self, _: Any = None) -> None:
        blockers = self.check()
        if blockers:
            self.say(f"Cannot start yet: {'; '.join(blockers)}.")
            self._refresh_start()
            return
        try:
            options = chosen_options(self.fields, self.values, self.money)
            verify_player_count(self.game, len(self.seats.names), options)
            session = self.ctx.services.sessions.start(
                self.game, list(self.seats.names), options, extra=self.extra or None
            )
        except (SeatingError, OptionInputError, ScoringError, StorageError) as exc:
            self.say(f"Cannot start: {in_words(str(exc), self.game)}. Nothing was lost; change it and try again.")
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
        raise ValueError(f"The app has no game called '{params['game']}'.") from None
    return SetUp(ctx, params["game"]).view()
