"""A compile cache folder per game and per user strategy file (sim/compile_cache.py).

The harm prevented: editing one game recompiling every game (the whole suite cold again), a
user's strategy file recompiled at every run, stale machine code after an edit of a file a
kernel compiles in, and the toolkit deleting a folder it did not write."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

from sim import compile_cache
from sim.compile_cache import MARKER, ROOT, game_files

GAMES = ("sunset", "sagrada", "surfers", "lowlands")


def _rel(files) -> set:
    return {os.path.relpath(f, ROOT) for f in files}


def test_a_games_folder_holds_its_own_sources_and_the_platform_it_compiles_in():
    for game in GAMES:
        files = _rel(game_files(game))
        # the forward model and every rules module it imports (Lowlands' rules are split
        # into modules; the others keep theirs in nb.py), and the game's players
        assert f"sim/games/{game}/model.py" in files and f"strategies/{game}.py" in files
        rules = {f for f in files if f.startswith(f"sim/games/{game}/")} - {
            f"sim/games/{game}/model.py", f"sim/games/{game}/enums.py"}
        assert rules, game
        assert {"sim/harness.py", "sim/rng.py", "sim/records.py"} <= files
        others = [f for f in files for g in GAMES if g != game and f"/{g}" in f]
        assert not others, (game, others)           # no other game's file: no recompile
        assert "sim/runner.py" not in files         # plain Python: editing it compiles nothing
        # the per-round snapshot compiles in no play kernel (sim/snapshots.py replays with it)
        assert f"sim/games/{game}/snapshot.py" not in files
        assert os.path.isfile(os.path.join(ROOT, f"sim/games/{game}/snapshot.py"))


def test_each_game_gets_its_own_folder():
    folders = {compile_cache.folder_for("/c", g, game_files(g)) for g in GAMES}
    assert len(folders) == len(GAMES)


KERNEL = """
from numba import njit
from {helper} import STEP

@njit(cache=True)
def bump(x):
    return x + STEP
"""
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import sim
import game_a, game_b
for m in (game_a, game_b):
    m.bump(1)
    print(m.__name__, sum(m.bump.stats.cache_misses.values()), m.bump(1))
"""


def _probe(mod, cache) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_LOCATOR_CLASSES",)}
    env["NUMBA_CACHE_DIR"] = str(cache)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(PROBE), str(mod)], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return {line.split()[0]: line.split()[1:] for line in out.stdout.splitlines()}


def test_editing_a_file_one_kernel_imports_recompiles_that_kernel_only(tmp_path):
    """numba alone would load game_a's stale code (its own file did not change)."""
    mod = tmp_path / "mod"
    mod.mkdir()
    for name, step in (("a", 1), ("b", 10)):
        (mod / f"helper_{name}.py").write_text(f"STEP = {step}\n")
        (mod / f"game_{name}.py").write_text(KERNEL.format(helper=f"helper_{name}"))
    cache = tmp_path / "cache"
    assert _probe(mod, cache) == {"game_a": ["1", "2"], "game_b": ["1", "11"]}   # cold
    assert _probe(mod, cache) == {"game_a": ["0", "2"], "game_b": ["0", "11"]}   # from disk
    (mod / "helper_a.py").write_text("STEP = 2\n")
    assert _probe(mod, cache) == {"game_a": ["1", "3"], "game_b": ["0", "11"]}
    assert not list(cache.rglob(MARKER))     # a folder the user chose gets no file of ours
    later = time.time() + 100                 # a clone or checkout: new times, same contents
    for f in mod.iterdir():
        os.utime(f, (later, later))
    assert _probe(mod, cache) == {"game_a": ["0", "3"], "game_b": ["0", "11"]}


USER_FILE = """
from numba import njit

@njit
def take_last(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    return n_options - 1
"""
USER_RUN = """
import sys, time
start = time.perf_counter()
from sim.user_check import check_user_strategies
from tests.usergame import SPEC
p = SPEC.prepare(SPEC.load_components(), 2, [sys.argv[1] + ":take_last", "first"], 3)
check_user_strategies(SPEC, p)
users = SPEC._user_functions(p)
k = SPEC.kernels(users)
misses = sum(k.play_chunk.stats.cache_misses.values()) + sum(
    sum(u.stats.cache_misses.values()) for u in users)
print(misses, round(time.perf_counter() - start, 2))
"""


def _user_run(path, cache) -> tuple:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(USER_RUN), str(path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    misses, seconds = out.stdout.split()
    return int(misses), float(seconds)


def test_a_user_strategy_file_is_compiled_once_per_version(tmp_path):
    """The second run compiles nothing (its start time, within 2 s on an idle machine, is
    measured by scripts/bench_startup.py: a wall-clock bound here would fail under load)."""
    user = tmp_path / "mine.py"
    user.write_text(USER_FILE)
    cache = tmp_path / "cache"
    assert _user_run(user, cache)[0] == 2          # the loop and the function: compiled, cached
    assert _user_run(user, cache)[0] == 0          # both loaded, and the return type checked
    user.write_text(USER_FILE.replace("n_options - 1", "0"))
    assert _user_run(user, cache)[0] == 2          # an edited file compiles again


def test_pruning_removes_only_old_folders_of_the_label_that_the_toolkit_wrote(tmp_path):
    n = compile_cache.KEEP_PER_LABEL + 3
    for i in range(n):
        d = tmp_path / f"sunset-{i:04x}"
        d.mkdir()
        (d / MARKER).write_text("")
        os.utime(d / MARKER, (1_000_000 + i, 1_000_000 + i))
    (tmp_path / "sunset-notmine").mkdir()                 # no marker: not the toolkit's
    (tmp_path / "lowlands-0001").mkdir()
    (tmp_path / "lowlands-0001" / MARKER).write_text("")
    os.utime(tmp_path / "lowlands-0001" / MARKER, (1, 1))  # oldest of all, another label
    compile_cache.prune_label(str(tmp_path), "sunset-new")
    left = sorted(os.listdir(tmp_path))
    kept = [f"sunset-{i:04x}" for i in range(n - (compile_cache.KEEP_PER_LABEL - 1), n)]
    assert left == sorted(kept + ["sunset-notmine", "lowlands-0001"])


def test_a_folder_the_user_chose_is_never_pruned(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    code = "import sim.compile_cache as c; print(c.prune_root())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60, check=True).stdout.strip()
    assert out == "None"


def test_a_user_file_inside_the_toolkit_gets_one_module_name_in_every_clone(tmp_path, monkeypatch):
    """A kernel cached by one clone names the user's module; another clone of the same sources
    (CI's fresh clone, reusing the machine's cache) must import the file under that name, or
    loading the kernel fails with ModuleNotFoundError (the stop of 2026-12-01 failed so)."""
    from sim import user_files
    names = []
    for clone in ("a", "b"):
        root = tmp_path / clone / "main"
        (root / "docs" / "examples").mkdir(parents=True)
        bot = root / "docs" / "examples" / "bot.py"
        bot.write_text("def bot():\n    return 0\n")
        monkeypatch.setattr(user_files, "_TOOLKIT_ROOT", str(root))
        names.append(user_files._user_module_name(str(bot)))
    assert names[0] == names[1]
    # outside the toolkit the file's own path names it, as its cache entry does
    monkeypatch.setattr(user_files, "_TOOLKIT_ROOT", str(tmp_path / "a" / "main"))
    outside = [user_files._user_module_name(str(tmp_path / c / "bot.py")) for c in ("x", "y")]
    assert outside[0] != outside[1] and names[0] not in outside
