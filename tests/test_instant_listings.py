"""Issue 22 item 1: the listing commands answer at once.

`balance --help`, `games`, `strategies GAME` and `components GAME` need no compiled engine,
no statistics and no figures: each runs in a fresh interpreter here, which then says which
heavy modules it imported and its peak memory. numba, pandas, scipy and matplotlib (and
numpy and pyarrow, which cost as much as the whole command's budget of 0.5 s on a loaded
machine) must stay out; the game metadata comes from plain-Python catalogs
(strategies/<game>_catalog.py, strategies/search_catalog.py) and the default component
file as it is on disk.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("numba", "llvmlite", "pandas", "scipy", "matplotlib", "numpy", "pyarrow")
PROBE = """
import contextlib, io, json, sys
sys.path.insert(0, {root!r})
from scripts.cli import main
with contextlib.redirect_stdout(io.StringIO()) as text:
    code = main({argv!r})
print(json.dumps({{"code": code, "lines": text.getvalue().count("\\n"),
                  "heavy": sorted(m for m in {heavy!r} if m in sys.modules),
                  "peak_mb": [int(l.split()[1]) / 1024 for l in open("/proc/self/status")
                              if l.startswith("VmHWM")][0]}}))
"""


def probe(argv: list) -> dict:
    script = PROBE.format(root=ROOT, argv=argv, heavy=HEAVY)
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["--help"], ["games"], ["strategies", "sunset"],
                                  ["strategies", "lowlands"], ["components", "sagrada"],
                                  ["components", "surfers"], ["tune", "--help"]])
def test_a_listing_command_imports_no_engine_statistics_or_figures(argv):
    got = probe(argv)
    assert got["code"] == 0 and got["lines"] > 3
    if argv == ["tune", "--help"]:   # its objectives' help is read from analysis/designer.py
        assert "numba" not in got["heavy"] and "matplotlib" not in got["heavy"]
        return
    assert got["heavy"] == [], f"balance {' '.join(argv)} imported {got['heavy']}"
    if sys.platform.startswith("linux"):   # this interpreter's own peak (VmHWM), not pytest's
        assert got["peak_mb"] < 100, got


def test_the_listings_say_what_the_engines_modules_say():
    """The plain catalogs are the ones the compiled players use (no copy to drift)."""
    import importlib

    from sim.registry import list_games
    for spec in list_games():
        players = importlib.import_module(spec.contract.strategies)
        catalog = spec.catalog_module()
        assert players.CATALOG is catalog.CATALOG and players.N_PARAMS == catalog.N_PARAMS
        with open(os.path.join(ROOT, "sim", "games", spec.name, "default_components.toml"),
                  encoding="utf-8") as fh:
            assert spec.default_components_text() == fh.read()
        assert spec.default_components_text() == spec.contract.components().default_components_text()
    import strategies.search as search
    import strategies.search_catalog as light
    assert search.search_catalog is light.search_catalog and search.MCTS == light.MCTS
