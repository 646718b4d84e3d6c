"""The compiled libraries a phone gets are the ones the suite runs with.

A phone build (``flet build apk|aab|ipa``) installs the app's dependencies with ``pip --only-binary :all:`` from PyPI
and Flet's mobile index, whose Android and iOS wheels are built from github.com/flet-dev/mobile-forge's recipes. The
recipes are read from the dated copy in ``tests/fixtures/flet/mobile-forge-20260821/`` (source, commit and date in
``tests/fixtures/flet/README.md``), parsed as mobile-forge parses them (a Jinja template rendered per SDK, then YAML).
The pins are read from ``constraints.txt`` (what ``make test`` installs) and from ``[tool.flet.android]`` /
``[tool.flet.ios]`` ``dependencies`` (what flet-cli adds to the requirements of a phone build).
"""

from __future__ import annotations

import importlib.metadata as metadata
import re
import tomllib
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import ROOT
from tests.support.fixtures_git import git_blob_id
from tests.support.repo_copy import copy_repository

FIXTURES = ROOT / "tests" / "fixtures" / "flet"
FORGE = FIXTURES / "mobile-forge-20260821"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PHONE_SDKS = ("android", "iOS")
PINNED_TOGETHER = {"pydantic": "pydantic-core"}
"""A pure-Python library whose release requires one exact release of a compiled one."""


def _needs_its_compiled_code(files: list[str]) -> bool:
    """Whether a distribution's files include an extension module with no Python source of the same module beside
    it. A package compiled with mypyc (each ``module.cpython-*.so`` beside its ``module.py``, and one shared
    ``<hash>__mypyc`` module) is built from Python sources that it publishes as a pure wheel too: a phone takes that.

    >>> _needs_its_compiled_code(["PIL/_imaging.cpython-312-x86_64-linux-gnu.so", "PIL/Image.py"])
    True
    >>> _needs_its_compiled_code(["0a1b__mypyc.cpython-312-darwin.so", "m/a.py", "m/a.cpython-312-darwin.so"])
    False
    """
    present = set(files)
    for name in files:
        match = re.fullmatch(r"(.*?)(\.[a-z0-9_-]+)?\.(so|pyd)", name)
        if match is None:
            continue
        module = match.group(1)
        if not (f"{module}.py" in present or re.fullmatch(r"[0-9a-f]+__mypyc", module)):
            return True
    return False


def _compiled_dependencies() -> dict[str, str]:
    """The app's own dependencies (no extra: what a phone installs), with everything they need in turn, that need
    compiled code (:func:`_needs_its_compiled_code`); canonical name to installed version."""
    environment = {**default_environment(), "extra": ""}
    pending = [Requirement(r) for r in metadata.requires("card-table-companion") or []]
    seen: dict[str, metadata.Distribution] = {}
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        if name in seen or (requirement.marker and not requirement.marker.evaluate(environment)):
            continue
        seen[name] = metadata.distribution(name)
        pending.extend(Requirement(r) for r in seen[name].requires or [])
    return {
        name: dist.version
        for name, dist in seen.items()
        if _needs_its_compiled_code([f.as_posix() for f in dist.files or []])
    }


def _recipe_names() -> set[str]:
    lines = (FORGE / "recipes.txt").read_text(encoding="utf-8").split()
    return {canonicalize_name(line) for line in lines}


def _recipe(name: str) -> dict[str, Any]:
    """A recipe's ``package`` (name, version) as mobile-forge reads it for each phone SDK; they must agree."""
    path = FORGE / "recipes" / name / "meta.yaml"
    assert path.is_file(), (
        f"{name} ships compiled code and mobile-forge has a recipe for it: copy recipes/{name}/meta.yaml from the "
        "commit named in tests/fixtures/flet/README.md"
    )
    template = path.read_text(encoding="utf-8")
    packages = [
        yaml.safe_load(jinja2.Template(template).render(sdk=sdk, version=None))["package"] for sdk in PHONE_SDKS
    ]
    assert all(package == packages[0] for package in packages), f"{name}: {packages}"
    return dict(packages[0])


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if match:
            pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def _phone_libraries() -> dict[str, str]:
    """Each compiled library, and the library pinned together with one, to the recipe's version (or the one that
    goes with it)."""
    versions = {name: _recipe(name)["version"] for name in _compiled_dependencies()}
    for pure in PINNED_TOGETHER:
        versions[pure] = _constraints()[pure]
    return versions


def test_every_compiled_library_of_the_app_has_a_recipe_on_flets_mobile_index() -> None:
    compiled = _compiled_dependencies()
    assert {"pydantic-core", "pillow"} <= set(compiled), compiled
    missing = sorted(set(compiled) - _recipe_names())
    assert not missing, (
        f"{missing} ship compiled code and Flet's mobile index has no recipe for them (mobile-forge at 2026-08-21): "
        "a phone build cannot install them. Make the app work without them on a phone, or say so in the README"
    )
    for name in compiled:
        assert canonicalize_name(_recipe(name)["name"]) == name


def test_constraints_pin_every_compiled_library_to_its_recipes_version() -> None:
    pins = _constraints()
    drift = {
        name: (pins.get(name), _recipe(name)["version"])
        for name in _compiled_dependencies()
        if pins.get(name) != _recipe(name)["version"]
    }
    assert not drift, f"constraints.txt pin, mobile-forge recipe: {drift}"


def test_pydantic_is_the_release_that_requires_the_recipes_pydantic_core() -> None:
    for pure, compiled in PINNED_TOGETHER.items():
        wanted = [
            Requirement(r) for r in metadata.requires(pure) or [] if canonicalize_name(Requirement(r).name) == compiled
        ]
        assert len(wanted) == 1 and str(wanted[0].specifier) == f"=={_recipe(compiled)['version']}", (
            f"{pure} {metadata.version(pure)} requires {[str(r) for r in wanted]}, "
            f"Flet's mobile index serves {compiled} {_recipe(compiled)['version']}"
        )


def test_the_suite_runs_with_exactly_the_pinned_versions() -> None:
    pins = _constraints()
    installed = {name: metadata.version(name) for name in _phone_libraries()}
    assert installed == {name: pins[name] for name in installed}


@pytest.mark.parametrize("section", ["android", "ios"])
def test_the_phone_builds_pin_the_same_versions(section: str) -> None:
    pins = {
        canonicalize_name(Requirement(r).name): Requirement(r)
        for r in PYPROJECT["tool"]["flet"][section].get("dependencies", [])
    }
    assert {name: str(r.specifier) for name, r in pins.items()} == {
        name: f"=={version}" for name, version in _phone_libraries().items()
    }


def test_the_recipe_copies_are_verbatim() -> None:
    notes = (FIXTURES / "README.md").read_text(encoding="utf-8")
    copies = sorted(FORGE.glob("recipes/*/meta.yaml"))
    assert copies
    for path in copies:
        relative = path.relative_to(FORGE).as_posix()
        blob = re.search(rf"`{re.escape(relative)}` \(blob `([0-9a-f]{{40}})`\)", notes)
        assert blob, f"tests/fixtures/flet/README.md gives no blob id for {relative}"
        assert git_blob_id(path.read_bytes()) == blob.group(1), f"{relative} is not the file its notes name"


flet_cli = pytest.importorskip("flet_cli", reason="flet-cli is a dev dependency: run make test")


@pytest.mark.parametrize("target", ["apk", "ipa"])
def test_flet_build_asks_pip_for_exactly_those_versions(
    target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The requirements flet-cli's packaging step hands to serious_python (its ``-r`` arguments), taken from the
    command it would run, allow one version of each library: the pinned one."""
    from flet_cli import cli
    from flet_cli.commands import flutter_base
    from flet_cli.commands.build_base import BaseBuildCommand
    from flet_cli.utils import python_versions

    def initialize_without_sdk(self: Any) -> None:
        self.emojis = {"checkmark": "", "loading": "", "success": "", "directory": ""}
        self.skip_flutter_doctor = True
        self.dart_exe = "dart"

    monkeypatch.setattr(flutter_base.BaseFlutterCommand, "initialize_command", initialize_without_sdk)
    monkeypatch.setenv(python_versions.MANIFEST_PATH_ENV, str(FIXTURES / "python-build-manifest-20260730.json"))
    python_versions._load_data.cache_clear()
    app = copy_repository(tmp_path / "app")
    args = cli.get_parser().parse_args(["build", target, str(app), "--python-version", "3.12"])
    command = args.handler.__self__
    BaseBuildCommand.handle(command, args)
    ran: list[list[str]] = []

    def run(package_args: list[str], cwd: str, env: Any = None, capture_output: bool = True) -> Any:
        ran.append([str(a) for a in package_args])
        (command.build_dir / "python-app").mkdir(parents=True, exist_ok=True)
        return type("Done", (), {"returncode": 0, "stdout": "", "stderr": ""})()

    command.live = command.status = type("Quiet", (), {"update": lambda *_, **__: None})()
    command.run = run
    try:
        command.initialize_command()
        command.validate_entry_point()
        command.setup_template_data()
        command.package_python_app()
    finally:
        python_versions._load_data.cache_clear()
    assert len(ran) == 1 and "serious_python:main" in ran[0]
    requirements = [Requirement(ran[0][i + 1]) for i, arg in enumerate(ran[0]) if arg == "-r"]
    for name, version in _phone_libraries().items():
        specifier = SpecifierSet(prereleases=True)
        for requirement in requirements:
            if canonicalize_name(requirement.name) == name:
                specifier &= requirement.specifier
        assert f"=={version}" in {str(s) for s in specifier}, f"{target}: {name} {specifier}"
        assert specifier.contains(Version(version), prereleases=True), f"{target}: {name} {specifier}"
