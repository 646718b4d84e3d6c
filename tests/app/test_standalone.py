"""A clone of the repository tests itself: no file outside it is needed (``../shared`` may only add cases).

The tracked tree (``git ls-files``, plus new files not yet committed and not ignored) is copied to a temporary
folder with nothing beside it, and the suite is collected there, then the conformance tests are run there: in
process (the same cases through ``python -m scoring``, a process each, are the main suite's ``test_case_cli``, and
found the same way).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CASES
from tests.support.repo_copy import copy_repository


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files alone in an empty folder (so ``<clone>/../shared`` does not exist)."""
    target = copy_repository(tmp_path_factory.mktemp("alone") / "card-table-companion")
    assert not (target.parent / "shared").exists()
    return target


PYTEST = ("-m", "pytest", "-q", "-p", "no:cacheprovider")
"""The clone's pytest, without a cache folder."""


def _run(clone: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the clone, with its own code first and no outside case folder (unless ``env`` names one)."""
    env = {key: value for key, value in os.environ.items() if key not in ("CTC_SHARED", "PYTEST_ADDOPTS")} | {
        "PYTHONPATH": str(clone),
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_clone_imports_its_own_code(clone: Path) -> None:
    proc = _run(clone, "-c", "import scoring, tests.conftest as c; print(scoring.__file__); print(c.CASES)")
    assert proc.returncode == 0, proc.stderr
    module, cases = proc.stdout.split()
    assert Path(module).is_relative_to(clone) and Path(cases) == clone / "tests" / "cases"


def test_the_whole_suite_is_collected_without_shared(clone: Path) -> None:
    proc = _run(clone, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert re.search(r"\d+ tests? collected", proc.stdout), proc.stdout[-2000:]


def test_the_conformance_cases_pass_without_shared(clone: Path) -> None:
    proc = _run(clone, *PYTEST, "tests/scoring/test_conformance.py", "-k", "not test_case_cli")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    own = len(list(CASES.glob("*/*.json")))
    assert own >= 5
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) == own + 1, proc.stdout[-2000:]  # each case in process, + presence


def test_a_shared_folder_adds_cases_and_replaces_none(clone: Path, tmp_path: Path) -> None:
    """``CTC_SHARED/cases`` adds a new file; its copy of a file the repository has (here broken) is not used."""
    own = sorted((CASES / "jokers-kill").glob("*.json"))
    extra = tmp_path / "shared" / "cases" / "jokers-kill"
    extra.mkdir(parents=True)
    (extra / "99-added-here.json").write_text(own[0].read_text(encoding="utf-8"), encoding="utf-8")
    (extra / own[0].name).write_text('{"title": "a broken copy", "record": {}, "expect": {"x": 1}}', encoding="utf-8")
    proc = _run(
        clone,
        *(*PYTEST, "tests/scoring/test_conformance.py", "-k", "jokers-kill and not test_case_cli"),
        env={"CTC_SHARED": str(tmp_path / "shared")},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert f"{len(own) + 1} passed" in proc.stdout, proc.stdout[-2000:]
