"""Export of sessions (JSON: record plus metadata, re-importable; CSV: a row per hand per player), and the one
safe way to write an export or a backup to a path someone typed.

:func:`check_output_path` refuses, with a one-line message naming the path, any target inside the data folder
(except its own ``exports/`` and ``backups/`` folders) and anything but a regular file or a new path (a folder, a
device node, a FIFO, a symbolic link); :func:`write_output` then writes atomically (a temporary file beside the
target, fsync, rename), so a failed write leaves no half file.

>>> import tempfile, pathlib
>>> data = pathlib.Path(tempfile.mkdtemp())
>>> try:
...     check_output_path(data / "players.json", data)
... except OutputPathError as exc:
...     print(str(exc).replace(str(data), "DATA"))
cannot write DATA/players.json: it is inside the data folder DATA; choose a path outside it
>>> check_output_path(data / "exports" / "all.json", data) == data / "exports" / "all.json"
True
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from storage.core import ArchiveCore
from storage.errors import ExportFormatError, OutputPathError
from storage.imports import EXPORT_FORMAT, EXPORT_VERSION
from storage.layout import BACKUPS, EXPORTS
from storage.limits import BIDI_CONTROLS, is_unsafe_char
from storage.models import SessionDoc, utc_now

CSV_COLUMNS = [
    "session_id",
    "title",
    "game",
    "status",
    "created_at",
    "updated_at",
    "hand",
    "seat",
    "player",
    "points",
    "total",
]

__all__ = ["CSV_COLUMNS", "check_output_path", "export_sessions", "safe_json", "write_output"]


def safe_json(data: Any, *, indent: int | None = None) -> str:
    """JSON text (UTF-8 kept readable) in which no control or bidi-override character appears raw: JSON escapes
    the C0 controls itself, and this escapes the rest (DEL, C1 controls, bidi controls) as ``\\uNNNN``.

    >>> safe_json({"name": "Zoë\\u202e\\x9b"})
    '{"name": "Zoë\\\\u202e\\\\u009b"}'
    """
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    if any(c in BIDI_CONTROLS or "\x7f" <= c <= "\x9f" for c in text):
        text = "".join(f"\\u{ord(c):04x}" if is_unsafe_char(c) else c for c in text)
    return text


def _docs(archive: ArchiveCore, ids: Iterable[str] | None) -> list[SessionDoc]:
    wanted = [s.id for s in archive.list_sessions()] if ids is None else list(ids)
    return [archive.load_session(sid) for sid in wanted]


def export_sessions(archive: ArchiveCore, ids: Iterable[str] | None = None, fmt: str = "json") -> bytes:
    """The sessions ``ids`` (all when ``None``, newest first) as JSON or CSV bytes (UTF-8)."""
    if fmt not in ("json", "csv"):
        raise ExportFormatError(f"cannot export as {fmt!r}: choose json or csv")
    docs = _docs(archive, ids)
    if fmt == "json":
        payload = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": utc_now(),
            "sessions": [doc.to_stored() for doc in docs],
        }
        return safe_json(payload, indent=1).encode("utf-8")
    return _csv(docs)


def _csv(docs: list[SessionDoc]) -> bytes:
    import scoring

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for doc in docs:
        try:
            result = scoring.score(doc.record)
            hand_points: list[dict[str, int]] | None = [h.points for h in result.hands]
        except (scoring.ScoringError, ImportError):
            hand_points = None
        hands = doc.record.get("hands") or []
        running = dict.fromkeys(doc.players, 0)
        for n in range(len(hands)):
            for seat, player in enumerate(doc.players, start=1):
                points: Any = ""
                total: Any = ""
                if hand_points is not None and n < len(hand_points):
                    points = hand_points[n].get(player, 0)
                    running[player] += points
                    total = running[player]
                writer.writerow(
                    [
                        doc.id,
                        doc.title or "",
                        doc.game,
                        doc.status.value,
                        doc.created_at,
                        doc.updated_at,
                        n + 1,
                        seat,
                        player,
                        points,
                        total,
                    ]
                )
    return out.getvalue().encode("utf-8")


# --- writing to a path someone typed ------------------------------------------------------------------------


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_output_path(target: Path, data_dir: Path | None, *, allowed: tuple[str, ...] = (EXPORTS, BACKUPS)) -> Path:
    """The absolute path to write for ``target``, or :class:`~storage.errors.OutputPathError` (one line, naming
    the path) if it is inside ``data_dir`` (other than its ``allowed`` sub-folders, the app's own output folders),
    or is anything but a regular file or a new path: a folder, a device node, a FIFO, a socket, a symbolic link.
    Symbolic links in the folders above are resolved, so a link into the data folder is caught too."""
    target = Path(target).expanduser().absolute()
    shown = str(target)
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputPathError(f"cannot write {shown}: {exc.strerror or exc}") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise OutputPathError(f"cannot write {shown}: it is a symbolic link; give the path of a file")
        if stat.S_ISDIR(info.st_mode):
            raise OutputPathError(f"cannot write {shown}: it is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a device"
                if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                else "a FIFO"
                if stat.S_ISFIFO(info.st_mode)
                else "not a regular file"
            )
            raise OutputPathError(f"cannot write {shown}: it is {kind}; give the path of a regular file")
    if data_dir is not None:
        real_data = Path(os.path.realpath(data_dir))
        real_target = Path(os.path.realpath(target.parent)) / target.name
        if _inside(real_target, real_data) and not any(_inside(real_target.parent, real_data / sub) for sub in allowed):
            raise OutputPathError(
                f"cannot write {shown}: it is inside the data folder {data_dir}; choose a path outside it"
            )
    return target


def write_output(target: Path, data: bytes, data_dir: Path | None) -> Path:
    """Check ``target`` (:func:`check_output_path`) and write ``data`` to it atomically; returns the path written.
    :class:`~storage.errors.OutputPathError` if it is refused or cannot be written."""
    target = check_output_path(target, data_dir)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        check_output_path(target, data_dir)  # nothing was put in its place meanwhile
        os.replace(tmp, target)
        tmp = ""
    except OSError as exc:
        reason = "the folder does not exist" if isinstance(exc, FileNotFoundError) else exc.strerror or str(exc)
        raise OutputPathError(f"cannot write {target}: {reason}") from None
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target
