"""The game-night service (companion.night_service) over a real data folder: the open night takes every game
started, games added later, rename / close / reopen, ledger entries refused in words, mark paid, removing a game
re-derives the ledger, export and import into a fresh folder (ids mapped), the CLI's ``nights`` / ``show-night``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.night_model import NightError
from companion.services import AppServices
from scoring import find_game
from tests.support.command import run_cli
from tests.support.ledger import apply

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
VEGAS = {"vegas_unit_cents": 10, "target": 1}


def bargain_bin(services: AppServices, scores: dict[str, int]) -> str:
    """A Bargain Bin game with Vegas Rules that one quick hand ends (target 1); returns its id."""
    table = services.sessions.start("bargain-bin", PLAYERS, VEGAS)
    table.add_hand({"scores": scores})
    assert table.result.finished
    return table.id


def vegas_net(services: AppServices, session_id: str) -> dict[str, int]:
    """The game's money computed here, from scoring's payments and payouts (not through the ledger)."""
    result: Any = find_game("bargain-bin").score(services.archive.load_session(session_id).record)
    payments, payouts = dict(result.payments), dict(result.payouts or {})
    return {name: payouts.get(name, 0) - payments[name] for name in payments}


def test_games_started_while_a_night_is_open_belong_to_it(services: AppServices) -> None:
    before = services.sessions.start("jokers-kill", ["Ann", "Ben"]).id
    night = services.nights.start("Friday", PLAYERS)
    assert services.nights.current() == night
    first = bargain_bin(services, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
    second = services.sessions.start("jokers-kill", ["Ann", "Eve"]).id
    night = services.nights.get(night.id)
    assert night.sessions == (first, second)
    assert night.players == ("Ann", "Ben", "Cat", "Dan", "Eve"), "a new player of a game joins the night"
    assert services.nights.night_of(before) is None
    assert [s.id for s in services.nights.candidates(night)] == [before]

    night = services.nights.add_game(night.id, before)
    assert night.sessions == (first, second, before)
    with pytest.raises(NightError, match="already part of"):
        services.nights.add_game(night.id, before)

    closed = services.nights.close(night.id)
    after = services.sessions.start("jokers-kill", ["Ann", "Ben"]).id
    assert services.nights.get(night.id).sessions == closed.sessions, "a closed night takes no new game"
    assert services.nights.night_of(after) is None and services.nights.current() is None


def test_one_open_night_at_a_time_rename_close_reopen(services: AppServices) -> None:
    friday = services.nights.start("Friday", ["Ann", "Ben"])
    with pytest.raises(NightError, match="'Friday' is still open: close it"):
        services.nights.start("Saturday", ["Ann", "Ben"])
    services.nights.close(friday.id)
    saturday = services.nights.start("Saturday", ["Cat", "Dan"])
    with pytest.raises(NightError, match="'Saturday' is open: close it before reopening"):
        services.nights.reopen(friday.id)
    game = services.sessions.start("jokers-kill", ["Cat", "Dan"]).id
    with pytest.raises(NightError, match="already belongs to the night 'Saturday'"):
        services.nights.add_game(friday.id, game)
    services.nights.close(saturday.id)
    assert services.nights.reopen(friday.id).is_open
    renamed = services.nights.rename(friday.id, "  Friday   at Ann's ")
    assert renamed.name == "Friday at Ann's"
    with pytest.raises(NightError, match="empty"):
        services.nights.rename(friday.id, "   ")
    assert [n.name for n in services.nights.all()] == ["Saturday", "Friday at Ann's"]


def test_ledger_from_two_vegas_games_and_entries_settles_to_zero(services: AppServices) -> None:
    night = services.nights.start("Friday", PLAYERS)
    one = bargain_bin(services, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
    two = bargain_bin(services, {"Ann": -3, "Ben": 12, "Cat": 7, "Dan": -8})
    services.sessions.start("jokers-kill", ["Ann", "Ben"])  # no money
    night = services.nights.add_entry(night.id, "Cat", "split", "10.00", "pizza")
    night = services.nights.add_entry(night.id, "Dan", "Ann", "2.50", "side bet")

    expected = dict.fromkeys(PLAYERS, 0)
    for sid in (one, two):
        for name, cents in vegas_net(services, sid).items():
            expected[name] += cents
    assert sum(expected.values()) == 0 and any(expected.values())
    book = services.nights.ledger(night)
    assert book.from_games == expected
    assert book.from_entries == {"Ann": 250 - 250, "Ben": -250, "Cat": 750, "Dan": -250 - 250}
    assert sum(book.net.values()) == 0

    settlement = services.nights.settlement(night)
    assert set(apply(settlement.balance, settlement.outstanding).values()) == {0}
    assert len(settlement.outstanding) <= len([v for v in book.net.values() if v]) - 1

    # Marking a transfer paid keeps it in the list, as paid, and settles only the rest.
    first = settlement.outstanding[0]
    night = services.nights.mark_paid(night.id, first.payer, first.receiver, first.amount)
    after = services.nights.settlement(night)
    assert after.paid[0].describe() == f"{first.payer} paid {first.receiver} ${first.amount / 100:.2f}"
    assert len(after.outstanding) == len(settlement.outstanding) - 1
    assert set(apply(after.balance, after.outstanding).values()) == {0}
    night = services.nights.unmark_paid(night.id, first.payer, first.receiver, first.amount)
    assert services.nights.settlement(night) == settlement

    # Removing a game re-derives the ledger without it.
    night = services.nights.remove_game(night.id, two)
    assert services.nights.ledger(night).from_games == vegas_net(services, one)
    assert services.archive.has_session(two), "the game itself is kept"


def test_ledger_entries_refused_in_words_and_nothing_saved(services: AppServices) -> None:
    night = services.nights.start("Friday", ["Ann", "Ben", "Cat"])
    refusals = [
        (("Zed", "Ann", "1.00"), r"'Zed' is not a player tonight \(the players are Ann, Ben and Cat\)"),
        (("Ann", "Zed", "1.00"), "'Zed' is not a player tonight"),
        (("Ann", "Ben", "0"), "more than zero"),
        (("Ann", "Ben", "-2.00"), "negative|more than zero"),
        (("Ann", "Ben", "1.234"), "more than two decimals"),
        (("Ann", "Ben", "lots"), "lots"),
        (("Ann", "Ann", "1.00"), "Ann cannot pay Ann"),
    ]
    for args, message in refusals:
        with pytest.raises(NightError, match=message):
            services.nights.add_entry(night.id, *args)
    assert services.nights.get(night.id).entries == ()
    night = services.nights.add_entry(night.id, "Ann", "Split", "$3.01", "chips", include_payer=False)
    entry = night.entries[0]
    assert (entry.receiver, entry.amount, entry.among) == ("split", 301, ("Ben", "Cat"))
    assert entry.balances() == {"Ann": 301, "Ben": -151, "Cat": -150}
    services.nights.close(night.id)
    with pytest.raises(NightError, match="closed: reopen it to add an entry"):
        services.nights.add_entry(night.id, "Ann", "Ben", "1")


def test_nights_survive_a_restart_and_an_older_folder_gains_none(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with AppServices.open(folder) as services:
        services.sessions.start("jokers-kill", ["Ann", "Ben"])
        assert services.nights.all() == []
    assert not (folder / "nights.json").exists(), "an older data folder gains no nights file by being opened"
    with AppServices.open(folder) as services:
        night = services.nights.start("Friday", ["Ann", "Ben"])
        night = services.nights.add_entry(night.id, "Ann", "Ben", "4")
    with AppServices.open(folder) as services:
        assert services.nights.get(night.id) == night
        assert services.nights.resolve(night.id[:6]) == night
        assert len(services.archive.list_sessions()) == 1


def test_export_and_import_a_night_into_a_fresh_folder(services: AppServices, tmp_path: Path) -> None:
    night = services.nights.start("Friday", PLAYERS)
    one = bargain_bin(services, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
    two = bargain_bin(services, {"Ann": -3, "Ben": 12, "Cat": 7, "Dan": -8})
    night = services.nights.add_entry(night.id, "Ben", "split", "12", "pizza")
    exported = json.loads(services.nights.export(night.id))
    assert {s["id"] for s in exported["sessions"]} == {one, two}
    assert [n["id"] for n in exported["nights"]] == [night.id]
    path = tmp_path / "friday.json"
    path.write_bytes(services.nights.export(night.id))
    want = services.nights.settlement(night)

    with AppServices.open(tmp_path / "fresh") as fresh:
        taken = fresh.sessions.start("jokers-kill", ["Zoe", "Yan"])  # a session that will not clash
        report = fresh.archive.import_file(path)
        assert (report.imported, report.nights, report.ok) == (2, 1, True)
        assert set(report.id_map) == {one, two}
        imported = fresh.nights.get(night.id)
        assert imported.sessions == (report.id_map[one], report.id_map[two])
        assert fresh.nights.settlement(imported) == want
        assert taken.id not in imported.sessions
        again = fresh.archive.import_file(path)
        assert (again.imported, again.skipped, again.nights) == (0, 2, 0)
        assert "1 night was already there and skipped." in again.messages
        assert len(fresh.nights.all()) == 1


def test_import_maps_the_night_to_renamed_and_already_present_games(tmp_path: Path) -> None:
    with AppServices.open(tmp_path / "a") as a:
        night = a.nights.start("Friday", PLAYERS)
        one = bargain_bin(a, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
        two = bargain_bin(a, {"Ann": -3, "Ben": 12, "Cat": 7, "Dan": -8})
        data = a.nights.export(night.id)
        record_one = a.archive.load_session(one).record
        want = a.nights.settlement(a.nights.get(night.id))
    with AppServices.open(tmp_path / "b") as b:
        same = b.archive.create_session(record_one)  # game one is already there, under another id
        clash = b.archive.create_session({"game": "jokers-kill", "players": ["X", "Y"], "options": {}, "hands": []})
        payload = json.loads(data)
        for session in payload["sessions"]:  # game two's id is taken here by another game
            if session["id"] == two:
                session["id"] = clash.id
        payload["nights"][0]["sessions"] = [one, clash.id]
        report = b.archive.import_bytes("friday.json", json.dumps(payload).encode())
        assert (report.imported, report.skipped, report.nights) == (1, 1, 1), report.messages
        assert report.id_map[one] == same.id and report.id_map[clash.id] not in (clash.id, two)
        imported = b.nights.get(night.id)
        assert imported.sessions == (same.id, report.id_map[clash.id])
        assert b.nights.settlement(imported) == want


def test_import_refuses_a_bad_night_and_adds_nothing(services: AppServices, tmp_path: Path) -> None:
    night = services.nights.start("Friday", ["Ann", "Ben"])
    services.sessions.start("jokers-kill", ["Ann", "Ben"])
    payload = json.loads(services.nights.export(night.id))
    payload["nights"][0]["name"] = "Fri\x1bday"
    with AppServices.open(tmp_path / "fresh") as fresh:
        report = fresh.archive.import_bytes("bad.json", json.dumps(payload).encode())
        assert not report.ok and report.imported == 0
        assert "night 1 of the file cannot be imported" in report.messages[0]
        assert "control character" in report.messages[0]
        assert fresh.archive.list_sessions() == [] and fresh.nights.all() == []


def test_recap_text_png_and_stats(services: AppServices) -> None:
    night = services.nights.start("Friday", PLAYERS)
    bargain_bin(services, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
    bargain_bin(services, {"Ann": 12, "Ben": 4, "Cat": -5, "Dan": 2})
    night = services.nights.get(night.id)
    text = services.nights.recap_text(night)
    assert text.startswith("Friday · ")
    assert "Longest streak" in text and "Who pays whom tonight" in text
    png = services.nights.recap_png(night, dark=True)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    path = services.nights.save_to_exports(night.id, "png")
    assert path.parent == services.data_dir / "exports" and path.read_bytes()[:4] == b"\x89PNG"
    stats = services.nights.stats()
    assert stats.played == dict.fromkeys(PLAYERS, 1)
    summary = services.nights.recap(night)
    assert [g.winners for g in summary.games] == [("Ann", "Ben"), ("Ann", "Ben")], "both reach 1 point (rule 7)"
    assert [(s.player, s.length) for s in summary.streaks] == [("Ann", 2), ("Ben", 2)]
    assert stats.most_won == ("Ann", "Ben") and stats.won == {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0}
    assert [values[-1] for values in stats.money_over_time.values()] == list(services.nights.ledger(night).net.values())


def test_cli_lists_and_shows_nights(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with AppServices.open(folder) as services:
        night = services.nights.start("Friday", PLAYERS)
        sid = bargain_bin(services, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
        services.nights.add_entry(night.id, "Ann", "Ben", "1.50", "bet")
        want = services.nights.settlement(services.nights.get(night.id))
    code, out, err = run_cli("nights", "--data-dir", str(folder))
    assert code == 0, err
    assert out.splitlines()[0].split() == ["ID", "NAME", "DATE", "GAMES", "PLAYERS", "STATUS"]
    assert night.id in out and "Friday" in out and "open" in out
    code, out, err = run_cli("show-night", night.id[:6], "--data-dir", str(folder))
    assert code == 0, err
    assert f"(session {sid})" in out and "Ann pays Ben $1.50 (bet)" in out
    for transfer in want.outstanding:
        assert transfer.describe() in out
    code, out, _ = run_cli("show-night", night.id, "--json", "--data-dir", str(folder))
    data = json.loads(out)
    assert [(t["payer"], t["receiver"], t["amount"]) for t in data["settle_up"]] == [
        (t.payer, t.receiver, t.amount) for t in want.transfers
    ]
    code, _, err = run_cli("show-night", "nope", "--data-dir", str(folder))
    assert code == 1 and "there is no game night 'nope'" in err


def test_cli_import_carries_nights(tmp_path: Path) -> None:
    with AppServices.open(tmp_path / "a") as a:
        night = a.nights.start("Friday", PLAYERS)
        bargain_bin(a, {"Ann": 10, "Ben": 4, "Cat": -5, "Dan": 2})
        (tmp_path / "night.json").write_bytes(a.nights.export(night.id))
    code, out, err = run_cli("import", str(tmp_path / "night.json"), "--data-dir", str(tmp_path / "b"))
    assert code == 0, err
    assert "night.json: 1 imported, 0 skipped, 1 game night." in out
    code, out, _ = run_cli("nights", "--json", "--data-dir", str(tmp_path / "b"))
    assert [n["name"] for n in json.loads(out)] == ["Friday"]
