"""``python -m scoring score FILE|-``, ``games``, ``schema GAME`` (``records.md``, "Command line").

Invalid input of any kind prints ``{"error": {"message", "path"}}`` and exits 2; nothing a user can type causes a
traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scoring.errors import InvalidRecordError, ScoringError
from scoring.registry import GAMES, find_game, score

MAX_INPUT_BYTES = 10 * 1024 * 1024


def _print(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _read(source: str) -> Any:
    name = "the standard input" if source == "-" else source
    try:
        if source == "-":
            raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(source, "rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InvalidRecordError(f"cannot read {source}: {exc.strerror or exc}", "") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise InvalidRecordError(f"{name} is larger than 10 MB; it is not a game record", "")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidRecordError(f"{name} is not UTF-8 text", "") from None
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(
            f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", ""
        ) from None
    except RecursionError:
        raise InvalidRecordError(f"{name} is nested too deeply to be a game record", "") from None
    except ValueError:  # a number of more than 4,300 digits: no game record holds one
        raise InvalidRecordError(f"{name} holds a number too long to be part of a game record", "") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="Score card-game records.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_score = sub.add_parser("score", help="score a game record (FILE, or - for standard input)")
    p_score.add_argument("file")
    sub.add_parser("games", help="list the games")
    p_schema = sub.add_parser("schema", help="print the JSON Schema of a game's record")
    p_schema.add_argument("game")
    args = parser.parse_args(argv)
    try:
        if args.command == "games":
            _print(
                [
                    {"key": g.key, "name": g.name, "min_players": g.min_players, "max_players": g.max_players}
                    for g in GAMES
                ]
            )
        elif args.command == "schema":
            _print(find_game(args.game).schema())
        else:
            data = _read(args.file)
            if isinstance(data, dict) and "game" not in data and isinstance(data.get("record"), dict):
                data = data["record"]  # a conformance case file: {"title", "record", "expect"}
            _print(score(data).to_json())
    except ScoringError as exc:
        _print(exc.to_json())
        return 2
    except RecursionError:
        _print({"error": {"message": "the record is nested too deeply", "path": ""}})
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
