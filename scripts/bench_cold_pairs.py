"""A cold first run, this checkout against another, in alternated pairs (issue 22 item 2).

    python scripts/bench_cold_pairs.py --before PATH [--game lowlands ...] [--pairs 4]
                                       [--split on|off]

Each pair runs `balance run GAME --games 200 --workers 1` once in each checkout, in turn
(the order alternates from pair to pair), each in a fresh, empty cache home
(XDG_CACHE_HOME: numba's kernels and the toolkit's small caches, as on a machine where the
toolkit never ran), timed from the outside: the wall time of the whole process to its exit
and the CPU time of the process and its helpers (the players' helper process of
sim/split_compile.py). `--split off` sets BALANCE_SPLIT_COMPILE=off (one process). Prints
every run, then per game the medians and the median of the pairs' wall ratios (this /
before). This machine's speed drifts by a fifth within minutes: only the pairs' ratio
means much, and only on an otherwise idle machine (the load average is printed).
`--before` is a checkout of the code to compare with (`git worktree add /tmp/before COMMIT`),
run with this checkout's Python.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_run(checkout: str, game: str, split: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one cold `balance run` in `checkout`."""
    home = tempfile.mkdtemp(prefix="balance-cold-")
    try:
        env = dict(os.environ, XDG_CACHE_HOME=home)
        env.pop("NUMBA_CACHE_DIR", None)
        if split == "off":
            env["BALANCE_SPLIT_COMPILE"] = "off"
        cmd = [sys.executable, "-m", "scripts.cli", "run", game, "--games", "200",
               "--workers", "1", "--no-progress", "--out", os.path.join(home, "run")]
        cpu0, t0 = _children_cpu(), time.perf_counter()
        done = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
        if done.returncode != 0:
            raise SystemExit(f"{checkout}: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
        return wall, cpu
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the checkout to compare with")
    ap.add_argument("--game", action="append", dest="games", default=None)
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--split", choices=("on", "off"), default="on")
    args = ap.parse_args(argv)
    before = os.path.abspath(args.before)
    if not os.path.isfile(os.path.join(before, "scripts", "cli.py")):
        raise SystemExit(f"{before}: not a checkout of the toolkit")
    sides = (("this", ROOT), ("before", before))
    for game in args.games or ["lowlands"]:
        runs = {name: [] for name, _ in sides}
        ratios = []
        for k in range(args.pairs):
            order = sides if k % 2 == 0 else sides[::-1]
            pair = {}
            for name, checkout in order:
                wall, cpu = cold_run(checkout, game, args.split)
                pair[name] = wall
                runs[name].append((wall, cpu))
                print(f"{game} pair {k + 1} {name:6s} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                      f"(load {os.getloadavg()[0]:.2f})", flush=True)
            ratios.append(pair["this"] / pair["before"])
        for name, _ in sides:
            walls = [w for w, _ in runs[name]]
            cpus = [c for _, c in runs[name]]
            print(f"{game} {name:6s} median wall {statistics.median(walls):6.2f} s, "
                  f"CPU {statistics.median(cpus):6.2f} s")
        print(f"{game} this/before wall, pairs' median {statistics.median(ratios):.3f} "
              f"[{', '.join(f'{r:.2f}' for r in ratios)}]")


if __name__ == "__main__":
    main()
