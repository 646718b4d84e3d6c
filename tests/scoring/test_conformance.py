"""Every conformance case in ``tests/cases/`` through ``python -m scoring score``, and in process.

Cases are found when the tests are collected, so a new file dropped there runs without a code change. A
``../shared/cases`` folder beside the project (or ``$CTC_SHARED/cases``) adds its cases; it never replaces the
repository's (``tests.conftest.case_files``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import ScoringError, score
from tests.conftest import CASES, ROOT, case_files
from tests.support.matching import mismatches

CASE_FILES = case_files()


def test_cases_are_present() -> None:
    """The repository's own cases cover all five games (whatever lies beside it)."""
    games = {path.parent.name for path in CASES.glob("*/*.json")}
    assert games == {"bargain-bin", "financial-crisis", "feast-and-famine", "1111-9999", "jokers-kill"}, (
        f"expected the conformance cases of all five games under {CASES}"
    )
    assert set(CASE_FILES) >= set(CASES.glob("*/*.json"))


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("case_file", CASE_FILES, ids=_ids)
def test_case_cli(case_file: Path) -> None:
    case = json.loads(case_file.read_text(encoding="utf-8"))
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input=json.dumps(case["record"]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    if case.get("expect_error"):
        assert proc.returncode == 2, f"{case['title']}: expected an error, got {out}"
        assert isinstance(out["error"]["message"], str) and out["error"]["message"]
        assert isinstance(out["error"]["path"], str)
    else:
        assert proc.returncode == 0, f"{case['title']}: {out}"
        problems = mismatches(case["expect"], out)
        assert not problems, f"{case['title']} ({case.get('source')}):\n" + "\n".join(problems)


@pytest.mark.parametrize("case_file", CASE_FILES, ids=_ids)
def test_case_in_process(case_file: Path) -> None:
    case = json.loads(case_file.read_text(encoding="utf-8"))
    if case.get("expect_error"):
        with pytest.raises(ScoringError) as info:
            score(case["record"])
        assert info.value.message
    else:
        problems = mismatches(case["expect"], score(case["record"]).to_json())
        assert not problems, f"{case['title']} ({case.get('source')}):\n" + "\n".join(problems)
