# The two fresh-machine commands are `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-python test-worker check install install-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	cd ts-apply && npm ci --no-audit --no-fund

demo: install
	$(BIN)/magg demo

test: install-test check test-python test-worker

check:
	$(BIN)/ruff check .
	$(BIN)/mypy

test-python:
	$(BIN)/pytest

test-worker:
	cd ts-apply && CI=true CLOUDFLARE_CF_FETCH_ENABLED=false npm test
