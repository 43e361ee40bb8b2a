"""Benchmark of a game engine: `python scripts/bench_engine.py --game sunset --strategy greedy`
(scripts/bench_sunset.py, bench_sagrada.py and bench_surfers.py call it with their game).

Prints, measured in this one run on this machine:
  1. compiled vs interpreted: the same games played by the compiled kernels and by the same
     code under NUMBA_DISABLE_JIT=1 (a subprocess), records checked identical, and the ratio
     of games per second;
  2. games per second per core (one worker, logs written) and with all workers, and the
     speed-up of 2 workers over 1;
  3. the headline: a million 4-player games with greedy players, logs written, wall time;
  4. a warm start: wall time of a small `balance run` in a fresh process (compile cache warm);
  5. optionally (--memory-games N) the peak memory of an N-game run (parent and workers).

Usage: python scripts/bench_engine.py --game GAME --strategy NAME [--games 1000000] [--interp-games 100]
                                      [--scaling-games 200000] [--memory-games 10000000]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

GAME = "sunset"          # set from the command line (main)
STRATEGIES = ["greedy"] * 4


def _prepared(n_players=4, strategies=None, seed=1):
    from sim.registry import get_game
    spec = get_game(GAME)
    comp = spec.load_components()
    return spec, spec.prepare(comp, n_players, list(strategies or STRATEGIES), seed)


def _records(first, n):
    """Play games first..first+n-1 in this process; returns (seconds, records)."""
    spec, prepared = _prepared()
    spec.play_chunk(prepared, first, 1)  # compile / load outside the timing
    t0 = time.perf_counter()
    cols = spec.play_chunk(prepared, first, n)
    secs = time.perf_counter() - t0
    return secs, np.column_stack([np.asarray(v, dtype=np.float64) for v in cols.values()])


def interpreted_child(n: int, out_path: str) -> None:
    """Runs under NUMBA_DISABLE_JIT=1 (see compiled_vs_interpreted)."""
    import warnings
    warnings.filterwarnings("ignore")  # uint64 wrap-around in the RNG warns in pure numpy
    secs, rec = _records(0, n)
    np.save(out_path, rec)
    with open(out_path + ".json", "w") as fh:
        json.dump({"seconds": secs}, fh)


def compiled_vs_interpreted(n_interp: int, repeat: int) -> dict:
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "interp.npy")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, __file__, "--game", GAME, "--strategy", STRATEGIES[0],
                    "--_interpreted-child", str(n_interp), out], check=True, env=env)
    interp_rec = np.load(out)
    with open(out + ".json") as fh:
        interp_secs = json.load(fh)["seconds"]
    best = None
    for _ in range(repeat):  # the same games, several times: take the fastest
        secs, rec = _records(0, n_interp)
        best = secs if best is None else min(best, secs)
    shutil.rmtree(tmp, ignore_errors=True)
    identical = interp_rec.shape == rec.shape and np.array_equal(interp_rec, rec)
    return {"games": n_interp, "interpreted_gps": n_interp / interp_secs,
            "compiled_gps": n_interp / best, "ratio": interp_secs / best, "identical": identical}


def runner_run(n_games: int, workers: int, out_dir: str) -> dict:
    from sim import runner
    spec, prepared = _prepared()
    t0 = time.perf_counter()
    manifest = runner.run(spec, prepared, n_games, out_dir, workers=workers, progress=False,
                          overwrite=True)
    wall = time.perf_counter() - t0
    t = manifest["timings"]
    return {"games": n_games, "workers": workers, "wall": wall, "play": t["play_seconds"],
            "compile": t["compile_seconds"], "gps": n_games / t["play_seconds"]}


def warm_start(out_dir: str) -> float:
    balance = os.path.join(os.path.dirname(sys.executable), "balance")
    cmd = [balance, "run", GAME, "--players", "4", "--games", "2000", "--strategies", STRATEGIES[0],
           "--seed", "3", "--out", out_dir, "--overwrite", "--no-progress"]
    subprocess.run(cmd, check=True, capture_output=True)  # make sure the cache is warm
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t0


def memory_run(n_games: int, out_dir: str) -> dict:
    balance = os.path.join(os.path.dirname(sys.executable), "balance")
    cmd = [balance, "run", GAME, "--players", "4", "--games", str(n_games), "--strategies",
           STRATEGIES[0], "--seed", "5", "--out", out_dir, "--overwrite", "--no-progress"]
    t0 = time.perf_counter()
    # /usr/bin/time-like: the largest resident set among the parent and every worker
    proc = subprocess.run([sys.executable, "-c", _PEAK_RSS, *cmd], check=True,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"games": n_games, "wall": wall, **peak}


# Samples the resident memory of a command and all its descendants every 0.2 s; prints the
# peak of their sum (what the machine must hold at once) and of the largest process.
_PEAK_RSS = r"""
import json, os, subprocess, sys, time
def tree(pid):
    out = [pid]
    try:
        for line in open(f"/proc/{pid}/task/{pid}/children").read().split():
            out += tree(int(line))
    except OSError:
        pass
    return out
def rss(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
peak_sum = peak_one = 0
while p.poll() is None:
    sizes = [rss(q) for q in tree(p.pid)]
    peak_sum = max(peak_sum, sum(sizes)); peak_one = max(peak_one, max(sizes or [0]))
    time.sleep(0.2)
if p.returncode:
    sys.exit(p.returncode)
print(json.dumps({"peak_total_mb": peak_sum / 2**20, "peak_process_mb": peak_one / 2**20}))
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="sunset", help="registered game (default sunset)")
    ap.add_argument("--strategy", default="greedy", help="strategy in every seat (default greedy)")
    ap.add_argument("--label", default="", help="text added to the header line")
    ap.add_argument("--games", type=int, default=1_000_000, help="headline run (default 1,000,000)")
    ap.add_argument("--interp-games", type=int, default=100, help="games for the interpreted comparison")
    ap.add_argument("--scaling-games", type=int, default=200_000, help="games for the 1 vs 2 worker runs")
    ap.add_argument("--memory-games", type=int, default=0, help="also measure peak memory of a run this big")
    ap.add_argument("--_interpreted-child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    global GAME, STRATEGIES
    GAME, STRATEGIES = args.game, [args.strategy] * 4
    if args._interpreted_child:
        interpreted_child(int(args._interpreted_child[0]), args._interpreted_child[1])
        return 0

    cores = os.cpu_count() or 1
    from sim.registry import get_game
    print(f"{get_game(GAME).title} benchmark: 4 players, {STRATEGIES[0]} x4{args.label}, {cores} cores, "
          f"python {sys.version.split()[0]}")
    tmp = tempfile.mkdtemp(prefix=f"bench-{GAME}-")
    try:
        t0 = time.perf_counter()
        _prepared()[0].play_chunk(_prepared()[1], 0, 1)
        print(f"load/compile of the kernels in this process: {time.perf_counter() - t0:.2f} s")

        c = compiled_vs_interpreted(args.interp_games, repeat=5)
        print(f"\n1. compiled vs interpreted on the same {c['games']} games "
              f"(records identical: {c['identical']})")
        print(f"   interpreted (NUMBA_DISABLE_JIT=1): {c['interpreted_gps']:10.1f} games/s")
        print(f"   compiled:                          {c['compiled_gps']:10.1f} games/s")
        print(f"   ratio:                             {c['ratio']:10.0f}x")

        one = runner_run(args.scaling_games, 1, os.path.join(tmp, "w1"))
        two = runner_run(args.scaling_games, min(2, cores), os.path.join(tmp, "w2"))
        print(f"\n2. {args.scaling_games:,} games through the runner, logs written")
        print(f"   1 worker:  {one['gps']:10.0f} games/s per core (play {one['play']:.2f} s, wall {one['wall']:.2f} s)")
        print(f"   {two['workers']} workers: {two['gps']:10.0f} games/s (play {two['play']:.2f} s, wall {two['wall']:.2f} s)")
        print(f"   speed-up:  {two['gps'] / one['gps']:10.2f}x")

        head = runner_run(args.games, cores, os.path.join(tmp, "head"))
        print(f"\n3. {args.games:,} games, {head['workers']} workers, logs written: "
              f"wall {head['wall']:.1f} s ({head['gps']:.0f} games/s in play, "
              f"{head['gps'] / head['workers']:.0f} per core)")

        warm = warm_start(os.path.join(tmp, "warm"))
        print(f"\n4. warm start: `balance run` of 2,000 games in a fresh process: {warm:.2f} s wall")

        if args.memory_games:
            m = memory_run(args.memory_games, os.path.join(tmp, "mem"))
            print(f"\n5. {m['games']:,} games: wall {m['wall']:.0f} s, peak memory "
                  f"{m['peak_total_mb']:.0f} MB in all processes ({m['peak_process_mb']:.0f} MB largest)")
        print(f"\nusage: peak resident memory of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
