"""Restore is all or nothing (issue 25): a hostile backup is refused in one line naming the member, with every
byte of the data folder unchanged; an empty backup needs ``--replace-with-empty``; a backup re-zipped by another
tool restores whole; a SIGKILL at any moment of a restore leaves the old archive or the new one."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import stat
import struct
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from companion.commands import TRACEBACK_ENV
from storage import Archive, BackupError, SessionDoc
from storage.backup import MANIFEST, check_backup
from storage.errors import EmptyBackupError
from storage.layout import RESTORE_JOURNAL, RESTORE_STAGING
from storage.limits import MAX_BACKUP_BYTES
from tests.conftest import CASES
from tests.conftest import FIXTURES as TEST_FIXTURES
from tests.support.archives import big_backup, valid_records
from tests.support.command import run_cli
from tests.support.killing import fork_and_kill

FIXTURES = TEST_FIXTURES / "backups"
KILLS = 50


# --- helpers ------------------------------------------------------------------------------------------------------


def tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (path inside it → SHA-256 of its bytes); folders by their path alone."""
    out: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"link to {os.readlink(path)}"
        elif path.is_dir():
            out[rel + "/"] = "folder"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def content(folder: Path) -> dict[str, str]:
    """What a restore replaces or keeps (sessions, roster, nights, settings): the archive, without what is rebuilt
    (the index), the backups (a restore adds its ``pre-restore`` one) and the lock."""
    return {k: v for k, v in tree(folder).items() if not k.startswith(("index/", "backups/", ".lock"))}


def filled(folder: Path, records: list[dict[str, Any]]) -> Path:
    with Archive(folder) as archive:
        for record in records:
            archive.create_session(record)
    return folder


def backup_of(folder: Path, records: list[dict[str, Any]], target: Path) -> Path:
    with Archive(filled(folder, records)) as archive:
        return archive.backup(target)


def members(made: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(made) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def rezip(target: Path, files: dict[str, bytes], *, manifest: dict[str, Any] | None = None) -> Path:
    """A zip of ``files``; with ``manifest`` changes, the manifest is rewritten with them."""
    files = dict(files)
    if manifest is not None:
        files[MANIFEST] = json.dumps({**json.loads(files[MANIFEST]), **manifest}).encode()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return target


def coherent(files: dict[str, bytes]) -> dict[str, Any]:
    """The manifest changes that make it list ``files`` as they are."""
    names = [n for n in files if n != MANIFEST]
    return {"files": names, "sessions": sum(n.startswith("sessions/") for n in names)}


# A zip written byte by byte (APPNOTE 6.3.10 sections 4.3.7, 4.3.12, 4.3.16), for members Python's zipfile does not
# write: encrypted with the traditional PKWARE encryption (APPNOTE 6.1), or with a Unix mode of our choosing.


def _crc_byte(crc: int, byte: int) -> int:
    return zlib.crc32(bytes([byte]), crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def zipcrypto(data: bytes, password: bytes, crc: int) -> bytes:
    """``data`` encrypted with the traditional PKWARE encryption (APPNOTE 6.1.3–6.1.6), with its 12-byte header
    whose last byte is the high byte of the CRC."""
    keys = [0x12345678, 0x23456789, 0x34567890]

    def update(byte: int) -> None:
        keys[0] = _crc_byte(keys[0], byte)
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        keys[2] = _crc_byte(keys[2], keys[1] >> 24)

    for byte in password:
        update(byte)
    out = bytearray()
    for byte in bytes(random.Random(25).randrange(256) for _ in range(11)) + bytes([crc >> 24]) + data:
        temp = (keys[2] | 2) & 0xFFFF
        out.append(byte ^ (((temp * (temp ^ 1)) >> 8) & 0xFF))
        update(byte)
    return bytes(out)


def raw_zip(target: Path, entries: list[tuple[str, bytes, dict[str, Any]]]) -> Path:
    """Stored (uncompressed) members: ``(name, data, {"password": bytes, "mode": int})``."""
    local, central = bytearray(), bytearray()
    for name, data, how in entries:
        encoded = name.encode()
        crc = zlib.crc32(data)
        flags = 0x800
        payload = data
        if "password" in how:
            flags |= 0x1
            payload = zipcrypto(data, how["password"], crc)
        attrs = how.get("mode", stat.S_IFREG | 0o644) << 16
        header = struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, flags, 0, 0, 0x21, crc, len(payload), len(data), len(encoded), 0
        )
        offset = len(local)
        local += header + encoded + payload
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            (3 << 8) | 20,
            20,
            flags,
            0,
            0,
            0x21,
            crc,
            len(payload),
            len(data),
            len(encoded),
            0,
            0,
            0,
            0,
            attrs,
            offset,
        )
        central += encoded
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(local), 0)
    target.write_bytes(bytes(local + central + end))
    return target


@pytest.fixture(autouse=True)
def _bugs_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TRACEBACK_ENV, "1")  # an unexpected failure is a traceback here, never a polite line


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    """A data folder of 3 sessions, and a valid backup of another folder with 4 other sessions."""
    records = valid_records(7)
    data = filled(tmp_path / "data", records[:3])
    made = backup_of(tmp_path / "other", records[3:], tmp_path / "made.zip")
    return data, made


def refused_unchanged(data: Path, bad: Path, *words: str) -> str:
    """Restore ``bad`` from the command line and through the app's entry point: refused, one line naming what is
    wrong, every byte of the data folder unchanged. Returns the command line's message."""
    before = tree(data)
    code, out, err = run_cli("restore", str(bad), "--data-dir", str(data))
    assert code == 1 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("companion: error: "), err
    assert "unexpected failure" not in err and "please report" not in err
    for word in words:
        assert word in err, err
    assert tree(data) == before
    with Archive(data) as archive:
        opened = tree(data)
        with pytest.raises(BackupError) as caught:
            archive.restore(bad)
        assert "\n" not in str(caught.value) and all(word in str(caught.value) for word in words), caught.value
        assert tree(data) == opened
        assert len(archive) == 3
    return err


# --- hostile backups -----------------------------------------------------------------------------------------------


def test_a_manifest_listing_no_sessions_with_sessions_present_is_refused(setup: tuple[Path, Path]) -> None:
    data, made = setup
    files = members(made)
    sessions = [n for n in files if n.startswith("sessions/")]
    listed = [n for n in files if n != MANIFEST and n not in sessions]
    bad = rezip(made.with_name("no-list.zip"), files, manifest={"sessions": 0, "files": listed})
    refused_unchanged(
        data, bad, "no-list.zip: ", sessions[0], "not listed in its manifest.json", "nothing was restored"
    )
    old_style = rezip(made.with_name("v2.zip"), files, manifest={"version": 2, "sessions": 0, "files": None})
    refused_unchanged(data, old_style, "manifest.json lists 0 sessions but the backup holds 4")
    missing = rezip(made.with_name("missing.zip"), {n: d for n, d in files.items() if n != sessions[1]})
    refused_unchanged(data, missing, sessions[1], "is listed in the manifest.json but is not in the backup")


def test_a_roster_with_wrong_keys_is_refused(setup: tuple[Path, Path]) -> None:
    data, made = setup
    files = members(made)
    roster = json.loads(files["players.json"])
    roster["players"] = {f"p{n}": row for n, row in enumerate(roster["players"].values(), start=1)}
    files["players.json"] = json.dumps(roster).encode()
    bad = rezip(made.with_name("roster.zip"), files)
    refused_unchanged(data, bad, "roster.zip: players.json has a row 'p1' whose key is not a document number")


def test_a_game_that_cannot_be_scored_is_refused(setup: tuple[Path, Path]) -> None:
    data, made = setup
    case = json.loads((CASES / "financial-crisis" / "19-inv-joker.json").read_text(encoding="utf-8"))
    assert case["expect_error"]
    doc = SessionDoc.new(case["record"])
    files = members(made)
    files[f"sessions/{doc.id}.json"] = json.dumps({"session": {"1": doc.to_stored()}}).encode()
    bad = rezip(made.with_name("impossible.zip"), files, manifest=coherent(files))
    refused_unchanged(data, bad, f"sessions/{doc.id}.json holds a game that cannot be scored: ")


def test_an_encrypted_member_is_refused(setup: tuple[Path, Path], tmp_path: Path) -> None:
    data, made = setup
    files = members(made)
    secret = "players.json"
    bad = raw_zip(
        tmp_path / "encrypted.zip",
        [(n, d, {"password": b"hunter2"} if n == secret else {}) for n, d in files.items()],
    )
    with zipfile.ZipFile(bad) as zf:  # really encrypted: Python's own decrypter reads it back with the password
        assert zf.getinfo(secret).flag_bits & 0x1
        with pytest.raises(RuntimeError, match="encrypted"):
            zf.read(secret)
        assert zf.read(secret, pwd=b"hunter2") == files[secret]
    refused_unchanged(data, bad, "encrypted.zip: players.json is encrypted")


@pytest.mark.parametrize(
    ("mode", "name", "why"),
    [
        (stat.S_IFLNK | 0o777, "players.json", "is a symbolic link, not a file"),
        (stat.S_IFCHR | 0o600, "sessions/0123456789abcdef.json", "is a device or other special file"),
        (stat.S_IFIFO | 0o600, "settings.json", "is a device or other special file"),
        (stat.S_IFDIR | 0o755, "nights.json/", "is a folder, not a file of the backup"),
    ],
)
def test_a_member_that_is_not_a_regular_file_is_refused(
    setup: tuple[Path, Path], tmp_path: Path, mode: int, name: str, why: str
) -> None:
    data, made = setup
    files = members(made)
    entries = [(n, d, {}) for n, d in files.items() if n != name]
    entries.append((name, b"" if name.endswith("/") else b"/etc/passwd", {"mode": mode}))
    bad = raw_zip(tmp_path / "special.zip", entries)
    refused_unchanged(data, bad, f"special.zip: {name} {why}")


@pytest.mark.parametrize(
    "name",
    [
        "../evil.json",
        "..\\evil.json",
        "sessions/../../evil.json",
        "sessions\\..\\..\\evil.json",
        "/tmp/evil.json",
        "\\tmp\\evil.json",
        "C:/evil.json",
        "C:\\evil.json",
        "c:evil.json",
    ],
)
def test_a_path_that_climbs_out_is_refused_with_either_slash(setup: tuple[Path, Path], name: str) -> None:
    data, made = setup
    files = members(made) | {name: b"{}"}
    bad = rezip(made.with_name("escape.zip"), files, manifest=coherent(files))
    err = refused_unchanged(data, bad, "escape.zip: ", "nothing was restored")
    assert any(why in err for why in ("climbs out of the backup", "absolute path", "names a drive")), err
    assert not (data.parent / "evil.json").exists() and not Path("/tmp/evil.json").exists()


def test_a_file_that_is_no_part_of_a_backup_is_refused(setup: tuple[Path, Path]) -> None:
    data, made = setup
    files = members(made) | {"sessions/notes.txt": b"hello"}
    bad = rezip(made.with_name("extra.zip"), files, manifest=coherent(files))
    refused_unchanged(data, bad, "sessions/notes.txt is not part of a Card Table Companion backup")


# --- backups that restore ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", ["rezipped-infozip-3.0.zip", "backslash-paths.zip"])
def test_a_backup_rezipped_by_another_tool_restores_whole(tmp_path: Path, fixture: str) -> None:
    source = FIXTURES / fixture
    with zipfile.ZipFile(source) as zf:
        names = [i.filename.replace("\\", "/") for i in zf.infolist()]
        wanted = {
            n.rsplit("/", 1)[-1]: hashlib.sha256(zf.read(i)).hexdigest()
            for n, i in zip(names, zf.infolist(), strict=True)
            if "/sessions/" in f"/{n}" and n.endswith(".json")
        }
        roster = next(zf.read(i) for n, i in zip(names, zf.infolist(), strict=True) if n.endswith("players.json"))
    assert len(wanted) == 3
    data = filled(tmp_path / "data", valid_records(5)[3:])
    code, out, err = run_cli("restore", str(source), "--data-dir", str(data))
    assert code == 0 and "Restored 3 sessions" in out, (out, err)
    restored = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (data / "sessions").glob("*.json")}
    assert restored == wanted
    assert (data / "players.json").read_bytes() == roster
    with Archive(data) as archive:
        assert sorted(s.id for s in archive.list_sessions()) == sorted(n[:-5] for n in wanted)
        assert not archive.take_damage_notices()


def test_an_app_backup_restores_whole(setup: tuple[Path, Path]) -> None:
    data, made = setup
    code, out, _ = run_cli("restore", str(made), "--data-dir", str(data))
    assert code == 0 and "Restored 4 sessions" in out
    assert {f"sessions/{p.name}" for p in (data / "sessions").glob("*.json")} == {
        n for n in members(made) if n.startswith("sessions/")
    }


@pytest.mark.slow
def test_a_backup_up_to_the_restore_limit_restores_from_the_command_line(tmp_path: Path) -> None:
    big = big_backup(tmp_path)
    assert 40 * 1024 * 1024 < big.stat().st_size <= MAX_BACKUP_BYTES
    data = filled(tmp_path / "data", valid_records(2))
    code, out, err = run_cli("restore", str(big), "--data-dir", str(data))
    assert code == 0 and "Restored 11 sessions" in out, err
    with Archive(data) as archive:
        assert sorted(s.title or "" for s in archive.list_sessions()) == sorted(f"big game {n}" for n in range(11))


def test_players_can_be_added_after_a_restore_brought_a_longer_roster(tmp_path: Path) -> None:
    with Archive(tmp_path / "source") as source:
        for n in range(5):
            source.players.add(f"Player {n}")
        made = source.backup(tmp_path / "roster.zip")
    with Archive(filled(tmp_path / "data", valid_records(1))) as archive:
        archive.players.add("Zed")  # the roster's next document number is now in memory
        archive.restore(made, allow_empty=True)
        archive.players.add("Newcomer")
        assert sorted(p.name for p in archive.players.list()) == ["Newcomer", *(f"Player {n}" for n in range(5))]


def test_an_empty_backup_needs_to_be_asked_for(tmp_path: Path) -> None:
    data = filled(tmp_path / "data", valid_records(3))
    empty = backup_of(tmp_path / "nothing", [], tmp_path / "empty.zip")
    checked = check_backup(empty)
    assert checked.empty
    before = tree(data)
    code, out, err = run_cli("restore", str(empty), "--data-dir", str(data))
    assert code == 1 and err.count("\n") == 1 and "--replace-with-empty" in err and "holds no sessions" in err
    assert tree(data) == before
    with Archive(data) as archive:
        opened = tree(data)
        with pytest.raises(EmptyBackupError, match="holds no sessions"):
            archive.restore(empty)
        assert tree(data) == opened and len(archive) == 3
    code, out, err = run_cli("restore", str(empty), "--data-dir", str(data), "--replace-with-empty")
    assert code == 0 and "Restored 0 sessions" in out, err
    with Archive(data) as archive:
        assert len(archive) == 0
        assert archive.restore(archive.list_backups()[0]) == 3  # the pre-restore backup brings them back


# --- SIGKILL ---------------------------------------------------------------------------------------------------


def _child(folder: Path, source: Path, write_fd: int) -> None:
    archive = Archive(folder)
    os.write(write_fd, b"ready\n")
    count = archive.restore(source)
    os.write(write_fd, f"done {count}\n".encode())


def _run(folder: Path, source: Path, delay: float | None, wait_for: Path | None = None) -> str:
    """Restore ``source`` into ``folder`` in a forked child; kill it ``delay`` s after it opened the archive (or
    after ``wait_for`` appeared); ``None``: let it finish. Returns what the child said."""
    return fork_and_kill(lambda write_fd: _child(folder, source, write_fd), delay, wait_for)


@pytest.mark.slow
def test_sigkill_during_a_restore_leaves_the_old_archive_or_the_new_one(tmp_path: Path) -> None:
    """50 SIGKILLs at random moments of a restore of a valid backup (8 sessions over 4; a third of them while the
    files are staged, a third just after the journal is written): once the folder is opened again (as the app or
    any command opens it), it holds exactly the old archive or exactly the restored one, compared by the hash of
    every file; no journal, staging folder or damaged file is left."""
    records = valid_records(12)
    template = filled(tmp_path / "template", records[:4])
    source = backup_of(tmp_path / "source", records[4:], tmp_path / "source.zip")
    old = content(template)

    shutil.copytree(template, tmp_path / "timing")
    start = time.monotonic()
    assert "done 8" in _run(tmp_path / "timing", source, None)
    full = time.monotonic() - start
    with Archive(tmp_path / "timing"):
        pass
    new = content(tmp_path / "timing")
    assert new != old and sum(k.startswith("sessions/") and k.endswith(".json") for k in new) == 8

    rng = random.Random(25)
    outcomes = {"old": 0, "new": 0}
    staged = committed = 0
    for n in range(KILLS):
        folder = tmp_path / f"run-{n}"
        shutil.copytree(template, folder)
        if n % 3 == 1:  # a third of the kills while the files are staged, a third once the journal is there
            _run(folder, source, rng.uniform(0.0, full / 4), wait_for=folder / RESTORE_STAGING)
        elif n % 3 == 2:
            _run(folder, source, rng.uniform(0.0, full / 50), wait_for=folder / RESTORE_JOURNAL)
        else:
            _run(folder, source, rng.uniform(0.0, full))
        committed += (folder / RESTORE_JOURNAL).exists()
        staged += (folder / RESTORE_STAGING).exists() and not (folder / RESTORE_JOURNAL).exists()
        with Archive(folder) as archive:
            assert not archive.take_damage_notices(), f"kill {n}: something was set aside"
            count = len(archive)
        after = content(folder)
        assert after in (old, new), f"kill {n}: the archive is neither the old one nor the restored one"
        assert count == (4 if after == old else 8)
        assert not (folder / RESTORE_JOURNAL).exists() and not (folder / RESTORE_STAGING).exists()
        outcomes["old" if after == old else "new"] += 1
        shutil.rmtree(folder)
    print(
        f"full restore {full:.2f}s; after {KILLS} kills: {outcomes}; killed while staging {staged}, after the "
        f"journal was written {committed}"
    )
    assert outcomes["old"] and outcomes["new"] and committed and staged, (outcomes, committed, staged)
