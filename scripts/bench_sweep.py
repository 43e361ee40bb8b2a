"""Benchmark of `balance sweep` (`make bench-sweep`): a 6-point sweep of 100,000 4-player
Sunset Over Water games per point with greedy players, logs and report written, wall time of
the whole command in a fresh process (target: under 1 minute on the 2-core machine).

Usage: python scripts/bench_sweep.py [--games 100000] [--points 6]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000, help="games per point")
    ap.add_argument("--points", type=int, default=6, help="values of commissions[12].points (from 1)")
    args = ap.parse_args(argv)
    balance = os.path.join(os.path.dirname(sys.executable), "balance")
    tmp = tempfile.mkdtemp(prefix="bench-sweep-")
    cmd = [balance, "sweep", "sunset", "--players", "4", "--strategies", "greedy",
           "--vary", f"commissions[12].points=1..{args.points}", "-n", str(args.games),
           "--seed", "1", "--out", os.path.join(tmp, "sweep"), "--no-progress"]
    try:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        wall = time.perf_counter() - t0
        total = args.games * args.points
        print(f"sweep of {args.points} points x {args.games:,} 4-player games (greedy), logs and "
              f"report written: {wall:.1f} s wall, {total / wall:,.0f} games/s "
              f"({os.cpu_count()} cores, load average {load:.1f} at the start)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
