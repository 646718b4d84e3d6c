"""``make test`` runs the suite under the oldest supported Python (``.venv``) and again under the one the package
bundles (``BUILD_PYTHON``, in ``.venv-3.12``), and says which. These run the Makefile's own recipes with make, with
the venv and the Pythons it looks for replaced by ones made here (``VENV=``, ``BUILD_PYTHON=``, ``PYENV_ROOT``), and
``-o`` so that nothing is installed.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed (.ci/run installs it)")


def _make(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    if not (venv / "bin" / "python").exists():
        (venv / "bin" / "python").symlink_to(sys.executable)
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    environment |= {"PYENV_ROOT": str(tmp_path / "pyenv"), **env}
    assert MAKE is not None
    return subprocess.run(
        [MAKE, "--no-print-directory", f"VENV={venv}", "-o", f"{venv}/.dev-installed", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _fake_python(path: Path, status: int) -> Path:
    """A stand-in interpreter that answers the Makefile's version check with ``status`` (0: the right version)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexit {status}\n")
    path.chmod(0o755)
    return path


def test_with_one_python_make_test_says_which_it_used_and_passes(tmp_path: Path) -> None:
    done = _make(tmp_path, "test-package-python", "BUILD_PYTHON=9.9", "PACKAGE_PYTHON=")
    assert done.returncode == 0, done.stderr
    assert "make test: no Python 9.9 here (the one the package bundles)" in done.stdout
    assert f"the suite ran under Python {platform.python_version()} ({tmp_path}/venv/bin/python) only" in done.stdout


def test_under_ci_a_missing_package_python_fails_with_a_message(tmp_path: Path) -> None:
    done = _make(tmp_path, "test-package-python", "BUILD_PYTHON=9.9", "PACKAGE_PYTHON=", CI="true")
    assert done.returncode != 0
    assert "CI=true runs the suite under Python 9.9 too, and none was found" in done.stderr


def test_the_package_python_is_found_on_path_or_under_pyenv(tmp_path: Path) -> None:
    show = ["--eval", "show: ; @echo found: $(PACKAGE_PYTHON)", "show", "BUILD_PYTHON=9.9"]
    # a pyenv shim that refuses (the version is installed but not selected) is passed over
    shims = tmp_path / "shims"
    _fake_python(shims / "python9.9", 127)
    path = f"{shims}{os.pathsep}{os.environ['PATH']}"
    assert _make(tmp_path, *show, PATH=path).stdout.strip() == "found:"
    older = _fake_python(tmp_path / "pyenv" / "versions" / "9.9.1" / "bin" / "python9.9", 0)
    newer = _fake_python(tmp_path / "pyenv" / "versions" / "9.9.10" / "bin" / "python9.9", 0)
    assert older.exists()
    assert _make(tmp_path, *show, PATH=path).stdout.strip() == f"found: {newer}"
    on_path = _fake_python(tmp_path / "bin" / "python9.9", 0)
    found = _make(tmp_path, *show, PATH=f"{on_path.parent}{os.pathsep}{path}").stdout.strip()
    assert found == f"found: {on_path}"


def test_the_second_run_uses_its_own_venv_of_the_package_python() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(PACKAGE_PYTHON) -m venv $(PACKAGE_VENV)" in make
    assert "$(PACKAGE_VENV)/bin/python -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)" in make
    assert "@$(MAKE) --no-print-directory test-package-python" in make
