"""The tests keep to their layout: a test module never imports another test module (what several of them share
lives in ``tests/support/``, their fixtures in ``conftest.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _is_test_module(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1].startswith("test_")


def imported_test_modules(path: Path, package: str) -> list[str]:
    """The test modules that the Python file at ``path`` imports (``package`` is its package, dotted, for a relative
    import).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     source = Path(tmp, "test_a.py")
    ...     _ = source.write_text(
    ...         "import os\\nfrom tests.support.screens import walk\\nfrom tests.views.test_b import x\\n"
    ...         "def f():\\n    from . import test_c, helpers\\n    import tests.test_d as d\\n"
    ...         "    from .test_e import y\\n"
    ...     )
    ...     imported_test_modules(source, "tests.views")
    ['tests.views.test_b', 'tests.views.test_c', 'tests.test_d', 'tests.views.test_e']
    """
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            if _is_test_module(base):
                found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names if _is_test_module(alias.name)]
    return found


def test_no_test_module_imports_another() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        package = ".".join(["tests", *path.parent.relative_to(TESTS).parts])
        imported = imported_test_modules(path, package)
        if imported:
            offenders[path.relative_to(TESTS).as_posix()] = imported
    assert not offenders, f"move what these share to tests/support/ or a conftest.py: {offenders}"
