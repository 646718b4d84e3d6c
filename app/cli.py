"""The command line of ``companion`` (``python -m app`` does the same): start the app, or run an archive command.

By default it serves the browser view on http://127.0.0.1:8550 (offline: nothing is loaded from the internet),
prints that address and opens it in a browser when there is a display. Problems at start-up (a port in use, a data
folder that cannot be written) are one line on standard error and exit status 2, never a traceback.

``companion list|show|export|import|backup|restore ...`` are archive commands: their options are parsed here, with
the app's, and their work is done by :mod:`companion.commands`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from companion.config import DEFAULT_HOST, DEFAULT_PORT, StartupError, default_data_dir, ensure_port_free, verify_port

COMMANDS: dict[str, tuple[str, dict[str, str]]] = {
    "list": ("cmd_list", {"game": "game", "player": "player", "status": "status"}),
    "show": ("cmd_show", {"wanted": "id"}),
    "export": ("cmd_export", {"every": "all", "ids": "ids", "output": "output", "kind": "format"}),
    "import": ("cmd_import", {"files": "files"}),
    "backup": ("cmd_backup", {"output": "output"}),
    "restore": ("cmd_restore", {"file": "file", "replace_with_empty": "replace_with_empty"}),
    "nights": ("cmd_nights", {}),
    "show-night": ("cmd_show_night", {"wanted": "id"}),
    "ratings": ("cmd_ratings", {"game": "game", "season": "season"}),
    "seasons": ("cmd_seasons", {}),
    "show-season": ("cmd_show_season", {"name": "name", "game": "game"}),
    "add-season": ("cmd_add_season", {"name": "name", "start": "start", "end": "end"}),
}
"""Each archive command: its function in :mod:`companion.commands`, and which of the parsed values it takes (its
parameter: the option's name)."""
CLI_COMMANDS = tuple(COMMANDS)
"""First arguments that mean "an archive command", not "start the app"."""
PROG = "companion"
EXIT_USAGE = 2
FLET_PORT_ENV = "FLET_SERVER_PORT"
"""Flet's variable for the port of its server (``flet.app.run`` reads it): the port when ``--port`` is not given."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (argparse's default adds a usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number, not {text!r}") from None
    try:
        return verify_port(value)
    except StartupError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser(*, commands: bool = False) -> argparse.ArgumentParser:
    """The command line of ``companion``: the app's options, and with ``commands`` the archive commands (left out
    when the app starts, so that ``companion --help`` and a start need not load the archive's code)."""
    parser = _Parser(
        prog=PROG,
        description="Card Table Companion: keep score for card games played with real cards.",
        epilog=f"Archive commands: {PROG} {{{','.join(CLI_COMMANDS)}}} ... (see '{PROG} list --help').",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=None,  # then Flet's own variable for its server's port, else DEFAULT_PORT (run())
        help=f"port of the browser view (default {DEFAULT_PORT}, or ${FLET_PORT_ENV})",
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: only this computer; 0.0.0.0 shares it on the network)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="folder where sessions and settings are kept (default: your user-data folder, "
        "or the app's storage folder when packaged)",
    )
    parser.add_argument(
        "--share",
        action="store_true",
        help="let phones on the same network follow the game (listens on all interfaces; the Share screen shows "
        "the address, a QR code and the PIN). Off by default: only this computer can open the app",
    )
    parser.add_argument(
        "--lang",
        metavar="CODE",
        default=None,
        help="the table's language for this run: en, sv, de (en-XA: the pseudo-language for testing); "
        "default: the one chosen in Settings, else the device's",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--desktop", action="store_true", help="open a native window (needs Flet's desktop client and a display)"
    )
    mode.add_argument("--no-browser", action="store_true", help="serve the browser view but do not open a browser")
    if commands:
        _add_commands(parser)
    return parser


def _add_commands(parser: argparse.ArgumentParser) -> None:
    """The archive commands, each with ``--data-dir`` and ``--json`` and its own values."""
    from companion.commands import MIN_PREFIX, STATUSES

    common = _Parser(add_help=False)
    common.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the data folder (default: the app's own, as 'companion' uses)",
    )
    common.add_argument("--json", action="store_true", help="print JSON instead of plain text")
    common.add_argument(
        "--lang",
        metavar="CODE",
        default=None,
        help="the language of the plain text: en, sv, de, en-XA (default: the one chosen in Settings); JSON is "
        "never translated",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("list", parents=[common], help="list the saved sessions, newest first")
    p.add_argument("--game", help="only this game (its key, e.g. jokers-kill)")
    p.add_argument("--player", help="only sessions with this player (exact name)")
    p.add_argument("--status", choices=STATUSES, help="only sessions in this state")

    p = sub.add_parser("show", parents=[common], help="show a session: standings, hands with notes, edit log")
    p.add_argument("id", help=f"the session id (or its first {MIN_PREFIX}+ characters)")

    p = sub.add_parser("export", parents=[common], help="write sessions to a file (JSON records or CSV rows)")
    p.add_argument("ids", nargs="*", metavar="ID", help="the sessions to export")
    p.add_argument("--all", action="store_true", help="export every session")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write ('-': standard output)")
    p.add_argument("--format", choices=["json", "csv"], default="json", help="json (default, re-importable) or csv")

    p = sub.add_parser("import", parents=[common], help="import exports or bare game records (all or nothing per file)")
    p.add_argument("files", nargs="+", metavar="FILE")

    p = sub.add_parser("backup", parents=[common], help="write a zip of the whole archive")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="the zip file or folder to write (default: the data folder's backups/)"
    )

    p = sub.add_parser("restore", parents=[common], help="replace the archive by a backup (the current one is kept)")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--replace-with-empty",
        action="store_true",
        help="restore a backup that holds no sessions (it empties the archive); refused without this",
    )

    sub.add_parser("nights", parents=[common], help="list the game nights, newest first")
    p = sub.add_parser("show-night", parents=[common], help="show a game night: its games, ledger, settle-up, recap")
    p.add_argument("id", help=f"the night id (or its first {MIN_PREFIX}+ characters)")

    p = sub.add_parser("ratings", parents=[common], help="the players' ratings, highest first")
    p.add_argument("--game", default="all", help="a game key (e.g. jokers-kill), or all (the default)")
    p.add_argument("--season", help="only the games of this season (see 'companion seasons')")
    sub.add_parser("seasons", parents=[common], help="list the seasons, newest first")
    p = sub.add_parser("show-season", parents=[common], help="show a season's standings and recap")
    p.add_argument("name", help="the season's name (e.g. 2026)")
    p.add_argument("--game", default="all", help="a game key (e.g. jokers-kill), or all (the default)")
    p = sub.add_parser("add-season", parents=[common], help="name a season: a range of dates")
    p.add_argument("name", help="the season's name")
    p.add_argument("start", help="its first day, e.g. 2026-01-01")
    p.add_argument("end", help="its last day, e.g. 2026-03-31")


def run_command(argv: Sequence[str]) -> int:
    """Run one archive command (``argv`` starts with its name); returns the exit status. Never raises for bad
    input: every problem is one line on standard error (a wrong command line exits with 2).

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     code = run_command(["show"])
    >>> code, err.getvalue()
    (2, "companion: error: the following arguments are required: id (see 'companion show --help')\\n")
    """
    from companion import commands

    try:
        args = build_parser(commands=True).parse_args(list(argv))
    except SystemExit as exc:  # --help, or a wrong command line (said in one line by _Parser)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    data_dir = args.data_dir if args.data_dir is not None else default_data_dir()
    folder = Path(data_dir).expanduser().absolute()
    try:
        language = commands.words_for(folder, args.lang)
    except commands.CliError as exc:
        return _fail(str(exc))
    ctx = commands.Context(data_dir=folder, as_json=args.json, language=language)
    name, takes = COMMANDS[args.command]
    values = {parameter: getattr(args, option) for parameter, option in takes.items()}
    return commands.run_command(ctx, getattr(commands, name), **values)


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr, flush=True)
    return EXIT_USAGE


VALUE_OPTIONS = ("--data-dir", "--port", "--host", "--lang")
"""Options of the app that take a value (so that value is not mistaken for an archive command)."""


def _command_index(args: list[str]) -> int | None:
    """Where the archive command stands in ``args``, if there is one before any other positional word.

    >>> _command_index(["list", "--json"]), _command_index(["--data-dir", "d", "show", "ab12"])
    (0, 2)
    >>> _command_index(["--data-dir", "list"]) is None, _command_index(["--port", "9000"]) is None
    (True, True)
    """
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
        elif word in VALUE_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            return index if word in CLI_COMMANDS else None
    return None


def run(argv: Sequence[str], *, prefer_desktop: bool = False) -> int:
    """Run ``companion`` with the arguments ``argv``; returns the exit status. ``prefer_desktop`` (the packaged
    app) opens a native window when one can be opened, as ``--desktop`` does.

    A stop signal at any moment closes the data folder first (:func:`app.signals.on_stop`)."""
    args_list = list(argv)
    command_at = _command_index(args_list)
    if command_at is not None:  # `companion --data-dir X list` works like `companion list --data-dir X`
        return run_command([args_list[command_at], *args_list[:command_at], *args_list[command_at + 1 :]])

    args = build_parser().parse_args(args_list)
    if args.port is None:  # a start without --port (the packaged app's): Flet's variable, as ft.run reads it
        try:
            args.port = _port(os.environ.get(FLET_PORT_ENV) or str(DEFAULT_PORT))
        except argparse.ArgumentTypeError as exc:
            return _fail(f"${FLET_PORT_ENV}: {exc}")

    # Imported here so that `companion --help` and the archive commands stay fast.
    from app.serve import Presentation, desktop_problem, display_available, serve
    from app.signals import on_stop
    from companion.services import AppServices
    from companion.sharing import ShareAddress

    notes: list[str] = []
    wants_desktop = args.desktop or (prefer_desktop and not args.no_browser)
    no_window = desktop_problem() if wants_desktop else None
    if args.desktop and no_window is not None:
        notes.append(f"no desktop window here: {no_window}; serving the browser view")
    if wants_desktop and no_window is None:
        presentation = Presentation.DESKTOP
    elif args.no_browser or not display_available():
        presentation = Presentation.SERVER
    else:
        presentation = Presentation.BROWSER

    host = "0.0.0.0" if args.share and args.host == DEFAULT_HOST else args.host
    port = 0 if presentation is Presentation.DESKTOP and prefer_desktop else args.port
    try:
        services = AppServices.open(
            args.data_dir if args.data_dir is not None else default_data_dir(),
            address=ShareAddress.listening(host, port),
        )
    except StartupError as exc:
        return _fail(str(exc))
    if args.lang is not None:
        try:
            services.settings.use_language(args.lang)
        except ValueError as exc:
            services.close()
            return _fail(f"--lang: {exc}")
    forget = on_stop(services.close)
    try:
        if presentation is not Presentation.DESKTOP:
            try:
                ensure_port_free(host, port)
            except StartupError as exc:
                return _fail(str(exc))
        damage = services.damage.message()  # also the banner on Home, until it is dismissed there
        if damage:
            notes.append(damage)
        live = services.live
        if live.address.shared:
            notes.append(f"sharing on the network: phones open {live.address.live_url()} (PIN {live.pin})")

        def started(url: str) -> None:
            url = url.replace("//0.0.0.0:", "//127.0.0.1:")  # listening everywhere; this computer opens it locally
            for note in notes:
                print(f"{PROG}: {note}", flush=True)
            if presentation is Presentation.DESKTOP:
                print(f"Card Table Companion is opening in a window. Data: {services.data_dir}", flush=True)
            else:
                print(f"Card Table Companion: open {url} (Ctrl+C stops it). Data: {services.data_dir}", flush=True)

        try:
            serve(services, host=host, port=port, presentation=presentation, on_started=started)
        except KeyboardInterrupt:  # Ctrl+C while serving: a clean stop
            return 0
        except OSError as exc:  # the port was taken between the check and the start, or the network refused
            if presentation is Presentation.DESKTOP:  # the client was there (checked above) but would not start
                return _fail(f"could not open the desktop window: {exc.strerror or exc}")
            return _fail(f"could not start the server on {host}:{port}: {exc.strerror or exc}")
        return 0
    finally:
        forget()
        services.close()
