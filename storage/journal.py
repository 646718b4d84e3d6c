"""The import journal: what makes an import land whole or not at all, even if the process is killed.

Before the first session of an import is saved, the whole plan (every session document, the log entry, the ids of
new players) is written to ``pending-import.json`` in the data folder, atomically and durably. The sessions are
then saved one by one, the new players added, and the journal removed. If the process dies in between, the next
open of the folder for writing (:class:`storage.archive.Archive`, by the app or a command) runs :func:`replay`,
which saves the sessions still missing: once the journal is on disk the import completes; before, nothing of it
is there.

>>> import tempfile, pathlib
>>> from storage.core import ArchiveCore
>>> from storage.models import LogEntry, SessionDoc
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> doc = SessionDoc.new({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
>>> with ArchiveCore(folder) as core:
...     write(core, "game.json", LogEntry.now("imported"), [doc], {"Ann": "a1", "Ben": "b1"})
...     # killed here: the journal is on disk, no session yet
>>> with ArchiveCore(folder) as core:
...     replay(core) is not None, core.has_session(doc.id), core.players.find("Ann").id, pending(core)
(True, True, 'a1', False)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from storage.atomic import atomic_write_json, fsync_dir, read_regular_bytes
from storage.core import ArchiveCore
from storage.damage import DAMAGE_ERRORS
from storage.errors import StorageError
from storage.layout import JOURNAL
from storage.models import LogEntry, SessionDoc

JOURNAL_FORMAT = "card-table-companion/pending-import"

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called as work advances (the app shows a bar)."""

__all__ = ["JOURNAL", "JOURNAL_FORMAT", "Progress", "drop", "journal_path", "pending", "replay", "write"]


def journal_path(core: ArchiveCore) -> Path:
    return core.data_dir / JOURNAL


def pending(core: ArchiveCore) -> bool:
    """Whether an import journal is there (an import under way, or cut short)."""
    return journal_path(core).exists()


def write(core: ArchiveCore, name: str, entry: LogEntry, docs: Sequence[SessionDoc], players: dict[str, str]) -> None:
    """Write the journal of an import of ``docs`` from file ``name`` (atomic and durable): from here on, the
    import will complete. ``players`` maps the names that are new to the roster to the ids they will get."""
    journal = {
        "format": JOURNAL_FORMAT,
        "file": name,
        "entry": entry.model_dump(mode="json"),
        "sessions": [doc.to_stored() for doc in docs],
        "players": players,
    }
    atomic_write_json(journal_path(core), journal)


def finish(
    core: ArchiveCore,
    docs: Sequence[SessionDoc],
    entry: LogEntry,
    players: dict[str, str],
    progress: Progress | None = None,
) -> list[str]:
    """Save every document of a journal not saved yet, add its new players, drop the journal; returns the ids
    saved. Raises :class:`~storage.atomic.StorageWriteError` if the disk refuses (the journal stays)."""
    saved: list[str] = []
    total = len(docs)
    for n, doc in enumerate(docs, start=1):
        if not core.has_session(doc.id):
            saved.append(core.save_session(doc, entry).id)
        if progress is not None:
            progress(n, total)
    add_players(core, docs, players)
    drop(core)
    return saved


def add_players(core: ArchiveCore, docs: Sequence[SessionDoc], players: dict[str, str]) -> None:
    """Add the players of ``docs`` to the roster (best effort), with the ids the plan gave them."""
    for name in sorted({p for doc in docs for p in doc.players}):
        with contextlib.suppress(StorageError):
            core.players.ensure(name, player_id=players.get(name))


def drop(core: ArchiveCore) -> None:
    """Remove the journal (the import is complete, or was rolled back)."""
    path = journal_path(core)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fsync_dir(path.parent)


def replay(core: ArchiveCore) -> str | None:
    """Finish an import that was cut short (its journal is still there); returns a sentence saying so, or ``None``.

    Sessions of the journal already saved are left as they are (the app may have changed them since). A journal
    that cannot be read (a folder in its place...) is set aside like any damaged file."""
    path = journal_path(core)
    if core.read_only or not path.exists():
        return None
    try:
        data = json.loads(read_regular_bytes(path).decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
            raise ValueError("not a journal")
        entry = LogEntry.model_validate(data["entry"])
        docs = [SessionDoc.from_stored(item) for item in data["sessions"]]
        players = data.get("players") or {}
        if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
            raise ValueError("its players are not a table of ids")
    except (*DAMAGE_ERRORS, StorageError) as exc:
        # Written atomically, so this is not a torn write: keep it for a person to look at, out of the way.
        core.set_aside(path, f"it is not a readable import journal ({type(exc).__name__})")
        return None
    missing = finish(core, docs, entry, players)
    return (
        f"an import of {data.get('file', 'a file')} had been interrupted; it was completed "
        f"({len(missing)} of {len(docs)} sessions were still missing)"
    )
