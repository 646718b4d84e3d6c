"""The app shell: turns the page's route into a stack of screens, handles Back, applies the theme.

One :class:`Shell` per browser tab (Flet page); it keeps that page's own state (:class:`~views.context.PageState`:
its seat at the live table, the game its table screen follows) and hands it to every screen through the
:class:`~views.context.ViewContext`. All tabs share one :class:`~companion.services.AppServices`; a settings change
in one tab redraws every open tab.

**Nothing is drawn twice.** Flet matches controls by identity, so a screen built again is sent again whole.

* Opening a screen from another (``/history`` → ``/stats``) keeps the screens below it that were already drawn
  (they are hidden under the new one; each is built afresh when Back brings it to the top): only the new screen is
  built and sent.
* A reload of the tab (or a network drop) reconnects the browser to the same Flet session, and Flet sends it the
  whole page as it stands (``flet_web``'s register answer). The shell keeps following settings and its games for
  :data:`RECONNECT_GRACE_S` after a disconnect, so that page is current; on the reconnect it draws again only if
  the settings or the data folder (:meth:`~companion.services.AppServices.data_version`) changed meanwhile. A
  reload then costs what a first visit costs, not twice that.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence

import flet as ft

from companion.config import APP_TITLE
from companion.i18n import LANGUAGES
from companion.services import AppServices
from companion.settings import Settings, Theme
from views.context import FOLLOWS_SETTINGS, PageState, ViewContext
from views.flet_private import run_component_updates
from views.keep_awake import KeepAwake
from views.not_found import build_not_found
from views.routes import ROUTES
from views.routing import Route, find_route, normalise, parent_path, stack_paths
from views.seat import Seat, seat_for

_log = logging.getLogger(__name__)

RECONNECT_GRACE_S = 30.0
"""Seconds a disconnected page keeps following settings and its games: a reload reconnects within a second or two
and finds its page current; a page gone longer stops following and is drawn anew if it comes back."""

THEME_MODES = {Theme.LIGHT: ft.ThemeMode.LIGHT, Theme.DARK: ft.ThemeMode.DARK, Theme.SYSTEM: ft.ThemeMode.SYSTEM}
SEED_COLOUR = ft.Colors.GREEN_800
"""The theme's seed: card-table green."""
APP_FONT = "DejaVu Sans"
APP_FONTS = {APP_FONT: "fonts/DejaVuSans.ttf"}
"""Served from ``assets/``: the browser view is offline, and Flutter's default font has no ♠ ♥ ♦ ♣."""


def apply_theme(page: ft.Page, settings: Settings) -> None:
    """Set the page's light and dark themes and which of them is shown."""
    page.fonts = APP_FONTS
    page.theme = ft.Theme(color_scheme_seed=SEED_COLOUR, font_family=APP_FONT)
    page.dark_theme = ft.Theme(color_scheme_seed=SEED_COLOUR, font_family=APP_FONT)
    page.theme_mode = THEME_MODES[settings.theme]
    wanted = locale_configuration(settings)
    current = getattr(page, "locale_configuration", None)
    if current is None or current.current_locale != wanted.current_locale:  # only a new language is sent
        page.locale_configuration = wanted


LOCALES = tuple(ft.Locale(code) for code in LANGUAGES)
"""The locales Flet's own widgets (date pickers, text-field menus, tooltips) are told the app speaks, English first:
the fallback."""


def locale_configuration(settings: Settings) -> ft.LocaleConfiguration:
    """The locale of Flet's own widgets: the table's language (English for the pseudo-language).

    >>> locale_configuration(Settings(language="sv")).current_locale
    Locale(language_code='sv', country_code=None, script_code=None)
    """
    code = settings.words.locale.language
    return ft.LocaleConfiguration(supported_locales=list(LOCALES), current_locale=ft.Locale(code))


class Shell:
    """Draws the screens of one page from its route, using the route table."""

    def __init__(self, page: ft.Page, services: AppServices, routes: Sequence[Route] = ROUTES) -> None:
        self.page = page
        self.services = services
        self.routes = routes
        self._unsubscribe: Callable[[], None] | None = None
        self._lock = threading.RLock()
        self.state = PageState()
        """This page's own state: its seat at the live table (a viewer's page is held to the live view,
        ``views/live.py``) and the game its table screen follows."""
        self.keep_awake: KeepAwake | None = None
        """The page's wakelock: on while a game's table is shown, unless Settings turn it off."""
        self.built: dict[str, ft.View] = {}
        """The screens of the last drawing that a route builder made, by path: those still below the top are kept
        by the next drawing instead of being built (and sent) again."""
        self.drawn: tuple[Settings, tuple[object, ...]] | None = None
        """The settings and the data folder's version (:meth:`AppServices.data_version`) of the last drawing."""
        self.drawings = 0
        """How many times the page was drawn (:meth:`render`)."""
        self._release_timer: threading.Timer | None = None

    @property
    def seat(self) -> Seat | None:
        """This page's seat at the live table (``None`` until the shell starts)."""
        return self.state.seat

    def start(self) -> None:
        """Show the page for its current route and start listening to navigation and settings changes."""
        page = self.page
        page.title = APP_TITLE
        self.state.seat = seat_for(page, self.services)
        self.keep_awake = KeepAwake(page)
        apply_theme(page, self.services.settings.current())
        page.on_route_change = self._on_route_change
        page.on_view_pop = self._on_view_pop
        page.on_connect = self._on_connect
        page.on_disconnect = self._on_disconnect
        page.on_close = self._on_close
        page.on_resize = self.resized
        self._unsubscribe = self.services.settings.subscribe(self._on_settings)
        run_component_updates(page)  # the screens made of components (Settings, Players, the nights)
        self.render()

    def views_for(self, route: str, settings: Settings, keep: Mapping[str, ft.View] | None = None) -> list[ft.View]:
        """The stack of screens for ``route``: its ancestors first.

        An ancestor whose path is in ``keep`` is that screen, not a new one (the top screen is built, unless it
        follows the settings itself: :data:`~views.context.FOLLOWS_SETTINGS`).
        A path the app does not have ends the stack with a "Not found" screen saying why; its Back button goes to
        the last screen that does exist.
        """
        path = normalise(route)
        seat = self.state.seat
        if seat is not None:
            seat.at(path)
            if seat.locked:  # decided on the server: whatever route a viewer asks for, it gets the live view
                ctx = ViewContext(
                    page=self.page, services=self.services, settings=settings, path=path, state=self.state
                )
                from views.live import locked_views  # imported when a viewer's page first opens

                return locked_views(seat, ctx)
        views: list[ft.View] = []
        built: dict[str, ft.View] = {}
        self.built = built
        for step in stack_paths(path):
            kept = keep.get(step) if keep is not None and step != path else None
            if step == path and keep is not None and getattr(keep.get(step), "data", None) == FOLLOWS_SETTINGS:
                kept = keep.get(step)  # e.g. Settings: it shows the change itself and keeps its scroll position
            if kept is not None:
                views.append(kept)
                built[step] = kept
                continue
            ctx = ViewContext(page=self.page, services=self.services, settings=settings, path=step, state=self.state)
            found = find_route(self.routes, step)
            problem = settings.words.gettext("The app has no page at {path}.").format(path=path)
            if found is not None:
                route_entry, params = found
                try:
                    view = route_entry.builder(ctx, params)
                    views.append(view)
                    built[step] = view
                    continue
                except ValueError as exc:  # e.g. /rules/<a game the app does not know>
                    if step == path:
                        problem = str(exc)
            elif step != path:
                continue  # a path segment with no screen of its own (none yet); the full path may still exist
            last = views[-1].route if views else "/"
            lost = ViewContext(
                page=self.page, services=self.services, settings=settings, path=path, back_to=last, state=self.state
            )
            views.append(build_not_found(lost, problem))
            break
        return views

    def render(self, *, anew: bool = False) -> None:
        """Draw the page's screens for its current route: the top one built, those below it kept from the last
        drawing when they were there (unless ``anew``, or the settings changed: then every one is built)."""
        with self._lock:
            settings = self.services.settings.current()
            data = self.services.data_version()
            same = not anew and self.drawn is not None and self.drawn[0] == settings
            if same:
                keep = self.built
            elif self.drawn is not None and self.drawn[0].words is not settings.words:
                keep = {}  # another language: every word on every screen changes, the app bar's too
            else:
                keep = {path: v for path, v in self.built.items() if v.data == FOLLOWS_SETTINGS}
            views = self.views_for(self.page.route or "/", settings, keep)
            self.drawn = (settings, data)
            self.drawings += 1
            self.page.views.clear()
            self.page.views.extend(views)
            self.page.update()
            if self.keep_awake is not None:
                self.keep_awake.follow(self.page.route or "/", keep_awake=settings.keep_awake)

    def current(self) -> bool:
        """Whether the page shows what the last drawing would show now: the same settings and an unchanged data
        folder."""
        with self._lock:
            return self.drawn == (self.services.settings.current(), self.services.data_version())

    def _on_route_change(self, event: ft.RouteChangeEvent) -> None:
        self.render()

    def resized(self, event: ft.PageResizeEvent) -> None:
        """The page changed size: Flet's client sends the new width and height (``page.width``, ``page.height``)
        before this event, and the table screen the page shows lays itself out again for them."""
        self.state.resized()

    def _on_view_pop(self, event: ft.ViewPopEvent) -> None:
        self.page.navigate(parent_path(normalise(event.route)))

    def _on_settings(self, settings: Settings) -> None:
        # Called on the thread that saved the change, possibly another tab's: hand the redraw to this page's own
        # executor so that a slow or closed tab never holds up the one where the change was made.
        try:
            self.page.run_thread(self._apply_settings, settings)
        except Exception:  # the page's session is gone
            _log.debug("page closed; no longer following settings", exc_info=True)
            self._stop_following()

    def _apply_settings(self, settings: Settings) -> None:
        with self._lock:
            apply_theme(self.page, settings)
        self.render(anew=True)

    def _on_disconnect(self, event: ft.Event[ft.Page]) -> None:
        # A reload or a network drop: Flet keeps the session for the tab to come back to. Keep following (the
        # page stays current, updates are dropped until then) for a grace period, then stop.
        with self._lock:
            self._cancel_release()
            timer = threading.Timer(RECONNECT_GRACE_S, self._release_if_gone)
            timer.daemon = True
            self._release_timer = timer
        timer.start()

    def _on_connect(self, event: ft.Event[ft.Page]) -> None:
        # The same tab came back (a reload, or after a network drop) and Flet has sent it the page as it stands.
        with self._lock:
            self._cancel_release()
            released = self._unsubscribe is None
            if released:  # gone longer than the grace period: follow settings again, draw everything anew
                self._unsubscribe = self.services.settings.subscribe(self._on_settings)
        if released:
            self._apply_settings(self.services.settings.current())
        elif not self.current():  # something changed meanwhile: the top screen is built again
            self.render()

    def _on_close(self, event: ft.Event[ft.Page]) -> None:
        with self._lock:
            self._cancel_release()
        self._stop_following()

    def _release_if_gone(self) -> None:
        # The connect event may have run before the disconnect event that started this timer: ask Flet.
        try:
            connected = self.page.session.connection is not None
        except Exception:  # the session is gone altogether
            connected = False
        if not connected:
            self._stop_following()

    def _cancel_release(self) -> None:
        timer, self._release_timer = self._release_timer, None
        if timer is not None:
            timer.cancel()

    def _stop_following(self) -> None:
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()
        self.state.release()


def warm_up() -> None:
    """Import the Flet classes the first page needs that Flet imports only when they are first used (the theme's,
    about 0.1 s of the processor's time): the server calls this once it listens, while the browser loads Flet's
    web client, so that the first page is drawn without waiting for them."""
    for name in ("Theme", "LocaleConfiguration", "Locale", "Row", "Column"):
        getattr(ft, name)


def make_page_handler(services: AppServices) -> Callable[[ft.Page], None]:
    """The function Flet calls for every new page (browser tab or window)."""

    def main(page: ft.Page) -> None:
        Shell(page, services).start()

    return main
