"""A cold compile on two cores (sim/split_compile.py): the players compiled by a helper process
are the very cache entry the play loop loads, the games played are the same as with one
process, and a helper that fails costs nothing but time.

Each case is a child process with a fresh cache home (a cold compile), on the shipped
scaffold game (tests/data/games/dice: small, so a cold compile takes seconds)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(ROOT, "tests", "data", "games")

SCRIPT = r'''
import json, subprocess, sys
import numpy as np
from sim import split_compile
from sim.registry import get_game
import os
os.cpu_count = lambda: 2       # the split's own check of the cores: two, whatever this machine has
if sys.argv[1] == "failing-helper":     # a helper that cannot compile anything
    split_compile.start_helper = lambda game, part="players": subprocess.Popen(
        [sys.executable, "-c", "raise SystemExit(3)"], stderr=subprocess.DEVNULL)
spec = get_game("dice")
prepared = spec.prepare(spec.load_components(), 3, ["greedy", "random", "greedy"], 11)
ran = spec.compile_on_two_cores(prepared)
cols = spec.play_chunk(prepared, 0, 40)
players = spec.choose_builtin()
print(json.dumps({
    "ran": ran,
    "players_loaded": sum(players.stats.cache_hits.values()),
    "players_compiled_here": sum(players.stats.cache_misses.values()),
    "games": {k: np.asarray(v).tolist() for k, v in cols.items()}}))
'''


def _cold(tmp_path, name: str, mode: str, **env_extra) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / name), BALANCE_GAME_PATH=GAMES,
               **env_extra)
    for key in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR", "BALANCE_SPLIT_COMPILE"):
        if key not in env_extra:
            env.pop(key, None)
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_two_cores_compile_the_same_games(tmp_path):
    split = _cold(tmp_path, "split", "split")   # also with numba as it is (not patched)
    one = _cold(tmp_path, "one", "one", BALANCE_SPLIT_COMPILE="off")
    # the helper compiled the players into the cache; the play loop loaded them from there
    assert split["ran"] and split["players_loaded"] >= 1
    assert split["players_compiled_here"] == 0
    # with the switch off, one process compiles everything
    assert not one["ran"] and one["players_loaded"] == 0 and one["players_compiled_here"] >= 1
    assert split["games"] == one["games"] and len(one["games"]["seat"]) == 40 * 3


def test_a_failing_helper_costs_only_time(tmp_path):
    failed = _cold(tmp_path, "failed", "failing-helper")
    one = _cold(tmp_path, "one", "one", BALANCE_SPLIT_COMPILE="off")
    assert failed["ran"] and failed["players_loaded"] == 0
    assert failed["players_compiled_here"] >= 1     # the play loop compiled them itself
    assert failed["games"] == one["games"]


def test_one_core_or_the_switch_compiles_in_one_process(monkeypatch):
    from sim import split_compile
    monkeypatch.delenv(split_compile.SWITCH, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert split_compile.enabled()
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert not split_compile.enabled()
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for off in ("off", "0", "no", "OFF"):
        monkeypatch.setenv(split_compile.SWITCH, off)
        assert not split_compile.enabled()


SEARCH_SCRIPT = r'''
import json, sys
import numpy as np
import os
os.cpu_count = lambda: 2
from sim.registry import get_game
spec = get_game("dice")
greedy = spec.prepare(spec.load_components(), 2, ["greedy", "greedy"], 11)
spec.play_chunk(greedy, 0, 1)                # the built-in loop compiled and cached first
prepared = spec.prepare(spec.load_components(), 2, ["mcts", "greedy"], 11)
ran = spec.compile_on_two_cores(prepared)
cols = spec.play_chunk(prepared, 0, 3)
mcts = spec.pieces().players("search").mcts_of(spec.name, spec.model(), spec.choose_builtin())
print(json.dumps({
    "ran": ran,
    "mcts_loaded": sum(mcts.stats.cache_hits.values()),
    "mcts_compiled_here": sum(mcts.stats.cache_misses.values()),
    "games": {k: np.asarray(v).tolist() for k, v in cols.items()}}))
'''


def _cold_search(tmp_path, name: str, **env_extra) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / name), BALANCE_GAME_PATH=GAMES,
               **env_extra)
    for key in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR", "BALANCE_SPLIT_COMPILE"):
        if key not in env_extra:
            env.pop(key, None)
    done = subprocess.run([sys.executable, "-c", SEARCH_SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_search_loop_compiles_mcts_in_the_helper(tmp_path):
    """Rules and players cached, a search loop cold: the helper compiles mcts, the loop
    loads it (and compiles flatmc and the loop itself here); the same games as one process."""
    split = _cold_search(tmp_path, "split")
    one = _cold_search(tmp_path, "one", BALANCE_SPLIT_COMPILE="off")
    assert split["ran"] and split["mcts_loaded"] >= 1 and split["mcts_compiled_here"] == 0
    assert not one["ran"] and one["mcts_loaded"] == 0 and one["mcts_compiled_here"] >= 1
    assert split["games"] == one["games"] and len(one["games"]["seat"]) == 3 * 2
