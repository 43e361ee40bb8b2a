"""Benchmark of the sagrada engine (see scripts/bench_engine.py for what it measures), and the
planner's speed before and after a change.

Usage: python scripts/bench_sagrada.py [--games 1000000] [--interp-games 20] [--memory-games N]
       python scripts/bench_sagrada.py --planner-before COMMIT [--planner-games 4000]
                                       [--workers 2] [--rounds 2] [--players 4]
       python scripts/bench_sagrada.py --planner-before COMMIT --play-loop 3000 [--rounds 3]

--planner-before COMMIT: the planner in every seat, the same `balance run` (same seed, same
games, logs written) with the code of COMMIT ("before", exported with `git archive` into a
folder of the temp directory with its own compile cache, as scripts/bench_before_after.py
does) and with this checkout ("after"), each in its own process; the sides alternate for
--rounds rounds after a warm-up run that compiles, and each side's fastest round counts (the
runner's play time: compile and start-up excluded). Also the CPU seconds of the run's
processes (parent and workers) minus those of a run of one 4-game chunk per worker on the
same side (start-up, each worker loading the kernels), per game: on a loaded machine the wall clock counts the time spent
waiting for a core, the CPU clock much less. Then the two sides' logs are compared value by
value (scripts/compare_logs.py): identical logs mean the same player, faster.

--play-loop N: instead, the planner's own play loop on each side: `spec.play_chunk` of N
4-player games (seed 1) in one process, the CPU clock, after a first chunk that loads the
kernels (no `balance run`: no worker start, no kernel loading, no log writing); the sides
alternate for --rounds rounds and each side's fastest counts; the records must be equal.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_before_after import export_commit  # noqa: E402
from bench_engine import main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMALL = 4   # games per chunk of the run whose CPU time (start-up, every worker loading) is taken off


def _balance_run(src_dir, cache_dir, out_dir, games, players, workers, chunk=None):
    """One `balance run` of src_dir's code; returns (play seconds, wall seconds, CPU seconds
    of the process and its workers)."""
    env = dict(os.environ, PYTHONPATH=src_dir)
    if cache_dir:
        env["XDG_CACHE_HOME"] = cache_dir
        env.pop("NUMBA_CACHE_DIR", None)
    cmd = [sys.executable, "-m", "scripts.cli", "run", "sagrada", "--players", str(players),
           "--strategies", "planner", "--games", str(games), "--seed", "7",
           "--workers", str(workers), "--no-progress", "--out", out_dir, "--overwrite"]
    if chunk:
        cmd += ["--chunk-size", str(chunk)]
    t0 = time.perf_counter()
    cpu0 = _children_cpu()
    proc = subprocess.run(cmd, cwd=src_dir, env=env, capture_output=True, text=True)
    cpu = _children_cpu() - cpu0
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"bench_sagrada: error: the run in {src_dir} failed:\n"
                         f"{proc.stderr.strip()[-2000:]}")
    with open(os.path.join(out_dir, "manifest.json"), encoding="utf-8") as fh:
        return json.load(fh)["timings"]["play_seconds"], wall, cpu


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _sides(commit) -> dict:
    """{"before": (folder of COMMIT's code, its compile cache), "after": (this checkout, None)}."""
    short = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", commit],
                           capture_output=True, text=True).stdout.strip() or commit
    keep = os.path.join(tempfile.gettempdir(), f"balance-bench-before-{short}")
    before_dir = os.path.join(keep, "src")
    if not os.path.isdir(os.path.join(before_dir, "sim")):
        os.makedirs(before_dir, exist_ok=True)
        export_commit(commit, before_dir)
    return {"before": (before_dir, os.path.join(keep, "cache")), "after": (ROOT, None)}


PLAY_LOOP = """
import hashlib, json, sys, time
from sim.registry import get_game
spec = get_game("sagrada")
prep = spec.prepare(spec.load_components(None, ()), 4, ["planner"] * 4, 1, None)
spec.play_chunk(prep, 0, 4)
n = int(sys.argv[1])
t0 = time.process_time()
cols = spec.play_chunk(prep, 0, n)
cpu = time.process_time() - t0
digest = hashlib.sha256(b"".join(cols[k].tobytes() for k in sorted(cols))).hexdigest()
print(json.dumps({"cpu": cpu, "digest": digest}))
"""


def play_loop_before_after(commit, games, rounds) -> int:
    """The planner's play loop alone on each side (see --play-loop in the module doc)."""
    sides = _sides(commit)
    best, digests = {}, {}
    for r in range(rounds):
        for side, (src, cache) in sides.items():
            env = dict(os.environ, PYTHONPATH=src)
            if cache:
                env["XDG_CACHE_HOME"] = cache
                env.pop("NUMBA_CACHE_DIR", None)
            proc = subprocess.run([sys.executable, "-c", PLAY_LOOP, str(games)], cwd=src, env=env,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise SystemExit(f"bench_sagrada: error: the play loop in {src} failed:\n"
                                 f"{proc.stderr.strip()[-2000:]}")
            out = json.loads(proc.stdout.strip().splitlines()[-1])
            best[side] = min(best.get(side, out["cpu"]), out["cpu"])
            digests[side] = out["digest"]
            print(f"round {r + 1}: {side} {games / out['cpu']:.0f} games per CPU second",
                  file=sys.stderr, flush=True)
    print(f"Sagrada planner x4: spec.play_chunk of {games} games (seed 1) in one process, CPU "
          f"clock, fastest of {rounds} round(s); before = {commit}, after = this checkout; "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    for side in ("before", "after"):
        print(f"{side:8} {games / best[side]:>8.0f} games per CPU second")
    print(f"after/before: {best['before'] / best['after']:.2f}x; records identical: "
          + ("yes" if digests["before"] == digests["after"] else "NO"))
    return 0


def planner_before_after(commit, games, players, workers, rounds) -> int:
    sides = _sides(commit)
    tmp = tempfile.mkdtemp(prefix="bench-sagrada-planner-")
    best, cpu = {}, {}
    try:
        for side, (src, cache) in sides.items():
            print(f"warm-up (compile): {side} ...", file=sys.stderr, flush=True)
            _balance_run(src, cache, os.path.join(tmp, "warm"), 8, players, workers)
        for r in range(rounds):
            for side, (src, cache) in sides.items():
                print(f"round {r + 1}: {side} ...", file=sys.stderr, flush=True)
                small = _balance_run(src, cache, os.path.join(tmp, "small"), SMALL * workers,
                                     players, workers, chunk=SMALL)
                play, wall, used = _balance_run(src, cache, os.path.join(tmp, side), games,
                                                players, workers)
                per_game = (used - small[2]) / (games - SMALL * workers)
                if side not in best or play < best[side][0]:
                    best[side] = (play, wall)
                cpu[side] = min(cpu.get(side, per_game), per_game)
        same = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare_logs.py"),
                               os.path.join(tmp, "before"), os.path.join(tmp, "after")],
                              capture_output=True, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"Sagrada planner x{players}: balance run of {games} games (seed 7, logs written), "
          f"{workers} worker(s), fastest of {rounds} round(s), play time (compile excluded); "
          f"before = {commit}, after = this checkout; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(f"{'side':8} {'games/s':>9} {'play s':>8} {'wall s':>8} {'games per CPU s':>16}")
    for side in ("before", "after"):
        play, wall = best[side]
        print(f"{side:8} {games / play:>9.0f} {play:>8.1f} {wall:>8.1f} {1 / cpu[side]:>16.0f}")
    print(f"after/before: {best['before'][0] / best['after'][0]:.2f}x games per second (wall), "
          f"{cpu['before'] / cpu['after']:.2f}x games per CPU second")
    print("logs identical (scripts/compare_logs.py): " + ("yes" if same.returncode == 0 else
                                                          "NO\n" + same.stdout[-2000:]))
    return 0


if __name__ == "__main__":
    if "--planner-before" in sys.argv:
        ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        ap.add_argument("--planner-before", required=True, metavar="COMMIT")
        ap.add_argument("--planner-games", type=int, default=4000)
        ap.add_argument("--players", type=int, default=4)
        ap.add_argument("--workers", type=int, default=2)
        ap.add_argument("--rounds", type=int, default=2)
        ap.add_argument("--play-loop", type=int, metavar="N",
                        help="time the play loop alone (spec.play_chunk of N games) instead")
        a = ap.parse_args()
        if a.play_loop:
            sys.exit(play_loop_before_after(a.planner_before, a.play_loop, a.rounds))
        sys.exit(planner_before_after(a.planner_before, a.planner_games, a.players, a.workers,
                                      a.rounds))
    sys.exit(main(["--game", "sagrada", "--strategy", "greedy", "--interp-games", "20",
                   "--label", "", *sys.argv[1:]]))
