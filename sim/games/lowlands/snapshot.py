"""Lowlands' per-step snapshot (the game over time, docs/report.md): coins, sheep, dike,
sea and the standing score after every step of every stage. No play kernel calls these
functions (sim/snapshots.py does), so this file is outside the game's compile-cache key."""
from numba import njit

from sim.games.lowlands.enums import (
    MAX_PLAYERS, STEP_WORK2,
)
from sim.games.lowlands.cards import hand_total_nb
from sim.games.lowlands.dike import dike_points_nb
from sim.games.lowlands.market import sheep_price_nb

# (name, label, scope, unit): scope "seat" = one value per seat, "game" = one per game
ROWS = (
    ("score", "Score (standing; final score at the end)", "seat", "points"),
    ("coins", "Coins", "seat", "coins"),
    ("sheep", "Sheep", "seat", "sheep"),
    ("dike_points", "Dike points (track)", "seat", "points"),
    ("dike", "Dike segments built", "game", "segments"),
    ("sea", "Sea (wave pieces)", "game", "waves"),
)
# half a stage: (tide, work, upkeep) then (work, upkeep, high tide). Every half holds a work
# phase, so every game shows every half (a finer period, the step, is skipped by the games
# where a step passes without a decision, and its means would mix different games)
PERIOD = "half-stage"


@njit(cache=True, error_model="numpy")
def period_nb(s):
    """The half-stage being played: stage * 2, + 1 from the second work phase on."""
    return s.stage * 2 + (1 if s.step >= STEP_WORK2 else 0)


@njit(cache=True, error_model="numpy")
def snapshot_nb(tables, s, n_players, out):
    """out[p, k] = quantity ROWS[k] of seat p now. The standing score is the final-scoring
    formula on the current state (dike points at the current dike price, sheep at the current
    sheep price, shields, coins, cards) without the end-of-game bonuses and breach penalties;
    once the game is over it is the final score."""
    price = sheep_price_nb(tables, s)
    for p in range(min(n_players, MAX_PLAYERS)):
        if s.over == 1:
            out[p, 0] = s.score[p]
        else:
            shields = 0
            for x in range(tables.n_tiles):
                if (s.owned[p] >> x) & 1:
                    shields += tables.tile_shields[x]
            out[p, 0] = (dike_points_nb(tables, s, p) * tables.price_dike[s.price]
                         + (s.sheep[p] + s.sheep_tile[p]) * price + shields + s.coins[p]
                         + hand_total_nb(s, p) // tables.cards_per_point)
        out[p, 1] = s.coins[p]
        out[p, 2] = s.sheep[p] + s.sheep_tile[p]
        out[p, 3] = dike_points_nb(tables, s, p)
        out[p, 4] = s.segments
        out[p, 5] = s.waves
