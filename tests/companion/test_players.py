"""Players: profiles, renames that keep the history, merges, and no duplicates by accident."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import companion.players
from companion.players import (
    EarlierNameError,
    PlayedTogetherError,
    PlayerDirectory,
    SamePlayerError,
    alias_map,
)
from companion.stats import statistics
from storage import Archive, DuplicatePlayerError, InvalidPlayerNameError, Player, PlayerNotFoundError, SessionStatus


def game(
    archive: Archive, players: list[str], winners: list[str], status: SessionStatus = SessionStatus.FINISHED
) -> str:
    record: dict[str, Any] = {"game": "jokers-kill", "players": players, "options": {}, "hands": []}
    return archive.create_session(record, status=status, winners=winners).id


def test_doctests() -> None:
    result = doctest.testmod(companion.players)
    assert result.attempted > 0 and result.failed == 0


def test_add_refuses_near_duplicates_and_bad_names(archive: Archive) -> None:
    players = PlayerDirectory(archive)
    ann = players.add("  Ann ")
    assert ann.name == "Ann"
    for name in ("ann", "ANN", " Ann  "):
        assert not players.can_add(name)
        with pytest.raises(DuplicatePlayerError, match="already in the roster as 'Ann'"):
            players.add(name)
    assert not players.can_add("   ")
    with pytest.raises(InvalidPlayerNameError):
        players.add("")
    with pytest.raises(InvalidPlayerNameError, match="longer than 40"):
        players.verify_add("x" * 41)
    assert players.can_add("Ben")
    assert [p.name for p in players.players()] == ["Ann"]


def test_an_earlier_name_cannot_be_taken_by_someone_new(archive: Archive) -> None:
    players = PlayerDirectory(archive)
    ann = players.add("Ann")
    players.rename(ann.id, "Annie")
    assert not players.can_add("ann")
    with pytest.raises(EarlierNameError, match="'Ann' is an earlier name of Annie"):
        players.add("Ann")
    # ...but Annie herself may go back to it
    assert players.can_rename(ann.id, "Ann")
    assert players.rename(ann.id, "Ann").name == "Ann"


def test_rename_keeps_the_history(archive: Archive) -> None:
    game(archive, ["Ann", "Ben"], ["Ann"])
    game(archive, ["Ann", "Ben"], ["Ben"])
    players = PlayerDirectory(archive)
    ann = players.find("Ann")
    assert ann is not None
    renamed = players.rename(ann.id, "Annie")
    assert renamed.history == ("Ann",)
    assert players.resolve("Ann") == "Annie" and players.resolve("annie") == "Annie"
    game(archive, ["Annie", "Ben"], ["Annie"])
    profile = {p.name: p for p in players.profiles()}["Annie"]
    assert (profile.sessions, profile.finished, profile.wins) == (3, 3, 2)
    assert profile.earlier_names == ("Ann",)
    assert profile.win_rate == pytest.approx(2 / 3)
    # the records still say "Ann": nothing was rewritten
    assert archive.list_sessions()[-1].players == ("Ann", "Ben")
    # statistics follow the player under the new name
    assert players.find("ann") == players.get(ann.id)


def test_rename_refusals(archive: Archive) -> None:
    players = PlayerDirectory(archive)
    ann, ben = players.add("Ann"), players.add("Ben")
    assert not players.can_rename(ann.id, "ben")
    with pytest.raises(DuplicatePlayerError):
        players.rename(ann.id, "BEN")
    assert not players.can_rename("nobody", "Zed")
    with pytest.raises(PlayerNotFoundError):
        players.rename("nobody", "Zed")
    assert players.rename(ben.id, "Ben").history == ()  # the same name: no change


def test_merge_joins_two_names_of_one_person(archive: Archive) -> None:
    game(archive, ["Ann", "Ben"], ["Ann"])
    game(archive, ["Annie", "Cat"], ["Annie"])
    game(archive, ["Annie", "Ben"], ["Ben"], status=SessionStatus.IN_PROGRESS)
    players = PlayerDirectory(archive)
    ann, annie = players.find("Ann"), players.find("Annie")
    assert ann is not None and annie is not None
    assert players.can_merge(ann.id, annie.id)
    kept = players.merge(ann.id, annie.id)
    assert kept.name == "Ann" and kept.history == ("Annie",)
    assert [p.name for p in players.players()] == ["Ann", "Ben", "Cat"]
    profile = {p.name: p for p in players.profiles()}["Ann"]
    assert (profile.sessions, profile.finished, profile.wins) == (3, 2, 2)
    assert players.resolve("Annie") == "Ann"
    assert not players.can_add("annie")


def test_merge_refuses_people_who_played_together(archive: Archive) -> None:
    game(archive, ["Ann", "Ben"], ["Ann"])
    players = PlayerDirectory(archive)
    ann, ben = players.find("Ann"), players.find("Ben")
    assert ann is not None and ben is not None
    assert not players.can_merge(ann.id, ben.id)
    with pytest.raises(PlayedTogetherError, match="Ann and Ben both played in"):
        players.merge(ann.id, ben.id)
    with pytest.raises(SamePlayerError):
        players.merge(ann.id, ann.id)
    assert not players.can_merge(ann.id, ann.id)
    assert not players.can_merge(ann.id, "nobody")
    assert [p.name for p in players.players()] == ["Ann", "Ben"]  # nothing changed


def test_merge_after_rename_checks_every_name(archive: Archive) -> None:
    game(archive, ["Ann", "Ben"], ["Ann"])
    players = PlayerDirectory(archive)
    ann = players.find("Ann")
    assert ann is not None
    players.rename(ann.id, "Annie")  # Annie (once Ann) sat with Ben
    ben = players.find("Ben")
    assert ben is not None
    with pytest.raises(PlayedTogetherError):
        players.verify_merge(ben.id, ann.id)


def test_statistics_follow_renames_and_merges(archive: Archive) -> None:
    for players_, winners in ((["Ann", "Ben"], ["Ann"]), (["Bob", "Cat"], ["Cat"])):
        record: dict[str, Any] = {"game": "jokers-kill", "players": players_, "options": {}, "hands": []}
        archive.create_session(record, status=SessionStatus.FINISHED, winners=winners)
    # Bob is Ben under another name: after the merge both games are Ben's
    players = PlayerDirectory(archive)
    ben, bob = players.find("Ben"), players.find("Bob")
    assert ben is not None and bob is not None
    players.merge(ben.id, bob.id)
    stats = statistics(archive, resolve=players.resolver())
    assert stats.player("Ben").games == 2
    with pytest.raises(KeyError):
        stats.player("Bob")


def test_alias_map_prefers_current_names() -> None:
    aliases = alias_map([Player("1", "Annie", "t", ("Ann",)), Player("2", "Ann", "t", ())])
    assert aliases["ann"] == "Ann"
    assert aliases["annie"] == "Annie"


def test_profiles_of_players_without_games(archive: Archive) -> None:
    players = PlayerDirectory(archive)
    players.add("Zoe")
    [zoe] = players.profiles()
    assert (zoe.sessions, zoe.finished, zoe.wins, zoe.last_played, zoe.win_rate) == (0, 0, 0, None, 0.0)
