"""Lowlands: the decision on top of the task stack: its options (task_options_nb), applying
the chosen one (apply_task_nb), and resolving a decision task with no option (skip_task_nb).
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    ALT_FARMHAND, ALT_FREE_FENCE, ALT_PLUS2, ALT_REMOVE_WAVE, A_BUILD, A_SHEEP, DIKE_SUPPORT,
    EV_ASK, EV_DISCARD, EV_FARMHAND, EV_INCOME, EV_TOKEN, FENCE_FREE, MAX_DISPLAY, MAX_OPTIONS,
    N_ACTIONS, N_EDGES, N_RES, STOP, T_ASK, T_BUILD, T_CARDS, T_CELL, T_DIKE, T_DISCARD,
    T_FARMHAND, T_FENCE, T_FENCE_TO, T_INCOME, T_MARKET_HALL, T_PLACE, T_SHEEP, T_TOKEN,
    T_UPKEEP_TRADE,
)
from sim.games.lowlands.building import apply_cell_nb, build_options_nb, tile_cells_nb
from sim.games.lowlands.cards import apply_cards_nb, cards_options_nb, draw_card_nb
from sim.games.lowlands.dike import remove_waves_nb
from sim.games.lowlands.dike_action import apply_dike_nb, dike_options_nb, finish_dike_nb
from sim.games.lowlands.fencing import (
    apply_fence_nb, apply_fence_to_nb, end_fence_nb, fence_options_nb, free_edge_nb,
    pop_fence_task_nb,
)
from sim.games.lowlands.market import apply_sheep_nb, sheep_options_nb
from sim.games.lowlands.pastures import building_cells_nb
from sim.games.lowlands.placement import apply_place_nb, place_options_nb
from sim.games.lowlands.tasks import pop_nb, push_nb
from sim.games.lowlands.trade_tiles import (
    apply_market_hall_nb, apply_upkeep_trade_nb, market_hall_options_nb,
    upkeep_trade_options_nb,
)


@njit(cache=True, error_model="numpy")
def token_alt_ok_nb(t, s, p, k):
    alt = t.token_alt[k]
    if alt == ALT_REMOVE_WAVE:
        return s.waves > 0
    if alt == ALT_FARMHAND:
        return farmhand_options_nb(t, s, p, np.empty(MAX_OPTIONS, np.int64)) > 1
    if alt == ALT_FREE_FENCE:
        if s.fence_supply[p] == 0:
            return False
        bld = building_cells_nb(t, s, p)
        for e in range(N_EDGES):
            if free_edge_nb(s, p, e, bld):
                return True
        return False
    if alt == ALT_PLUS2:
        return True
    return False


@njit(cache=True, error_model="numpy")
def farmhand_options_nb(t, s, p, options):
    """Place a farmhand from the income board on an action space, or move one; at most 1 on
    the sheep action, 2 on the others. code = from*8 + to (from N_ACTIONS = the income board);
    STOP = leave them."""
    n = 0
    for a in range(N_ACTIONS):
        cap = t.max_farmhands_sheep if a == A_SHEEP else t.max_farmhands_other
        if s.hands[p, a] >= cap:
            continue
        if s.hands_supply[p] > 0:
            options[n] = N_ACTIONS * 8 + a
            n += 1
        for f in range(N_ACTIONS):
            if f != a and s.hands[p, f] > 0:
                options[n] = f * 8 + a
                n += 1
    options[n] = STOP
    n += 1
    return n


@njit(cache=True, error_model="numpy")
def task_options_nb(t, s, options):
    """The legal options of the decision task on top of the stack (0: it resolves itself)."""
    i = s.n_tasks - 1
    kind = s.task[i, 0]
    p = s.task[i, 1]
    a = s.task[i, 2]
    b = s.task[i, 3]
    if kind == T_PLACE:
        return place_options_nb(t, s, p, options)
    if kind == T_BUILD:
        free = s.hands[p, A_BUILD] if s.task[i, 4] == 1 else 0
        return build_options_nb(t, s, p, a, b == 1, free, options)
    if kind == T_CELL:
        return tile_cells_nb(t, s, p, a, options)
    if kind == T_DIKE:
        n = dike_options_nb(t, s, p, a, s.task[i, 5], s.task[i, 6], options)
        paid = s.task[i, 4]
        if b == DIKE_SUPPORT or (paid > 0 and n > 0):
            options[n] = STOP        # support: STOP before paying = decline
            n += 1
        return n
    if kind == T_FENCE:
        if b == FENCE_FREE:
            return fence_options_nb(t, s, p, a, b, -1, 0, options)
        return fence_options_nb(t, s, p, a, b, s.task[i, 4], s.task[i, 6], options)
    if kind == T_FENCE_TO:
        n = 0
        bld = building_cells_nb(t, s, p)
        for e in range(N_EDGES):
            if e != s.picked_edge and free_edge_nb(s, p, e, bld):
                options[n] = e
                n += 1
        return n
    if kind == T_SHEEP:
        return sheep_options_nb(t, s, p, a, options)
    if kind == T_CARDS:
        return cards_options_nb(s, a, options)
    if kind == T_ASK:
        # clockwise from the asker's left: a player that breaks ties by the first option
        # favours no seat number
        np_ = s.n_players
        for j in range(1, np_):
            options[j - 1] = (p + j) % np_
        return np_ - 1
    if kind == T_TOKEN:
        options[0] = 0
        if token_alt_ok_nb(t, s, p, a):
            options[1] = 1
            return 2
        return 1
    if kind == T_FARMHAND:
        return farmhand_options_nb(t, s, p, options)
    if kind == T_INCOME:
        options[0] = 0
        options[1] = 1
        return 2
    if kind == T_DISCARD:
        n = 0
        for r in range(N_RES):
            if s.hand[p, r] > 0:
                options[n] = r
                n += 1
        return n
    if kind == T_UPKEEP_TRADE:
        return upkeep_trade_options_nb(t, s, p, options)
    if kind == T_MARKET_HALL:
        return market_hall_options_nb(t, s, p, a, options)
    return 0


@njit(cache=True, error_model="numpy")
def apply_task_nb(t, s, option, trace, tn):
    """Apply `option` to the decision task on top of the stack."""
    i = s.n_tasks - 1
    kind = s.task[i, 0]
    p = s.task[i, 1]
    s.decisions += 1
    if kind == T_PLACE:
        apply_place_nb(t, s, option, trace, tn)
    elif kind == T_BUILD:
        apply_build_nb(t, s, p, option)
    elif kind == T_CELL:
        apply_cell_nb(t, s, option, trace, tn)
    elif kind == T_DIKE:
        apply_dike_nb(t, s, option, trace, tn)
    elif kind == T_FENCE:
        apply_fence_nb(t, s, option, trace, tn)
    elif kind == T_FENCE_TO:
        apply_fence_to_nb(t, s, option, trace, tn)
    elif kind == T_SHEEP:
        apply_sheep_nb(t, s, option, trace, tn)
    elif kind == T_CARDS:
        apply_cards_nb(t, s, option, trace, tn)
    elif kind == T_ASK:
        apply_ask_nb(s, p, option, trace, tn)
    elif kind == T_TOKEN:
        apply_token_nb(t, s, p, option, trace, tn)
    elif kind == T_FARMHAND:
        apply_farmhand_nb(s, p, option, trace, tn)
    elif kind == T_INCOME:
        apply_income_nb(s, p, option, trace, tn)
    elif kind == T_DISCARD:
        pop_nb(s)
        s.hand[p, option] -= 1
        s.discard[option] += 1
        trace_nb(trace, tn, EV_DISCARD, p, option, 0, 0, 0)
    elif kind == T_UPKEEP_TRADE:
        pop_nb(s)
        apply_upkeep_trade_nb(t, s, p, option, trace, tn)
    elif kind == T_MARKET_HALL:
        x = s.task[i, 2]
        pop_nb(s)
        apply_market_hall_nb(t, s, p, x, option, trace, tn)


@njit(cache=True, error_model="numpy")
def apply_build_nb(t, s, p, option):
    """The face-up tile chosen to build (T_BUILD): its cell is asked next (T_CELL), with the
    value left over and the farmhands' discount of an own action."""
    i = s.n_tasks - 1
    value = s.task[i, 2]
    own = s.task[i, 4]
    free = s.hands[p, A_BUILD] if own == 1 else 0
    pop_nb(s)
    k = option // MAX_DISPLAY
    x = s.tile_display[k, option % MAX_DISPLAY]
    push_nb(s, T_CELL, p, x, value - t.tile_value[x], own, free, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_ask_nb(s, p, option, trace, tn):
    """Seat p asks seat `option` for dike support (T_ASK): the supporter may pay as many
    resources as the builder paid, at most; no farmhands."""
    paid = s.task[s.n_tasks - 1, 2]
    pop_nb(s)
    s.support_asked[option] += 1
    trace_nb(trace, tn, EV_ASK, p, option, paid, 0, 0)
    push_nb(s, T_DIKE, option, paid, DIKE_SUPPORT, 0, 0, 0, p)


@njit(cache=True, error_model="numpy")
def apply_token_nb(t, s, p, option, trace, tn):
    """A progress token's choice (T_TOKEN): 0 its coins, 1 its alternative."""
    k = s.task[s.n_tasks - 1, 2]
    pop_nb(s)
    trace_nb(trace, tn, EV_TOKEN, p, k, option, t.token_coins[k] if option == 0 else 0, 0)
    if option == 0:
        s.coins[p] += t.token_coins[k]
        return
    alt = t.token_alt[k]
    if alt == ALT_REMOVE_WAVE:
        remove_waves_nb(t, s, 1)
    elif alt == ALT_FARMHAND:
        push_nb(s, T_FARMHAND, p, 0, 0, 0, 0, 0, 0)
    elif alt == ALT_FREE_FENCE:
        push_nb(s, T_FENCE, p, 1, FENCE_FREE, -1, 0, 0, 0)
    elif alt == ALT_PLUS2:
        s.plus2[p] += 1


@njit(cache=True, error_model="numpy")
def apply_farmhand_nb(s, p, option, trace, tn):
    """A farmhand placed or moved (T_FARMHAND): option = from * 8 + to (from = N_ACTIONS: the
    income board), STOP = none."""
    pop_nb(s)
    if option == STOP:
        return
    fr = option // 8
    to = option % 8
    if fr == N_ACTIONS:
        s.hands_supply[p] -= 1
    else:
        s.hands[p, fr] -= 1
    s.hands[p, to] += 1
    trace_nb(trace, tn, EV_FARMHAND, p, fr, to, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_income_nb(s, p, option, trace, tn):
    """The income board's card-or-coin icon (T_INCOME): 0 a card from the deck, 1 a coin."""
    pop_nb(s)
    c = -1
    if option == 0:
        c = draw_card_nb(s)
        if c >= 0:
            s.hand[p, c] += 1
    else:
        s.coins[p] += 1
    trace_nb(trace, tn, EV_INCOME, p, option, c, 0, 0)


@njit(cache=True, error_model="numpy")
def skip_task_nb(t, s, trace, tn):
    """A decision task with no legal option resolves itself (e.g. a dike action whose
    resources ran out, a free fence with no edge left)."""
    i = s.n_tasks - 1
    kind = s.task[i, 0]
    p = s.task[i, 1]
    if kind == T_DIKE:
        left = s.task[i, 2]
        mode = s.task[i, 3]
        paid = s.task[i, 4]
        pop_nb(s)
        finish_dike_nb(t, s, p, left, mode, paid)
    elif kind == T_FENCE or kind == T_FENCE_TO:
        p, left, mode, res, built, count, before = pop_fence_task_nb(s)
        if kind == T_FENCE_TO:   # nowhere to put it: it goes back where it was
            s.fence[p, s.picked_edge] = 1
            s.picked_edge = -1
            left += 1
        end_fence_nb(t, s, p, left, mode, built, before)
    elif kind == T_CARDS or kind == T_BUILD or kind == T_SHEEP:
        left = s.task[i, 2]
        pop_nb(s)
        # a build with no tile possible (the Farmhouse's facility): nothing happens
    else:
        pop_nb(s)
