"""Two workers against one, whole processes, as a designer runs them (issue 22 item 6).

    python scripts/bench_workers.py [--game sunset] [--games 200000] [--rounds 4]
                                    [--loky] [--commit C]

Each round runs `balance run GAME --games N --workers 2` and `--workers 1` (seed 1, logs
written, the summary printed) in fresh processes, timed from the shell's side: the wall
time of the whole command and the CPU time of the command and of the workers it waited for
(forked workers are; loky's, stopped at the end without a wait, are not). The two sides of a round
run back to back and the order alternates from round to round, so that a burst of load
spoils a pair rather than one side. `--loky` adds a third arm, two loky workers started
fresh (`BALANCE_POOL=loky`: the pool before the fork pool); `--commit C` adds the same two
arms on commit C (exported as scripts/bench_before_after.py does, with its own numba
cache). Prints every run, then per arm the median wall and CPU, and the median of the
rounds' one-worker / two-worker wall ratios. The machine's load average is printed with
each round: on a 2-core machine a ratio means something only when it is idle.
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
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from scripts.bench_before_after import before_checkout  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(cwd: str, game: str, games: int, workers: int, out: str, env: dict) -> tuple:
    """(wall seconds, CPU seconds of the process tree) of one `balance run`."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "scripts.cli", "run", game, "--games", str(games),
           "--workers", str(workers), "--seed", "1", "--out", out, "--no-progress"]
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    shutil.rmtree(out, ignore_errors=True)
    return wall, cpu


def arms(args) -> list:
    """(label, source folder, extra environment) of every side measured."""
    here = [("this code", ROOT, {})]
    if args.loky:
        here.append(("this code, loky", ROOT, {"BALANCE_POOL": "loky"}))
    if args.commit:
        tmp, before_dir = before_checkout(args.commit)
        # its own sources first on the path and its own cache home, as bench_before_after's
        here.append((f"commit {args.commit}", before_dir,
                     {"PYTHONPATH": before_dir, "XDG_CACHE_HOME": os.path.join(tmp, "cache")}))
    return here


def environment(extra: dict) -> dict:
    env = {**os.environ, **extra}
    if "XDG_CACHE_HOME" in extra:
        env.pop("NUMBA_CACHE_DIR", None)
    return env


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sunset")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--loky", action="store_true",
                    help="also two loky workers started fresh (BALANCE_POOL=loky)")
    ap.add_argument("--commit", help="also this commit's two and one workers")
    args = ap.parse_args(argv)

    # a folder of its own: only the runs this script writes there are ever removed
    out = os.path.join(tempfile.mkdtemp(prefix="balance-bench-workers-"), "run")
    sides = arms(args)
    for label, cwd, extra in sides:   # compile or load each side once, outside the timing
        timed_run(cwd, args.game, 200, 1, out, environment(extra))
    walls: dict = {}
    cpus: dict = {}
    ratios: dict = {}
    for r in range(args.rounds):
        print(f"round {r + 1}, load average {os.getloadavg()[0]:.2f}", flush=True)
        for label, cwd, extra in sides:
            env = environment(extra)
            order = (2, 1) if r % 2 == 0 else (1, 2)
            got = {}
            for workers in order:
                wall, cpu = timed_run(cwd, args.game, args.games, workers, out, env)
                got[workers] = wall
                walls.setdefault((label, workers), []).append(wall)
                cpus.setdefault((label, workers), []).append(cpu)
                print(f"  {label:<24} {workers} worker(s): {wall:6.2f} s wall, "
                      f"{cpu:6.2f} s CPU", flush=True)
            ratios.setdefault(label, []).append(got[1] / got[2])
    print(f"\n{args.games:,} {args.game} games, {args.rounds} rounds (medians)")
    for label, _, _ in sides:
        w2, w1 = statistics.median(walls[(label, 2)]), statistics.median(walls[(label, 1)])
        c2, c1 = statistics.median(cpus[(label, 2)]), statistics.median(cpus[(label, 1)])
        each = ", ".join(f"{x:.2f}" for x in ratios[label])
        print(f"  {label:<24} 2 workers {w2:6.2f} s ({c2:.1f} s CPU), 1 worker {w1:6.2f} s "
              f"({c1:.1f} s CPU): {statistics.median(ratios[label]):.2f}x  [{each}]")
    os.rmdir(os.path.dirname(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
