"""The cost of recording the game over time: one run per game without and one with
`--snapshots N`, side by side, each in a child process as a user's command would be.

    python -m scripts.bench_snapshots [--game sunset:50000 ...] [--snapshots 200] [--workers 2]

Prints per game: the main job's games per second without and with snapshots (the play
kernel is the same: the snapshots are a replay after it), the replay's own time (its kernel
loaded apart), and the whole command's games per second, wall clock, with and without. The
kernels are warmed first (the first command of each game is not counted). The load average
is printed with the table: on a loaded machine every figure is slower.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

DEFAULT = ("sunset:50000:planner,greedy,greedy,random", "sagrada:20000:planner,greedy,greedy,random",
           "surfers:20000:racer,blocker,builder,rider", "lowlands:4000:planner,greedy,dike,shepherd")


def command(game, games, strategies, out, workers, snapshots):
    cmd = [sys.executable, "-m", "scripts.cli", "run", game, "--players",
           str(len(strategies.split(","))), "--strategies", strategies, "--games", str(games),
           "--seed", "1", "--out", out, "--workers", str(workers), "--no-progress"]
    return cmd + (["--snapshots", str(snapshots)] if snapshots else [])


def timed(cmd) -> tuple:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout + done.stderr


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="GAME:GAMES:STRATEGIES")
    ap.add_argument("--snapshots", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.game or DEFAULT:
            game, games, strategies = spec.split(":")
            warm = os.path.join(tmp, f"{game}-warm")
            timed(command(game, 40, strategies, warm, 1, 20))       # compile / load first
            row = {"game": game, "games": int(games)}
            for label, snaps in (("without", 0), ("with", args.snapshots)):
                out = os.path.join(tmp, f"{game}-{label}")
                wall, text = timed(command(game, games, strategies, out, args.workers, snaps))
                with open(os.path.join(out, "manifest.json")) as fh:
                    row[f"{label}_play_gps"] = json.load(fh)["timings"]["games_per_second"]
                row[f"{label}_wall"] = wall
                found = re.search(r"snapshots: ([\d,]+) games replayed in ([\d.]+) s", text)
                if found:
                    row["replay_seconds"] = float(found.group(2))
            rows.append(row)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.workers} workers; "
          f"--snapshots {args.snapshots}")
    print("| game | games | play games/s without | play games/s with | replay of the snapshot "
          "games | command wall clock without | with | whole command games/s without | with |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['game']} | {r['games']:,} | {r['without_play_gps']:,.0f} | "
              f"{r['with_play_gps']:,.0f} | {r.get('replay_seconds', float('nan')):.1f} s | "
              f"{r['without_wall']:.1f} s | {r['with_wall']:.1f} s | "
              f"{r['games'] / r['without_wall']:,.0f} | {r['games'] / r['with_wall']:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
