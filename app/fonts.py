"""The browser view's fallback fonts, served offline.

Flutter draws a character that the fonts it has loaded lack with a Noto font it fetches by name; served offline
(``no_cdn``), Flet points it at ``assets/fonts/`` (``flet.fontFallbackBaseUrl`` in ``flet_web/patch_index.py``), so
the page asks for files such as ``/assets/fonts/notosanssc/v37/….woff2`` that Flet does not ship, and gets a 404.
It happens when a screen is drawn before the app's own font (DejaVu Sans, ``assets/fonts/``) has loaded: Flutter's
built-in Roboto has no ♠ ♥ ♦ ♣ or ✓, and the Noto font that covers the most of them is a Chinese one.

:class:`FallbackFonts` answers those requests with the app's own font, which has the suits, ✓, the minus sign, the
no-break spaces and every other character the app writes: Flutter registers it under the name it asked for and
draws the character with it. Flet's own files under ``/assets/fonts/`` (``roboto.woff2``, the icons) are one level
up and never match.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from functools import cache
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

APP_FONT = Path(__file__).resolve().parent.parent / "assets" / "fonts" / "DejaVuSans.ttf"
"""The font the app draws with (``views.shell.APP_FONTS``), given for every fallback font the page asks for."""
FALLBACK_PATH = re.compile(r"/assets/fonts/[a-z0-9]+/v[0-9]+/[A-Za-z0-9_.-]+\.(?:woff2|woff|ttf|otf)")
"""How Flutter's font fallback names a Noto font: ``/assets/fonts/<family>/v<version>/<file>``.

>>> bool(FALLBACK_PATH.fullmatch("/assets/fonts/notosanssc/v37/k3kCo84MPvpLmixcA63oeA.87.woff2"))
True
>>> [bool(FALLBACK_PATH.fullmatch(p)) for p in ("/assets/fonts/roboto.woff2", "/assets/fonts/../x/v1/a.ttf")]
[False, False]
"""


@cache
def _font_bytes(path: Path) -> bytes:
    return path.read_bytes()


class FallbackFonts:
    """ASGI middleware: a ``GET`` (or ``HEAD``) of a Flutter fallback font (:data:`FALLBACK_PATH`) is answered
    with ``font`` (the app's own); every other request goes to the wrapped app."""

    def __init__(self, app: ASGIApp, font: Path = APP_FONT) -> None:
        self.app = app
        self.font = font

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope.get("type") != "http"
            or scope.get("method") not in ("GET", "HEAD")
            or not FALLBACK_PATH.fullmatch(str(scope.get("path", "")))
        ):
            await self.app(scope, receive, send)
            return
        body = _font_bytes(self.font)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"font/ttf"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"public, max-age=86400"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})


__all__ = ["APP_FONT", "FALLBACK_PATH", "FallbackFonts"]
