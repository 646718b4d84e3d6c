"""The live scoreboard: standings with positions and the last hand's points, the game's extras, the end and
play-off banners, and the hand list with each hand's points and its "why" (the notes from :mod:`scoring`).

The figures are plain functions of a :class:`~scoring.Result`, so they are tested without a page:

>>> from scoring import find_game
>>> result = find_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben", "Cat"], "hands": [
...     {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}]})
>>> [(s.place, s.name, s.total, s.last) for s in standings(result)]
[('1', 'Ann', 2, 2), ('=2', 'Ben', 0, 0), ('=2', 'Cat', 0, 0)]
>>> standings(result)[1].label
'2. Ben: 0 points (last hand +0) (equal second)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.entry import entry_word, worded_entry_title
from companion.i18n import N_, Words
from companion.money import MoneyFormat, money_in_text
from scoring import Result
from scoring import standings as scoring_standings
from scoring.parts import Part
from scoring.why import Names, Note
from views.widgets import TAP, isolated, panel

EN = Words.of("en")
"""The table's words when a caller gives none (English: the labels the browser tests find)."""


@dataclass(frozen=True)
class Line:
    """One player's line of the table's standings, read off :func:`scoring.standings` (the one standings rule:
    winners first once decided, shared places, a play-off's or sudden death's progress)."""

    place: str
    """``1``, or ``=2`` when shared."""
    name: str
    total: int
    last: int | None
    """Points from the last hand (``None`` before the first hand)."""
    word: str = "hand"
    """What the game calls a hand (``round`` in Financial Crisis and Feast and Famine)."""
    spoken_place: str = ""
    """``first``, ``equal first``: what a screen reader says for the place."""
    progress: str | None = None
    """The player's progress in a play-off, tie-break round or sudden death (``2 play-off wins``)."""
    winner: bool = False
    words: Words = EN
    """The table's language."""

    @property
    def label(self) -> str:
        """What a screen reader (and a browser test) reads: ``1. Ann: 7 points (last hand +2)``; a shared place adds
        its words (``... (equal first)``), a play-off its progress."""
        _ = self.words
        last = ""
        if self.last is not None:
            said = _LAST.get(self.word, _LAST["hand"])
            last = " " + _.gettext(said).format(points=f"{self.last:+d}")
        points = _.ngettext("{n} point", "{n} points", abs(self.total)).format(n=self.total)
        shared = f" ({self.spoken_place})" if self.place.startswith("=") else ""
        progress = f", {self.progress}" if self.progress else ""
        return f"{self.place.lstrip('=')}. {self.name}: {points}{last}{shared}{progress}"


_LAST = {"hand": N_("(last hand {points})"), "round": N_("(last round {points})")}


def standings(result: Result, words: Words = EN) -> list[Line]:
    """The standings as the table shows them: :func:`scoring.standings` with each player's last-hand points."""
    last = result.hands[-1].points if result.hands else None
    word = entry_word(result.game)
    return [
        Line(
            f"={row.place}" if row.shared else str(row.place),
            row.player,
            row.total,
            None if last is None else last.get(row.player, 0),
            word,
            _said(words, row.place_note, row.spoken_place) or row.spoken_place,
            _said(words, row.progress_note, row.progress),
            row.winner,
            words,
        )
        for row in scoring_standings(result)
    ]


def _said(words: Words, note: Note | None, english: str | None) -> str | None:
    """A note of scoring in the table's language, or its English text when it came without one."""
    return words.note(note) if note is not None else english


_KINDS = {"playoff": N_("Play-off"), "tiebreak": N_("Tie-break"), "sudden-death": N_("Sudden death")}


def progress_text(result: Result, words: Words = EN) -> str:
    """The extra part's progress in one line (``Play-off: Ann 2 play-off wins, Ben 1 play-off win``), or ``""``.

    >>> from scoring import find_game
    >>> progress_text(find_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben"]}))
    ''
    """
    progress = result.part_progress()
    if not progress:
        return ""
    kind = result.pending.kind if result.pending is not None else None
    word = words.gettext(_KINDS[kind]) if kind in _KINDS else ""
    body = ", ".join(f"{name}: {words.note(entry.note)}" for name, entry in progress.items())
    return f"{word}: {body}" if word else body


def verdict(result: Result, words: Words = EN) -> tuple[str, list[str]] | None:
    """The end or play-off banner: a title and the lines under it; ``None`` mid-game. At the end the lines are the
    verdict's headline and each winner's reason (:attr:`scoring.Result.verdict`, never notes picked by words).

    >>> from scoring import find_game
    >>> verdict(find_game("jokers-kill").score({"game": "jokers-kill", "players": ["Ann", "Ben"]})) is None
    True
    >>> title, lines = verdict(find_game("bargain-bin").score({"game": "bargain-bin", "players": ["A", "B", "C", "D"],
    ...     "options": {"target": 1}, "hands": [{"scores": {"A": 10, "B": 4, "C": -5, "D": 10}}]}))
    >>> for line in [title, *lines]:  # doctest: +ELLIPSIS
    ...     print(line)
    A and D win the game
    A and D win: both reached the target of 1 game point in the same hand.
    A ...
    D ...
    """
    said = result.verdict
    _ = words.gettext
    headline = reasons = None
    if said is not None:
        headline = words.note(said.headline_why) if said.headline_why is not None else said.headline
        reasons = {
            name: words.note(said.reasons_why[name]) if name in said.reasons_why else reason
            for name, reason in said.reasons.items()
        }
    if result.cancelled:
        return _("The game was called off"), [headline] if headline is not None else []
    if result.finished:
        lines: list[str] = []
        if headline is not None and reasons is not None:
            lines.append(headline)
            lines += [reasons[name] for name in result.winners if name in reasons]
        if not result.winners:
            return _("Nobody wins the game"), lines
        names = words.note(Note.of("{names}", names=Names.of(result.winners)))
        won = words.ngettext("{names} wins the game", "{names} win the game", len(result.winners))
        return won.format(names=names), lines
    if result.pending is not None:
        kind = _(_KINDS[result.pending.kind])
        progress = progress_text(result, words)
        players = words.note(Note.of("{names}", names=Names.of(result.pending.players)))
        return f"{kind}: {players}", [progress] if progress else []
    return None


@dataclass(frozen=True)
class HandLine:
    """One row of the hand list: a hand of the main game, or an entry of an extra part (a Jokers Kill play-off
    hand, a Feast and Famine tie-break round, a 1111-9999 sudden-death hand)."""

    part: Part
    """The part of the record the entry is in: the main game's hands or an extra part."""
    index: int
    title: str
    points: str
    notes: tuple[str, ...]

    @property
    def slug(self) -> str:
        """The last segment of the route that corrects it (``hand-2``, ``tiebreak-1``, ``sudden-death-1``)."""
        return self.part.entry_slug(self.index)

    @property
    def label(self) -> str:
        """What a screen reader (and a browser test) reads: ``Tie-break round 1: Ann 9, Ben 10``."""
        return f"{self.title}: {self.points}"


def hand_lines(
    result: Result, money: MoneyFormat | None = None, newest: int | None = None, words: Words = EN
) -> list[HandLine]:
    """Every hand, then every entry of the extra part a tie needed, newest last, with its points and notes; with
    ``newest``, only that many of the newest (what the hand list shows: a long game's older hands are not read).

    >>> from scoring import find_game
    >>> tied = [{"dealer": "A", "outcome": {"A": 5, "B": 5}}, {"dealer": "B", "outcome": {"A": "out", "B": "out"}}]
    >>> result = find_game("feast-and-famine").score({"game": "feast-and-famine", "players": ["A", "B"],
    ...     "options": {"circuits": 1}, "hands": tied, "tiebreak": {"outcome": {"A": 7, "B": "out"}}})
    >>> [(line.label, line.slug) for line in hand_lines(result)]
    [('Round 1: A +5, B +5', 'hand-1'), ('Round 2: no points', 'hand-2'), ('Tie-break round 1: A 7, B 0', 'tiebreak-1')]
    >>> hand_lines(result)[-1].notes[-1]  # the same "why" as a hand's
    'A wins the game with the highest tie-break score, 7; tie-break scores are not added to the totals (rule 8.3, ...'
    >>> [line.slug for line in hand_lines(result, newest=2)], line_count(result)
    (['hand-2', 'tiebreak-1'], 3)
    """
    extra = _extra_lines(result, words)
    first = 0 if newest is None else max(0, len(result.hands) - max(0, newest - len(extra)))
    lines = [
        HandLine(
            Part.HANDS,
            i,
            worded_entry_title(words, result.game, Part.HANDS, i),
            _points_text(hand.points, words),
            tuple(money_in_text(note, money) for note in _notes(hand, words)),
        )
        for i, hand in enumerate(result.hands[first:], start=first)
    ]
    lines.extend(extra)
    return lines if newest is None else lines[-newest:] if newest else []


def line_count(result: Result) -> int:
    """How many lines :func:`hand_lines` gives (without building them)."""
    return len(result.hands) + len(_extra_lines(result))


def _notes(hand: Any, words: Words, english: Sequence[str] | None = None) -> list[str]:
    """A hand's notes in the table's language (its English ``notes`` when it has no notes as data)."""
    why = getattr(hand, "why", None)
    notes = list(english if english is not None else getattr(hand, "notes", None) or [])
    if why and len(why) == len(notes) and words.code != "en":
        return [words.note(note) for note in why]
    return notes


def _extra_lines(result: Result, words: Words = EN) -> list[HandLine]:
    """The entries of the extra part a tie needed (few: a tie-break, a play-off, sudden death)."""
    lines: list[HandLine] = []
    for i, hand in enumerate(getattr(result, "playoff", None) or []):
        data = hand if isinstance(hand, dict) else hand.model_dump()
        winner = data.get("winner")
        lines.append(
            HandLine(
                Part.PLAYOFF,
                i,
                worded_entry_title(words, result.game, Part.PLAYOFF, i),
                words.gettext("{name} wins").format(name=winner) if winner else words.gettext("nobody wins"),
                tuple(_notes(hand, words, data.get("notes") or ())),
            )
        )
    notes = getattr(result, "tiebreak_notes", None) or []
    worded = getattr(result, "tiebreak_why", None) or []
    for i, points in enumerate(getattr(result, "tiebreaks", None) or []):
        why = tuple(notes[i]) if i < len(notes) else ()
        if words.code != "en" and i < len(worded) and len(worded[i]) == len(why):
            why = tuple(words.note(note) for note in worded[i])
        title = worded_entry_title(words, result.game, Part.TIEBREAK, i)
        lines.append(HandLine(Part.TIEBREAK, i, title, _scores_text(points, words), why))
    for i, hand in enumerate(getattr(result, "sudden_death_hands", None) or []):
        data = hand if isinstance(hand, dict) else hand.model_dump()
        lines.append(
            HandLine(
                Part.SUDDEN_DEATH,
                i,
                worded_entry_title(words, result.game, Part.SUDDEN_DEATH, i),
                _scores_text(data.get("points") or {}, words),
                tuple(_notes(hand, words, data.get("notes") or ())),
            )
        )
    return lines


def _scores_text(points: Mapping[str, int], words: Words = EN) -> str:
    """The scores of an extra-part entry, zeros included (they are not added to the totals)."""
    return ", ".join(f"{name} {value}" for name, value in points.items()) or words.gettext("no scores")


def _points_text(points: dict[str, int], words: Words = EN) -> str:
    scored = [f"{name} {value:+d}" for name, value in points.items() if value]
    return ", ".join(scored) if scored else words.gettext("no points")


# --- Flet ------------------------------------------------------------------------------------------------------


def _text(size: int, *, bold: bool = False, width: int | None = None, expand: bool = False) -> ft.Text:
    """A one-line text that never wraps (long names end in an ellipsis)."""
    return ft.Text(
        "",
        size=size,
        weight=ft.FontWeight.BOLD if bold else None,
        width=width,
        expand=expand,
        no_wrap=True,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


LAST_WIDTH = 56
"""The scoreboard's "Last" column: room for a 4-digit hand ("+1866", a 1111-9999 gap) on a 360 px phone."""
PLACE_WIDTH = 28
"""The scoreboard's place column ("=10")."""
TOTAL_WIDTH = 64
"""The scoreboard's "Total" column: a 4-digit total."""
ROW_SPACING = 8
"""The room between the scoreboard's columns: what is left is the name's (a 10-letter name whole at 360 px)."""


class Scoreboard:
    """The full standings (place, name, last hand, total; a play-off's progress under the name) and the game's
    extras. Made once per screen and updated in place: a row a place, so a redraw changes the texts and labels,
    never the controls or their order, and a confirmed hand sends only what changed."""

    def __init__(self, words: Words = EN) -> None:
        self.words = words
        _ = words.gettext
        self._rows: list[tuple[ft.Semantics, list[ft.Text]]] = []
        self.header = ft.Row(
            [
                ft.Text("#", width=PLACE_WIDTH),
                ft.Text(_("Player"), expand=True),
                ft.Text(_("Last"), width=LAST_WIDTH, text_align=ft.TextAlign.END),
                ft.Text(_("Total"), width=TOTAL_WIDTH, text_align=ft.TextAlign.END),
            ],
            spacing=ROW_SPACING,
        )
        self.rows = ft.Column(spacing=6)
        self.extras = ft.Text("", size=16, visible=False)
        self.control = panel(ft.Column([self.header, self.rows, self.extras], spacing=6))

    def _row(self) -> ft.Semantics:
        """One place of the standings (the first row always shows the first place, whoever holds it), read out as
        one line by a screen reader."""
        place, who = _text(16, width=PLACE_WIDTH), _text(18, bold=True)
        last, total = _text(15, width=LAST_WIDTH), _text(20, bold=True, width=TOTAL_WIDTH)
        last.color = ft.Colors.ON_SURFACE_VARIANT
        last.text_align = total.text_align = ft.TextAlign.END
        progress = _text(14)
        progress.visible = False
        row = ft.Semantics(
            container=True,
            exclude_semantics=True,
            content=ft.Row(
                [place, ft.Column([who, progress], spacing=0, expand=True), last, total],
                spacing=ROW_SPACING,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        self._rows.append((row, [place, who, last, total, progress]))
        return row

    def show(self, result: Result, extras: Sequence[tuple[str, str]]) -> None:
        lines = standings(result, self.words)
        if len(lines) != len(self._rows):  # the first show (a table's players never change during a game)
            self._rows.clear()
            self.rows.controls = [self._row() for _ in lines]
        for line, (row, (place, who, last, total, progress)) in zip(lines, self._rows, strict=True):
            row.label = line.label
            place.value = line.place
            who.value = line.name
            last.value = "" if line.last is None else f"{line.last:+d}"
            total.value = str(line.total)
            progress.value = line.progress or ""
            progress.visible = bool(line.progress)
        text = " · ".join(f"{self.words.gettext(label)}: {value}" for label, value in extras)
        self.extras.value = text
        self.extras.semantics_label = text or None
        self.extras.visible = bool(text)


STRIP_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 6, "sm": 4, "md": 3, "xl": 12 / 5}
"""A chip's share of the strip's 12 columns: two players a row on a portrait phone (ten players in five rows of one
line each, every name whole up to 10 characters at 360 px), more on a wider screen."""
STRIP_ROW = 18
"""The height of one line of the strip: place, name and total side by side."""


class StandingsStrip:
    """The compact standings a phone keeps on screen while a hand is entered: one line a player (place, name, total)
    two players a row on a phone, and the play-off's (tie-break's, sudden death's) progress under them.

    The strip is a row of places, made once: the first chip always shows the first place, whoever holds it. A
    confirmed hand that changes the order changes the chips' texts and labels, never the row of chips itself, which
    Flet's client would build again whole with every chip in it."""

    def __init__(self, players: Sequence[str], words: Words = EN) -> None:
        self.words = words
        self._chips: list[tuple[ft.Semantics, ft.Text, ft.Text, ft.Text]] = []
        self.grid = ft.ResponsiveRow(spacing=4, run_spacing=2)
        self.progress = ft.Text("", size=14, visible=False)
        # Its own node for a screen reader: the chips are sorted among themselves, in place order (1, 2 on the first
        # row, 3, 4 on the next). Without it they are sorted with the Scoreboard button beside the strip, which
        # spans two rows of chips, and Flutter's reading order takes the left column first (1, 3, then 2).
        self.control = ft.Semantics(container=True, content=ft.Column([self.grid, self.progress], spacing=2))

    def _chip(self) -> ft.Semantics:
        """One place of the strip, read out as one line (``1. Ann: 7 points (last hand +2)``) by a screen reader
        anywhere on the chip."""
        place, who, total = _text(11), _text(12, expand=True), _text(14, bold=True)
        place.color = ft.Colors.ON_SURFACE_VARIANT
        chip = ft.Semantics(
            container=True,
            exclude_semantics=True,
            col=STRIP_COLUMNS,
            content=ft.Container(
                content=ft.Row([place, who, total], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                height=STRIP_ROW,
                padding=ft.Padding.symmetric(horizontal=4),
                border_radius=6,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            ),
        )
        self._chips.append((chip, place, who, total))
        return chip

    def show(self, result: Result) -> None:
        lines = standings(result, self.words)
        if len(lines) != len(self._chips):  # the first show (a table's players never change during a game)
            self._chips.clear()
            self.grid.controls = [self._chip() for _ in lines]
        for line, (chip, place, who, total) in zip(lines, self._chips, strict=True):
            chip.label = line.label
            place.value = line.place
            who.value = line.name
            total.value = str(line.total)
            total.color = ft.Colors.PRIMARY if line.winner else None
        text = progress_text(result, self.words)
        self.progress.value = text
        self.progress.semantics_label = text or None
        self.progress.visible = bool(text)


class VerdictBanner:
    """The end (or play-off) banner: the title, then the verdict's headline and each winner's reason."""

    def __init__(self, words: Words = EN) -> None:
        self.words = words
        self.title = ft.Text("", theme_style=ft.TextThemeStyle.HEADLINE_SMALL)
        self.lines = ft.Column(spacing=6)
        self.control = ft.Container(
            content=ft.Column([self.title, self.lines], spacing=6),
            padding=ft.Padding.all(12),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            border_radius=12,
            visible=False,
        )

    def show(self, result: Result) -> None:
        said = verdict(result, self.words)
        self.control.visible = said is not None
        if said is None:
            return
        title, lines = said
        self.title.value = title
        self.title.semantics_label = title
        if [t.value for t in self.lines.controls if isinstance(t, ft.Text)] != lines:
            self.lines.controls = [ft.Text(line, size=16, semantics_label=line) for line in lines]


def standings_panel(result: Result, extras: Sequence[tuple[str, str]], words: Words = EN) -> ft.Control:
    """A standings panel drawn once (the live view)."""
    board = Scoreboard(words)
    board.show(result, extras)
    return board.control


def verdict_panel(result: Result, words: Words = EN) -> ft.Control | None:
    """The end or play-off banner drawn once (the live view); ``None`` mid-game."""
    if verdict(result, words) is None:
        return None
    banner = VerdictBanner(words)
    banner.show(result)
    return banner.control


def hand_list(
    result: Result,
    open_hand: Callable[[HandLine], None] | None,
    cache: dict[Any, ft.Control] | None = None,
    money: MoneyFormat | None = None,
    newest: int | None = None,
    words: Words = EN,
) -> ft.Column:
    """The hands (tie-break rounds, sudden-death hands...), newest first (only ``newest`` of them when given);
    tapping one opens it for correction (when ``open_hand`` is given; each tappable row is labelled ``Hand 2: Ann
    +3. Tap to correct``). Rows found in ``cache`` (by what they show) are reused, so a redraw sends only the new
    rows to the page."""
    tiles: list[ft.Control] = []
    kept: dict[Any, ft.Control] = {}
    _ = words.gettext
    for line in reversed(hand_lines(result, money, newest, words)):
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
            tooltip=_("{line}. Tap to correct").format(line=line.label) if open_hand else line.title,
            min_height=TAP,
            is_three_line=True,
        )
        row = (
            ft.Semantics(
                label=_("{line}. Tap to correct").format(line=line.label),
                button=True,
                container=True,
                on_tap=opener,
                content=tile,
            )
            if open_hand is not None
            else tile
        )
        tiles.append(isolated(row))  # never changed once shown: the hand list's update does not walk into it
        kept[key] = tiles[-1]
    if cache is not None:
        cache.clear()
        cache.update(kept)
    word = entry_word(result.game)
    if not tiles:
        tiles.append(ft.Text(_(_NONE_YET.get(word, _NONE_YET["hand"])), size=16))
    heading = _(_HEADINGS.get(word, _HEADINGS["hand"]))
    return ft.Column([ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM), *tiles], spacing=4)


_NONE_YET = {"hand": N_("No hands yet."), "round": N_("No rounds yet.")}
_HEADINGS = {"hand": N_("Hands"), "round": N_("Rounds")}
