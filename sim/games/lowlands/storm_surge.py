"""Lowlands: the storm surge after the last stage, and final scoring.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    CELL_NB, EF_BANK, EF_BREEDING, EF_DIKE_ASSOC, EF_ESTATE, EF_FARMHOUSE, EF_LAKE_CABIN,
    EF_LAKE_POINTS, EF_MOUND, EF_TREE_POINTS, EV_END, K_FACILITY, MAX_PLAYERS, N_CELLS,
    PTS_BONUS, PTS_CARDS, PTS_COINS, PTS_DIKE, PTS_SHEEP, PTS_SHIELDS, TERRAIN_LAKE,
    TERRAIN_TREE,
)
from sim.games.lowlands.cards import hand_total_nb
from sim.games.lowlands.dike import dike_holds_nb, dike_points_nb, move_marker_nb
from sim.games.lowlands.farm import terrain_outside_nb
from sim.games.lowlands.market import sheep_price_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb, n_pastures_nb


@njit(cache=True, error_model="numpy")
def storm_surge_nb(t, s, trace, tn):
    """The storm surge: '!' effects, the final dike check with its penalties (sheep, then the
    sheep price in coins per token, then 1 point per coin missing), final scoring."""
    np_ = s.n_players
    bonus = np.zeros(MAX_PLAYERS, np.int64)
    for p in range(np_):
        s.breach_tokens[p] = s.breach[p]     # before the '!' effects (Dwelling Mound)
    for p in range(np_):
        bonus[p] = storm_effects_nb(t, s, p, trace, tn)
        s.bonus_points[p] = bonus[p]
    holds = dike_holds_nb(t, s)
    s.final_breach = 0 if holds else 1
    price = sheep_price_nb(t, s)
    penalty = np.zeros(MAX_PLAYERS, np.int64)
    for p in range(np_):
        if holds:
            s.breach[p] = 0
        else:
            penalty[p] = breach_penalty_nb(s, p, price)
    for p in range(np_):
        final_score_nb(t, s, p, price, penalty[p], bonus[p])
    trace_nb(trace, tn, EV_END, 1 - (1 if holds else 0), 0, 0, 0, 0)
    s.over = 1


@njit(cache=True, error_model="numpy")
def storm_effects_nb(t, s, p, trace, tn):
    """The '!' effects of seat p's tiles at the storm surge, in tile order: the points they
    score (returned); the Dike Association's marker move, the Dwelling Mound's discarded breach
    tokens and the Breeding Farm's sheep are applied to the state."""
    bonus = 0
    inmask = in_pasture_mask_nb(t, s, p)
    for x in range(t.n_tiles):
        if not (s.owned[p] >> x) & 1:
            continue
        ef = t.tile_effect[x]
        prm = t.tile_param[x]
        if ef == EF_BANK:
            bonus += s.coins[p] // prm if prm > 0 else 0
        elif ef == EF_FARMHOUSE:
            nf = 0
            for k in range(N_CELLS):
                y = s.tile_at[p, k]
                if y >= 0 and t.tile_kind[y] == K_FACILITY:
                    nf += 1
            bonus += prm * nf
        elif ef == EF_DIKE_ASSOC:
            move_marker_nb(t, s, p, 2 * (dike_points_nb(t, s, p) // prm), False, trace, tn)
        elif ef == EF_MOUND:
            if s.breach[p] <= prm:
                s.breach[p] = 0
        elif ef == EF_ESTATE:
            bonus += prm * n_pastures_nb(t, s, p)
        elif ef == EF_BREEDING:
            s.sheep_tile[p] += (s.sheep[p] + s.sheep_tile[p]) // prm if prm > 0 else 0
        elif ef == EF_LAKE_POINTS:
            nl = terrain_outside_nb(t, s, p, TERRAIN_LAKE, inmask)
            bonus += 10 if nl >= 4 else (7 if nl >= 3 else 0)
        elif ef == EF_TREE_POINTS:
            ntr = terrain_outside_nb(t, s, p, TERRAIN_TREE, inmask)
            bonus += 15 if ntr >= 5 else (10 if ntr >= 4 else (5 if ntr >= 3 else 0))
        elif ef == EF_LAKE_CABIN:
            bonus += lake_cabin_points_nb(s, p, x, prm, inmask)
    return bonus


@njit(cache=True, error_model="numpy")
def lake_cabin_points_nb(s, p, x, points, inmask):
    """The Lake Cabin (tile x): `points` per empty neighbouring cell outside pastures."""
    v = 0
    for k in range(N_CELLS):
        if s.tile_at[p, k] == x:
            for d in range(4):
                nb = CELL_NB[k, d]
                if nb >= 0 and s.tile_at[p, nb] < 0 and not (inmask >> nb) & 1:
                    v += points
    return v


@njit(cache=True, error_model="numpy")
def breach_penalty_nb(s, p, price):
    """Seat p pays for its breach tokens when the dike breaks: one sheep per token (farm
    first, then the Breeding Farm), then `price` coins per token left; returns the points
    lost for the coins it could not pay."""
    k = s.breach[p]
    lose = k if k < s.sheep[p] else s.sheep[p]
    s.sheep[p] -= lose
    k -= lose
    lose2 = k if k < s.sheep_tile[p] else s.sheep_tile[p]
    s.sheep_tile[p] -= lose2
    k -= lose2
    s.penalty_sheep[p] = lose + lose2
    owe = k * price
    pay = owe if owe < s.coins[p] else s.coins[p]
    s.coins[p] -= pay
    s.penalty_coins[p] = pay
    s.penalty_points[p] = owe - pay
    return owe - pay


@njit(cache=True, error_model="numpy")
def final_score_nb(t, s, p, price, penalty, bonus):
    """Seat p's score components (PTS_*) and score at the end."""
    s.pts[p, PTS_DIKE] = dike_points_nb(t, s, p) * t.price_dike[s.price]
    s.pts[p, PTS_SHEEP] = (s.sheep[p] + s.sheep_tile[p]) * price
    sh = 0
    for x in range(t.n_tiles):
        if (s.owned[p] >> x) & 1:
            sh += t.tile_shields[x]
    s.pts[p, PTS_SHIELDS] = sh
    s.pts[p, PTS_COINS] = s.coins[p] - penalty
    s.pts[p, PTS_CARDS] = hand_total_nb(s, p) // t.cards_per_point
    s.pts[p, PTS_BONUS] = bonus
    tot = 0
    for c in range(s.pts.shape[1]):
        tot += s.pts[p, c]
    s.score[p] = tot
