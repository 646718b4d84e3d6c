# Two commands: `make run` (the app only) and `make test` (the app, the dev tools, every check).
# Both create .venv on first use and install with constraints.txt (every package at its tested version). A stamp
# file per install makes a second run start at once; it is redone when pyproject.toml or constraints.txt change.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
APP_STAMP := $(VENV)/.app-installed
DEV_STAMP := $(VENV)/.dev-installed
PIP    := $(BIN)/python -m pip install --quiet --constraint constraints.txt
# The oldest Python the app supports (requires-python, mypy's python_version, ruff's target-version): .venv is made
# with PYTHON, and under CI=true it must be this one.
OLDEST_PYTHON := 3.11
# `make package PLATFORM=apk` (or aab, ipa, linux, macos, windows, web) bundles BUILD_PYTHON: flet build takes its
# Python from python-build, which ships 3.12, 3.13 and 3.14, never 3.11 (README, "Packaging").
PLATFORM ?= apk
BUILD_PYTHON := 3.12
# `make test` runs the suite a second time under BUILD_PYTHON, in its own PACKAGE_VENV, when it finds that Python:
# python3.12 on PATH, else pyenv's newest 3.12.x (PACKAGE_PYTHON=/path/to/python3.12 names one). Without it the
# second run is skipped with a message, except under CI=true, where that is an error.
PACKAGE_VENV := $(VENV)-$(BUILD_PYTHON)
PACKAGE_PYTHON ?= $(shell for p in python$(BUILD_PYTHON) $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/$(BUILD_PYTHON).*/bin/python$(BUILD_PYTHON) 2>/dev/null | sort -V -r); do "$$p" -c 'import sys; sys.exit("%d.%d" % sys.version_info[:2] != "$(BUILD_PYTHON)")' 2>/dev/null && { command -v "$$p"; break; }; done)
PACKAGE_STAMP := $(PACKAGE_VENV)/.dev-installed
# Inline in test-package-python's recipe (no nested make there: `make -n test` must only print it).
PACKAGE_INSTALL = echo "make test: installing $(PACKAGE_VENV) with $(PACKAGE_PYTHON)" && $(PACKAGE_PYTHON) -m venv $(PACKAGE_VENV) && \
  $(PACKAGE_VENV)/bin/python -m pip install --quiet --constraint constraints.txt --upgrade pip && \
  $(PACKAGE_VENV)/bin/python -m pip install --quiet --constraint constraints.txt -e '.[web,dev]' && touch $(PACKAGE_STAMP)
# pytest-xdist: the suite on PYTEST_WORKERS processes (0: one, as plain pytest). --dist loadfile as tests/conftest.py
# extends it: each file's tests on one worker, but each browser test a unit of its own; the browser tests first (the
# longest), on two workers at once, each with its own Chromium (CTC_BROWSER_WORKERS=1: on one worker, the other files
# on the other), then the other files on all.
PYTEST_WORKERS ?= 2
PYTEST_XDIST = -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
# Before each run, the project's modules are compiled to bytecode once (__pycache__/, ignored by git), as an installed
# or packaged app has them. Where PYTHONDONTWRITEBYTECODE is set (it is on the machines this was measured on), each
# of the suite's hundreds of starts of the app (a browser test's server, a command) would otherwise compile them
# again: 2.1-2.5 s of CPU to import every module instead of 1.3-1.4 (README, "Packaging").
PROJECT_DIRS := app companion scoring storage views bench tests
COMPILE_ALL = -m compileall -q -j 0 $(PROJECT_DIRS)
SAY_PYTHON := -c 'import platform, sys; print(f"Python {platform.python_version()} ({sys.executable})")'

.PHONY: run test test-package-python package-venv lint bench screenshots package constraints catalogues clean

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) || { echo "make: could not create $(VENV): install Python >= 3.11 and its venv module (Debian/Ubuntu: apt install python3-venv)" >&2; exit 1; }

$(APP_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) --upgrade pip
	$(PIP) -e '.[web]'
	@touch $@

$(DEV_STAMP): $(APP_STAMP)
	$(PIP) -e '.[web,dev]'
	@touch $@

run: $(APP_STAMP)
	$(BIN)/companion $(ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	@echo "make test: the suite under $$($(BIN)/python $(SAY_PYTHON))"
	@if [ "$(CI)" = true ] && [ "$$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != "$(OLDEST_PYTHON)" ]; then \
	  echo "make test: CI=true runs the suite under the oldest supported Python, $(OLDEST_PYTHON); $(VENV) has another (remove it; PYTHON=python$(OLDEST_PYTHON))" >&2; exit 1; fi
	$(BIN)/python $(COMPILE_ALL)
	$(BIN)/python -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)
	@$(MAKE) --no-print-directory test-package-python

# The suite again under the Python the package bundles (BUILD_PYTHON), in PACKAGE_VENV.
test-package-python: $(DEV_STAMP)
	@if [ "$$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$(BUILD_PYTHON)" ]; then \
	  echo "make test: $(VENV) is Python $(BUILD_PYTHON), the one the package bundles: no second run"; \
	elif [ -z "$(PACKAGE_PYTHON)" ]; then \
	  if [ "$(CI)" = true ]; then \
	    echo "make test: CI=true runs the suite under Python $(BUILD_PYTHON) too, and none was found (python$(BUILD_PYTHON) on PATH or under pyenv's versions/): install it or pass PACKAGE_PYTHON=/path/to/python$(BUILD_PYTHON)" >&2; exit 1; \
	  fi; \
	  echo "make test: no Python $(BUILD_PYTHON) here (the one the package bundles): the suite ran under $$($(BIN)/python $(SAY_PYTHON)) only. PACKAGE_PYTHON=/path/to/python$(BUILD_PYTHON) runs it there too"; \
	else \
	  if [ ! -f $(PACKAGE_STAMP) ] || [ pyproject.toml -nt $(PACKAGE_STAMP) ] || [ constraints.txt -nt $(PACKAGE_STAMP) ]; then \
	    $(PACKAGE_INSTALL); \
	  fi && \
	  echo "make test: the suite again under $$($(PACKAGE_VENV)/bin/python $(SAY_PYTHON))" && \
	  $(PACKAGE_VENV)/bin/python $(COMPILE_ALL) && \
	  $(PACKAGE_VENV)/bin/python -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS); \
	fi

# PACKAGE_VENV alone, installed as test-package-python installs it when it is missing or older than pyproject.toml or
# constraints.txt (nothing without PACKAGE_PYTHON): .ci/run makes it while the lint runs, before `make test`.
package-venv:
	@if [ -n "$(PACKAGE_PYTHON)" ] && { [ ! -f $(PACKAGE_STAMP) ] || [ pyproject.toml -nt $(PACKAGE_STAMP) ] || [ constraints.txt -nt $(PACKAGE_STAMP) ]; }; then \
	  $(PACKAGE_INSTALL); \
	fi

# The README's screenshots (docs/screenshots/) are rewritten only here, never by `make test`.
screenshots: $(DEV_STAMP)
	CTC_SCREENSHOTS=1 $(BIN)/python -m pytest -m browser tests/browser $(PYTEST_ARGS)

bench: $(DEV_STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Needs the Flutter SDK and, for apk/aab, the Android SDK: flet-cli offers to download them on first use.
package: $(DEV_STAMP)
	$(BIN)/flet build $(PLATFORM) --python-version $(BUILD_PYTHON) $(FLET_ARGS)

# The translations (README, "Languages"): extract the messages into companion/locales/messages.pot, merge them
# into every language's .po, make the en-XA pseudo-language, compile every .po to the .mo the package ships.
LOCALES := companion/locales
BABEL   := $(BIN)/python -m babel.messages.frontend
catalogues: $(DEV_STAMP)
	$(BABEL) extract -F babel.cfg --no-location --sort-output --width 120 --project "Card Table Companion" \
	  --copyright-holder "Card Table Companion" -o $(LOCALES)/messages.pot .
	$(BABEL) update -i $(LOCALES)/messages.pot -d $(LOCALES) --no-fuzzy-matching --ignore-obsolete --width 120
	$(BIN)/python -m tools.pseudo $(LOCALES)
	$(BABEL) compile -d $(LOCALES) --statistics

# After a deliberate upgrade in .venv: write the versions installed now as the tested ones.
constraints: $(DEV_STAMP)
	@{ grep '^#' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^#'; } > constraints.txt.new
	@grep -q '^flet-desktop==' constraints.txt.new || grep '^flet-desktop==' constraints.txt >> constraints.txt.new
	@mv constraints.txt.new constraints.txt
	@echo "wrote constraints.txt"

clean:
	rm -rf $(VENV) $(PACKAGE_VENV) .pytest_cache .mypy_cache .ruff_cache test-output build
	find $(PROJECT_DIRS) -name __pycache__ -prune -exec rm -rf {} +
