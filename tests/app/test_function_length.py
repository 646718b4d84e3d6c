"""No function in the app's code is over 100 lines without a one-line reason beside it (issue 26): a ``# long:``
comment on one of the two lines above its ``def`` (or its first decorator)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "storage", "companion", "views", "app")
LIMIT = 100


def long_functions_without_reason(root: Path) -> list[str]:
    """``path:line name (N lines)`` for each function over :data:`LIMIT` lines with no ``# long:`` reason."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            lines = path.read_text("utf-8").splitlines()
            for node in ast.walk(ast.parse("\n".join(lines), str(path))):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                above = lines[max(0, start - 3) : start - 1]
                if length > LIMIT and not any(line.strip().startswith("# long:") for line in above):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_every_function_over_100_lines_says_why() -> None:
    assert long_functions_without_reason(ROOT) == []


def test_the_check_finds_a_long_function_without_a_reason(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "plain.py").write_text(f"def quiet():\n{body}\n", "utf-8")
    (tmp_path / "views" / "told.py").write_text(f"# long: a table, one line a row\ndef told():\n{body}\n", "utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    assert long_functions_without_reason(tmp_path) == [f"{Path('views', 'plain.py')}:1 quiet ({LIMIT + 1} lines)"]
