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
>>> live = LiveTable(SessionService(archive), pin="2468")
>>> table = live.sessions.start("jokers-kill", ["Ann", "Ben", "Cat"])
>>> hand = {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D", "Cat": "QC"}}
>>> phone = access_for(client_ip="192.168.1.20", page_url="http://192.168.1.5:8550", route="/live")
>>> phone.role, live.can_edit(phone)
(<Role.VIEWER: 'viewer'>, False)
>>> live.apply_as(phone, table.id, Edit.add(hand))
Traceback (most recent call last):
...
companion.sharing.NotAllowedError: this phone can only watch the game: enter the host's PIN to make changes
>>> editor = live.enter_pin(phone, "2468")
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
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import urlsplit

from companion.session import Edit as Edit  # the edit a page asks for (made by TableSession.make)
from companion.session import EditKind as EditKind
from companion.session import SessionService, TableSession
from scoring import Result
from storage import SessionStatus, StorageError

_log = logging.getLogger(__name__)

PIN_LENGTHS = range(4, 7)
"""A PIN has 4 to 6 digits."""
DEFAULT_PIN_LENGTH = 4
MAX_PIN_TRIES = 5
"""Wrong PINs in a row (per device) before it must wait."""
PIN_LOCK_SECONDS = 30.0
LIVE_PATH = "/live"
"""The viewer address: ``/live`` follows the host's current game, ``/live/<id>`` one game."""
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


class SharingError(ValueError):
    """Something about sharing the table went wrong; the message says what, for the person at the screen."""


class NotAllowedError(SharingError):
    """This page may only watch: a viewer without the PIN (or whose PIN was revoked) tried to change the game."""


class WrongPinError(SharingError):
    """The PIN entered is not the host's PIN."""


class PinLockedError(SharingError):
    """Too many wrong PINs from this device: it must wait before trying again."""


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
    """The device's address (its IP), for the per-device PIN attempt limit."""
    pin_epoch: int = 0
    """For an editor: which PIN it entered. Revoking or renewing the PIN makes older epochs worthless."""

    @property
    def locked(self) -> bool:
        """Whether the page is held to the live view (viewers and editors see nothing else of the archive)."""
        return self.role is not Role.HOST


HOST = Access(Role.HOST, "127.0.0.1")
"""The host's access (the browser on this computer)."""


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
        raise InvalidPinError(f"a PIN has 4 to 6 digits, not {length}")
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
        raise InvalidPinError("a PIN is digits only (4 to 6 of them)")
    if len(pin) not in PIN_LENGTHS:
        raise InvalidPinError(f"a PIN has 4 to 6 digits, this one has {len(pin)}")
    return pin


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


@dataclass
class _Tries:
    failures: deque[float] = field(default_factory=deque)
    locked_until: float = 0.0


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
        max_tries: int = MAX_PIN_TRIES,
        lock_seconds: float = PIN_LOCK_SECONDS,
    ) -> None:
        self.sessions = sessions
        self.address = address or ShareAddress()
        self._lock = threading.RLock()
        self._pin: str | None = verify_pin_format(pin) if pin is not None else generate_pin(pin_length)
        self._epoch = 1
        self._pin_length = pin_length
        self._clock = clock
        self._max_tries = max_tries
        self._lock_seconds = lock_seconds
        self._tries: dict[str, _Tries] = {}
        self._current: str | None = None
        self._listeners: list[LiveListener] = []

    # -- the PIN ------------------------------------------------------------------------------------------------

    @property
    def pin(self) -> str | None:
        """The PIN to show the host; ``None`` when revoked."""
        return self._pin

    def verify_host(self, access: Access) -> None:
        if access.role is not Role.HOST:
            raise NotAllowedError("only the host can do this")

    def new_pin(self, access: Access, length: int | None = None) -> str:
        """Make a new PIN (host only); editors who entered the old one become viewers."""
        self.verify_host(access)
        with self._lock:
            self._pin = generate_pin(length or self._pin_length)
            self._epoch += 1
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
        or :class:`PinLockedError` after :data:`MAX_PIN_TRIES` wrong PINs from one device (for a while).
        """
        if access.role is Role.HOST:
            return access
        pin = verify_pin_format(text)
        with self._lock:
            now = self._clock()
            tries = self._tries.setdefault(access.client, _Tries())
            if now < tries.locked_until:
                wait = int(tries.locked_until - now) + 1
                raise PinLockedError(f"too many wrong PINs from this device: try again in {wait} s")
            if self._pin is None:
                raise NoPinError("the host has turned editing off (no PIN at the moment)")
            if not secrets.compare_digest(pin, self._pin):
                tries.failures.append(now)
                while tries.failures and now - tries.failures[0] > self._lock_seconds * 4:
                    tries.failures.popleft()
                if len(tries.failures) >= self._max_tries:
                    tries.failures.clear()
                    tries.locked_until = now + self._lock_seconds
                    raise PinLockedError(
                        f"too many wrong PINs from this device: try again in {int(self._lock_seconds)} s"
                    )
                raise WrongPinError("that is not the PIN the host shows")
            tries.failures.clear()
            return Access(Role.EDITOR, access.client, self._epoch)

    def can_edit(self, access: Access) -> bool:
        try:
            self.verify_edit(access)
        except NotAllowedError:
            return False
        return True

    def verify_edit(self, access: Access) -> None:
        """Raise :class:`NotAllowedError` unless ``access`` may change the game now."""
        if access.role is Role.HOST:
            return
        if access.role is Role.EDITOR:
            with self._lock:
                if self._pin is not None and access.pin_epoch == self._epoch:
                    return
            raise NotAllowedError("the host has revoked the PIN: this phone can only watch now")
        raise NotAllowedError("this phone can only watch the game: enter the host's PIN to make changes")

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
            raise NoLiveGameError(f"there is no game {session_id} to follow ({exc})") from None

    def session_for(self, access: Access, session_id: str | None = None) -> TableSession:
        """The game a page with ``access`` may see: the host any game; a viewer or editor only the live game
        (:class:`NotAllowedError` for another game of the archive, :class:`NoLiveGameError` when there is none)."""
        if access.role is Role.HOST:
            return self.current() if session_id is None else self.open(session_id)
        live = self.current_id
        if session_id is not None and session_id != live:
            raise NotAllowedError("that game is not being shared: only the game at the table can be followed")
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
            raise NoLiveGameError("no game has been started yet: the scoreboard appears here when the host starts one")
        return self.open(session_id)

    # -- listeners ---------------------------------------------------------------------------------------------

    def subscribe(self, listener: LiveListener) -> Callable[[], None]:
        """Call ``listener(live)`` when the PIN or the live game changes; returns a function that unsubscribes."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _notify(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(self)
            except Exception:  # a closed page must not stop the others from hearing
                _log.warning("a live-table listener failed; it is dropped", exc_info=True)
                with self._lock:
                    if listener in self._listeners:
                        self._listeners.remove(listener)
