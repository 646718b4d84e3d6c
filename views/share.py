"""The host's Share screen (``/share``, ``/share/<id>``): the address phones open, its QR code, and the PIN.

Only the host reaches it (a viewer's page is held to ``/live`` by the shell). The PIN can be made anew or revoked;
revoking turns every editing phone back into a viewer at once, on the server. The refused PIN tries are shown
(how many, when the last one was, from which addresses), and whether phones must wait before the next try.

With sharing off (the app listens on this computer only) and in the packaged app (a phone or desktop build, which
serves no live table), the screen says so plainly and shows no address or QR code that no phone could open.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import flet as ft

from companion.config import PACKAGED_DATA_ENV
from companion.i18n import N_, Words
from companion.sharing import (
    Access,
    LiveTable,
    PinTries,
    Role,
    SharingError,
    duration_text,
    qr_png,
)
from views.context import ViewContext
from views.table.entry import refresh, said
from views.widgets import big_button, empty_state, paragraph, screen

PACKAGED_NOTE = (
    N_("The live table needs the computer version"),
    N_(
        "This app keeps the score on this device only. For every player to follow the game on their own phone, run "
        "Card Table Companion on a computer on the same Wi-Fi with 'companion --share' and open its Share screen."
    ),
)
SHARING_OFF_NOTE = (
    N_("Sharing is off"),
    N_(
        "Only this computer can open the app. Start it with 'companion --share' so that phones on the same Wi-Fi "
        "can follow the game; this screen then shows the address and its QR code."
    ),
)
ENGLISH = Words.of("en")


def packaged_app(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this is the packaged app (Flet gives it an app-storage folder), which serves no live table.

    >>> packaged_app({"FLET_APP_STORAGE_DATA": "/data/user/0/org.cardtablecompanion/files"}), packaged_app({})
    (True, False)
    """
    return bool((os.environ if environ is None else environ).get(PACKAGED_DATA_ENV))


class ShareScreen:
    """Address, QR code and PIN; redrawn in place when the PIN changes."""

    words: Words = ENGLISH
    """The table's words (the screen's own, from its context)."""

    def __init__(self, ctx: ViewContext, session_id: str | None) -> None:
        self.ctx = ctx
        self.words = ctx.words
        self.live: LiveTable = ctx.services.live
        self.session_id = session_id
        self.body = ft.Column(spacing=12)
        self.message = ft.Text("", color=ft.Colors.ERROR, size=16, visible=False)

    def view(self) -> ft.View:
        if self.session_id is not None:
            try:
                self.live.open(self.session_id)
            except SharingError as exc:
                raise ValueError(str(exc)) from None
            self.live.show(self.session_id)
        self.rebuild()
        return screen(self.ctx, self.words.gettext("Share the table"), [self.body])

    def rebuild(self) -> None:
        _ = self.words.gettext
        address = self.live.address
        url = address.live_url(self.session_id)
        parts: list[ft.Control] = []
        if packaged_app():
            self.body.controls = [empty_state(*map(_, PACKAGED_NOTE)), self.message]
            return
        if not address.shared:
            parts.append(empty_state(*map(_, SHARING_OFF_NOTE)))  # and no address or QR code that no phone could open
        else:
            parts.append(paragraph(_("Players open this address on their phones (same Wi-Fi) or scan the code:")))
            parts.append(
                ft.Text(
                    url,
                    size=20,
                    weight=ft.FontWeight.BOLD,
                    selectable=True,
                    semantics_label=_("Address {url}").format(url=url),
                )
            )
            parts.append(
                ft.Image(
                    src=qr_png(url),
                    width=240,
                    height=240,
                    semantics_label=_("QR code of {url}").format(url=url),
                    gapless_playback=True,
                )
            )
        pin = self.live.pin
        if pin is None:
            pin_text = _("No PIN: phones can only watch")
            parts.append(ft.Text(pin_text, size=20, semantics_label=pin_text))
        else:
            parts.append(paragraph(_("To enter hands from a phone, a player types this PIN:")))
            parts.append(
                ft.Text(
                    " ".join(pin),
                    size=40,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=_("PIN {pin}").format(pin=pin),
                    font_family="monospace",
                )
            )
        tries = tries_text(self.live.pin_tries(), words=self.words)
        parts.append(ft.Text(tries, size=16, semantics_label=tries))
        buttons: list[ft.Control] = [big_button(_("New PIN"), self.new_pin, icon=ft.Icons.REFRESH)]
        if pin is not None:
            buttons.append(big_button(_("Revoke PIN"), self.revoke_pin, icon=ft.Icons.BLOCK))
        parts.append(ft.Row(buttons))
        parts.append(self.message)
        self.body.controls = parts

    def access(self) -> Access:
        """This page's access (checked again by the live table: only the host may change the PIN)."""
        state = self.ctx.state
        seat = state.seat if state is not None else None
        return seat.access if seat is not None else Access(Role.VIEWER)

    def new_pin(self, _: Any = None) -> None:
        self._pin_action(lambda: self.live.new_pin(self.access()))

    def revoke_pin(self, _: Any = None) -> None:
        self._pin_action(lambda: self.live.revoke_pin(self.access()))

    def _pin_action(self, action: Any) -> None:
        try:
            action()
        except SharingError as exc:
            self.rebuild()
            self.message.value = said(self.words, exc)
            self.message.visible = True
            refresh(self.body)
            return
        self.message.visible = False
        self.show()

    def show(self) -> None:
        self.rebuild()
        refresh(self.body)


def tries_text(tries: PinTries, shown: int = 3, words: Words = ENGLISH) -> str:
    """What the host reads about refused PIN tries.

    >>> tries_text(PinTries())
    'No refused PIN tries.'
    >>> import datetime
    >>> last = datetime.datetime(2026, 5, 1, 21, 4, 13)
    >>> text = tries_text(PinTries(7, 6, last, (("10.0.0.7", 5), ("10.0.0.8", 1), ("a", 1), ("b", 1)), wait_s=61))
    >>> first, second = text.split(". ")
    >>> first
    'Refused PIN tries: 7, the last at 21:04:13, from 10.0.0.7 (5), 10.0.0.8 (1), a (1) and 1 more'
    >>> second
    'Phones wait 2 min before the next try; a new PIN lifts the wait.'
    """
    _ = words.gettext
    if tries.refused == 0:
        return _("No refused PIN tries.")
    where = ", ".join(f"{client} ({count})" for client, count in tries.clients[:shown])
    if len(tries.clients) > shown:
        where = _("{names} and {n} more").format(names=where, n=len(tries.clients) - shown)
    if tries.last is not None:
        text = _("Refused PIN tries: {n}, the last at {time}, from {where}.").format(
            n=tries.refused, time=f"{tries.last:%H:%M:%S}", where=where
        )
    else:
        text = _("Refused PIN tries: {n}, from {where}.").format(n=tries.refused, where=where)
    if tries.wait_s > 0:
        text += " " + _("Phones wait {wait} before the next try; a new PIN lifts the wait.").format(
            wait=duration_text(tries.wait_s)
        )
    return text


def build_share(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/share`` (the game at the table) and ``/share/<id>`` (that game becomes the one phones follow)."""
    return ShareScreen(ctx, params.get("id")).view()
