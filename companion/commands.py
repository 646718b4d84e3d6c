"""The archive commands' work: ``companion list|show|export|import|backup|restore|nights|show-night|ratings|seasons|
show-season|add-season``. The command line itself (its parser, and which command runs) is :mod:`app.cli`; each
command here is a plain function that takes a :class:`Context` (the data folder, where to print) and the command's
own values, prints plain text (or JSON when ``Context.as_json``) and returns the exit status.

Problems are one line on standard error and a non-zero exit status, never a traceback (:func:`run_command`):

* ``0`` done; ``1`` refused (a bad file, an unknown id, a data folder that is locked or cannot be written, or any
  unexpected failure); ``2`` a wrong command line (unknown option, missing argument; said by :mod:`app.cli`).

Every text printed goes through :func:`terminal_safe`, so no control or bidi-override character from a title, a
name or a path reaches the terminal (they are shown as ``\\xNN`` / ``\\uNNNN``). Files of the data folder set
aside because they could not be read are reported once, as one line on standard error.

``list``, ``show``, ``export`` and ``backup -o FILE`` only read: they open the archive read-only, so they change
no byte of the data folder and also work while the app is running (they then say so on standard error and show
what is saved on disk at that moment). ``import``, ``restore`` and ``backup`` into the data folder's ``backups/``
change the archive: they need the folder to themselves and refuse while the app is using it.

>>> import contextlib, io, json, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> game = folder / "game.json"
>>> _ = game.write_text(json.dumps({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []}))
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = run_command(Context(folder / "data", as_json=False), cmd_import, files=[str(game)])
>>> code, out.getvalue()
(0, 'game.json: 1 imported, 0 skipped.\\nImported 1 session, skipped 0, refused 0.\\n')
>>> with contextlib.redirect_stdout(io.StringIO()) as listing:
...     code = run_command(Context(folder / "data", as_json=True), cmd_list, game=None, player=None, status=None)
>>> [(row["game"], row["players"], row["status"]) for row in json.loads(listing.getvalue())]
[('jokers-kill', ['Ann', 'Ben'], 'in-progress')]
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.i18n import N_, Words
from storage import Archive, SessionDoc, SessionStatus, SessionSummary, StorageError, open_archive
from storage.atomic import StorageWriteError
from storage.exports import check_output_path, safe_json, write_output
from storage.limits import escape_char, is_unsafe_char

PROG = "companion"
TRACEBACK_ENV = "CTC_CLI_TRACEBACK"
"""When set, an unexpected exception (a bug) propagates with its traceback instead of becoming one line; the
tests set it so that no bug hides behind a polite message."""
MIN_PREFIX = 4
ENGLISH = Words.of("en")
"""The shortest id prefix that ``show`` and ``export`` accept in place of a whole id."""


class ExitCode(enum.IntEnum):
    """The exit status of an archive command."""

    OK = 0
    """Done."""
    REFUSED = 1
    """Bad input, an unknown id, a data folder that is locked or cannot be written, or an unexpected failure."""
    USAGE = 2
    """The command line itself is wrong (unknown option, missing argument)."""


class CliError(Exception):
    """A problem to report as one line on standard error; the command then exits with :attr:`ExitCode.REFUSED`."""


class UnknownSessionError(CliError, LookupError):
    """An id (or id prefix) that matches no saved session, or more than one."""


class OutputFileError(CliError, OSError):
    """An output file (``export -o``, ``backup -o``) that cannot be written."""


STATUSES = [status.value for status in SessionStatus]
"""The states ``list --status`` takes."""


@dataclass
class Context:
    """Where a command prints, and how."""

    data_dir: Path
    as_json: bool
    out: Any = field(default_factory=lambda: sys.stdout)
    err: Any = field(default_factory=lambda: sys.stderr)
    notes_shown: int = 0
    """How many of the archive's notes have been printed."""
    language: Words = ENGLISH
    """The words of the plain text (``companion --lang``, else the language chosen in Settings); JSON is never
    translated."""

    @property
    def words(self) -> Words:
        """The words to print in: :attr:`language`, or English when the output is JSON (language-neutral)."""
        return ENGLISH if self.as_json else self.language

    def print(self, text: str = "") -> None:
        self.out.write(terminal_safe(text) + "\n")

    def print_json(self, data: Any) -> None:
        self.out.write(safe_json(data, indent=1) + "\n")

    def note(self, text: str) -> None:
        self.err.write(f"{PROG}: {terminal_safe(_one_line(text))}\n")

    def error(self, text: str) -> None:
        said = self.language.gettext("error: {problem}").format(problem=_one_line(text))
        self.err.write(f"{PROG}: {terminal_safe(said)}\n")


def terminal_safe(text: object) -> str:
    """``text`` with every control character (NUL, ESC, BEL, CR, newline, C1 controls...) and bidi control
    replaced by a visible escape, so that nothing printed can move the cursor, clear the screen or reorder text.

    >>> terminal_safe("Ann\\x1b[2J\\u202eBen\\r")
    'Ann\\\\x1b[2J\\\\u202eBen\\\\x0d'
    """
    text = str(text)
    if not any(is_unsafe_char(c) for c in text):
        return text
    return "".join(escape_char(c) if is_unsafe_char(c) else c for c in text)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def run_command(ctx: Context, command: Callable[..., int], **values: Any) -> int:
    """Run one archive command with its values; returns the exit status. Never raises for bad input: every problem
    is one line on standard error."""
    try:
        return int(command(ctx, **values))
    except (CliError, StorageError) as exc:
        ctx.error(str(exc))
    except KeyboardInterrupt:
        ctx.error(
            ctx.language.gettext("interrupted (an import cut short is completed the next time the archive is opened)")
        )
    except OSError as exc:  # the system refused something outside the archive (a file to read, a folder)
        where = f"{exc.filename}: " if exc.filename else ""
        ctx.error(f"{where}{exc.strerror or exc}")
    except Exception as exc:  # a bug: still one line, never a traceback for the person at the terminal
        if os.environ.get(TRACEBACK_ENV):
            raise
        said = ctx.language.gettext("unexpected failure ({problem}); please report it")
        ctx.error(said.format(problem=f"{type(exc).__name__}: {exc}"))
    return int(ExitCode.REFUSED)


# --- opening the archive ------------------------------------------------------------------------------------


@contextlib.contextmanager
def _reading(ctx: Context) -> Iterator[Archive]:
    """The archive, read-only (changes nothing on disk); says so when a running app is using it."""
    _check_folder(ctx)
    archive = open_archive(ctx.data_dir, write=False)
    try:
        if archive.other_instance:
            ctx.note(
                ctx.language.gettext(
                    "the app is using {folder}; showing what is saved on disk now (opened read-only, nothing is "
                    "changed)"
                ).format(folder=ctx.data_dir)
            )
        _report(ctx, archive)
        yield archive
    finally:
        _report(ctx, archive)
        archive.close()


@contextlib.contextmanager
def _writing(ctx: Context) -> Iterator[Archive]:
    """The archive, locked for writing; :class:`CliError` if the folder is not usable."""
    _check_folder(ctx)
    archive = open_archive(ctx.data_dir, write=True)
    try:
        _report(ctx, archive)
        yield archive
    finally:
        _report(ctx, archive)
        archive.close()


def _report(ctx: Context, archive: Archive) -> None:
    """Print, once each, the archive's notes and its damaged files (one line for all of them)."""
    for note in archive.notes[ctx.notes_shown :]:
        ctx.note(note)
    ctx.notes_shown = len(archive.notes)
    from companion.damage import damage_line

    line = damage_line(archive.take_damage_notices(), ctx.language)
    if line:
        ctx.note(line)


def _check_folder(ctx: Context) -> None:
    if ctx.data_dir.exists() and not ctx.data_dir.is_dir():
        said = ctx.language.gettext("the data folder {folder} is a file, not a folder; choose another with --data-dir")
        raise CliError(said.format(folder=ctx.data_dir))


def _resolve(archive: Archive, wanted: str, words: Words = ENGLISH) -> str:
    """A whole session id for ``wanted`` (an id, or an unambiguous prefix of at least :data:`MIN_PREFIX`)."""
    if archive.has_session(wanted):
        return wanted
    matches = []
    if len(wanted) >= MIN_PREFIX:
        matches = [s.id for s in archive.list_sessions() if s.id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        said = words.gettext("{wanted} is the start of {n} session ids; give more of it")
        raise UnknownSessionError(said.format(wanted=repr(wanted), n=len(matches)))
    said = words.gettext("there is no saved session {wanted} in {folder} (see '{command}')")
    raise UnknownSessionError(said.format(wanted=repr(wanted), folder=archive.data_dir, command=f"{PROG} list"))


# --- formatting ---------------------------------------------------------------------------------------------


def _local(stamp: str) -> str:
    """An ISO UTC time as local ``YYYY-MM-DD HH:MM`` (the text itself if it is not a time)."""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def _summary_json(s: SessionSummary) -> dict[str, Any]:
    data = s.to_json()
    data.pop("fingerprint", None)
    return data


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "-"


STATUS_WORDS = {
    "in-progress": N_("in-progress"),
    "pending": N_("pending"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
    "open": N_("open"),
    "closed": N_("closed"),
}
"""A session's or a night's state as plain text says it (the JSON keeps the value)."""


def _status(value: str, words: Words) -> str:
    return words.gettext(STATUS_WORDS[value]) if value in STATUS_WORDS else value


def _hundredths(value: float, words: Words) -> str:
    """A figure to two decimals, with the language's decimal mark (``27.13``; ``27,13`` in German)."""
    if words.code == "en":
        return f"{value:.2f}"
    from babel.numbers import format_decimal

    return format_decimal(round(value, 2), "0.00", locale=words.locale)


def _game_name(key: str) -> str:
    import scoring

    try:
        return scoring.find_game(key).name
    except (scoring.ScoringError, ImportError):
        return key


# --- the commands -------------------------------------------------------------------------------------------


def cmd_list(ctx: Context, *, game: str | None, player: str | None, status: str | None) -> int:
    """``companion list``: one line per session (id, game, date, players, status, winners)."""
    with _reading(ctx) as archive:
        sessions = archive.list_sessions(game=game, player=player, status=status)
    if ctx.as_json:
        ctx.print_json([_summary_json(s) for s in sessions])
        return ExitCode.OK
    _ = ctx.words.gettext
    if not sessions:
        ctx.print(_("No sessions match.") if (game or player or status) else _("No sessions saved yet."))
        return ExitCode.OK
    rows = [[_("ID"), _("GAME"), _("DATE"), _("PLAYERS"), _("STATUS"), _("WINNERS")]]
    for s in sessions:
        status_said = _status(s.status.value, ctx.words)
        rows.append([s.id, s.game, _local(s.created_at), _names(s.players), status_said, _names(s.winners)])
    for line in _table(rows):
        ctx.print(line)
    return ExitCode.OK


def _scored(doc: SessionDoc) -> tuple[dict[str, Any] | None, dict[str, str] | None]:
    """(the result JSON, None) or (None, the scoring error) for a saved session."""
    import scoring

    try:
        return scoring.score(doc.record).to_json(), None
    except scoring.ScoringError as exc:
        return None, {"message": exc.message, "path": exc.path}
    except ImportError:
        return None, {"message": "this version of the app cannot score this game", "path": "game"}


def cmd_show(ctx: Context, *, wanted: str) -> int:
    """``companion show ID``: the standings, hand by hand with the notes, and the edit log."""
    with _reading(ctx) as archive:
        doc = archive.load_session(_resolve(archive, wanted, ctx.language))
    result, problem = _scored(doc)
    if ctx.as_json:
        ctx.print_json(
            {
                "session": {k: v for k, v in doc.to_stored().items() if k not in ("record", "log")},
                "record": doc.record,
                "result": result,
                "error": problem,
                "log": [entry.model_dump(mode="json") for entry in doc.log],
            }
        )
        return ExitCode.OK
    _ = ctx.words.gettext
    title = f" - {doc.title}" if doc.title else ""
    ctx.print(_("{game}{title}  (session {id})").format(game=_game_name(doc.game), title=title, id=doc.id))
    ctx.print(
        _("Started {started}, last saved {saved}; {status}").format(
            started=_local(doc.created_at), saved=_local(doc.updated_at), status=_status(doc.status.value, ctx.words)
        )
    )
    ctx.print(_("Players: {names}").format(names=_names(doc.players)))
    if result is None:
        assert problem is not None
        said = (
            _("Standings cannot be shown: {problem} at {path}")
            if problem["path"]
            else _("Standings cannot be shown: {problem}")
        )
        ctx.print(said.format(problem=problem["message"], path=problem["path"]))
    else:
        _print_result(ctx, result, doc.record)
    ctx.print()
    ctx.print(_("Edit log:"))
    for entry in doc.log:
        detail = f" ({entry.detail})" if entry.detail else ""
        ctx.print(f"  {_local(entry.at)}  {entry.action}{detail}")
    return ExitCode.OK


def _print_result(ctx: Context, result: dict[str, Any], record: Any = None) -> None:
    _ = ctx.words.gettext
    players: list[str] = result["players"]
    totals: dict[str, int] = result["totals"]
    winners: list[str] = result.get("winners") or []
    ctx.print()
    state = (
        _("Standings (finished):")
        if result.get("finished")
        else _("Standings (cancelled):")
        if result.get("cancelled")
        else _("Standings (under way):")
    )
    ctx.print(state)
    width = max(len(p) for p in players)
    for player in players:
        mark = "  " + _("winner") if player in winners else ""
        ctx.print(f"  {player.ljust(width)}  {totals.get(player, 0):>6}{mark}")
    pending = result.get("pending")
    if pending:
        ctx.print(
            "  " + _("Next: {part} between {names}").format(part=pending["kind"], names=_names(pending["players"]))
        )
    ctx.print()
    ctx.print(_("Hands:"))
    if not result["hands"]:
        ctx.print("  " + _("(none yet)"))
    said = _notes_in(record, ctx.words) if ctx.words.code != "en" else None
    running = dict.fromkeys(players, 0)
    for n, hand in enumerate(result["hands"], start=1):
        points: dict[str, int] = hand.get("points", {})
        for player, value in points.items():
            running[player] = running.get(player, 0) + value
        cells = ", ".join(f"{p} {points.get(p, 0):+d}" for p in players if p in points)
        none = _("no points")  # marked outside the f-string: Babel reads marks inside one only on 3.12+
        ctx.print(f"  {n:>3}. {cells or none}")
        notes = said[n - 1] if said is not None and n - 1 < len(said) else hand.get("notes") or []
        for note in notes:
            ctx.print(f"       - {note}")


def _notes_in(record: Any, words: Words) -> list[list[str]] | None:
    """Each hand's notes in the table's language (scoring's notes as data), or ``None`` when they cannot be."""
    import scoring
    from companion.i18n import result_in

    try:
        said = result_in(scoring.score(record), words.code, english_ranks=words.english_ranks)
    except (scoring.ScoringError, ImportError, TypeError, ValueError):
        return None
    hands: list[list[str]] = said["hands"]
    return hands


def cmd_export(ctx: Context, *, every: bool, ids: Sequence[str], output: str, kind: str) -> int:
    """``companion export (ID ... | --all) -o FILE [--format json|csv]``."""
    _ = ctx.language.gettext
    if every and ids:
        raise CliError(_("give session ids or --all, not both"))
    if not every and not ids:
        raise CliError(
            _("say which sessions to export: their ids, or --all (see '{command}')").format(command=f"{PROG} list")
        )
    if output != "-":  # refused before anything is read: inside the data folder, onto a device, a link...
        check_output_path(Path(output), ctx.data_dir)
    with _reading(ctx) as archive:
        chosen = None if every else list(dict.fromkeys(_resolve(archive, wanted, ctx.language) for wanted in ids))
        data = archive.export_sessions(chosen, kind)
        count = len(archive) if chosen is None else len(chosen)
    if output == "-":
        sys.stdout.flush()
        out = getattr(ctx.out, "buffer", None)
        if kind == "csv" and getattr(ctx.out, "isatty", lambda: False)():
            out = None  # a terminal: through terminal_safe (JSON exports escape such characters already)
            data = "\n".join(terminal_safe(line) for line in data.decode("utf-8").split("\n")).encode("utf-8")
        if out is not None:
            out.write(data)
            out.flush()
        else:
            ctx.out.write(data.decode("utf-8"))
        return ExitCode.OK
    target = write_output(Path(output), data, ctx.data_dir)
    if ctx.as_json:
        ctx.print_json({"file": str(target), "format": kind, "sessions": count})
    else:
        said = ctx.words.ngettext(
            "Exported {n} session to {file} ({format}).", "Exported {n} sessions to {file} ({format}).", count
        )
        ctx.print(said.format(n=count, file=target, format=kind))
    return ExitCode.OK


@dataclass
class _FileOutcome:
    file: str
    imported: int = 0
    skipped: int = 0
    refused: int = 0
    message: str = ""
    ids: list[str] = field(default_factory=list)
    nights: int = 0


def cmd_import(ctx: Context, *, files: Sequence[str]) -> int:
    """``companion import FILE ...``: every file all-or-nothing; prints imported / skipped / refused counts.

    Every file is read and checked through scoring before the archive is opened, so bad files alone never
    touch the data folder."""
    from storage.imports import (
        ImportFileRefusedError,
        ImportReport,
        apply_import,
        apply_nights,
        check_import_file,
        plan_import,
    )

    outcomes: list[_FileOutcome] = []
    checked = []
    for name in files:
        try:
            checked.append((name, check_import_file(Path(name).expanduser())))
        except ImportFileRefusedError as exc:
            outcomes.append(_FileOutcome(name, refused=max(exc.games, 1), message=str(exc)))
    if checked:
        with _writing(ctx) as archive:
            for name, file in checked:
                outcome = _FileOutcome(name)
                plan = plan_import(archive, file)
                outcome.skipped = plan.skipped
                try:
                    outcome.imported = apply_import(archive, plan)
                except StorageWriteError as exc:
                    outcome.refused = len(plan.docs)
                    outcome.message = f"{file.name} was not imported: {exc}; nothing from this file was added"
                outcome.ids = [doc.id for doc in plan.docs] if outcome.imported else []
                if file.nights and not outcome.message:
                    added = ImportReport()
                    try:
                        apply_nights(archive.nights, file, plan, added)
                    except StorageError as exc:
                        outcome.message = f"the game nights of {file.name} could not be saved: {exc}"
                    outcome.nights = added.nights
                outcomes.append(outcome)
    outcomes.sort(key=lambda o: files.index(o.file))
    totals = {key: sum(getattr(o, key) for o in outcomes) for key in ("imported", "skipped", "refused")}
    for outcome in outcomes:
        if outcome.message:
            ctx.error(outcome.message)
    if ctx.as_json:
        ctx.print_json({**totals, "files": [o.__dict__ for o in outcomes]})
    else:
        words = ctx.words
        for outcome in outcomes:
            if not outcome.message:
                count = outcome.nights
                said = (
                    words.ngettext(
                        "{file}: {imported} imported, {skipped} skipped, {n} game night.",
                        "{file}: {imported} imported, {skipped} skipped, {n} game nights.",
                        count,
                    )
                    if count
                    else words.gettext("{file}: {imported} imported, {skipped} skipped.")
                )
                name = Path(outcome.file).name
                ctx.print(said.format(file=name, imported=outcome.imported, skipped=outcome.skipped, n=count))
        said = words.ngettext(
            "Imported {n} session, skipped {skipped}, refused {refused}.",
            "Imported {n} sessions, skipped {skipped}, refused {refused}.",
            totals["imported"],
        )
        ctx.print(said.format(n=totals["imported"], skipped=totals["skipped"], refused=totals["refused"]))
    return ExitCode.REFUSED if any(o.message for o in outcomes) else ExitCode.OK


def cmd_backup(ctx: Context, *, output: str | None) -> int:
    """``companion backup [-o FILE|DIR/]``: a zip of the whole archive (to ``backups/`` by default). A folder (one
    that exists, or any path ending with ``/``, created if need be) gets a new dated zip inside it on every run."""
    if output is None:
        with _writing(ctx) as archive:
            path = archive.backup()
            count = len(archive)
    else:
        text = os.path.expanduser(output)
        dest = Path(text).absolute()
        into_folder = text.endswith(("/", os.sep)) or dest.is_dir()
        if not into_folder and not dest.parent.is_dir():
            raise OutputFileError(f"cannot write {dest}: the folder {dest.parent} does not exist")
        if not ctx.data_dir.is_dir():
            raise CliError(f"there is no data folder {ctx.data_dir} to back up")
        with _reading(ctx) as archive:
            try:
                path = archive.backup(f"{dest}{os.sep}" if into_folder else dest)
            except StorageWriteError as exc:
                raise OutputFileError(f"cannot write the backup: {exc.cause.strerror or exc.cause}") from None
            count = len(archive)
    if ctx.as_json:
        ctx.print_json({"backup": str(path), "sessions": count})
    else:
        said = ctx.words.ngettext("Backed up {n} session to {file}.", "Backed up {n} sessions to {file}.", count)
        ctx.print(said.format(n=count, file=path))
    return ExitCode.OK


def cmd_restore(ctx: Context, *, file: str, replace_with_empty: bool) -> int:
    """``companion restore FILE [--replace-with-empty]``: replace the archive by a backup, checked whole first;
    the current state is backed up first. A backup of no session is refused unless ``--replace-with-empty``."""
    from storage.backup import check_backup, restore

    source = Path(file).expanduser().absolute()
    checked = check_backup(source)  # a bad backup is refused before the data folder is even opened
    if checked.empty and not replace_with_empty:
        raise CliError(
            f"{checked.name} holds no sessions: restoring it would empty the archive; nothing was restored "
            "(add --replace-with-empty to restore it anyway)"
        )
    with _writing(ctx) as archive:
        count = restore(archive, checked, allow_empty=replace_with_empty)
        kept = next((p for p in archive.list_backups() if p.name.startswith("pre-restore-")), None)
    if ctx.as_json:
        ctx.print_json({"restored": count, "previous_state": str(kept) if kept else None})
    else:
        said = ctx.words.ngettext("Restored {n} session from {file}.", "Restored {n} sessions from {file}.", count)
        ctx.print(said.format(n=count, file=source))
        if kept is not None:
            ctx.print(ctx.words.gettext("The archive as it was before is kept in {file}.").format(file=kept))
    return ExitCode.OK


def words_for(data_dir: Path, code: str | None) -> Words:
    """The words of the command line: ``--lang CODE`` when given, else the language chosen in the data folder's
    Settings (the device's when none is), English when it cannot be read. An unknown code is :class:`CliError`.

    >>> import pathlib, tempfile
    >>> words_for(pathlib.Path(tempfile.mkdtemp()), "de_DE").code
    'de'
    """
    from companion.i18n import normalize, resolve
    from companion.settings import Settings
    from storage.settings import SettingsStore

    if code is not None:
        found = resolve(code) if code == "system" else normalize(code)
        if found is None:
            raise CliError(f"--lang: {code!r} is not a language of the app (choose one of: system, en, sv, de, en-XA)")
        return Words.of(found)
    try:
        return Settings.from_dict(SettingsStore(data_dir, read_only=True).all()).words
    except (StorageError, OSError, ValueError):
        return Words.of(resolve(None))


def _money(ctx: Context) -> Any:
    """The currency setting of the data folder (read only; the default if it cannot be read)."""
    from companion.settings import Settings
    from storage.settings import SettingsStore

    try:
        return Settings.from_dict(SettingsStore(ctx.data_dir, read_only=True).all()).money
    except (StorageError, OSError, ValueError):
        from companion.money import MoneyFormat

        return MoneyFormat()


def _nights(archive: Archive) -> list[Any]:
    from companion.night_model import Night, NightError

    out = []
    for doc in archive.nights.list():
        with contextlib.suppress(NightError):
            out.append(Night.from_doc(doc))
    return out


def _resolve_night(archive: Archive, wanted: str, words: Words = ENGLISH) -> Any:
    nights = _nights(archive)
    exact = [n for n in nights if n.id == wanted]
    matches = exact or [n for n in nights if len(wanted) >= MIN_PREFIX and n.id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        said = words.gettext("{wanted} is the start of {n} night ids; give more of it")
        raise CliError(said.format(wanted=repr(wanted), n=len(matches)))
    said = words.gettext("there is no game night {wanted} in {folder} (see '{command}')")
    raise CliError(said.format(wanted=repr(wanted), folder=archive.data_dir, command=f"{PROG} nights"))


def _night_records(archive: Archive, night: Any) -> dict[str, Any]:
    records: dict[str, Any] = {}
    for sid in night.sessions:
        with contextlib.suppress(StorageError):
            records[sid] = archive.load_session(sid).record
    return records


def cmd_nights(ctx: Context) -> int:
    """``companion nights``: one line per game night (id, name, date, games, players, open or closed)."""
    with _reading(ctx) as archive:
        nights = _nights(archive)
        for problem in archive.nights.problems:
            ctx.note(problem)
    if ctx.as_json:
        ctx.print_json(
            [
                {k: n.to_doc()[k] for k in ("id", "name", "started", "closed", "status", "players", "sessions")}
                for n in nights
            ]
        )
        return ExitCode.OK
    _ = ctx.words.gettext
    if not nights:
        ctx.print(_("No game nights saved yet."))
        return ExitCode.OK
    rows = [[_("ID"), _("NAME"), _("DATE"), _("GAMES"), _("PLAYERS"), _("STATUS")]]
    for n in nights:
        status = _status(n.status.value, ctx.words)
        rows.append([n.id, n.name, _local(n.started), str(len(n.sessions)), _names(n.players), status])
    for line in _table(rows):
        ctx.print(line)
    return ExitCode.OK


def cmd_show_night(ctx: Context, *, wanted: str) -> int:
    """``companion show-night ID``: the night's games, its ledger entries, who pays whom, and the recap."""
    from companion.night_recap import recap, recap_text

    fmt = _money(ctx)
    words = ctx.words
    _ = words.gettext
    with _reading(ctx) as archive:
        night = _resolve_night(archive, wanted, ctx.language)
        summary = recap(night, _night_records(archive, night), words)
        changes = _season_service(ctx, archive).ratings.night_changes(night.sessions, summary.players)
        summary = dataclasses.replace(summary, rating_change=changes)
    if ctx.as_json:
        ctx.print_json(
            {
                "night": night.to_doc(),
                "games": [
                    {
                        "number": g.number,
                        "session": g.session_id,
                        "game": g.game,
                        "winners": list(g.winners),
                        "verdict": g.verdict,
                    }
                    for g in summary.games
                ],
                "wins": summary.wins,
                "money": summary.money,
                "settle_up": [
                    {"payer": t.payer, "receiver": t.receiver, "amount": t.amount, "paid": t.paid}
                    for t in summary.settlement.transfers
                ],
                "problems": list(summary.problems),
                "rating_change": dict(summary.rating_change),
            }
        )
        return ExitCode.OK
    status = _status(night.status.value, words)
    ctx.print(_("{name}  (night {id}, {status})").format(name=night.name, id=night.id, status=status))
    ctx.print(
        _("Started {started}; players: {names}").format(started=_local(night.started), names=_names(night.players))
    )
    ctx.print()
    ctx.print(_("Games:"))
    for g in summary.games:
        ctx.print(
            "  "
            + _("{n}. {game} (session {id}): {verdict}").format(
                n=g.number, game=g.name, id=g.session_id, verdict=g.verdict
            )
        )
    if not summary.games:
        ctx.print("  " + _("(none yet)"))
    if night.entries:
        ctx.print()
        ctx.print(_("Ledger entries:"))
        for entry in night.entries:
            ctx.print(f"  {entry.describe(fmt, None if words.code == 'en' else words)}")
    for problem in summary.problems:
        ctx.note(problem)
    ctx.print()
    for line in recap_text(summary, fmt, words).split("\n"):
        ctx.print(line)
    return ExitCode.OK


# --- ratings and seasons ------------------------------------------------------------------------------------


def _season_service(ctx: Context, archive: Archive, *, write: bool = False) -> Any:
    """The seasons of the data folder (kept with its settings) and the ratings of ``archive``."""
    from companion.ratings import RatingService
    from companion.seasons import Seasons, SeasonService
    from companion.stats import CACHE_FILE, OutcomeCache
    from storage.settings import SettingsStore

    ratings = RatingService(archive, OutcomeCache(ctx.data_dir / CACHE_FILE))
    store = SettingsStore(ctx.data_dir, read_only=not write)
    seasons = Seasons(store, archive)
    seasons.named()
    for problem in seasons.problems:
        ctx.note(ctx.language.gettext("a stored season is left out: {problem}").format(problem=problem))
    return SeasonService(seasons, ratings, lambda: _nights(archive))


def _refused(exc: Exception) -> CliError:
    return CliError(str(exc))


def cmd_ratings(ctx: Context, *, game: str, season: str | None) -> int:
    """``companion ratings``: every player's rating in one scope (a game, or all), highest ordinal first."""
    from companion.ratings import RatingError, check_scope, scope_name
    from companion.seasons import SeasonError

    with _reading(ctx) as archive:
        service = _season_service(ctx, archive)
        try:
            scope = check_scope(game)
            if season is not None:
                ratings = service.season_ratings(service.seasons.get(season), scope)
            else:
                ratings = service.ratings.ratings(scope)
        except (RatingError, SeasonError) as exc:
            raise _refused(exc) from None
    if ctx.as_json:
        ctx.print_json(ratings.to_json())
        return ExitCode.OK
    words = ctx.words
    _ = words.gettext
    scope_said = scope_name(ratings.scope, words)
    rated = len(ratings.order)
    ctx.print(
        (
            words.ngettext(
                "Ratings · {scope} · season {season} · {n} game rated",
                "Ratings · {scope} · season {season} · {n} games rated",
                rated,
            )
            if season is not None
            else words.ngettext("Ratings · {scope} · {n} game rated", "Ratings · {scope} · {n} games rated", rated)
        ).format(scope=scope_said, season=season, n=rated)
    )
    if not ratings.players:
        ctx.print(_("No finished games to rate yet."))
        return ExitCode.OK
    rows = [["#", _("NAME"), _("RATING"), "MU", "SIGMA", _("GAMES"), _("WINS"), ""]]
    for n, p in enumerate(ratings.players, start=1):
        rows.append(
            [
                str(n),
                p.name,
                _hundredths(p.ordinal, words),
                _hundredths(p.mu, words),
                _hundredths(p.sigma, words),
                str(p.games),
                str(p.wins),
                _("provisional") if p.provisional else "",
            ]
        )
    for line in _table(rows):
        ctx.print(line)
    ctx.print(_("RATING is the conservative rating, MU - 3 x SIGMA; provisional: fewer than 5 games."))
    return ExitCode.OK


def cmd_seasons(ctx: Context) -> int:
    """``companion seasons``: every season (the calendar years with games, and those the table named)."""
    with _reading(ctx) as archive:
        service = _season_service(ctx, archive)
        seasons = service.seasons.all()
    if ctx.as_json:
        ctx.print_json([s.to_json() for s in seasons])
        return ExitCode.OK
    _ = ctx.words.gettext
    rows = [[_("NAME"), _("FROM"), _("TO"), _("KIND")]]
    for s in seasons:
        kind = _("calendar year") if s.default else _("named")
        rows.append([s.name, s.start.isoformat(), s.end.isoformat(), kind])
    for line in _table(rows):
        ctx.print(line)
    return ExitCode.OK


def cmd_show_season(ctx: Context, *, name: str, game: str) -> int:
    """``companion show-season NAME``: the season's standings (points, money, rating change) and its recap."""
    from companion.ratings import RatingError
    from companion.seasons import SeasonError, recap_text

    fmt = _money(ctx)
    with _reading(ctx) as archive:
        service = _season_service(ctx, archive)
        try:
            standings = service.standings(service.seasons.get(name), game)
        except (RatingError, SeasonError) as exc:
            raise _refused(exc) from None
    if ctx.as_json:
        data = standings.to_json()
        data["ratings"] = standings.ratings.to_json()
        ctx.print_json(data)
        return ExitCode.OK
    for line in recap_text(standings, fmt, ctx.words).split("\n"):
        ctx.print(line)
    return ExitCode.OK


def cmd_add_season(ctx: Context, *, name: str, start: str, end: str) -> int:
    """``companion add-season NAME START END``: name a season (refused if it starts after it ends)."""
    from companion.seasons import SeasonError

    with _writing(ctx) as archive:
        service = _season_service(ctx, archive, write=True)
        try:
            season = service.seasons.add(name, start, end)
        except SeasonError as exc:
            raise _refused(exc) from None
    if ctx.as_json:
        ctx.print_json(season.to_json())
    else:
        ctx.print(ctx.words.gettext("Season {name}: {span}.").format(name=season.name, span=season.span))
    return ExitCode.OK
