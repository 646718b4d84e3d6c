"""A recap drawn as a PNG in the app's theme and font, offline (Pillow): the night's, and a season's."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.i18n import Words
from companion.money import MoneyFormat
from companion.night_recap import ENGLISH, Recap, day_of, recap_sections, says_day

FONT_FILE = Path(__file__).resolve().parents[1] / "assets" / "fonts" / "DejaVuSans.ttf"
"""The app's own font (it has ♠ ♥ ♦ ♣); the image is drawn with it, offline."""
SEED = (0x2E, 0x7D, 0x32)
"""The app theme's seed colour, card-table green (Flet's GREEN_800)."""
PNG_WIDTH = 1080
_MARGIN = 56
_PALETTES = {
    False: {
        "background": (0xF3, 0xF7, 0xF0),
        "card": (0xFF, 0xFF, 0xFF),
        "text": (0x1A, 0x1C, 0x19),
        "accent": SEED,
        "on_accent": (0xFF, 0xFF, 0xFF),
        "rule": (0xC2, 0xC9, 0xBD),
    },
    True: {
        "background": (0x11, 0x14, 0x10),
        "card": (0x1D, 0x21, 0x1B),
        "text": (0xE2, 0xE3, 0xDD),
        "accent": (0x8B, 0xD8, 0x84),
        "on_accent": (0xFF, 0xFF, 0xFF),
        "rule": (0x42, 0x49, 0x40),
    },
}
"""Light and dark palettes after Material 3's scheme from the seed (surface, on-surface, primary); the header band is
the seed itself in both."""


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype(str(FONT_FILE), size)
    except OSError:
        return ImageFont.load_default(size)


def recap_png(recap: Recap, fmt: MoneyFormat | None = None, dark: bool = False, words: Words = ENGLISH) -> bytes:
    """The recap drawn as a PNG (1080 px wide, as tall as its content), in the app's theme and font, offline; its
    words in ``words``' language (the font has å ä ö ü ß)."""
    n = len(recap.games)
    games = words.ngettext("{n} game", "{n} games", n).format(n=n)
    day = "" if says_day(recap.name, recap.started) else day_of(recap.started, words) + "  ·  "  # the name may say it
    return sections_png(recap.name, f"{day}{games}", recap_sections(recap, fmt, words), dark=dark)


def sections_png(title: str, subtitle: str, content: Sequence[tuple[str, Sequence[str]]], dark: bool = False) -> bytes:
    """A recap drawn as a PNG: a green band with ``title`` and ``subtitle``, then a card per (heading, lines) of
    ``content`` (the night's recap, a season's)."""
    from PIL import Image, ImageDraw

    colours = _PALETTES[bool(dark)]
    title_font, head_font, body_font = _font(52), _font(34), _font(30)
    width = PNG_WIDTH - 2 * _MARGIN - 2 * 32
    line_h, head_h, gap = 42, 56, 28

    def wrap(text: str) -> list[str]:
        """Break ``text`` into lines that fit the card (at spaces; a word wider than the card is cut)."""
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            trial = f"{current} {word}" if current else word
            if body_font.getlength(trial) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
                trial = "    " + word
            while body_font.getlength(trial) > width:  # one long word: cut it where it leaves the card
                cut = max(1, next(i for i in range(len(trial), 0, -1) if body_font.getlength(trial[:i]) <= width))
                lines.append(trial[:cut])
                trial = "    " + trial[cut:]
            current = trial
        return [*lines, current] if current else lines

    sections = [(heading, [piece for line in lines for piece in wrap(line)]) for heading, lines in content]
    header_h = 200
    height = header_h + gap + sum(head_h + len(lines) * line_h + 2 * 24 + gap for _, lines in sections) + _MARGIN
    image = Image.new("RGB", (PNG_WIDTH, height), colours["background"])
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, PNG_WIDTH, header_h), fill=SEED)  # the card-table green band, in both modes
    while title_font.getlength(title) > PNG_WIDTH - 2 * _MARGIN:
        title = title[:-2] + "…"
    draw.text((_MARGIN, 44), title, font=title_font, fill=colours["on_accent"])
    suits = "♠ ♥ ♦ ♣"
    draw.text(
        (_MARGIN, 124),
        f"{subtitle}  ·  {suits}",
        font=body_font,
        fill=colours["on_accent"],
    )
    y = header_h + gap
    for heading, lines in sections:
        box_h = head_h + len(lines) * line_h + 2 * 24
        draw.rounded_rectangle(
            (_MARGIN, y, PNG_WIDTH - _MARGIN, y + box_h),
            radius=24,
            fill=colours["card"],
            outline=colours["rule"],
            width=2,
        )
        draw.text((_MARGIN + 32, y + 24), heading, font=head_font, fill=colours["accent"])
        ty = y + 24 + head_h
        for line in lines:
            draw.text((_MARGIN + 32, ty), line, font=body_font, fill=colours["text"])
            ty += line_h
        y += box_h + gap
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
