"""A full disk for the files of hands being entered: the quiet-failure tests of storage and of the table screen."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

import storage.atomic
from storage import StorageWriteError


def full_drafts_disk(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """From now on every write of a drafts file (``*.drafts.json``) fails as on a full disk (ENOSPC) while the
    switch returned says ``{"on": True}``; set it to ``False`` and the disk takes writes again."""
    real = storage.atomic.atomic_write_bytes
    full = {"on": True}

    def maybe_full(path: Path, data: bytes, *, durable: bool = True) -> None:
        if full["on"] and path.name.endswith(".drafts.json"):
            raise StorageWriteError(path, OSError(errno.ENOSPC, "No space left on device"))
        real(path, data, durable=durable)

    monkeypatch.setattr(storage.atomic, "atomic_write_bytes", maybe_full)
    return full
