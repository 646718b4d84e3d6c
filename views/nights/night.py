"""``/nights/<id>``: the night's screen, with its games, the ledger, who pays whom tonight and the night's own
buttons.

The screen is one ``@ft.component`` (:func:`night_page`) over :class:`NightState`, an ``@ft.observable`` holding the
night as saved, the ledger entry being typed and what the last change said: a tap changes the state (through
:class:`~companion.night_service.NightService`) and the component renders again. Amounts are written with the
Settings' money as the screens show it (:attr:`~companion.settings.Settings.money_shown`); what is typed is read
with the night service's own format.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from companion.i18n import N_, Words
from companion.money import MoneyError, format_money, parse_money
from companion.night_ledger import TITLE, Transfer
from companion.night_model import SPLIT, Night, NightError
from companion.night_service import NightService
from views.context import ViewContext
from views.flet_private import component_node
from views.nights.common import click, day_once, game_name, night_of
from views.widgets import TAP, big_button, choice_button, heading, icon_button, paragraph, screen

SHARED_BILL = N_("Everyone: a shared bill")
"""The ledger's choice for a bill the payer already paid for the whole table (the pizza): split among everyone."""
PARTS = ("games", "settle", "entries", "ledger", "night")
"""The sections a change is said next to: under the games, the settle-up, the ledger's entries, the ledger's Add
button and the night's own buttons (the screen is long: a line at its top would be off screen)."""
MOVED = ("ledger", "night")
"""The sections whose change moves them down the screen (:meth:`NightDrawing.say`): what it said is in a snack bar
too."""


def _fresh_entry() -> dict[str, Any]:
    return {"payer": None, "receiver": None, "amount": "", "note": ""}


def describe_typed(entry: dict[str, Any], fmt: Any, words: Words | None = None, shown: Any = None) -> str:
    """A ledger entry being typed, as a sentence that cannot be read backwards: ``Noah pays Pete $5.00``, or ``Rosa
    paid $40.00 for everyone: each of the others owes Rosa a share`` (no amount yet: without it).

    >>> from companion.money import MoneyFormat
    >>> describe_typed({"payer": "Noah", "receiver": "Pete", "amount": "5"}, MoneyFormat())
    'Noah pays Pete $5.00'
    >>> describe_typed({"payer": "Rosa", "receiver": SPLIT, "amount": ""}, MoneyFormat())
    'Rosa paid for everyone: each of the others owes Rosa a share'

    The amount is read with ``fmt`` and written with ``shown`` (``fmt`` when not given).
    """
    amount = str(entry.get("amount") or "").strip()
    money = ""
    if amount:
        with contextlib.suppress(MoneyError):
            money = " " + format_money(parse_money(amount, fmt), shown or fmt)
    payer, receiver = entry["payer"], entry["receiver"]
    if words is not None and words.code != "en":
        _ = words.gettext
        if receiver == SPLIT:
            said = (
                _("{payer} paid {money} for everyone: each of the others owes {payer} a share")
                if money
                else _("{payer} paid for everyone: each of the others owes {payer} a share")
            )
            return said.format(payer=payer, money=money.strip())
        said = _("{payer} pays {receiver} {money}") if money else _("{payer} pays {receiver}")
        return said.format(payer=payer, receiver=receiver, money=money.strip())
    if receiver == SPLIT:
        return f"{payer} paid{money} for everyone: each of the others owes {payer} a share"
    return f"{payer} pays {receiver}{money}"


@ft.observable
@dataclass
class EntryForm:
    """The ledger entry being typed (``payer``, ``receiver``, ``amount``, ``note``): its own observable, so that a
    keystroke renders the form again, not the whole night."""

    entry: dict[str, Any] = field(default_factory=_fresh_entry)


@ft.observable
@dataclass
class NightState:
    """What the night's screen shows: the night as saved, the name being typed, the ledger entry being typed, and
    what the last change said next to its section (``{part: (words, error)}``, one part at a time)."""

    night: Night
    rename_to: str = ""
    form: EntryForm = field(default_factory=EntryForm)
    said: dict[str, tuple[str, bool]] = field(default_factory=dict)


@ft.component
def night_page(state: NightState, ctx: ViewContext) -> ft.Control:
    """The night's games, settle-up, ledger and own buttons, drawn from ``state``."""
    return ft.Column(NightDrawing(state, ctx).controls(), spacing=12)


@ft.component
def ledger_form(form: EntryForm, state: NightState, ctx: ViewContext) -> ft.Control:
    """The ledger's form of an open night, drawn from ``form`` (see :meth:`NightDrawing.entry_form`)."""
    return ft.Column(NightDrawing(state, ctx).entry_form(form), spacing=12)


class NightDrawing:
    """One rendering of the night's screen: the controls drawn from the state, and the handlers that change it."""

    def __init__(self, state: NightState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.words = ctx.words
        self.nights: NightService = ctx.services.nights
        self.night = state.night
        self.fmt = self.nights.money
        """How typed amounts are read (the night service's format)."""
        self.shown = ctx.settings.money_shown
        """How amounts are written: the Settings' currency in the table's language."""

    def note(self, part: str) -> ft.Text:
        """What the last change said next to the section ``part`` (hidden when it said nothing there)."""
        words, error = self.state.said.get(part, ("", False))
        return ft.Text(words, size=16, visible=bool(words), color=ft.Colors.ERROR if error else None)

    def say(self, part: str, words: str, *, error: bool = False) -> None:
        """Say ``words`` next to the section ``part`` (and clear what the other sections said). What the night's
        own buttons did (closed, reopened, renamed, saved) and what the ledger's Add did are also said in a snack
        bar, at the bottom of the screen: closing or reopening the night takes the ledger's form away or brings it
        back above the night's buttons, and an entry added lengthens the settle-up and the ledger above the Add
        button (on a 360 × 740 phone, 155 px down), which moves the line under it off the screen."""
        self.state.said = {part: (words, error)} if words else {}
        if part in MOVED and words:
            with contextlib.suppress(AttributeError, RuntimeError, AssertionError):  # no page (a unit test)
                self.ctx.page.show_dialog(ft.SnackBar(ft.Text(words, semantics_label=words)))

    def act(self, change: Callable[[], Night], done: str, part: str) -> bool:
        """Make a change; the screen renders again. A refusal is said in words and nothing changes. Either is said
        next to the section ``part``, where the finger is."""
        try:
            night = change()
        except NightError as exc:
            self.say(part, self.words.gettext("Not done: {error}.").format(error=exc), error=True)
            return False
        self.state.night = night
        self.say(part, done)
        return True

    def on(self, change: Callable[[], Night], done: str, part: str) -> Callable[[Any], None]:
        """A click handler that makes ``change`` (see :meth:`act`)."""

        def handler(_: Any) -> None:
            self.act(change, done, part)

        return handler

    # -- layout --------------------------------------------------------------------------------------------------

    def controls(self) -> list[ft.Control]:
        night = self.night
        _ = self.words.gettext
        book = self.nights.ledger(night)
        settlement = self.nights.settlement(night)
        status = (
            _("Open: every game started now belongs to this night.")
            if night.is_open
            else _("Closed: no more games or entries; transfers can still be marked paid.")
        )
        out: list[ft.Control] = [
            ft.Text(day_once(night, ", ".join(night.players), self.words), size=16),
            ft.Text(status, size=16, semantics_label=status),
        ]
        if self.nights.last_problem and night.is_open:
            out.append(ft.Text(self.nights.last_problem, size=15, color=ft.Colors.ERROR))
        actions: list[ft.Control] = [
            big_button(
                _("Recap"),
                lambda _: self.ctx.navigate(f"/nights/{night.id}/recap"),
                icon=ft.Icons.CELEBRATION,
                primary=True,
            )
        ]
        if night.is_open:
            actions.append(
                big_button(_("New game for tonight"), lambda e: self.ctx.navigate("/new"), icon=ft.Icons.ADD)
            )
        out += [ft.Row([b]) for b in actions]
        out += self.games_section()
        out += self.settle_section(settlement, book.net)
        out += self.ledger_section(book)
        out += self.night_section()
        return out

    def games_section(self) -> list[ft.Control]:
        night = self.night
        _ = self.words.gettext
        out: list[ft.Control] = [heading(_("Games tonight ({n})").format(n=len(night.sessions)))]
        recap = self.nights.recap(night, self.words)
        for game in recap.games:
            line = f"{game.number}. {game.name}: {game.verdict}"
            row: list[ft.Control] = [
                ft.ListTile(  # grows with its line, which wraps whole (a button's fixed height cut it mid-line)
                    title=ft.Text(
                        line, size=16, semantics_label=_("Open game {n}: {line}").format(n=game.number, line=line)
                    ),
                    tooltip=_("Open game {n}: {line}").format(n=game.number, line=line),
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
                        _("Take game {n} out of the night").format(n=game.number),
                        self.on(
                            partial(self.nights.remove_game, night.id, game.session_id),
                            _("Game {n} is no longer part of the night.").format(n=game.number),
                            "games",
                        ),
                    )
                )
            out.append(ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        if not recap.games:
            out.append(paragraph(_("No games yet: start one with New game for tonight.")))
        if night.is_open:
            candidates = self.nights.candidates(night, limit=8)
            if candidates:
                out.append(ft.Text(_("Add a game played earlier:"), size=16))
                for s in candidates:
                    label = _("{game} with {names}").format(
                        game=game_name(s.game, self.words), names=", ".join(s.players)
                    )
                    out.append(
                        ft.Row(
                            [
                                big_button(
                                    _("Add {game}").format(game=label),
                                    self.on(
                                        partial(self.nights.add_game, night.id, s.id),
                                        _("The game is part of the night."),
                                        "games",
                                    ),
                                    icon=ft.Icons.PLAYLIST_ADD,
                                    tooltip=_("Add to the night: {game} ({id})").format(game=label, id=s.id[:6]),
                                )
                            ]
                        )
                    )
        out.append(self.note("games"))
        return out

    def settle_section(self, settlement: Any, net: dict[str, int]) -> list[ft.Control]:
        night, fmt = self.night, self.shown
        _ = self.words.gettext
        out: list[ft.Control] = [heading(_(TITLE)), self.note("settle")]
        money = ", ".join(f"{name} {format_money(net.get(name, 0), fmt, signed=True)}" for name in net)
        said = _("Tonight's money: {money}").format(money=money)
        out.append(ft.Text(said, size=16, semantics_label=said))
        for t in settlement.paid:
            text = t.describe(fmt, self.words)
            out.append(
                ft.Row(
                    [
                        ft.Text(f"{text} ✓", size=18, expand=True, semantics_label=text),
                        ft.OutlinedButton(
                            content=ft.Text(
                                _("Undo"), semantics_label=_("Not paid after all: {transfer}").format(transfer=text)
                            ),
                            tooltip=_("Not paid after all: {transfer}").format(transfer=text),
                            height=TAP,
                            on_click=self.on(
                                partial(self.nights.unmark_paid, night.id, t.payer, t.receiver, t.amount),
                                _("Not paid after all: {transfer}.").format(transfer=text),
                                "settle",
                            ),
                        ),
                    ]
                )
            )
        for t in settlement.outstanding:
            out.append(self._transfer_row(t))
        if not settlement.outstanding:
            out.append(
                ft.Text(_("Everyone is square."), size=16)
                if settlement.paid
                else ft.Text(_("Nobody owes anybody anything."), size=16)
            )
        return out

    def _transfer_row(self, t: Transfer) -> ft.Control:
        text = t.describe(self.shown, self.words)
        night = self.night
        _ = self.words.gettext
        return ft.Row(
            [
                ft.Text(text, size=18, expand=True, semantics_label=text),
                ft.FilledButton(  # shows "Mark paid"; its node is named with its own transfer
                    content=ft.Text(_("Mark paid"), semantics_label=_("Mark paid: {transfer}").format(transfer=text)),
                    tooltip=_("Mark paid: {transfer}").format(transfer=text),
                    height=TAP,
                    on_click=self.on(
                        lambda: self.nights.mark_paid(night.id, t.payer, t.receiver, t.amount),
                        _("Paid: {transfer}.").format(transfer=text),
                        "settle",
                    ),
                ),
            ]
        )

    def ledger_section(self, book: Any) -> list[ft.Control]:
        night = self.night
        _ = self.words.gettext
        out: list[ft.Control] = [heading(_("The ledger"))]
        for game in book.games:
            if game.note:
                out.append(ft.Text(game.note_in(self.words), size=15))
        for n, entry in enumerate(night.entries, start=1):
            text = entry.describe(self.shown, self.words)
            row: list[ft.Control] = [
                ft.Text(text, size=16, expand=True, semantics_label=_("Entry {n}: {entry}").format(n=n, entry=text))
            ]
            if night.is_open:
                row.append(
                    icon_button(
                        ft.Icons.DELETE_OUTLINE,
                        _("Remove entry {n}").format(n=n),
                        self.on(
                            partial(self.nights.remove_entry, night.id, entry.id),
                            _("The entry was removed."),
                            "entries",
                        ),
                    )
                )
            out.append(ft.Row(row))
        if not night.entries:
            out.append(paragraph(_("No entries by hand yet: a side bet, the pizza…")))
        out.append(self.note("entries"))
        if night.is_open:
            out.append(ledger_form(self.state.form, self.state, self.ctx))
        return out

    def entry_form(self, form: EntryForm) -> list[ft.Control]:
        """Add an entry: who pays, who receives it (one player, or everyone: a bill the payer already paid for the
        table), the amount and a note; the entry is said as a whole sentence before it is added."""
        night, entry = self.night, form.entry
        _ = self.words.gettext

        def choose(key: str, value: str) -> None:
            entry[key] = value
            if key == "payer" and entry["receiver"] == value:
                entry["receiver"] = None  # nobody pays themselves

        def typed(key: str) -> Callable[[Any], None]:
            def changed(event: Any) -> None:
                entry[key] = str(event.control.value or "")

            return changed

        def add(event: Any) -> None:
            if entry["payer"] is None or entry["receiver"] is None:
                self.say("ledger", _("Not added: choose who pays and who receives it (or a shared bill)."), error=True)
                return
            typed_entry = dict(entry)
            added = self.act(
                lambda: self.nights.add_entry(
                    night.id, typed_entry["payer"], typed_entry["receiver"], typed_entry["amount"], typed_entry["note"]
                ),
                _("Added to the ledger: {entry}.").format(
                    entry=describe_typed(typed_entry, self.fmt, self.words, self.shown)
                ),
                "ledger",
            )
            if added:
                form.entry = _fresh_entry()  # a fresh form once added; refused: nothing typed is lost

        payer_row = ft.Row(
            [
                choice_button(_("{name} pays").format(name=p), entry["payer"] == p, click(choose, "payer", p))
                for p in night.players
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
        receiver_row = ft.Row(
            [
                choice_button(_("To {name}").format(name=p), entry["receiver"] == p, click(choose, "receiver", p))
                for p in night.players
                if p != entry["payer"]
            ]
            + [choice_button(_(SHARED_BILL), entry["receiver"] == SPLIT, click(choose, "receiver", SPLIT))],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
        return [
            ft.Text(_("Add an entry"), size=18, weight=ft.FontWeight.BOLD),
            ft.Text(_("Who pays? (For a bill already paid for the table, such as the pizza: who paid it.)"), size=16),
            payer_row,
            ft.Text(_("Who receives the money?"), size=16),
            receiver_row,
            ft.TextField(
                label=_("Amount"),
                value=entry["amount"],
                on_change=typed("amount"),
                tooltip=_("Amount"),
                keyboard_type=ft.KeyboardType.NUMBER,
                height=TAP + 8,
            ),
            ft.TextField(
                label=_("Note"),
                value=entry["note"],
                on_change=typed("note"),
                tooltip=_("Note"),
                max_length=200,
                height=TAP + 24,
            ),
            ft.Text(self._preview(entry), size=16),
            ft.Row([big_button(_("Add to the ledger"), add, icon=ft.Icons.ADD_CARD)]),
            self.note("ledger"),
        ]

    def _preview(self, entry: dict[str, Any]) -> str:
        """The entry being typed as a sentence (``Noah pays Pete $5.00.``), or what is still missing."""
        fmt = self.fmt
        _ = self.words.gettext
        amount = entry["amount"].strip()
        if not amount:
            cents = None
        else:
            try:
                cents = parse_money(amount, fmt)
            except MoneyError as exc:
                return _("Amount: {error}.").format(error=exc)
        if entry["payer"] is None or entry["receiver"] is None:
            missing = _("who pays") if entry["payer"] is None else _("who receives it")
            shown = _("not typed yet") if cents is None else format_money(cents, self.shown)
            return _("Amount: {amount}. Still to choose: {missing}.").format(amount=shown, missing=missing)
        if cents is None:
            return _("{entry}: amount not typed yet.").format(entry=describe_typed(entry, fmt, self.words, self.shown))
        return describe_typed({**entry, "amount": amount}, fmt, self.words, self.shown) + "."

    def night_section(self) -> list[ft.Control]:
        night = self.night
        _ = self.words.gettext
        out: list[ft.Control] = [heading(_("The night"))]
        out.append(
            ft.TextField(
                label=_("Night name"),
                value=night.name,
                on_change=lambda e: setattr(self.state, "rename_to", str(e.control.value or "")),
                tooltip=_("Night name"),
                max_length=100,
                height=TAP + 24,
            )
        )
        buttons: list[ft.Control] = [
            big_button(
                _("Rename"), self.on(lambda: self.nights.rename(night.id, self.state.rename_to), _("Renamed."), "night")
            )
        ]
        if night.is_open:
            buttons.append(
                big_button(_("Close the night"), self.on(lambda: self.nights.close(night.id), _("Closed."), "night"))
            )
        else:
            buttons.append(
                big_button(
                    _("Reopen the night"), self.on(lambda: self.nights.reopen(night.id), _("Reopened."), "night")
                )
            )
        out += [ft.Row([b]) for b in buttons]
        out.append(
            ft.Row(
                [
                    big_button(
                        _("Export the night"),
                        lambda e: self.save("json"),
                        icon=ft.Icons.SAVE_ALT,
                        tooltip=_("Export the night"),
                    )
                ]
            )
        )
        out.append(self.note("night"))
        return out

    def save(self, kind: str) -> None:
        try:
            path = self.nights.save_to_exports(self.night.id, kind, words=self.words)
        except NightError as exc:
            self.say("night", self.words.gettext("Not saved: {error}.").format(error=exc), error=True)
            return
        self.say("night", self.words.gettext("Saved to {path}").format(path=path))


def build_night(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/nights/<id>``: one night."""
    night = night_of(ctx, params["id"])
    state = NightState(night, rename_to=night.name)
    return screen(ctx, night.name, [component_node(night_page, state, ctx)])
