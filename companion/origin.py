"""Which requests the served app answers: the ``Origin`` and ``Host`` checks made on every connection.

No Flet and no I/O in here: the web layer (``app/web.py``) calls :func:`check` for every HTTP request and every
WebSocket upgrade, before any Flet session or screen exists, and refuses what it refuses.

The model is Jupyter Server's: a browser says which page opened a connection (``Origin``) and which name it
connected to (``Host``); the app answers only its own pages at its own addresses.

* ``Host`` must be one of the addresses the app serves: the loopback names ``127.0.0.1``, ``localhost`` and
  ``[::1]`` (any loopback IP) with the app's port, and, with ``--share``, this machine's own LAN addresses. A
  foreign name is refused even from this computer: that is DNS rebinding (a site whose name was made to point at
  127.0.0.1).
* ``Origin``, when sent, must be ``http://`` one of those addresses with the app's port: any other site's page
  (``http://evil.example``), a sandboxed page (``null``) or another program on this computer
  (``http://localhost:3000``) is refused.
* No ``Origin`` means a program, not a browser page (browsers always send it on a WebSocket, and on any request
  that could change something). Such a WebSocket, or a request other than ``GET``/``HEAD``, is served only to a
  client on this computer. A plain ``GET`` without ``Origin`` is how a browser loads a page and its files (a phone
  opening the printed address sends none), so it is served, at a served ``Host``: the app's data and every change
  travel only over the WebSocket, which is always checked.

>>> served = Served(port=8550)
>>> check({"host": "127.0.0.1:8550", "origin": "http://127.0.0.1:8550"}, "127.0.0.1", served, websocket=True)
>>> check({"host": "127.0.0.1:8550", "origin": "http://evil.example"}, "127.0.0.1", served, websocket=True)
Refusal(reason="Origin 'http://evil.example' is not this app's page: only http://127.0.0.1:8550 may connect")
>>> check({"host": "evil.example:8550", "origin": "http://evil.example:8550"}, "127.0.0.1", served, websocket=True)
Refusal(reason="Host 'evil.example:8550' is not an address of this app: open http://127.0.0.1:8550")
>>> check({"host": "127.0.0.1:8550"}, "127.0.0.1", served, websocket=True) is None  # a script on this computer
True
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

LOOPBACK_NAMES = frozenset({"localhost"})
"""The loopback host names served (besides any loopback IP such as 127.0.0.1 and ::1)."""
SAFE_METHODS = frozenset({"GET", "HEAD"})
"""HTTP methods that only read (a browser loads a page with them and sends no ``Origin``)."""
MAX_SHOWN = 80
"""How many characters of a refused header a refusal repeats."""


@dataclass(frozen=True)
class Refusal:
    """Why a request is not served: a short line for the plain-text answer and the log."""

    reason: str
    status: int = field(default=403, repr=False)


@dataclass(frozen=True)
class Served:
    """The addresses the app serves: loopback always, and with ``shared`` (``--share``) the ``lan`` addresses.

    >>> served = Served(port=8550, lan=("192.168.1.5",), shared=True)
    >>> sorted(served.origins())
    ['http://127.0.0.1:8550', 'http://192.168.1.5:8550', 'http://[::1]:8550', 'http://localhost:8550']
    >>> Served(port=8550, lan=("192.168.1.5",)).serves_host("192.168.1.5")  # not shared: loopback only
    False
    """

    port: int
    lan: tuple[str, ...] = ()
    """This machine's own addresses on the network (IP literals); served only when ``shared``."""
    shared: bool = False

    def __post_init__(self) -> None:
        if not 0 < self.port < 65536:
            raise ValueError(f"port {self.port} is not a port from 1 to 65535")
        lan = []
        for address in self.lan:
            ip = _ip(address)
            if ip is None:
                raise ValueError(f"LAN address {address!r} is not an IP address")
            if not ip.is_loopback and not ip.is_unspecified:
                lan.append(str(ip))
        object.__setattr__(self, "lan", tuple(dict.fromkeys(lan)))

    @property
    def home(self) -> str:
        """The address the app prints for this computer."""
        return f"http://127.0.0.1:{self.port}"

    def serves_host(self, name: str) -> bool:
        """Whether ``name`` (lower case, IPv6 without brackets) is one of the app's addresses.

        >>> served = Served(port=80, lan=("10.0.0.4",), shared=True)
        >>> [served.serves_host(n) for n in ("localhost", "127.0.0.1", "127.0.0.2", "::1", "10.0.0.4", "10.0.0.5")]
        [True, True, True, True, True, False]
        >>> served.serves_host("0.0.0.0"), served.serves_host("localhost.evil.example")
        (False, False)
        """
        if name in LOOPBACK_NAMES:
            return True
        ip = _ip(name)
        if ip is None:
            return False
        if ip.is_loopback:
            return True
        return self.shared and str(ip) in self.lan

    def origins(self) -> frozenset[str]:
        """The ``Origin`` values of the app's own pages (what a browser sends from them)."""
        names = ["127.0.0.1", "localhost", "::1", *(self.lan if self.shared else ())]
        return frozenset(f"http://{_bracketed(name)}:{self.port}" for name in names)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name else name


def _shown(text: str) -> str:
    """``text`` as a refusal repeats it: quoted, escaped, cut short (a header is the sender's text)."""
    cut = text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."
    return ascii(cut)


def split_host(value: str, default_port: int = 80) -> tuple[str, int] | None:
    """``(name, port)`` of a ``Host`` header or of an origin's authority (name lower case, IPv6 unbracketed), or
    ``None`` when it is not one.

    >>> split_host("127.0.0.1:8550"), split_host("[::1]:8550"), split_host("LocalHost")
    (('127.0.0.1', 8550), ('::1', 8550), ('localhost', 80))
    >>> split_host("::1:8550"), split_host("a@b:1"), split_host("host:99999"), split_host(""), split_host("x:")
    (None, None, None, None, None)
    """
    text = value.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[1:end], text[end + 1 :]
        ip = _ip(name)
        if ip is None or ip.version != 6:
            return None
        if rest == "":
            return name, default_port
        if not rest.startswith(":"):
            return None
        port_text = rest[1:]
    else:
        name, colon, port_text = text.partition(":")
        if not colon:
            port_text = str(default_port)
        if ":" in port_text:
            return None  # an unbracketed IPv6 address, or garbage
    if not name or not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5:
        return None
    if any(not (ch.isalnum() or ch in "-._:") for ch in name) or not name.isascii():
        return None
    port = int(port_text)
    if not 0 < port < 65536:
        return None
    return name, port


def _one(headers: Mapping[str, str] | Iterable[tuple[str, str]], name: str) -> tuple[str | None, int]:
    """The value of header ``name`` and how many times it was sent."""
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    values = [value for key, value in pairs if key.lower() == name]
    return (values[0] if values else None), len(values)


def check(
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    client_ip: str | None,
    served: Served,
    *,
    websocket: bool,
    method: str = "GET",
) -> Refusal | None:
    """``None`` when the request may be served, else the :class:`Refusal` saying why not.

    ``headers`` are the request's headers (names in any case); ``client_ip`` is the address the connection comes
    from (``None`` when unknown, which counts as another device); ``websocket`` says whether this is the upgrade
    of the app's WebSocket.

    >>> served = Served(port=8550, lan=("192.168.1.5",), shared=True)
    >>> phone = {"host": "192.168.1.5:8550", "origin": "http://192.168.1.5:8550"}
    >>> check(phone, "192.168.1.20", served, websocket=True) is None
    True
    >>> check({"host": "192.168.1.5:8550"}, "192.168.1.20", served, websocket=False) is None  # loading the page
    True
    >>> check({"host": "192.168.1.5:8550"}, "192.168.1.20", served, websocket=True)
    Refusal(reason='a connection without Origin (not a browser page) is served on this computer only')
    """
    host, hosts = _one(headers, "host")
    if hosts > 1:
        return Refusal("more than one Host header")
    if host is None:
        return Refusal(f"no Host header: open {served.home}")
    where = split_host(host)
    if where is None or not served.serves_host(where[0]) or where[1] != served.port:
        return Refusal(f"Host {_shown(host)} is not an address of this app: open {served.home}")
    loopback_client = client_ip is not None and _is_loopback_ip(client_ip)
    if not loopback_client and _is_loopback_name(where[0]):
        return Refusal(f"Host {_shown(host)} names this computer, but the connection comes from another device")

    origin, origins = _one(headers, "origin")
    if origins > 1:
        return Refusal("more than one Origin header")
    if origin is None:
        if loopback_client or (not websocket and method.upper() in SAFE_METHODS):
            return None
        return Refusal("a connection without Origin (not a browser page) is served on this computer only")
    if _normal_origin(origin) not in served.origins():
        return Refusal(f"Origin {_shown(origin)} is not this app's page: only {served.home} may connect")
    return None


def _normal_origin(origin: str) -> str | None:
    """``origin`` written the one way :meth:`Served.origins` writes it, or ``None`` when it is not an http
    origin (``null``, another scheme, a path or user name in it)."""
    text = origin.strip().lower()
    scheme, sep, authority = text.partition("://")
    if not sep or scheme != "http" or not authority or any(ch in authority for ch in "/?#@"):
        return None
    where = split_host(authority)
    if where is None:
        return None
    name, port = where
    ip = _ip(name)
    if ip is not None and ip.is_loopback:
        name = "::1" if ip.version == 6 else "127.0.0.1"  # any loopback IP is this computer
    return f"http://{_bracketed(name)}:{port}"


def _is_loopback_ip(address: str) -> bool:
    ip = _ip(address.strip().strip("[]"))
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def _is_loopback_name(name: str) -> bool:
    return name in LOOPBACK_NAMES or _is_loopback_ip(name)
