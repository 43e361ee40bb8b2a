"""Lowlands: what a farm holds: the tiles' effects a seat owns, terrain outside pastures,
the sheep capacity, and sheep gained or escaping from open pastures.
"""
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    CELL_NB, CORNERS, CORNERS_ONE_MORE, EF_BETWEEN, EF_CORNERS, EF_FEED_ADJ, EF_LAKE_SHEEP,
    EV_ESCAPE, N_CELLS, TERRAIN_HIDDEN, TERRAIN_LAKE,
)
from sim.games.lowlands.pastures import in_pasture_mask_nb, is_building_nb
from sim.numba_calls import plain_constants


@plain_constants
@njit(cache=True, error_model="numpy")
def has_effect_nb(t, s, p, effect):
    """How many of seat p's tiles have `effect`."""
    c = 0
    m = s.owned[p]
    for x in range(t.n_tiles):
        if (m >> x) == 0:        # no tile above x: stop early (this runs at every decision)
            break
        if (m >> x) & 1 and t.tile_effect[x] == effect:
            c += 1
    return c


@plain_constants
@njit(cache=True, error_model="numpy")
def terrain_outside_nb(t, s, p, bit, inmask):
    """Cells of terrain `bit` outside pastures ("목장의 바깥에 있는"): whatever stands on them,
    unless the rule option terrain_under_buildings = "hidden" leaves out building cells."""
    lay = s.layout[p]
    skip_buildings = t.terrain_under_buildings == TERRAIN_HIDDEN
    c = 0
    for k in range(N_CELLS):
        if (t.layout_terrain[lay, k] & bit) and not ((inmask >> k) & 1):
            if not (skip_buildings and is_building_nb(t, s, p, k)):
                c += 1
    return c


@njit(cache=True, error_model="numpy")
def capacity_nb(t, s, p):
    """Sheep the farm houses: one per pasture cell without a tile, plus what tiles house
    (inside/outside a pasture), plus the tile effects that add places."""
    inmask = in_pasture_mask_nb(t, s, p)
    lay = s.layout[p]
    cap = 0
    for k in range(N_CELLS):
        x = s.tile_at[p, k]
        inside = (inmask >> k) & 1
        if x < 0:
            if inside:
                cap += 1
            continue
        cap += t.tile_cap_in[x] if inside else t.tile_cap_out[x]
        ef = t.tile_effect[x]
        if ef == EF_FEED_ADJ:
            for d in range(4):
                nb = CELL_NB[k, d]
                if nb >= 0 and s.tile_at[p, nb] < 0 and (inmask >> nb) & 1:
                    cap += 1
        elif ef == EF_LAKE_SHEEP:
            cap += terrain_outside_nb(t, s, p, TERRAIN_LAKE, inmask)
        elif ef == EF_CORNERS:
            # each tile-free corner holds exactly 1 sheep, in or out of a pasture (rulebook);
            # corner_pens = "one_more": a pasture corner holds its pasture place plus 1
            one_more = t.corner_pens == CORNERS_ONE_MORE
            for i in range(4):
                c = CORNERS[i]
                if s.tile_at[p, c] < 0 and (one_more or not (inmask >> c) & 1):
                    cap += 1
        elif ef == EF_BETWEEN:
            for a in range(N_CELLS):
                if is_building_nb(t, s, p, a):
                    for d in (1, 3):  # down, right: each adjacent pair once
                        nb = CELL_NB[a, d]
                        if nb >= 0 and is_building_nb(t, s, p, nb):
                            cap += 1
    return cap


@njit(cache=True, error_model="numpy")
def gain_sheep_nb(t, s, p, n):
    """Take up to n sheep from the supply, as far as the farm houses them."""
    room = capacity_nb(t, s, p) - s.sheep[p]
    k = n if n < room else room
    if k > 0:
        s.sheep[p] += k
        return k
    return 0


@njit(cache=True, error_model="numpy")
def escape_nb(t, s, p, trace, tn):
    """After an action: sheep beyond what the farm houses run away (to the supply)."""
    cap = capacity_nb(t, s, p)
    if s.sheep[p] > cap:
        lost = s.sheep[p] - cap
        s.sheep[p] = cap
        s.sheep_escaped[p] += lost
        trace_nb(trace, tn, EV_ESCAPE, p, lost, 0, 0, 0)
