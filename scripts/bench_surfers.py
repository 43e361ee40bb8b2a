"""Benchmark of the surfers engine (see scripts/bench_engine.py for what it measures).

Usage: python scripts/bench_surfers.py [--games 1000000] [--interp-games 100] [--memory-games N]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["--game", "surfers", "--strategy", "racer", "--interp-games", "100",
                   "--label", " (default sheet, spread 0.5)", *sys.argv[1:]]))
