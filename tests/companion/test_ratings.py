"""Ratings, rivals and seasons: the app's ratings against openskill run directly, corrections, renames and merges,
rivals and season points on a fixed archive worked out by hand, the night's rating change, the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion import commands
from companion.night_model import Night
from companion.players import PlayerDirectory
from companion.ratings import ALL, Book, Pauses, RatedGame, RatingService
from companion.seasons import POINTS_RULE, Seasons, SeasonService, make_season, points_for, recap_png, recap_text
from companion.services import AppServices
from companion.stats import OutcomeCache
from scoring import score, standings
from storage import Archive, SessionStatus
from storage.settings import SettingsStore
from tests.support.command import run_cli
from tests.support.generators import bargain_bin, feast_and_famine, financial_crisis, jokers_kill, ones_to_nines
from tests.support.records import PLAIN, PLAYOFF, TIE, case_record, write_session

ROOT = Path(__file__).resolve().parents[2]
GENERATORS: tuple[Any, ...] = (bargain_bin, financial_crisis, feast_and_famine, ones_to_nines, jokers_kill)


# Three finished Jokers Kill cases of Ann, Ben and Cat, with their final places (scoring.standings):
def direct(records: dict[str, tuple[str, dict[str, Any]]], scope: str = ALL) -> tuple[list[str], dict[str, Any]]:
    """openskill run directly: the finished, not cancelled games of ``records`` (session id → (ended, record)) in
    the order (ended, id), each player a team of one ranked by the places of scoring.standings; by name."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    order = []
    for sid, (_, record) in sorted(records.items(), key=lambda kv: (kv[1][0], kv[0])):
        result = score(record)
        if not result.finished or result.cancelled or (scope != ALL and record["game"] != scope):
            continue
        places = {s.player: s.place for s in standings(result)}
        names = list(result.players)
        new = model.rate([[ratings.get(n, model.rating())] for n in names], ranks=[places[n] for n in names])
        ratings.update({n: team[0] for n, team in zip(names, new, strict=True)})
        order.append(sid)
    return order, ratings


def app_ratings(folder: Path, scope: str = ALL) -> tuple[list[str], dict[str, tuple[float, float]]]:
    with Archive(folder) as archive:
        got = RatingService(archive, OutcomeCache(None)).ratings(scope)
    return list(got.order), {p.name: (p.mu, p.sigma) for p in got.players}


# --- the app's ratings are openskill's ---------------------------------------------------------------------------


@st.composite
def archives(draw: st.DrawFn) -> list[tuple[str, dict[str, Any]]]:
    """A few random legal games of the five games (some unfinished or cancelled), at a few moments (so that some
    end at the same moment and are ordered by session id)."""
    count = draw(st.integers(min_value=1, max_value=8))
    out = []
    for _ in range(count):
        generator = draw(st.sampled_from(GENERATORS))
        rng = random.Random(draw(st.integers(min_value=0, max_value=10**9)))
        record = generator.random_record(rng)
        minute = draw(st.integers(min_value=0, max_value=3))
        out.append((f"2026-03-0{1 + minute % 2}T20:{minute:02d}:00.000Z", record))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=archives())
def test_ratings_equal_openskill_run_directly(tmp_path_factory: pytest.TempPathFactory, games: list[Any]) -> None:
    folder = tmp_path_factory.mktemp("archive")
    records = {write_session(folder, record, ended): (ended, record) for ended, record in games}
    for scope in (ALL, games[0][1]["game"]):
        order, expected = direct(records, scope)
        got_order, got = app_ratings(folder, scope)
        assert got_order == order
        assert got == {name: (r.mu, r.sigma) for name, r in expected.items()}


def test_ratings_equal_openskill_on_the_standings_of_the_scoring_command(tmp_path: Path) -> None:
    """A few games through the real ``python -m scoring score``: its result JSON, read back by the game's result
    model, gives the standings openskill is run on."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games = [(PLAIN, ("Ann", "Ben", "Cat")), (PLAYOFF, ("Dan", "Ann", "Ben")), (TIE, ("Cat", "Dan", "Ann"))]
    for n, (case, seats) in enumerate(games):
        record = case_record(case, seats)
        write_session(tmp_path, record, f"2026-05-0{n + 1}T21:00:00.000Z")
        file = tmp_path / f"game{n}.json"
        file.write_text(json.dumps(record))
        printed = subprocess.run(
            [sys.executable, "-m", "scoring", "score", str(file)], capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout
        result = type(score(record)).model_validate(json.loads(printed))
        places = {s.player: s.place for s in standings(result)}
        new = model.rate([[ratings.get(p, model.rating())] for p in seats], ranks=[places[p] for p in seats])
        ratings.update({p: team[0] for p, team in zip(seats, new, strict=True)})
    _, got = app_ratings(tmp_path)
    assert got == {name: (r.mu, r.sigma) for name, r in ratings.items()}
    with Archive(tmp_path) as archive:
        listed = RatingService(archive, OutcomeCache(None)).ratings().players
    assert [p.name for p in listed] == sorted(ratings, key=lambda n: -ratings[n].ordinal())


def test_a_correction_of_an_old_game_gives_what_a_fresh_computation_gives(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with AppServices.open(folder) as services:
        ids = []
        for case, seats in [
            (PLAIN, ("Ann", "Ben", "Cat")),
            (PLAYOFF, ("Ann", "Ben", "Cat")),
            (TIE, ("Cat", "Ben", "Ann")),
        ]:
            table = services.sessions.start("jokers-kill", list(seats))
            record = case_record(case, seats)
            result = score(record)
            doc = table.doc.model_copy(update={"record": record})
            status = SessionStatus.of(result)
            table.doc = services.archive.save_session(
                doc.model_copy(update={"status": status, "winners": list(result.winners)}), "entered"
            )
            ids.append(table.id)
        before = services.ratings.ratings().to_json()
        # the first game is corrected: Ben, not Ann, played the winning seat
        old = services.archive.load_session(ids[0])
        corrected = case_record(PLAIN, ("Ben", "Ann", "Cat"))
        result = score(corrected)
        services.archive.save_session(
            old.model_copy(update={"record": corrected, "winners": list(result.winners)}), "hand 1 corrected"
        )
        after = services.ratings.ratings().to_json()
        fresh = RatingService(services.archive, OutcomeCache(None)).ratings().to_json()
    assert after == fresh
    assert after != before
    assert after["order"][-1] == ids[0]  # it ended (was last changed) after the others now


def test_an_update_rates_only_the_new_game_and_equals_a_fresh_book() -> None:
    rng = random.Random(7)
    names = ["a", "b", "c", "d", "e"]
    games = []
    for n in range(600):
        seats = tuple(rng.sample(names, rng.randint(2, 5)))
        games.append(
            RatedGame(
                f"s{n:04d}",
                "jokers-kill",
                f"t{n:04d}",
                seats,
                tuple(rng.randint(1, 3) for _ in seats),
                tuple(False for _ in seats),
            )
        )
    book = Book()
    assert book.update(games[:599]) == 599
    assert book.update(games) == 1
    changed = list(games)
    changed[300] = RatedGame("s0300", "jokers-kill", "t0300", ("a", "b"), (2, 1), (False, True))
    assert book.update(changed) == 600 - 256  # from the checkpoint before game 300
    fresh = Book()
    fresh.update(changed)
    assert book.players() == fresh.players()
    assert [s.changes for s in book.steps] == [s.changes for s in fresh.steps]
    assert book.by_player == fresh.by_player
    # rated in the background, pausing after every game, the book is the same
    pauses = Pauses(every_s=0.0)
    background = Book()
    background.update(changed, pauses)
    assert pauses.pauses == len(changed)
    assert background.players() == fresh.players()
    assert [s.changes for s in background.steps] == [s.changes for s in fresh.steps]


# --- players: renames and merges ---------------------------------------------------------------------------------


def test_a_rename_keeps_the_rating_and_a_merge_joins_two_histories(tmp_path: Path) -> None:
    write_session(tmp_path, case_record(PLAIN, ("Ann", "Ben", "Cat")), "2026-05-01T20:00:00.000Z")
    write_session(tmp_path, case_record(PLAYOFF, ("Annie", "Ben", "Cat")), "2026-05-02T20:00:00.000Z")
    with Archive(tmp_path) as archive:
        service = RatingService(archive, OutcomeCache(None))
        players = PlayerDirectory(archive)
        ann, annie = players.add("Ann"), players.add("Annie")
        first = service.ratings()
        assert first.get(ann.id).games == 1 and first.get(annie.id).games == 1  # type: ignore[union-attr]
        players.merge(ann.id, annie.id)
        merged = service.ratings()
        mine = merged.get(ann.id)
        assert mine is not None and mine.games == 2 and merged.get(annie.id) is None
        players.rename(ann.id, "Anna")
        renamed = service.ratings()
        again = renamed.get(ann.id)
        assert again is not None and again.name == "Anna" and (again.mu, again.sigma) == (mine.mu, mine.sigma)
        # the same as if one person had played both games under one name
    write_session(tmp_path / "b", case_record(PLAIN, ("Ann", "Ben", "Cat")), "2026-05-01T20:00:00.000Z")
    write_session(tmp_path / "b", case_record(PLAYOFF, ("Ann", "Ben", "Cat")), "2026-05-02T20:00:00.000Z")
    _, one = app_ratings(tmp_path / "b")
    assert one["Ann"] == (mine.mu, mine.sigma)


# --- rivals and season points, by hand ---------------------------------------------------------------------------


def fixed_archive(folder: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Five games in 2026 and one in 2025:

    1. PLAIN   Ann, Ben, Cat        → Ann 1, Cat 2, Ben 3
    2. PLAYOFF Ann, Ben, Cat        → Ben 1, Cat 2, Ann 3
    3. TIE     Ann, Ben, Cat        → Ann 1, Ben 2, Cat 2
    4. PLAIN   Dan, Ann, Ben        → Dan 1, Ben 2, Ann 3
    5. PLAIN   Ann, Cat, Ben        → Ann 1, Ben 2, Cat 3
    0. (2025)  PLAYOFF Cat, Ann, Ben → Ann 1, Ben 2, Cat 3
    """
    games = [
        ("g0", PLAYOFF, ("Cat", "Ann", "Ben"), "2025-12-20T20:00:00.000Z"),
        ("g1", PLAIN, ("Ann", "Ben", "Cat"), "2026-02-01T20:00:00.000Z"),
        ("g2", PLAYOFF, ("Ann", "Ben", "Cat"), "2026-02-01T21:00:00.000Z"),
        ("g3", TIE, ("Ann", "Ben", "Cat"), "2026-02-01T22:00:00.000Z"),
        ("g4", PLAIN, ("Dan", "Ann", "Ben"), "2026-02-08T20:00:00.000Z"),
        ("g5", PLAIN, ("Ann", "Cat", "Ben"), "2026-02-08T21:00:00.000Z"),
    ]
    out = {}
    for sid, case, seats, ended in games:
        record = case_record(case, seats)
        write_session(folder, record, ended, sid)
        out[sid] = (ended, record)
    return out


def test_rivals_on_a_fixed_archive(tmp_path: Path) -> None:
    fixed_archive(tmp_path)
    with Archive(tmp_path) as archive:
        ratings = RatingService(archive, OutcomeCache(None)).ratings()
        ids = {p.name: p.id for p in ratings.players}
        ann, ben, cat, dan = (ratings.rivals(ids[n]) for n in ("Ann", "Ben", "Cat", "Dan"))
    # Ann met Ben in all 6 games, Cat in 5 (not g4), Dan once (fewer than 3: never a rival).
    # Ann ahead of Ben: g0, g1, g3, g5 (4); Ben ahead of Ann: g2, g4 (2).
    # Ann ahead of Cat: g0, g1, g3, g5 (4); Cat ahead of Ann: g2 (1).
    assert ann.rival == ("Ben", 6)
    assert ann.victim == ("Ben", 4)  # Ben and Cat both 4: more games together decides
    assert ann.nemesis == ("Ben", 2)
    # Ben: ahead of Cat in g0, g2, g5 (3), behind Cat in g1 (1), level in g3; ahead of Ann 2, behind 4.
    assert ben.rival == ("Ann", 6) and ben.victim == ("Cat", 3) and ben.nemesis == ("Ann", 4)
    # Cat: ahead of Ben once (g1), of Ann once (g2); behind Ann 4, behind Ben 3.
    assert cat.rival == ("Ann", 5) and cat.victim == ("Ann", 1) and cat.nemesis == ("Ann", 4)
    assert dan.rival is None and dan.victim is None and dan.nemesis is None
    assert dan.lines() == ["No rivals yet: nobody has shared 3 games with them."]


def test_season_points_and_standings_on_a_fixed_archive(tmp_path: Path) -> None:
    fixed_archive(tmp_path)
    with Archive(tmp_path) as archive:
        store = SettingsStore(tmp_path)
        ratings = RatingService(archive, OutcomeCache(None))
        service = SeasonService(Seasons(store, archive), ratings, list)
        assert [s.name for s in service.seasons.all() if s.name in ("2025", "2026")] == ["2026", "2025"]
        season = service.seasons.get("2026")
        table = service.standings(season)
        overall = ratings.ratings()
    # Points (3 players: 2, 1, 0; a shared 2nd of 3 gets (1 + 0) / 2 = 0.5):
    # g1 Ann 2, Cat 1, Ben 0; g2 Ben 2, Cat 1, Ann 0; g3 Ann 2, Ben 0.5, Cat 0.5;
    # g4 Dan 2, Ben 1, Ann 0; g5 Ann 2, Ben 1, Cat 0.
    rows = {x.name: (x.games, x.wins, x.points) for x in table.lines}
    assert rows == {"Ann": (5, 3, 6.0), "Ben": (5, 1, 4.5), "Cat": (4, 0, 2.5), "Dan": (1, 1, 2.0)}
    assert [x.name for x in table.lines] == ["Ann", "Ben", "Cat", "Dan"]
    assert table.games == 5 and table.ratings.order == ("g1", "g2", "g3", "g4", "g5")
    # the rating change over the season is the all-time rating's: before g1 (after g0) to after the last game
    ann = next(x for x in table.lines if x.name == "Ann")
    history = overall.history(overall.players[[p.name for p in overall.players].index("Ann")].id)
    assert ann.rating_change == pytest.approx(history[-1].ordinal - history[0].ordinal)
    text = recap_text(table)
    assert text.startswith("Season 2026 · All games\n2026-01-01 – 2026-12-31 · 5 games")
    assert "1. Ann: 6 points · 5 games · 3 wins" in text and POINTS_RULE in text
    assert recap_png(table)[:8] == b"\x89PNG\r\n\x1a\n"


def test_points_for_places() -> None:
    assert points_for([1, 2, 3]) == [2.0, 1.0, 0.0]
    assert points_for([2, 1, 2, 4]) == [1.5, 3.0, 1.5, 0.0]
    assert points_for([1, 1, 1]) == [1.0, 1.0, 1.0]


def test_seasons_are_kept_with_the_settings_and_checked(tmp_path: Path) -> None:
    write_session(tmp_path, case_record(PLAIN), "2026-02-01T20:00:00.000Z")
    with Archive(tmp_path) as archive:
        seasons = Seasons(SettingsStore(tmp_path), archive)
        seasons.add("Winter", "2026-01-01", "2026-03-31")
        with pytest.raises(ValueError, match="'Spring' starts on 2026-06-01, after it ends on 2026-03-01"):
            seasons.add("Spring", "2026-06-01", "2026-03-01")
        with pytest.raises(ValueError, match="already a season called 'Winter'"):
            seasons.add("winter", "2026-01-01", "2026-02-01")
        stored = json.loads((tmp_path / "settings.json").read_text())
        assert stored["settings"]["1"]["seasons"] == {
            "schema_version": 1,
            "seasons": [{"name": "Winter", "start": "2026-01-01", "end": "2026-03-31"}],
        }
        # a stored season that ends before it starts (a hand-edited file) is left out, in words
        SettingsStore(tmp_path).set(
            "seasons",
            {
                "schema_version": 1,
                "seasons": [
                    {"name": "Winter", "start": "2026-01-01", "end": "2026-03-31"},
                    {"name": "Odd", "start": "2026-05-01", "end": "2026-04-01"},
                ],
            },
        )
        names = [s.name for s in seasons.all()]
        assert "Odd" not in names and "Winter" in names
        assert seasons.problems == ["season 'Odd' starts on 2026-05-01, after it ends on 2026-04-01"]
    assert make_season(" Long   name ", "2026-01-01", "2026-01-01").name == "Long name"


# --- the night's recap ---------------------------------------------------------------------------------------


def test_the_nights_recap_shows_each_players_rating_change(tmp_path: Path) -> None:
    write_session(tmp_path / "data", case_record(PLAIN), "2026-02-01T20:00:00.000Z", "g1")
    with AppServices.open(tmp_path / "data") as services:
        night = services.nights.start("Friday", ["Ann", "Ben", "Cat"])
        for case, seats in [(PLAYOFF, ("Ann", "Ben", "Cat")), (TIE, ("Ann", "Ben", "Cat"))]:
            table = services.sessions.start("jokers-kill", list(seats))
            record = case_record(case, seats)
            result = score(record)
            services.archive.save_session(
                table.doc.model_copy(
                    update={"record": record, "status": SessionStatus.of(result), "winners": list(result.winners)}
                ),
                "entered",
            )
        night = services.nights.get(night.id)
        assert len(night.sessions) == 2
        recap = services.nights.recap(night)
        ratings = services.ratings.ratings()
        expected = ratings.changes(night.sessions)
        ids = {p.name: p.id for p in ratings.players}
        assert recap.rating_change == pytest.approx({n: expected[ids[n]] for n in ("Ann", "Ben", "Cat")})
        text = services.nights.recap_text(night)
    assert "\n\nRating change\nAnn: " in text
    # each change is from before the night's first game (after g1) to after its last
    ann = ratings.history(ids["Ann"])
    assert recap.rating_change["Ann"] == pytest.approx(ann[-1].ordinal - ann[0].ordinal)
    assert isinstance(night, Night)


# --- the command line ----------------------------------------------------------------------------------------


def test_cli_ratings_json_is_openskill_run_directly(tmp_path: Path) -> None:
    records = fixed_archive(tmp_path)
    code, out, err = run_cli("ratings", "--json", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    data = json.loads(out)
    order, expected = direct(records)
    assert data["scope"] == "all" and data["order"] == order
    assert [(p["name"], p["mu"], p["sigma"]) for p in data["players"]] == sorted(
        ((n, r.mu, r.sigma) for n, r in expected.items()), key=lambda t: -(t[1] - 3 * t[2])
    )
    assert set(data["players"][0]) == {"id", "name", "mu", "sigma", "ordinal", "games", "wins"}
    assert [p["ordinal"] for p in data["players"]] == sorted((p["ordinal"] for p in data["players"]), reverse=True)
    code, out, _ = run_cli(
        "ratings", "--json", "--game", "jokers-kill", "--season", "2026", "--data-dir", str(tmp_path)
    )
    assert code == 0 and json.loads(out)["order"] == ["g1", "g2", "g3", "g4", "g5"]
    code, out, _ = run_cli("ratings", "--data-dir", str(tmp_path))
    assert code == 0 and out.startswith("Ratings · All games · 6 games rated\n#  NAME")
    assert "provisional" in out  # Dan has one game


def test_cli_seasons_and_show_season(tmp_path: Path) -> None:
    fixed_archive(tmp_path)
    assert run_cli("add-season", "Winter", "2026-01-01", "2026-02-05", "--data-dir", str(tmp_path))[0] == 0
    code, out, _ = run_cli("seasons", "--data-dir", str(tmp_path))
    assert code == 0 and "Winter  2026-01-01  2026-02-05  named" in out and "2025" in out
    code, out, _ = run_cli("show-season", "Winter", "--json", "--data-dir", str(tmp_path))
    data = json.loads(out)
    assert code == 0 and data["games"] == 3 and data["ratings"]["order"] == ["g1", "g2", "g3"]
    assert {p["name"]: p["points"] for p in data["players"]} == {"Ann": 4.0, "Ben": 2.5, "Cat": 2.5}
    code, out, _ = run_cli("show-season", "winter", "--data-dir", str(tmp_path))
    assert code == 0 and "Season Winter · All games" in out and "Ann: 4 points" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ratings", "--game", "snap"), "'snap' is not a game key"),
        (("ratings", "--season", "Nope"), "there is no season 'Nope'"),
        (("show-season", "1999"), "there is no season '1999'"),
        (("show-season", "2026", "--game", "poker"), "'poker' is not a game key"),
        (("add-season", "Spring", "2026-06-01", "2026-03-01"), "season 'Spring' starts on 2026-06-01, after it ends"),
        (("add-season", "Spring", "June", "2026-03-01"), "season 'Spring': the start 'June' is not a date"),
    ],
)
def test_cli_refuses_bad_input_in_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    fixed_archive(tmp_path)
    code, out, err = run_cli(*args, "--data-dir", str(tmp_path))
    assert code == commands.ExitCode.REFUSED and out == ""
    assert err.count("\n") == 1 and err.startswith("companion: error: ") and message in err


def test_the_companion_command_runs_ratings(tmp_path: Path) -> None:
    fixed_archive(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "app", "ratings", "--json", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["order"][0] == "g0"


def test_season_money_is_vegas_in_its_games_and_the_ledgers_of_its_nights(tmp_path: Path) -> None:
    """Money in a season: what each game with Vegas Rules paid (payouts − payments, from the scoring result),
    plus, across all games, each ledger entry of a night that started in the season (Ann paid $12.00 for the four
    of them: +$9.00 for Ann, −$3.00 for each of the others)."""
    rng = random.Random(11)
    while True:  # a finished Bargain Bin game with Vegas Rules, of four players
        record = bargain_bin.random_record(rng)
        result = score(record)
        if result.finished and not result.cancelled and result.payments and len(record["players"]) == 4:
            break
    names = list(record["players"])
    with AppServices.open(tmp_path / "data") as services:
        night = services.nights.start("Friday", names)
        table = services.sessions.start("bargain-bin", names)
        services.archive.save_session(
            table.doc.model_copy(
                update={"record": record, "status": SessionStatus.of(result), "winners": list(result.winners)}
            ),
            "entered",
        )
        services.nights.add_entry(night.id, names[0], "split", "12.00", "pizza")
        season = services.seasons.seasons.get(str(services.seasons.seasons.all()[0].name))
        everything = {x.name: x.money for x in services.seasons.standings(season).lines}
        bargain_bin_only = {x.name: x.money for x in services.seasons.standings(season, "bargain-bin").lines}
    vegas = {n: (result.payouts or {}).get(n, 0) - result.payments[n] for n in names}
    assert any(vegas.values())
    assert bargain_bin_only == vegas
    assert everything == {n: vegas[n] + (900 if n == names[0] else -300) for n in names}
