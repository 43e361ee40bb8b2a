# Fresh machine: `make run` (the main job) and `make test` (the test suite).
# Every target is idempotent: the venv is created once, and the install is redone only
# when pyproject.toml changes (the test install also when this Makefile changes, e.g. when
# it starts installing another extra; stamp files in .venv/).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
GAMES ?= 200000
WORKERS ?=
WORKERS_ARG := $(if $(WORKERS),--workers $(WORKERS),)

.PHONY: run test bench bench-report browser install install-test bytecode clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install -e '.[test,cluster]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

# The toolkit's own modules compiled to bytecode (__pycache__/, as Python writes it on a first
# import; up-to-date files are skipped): every `balance` process then starts about 0.2 s sooner
# also where PYTHONDONTWRITEBYTECODE is set (containers, CI), which stops Python writing it.
bytecode: | $(BIN)/python
	$(BIN)/python -m compileall -q sim strategies analysis reports scripts

# the engine compiled first (`balance warm`: one process per game, every core), then the job
run: $(VENV)/.installed bytecode
	$(BIN)/balance warm sunset
	$(BIN)/balance run sunset --players 4 --games $(GAMES) --strategies planner,greedy,greedy,random --rotate-seats --seed 1 --out runs/default --overwrite --report $(WORKERS_ARG)

# The HTML report test needs a real browser: Debian's Chromium, installed here where missing
# (only when apt-get exists). If it cannot be installed, the test fails and says why.
browser:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium (apt-get) for the HTML report test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
			|| echo "warning: chromium could not be installed; tests/test_report_browser.py will fail"; \
	fi

# every game's kernels compiled in parallel first (a cold cache: after an install or an edit)
test: $(VENV)/.installed-test browser bytecode
	$(BIN)/balance warm --kinds all
	$(BIN)/python -m pytest -q -n 2 tests

bench: $(VENV)/.installed
	$(BIN)/python scripts/bench_sunset.py

bench-report: $(VENV)/.installed
	$(BIN)/python scripts/bench_report.py

# STUMPY-style: the rule tests with the JIT off, so that coverage sees every line of the kernels;
# the rule tests of every registered game, as its contract names them (`rule_tests`)
RULE_TESTS = $(BIN)/python -c "from sim.game_contract import rule_test_files; \
	from sim.registry import list_games; \
	print(' '.join(t for g in list_games() for t in rule_test_files(g)))"
coverage: $(VENV)/.installed-test
	$(BIN)/python -m pip install -q pytest-cov
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:cacheprovider -W ignore::RuntimeWarning \
		$$($(RULE_TESTS)) \
		--cov=sim/games --cov=strategies --cov-report=term-missing:skip-covered

bench-sweep: $(VENV)/.installed
	$(BIN)/python scripts/bench_sweep.py

clean:
	rm -rf runs/ .pytest_cache build *.egg-info
	find sim strategies analysis reports scripts -name __pycache__ -type d -prune -exec rm -rf {} +
