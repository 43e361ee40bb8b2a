"""Lowlands: the farm's enclosures. A pasture is a region of cells with no open way out;
fences and buildings' borders close edges (facilities' do not). `in_pasture_mask_nb` works
on bitmasks; `pastures_nb` is the reference flood fill (explicit stack, no recursion) it is
checked against. The Dog Kennel lets one pasture short of one fence count as closed.
"""
import numpy as np
from numba import njit

from sim.numba_calls import plain_constants
from sim.games.lowlands.enums import (
    CELL_EDGE, CELL_NB, COLS, EDGE_CELLS, EF_KENNEL, K_FACILITY, N_CELLS, N_EDGES, N_HEDGES,
    ROWS,
)


@njit(cache=True, error_model="numpy")
def is_building_nb(t, s, p, cell):
    x = s.tile_at[p, cell]
    return x >= 0 and t.tile_kind[x] != K_FACILITY


@njit(cache=True, error_model="numpy")
def building_cells_nb(t, s, p):
    """Bitmask of the cells of p's farm holding a building (not a facility)."""
    m = 0
    for k in range(N_CELLS):
        if is_building_nb(t, s, p, k):
            m |= 1 << k
    return m


@njit(cache=True, error_model="numpy")
def edge_closed_nb(t, s, p, e):
    """A fence stands on edge e, or a building's border does (buildings' borders are fences;
    facilities' are not); the farm's outer border only with the border_is_fence option."""
    if s.fence[p, e] == 1:
        return True
    a = EDGE_CELLS[e, 0]
    b = EDGE_CELLS[e, 1]
    if a >= 0 and is_building_nb(t, s, p, a):
        return True
    if b >= 0 and is_building_nb(t, s, p, b):
        return True
    if b < 0 and t.border_is_fence == 1:
        return True
    return False


@njit(cache=True, error_model="numpy")
def pastures_nb(t, s, p, region, closed):
    """Enclosure detection: region[cell] = region id of each non-building cell (-1 for a
    building), closed[r] = 1 when region r is a pasture (no open way out of the farm).
    Flood fill with an explicit stack (no recursion). Returns the number of regions."""
    for k in range(N_CELLS):
        region[k] = -2 if not is_building_nb(t, s, p, k) else -1
    stack = np.empty(N_CELLS, np.int64)
    nr = 0
    for k0 in range(N_CELLS):
        if region[k0] != -2:
            continue
        region[k0] = nr
        closed[nr] = 1
        top = 0
        stack[top] = k0
        top += 1
        while top > 0:
            top -= 1
            k = stack[top]
            for d in range(4):
                e = CELL_EDGE[k, d]
                if edge_closed_nb(t, s, p, e):
                    continue
                nb = CELL_NB[k, d]
                if nb < 0:
                    closed[nr] = 0          # an open way off the farm: not a pasture
                elif region[nb] == -2:
                    region[nb] = nr
                    stack[top] = nb
                    top += 1
        nr += 1
    return nr


@njit(cache=True, error_model="numpy")
def in_pasture_mask_nb(t, s, p):
    """Bitmask of the cells inside pastures: the same cells as pastures_nb's closed regions,
    found on bitmasks (the hot path: capacity is asked at almost every decision). The cells
    an open way off the farm reaches are flooded from the border through open edges; every
    other cell without a building is in a pasture."""
    closed, bld = farm_walls_nb(t, s, p)
    return in_pasture_mask_walls_nb(t, s, p, closed, bld)


@njit(cache=True, error_model="numpy")
def farm_walls_nb(t, s, p):
    """(closed edges, building cells) of p's farm as bitmasks: fences and building borders."""
    closed = 0
    for e in range(N_EDGES):
        if s.fence[p, e] == 1:
            closed |= 1 << e
    bld = building_cells_nb(t, s, p)
    for k in range(N_CELLS):
        if (bld >> k) & 1:
            for d in range(4):
                closed |= 1 << CELL_EDGE[k, d]
    return closed, bld


@njit(cache=True, error_model="numpy")
def in_pasture_mask_walls_nb(t, s, p, closed, bld):
    """in_pasture_mask_nb with the farm's walls given (farm_walls_nb): the greedy player's fence
    evaluation asks it with one more fence (set in s.fence too) without recounting the walls.
    A rule that changes which cells count as inside belongs here, so both callers see it."""
    m = pasture_mask_nb(closed, bld, t.border_is_fence == 1)
    if s.owned[p] & t.effect_tiles[EF_KENNEL]:       # Dog Kennel: one pasture short of a fence
        region = np.empty(N_CELLS, np.int64)          # (rare: the region fill only with it)
        closed_regions = np.empty(N_CELLS, np.int64)
        pastures_nb(t, s, p, region, closed_regions)
        m |= kennel_mask_nb(t, s, p, region, closed_regions)
    return m


@njit(cache=True, error_model="numpy")
def pasture_mask_nb(closed, bld, border_closed):
    """Cells inside pastures given the closed edges (bit e: a fence or a building border) and
    the building cells (bit k). Row-major cells: a move up or down is a shift by COLS, left
    or right by 1; bit k of the *_open masks says cell k's edge that way is open."""
    cells = (1 << N_CELLS) - 1
    row = (1 << COLS) - 1
    opn = ~closed
    up_open = opn & cells                      # horizontal edge k is the line above cell k
    down_open = (opn >> COLS) & cells
    left_open = 0
    right_open = 0
    for r in range(ROWS):
        v = opn >> (N_HEDGES + r * (COLS + 1))  # vertical edges of row r, left of col 0..COLS
        left_open |= (v & row) << (r * COLS)
        right_open |= ((v >> 1) & row) << (r * COLS)
    top = row
    bottom = row << ((ROWS - 1) * COLS)
    lcol = 0
    for r in range(ROWS):
        lcol |= 1 << (r * COLS)
    rcol = lcol << (COLS - 1)
    if border_closed:
        esc = 0
    else:
        esc = (up_open & top) | (down_open & bottom) | (left_open & lcol) | (right_open & rcol)
    while True:
        grown = (esc | ((esc & up_open & ~top) >> COLS) | ((esc & down_open & ~bottom) << COLS)
                 | ((esc & left_open & ~lcol) >> 1) | ((esc & right_open & ~rcol) << 1))
        if grown == esc:
            break
        esc = grown
    return cells & ~bld & ~esc


@njit(cache=True, error_model="numpy")
def n_pastures_nb(t, s, p):
    region = np.empty(N_CELLS, np.int64)
    closed = np.empty(N_CELLS, np.int64)
    nr = pastures_nb(t, s, p, region, closed)
    c = 0
    for r in range(nr):
        c += closed[r]
    if s.owned[p] & t.effect_tiles[EF_KENNEL] and kennel_mask_nb(t, s, p, region, closed) != 0:
        c += 1                                      # the Dog Kennel's pasture counts as closed
    return c


@njit(cache=True, error_model="numpy")
def kennel_mask_nb(t, s, p, region, closed):
    """Dog Kennel (rules text: "one of your pastures counts as closed even if it lacks one
    fence; its cells count as inside a pasture"): the cells that ONE more fence would close
    off, or 0. One fence closes off a set of cells exactly when it stands on a bridge of the
    graph of open cells plus the outside (an open edge whose removal cuts them from the
    farm's open border), so the candidates are found in one pass (Tarjan's bridges, iterative:
    no recursion). When several qualify, the player's choice is automatic: the one housing
    the most sheep (1 per empty cell, tiles' inside minus outside places), then the largest,
    then the smallest cell bitmask. Only cells of open regions (`region`, `closed` of
    pastures_nb) take part; buildings have region -1."""
    OUT = N_CELLS
    W = 2 * (N_CELLS + 1)
    adj_n = np.zeros(N_CELLS + 1, np.int64)
    adj_to = np.empty((N_CELLS + 1, W), np.int64)
    adj_e = np.empty((N_CELLS + 1, W), np.int64)
    open_graph_nb(t, s, p, region, closed, adj_n, adj_to, adj_e)
    disc = np.full(N_CELLS + 1, -1, np.int64)
    low = np.zeros(N_CELLS + 1, np.int64)
    it = np.zeros(N_CELLS + 1, np.int64)
    pe = np.full(N_CELLS + 1, -1, np.int64)
    order = np.empty(N_CELLS + 1, np.int64)
    stk = np.empty(N_CELLS + 1, np.int64)
    disc[OUT] = 0
    order[0] = OUT
    time = 1
    stk[0] = OUT
    top = 1
    best = 0
    best_places = -(1 << 40)
    best_cells = 0
    while top > 0:
        u = stk[top - 1]
        if it[u] < adj_n[u]:
            j = it[u]
            it[u] += 1
            w = adj_to[u, j]
            if adj_e[u, j] == pe[u]:
                continue                   # the tree edge back to the parent (parallel edges differ)
            if disc[w] < 0:
                disc[w] = time
                low[w] = time
                order[time] = w
                time += 1
                pe[w] = adj_e[u, j]
                stk[top] = w
                top += 1
            elif disc[w] < low[u]:
                low[u] = disc[w]
            continue
        top -= 1
        if top == 0:
            break
        par = stk[top - 1]
        if low[u] < low[par]:
            low[par] = low[u]
        if low[u] > disc[par]:             # a bridge: u's subtree is cut off by one fence
            m, places, cells = cut_off_nb(t, s, p, order, disc[u], time)
            if places > best_places or (places == best_places and (
                    cells > best_cells or (cells == best_cells and m < best))):
                best = m
                best_places = places
                best_cells = cells
    return best


@njit(cache=True, error_model="numpy")
def open_graph_nb(t, s, p, region, closed, adj_n, adj_to, adj_e):
    """The graph of the open regions' cells plus the outside (node N_CELLS): an edge per open
    farm edge between two such cells or from one to the outside; adj_to[u, j] is u's j-th
    neighbour, adj_e[u, j] the farm edge between them, adj_n[u] their count."""
    OUT = N_CELLS
    for k in range(N_CELLS):
        if region[k] < 0 or closed[region[k]] == 1:
            continue
        for d in range(4):
            nb = CELL_NB[k, d]
            if nb >= 0 and nb < k:
                continue                   # each cell-cell edge once, from its lower cell
            e = CELL_EDGE[k, d]
            if edge_closed_nb(t, s, p, e):
                continue
            if nb < 0:
                nb = OUT
            adj_to[k, adj_n[k]] = nb
            adj_e[k, adj_n[k]] = e
            adj_n[k] += 1
            adj_to[nb, adj_n[nb]] = k
            adj_e[nb, adj_n[nb]] = e
            adj_n[nb] += 1


@plain_constants
@njit(cache=True, error_model="numpy")
def cut_off_nb(t, s, p, order, first, time):
    """The cells a bridge cuts off (order[first:time], a subtree of the walk): their bitmask,
    the sheep they would house (1 per empty cell, tiles' inside minus outside places), their
    number."""
    m = 0
    places = 0
    cells = 0
    for q in range(first, time):
        c = order[q]
        m |= 1 << c
        cells += 1
        x = s.tile_at[p, c]
        places += 1 if x < 0 else t.tile_cap_in[x] - t.tile_cap_out[x]
    return m, places, cells
