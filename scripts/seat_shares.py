"""Seat shares with one strategy in every seat: a seat-number effect beyond chance?

    python scripts/seat_shares.py GAME --players N --strategy NAME --games G [--seed S]
                                  [--workers W] [--out DIR] [--set PATH=VALUE ...]

Plays G games with NAME in every seat (or reads DIR when it already holds that run) and
prints, per seat, the win share (ties split) with its 95% Wilson interval and the two-sided
test against the fair share 1/N, Holm-adjusted over the seats (sim.stats: the summary's
definitions); then, where the logs have a start-position column (start_order, start_position),
the win share of each start position, and of each seat within each start position. With the
same strategy in every seat and a random start player the seats are exchangeable: a seat
share outside chance is a defect of the engine or of the player, not a property of the game.
Not a test: a measurement whose command and figures go into the game's docs page.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

START_COLUMNS = ("start_order", "start_position")


def share_lines(df, by, fair):
    from sim.formatting import share_interval
    from sim.stats import holm, proportion_test, wilson_interval
    g = df.groupby(by)["win"]
    wins, n = g.sum().to_numpy(float), g.size().to_numpy(float)
    lo, hi = wilson_interval(wins, n)
    lines = []
    if fair is not None:
        _, p = proportion_test(wins, n, fair)
        adj = holm(p)
    for i, key in enumerate(g.sum().index):
        text = f"  {by} {key}: {int(n[i]):>7,} rows  {share_interval(wins[i] / n[i], lo[i], hi[i])}"
        if fair is not None:
            inside = "inside" if lo[i] <= fair <= hi[i] else "OUTSIDE"
            text += f"  fair {fair:.2%} {inside}, Holm p = {adj[i]:.4g}"
        lines.append(text)
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="seat_shares")
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--strategy", required=True)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args(argv)
    from sim import api
    t0 = time.perf_counter()
    run = api.run(a.game, players=a.players, strategies=[a.strategy] * a.players,
                  games=a.games, seed=a.seed, set=a.set or None, out=a.out,
                  workers=a.workers, overwrite=a.out is not None)
    wall = time.perf_counter() - t0
    df = run.logs
    n = a.players
    print(f"{a.game}, {n} players, {a.strategy} in every seat, {a.games:,} games, seed {a.seed}"
          f"{', ' + ', '.join(a.set) if a.set else ''}: {wall:.0f} s wall (compile included)")
    print("seat win shares (95% Wilson), test against 1/N, Holm over the seats:")
    print("\n".join(share_lines(df.assign(seat=df["seat"] + 1), "seat", 1.0 / n)))
    col = next((c for c in START_COLUMNS if c in df.columns), None)
    if col is not None:
        print(f"start-position shares ({col}, 0 = the first start player):")
        print("\n".join(share_lines(df, col, None)))
        print("seat within start position (seat: share):")
        for pos, part in df.groupby(col):
            shares = part.groupby("seat")["win"].mean()
            print(f"  {col} {pos}: " + ", ".join(f"seat {s + 1} {v:.2%}" for s, v in shares.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
