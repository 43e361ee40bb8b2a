"""Sunset Over Water's per-day snapshot (the game over time, docs/report.md): what each seat
holds at the end of every day. No play kernel calls these functions (sim/snapshots.py does),
so this file is outside the game's compile-cache key (sim/compile_cache.py)."""
import numpy as np
from numba import njit

from sim.games.sunset.enums import MAX_PLAYERS
from sim.games.sunset.nb import N_PTS, score_nb

# (name, label, scope, unit): scope "seat" = one value per seat, "game" = one per game
ROWS = (
    ("score", "Score", "seat", "points"),
    ("paintings", "Paintings held", "seat", "landscapes"),
    ("painted", "Landscapes painted so far", "seat", "landscapes"),
    ("commissions", "Commissions sold", "seat", "commissions"),
)
PERIOD = "day"


@njit(cache=True, error_model="numpy")
def period_nb(s):
    """The day being played (0-based): a snapshot is taken when it changes."""
    return s.day


@njit(cache=True, error_model="numpy")
def snapshot_nb(tables, s, n_players, out):
    """out[p, k] = quantity ROWS[k] of seat p now."""
    pts = np.zeros(N_PTS, np.int64)
    for p in range(min(n_players, MAX_PLAYERS)):
        out[p, 0] = score_nb(tables, s, p, pts)
        out[p, 1] = s.hand_n[p]
        out[p, 2] = s.painted[p]
        sold = 0
        for c in range(tables.n_comm):
            if s.comm_owned[p, c] > 0:
                sold += 1
        out[p, 3] = sold
