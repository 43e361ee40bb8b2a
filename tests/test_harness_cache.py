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


UNCHECKED_LOOP = r"""
import numpy as np
from tests.toygame import SPEC as spec
prepared = spec.prepare(spec.load_components(), 2, [spec.default_strategy_name()], 1)
check = spec.model().check_state_nb
spec.play_chunk(prepared, 0, 2)
assert not check.overloads, "the loop without checks compiled check_state_nb"
k = spec.kernels()
k.checked_chunk(spec.pack_tables(prepared.components), spec.new_state(), 2, np.uint64(1), 0, 2,
                np.asarray(prepared.strategy_ids, np.int64),
                np.ascontiguousarray(prepared.strategy_params, np.float64),
                spec.model().RECORD.empty(4))
assert check.overloads, "the checked loop did not compile check_state_nb"
"""


def test_the_loop_without_checks_does_not_compile_the_state_checker(tmp_path):
    """play_on reads the compile-time CHECK: the unchecked loop never types check_state_nb
    (numba compiled it into that loop too when the check was an argument), the checked one
    does. A fresh process and cache folder, so that the loop is compiled, not loaded."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), BALANCE_SPLIT_COMPILE="off")
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    subprocess.run([sys.executable, "-c", UNCHECKED_LOOP], check=True, env=env, cwd=ROOT)
