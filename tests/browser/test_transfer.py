"""Import and restore through Flet's file picker in the browser view (issue 16), driven by Playwright's file chooser:
the picked file reaches the app over HTTP through Flet's upload endpoint on the app's own server (offline, so a
backup up to the 50 MB restore limit arrives, which one WebSocket message of at most 16 MiB could not carry), and the
result is the same as importing or restoring a typed path. A backup of no session asks whether to empty the archive
(issue 25). Also the damage banner on Home (issue 14), said once and dismissed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from storage import Archive
from storage.limits import MAX_BACKUP_BYTES
from tests.support.archives import big_backup
from tests.support.browser import AppServer, button, open_app, reveal

pytestmark = pytest.mark.browser


def source_folder(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "source"
    with Archive(folder) as source:
        for n in range(count):
            source.create_session(
                {"game": "jokers-kill", "players": ["Ann", "Ben", f"P{n}"], "options": {}, "hands": []},
                title=f"picked game {n}",
            )
    return folder


def pick(page: Any, label: str, path: Path) -> None:
    """Tap ``label`` and choose ``path`` in the file chooser that the page opens."""
    with page.expect_file_chooser(timeout=15_000) as chooser:
        reveal(page, button(page, label)).click()
    chooser.value.set_files(str(path))


def uploads_seen(page: Any) -> list[str]:
    """The paths of the page's HTTP uploads (``PUT``), as they happen."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url.split("?", 1)[0]) if r.method == "PUT" else None)
    return seen


def test_import_and_restore_through_the_file_picker(page: Any, app_server: AppServer, tmp_path: Path) -> None:
    puts = uploads_seen(page)
    folder = source_folder(tmp_path, 3)
    with Archive(folder) as source:
        export = tmp_path / "three-games.json"
        export.write_bytes(source.export_sessions(None, "json"))
        (tmp_path / "backups").mkdir()
        backup = source.backup(tmp_path / "backups")
    open_app(page, app_server, "/history/transfer")
    pick(page, "Choose a file…", export)
    page.get_by_text(re.compile(r"^3 games imported from ")).first.wait_for()
    with Archive(app_server.data_dir, read_only=True) as archive:
        assert sorted(s.title or "" for s in archive.list_sessions()) == [f"picked game {n}" for n in range(3)]

    with Archive(folder) as source:  # the backup holds one game fewer than the folder now
        source.delete_session(source.list_sessions()[0].id)
        (tmp_path / "later").mkdir()
        smaller = source.backup(tmp_path / "later")
    assert smaller.parent.name == "later" and backup.parent.name == "backups"
    pick(page, "Choose a backup to restore…", smaller)
    reveal(page, button(page, "Yes, restore")).click()
    page.get_by_text(re.compile(rf"^Restored 2 sessions from {re.escape(smaller.name)}\.$")).first.wait_for()
    with Archive(app_server.data_dir, read_only=True) as archive:
        assert len(archive.list_sessions()) == 2
    assert list((app_server.data_dir / "imports").glob("*.zip")) == [], "the picked copy is not kept"
    assert list((app_server.data_dir / "uploads").iterdir()) == [], "the uploaded copies are not kept"
    assert len(puts) == 2 and all(url.endswith("/upload") for url in puts), puts
    assert len(list((app_server.data_dir / "backups").glob("pre-restore-*.zip"))) == 1


def test_a_backup_up_to_the_restore_limit_restores_through_the_file_picker(
    page: Any, app_server: AppServer, tmp_path: Path
) -> None:
    big = big_backup(tmp_path)
    assert 40 * 1024 * 1024 < big.stat().st_size <= MAX_BACKUP_BYTES
    puts = uploads_seen(page)
    open_app(page, app_server, "/history/transfer")
    pick(page, "Choose a backup to restore…", big)
    reveal(page, button(page, "Yes, restore")).wait_for(timeout=180_000)
    reveal(page, button(page, "Yes, restore")).click()
    done = page.get_by_text(re.compile(rf"^Restored 11 sessions from {re.escape(big.name)}\.$")).first
    done.wait_for(timeout=180_000)
    with Archive(app_server.data_dir, read_only=True) as archive:
        assert sorted(s.title or "" for s in archive.list_sessions()) == sorted(f"big game {n}" for n in range(11))
    assert puts and list((app_server.data_dir / "uploads").iterdir()) == []


def test_an_empty_backup_asks_before_it_empties_the_archive(page: Any, app_server: AppServer, tmp_path: Path) -> None:
    app_server.stop()
    with Archive(app_server.data_dir) as archive:
        archive.create_session({"game": "jokers-kill", "players": ["Ann", "Ben"], "options": {}, "hands": []})
    app_server.start()
    with Archive(tmp_path / "nothing") as nothing:
        empty = nothing.backup(tmp_path / "empty.zip")
    open_app(page, app_server, "/history/transfer")
    pick(page, "Choose a backup to restore…", empty)
    page.get_by_text(re.compile(r"^empty\.zip holds no sessions: restoring it empties the archive")).first.wait_for()
    assert button(page, "Yes, restore").count() == 0
    reveal(page, button(page, "Yes, empty the archive")).click()
    page.get_by_text(re.compile(r"^Restored 0 sessions from empty\.zip\.$")).first.wait_for()
    with Archive(app_server.data_dir, read_only=True) as archive:
        assert len(archive.list_sessions()) == 0


def test_home_tells_once_what_was_set_aside(page: Any, app_server: AppServer) -> None:
    app_server.stop()
    (app_server.data_dir / "players.json").write_text("{garbage")
    app_server.start()
    open_app(page, app_server, "/")
    page.get_by_text(re.compile(r"^1 damaged file was set aside in damaged/: players\.json ")).first.wait_for()
    # the button's name is its Semantics label, then its text ("Dismiss")
    page.get_by_role("button", name=re.compile(r"^Dismiss the notice about damaged files")).first.click()
    page.get_by_text(re.compile(r"^1 damaged file")).first.wait_for(state="detached")
    open_app(page, app_server, "/")  # another visit: not told again
    button(page, "New game").wait_for()
    assert page.get_by_text(re.compile(r"damaged file")).count() == 0
