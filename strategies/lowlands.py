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

from sim.numba_calls import plain_constants
from sim.rng import randint_nb
from sim.games.lowlands.building import build_options_nb, tile_cells_nb, tile_cost_nb
from sim.games.lowlands.cards import discounts_nb, hand_total_nb, pay_plan_nb
from sim.games.lowlands.dike import dike_points_nb
from sim.games.lowlands.dike_action import dike_options_nb
from sim.games.lowlands.farm import capacity_nb, has_effect_nb, terrain_outside_nb
from sim.games.lowlands.market import shearer_bonus_nb, sheep_options_nb
from sim.games.lowlands.pastures import (
    edge_closed_nb, farm_walls_nb, in_pasture_mask_nb, in_pasture_mask_walls_nb, n_pastures_nb,
)
from sim.games.lowlands.placement import place_option_nb, place_value_nb
from sim.games.lowlands.trade_tiles import trade_slots_nb, upkeep_trade_coins_nb
from sim.games.lowlands.enums import (
    ALT_FARMHAND, ALT_FREE_FENCE, ALT_PLUS2, ALT_REMOVE_WAVE, A_BUILD, A_CARDS, A_DIKE, A_FENCE,
    A_SHEEP, CELL_NB, COLS, DEC_ASK, DEC_BUILD, DEC_CARDS, DEC_CELL, DEC_DIKE, DEC_FARMHAND,
    DEC_FENCE, DEC_FENCE_TO, DEC_INCOME, DEC_MARKET_HALL, DEC_PLACE, DEC_SHEEP, DEC_TOKEN,
    DEC_UPKEEP_TRADE, DIKE_OWN, DIKE_SUPPORT, DISPLAY_CARDS, EF_AUCTION, EF_BANK, EF_BREEDING,
    EF_BUILD_DIKE, EF_BUSH_COINS, EF_BUSH_SHEEP, EF_CAPACITY_COINS, EF_COINS, EF_COIN_PLUS,
    EF_COMPLETE_SEGMENT, EF_DAIRY, EF_DIKE_ACTION, EF_DIKE_ASSOC, EF_DIKE_PLUS, EF_DISCOUNT,
    EF_ESTATE, EF_FARMHOUSE, EF_FENCE_AND_SHEEP, EF_FENCE_BONUS, EF_FODDER_SILO, EF_FREE_FENCES,
    EF_HALF_BREACH, EF_KENNEL, EF_LAKE_CABIN, EF_LAKE_DIKE, EF_LAKE_POINTS, EF_MARKET_HALL,
    EF_MOUND, EF_REPEAT_PLUS, EF_SHEARER, EF_SHEEP, EF_SHEEP_FARM, EF_TREE_CARDS,
    EF_TREE_POINTS, EF_WAVES, INC_CARD, INC_CARD_AND_COIN, INC_CARD_OR_COIN, INC_COIN,
    INC_FARMHAND, K_FACILITY, MAX_DISPLAY, MAX_OPTIONS, N_ACTIONS, N_CELLS, N_EDGES, N_HEDGES,
    N_KINDS, N_RES, N_STAGES, PASS_PLACE, ROWS, STEP_UP1, STEP_UP2, STEP_WORK1, STEP_WORK2,
    STOP, SUPPORT_OPPONENT, TERRAIN_BUSH, TERRAIN_LAKE, TERRAIN_TREE, TRADE_MAX,
)

from strategies.lowlands_catalog import (  # noqa: F401  (ids, parameter slots, CATALOG)
    RANDOM, GREEDY, PLANNER, DIKE, SHEPHERD, P_CARD, P_DIKE, P_SHEEP, P_DANGER, P_BREED,
    P_SUPPORT, P_TOKEN, P_DIKE_PACE, P_TIDE_SPREAD, P_HOLD_PRIOR, P_FINAL_BREAK, P_DIKE_RATE,
    P_FENCE_RATE, P_BUILD_RATE, P_SALE_RATE, P_ROOM, P_FARMHAND_TO, P_ANSWERED, N_PARAMS,
    CATALOG,
)


# ---------------------------------------------------------------------------------------
# public estimates
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def expected_waves_nb(tables, s):
    """Waves expected at this stage's high tide: those on the board plus the face-down sea
    cards by their backs (1-3: 2 on average, 4-6: 4.75 with the file's cards)."""
    w = float(s.waves)
    for j in range(s.sea_shown, s.sea_n):
        w += 4.75 if tables.flood_back_high[s.sea[j]] == 1 else 2.0
    if s.sea_n == 0:      # before the tide: a whole stage to come
        w += 10.0
    return w


@njit(cache=True, error_model="numpy")
def dike_gap_nb(tables, s):
    """Resources still needed for the dike to hold against the expected waves (0 if it does)."""
    w = int(expected_waves_nb(tables, s) + 0.5)
    width = tables.layer_width
    wl = (w + width - 1) // width if w > 0 else 0
    wlen = w - (wl - 1) * width if w > 0 else 0
    k = s.segments
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
    L = tables.site_length
    pos = s.site_pos if (s.site_res >= 0 and s.site_pos < L) else 0
    return need * L - pos


@njit(cache=True, error_model="numpy")
def sheep_value_nb(tables, s, params):
    return tables.price_sheep[s.price] * params[P_SHEEP]


@njit(cache=True, error_model="numpy")
def dike_step_value_nb(tables, s, params):
    """Points of one dike-track space (half a dike point)."""
    return 0.5 * tables.price_dike[s.price] * params[P_DIKE]


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


@plain_constants
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
    if not pay_plan_nb(tables, s, seat, need, 0, out):
        return 99
    return out[0] + out[1] + out[2]


@njit(cache=True, error_model="numpy")
def dike_work_nb(tables, s, seat):
    """The scratch of pay_cards_nb, row 0 = the seat's discounts."""
    work = np.empty((3, N_RES), np.int64)
    discounts_nb(tables, s, seat, work[0])
    return work


@njit(cache=True, error_model="numpy")
def dike_pay_value_nb(tables, s, seat, code, params, planner, used, support, work):
    r = code // 16
    a = code % 16
    cards = pay_cards_nb(tables, s, seat, r, a, used, work)
    v = a * dike_step_value_nb(tables, s, params) - cards * params[P_CARD]
    if planner and s.stage == 2:
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
    price = tables.price_sheep[s.price]
    hand = s.hands[seat, A_SHEEP]
    sv = sheep_value_nb(tables, s, params)
    if mode == 0:
        each = price - hand
        if each < 0:
            each = 0
        v = k * (sv - each)
        if planner and s.stage < 2:
            v += k * params[P_BREED]
        return v
    each = price + hand
    v = k * (each - sv)
    if planner and s.stage < 2:
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
                if not edge_closed_nb(tables, s, seat, e):
                    mark[e] = 1
                    n += 1
        for r in range(R):
            for e in (N_HEDGES + r * (COLS + 1), N_HEDGES + r * (COLS + 1) + C):
                if not edge_closed_nb(tables, s, seat, e):
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
    through the cells in pastures (in_pasture_mask_nb): when the fence leaves them as they
    are (mask0), it leaves the capacity as it is. walls0, bld0: the farm's closed edges and
    building cells without the fence (farm_walls_nb, once per decision)."""
    s.fence[seat, e] = 1
    if in_pasture_mask_walls_nb(tables, s, seat, walls0 | (1 << e), bld0) == mask0:
        cap1 = cap0
    else:
        cap1 = capacity_nb(tables, s, seat)
    s.fence[seat, e] = 0
    return 10.0 * (cap1 - cap0) + (1.0 if mark[e] == 1 else -1.0)


@njit(cache=True, error_model="numpy")
def action_value_nb(tables, s, seat, a, v, params, planner):
    """Points a farmer of value v banks on action a (the best first step of it, the rest of
    its value as cards)."""
    opts = np.empty(MAX_OPTIONS, np.int64)
    card = params[P_CARD]
    if a == A_BUILD:
        n = build_options_nb(tables, s, seat, v, False, s.hands[seat, A_BUILD], opts)
        best = -1e9
        for i in range(n):
            x = s.tile_display[opts[i] // MAX_DISPLAY, opts[i] % MAX_DISPLAY]
            val = tile_value_nb(tables, s, seat, x, params) + (v - tables.tile_value[x]) * card
            if val > best:
                best = val
        return best
    if a == A_DIKE:
        n = dike_options_nb(tables, s, seat, v, 0, 0, opts)
        best = -1e9
        work = dike_work_nb(tables, s, seat)
        for i in range(n):
            val = dike_pay_value_nb(tables, s, seat, opts[i], params, planner, 0, False, work)
            val += (v - opts[i] % 16) * card
            if val > best:
                best = val
        if n > 0 and s.n_players > 1:
            best += 0.5 * dike_step_value_nb(tables, s, params)   # a support's +1, maybe
        return best
    if a == A_FENCE:
        room = capacity_nb(tables, s, seat) - s.sheep[seat]
        want = s.sheep[seat] // 2 + 1
        if s.fence_supply[seat] == 0:
            return 0.2 * v
        if room < want:
            return v * 0.9 * sheep_value_nb(tables, s, params) - v * card
        return 0.2 * v * sheep_value_nb(tables, s, params) - v * card
    if a == A_SHEEP:
        n = sheep_options_nb(tables, s, seat, v, opts)
        best = -1e9
        for i in range(n):
            val = sheep_option_value_nb(tables, s, seat, opts[i], params, planner)
            val += (v - opts[i] % 10) * card
            if val > best:
                best = val
        return best
    mult = 1.3 if hand_total_nb(s, seat) < 3 else 1.0
    return v * card * mult


@njit(cache=True, error_model="numpy")
def choose_farmhand_nb(options, n_options, target):
    """A farmhand from the supply onto action `target`, else from the supply anywhere, else
    stop (moving a placed farmhand comes last)."""
    best = 0
    bv = -1e18
    for i in range(n_options):
        o = options[i]
        if o == STOP:
            v = 0.0
        else:
            v = (2.0 if o % 8 == target else 1.0) if o // 8 == N_ACTIONS else -1.0
        if v > bv:
            bv = v
            best = i
    return best


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
        a, f, p2, cp = place_option_nb(o)
        v = place_value_nb(tables, s, seat, a, f, p2, cp)
        if v >= 0 and v < 32:
            j = a * 32 + v
            if not known[j]:
                memo[j] = action_value_nb(tables, s, seat, a, v, params, planner)
                known[j] = True
            val = memo[j]
        else:
            val = action_value_nb(tables, s, seat, a, v, params, planner)
        val -= s.uses[seat, a] * tables.reuse_cost + cp
        val -= p2 * params[P_TOKEN]
        # keep the big farmer for big jobs: a small penalty for value left unused later
        val -= 0.05 * tables.farmer_values[f]
        if val > bv:
            bv = val
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Dispatch to a built-in strategy by id, then to the chooser of the decision."""
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if n_options == 1:
        return 0
    planner = sid >= PLANNER
    if planner:
        i = choose_planner_nb(tables, s, seat, params, decision, options, n_options, ctx)
        if i >= 0:
            return i
    if decision == DEC_PLACE:
        return choose_place_nb(tables, s, seat, params, planner, options, n_options)
    if decision == DEC_BUILD:
        return choose_build_nb(tables, s, seat, params, options, n_options)
    if decision == DEC_CELL:
        return choose_cell_nb(tables, s, seat, ctx[0], options, n_options)
    if decision == DEC_DIKE:
        return choose_dike_nb(tables, s, seat, params, planner, options, n_options, ctx)
    if decision == DEC_FENCE or decision == DEC_FENCE_TO:
        return choose_fence_nb(tables, s, seat, options, n_options)
    if decision == DEC_SHEEP:
        return choose_sheep_nb(tables, s, seat, params, planner, options, n_options)
    if decision == DEC_CARDS:
        return choose_cards_nb(s, seat, options, n_options)
    if decision == DEC_ASK:
        return choose_ask_nb(tables, s, planner, options, n_options)
    if decision == DEC_TOKEN:
        return choose_token_nb(tables, s, params, n_options, ctx)
    if decision == DEC_FARMHAND:
        target = A_DIKE if params[P_DIKE] >= params[P_SHEEP] else A_FENCE
        if not planner:
            target = A_CARDS
        return choose_farmhand_nb(options, n_options, target)
    if decision == DEC_INCOME:
        return 0 if hand_total_nb(s, seat) < 5 else 1
    if decision == DEC_UPKEEP_TRADE or decision == DEC_MARKET_HALL:
        return choose_trade_nb(tables, s, seat, params, planner, decision, options, n_options, ctx)
    return choose_discard_nb(s, seat, options, n_options)


@njit(cache=True, error_model="numpy")
def choose_build_nb(tables, s, seat, params, options, n_options):
    """The display tile of the highest value."""
    best = 0
    bv = -1e18
    for i in range(n_options):
        x = s.tile_display[options[i] // MAX_DISPLAY, options[i] % MAX_DISPLAY]
        v = tile_value_nb(tables, s, seat, x, params)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_cell_nb(tables, s, seat, x, options, n_options):
    """The cell for tile x that keeps the most sheep places; a building outside pastures
    otherwise. Each cell is tried on the state (the tile set, then taken away again)."""
    best = 0
    bv = -1e18
    for i in range(n_options):
        k = options[i]
        s.tile_at[seat, k] = x
        v = float(capacity_nb(tables, s, seat))
        s.tile_at[seat, k] = -1
        v -= 0.01 * k
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_dike_nb(tables, s, seat, params, planner, options, n_options, ctx):
    """The dike payment of the highest value (stopping is worth 0)."""
    support = ctx[1] == DIKE_SUPPORT
    used = ctx[4]
    work = dike_work_nb(tables, s, seat)
    best = 0
    bv = -1e18
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


@njit(cache=True, error_model="numpy")
def choose_fence_nb(tables, s, seat, options, n_options):
    """The fence toward the planned pastures of the highest value; a fence is moved only if
    it stands off the plan and the plan needs one."""
    mark = np.zeros(N_EDGES, np.int64)
    target_edges_nb(tables, s, seat, mark)
    cap0 = capacity_nb(tables, s, seat)
    mask0 = in_pasture_mask_nb(tables, s, seat)
    walls0, bld0 = farm_walls_nb(tables, s, seat)
    best = 0
    bv = -1e18
    for i in range(n_options):
        o = options[i]
        if o == STOP:
            v = 0.5
        elif o >= N_EDGES:
            e = o - N_EDGES
            v = 0.8 if (mark[e] == 0 and s.fence_supply[seat] == 0 and
                        in_pasture_mask_nb(tables, s, seat) == 0) else -5.0
        else:
            v = fence_edge_value_nb(tables, s, seat, o, mark, cap0, mask0, walls0, bld0)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_sheep_nb(tables, s, seat, params, planner, options, n_options):
    best = 0
    bv = -1e18
    for i in range(n_options):
        v = sheep_option_value_nb(tables, s, seat, options[i], params, planner)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_cards_nb(s, seat, options, n_options):
    """The display cards (a bit mask per option) that add most, a type held less first."""
    best = 0
    bv = -1e18
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


@njit(cache=True, error_model="numpy")
def choose_ask_nb(tables, s, planner, options, n_options):
    """The rival with the largest hand (hand sizes are public); the planner would rather not
    push a rival ahead on the dike."""
    best = 0
    bv = -1e18
    for i in range(n_options):
        q = options[i]
        v = float(hand_total_nb(s, q))
        if planner and hand_total_nb(s, q) > 0:
            v -= 0.3 * dike_points_nb(tables, s, q)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_token_nb(tables, s, params, n_options, ctx):
    """A bonus token's alternative (1) when it is worth more than its coins (0)."""
    if n_options < 2:
        return 0
    alt = tables.token_alt[ctx[0]]
    coins = tables.token_coins[ctx[0]]
    altv = 0.0
    if alt == ALT_REMOVE_WAVE:
        altv = 4.0 if dike_gap_nb(tables, s) > 0 else 0.5
    elif alt == ALT_FARMHAND:
        altv = 4.0 if s.stage < 2 else 1.0
    elif alt == ALT_FREE_FENCE:
        altv = 1.0 + params[P_SHEEP]
    elif alt == ALT_PLUS2:
        altv = 3.0 if s.stage < 2 else 1.0
    return 1 if altv > coins else 0


@njit(cache=True, error_model="numpy")
def choose_discard_nb(s, seat, options, n_options):
    """DEC_DISCARD: the type held most."""
    best = 0
    bv = -1e18
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
    n = 2 * (N_STAGES - s.stage)
    if s.step > STEP_UP1:
        n -= 1
    if s.step > STEP_UP2:
        n -= 1
    return n if n > 0 else 0


@njit(cache=True, error_model="numpy")
def trade_sheep_value_nb(tables, s, params, planner):
    """What a sheep is worth in a trade: greedy, the sheep value now; the planner, the value
    after this stage's high tide as it expects it (the price moves right if the dike holds
    against the waves it expects from the flood cards' backs, left if not)."""
    pos = s.price
    if planner and s.stage < N_STAGES:
        pos += -1 if dike_gap_nb(tables, s) > 0 else 1
        if pos < 0:
            pos = 0
        if pos > tables.n_price - 1:
            pos = tables.n_price - 1
    return tables.price_sheep[pos] * params[P_SHEEP]


@njit(cache=True, error_model="numpy")
def lambs_nb(tables, sheep, cap):
    k = sheep // tables.breed_per
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
        trade_slots_nb(tables, s, seat, EF_AUCTION, aslots)
        trade_slots_nb(tables, s, seat, EF_FODDER_SILO, fslots)
        gain, cost = upkeep_trade_coins_nb(tables, s, seat, ds, db, aslots, fslots)
        coins = gain - cost
    else:
        coins = ds * tables.tile_sell[x] - db * tables.tile_buy[x]
    new = sheep - ds + db
    dsheep = (db - ds) + lambs_nb(tables, new, cap) - lambs_nb(tables, sheep, cap)
    return coins + dsheep * trade_sheep_value_nb(tables, s, params, planner)


@njit(cache=True, error_model="numpy")
def choose_trade_nb(tables, s, seat, params, planner, decision, options, n_options, ctx):
    cap = capacity_nb(tables, s, seat)
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
        room = capacity_nb(tables, s, seat) - s.sheep[seat]
        best = 0.0
        for k in range(1, tables.tile_count[x] + 1):
            if k <= room and k * tables.tile_buy[x] <= s.coins[seat] and k * (sv - tables.tile_buy[x]) > best:
                best = k * (sv - tables.tile_buy[x])
            if k <= s.sheep[seat] and k * (tables.tile_sell[x] - sv) > best:
                best = k * (tables.tile_sell[x] - sv)
        return best
    if ef == EF_KENNEL and not (s.owned[seat] >> x) & 1:
        # the sheep places its pasture rule would add now
        cap0 = capacity_nb(tables, s, seat)
        s.owned[seat] |= 1 << x
        cap1 = capacity_nb(tables, s, seat)
        s.owned[seat] &= ~(1 << x)
        return 0.8 * (cap1 - cap0) * sv
    return 0.0


# ---------------------------------------------------------------------------------------
# the planner (and its routes dike / shepherd): every choice valued by what it adds to the
# seat's final score, read from the component file's numbers and the public board. Its
# weights are the catalog's parameters (strategies/lowlands_catalog.py).
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def clamp01_nb(x):
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


@njit(cache=True, error_model="numpy")
def high_tides_left_nb(s):
    """High tides still to come (this stage's included until it has run)."""
    n = N_STAGES - s.stage
    return n if n > 0 else 0


@njit(cache=True, error_model="numpy")
def work_phases_left_nb(s):
    """Work phases still to come, the current one counted as half (its farmers are placed)."""
    st = s.stage
    if st >= N_STAGES:
        return 0.0
    n = 2.0 * (N_STAGES - st)
    step = s.step
    if step >= STEP_WORK1:
        n -= 0.5 if step == STEP_WORK1 else 1.0
    if step >= STEP_WORK2:
        n -= 0.5 if step == STEP_WORK2 else 1.0
    return n if n > 0.0 else 0.0


@njit(cache=True, error_model="numpy")
def phases_to_tide_nb(s):
    """Work phases left before this stage's high tide (the current one counted as half)."""
    step = s.step
    if step < STEP_WORK1:
        return 2.0
    if step == STEP_WORK1:
        return 1.5
    if step < STEP_WORK2:
        return 1.0
    if step == STEP_WORK2:
        return 0.5
    return 0.0


@plain_constants
@njit(cache=True, error_model="numpy")
def hold_chance_nb(tables, s, params, removed):
    """Chance that this stage's high tide holds: the resources still needed against the waves
    the flood cards' backs promise (`removed` waves fewer), against what the players are
    expected to pay before it (dike_pace per player per work phase), spread tide_spread."""
    if s.stage >= N_STAGES:
        return 1.0
    s.waves -= removed
    gap = dike_gap_nb(tables, s)
    s.waves += removed
    pay = params[P_DIKE_PACE] * s.n_players * phases_to_tide_nb(s)
    spread = params[P_TIDE_SPREAD] if params[P_TIDE_SPREAD] > 0.1 else 0.1
    return 1.0 / (1.0 + np.exp((gap - pay) / spread))


@njit(cache=True, error_model="numpy")
def price_at_nb(table, n, pos):
    """A price track's value at a fractional position (linear between spaces)."""
    if pos <= 0.0:
        return float(table[0])
    if pos >= n - 1:
        return float(table[n - 1])
    i = int(pos)
    f = pos - i
    return table[i] * (1.0 - f) + table[i + 1] * f


@njit(cache=True, error_model="numpy")
def final_price_pos_nb(tables, s, params):
    """Where the price marker is expected at the end: right when a high tide holds, left when
    it breaks: this stage's by the forecast, the later ones by hold_prior."""
    pos = float(s.price)
    left = high_tides_left_nb(s)
    if left > 0:
        h = hold_chance_nb(tables, s, params, 0)
        pos += 2.0 * h - 1.0
        pos += (left - 1) * (2.0 * params[P_HOLD_PRIOR] - 1.0)
    hi = tables.n_price - 1
    return 0.0 if pos < 0.0 else (hi if pos > hi else pos)


@njit(cache=True, error_model="numpy")
def end_sheep_price_nb(tables, s, params):
    return price_at_nb(tables.price_sheep, tables.n_price, final_price_pos_nb(tables, s, params))


@njit(cache=True, error_model="numpy")
def end_dike_price_nb(tables, s, params):
    return price_at_nb(tables.price_dike, tables.n_price, final_price_pos_nb(tables, s, params))


@njit(cache=True, error_model="numpy")
def final_flock_nb(tables, sheep, cap, upkeeps):
    """Sheep at the end from `sheep` now: each upkeep breeds 1 per breed_per, as housed."""
    n = sheep
    per = tables.breed_per
    for _ in range(upkeeps):
        k = n // per
        if k > cap - n:
            k = cap - n
        if k <= 0:
            break
        n += k
    return n


@njit(cache=True, error_model="numpy")
def flock_worth_nb(tables, s, seat, params, sheep, cap, price):
    """Points of a flock of `sheep` on a farm of `cap` places at the end: the sheep and (with
    weight breed) their lambs at `price`, plus `room` for each place left empty."""
    up = upkeeps_left_nb(s)
    end = final_flock_nb(tables, sheep, cap, up)
    lambs = end - sheep
    v = (sheep + params[P_BREED] * lambs) * price * params[P_SHEEP]
    empty = cap - end
    if empty > 0:
        v += params[P_ROOM] * empty * (1.0 if up > 0 else 0.0)
    return v


@njit(cache=True, error_model="numpy")
def token_cost_nb(tables, s, params, price):
    """What a breach token is expected to cost at the storm surge: a sheep (or its price in
    coins) when the final check breaks."""
    p = params[P_FINAL_BREAK]
    if s.stage == N_STAGES - 1:
        p = 1.0 - hold_chance_nb(tables, s, params, 0)
    return p * price


@njit(cache=True, error_model="numpy")
def holds_left_nb(tables, s, params):
    """High tides expected to hold from now on (this one by the forecast)."""
    left = high_tides_left_nb(s)
    if left == 0:
        return 0.0
    return hold_chance_nb(tables, s, params, 0) + (left - 1) * params[P_HOLD_PRIOR]


@njit(cache=True, error_model="numpy")
def lowest_and_highest_nb(tables, s):
    lo = 1 << 40
    hi = -1
    for q in range(s.n_players):
        d = dike_points_nb(tables, s, q)
        lo = d if d < lo else lo
        hi = d if d > hi else hi
    return lo, hi


@plain_constants
@njit(cache=True, error_model="numpy")
def dike_steps_worth_nb(tables, s, seat, steps, params):
    """Points of moving seat's dike marker `steps` spaces: the dike points at the end price,
    the coins of the progress tokens passed, and 1 coin per point above the lowest at each
    high tide that holds, 1 breach token less per point below the highest at each that
    breaks."""
    if steps <= 0:
        return 0.0
    d0 = dike_points_nb(tables, s, seat)
    pos = s.dike_pos[seat]
    L = tables.track_length
    tokens = 0.0
    p = pos
    for _ in range(steps):
        p += 1
        if p >= L:      # a lap (rare): counted as the spaces it moves
            p = tables.wrap_to
        for i in range(tables.n_tokens):
            if tables.token_space[i] == p:
                tokens += tables.token_coins[s.token_order[i]]
    gained = (pos % 2 + steps) // 2
    lo, hi = lowest_and_highest_nb(tables, s)
    price = end_sheep_price_nb(tables, s, params)
    holds = holds_left_nb(tables, s, params)
    breaks = high_tides_left_nb(s) - holds
    above = 0
    below = 0
    for k in range(gained):
        d = d0 + k
        if d >= lo and not (d == lo and d0 == lo and lo_unique_nb(tables, s, seat, lo)):
            above += 1
        if d < hi:
            below += 1
    v = gained * end_dike_price_nb(tables, s, params) * params[P_DIKE]
    v += tokens + above * holds + below * breaks * token_cost_nb(tables, s, params, price)
    return v


@njit(cache=True, error_model="numpy")
def lo_unique_nb(tables, s, seat, lo):
    """Is seat alone on the lowest dike points (raising it raises the lowest)?"""
    for q in range(s.n_players):
        if q != seat and dike_points_nb(tables, s, q) == lo:
            return False
    return True


@njit(cache=True, error_model="numpy")
def tide_swing_nb(tables, s, seat, params):
    """Points the seat gains if this stage's high tide holds rather than breaks: the coins
    above the lowest, the breach tokens below the highest, and the price moving two spaces
    (sheep dearer, dike cheaper) on its flock and its dike points."""
    if s.stage >= N_STAGES:
        return 0.0
    lo, hi = lowest_and_highest_nb(tables, s)
    d = dike_points_nb(tables, s, seat)
    pos = final_price_pos_nb(tables, s, params)
    n = tables.n_price
    dsheep = price_at_nb(tables.price_sheep, n, pos + 1.0) - price_at_nb(tables.price_sheep, n, pos - 1.0)
    ddike = price_at_nb(tables.price_dike, n, pos + 1.0) - price_at_nb(tables.price_dike, n, pos - 1.0)
    flock = final_flock_nb(tables, s.sheep[seat], capacity_nb(tables, s, seat), upkeeps_left_nb(s))
    v = (d - lo) + (hi - d) * token_cost_nb(tables, s, params, price_at_nb(tables.price_sheep, n, pos))
    v += flock * dsheep * params[P_SHEEP] + d * ddike * params[P_DIKE]
    return v * params[P_DANGER]


@plain_constants
@njit(cache=True, error_model="numpy")
def gap_closing_worth_nb(tables, s, seat, params, resources):
    """What `resources` paid into the dike now change in the chance the high tide holds, times
    the seat's swing. The dike's gap is shared: a payment closes it for everyone."""
    if s.stage >= N_STAGES or resources <= 0:
        return 0.0
    h0 = hold_chance_nb(tables, s, params, 0)
    pay = params[P_DIKE_PACE] * s.n_players * phases_to_tide_nb(s)
    spread = params[P_TIDE_SPREAD] if params[P_TIDE_SPREAD] > 0.1 else 0.1
    gap = dike_gap_nb(tables, s) - resources
    h1 = 1.0 / (1.0 + np.exp((gap - pay) / spread))
    return (h1 - h0) * tide_swing_nb(tables, s, seat, params)


@plain_constants
@njit(cache=True, error_model="numpy")
def planner_dike_value_nb(tables, s, seat, code, params, used, support, work):
    """A dike payment: its cards, the marker's steps (Dike Master's +1 on an own action's
    first payment is counted by the caller), what it does to the high tide, and (answering a
    support request) the builder's +1 counted at `support` of a step."""
    r = code // 16
    a = code % 16
    cards = pay_cards_nb(tables, s, seat, r, a, used, work)
    v = dike_steps_worth_nb(tables, s, seat, a, params) - cards * params[P_CARD]
    v += gap_closing_worth_nb(tables, s, seat, params, a)
    if support:
        v -= params[P_SUPPORT] * dike_steps_worth_nb(tables, s, seat, 1, params)
    return v


@plain_constants
@njit(cache=True, error_model="numpy")
def cards_cost_nb(tables, s, seat, x, free_any):
    """Cards seat gives up for tile x (discounts, farmhands, the 2-for-1 exchange); 99 if it
    cannot pay."""
    need = np.empty(N_RES, np.int64)
    out = np.empty(N_RES, np.int64)
    tile_cost_nb(tables, s, seat, x, need)
    if not pay_plan_nb(tables, s, seat, need, free_any, out):
        return 99
    return out[0] + out[1] + out[2]


@njit(cache=True, error_model="numpy")
def income_icon_worth_nb(tables, s, icon, params):
    """Points of an income icon uncovered now, over the upkeeps left."""
    up = upkeeps_left_nb(s)
    card = params[P_CARD]
    if icon == INC_CARD:
        return up * card
    if icon == INC_COIN:
        return float(up)
    if icon == INC_CARD_OR_COIN:
        return up * (card if card > 1.0 else 1.0)
    if icon == INC_CARD_AND_COIN:
        return up * (card + 1.0)
    if icon == INC_FARMHAND:
        return work_phases_left_nb(s) * card
    return 0.0


@njit(cache=True, error_model="numpy")
def place_tile_nb(s, seat, x, k):
    s.tile_at[seat, k] = x
    s.owned[seat] |= 1 << x


@njit(cache=True, error_model="numpy")
def lift_tile_nb(s, seat, x, k):
    s.tile_at[seat, k] = -1
    s.owned[seat] &= ~(1 << x)


@njit(cache=True, error_model="numpy")
def cell_worth_nb(tables, s, seat, x, k, params, price, sheep):
    """Points of tile x standing on cell k, read on the farm with the tile on it: the flock
    its places house by the end, and the end-scoring effects that read the farm (lake, tree
    and bush cells outside pastures, the Lake Cabin's empty neighbours, the Estate's
    pastures)."""
    place_tile_nb(s, seat, x, k)
    cap = capacity_nb(tables, s, seat)
    v = flock_worth_nb(tables, s, seat, params, sheep, cap, price)
    v += farm_scoring_nb(tables, s, seat, x, k)
    lift_tile_nb(s, seat, x, k)
    return v


@njit(cache=True, error_model="numpy")
def farm_scoring_nb(tables, s, seat, x, k):
    """The end points tile x (standing on cell k) scores by the farm as it is now."""
    ef = tables.tile_effect[x]
    if ef != EF_LAKE_POINTS and ef != EF_TREE_POINTS and ef != EF_LAKE_CABIN and ef != EF_ESTATE:
        return 0.0
    inmask = in_pasture_mask_nb(tables, s, seat)
    if ef == EF_LAKE_POINTS:
        nl = terrain_outside_nb(tables, s, seat, TERRAIN_LAKE, inmask)
        return 10.0 if nl >= 4 else (7.0 if nl >= 3 else 0.0)
    if ef == EF_TREE_POINTS:
        nt = terrain_outside_nb(tables, s, seat, TERRAIN_TREE, inmask)
        return 15.0 if nt >= 5 else (10.0 if nt >= 4 else (5.0 if nt >= 3 else 0.0))
    if ef == EF_LAKE_CABIN:
        c = 0
        for d in range(4):
            nb = CELL_NB[k, d]
            if nb >= 0 and s.tile_at[seat, nb] < 0 and not (inmask >> nb) & 1:
                c += 1
        return float(c * tables.tile_param[x])
    return float(tables.tile_param[x] * n_pastures_nb(tables, s, seat))


@njit(cache=True, error_model="numpy")
def best_cell_nb(tables, s, seat, x, params, price):
    """(best cell, its worth) for tile x on seat's farm (cell_worth_nb); -1 if none."""
    cells = np.empty(N_CELLS, np.int64)
    n = tile_cells_nb(tables, s, seat, x, cells)
    best = -1
    bv = -1e18
    sheep = s.sheep[seat]
    for i in range(n):
        k = cells[i]
        # ties: the cell furthest from the starting pasture (top left), where pastures grow
        v = cell_worth_nb(tables, s, seat, x, k, params, price, sheep) + 0.001 * k
        if v > bv:
            bv = v
            best = k
    return best, bv - (0.001 * best if best >= 0 else 0.0)


@njit(cache=True, error_model="numpy")
def uses_left_nb(s, rate):
    return rate * work_phases_left_nb(s)


@njit(cache=True, error_model="numpy")
def fence_worth_nb(tables, s, seat, params, price):
    """Points of one fence on the pasture plan (its cards apart): the places the plan's
    rectangle adds by the end, shared over the fences it still needs."""
    mark = np.zeros(N_EDGES, np.int64)
    target_edges_nb(tables, s, seat, mark)
    need = 0
    for e in range(N_EDGES):
        if mark[e] == 1:
            s.fence[seat, e] = 1
            need += 1
    if need == 0:
        return 0.0
    cap1 = capacity_nb(tables, s, seat)
    for e in range(N_EDGES):
        if mark[e] == 1:
            s.fence[seat, e] = 0
    cap0 = capacity_nb(tables, s, seat)
    sheep = s.sheep[seat]
    gain = (flock_worth_nb(tables, s, seat, params, sheep, cap1, price)
            - flock_worth_nb(tables, s, seat, params, sheep, cap0, price))
    return gain / need


@plain_constants
@njit(cache=True, error_model="numpy")
def sheep_gain_worth_nb(tables, s, seat, params, k, cap, price):
    """Points of k sheep from the supply now on a farm of cap places (as housed)."""
    sheep = s.sheep[seat]
    new = sheep + k
    if new > cap:
        new = cap
    return (flock_worth_nb(tables, s, seat, params, new, cap, price)
            - flock_worth_nb(tables, s, seat, params, sheep, cap, price))


@njit(cache=True, error_model="numpy")
def effect_worth_nb(tables, s, seat, x, params, price, cap):
    """Points of tile x's effect over the rest of the game (cap: the farm's places with the
    tile on its best cell). The farm-scoring '!' effects and the places are in cell_worth_nb.
    Kept whole: a table of the effects, one independent branch each, read as a list (the
    rulebook's tile list, docs/games/lowlands.md) that a split would only cut in two."""
    ef = tables.tile_effect[x]
    prm = tables.tile_param[x]
    card = params[P_CARD]
    dike_uses = uses_left_nb(s, params[P_DIKE_RATE])
    step = dike_steps_worth_nb(tables, s, seat, 1, params)
    if ef == EF_COINS or ef == EF_BANK:
        v = float(prm)
        if ef == EF_BANK:
            v += (s.coins[seat] + prm) // prm if prm > 0 else 0
        return v
    if ef == EF_SHEEP or ef == EF_BREEDING:
        k = prm if ef == EF_SHEEP else 1
        v = sheep_gain_worth_nb(tables, s, seat, params, k, cap, price)
        if ef == EF_BREEDING and prm > 0:
            v += (final_flock_nb(tables, s.sheep[seat] + 1, cap, upkeeps_left_nb(s)) // prm) * price
        return v
    if ef == EF_FREE_FENCES or ef == EF_ESTATE:
        k = prm if ef == EF_FREE_FENCES else 2
        k = k if k < s.fence_supply[seat] else s.fence_supply[seat]
        return k * fence_worth_nb(tables, s, seat, params, price)
    if ef == EF_FARMHOUSE:
        best = 0.0
        for i in range(MAX_DISPLAY):
            y = s.tile_display[K_FACILITY, i]
            if y >= 0:
                w = float(tables.tile_shields[y]) - cards_cost_nb(tables, s, seat, y, 0) * card
                if w > best:
                    best = w
        nf = 1
        for k in range(N_CELLS):
            y = s.tile_at[seat, k]
            if y >= 0 and tables.tile_kind[y] == K_FACILITY:
                nf += 1
        return best + prm * nf
    if ef == EF_DIKE_ASSOC:
        d_end = dike_points_nb(tables, s, seat) + prm // 2 + dike_uses
        return dike_steps_worth_nb(tables, s, seat, prm, params) + 2.0 * (d_end // prm) * step
    if ef == EF_MOUND:
        # the breach tokens it holds at the storm surge: those it has, and the points below
        # the highest (a rival gains on it meanwhile) at each high tide expected to break
        lo, hi = lowest_and_highest_nb(tables, s)
        breaks = high_tides_left_nb(s) - holds_left_nb(tables, s, params)
        k = s.breach[seat] + (hi - dike_points_nb(tables, s, seat) + 1.0) * breaks
        return k * token_cost_nb(tables, s, params, price) if k <= prm else 0.0
    if ef == EF_HALF_BREACH:
        lo, hi = lowest_and_highest_nb(tables, s)
        below = hi - dike_points_nb(tables, s, seat) + 1.0
        breaks = high_tides_left_nb(s) - holds_left_nb(tables, s, params)
        return 0.5 * (s.breach[seat] + below * breaks) * token_cost_nb(tables, s, params, price)
    if ef == EF_DIKE_PLUS:
        return dike_uses * step
    if ef == EF_DISCOUNT:
        return (dike_uses + uses_left_nb(s, params[P_BUILD_RATE])) * card
    if ef == EF_BUILD_DIKE:
        builds = 1.0 + uses_left_nb(s, params[P_BUILD_RATE])
        per = 2.0 * (step - card) + gap_closing_worth_nb(tables, s, seat, params, 2)
        return builds * per if per > 0.0 else 0.0
    if ef == EF_COMPLETE_SEGMENT:
        L = tables.site_length
        pos = s.site_pos if (s.site_res >= 0 and s.site_pos < L) else 0
        return (dike_steps_worth_nb(tables, s, seat, prm, params)
                + gap_closing_worth_nb(tables, s, seat, params, L - pos))
    if ef == EF_WAVES:
        n = s.n_buildings[seat] + 1
        h1 = hold_chance_nb(tables, s, params, n)
        return (h1 - hold_chance_nb(tables, s, params, 0)) * tide_swing_nb(tables, s, seat, params)
    if ef == EF_REPEAT_PLUS or ef == EF_COIN_PLUS:
        v = work_phases_left_nb(s) * card
        return v if ef == EF_REPEAT_PLUS else 0.5 * v
    if ef == EF_LAKE_DIKE:
        lakes = terrain_outside_nb(tables, s, seat, TERRAIN_LAKE, in_pasture_mask_nb(tables, s, seat))
        plus = 2 if lakes >= 4 else (1 if lakes >= 3 else 0)
        return dike_uses * plus * step
    if ef == EF_FENCE_BONUS:
        return uses_left_nb(s, params[P_FENCE_RATE]) * fence_worth_nb(tables, s, seat, params, price)
    if ef == EF_DAIRY:
        return float(s.sheep[seat] // 2)
    if ef == EF_CAPACITY_COINS:
        room = cap - s.sheep[seat]
        return float(prm * room) if room > 0 else 0.0
    if ef == EF_SHEARER:
        return uses_left_nb(s, params[P_SALE_RATE]) * prm
    if ef == EF_FENCE_AND_SHEEP:
        k = 3 if 3 < s.fence_supply[seat] else s.fence_supply[seat]
        return (k * (fence_worth_nb(tables, s, seat, params, price) - card)
                + sheep_gain_worth_nb(tables, s, seat, params, prm, cap, price))
    if ef == EF_BUSH_COINS:
        b = terrain_outside_nb(tables, s, seat, TERRAIN_BUSH, in_pasture_mask_nb(tables, s, seat))
        return float(b * (1 + high_tides_left_nb(s)))
    if ef == EF_SHEEP_FARM:
        inmask = in_pasture_mask_nb(tables, s, seat)
        c = 0
        for k in range(N_CELLS):
            if (inmask >> k) & 1 and (tables.layout_terrain[s.layout[seat], k] & TERRAIN_BUSH):
                c += prm
        return c + sheep_gain_worth_nb(tables, s, seat, params, 1, cap, price)
    if ef == EF_TREE_CARDS or ef == EF_BUSH_SHEEP:
        # once per fence action that closes a pasture holding such a cell
        times = uses_left_nb(s, params[P_FENCE_RATE]) * 0.5
        if ef == EF_TREE_CARDS:
            return times * prm * card
        return times * sheep_gain_worth_nb(tables, s, seat, params, prm, cap, price)
    if ef == EF_DIKE_ACTION:
        work = dike_work_nb(tables, s, seat)
        opts = np.empty(MAX_OPTIONS, np.int64)
        n = dike_options_nb(tables, s, seat, prm, 0, 0, opts)
        best = 0.0
        for i in range(n):
            w = planner_dike_value_nb(tables, s, seat, opts[i], params, 0, False, work)
            if w > best:
                best = w
        return best
    if ef == EF_AUCTION or ef == EF_FODDER_SILO or ef == EF_MARKET_HALL:
        return trade_tile_value_nb(tables, s, seat, x, params)
    return 0.0


@njit(cache=True, error_model="numpy")
def tile_worth_nb(tables, s, seat, x, params, free_any):
    """Points tile x adds to seat's final score, less the cards it costs: its shields, the
    places and farm scoring on its best cell (against the farm now), its effect over the
    rest of the game, the income its building marker uncovers."""
    price = end_sheep_price_nb(tables, s, params)
    k, on_cell = best_cell_nb(tables, s, seat, x, params, price)
    if k < 0:
        return -1e9
    cap0 = capacity_nb(tables, s, seat)
    now = flock_worth_nb(tables, s, seat, params, s.sheep[seat], cap0, price)
    place_tile_nb(s, seat, x, k)
    cap = capacity_nb(tables, s, seat)
    eff = effect_worth_nb(tables, s, seat, x, params, price, cap)
    lift_tile_nb(s, seat, x, k)
    v = float(tables.tile_shields[x]) + (on_cell - now) + eff
    if tables.tile_kind[x] != K_FACILITY and s.n_buildings[seat] < tables.max_buildings:
        v += income_icon_worth_nb(tables, s, tables.building_income[s.n_buildings[seat]], params)
    return v - cards_cost_nb(tables, s, seat, x, free_any) * params[P_CARD]


@njit(cache=True, error_model="numpy")
def planner_sheep_value_nb(tables, s, seat, code, params, cap, price):
    """A market trade: the coins against what the flock is worth at the end with the sheep
    bought or sold (their lambs included, as housed)."""
    mode = code // 100
    k = code % 10
    now = tables.price_sheep[s.price]
    hand = s.hands[seat, A_SHEEP]
    sheep = s.sheep[seat]
    base = flock_worth_nb(tables, s, seat, params, sheep, cap, price)
    if mode == 0:
        each = now - hand
        each = each if each > 0 else 0
        return flock_worth_nb(tables, s, seat, params, sheep + k, cap, price) - base - k * each
    each = now + hand + shearer_bonus_nb(tables, s, seat)
    return k * each - (base - flock_worth_nb(tables, s, seat, params, sheep - k, cap, price))


@njit(cache=True, error_model="numpy")
def planner_fence_action_nb(tables, s, seat, v, params, price):
    """A fence action of value v: the fences the pasture plan still needs (one card each),
    the income their board slots uncover, the rest of the value as cards."""
    if s.fence_supply[seat] == 0:
        return v * params[P_CARD]
    mark = np.zeros(N_EDGES, np.int64)
    target_edges_nb(tables, s, seat, mark)
    need = 0
    for e in range(N_EDGES):
        need += mark[e]
    k = v if v < need else need
    k = k if k < s.fence_supply[seat] else s.fence_supply[seat]
    held = 0
    for r in range(N_RES):
        held = s.hand[seat, r] if s.hand[seat, r] > held else held
    k = k if k < held else held
    per = fence_worth_nb(tables, s, seat, params, price)
    val = k * (per - params[P_CARD]) + (v - k) * params[P_CARD]
    slot = tables.n_fence_income - s.fence_supply[seat]
    for j in range(k):
        val += income_icon_worth_nb(tables, s, tables.fence_income[slot + j], params)
    return val


@njit(cache=True, error_model="numpy")
def planner_action_value_nb(tables, s, seat, a, v, params, worth, tvals):
    """Points a farmer of value v banks on action a, by the planner's value model. worth /
    tvals: each face-up tile's worth (tile_worth_nb) and value, filled once per decision."""
    card = params[P_CARD]
    opts = np.empty(MAX_OPTIONS, np.int64)
    if a == A_BUILD:
        best = -1e9
        for i in range(worth.shape[0]):
            if tvals[i] >= 0 and tvals[i] <= v and worth[i] > -1e8:
                val = worth[i] + (v - tvals[i]) * card
                best = val if val > best else best
        return best
    if a == A_DIKE:
        n = dike_options_nb(tables, s, seat, v, 0, 0, opts)
        best = -1e9
        work = dike_work_nb(tables, s, seat)
        plus = has_effect_nb(tables, s, seat, EF_DIKE_PLUS)
        for i in range(n):
            val = planner_dike_value_nb(tables, s, seat, opts[i], params, 0, False, work)
            val += (v - opts[i] % 16) * card
            best = val if val > best else best
        if n > 0:
            extra = plus
            if s.n_players > 1 and tables.two_player_support == SUPPORT_OPPONENT or s.n_players > 2:
                best += params[P_ANSWERED] * dike_steps_worth_nb(tables, s, seat, 1, params)
            best += dike_steps_worth_nb(tables, s, seat, extra, params)
        return best
    price = end_sheep_price_nb(tables, s, params)
    if a == A_FENCE:
        return planner_fence_action_nb(tables, s, seat, v, params, price)
    if a == A_SHEEP:
        n = sheep_options_nb(tables, s, seat, v, opts)
        cap = capacity_nb(tables, s, seat)
        best = -1e9
        for i in range(n):
            val = planner_sheep_value_nb(tables, s, seat, opts[i], params, cap, price)
            val += (v - opts[i] % 10) * card
            best = val if val > best else best
        return best
    return v * card


@njit(cache=True, error_model="numpy")
def display_worth_nb(tables, s, seat, params, free_any, worth, tvals):
    """worth[k*MAX_DISPLAY+i], tvals[...]: each face-up tile's worth and build value (-1: no
    tile there, or it cannot be built: the limits, its cost)."""
    opts = np.empty(MAX_OPTIONS, np.int64)
    n = build_options_nb(tables, s, seat, 99, False, free_any, opts)
    worth[:] = -1e9
    tvals[:] = -1
    for i in range(n):
        x = s.tile_display[opts[i] // MAX_DISPLAY, opts[i] % MAX_DISPLAY]
        worth[opts[i]] = tile_worth_nb(tables, s, seat, x, params, free_any)
        tvals[opts[i]] = tables.tile_value[x]


@njit(cache=True, error_model="numpy")
def planner_place_nb(tables, s, seat, params, options, n_options):
    best = 0
    bv = -1e18
    known = np.zeros(N_ACTIONS * 32, np.bool_)
    memo = np.empty(N_ACTIONS * 32, np.float64)
    worth = np.empty(N_KINDS * MAX_DISPLAY, np.float64)
    tvals = np.empty(N_KINDS * MAX_DISPLAY, np.int64)
    display_worth_nb(tables, s, seat, params, s.hands[seat, A_BUILD], worth, tvals)
    for i in range(n_options):
        o = options[i]
        if o == PASS_PLACE:
            return i
        a, f, p2, cp = place_option_nb(o)
        v = place_value_nb(tables, s, seat, a, f, p2, cp)
        j = a * 32 + (v if v < 32 else 31)
        if not known[j]:
            memo[j] = planner_action_value_nb(tables, s, seat, a, v, params, worth, tvals)
            known[j] = True
        val = memo[j] - s.uses[seat, a] * tables.reuse_cost - cp
        val -= p2 * params[P_TOKEN]
        if val > bv:
            bv = val
            best = i
    return best


@njit(cache=True, error_model="numpy")
def planner_token_value_nb(tables, s, seat, params, alt):
    """The progress token's other bonus, in points (its coins are worth their number)."""
    if alt == ALT_REMOVE_WAVE:
        h1 = hold_chance_nb(tables, s, params, 1)
        return (h1 - hold_chance_nb(tables, s, params, 0)) * tide_swing_nb(tables, s, seat, params)
    if alt == ALT_FARMHAND:
        return work_phases_left_nb(s) * params[P_CARD]
    if alt == ALT_FREE_FENCE:
        return fence_worth_nb(tables, s, seat, params, end_sheep_price_nb(tables, s, params))
    if alt == ALT_PLUS2:
        return tables.farmer_plus * params[P_CARD] if work_phases_left_nb(s) > 0 else 0.0
    return 0.0


@njit(cache=True, error_model="numpy")
def choose_planner_nb(tables, s, seat, params, decision, options, n_options, ctx):
    """The planner's decisions (-1: the shared rule of choose_builtin_nb decides)."""
    if decision == DEC_PLACE:
        return planner_place_nb(tables, s, seat, params, options, n_options)
    best = 0
    bv = -1e18
    if decision == DEC_BUILD:
        free_any = s.hands[seat, A_BUILD] if ctx[2] == 1 else 0
        for i in range(n_options):
            x = s.tile_display[options[i] // MAX_DISPLAY, options[i] % MAX_DISPLAY]
            v = tile_worth_nb(tables, s, seat, x, params, free_any)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_CELL:
        x = ctx[0]
        price = end_sheep_price_nb(tables, s, params)
        for i in range(n_options):
            k = options[i]
            v = cell_worth_nb(tables, s, seat, x, k, params, price, s.sheep[seat]) + 0.001 * k
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_DIKE:
        support = ctx[1] == DIKE_SUPPORT
        used = ctx[4]
        work = dike_work_nb(tables, s, seat)
        plus = 0
        if ctx[1] == DIKE_OWN and ctx[2] == 0:
            plus = has_effect_nb(tables, s, seat, EF_DIKE_PLUS)
        for i in range(n_options):
            if options[i] == STOP:
                v = 0.0
            else:
                v = planner_dike_value_nb(tables, s, seat, options[i], params, used,
                                          support and ctx[2] == 0, work)
                v += dike_steps_worth_nb(tables, s, seat, plus, params)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_SHEEP:
        cap = capacity_nb(tables, s, seat)
        price = end_sheep_price_nb(tables, s, params)
        for i in range(n_options):
            v = planner_sheep_value_nb(tables, s, seat, options[i], params, cap, price)
            if v > bv:
                bv = v
                best = i
        return best
    if decision == DEC_TOKEN:
        altv = planner_token_value_nb(tables, s, seat, params, tables.token_alt[ctx[0]])
        return 1 if altv > tables.token_coins[ctx[0]] else 0
    if decision == DEC_FARMHAND:
        return choose_farmhand_nb(options, n_options, int(params[P_FARMHAND_TO]))
    return -1
