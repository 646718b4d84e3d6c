"""Hostile WebSocket clients for the real app server on loopback (``tests/app/test_ws_limits.py`` and
``bench/ws_bench.py``): the message bomb, the flood of events, the churn of tabs and connections that never
register, as a phone on the network would send them, and the host's page opening meanwhile.

Every client here talks to ``127.0.0.1`` only; a "phone" is a client address 127.0.0.x other than 127.0.0.1
opening the viewer address ``/live`` (the server treats it as it treats a phone: a viewer, with a phone's limits).
Every loop is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
ANSWER_S = 15.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def memory_kib(self) -> tuple[int, int]:
        """The server's resident memory now and at its peak (``VmRSS``, ``VmHWM`` of /proc), in KiB."""
        fields = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
        return fields["VmRSS"], fields["VmHWM"]


def start_server(folder: Path, env: Mapping[str, str] | None = None) -> Server:
    """``python -m app`` on a free loopback port with its data in ``folder/data`` (one Jokers Kill game started),
    its output in ``folder/server.log``; returns once it answers."""
    from companion.session import SessionService
    from storage import Archive

    with Archive(folder / "data") as archive:
        SessionService(archive).start("jokers-kill", ["Ann", "Ben", "Cat"])
    port = free_port()
    log = folder / "server.log"
    command = [sys.executable, "-m", "app", "--port", str(port), "--data-dir", str(folder / "data"), "--no-browser"]
    environ = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        **(env or {}),
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(port, process, log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with {process.returncode}:\n{log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return server
        if time.monotonic() > deadline:
            stop_server(server)
            raise RuntimeError(f"the app did not answer within {START_TIMEOUT} s:\n{log.read_text()}")
        time.sleep(0.1)


def stop_server(server: Server) -> int | None:
    """SIGTERM (then SIGKILL) to the server's process group; its exit status."""
    process = server.process
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    return process.returncode


# --- talking Flet ------------------------------------------------------------------------------------------------


def packed(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def register(route: str) -> bytes:
    return packed(1, {"session_id": "", "page_name": "", "page": {"route": route, "width": 400, "height": 800}})


def event(target: int, name: str = "click") -> bytes:
    return packed(3, {"target": target, "name": name, "data": None})


def decoded(data: Any) -> Any:
    assert isinstance(data, bytes)
    return msgpack.unpackb(data[1:], strict_map_key=False, ext_hook=lambda _c, d: d)


def ids_in(tree: Any) -> set[int]:
    """The ids of the controls in a decoded Flet message."""
    found: set[int] = set()
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("_i"), int):
                found.add(item["_i"])
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


@contextlib.asynccontextmanager
async def page(
    port: int, *, client: str = "127.0.0.1", route: str = "/"
) -> AsyncIterator[tuple[ClientConnection, list[Any]]]:
    """A page that registered at ``route`` from address ``client``: the connection and Flet's first two messages
    (the registration's answer and the first drawing)."""
    origin = Origin(f"http://127.0.0.1:{port}")
    async with connect(
        f"ws://127.0.0.1:{port}/ws", origin=origin, local_addr=(client, 0), open_timeout=10, max_size=None
    ) as ws:
        await ws.send(register(route))
        first = [decoded(await asyncio.wait_for(ws.recv(), ANSWER_S)) for _ in range(2)]
        yield ws, first


async def closed_with(ws: ClientConnection, within_s: float = ANSWER_S) -> int | None:
    """The close code the server gives ``ws`` within ``within_s`` seconds (``None``: still open), reading and
    ignoring what it sends meanwhile."""
    deadline = time.monotonic() + within_s
    try:
        while time.monotonic() < deadline:
            await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else 1006
    except TimeoutError:
        return None
    return None


async def host_page_opens(port: int) -> float:
    """Seconds for the host's page to register and receive its home screen."""
    started = time.perf_counter()
    async with page(port, route="/") as (_, first):
        assert "Card Table Companion" in repr(first[1]), "the home screen was drawn"
    return time.perf_counter() - started


# --- the attacks -------------------------------------------------------------------------------------------------


async def big_message(port: int, client: str, size: int) -> int | None:
    """A phone's page sends one message of ``size`` bytes (a MsgPack binary): the close code it gets."""
    async with page(port, client=client, route="/live") as (ws, _):
        body = b"\x00\x92\x03" + b"\xc6" + (size - 8).to_bytes(4, "big") + b"\x00" * (size - 8)
        with contextlib.suppress(ConnectionClosed):
            await ws.send(body)
        return await closed_with(ws)


async def decode_bomb(port: int, client: str, maps: int = 130_000) -> int | None:
    """A phone's page sends a small message that decodes into ``maps`` empty maps (64 bytes each in memory, one
    byte each on the wire): the close code it gets."""
    async with page(port, client=client, route="/live") as (ws, _):
        with contextlib.suppress(ConnectionClosed):
            await ws.send(b"\x00\xdd" + maps.to_bytes(4, "big") + b"\x80" * maps)
        return await closed_with(ws)


async def flood(port: int, client: str, *, events: int, per_s: float, known: bool = False) -> tuple[int, int | None]:
    """A phone's page sends ``events`` events at ``per_s`` a second, for controls it was never sent (or, with
    ``known``, for one it was: the PIN field); returns how many were sent before the server closed the
    connection, and the close code (``None``: it stayed open)."""
    async with page(port, client=client, route="/live") as (ws, first):
        target = max(ids_in(first)) if known else 10_000_000
        sent = 0
        started = time.perf_counter()
        try:
            for n in range(events):
                await ws.send(event(target + (0 if known else n)))
                sent += 1
                pause = started + sent / per_s - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
        except ConnectionClosed as closed:
            return sent, closed.rcvd.code if closed.rcvd is not None else 1006
        return sent, await closed_with(ws, 2.0)


async def unregistered(port: int, count: int, *, send_event: bool, client: str = "127.0.0.3") -> list[int | None]:
    """``count`` connections that send an event before registering (``send_event``), or nothing at all: the
    close code each gets."""

    async def one() -> int | None:
        origin = Origin(f"http://127.0.0.1:{port}")
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin, local_addr=(client, 0), open_timeout=10) as ws:
            if send_event:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(event(1))
            return await closed_with(ws, 10.0)

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def churn(port: int, client: str, tabs: int) -> tuple[int, int]:
    """``tabs`` phone tabs from ``client``, each opened (registered and drawn) and closed in turn: how many
    opened and how many were refused."""
    opened = refused = 0
    for _ in range(tabs):
        try:
            async with page(port, client=client, route="/live"):
                opened += 1
        except (ConnectionClosed, InvalidStatus):
            refused += 1
    return opened, refused


def run_apart(coroutine: Any) -> Any:
    """Run ``coroutine`` in a thread of its own (the browser tests keep an event loop running in this one)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
