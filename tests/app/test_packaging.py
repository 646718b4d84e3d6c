"""The two commands and what they install: pins, extras, stamps, screenshots (no network, nothing installed here)."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import tomllib

import pytest
from packaging.requirements import Requirement

from tests.conftest import ROOT
from tests.support import browser as helpers

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def _constraints() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def _requirements(*groups: str) -> list[Requirement]:
    lists = [PROJECT["dependencies"], *(PROJECT["optional-dependencies"][group] for group in groups)]
    return [Requirement(text) for texts in lists for text in texts]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_pinned_by_the_constraints_at_a_version_it_allows() -> None:
    pins = _constraints()
    for req in _requirements("web", "desktop", "dev"):
        name = _canonical(req.name)
        assert name in pins, f"{req.name} is not in constraints.txt"
        assert req.specifier.contains(pins[name]), f"constraints.txt pins {req.name}=={pins[name]}, outside {req}"


@pytest.mark.parametrize("tool", ["ruff", "mypy"])
def test_lint_tools_are_pinned_exactly_and_installed_at_that_version(tool: str) -> None:
    (req,) = [r for r in _requirements("dev") if _canonical(r.name) == tool]
    (spec,) = req.specifier
    assert spec.operator == "==", f"{tool} must be pinned exactly in pyproject's dev extra, not {req}"
    assert _constraints()[tool] == spec.version
    assert importlib.metadata.version(tool) == spec.version, f"installed {tool} differs from the pin: run make test"


def test_the_app_needs_no_browser_client_or_dev_tool() -> None:
    core = {_canonical(r.name) for r in _requirements()}
    assert "flet-web" not in core and "flet-desktop" not in core
    dev_only = {_canonical(r.name) for r in _requirements("dev")} - core
    assert {"pytest", "ruff", "mypy", "playwright", "flet-cli"} <= dev_only
    assert [r.name for r in _requirements("web")[len(core) :]] == ["flet-web"]
    assert [r.name for r in _requirements("desktop")[len(core) :]] == ["flet-desktop"]


def test_the_license_is_an_spdx_string_with_a_setuptools_that_reads_it() -> None:
    assert PROJECT["license"] == "MIT"
    assert all((ROOT / name).is_file() for name in PROJECT["license-files"])
    (setuptools,) = [Requirement(r) for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert not setuptools.specifier.contains("76.9") and setuptools.specifier.contains("77.0")


def _make_plan(target: str) -> str:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    proc = subprocess.run(
        [make, "-n", "-B", "-C", str(ROOT), target], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_make_run_installs_the_app_alone_and_make_test_adds_the_dev_tools() -> None:
    run = _make_plan("run")
    assert "-e '.[web]'" in run and "dev" not in run and "--constraint constraints.txt" in run
    assert ".app-installed" in run and "companion" in run
    test = _make_plan("test")
    assert "-e '.[web,dev]'" in test and ".dev-installed" in test and "pytest" in test
    assert "CTC_SCREENSHOTS" not in test


def test_make_screenshots_is_the_only_command_that_refreshes_them() -> None:
    assert "CTC_SCREENSHOTS=1" in _make_plan("screenshots")


def test_screenshots_go_to_docs_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(helpers.SCREENSHOTS_ENV, raising=False)
    assert helpers.screenshot_folder() == ROOT / "test-output" / "screenshots"
    monkeypatch.setenv(helpers.SCREENSHOTS_ENV, "1")
    assert helpers.screenshot_folder() == ROOT / "docs" / "screenshots"
    monkeypatch.setenv(helpers.SCREENSHOTS_ENV, "0")
    assert helpers.screenshot_folder() == ROOT / "test-output" / "screenshots"
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "test-output/screenshots/x.png"], cwd=ROOT, timeout=30, check=False
    )
    if (ROOT / ".git").exists():
        assert ignored.returncode == 0, "test-output/ must be ignored by git"


def test_an_ignored_build_folder_is_not_tracked() -> None:
    """``flet build`` writes ``build/``; make clean removes it and git ignores it."""
    assert "build" in _make_plan("clean")
    assert "build/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
