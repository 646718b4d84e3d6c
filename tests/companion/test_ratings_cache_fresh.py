"""The ratings cache (:class:`companion.ratings.RatingService`, kept for the life of the app) is derived, never the
source of truth: after every kind of change to the archive or the roster, what it gives equals a fresh computation
from scratch. Counted, not timed: one more game with a new player rates one game, not every game again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest

from companion.ratings import ALL, BULK, Book, RatingService
from companion.services import AppServices
from companion.stats import CACHE_VERSION, OutcomeCache
from scoring import score
from storage import Archive, SessionStatus
from tests.support.records import PLAIN, PLAYOFF, TIE, case_record, write_session
from tests.support.screens import FakePage, walk
from views.shell import Shell

SEATS = [("Ann", "Ben", "Cat"), ("Ben", "Cat", "Dan"), ("Cat", "Ann", "Dan"), ("Dan", "Ben", "Ann")]


def finished(archive: Archive, case: str, seats: tuple[str, ...]) -> str:
    record = case_record(case, seats)
    result = score(record)
    return archive.create_session(record, status=SessionStatus.of(result), winners=list(result.winners)).id


def same_as_fresh(service: RatingService, archive: Archive) -> dict[str, Any]:
    """The kept service's ratings of every scope equal a new service's, with each player's history."""
    kept = None
    for scope in (ALL, "jokers-kill"):
        got = service.ratings(scope)
        fresh = RatingService(archive, OutcomeCache(None)).ratings(scope)
        assert got.to_json() == fresh.to_json()
        assert [s.changes for s in got.steps] == [s.changes for s in fresh.steps]
        for p in fresh.players:
            assert got.history(p.id) == fresh.history(p.id)
        if scope == ALL:
            kept = got.to_json()
    assert kept is not None
    return kept


@pytest.fixture
def rated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The session ids of every game :class:`Book` rates from now on."""
    seen: list[str] = []
    original = Book._rate

    def counting(self: Book, game: Any) -> None:
        seen.append(game.session_id)
        original(self, game)

    monkeypatch.setattr(Book, "_rate", counting)
    return seen


def test_cached_ratings_equal_a_fresh_computation_after_every_kind_of_change(tmp_path: Path, rated: list[str]) -> None:
    folder = tmp_path / "data"
    for n in range(12):  # twelve games of an old archive
        write_session(folder, case_record((PLAIN, PLAYOFF, TIE)[n % 3], SEATS[n % 4]), f"2026-01-{n + 1:02d}T20:00:00Z")
    with Archive(folder) as archive:
        for name in ("Ann", "Ben", "Cat", "Dan"):
            archive.players.add(name)
        service = RatingService(archive, OutcomeCache(None))
        same_as_fresh(service, archive)

        # one more game, with a player new to the roster: only that game is rated
        rated.clear()
        new = finished(archive, PLAIN, ("Eve", "Ann", "Ben"))
        service.ratings(ALL)
        assert rated == [new]
        after_new = same_as_fresh(service, archive)
        assert new in after_new["order"]

        # a rename: the same games, the new name
        rated.clear()
        ann = next(p for p in archive.players.list() if p.name == "Ann")
        archive.players.rename(ann.id, "Anna")
        renamed = service.ratings(ALL)
        assert rated == []
        assert any(p.name == "Anna" for p in renamed.players)
        same_as_fresh(service, archive)

        # a merge: Dan was Cat all along
        dan = next(p for p in archive.players.list() if p.name == "Dan")
        cat = next(p for p in archive.players.list() if p.name == "Cat")
        archive.players.merge(cat.id, dan.id)
        merged = same_as_fresh(service, archive)
        assert all(p["name"] != "Dan" for p in merged["players"])

        # a correction of an old game
        oldest = merged["order"][0]
        doc = archive.load_session(oldest)
        corrected = case_record(PLAYOFF, ("Ben", "Ann", "Cat"))
        archive.save_session(
            doc.model_copy(update={"record": corrected, "winners": list(score(corrected).winners)}), "corrected"
        )
        same_as_fresh(service, archive)

        # an import of games played earlier than all of them
        other = tmp_path / "other"
        write_session(other, case_record(TIE, ("Zed", "Ann", "Ben")), "2025-06-01T20:00:00Z")
        with Archive(other) as source:
            data = source.export_sessions()
        report = archive.import_bytes("games.json", data)
        assert report.imported == 1
        imported = same_as_fresh(service, archive)
        assert any(p["name"] == "Zed" for p in imported["players"])

        # a deleted game
        archive.delete_session(new)
        deleted = same_as_fresh(service, archive)
        assert new not in deleted["order"]


class ThreadedPage(FakePage):
    """A fake page that keeps the work a screen hands to a thread of the page, to run it when the test says."""

    def __init__(self, route: str) -> None:
        super().__init__(route)
        self.threads: list[tuple[Any, tuple[Any, ...]]] = []

    def run_thread(self, handler: Any, *args: Any) -> None:
        self.threads.append((handler, args))


def shown_texts(view: Any) -> list[str]:
    return [str(c.semantics_label or c.value or "") for c, _ in walk(view) if isinstance(c, ft.Text)]


def test_statistics_shows_the_rest_at_once_and_the_ratings_when_they_are_worked_out(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    games = BULK + 6  # more than a screen works out while it opens
    for n in range(games):
        write_session(
            folder, case_record((PLAIN, PLAYOFF, TIE)[n % 3], SEATS[n % 4]), f"2026-02-{1 + n // 4:02d}T2{n % 4}:00:00Z"
        )
    with AppServices.open(folder) as services:
        page = ThreadedPage("/stats")
        shell = Shell(cast(ft.Page, page), services)
        shell.render()
        view = page.views[-1]
        before = shown_texts(view)
        assert f"{games} finished games" in before
        assert f"Working out the ratings of {games} finished games…" in before
        assert not any(t.startswith("Rank 1, ") for t in before)
        [(handler, args)] = page.threads
        handler(*args)
        after = shown_texts(view)
        ratings = services.ratings.ratings(ALL)
        for rank, p in enumerate(ratings.players, start=1):
            assert any(t.startswith(f"Rank {rank}, {p.name}, rating {p.ordinal:.1f}") for t in after)
        assert not any(t.startswith("Working out the ratings") for t in after)
        # worked out once, they are at hand: the screen opens with them, and so after one more game
        again = ThreadedPage("/stats")
        Shell(cast(ft.Page, again), services).render()
        assert any(t.startswith("Rank 1, ") for t in shown_texts(again.views[-1])) and again.threads == []
        finished(services.archive, PLAIN, ("Ann", "Ben", "Cat"))
        third = ThreadedPage("/stats")
        Shell(cast(ft.Page, third), services).render()
        assert any(t.startswith("Rank 1, ") for t in shown_texts(third.views[-1])) and third.threads == []
        assert services.ratings.ratings_now(ALL) == RatingService(services.archive, OutcomeCache(None)).ratings(ALL)


def test_the_outcome_cache_file_after_changes_is_what_a_fresh_cache_writes(tmp_path: Path) -> None:
    """The statistics' cache file encodes each game once and keeps it: after a new game, a correction and a
    deletion, the file holds what a cache built from scratch writes."""
    folder = tmp_path / "data"
    for n in range(5):
        write_session(folder, case_record((PLAIN, PLAYOFF, TIE)[n % 3], SEATS[n % 4]), f"2026-03-0{n + 1}T20:00:00Z")
    with Archive(folder) as archive:
        kept = OutcomeCache(tmp_path / "kept.json")
        kept.outcomes(archive)
        new = finished(archive, TIE, ("Eve", "Ann", "Ben"))
        kept.outcomes(archive)
        doc = archive.load_session(new)
        corrected = case_record(PLAIN, ("Eve", "Ann", "Ben"))
        archive.save_session(
            doc.model_copy(update={"record": corrected, "winners": list(score(corrected).winners)}), "corrected"
        )
        kept.outcomes(archive)
        archive.delete_session(archive.list_sessions()[-1].id)
        kept.outcomes(archive)
        OutcomeCache(tmp_path / "fresh.json").outcomes(archive)
    written = json.loads((tmp_path / "kept.json").read_text())
    assert written == json.loads((tmp_path / "fresh.json").read_text())
    assert written["version"] == CACHE_VERSION and len(written["entries"]) == 5
    assert written["entries"][new]["players"] == ["Eve", "Ann", "Ben"]
