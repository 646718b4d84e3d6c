"""Players: profiles over the archive's roster, renames that keep the history, merges, and no duplicates by accident.

A game record keeps the names as they were typed at the table; they are never rewritten. A rename or a merge only
changes the roster, and every old name stays attached to its player (the roster's ``history``), so a player's
history and statistics follow them under their new name. :meth:`PlayerDirectory.resolve` turns any name found in a
record into the player's current name.

>>> import tempfile, pathlib
>>> from storage import Archive
>>> archive = Archive(pathlib.Path(tempfile.mkdtemp()))
>>> players = PlayerDirectory(archive)
>>> ann = players.add("Ann")
>>> players.can_add("ANN ")
False
>>> players.rename(ann.id, "Annie").name
'Annie'
>>> players.resolve("ann"), players.can_add("Ann")
('Annie', False)
>>> archive.close()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from companion.i18n import N_
from scoring.base import passes
from scoring.why import Note, render
from storage import (
    Archive,
    ArchiveReadOnlyError,
    DuplicatePlayerError,
    InvalidPlayerNameError,
    Player,
    PlayerNotFoundError,
    SessionStatus,
    SessionSummary,
    StorageError,
)
from storage.roster import MAX_NAME, clean_name, name_key


class _Worded:
    """A refusal that carries its words as data (``why``, a :class:`scoring.why.Note`), so that a screen says it
    in the table's language; its English message is the note's."""

    why: Note | None = None

    def __init__(self, note: Note) -> None:
        super().__init__(render(note))  # type: ignore[call-arg]
        self.why = note


class EarlierNameError(_Worded, DuplicatePlayerError):
    """A new name that is an earlier name of a player (adding it would split that player's history in two)."""


class PlayedTogetherError(_Worded, ValueError):
    """Two players who sat at the same game cannot be one person, so they cannot be merged."""


class SamePlayerError(_Worded, ValueError):
    """A player cannot be merged with themselves."""


def _name_note(name: object) -> Note:
    """Why the roster refuses ``name`` as a name (:func:`storage.roster.clean_name`'s refusal, as data)."""
    if not isinstance(name, str):
        return Note.of(N_("a player's name must be text"))
    cleaned = " ".join(name.split())
    if not cleaned:
        return Note.of(N_("a player's name is empty"))
    if len(cleaned) > MAX_NAME:
        return Note.of(N_("the name {name} is longer than {n} characters"), name=repr(cleaned), n=MAX_NAME)
    return Note.of(
        N_("the name {name} holds a control or bidi-override character; those are not allowed in a name"),
        name=repr(cleaned),
    )


@contextmanager
def _worded(name: object = None, existing: Callable[[], str | None] = lambda: None) -> Iterator[None]:
    """Give the roster's refusals their words as data (``why``), keeping their type and English message."""
    try:
        yield
    except InvalidPlayerNameError as exc:
        exc.why = _name_note(name)  # type: ignore[attr-defined]
        raise
    except DuplicatePlayerError as exc:
        found = existing()
        if not isinstance(exc, _Worded) and found is not None:
            exc.why = Note.of(  # type: ignore[attr-defined]
                N_("{name} is already in the roster as {existing}"), name=repr(name), existing=repr(found)
            )
        raise
    except ArchiveReadOnlyError as exc:
        exc.why = Note.of(N_("the archive is open read-only: players cannot be changed"))  # type: ignore[attr-defined]
        raise


PlayerError = (StorageError, EarlierNameError, PlayedTogetherError, SamePlayerError, ValueError)
"""Everything a player action can refuse with; each carries a message for people."""


@dataclass(frozen=True, slots=True)
class Profile:
    """What the Players screen shows about one player."""

    id: str
    name: str
    earlier_names: tuple[str, ...]
    """Names this player had before (renames) or that were merged into them."""
    sessions: int
    """Sessions they sat at, in any state."""
    finished: int
    """Finished games they played."""
    wins: int
    """Finished games they won (joint wins count)."""
    last_played: str | None
    """ISO time of their most recent session, or ``None``."""

    @property
    def win_rate(self) -> float:
        """Wins per finished game (0.0 with none)."""
        return win_rate_of(self.wins, self.finished)


def win_rate_of(wins: int, games: int) -> float:
    """Wins per game, 0.0 with no game (a player's record, a game's line in the statistics).

    >>> win_rate_of(3, 4), win_rate_of(0, 0)
    (0.75, 0.0)
    """
    return wins / games if games else 0.0


def alias_map(roster_players: Iterable[Player]) -> dict[str, str]:
    """``name_key`` of every current and earlier name → the current name. A current name wins over an earlier one.

    >>> from storage import Player
    >>> alias_map([Player("1", "Annie", "t", ("Ann",)), Player("2", "Ben", "t")])
    {'ann': 'Annie', 'annie': 'Annie', 'ben': 'Ben'}
    """
    players = list(roster_players)
    out: dict[str, str] = {}
    for player in players:
        for old in player.history:
            out.setdefault(name_key(old), player.name)
    for player in players:
        out[name_key(player.name)] = player.name
    return dict(sorted(out.items()))


class PlayerDirectory:
    """The players of one archive: look-up by any of their names, profiles, add, rename and merge.

    Every change goes through the roster (on disk when it returns); ``verify_x`` raises the error ``x`` would
    raise, and ``can_x`` says whether ``x`` would work (for greying out a button).
    """

    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    # --- reading ----------------------------------------------------------------------------------------------

    def players(self) -> list[Player]:
        """Every current player, by name."""
        return self.archive.players.list()

    def aliases(self) -> dict[str, str]:
        """See :func:`alias_map`."""
        return alias_map(self.archive.players.list())

    def resolve(self, name: str) -> str:
        """The current name of the player who played as ``name`` (``name`` itself, trimmed, if nobody did)."""
        return self.aliases().get(name_key(name), " ".join(name.split()))

    def resolver(self) -> Resolver:
        """A fast name → current name function over a snapshot of the roster (for statistics over many games)."""
        return Resolver(self.aliases())

    def get(self, player_id: str) -> Player:
        """The player with this id (:class:`~storage.PlayerNotFoundError` if none)."""
        return self.archive.players.get(player_id)

    def find(self, name: str) -> Player | None:
        """The player who is or was called ``name`` (ignoring case and spacing), if any."""
        key = name_key(name)
        players = self.archive.players.list()
        for player in players:
            if name_key(player.name) == key:
                return player
        for player in players:
            if any(name_key(old) == key for old in player.history):
                return player
        return None

    def profiles(self, summaries: Iterable[SessionSummary] | None = None) -> list[Profile]:
        """Every current player with their sessions, finished games, wins and last session, by name."""
        resolve = self.resolver()
        rows = self.archive.list_sessions() if summaries is None else list(summaries)
        sessions: dict[str, int] = {}
        finished: dict[str, int] = {}
        wins: dict[str, int] = {}
        last: dict[str, str] = {}
        for summary in rows:
            done = summary.status is SessionStatus.FINISHED
            winners = {resolve(w) for w in summary.winners} if done else set()
            for name in {resolve(p) for p in summary.players}:
                sessions[name] = sessions.get(name, 0) + 1
                if done:
                    finished[name] = finished.get(name, 0) + 1
                    if name in winners:
                        wins[name] = wins.get(name, 0) + 1
                if summary.updated_at > last.get(name, ""):
                    last[name] = summary.updated_at
        return [
            Profile(
                id=p.id,
                name=p.name,
                earlier_names=p.history,
                sessions=sessions.get(p.name, 0),
                finished=finished.get(p.name, 0),
                wins=wins.get(p.name, 0),
                last_played=last.get(p.name),
            )
            for p in self.archive.players.list()
        ]

    # --- adding -----------------------------------------------------------------------------------------------

    def verify_add(self, name: str, *, except_id: str | None = None) -> str:
        """The cleaned name, or the error adding it would raise: empty or too long, a current player's name, or an
        earlier name of a player (:class:`EarlierNameError`)."""
        with _worded(name, lambda: self._current_name(name)):
            cleaned = self.archive.players.verify_add(name, except_id=except_id)
        key = name_key(cleaned)
        for player in self.archive.players.list():
            if player.id != except_id and any(name_key(old) == key for old in player.history):
                raise EarlierNameError(
                    Note.of(
                        N_(
                            "{name} is an earlier name of {player}; choose {player} to seat them, "
                            "or another name for someone new"
                        ),
                        name=repr(cleaned),
                        player=player.name,
                    )
                )
        return cleaned

    def _current_name(self, name: object) -> str | None:
        found = self.archive.players.find(name) if isinstance(name, str) else None
        return found.name if found is not None else None

    def can_add(self, name: str) -> bool:
        return passes(lambda: self.verify_add(name), (DuplicatePlayerError, InvalidPlayerNameError))

    def add(self, name: str) -> Player:
        """Add a player (refused as :meth:`verify_add` says)."""
        self.verify_add(name)
        with _worded(name, lambda: self._current_name(name)):
            return self.archive.players.add(name)

    # --- renaming ---------------------------------------------------------------------------------------------

    def verify_rename(self, player_id: str, new_name: str) -> str:
        """The cleaned new name, or the error :meth:`rename` would raise. A player may take back an earlier name."""
        self.archive.players.get(player_id)
        return self.verify_add(new_name, except_id=player_id)

    def can_rename(self, player_id: str, new_name: str) -> bool:
        return passes(
            lambda: self.verify_rename(player_id, new_name),
            (DuplicatePlayerError, InvalidPlayerNameError, PlayerNotFoundError),
        )

    def rename(self, player_id: str, new_name: str) -> Player:
        """Rename a player; their games (recorded under the old name) stay theirs."""
        self.verify_rename(player_id, new_name)
        with _worded(new_name, lambda: self._current_name(new_name)):
            return self.archive.players.rename(player_id, clean_name(new_name))

    # --- merging ----------------------------------------------------------------------------------------------

    def verify_merge(self, keep_id: str, drop_id: str) -> None:
        """Raise the error :meth:`merge` would raise: unknown ids, the same player twice, or two players who sat at
        the same game (:class:`PlayedTogetherError`)."""
        keep = self.archive.players.get(keep_id)
        drop = self.archive.players.get(drop_id)
        if keep.id == drop.id:
            raise SamePlayerError(Note.of(N_("{name} cannot be merged with themselves"), name=keep.name))
        keep_names = {name_key(n) for n in (keep.name, *keep.history)}
        drop_names = {name_key(n) for n in (drop.name, *drop.history)}
        for summary in self.archive.list_sessions():
            seated = {name_key(p) for p in summary.players}
            if seated & keep_names and seated & drop_names:
                both = (keep.name, drop.name)
                if summary.title:
                    said = N_("{keep} and {drop} both played in {title}, so they are two people and cannot be merged")
                    why = Note.of(said, keep=both[0], drop=both[1], title=summary.title)
                else:
                    said = N_(
                        "{keep} and {drop} both played in the game of {day}, so they are two people and cannot be "
                        "merged"
                    )
                    why = Note.of(said, keep=both[0], drop=both[1], day=summary.created_at[:10])
                raise PlayedTogetherError(why)

    def can_merge(self, keep_id: str, drop_id: str) -> bool:
        return passes(
            lambda: self.verify_merge(keep_id, drop_id), (PlayedTogetherError, SamePlayerError, PlayerNotFoundError)
        )

    def merge(self, keep_id: str, drop_id: str) -> Player:
        """Make ``drop_id`` part of ``keep_id`` (one person entered under two names); returns the kept player."""
        self.verify_merge(keep_id, drop_id)
        with _worded():
            return self.archive.players.merge(keep_id, drop_id)


class Resolver:
    """A name → current name function over a fixed alias map (see :func:`alias_map`).

    >>> Resolver({"ann": "Annie"})(" ANN "), Resolver({})("Zed")
    ('Annie', 'Zed')
    """

    __slots__ = ("_aliases", "_memo")

    def __init__(self, aliases: dict[str, str]) -> None:
        self._aliases = aliases
        self._memo: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        found = self._memo.get(name)
        if found is None:
            found = self._aliases.get(name_key(name), " ".join(name.split()))
            self._memo[name] = found
        return found
