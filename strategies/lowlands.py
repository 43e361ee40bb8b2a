"""Lowlands built-in strategies.

choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep) -> index
into options[:n_options]. The players read only what their seat may know: the public board,
every farm, the hand SIZES of others, the backs of the face-down flood cards, and their own
hand. They never read the deck orders, other hands' contents or face-down flood values.

ctx (model.context_nb): ctx[0:6] = the decision task's fields (value left, mode, resources
paid, ...), ctx[6] = the seat deciding.
"""
import numpy as np
from numba import njit

from sim.rng import randint_nb
from sim.games.lowlands import nb as N
from sim.games.lowlands.enums import (
    A_BUILD, A_CARDS, A_DIKE, A_FENCE, A_SHEEP, ALT_FARMHAND, ALT_FREE_FENCE, ALT_PLUS2,
    ALT_REMOVE_WAVE, COLS, DEC_ASK, DEC_BUILD, DEC_CARDS, DEC_CELL, DEC_DIKE, DEC_DISCARD,
    DEC_FARMHAND, DEC_FENCE, DEC_FENCE_TO, DEC_INCOME, DEC_PLACE, DEC_SHEEP, DEC_TOKEN,
    DIKE_SUPPORT, DISPLAY_CARDS, EF_COINS, EF_SHEEP, G_NP, G_PRICE, G_SEA_N, G_SEA_SHOWN,
    G_SEGMENTS, G_SITE_POS, G_SITE_RES, G_STAGE, G_WAVES, K_FACILITY, MAX_DISPLAY,
    MAX_OPTIONS, N_ACTIONS, N_CELLS, N_EDGES, N_HEDGES, N_RES, PASS_PLACE, R_REUSE_COST,
    R_SITE_LENGTH,
    ROWS, STOP,
)

from sim.games.lowlands.enums import (  # noqa: E402  (the sheep-trading tiles, the Dog Kennel)
    DEC_MARKET_HALL, DEC_UPKEEP_TRADE, EF_AUCTION, EF_FODDER_SILO, EF_KENNEL, EF_MARKET_HALL,
    G_STEP, N_STAGES, R_SHEEP_BREED_PER, STEP_UP1, STEP_UP2, TRADE_MAX,
)

from strategies.lowlands_catalog import (  # noqa: F401  (ids, parameter slots, CATALOG)
    RANDOM, GREEDY, PLANNER, DIKE, SHEPHERD, P_CARD, P_DIKE, P_SHEEP, P_DANGER, P_BREED,
    P_SUPPORT, P_TOKEN, N_PARAMS, CATALOG,
)


# ---------------------------------------------------------------------------------------
# public estimates
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def expected_waves_nb(tables, s):
    """Waves expected at this stage's high tide: those on the board plus the face-down sea
    cards by their backs (1-3: 2 on average, 4-6: 4.75 with the file's cards)."""
    w = float(s.g[G_WAVES])
    for j in range(s.g[G_SEA_SHOWN], s.g[G_SEA_N]):
        w += 4.75 if tables.flood_back_high[s.sea[j]] == 1 else 2.0
    if s.g[G_SEA_N] == 0:      # before the tide: a whole stage to come
        w += 10.0
    return w


@njit(cache=True, error_model="numpy")
def dike_gap_nb(tables, s):
    """Resources still needed for the dike to hold against the expected waves (0 if it does)."""
    w = int(expected_waves_nb(tables, s) + 0.5)
    width = tables.layer_width
    wl = (w + width - 1) // width if w > 0 else 0
    wlen = w - (wl - 1) * width if w > 0 else 0
    k = s.g[G_SEGMENTS]
    need = 0
    while k < tables.n_segments:
        # the dike with k segments
        if k > 0:
            layer = tables.segment_layer[k - 1]
            length = 0
            for i in range(k):
                if tables.segment_layer[i] == layer:
                    length += tables.segment_length[i]
        else:
            layer = 0
            length = 0
        if layer > wl or (layer == wl and length >= wlen):
            break
        need += 1
        k += 1
    if need == 0:
        return 0
    L = tables.rules[R_SITE_LENGTH]
    pos = s.g[G_SITE_POS] if (s.g[G_SITE_RES] >= 0 and s.g[G_SITE_POS] < L) else 0
    return need * L - pos


@njit(cache=True, error_model="numpy")
def sheep_value_nb(tables, s, params):
    return tables.price_sheep[s.g[G_PRICE]] * params[P_SHEEP]


@njit(cache=True, error_model="numpy")
def dike_step_value_nb(tables, s, params):
    """Points of one dike-track space (half a dike point)."""
    return 0.5 * tables.price_dike[s.g[G_PRICE]] * params[P_DIKE]


@njit(cache=True, error_model="numpy")
def tile_value_nb(tables, s, seat, x, params):
    """Rough points a tile brings: shields, sheep places, coins, and what it costs."""
    v = float(tables.tile_shields[x])
    cap = tables.tile_cap_in[x] if tables.tile_cap_in[x] > tables.tile_cap_out[x] else tables.tile_cap_out[x]
    v += 0.5 * cap * sheep_value_nb(tables, s, params)
    ef = tables.tile_effect[x]
    if ef == EF_COINS:
        v += tables.tile_param[x]
    elif ef == EF_SHEEP:
        v += sheep_value_nb(tables, s, params)
    elif tables.tile_shields[x] == 0:
        v += 4.0        # '!' tiles: their storm-surge points, roughly
    else:
        v += 1.0
    cost = 0
    for r in range(N_RES):
        cost += tables.tile_cost[x, r]
    v += trade_tile_value_nb(tables, s, seat, x, params)
    return v - cost * params[P_CARD]


@njit(cache=True, error_model="numpy")
def pay_cards_nb(tables, s, seat, r, amount, used, work):
    """Cards seat would give up to pay `amount` of resource r into the dike. work: int64
    scratch (3, N_RES) whose row 0 holds the seat's discounts (dike_work_nb): a decision
    weighs many payments, so nothing is allocated or recounted per payment."""
    free = 0 if (used >> r) & 1 else work[0, r]
    need = work[1]
    need[:] = 0
    need[r] = amount - free
    out = work[2]
    if not N.pay_plan_nb(tables, s, seat, need, 0, out):
        return 99
    return out[0] + out[1] + out[2]


@njit(cache=True, error_model="numpy")
def dike_work_nb(tables, s, seat):
    """The scratch of pay_cards_nb, row 0 = the seat's discounts."""
    work = np.empty((3, N_RES), np.int64)
    N.discounts_nb(tables, s, seat, work[0])
    return work


@njit(cache=True, error_model="numpy")
def dike_pay_value_nb(tables, s, seat, code, params, planner, used, support, work):
    r = code // 16
    a = code % 16
    cards = pay_cards_nb(tables, s, seat, r, a, used, work)
    v = a * dike_step_value_nb(tables, s, params) - cards * params[P_CARD]
    if planner and s.g[G_STAGE] == 2:
        # only the storm surge's check costs sheep: before it a breach only moves the price
        gap = dike_gap_nb(tables, s)
        closes = a if a < gap else gap
        v += closes * params[P_DANGER] * (0.5 + 0.1 * s.sheep[seat])
    if support:
        v -= params[P_SUPPORT] * dike_step_value_nb(tables, s, params)
    return v


@njit(cache=True, error_model="numpy")
def sheep_option_value_nb(tables, s, seat, code, params, planner):
    mode = code // 100
    k = code % 10
    price = tables.price_sheep[s.g[G_PRICE]]
    hand = s.hands[seat, A_SHEEP]
    sv = sheep_value_nb(tables, s, params)
    if mode == 0:
        each = price - hand
        if each < 0:
            each = 0
        v = k * (sv - each)
        if planner and s.g[G_STAGE] < 2:
            v += k * params[P_BREED]
        return v
    each = price + hand
    v = k * (each - sv)
    if planner and s.g[G_STAGE] < 2:
        v -= k * params[P_BREED]
    return v


@njit(cache=True, error_model="numpy")
def target_edges_nb(tables, s, seat, mark):
    """Mark the unclosed boundary edges of the smallest growing rectangle (from the farm's
    top-left corner, where the starting pasture is) not yet fully fenced: the pasture plan."""
    rects_r = (1, 2, 2, 3, 3, 4, 4, 4)
    rects_c = (2, 2, 3, 3, 4, 4, 5, 6)
    for i in range(N_EDGES):
        mark[i] = 0
    for j in range(8):
        R = rects_r[j]
        C = rects_c[j]
        if R > ROWS or C > COLS:
            continue
        n = 0
        for c in range(C):
            for e in (c, R * COLS + c):
                if not N.edge_closed_nb(tables, s, seat, e):
                    mark[e] = 1
                    n += 1
        for r in range(R):
            for e in (N_HEDGES + r * (COLS + 1), N_HEDGES + r * (COLS + 1) + C):
                if not N.edge_closed_nb(tables, s, seat, e):
                    mark[e] = 1
                    n += 1
        if n > 0:
            return
        for i in range(N_EDGES):
            mark[i] = 0


@njit(cache=True, error_model="numpy")
def fence_edge_value_nb(tables, s, seat, e, mark, cap0, mask0, walls0, bld0):
    """A fence on edge e: 10 per sheep place it adds to cap0 (the farm's capacity now, computed
    once per decision), +1 on the pasture plan, -1 off it. The capacity reads the fences only
    through the cells in pastures (N.in_pasture_mask_nb): when the fence leaves them as they
    are (mask0), it leaves the capacity as it is. walls0, bld0: the farm's closed edges and
    building cells without the fence (N.farm_walls_nb, once per decision)."""
    s.fence[seat, e] = 1
    if N.in_pasture_mask_walls_nb(tables, s, seat, walls0 | (1 << e), bld0) == mask0:
        cap1 = cap0
    else:
        cap1 = N.capacity_nb(tables, s, seat)
    s.fence[seat, e] = 0
    return 10.0 * (cap1 - cap0) + (1.0 if mark[e] == 1 else -1.0)


@njit(cache=True, error_model="numpy")
def action_value_nb(tables, s, seat, a, v, params, planner):
    """Points a farmer of value v banks on action a (the best first step of it, the rest of
    its value as cards)."""
    opts = np.empty(MAX_OPTIONS, np.int64)
    card = params[P_CARD]
    if a == A_BUILD:
        n = N.build_options_nb(tables, s, seat, v, False, s.hands[seat, A_BUILD], opts)
        best = -1e9
        for i in range(n):
            x = s.tile_display[opts[i] // MAX_DISPLAY, opts[i] % MAX_DISPLAY]
            val = tile_value_nb(tables, s, seat, x, params) + (v - tables.tile_value[x]) * card
            if val > best:
                best = val
        return best
    if a == A_DIKE:
        n = N.dike_options_nb(tables, s, seat, v, 0, 0, opts)
        best = -1e9
        work = dike_work_nb(tables, s, seat)
        for i in range(n):
            val = dike_pay_value_nb(tables, s, seat, opts[i], params, planner, 0, False, work)
            val += (v - opts[i] % 16) * card
            if val > best:
                best = val
        if n > 0 and s.g[G_NP] > 1:
            best += 0.5 * dike_step_value_nb(tables, s, params)   # a support's +1, maybe
        return best
    if a == A_FENCE:
        room = N.capacity_nb(tables, s, seat) - s.sheep[seat]
        want = s.sheep[seat] // 2 + 1
        if s.fence_supply[seat] == 0:
            return 0.2 * v
        if room < want:
            return v * 0.9 * sheep_value_nb(tables, s, params) - v * card
        return 0.2 * v * sheep_value_nb(tables, s, params) - v * card
    if a == A_SHEEP:
        n = N.sheep_options_nb(tables, s, seat, v, opts)
        best = -1e9
        for i in range(n):
            val = sheep_option_value_nb(tables, s, seat, opts[i], params, planner)
            val += (v - opts[i] % 10) * card
            if val > best:
                best = val
        return best
    mult = 1.3 if N.hand_total_nb(s, seat) < 3 else 1.0
    return v * card * mult


@njit(cache=True, error_model="numpy")
def choose_place_nb(tables, s, seat, params, planner, options, n_options):
    best = 0
    bv = -1e18
    # an action's value depends on the state and the farmer's value only: once per pair
    known = np.zeros(N_ACTIONS * 32, np.bool_)
    memo = np.empty(N_ACTIONS * 32, np.float64)
    for i in range(n_options):
        o = options[i]
        if o == PASS_PLACE:
            return i
        a = o // 16
        f = (o // 4) % 4
        p2 = (o // 2) % 2
        cp = o % 2
        v = N.place_value_nb(tables, s, seat, a, f, p2, cp)
        if v >= 0 and v < 32:
            j = a * 32 + v
            if not known[j]:
                memo[j] = action_value_nb(tables, s, seat, a, v, params, planner)
                known[j] = True
            val = memo[j]
        else:
            val = action_value_nb(tables, s, seat, a, v, params, planner)
        val -= s.uses[seat, a] * tables.rules[R_REUSE_COST] + cp
        val -= p2 * params[P_TOKEN]
        # keep the big farmer for big jobs: a small penalty for value left unused later
        val -= 0.05 * tables.farmer_values[f]
        if val > bv:
            bv = val
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Dispatch to a built-in strategy by id."""
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if n_options == 1:
        return 0
    planner = sid >= PLANNER
    if decision == DEC_PLACE:
        return choose_place_nb(tables, s, seat, params, planner, options, n_options)
    best = 0
    bv = -1e18
    if decision == DEC_BUILD:
        for i in range(n_options):
            x = s.tile_display[options[i] // MAX_DISPLAY, options[i] % MAX_DISPLAY]
            v = tile_value_nb(tables, s, seat, x, params)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_CELL:
        # the cell that keeps the most sheep places; a building outside pastures otherwise
        x = ctx[0]
        for i in range(n_options):
            k = options[i]
            s.tile_at[seat, k] = x
            v = float(N.capacity_nb(tables, s, seat))
            s.tile_at[seat, k] = -1
            v -= 0.01 * k
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_DIKE:
        support = ctx[1] == DIKE_SUPPORT
        used = ctx[4]
        work = dike_work_nb(tables, s, seat)
        for i in range(n_options):
            if options[i] == STOP:
                v = 0.0
            else:
                v = dike_pay_value_nb(tables, s, seat, options[i], params, planner, used,
                                      support and ctx[2] == 0, work)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_FENCE or decision == DEC_FENCE_TO:
        mark = np.zeros(N_EDGES, np.int64)
        target_edges_nb(tables, s, seat, mark)
        cap0 = N.capacity_nb(tables, s, seat)
        mask0 = N.in_pasture_mask_nb(tables, s, seat)
        walls0, bld0 = N.farm_walls_nb(tables, s, seat)
        for i in range(n_options):
            o = options[i]
            if o == STOP:
                v = 0.5
            elif o >= N_EDGES:
                e = o - N_EDGES
                # move a fence only if it stands off the plan and the plan needs one
                v = 0.8 if (mark[e] == 0 and s.fence_supply[seat] == 0 and
                            N.in_pasture_mask_nb(tables, s, seat) == 0) else -5.0
            else:
                v = fence_edge_value_nb(tables, s, seat, o, mark, cap0, mask0, walls0, bld0)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_SHEEP:
        for i in range(n_options):
            v = sheep_option_value_nb(tables, s, seat, options[i], params, planner)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_CARDS:
        for i in range(n_options):
            m = options[i]
            v = 0.0
            for j in range(DISPLAY_CARDS):
                if (m >> j) & 1:
                    v += 1.0 + 0.1 * (3 - s.hand[seat, s.display[j]])
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_ASK:
        for i in range(n_options):
            q = options[i]
            v = float(N.hand_total_nb(s, q))      # hand sizes are public
            if planner and N.hand_total_nb(s, q) > 0:
                v -= 0.3 * N.dike_points_nb(tables, s, q)   # rather not push a rival ahead
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_TOKEN:
        if n_options < 2:
            return 0
        alt = tables.token_alt[ctx[0]]
        coins = tables.token_coins[ctx[0]]
        altv = 0.0
        if alt == ALT_REMOVE_WAVE:
            altv = 4.0 if dike_gap_nb(tables, s) > 0 else 0.5
        elif alt == ALT_FARMHAND:
            altv = 4.0 if s.g[G_STAGE] < 2 else 1.0
        elif alt == ALT_FREE_FENCE:
            altv = 1.0 + params[P_SHEEP]
        elif alt == ALT_PLUS2:
            altv = 3.0 if s.g[G_STAGE] < 2 else 1.0
        return 1 if altv > coins else 0
    if decision == DEC_FARMHAND:
        target = A_DIKE if params[P_DIKE] >= params[P_SHEEP] else A_FENCE
        if not planner:
            target = A_CARDS
        for i in range(n_options):
            o = options[i]
            if o == STOP:
                v = 0.0
            else:
                fr = o // 8
                to = o % 8
                v = (2.0 if to == target else 1.0) if fr == N_ACTIONS else -1.0
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_INCOME:
        return 0 if N.hand_total_nb(s, seat) < 5 else 1
    if decision == DEC_UPKEEP_TRADE or decision == DEC_MARKET_HALL:
        return choose_trade_nb(tables, s, seat, params, planner, decision, options, n_options, ctx)
    # DEC_DISCARD: the type held most
    for i in range(n_options):
        v = float(s.hand[seat, options[i]])
        if v > bv:
            bv = v
            best = i
    return best


# ---------------------------------------------------------------------------------------
# the sheep-trading tiles (Auction House, Fodder Silo at each upkeep; Market Hall when built)
# and the Dog Kennel: public information and the seat's own farm only
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def upkeeps_left_nb(s):
    """Upkeeps still to come in the game, the current one included if it has not run yet."""
    n = 2 * (N_STAGES - s.g[G_STAGE])
    if s.g[G_STEP] > STEP_UP1:
        n -= 1
    if s.g[G_STEP] > STEP_UP2:
        n -= 1
    return n if n > 0 else 0


@njit(cache=True, error_model="numpy")
def trade_sheep_value_nb(tables, s, params, planner):
    """What a sheep is worth in a trade: greedy, the sheep value now; the planner, the value
    after this stage's high tide as it expects it (the price moves right if the dike holds
    against the waves it expects from the flood cards' backs, left if not)."""
    pos = s.g[G_PRICE]
    if planner and s.g[G_STAGE] < N_STAGES:
        pos += -1 if dike_gap_nb(tables, s) > 0 else 1
        if pos < 0:
            pos = 0
        if pos > tables.n_price - 1:
            pos = tables.n_price - 1
    return tables.price_sheep[pos] * params[P_SHEEP]


@njit(cache=True, error_model="numpy")
def lambs_nb(tables, sheep, cap):
    k = sheep // tables.rules[R_SHEEP_BREED_PER]
    room = cap - sheep
    if room < k:
        k = room
    return k if k > 0 else 0


@njit(cache=True, error_model="numpy")
def trade_value_nb(tables, s, seat, params, planner, decision, code, x, cap):
    """Points a trade banks: the coins, and the sheep it adds or removes with the lambs that
    changes at the next breeding (at most 1 per 2 sheep, as housed). A sale is worth it when the
    price beats the sheep's value or the farm has no room to breed it; a purchase when the
    sheep (and its lambs) are worth more than it costs."""
    ds = code // 16
    db = code % 16
    sheep = s.sheep[seat]
    if decision == DEC_UPKEEP_TRADE:
        aslots = np.empty(TRADE_MAX, np.int64)
        fslots = np.empty(TRADE_MAX, np.int64)
        N.trade_slots_nb(tables, s, seat, EF_AUCTION, aslots)
        N.trade_slots_nb(tables, s, seat, EF_FODDER_SILO, fslots)
        gain, cost = N.upkeep_trade_coins_nb(tables, s, seat, ds, db, aslots, fslots)
        coins = gain - cost
    else:
        coins = ds * tables.tile_sell[x] - db * tables.tile_buy[x]
    new = sheep - ds + db
    dsheep = (db - ds) + lambs_nb(tables, new, cap) - lambs_nb(tables, sheep, cap)
    return coins + dsheep * trade_sheep_value_nb(tables, s, params, planner)


@njit(cache=True, error_model="numpy")
def choose_trade_nb(tables, s, seat, params, planner, decision, options, n_options, ctx):
    cap = N.capacity_nb(tables, s, seat)
    x = ctx[0]
    best = 0
    bv = -1e18
    for i in range(n_options):
        v = trade_value_nb(tables, s, seat, params, planner, decision, options[i], x, cap)
        if v > bv + 1e-9:          # ties: the first (0 = no trade)
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def trade_tile_value_nb(tables, s, seat, x, params):
    """Rough extra points of the sheep-trading tiles and the Dog Kennel, to choose them when
    building (0 for the other tiles)."""
    ef = tables.tile_effect[x]
    sv = sheep_value_nb(tables, s, params)
    if ef == EF_AUCTION:
        # a sale per upkeep, worth its bonus over the sheep when there is no room to breed
        return 0.5 * upkeeps_left_nb(s) * tables.tile_count[x] * tables.tile_param[x]
    if ef == EF_FODDER_SILO:
        gain = sv - tables.tile_buy[x]
        return 0.5 * upkeeps_left_nb(s) * tables.tile_count[x] * gain if gain > 0 else 0.0
    if ef == EF_MARKET_HALL:
        room = N.capacity_nb(tables, s, seat) - s.sheep[seat]
        best = 0.0
        for k in range(1, tables.tile_count[x] + 1):
            if k <= room and k * tables.tile_buy[x] <= s.coins[seat] and k * (sv - tables.tile_buy[x]) > best:
                best = k * (sv - tables.tile_buy[x])
            if k <= s.sheep[seat] and k * (tables.tile_sell[x] - sv) > best:
                best = k * (tables.tile_sell[x] - sv)
        return best
    if ef == EF_KENNEL and not (s.owned[seat] >> x) & 1:
        # the sheep places its pasture rule would add now
        cap0 = N.capacity_nb(tables, s, seat)
        s.owned[seat] |= 1 << x
        cap1 = N.capacity_nb(tables, s, seat)
        s.owned[seat] &= ~(1 << x)
        return 0.8 * (cap1 - cap0) * sv
    return 0.0
