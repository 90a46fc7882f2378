# Two commands on a fresh machine: `make run` (install + start the bot), `make test` (install + all checks).
PYTHON ?= python3
# Some shells set PYTHONDONTWRITEBYTECODE; without bytecode caches every test worker and every bot
# process the tests start compiles the project and re-rewrites the tests' asserts (~5 s a worker).
unexport PYTHONDONTWRITEBYTECODE
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: run test check lint typecheck pytest bench clean catalogues

# pytest-xdist: two workers per core (at most 8): a third of the suite's wall time is tests waiting
# on real clocks (the bot as a subprocess), which the other workers' CPU-bound tests fill.
# `--maxschedchunk 1` hands out one test at a time, longest first (tests/conftest.py), so the long
# ones spread over the workers instead of queueing on the first (docs/TESTING.md).
PYTEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); n=$$((n * 2)); [ $$n -gt 8 ] && n=8; echo $$n)
XDIST = -n $(PYTEST_WORKERS) --maxschedchunk 1

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	$(BIN)/python -m bot

# Everything CI runs (.ci/run): lint, strict types, every test in parallel with coverage.
test: lint typecheck
	$(BIN)/pytest -q $(XDIST) --cov --cov-report=term:skip-covered

# A quick subset while working: lint, types, and the tests not marked slow, without coverage.
check: lint typecheck
	$(BIN)/pytest -q $(XDIST) -m "not slow"

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy --strict engine data cogs bot benchmarks

# Every test, in parallel, without coverage; extra arguments with ARGS="...".
pytest: $(VENV)/.test-installed
	$(BIN)/pytest -q $(XDIST) $(ARGS)

bench: $(VENV)/.test-installed
	$(BIN)/python -m benchmarks.engine
	$(BIN)/python -m benchmarks.store
	$(BIN)/python -m benchmarks.pictures --games 3

# Re-extract the messages of the code into cogs/locales (then translate the new ones in vi).
catalogues: $(VENV)/.test-installed
	$(BIN)/python -m cogs.i18n_catalogue

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage .coverage.*
