"""Grand Surfers' per-round snapshot (the game over time, docs/report.md): scores and the
surfers' positions after every round (each seat one turn). No play kernel calls these
functions (sim/snapshots.py does), so this file is outside the game's compile-cache key."""
import numpy as np
from numba import njit

from sim.games.surfers.enums import MAX_PLAYERS, S_BEACH
from sim.games.surfers.nb import N_PTS, height_nb, score_nb

# (name, label, scope, unit): scope "seat" = one value per seat, "game" = one per game
ROWS = (
    ("score", "Score if the game ended now", "seat", "points"),
    # a surfer's line: -1 at the start, 0 .. n_lines - 1 on the sea, n_lines on the beach,
    # -2 once removed (nb.height_nb)
    ("lead_height", "Furthest surfer's line", "seat", "lines"),
    ("heights", "Both surfers' lines, summed", "seat", "lines"),
    ("on_beach", "Surfers on the beach", "seat", "surfers"),
    ("wave", "Lines under the Great Wave", "game", "lines"),
)
PERIOD = "round"    # every seat one turn


@njit(cache=True, error_model="numpy")
def period_nb(s):
    """The round being played: turns played over the number of players."""
    return s.turn // max(s.n_players, 1)


@njit(cache=True, error_model="numpy")
def snapshot_nb(tables, s, n_players, out):
    """out[p, k] = quantity ROWS[k] of seat p now."""
    pts = np.zeros(N_PTS, np.int64)
    for p in range(min(n_players, MAX_PLAYERS)):
        out[p, 0] = score_nb(tables, s, p, pts)
        a = height_nb(tables, s, 2 * p)
        b = height_nb(tables, s, 2 * p + 1)
        out[p, 1] = a if a > b else b
        out[p, 2] = a + b
        out[p, 3] = (1 if s.status[2 * p] == S_BEACH else 0) + (1 if s.status[2 * p + 1] == S_BEACH else 0)
        out[p, 4] = s.wave
