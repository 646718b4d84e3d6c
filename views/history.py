"""History: every session, newest first, filtered by game, player and date, with search; a session opens as a
read-only replay hand by hand (standings, the "why", a score chart, the edit log), and a hand can be corrected with
the game's own entry panel (the table's correction screen, pre-filled).

The logic is in :mod:`companion.history`; these builders only lay it out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.entry import EntryTarget
from companion.history import (
    ENGLISH,
    PAGE_SIZE,
    DateRangeError,
    HistoryFilter,
    Replay,
    ReplayStep,
    describe_entry,
    edit_log,
    filter_sessions,
    parse_date,
    replay,
    row_of,
    when_text,
)
from companion.i18n import Words
from companion.stats import game_name
from companion.storage_types import Archive, SessionDoc, SessionStatus, SessionSummary, StorageError
from scoring import GAMES, ScoringError
from views.charts import progression_chart
from views.context import ViewContext
from views.paging import Paged
from views.standings import final_standings, standings_text, verdict_banner
from views.table.screen import TableView
from views.widgets import TAP, big_button, empty_state, heading, panel, paragraph, screen

ALL = "all"
"""The dropdown key meaning "no limit"."""


def _error_text() -> ft.Text:
    return ft.Text("", size=15, color=ft.Colors.ERROR)


def session_tile(summary_row: Any, on_open: Callable[[str], None] | None) -> ft.Control:
    """One session in the list: title, then when, who and how it ended."""
    return ft.ListTile(
        title=ft.Text(summary_row.title, size=18),
        subtitle=ft.Text(summary_row.subtitle),
        leading=ft.Icon(ft.Icons.EMOJI_EVENTS if summary_row.status is SessionStatus.FINISHED else ft.Icons.SCHEDULE),
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=(lambda _: on_open(summary_row.id)) if on_open is not None else None,
        tooltip=f"{summary_row.title}, {summary_row.when}",
        min_height=TAP + 8,
    )


def history_controls(
    archive: Archive,
    flt: HistoryFilter,
    *,
    limit: int = PAGE_SIZE,
    resolve: Callable[[str], str] | None = None,
    on_open: Callable[[str], None] | None = None,
) -> tuple[list[ft.Control], int]:
    """The tiles of the first ``limit`` sessions passing ``flt``, and how many pass it."""
    found = filter_sessions(archive.list_sessions(), flt, resolve=resolve)
    return [session_tile(row_of(s), on_open) for s in found[:limit]], len(found)


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/history``: the sessions, newest first, with filters over the whole archive; the first page of the
    result is shown, "Show more" adds the next."""
    _ = ctx.words.gettext
    archive: Archive = ctx.services.archive
    aliases = ctx.services.players.aliases()
    problem = _error_text()

    def open_session(session_id: str) -> None:
        ctx.navigate(f"/history/{session_id}")

    def nothing() -> list[ft.Control]:
        return [
            empty_state(
                _("No sessions match") if len(archive) else _("No sessions yet"),
                _("Change the filters or the search.") if len(archive) else _("Games you play will be listed here."),
            )
        ]

    listing: Paged[SessionSummary] = Paged(
        lambda s: session_tile(row_of(s, words=ctx.words), open_session), noun="session", empty=nothing, words=ctx.words
    )
    filters = _Filters.build(ctx, lambda: fill(True))

    def fill(update: bool) -> None:
        try:
            found = ctx.services.lists.filtered(filters.current(), aliases)  # the whole archive, once per change
        except DateRangeError as exc:
            problem.value = ctx.words.note(exc.why)
            if update:
                with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                    problem.update()
            return
        problem.value = ""
        listing.show(found, update=update)
        if update:
            with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                problem.update()

    fill(False)
    ctx.services.stats.warm_up(archive, aliases)  # so that Statistics opens at once
    ctx.services.ratings.warm_up()  # and its ratings
    return screen(ctx, _("History"), [_links(ctx), *filters.rows(), problem, *listing.controls])


@dataclass(frozen=True)
class _Filters:
    """The History list's filters: game, player (from ``?player=``), a season (which sets the date range), a date
    range and a search."""

    game: ft.Dropdown
    player: ft.Dropdown
    season: ft.Dropdown
    since: ft.TextField
    until: ft.TextField
    search: ft.TextField

    @classmethod
    def build(cls, ctx: ViewContext, changed: Callable[[], None]) -> _Filters:
        """The filter fields; ``changed`` runs on every change of one."""
        _ = ctx.words.gettext
        game = ft.Dropdown(
            label=_("Game"),
            value=ALL,
            options=[ft.DropdownOption(key=ALL, text=_("All games"))]
            + [ft.DropdownOption(key=g.key, text=g.name) for g in GAMES],
            on_select=lambda _: changed(),
            expand=True,  # named by its label; a tooltip would add a node of that name that takes no tap
        )
        wanted = parse_qs(urlsplit(ctx.page.route or "").query).get("player", [ALL])[0]
        roster = [p.name for p in ctx.services.players.players()]
        player = ft.Dropdown(
            label=_("Player"),
            value=wanted if wanted in roster else ALL,
            options=[ft.DropdownOption(key=ALL, text=_("Everyone"))]
            + [ft.DropdownOption(key=name, text=name) for name in roster],
            on_select=lambda _: changed(),
            expand=True,  # named by its label; a tooltip would add a node of that name that takes no tap
        )
        since = ft.TextField(
            label=_("From"), hint_text="2026-11-27", on_change=lambda _: changed(), tooltip=_("From date"), expand=True
        )
        until = ft.TextField(
            label=_("To"), hint_text="2026-11-27", on_change=lambda _: changed(), tooltip=_("To date"), expand=True
        )
        search = ft.TextField(
            label=_("Search"),
            prefix_icon=ft.Icons.SEARCH,
            on_change=lambda _: changed(),
            tooltip=_("Search"),
            expand=True,
        )
        seasons = ctx.services.seasons.seasons.all()

        def pick_season() -> None:
            chosen = next((s for s in seasons if s.name == season.value), None)
            since.value = chosen.start.isoformat() if chosen is not None else ""
            until.value = chosen.end.isoformat() if chosen is not None else ""
            for field in (since, until):
                with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                    field.update()
            changed()

        season = ft.Dropdown(
            label=_("Season"),
            value=ALL,
            options=[ft.DropdownOption(key=ALL, text=_("All time"))]
            + [ft.DropdownOption(key=s.name, text=f"{s.name} ({s.span})") for s in seasons],
            on_select=lambda _: pick_season(),
            expand=True,  # named by its label; a tooltip would add a node of that name that takes no tap
        )
        return cls(game, player, season, since, until, search)

    def current(self) -> HistoryFilter:
        """The filter the fields say now."""

        def day(field: ft.TextField) -> date | None:
            return parse_date(field.value or "")

        return HistoryFilter(
            game=None if self.game.value in (None, ALL) else self.game.value,
            player=None if self.player.value in (None, ALL) else self.player.value,
            since=day(self.since),
            until=day(self.until),
            search=self.search.value or "",
        )

    def rows(self) -> list[ft.Control]:
        return [
            ft.Row([self.game, self.player]),
            ft.Row([self.season]),
            ft.Row([self.since, self.until]),
            ft.Row([self.search]),
        ]


def _links(ctx: ViewContext) -> ft.Column:
    """The History screen's links: Statistics, the game nights, export and backup."""
    _ = ctx.words.gettext
    return ft.Column(
        [
            ft.Row([big_button(_("Statistics"), lambda _: ctx.navigate("/stats"), icon=ft.Icons.BAR_CHART)]),
            ft.Row(
                [big_button(_("By game night"), lambda _: ctx.navigate("/history/nights"), icon=ft.Icons.NIGHTLIFE)]
            ),
            ft.Row(
                [
                    big_button(
                        _("Export and backup"), lambda _: ctx.navigate("/history/transfer"), icon=ft.Icons.IMPORT_EXPORT
                    )
                ]
            ),
        ]
    )


# --- one session -----------------------------------------------------------------------------------------------


def _load(ctx: ViewContext, session_id: str) -> SessionDoc:
    try:
        doc: SessionDoc = ctx.services.archive.load_session(session_id)
    except StorageError as exc:  # not found, damaged, newer format: the shell shows "Not found" with the reason
        raise ValueError(str(exc)) from None
    return doc


def _points_text(points: dict[str, int]) -> str:
    return ", ".join(f"{name} {'+' if value > 0 else ''}{value}" for name, value in points.items())


def step_card(step: ReplayStep, on_correct: Callable[[EntryTarget], None] | None, words: Words = ENGLISH) -> ft.Control:
    """One hand of the replay: what was entered, the points, the standings after it and the "why"."""
    _ = words.gettext
    title = step.label_in(words)
    rows: list[ft.Control] = [
        ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=title),
    ]
    entered = step.entered_in(words)
    if entered:
        rows.append(ft.Text(_("Entered: {entered}").format(entered=entered), size=15))
    rows.append(ft.Text(_("Points: {points}").format(points=_points_text(step.points)), size=15))
    if step.standings:
        after = _("After {hand}: {standings}").format(
            hand=step.said_in(words), standings=standings_text(step.standings, words)
        )
        rows.append(ft.Text(after, size=15))
    for note in step.notes_in(words):
        rows.append(ft.Text(_("Why: {note}").format(note=note), size=14, italic=True))
    if on_correct is not None and step.entry is not None:
        target = step.entry
        label = _("Correct {entry}").format(entry=target.label_in(words))
        rows.append(ft.Row([big_button(label, lambda _: on_correct(target), icon=ft.Icons.EDIT, tooltip=None)]))
    return panel(ft.Column(rows, spacing=4))


def _final(rep: Replay, words: Words = ENGLISH) -> list[ft.Control]:
    """The verdict (a headline and one sentence per winner), then the standings with shared places, then the
    game's own notes."""
    _ = words.gettext
    out: list[ft.Control] = []
    told = rep.verdict_in(words) if rep.error is None else None
    if told is not None:
        out.append(verdict_banner(*told))
    out.append(heading(_("Standings")))
    if rep.error is not None:
        cannot = _("This session cannot be replayed: {error}").format(error=rep.error)
        out.append(ft.Text(cannot, color=ft.Colors.ERROR, size=16))
        return out
    out += final_standings(rep.final, words)
    for note in rep.notes_in(words):
        out.append(ft.Text(_("Why: {note}").format(note=note), size=14, italic=True))
    return out


def _log_row(text: str, correction: bool) -> ft.Control:
    return ft.Row(
        [
            ft.Icon(ft.Icons.EDIT_NOTE if correction else ft.Icons.CHECK, size=18),
            ft.Text(
                text, size=15, weight=ft.FontWeight.BOLD if correction else None, expand=True, semantics_label=text
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def build_session(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/history/<id>``: the read-only replay of one session, its chart and its edit log."""
    _ = ctx.words.gettext
    doc = _load(ctx, params["id"])
    rep = replay(doc.record)
    title = doc.title or game_name(doc.game)
    writable = not ctx.services.archive.read_only

    def correct(target: EntryTarget) -> None:
        ctx.navigate(f"/history/{doc.id}/{target.slug}")

    result = _("Result: {outcome}").format(outcome=rep.outcome_in(ctx.words))
    controls: list[ft.Control] = [
        ft.Text(f"{game_name(doc.game)} · {when_text(doc.updated_at, words=ctx.words)}", size=16),
        ft.Text(result, size=18, semantics_label=result),
        *_final(rep, ctx.words),
    ]
    if rep.steps:
        controls += [heading(_("Score by hand")), progression_chart(rep, ctx.words)]
    log = edit_log(doc.log, words=ctx.words)
    corrected = [line for line in log if line.correction]
    controls.append(heading(_("Edit log")))
    if corrected:
        controls.append(
            paragraph(
                ctx.words.ngettext(
                    "{n} correction after the hands were entered:",
                    "{n} corrections after the hands were entered:",
                    len(corrected),
                ).format(n=len(corrected))
            )
        )
        controls += [_log_row(line.text, True) for line in corrected]
    else:
        controls.append(paragraph(_("No corrections: every hand stands as it was entered.")))
    every = _("Every change ({n})").format(n=len(log))
    controls.append(
        ft.ExpansionTile(
            title=ft.Text(every, size=16),
            controls=[_log_row(line.text, line.correction) for line in log],
            min_tile_height=TAP,
            tooltip=every,
        )
    )
    controls.append(heading(_("Hand by hand")))
    if not rep.steps:
        controls.append(paragraph(_("No hands were entered.")))
    controls += [step_card(step, correct if writable else None, ctx.words) for step in rep.steps]
    if doc.status in (SessionStatus.IN_PROGRESS, SessionStatus.PENDING):
        controls.append(
            ft.Row(
                [
                    big_button(
                        _("Continue at the table"),
                        lambda _: ctx.navigate(f"/continue/{doc.id}"),
                        icon=ft.Icons.PLAY_ARROW,
                        primary=True,
                    )
                ]
            )
        )
    return screen(ctx, title, controls)


# --- correcting a hand -----------------------------------------------------------------------------------------


def build_correction(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/history/<id>/<entry>`` (``hand-2``, ``playoff-1``, ``tiebreak-1``, ``sudden-death-1``): correct an entry of
    a session (finished or not) with the game's own entry panel, pre-filled with what was entered, as at the table;
    the edit goes through the session (every hand after it is scored again, the change goes in the edit log), and
    confirming returns to the session's replay."""
    try:
        session = ctx.services.sessions.open(params["id"])
    except (StorageError, ScoringError) as exc:  # not found, damaged: the shell shows "Not found" with the reason
        raise ValueError(str(exc)) from None
    target = EntryTarget.of_slug(params["entry"])  # an UnknownPartError (a ValueError) is shown as "Not found"
    entries = session.part(target.part)
    if target.index is None or target.index >= len(entries):
        raise ValueError(ctx.words.gettext("This session has no {entry}.").format(entry=target.label))
    entered = entries[target.index]
    said = describe_entry(entered, ctx.words) if isinstance(entered, dict) else str(entered)
    title = session.doc.title or game_name(session.game)
    note = paragraph(
        ctx.words.gettext("{title}: {entry} as it was entered: {entered}").format(
            title=title, entry=target.label_in(ctx.words, session.game), entered=said
        )
    )
    return TableView(ctx, session, target, note).view()
