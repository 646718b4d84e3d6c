"""The New-game set-up in words: the seating, the house rules as fields, how many may sit down, what a stake field
stored, which side each player reads.

Plain Python for the New-game screen (``views/new_game.py`` only draws it), tested without a page. Every text here
names a house rule by its label on the screen (``companion.guides``), never by its record key.

>>> player_limit("financial-crisis", {}).text
'Financial Crisis is for 2 to 4 players: the house rule “Most players allowed” is 4 (it goes up to 9).'
>>> print(player_limit("financial-crisis", {}).problem(5))
Financial Crisis takes at most 4 players and 5 are seated: set “Most players allowed” to 5 (up to 9) or remove ...
>>> money_feedback("25¢").helper
'Stored as $0.25 a point'
>>> in_words("'max_players' must be from 2 to 9", "financial-crisis")
'“Most players allowed” must be from 2 to 9'
>>> seats = Seating()
>>> for name in ("Ann", "Ben", " Cat "):
...     _ = seats.add(name)
>>> seats.move(2, -1).names
['Ann', 'Cat', 'Ben']
>>> seats.add("ann")
Traceback (most recent call last):
...
companion.new_game.SeatingError: Ann is already seated
>>> [(f.key, f.kind.value, f.default) for f in option_fields("jokers-kill")][:2]
[('jokers', 'choice', 0), ('upcard_to_prize', 'switch', True)]
>>> chosen_options(option_fields("jokers-kill"), {"jokers": "2", "playoff_wins": "3"})
{'jokers': 2}
>>> [f.words for f in option_fields("jokers-kill") if f.key == "jokers"]
[('No Jokers', '2 Jokers', '4 Jokers')]
"""

from __future__ import annotations

import enum
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from companion.entry_ones_to_nines import default_sides
from companion.games import get_guide
from companion.i18n import N_, Words
from companion.money import MoneyError, MoneyFormat, format_money, format_plain, parse_money
from scoring import find_game
from scoring.base import MAX_NAME, passes
from scoring.jokers_kill import Options as JokersKillOptions
from scoring.jokers_kill import deck_size
from scoring.why import Note

ENGLISH = Words.of("en")


def options_model(game: str) -> type[BaseModel]:
    """The pydantic model of ``game``'s house rules (the record's ``options``)."""
    model: type[BaseModel] = find_game(game).record_model.model_fields["options"].annotation  # type: ignore[assignment]
    return model


def labels(game: str, words: Words = ENGLISH) -> dict[str, str]:
    """Each house rule's record key → its label on the screen (in ``words``' language).

    >>> labels("jokers-kill")["playoff_wins"], labels("jokers-kill", Words.of("de"))["jokers"]
    ('Hands to win a play-off', 'Joker im Kartenspiel')
    """
    return {rule.key: words.gettext(rule.label) for rule in get_guide(game).options}


def in_words(text: str, game: str, words: Words = ENGLISH) -> str:
    """``text`` with every house-rule record key of ``game`` replaced by the rule's label, in quotes.

    >>> in_words("the max_players house rule allows up to 9", "financial-crisis")
    'the “Most players allowed” house rule allows up to 9'
    """
    names = labels(game, words)
    if not names:
        return text
    keys = "|".join(re.escape(key) for key in sorted(names, key=len, reverse=True))
    return re.sub(rf"['\"`]?\b({keys})\b['\"`]?", lambda m: f"“{names[m.group(1)]}”", text)


def _lower_first(text: str) -> str:
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


# --- the number of players ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLimit:
    """How many players a game takes under the chosen house rules, and why, in words."""

    name: str
    """The game's name."""
    low: int
    high: int | None
    """``None``: no upper limit."""
    why: str = ""
    """What sets ``high`` when a house rule does (a clause naming the rule by its label), or ``""``."""
    raise_to: tuple[str, int] | None = None
    """The house rule (its label) that can allow more players, and the most it allows."""
    open_ended: bool = False
    """The rules set no most (Jokers Kill): ``high`` is what the cards allow, said in ``why``, not in the span."""
    words: Words = field(default=ENGLISH, repr=False, compare=False)
    """The language of :attr:`text` and :meth:`problem`."""

    @property
    def span(self) -> str:
        """
        >>> PlayerLimit("Jokers Kill", 2, None).span, PlayerLimit("Bargain Bin", 4, 10).span
        ('2 or more players', '4 to 10 players')
        >>> PlayerLimit("Bargain Bin", 4, 10, words=Words.of("sv")).span
        '4 till 10 spelare'
        """
        _ = self.words.gettext
        if self.high is None or self.open_ended:
            return _("{low} or more players").format(low=self.low)
        if self.high == self.low:
            return self.words.ngettext("{n} player", "{n} players", self.low).format(n=self.low)
        return _("{low} to {high} players").format(low=self.low, high=self.high)

    @property
    def text(self) -> str:
        """One sentence for the screen, shown before Start.

        >>> PlayerLimit("Bargain Bin", 4, 10).text
        'Bargain Bin is for 4 to 10 players.'
        """
        _ = self.words.gettext
        if self.why:
            return _("{name} is for {span}: {why}.").format(name=self.name, span=self.span, why=self.why)
        return _("{name} is for {span}.").format(name=self.name, span=self.span)

    def problem(self, count: int) -> str | None:
        """Why ``count`` seated players cannot start (no full stop), or ``None`` when they can.

        >>> PlayerLimit("Bargain Bin", 4, 10).problem(3)
        'Bargain Bin needs at least 4 players and 3 are seated: seat 1 more'
        >>> PlayerLimit("Bargain Bin", 4, 10).problem(11)
        'Bargain Bin takes at most 10 players and 11 are seated: remove 1'
        >>> PlayerLimit("Bargain Bin", 4, 10).problem(4) is None
        True
        """
        _ = self.words.gettext
        seated = self.words.ngettext("{n} is seated", "{n} are seated", count).format(n=count)
        if count < self.low:
            return _("{name} needs at least {low} players and {seated}: seat {more} more").format(
                name=self.name, low=self.low, seated=seated, more=self.low - count
            )
        if self.high is not None and count > self.high:
            head = _("{name} takes at most {high} players and {seated}").format(
                name=self.name, high=self.high, seated=seated
            )
            if self.raise_to is not None and count <= self.raise_to[1]:
                label, ceiling = self.raise_to
                return _("{head}: set “{label}” to {count} (up to {ceiling}) or remove a player").format(
                    head=head, label=label, count=count, ceiling=ceiling
                )
            return _("{head}: remove {extra}").format(head=head, extra=count - self.high)
        return None


def player_limit(game: str, options: Mapping[str, Any], words: Words = ENGLISH) -> PlayerLimit:
    """The players ``game`` takes with these house rules (the record's ``options``; invalid ones count as their
    defaults): the registry's range, narrowed by a house rule that limits it. Financial Crisis allows 4 unless its
    "Most players allowed" rule says up to 9 (BK-15); Jokers Kill deals one card a player plus the up-card from one
    deck, so the Jokers in the deck set the most (JK-11).

    >>> player_limit("jokers-kill", {"jokers": 2}).high
    53
    >>> print(player_limit("jokers-kill", {}).text)
    Jokers Kill is for 2 or more players: a hand takes a card for each player and the up-card from one deck of 52 ...
    """
    info = find_game(game)
    model = options_model(game)
    try:
        chosen: Any = model.model_validate(dict(options))
    except ValidationError:
        chosen = model()
    _ = words.gettext
    names = labels(game, words)
    fields = model.model_fields
    if "max_players" in fields:
        high = int(chosen.max_players)
        ceiling = info.max_players
        label = names["max_players"]
        if ceiling is not None and high < ceiling:
            why = _("the house rule “{label}” is {high} (it goes up to {ceiling})").format(
                label=label, high=high, ceiling=ceiling
            )
        else:
            why = _("the house rule “{label}” is {high}").format(label=label, high=high)
        raise_to = (label, ceiling) if ceiling is not None and high < ceiling else None
        return PlayerLimit(info.name, info.min_players, high, why, raise_to, words=words)
    if isinstance(chosen, JokersKillOptions):
        deck = deck_size(chosen)
        rule = next(rule for rule in get_guide(game).options if rule.key == "jokers")
        high = deck - 1 if info.max_players is None else min(info.max_players, deck - 1)
        why = _(
            "a hand takes a card for each player and the up-card from one deck of {deck} cards "
            "(“{label}”: {choice}), so {high} at most"
        ).format(deck=deck, label=_(rule.label), choice=_lower_first(_(rule.word(chosen.jokers))), high=high)
        return PlayerLimit(info.name, info.min_players, high, why, open_ended=info.max_players is None, words=words)
    return PlayerLimit(info.name, info.min_players, info.max_players, words=words)


# --- house rules checked before Start ----------------------------------------------------------------------------


def option_problems(game: str, options: Mapping[str, Any], words: Words = ENGLISH) -> dict[str, str]:
    """Each house rule of ``options`` that ``game`` refuses → why, in words (in ``words``' language; empty when all
    are fine). Pydantic's own English never shows: each kind of refusal has its words.

    >>> option_problems("financial-crisis", {"max_players": 12})
    {'max_players': '“Most players allowed” must be a whole number from 2 to 9, not 12 (BK-15)'}
    >>> option_problems("jokers-kill", {"playoff_wins": 0})
    {'playoff_wins': 'at least 1'}
    >>> option_problems("jokers-kill", {"playoff_wins": 0}, Words.of("de"))
    {'playoff_wins': 'mindestens 1'}
    """
    try:
        options_model(game).model_validate(dict(options))
    except ValidationError as exc:
        out: dict[str, str] = {}
        for error in exc.errors():
            key = str(error["loc"][0]) if error["loc"] else ""
            out.setdefault(key, in_words(_said(error, words), game, words))
        return out
    return {}


_BOUNDS = {
    "greater_than_equal": ("ge", N_("at least {n}")),
    "less_than_equal": ("le", N_("at most {n}")),
    "greater_than": ("gt", N_("more than {n}")),
    "less_than": ("lt", N_("less than {n}")),
}
_KINDS = {
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "bool_type": N_("must be on or off"),
    "bool_parsing": N_("must be on or off"),
    "enum": N_("must be one of the choices"),
    "literal_error": N_("must be one of the choices"),
    "string_type": N_("must be text"),
    "extra_forbidden": N_("is not a house rule of this game"),
}
"""Pydantic's kinds of refusal, each in words a translator can say (pydantic writes its messages in English)."""


def _said(error: Any, words: Words = ENGLISH) -> str:
    ctx = error.get("ctx") or {}
    kind = error.get("type", "")
    if kind in _BOUNDS:
        bound, said = _BOUNDS[kind]
        return words.gettext(said).format(n=ctx[bound])
    note = getattr(ctx.get("error"), "why", None)
    if isinstance(note, Note):  # a rule's own refusal, as data (scoring's validators)
        return words.note(note)
    message = str(error.get("msg", "not accepted")).removeprefix("Value error, ")
    if words.code == "en":
        return message
    return words.gettext(_KINDS.get(kind, N_("not accepted")))


# --- a stake typed as money ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyFeedback:
    """What a stake field holds: the amount stored (minor units, ``None`` when empty) and the line under the field."""

    cents: int | None
    helper: str
    """What was stored, in the money format (``Stored as $0.25 a point``), or what an empty field means."""
    error: str | None = None
    """Why the text is not an amount, or ``None``."""


def money_feedback(
    text: Any, fmt: MoneyFormat | None = None, *, empty: str = "", words: Words = ENGLISH
) -> MoneyFeedback:
    """Read a stake as the player typed it (``0.25``, ``$0.25``, ``25¢``; BB-8) and say what was stored.

    >>> money_feedback("0.25").cents, money_feedback("$0.25").cents, money_feedback("25¢").cents
    (25, 25, 25)
    >>> money_feedback("", empty="Empty: Vegas Rules off")
    MoneyFeedback(cents=None, helper='Empty: Vegas Rules off', error=None)
    >>> money_feedback("0.255").error
    "'0.255' has more than two decimals: amounts are in whole cents"
    """
    fmt = fmt or MoneyFormat()
    shown = str(text if text is not None else "").strip()
    if not shown:
        return MoneyFeedback(None, empty)
    try:
        cents = parse_money(shown, fmt)
    except MoneyError as exc:
        return MoneyFeedback(None, empty, str(exc))
    return MoneyFeedback(cents, words.gettext("Stored as {amount} a point").format(amount=format_money(cents, fmt)))


# --- 1111-9999: the sides of the table row ---------------------------------------------------------------------


@dataclass
class SideDefaults:
    """Default sides while players are seated: the first half on side A, the second half on side B (OO-1),
    recomputed as players are added, removed or moved, except for a player whose side was changed by hand.

    >>> sides = SideDefaults()
    >>> current: dict[str, str] = {}
    >>> for seated in (["Ann"], ["Ann", "Ben"], ["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", "Dan"]):
    ...     current = sides.fit(seated, current)
    >>> current
    {'Ann': 'A', 'Ben': 'A', 'Cat': 'B', 'Dan': 'B'}
    >>> current["Ann"] = "B"  # tapped: Ann moves to side B
    >>> sides.fit(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], current)
    {'Ann': 'B', 'Ben': 'A', 'Cat': 'A', 'Dan': 'B', 'Eve': 'B', 'Fay': 'B'}
    """

    given: dict[str, str] = field(default_factory=dict)
    """The sides handed out last time: a side that differs from it now was changed by hand."""
    by_hand: set[str] = field(default_factory=set)

    def fit(self, players: Sequence[str], current: Mapping[str, str]) -> dict[str, str]:
        """The sides for exactly ``players`` (in seat order), given the sides as they are now."""
        for name, side in current.items():
            if name in self.given and self.given[name] != side:
                self.by_hand.add(name)
        self.by_hand &= set(players)
        default = default_sides(players)
        out = {name: current[name] if name in self.by_hand and name in current else default[name] for name in players}
        self.given = dict(out)
        return out


# --- the seating and the house rules as fields ----------------------------------------------------------------


class SeatingError(ValueError):
    """A name that cannot be seated (empty, too long, already seated)."""


class OptionInputError(ValueError):
    """A house-rule value that is not one the game accepts."""


@dataclass
class Seating:
    """The players at the table, clockwise from the first seat."""

    names: list[str] = field(default_factory=list)
    words: Words = field(default=ENGLISH, repr=False, compare=False)
    """The language of the refusals."""

    def verify_add(self, name: str) -> str:
        """The trimmed name, or :class:`SeatingError` saying why it cannot be seated."""
        _ = self.words.gettext
        clean = " ".join(str(name).split())
        if not clean:
            raise SeatingError(_("type a name first"))
        if len(clean) > MAX_NAME:
            raise SeatingError(
                _("a name has at most {most} characters ({start}… has {length})").format(
                    most=MAX_NAME, start=clean[:12], length=len(clean)
                )
            )
        for seated in self.names:
            if seated.casefold() == clean.casefold():
                raise SeatingError(_("{name} is already seated").format(name=seated))
        return clean

    def can_add(self, name: str) -> bool:
        return passes(lambda: self.verify_add(name), (SeatingError,))

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
            raise SeatingError(self.words.gettext("that player cannot move further"))
        names = self.names
        names[index], names[index + step] = names[index + step], names[index]
        return self


def verify_player_count(
    game: str, count: int, options: Mapping[str, Any] | None = None, words: Words = ENGLISH
) -> None:
    """:class:`SeatingError` unless ``count`` players can play ``game`` with these house rules (see
    :func:`companion.new_game.player_limit`: Financial Crisis's "Most players allowed", BK-15)."""
    problem = player_limit(game, options or {}, words).problem(count)
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


def option_fields(game: str, money: MoneyFormat | None = None, words: Words = ENGLISH) -> list[OptionField]:
    """Every house rule of ``game``, with its label and one-line explanation from the rules guide.

    A choice's explanation uses the words its drop-down shows, a switch's says "on" or "off" like the switch:

    >>> [f.explanation for f in option_fields("jokers-kill")][:2]
    ['Default: no Jokers. Or: 2 Jokers or 4 Jokers (JK-11).', 'Default: on (JK-2).']
    >>> [f.words for f in option_fields("1111-9999") if f.key == "score"]
    [('The number set down', "Each player's best arrangement")]
    >>> [f.explanation for f in option_fields("jokers-kill", words=Words.of("de"))][1]
    'Standard: an (JK-2).'
    """
    _ = words.gettext
    model = find_game(game).record_model.model_fields["options"].annotation
    guide = {rule.key: rule for rule in get_guide(game).options}
    out: list[OptionField] = []
    for key, info in typing.cast(Any, model).model_fields.items():
        annotation = info.annotation
        default = _plain(info.default)
        rule = guide.get(key)
        label = _(rule.label) if rule is not None else key.replace("_", " ").capitalize()
        ruling = f" ({rule.ruling})" if rule is not None else ""
        explanation = (
            _("Default: {default}. Or: {alternatives}{ruling}.").format(
                default=_(rule.default), alternatives=_(rule.alternatives), ruling=ruling
            )
            if rule is not None
            else ""
        )
        origin = typing.get_origin(annotation)
        choices: tuple[Any, ...] | None = None
        if origin is typing.Literal:
            choices = typing.get_args(annotation)
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            choices = tuple(member.value for member in annotation)
        if choices is not None:
            shown = tuple(_(rule.word(c)) if rule is not None else str(c) for c in choices)
            said = dict(zip(choices, shown, strict=True))
            others = _(" or ").join(_lower_first(said[c]) for c in choices if c != default)
            explanation = _("Default: {default}. Or: {alternatives}{ruling}.").format(
                default=_lower_first(said[default]), alternatives=others, ruling=ruling
            )
            out.append(OptionField(key, label, explanation, OptionKind.CHOICE, default, choices, shown))
        elif annotation is bool:
            explanation = _("Default: {default}{ruling}.").format(default=_(_word(bool(default))), ruling=ruling)
            out.append(OptionField(key, label, explanation, OptionKind.SWITCH, default))
        elif annotation is int or origin in (typing.Union, types.UnionType):
            kind = OptionKind.MONEY if key.endswith("_cents") else OptionKind.NUMBER
            hint = _("Empty: {default}").format(default=_(rule.default)) if rule is not None and default is None else ""
            if kind is OptionKind.MONEY:
                fmt = money or MoneyFormat()
                examples = f"{format_plain(25, fmt)}, {format_money(25, fmt)}"
                if fmt.cent_sign:
                    examples = _("{amounts} or {cents}").format(amounts=examples, cents="25¢")
                explanation = _("Default: off. Or: a stake per point, such as {examples}{ruling}.").format(
                    examples=examples, ruling=ruling
                )
            out.append(OptionField(key, label, explanation, kind, default, hint=hint))
    return out


def parse_option(option: OptionField, value: Any, money: MoneyFormat | None = None, words: Words = ENGLISH) -> Any:
    """The record value for what the screen holds (a choice's key, a switch's bool, a number's or amount's text).

    >>> stake = next(f for f in option_fields("bargain-bin") if f.kind is OptionKind.MONEY)
    >>> [parse_option(stake, text) for text in ("0.25", "$0.25", "25¢", "")]
    [25, 25, 25, None]
    >>> parse_option(stake, "25 cents")
    Traceback (most recent call last):
    ...
    companion.new_game.OptionInputError: Vegas Rules stake per point: '25 cents' is not an amount (for example ...)
    """
    if option.kind is OptionKind.SWITCH:
        return bool(value)
    if option.kind is OptionKind.CHOICE:
        for choice in option.choices:
            if str(choice) == str(value):
                return choice
        raise OptionInputError(
            words.gettext("{label}: choose one of {choices}").format(
                label=option.label, choices=", ".join(option.words or map(str, option.choices))
            )
        )
    text = str(value if value is not None else "").strip()
    if not text:
        return option.default
    if option.kind is OptionKind.MONEY:
        feedback = money_feedback(text, money, words=words)
        if feedback.error is not None:
            raise OptionInputError(f"{option.label}: {feedback.error}")
        return feedback.cents
    try:
        return int(text)
    except ValueError:
        raise OptionInputError(
            words.gettext("{label}: '{text}' is not a whole number").format(label=option.label, text=text)
        ) from None


def chosen_options(
    fields: list[OptionField], values: Mapping[str, Any], money: MoneyFormat | None = None, words: Words = ENGLISH
) -> dict[str, Any]:
    """The record's ``options``: only the rules changed from their default."""
    out: dict[str, Any] = {}
    for option in fields:
        if option.key in values:
            value = parse_option(option, values[option.key], money, words)
            if value != option.default:
                out[option.key] = value
    return out


def option_errors(
    game: str,
    fields: list[OptionField],
    values: Mapping[str, Any],
    money: MoneyFormat | None = None,
    words: Words = ENGLISH,
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
            parsed[option.key] = parse_option(option, values[option.key], money, words)
        except OptionInputError as exc:
            out[option.key] = str(exc)
    labels = {option.key: option.label for option in fields}
    for key, problem in option_problems(game, parsed, words).items():
        out.setdefault(key, f"{labels[key]}: {problem}" if key in labels else problem)
    return out


def describe_options(
    fields: list[OptionField], options: Mapping[str, Any], money: MoneyFormat | None = None, words: Words = ENGLISH
) -> str:
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
            changed.append(f"{f.label} {words.gettext(_word(value))}")
    if not changed:
        return words.gettext("All house rules at their defaults.")
    return words.gettext("House rules changed: {changes}.").format(changes="; ".join(changed))


def _word(value: Any) -> str:
    return {True: N_("on"), False: N_("off")}.get(value, str(value)) if isinstance(value, bool) else str(value)


# --- screens ---------------------------------------------------------------------------------------------------
