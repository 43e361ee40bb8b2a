# Fresh machine: `make run` (the main job) and `make test` (the test suite).
# Every target is idempotent: the venv is created once, and the install is redone only
# when pyproject.toml changes (stamp files in .venv/).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
GAMES ?= 200000
WORKERS ?=
WORKERS_ARG := $(if $(WORKERS),--workers $(WORKERS),)

.PHONY: run test bench install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

run: $(VENV)/.installed
	$(BIN)/balance run sunset --players 4 --games $(GAMES) --strategies planner,greedy,greedy,random --seed 1 --out runs/default --overwrite $(WORKERS_ARG)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n 2 tests

bench: $(VENV)/.installed
	$(BIN)/python scripts/bench_sunset.py

clean:
	rm -rf runs/ .pytest_cache build *.egg-info
