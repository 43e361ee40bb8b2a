"""Lowlands: fences: the edges a fence may go on, building new fences from the income board
and moving placed ones, and the end of a fence action (sheep of open pastures escape).
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    EDGE_CELLS, EF_BUSH_SHEEP, EF_FENCE_BONUS, EF_TREE_CARDS, EV_FENCE, FENCE_FREE, FENCE_OWN,
    N_CELLS, N_EDGES, N_RES, STOP, TERRAIN_BUSH, TERRAIN_TREE, T_CARDS, T_DECK_CARDS, T_ESCAPE,
    T_FENCE, T_FENCE_TO, T_SHEEP_GAIN,
)
from sim.games.lowlands.cards import hand_total_nb, pay_nb, pay_plan_nb
from sim.games.lowlands.farm import has_effect_nb
from sim.games.lowlands.income import take_fence_nb
from sim.games.lowlands.pastures import building_cells_nb, in_pasture_mask_nb
from sim.games.lowlands.tasks import pop_nb, push_nb
from sim.numba_calls import plain_constants


@njit(cache=True, error_model="numpy")
def fence_edge_ok_nb(t, s, p, e, skip):
    """A fence may go on edge e: none there and no building border there."""
    if e == skip:
        return False
    return free_edge_nb(s, p, e, building_cells_nb(t, s, p))


@njit(cache=True, error_model="numpy")
def free_edge_nb(s, p, e, bld):
    """fence_edge_ok_nb with the building cells given as a bitmask (bld)."""
    if s.fence[p, e] == 1:
        return False
    a = EDGE_CELLS[e, 0]
    b = EDGE_CELLS[e, 1]
    if a >= 0 and (bld >> a) & 1:
        return False
    if b >= 0 and (bld >> b) & 1:
        return False
    return True


@njit(cache=True, error_model="numpy")
def fence_res_nb(s, p, res):
    """The resource new fences of this action are paid with: fixed by the first one (all the
    same type); the first is the type the player holds most of (automatic choice)."""
    if res >= 0:
        return res
    best = 0
    for r in range(1, N_RES):
        if s.hand[p, r] > s.hand[p, best]:
            best = r
    return best


@plain_constants
@njit(cache=True, error_model="numpy")
def fence_options_nb(t, s, p, left, mode, res, count, options):
    """Build a fence on an edge (code = edge), pick one up to move it (N_EDGES + edge), or
    STOP (not before the first fence of a farmer's action)."""
    n = 0
    if left <= 0:
        return 0
    can_build = s.fence_supply[p] > 0
    if can_build and mode != FENCE_FREE:
        need = np.zeros(N_RES, np.int64)
        out = np.empty(N_RES, np.int64)
        r = fence_res_nb(s, p, res)
        need[r] = 1
        can_build = hand_total_nb(s, p) > 0 and pay_plan_nb(t, s, p, need, 0, out)
    bld = building_cells_nb(t, s, p)     # once for every edge
    anywhere = False
    for e in range(N_EDGES):
        if free_edge_nb(s, p, e, bld):
            anywhere = True
            if not can_build:
                break
            options[n] = e
            n += 1
    if mode != FENCE_FREE:
        if anywhere:
            for e in range(N_EDGES):
                if s.fence[p, e] == 1:
                    options[n] = N_EDGES + e
                    n += 1
        if count > 0 and n > 0:
            options[n] = STOP
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def end_fence_nb(t, s, p, left, mode, built, before):
    """End of a fence action: Fence Maker's extra fence, the tree/bush pasture bonuses, sheep
    escape from pastures left open, then the unspent value as cards."""
    if mode == FENCE_OWN and left > 0:
        push_nb(s, T_CARDS, p, left, 0, 0, 0, 0, 0)
    push_nb(s, T_ESCAPE, p, 0, 0, 0, 0, 0, 0)
    if mode == FENCE_FREE:
        return
    now = in_pasture_mask_nb(t, s, p)
    new = now & ~before
    lay = s.layout[p]
    tree = False
    bush = False
    for k in range(N_CELLS):
        if (new >> k) & 1:
            if t.layout_terrain[lay, k] & TERRAIN_TREE:
                tree = True
            if t.layout_terrain[lay, k] & TERRAIN_BUSH:
                bush = True
    if tree:   # Timber Yard: "자원 카드 더미에서 2장": from the deck, not the face-up cards
        for y in range(t.n_tiles):
            if (s.owned[p] >> y) & 1 and t.tile_effect[y] == EF_TREE_CARDS:
                push_nb(s, T_DECK_CARDS, p, t.tile_param[y], 0, 0, 0, 0, 0)
    if bush:
        for y in range(t.n_tiles):
            if (s.owned[p] >> y) & 1 and t.tile_effect[y] == EF_BUSH_SHEEP:
                push_nb(s, T_SHEEP_GAIN, p, t.tile_param[y], 0, 0, 0, 0, 0)
    if mode == FENCE_OWN and built > 0 and s.fence_supply[p] > 0:
        nb = has_effect_nb(t, s, p, EF_FENCE_BONUS)
        if nb > 0:
            push_nb(s, T_FENCE, p, nb, FENCE_FREE, -1, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def pop_fence_task_nb(s):
    """Take the T_FENCE / T_FENCE_TO task off the stack: (seat, value left, mode, resource,
    new fences built, fences placed or moved, cells in pastures when the action began)."""
    i = s.n_tasks - 1
    p = s.task[i, 1]
    left = s.task[i, 2]
    mode = s.task[i, 3]
    res = s.task[i, 4]
    built = s.task[i, 5]
    count = s.task[i, 6]
    before = s.task[i, 7]
    pop_nb(s)
    return p, left, mode, res, built, count, before


@njit(cache=True, error_model="numpy")
def fence_goes_on_nb(t, s, p, left, mode, res, built, count, before):
    """After a fence is placed: the action goes on while value is left, else it ends."""
    if left > 0:
        push_nb(s, T_FENCE, p, left, mode, res, built, count, before)
    else:
        end_fence_nb(t, s, p, left, mode, built, before)


@njit(cache=True, error_model="numpy")
def apply_fence_nb(t, s, option, trace, tn):
    p, left, mode, res, built, count, before = pop_fence_task_nb(s)
    if option == STOP:
        end_fence_nb(t, s, p, left, mode, built, before)
        return
    if option >= N_EDGES:        # pick up a fence to move it (free of resources)
        e = option - N_EDGES
        s.fence[p, e] = 0
        s.picked_edge = e
        trace_nb(trace, tn, EV_FENCE, p, e, 2, 0, 0)
        push_nb(s, T_FENCE_TO, p, left - 1, mode, res, built, count + 1, before)
        return
    if mode != FENCE_FREE:
        res = fence_res_nb(s, p, res)
        need = np.zeros(N_RES, np.int64)
        need[res] = 1
        out = np.empty(N_RES, np.int64)
        pay_plan_nb(t, s, p, need, 0, out)
        pay_nb(s, p, out)
    s.fence[p, option] = 1
    s.fences_built[p] += 1
    trace_nb(trace, tn, EV_FENCE, p, option, 1 if mode != FENCE_FREE else 3, 0, 0)
    fence_goes_on_nb(t, s, p, left - 1, mode, res, built + 1, count + 1, before)
    take_fence_nb(t, s, p)   # may uncover a farmhand icon (resolved before going on)


@njit(cache=True, error_model="numpy")
def apply_fence_to_nb(t, s, option, trace, tn):
    p, left, mode, res, built, count, before = pop_fence_task_nb(s)
    s.fence[p, option] = 1
    s.picked_edge = -1
    trace_nb(trace, tn, EV_FENCE, p, option, 0, 0, 0)
    fence_goes_on_nb(t, s, p, left, mode, res, built, count, before)
