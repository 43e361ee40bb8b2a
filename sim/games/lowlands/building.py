"""Lowlands: building farm expansion tiles: the face-up tiles, the cells a tile may stand on,
its cost, and what it does when built (tile_effect_nb).
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    DIKE_TILE, EF_BANK, EF_BREEDING, EF_BUILD_DIKE, EF_BUSH_COINS, EF_CAPACITY_COINS, EF_COINS,
    EF_COMPLETE_SEGMENT, EF_DAIRY, EF_DIKE_ACTION, EF_DIKE_ASSOC, EF_ESTATE, EF_FARMHOUSE,
    EF_FENCE_AND_SHEEP, EF_FREE_FENCES, EF_MARKET_HALL, EF_SHEEP, EF_SHEEP_FARM, EF_WAVES,
    EV_BUILD, FENCE_FREE, FENCE_TILE, K_FACILITY, K_STORM, MAX_DISPLAY, N_CELLS, N_KINDS, N_RES,
    TERRAIN_BUSH, T_BUILD, T_CARDS, T_ESCAPE, T_FENCE, T_MARKET_HALL, T_SHEEP_GAIN,
)
from sim.games.lowlands.cards import discounts_nb, pay_nb, pay_plan_nb
from sim.games.lowlands.dike import complete_segment_nb, move_marker_nb, remove_waves_nb
from sim.games.lowlands.dike_action import start_dike_nb
from sim.games.lowlands.farm import capacity_nb, has_effect_nb, terrain_outside_nb
from sim.games.lowlands.income import uncover_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb
from sim.games.lowlands.tasks import pop_nb, push_nb
from sim.numba_calls import plain_constants


@njit(cache=True, error_model="numpy")
def refill_tiles_nb(t, s, k):
    """Fill the empty face-up places of tile kind k from its pile (storm buildings: never)."""
    if k == K_STORM:
        return
    n = t.display_per_kind
    for i in range(n):
        if s.tile_display[k, i] < 0 and s.tile_deck_n[k] > 0:
            s.tile_deck_n[k] -= 1
            s.tile_display[k, i] = s.tile_deck[k, s.tile_deck_n[k]]


@njit(cache=True, error_model="numpy")
def tile_cells_nb(t, s, p, x, cells):
    """Empty cells of p's farm where tile x may stand (terrain requirement)."""
    n = 0
    lay = s.layout[p]
    req = t.tile_terrain[x]
    for k in range(N_CELLS):
        if s.tile_at[p, k] >= 0:
            continue
        if req != 0 and (t.layout_terrain[lay, k] & req) == 0:
            continue
        cells[n] = k
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def tile_cost_nb(t, s, p, x, need):
    disc = np.empty(N_RES, np.int64)
    discounts_nb(t, s, p, disc)
    for r in range(N_RES):
        need[r] = t.tile_cost[x, r] - disc[r]


@plain_constants
@njit(cache=True, error_model="numpy")
def build_options_nb(t, s, p, value, facility_only, free_any, options):
    """Face-up tiles p may build: value reached, limits (4 buildings, 1 storm building),
    cost payable (discount tiles, farmhands, exchange), a cell for it. code = kind*MAX_DISPLAY+slot."""
    n = 0
    need = np.empty(N_RES, np.int64)
    out = np.empty(N_RES, np.int64)
    cells = np.empty(N_CELLS, np.int64)
    disc = np.empty(N_RES, np.int64)
    discounts_nb(t, s, p, disc)          # as tile_cost_nb, once for every tile
    for k in range(N_KINDS):
        if facility_only and k != K_FACILITY:
            continue
        if k != K_FACILITY and s.n_buildings[p] >= t.max_buildings:
            continue
        if k == K_STORM and s.storm_built[p] >= t.max_storm_buildings:
            continue
        for i in range(MAX_DISPLAY):
            x = s.tile_display[k, i]
            if x < 0 or t.tile_value[x] > value:
                continue
            for r in range(N_RES):
                need[r] = t.tile_cost[x, r] - disc[r]
            if not pay_plan_nb(t, s, p, need, free_any, out):
                continue
            if tile_cells_nb(t, s, p, x, cells) == 0:
                continue
            options[n] = k * MAX_DISPLAY + i
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def tile_effect_nb(t, s, p, x, cell, trace, tn):
    """The immediate effects of tile x just built on `cell` (its passive effects are read
    where they apply). Effects that are actions become tasks on the stack."""
    ef = t.tile_effect[x]
    prm = t.tile_param[x]
    if ef == EF_COINS:
        s.coins[p] += prm
    elif ef == EF_SHEEP:
        push_nb(s, T_SHEEP_GAIN, p, prm, 0, 0, 0, 0, 0)
    elif ef == EF_FREE_FENCES:
        if s.fence_supply[p] > 0:
            push_nb(s, T_FENCE, p, prm, FENCE_FREE, -1, 0, 0, 0)
    elif ef == EF_BANK:
        s.coins[p] += prm
    elif ef == EF_FARMHOUSE:
        push_nb(s, T_BUILD, p, 4, 1, 0, 0, 0, 0)
    elif ef == EF_DIKE_ASSOC:
        move_marker_nb(t, s, p, prm, True, trace, tn)
    elif ef == EF_ESTATE:
        if s.fence_supply[p] > 0:
            push_nb(s, T_FENCE, p, 2, FENCE_FREE, -1, 0, 0, 0)
    elif ef == EF_BREEDING:
        push_nb(s, T_SHEEP_GAIN, p, 1, 0, 0, 0, 0, 0)
    elif ef == EF_COMPLETE_SEGMENT:
        if s.segments < t.n_segments:
            if s.site_res < 0:
                s.site_res = 0
            s.site_pos = t.site_length
            complete_segment_nb(t, s)
        move_marker_nb(t, s, p, prm, True, trace, tn)
    elif ef == EF_WAVES:
        remove_waves_nb(t, s, s.n_buildings[p])
    elif ef == EF_DAIRY:
        s.coins[p] += s.sheep[p] // 2
    elif ef == EF_CAPACITY_COINS:
        room = capacity_nb(t, s, p) - s.sheep[p]
        if room > 0:
            s.coins[p] += prm * room
    elif ef == EF_FENCE_AND_SHEEP:
        push_nb(s, T_SHEEP_GAIN, p, prm, 0, 0, 0, 0, 0)
        push_nb(s, T_FENCE, p, 3, FENCE_TILE, -1, 0, 0, in_pasture_mask_nb(t, s, p))
    elif ef == EF_BUSH_COINS:
        s.coins[p] += terrain_outside_nb(t, s, p, TERRAIN_BUSH, in_pasture_mask_nb(t, s, p))
    elif ef == EF_SHEEP_FARM:
        inmask = in_pasture_mask_nb(t, s, p)
        lay = s.layout[p]
        for k in range(N_CELLS):
            if (inmask >> k) & 1 and (t.layout_terrain[lay, k] & TERRAIN_BUSH):
                s.coins[p] += prm
        push_nb(s, T_SHEEP_GAIN, p, 1, 0, 0, 0, 0, 0)
    elif ef == EF_DIKE_ACTION:
        start_dike_nb(t, s, p, prm, DIKE_TILE)
    elif ef == EF_MARKET_HALL:
        push_nb(s, T_MARKET_HALL, p, x, 0, 0, 0, 0, 0)
    # Builders' Guild: every building (not facility), this one included, gives a value-2 dike action
    if t.tile_kind[x] != K_FACILITY and has_effect_nb(t, s, p, EF_BUILD_DIKE) > 0:
        for y in range(t.n_tiles):
            if (s.owned[p] >> y) & 1 and t.tile_effect[y] == EF_BUILD_DIKE:
                start_dike_nb(t, s, p, t.tile_param[y], DIKE_TILE)


@njit(cache=True, error_model="numpy")
def apply_cell_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    x = s.task[i, 2]
    left = s.task[i, 3]
    own = s.task[i, 4]
    free = s.task[i, 5]
    pop_nb(s)
    need = np.empty(N_RES, np.int64)
    out = np.empty(N_RES, np.int64)
    tile_cost_nb(t, s, p, x, need)
    pay_plan_nb(t, s, p, need, free, out)
    pay_nb(s, p, out)
    k = t.tile_kind[x]
    for j in range(MAX_DISPLAY):
        if s.tile_display[k, j] == x:
            s.tile_display[k, j] = -1
    refill_tiles_nb(t, s, k)
    s.tile_at[p, option] = x
    s.owned[p] |= 1 << x
    trace_nb(trace, tn, EV_BUILD, p, x, option, out[0] + out[1] + out[2], 0)
    if own == 1 and left > 0:
        push_nb(s, T_CARDS, p, left, 0, 0, 0, 0, 0)
    push_nb(s, T_ESCAPE, p, 0, 0, 0, 0, 0, 0)
    if k != K_FACILITY:
        s.n_buildings[p] += 1
        if k == K_STORM:
            s.storm_built[p] += 1
        uncover_nb(t, s, p, t.building_income[s.n_buildings[p] - 1])
    tile_effect_nb(t, s, p, x, option, trace, tn)
