"""Speed before and after a change in alternating pairs of short chunks, on warm processes.

    python scripts/bench_pairs.py --commit C --game sunset --strategies mcts,planner
                                  [--players 2] [--games 4] [--pairs 20]

One process per side stays open (compile and cache loading done once, outside the timing):
"before" runs the commit exported by scripts/bench_before_after.py (the same folder and numba
cache), "after" this checkout. Each pair plays the same games (indices 0..games-1, seed 1)
on both sides, in alternating order, timed by each process's CPU clock. Many short pairs
suit a loaded machine better than a few long rounds: a burst of load spoils a pair or two,
which the median of the pairs' ratios leaves out. Prints the median CPU seconds per chunk of
each side and the median of the pairs' after/before speed ratios.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from scripts.bench_before_after import before_checkout  # noqa: E402

CHILD = r"""
import sys, time
from sim.registry import get_game
game, players, names = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
spec = get_game(game)
p = spec.prepare(spec.load_components(), players, (names * players)[:players], 1)
spec.play_chunk(p, 0, 1)
print("ready", flush=True)
for line in sys.stdin:
    t0 = time.process_time()
    spec.play_chunk(p, 0, int(line))
    print(f"{time.process_time() - t0:.6f}", flush=True)
"""


def _side(src: str, cache: str | None, args) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=src)
    if cache:
        env["XDG_CACHE_HOME"] = cache
        env.pop("NUMBA_CACHE_DIR", None)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, args.game, str(args.players),
                             args.strategies], cwd=src, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit(f"bench_pairs: error: the side in {src} did not start")
    return proc


def _chunk(proc: subprocess.Popen, games: int) -> float:
    proc.stdin.write(f"{games}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", required=True)
    ap.add_argument("--game", required=True)
    ap.add_argument("--strategies", required=True,
                    help="comma-separated players, repeated over the seats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4, help="games per chunk")
    ap.add_argument("--pairs", type=int, default=20)
    args = ap.parse_args(argv)
    tmp, before_dir = before_checkout(args.commit)
    sides = {"before": _side(before_dir, os.path.join(tmp, "cache"), args),
             "after": _side(ROOT, None, args)}
    times: dict = {"before": [], "after": []}
    try:
        for k in range(args.pairs):
            for name in (("before", "after") if k % 2 == 0 else ("after", "before")):
                times[name].append(_chunk(sides[name], args.games))
    finally:
        for proc in sides.values():
            proc.stdin.close()
            proc.wait()
    before, after = times["before"], times["after"]
    ratios = [b / a for b, a in zip(before, after)]
    print(f"{args.game}, {args.players} players, {args.strategies}: {args.pairs} pairs of "
          f"{args.games} games, CPU clock; before = {args.commit}, after = this checkout")
    print(f"CPU s per chunk, median: before {statistics.median(before):.3f}, after "
          f"{statistics.median(after):.3f}; after/before speed, median of the pairs: "
          f"{statistics.median(ratios):.3f} (pairs from {min(ratios):.3f} to "
          f"{max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
