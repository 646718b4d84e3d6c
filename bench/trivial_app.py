"""The trivial Flet app that the browser benchmarks measure the app against: one button that changes one text.

Everything the real app's tap costs beyond this one is the app's own (the browser, Flutter's engine, the
WebSocket and Flet's protocol cost the same for both). Served offline on loopback like the app:
``.venv/bin/python -m bench.trivial_app --port 8600``.
"""

from __future__ import annotations

import argparse
import os
import sys

import flet as ft

BUTTON = "Tap"
"""The button's label."""
TEXT_PREFIX = "Taps: "
"""The text shows ``Taps: N`` after N taps."""


def main(page: ft.Page) -> None:
    """One button and one text: each tap adds one to the count shown."""
    page.title = "Trivial Flet app"
    count = ft.Text(f"{TEXT_PREFIX}0", size=20, semantics_label=f"{TEXT_PREFIX}0")

    def tapped(_: object) -> None:
        value = int(count.value.removeprefix(TEXT_PREFIX)) + 1 if isinstance(count.value, str) else 1
        count.value = count.semantics_label = f"{TEXT_PREFIX}{value}"
        count.update()

    page.add(ft.FilledButton(content=BUTTON, tooltip=BUTTON, on_click=tapped, height=56), count)


def run(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.trivial_app", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"  # serve, open no browser window
    ft.run(main, view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=args.port, no_cdn=True)


if __name__ == "__main__":
    run(sys.argv[1:])
