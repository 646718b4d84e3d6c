"""History: every session, newest first, filtered by game, player and date, with search; a session opens as a
read-only replay hand by hand (standings, the "why", a score chart, the edit log), and a hand can be corrected with
the game's own entry panel (the table's correction screen, pre-filled).

The logic is in :mod:`companion.history`; these builders only lay it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
    count_text,
    describe_entry,
    edit_log,
    filter_sessions,
    page_end,
    parse_date,
    replay,
    row_of,
    when_text,
)
from companion.i18n import Words
from companion.seasons import Season
from companion.stats import game_name
from companion.storage_types import Archive, SessionDoc, SessionStatus, StorageError
from scoring import GAMES, ScoringError
from views.charts import progression_chart
from views.context import ViewContext
from views.flet_private import component_node
from views.paging import SHOW_MORE
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
    result is shown, "Show more" adds the next. Two components: the filters (:func:`history_filters`, over
    :class:`HistoryFilters`) and the list (:func:`history_rows`, over them and :class:`ShownPages`), so that "Show
    more" renders the list alone."""
    wanted = parse_qs(urlsplit(ctx.page.route or "").query).get("player", [ALL])[0]
    roster = tuple(p.name for p in ctx.services.players.players())
    filters = HistoryFilters(player=wanted if wanted in roster else ALL)
    aliases = ctx.services.players.aliases()
    ctx.services.stats.warm_up(ctx.services.archive, aliases)  # so that Statistics opens at once
    ctx.services.ratings.warm_up()  # and its ratings
    shown = HistoryShown(roster, tuple(ctx.services.seasons.seasons.all()), aliases)
    return screen(
        ctx,
        ctx.words.gettext("History"),
        [
            _links(ctx),
            component_node(history_filters, filters, shown, ctx.words),
            component_node(history_rows, filters, ShownPages(), shown, ctx),
        ],
    )


@ft.observable
@dataclass
class HistoryFilters:
    """The History list's filters as chosen and typed: game, player, season, a date range and a search (``ALL``
    and ``""`` limit nothing)."""

    game: str = ALL
    player: str = ALL
    season: str = ALL
    since: str = ""
    until: str = ""
    search: str = ""
    changes: int = 0
    """How many changes were made (each starts the list again at its first page)."""

    def set(self, name: str, value: str) -> None:
        setattr(self, name, value)
        self.changes += 1

    def pick_season(self, name: str, seasons: Sequence[Season]) -> None:
        """Choose a season by ``name``: its first and last days become the date range (``ALL``: no range)."""
        chosen = next((s for s in seasons if s.name == name), None)
        self.since, self.until = (chosen.start.isoformat(), chosen.end.isoformat()) if chosen else ("", "")
        self.set("season", name)

    def current(self) -> HistoryFilter:
        """The filter the fields say now (:class:`DateRangeError` for a date that cannot be read)."""
        return HistoryFilter(
            game=None if self.game == ALL else self.game,
            player=None if self.player == ALL else self.player,
            since=parse_date(self.since),
            until=parse_date(self.until),
            search=self.search,
        )


@ft.observable
@dataclass
class ShownPages:
    """How many pages of the result the list shows: one after each change of the filters (``of``: their count of
    changes when "Show more" was last tapped), one more per "Show more"."""

    of: int = 0
    pages: int = 1

    def count(self, filters: HistoryFilters) -> int:
        return self.pages if filters.changes == self.of else 1

    def more(self, filters: HistoryFilters) -> None:
        self.pages, self.of = self.count(filters) + 1, filters.changes


@dataclass(frozen=True)
class HistoryShown:
    """What the History screen reads once, when it is opened: the roster's names, the seasons, and earlier names
    (earlier name → current name)."""

    roster: tuple[str, ...]
    seasons: tuple[Season, ...]
    aliases: Mapping[str, str]


@ft.component
def history_rows(filters: HistoryFilters, paging: ShownPages, shown: HistoryShown, ctx: ViewContext) -> ft.Control:
    """What is wrong with the filters, the count, a page of rows per "Show more", and the button.

    The archive is filtered once per filter (the service remembers the result); the rows of a filter's result are
    built once each, so "Show more" builds and sends only the next page (the rows already shown are the same
    controls in the same places, which Flet's diff passes over)."""
    words = ctx.words
    _ = words.gettext
    last: ft.MutableRef[HistoryFilter] = ft.use_ref(HistoryFilter())
    problem = ""

    def open_session(session_id: str) -> None:
        ctx.navigate(f"/history/{session_id}")

    try:
        flt = filters.current()
        found = ctx.services.lists.filtered(flt, shown.aliases)  # the whole archive, once per filter
        last.current = flt
    except DateRangeError as exc:
        problem = words.note(exc.why)  # the list stays as the last filter that could be read left it
        flt = last.current or HistoryFilter()
        found = ctx.services.lists.filtered(flt, shown.aliases)
    rows: list[ft.Control] = ft.use_memo(list, [flt, found])  # this result's rows built so far
    end = page_end(len(found), 0, PAGE_SIZE * paging.count(filters))
    rows.extend(session_tile(row_of(s, words=words), open_session) for s in found[len(rows) : end])
    kept = len(ctx.services.archive) > 0
    listing = list(rows[:end]) or [
        empty_state(
            _("No sessions match") if kept else _("No sessions yet"),
            _("Change the filters or the search.") if kept else _("Games you play will be listed here."),
        )
    ]
    more = big_button(_(SHOW_MORE), lambda e: paging.more(filters), icon=ft.Icons.EXPAND_MORE)
    return ft.Column(
        [
            ft.Text(problem, size=15, color=ft.Colors.ERROR),
            ft.Text(count_text(len(found), end, "session", "newest", words), size=15),
            ft.Column(listing, spacing=0),
            ft.Row([more], visible=end < len(found)),
        ],
        spacing=12,
    )


@ft.component
def history_filters(filters: HistoryFilters, shown: HistoryShown, words: Words) -> ft.Control:
    """The filter fields (game, player, season, from, to, search), drawn from ``filters``; each change sets them,
    and the list renders again. The dropdowns' options are made once (the same controls each time, which Flet's
    diff passes over)."""
    _ = words.gettext
    options = ft.use_memo(lambda: _filter_options(shown, words), [])

    def dropdown(label: str, name: str) -> ft.Dropdown:
        field = ft.Dropdown(
            label=label,
            value=getattr(filters, name),
            options=options[name],
            expand=True,  # named by its label; a tooltip would add a node of that name that takes no tap
        )
        if name == "season":
            field.on_select = lambda e: filters.pick_season(str(field.value or ALL), shown.seasons)
        else:
            field.on_select = lambda e: filters.set(name, str(field.value or ALL))
        return field

    def text_field(label: str, name: str, tooltip: str, **more: Any) -> ft.TextField:
        field = ft.TextField(label=label, value=getattr(filters, name), tooltip=tooltip, expand=True, **more)
        field.on_change = lambda e: filters.set(name, str(field.value or ""))
        return field

    return ft.Column(
        [
            ft.Row([dropdown(_("Game"), "game"), dropdown(_("Player"), "player")]),
            ft.Row([dropdown(_("Season"), "season")]),
            ft.Row(
                [
                    text_field(_("From"), "since", _("From date"), hint_text="2026-11-27"),
                    text_field(_("To"), "until", _("To date"), hint_text="2026-11-27"),
                ]
            ),
            ft.Row([text_field(_("Search"), "search", _("Search"), prefix_icon=ft.Icons.SEARCH)]),
        ],
        spacing=12,
    )


def _filter_options(shown: HistoryShown, words: Words) -> dict[str, list[ft.DropdownOption]]:
    """Each dropdown's options: every game, everyone in the roster, every season, after the one that limits
    nothing."""
    _ = words.gettext
    return {
        "game": [ft.DropdownOption(key=ALL, text=_("All games"))]
        + [ft.DropdownOption(key=g.key, text=g.name) for g in GAMES],
        "player": [ft.DropdownOption(key=ALL, text=_("Everyone"))]
        + [ft.DropdownOption(key=n, text=n) for n in shown.roster],
        "season": [ft.DropdownOption(key=ALL, text=_("All time"))]
        + [ft.DropdownOption(key=s.name, text=f"{s.name} ({s.span})") for s in shown.seasons],
    }


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
