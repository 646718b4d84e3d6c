"""Count how often the scoring code replays a record (the "scored once" checks)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from scoring import GAMES
from scoring import bargain_bin as bb
from scoring.game import Game


def _put(owner: Any, name: str, value: Any) -> None:
    if isinstance(owner, Game):
        object.__setattr__(owner, name, value)  # a frozen dataclass
    else:
        setattr(owner, name, value)


@contextlib.contextmanager
def counting_scorers(counts: Counter[str], prefix: str = "") -> Iterator[None]:
    """Each game's whole-record replays (its scorer, or its replayer) count in ``counts`` under ``prefix`` + the
    game key, while this lasts; the Bargain Bin hands replayed one by one (on top of a replay, or in a whole one)
    count under ``prefix`` + ``"bargain-bin hands"``. The registry's games are frozen: the fields are swapped,
    and put back."""
    originals: list[tuple[Any, str, Any]] = []

    def swap(owner: Any, name: str, key: str) -> None:
        original = getattr(owner, name)
        if original is None:
            return

        def counting(*args: Any, key: str = key, original: Callable[..., Any] = original) -> Any:
            counts[key] += 1
            return original(*args)

        originals.append((owner, name, original))
        _put(owner, name, counting)

    for game in GAMES:
        swap(game, "scorer", prefix + game.key)
        swap(game, "replayer", prefix + game.key)
    swap(bb._Tally, "step", prefix + "bargain-bin hands")
    try:
        yield
    finally:
        for owner, name, original in reversed(originals):
            _put(owner, name, original)


@contextlib.contextmanager
def counting_calls(counts: Counter[str], owner: Any, *names: str) -> Iterator[None]:
    """Each call of ``owner``'s methods ``names`` (a class's: every instance's calls) counts in ``counts`` under its
    name while this lasts; the methods still run. They are put back after."""
    own = {name: owner.__dict__.get(name) for name in names}  # None: inherited (the class's own is removed after)
    originals = {name: getattr(owner, name) for name in names}

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)

        return counting

    for name, original in originals.items():
        setattr(owner, name, wrap(name, original))
    try:
        yield
    finally:
        for name, kept in own.items():
            if kept is None:
                delattr(owner, name)
            else:
                setattr(owner, name, kept)
