# mushka: `make run` sets up and runs the main job; `make test` sets up and runs every check.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test lint typecheck layers unit bench clean

$(VENV)/.installed-run: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

# `make run PORT=8001 HOST=0.0.0.0` passes them on (friends on the network: see the README).
PORT ?= 8000
HOST ?= 127.0.0.1

run: $(VENV)/.installed-run
	$(BIN)/mushka serve --host $(HOST) --port $(PORT) $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))

# The browser tests run in a process of their own: Playwright's sync API keeps
# an asyncio loop running for the whole session, and the terminal app's tests
# start loops of their own with asyncio.run.
test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/lint-imports
	bash scripts/ensure-chromium.sh
	$(BIN)/pytest -n auto --dist loadgroup -m "not e2e"
	$(BIN)/pytest -m e2e

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench scripts

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

layers: $(VENV)/.installed-test
	$(BIN)/lint-imports

unit: $(VENV)/.installed-test
	$(BIN)/pytest -n auto -m "not slow and not e2e"

bench: $(VENV)/.installed-test
	$(BIN)/mushka bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build src/*.egg-info
