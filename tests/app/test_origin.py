"""The Origin and Host checks of the served app (companion/origin.py), case by case."""

from __future__ import annotations

import pytest

from companion.origin import Refusal, Served, check, split_host

PORT = 8550
LAN = "192.168.1.5"
LOCAL = Served(port=PORT)
SHARED = Served(port=PORT, lan=(LAN, "fd00::5"), shared=True)
HOME = f"http://127.0.0.1:{PORT}"


def ws(headers: dict[str, str], client: str | None = "127.0.0.1", served: Served = LOCAL) -> Refusal | None:
    return check(headers, client, served, websocket=True)


def page(
    headers: dict[str, str], client: str | None = "127.0.0.1", served: Served = LOCAL, method: str = "GET"
) -> Refusal | None:
    return check(headers, client, served, websocket=False, method=method)


# --- the app's own pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]", "127.0.0.2"], ids=lambda n: f"host={n}"
)
def test_the_apps_own_page_on_a_loopback_name_is_served(name: str) -> None:
    headers = {"host": f"{name}:{PORT}", "origin": f"http://{name}:{PORT}"}
    assert ws(headers) is None
    assert page(headers) is None
    assert page(headers, method="POST") is None


def test_a_page_of_one_loopback_name_may_reach_another() -> None:
    assert ws({"host": f"127.0.0.1:{PORT}", "origin": f"http://localhost:{PORT}"}) is None


@pytest.mark.parametrize("client", [LAN, "192.168.1.20", "fd00::20"])
def test_with_share_a_phones_page_at_the_lan_address_is_served(client: str) -> None:
    headers = {"host": f"{LAN}:{PORT}", "origin": f"http://{LAN}:{PORT}"}
    assert ws(headers, client, SHARED) is None
    assert page({"host": f"{LAN}:{PORT}"}, client, SHARED) is None, "a phone loads the page without Origin"
    assert ws({"host": f"[fd00::5]:{PORT}", "origin": f"http://[fd00::5]:{PORT}"}, client, SHARED) is None


def test_header_names_may_come_in_any_case_and_as_pairs() -> None:
    assert check([("Host", f"127.0.0.1:{PORT}"), ("ORIGIN", HOME)], "127.0.0.1", LOCAL, websocket=True) is None
    refused = check([("Host", f"127.0.0.1:{PORT}"), ("Origin", "http://evil.example")], "::1", LOCAL, websocket=True)
    assert refused is not None and "Origin" in refused.reason


# --- other sites ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        f"http://evil.example:{PORT}",
        "null",
        "",
        f"https://127.0.0.1:{PORT}",  # another origin (scheme)
        "http://127.0.0.1",  # another origin (port 80)
        "http://localhost:3000",  # another program on this computer
        f"ws://127.0.0.1:{PORT}",
        f"http://127.0.0.1:{PORT}/page",
        f"http://user@127.0.0.1:{PORT}",
        f"http://127.0.0.1.evil.example:{PORT}",
        f"http://localhost.evil.example:{PORT}",
        f"http://{LAN}:{PORT}",  # a LAN address without --share
        f"http://0.0.0.0:{PORT}",
        f"file://{PORT}",
    ],
)
def test_any_other_origin_is_refused_even_from_this_computer(origin: str) -> None:
    headers = {"host": f"127.0.0.1:{PORT}", "origin": origin}
    for refused in (ws(headers), page(headers), page(headers, method="POST"), ws(headers, "::1")):
        assert refused is not None and refused.status == 403
        assert refused.reason.startswith("Origin ") and HOME in refused.reason


@pytest.mark.parametrize(
    "host",
    [
        f"evil.example:{PORT}",
        "evil.example",
        f"127.0.0.1.nip.io:{PORT}",
        f"localhost.evil.example:{PORT}",
        f"0.0.0.0:{PORT}",
        "127.0.0.1",  # port 80, not the app's
        "127.0.0.1:8551",
        f"{LAN}:{PORT}",  # the LAN address without --share
        f"192.168.1.6:{PORT}",  # not this machine's address
        f"::1:{PORT}",
        f"127.0.0.1:{PORT}:1",
        f"user@127.0.0.1:{PORT}",
        f"127.0.0.1:{PORT}/x",
        "",
        f"[127.0.0.1]:{PORT}",
    ],
)
def test_a_foreign_host_is_refused_even_from_this_computer_dns_rebinding(host: str) -> None:
    """The rebinding page's Origin matches its Host (both the attacker's name): the Host check refuses it."""
    headers = {"host": host, "origin": f"http://{host}"}
    for refused in (ws(headers), page(headers), page({"host": host})):
        assert refused is not None and refused.reason.startswith("Host ") and HOME in refused.reason


def test_the_lan_host_of_a_shared_app_is_refused_when_it_is_not_this_machines() -> None:
    refused = ws({"host": f"192.168.1.6:{PORT}", "origin": f"http://192.168.1.6:{PORT}"}, "192.168.1.20", SHARED)
    assert refused is not None and refused.reason.startswith("Host ")


def test_a_missing_or_repeated_host_or_origin_is_refused() -> None:
    assert ws({"origin": HOME}) == Refusal(f"no Host header: open {HOME}")
    both = [("host", f"127.0.0.1:{PORT}"), ("host", f"evil.example:{PORT}"), ("origin", HOME)]
    assert check(both, "127.0.0.1", LOCAL, websocket=True) == Refusal("more than one Host header")
    twice = [("host", f"127.0.0.1:{PORT}"), ("origin", HOME), ("origin", "http://evil.example")]
    assert check(twice, "127.0.0.1", LOCAL, websocket=True) == Refusal("more than one Origin header")


def test_a_loopback_host_from_another_device_is_refused() -> None:
    """A phone's browser never sends Host 127.0.0.1 to this machine (127.0.0.1 is the phone itself)."""
    refused = ws({"host": f"127.0.0.1:{PORT}", "origin": HOME}, "192.168.1.20", SHARED)
    assert refused is not None and "another device" in refused.reason


# --- no Origin: a program, not a browser page ------------------------------------------------------------------


@pytest.mark.parametrize("client", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_no_origin_is_served_on_loopback(client: str) -> None:
    assert ws({"host": f"127.0.0.1:{PORT}"}, client) is None
    assert page({"host": f"localhost:{PORT}"}, client, method="PUT") is None


@pytest.mark.parametrize("client", ["192.168.1.20", None, "testclient", "::ffff:192.168.1.20"])
def test_no_origin_from_another_device_is_refused_for_the_websocket_and_for_changes(client: str | None) -> None:
    headers = {"host": f"{LAN}:{PORT}"}
    for refused in (ws(headers, client, SHARED), page(headers, client, SHARED, method="POST")):
        assert refused is not None and "served on this computer only" in refused.reason
    assert page(headers, client, SHARED, method="HEAD") is None, "loading the page and its files needs no Origin"


# --- the refusal itself ----------------------------------------------------------------------------------------


def test_a_refusal_repeats_the_senders_header_escaped_and_short() -> None:
    refused = ws({"host": f"127.0.0.1:{PORT}", "origin": "http://\x1b[31mred\u202e" + "x" * 500})
    assert refused is not None
    assert "\x1b" not in refused.reason and "\u202e" not in refused.reason and "\\x1b" in refused.reason
    assert len(refused.reason) < 200 and "\n" not in refused.reason


# --- the served addresses -------------------------------------------------------------------------------------


def test_served_keeps_only_real_lan_addresses() -> None:
    served = Served(port=PORT, lan=(LAN, LAN, "127.0.0.1", "0.0.0.0", "fd00:0:0::5"), shared=True)
    assert served.lan == (LAN, "fd00::5")
    assert f"http://[fd00::5]:{PORT}" in served.origins()
    with pytest.raises(ValueError, match="not an IP address"):
        Served(port=PORT, lan=("my-laptop",))
    with pytest.raises(ValueError, match="not a port"):
        Served(port=0)


def test_without_share_only_loopback_is_served() -> None:
    not_shared = Served(port=PORT, lan=(LAN,), shared=False)
    assert not_shared.origins() == {HOME, f"http://localhost:{PORT}", f"http://[::1]:{PORT}"}
    assert not not_shared.serves_host(LAN)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:8550", ("127.0.0.1", 8550)),
        ("LOCALHOST:1", ("localhost", 1)),
        ("[::1]", ("::1", 80)),
        ("[FD00::5]:8550", ("fd00::5", 8550)),
        ("[::1]x", None),
        ("[::1", None),
        ("[nothex]:80", None),
        ("a b:80", None),
        ("host:0", None),
        ("host:+80", None),
        ("host:٨٠", None),
        ("hóst:80", None),
    ],
)
def test_split_host(text: str, expected: tuple[str, int] | None) -> None:
    assert split_host(text) == expected
