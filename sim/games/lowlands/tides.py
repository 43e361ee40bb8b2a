"""Lowlands: the sea: laying and revealing the flood cards, and the high tide that tests
the dike at the end of each stage.
"""
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    EF_BUSH_COINS, EF_HALF_BREACH, EV_FLOOD, EV_HIGH, TERRAIN_BUSH,
)
from sim.games.lowlands.dike import dike_holds_nb, dike_points_nb
from sim.games.lowlands.farm import has_effect_nb, terrain_outside_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb


@njit(cache=True, error_model="numpy")
def reveal_flood_nb(t, s, trace, tn):
    """Reveal the leftmost face-down sea card: that many wave pieces, left to right, layer on
    layer (a piece beyond 3 full layers cannot be placed)."""
    j = s.sea_shown
    if j >= s.sea_n:
        return
    c = s.sea[j]
    s.sea_shown = j + 1
    w = s.waves + t.flood_value[c]
    top = t.n_layers * t.layer_width
    s.waves = w if w < top else top
    trace_nb(trace, tn, EV_FLOOD, t.flood_value[c], s.waves, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def lay_sea_nb(s):
    n = 0
    for j in range(3):
        s.sea[j] = -1
        if s.flood_n > 0:
            s.flood_n -= 1
            s.sea[j] = s.flood_deck[s.flood_n]
            n += 1
    s.sea_n = n
    s.sea_shown = 0


@njit(cache=True, error_model="numpy")
def high_tide_nb(t, s, trace, tn):
    """High tide: Bush Clearing's coins, then the dike against the waves. Held: each player
    gets 1 coin per dike point above the lowest, the price marker moves right. Broken: each
    takes 1 breach token per dike point below the highest (Flood Insurance: half, rounded up),
    the marker moves left. The stage's flood cards leave the game."""
    np_ = s.n_players
    for p in range(np_):
        nb = has_effect_nb(t, s, p, EF_BUSH_COINS)
        if nb > 0:
            s.coins[p] += nb * terrain_outside_nb(t, s, p, TERRAIN_BUSH, in_pasture_mask_nb(t, s, p))
    lo = 1 << 40
    hi = -1
    for p in range(np_):
        d = dike_points_nb(t, s, p)
        if d < lo:
            lo = d
        if d > hi:
            hi = d
    holds = dike_holds_nb(t, s)
    if holds:
        for p in range(np_):
            s.coins[p] += dike_points_nb(t, s, p) - lo
        if s.price < t.n_price - 1:
            s.price += 1
    else:
        s.floods_broke += 1
        s.stages_broke |= 1 << s.stage
        for p in range(np_):
            k = hi - dike_points_nb(t, s, p)
            if has_effect_nb(t, s, p, EF_HALF_BREACH) > 0:
                k = (k + 1) // 2
            s.breach[p] += k
        if s.price > 0:
            s.price -= 1
    trace_nb(trace, tn, EV_HIGH, 1 if holds else 0, s.waves, s.segments, 0, 0)
    s.sea[:] = -1
    s.sea_n = 0
    s.sea_shown = 0
