"""Benchmark of the balance report: wall time and peak memory of `balance report` on a real
Sunset Over Water run (4 players, planner/greedy/greedy/random).

    python scripts/bench_report.py                    # 1,000,000 games (4 million rows)
    python scripts/bench_report.py --games 10000000   # the 10-million-game target (~10 min to play)

The run is played first with the real engine (`balance run sunset ... --no-progress`) into
--out (default runs/bench-report-<games>), or reused if that folder already holds the
complete run. The report is then built in a fresh Python process, timed from the outside
(interpreter start-up and imports included); its peak memory is that process's maximum
resident set size (getrusage). Targets: under 120 s and under 4 GB for 10 million games.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRATEGIES = "planner,greedy,greedy,random"

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from scripts.cli import main
rc = main(["report", sys.argv[1], "--out", sys.argv[2], "--no-progress"])
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("BENCH " + json.dumps({"rc": rc, "inside_seconds": time.perf_counter() - t0,
                             "peak_rss_mb": rss_kb / 1024}))
"""


def run_complete(out_dir: str, games: int) -> bool:
    path = os.path.join(out_dir, "manifest.json")
    if not os.path.isfile(path):
        return False
    with open(path) as fh:
        m = json.load(fh)
    return (m.get("status") == "complete" and int(m.get("games", -1)) == games
            and m.get("strategy_names") == STRATEGIES.split(","))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--out", default=None, help="run folder (default runs/bench-report-<games>)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1, help="report builds to time (best is shown)")
    args = ap.parse_args(argv)
    out = args.out or os.path.join(ROOT, "runs", f"bench-report-{args.games}")
    balance = os.path.join(os.path.dirname(sys.executable), "balance")

    if run_complete(out, args.games):
        print(f"reusing the complete run in {out}")
    else:
        cmd = [balance, "run", "sunset", "--players", "4", "--games", str(args.games),
               "--strategies", STRATEGIES, "--seed", "1", "--out", out, "--overwrite",
               "--no-progress"]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        print("playing:", " ".join(cmd[1:]), flush=True)
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        print(f"played {args.games:,} games in {time.perf_counter() - t:.1f} s", flush=True)

    rows = 4 * args.games
    chunk_dir = os.path.join(out, "chunks")
    size_mb = sum(os.path.getsize(os.path.join(chunk_dir, f)) for f in os.listdir(chunk_dir)) / 2**20
    results = []
    for _ in range(max(1, args.repeat)):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", CHILD, out, os.path.join(out, "report")],
                              cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t
        line = next((x for x in proc.stdout.splitlines() if x.startswith("BENCH ")), None)
        if proc.returncode != 0 or line is None:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
            return 1
        res = json.loads(line[len("BENCH "):])
        res["wall_seconds"] = wall
        results.append(res)
    best = min(results, key=lambda r: r["wall_seconds"])
    print()
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"run: {args.games:,} games, {rows:,} rows, {size_mb:,.0f} MB of Parquet in "
          f"{len(os.listdir(chunk_dir))} chunks")
    print(f"report wall time: {best['wall_seconds']:.1f} s (process start to exit; "
          f"{best['inside_seconds']:.1f} s after start-up)")
    print(f"report peak memory (max RSS): {best['peak_rss_mb']:,.0f} MB")
    ok = best["wall_seconds"] < 120 and best["peak_rss_mb"] < 4096
    print(f"targets (10M games: < 120 s, < 4096 MB): {'met' if ok else 'NOT met'} at this size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
