"""The live table: other phones follow the game, and edit it only with the host's PIN.

No Flet in here. ``companion --share`` serves the app on the local network (never by default); this module knows
the address to give out, draws its QR code, keeps the PIN, and decides what each page session may do:

* the **host** (a browser on this computer that did not come in through the viewer address) may do anything;
* a **viewer** (any other device, or any page opened at ``/live``) sees the current game, read-only;
* an **editor** is a viewer that entered the PIN; the host can revoke the PIN, which makes every editor a viewer
  again at once.

Every change a live page makes goes through :meth:`LiveTable.apply_as`, which checks the page's :class:`Access`
on the server (a viewer that sends events by hand still cannot change anything) and then makes the
:class:`~companion.session.Edit` with :meth:`~companion.session.TableSession.make`, as the host's table does.

>>> import tempfile, pathlib
>>> from storage import Archive
>>> from companion.session import SessionService
>>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
>>> live = LiveTable(SessionService(archive), pin="246810")
>>> table = live.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
>>> hand = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
>>> phone = access_for(client_ip="192.168.1.20", page_url="http://192.168.1.5:8550", route="/live")
>>> phone.role, live.can_edit(phone)
(<Role.VIEWER: 'viewer'>, False)
>>> live.apply_as(phone, table.id, Edit.add(hand))
Traceback (most recent call last):
...
companion.sharing.NotAllowedError: this phone can only watch the game: enter the host's PIN to make changes
>>> editor = live.enter_pin(phone, "246810")
>>> live.apply_as(editor, table.id, Edit.add(hand, expected_version=table.version)).totals["Ann"]
2
>>> live.revoke_pin(HOST)
>>> live.can_edit(editor)
False
>>> archive.close()
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from urllib.parse import urlsplit

from companion.i18n import N_
from companion.listeners import Listeners
from companion.session import HOST_DEVICE, SessionService, TableSession
from companion.session import Edit as Edit  # the edit a page asks for (made by TableSession.make)
from companion.session import EditKind as EditKind
from scoring import Result
from scoring.base import passes
from scoring.why import Note, render
from storage import SessionStatus, StorageError

_log = logging.getLogger(__name__)

PIN_LENGTHS = range(4, 7)
"""A PIN has 4 to 6 digits."""
DEFAULT_PIN_LENGTH = 6
"""A new PIN has 6 digits: a million PINs to guess from."""
MAX_PIN_TRIES = 5
"""Wrong PINs at one table (from every device together) that need no wait; after that each wrong PIN makes every
device wait before the next try, twice as long each time."""
PIN_WAIT_SECONDS = 30.0
"""The wait after the :data:`MAX_PIN_TRIES`-th wrong PIN (then 60 s, 120 s, ...)."""
MAX_PIN_WAIT_SECONDS = 3600.0
"""The longest wait between two tries (a new PIN from the host lifts any wait)."""
MAX_TRACKED_CLIENTS = 100
"""Addresses whose refused tries are counted one by one; more are counted together (memory stays bounded)."""
LIVE_PATH = "/live"
"""The viewer address: ``/live`` follows the host's current game, ``/live/<id>`` one game."""
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


class SharingError(ValueError):
    """Something about sharing the table went wrong; the message says what, for the person at the screen. Made from
    a :class:`~scoring.why.Note`, the message is the note in English and ``why`` keeps the note, so that a screen
    says it in the table's language.

    >>> error = WrongPinError(Note.of(N_("that is not the PIN the host shows")))
    >>> str(error), error.why.text
    ('that is not the PIN the host shows', 'that is not the PIN the host shows')
    """

    def __init__(self, message: str | Note) -> None:
        super().__init__(render(message) if isinstance(message, Note) else message)
        self.why = message if isinstance(message, Note) else None
        """The message as data, when it was made from a note."""


class NotAllowedError(SharingError):
    """This page may only watch: a viewer without the PIN (or whose PIN was revoked) tried to change the game."""


class WrongPinError(SharingError):
    """The PIN entered is not the host's PIN."""


class PinLockedError(SharingError):
    """Too many wrong PINs at this table: every device must wait before the next try."""


class NoPinError(SharingError):
    """The host has no PIN at the moment (revoked): nobody can become an editor until the host makes a new one."""


class InvalidPinError(SharingError):
    """A PIN that is not 4 to 6 digits."""


class NoLiveGameError(SharingError):
    """There is no game to show: none was started yet, or the one asked for does not exist."""


class Role(StrEnum):
    """What a page session may do with the live game."""

    VIEWER = "viewer"
    """Sees the current game (scoreboard, hands and why), read-only."""
    EDITOR = "editor"
    """A viewer that entered the PIN: may enter and correct hands, undo and redo, while the PIN stands."""
    HOST = "host"
    """The browser on the computer that runs the app: the whole app, the PIN, and sharing."""


@dataclass(frozen=True)
class Access:
    """What one page session is, as decided on the server when the page connected (or entered the PIN).

    >>> Access(Role.EDITOR, "10.0.0.7", pin_epoch=3).locked
    True
    >>> HOST.locked
    False
    """

    role: Role
    client: str = ""
    """The device's address (its IP), shown to the host with each refused PIN try."""
    pin_epoch: int = 0
    """For an editor: which PIN it entered. Revoking or renewing the PIN makes older epochs worthless."""

    @property
    def locked(self) -> bool:
        """Whether the page is held to the live view (viewers and editors see nothing else of the archive)."""
        return self.role is not Role.HOST


HOST = Access(Role.HOST, "127.0.0.1")
"""The host's access (the browser on this computer)."""


def device_of(access: Access) -> str:
    """The device a page is on, whose hands being entered it keeps (:meth:`TableSession.drafts_for
    <companion.session.TableSession.drafts_for>`): the host's page, or a phone's seat (its address, which a reload
    keeps), so that two devices entering the same hand never overwrite each other.

    >>> device_of(HOST), device_of(Access(Role.EDITOR, "192.168.1.20", pin_epoch=2))
    ('host', 'seat:192.168.1.20')
    """
    if access.role is Role.HOST:
        return HOST_DEVICE
    return f"seat:{access.client or 'unknown'}"


def is_loopback(address: str | None) -> bool:
    """Whether ``address`` (an IP or a host name) is this computer itself.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("192.168.1.5")
    (True, True, True, False)
    >>> is_loopback(None), is_loopback("")
    (False, False)
    """
    if not address:
        return False
    host = address.strip().strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_live_path(path: str) -> bool:
    """``/live`` and ``/live/<id>`` (the only screens a viewer can open).

    >>> is_live_path("/live"), is_live_path("/live/abc"), is_live_path("/lively"), is_live_path("/history")
    (True, True, False, False)
    """
    parts = [part for part in urlsplit(path or "/").path.split("/") if part]
    return bool(parts) and parts[0] == LIVE_PATH.strip("/") and len(parts) <= 2


def access_for(*, client_ip: str | None, page_url: str | None, route: str | None) -> Access:
    """The access of a new page session.

    The host is a browser on this computer (its address is loopback) that opened the app through a loopback
    address and not at the viewer address ``/live``, or the app's own desktop window (no client address at all);
    everything else is a viewer. A phone on the network always connects from its own address, so it can never be
    the host, whatever it sends.

    >>> access_for(client_ip="127.0.0.1", page_url="http://127.0.0.1:8550", route="/").role
    <Role.HOST: 'host'>
    >>> access_for(client_ip="127.0.0.1", page_url="http://127.0.0.1:8550", route="/live").role
    <Role.VIEWER: 'viewer'>
    >>> access_for(client_ip="192.168.1.9", page_url="http://127.0.0.1:8550", route="/").role
    <Role.VIEWER: 'viewer'>
    >>> access_for(client_ip="127.0.0.1", page_url="http://192.168.1.5:8550", route="/").role
    <Role.VIEWER: 'viewer'>
    >>> access_for(client_ip="127.0.0.1", page_url="http://0.0.0.0:8550", route="/").role
    <Role.HOST: 'host'>
    """
    client = client_ip or ""
    url_host = urlsplit(page_url).hostname if page_url else None
    local_url = url_host is None or is_loopback(url_host) or url_host in ("0.0.0.0", "::")  # 0.0.0.0: this computer
    local_client = client_ip is None or is_loopback(client)  # None: not a web client (the desktop window)
    if local_client and local_url and not is_live_path(route or "/"):
        return Access(Role.HOST, client)
    return Access(Role.VIEWER, client)


# --- PINs ------------------------------------------------------------------------------------------------------


def generate_pin(length: int = DEFAULT_PIN_LENGTH) -> str:
    """A random PIN of ``length`` digits (4 to 6), from the operating system's secure random source.

    >>> pin = generate_pin(6)
    >>> len(pin), pin.isdigit()
    (6, True)
    >>> generate_pin(3)
    Traceback (most recent call last):
    ...
    companion.sharing.InvalidPinError: a PIN has 4 to 6 digits, not 3
    """
    if length not in PIN_LENGTHS:
        raise InvalidPinError(Note.of(N_("a PIN has 4 to 6 digits, not {n}"), n=length))
    return "".join(secrets.choice("0123456789") for _ in range(length))


def verify_pin_format(text: str) -> str:
    """The PIN in ``text`` (spaces removed), or :class:`InvalidPinError` saying what is wrong.

    >>> verify_pin_format(" 12 34 ")
    '1234'
    >>> verify_pin_format("12a4")
    Traceback (most recent call last):
    ...
    companion.sharing.InvalidPinError: a PIN is digits only (4 to 6 of them)
    """
    pin = "".join(str(text).split())
    if not pin.isdigit() or not pin.isascii():
        raise InvalidPinError(Note.of(N_("a PIN is digits only (4 to 6 of them)")))
    if len(pin) not in PIN_LENGTHS:
        raise InvalidPinError(Note.of(N_("a PIN has 4 to 6 digits, this one has {n}"), n=len(pin)))
    return pin


@dataclass(frozen=True)
class PinLimits:
    """How wrong PINs are limited at one table (the defaults are the app's), and what that means for a guesser.

    >>> limits = PinLimits()
    >>> [limits.wait(n) for n in range(1, 9)], limits.wait(12), limits.wait(10**9)
    ([0.0, 0.0, 0.0, 0.0, 30.0, 60.0, 120.0, 240.0], 3600.0, 3600.0)
    """

    free_tries: int = MAX_PIN_TRIES
    first_wait: float = PIN_WAIT_SECONDS
    max_wait: float = MAX_PIN_WAIT_SECONDS

    def wait(self, wrong: int) -> float:
        """Seconds every device must wait for the next try after ``wrong`` wrong PINs at the table."""
        if wrong < self.free_tries:
            return 0.0
        return float(min(self.first_wait * 2 ** min(wrong - self.free_tries, 64), self.max_wait))

    def seconds_before_try(self, tries: int) -> float:
        """The least time from the first try to try number ``tries`` (every try before it wrong), however many
        devices or addresses make them: the waits are for the table.

        >>> [PinLimits().seconds_before_try(k) for k in (1, 5, 6, 7, 9, 10, 12, 13)]
        [0.0, 0.0, 30.0, 90.0, 450.0, 930.0, 3810.0, 7410.0]
        """
        total, wrong = 0.0, 1
        while wrong < tries:
            wait = self.wait(wrong)
            if wait >= self.max_wait:  # from here on every wait is the longest one
                return total + (tries - wrong) * self.max_wait
            total += wait
            wrong += 1
        return total

    def tries_within(self, seconds: float) -> int:
        """How many PINs anyone can try at one table within ``seconds`` of the first try.

        >>> PinLimits().tries_within(600), PinLimits().tries_within(24 * 3600)
        (9, 34)
        """
        high = 2
        while self.seconds_before_try(high) <= seconds:
            high *= 2
        low = 1  # seconds_before_try(low) <= seconds < seconds_before_try(high)
        while high - low > 1:
            middle = (low + high) // 2
            if self.seconds_before_try(middle) <= seconds:
                low = middle
            else:
                high = middle
        return low

    def expected_seconds(self, digits: int = DEFAULT_PIN_LENGTH) -> float:
        """The mean time to find a random PIN of ``digits`` digits by trying each PIN once, in any order (the
        PIN is equally likely to be found at each try k: the mean of :meth:`seconds_before_try` over k).

        >>> round(PinLimits().expected_seconds() / (365.25 * 24 * 3600))  # years
        57
        """
        space = 10**digits
        knee = 1  # from try `knee` on, each try comes max_wait after the one before
        while knee < space and self.wait(knee) < self.max_wait:
            knee += 1
        head = sum(self.seconds_before_try(k) for k in range(1, knee + 1))
        rest = space - knee
        tail = rest * self.seconds_before_try(knee) + self.max_wait * rest * (rest + 1) / 2
        return (head + tail) / space


def duration_text(seconds: float) -> str:
    """A wait as people say it.

    >>> duration_text(30), duration_text(61), duration_text(3600), duration_text(7300)
    ('30 s', '2 min', '1 h', '2 h 2 min')
    """
    seconds = max(0, int(-(-seconds // 1)))  # whole seconds, rounded up
    if seconds < 60:
        return f"{seconds} s"
    minutes = -(-seconds // 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h" if minutes == 0 else f"{hours} h {minutes} min"


@dataclass(frozen=True)
class PinTries:
    """The refused PIN tries at this table, for the host's Share screen."""

    refused: int = 0
    """Tries refused since the app started: wrong PINs, and tries made while every device had to wait."""
    wrong: int = 0
    """Wrong PINs since the current PIN was made (they decide the wait)."""
    last: datetime | None = None
    """When the last try was refused (local time)."""
    clients: tuple[tuple[str, int], ...] = ()
    """Each address that made refused tries and how many, most recent first (``"other"`` past
    :data:`MAX_TRACKED_CLIENTS` addresses)."""
    wait_s: float = 0.0
    """Seconds until the next try is taken (0: a PIN can be tried now)."""


# --- addresses and QR codes ------------------------------------------------------------------------------------


def lan_address() -> str | None:
    """This computer's address on the local network (the one its default route uses), or ``None`` when it has
    none. Nothing is sent: a UDP socket is only pointed at a private address to ask which interface would be used.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 1))
                address = str(sock.getsockname()[0])
        except OSError:
            continue
        if address and not is_loopback(address) and address != "0.0.0.0":
            return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if is_loopback(address) else address


@dataclass(frozen=True)
class ShareAddress:
    """Where the server listens, and so what address the host can give out.

    >>> ShareAddress("127.0.0.1", 8550).shared
    False
    >>> ShareAddress("0.0.0.0", 8550, lan="192.168.1.5").live_url("ab12")
    'http://192.168.1.5:8550/live/ab12'
    """

    bind_host: str = "127.0.0.1"
    port: int = 8550
    lan: str | None = None
    """The LAN address when listening on all interfaces (found with :func:`lan_address`)."""

    @property
    def shared(self) -> bool:
        """Whether other devices can reach the server at all (``companion --share``)."""
        return not is_loopback(self.bind_host)

    @property
    def host(self) -> str:
        """The address to put in a link: the LAN address when shared on all interfaces, else the bound host."""
        if self.bind_host in ("0.0.0.0", "::", "", "*"):
            return self.lan or "127.0.0.1"
        return self.bind_host

    @classmethod
    def listening(cls, bind_host: str, port: int) -> ShareAddress:
        """Where a server listening on ``bind_host``:``port`` can be reached (on all interfaces, ``companion
        --share``: the LAN address is looked up once, here).

        >>> ShareAddress.listening("127.0.0.1", 8600)
        ShareAddress(bind_host='127.0.0.1', port=8600, lan=None)
        """
        lan = lan_address() if bind_host in ("0.0.0.0", "::", "", "*") else None
        return cls(bind_host, port, lan)

    def live_url(self, session_id: str | None = None) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        path = LIVE_PATH if session_id is None else f"{LIVE_PATH}/{session_id}"
        return f"http://{host}:{self.port}{path}"


def qr_png(text: str, *, scale: int = 8) -> bytes:
    """A QR code of ``text`` as PNG bytes (for ``ft.Image(src=...)``).

    >>> qr_png("http://192.168.1.5:8550/live")[:8] == bytes.fromhex("89504e470d0a1a0a")
    True
    """
    import io

    import segno

    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="png", scale=scale, border=2)
    return out.getvalue()


# --- the live table service -------------------------------------------------------------------------------------

LiveListener = Callable[["LiveTable"], None]
Deliver = Callable[[TableSession], None]
"""How a viewer is given the game after a change: it draws the newest state (on its own page) and returns."""


class LiveFeed:
    """Tells every viewer of a game about each change, off the thread that made it.

    The game is followed once, whatever the number of viewers: the thread that made a change (the host's
    Confirm) only marks the game as changed, and one thread of the feed then gives the game to each viewer in
    turn (:data:`Deliver`), once for the newest version (changes made meanwhile are given together). Each viewer
    draws from the view of the game :meth:`LiveTable.shared_view` builds once per version.

    >>> import tempfile, pathlib
    >>> from storage import Archive
    >>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
    >>> sessions = SessionService(archive)
    >>> table = sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
    >>> feed, seen, done = LiveFeed(), [], threading.Event()
    >>> stop = [feed.follow(table, lambda s, n=n: (seen.append((n, s.version)), done.set())) for n in range(3)]
    >>> len(table._listeners)
    1
    >>> _ = table.make(Edit.add({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}))
    >>> done.wait(5) and feed.idle(5)
    True
    >>> sorted(seen)
    [(0, 1), (1, 1), (2, 1)]
    >>> for unfollow in stop: unfollow()
    >>> len(table._listeners)
    0
    >>> feed.close(); archive.close()
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._viewers: dict[str, list[Deliver]] = {}
        self._unsubscribe: dict[str, Callable[[], None]] = {}
        self._changed: dict[str, TableSession] = {}
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.deliveries = 0
        """Viewers given a change so far (one per viewer per change given)."""

    def follow(self, session: TableSession, deliver: Deliver) -> Callable[[], None]:
        """Give ``session`` to ``deliver`` after each change of it; returns a function that stops."""
        with self._cond:
            self._viewers.setdefault(session.id, []).append(deliver)
            if session.id not in self._unsubscribe:
                self._unsubscribe[session.id] = session.subscribe(self._changed_now)
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._run, name="live-feed", daemon=True)
                self._thread.start()

        def unfollow() -> None:
            with self._cond:
                viewers = self._viewers.get(session.id, [])
                if deliver in viewers:
                    viewers.remove(deliver)
                if not viewers:
                    self._viewers.pop(session.id, None)
                    stop = self._unsubscribe.pop(session.id, None)
                    if stop is not None:
                        stop()

        return unfollow

    def viewers(self, session_id: str) -> int:
        """How many viewers follow game ``session_id``."""
        with self._cond:
            return len(self._viewers.get(session_id, []))

    def _changed_now(self, session: TableSession) -> None:
        """On the thread that made the change: note it, and return at once."""
        with self._cond:
            self._changed[session.id] = session
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._changed and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                changed = list(self._changed.values())
                self._changed.clear()
                self._busy = True
            try:
                for session in changed:
                    with self._cond:
                        viewers = list(self._viewers.get(session.id, []))
                    for deliver in viewers:
                        try:
                            deliver(session)
                        except Exception:  # one closed page must not keep the others from the change
                            _log.warning("a live viewer could not be given a change", exc_info=True)
                        self.deliveries += 1
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until every change so far was given to every viewer; ``False`` if ``timeout`` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._changed and not self._busy, timeout)

    def close(self) -> None:
        """Stop giving changes (the app is closing)."""
        with self._cond:
            self._closed = True
            for stop in self._unsubscribe.values():
                stop()
            self._unsubscribe.clear()
            self._viewers.clear()
            self._cond.notify_all()


class LiveTable:
    """Sharing state for one app: the address, the PIN, which game is live; gates every change made from a page.

    Thread-safe: page handlers of many browsers call it at once.
    """

    def __init__(
        self,
        sessions: SessionService,
        *,
        address: ShareAddress | None = None,
        pin: str | None = None,
        pin_length: int = DEFAULT_PIN_LENGTH,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], datetime] = lambda: datetime.now().astimezone(),
        max_tries: int = MAX_PIN_TRIES,
        lock_seconds: float = PIN_WAIT_SECONDS,
        max_wait_seconds: float = MAX_PIN_WAIT_SECONDS,
    ) -> None:
        self.sessions = sessions
        self.address = address or ShareAddress()
        self._lock = threading.RLock()
        self._pin: str | None = verify_pin_format(pin) if pin is not None else generate_pin(pin_length)
        self._epoch = 1
        self._pin_length = pin_length
        self._clock = clock
        self._wall_clock = wall_clock
        self.limits = PinLimits(max_tries, lock_seconds, max_wait_seconds)
        self._wrong = 0
        """Wrong PINs since the current PIN was made, from every device together."""
        self._next_try_at = 0.0
        self._refused = 0
        self._refused_by: Counter[str] = Counter()
        self._recent: list[str] = []
        self._last_refused: datetime | None = None
        self._current: str | None = None
        self._listeners: Listeners[LiveTable] = Listeners("a live-table listener")
        self.feed = LiveFeed()
        """Gives each change of a followed game to its viewers (:class:`LiveFeed`)."""
        self._views: dict[tuple[str, str], tuple[int, object]] = {}
        self.views_built = 0
        """Views of a game built by :meth:`shared_view` so far (one per kind of view per version)."""

    # -- the PIN ------------------------------------------------------------------------------------------------

    @property
    def pin(self) -> str | None:
        """The PIN to show the host; ``None`` when revoked."""
        return self._pin

    def verify_host(self, access: Access) -> None:
        if access.role is not Role.HOST:
            raise NotAllowedError(Note.of(N_("only the host can do this")))

    def new_pin(self, access: Access, length: int | None = None) -> str:
        """Make a new PIN (host only); editors who entered the old one become viewers."""
        self.verify_host(access)
        with self._lock:
            self._pin = generate_pin(length or self._pin_length)
            self._epoch += 1
            self._wrong, self._next_try_at = 0, 0.0  # the guesses made so far say nothing about the new PIN
            pin = self._pin
        self._notify()
        return pin

    def revoke_pin(self, access: Access) -> None:
        """Take the PIN away (host only): every editor becomes a viewer; nobody can enter a PIN until a new one."""
        self.verify_host(access)
        with self._lock:
            self._pin = None
            self._epoch += 1
        self._notify()

    def enter_pin(self, access: Access, text: str) -> Access:
        """The access of a viewer that typed ``text``: an editor if it is the PIN.

        Raises :class:`InvalidPinError` (not 4–6 digits), :class:`NoPinError` (revoked), :class:`WrongPinError`,
        or :class:`PinLockedError`. Wrong PINs are counted for the table, not per device: after
        :data:`MAX_PIN_TRIES` of them every further wrong PIN makes *every* device wait before the next try, twice
        as long each time (30 s, 60 s, 120 s, ... up to :data:`MAX_PIN_WAIT_SECONDS`); a try during the wait is
        refused without being compared, even the right PIN. A new PIN from the host starts the count again.
        """
        if access.role is Role.HOST:
            return access
        pin = verify_pin_format(text)
        with self._lock:
            now = self._clock()
            if now < self._next_try_at:
                self._note_refused(access.client)
                wait = duration_text(self._next_try_at - now)
                raise PinLockedError(Note.of(N_("too many wrong PINs at this table: try again in {wait}"), wait=wait))
            if self._pin is None:
                raise NoPinError(Note.of(N_("the host has turned editing off (no PIN at the moment)")))
            if not secrets.compare_digest(pin, self._pin):
                self._wrong += 1
                self._note_refused(access.client)
                wait_s = self.limits.wait(self._wrong)
                self._next_try_at = now + wait_s
                if wait_s > 0:
                    said = N_(
                        "that is not the PIN, and there were too many wrong PINs at this table: try again in {wait}"
                    )
                    raise PinLockedError(Note.of(said, wait=duration_text(wait_s)))
                raise WrongPinError(Note.of(N_("that is not the PIN the host shows")))
            return Access(Role.EDITOR, access.client, self._epoch)

    def _note_refused(self, client: str) -> None:
        """Count a refused try from ``client`` for the Share screen (called with the lock held)."""
        self._refused += 1
        self._last_refused = self._wall_clock()
        key = client or "unknown"
        if key not in self._refused_by and len(self._refused_by) >= MAX_TRACKED_CLIENTS:
            key = "other"
        self._refused_by[key] += 1
        if key in self._recent:
            self._recent.remove(key)
        self._recent.insert(0, key)

    def pin_tries(self) -> PinTries:
        """The refused tries so far and the wait now (what the host's Share screen shows)."""
        with self._lock:
            return PinTries(
                refused=self._refused,
                wrong=self._wrong,
                last=self._last_refused,
                clients=tuple((key, self._refused_by[key]) for key in self._recent),
                wait_s=max(0.0, self._next_try_at - self._clock()),
            )

    def can_edit(self, access: Access) -> bool:
        return passes(lambda: self.verify_edit(access), (NotAllowedError,))

    def verify_edit(self, access: Access) -> None:
        """Raise :class:`NotAllowedError` unless ``access`` may change the game now."""
        if access.role is Role.HOST:
            return
        if access.role is Role.EDITOR:
            with self._lock:
                if self._pin is not None and access.pin_epoch == self._epoch:
                    return
            raise NotAllowedError(Note.of(N_("the host has revoked the PIN: this phone can only watch now")))
        raise NotAllowedError(Note.of(N_("this phone can only watch the game: enter the host's PIN to make changes")))

    def current_access(self, access: Access) -> Access:
        """``access`` as it stands now: an editor whose PIN was revoked is a viewer again."""
        if access.role is Role.EDITOR and not self.can_edit(access):
            return Access(Role.VIEWER, access.client)
        return access

    # -- changing the game -----------------------------------------------------------------------------------

    def apply_as(self, access: Access, session_id: str, edit: Edit) -> Result:
        """Make ``edit`` on game ``session_id`` on behalf of a page with ``access``.

        The check is here, on the server: :class:`NotAllowedError` for a viewer, whatever its page sent. Then the
        session's own rules: :class:`~companion.session.StaleEditError` for an edit made on an older version
        (the page shows the newest state and asks again), a scoring error for an impossible hand.
        """
        self.verify_edit(access)
        return self.session_for(access, session_id).make(edit)

    def can_apply(self, access: Access, session_id: str, edit: Edit) -> bool:
        """Whether :meth:`apply_as` would make ``edit`` now (for greying out controls)."""
        if not self.can_edit(access):
            return False
        try:
            return self.session_for(access, session_id).can_make(edit)
        except SharingError:
            return False

    # -- which game is live --------------------------------------------------------------------------------

    def open(self, session_id: str) -> TableSession:
        """The live session ``session_id``, or :class:`NoLiveGameError` saying why it cannot be shown."""
        try:
            return self.sessions.open(session_id)
        except (StorageError, ValueError, KeyError) as exc:
            raise NoLiveGameError(
                Note.of(N_("there is no game {id} to follow ({reason})"), id=session_id, reason=str(exc))
            ) from None

    def session_for(self, access: Access, session_id: str | None = None) -> TableSession:
        """The game a page with ``access`` may see: the host any game; a viewer or editor only the live game
        (:class:`NotAllowedError` for another game of the archive, :class:`NoLiveGameError` when there is none)."""
        if access.role is Role.HOST:
            return self.current() if session_id is None else self.open(session_id)
        live = self.current_id
        if session_id is not None and session_id != live:
            raise NotAllowedError(
                Note.of(N_("that game is not being shared: only the game at the table can be followed"))
            )
        return self.current()

    def show(self, session_id: str) -> None:
        """Make ``session_id`` the game that ``/live`` shows (the host opened it at the table)."""
        with self._lock:
            changed = self._current != session_id
            self._current = session_id
        if changed:
            self._notify()

    @property
    def current_id(self) -> str | None:
        """The game ``/live`` shows: the one the host last opened, else the newest game still being played,
        else the newest game; ``None`` before the first game."""
        with self._lock:
            if self._current is not None:
                return self._current
        try:
            summaries = self.sessions.archive.list_sessions()
        except StorageError:
            return None
        playing = [s for s in summaries if s.status in (SessionStatus.IN_PROGRESS, SessionStatus.PENDING)]
        chosen = playing or summaries
        return chosen[0].id if chosen else None

    def current(self) -> TableSession:
        """The live game, or :class:`NoLiveGameError` when there is none yet."""
        session_id = self.current_id
        if session_id is None:
            raise NoLiveGameError(
                Note.of(N_("no game has been started yet: the scoreboard appears here when the host starts one"))
            )
        return self.open(session_id)

    # -- what the viewers see -------------------------------------------------------------------------------

    def shared_view(self, session: TableSession, kind: str, build: Callable[[TableSession], object]) -> object:
        """The view of ``session`` that every viewer draws from, built by ``build`` once per version of the game
        (the first viewer to draw a version builds it; the others are given the same one). ``kind`` names what
        ``build`` makes, so that two kinds of view never mix; only each game's newest view is kept.

        >>> import tempfile, pathlib
        >>> from storage import Archive
        >>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
        >>> live = LiveTable(SessionService(archive), pin="1234")
        >>> table = live.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
        >>> views = [live.shared_view(table, "played", lambda s: len(s.result.hands)) for _ in range(20)]
        >>> views[0], live.views_built
        (0, 1)
        >>> archive.close()
        """
        key = (session.id, kind)
        with self._lock:
            version = session.version  # first: what build reads is at least this new
            kept = self._views.get(key)
            if kept is not None and kept[0] == version:
                return kept[1]
            view = build(session)
            self._views[key] = (version, view)
            self.views_built += 1
            return view

    # -- listeners ---------------------------------------------------------------------------------------------

    def subscribe(self, listener: LiveListener) -> Callable[[], None]:
        """Call ``listener(live)`` when the PIN or the live game changes; returns a function that unsubscribes."""
        return self._listeners.subscribe(listener)

    def _notify(self) -> None:
        self._listeners.notify(self)  # a listener that fails (a closed page) is dropped; the others hear
