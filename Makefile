# Two commands: `make run` (the app only) and `make test` (the app, the dev tools, every check).
# Both create .venv on first use and install with constraints.txt (every package at its tested version). A stamp
# file per install makes a second run start at once; it is redone when pyproject.toml or constraints.txt change.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
APP_STAMP := $(VENV)/.app-installed
DEV_STAMP := $(VENV)/.dev-installed
PIP    := $(BIN)/python -m pip install --quiet --constraint constraints.txt
# `make package PLATFORM=apk` (or aab, ipa, linux, macos, windows, web): the Python the build bundles is the one
# CI tests, whatever the newest supported version is.
PLATFORM ?= apk
BUILD_PYTHON := 3.11

.PHONY: run test lint bench screenshots package constraints clean

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
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The README's screenshots (docs/screenshots/) are rewritten only here, never by `make test`.
screenshots: $(DEV_STAMP)
	CTC_SCREENSHOTS=1 $(BIN)/python -m pytest -m browser tests/browser $(PYTEST_ARGS)

bench: $(DEV_STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Needs the Flutter SDK and, for apk/aab, the Android SDK: flet-cli offers to download them on first use.
package: $(DEV_STAMP)
	$(BIN)/flet build $(PLATFORM) --python-version $(BUILD_PYTHON) $(FLET_ARGS)

# After a deliberate upgrade in .venv: write the versions installed now as the tested ones.
constraints: $(DEV_STAMP)
	@{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^#'; } > constraints.txt.new
	@grep -q '^flet-desktop==' constraints.txt.new || grep '^flet-desktop==' constraints.txt >> constraints.txt.new
	@mv constraints.txt.new constraints.txt
	@echo "wrote constraints.txt"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-output build
