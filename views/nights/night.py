"""``/nights/<id>``: the night's screen, with its games, the ledger, who pays whom tonight and the night's own
buttons."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from companion.money import MoneyError, format_money, parse_money
from companion.night_ledger import TITLE, Transfer
from companion.night_model import SPLIT, Night, NightError
from companion.night_service import NightService
from views.context import ViewContext
from views.nights.common import click, day_once, game_name, message_text, night_of, refresh, say
from views.widgets import TAP, big_button, choice_button, heading, icon_button, paragraph, screen

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
        self.message = message_text()
        """What an action far from any section did (none yet: each section has its own)."""
        self.notes = {part: message_text() for part in ("games", "settle", "entries", "ledger", "night")}
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
                say(note, "")
        say(self.notes[part], words, error=error)
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
        refresh(self.body)
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
            ft.Text(day_once(night, ", ".join(night.players)), size=16),
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
                    label = f"{game_name(s.game)} with {', '.join(s.players)}"
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
                choice_button(f"{p} pays", entry["payer"] == p, click(choose, "payer", p)) for p in night.players
            ]
            receiver_row.controls = [
                choice_button(f"To {p}", entry["receiver"] == p, click(choose, "receiver", p))
                for p in night.players
                if p != entry["payer"]
            ] + [choice_button(SHARED_BILL, entry["receiver"] == SPLIT, lambda _: choose("receiver", SPLIT))]
            preview.value = self._preview(fmt)
            for control in (payer_row, receiver_row, preview):
                refresh(control)

        def typed(key: str) -> Callable[[Any], None]:
            def changed(event: Any) -> None:
                entry[key] = str(event.control.value or "")
                preview.value = self._preview(fmt)
                refresh(preview)

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
    return NightScreen(ctx, night_of(ctx, params["id"])).view()
