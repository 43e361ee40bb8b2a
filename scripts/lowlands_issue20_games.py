"""Which Lowlands games could issue 20's rule changes touch, and are the others identical?

    python scripts/lowlands_issue20_games.py BEFORE_RUN AFTER_RUN

Two run folders of the same command (engine before and after issue 20). A game is "untouched"
when, in the BEFORE run, no seat built a tile whose rule changed (Corner Pens; Lake View,
Woodland, Bush Clearing, Lake Pumping Station, Lake Meadow: terrain under buildings; Timber
Yard: cards from the deck; Dwelling Mound: the breach_tokens column), nobody both sold to
and bought from the sheep market (a refilled row can only matter then), and, with 3 or more
players, nobody was asked for dike support (the rivals' order changed). Untouched games must
be identical in every log column; the script prints how many are, and how many of the other
games differ. Exit 1 when an untouched game differs.
"""
from __future__ import annotations

import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

CHANGED_TILES = ("Corner Pens", "Lake View", "Woodland", "Bush Clearing", "Lake Pumping Station",
                 "Lake Meadow", "Timber Yard", "Dwelling Mound")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: lowlands_issue20_games.py BEFORE_RUN AFTER_RUN", file=sys.stderr)
        return 2
    from sim.games.lowlands import components as C
    from sim.runner import read_logs
    names = C.load_components().card_names["tile"]
    mask = 0
    for t in CHANGED_TILES:
        mask |= 1 << names.index(t)
    a = read_logs(argv[0]).drop(columns=["run_id"]).sort_values(["game", "seat"])
    b = read_logs(argv[1]).drop(columns=["run_id"]).sort_values(["game", "seat"])
    n_players = int(a.groupby("game").size().iloc[0])
    per_game = a.groupby("game").agg(tiles=("tiles_mask", lambda m: int(np.bitwise_or.reduce(m.astype(np.int64)))),
                                     sold=("sheep_sold", "sum"), bought=("sheep_bought", "sum"),
                                     asked=("support_asked", "sum"))
    touched = ((per_game.tiles & mask) != 0) | ((per_game.sold > 0) & (per_game.bought > 0))
    if n_players >= 3:
        touched |= per_game.asked > 0
    cols = [c for c in a.columns if c in b.columns]
    same = {}
    for g, part in a.groupby("game"):
        other = b[b.game == g]
        same[g] = (len(part) == len(other) and
                   all(np.array_equal(part[c].to_numpy(), other[c].to_numpy()) for c in cols))
    untouched = [g for g in per_game.index if not touched[g]]
    bad = [g for g in untouched if not same[g]]
    others = [g for g in per_game.index if touched[g]]
    print(f"{argv[1]}: {len(per_game)} games; untouched by the changed rules: {len(untouched)}, "
          f"identical: {len(untouched) - len(bad)}; the other {len(others)}: "
          f"{sum(not same[g] for g in others)} differ")
    if bad:
        print(f"  untouched games that differ: {bad[:10]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
