"""Lowlands: paying into the dike: a farmer's dike action, a support request's answer and a
tile's dike action (resources per segment, segments completed, the marker's move).
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    DIKE_OWN, DIKE_SUPPORT, EF_DIKE_PLUS, EV_DIKE, N_RES, STOP, SUPPORT_NONE, T_ASK, T_CARDS,
    T_DIKE,
)
from sim.games.lowlands.cards import discounts_nb, pay_nb, pay_plan_nb
from sim.games.lowlands.dike import complete_segment_nb, move_marker_nb
from sim.games.lowlands.farm import has_effect_nb
from sim.games.lowlands.tasks import pop_nb, push_nb
from sim.numba_calls import plain_constants


@plain_constants
@njit(cache=True, error_model="numpy")
def dike_options_nb(t, s, p, left, done_res, disc_used, options):
    """(resource, amount) payments into the dike: one resource per segment; a segment begun
    must be finished with its resource; after a segment completed in this action the next one
    takes another resource (rules text; option same_resource_after_segment). code = res*16+amount."""
    if s.segments >= t.n_segments or left <= 0:
        return 0
    L = t.site_length
    pos = s.site_pos
    res = s.site_res
    fresh = res < 0 or pos >= L
    disc = np.empty(N_RES, np.int64)
    discounts_nb(t, s, p, disc)
    need = np.zeros(N_RES, np.int64)
    out = np.empty(N_RES, np.int64)
    n = 0
    for r in range(N_RES):
        if not fresh and r != res:
            continue
        if fresh and done_res > 0 and r == done_res - 1 and t.same_resource_after_segment == 0:
            continue
        room = L if fresh else L - pos
        amax = left if left < room else room
        free = 0 if (disc_used >> r) & 1 else disc[r]
        for a in range(1, amax + 1):
            need[0] = 0
            need[1] = 0
            need[2] = 0
            need[r] = a - free
            if pay_plan_nb(t, s, p, need, 0, out):
                options[n] = r * 16 + a
                n += 1
            else:
                break
    return n


@njit(cache=True, error_model="numpy")
def finish_dike_nb(t, s, p, left, mode, paid):
    """End of a dike payment sequence: a farmer's action turns its unspent value into cards
    and then MUST ask one other player for support (after the cards, rules text)."""
    if mode == DIKE_SUPPORT:
        return
    np_ = s.n_players
    ask = paid > 0 and np_ > 1 and not (np_ == 2 and t.two_player_support == SUPPORT_NONE)
    if ask:
        push_nb(s, T_ASK, p, paid, 0, 0, 0, 0, 0)
    if mode == DIKE_OWN and left > 0:
        push_nb(s, T_CARDS, p, left, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_dike_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    left = s.task[i, 2]
    mode = s.task[i, 3]
    paid = s.task[i, 4]
    done = s.task[i, 5]
    used = s.task[i, 6]
    builder = s.task[i, 7]
    pop_nb(s)
    if option == STOP:
        if mode == DIKE_SUPPORT and paid == 0:
            pass      # declined
        finish_dike_nb(t, s, p, left, mode, paid)
        return
    r = option // 16
    amt = option % 16
    disc = np.empty(N_RES, np.int64)
    discounts_nb(t, s, p, disc)
    free = 0 if (used >> r) & 1 else disc[r]
    need = np.zeros(N_RES, np.int64)
    need[r] = amt - free
    out = np.empty(N_RES, np.int64)
    pay_plan_nb(t, s, p, need, 0, out)
    pay_nb(s, p, out)
    if free > 0:
        used |= 1 << r
    L = t.site_length
    if s.site_res < 0 or s.site_pos >= L:
        s.site_res = r
        s.site_pos = 0
    s.site_pos += amt
    if s.site_pos >= L:
        complete_segment_nb(t, s)
        done = r + 1
    s.dike_resources[p] += amt
    trace_nb(trace, tn, EV_DIKE, p, r, amt, mode, s.segments)
    first = paid == 0
    paid += amt
    left -= amt
    # the continuation goes under the bonuses the move triggers (they resolve at once)
    push_nb(s, T_DIKE, p, left, mode, paid, done, used, builder)
    steps = amt
    if first and mode == DIKE_SUPPORT:
        s.support_given[p] += 1
        move_marker_nb(t, s, builder, 1, True, trace, tn)   # the builder moves 1 first (rules text)
    if first and mode != DIKE_SUPPORT:
        steps += has_effect_nb(t, s, p, EF_DIKE_PLUS)
    move_marker_nb(t, s, p, steps, True, trace, tn)


@plain_constants
@njit(cache=True, error_model="numpy")
def start_dike_nb(t, s, p, value, mode):
    push_nb(s, T_DIKE, p, value, mode, 0, 0, 0, -1)
