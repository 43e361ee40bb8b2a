"""Benchmark of the Lowlands engine (see scripts/bench_engine.py for what it measures).

The target: 100,000 four-player games with greedy players in under 60 s wall on the
2-core machine, logs written; compiled at least 100x faster than interpreted.

Usage: python scripts/bench_lowlands.py [--games 100000] [--interp-games 5] [--memory-games N]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import main  # noqa: E402

if __name__ == "__main__":
    # an interpreted Lowlands game takes seconds: 5 games make the ratio, 20,000 the scaling
    sys.exit(main(["--game", "lowlands", "--strategy", "greedy", "--games", "100000",
                   "--interp-games", "5", "--scaling-games", "20000", "--label", "",
                   *sys.argv[1:]]))
