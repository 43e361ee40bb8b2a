"""The harness's kernels load from numba's disk cache in a new process (sim/harness.py).

The harm prevented: every worker of every run recompiling a game's loop (30-90 s each), which
happens silently if a kernel's closure holds anything but the plain token string (e.g. a
numba dispatcher, which pickles with a per-process id) or two games share one cache entry."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = """
from tests.toygame import SPEC
from tests.usergame import SPEC as PICK
for spec in (SPEC, PICK):
    p = spec.prepare(spec.load_components(), 2, [spec.strategy_catalog()[1]["name"]] * 2, 3)
    spec.play_chunk(p, 0, 3)
    k = spec.kernels()
    print(spec.name, sum(k.play_chunk.stats.cache_hits.values()),
          sum(k.play_chunk.stats.cache_misses.values()), k.token)
"""


def _child():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(CHILD)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}


def test_a_second_process_loads_each_games_loop_from_the_cache():
    _child()                                   # compiles (or loads) and writes the cache
    second = _child()
    assert second["toy"][:2] == ["1", "0"], second    # one hit, no miss: nothing compiled
    assert second["pick"][:2] == ["1", "0"], second
    assert second["toy"][2] != second["pick"][2]      # one entry per game
