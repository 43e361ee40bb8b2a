"""Does each game's shipped search player beat its strongest built-in?

    python scripts/check_search_defaults.py [--games sunset,sagrada,lowlands,surfers]
        [--players 2] [--n 300] [--player mcts] [--seed 1] [--workers W] [--out DIR]

For each game: the shipped `mcts` (or `--player flatmc`, where the game declares it) in one
seat against the opponent of its declared measurement (`GameSpec.search_defaults`, shown by
`balance strategies GAME`) in every other seat, seats rotated, `--n` games (rounded up to
whole rotations). Prints the search player's win share with its Wilson 95% interval and the
one-sided exact binomial p-value of "it wins no more than the fair share", and exits 1 if the
interval does not lie above the fair share for some game.

This is the strength check of the shipped players that does not fit the test suite: at 2
players Sunset's, Sagrada's and Grand Surfers' shipped mcts win 65-70% against their
strongest built-in, which takes a few hundred games (minutes per game and machine) to show
beyond the interval; the suite checks Lowlands' alone (tests/test_search_defaults.py), and
the declared measurements' consistency for every game.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check(game: str, player: str, players: int, n: int, seed: int, workers, out) -> bool:
    from scipy.stats import binom

    from sim.formatting import share_interval
    from sim.stats import wilson_interval
    from sim.api import run
    from sim.registry import get_game

    spec = get_game(game)
    declared = spec.search_defaults.get(player)
    if declared is None:
        print(f"{game}: {player} keeps the generic defaults (nothing declared): skipped")
        return True
    against = declared.measured[0].against if declared.measured else "planner"
    t0 = time.perf_counter()
    r = run(game, players=players, strategies=[player] + [against] * (players - 1), games=n,
            seed=seed, rotate_seats=True, workers=workers,
            out=os.path.join(out, f"{game}-{player}-{players}p") if out else None)
    logs = r.logs
    mine = logs[logs["strategy"] == player]
    wins, games = float(mine["win"].sum()), int(mine["game"].nunique())
    lo, hi = wilson_interval(wins, games)
    fair = 1.0 / players
    p = binom.sf(math.floor(wins) - 1, games, fair)
    ok = lo > fair
    print(f"{game}: {player} wins {share_interval(wins / games, lo, hi)} of {games} games "
          f"against {players - 1} x {against} (fair {fair:.0%}); one-sided p = {p:.2g}; "
          f"{'stronger' if ok else 'NOT shown stronger'}; {time.perf_counter() - t0:.0f} s "
          f"with compile and setup")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="sunset,sagrada,lowlands,surfers")
    ap.add_argument("--player", default="mcts", choices=["mcts", "flatmc"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--n", type=int, default=300, help="games per game (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", default=None, help="keep the run folders here")
    args = ap.parse_args(argv)
    ok = [check(g.strip(), args.player, args.players, args.n, args.seed, args.workers, args.out)
          for g in args.games.split(",") if g.strip()]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
