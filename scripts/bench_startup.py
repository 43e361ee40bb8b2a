"""How long the designer waits: listings, cold compiles, warm start, a user file's second run.

    python scripts/bench_startup.py [--game sunset --game ...] [--checkout PATH] [--skip-cold]
                                    [--user-file docs/examples/waterfall_lover.py:waterfall_lover]
                                    [--rounds N] [--llvm-timings]

Prints one table, each figure measured in a child process (as a user's command would be):

* `balance --help`, `games`, `strategies sunset`, `components sunset`: wall time and peak
  memory (the child's maximum resident set, from the OS).
* cold compile per game: `balance run GAME --games 200 --workers 1` in a fresh, empty cache
  home (XDG_CACHE_HOME: numba's kernels and the toolkit's own small caches, as on a machine
  where the toolkit never ran; a temporary folder, removed afterwards; the bytecode cache on,
  as for a user), with where numba's time went: the CPU time of the run's process and of
  its helpers (sim/split_compile.py compiles the players in a second process), with
  `--llvm-timings` LLVM's optimisation passes (summed over every compiled function; numba
  records them only with NUMBA_LLVM_PASS_TIMINGS, which slows the compile: before
  2026-12-02 night the cold compiles of this table were always measured so), the number of functions
  compiled, and how many function bodies the compiled libraries' modules hold in all (a
  callee is linked and optimised again into every library that calls it; since
  sim/numba_calls.py only the kernels' modules are emitted as machine code: the ratio of the two
  is that duplication).
* warm start: the same command again with that cache folder; then, `--rounds` times, the
  issue's warm start `balance run sunset --games 2000 --workers 1` (in that cache folder, or
  in the toolkit's own with `--skip-cold`, filled by one run first).
* the second run of a user strategy file (`--user-file`, Sunset's worked example by
  default): the first run (in a fresh cache home) compiles its play loop, then `--rounds`
  runs load it from the cache.

Every run of the play gives two times: from the process's start to its first game played
(the runner enters the play of the chunks, after the kernels are loaded and the two-game
warm-up is played: what the designer waits for before anything is played) and to its exit
(the summary printed). With `--rounds`, the best (the machine's noise only ever adds) and
the median of the rounds, and the child's CPU time to its first game (less sensitive to
the other processes of a loaded machine than the wall time).

`--checkout PATH` measures another checkout of the toolkit (e.g. `git worktree add /tmp/before
COMMIT`) with the same commands, for a before/after table in the same conditions. The load
average of the machine is printed with the table: on a loaded machine every figure is slower.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ("sunset", "sagrada", "surfers", "lowlands")
USER_FILE = "docs/examples/waterfall_lover.py:waterfall_lover"

# Every child notes when its first game is about to be played: the runner's play of the
# chunks (`runner._play_tasks`) is entered once the kernels are loaded and warmed up. Its
# start is the parent's clock when it started the child (BENCH_T0), and its CPU time is the
# whole process's (every thread) from the interpreter's start.
FIRST_GAME = r"""
import os, sys, time
sys.path.insert(0, os.getcwd())
from sim import runner
_play = runner._play_tasks
def _first_game(*args, **kwargs):
    print(f"FIRST_GAME {time.time() - float(os.environ['BENCH_T0']):.4f} "
          f"{time.process_time():.4f}", file=sys.stderr, flush=True)
    return _play(*args, **kwargs)
runner._play_tasks = _first_game
"""
TIMED_CLI = FIRST_GAME + r"""
from scripts.cli import main
sys.exit(main(sys.argv[1:]))
"""
COMPILE_CHILD = FIRST_GAME + r"""
import gc, json
t0 = time.perf_counter()
c0 = time.process_time()
from scripts.cli import main
code = main(sys.argv[1:])
wall = time.perf_counter() - t0
cpu = time.process_time() - c0
import resource
helpers = resource.getrusage(resource.RUSAGE_CHILDREN)   # the split compile's helper
from numba.core.registry import CPUDispatcher
llvm = 0.0
compiled = 0
bodies = 0
names = set()
for obj in gc.get_objects():
    if isinstance(obj, CPUDispatcher):
        for cres in obj.overloads.values():
            compiled += 1
            timings = cres.metadata.get("llvm_pass_timings") if cres.metadata else None
            if timings is not None:
                llvm += timings.get_total_time() or 0.0
            mod = getattr(cres.library, "_final_module", None)
            if mod is not None:
                defined = [f.name for f in mod.functions if not f.is_declaration]
                bodies += len(defined)
                names.update(defined)
print("RESULT " + json.dumps({"code": code, "wall": wall, "cpu": cpu, "llvm": llvm,
                              "cpu_helpers": helpers.ru_utime + helpers.ru_stime,
                              "compiled": compiled, "bodies": bodies, "unique": len(names)}))
"""


def _child(args: list, cwd: str, env: dict) -> tuple:
    """(wall seconds, peak resident memory in MB, stdout) of a child process."""
    wall, peak, stdout, _ = _timed_child(args, cwd, env)
    return wall, peak, stdout


def _timed_child(args: list, cwd: str, env: dict) -> tuple:
    """(wall seconds, peak MB, stdout, (seconds to the first game, CPU seconds by then) or
    None) of a child process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        env = dict(env, BENCH_T0=repr(time.time()))
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        errors = err.read().decode()
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{errors[-2000:]}")
        first = [line for line in errors.splitlines() if line.startswith("FIRST_GAME ")]
        first_game = tuple(map(float, first[0].split()[1:3])) if first else None
        return wall, usage.ru_maxrss / 1024, out.read().decode(), first_game


def _rounds(cmd: list, checkout: str, env: dict, out: str, rounds: int) -> tuple:
    """The command `rounds` times into a fresh `out` folder each: (row cells: first game,
    exit and peak memory, as best / median of the rounds)."""
    firsts, cpus, walls, peaks = [], [], [], []
    for _ in range(rounds):
        shutil.rmtree(out, ignore_errors=True)     # a folder of this script's temporary one
        wall, peak, _, first = _timed_child(cmd, checkout, env)
        walls.append(wall)
        peaks.append(peak)
        if first is not None:
            firsts.append(first[0])
            cpus.append(first[1])

    def best_median(values, unit="s"):
        if not values:
            return "-"
        return (f"{min(values):.2f} {unit}" if len(values) == 1 else
                f"{min(values):.2f} / {statistics.median(values):.2f} {unit}")
    return (best_median(firsts), best_median(walls), f"{max(peaks):.0f} MB",
            f"CPU to the first game {best_median(cpus)}; {rounds} round(s): best / median")


def _env(cache: str | None) -> dict:
    """The child's environment. `cache`: a fresh cache home (XDG_CACHE_HOME) for the child, so
    that it starts as on a machine where the toolkit never ran: no kernels, and none of the
    toolkit's own small caches (the contract's names, each file's imports, the last compile's
    time), which it then writes there as it would in ~/.cache. (NUMBA_CACHE_DIR would leave
    those out for good: the toolkit keeps them only in its own folder, so every run would
    parse the sources again, which a designer's runs do not.)"""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "XDG_CACHE_HOME")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # the bytecode cache on, as for a user
    if cache:
        env["XDG_CACHE_HOME"] = cache
    return env


def listings(checkout: str) -> list:
    rows = []
    balance = [sys.executable, "-m", "scripts.cli"]
    for args in (["--help"], ["games"], ["strategies", "sunset"], ["components", "sunset"]):
        wall, peak, _ = _child(balance + args, checkout, _env(None))
        rows.append((f"balance {' '.join(args)}", f"{wall:.2f} s", f"{peak:.0f} MB"))
    return rows


def cold_and_warm(checkout: str, game: str, tmp: str, llvm_timings: bool = False) -> list:
    cache = os.path.join(tmp, f"cache-{game}")
    out = os.path.join(tmp, f"run-{game}")
    cmd = [sys.executable, "-c", COMPILE_CHILD, "run", game, "--games", "200", "--workers",
           "1", "--out", out, "--overwrite", "--no-progress"]
    rows = []
    for label in ("cold compile", "warm start"):
        env = _env(cache)
        if llvm_timings:   # numba records LLVM's pass times only then (and compiles slower)
            env["NUMBA_LLVM_PASS_TIMINGS"] = "1"
        wall, peak, stdout, first = _timed_child(cmd, checkout, env)
        r = json.loads(stdout.split("RESULT ", 1)[1])
        print(f"  {label} {game}: {wall:.1f} s {json.dumps(r)}", file=sys.stderr, flush=True)
        detail = ""
        if label == "cold compile":
            detail = (f"CPU {r['cpu']:.1f} s, {r.get('cpu_helpers', 0):.1f} s in helper "
                      f"processes; {r['compiled']} functions compiled, {r['bodies']} bodies "
                      f"in the libraries' modules ({r['unique']} distinct)")
            if llvm_timings:
                detail = f"LLVM passes {r['llvm']:.0f} s; " + detail
        rows.append((f"{label}: run {game} --games 200",
                      f"{first[0]:.1f} s" if first else "-", f"{wall:.1f} s",
                      f"{peak:.0f} MB", detail))
    return rows


def warm_start(checkout: str, tmp: str, cache: str | None, rounds: int) -> list:
    """The issue's warm start, `balance run sunset --games 2000 --workers 1`: one run fills
    the cache folder (nothing to compile when it is warm already), then `rounds` runs."""
    out = os.path.join(tmp, "run-warm")
    cmd = [sys.executable, "-c", TIMED_CLI, "run", "sunset", "--games", "2000", "--workers",
           "1", "--out", out, "--no-progress"]
    shutil.rmtree(out, ignore_errors=True)
    _timed_child(cmd, checkout, _env(cache))
    where = "the cache folder above" if cache else "the toolkit's cache folder"
    first, end, peak, detail = _rounds(cmd, checkout, _env(cache), out, rounds)
    return [("warm start: run sunset --games 2000 --workers 1", first, end, peak,
             f"{detail}; {where}")]


def user_file(checkout: str, spec: str, tmp: str, rounds: int) -> list:
    cache = os.path.join(tmp, "cache-user")
    path, fn = spec.rsplit(":", 1)
    path = os.path.join(ROOT, path) if not os.path.isabs(path) else path
    out = os.path.join(tmp, "run-user")
    cmd = [sys.executable, "-c", TIMED_CLI, "run", "sunset", "--players", "4", "--games",
           "200", "--workers", "1", "--strategies", f"{path}:{fn},greedy,greedy,greedy",
           "--out", out, "--no-progress"]
    name = os.path.basename(path)
    shutil.rmtree(out, ignore_errors=True)
    wall, peak, _, first = _timed_child(cmd, checkout, _env(cache))
    rows = [(f"user file, first run: {name}", f"{first[0]:.1f} s" if first else "-",
             f"{wall:.1f} s", f"{peak:.0f} MB", "its play loop compiles (a fresh cache folder)")]
    first, end, peak, detail = _rounds(cmd, checkout, _env(cache), out, rounds)
    rows.append((f"user file, second run: {name}", first, end, peak, detail))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", dest="games", default=None)
    ap.add_argument("--checkout", default=ROOT, help="the toolkit checkout to measure")
    ap.add_argument("--skip-cold", action="store_true", help="listings and user file only")
    ap.add_argument("--user-file", default=USER_FILE)
    ap.add_argument("--rounds", type=int, default=3,
                    help="runs of the warm start and of the user file's second run (best and "
                         "median); default 3")
    ap.add_argument("--llvm-timings", action="store_true",
                    help="record LLVM's pass times in the cold compiles (numba's "
                         "NUMBA_LLVM_PASS_TIMINGS): slows them, so off by default")
    args = ap.parse_args(argv)
    checkout = os.path.abspath(args.checkout)
    load = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    tmp = tempfile.mkdtemp(prefix="bench-startup-")
    rows = []
    try:
        rows += listings(checkout)
        cold = not args.skip_cold and "sunset" in (args.games or GAMES)
        if not args.skip_cold:
            for game in args.games or GAMES:
                rows += cold_and_warm(checkout, game, tmp, args.llvm_timings)
        rows += warm_start(checkout, tmp, os.path.join(tmp, "cache-sunset") if cold else None,
                           args.rounds)
        if args.user_file:
            rows += user_file(checkout, args.user_file, tmp, args.rounds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)   # the temporary folder this script made
    end_load = os.getloadavg()
    print(f"bench_startup {started:%Y-%m-%d %H:%M} UTC, {checkout}, {os.cpu_count()} cores, "
          f"load average {load[0]:.1f} at the start, {end_load[0]:.1f} at the end")
    print("| what | first game played | exit (wall) | peak memory | where the time went |")
    print("|---|---|---|---|---|")
    for row in rows:
        if len(row) == 3:     # a listing: no game played
            row = (row[0], "-") + tuple(row[1:])
        row = tuple(row) + ("",) * (5 - len(row))
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
