"""Lowlands invariants over many checked games (10,000 random games per player count).

    PYTHONPATH=. python scripts/lowlands_invariants.py [--games 10000] [--strategy random]

Plays the games with check_state_nb after every step (66 resource cards conserved, fences
per player conserved, every housed sheep in a closed pasture or on a tile that houses sheep,
wave pieces within 0..36, farmhands conserved, score = sum of its components at the end) and
prints one line per player count. Exit code 1 on the first broken invariant. Too long for the
test suite (tests/test_lowlands_invariants.py runs 150-200 games per case).
"""
import argparse
import sys
import time

import numpy as np

sys.path.insert(0, ".")
from sim.games.lowlands import enums as E  # noqa: E402
from sim.games.lowlands import model as M  # noqa: E402
from tests.lowlands_helpers import params_for, play_many_nb, tables  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args()
    t = tables()[0]
    s = E.new_state()
    for n in (2, 3, 4):
        sids, params = params_for([a.strategy] * n)
        rec = np.zeros(a.games * n, M.RECORD.dtype)
        t0 = time.time()
        code = play_many_nb(t, s[0], n, a.seed, 0, a.games, sids, params, rec, True)
        parts = sum(rec[c] for c in ("pts_dike", "pts_sheep", "pts_shields", "pts_coins",
                                     "pts_cards", "pts_bonus"))
        ok = code == 0 and (parts == rec["score"]).all()
        print(f"{n} players: {a.games} games, check code {code}, scores = sums: "
              f"{(parts == rec['score']).all()}, {time.time() - t0:.1f} s")
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
