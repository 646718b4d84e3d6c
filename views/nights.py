"""Game nights: start one with the table's players, the night's screen (its games, the ledger, who pays whom
tonight), the recap (shared as text or as an image), the nights listed with their games, and statistics across
nights. Thin: every figure comes from :class:`companion.night_service.NightService` (``ctx.services.nights``).

Routes: ``/nights`` (every night, with its games, date and players; also ``/history/nights``), ``/nights/new``,
``/nights/<id>``, ``/nights/<id>/recap``, ``/stats/nights``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import flet as ft

from companion.money import MoneyError, format_money, parse_money
from companion.night_ledger import TITLE, Transfer
from companion.night_model import SPLIT, Night, NightError
from companion.night_recap import Recap, rating_change_lines, says_day, streak_line
from companion.night_service import NightService, NightStats, default_name, file_stem
from companion.settings import Theme
from scoring import ScoringError, get_game
from scoring.base import MAX_NAME
from views.charts import CHART_HEIGHT, colour, legend
from views.context import ViewContext
from views.widgets import TAP, big_button, choice_button, empty_state, heading, icon_button, panel, paragraph, screen


def _refresh(control: ft.Control) -> None:
    """``control.update()`` when it is on a page (screens built in unit tests are not)."""
    with contextlib.suppress(RuntimeError, AssertionError):
        control.update()


def _click(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A click handler that calls ``fn(*args)`` (bound now, not when the loop that made it has moved on)."""

    def handler(_: Any) -> None:
        fn(*args)

    return handler


def _message() -> ft.Text:
    return ft.Text("", size=16, visible=False)


def _say(text: ft.Text, words: str, *, error: bool = False) -> None:
    text.value = words
    text.color = ft.Colors.ERROR if error else None
    text.visible = bool(words)
    _refresh(text)


def _game_name(key: str) -> str:
    try:
        return get_game(key).name
    except ScoringError:
        return key or "Unknown game"


def _night(ctx: ViewContext, night_id: str) -> Night:
    try:
        return ctx.services.nights.get(night_id)
    except NightError:
        raise ValueError(f"There is no game night '{night_id}' (it may have been removed).") from None


def _when(stamp: str) -> str:
    """A UTC stamp's day on this computer's clock: ``Fri 4 Dec 2026`` (the text itself if it is not a time)."""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return stamp
    return f"{when:%a} {when.day} {when:%b %Y}"


def _day_once(night: Night, rest: str) -> str:
    """``rest`` after the night's day, unless the night's name (the screen's title) already says the day."""
    return rest if says_day(night.name, night.started) else f"{_when(night.started)} · {rest}"


# ------------------------------------------------------------------------------------------------------------------
# Start a night


def build_start(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/new``: the night's name and the table's players (those of the last game, to begin with)."""
    nights: NightService = ctx.services.nights
    current = nights.current()
    if current is not None:
        return screen(
            ctx,
            "Start a game night",
            [
                empty_state(f"{current.name} is still open", "Close it before starting another night."),
                ft.Row([big_button(f"Open {current.name}", lambda _: ctx.navigate(f"/nights/{current.id}"))]),
            ],
        )
    recent = ctx.services.archive.list_sessions()
    seated: list[str] = list(recent[0].players) if recent else []
    state = {"name": default_name(), "typed": ""}
    seats = ft.Column(spacing=4)
    roster = ft.Row(wrap=True, spacing=8, run_spacing=8)
    message = _message()
    name_field = ft.TextField(
        label="Night name",
        value=state["name"],
        on_change=lambda e: state.__setitem__("name", str(e.control.value or "")),
        max_length=100,
        height=TAP + 24,
    )
    seat_button = ft.OutlinedButton(
        content="Seat player", tooltip="Seat player", height=TAP, on_click=lambda _: add(state["typed"]), disabled=True
    )

    def typed(event: Any) -> None:
        state["typed"] = str(event.control.value or "")
        seat_button.disabled = not state["typed"].strip()
        _refresh(seat_button)

    player_field = ft.TextField(
        label="New player name",
        on_change=typed,
        on_submit=lambda _: add(state["typed"]),
        max_length=MAX_NAME,
        expand=True,
        height=TAP + 24,
    )
    start_button = ft.FilledButton(
        content="Start the night",
        icon=ft.Icons.NIGHTLIFE,
        tooltip="Start the night",
        height=TAP,
        expand=True,
        on_click=lambda _: start(),
        style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
    )

    def redraw() -> None:
        seats.controls = [
            ft.Row(
                [
                    ft.Text(f"{i + 1}. {name}", size=18, expand=True, semantics_label=f"Seat {i + 1}: {name}"),
                    icon_button(ft.Icons.CLOSE, f"Remove {name}", _click(remove, name)),
                ]
            )
            for i, name in enumerate(seated)
        ] or [ft.Text("Nobody seated yet.", size=16)]
        keys = {n.casefold() for n in seated}
        roster.controls = [
            ft.OutlinedButton(content=p.name, tooltip=f"Seat {p.name}", height=TAP, on_click=lambda _, n=p.name: add(n))
            for p in ctx.services.players.players()
            if p.name.casefold() not in keys
        ]
        start_button.disabled = len(seated) < 2
        for control in (seats, roster, start_button):
            _refresh(control)

    def add(name: str) -> None:
        clean = " ".join(name.split())
        if not clean:
            _say(message, "Type a name first.", error=True)
            return
        if clean.casefold() in {n.casefold() for n in seated}:
            _say(message, f"{clean} is already seated.", error=True)
            return
        seated.append(clean)
        player_field.value = ""
        state["typed"] = ""
        seat_button.disabled = True
        _refresh(player_field)
        _refresh(seat_button)
        _say(message, "")
        redraw()

    def remove(name: str) -> None:
        seated.remove(name)
        redraw()

    def start() -> None:
        try:
            night = nights.start(state["name"] or default_name(), seated)
        except NightError as exc:
            _say(message, f"Cannot start the night: {exc}.", error=True)
            return
        ctx.navigate(f"/nights/{night.id}")

    redraw()
    return screen(
        ctx,
        "Start a game night",
        [
            paragraph(
                "One evening, several games, one settle-up. Every game started while the night is open belongs to it."
            ),
            name_field,
            heading("The table's players"),
            seats,
            ft.Row(
                [
                    player_field,
                    seat_button,
                ]
            ),
            roster,
            message,
            ft.Row([start_button]),
        ],
    )


# ------------------------------------------------------------------------------------------------------------------
# The night

SHARED_BILL = "Everyone: a shared bill"
"""The ledger's choice for a bill the payer already paid for the whole table (the pizza): split among everyone."""


def describe_typed(entry: dict[str, Any], fmt: Any) -> str:
    """A ledger entry being typed, as a sentence that cannot be read backwards: ``Noah pays Pete $5.00``, or ``Rosa
    paid $40.00 for everyone: each of the others owes Rosa a share`` (no amount yet: without it).

    >>> from companion.money import MoneyFormat
    >>> describe_typed({"payer": "Noah", "receiver": "Pete", "amount": "5"}, MoneyFormat())
    'Noah pays Pete $5.00'
    >>> describe_typed({"payer": "Rosa", "receiver": SPLIT, "amount": ""}, MoneyFormat())
    'Rosa paid for everyone: each of the others owes Rosa a share'
    """
    amount = str(entry.get("amount") or "").strip()
    money = ""
    if amount:
        with contextlib.suppress(MoneyError):
            money = " " + format_money(parse_money(amount, fmt), fmt)
    payer, receiver = entry["payer"], entry["receiver"]
    if receiver == SPLIT:
        return f"{payer} paid{money} for everyone: each of the others owes {payer} a share"
    return f"{payer} pays {receiver}{money}"


class NightScreen:
    """``/nights/<id>``: the night's games, its ledger and who pays whom tonight, redrawn after every change."""

    def __init__(self, ctx: ViewContext, night: Night) -> None:
        self.ctx = ctx
        self.nights: NightService = ctx.services.nights
        self.night = night
        self.body = ft.Column(spacing=12)
        self.message = _message()
        """What an action far from any section did (none yet: each section has its own)."""
        self.notes = {part: _message() for part in ("games", "settle", "entries", "ledger", "night")}
        """What a change did, said next to the control tapped: under the games, the settle-up, the ledger's Add
        button and the night's own buttons (the screen is long: a line at its top would be off screen)."""
        self.entry: dict[str, Any] = {"payer": None, "receiver": None, "amount": "", "note": ""}
        self.rename_to = night.name

    def view(self) -> ft.View:
        self.fill()
        return screen(self.ctx, self.night.name, [self.message, self.body])

    def say(self, part: str, words: str, *, error: bool = False) -> None:
        """Say ``words`` next to the section ``part`` (and clear what the other sections said). What the night's
        own buttons did (closed, reopened, renamed, saved) is also said in a snack bar: closing or reopening the
        night takes the ledger's form away or brings it back above them, which moves them on the screen."""
        for name, note in self.notes.items():
            if name != part and note.visible:
                _say(note, "")
        _say(self.notes[part], words, error=error)
        if part == "night" and words:
            with contextlib.suppress(AttributeError, RuntimeError, AssertionError):  # no page (a unit test)
                self.ctx.page.show_dialog(ft.SnackBar(ft.Text(words, semantics_label=words)))

    def act(self, change: Callable[[], Night], done: str, part: str) -> bool:
        """Make a change and redraw; a refusal is said in words and nothing changes. Either is said next to the
        section ``part``, where the finger is."""
        try:
            self.night = change()
        except NightError as exc:
            self.say(part, f"Not done: {exc}.", error=True)
            return False
        self.say(part, done)
        self.fill()
        _refresh(self.body)
        return True

    def on(self, change: Callable[[], Night], done: str, part: str) -> Callable[[Any], None]:
        """A click handler that makes ``change`` (see :meth:`act`)."""

        def handler(_: Any) -> None:
            self.act(change, done, part)

        return handler

    # -- layout --------------------------------------------------------------------------------------------------

    def fill(self) -> None:
        night, fmt = self.night, self.nights.money
        book = self.nights.ledger(night)
        settlement = self.nights.settlement(night)
        status = (
            "Open: every game started now belongs to this night."
            if night.is_open
            else "Closed: no more games or entries; transfers can still be marked paid."
        )
        out: list[ft.Control] = [
            ft.Text(_day_once(night, ", ".join(night.players)), size=16),
            ft.Text(status, size=16, semantics_label=status),
        ]
        if self.nights.last_problem and night.is_open:
            out.append(ft.Text(self.nights.last_problem, size=15, color=ft.Colors.ERROR))
        actions: list[ft.Control] = [
            big_button(
                "Recap",
                lambda _: self.ctx.navigate(f"/nights/{night.id}/recap"),
                icon=ft.Icons.CELEBRATION,
                primary=True,
            )
        ]
        if night.is_open:
            actions.append(big_button("New game for tonight", lambda _: self.ctx.navigate("/new"), icon=ft.Icons.ADD))
        out += [ft.Row([b]) for b in actions]
        out += self.games_section()
        out += self.settle_section(settlement, book.net, fmt)
        out += self.ledger_section(fmt)
        out += self.night_section()
        self.body.controls = out

    def games_section(self) -> list[ft.Control]:
        night = self.night
        out: list[ft.Control] = [heading(f"Games tonight ({len(night.sessions)})")]
        recap = self.nights.recap(night)
        for game in recap.games:
            line = f"{game.number}. {game.name}: {game.verdict}"
            row: list[ft.Control] = [
                ft.ListTile(  # grows with its line, which wraps whole (a button's fixed height cut it mid-line)
                    title=ft.Text(line, size=16, semantics_label=f"Open game {game.number}: {line}"),
                    tooltip=f"Open game {game.number}: {line}",
                    on_click=lambda _, sid=game.session_id: self.ctx.navigate(f"/history/{sid}"),
                    min_height=TAP,
                    content_padding=ft.Padding.symmetric(horizontal=8),
                    expand=True,
                )
            ]
            if night.is_open:
                row.append(
                    icon_button(
                        ft.Icons.REMOVE_CIRCLE_OUTLINE,
                        f"Take game {game.number} out of the night",
                        self.on(
                            partial(self.nights.remove_game, night.id, game.session_id),
                            f"Game {game.number} is no longer part of the night.",
                            "games",
                        ),
                    )
                )
            out.append(ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        if not recap.games:
            out.append(paragraph("No games yet: start one with New game for tonight."))
        if night.is_open:
            candidates = self.nights.candidates(night, limit=8)
            if candidates:
                out.append(ft.Text("Add a game played earlier:", size=16))
                for s in candidates:
                    label = f"{_game_name(s.game)} with {', '.join(s.players)}"
                    out.append(
                        ft.Row(
                            [
                                big_button(
                                    f"Add {label}",
                                    self.on(
                                        partial(self.nights.add_game, night.id, s.id),
                                        "The game is part of the night.",
                                        "games",
                                    ),
                                    icon=ft.Icons.PLAYLIST_ADD,
                                    tooltip=f"Add to the night: {label} ({s.id[:6]})",
                                )
                            ]
                        )
                    )
        out.append(self.notes["games"])
        return out

    def settle_section(self, settlement: Any, net: dict[str, int], fmt: Any) -> list[ft.Control]:
        night = self.night
        out: list[ft.Control] = [heading(TITLE), self.notes["settle"]]
        money = ", ".join(f"{name} {format_money(net.get(name, 0), fmt, signed=True)}" for name in net)
        out.append(ft.Text(f"Tonight's money: {money}", size=16, semantics_label=f"Tonight's money: {money}"))
        for t in settlement.paid:
            text = t.describe(fmt)
            out.append(
                ft.Row(
                    [
                        ft.Text(f"{text} ✓", size=18, expand=True, semantics_label=text),
                        ft.OutlinedButton(
                            content=ft.Text("Undo", semantics_label=f"Not paid after all: {text}"),
                            tooltip=f"Not paid after all: {text}",
                            height=TAP,
                            on_click=self.on(
                                partial(self.nights.unmark_paid, night.id, t.payer, t.receiver, t.amount),
                                f"Not paid after all: {text}.",
                                "settle",
                            ),
                        ),
                    ]
                )
            )
        for t in settlement.outstanding:
            out.append(self._transfer_row(t, fmt))
        if not settlement.outstanding:
            out.append(
                ft.Text("Everyone is square.", size=16)
                if settlement.paid
                else ft.Text("Nobody owes anybody anything.", size=16)
            )
        return out

    def _transfer_row(self, t: Transfer, fmt: Any) -> ft.Control:
        text = t.describe(fmt)
        night = self.night
        return ft.Row(
            [
                ft.Text(text, size=18, expand=True, semantics_label=text),
                ft.FilledButton(  # shows "Mark paid"; its node is named with its own transfer
                    content=ft.Text("Mark paid", semantics_label=f"Mark paid: {text}"),
                    tooltip=f"Mark paid: {text}",
                    height=TAP,
                    on_click=self.on(
                        lambda: self.nights.mark_paid(night.id, t.payer, t.receiver, t.amount),
                        f"Paid: {text}.",
                        "settle",
                    ),
                ),
            ]
        )

    def ledger_section(self, fmt: Any) -> list[ft.Control]:
        night = self.night
        out: list[ft.Control] = [heading("The ledger")]
        book = self.nights.ledger(night)
        for game in book.games:
            if game.note:
                out.append(ft.Text(game.note, size=15))
        for n, entry in enumerate(night.entries, start=1):
            text = entry.describe(fmt)
            row: list[ft.Control] = [ft.Text(f"{text}", size=16, expand=True, semantics_label=f"Entry {n}: {text}")]
            if night.is_open:
                row.append(
                    icon_button(
                        ft.Icons.DELETE_OUTLINE,
                        f"Remove entry {n}",
                        self.on(
                            partial(self.nights.remove_entry, night.id, entry.id), "The entry was removed.", "entries"
                        ),
                    )
                )
            out.append(ft.Row(row))
        if not night.entries:
            out.append(paragraph("No entries by hand yet: a side bet, the pizza…"))
        out.append(self.notes["entries"])
        if night.is_open:
            out += self.entry_form(fmt)
        return out

    def entry_form(self, fmt: Any) -> list[ft.Control]:
        """Add an entry: who pays, who receives it (one player, or everyone: a bill the payer already paid for the
        table), the amount and a note; the entry is said as a whole sentence before it is added."""
        night, entry = self.night, self.entry
        preview = ft.Text(self._preview(fmt), size=16)
        payer_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        receiver_row = ft.Row(wrap=True, spacing=8, run_spacing=8)

        def choose(key: str, value: str) -> None:
            entry[key] = value
            if key == "payer" and entry["receiver"] == value:
                entry["receiver"] = None  # nobody pays themselves
            draw()

        def draw() -> None:
            payer_row.controls = [
                choice_button(f"{p} pays", entry["payer"] == p, _click(choose, "payer", p)) for p in night.players
            ]
            receiver_row.controls = [
                choice_button(f"To {p}", entry["receiver"] == p, _click(choose, "receiver", p))
                for p in night.players
                if p != entry["payer"]
            ] + [choice_button(SHARED_BILL, entry["receiver"] == SPLIT, lambda _: choose("receiver", SPLIT))]
            preview.value = self._preview(fmt)
            for control in (payer_row, receiver_row, preview):
                _refresh(control)

        def typed(key: str) -> Callable[[Any], None]:
            def changed(event: Any) -> None:
                entry[key] = str(event.control.value or "")
                preview.value = self._preview(fmt)
                _refresh(preview)

            return changed

        def add(_: Any) -> None:
            if entry["payer"] is None or entry["receiver"] is None:
                self.say("ledger", "Not added: choose who pays and who receives it (or a shared bill).", error=True)
                return
            typed_entry = dict(entry)
            entry.update({"payer": None, "receiver": None, "amount": "", "note": ""})  # a fresh form once added
            added = self.act(
                lambda: self.nights.add_entry(
                    night.id, typed_entry["payer"], typed_entry["receiver"], typed_entry["amount"], typed_entry["note"]
                ),
                "Added to the ledger: " + describe_typed(typed_entry, fmt) + ".",
                "ledger",
            )
            if not added:
                entry.update(typed_entry)  # refused: nothing typed is lost

        draw()
        return [
            ft.Text("Add an entry", size=18, weight=ft.FontWeight.BOLD),
            ft.Text("Who pays? (For a bill already paid for the table, such as the pizza: who paid it.)", size=16),
            payer_row,
            ft.Text("Who receives the money?", size=16),
            receiver_row,
            ft.TextField(
                label="Amount",
                value=entry["amount"],
                on_change=typed("amount"),
                tooltip="Amount",
                keyboard_type=ft.KeyboardType.NUMBER,
                height=TAP + 8,
            ),
            ft.TextField(
                label="Note",
                value=entry["note"],
                on_change=typed("note"),
                tooltip="Note",
                max_length=200,
                height=TAP + 24,
            ),
            preview,
            ft.Row([big_button("Add to the ledger", add, icon=ft.Icons.ADD_CARD)]),
            self.notes["ledger"],
        ]

    def _preview(self, fmt: Any) -> str:
        """The entry being typed as a sentence (``Noah pays Pete $5.00.``), or what is still missing."""
        entry = self.entry
        amount = entry["amount"].strip()
        if not amount:
            cents = None
        else:
            try:
                cents = parse_money(amount, fmt)
            except MoneyError as exc:
                return f"Amount: {exc}."
        if entry["payer"] is None or entry["receiver"] is None:
            missing = "who pays" if entry["payer"] is None else "who receives it"
            shown = "not typed yet" if cents is None else format_money(cents, fmt)
            return f"Amount: {shown}. Still to choose: {missing}."
        if cents is None:
            return f"{describe_typed(entry, fmt)}: amount not typed yet."
        return describe_typed({**entry, "amount": amount}, fmt) + "."

    def night_section(self) -> list[ft.Control]:
        night = self.night
        out: list[ft.Control] = [heading("The night")]
        out.append(
            ft.TextField(
                label="Night name",
                value=night.name,
                on_change=lambda e: setattr(self, "rename_to", str(e.control.value or "")),
                tooltip="Night name",
                max_length=100,
                height=TAP + 24,
            )
        )
        buttons: list[ft.Control] = [
            big_button("Rename", self.on(lambda: self.nights.rename(night.id, self.rename_to), "Renamed.", "night"))
        ]
        if night.is_open:
            buttons.append(
                big_button("Close the night", self.on(lambda: self.nights.close(night.id), "Closed.", "night"))
            )
        else:
            buttons.append(
                big_button("Reopen the night", self.on(lambda: self.nights.reopen(night.id), "Reopened.", "night"))
            )
        out += [ft.Row([b]) for b in buttons]
        out.append(
            ft.Row(
                [
                    big_button(
                        "Export the night",
                        lambda _: self.save("json"),
                        icon=ft.Icons.SAVE_ALT,
                        tooltip="Export the night",
                    )
                ]
            )
        )
        out.append(self.notes["night"])
        return out

    def save(self, kind: str) -> None:
        try:
            path = self.nights.save_to_exports(self.night.id, kind)
        except NightError as exc:
            self.say("night", f"Not saved: {exc}.", error=True)
            return
        self.say("night", f"Saved to {path}")


def build_night(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/<id>``: one night."""
    return NightScreen(ctx, _night(ctx, params["id"])).view()


# ------------------------------------------------------------------------------------------------------------------
# The recap


def recap_controls(recap: Recap, fmt: Any) -> list[ft.Control]:
    """The recap's parts: games with winners and verdicts, wins per player, money, settle-up, the streak."""
    out: list[ft.Control] = [heading("Games played")]
    for g in recap.games:
        line = f"{g.number}. {g.name}: {g.verdict}"
        out.append(ft.Text(line, size=16, semantics_label=line))
    if not recap.games:
        out.append(paragraph("No games yet."))
    out.append(heading("Wins"))
    ranked = sorted(recap.players, key=lambda n: (-recap.wins.get(n, 0), recap.players.index(n)))
    for name in ranked:
        wins = recap.wins.get(name, 0)
        line = f"{name}: {wins} win{'s' if wins != 1 else ''}"
        out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.has_money:
        out.append(heading("The night's money"))
        for name in recap.players:
            line = f"{name}: {format_money(recap.money.get(name, 0), fmt, signed=True)}"
            out.append(ft.Text(line, size=16, semantics_label=line))
        out.append(heading(TITLE))
        for line in recap.settlement.lines(fmt)[1:]:
            out.append(ft.Text(line, size=16, semantics_label=line))
    out.append(heading("Longest streak"))
    line = streak_line(recap.streaks) or "Nobody won two games in a row."
    out.append(ft.Text(line, size=16, semantics_label=line))
    if recap.rating_change:  # each player's change of rating over the night's games
        out.append(heading("Rating change"))
        for line in rating_change_lines(recap):
            out.append(ft.Text(line, size=16, semantics_label=f"Rating change, {line}"))
    for problem in recap.problems:
        out.append(ft.Text(problem, size=15, color=ft.Colors.ERROR))
    return out


def build_recap(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/<id>/recap``: the night in one screen, shared as text (clipboard) or as an image."""
    nights: NightService = ctx.services.nights
    night = _night(ctx, params["id"])
    fmt = nights.money
    recap = nights.recap(night)
    text = nights.recap_text(night)
    dark = ctx.settings.theme is Theme.DARK
    png = nights.recap_png(night, dark=dark)
    message = _message()
    copy_action: Any = None
    with contextlib.suppress(Exception):  # needs the page's context (a screen built in a unit test has none)
        copy_action = ft.CopyToClipboard(text)

    async def copied(_: Any) -> None:
        if copy_action is None:
            try:
                await ft.Clipboard().set(text)
            except Exception as exc:  # no clipboard here: the text is on screen to copy by hand
                _say(message, f"The clipboard is not available ({exc}); the text is shown below.", error=True)
                return
        _say(message, "The recap is copied: paste it into your messenger.")

    async def download(_: Any) -> None:
        try:
            saved = await ft.FilePicker().save_file(
                dialog_title="Save the recap image", file_name=f"{file_stem(night)}.png", src_bytes=png
            )
        except (OSError, ValueError) as exc:
            _say(message, f"The image could not be offered: {exc}", error=True)
            return
        _say(message, f"Image saved as {saved}" if saved else "The image is offered for download.")

    def save(kind: str) -> None:
        try:
            path = nights.save_to_exports(night.id, kind, dark=dark)
        except NightError as exc:
            _say(message, f"Not saved: {exc}.", error=True)
            return
        _say(message, f"Saved to {path}")

    copy_button = ft.FilledButton(
        content="Copy the recap",
        icon=ft.Icons.CONTENT_COPY,
        tooltip="Copy the recap",
        height=TAP,
        expand=True,
        on_click=copied,
        action=copy_action,
    )
    games = f"{len(recap.games)} game{'s' if len(recap.games) != 1 else ''}"
    controls: list[ft.Control] = [
        ft.Text(_day_once(night, f"{games} · {', '.join(night.players)}"), size=16),
        *recap_controls(recap, fmt),
        heading("Share"),
        ft.Row([copy_button]),
        message,
        panel(ft.Text(text, size=14, selectable=True, semantics_label="The recap as text")),
        ft.Image(src=png, semantics_label="The recap as an image", fit=ft.BoxFit.CONTAIN, width=540),
        ft.Row(
            [
                ft.OutlinedButton(
                    content="Download the image",
                    icon=ft.Icons.DOWNLOAD,
                    tooltip="Download the image",
                    on_click=download,
                    height=TAP,
                    expand=True,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
                )
            ]
        ),
        ft.Row(
            [
                big_button(
                    "Save the image to the exports folder",
                    lambda _: save("png"),
                    icon=ft.Icons.IMAGE,
                )
            ]
        ),
        ft.Row([big_button("Save the text to the exports folder", lambda _: save("txt"), icon=ft.Icons.NOTES)]),
    ]
    return screen(ctx, f"Recap: {night.name}", controls)


# ------------------------------------------------------------------------------------------------------------------
# Every night, with its games


def build_list(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights`` and ``/history/nights``: every night, newest first, with its date, players and games."""
    nights: NightService = ctx.services.nights
    current = nights.current()
    out: list[ft.Control] = []
    if current is None:
        out.append(
            ft.Row(
                [
                    big_button(
                        "Start a game night",
                        lambda _: ctx.navigate("/nights/new"),
                        icon=ft.Icons.NIGHTLIFE,
                        primary=True,
                    )
                ]
            )
        )
    for problem in nights.problems[:3]:
        out.append(ft.Text(problem, size=14, color=ft.Colors.ERROR))
    every = nights.all()
    if not every:
        out.append(empty_state("No game nights yet", "Start one from Home; its games, money and recap gather here."))
    for night in every:
        lines: list[ft.Control] = [
            ft.TextButton(
                content=ft.Text(night.name, size=18, weight=ft.FontWeight.BOLD),
                tooltip=f"Open the night {night.name}",
                on_click=lambda _, nid=night.id: ctx.navigate(f"/nights/{nid}"),
                height=TAP,
            ),
            ft.Text(f"{_when(night.started)} · {night.status.value} · {', '.join(night.players)}", size=15),
        ]
        for game in nights.games(night):
            s = game.summary
            if s is None:
                words = f"{game.number}. (no longer in the archive)"
            else:
                won = f": {', '.join(s.winners)} won" if s.winners else f": {s.status.value}"
                words = f"{game.number}. {_game_name(s.game)}{won}"
            lines.append(ft.Text(words, size=15, semantics_label=f"{night.name}, game {words}"))
        if not night.sessions:
            lines.append(ft.Text("No games yet.", size=15))
        out.append(panel(ft.Column(lines, spacing=2)))
    return screen(ctx, "Game nights", out)


# ------------------------------------------------------------------------------------------------------------------
# Statistics across nights


def money_chart(stats: NightStats, fmt: Any) -> ft.Control:
    """A line per player: their money, summed night after night."""
    import flet_charts as fch

    series = stats.money_over_time
    count = len(stats.rows)
    values = [v / 100 for points in series.values() for v in points] or [0.0]
    low, high = min(0.0, *values), max(0.0, *values)
    pad = max(1.0, (high - low) / 10)
    words = "; ".join(
        f"{name}: {', '.join(format_money(v, fmt, signed=True) for v in points)}" for name, points in series.items()
    )
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(x=x + 1, y=v / 100, tooltip=f"{name} {format_money(v, fmt, signed=True)}")
                    for x, v in enumerate(points)
                ],
                color=colour(n),
                stroke_width=3,
                point=True,
            )
            for n, (name, points) in enumerate(series.items())
        ],
        min_x=1,
        max_x=max(count, 2),
        min_y=low - pad,
        max_y=high + pad,
        left_axis=fch.ChartAxis(label_size=52),
        bottom_axis=fch.ChartAxis(
            title=ft.Text("Night", size=12),
            labels=[fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=12)) for x in range(1, count + 1)]
            if count <= 20
            else [],
            label_size=24,
        ),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        interactive=True,
        expand=True,
    )
    return ft.Semantics(
        label=f"Money over the nights chart, each player's running total. {words}",
        container=True,
        content=ft.Column(
            [ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)), legend(list(series))]
        ),
    )


def build_stats(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/stats/nights``: nights played and won, money over time, head-to-head across nights."""
    nights: NightService = ctx.services.nights
    fmt = nights.money
    stats = nights.stats()
    out: list[ft.Control] = [
        ft.Text(
            f"{len(stats.rows)} game night{'s' if len(stats.rows) != 1 else ''}",
            size=16,
            semantics_label=f"{len(stats.rows)} game nights",
        )
    ]
    if not stats.rows:
        out.append(empty_state("No game nights yet", "Statistics across nights appear once a night is played."))
        return screen(ctx, "Statistics: game nights", out)
    if stats.most_won:
        most = stats.most_won
        line = f"Most nights won: {', '.join(most)} ({stats.won[most[0]]})"
        out.append(ft.Text(line, size=18, semantics_label=line))
    out.append(heading("Nights played and won"))
    for name in sorted(stats.played, key=lambda n: (-stats.won[n], -stats.played[n], n)):
        line = f"{name}: {stats.played[name]} played, {stats.won[name]} won"
        out.append(ft.Text(line, size=16, semantics_label=line))
    out.append(heading("Money over time"))
    out.append(money_chart(stats, fmt))
    out.append(heading("Head-to-head across nights"))
    out.append(paragraph("On the nights both played: who won more games that night."))
    for h in stats.head_to_head:
        line = (
            f"{h.first} – {h.second}: {h.first_ahead}–{h.second_ahead}"
            + (f", {h.level} level" if h.level else "")
            + f" ({h.nights} night{'s' if h.nights != 1 else ''})"
        )
        out.append(ft.Text(line, size=15, semantics_label=line))
    out.append(heading("Night by night"))
    for n, row in enumerate(stats.rows, start=1):
        won = ", ".join(row.winners) or "nobody"
        line = f"{n}. {row.name} ({_when(row.started)}): {row.games} games, won by {won}"
        out.append(ft.Text(line, size=15, semantics_label=line))
    return screen(ctx, "Statistics: game nights", out)


__all__ = ["build_list", "build_night", "build_recap", "build_start", "build_stats", "money_chart", "recap_controls"]
