"""The live scoreboard: standings with positions and the last hand's points, the game's extras, the end and
play-off banners, and the hand list with each hand's points and its "why" (the notes from :mod:`scoring`).

The figures are plain functions of a :class:`~scoring.Result`, so they are tested without a page:

>>> from scoring import get_game
>>> result = get_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"], "hands": [
...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]})
>>> [(s.place, s.name, s.total, s.last) for s in standings(result)]
[('1', 'Ann', 2, 2), ('=2', 'Ben', 0, 0), ('=2', 'Cat', 0, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.entry import entry_title, entry_word
from companion.money import MoneyFormat, money_in_text
from scoring import Result
from scoring.base import join_names
from views.table.entry import EntryTarget
from views.widgets import TAP, panel

PART_TITLES = {"playoff": "Play-off hand", "tiebreak": "Tie-break round", "sudden_death": "Sudden-death hand"}


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings."""

    place: str
    """``1``, or ``=2`` when shared."""
    name: str
    total: int
    last: int | None
    """Points from the last hand (``None`` before the first hand)."""
    word: str = "hand"
    """What the game calls a hand (``round`` in Financial Crisis and Feast and Famine)."""

    @property
    def label(self) -> str:
        """What a screen reader (and a browser test) reads: ``1. Ann: 7 points (last hand +2)``."""
        last = "" if self.last is None else f" (last {self.word} {self.last:+d})"
        points = "point" if abs(self.total) == 1 else "points"
        return f"{self.place.lstrip('=')}. {self.name}: {self.total} {points}{last}"


LOWEST_WINS = frozenset({"1111-9999"})
"""Games whose lowest total wins (1111-9999, rule 8): their standings put the lowest total first."""


def standings(result: Result) -> list[Standing]:
    """Players by total, highest first (lowest first in :data:`LOWEST_WINS` games; seating order among equals),
    with shared places marked ``=``."""
    sign = 1 if result.game in LOWEST_WINS else -1
    order = sorted(result.players, key=lambda name: (sign * result.totals[name], result.players.index(name)))
    last = result.hands[-1].points if result.hands else None
    rows: list[Standing] = []
    word = entry_word(result.game)
    for name in order:
        total = result.totals[name]
        place = 1 + sum(1 for other in result.players if sign * result.totals[other] < sign * total)
        shared = sum(1 for other in result.players if result.totals[other] == total) > 1
        shown = None if last is None else last[name]
        rows.append(Standing(f"={place}" if shared else str(place), name, total, shown, word))
    return rows


def verdict(result: Result) -> tuple[str, list[str]] | None:
    """The end or play-off banner: a headline and the notes naming the rule that decided; ``None`` mid-game.

    >>> from scoring import get_game
    >>> verdict(get_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben"]})) is None
    True
    """
    notes = [str(n) for n in (getattr(result, "notes", None) or [])]
    if result.cancelled:
        return "The game was called off", notes
    if result.finished:
        winners = join_names(result.winners) if result.winners else "Nobody"
        verb = "wins" if len(result.winners) == 1 else "win"
        if not notes:
            notes = [f"{winners} {'has' if len(result.winners) == 1 else 'have'} the most points."]
        return f"{winners} {verb} the game", notes
    if result.pending is not None:
        kind = {"playoff": "Play-off", "tiebreak": "Tie-break", "sudden-death": "Sudden death"}[result.pending.kind]
        return f"{kind}: {join_names(result.pending.players)}", notes
    return None


@dataclass(frozen=True)
class HandLine:
    """One row of the hand list: a hand of the main game, or an entry of an extra part (a Jokers Kill play-off
    hand, a Feast and Famine tie-break round, a 1111-9999 sudden-death hand)."""

    part: str
    """The record key of the entry: ``hands``, ``playoff``, ``tiebreak`` or ``sudden_death``."""
    index: int
    title: str
    points: str
    notes: tuple[str, ...]

    @property
    def slug(self) -> str:
        """The last segment of the route that corrects it (``hand-2``, ``tiebreak-1``, ``sudden-death-1``)."""
        return EntryTarget(self.part, self.index).slug

    @property
    def label(self) -> str:
        """What a screen reader (and a browser test) reads: ``Tie-break round 1: Ann 9, Ben 10``."""
        return f"{self.title}: {self.points}"


def hand_lines(result: Result, money: MoneyFormat | None = None) -> list[HandLine]:
    """Every hand, then every entry of the extra part a tie needed, newest last, with its points and notes.

    >>> from scoring import get_game
    >>> tied = [{"dealer": "A", "outcome": {"A": 5, "B": 5}}, {"dealer": "B", "outcome": {"A": "out", "B": "out"}}]
    >>> result = get_game("feast-and-famine").score({"game": "feast-and-famine", "players": ["A", "B"],
    ...     "options": {"circuits": 1}, "hands": tied, "tiebreak": {"outcome": {"A": 7, "B": "out"}}})
    >>> [(line.label, line.slug) for line in hand_lines(result)]
    [('Round 1: A +5, B +5', 'hand-1'), ('Round 2: no points', 'hand-2'), ('Tie-break round 1: A 7, B 0', 'tiebreak-1')]
    >>> hand_lines(result)[-1].notes[-1]  # the same "why" as a hand's
    'A wins the game with the highest tie-break score, 7; tie-break scores are not added to the totals (rule 8.3, ...'
    """
    lines = [
        HandLine(
            "hands",
            i,
            entry_title(result.game, "hands", i),
            _points_text(hand.points),
            tuple(money_in_text(note, money) for note in hand.notes),
        )
        for i, hand in enumerate(result.hands)
    ]
    for i, hand in enumerate(getattr(result, "playoff", None) or []):
        data = hand if isinstance(hand, dict) else hand.model_dump()
        winner = data.get("winner")
        lines.append(
            HandLine(
                "playoff",
                i,
                f"{PART_TITLES['playoff']} {i + 1}",
                f"{winner} wins" if winner else "nobody wins",
                tuple(data.get("notes") or ()),
            )
        )
    notes = getattr(result, "tiebreak_notes", None) or []
    for i, points in enumerate(getattr(result, "tiebreaks", None) or []):
        why = tuple(notes[i]) if i < len(notes) else ()
        lines.append(HandLine("tiebreak", i, f"{PART_TITLES['tiebreak']} {i + 1}", _scores_text(points), why))
    for i, hand in enumerate(getattr(result, "sudden_death_hands", None) or []):
        data = hand if isinstance(hand, dict) else hand.model_dump()
        lines.append(
            HandLine(
                "sudden_death",
                i,
                f"{PART_TITLES['sudden_death']} {i + 1}",
                _scores_text(data.get("points") or {}),
                tuple(data.get("notes") or ()),
            )
        )
    return lines


def _scores_text(points: Mapping[str, int]) -> str:
    """The scores of an extra-part entry, zeros included (they are not added to the totals)."""
    return ", ".join(f"{name} {value}" for name, value in points.items()) or "no scores"


def _points_text(points: dict[str, int]) -> str:
    scored = [f"{name} {value:+d}" for name, value in points.items() if value]
    return ", ".join(scored) if scored else "no points"


# --- Flet ------------------------------------------------------------------------------------------------------


def standings_panel(result: Result, extras: Sequence[tuple[str, str]]) -> ft.Control:
    rows: list[ft.Control] = []
    for row in standings(result):
        last = "" if row.last is None else f"{row.last:+d}"
        rows.append(
            ft.Semantics(
                label=row.label,
                container=True,
                exclude_semantics=True,
                content=ft.Row(
                    [
                        ft.Text(row.place, size=18, width=40),
                        ft.Text(row.name, size=20, weight=ft.FontWeight.BOLD, expand=True),
                        ft.Text(last, size=16, width=48, color=ft.Colors.ON_SURFACE_VARIANT),
                        ft.Text(str(row.total), size=24, weight=ft.FontWeight.BOLD, width=56),
                    ]
                ),
            )
        )
    header = ft.Row(
        [
            ft.Text("#", width=40),
            ft.Text("Player", expand=True),
            ft.Text("Last", width=48),
            ft.Text("Total", width=56),
        ]
    )
    body: list[ft.Control] = [header, *rows]
    if extras:
        text = " · ".join(f"{label}: {value}" for label, value in extras)
        body.append(ft.Text(text, size=16, semantics_label=text))
    return panel(ft.Column(body, spacing=6))


def verdict_panel(result: Result) -> ft.Control | None:
    said = verdict(result)
    if said is None:
        return None
    headline, notes = said
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(headline, theme_style=ft.TextThemeStyle.HEADLINE_SMALL, semantics_label=headline),
                *[ft.Text(note, size=16) for note in notes],
            ],
            spacing=6,
        ),
        padding=ft.Padding.all(12),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border_radius=12,
    )


def hand_list(
    result: Result,
    open_hand: Callable[[HandLine], None] | None,
    cache: dict[Any, ft.Control] | None = None,
    money: MoneyFormat | None = None,
) -> ft.Control:
    """The hands (tie-break rounds, sudden-death hands...), newest first; tapping one opens it for correction (when
    ``open_hand`` is given; each tappable row is labelled ``Hand 2: Ann +3. Tap to correct``). Rows found in
    ``cache`` (by what they show) are reused, so a redraw sends only the new rows to the page."""
    tiles: list[ft.Control] = []
    kept: dict[Any, ft.Control] = {}
    for line in reversed(hand_lines(result, money)):
        key = (line, open_hand is not None)
        if cache is not None and key in cache:
            tiles.append(cache[key])
            kept[key] = cache[key]
            continue

        def opener(_: Any, line: HandLine = line) -> None:
            if open_hand is not None:
                open_hand(line)

        tile = ft.ListTile(
            title=ft.Text(line.label, size=17, weight=ft.FontWeight.W_500),
            subtitle=ft.Text("\n".join(line.notes), size=14),
            trailing=ft.Icon(ft.Icons.EDIT) if open_hand is not None else None,
            on_click=opener if open_hand is not None else None,
            tooltip=f"{line.label}. Tap to correct" if open_hand else line.title,
            min_height=TAP,
            is_three_line=True,
        )
        tiles.append(
            ft.Semantics(label=f"{line.label}. Tap to correct", button=True, container=True, content=tile)
            if open_hand is not None
            else tile
        )
        kept[key] = tiles[-1]
    if cache is not None:
        cache.clear()
        cache.update(kept)
    word = entry_word(result.game)
    if not tiles:
        tiles.append(ft.Text(f"No {word}s yet.", size=16))
    heading = f"{word.capitalize()}s"
    return ft.Column([ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM), *tiles], spacing=4)
