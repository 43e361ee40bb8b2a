"""Lowlands: placing a farmer: its value (farmer, +2 token, tiles), whether an action can be
taken at all with it, the placement options and the placement itself.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    A_BUILD, A_CARDS, A_DIKE, A_FENCE, A_SHEEP, DIKE_OWN, DISPLAY_CARDS, EF_COIN_PLUS,
    EF_LAKE_DIKE, EF_REPEAT_PLUS, EV_PLACE, FENCE_OWN, MAX_OPTIONS, N_ACTIONS, N_FARMERS,
    PASS_PLACE, TERRAIN_LAKE, T_BUILD, T_CARDS, T_FENCE, T_SHEEP,
)
from sim.games.lowlands.building import build_options_nb
from sim.games.lowlands.cards import cards_available_nb
from sim.games.lowlands.dike_action import dike_options_nb, start_dike_nb
from sim.games.lowlands.farm import has_effect_nb, terrain_outside_nb
from sim.games.lowlands.fencing import fence_options_nb
from sim.games.lowlands.market import sheep_options_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb
from sim.games.lowlands.tasks import pop_nb, push_nb
from sim.numba_calls import plain_constants


@njit(cache=True, error_model="numpy")
def place_option_nb(option):
    """A place option's parts (the encoding of the place options' listing): the action, the
    farmer, whether the +2 token is played (0/1) and whether a coin buys the +1 (0/1)."""
    return option // 16, (option // 4) % 4, (option // 2) % 2, option % 2


@njit(cache=True, error_model="numpy")
def place_value_nb(t, s, p, a, farmer, plus2, coinplus):
    """The action value of a farmer placed on action a: its value, the +2 token, the
    Foreman's +1, farmhands (dike, fence, cards: +1 each), Routine (+1 on a repeated action),
    Lake Pumping Station (dike: +1/+2 with 3/4 lakes outside pastures)."""
    v = t.farmer_values[farmer] + plus2 * t.farmer_plus + coinplus
    if a == A_DIKE or a == A_FENCE or a == A_CARDS:
        v += s.hands[p, a]
    if s.uses[p, a] > 0 and has_effect_nb(t, s, p, EF_REPEAT_PLUS) > 0:
        v += 1
    if a == A_DIKE and has_effect_nb(t, s, p, EF_LAKE_DIKE) > 0:
        lakes = terrain_outside_nb(t, s, p, TERRAIN_LAKE, in_pasture_mask_nb(t, s, p))
        if lakes >= 4:
            v += 2
        elif lakes >= 3:
            v += 1
    return v


@njit(cache=True, error_model="numpy")
def action_possible_nb(t, s, p, a, value, tmp):
    """Can the action use at least 1 of its value? (A farmer cannot be placed only to turn its
    value into cards.) tmp: MAX_OPTIONS scratch. Monotone in `value` (a higher value only
    admits more: tiles up to it, larger amounts, more sheep), which place_options_upto_nb
    relies on."""
    if a == A_BUILD:
        return build_options_nb(t, s, p, value, False, s.hands[p, A_BUILD], tmp) > 0
    if a == A_DIKE:
        return dike_options_nb(t, s, p, value, 0, 0, tmp) > 0
    if a == A_FENCE:
        return fence_options_nb(t, s, p, value, FENCE_OWN, -1, 0, tmp) > 0
    if a == A_SHEEP:
        return sheep_options_nb(t, s, p, value, tmp) > 0
    nd = 0
    for i in range(DISPLAY_CARDS):
        if s.display[i] >= 0:
            nd += 1
    return nd + cards_available_nb(s) > 0


@njit(cache=True, error_model="numpy")
def place_options_nb(t, s, p, options):
    return place_options_upto_nb(t, s, p, options, MAX_OPTIONS)


@plain_constants
@njit(cache=True, error_model="numpy")
def place_options_upto_nb(t, s, p, options, limit):
    """The placements (code = action*16 + farmer*4 + plus2*2 + coin_plus), the first `limit`
    of them (advance_nb only needs to know whether there are 2). Whether an action is possible
    depends on the state and the value only, and monotonically (action_possible_nb)."""
    n = 0
    rc = t.reuse_cost
    has_fore = has_effect_nb(t, s, p, EF_COIN_PLUS) > 0 and s.coin_plus_used[p] == 0
    # action_possible_nb is monotone in the value: per action, the lowest value found
    # possible and the highest found impossible answer for every value above / below them
    lo_ok = np.full(N_ACTIONS, 1 << 30, np.int64)
    hi_no = np.full(N_ACTIONS, -(1 << 30), np.int64)
    tmp = np.empty(MAX_OPTIONS, np.int64)
    for a in range(N_ACTIONS):
        cost = s.uses[p, a] * rc
        for f in range(N_FARMERS):
            if s.farmer_on[p, f] >= 0:
                continue
            for p2 in range(2):
                if p2 == 1 and s.plus2[p] == 0:
                    continue
                for cp in range(2):
                    if cp == 1 and not has_fore:
                        continue
                    if cost + cp > s.coins[p]:
                        continue
                    if n >= limit:
                        return n
                    v = place_value_nb(t, s, p, a, f, p2, cp)
                    if v >= lo_ok[a]:
                        ok = True
                    elif v <= hi_no[a]:
                        ok = False
                    else:
                        ok = action_possible_nb(t, s, p, a, v, tmp)
                        if ok:
                            lo_ok[a] = v
                        else:
                            hi_no[a] = v
                    if ok:
                        options[n] = a * 16 + f * 4 + p2 * 2 + cp
                        n += 1
    if n == 0:
        options[0] = PASS_PLACE
        n = 1
    return n


@njit(cache=True, error_model="numpy")
def apply_place_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    pop_nb(s)
    s.placed += 1
    if option == PASS_PLACE:     # nothing possible: a farmer stands idle
        for f in range(N_FARMERS):
            if s.farmer_on[p, f] < 0:
                s.farmer_on[p, f] = N_ACTIONS
                break
        return
    a, f, p2, cp = place_option_nb(option)
    v = place_value_nb(t, s, p, a, f, p2, cp)
    cost = s.uses[p, a] * t.reuse_cost + cp
    s.coins[p] -= cost
    s.uses[p, a] += 1
    s.farmer_on[p, f] = a
    s.actions_taken[p, a] += 1
    if p2 == 1:
        s.plus2[p] -= 1
    if cp == 1:
        s.coin_plus_used[p] = 1
    trace_nb(trace, tn, EV_PLACE, p, a, t.farmer_values[f], v, cost)
    if a == A_BUILD:
        push_nb(s, T_BUILD, p, v, 0, 1, 0, 0, 0)
    elif a == A_DIKE:
        start_dike_nb(t, s, p, v, DIKE_OWN)
    elif a == A_FENCE:
        push_nb(s, T_FENCE, p, v, FENCE_OWN, -1, 0, 0, in_pasture_mask_nb(t, s, p))
    elif a == A_SHEEP:
        push_nb(s, T_SHEEP, p, v, 0, 0, 0, 0, 0)
    else:
        push_nb(s, T_CARDS, p, v, 0, 0, 0, 0, 0)
