"""``flet build`` gets past every check that needs no SDK: flet-cli's own code, run on a copy of the repository.

A real ``flet build`` first installs the Flutter SDK (and for Android a JDK and the Android SDK), which needs the
network; only that one step is replaced here (``BaseFlutterCommand.initialize_command``, the SDK look-up). Then
flet-cli's own steps run unchanged: its set-up of the build (paths, ``pyproject.toml``, the Python to bundle), the
host check, the entry-point check (``validate_entry_point``) and the template data it reads from ``[tool.flet]``;
then the icons and splash are rendered by ``flet_platform_assets``, the library ``flet build`` calls, from the same
files it would pick, and the app package's contents are worked out with flet-cli's own exclusion rules.

The Python versions flet-cli may bundle come from a manifest it downloads (python-build's ``manifest.json``, of the
release that ``PYTHON_BUILD_RELEASE_DATE`` names); the tests give it the dated copy of the real one kept in
``tests/fixtures/flet/`` instead (``FLET_PYTHON_BUILD_MANIFEST``, flet-cli's own switch for that; its source, commit
and date are in that folder's README).
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import platform
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.support.fixtures_git import git_blob_id
from tests.support.repo_copy import copy_repository

flet_cli = pytest.importorskip("flet_cli", reason="flet-cli is a dev dependency: run make test")

from flet_cli import cli  # noqa: E402
from flet_cli.commands import flutter_base  # noqa: E402
from flet_cli.commands.build_base import ICON_PLATFORMS, SPLASH_PLATFORMS, BaseBuildCommand  # noqa: E402
from flet_cli.utils import python_versions  # noqa: E402
from flet_cli.utils.app_excludes import find_default_excludes  # noqa: E402
from flet_platform_assets import IconOptions, SplashOptions, load_source, render_icons, render_splash  # noqa: E402

TARGETS = ["apk", "aab", "ipa", "linux", "macos", "windows", "web"]
HOST = {"Linux": "Linux", "Darwin": "Darwin", "Windows": "Windows"}.get(platform.system(), platform.system())
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FIXTURES = ROOT / "tests" / "fixtures" / "flet"
MANIFEST = FIXTURES / "python-build-manifest-20260730.json"
"""python-build's real ``manifest.json`` (tag 20260730), copied byte for byte: ``tests/fixtures/flet/README.md``."""


def _make_variable(name: str) -> str:
    """A ``NAME := value`` of the Makefile."""
    match = re.search(rf"^{name}\s*:?=\s*(\S+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert match, f"the Makefile names no {name}"
    return match.group(1)


def _build_python() -> str:
    """The Python ``make package`` bundles (``BUILD_PYTHON`` in the Makefile)."""
    return _make_variable("BUILD_PYTHON")


class _Live:
    """What flet-cli's ``cleanup`` writes to (its rich live display): the messages, kept for the assertion."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def update(self, renderable: Any = "", **_: Any) -> None:
        self.messages.append(str(getattr(renderable, "renderable", renderable)))


@pytest.fixture(scope="module")
def app_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files in a temporary folder (flet-cli writes ``build/`` into the app folder)."""
    return copy_repository(tmp_path_factory.mktemp("flet-build") / "card-table-companion")


@pytest.fixture
def no_sdk(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No Flutter SDK look-up, and flet-cli's Python manifest from the dated copy instead of the network."""

    def initialize_without_sdk(self: Any) -> None:
        self.emojis = {"checkmark": "", "loading": "", "success": "", "directory": ""}
        self.skip_flutter_doctor = True

    monkeypatch.setattr(flutter_base.BaseFlutterCommand, "initialize_command", initialize_without_sdk)
    monkeypatch.setenv(python_versions.MANIFEST_PATH_ENV, str(MANIFEST))
    python_versions._load_data.cache_clear()
    yield
    python_versions._load_data.cache_clear()


def _command(target: str, app: Path, *extra: str) -> Any:
    """flet-cli's ``flet build TARGET APP ...`` command object, set up as ``flet build`` sets it up."""
    args = cli.get_parser().parse_args(["build", target, str(app), *extra])
    command = args.handler.__self__
    BaseBuildCommand.handle(command, args)
    command.live = _Live()
    return command


def _checked(app: Path, target: str, *extra: str) -> Any:
    """Every check of ``flet build TARGET`` before the Flutter project is made; fails with flet-cli's message."""
    command = _command(target, app, "--python-version", _build_python(), *extra)
    try:
        command.initialize_command()
        if HOST in command.platforms[target]["can_be_run_on"]:
            command.validate_target_platform()
        command.validate_entry_point()
        command.setup_template_data()
    except SystemExit as exit_:
        pytest.fail(f"flet build {target} stops: {command.live.messages} (exit {exit_.code})")
    return command


@pytest.mark.usefixtures("no_sdk")
@pytest.mark.parametrize("target", TARGETS)
def test_flet_build_passes_its_checks_for_every_target(app_copy: Path, target: str) -> None:
    command = _checked(app_copy, target)
    assert command.python_module_filename == "main.py" and command.package_app_path == app_copy
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))["pythons"]
    assert command.python_release.short == _build_python()
    assert command.python_release.standalone == manifest[_build_python()]["full_version"]
    data = command.template_data
    assert data["product_name"] == "Card Table Companion" and data["org_name"] == "org.cardtablecompanion"
    assert data["python_module_name"] == "main" and data["options"]["python_version"] == _build_python()
    assert data["splash"]["color"] == "#116B3A"
    if target in ("apk", "aab"):
        assert data["adaptive_icon_background"] == "#116B3A"
    if target == "web":
        assert data["pwa_short_name"] == "Card Table" and data["pwa_theme_color"] == "#116B3A"


@pytest.mark.usefixtures("no_sdk")
def test_a_broken_entry_point_fails_with_flet_clis_message(app_copy: Path, tmp_path: Path) -> None:
    """What this test guards: the entry ``companion.app`` that flet-cli 1.0.5 reads as ``companion.py``."""
    broken = copy_repository(tmp_path / "broken")
    pyproject = broken / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('module = "main"', 'module = "companion.app"'))
    command = _command("apk", broken, "--python-version", _build_python())
    command.initialize_command()
    with pytest.raises(SystemExit) as exit_:
        command.validate_entry_point()
    assert exit_.value.code == 1
    assert "companion.py not found in the root of Flet app directory" in " ".join(command.live.messages)


def test_the_package_python_is_one_python_build_ships() -> None:
    """The dated copy of python-build's manifest lists the Python ``make package`` bundles, as a stable release."""
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    assert _build_python() in manifest["pythons"], (
        f"make package bundles Python {_build_python()}, which python-build does not ship: "
        f"it ships {sorted(manifest['pythons'])} ({MANIFEST.name})"
    )
    assert not manifest["pythons"][_build_python()].get("prerelease", False)


@pytest.mark.usefixtures("no_sdk")
def test_flet_build_refuses_a_python_that_python_build_does_not_ship(app_copy: Path) -> None:
    """What ``make package`` passed before, 3.11: flet-cli stops at once with its own message."""
    command = _command("apk", app_copy, "--python-version", "3.11")
    with pytest.raises(SystemExit) as exit_:
        command.initialize_command()
    assert exit_.value.code == 1
    assert "Unsupported Python version: '3.11'. Supported: 3.12, 3.13, 3.14." in " ".join(command.live.messages)


@pytest.mark.usefixtures("no_sdk")
def test_the_pythons_named_in_the_project_agree(app_copy: Path) -> None:
    """requires-python, mypy and ruff name the oldest Python supported (the Makefile's ``OLDEST_PYTHON``, which CI
    runs the suite under); ``make package`` bundles ``BUILD_PYTHON``, which requires-python allows and which CI runs
    the suite under too. Without ``--python-version`` flet-cli would bundle the newest that requires-python allows."""
    oldest, bundled = _make_variable("OLDEST_PYTHON"), _build_python()
    assert PYPROJECT["project"]["requires-python"] == f">={oldest}"
    assert PYPROJECT["tool"]["mypy"]["python_version"] == oldest
    assert PYPROJECT["tool"]["ruff"]["target-version"] == "py" + oldest.replace(".", "")
    assert tuple(map(int, bundled.split("."))) >= tuple(map(int, oldest.split(".")))
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "flet build $(PLATFORM) --python-version $(BUILD_PYTHON)" in make
    assert re.search(r"^PACKAGE_VENV\s*:=\s*\$\(VENV\)-\$\(BUILD_PYTHON\)$", make, re.M)
    unpinned = _command("apk", app_copy)
    unpinned.initialize_command()
    assert unpinned.python_release.short == "3.14" != bundled


def test_the_manifest_copy_is_verbatim_and_flet_clis_pin_is_recorded() -> None:
    """The copy is python-build's file byte for byte (its git blob id), and the README beside it names the release
    the installed flet-cli pins: a flet-cli that pins another one fails here until the copy is looked at again."""
    notes = (FIXTURES / "README.md").read_text(encoding="utf-8")
    blob = re.search(rf"`{re.escape(MANIFEST.name)}`.*?blob\s+`([0-9a-f]{{40}})`", notes, re.S)
    assert blob, f"tests/fixtures/flet/README.md gives no blob id for {MANIFEST.name}"
    assert git_blob_id(MANIFEST.read_bytes()) == blob.group(1)
    assert f"pins python-build release `{python_versions.PYTHON_BUILD_RELEASE_DATE}`" in notes, (
        f"flet-cli now pins python-build release {python_versions.PYTHON_BUILD_RELEASE_DATE}: "
        "compare its manifest.json with the copy (tests/fixtures/flet/README.md)"
    )


def test_the_package_leaves_out_tests_bench_docs_and_caches(app_copy: Path) -> None:
    """The app package's top-level entries, by flet-cli's rules: ``[tool.flet.app] exclude`` plus its defaults."""
    (app_copy / ".venv").mkdir(exist_ok=True)
    (app_copy / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (app_copy / "companion" / "__pycache__").mkdir(exist_ok=True)
    explicit = ["build", *PYPROJECT["tool"]["flet"]["app"]["exclude"]]
    excluded = set(explicit) | set(find_default_excludes(app_copy, [], explicit))
    packaged = {entry.name for entry in app_copy.iterdir()} - excluded
    assert {"tests", "bench", "docs", "tools", ".venv", ".git", ".ci", ".gitignore", "Makefile"} & packaged == set()
    assert os.path.join("companion", "__pycache__") in excluded
    assert {"main.py", "pyproject.toml", "assets", "companion", "scoring", "storage", "views"} <= packaged
    assert packaged <= {
        "main.py",
        "pyproject.toml",
        "LICENSE",
        "assets",
        "app",
        "companion",
        "scoring",
        "storage",
        "views",
    }


def test_main_py_starts_the_same_app_as_the_companion_command() -> None:
    """``main.py`` calls the function that ``[project.scripts] companion`` names, only when run as a script."""
    tree = ast.parse((ROOT / "main.py").read_text(encoding="utf-8"))
    imports = {
        alias.asname or alias.name: f"{node.module}:{alias.name}"
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    guarded = [node for node in tree.body if isinstance(node, ast.If)]
    assert len(guarded) == 1 and ast.unparse(guarded[0].test) == "__name__ == '__main__'"
    called = [n.func.id for n in ast.walk(guarded[0]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    assert called and imports[called[0]] == PYPROJECT["project"]["scripts"]["companion"], (
        f"main.py runs {imports.get(called[0])}, the companion command {PYPROJECT['project']['scripts']['companion']}"
    )
    module_name = imports[called[0]].split(":")[0]
    module = importlib.import_module(module_name)
    assert callable(getattr(module, imports[called[0]].split(":")[1]))


@pytest.mark.usefixtures("no_sdk")
@pytest.mark.parametrize("target", sorted(ICON_PLATFORMS))
def test_the_icons_render_for_every_platform_without_a_warning(app_copy: Path, target: str) -> None:
    """The icon ``flet build`` would pick (``assets/icon.png``, framed per platform), rendered as it renders it."""
    command = _checked(app_copy, target)
    assets = app_copy / "assets"
    command.assets_path = assets
    name = command.find_platform_image(assets, f"icon_{ICON_PLATFORMS[target]}", _NoHash())
    assert name is None, "a platform icon would replace the generic one"
    assert command.find_platform_image(assets, "icon", _NoHash()) == "icon.png"
    source, pre_rendered = load_source(assets / "icon.png")
    assert source.size == (1024, 1024)
    options = IconOptions(
        background=command._resolve_icon_background(),
        macos_style=command.get_pyproject("tool.flet.macos.icon_style") or "auto",
        application_id="org.cardtablecompanion.app",
    )
    result = render_icons(source, options, platform=ICON_PLATFORMS[target], pre_rendered=pre_rendered, derived=True)
    assert result.warnings == []
    assert result.assets or result.ico
    if ICON_PLATFORMS[target] == "android":
        assert any(a.relative_path.endswith("ic_launcher_foreground.png") for a in result.assets)


@pytest.mark.usefixtures("no_sdk")
@pytest.mark.parametrize("target", sorted(SPLASH_PLATFORMS))
def test_the_splash_renders_without_a_warning(app_copy: Path, target: str) -> None:
    command = _checked(app_copy, target)
    assets = app_copy / "assets"
    splash = command.template_data["splash"]
    for light, dark in (("splash", "splash_dark"),):
        assert command.find_platform_image(assets, light, _NoHash()) == f"{light}.png"
        assert command.find_platform_image(assets, dark, _NoHash()) == f"{dark}.png"
    light_image, _ = load_source(assets / "splash.png")
    dark_image, _ = load_source(assets / "splash_dark.png")
    options = SplashOptions(color=splash["color"], dark_color=splash["dark_color"])
    result = render_splash(light_image, dark_image, options, platform=SPLASH_PLATFORMS[target])
    assert result.warnings == [] and result.assets


class _NoHash:
    """flet-cli's change-detection stamp, which the image look-up feeds and nothing here needs."""

    def update(self, *_: Any) -> None:
        pass
