# mushka: `make run` sets up and runs the main job; `make test` sets up and runs every check.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test lint typecheck layers unit bench clean core

# `pip install -e .` compiles the rules core with mypyc when a C compiler is present
# (docs/build.md); MUSHKA_PURE=1 forces the pure-Python build.
# On a compiled build the suites run on it, and the engine, bots and property suites once
# more on the pure one.
EXPECT_BUILD = $(shell $(PYTHON) -c "import shutil, sysconfig; cc = (sysconfig.get_config_var('CC') or 'cc').split(); print('compiled' if cc and shutil.which(cc[0]) and '$(MUSHKA_PURE)'.strip() in ('', '0') else 'pure')")
PURE_SUITES = tests/unit tests/rules tests/golden tests/bots tests/property

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

# Rebuilds the compiled core when one of its sources changed since the last build.
core: $(VENV)/.installed-run
	@$(BIN)/python -c "import sys, mushka._build as b; sys.exit(b.needs_rebuild())" || $(PIP) install --quiet --no-deps -e .

run: $(VENV)/.installed-run core
	$(BIN)/mushka serve --host $(HOST) --port $(PORT) $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))

# The browser tests run in a process of their own: Playwright's sync API keeps
# an asyncio loop running for the whole session, and the terminal app's tests
# start loops of their own with asyncio.run.
test: $(VENV)/.installed-test core
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/lint-imports
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-services.sh
	MUSHKA_EXPECT_BUILD=$(EXPECT_BUILD) $(BIN)/pytest -n auto --dist loadgroup -m "not e2e"
	if [ "$(EXPECT_BUILD)" = compiled ]; then MUSHKA_PURE=1 MUSHKA_EXPECT_BUILD=pure $(BIN)/pytest -n auto --dist loadgroup -m "not e2e" $(PURE_SUITES); fi
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
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build src/*.egg-info src/*.so src/mushka/_build_stamp.json
	find src -name '*.so' -delete
