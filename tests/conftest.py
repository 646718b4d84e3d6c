"""Shared fixtures and paths for the test suite.

The conformance cases live in the repository, under ``tests/cases/<game>/*.json``, so a clone tests itself. A
folder of extra cases may sit beside the project (``../shared/cases``, or the folder named by the environment
variable ``CTC_SHARED``): its files are *added* to the repository's, by file name; a file the repository already has
is never replaced by the outside copy.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from companion.services import AppServices
from storage import Archive

_T = TypeVar("_T")

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"
"""The repository's own conformance cases (the ones every clone runs)."""
SHARED = Path(os.environ.get("CTC_SHARED") or ROOT.parent / "shared")
"""An optional folder beside the project with more cases (``SHARED/cases``) and the rules it was written from."""
SHARED_CASES = SHARED / "cases"
RULES = SHARED / "rules"
"""The rules files beside the project, when there are any (the repository's own copy: :data:`SPEC`)."""
SPEC = ROOT / "docs" / "spec"
"""The rules files of the five games as the repository keeps them: the numbered rules and rulings (``BB-7``) that
the scoring code cites."""
FIXTURES = ROOT / "tests" / "fixtures"
"""Dated copies of outside things (a backup zipped by another tool, Flet's build manifest) and stored records."""


@pytest.fixture(scope="session", autouse=True)
def temporary_files_in_pytests_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What the tests' code makes with :mod:`tempfile` (the modules' doctests make their data folders with
    ``tempfile.mkdtemp()`` and leave them) goes under pytest's own temporary folder, which pytest prunes after a few
    runs, not into the system's, where nothing would remove it."""
    before = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("tempfile"))
    try:
        yield
    finally:
        tempfile.tempdir = before


def case_files(own: Path = CASES, extra: Path = SHARED_CASES) -> list[Path]:
    """Every conformance case: the repository's, plus each file of ``extra`` whose ``<game>/<name>`` it lacks.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     own, extra = Path(tmp, "own"), Path(tmp, "extra")
    ...     for path in (own / "g" / "01.json", extra / "g" / "01.json", extra / "g" / "02.json"):
    ...         path.parent.mkdir(parents=True, exist_ok=True)
    ...         _ = path.write_text("{}")
    ...     [str(p.relative_to(tmp)) for p in case_files(own, extra)]
    ['own/g/01.json', 'extra/g/02.json']
    """
    files = {path.relative_to(own).as_posix(): path for path in own.glob("*/*.json")}
    if extra.is_dir() and extra.resolve() != own.resolve():
        for path in extra.glob("*/*.json"):
            files.setdefault(path.relative_to(extra).as_posix(), path)
    return [files[name] for name in sorted(files)]


def run_async(coro: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coro)`` on a thread of its own: once a browser test has run, Playwright's sync API keeps an
    event loop running on the main thread, where ``asyncio.run`` refuses to start another.

    >>> async def two() -> int:
    ...     return 2
    >>> run_async(two())
    2
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[Archive]:
    """An empty archive in a data folder of this test's own (``tmp_path / "data"``), closed after the test."""
    with Archive(tmp_path / "data") as opened:
        yield opened


@pytest.fixture
def services(tmp_path: Path) -> Iterator[AppServices]:
    """The app's services (settings, archive, sessions, players, nights...) over an empty data folder of this test's
    own (``tmp_path / "data"``), as the app opens them at start, closed after the test. A test that needs an archive
    as well asks for ``services.archive``: the two fixtures would open the same folder."""
    with AppServices.open(tmp_path / "data") as opened:
        yield opened


@pytest.fixture
def quick_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """What follows a tap's reply on the table screen is sent :data:`tests.support.events.REPLY_S` after it, not
    :data:`views.table.entry.AFTER_REPLY_S` (a view test that waits for it: :data:`tests.support.events.LATER`)."""
    from tests.support.events import REPLY_S

    monkeypatch.setattr("views.table.entry.AFTER_REPLY_S", REPLY_S)


BROWSER_TESTS = "tests/browser/"
"""Where the browser tests are: under pytest-xdist at most :func:`browser_workers` workers run them
(:func:`pytest_xdist_make_scheduler`)."""
BROWSER_WORKERS_ENV = "CTC_BROWSER_WORKERS"


def browser_workers() -> int:
    """How many pytest-xdist workers may run browser files, each with its own Chromium (``CTC_BROWSER_WORKERS``,
    default 2; 1: one Chromium at a time). Measured with ``-m browser -n 2`` on two cores shared with other work
    (2026-12-03): 18.2 minutes on one worker (load average 4.2 over the run), 10.8 and 12.4 on two (load 5.0 and
    5.4), no test rerun. Each test takes about a sixth longer beside another Chromium; in the 12.4-minute run, at a
    load of 10.9, the watchdog ended one test's Chromium after 180 s (its checks had passed). The whole suite
    (``-n 2``, lint aside) then took 14.6 minutes (load 5.1), with one browser test rerun once (a 15 s page wait)."""
    return max(1, int(os.environ.get(BROWSER_WORKERS_ENV, "") or 2))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (``make test`` runs it) with the browser tests first: each other file's tests run
    together on one worker (its module fixtures, a copied clone or a served app, are set up once); each browser test
    is a unit of its own. The first :func:`browser_workers` workers (both of ``-n 2``, by default) take the browser
    tests (the longest), one at a time in file order, then the other files; the remaining workers take only the
    other files, so no more Chromiums than that ever run at once.
    Any other ``--dist`` is pytest-xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    cap = browser_workers()

    class BrowserFilesFirst(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            # a browser test sets up all it needs for itself (its own app server, data folder and page: no
            # module-scoped fixture there), so each is a unit: the ten phone-size games go to both workers
            return nodeid if path.startswith(BROWSER_TESTS) else path

        def _assign_work_unit(self, node: Any) -> None:
            may_browse = list(self.nodes).index(node) < cap
            scopes = [scope for scope in self.workqueue if scope.startswith(BROWSER_TESTS) == may_browse]
            if not may_browse or scopes:
                if not scopes:  # only browser files are left: not for this worker
                    node.shutdown()
                    return
                self.workqueue.move_to_end(scopes[0], last=False)
            super()._assign_work_unit(node)

    return BrowserFilesFirst(config, log)


_RERUN_REASONS: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keep why a browser test was rerun (pytest-rerunfailures reports the rerun, not its error). Here, not in
    ``tests/browser/conftest.py``: under pytest-xdist the reports come back to the main process, which loads only this
    conftest."""
    if report.outcome == "rerun":
        text = str(report.longrepr or "")
        where = [line.split(": ")[0] for line in text.splitlines() if line.startswith("tests/")]
        error = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
        _RERUN_REASONS.append((report.nodeid, " | ".join(where[-2:] + error[:2]) or text[-300:]))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _RERUN_REASONS:
        terminalreporter.section("why browser tests were rerun")
        for nodeid, reason in _RERUN_REASONS:
            terminalreporter.write_line(f"{nodeid}: {reason[:600]}")
