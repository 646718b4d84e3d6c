"""Files of the data folder that could not be read: set aside to ``damaged/`` and reported to the user once.

Whatever stands where a file should be (garbage, a truncated write, a folder, a FIFO, an entry whose read is
refused) is moved to ``damaged/<name>.<UTC time>`` byte for byte, never overwritten, and the rest of the folder
opens. Each move is one :class:`DamageNotice`; :meth:`DamageNotices.take` hands every notice out once, so the app's
banner and the command line tell the user once.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "players.json").write_text("{oops")
>>> notices = DamageNotices()
>>> where = set_aside(folder, folder / "players.json", "it is not JSON", notices)
>>> [n.name for n in notices.take()], notices.take()
(['players.json'], [])
>>> describe_damage([DamageNotice(where, "players.json", "it is not JSON")])
'1 damaged file was set aside in damaged/: players.json (it is not JSON)'
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from storage.atomic import fsync_dir
from storage.errors import InvalidSessionError, StorageError, UnreadableFileError
from storage.layout import DAMAGED, stamp

DAMAGE_ERRORS = (
    json.JSONDecodeError,
    UnicodeDecodeError,
    InvalidSessionError,
    UnreadableFileError,
    KeyError,
    TypeError,
    ValueError,
    AttributeError,
)
"""What reading a damaged, truncated or misplaced file raises."""


def why(exc: BaseException) -> str:
    """Why a file could not be read, in words (for a :data:`DAMAGE_ERRORS` kind).

    >>> why(json.JSONDecodeError("x", "", 0)), why(UnreadableFileError("it is a folder, not a file"))
    ('it is damaged or cut short', 'it is a folder, not a file')
    """
    if isinstance(exc, json.JSONDecodeError):
        return "it is damaged or cut short"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not text"
    if isinstance(exc, StorageError):
        return str(exc)
    return f"it is not in the expected shape ({type(exc).__name__})"


@dataclass(frozen=True)
class DamageNotice:
    """One file that could not be read. ``kept_as`` is where it was moved (``None``: it stayed where it was,
    because the folder is open read-only or the move failed); ``name`` its path inside the data folder."""

    kept_as: Path | None
    name: str
    why: str

    @property
    def set_aside(self) -> bool:
        return self.kept_as is not None


class DamageNotices:
    """The notices not handed out yet (thread-safe). Every notice is returned by :meth:`take` once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[DamageNotice] = []

    def add(self, notice: DamageNotice) -> None:
        with self._lock:
            self._pending.append(notice)

    def take(self) -> list[DamageNotice]:
        """The notices since the last call (oldest first); each notice is returned once."""
        with self._lock:
            taken, self._pending = self._pending, []
        return taken

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)


def describe_damage(notices: list[DamageNotice]) -> str:
    """One line for the user about ``notices`` ("" if there are none).

    >>> describe_damage([DamageNotice(None, "sessions/a.json", "it is a folder, not a file")])
    '1 damaged file could not be read and was left in place: sessions/a.json (it is a folder, not a file)'
    """
    moved = [n for n in notices if n.set_aside]
    kept = [n for n in notices if not n.set_aside]
    parts = []
    if moved:
        files = "file was" if len(moved) == 1 else "files were"
        listed = ", ".join(f"{n.name} ({n.why})" for n in moved)
        parts.append(f"{len(moved)} damaged {files} set aside in {DAMAGED}/: {listed}")
    if kept:
        listed = ", ".join(f"{n.name} ({n.why})" for n in kept)
        head = "1 damaged file could not be read" if len(kept) == 1 else f"{len(kept)} damaged files could not be read"
        parts.append(f"{head} and {'was' if len(kept) == 1 else 'were'} left in place: {listed}")
    return "; ".join(parts)


def set_aside(
    data_dir: Path, path: Path, reason: str, notices: DamageNotices, *, read_only: bool = False
) -> Path | None:
    """Move ``path`` (a file or whatever stands in its place) to ``damaged/<name>.<time>``, never overwriting,
    and add a notice; returns where it went (``None`` if it was left in place: read-only, or the move failed)."""
    data_dir = Path(data_dir)
    try:
        name = path.relative_to(data_dir).as_posix()
    except ValueError:
        name = path.name
    if read_only:
        notices.add(DamageNotice(None, name, reason))
        return None
    target_dir = data_dir / DAMAGED
    try:
        target_dir.mkdir(exist_ok=True)
        target = target_dir / f"{path.name}.{stamp()}"
        n = 1
        while os.path.lexists(target):
            target = target_dir / f"{path.name}.{stamp()}.{n}"
            n += 1
        os.replace(path, target)
        fsync_dir(target_dir)
        fsync_dir(path.parent)
    except OSError as exc:
        notices.add(DamageNotice(None, name, f"{reason}; it could not be set aside ({exc.strerror or exc})"))
        return None
    notices.add(DamageNotice(target, name, reason))
    return target
