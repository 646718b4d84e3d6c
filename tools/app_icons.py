"""Draw the app's icon and splash, and write the browser view's own web files, into ``assets/``.

``python -m tools.app_icons`` writes:

* ``assets/icon.png`` — 1024×1024: a card-table-green rounded square with a white card and a green spade, on a
  transparent canvas. ``flet build`` derives every platform's icon from it (Android's adaptive icon too: its
  foreground from this file, its background the colour ``[tool.flet.android] adaptive_icon_background``).
* ``assets/splash.png``, ``assets/splash_dark.png`` — the card alone (transparent), which ``flet build`` centres on
  ``[tool.flet.splash]`` ``color`` / ``dark_color`` on Android, iOS and the web.
* the browser view's files, which Flet's web server takes from the app's ``assets/`` before its own (so "Add to home
  screen" gives the app's name and icon, offline): ``favicon.png``, ``icons/*.png`` (rendered from ``icon.png`` by
  ``flet_platform_assets``, the library ``flet build`` uses), ``manifest.json``, and ``index.html`` (Flet's own
  page with the app's title, description and home-screen name).

``python -m tools.app_icons --check`` exits 1 naming each web file that is stale (a test runs the same check).
The PNG drawings are not checked byte for byte (Pillow versions may round differently).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "assets"
NAME = "Card Table Companion"
SHORT_NAME = "Card Table"
DESCRIPTION = "Scorekeeper for card games played with real cards"
GREEN = "#116B3A"
"""The card-table green: icon, splash, theme colour."""
DARK_GREEN = "#0A3F22"
SIZE = 1024
_SCALE = 4  # drawn at 4× and reduced, for smooth edges


def _rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.lstrip("#"), 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: tuple[int, ...]) -> None:
    """A spade ``size`` tall centred on (cx, cy): the classic heart curve turned point-up, on a flared stem."""
    unit = size / 30  # the heart curve spans x in [-16, 16] and y in [-17, 12]
    top_y = cy - size * 0.5
    points = []
    for i in range(720):
        t = 2 * math.pi * i / 720
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * unit, top_y + (y + 17) * unit * 0.82))  # the heart's point (y = -17) on top
    draw.polygon(points, fill=fill)
    stem_top = top_y + 17 * unit
    stem_bottom = cy + size * 0.5
    draw.polygon(
        [
            (cx - unit * 1.2, stem_top),
            (cx + unit * 1.2, stem_top),
            (cx + unit * 6, stem_bottom),
            (cx - unit * 6, stem_bottom),
        ],
        fill=fill,
    )


def _card(canvas: Image.Image, box: tuple[float, float, float, float], angle: float, spade: str | None) -> None:
    """A white playing card in ``box`` (on a 1024 grid), turned by ``angle`` degrees, with an optional spade."""
    s = _SCALE
    layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    x0, y0, x1, y1 = (v * s for v in box)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=(x1 - x0) * 0.12, fill=(255, 255, 255, 255))
    if spade is not None:
        _spade(draw, (x0 + x1) / 2, (y0 + y1) / 2, (y1 - y0) * 0.5, (*_rgb(spade), 255))
    layer = layer.rotate(angle, resample=Image.Resampling.BICUBIC, center=((x0 + x1) / 2, y1))
    canvas.alpha_composite(layer)


def draw_icon() -> Image.Image:
    """The app icon: a green rounded square, a card fanned behind a card with a spade."""
    s = _SCALE
    canvas = Image.new("RGBA", (SIZE * s, SIZE * s), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).rounded_rectangle(
        (0, 0, SIZE * s - 1, SIZE * s - 1), radius=SIZE * s * 0.22, fill=(*_rgb(GREEN), 255)
    )
    back = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    _card(back, (330, 230, 700, 770), 14, None)
    faded = back.getchannel("A").point(lambda a: a * 55 // 100)
    back.putalpha(faded)
    canvas.alpha_composite(back)
    _card(canvas, (322, 244, 702, 800), -6, GREEN)
    return canvas.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def draw_splash(dark: bool = False) -> Image.Image:
    """The splash mark: the card with the spade alone, on transparency (the splash colour is painted behind it)."""
    s = _SCALE
    canvas = Image.new("RGBA", (SIZE * s, SIZE * s), (0, 0, 0, 0))
    _card(canvas, (322, 212, 702, 812), -6, DARK_GREEN if dark else GREEN)
    return canvas.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


# --- the browser view's own files --------------------------------------------------------------------------------

WEB_ICONS = {
    "favicon.png": "web/favicon.png",
    "icons/Icon-192.png": "web/icons/Icon-192.png",
    "icons/Icon-512.png": "web/icons/Icon-512.png",
    "icons/Icon-maskable-192.png": "web/icons/Icon-maskable-192.png",
    "icons/Icon-maskable-512.png": "web/icons/Icon-maskable-512.png",
    "icons/apple-touch-icon-192.png": "web/icons/apple-touch-icon-192.png",
}
"""File under ``assets/`` → the name ``flet_platform_assets`` renders it as."""


def _flet_web_file(name: str) -> str:
    import flet_web

    return (Path(flet_web.__file__).parent / "web" / name).read_text(encoding="utf-8")


def manifest() -> str:
    """``assets/manifest.json``: Flet's web manifest with the app's name, colours and icons."""
    data = json.loads(_flet_web_file("manifest.json"))
    data.update(
        name=NAME,
        short_name=SHORT_NAME,
        description=DESCRIPTION,
        theme_color=GREEN,
        background_color=GREEN,
        icons=[
            {"src": "icons/Icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icons/Icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "icons/Icon-maskable-192.png", "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
            {"src": "icons/Icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    )
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def index_html() -> str:
    """``assets/index.html``: Flet 1.0.5's page, with the app's title, description, home-screen name and colour."""
    text = _flet_web_file("index.html")
    replacements = [
        (r'<meta name="description" content="[^"]*">', f'<meta name="description" content="{DESCRIPTION}.">'),
        (
            r'<meta name="apple-mobile-web-app-title" content="[^"]*">',
            f'<meta name="apple-mobile-web-app-title" content="{SHORT_NAME}">\n'
            f'  <meta name="theme-color" content="{GREEN}">',
        ),
        (r"<title>[^<]*</title>", f"<title>{NAME}</title>"),
    ]
    for pattern, new in replacements:
        text, count = re.subn(pattern, new, text, count=1)
        if count != 1:
            raise RuntimeError(f"Flet's index.html has no {pattern!r} any more: update tools/app_icons.py")
    return text


def web_texts() -> dict[Path, str]:
    """The generated text files under ``assets/``."""
    return {ASSETS / "manifest.json": manifest(), ASSETS / "index.html": index_html()}


def web_icons(icon: Path) -> dict[Path, bytes]:
    """The browser view's icons, rendered from ``icon`` the way ``flet build web`` renders them."""
    from flet_platform_assets import IconOptions, load_source, render_icons

    source, pre_rendered = load_source(icon)
    result = render_icons(
        source, IconOptions(background=_rgb(GREEN)), platform="web", pre_rendered=pre_rendered, derived=True
    )
    if result.warnings:
        raise RuntimeError("; ".join(result.warnings))
    by_name = {asset.relative_path: asset.image for asset in result.assets}
    out = {}
    for name, rendered in WEB_ICONS.items():
        buffer = io.BytesIO()
        by_name[rendered].save(buffer, format="PNG", optimize=True)
        out[ASSETS / name] = buffer.getvalue()
    return out


def stale_web_files() -> list[Path]:
    """Generated text files that differ from what this script writes, and web icons that are missing."""
    stale = [path for path, text in web_texts().items() if not path.is_file() or path.read_text("utf-8") != text]
    stale += [ASSETS / name for name in WEB_ICONS if not (ASSETS / name).is_file()]
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.app_icons", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale web files (exit 1 if any)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_web_files()
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python -m tools.app_icons", file=sys.stderr)
        return 1 if stale else 0
    (ASSETS / "icons").mkdir(parents=True, exist_ok=True)
    images = {"icon.png": draw_icon(), "splash.png": draw_splash(), "splash_dark.png": draw_splash(dark=True)}
    for name, image in images.items():
        image.save(ASSETS / name, format="PNG", optimize=True)
    files: dict[Path, bytes] = {path: text.encode("utf-8") for path, text in web_texts().items()}
    files.update(web_icons(ASSETS / "icon.png"))
    for path, data in files.items():
        path.write_bytes(data)
    for name in [*images, *(str(p.relative_to(ASSETS)) for p in files)]:
        print(f"wrote assets/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
