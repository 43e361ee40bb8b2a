"""Games per second per core of each game's built-in players (or a named search player, e.g.
`--strategy mcts`), before and after a change.

    python scripts/bench_before_after.py [--commit fc6f2d9] [--games 2000] [--players 4]
                                         [--game sunset --game sagrada ...] [--rounds 2]
                                         [--clock wall|cpu] [--strategy greedy ...]

"Before" is the given git commit (default fc6f2d9, the engine before the game template),
exported with `git archive` into a folder of the temp directory (kept per commit) and run in
a subprocess with its own numba cache there; "after" is this checkout, also in a
subprocess, with the usual cache (the cache folder is keyed on the sources, so the sides
never share machine code). Both play the identical games (same seed,
same game indices, same components, every seat the same player) with one worker, through
`spec.play_chunk` (the path of a run, logs excluded); the sides alternate for --rounds
rounds and the fastest round of each counts. Compile time is excluded (a 2-game warm-up).

Prints per game and built-in: games/s before, after, after/before, and whether the two sides
produced the same scores and win shares (the games being identical is what makes the ratio
meaningful). On a loaded machine the ratio is noisier than the figures; the README figures
are measured on an idle machine. `--clock cpu` times each chunk with the process's CPU time
instead of the wall clock: on a loaded machine it leaves out the time the process waited for
a core (it still feels the other processes through the shared caches).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import hashlib, json, sys, time
import numpy as np
from sim.registry import get_game
jobs = json.loads(sys.argv[1])
out = []
for job in jobs:
    spec = get_game(job["game"])
    comp = spec.load_components()
    n = min(max(job["players"], spec.min_players), spec.max_players)
    # every built-in by default; a search player only when named (it plays far slower)
    names = [c["name"] for c in spec.strategy_catalog()
             if int(c["id"]) < 1000 or c["name"] in job["strategies"]]
    names = [n for n in names if not job["strategies"] or n in job["strategies"]]
    for name in names:
        p = spec.prepare(comp, n, [name] * n, 7)
        spec.play_chunk(p, 0, 2)                      # compile or load outside the timing
        clock = time.process_time if job.get("clock") == "cpu" else time.perf_counter
        t0 = clock()
        cols = spec.play_chunk(p, 0, job["games"])
        secs = clock() - t0
        digest = hashlib.sha256()
        for c in ("game", "seat", "score", "win"):
            digest.update(np.asarray(cols[c], np.float64).tobytes())
        out.append({"game": job["game"], "players": n, "strategy": name,
                    "gps": job["games"] / secs, "digest": digest.hexdigest()})
print("RESULT " + json.dumps(out))
"""


def run_side(src_dir: str, cache_dir: str | None, jobs: list) -> list:
    env = dict(os.environ, PYTHONPATH=src_dir)
    if cache_dir:
        env["XDG_CACHE_HOME"] = cache_dir
        env.pop("NUMBA_CACHE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(jobs)], cwd=src_dir,
                          env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench_before_after: error: the run in {src_dir} failed:\n"
                         f"{proc.stderr.strip()[-2000:]}")
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def export_commit(commit: str, dest: str) -> None:
    archive = subprocess.run(["git", "-C", ROOT, "archive", commit], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"bench_before_after: error: git archive {commit}: "
                         f"{archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)


def before_checkout(commit: str) -> tuple:
    """(folder, its source tree) of `commit` exported for the before side. The export is
    kept per commit (git archive gives every file the commit's time), so a second benchmark
    of the same commit loads its machine code from its own cache (folder/cache)."""
    short = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", commit],
                           capture_output=True, text=True).stdout.strip() or commit
    tmp = os.path.join(tempfile.gettempdir(), f"balance-bench-before-{short}")
    before_dir = os.path.join(tmp, "src")
    if not os.path.isdir(os.path.join(before_dir, "sim")):
        os.makedirs(before_dir, exist_ok=True)
        export_commit(commit, before_dir)
    return tmp, before_dir


def _rate(gps: float) -> str:
    """Games per second, with two decimals when few (a search player plays a game or two a
    second)."""
    return f"{gps:>10.0f}" if gps >= 100 else f"{gps:>10.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", default="fc6f2d9")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", action="append", dest="games_list",
                    help="a game to measure (repeatable; default: every game of the "
                         "before commit's registry that this checkout also has)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--strategy", action="append", dest="strategies", default=[],
                    help="a player to measure (repeatable; default: every built-in; a "
                         "search player such as mcts only when named)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time with the wall clock (default) or the process's CPU time "
                         "(steadier on a loaded machine)")
    args = ap.parse_args(argv)

    tmp, before_dir = before_checkout(args.commit)
    games = args.games_list
    if not games:
        list_code = ("from sim.registry import list_games; "
                     "print(' '.join(g.name for g in list_games()))")
        names = []
        for d in (before_dir, ROOT):
            proc = subprocess.run([sys.executable, "-c", list_code], cwd=d, capture_output=True,
                                  text=True, env=dict(os.environ, PYTHONPATH=d))
            names.append(proc.stdout.split())
        games = [g for g in names[0] if g in names[1]]
    jobs = [{"game": g, "players": args.players, "games": args.games, "clock": args.clock,
             "strategies": args.strategies} for g in games]
    best: dict = {}
    for r in range(args.rounds):
        for side, src in (("before", before_dir), ("after", ROOT)):
            print(f"round {r + 1}: {side} ...", file=sys.stderr, flush=True)
            cache = os.path.join(tmp, "cache") if side == "before" else None
            for row in run_side(src, cache, jobs):
                key = (row["game"], row["players"], row["strategy"], side)
                if key not in best or row["gps"] > best[key]["gps"]:
                    best[key] = row
    print(f"games per second per core, 1 worker, {args.games} games, best of {args.rounds} "
          f"round(s), {args.clock} clock; before = {args.commit}, after = this checkout")
    print(f"{'game':10} {'players':>7} {'strategy':12} {'before':>10} {'after':>10} "
          f"{'after/before':>12}  same games")
    for (game, players, strategy, side), row in sorted(best.items()):
        if side != "before" or (game, players, strategy, "after") not in best:
            continue
        after = best[(game, players, strategy, "after")]
        same = "yes" if after["digest"] == row["digest"] else "NO"
        print(f"{game:10} {players:>7} {strategy:12} {_rate(row['gps'])} {_rate(after['gps'])} "
              f"{after['gps'] / row['gps']:>12.3f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
