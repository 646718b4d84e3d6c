"""The standings and the verdict as History and the live view show them (the table's scoreboard can use the same).

Both come from :mod:`scoring`: the places of :func:`scoring.standings` (players level share a place, shown ``=1``
and spoken "equal first"; during a play-off, a tie-break round or sudden death a player in it shows that part's
progress) and :attr:`scoring.Result.verdict` (a headline and one sentence per winner). Nothing here ranks players
or reads the notes to find out who won.

>>> import scoring
>>> hand = {"table": "4239", "numbers": {"Ann": "7744", "Ben": "6339", "Cat": "7224"}}
>>> tied = scoring.score({"game": "1111-9999", "players": ["Ann", "Ben", "Cat"],
...                       "sides": {"Ann": "A", "Ben": "A", "Cat": "B"}, "hands": [hand, hand]})
>>> [row_label(s, last=None) for s in scoring.standings(tied)]  # OO-E10: Ben and Cat tie for the lowest total
['1. Ben: 4200 points (in sudden death), equal first', '1. Cat: 4200 points (in sudden death), equal first', \
'3. Ann: 7010 points']
>>> said(tied)
('Sudden death: Ben and Cat', [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import flet as ft

from companion.i18n import N_, Words
from scoring import Result, Standing, standings
from scoring.why import Names, Note
from views.widgets import panel

EN = Words.of("en")
"""The words when a caller gives none (English: the labels the browser tests find)."""


def place_text(standing: Standing) -> str:
    """``1``, or ``=1`` when the place is shared."""
    return f"={standing.place}" if standing.shared else str(standing.place)


def _points(total: int, words: Words = EN) -> str:
    return words.ngettext("{n} point", "{n} points", abs(total)).format(n=total)


def _place(standing: Standing, words: Words) -> str:
    """The place in words (``equal first``), in the table's language."""
    return words.note(standing.place_note) if standing.place_note is not None else standing.spoken_place


def _progress(standing: Standing, words: Words) -> str | None:
    """The player's progress in an extra part (``2 play-off wins``), in the table's language."""
    return words.note(standing.progress_note) if standing.progress_note is not None else standing.progress


def row_label(standing: Standing, *, last: int | None, words: Words = EN) -> str:
    """What a screen reader (and a browser test) reads for one row of the live standings:
    ``1. Ann: 7 points (last hand +2)``; a shared place ends ``, equal first``; a player in the play-off, tie-break
    round or sudden death shows its progress instead of the last hand (``(2 play-off wins)``)."""
    if standing.progress is not None:
        detail = f" ({_progress(standing, words)})"
    else:
        detail = "" if last is None else " " + words.gettext("(last hand {points})").format(points=f"{last:+d}")
    shared = f", {_place(standing, words)}" if standing.shared else ""
    return f"{standing.place}. {standing.player}: {_points(standing.total, words)}{detail}{shared}"


def final_label(standing: Standing, words: Words = EN) -> str:
    """One line of History's standings: ``1. Ben: 12``, or ``1. Ann: 10, equal first`` when shared."""
    shared = f", {_place(standing, words)}" if standing.shared else ""
    return f"{standing.place}. {standing.player}: {standing.total}{shared}"


def row_labels(result: Result, words: Words = EN) -> list[str]:
    """The labels of the live standings' rows, best first (:func:`row_label`)."""
    last = _last_points(result)
    return [row_label(s, last=None if last is None else last.get(s.player), words=words) for s in standings(result)]


def _last_points(result: Result) -> Mapping[str, int] | None:
    """The main game's last hand's points, while no extra part is under way (then each player in it shows its
    progress, and the last hand's points say nothing any more)."""
    if not result.hands or result.part_progress():
        return None
    return result.hands[-1].points


_WHOLE = {
    "main game": N_("Main game"),
    "play-off": N_("Play-off"),
    "tie-break": N_("Tie-break"),
    "sudden death": N_("Sudden death"),
}


def said(result: Result, words: Words = EN) -> tuple[str, list[str]] | None:
    """The verdict in words: its headline and one sentence per winner (``result.verdict``), or, while a tie is
    being settled, the extra part and who plays it (``Play-off: Ann and Ben``); ``None`` mid-game."""
    verdict = result.verdict
    if verdict is not None:
        if words.code == "en" or verdict.headline_why is None:
            return verdict.headline, list(verdict.reasons.values())
        reasons = [
            words.note(verdict.reasons_why[name]) if name in verdict.reasons_why else reason
            for name, reason in verdict.reasons.items()
        ]
        return words.note(verdict.headline_why), reasons
    if result.pending is not None:
        whole = result.pending.part.whole
        kind = words.gettext(_WHOLE[whole]) if whole in _WHOLE else f"{whole[:1].upper()}{whole[1:]}"
        return f"{kind}: {words.note(Note.of('{names}', names=Names.of(result.pending.players)))}", []
    return None


# --- Flet ------------------------------------------------------------------------------------------------------


def verdict_panel(result: Result, words: Words = EN) -> ft.Control | None:
    """The verdict (:func:`said`) as a banner: the headline, then one sentence per winner; ``None`` mid-game."""
    told = said(result, words)
    return verdict_banner(*told) if told is not None else None


def verdict_banner(headline: str, reasons: Sequence[str]) -> ft.Control:
    """A headline and its sentences (one per winner) on the banner's background."""
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(headline, theme_style=ft.TextThemeStyle.TITLE_LARGE, semantics_label=headline),
                *[ft.Text(reason, size=16, semantics_label=reason) for reason in reasons],
            ],
            spacing=6,
        ),
        padding=ft.Padding.all(12),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border_radius=12,
    )


def standings_panel(result: Result, extras: Sequence[tuple[str, str]] = (), words: Words = EN) -> ft.Control:
    """The live standings: place (``=1`` when shared), name, the last hand's points or the extra part's progress,
    and the total; each row is one node for a screen reader, labelled by :func:`row_label`."""
    last = _last_points(result)
    rows: list[ft.Control] = []
    for row in standings(result):
        points = None if last is None else last.get(row.player)
        progress = _progress(row, words)
        detail = progress if progress is not None else ("" if points is None else f"{points:+d}")
        rows.append(
            ft.Semantics(
                label=row_label(row, last=points, words=words),
                container=True,
                exclude_semantics=True,
                content=ft.Row(
                    [
                        ft.Text(place_text(row), size=18, width=40),
                        ft.Text(row.player, size=20, weight=ft.FontWeight.BOLD, expand=True),
                        ft.Text(detail, size=16, color=ft.Colors.ON_SURFACE_VARIANT),
                        ft.Text(str(row.total), size=24, weight=ft.FontWeight.BOLD, width=72),
                    ]
                ),
            )
        )
    _ = words.gettext
    header = ft.Row([ft.Text("#", width=40), ft.Text(_("Player"), expand=True), ft.Text(_("Total"), width=72)])
    body: list[ft.Control] = [header, *rows]
    if extras:
        text = " · ".join(f"{_(label)}: {value}" for label, value in extras)
        body.append(ft.Text(text, size=16, semantics_label=text))
    return panel(ft.Column(body, spacing=6))


def final_standings(rows: Sequence[Standing], words: Words = EN) -> list[ft.Control]:
    """History's standings, one line a player (:func:`final_label`), with the extra part's progress beside it."""
    out: list[ft.Control] = []
    for row in rows:
        label = final_label(row, words)
        shown = f"{place_text(row)}. {row.player}: {row.total}"
        line: list[ft.Control] = [
            ft.Text(shown, size=18, semantics_label=label, weight=ft.FontWeight.BOLD if row.winner else None)
        ]
        progress = _progress(row, words)
        if progress is not None:
            line.append(ft.Text(progress, size=15, color=ft.Colors.ON_SURFACE_VARIANT))
        out.append(ft.Row(line, spacing=12, wrap=True))
    return out


def standings_text(rows: Sequence[Standing], words: Words = EN) -> str:
    """The standings on one line: ``1. Ben 12 (1 play-off win) · =2. Ann 8 · =2. Cat 8``."""
    return " · ".join(
        f"{place_text(s)}. {s.player} {s.total}" + (f" ({_progress(s, words)})" if s.progress else "") for s in rows
    )


__all__ = [
    "final_label",
    "final_standings",
    "place_text",
    "row_label",
    "row_labels",
    "said",
    "standings_panel",
    "standings_text",
    "verdict_banner",
    "verdict_panel",
]
