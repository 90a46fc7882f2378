# Two commands on a fresh machine: `make run` (install + start the bot), `make test` (install + all checks).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: run test lint typecheck pytest bench clean catalogues

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

test: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/mypy --strict engine data cogs bot
	$(BIN)/pytest -q --cov --cov-report=term:skip-covered

bench: $(VENV)/.test-installed
	$(BIN)/python -m engine.bench
	$(BIN)/python -m data.bench

# Re-extract the messages of the code into cogs/locales (then translate the new ones in vi).
catalogues: $(VENV)/.test-installed
	$(BIN)/python -m cogs.i18n_catalogue

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage
