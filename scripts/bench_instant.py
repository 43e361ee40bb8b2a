"""How fast `balance` answers: the listing commands' wall time and peak
memory, and how soon a warm `balance run` starts playing.

    python scripts/bench_instant.py                    # this checkout
    python scripts/bench_instant.py --root /other/checkout --rounds 7

Each command runs `python -m scripts.cli ...` in a fresh process with the checkout as its
working folder (its own code is imported), `--rounds` times; the table gives the fastest
round's wall time (the machine's noise only ever adds) and that command's peak resident
memory (/usr/bin/time -f %M). The warm start: `balance run sunset --games 2000 --workers 1
--no-progress` once to fill numba's cache, then per round the time from the process's
start to the moment its first game is played (the runner enters the play of its chunks,
after loading the kernels and the two-game warm-up) and to its exit (the summary
included). Also prints the load average, to be quoted with the figures.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

LISTINGS = [["--help"], ["games"], ["strategies", "sunset"], ["components", "sunset"]]


def timed(root: str, argv: list) -> tuple[float, float]:
    """(wall seconds, peak MB) of one `balance ARGV` in a fresh process."""
    cmd = [sys.executable, "-m", "scripts.cli", *argv]
    timer = shutil.which("time") or "/usr/bin/time"
    t0 = time.perf_counter()
    if os.path.exists(timer):
        res = subprocess.run([timer, "-f", "%M", *cmd], cwd=root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t0
        peak = float(res.stderr.strip().splitlines()[-1]) / 1024
    else:
        subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, peak = time.perf_counter() - t0, float("nan")
    return wall, peak


WRAPPER = """
import os, sys, time
sys.path.insert(0, os.getcwd())
from sim import runner
play = runner._play_tasks
def timed_play(*args, **kwargs):   # the first game of the run is about to be played
    print(f"BENCH starts playing {time.time() - float(os.environ['BENCH_T0']):.3f}",
          file=sys.stderr, flush=True)
    return play(*args, **kwargs)
runner._play_tasks = timed_play
from scripts.cli import main
sys.exit(main(sys.argv[1:]))
"""


def warm_start(root: str, out: str) -> tuple[float, float]:
    """(seconds from the process's start to its first game, seconds to its exit) of a warm
    2,000-game run: the CLI run in a wrapper that only notes when runner._play_tasks (the
    play of the run's chunks, after the warm-up) is entered."""
    shutil.rmtree(out, ignore_errors=True)
    argv = ["run", "sunset", "--games", "2000", "--workers", "1", "--no-progress", "--out", out]
    env = dict(os.environ, BENCH_T0=repr(time.time()))
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", WRAPPER, *argv], cwd=root, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"the run failed (exit {res.returncode}): {res.stderr[-500:]}")
    line = [x for x in res.stderr.splitlines() if x.startswith("BENCH starts playing")][0]
    return float(line.split()[-1]), end


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   help="the checkout to measure (default: this one)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--no-run", action="store_true", help="listings only")
    args = p.parse_args(argv)
    root = os.path.abspath(args.root)
    print(f"checkout {root}; load average {os.getloadavg()[0]:.1f} "
          f"{os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} on {os.cpu_count()} cores")
    print(f"{'command':<28} {'best wall s':>11} {'peak MB':>8}")
    for cmd in [["-c", "pass"]] + LISTINGS:
        if cmd[0] == "-c":
            rounds = []
            for _ in range(args.rounds):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-c", "pass"])
                rounds.append((time.perf_counter() - t0, float("nan")))
            label = "python -c pass"
        else:
            rounds = [timed(root, cmd) for _ in range(args.rounds)]
            label = "balance " + " ".join(cmd)
        wall, peak = min(rounds)
        print(f"{label:<28} {wall:>11.2f} {peak:>8.0f}")
    if not args.no_run:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "warm")
            warm_start(root, out)   # fills numba's cache for these sources
            rounds = [warm_start(root, out) for _ in range(args.rounds)]
            first = min(r[0] for r in rounds)
            end = min(r[1] for r in rounds)
            print(f"warm run of 2,000 games: starts playing after {first:.2f} s, exits after "
                  f"{end:.2f} s (best of {args.rounds})")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
