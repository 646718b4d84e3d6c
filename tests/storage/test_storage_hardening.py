"""The data folder survives anything (issue 14): hostile export targets, a lock that is a symbolic link, a folder or
an unreadable entry where a file should be, a damaged settings file, drafts or roster; each thing set aside is
reported once, by the archive and by ``companion`` on the command line."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.settings import SettingsService, Theme
from storage import Archive, LockFileError, OutputPathError, SessionDamagedError, SessionDoc
from storage.settings import SettingsStore
from tests.support.archives import place
from tests.support.command import run_cli


def rec(players: tuple[str, ...] = ("Ann", "Ben"), hands: int = 0) -> dict[str, Any]:
    return {"game": "jokers-kill", "players": list(players), "options": {}, "hands": [{"up": "5S"}] * hands}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with Archive(folder) as archive:
        for n in range(3):
            archive.create_session(rec(("Ann", "Ben", f"P{n}"), n), title=f"game {n}")
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and p.name != ".lock"
    }


# --- hostile export targets ----------------------------------------------------------------------------------


def _session_file(data: Path) -> Path:
    return next((data / "sessions").glob("*.json"))


HOSTILE: dict[str, Callable[[Path, Path], Path]] = {
    "a session file": lambda data, tmp: _session_file(data),
    "the roster": lambda data, tmp: data / "players.json",
    "a new file in sessions/": lambda data, tmp: data / "sessions" / "new.json",
    "the data folder": lambda data, tmp: data,
    "a folder": lambda data, tmp: tmp,
    "a device node": lambda data, tmp: Path("/dev/null"),
    "a FIFO": lambda data, tmp: (os.mkfifo(tmp / "pipe"), tmp / "pipe")[1],
    "a symlink into the data folder": lambda data, tmp: (
        (tmp / "link.json").symlink_to(data / "players.json"),
        tmp / "link.json",
    )[1],
    "a symlink to a file outside": lambda data, tmp: (
        (tmp / "other.json").write_text("keep me"),
        (tmp / "link2.json").symlink_to(tmp / "other.json"),
        tmp / "link2.json",
    )[2],
    "a folder that links into the data folder": lambda data, tmp: (
        (tmp / "innocent").symlink_to(data / "sessions"),
        tmp / "innocent" / "x.json",
    )[1],
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_export_refuses_targets_inside_the_data_folder_or_not_a_file(data: Path, tmp_path: Path, kind: str) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = HOSTILE[kind](data, out_dir)
    mode_before = os.lstat(target).st_mode if os.path.lexists(target) else None
    before = tree(data)
    code, out, err = run_cli("export", "--all", "-o", target, "--data-dir", data)
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: error: cannot write ") and str(target) in lines[0]
    with Archive(data) as archive, pytest.raises(OutputPathError, match="cannot write"):
        archive.write_export(target)
    assert tree(data) == before  # nothing in the data folder changed
    if mode_before is not None:  # the device, FIFO, link or folder is still what it was
        assert os.lstat(target).st_mode == mode_before
    if kind == "a symlink to a file outside":
        assert (out_dir / "other.json").read_text() == "keep me"
    code, out, _ = run_cli("list", "--json", "--data-dir", data)
    assert code == 0 and len(json.loads(out)) == 3


def test_export_to_a_new_path_or_over_a_regular_file_or_into_exports_works(data: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text("previous export")
    for target in (tmp_path / "new.json", old):
        code, out, _ = run_cli("export", "--all", "-o", target, "--data-dir", data)
        assert code == 0 and "Exported 3 sessions" in out
        assert len(json.loads(target.read_text())["sessions"]) == 3
    (data / "exports").mkdir()
    with Archive(data) as archive:
        made = archive.write_export(data / "exports" / "all.csv", fmt="csv")
    assert made.read_text().startswith("session_id,")


# --- the lock file -------------------------------------------------------------------------------------------


def test_a_lock_that_is_a_symlink_is_refused_and_its_target_untouched(data: Path, tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("do not truncate me")
    (data / ".lock").unlink()
    (data / ".lock").symlink_to(victim)
    with pytest.raises(LockFileError, match="symbolic link"):
        Archive(data)
    assert victim.read_text() == "do not truncate me"
    new_game = tmp_path / "game.json"
    new_game.write_text(json.dumps(rec(("Cat", "Dan"))))
    code, _, err = run_cli("import", new_game, "--data-dir", data)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "symbolic link" in err and ".lock" in err
    assert victim.read_text() == "do not truncate me"
    code, out, _ = run_cli("list", "--json", "--data-dir", data)  # reading still works
    assert code == 0 and len(json.loads(out)) == 3
    with Archive(data, read_only=True) as viewer:
        assert len(viewer) == 3 and not viewer.other_instance


def test_a_lock_that_is_a_folder_is_refused(data: Path) -> None:
    (data / ".lock").unlink()
    (data / ".lock").mkdir()
    with pytest.raises(LockFileError, match="not a regular file"):
        Archive(data)


# --- a folder, or an unreadable entry, where a file should be -----------------------------------------------


@contextlib.contextmanager
def unreadable(path: Path) -> Iterator[None]:
    """Reading the file now at ``path`` raises PermissionError (as chmod 000 would for anyone but root, which the
    tests run as); a new file put there once it is set aside reads normally."""
    real_open = os.open
    target = os.fspath(path)
    inode = os.stat(path).st_ino

    def refusing(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(file) == target and not flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            try:
                same = os.stat(target).st_ino == inode
            except OSError:
                same = False
            if same:
                raise PermissionError(13, "Permission denied", target)
        return real_open(file, flags, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "open", refusing)
        yield


PLACES = ["session", "index shard", "roster", "journal", "drafts", "settings"]


@pytest.mark.parametrize("how", ["a folder", "unreadable"])
@pytest.mark.parametrize("where", PLACES)
def test_a_folder_or_unreadable_entry_is_set_aside_and_the_rest_opens(data: Path, where: str, how: str) -> None:
    path = place(data, where)
    with Archive(data) as archive:
        first = sorted(s.id for s in archive.list_sessions())[0]
        ids = {p.name: p.id for p in archive.players.list()}
        if where == "drafts":
            assert archive.save_drafts(first, {"new": {"up": "9S"}}, stamp=1)
        if where == "settings":
            SettingsService.open(data).set_theme("dark")
    if where == "journal":
        path.write_text("{}")
    if how == "a folder":
        path.unlink(missing_ok=True)
        path.mkdir(parents=True)
        (path / "inside.txt").write_text("x")
    guard = unreadable(path) if how == "unreadable" else contextlib.nullcontext()
    expected = 2 if where == "session" else 3
    # An unreadable session file whose index row still matches it is listed; it is found out when opened.
    found_on_load = where == "session" and how == "unreadable"
    with guard:
        # The command line opens read-only: it lists the rest and says what it could not read, once.
        code, out, err = run_cli("list", "--json", "--data-dir", data)
        assert code == 0 and len(json.loads(out)) == (3 if found_on_load else expected)
        if where in ("session", "index shard", "roster") and not found_on_load:
            assert err.count("damaged file") == 1 and path.name in err, err
        if found_on_load:
            code, _, err = run_cli("show", first, "--data-dir", data)
            assert code == 1 and "cannot be read" in err and len(err.strip().splitlines()) == 2, err
        with Archive(data) as archive:
            if found_on_load:
                with pytest.raises(SessionDamagedError, match="cannot be read"):
                    archive.load_session(first)
            assert len(archive) == expected
            if where == "drafts":
                assert archive.load_drafts(first, stamp=1) == {}
            if where == "settings":
                store = SettingsStore(data, notices=archive.damage)
                assert SettingsService(store).current().theme is Theme.SYSTEM  # the defaults
            notices = archive.take_damage_notices()
            assert [n.name for n in notices] == [str(path.relative_to(data))], notices
            assert notices[0].set_aside and notices[0].kept_as is not None and notices[0].kept_as.exists()
            assert archive.take_damage_notices() == []  # reported once
            if where == "roster":  # rebuilt from the sessions, with the same ids
                assert {p.name: p.id for p in archive.players.list()} == ids
            if where == "drafts":  # writing works again
                assert archive.save_drafts(first, {"new": {"up": "9S"}}, stamp=1)
    assert not os.path.lexists(path) or where in ("roster", "drafts", "settings", "index shard")
    assert stat.S_ISREG(os.lstat(path).st_mode) if os.path.lexists(path) else True
    with Archive(data) as archive:  # nothing more to report
        assert archive.take_damage_notices() == [] and len(archive) == expected


def test_the_command_line_reports_what_it_set_aside_once_in_one_line(data: Path, tmp_path: Path) -> None:
    shard = place(data, "index shard")
    shard.write_text("{garbage")
    (data / "players.json").write_text("[not a roster")
    game = tmp_path / "game.json"
    game.write_text(json.dumps(rec(("Cat", "Dan"))))
    code, out, err = run_cli("import", game, "--data-dir", data)
    assert code == 0 and "Imported 1 session" in out
    damage = [line for line in err.splitlines() if "damaged" in line]
    assert damage == [
        f"companion: 2 damaged files were set aside in damaged/: index/{shard.name} (it is damaged or cut short), "
        "players.json (it is damaged or cut short)"
    ]
    code, _, err = run_cli("import", game, "--data-dir", data)
    assert code == 0 and "damaged" not in err  # said once: they are in damaged/ now


# --- settings, drafts, roster --------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"garbage", b"[1, 2]", b'{"settings": [1]}', b'{"settings": {"1": 5}}', b"\xff"])
def test_damaged_settings_fall_back_to_the_defaults_and_are_set_aside(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "settings.json").write_bytes(content)
    service = SettingsService.open(tmp_path)
    assert service.current().theme is Theme.SYSTEM
    assert list((tmp_path / "damaged").glob("settings.json.*"))
    assert service.set_theme("dark").theme is Theme.DARK
    assert SettingsService.open(tmp_path).current().theme is Theme.DARK


@pytest.mark.parametrize(
    "content",
    [
        {"session": "ID", "drafts": {"new": {"up": "9S"}}},  # no stamp
        {"session": "ID", "stamp": 1},  # no drafts
        {"session": "ID", "stamp": "1", "drafts": {}},  # a stamp that is not a number
        {"session": "ID", "stamp": 1, "drafts": {"new": ["9S"]}},  # a draft that is not an object
        {"session": "ID", "stamp": 1, "drafts": {"new": {"cards": {}}}},  # the entry screen's check refuses it
    ],
)
def test_drafts_that_do_not_validate_are_set_aside_and_the_game_opens(data: Path, content: dict[str, Any]) -> None:
    with Archive(data) as archive:
        sid = archive.list_sessions()[0].id
        path = data / "drafts" / f"{sid}.drafts.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(content).replace('"ID"', json.dumps(sid)))

        def needs_up(target: str, draft: dict[str, Any]) -> None:
            draft["up"]  # the key the entry screen reads

        assert archive.load_drafts(sid, stamp=1, check=needs_up) == {}
        assert not path.exists() and list((data / "damaged").glob(f"{sid}.drafts.json.*"))
        assert [n.name for n in archive.take_damage_notices()] == [f"drafts/{sid}.drafts.json"]
        assert archive.load_session(sid).id == sid


def test_a_rebuilt_roster_keeps_ids_and_rename_history(data: Path) -> None:
    with Archive(data) as archive:
        ann = archive.players.find("Ann")
        assert ann is not None
        archive.players.rename(ann.id, "Annie")
        archive.create_session(rec(("Annie", "Ben")))
        before = {p.id: (p.name, p.history) for p in archive.players.list()}
    (data / "players.json").write_text('{"players": {"1": {"id": 5}}}')  # valid JSON, wrong shape
    for _ in range(2):  # the same ids however many times it is rebuilt
        with Archive(data) as archive:
            after = {p.id: (p.name, p.history) for p in archive.players.list()}
            assert after == before
        (data / "players.json").write_text("{garbage")


def test_an_older_folder_without_player_ids_opens_unchanged_and_rebuilds_deterministically(data: Path) -> None:
    for path in (data / "sessions").glob("*.json"):  # as an older version wrote them
        tables = json.loads(path.read_text())
        for doc in tables["session"].values():
            doc.pop("player_ids", None)
        path.write_text(json.dumps(tables))
    older = tree(data)
    with Archive(data, read_only=True) as viewer:
        assert len(viewer) == 3 and viewer.take_damage_notices() == []
    assert tree(data) == older
    rebuilt = []
    for _ in range(2):
        (data / "players.json").write_text("{garbage")
        with Archive(data) as archive:
            rebuilt.append({p.name: p.id for p in archive.players.list()})
    assert rebuilt[0] == rebuilt[1] and set(rebuilt[0]) == {"Ann", "Ben", "P0", "P1", "P2"}


def test_sessions_record_the_ids_of_their_players(data: Path) -> None:
    with Archive(data) as archive:
        doc: SessionDoc = archive.load_session(archive.list_sessions()[0].id)
        ids = {p.name: p.id for p in archive.players.list()}
        assert doc.player_ids == {name: ids[name] for name in doc.players}
