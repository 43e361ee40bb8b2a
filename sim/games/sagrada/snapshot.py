"""Sagrada's per-round snapshot (the game over time, docs/report.md): the score if the game
ended now, dice placed and favour tokens left after every round. No play kernel calls these
functions (sim/snapshots.py does), so this file is outside the game's compile-cache key."""
import numpy as np
from numba import njit

from sim.games.sagrada.enums import MAX_PLAYERS
from sim.games.sagrada.nb import N_PTS, score_nb

# (name, label, scope, unit): scope "seat" = one value per seat, "game" = one per game
ROWS = (
    ("score", "Score if the game ended now", "seat", "points"),
    ("dice_placed", "Dice placed", "seat", "dice"),
    ("favour_tokens", "Favour tokens left", "seat", "tokens"),
)
PERIOD = "round"


@njit(cache=True, error_model="numpy")
def period_nb(s):
    """The round being played (0-based)."""
    return s.round


@njit(cache=True, error_model="numpy")
def snapshot_nb(tables, s, n_players, out):
    """out[p, k] = quantity ROWS[k] of seat p now (the score counts every open space)."""
    pts = np.zeros(N_PTS, np.int64)
    for p in range(min(n_players, MAX_PLAYERS)):
        out[p, 0] = score_nb(tables, s, p, pts)
        out[p, 1] = s.n_placed[p]
        out[p, 2] = s.tokens[p]
