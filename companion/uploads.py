"""Where a file picked in the browser view arrives, apart from the rest of History's jobs so that the server can
prepare the folder at start without importing them."""

from __future__ import annotations

from pathlib import Path

UPLOADS = "uploads"
"""``uploads/`` of the data folder: where a file picked in the browser view arrives over HTTP (Flet's upload
endpoint, so that its size is not bound by a WebSocket message) before it is imported or restored; each file is
removed once used, and whatever is left there is removed when the server starts (:func:`clear_uploads`)."""


def uploads_folder(data_dir: Path) -> Path:
    """Where files picked in the browser view arrive (see :data:`UPLOADS`)."""
    return Path(data_dir) / UPLOADS


def clear_uploads(data_dir: Path) -> Path:
    """Create the uploads folder, empty of what an earlier run left there; returns it (raises
    :class:`OSError`)."""
    folder = uploads_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for left in folder.iterdir():
        if left.is_file() or left.is_symlink():
            left.unlink(missing_ok=True)
    return folder
