"""Benchmark of the sagrada engine (see scripts/bench_engine.py for what it measures).

Usage: python scripts/bench_sagrada.py [--games 1000000] [--interp-games 20] [--memory-games N]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["--game", "sagrada", "--strategy", "greedy", "--interp-games", "20",
                   "--label", "", *sys.argv[1:]]))
