"""Lowlands: the rules, as pure compiled functions over the STATE_DTYPE record.

No recursion anywhere: the game's progress lives in an explicit task stack in the state
(`s.task`), so a copied record has the same future, and the farm's enclosures are found
with an explicit stack (flood fill). `t` is the tables record, `s` the state record.
Every choice a player makes is a task that waits for a decision (model.py asks for it);
everything else runs in `advance_nb`.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.rng import init_streams_nb, randint_nb, shuffle_nb
from sim.games.lowlands.enums import (
    ALT_FARMHAND, ALT_FREE_FENCE, ALT_NONE, ALT_PLUS2, ALT_REMOVE_WAVE, AUCTION_TO_MARKET,
    A_BUILD, A_CARDS, A_DIKE, A_FENCE, A_SHEEP, CELL_EDGE, CELL_NB, COLS, CORNERS,
    CORNERS_ONE_MORE, DEC_ASK, DEC_BUILD, DEC_CARDS, DEC_CELL, DEC_DIKE, DEC_DISCARD,
    DEC_FARMHAND, DEC_FENCE, DEC_FENCE_TO, DEC_INCOME, DEC_MARKET_HALL, DEC_PLACE, DEC_SHEEP,
    DEC_TOKEN, DEC_UPKEEP_TRADE, DIKE_OWN, DIKE_SUPPORT, DIKE_TILE, DISPLAY_CARDS, EDGE_CELLS,
    EF_AUCTION, EF_BANK, EF_BETWEEN, EF_BREEDING, EF_BUILD_DIKE, EF_BUSH_COINS, EF_BUSH_SHEEP,
    EF_CAPACITY_COINS, EF_COINS, EF_COIN_PLUS, EF_COMPLETE_SEGMENT, EF_CORNERS, EF_DAIRY,
    EF_DIKE_ACTION, EF_DIKE_ASSOC, EF_DIKE_PLUS, EF_DISCOUNT, EF_ESTATE, EF_FARMHOUSE,
    EF_FEED_ADJ, EF_FENCE_AND_SHEEP, EF_FENCE_BONUS, EF_FODDER_SILO, EF_FREE_FENCES,
    EF_HALF_BREACH, EF_KENNEL, EF_LAKE_CABIN, EF_LAKE_DIKE, EF_LAKE_POINTS, EF_LAKE_SHEEP,
    EF_MARKET_HALL, EF_MOUND, EF_REPEAT_PLUS, EF_SHEARER, EF_SHEEP, EF_SHEEP_FARM,
    EF_TREE_CARDS, EF_TREE_POINTS, EF_WAVES, EV_ASK, EV_BREED, EV_BUILD, EV_CARDS, EV_DIKE,
    EV_DISCARD, EV_END, EV_ESCAPE, EV_FARMHAND, EV_FENCE, EV_FLOOD, EV_HIGH, EV_INCOME,
    EV_MARKET, EV_PLACE, EV_SHEEP, EV_STAGE, EV_TOKEN, EV_TRADE, EV_UPKEEP, FENCE_FREE,
    FENCE_OWN, FENCE_TILE, INC_CARD, INC_CARD_AND_COIN, INC_CARD_OR_COIN, INC_COIN,
    INC_FARMHAND, K_FACILITY, K_STORM, MAX_DISPLAY, MAX_OPTIONS, MAX_PLAYERS, MAX_TASKS,
    N_ACTIONS, N_CELLS, N_EDGES, N_FARMERS, N_HEDGES, N_KINDS, N_RES, N_STAGES, N_STEPS,
    PASS_PLACE, PTS_BONUS, PTS_CARDS, PTS_COINS, PTS_DIKE, PTS_SHEEP, PTS_SHIELDS, ROWS,
    STEP_HIGH, STEP_TIDE, STEP_UP1, STEP_UP2, STEP_WORK1, STEP_WORK2, STOP, SUPPORT_NONE,
    TERRAIN_BUSH, TERRAIN_HIDDEN, TERRAIN_LAKE, TERRAIN_TREE, TRADE_MAX, T_AFTER, T_ASK,
    T_BUILD, T_CARDS, T_CELL, T_DECK_CARDS, T_DIKE, T_DISCARD, T_ESCAPE, T_FARMHAND, T_FENCE,
    T_FENCE_TO, T_FLOOD, T_INCOME, T_MARKET_HALL, T_PLACE, T_SHEEP, T_SHEEP_GAIN, T_TOKEN,
    T_UPKEEP, T_UPKEEP_TRADE,
)

CHANCE = 0


def new_state():
    """A 1-element STATE_DTYPE record array (kernels take element 0)."""
    from sim.games.lowlands.enums import new_state as _new
    return _new()


# ---------------------------------------------------------------------------------------
# the task stack
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def push_nb(s, kind, seat, a, b, c, d, e, f):
    n = s.n_tasks
    if n >= MAX_TASKS:  # cannot happen in a legal game; check_state_nb reports it
        s.n_tasks = MAX_TASKS + 1
        return
    s.task[n, 0] = kind
    s.task[n, 1] = seat
    s.task[n, 2] = a
    s.task[n, 3] = b
    s.task[n, 4] = c
    s.task[n, 5] = d
    s.task[n, 6] = e
    s.task[n, 7] = f
    s.n_tasks = n + 1


@njit(cache=True, error_model="numpy")
def pop_nb(s):
    s.n_tasks -= 1


# ---------------------------------------------------------------------------------------
# farm: tiles, enclosures (explicit-stack flood fill), capacity
# ---------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------
# resources: deck, display, paying with the 2-for-1 exchange
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def draw_card_nb(s):
    """The top card of the resource deck (reshuffling the discards when it is empty); -1 when
    no card is left anywhere outside hands and the display."""
    if s.deck_n == 0:
        n = 0
        for r in range(N_RES):
            for _ in range(s.discard[r]):
                s.res_deck[n] = r
                n += 1
            s.discard[r] = 0
        shuffle_nb(s.streams, CHANCE, s.res_deck, n)
        s.deck_n = n
        if n == 0:
            return -1
    s.deck_n -= 1
    return s.res_deck[s.deck_n]


@njit(cache=True, error_model="numpy")
def refill_display_nb(s):
    for i in range(DISPLAY_CARDS):
        if s.display[i] < 0:
            s.display[i] = draw_card_nb(s)


@njit(cache=True, error_model="numpy")
def cards_available_nb(s):
    """Cards that could be drawn (deck + discards) -- the display is counted apart."""
    return s.deck_n + s.discard[0] + s.discard[1] + s.discard[2]


@njit(cache=True, error_model="numpy")
def hand_total_nb(s, p):
    return s.hand[p, 0] + s.hand[p, 1] + s.hand[p, 2]


@njit(cache=True, error_model="numpy")
def discounts_nb(t, s, p, out):
    """out[r] = resources of type r spared by the player's discount tiles (Carpenter,
    Brickmaker, Stonemason: one fewer each time a tile is built or the dike is built)."""
    out[0] = 0
    out[1] = 0
    out[2] = 0
    m = s.owned[p]
    for x in range(t.n_tiles):
        if (m >> x) == 0:
            break
        if (m >> x) & 1 and t.tile_effect[x] == EF_DISCOUNT:
            out[t.tile_param[x]] += 1


@njit(cache=True, error_model="numpy")
def pay_plan_nb(t, s, p, need, free_any, out):
    """Can seat p pay `need` (by type), `free_any` resources of its choice spared (farmhands on
    Build)? Missing cards come from the 2-for-1 exchange. out[r] = cards of type r given up.
    The player's choices here are automatic: the spared resources go to the type most short,
    and an exchange gives up pairs of the type held most in surplus (this never makes a
    payable cost unpayable and keeps the most cards)."""
    if free_any == 0:
        # the common case, without scratch arrays: the hand covers the cost, no exchange
        covered = True
        for r in range(N_RES):
            if need[r] > s.hand[p, r]:
                covered = False
        if covered:
            for r in range(N_RES):
                out[r] = need[r] if need[r] > 0 else 0
            return True
    rate = t.exchange_rate
    nd = np.empty(N_RES, np.int64)
    for r in range(N_RES):
        nd[r] = need[r] if need[r] > 0 else 0
    for _ in range(free_any):
        best = -1
        bv = -1000
        for r in range(N_RES):
            if nd[r] > 0:
                v = nd[r] - s.hand[p, r]
                if v > bv:
                    bv = v
                    best = r
        if best < 0:
            break
        nd[best] -= 1
    short = 0
    surplus = np.empty(N_RES, np.int64)
    for r in range(N_RES):
        out[r] = 0
        if nd[r] > s.hand[p, r]:
            short += nd[r] - s.hand[p, r]
            out[r] = s.hand[p, r]
            surplus[r] = 0
        else:
            out[r] = nd[r]
            surplus[r] = s.hand[p, r] - nd[r]
    while short > 0:
        best = -1
        for r in range(N_RES):
            if surplus[r] >= rate and (best < 0 or surplus[r] > surplus[best]):
                best = r
        if best < 0:
            return False
        surplus[best] -= rate
        out[best] += rate
        short -= 1
    return True


@njit(cache=True, error_model="numpy")
def pay_nb(s, p, out):
    for r in range(N_RES):
        s.hand[p, r] -= out[r]
        s.discard[r] += out[r]


# ---------------------------------------------------------------------------------------
# dike, waves, tokens
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def dike_points_nb(t, s, p):
    return s.dike_lap[p] * t.wrap_points + s.dike_pos[p] // 2


@njit(cache=True, error_model="numpy")
def dike_progress_nb(t, s, p):
    """Distance along the track (laps counted): orders the markers."""
    return s.dike_lap[p] * t.track_length + s.dike_pos[p]


@njit(cache=True, error_model="numpy")
def ahead_nb(t, s, p, q):
    """Is p's marker ahead of q's: further along, or on the same space and on top."""
    a = dike_progress_nb(t, s, p)
    b = dike_progress_nb(t, s, q)
    if a != b:
        return a > b
    return s.order_stamp[p] > s.order_stamp[q]


@njit(cache=True, error_model="numpy")
def move_marker_nb(t, s, p, steps, tokens, trace, tn):
    """Advance p's dike marker `steps` spaces; past the last space it continues on the wrap
    space (a lap: +wrap_points dike points). With `tokens`, every progress token landed on OR
    passed gives its bonus (a choice -> a T_TOKEN task, resolved right after)."""
    L = t.track_length
    for _ in range(steps):
        s.dike_pos[p] += 1
        if s.dike_pos[p] >= L:
            s.dike_pos[p] = t.wrap_to
            s.dike_lap[p] += 1
        if tokens:
            for i in range(t.n_tokens):
                if t.token_space[i] == s.dike_pos[p]:
                    s.progress_tokens[p] += 1
                    k = s.token_order[i]
                    if t.token_alt[k] == ALT_NONE:
                        s.coins[p] += t.token_coins[k]
                        trace_nb(trace, tn, EV_TOKEN, p, k, 0, t.token_coins[k], 0)
                    else:
                        push_nb(s, T_TOKEN, p, k, 0, 0, 0, 0, 0)
    if steps > 0:
        s.stamp += 1
        s.order_stamp[p] = s.stamp   # lands on top of the markers already there


@njit(cache=True, error_model="numpy")
def dike_height_nb(t, s):
    """(layer, length in that layer) of the dike: the top layer holding a segment."""
    k = s.segments
    if k == 0:
        return 0, 0
    layer = t.segment_layer[k - 1]
    length = 0
    for i in range(k):
        if t.segment_layer[i] == layer:
            length += t.segment_length[i]
    return layer, length


@njit(cache=True, error_model="numpy")
def wave_height_nb(t, s):
    w = s.waves
    if w <= 0:
        return 0, 0
    layer = (w + t.layer_width - 1) // t.layer_width
    return layer, w - (layer - 1) * t.layer_width


@njit(cache=True, error_model="numpy")
def dike_holds_nb(t, s):
    """High tide: a higher dike holds, a higher sea breaks it; at the same layer the top
    layers' lengths compare, and a dike as long as the waves holds (wave <= dike)."""
    dl, dlen = dike_height_nb(t, s)
    wl, wlen = wave_height_nb(t, s)
    if dl != wl:
        return dl > wl
    return dlen >= wlen


@njit(cache=True, error_model="numpy")
def remove_waves_nb(t, s, n):
    w = s.waves - n
    s.waves = w if w > 0 else 0


@njit(cache=True, error_model="numpy")
def complete_segment_nb(t, s):
    if s.segments < t.n_segments:
        s.segments += 1


# ---------------------------------------------------------------------------------------
# income board
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def uncover_nb(t, s, p, icon):
    """An icon uncovered on the income board: income icons count at upkeep (read from the
    board there); a farmhand icon lets the player place or move a farmhand at once."""
    if icon == INC_FARMHAND:
        push_nb(s, T_FARMHAND, p, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def take_fence_nb(t, s, p):
    """Take the leftmost fence off the income board (uncovering its slot)."""
    slot = t.n_fence_income - s.fence_supply[p]
    s.fence_supply[p] -= 1
    uncover_nb(t, s, p, t.fence_income[slot])


@njit(cache=True, error_model="numpy")
def income_icons_nb(t, s, p, out):
    """out = (cards, coins, card-or-coin choices) of p's uncovered income icons, base card
    included."""
    out[0] = 1
    out[1] = 0
    out[2] = 0
    nf = t.n_fence_income - s.fence_supply[p]
    for i in range(nf):
        _add_icon(t.fence_income[i], out)
    for i in range(s.n_buildings[p]):
        _add_icon(t.building_income[i], out)


@njit(cache=True, error_model="numpy")
def _add_icon(icon, out):
    if icon == INC_CARD:
        out[0] += 1
    elif icon == INC_COIN:
        out[1] += 1
    elif icon == INC_CARD_OR_COIN:
        out[2] += 1
    elif icon == INC_CARD_AND_COIN:
        out[0] += 1
        out[1] += 1


# ---------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def market_reset_nb(t, s):
    np_ = s.n_players
    for r in range(s.market_avail.shape[0]):
        if r < t.n_market_rows[np_]:
            s.market_avail[r] = t.market_buy[np_, r]
            s.market_free[r] = t.market_sell[np_, r]
        else:
            s.market_avail[r] = 0
            s.market_free[r] = 0


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
def clear_game_nb(s):
    """Every scalar of the game (STATE_DTYPE's first fields) back to 0."""
    s.n_players = 0
    s.over = 0
    s.stage = 0
    s.step = 0
    s.placed = 0
    s.start_player = 0
    s.waves = 0
    s.segments = 0
    s.site_res = 0
    s.site_pos = 0
    s.price = 0
    s.flood_n = 0
    s.sea_n = 0
    s.sea_shown = 0
    s.deck_n = 0
    s.stamp = 0
    s.n_tasks = 0
    s.dec = 0
    s.seat = 0
    s.decisions = 0
    s.floods_broke = 0
    s.final_breach = 0
    s.ask_from = 0
    s.stages_broke = 0
    s.step_started = 0
    s.first_start = 0
    s.picked_edge = 0


@njit(cache=True, error_model="numpy")
def clear_seat_counters_nb(s):
    """Every per-seat counter (the log's statistics columns) back to 0."""
    s.support_asked[:] = 0
    s.support_given[:] = 0
    s.dike_resources[:] = 0
    s.sheep_bought[:] = 0
    s.sheep_sold[:] = 0
    s.sheep_escaped[:] = 0
    s.sheep_bred[:] = 0
    s.fences_built[:] = 0
    s.bonus_points[:] = 0
    s.penalty_sheep[:] = 0
    s.penalty_coins[:] = 0
    s.penalty_points[:] = 0
    s.breach_tokens[:] = 0
    s.progress_tokens[:] = 0
    s.tile_sheep_sold[:] = 0
    s.tile_sheep_bought[:] = 0
    s.actions_taken[:, :] = 0


@njit(cache=True, error_model="numpy")
def setup_state_nb(t, s, n_players, game_seed):
    """Everything of the set-up (rules text, set-up 1-12 and the personal set-up)."""
    clear_game_nb(s)
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.dec = -1
    s.seat = -1
    s.ask_from = -1
    s.picked_edge = -1
    s.site_res = -1
    s.price = t.price_start
    s.task[:, :] = 0
    clear_seat_counters_nb(s)
    s.pts[:, :] = 0
    s.score[:] = 0
    # flood cards (first game: the 6 goes back to the box)
    n = 0
    for i in range(t.n_flood):
        if t.first_game == 1 and t.flood_value[i] == 6:
            continue
        s.flood_deck[n] = i
        n += 1
    shuffle_nb(s.streams, CHANCE, s.flood_deck, n)
    s.flood_n = n
    s.sea[:] = -1
    # dike markers stacked on the first 0 space in random order: the top one starts
    perm = np.arange(MAX_PLAYERS)
    shuffle_nb(s.streams, CHANCE, perm, n_players)
    for i in range(n_players):
        s.order_stamp[perm[i]] = i + 1
    s.stamp = n_players
    s.start_player = perm[n_players - 1]
    s.first_start = s.start_player
    # progress tokens on the large spaces
    for i in range(t.n_tokens):
        s.token_order[i] = i
    if t.shuffle_progress_tokens == 1:
        shuffle_nb(s.streams, CHANCE, s.token_order, t.n_tokens)
    s.price = t.price_start
    # resource cards
    n = 0
    for r in range(N_RES):
        for _ in range(t.n_res_cards[r]):
            s.res_deck[n] = r
            n += 1
    shuffle_nb(s.streams, CHANCE, s.res_deck, n)
    s.deck_n = n
    s.discard[:] = 0
    s.display[:] = -1
    refill_display_nb(s)
    # farm expansion tiles: 4 piles by kind, 3 face up each, players + 1 storm buildings
    s.tile_deck_n[:] = 0
    s.tile_display[:, :] = -1
    for x in range(t.n_tiles):
        k = t.tile_kind[x]
        s.tile_deck[k, s.tile_deck_n[k]] = x
        s.tile_deck_n[k] += 1
    for k in range(N_KINDS):
        shuffle_nb(s.streams, CHANCE, s.tile_deck[k], s.tile_deck_n[k])
        if k == K_STORM:
            ns = n_players + t.storm_display_extra
            for i in range(ns):
                if s.tile_deck_n[k] > 0 and i < MAX_DISPLAY:
                    s.tile_deck_n[k] -= 1
                    s.tile_display[k, i] = s.tile_deck[k, s.tile_deck_n[k]]
            s.tile_deck_n[k] = 0      # the rest go back to the box
        else:
            refill_tiles_nb(t, s, k)
    # farms, dealt at random
    lay = np.arange(t.n_layouts)
    shuffle_nb(s.streams, CHANCE, lay, t.n_layouts)
    market_reset_nb(t, s)
    for p in range(MAX_PLAYERS):
        s.tile_at[p, :] = -1
        s.fence[p, :] = 0
        s.farmer_on[p, :] = -1
        s.uses[p, :] = 0
        s.hands[p, :] = 0
        s.hand[p, :] = 0
        s.owned[p] = 0
        s.coins[p] = 0
        s.sheep[p] = 0
        s.sheep_tile[p] = 0
        s.dike_pos[p] = 0
        s.dike_lap[p] = 0
        s.breach[p] = 0
        s.plus2[p] = 0
        s.n_buildings[p] = 0
        s.storm_built[p] = 0
        s.fence_supply[p] = 0
        s.hands_supply[p] = 0
        s.coin_plus_used[p] = 0
        s.layout[p] = 0
        if p >= n_players:
            s.order_stamp[p] = 0
            continue
        s.layout[p] = lay[p % t.n_layouts]
        for e in range(N_EDGES):
            s.fence[p, e] = t.start_fences[e]
        s.fence_supply[p] = t.n_fence_income
        s.hands_supply[p] = t.farmhands
        s.coins[p] = t.start_coins + (0 if p == s.start_player else t.non_start_bonus)
        s.sheep[p] = t.start_sheep
    for p in range(n_players):
        for _ in range(t.start_cards):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
    s.stage = 0
    s.step = STEP_TIDE
    s.step_started = 0
    s.n_tasks = 0


# ---------------------------------------------------------------------------------------
# option lists (also used to test whether an action can be taken at all)
# ---------------------------------------------------------------------------------------
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
def sheep_price_nb(t, s):
    return t.price_sheep[s.price]


@njit(cache=True, error_model="numpy")
def sheep_options_nb(t, s, p, value, options):
    """Buy from one market row (its sheep, room on the farm, coins) or sell to one row (its
    empty places): up to the action value. code = mode*100 + row*10 + count."""
    n = 0
    np_ = s.n_players
    hand = s.hands[p, A_SHEEP]
    price = sheep_price_nb(t, s)
    buy = price - hand
    if buy < 0:
        buy = 0
    room = capacity_nb(t, s, p) - s.sheep[p]
    for r in range(t.n_market_rows[np_]):
        kmax = value
        if s.market_avail[r] < kmax:
            kmax = s.market_avail[r]
        if room < kmax:
            kmax = room
        for k in range(1, kmax + 1):
            if k * buy > s.coins[p]:
                break
            options[n] = r * 10 + k
            n += 1
    for r in range(t.n_market_rows[np_]):
        kmax = value
        if s.market_free[r] < kmax:
            kmax = s.market_free[r]
        if s.sheep[p] < kmax:
            kmax = s.sheep[p]
        for k in range(1, kmax + 1):
            options[n] = 100 + r * 10 + k
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def cards_options_nb(s, want, options):
    """Take `want` cards: the face-up ones chosen (code = bitmask of display places), the rest
    from the deck; face-up first (rules text). Fewer only when the cards run out."""
    avail = cards_available_nb(s)
    nd = 0
    for i in range(DISPLAY_CARDS):
        if s.display[i] >= 0:
            nd += 1
    if want > avail + nd:
        want = avail + nd
    n = 0
    for m in range(1 << DISPLAY_CARDS):
        ok = True
        pc = 0
        for i in range(DISPLAY_CARDS):
            if (m >> i) & 1:
                if s.display[i] < 0:
                    ok = False
                pc += 1
        if not ok or pc > want or want - pc > avail:
            continue
        options[n] = m
        n += 1
    return n


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


# ---------------------------------------------------------------------------------------
# options of the task on top of the stack
# ---------------------------------------------------------------------------------------
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
def is_decision_task_nb(kind):
    return not (kind == T_AFTER or kind == T_ESCAPE or kind == T_SHEEP_GAIN or kind == T_FLOOD
                or kind == T_UPKEEP or kind == T_DECK_CARDS)


# ---------------------------------------------------------------------------------------
# applying a decision
# ---------------------------------------------------------------------------------------
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


@njit(cache=True, error_model="numpy")
def start_dike_nb(t, s, p, value, mode):
    push_nb(s, T_DIKE, p, value, mode, 0, 0, 0, -1)


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


@njit(cache=True, error_model="numpy")
def apply_sheep_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    value = s.task[i, 2]
    pop_nb(s)
    mode = option // 100
    r = (option % 100) // 10
    k = option % 10
    price = sheep_price_nb(t, s)
    hand = s.hands[p, A_SHEEP]
    if mode == 0:
        each = price - hand
        if each < 0:
            each = 0
        s.coins[p] -= k * each
        s.sheep[p] += k
        s.market_avail[r] -= k     # the bought sheep leave empty places to sell into
        s.market_free[r] += k
        s.sheep_bought[p] += k
    else:
        each = price + hand + shearer_bonus_nb(t, s, p)
        s.coins[p] += k * each
        s.sheep[p] -= k
        s.market_free[r] -= k      # the sold sheep stand in the row, for sale
        s.market_avail[r] += k
        s.sheep_sold[p] += k
    trace_nb(trace, tn, EV_SHEEP, p, mode, r, k, each)
    if mode == 0:
        trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] + k, s.market_free[r] - k,
                 s.market_avail[r], s.market_free[r])
    else:
        trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] - k, s.market_free[r] + k,
                 s.market_avail[r], s.market_free[r])
    if value - k > 0:
        push_nb(s, T_CARDS, p, value - k, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_cards_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    want = s.task[i, 2]
    pop_nb(s)
    nd = 0
    for j in range(DISPLAY_CARDS):
        if s.display[j] >= 0:
            nd += 1
    avail = cards_available_nb(s)
    if want > avail + nd:
        want = avail + nd
    pc = 0
    for j in range(DISPLAY_CARDS):
        if (option >> j) & 1:
            s.hand[p, s.display[j]] += 1
            s.display[j] = -1
            pc += 1
    for _ in range(want - pc):
        c = draw_card_nb(s)
        if c >= 0:
            s.hand[p, c] += 1
    refill_display_nb(s)
    trace_nb(trace, tn, EV_CARDS, p, option, want - pc, 0, 0)


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
        value = s.task[i, 2]
        own = s.task[i, 4]
        free = s.hands[p, A_BUILD] if own == 1 else 0
        pop_nb(s)
        k = option // MAX_DISPLAY
        x = s.tile_display[k, option % MAX_DISPLAY]
        push_nb(s, T_CELL, p, x, value - t.tile_value[x], own, free, 0, 0)
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
        paid = s.task[i, 2]
        pop_nb(s)
        s.support_asked[option] += 1
        trace_nb(trace, tn, EV_ASK, p, option, paid, 0, 0)
        # the supporter pays as many resources as the builder paid, at most; no farmhands
        push_nb(s, T_DIKE, option, paid, DIKE_SUPPORT, 0, 0, 0, p)
    elif kind == T_TOKEN:
        k = s.task[i, 2]
        pop_nb(s)
        trace_nb(trace, tn, EV_TOKEN, p, k, option, t.token_coins[k] if option == 0 else 0, 0)
        if option == 0:
            s.coins[p] += t.token_coins[k]
        else:
            alt = t.token_alt[k]
            if alt == ALT_REMOVE_WAVE:
                remove_waves_nb(t, s, 1)
            elif alt == ALT_FARMHAND:
                push_nb(s, T_FARMHAND, p, 0, 0, 0, 0, 0, 0)
            elif alt == ALT_FREE_FENCE:
                push_nb(s, T_FENCE, p, 1, FENCE_FREE, -1, 0, 0, 0)
            elif alt == ALT_PLUS2:
                s.plus2[p] += 1
    elif kind == T_FARMHAND:
        pop_nb(s)
        if option != STOP:
            fr = option // 8
            to = option % 8
            if fr == N_ACTIONS:
                s.hands_supply[p] -= 1
            else:
                s.hands[p, fr] -= 1
            s.hands[p, to] += 1
            trace_nb(trace, tn, EV_FARMHAND, p, fr, to, 0, 0)
    elif kind == T_INCOME:
        pop_nb(s)
        c = -1
        if option == 0:
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
        else:
            s.coins[p] += 1
        trace_nb(trace, tn, EV_INCOME, p, option, c, 0, 0)
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


# ---------------------------------------------------------------------------------------
# automatic steps: floods, upkeep, high tide, storm surge
# ---------------------------------------------------------------------------------------
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
def upkeep_nb(t, s, last, trace, tn):
    """Upkeep: breeding (1 lamb per 2 sheep, as housed), income (start player first; a
    card-or-coin icon is a choice), farmers home, market reset, start player by dike position
    (skipped in the last upkeep), then the next flood card."""
    np_ = s.n_players
    inc = np.empty(3, np.int64)
    push_nb(s, T_FLOOD, 0, 0, 0, 0, 0, 0, 0)       # revealed after the rest
    for j in range(np_):
        p = (s.start_player + j) % np_
        lambs = s.sheep[p] // t.breed_per
        got = gain_sheep_nb(t, s, p, lambs)
        s.sheep_bred[p] += got
        trace_nb(trace, tn, EV_BREED, p, got, s.sheep[p], 0, 0)
    for j in range(np_ - 1, -1, -1):                # pushed in reverse: the start player first
        p = (s.start_player + j) % np_
        income_icons_nb(t, s, p, inc)
        for _ in range(inc[2]):
            push_nb(s, T_INCOME, p, 0, 0, 0, 0, 0, 0)
    for j in range(np_):
        p = (s.start_player + j) % np_
        income_icons_nb(t, s, p, inc)
        for _ in range(inc[0]):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
        s.coins[p] += inc[1]
        trace_nb(trace, tn, EV_UPKEEP, p, 0, inc[0], inc[1], 0)
    if not last:
        for p in range(np_):
            s.farmer_on[p, :] = -1
            s.uses[p, :] = 0
            s.coin_plus_used[p] = 0
        market_reset_nb(t, s)
        best = 0
        for p in range(1, np_):
            if ahead_nb(t, s, p, best):
                best = p
        s.start_player = best


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


@njit(cache=True, error_model="numpy")
def storm_surge_nb(t, s, trace, tn):
    """The storm surge: '!' effects, the final dike check with its penalties (sheep, then the
    sheep price in coins per token, then 1 point per coin missing), final scoring."""
    np_ = s.n_players
    bonus = np.zeros(MAX_PLAYERS, np.int64)
    for p in range(np_):
        s.breach_tokens[p] = s.breach[p]     # before the '!' effects (Dwelling Mound)
    for p in range(np_):
        inmask = in_pasture_mask_nb(t, s, p)
        lay = s.layout[p]
        for x in range(t.n_tiles):
            if not (s.owned[p] >> x) & 1:
                continue
            ef = t.tile_effect[x]
            prm = t.tile_param[x]
            if ef == EF_BANK:
                bonus[p] += s.coins[p] // prm if prm > 0 else 0
            elif ef == EF_FARMHOUSE:
                nf = 0
                for k in range(N_CELLS):
                    y = s.tile_at[p, k]
                    if y >= 0 and t.tile_kind[y] == K_FACILITY:
                        nf += 1
                bonus[p] += prm * nf
            elif ef == EF_DIKE_ASSOC:
                move_marker_nb(t, s, p, 2 * (dike_points_nb(t, s, p) // prm), False, trace, tn)
            elif ef == EF_MOUND:
                if s.breach[p] <= prm:
                    s.breach[p] = 0
            elif ef == EF_ESTATE:
                bonus[p] += prm * n_pastures_nb(t, s, p)
            elif ef == EF_BREEDING:
                s.sheep_tile[p] += (s.sheep[p] + s.sheep_tile[p]) // prm if prm > 0 else 0
            elif ef == EF_LAKE_POINTS:
                nl = terrain_outside_nb(t, s, p, TERRAIN_LAKE, inmask)
                bonus[p] += 10 if nl >= 4 else (7 if nl >= 3 else 0)
            elif ef == EF_TREE_POINTS:
                ntr = terrain_outside_nb(t, s, p, TERRAIN_TREE, inmask)
                bonus[p] += 15 if ntr >= 5 else (10 if ntr >= 4 else (5 if ntr >= 3 else 0))
            elif ef == EF_LAKE_CABIN:
                for k in range(N_CELLS):
                    if s.tile_at[p, k] == x:
                        for d in range(4):
                            nb = CELL_NB[k, d]
                            if nb >= 0 and s.tile_at[p, nb] < 0 and not (inmask >> nb) & 1:
                                bonus[p] += prm
        s.bonus_points[p] = bonus[p]
    holds = dike_holds_nb(t, s)
    s.final_breach = 0 if holds else 1
    price = sheep_price_nb(t, s)
    penalty = np.zeros(MAX_PLAYERS, np.int64)
    for p in range(np_):
        if holds:
            s.breach[p] = 0
            continue
        k = s.breach[p]
        lose = k if k < s.sheep[p] else s.sheep[p]
        s.sheep[p] -= lose
        k -= lose
        lose2 = k if k < s.sheep_tile[p] else s.sheep_tile[p]
        s.sheep_tile[p] -= lose2
        k -= lose2
        s.penalty_sheep[p] = lose + lose2
        owe = k * price
        pay = owe if owe < s.coins[p] else s.coins[p]
        s.coins[p] -= pay
        s.penalty_coins[p] = pay
        penalty[p] = owe - pay
        s.penalty_points[p] = penalty[p]
    for p in range(np_):
        s.pts[p, PTS_DIKE] = dike_points_nb(t, s, p) * t.price_dike[s.price]
        s.pts[p, PTS_SHEEP] = (s.sheep[p] + s.sheep_tile[p]) * price
        sh = 0
        for x in range(t.n_tiles):
            if (s.owned[p] >> x) & 1:
                sh += t.tile_shields[x]
        s.pts[p, PTS_SHIELDS] = sh
        s.pts[p, PTS_COINS] = s.coins[p] - penalty[p]
        s.pts[p, PTS_CARDS] = hand_total_nb(s, p) // t.cards_per_point
        s.pts[p, PTS_BONUS] = bonus[p]
        tot = 0
        for c in range(s.pts.shape[1]):
            tot += s.pts[p, c]
        s.score[p] = tot
    trace_nb(trace, tn, EV_END, 1 - (1 if holds else 0), 0, 0, 0, 0)
    s.over = 1


@njit(cache=True, error_model="numpy")
def start_step_nb(t, s, trace, tn):
    """The automatic beginning of the current step (may push tasks)."""
    step = s.step
    np_ = s.n_players
    trace_nb(trace, tn, EV_STAGE, s.stage, step, 0, 0, 0)
    if step == STEP_TIDE:
        push_nb(s, T_FLOOD, 0, 1, 0, 0, 0, 0, 0)    # after the hand limit
        for j in range(np_ - 1, -1, -1):
            p = (s.start_player + j) % np_
            extra = hand_total_nb(s, p) - t.hand_limit
            for _ in range(extra):
                push_nb(s, T_DISCARD, p, 0, 0, 0, 0, 0, 0)
    elif step == STEP_WORK1 or step == STEP_WORK2:
        s.placed = 0
    elif step == STEP_UP1 or step == STEP_UP2:
        last = step == STEP_UP2 and s.stage == N_STAGES - 1
        if not push_upkeep_trades_nb(t, s, last):   # no Auction House / Fodder Silo: at once
            upkeep_nb(t, s, last, trace, tn)
    elif step == STEP_HIGH:
        high_tide_nb(t, s, trace, tn)


@njit(cache=True, error_model="numpy")
def run_auto_task_nb(t, s, trace, tn):
    i = s.n_tasks - 1
    kind = s.task[i, 0]
    p = s.task[i, 1]
    a = s.task[i, 2]
    pop_nb(s)
    if kind == T_ESCAPE:
        escape_nb(t, s, p, trace, tn)
    elif kind == T_SHEEP_GAIN:
        gain_sheep_nb(t, s, p, a)
    elif kind == T_FLOOD:
        if a == 1:
            lay_sea_nb(s)
        reveal_flood_nb(t, s, trace, tn)
    elif kind == T_UPKEEP:
        upkeep_nb(t, s, a == 1, trace, tn)
    elif kind == T_DECK_CARDS:
        got = 0
        for _ in range(a):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
                got += 1
        trace_nb(trace, tn, EV_CARDS, p, 0, got, 0, 0)


@njit(cache=True, error_model="numpy")
def advance_nb(t, s, trace, tn):
    """Run everything automatic up to the next decision with 2+ options (forced moves are
    applied on the spot) or the end. Sets s.dec and s.seat."""
    options = np.empty(MAX_OPTIONS, np.int64)
    np_ = s.n_players
    while True:
        if s.over == 1:
            s.dec = -1
            s.seat = -1
            return
        if s.n_tasks > MAX_TASKS:
            s.over = 1
            continue
        if s.n_tasks > 0:
            i = s.n_tasks - 1
            kind = s.task[i, 0]
            if not is_decision_task_nb(kind):
                run_auto_task_nb(t, s, trace, tn)
                continue
            if kind == T_PLACE:     # 2 placements found: the player decides (legal_nb lists all)
                n = place_options_upto_nb(t, s, s.task[i, 1], options, 2)
            else:
                n = task_options_nb(t, s, options)
            if n == 0:
                skip_task_nb(t, s, trace, tn)
                continue
            if n == 1:
                apply_task_nb(t, s, options[0], trace, tn)
                continue
            s.dec = kind_to_dec_nb(kind)
            s.seat = s.task[i, 1]
            return
        if s.stage >= N_STAGES:
            storm_surge_nb(t, s, trace, tn)
            continue
        if s.step_started == 0:
            s.step_started = 1
            start_step_nb(t, s, trace, tn)
            continue
        step = s.step
        if (step == STEP_WORK1 or step == STEP_WORK2) and s.placed < N_FARMERS * np_:
            p = (s.start_player + s.placed) % np_
            push_nb(s, T_PLACE, p, 0, 0, 0, 0, 0, 0)
            continue
        s.step += 1
        s.step_started = 0
        if s.step >= N_STEPS:
            s.step = 0
            s.stage += 1


@njit(cache=True, error_model="numpy")
def kind_to_dec_nb(kind):
    """Task kind -> the decision code strategies read (DEC_*)."""
    if kind == T_PLACE:
        return DEC_PLACE
    if kind == T_BUILD:
        return DEC_BUILD
    if kind == T_CELL:
        return DEC_CELL
    if kind == T_DIKE:
        return DEC_DIKE
    if kind == T_FENCE:
        return DEC_FENCE
    if kind == T_FENCE_TO:
        return DEC_FENCE_TO
    if kind == T_SHEEP:
        return DEC_SHEEP
    if kind == T_CARDS:
        return DEC_CARDS
    if kind == T_ASK:
        return DEC_ASK
    if kind == T_TOKEN:
        return DEC_TOKEN
    if kind == T_FARMHAND:
        return DEC_FARMHAND
    if kind == T_INCOME:
        return DEC_INCOME
    if kind == T_UPKEEP_TRADE:
        return DEC_UPKEEP_TRADE
    if kind == T_MARKET_HALL:
        return DEC_MARKET_HALL
    return DEC_DISCARD


# ---------------------------------------------------------------------------------------
# the Dog Kennel's pasture and the sheep-trading tiles (Auction House, Market Hall, Fodder
# Silo); the hooks are in in_pasture_mask_walls_nb / n_pastures_nb, tile_effect_nb, start_step_nb
# and the task dispatchers
# ---------------------------------------------------------------------------------------
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
            m = 0
            places = 0
            cells = 0
            for q in range(disc[u], time):
                c = order[q]
                m |= 1 << c
                cells += 1
                x = s.tile_at[p, c]
                places += 1 if x < 0 else t.tile_cap_in[x] - t.tile_cap_out[x]
            if places > best_places or (places == best_places and (
                    cells > best_cells or (cells == best_cells and m < best))):
                best = m
                best_places = places
                best_cells = cells
    return best


@njit(cache=True, error_model="numpy")
def shearer_bonus_nb(t, s, p):
    """Coins the Shearer(s) add per sheep sold to the market (its param)."""
    b = 0
    m = s.owned[p] & t.effect_tiles[EF_SHEARER]
    if m == 0:
        return 0
    for x in range(t.n_tiles):
        if (m >> x) & 1:
            b += t.tile_param[x]
    return b


@njit(cache=True, error_model="numpy")
def trade_slots_nb(t, s, p, effect, out):
    """One entry per sheep p's tiles with `effect` may trade at an upkeep, best first: the
    Auction House's coins above the price (param, descending), the Fodder Silo's price
    (buy_price, ascending). Returns how many (at most TRADE_MAX)."""
    n = 0
    m = s.owned[p] & t.effect_tiles[effect]
    if m == 0:
        return 0
    for x in range(t.n_tiles):
        if not (m >> x) & 1:
            continue
        v = t.tile_param[x] if effect == EF_AUCTION else t.tile_buy[x]
        for _ in range(t.tile_count[x]):
            if n >= TRADE_MAX:
                break
            j = n                          # insertion: auction descending, silo ascending
            while j > 0 and ((effect == EF_AUCTION and out[j - 1] < v) or
                             (effect != EF_AUCTION and out[j - 1] > v)):
                out[j] = out[j - 1]
                j -= 1
            out[j] = v
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def market_free_total_nb(t, s):
    c = 0
    for r in range(t.n_market_rows[s.n_players]):
        c += s.market_free[r]
    return c


@njit(cache=True, error_model="numpy")
def upkeep_trade_coins_nb(t, s, p, sold, bought, aslots, fslots):
    """Coins received for `sold` sheep at the Auction House(s) (the sheep price + its bonus +
    the Shearer's; no farmhand: rules text) and paid for `bought` at the Fodder Silo(s)."""
    gain = 0
    if sold > 0:
        each = sheep_price_nb(t, s) + shearer_bonus_nb(t, s, p)
        for j in range(sold):
            gain += each + aslots[j]
    cost = 0
    for j in range(bought):
        cost += fslots[j]
    return gain, cost


@njit(cache=True, error_model="numpy")
def upkeep_trade_options_nb(t, s, p, options):
    """Before breeding: sell up to the Auction Houses' sheep and buy up to the Fodder Silos'
    (code = sold * 16 + bought; 0 = neither). A combination is legal when the sales then the
    purchases, or the purchases then the sales, can be made: sheep to sell, room for the
    bought ones (rules text: not if they cannot be housed), coins to pay; with the rule option
    auction_house_sells_to = "market", a free place on a market row per sheep sold."""
    aslots = np.empty(TRADE_MAX, np.int64)
    fslots = np.empty(TRADE_MAX, np.int64)
    na = trade_slots_nb(t, s, p, EF_AUCTION, aslots)
    nf = trade_slots_nb(t, s, p, EF_FODDER_SILO, fslots)
    if t.auction_house_sells_to == AUCTION_TO_MARKET:
        free = market_free_total_nb(t, s)
        if free < na:
            na = free
    sheep = s.sheep[p]
    room = capacity_nb(t, s, p) - sheep
    n = 0
    for ds in range(na + 1):
        for db in range(nf + 1):
            gain, cost = upkeep_trade_coins_nb(t, s, p, ds, db, aslots, fslots)
            sb = ds <= sheep and db <= room + ds and cost <= s.coins[p] + gain
            bs = db <= room and cost <= s.coins[p] and ds <= sheep + db
            if (ds == 0 and db == 0) or sb or bs:
                options[n] = ds * 16 + db
                n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_upkeep_trade_nb(t, s, p, option, trace, tn):
    ds = option // 16
    db = option % 16
    if ds == 0 and db == 0:
        return
    aslots = np.empty(TRADE_MAX, np.int64)
    fslots = np.empty(TRADE_MAX, np.int64)
    trade_slots_nb(t, s, p, EF_AUCTION, aslots)
    trade_slots_nb(t, s, p, EF_FODDER_SILO, fslots)
    gain, cost = upkeep_trade_coins_nb(t, s, p, ds, db, aslots, fslots)
    if t.auction_house_sells_to == AUCTION_TO_MARKET:       # the sold sheep fill market places, row by row
        left = ds
        for r in range(t.n_market_rows[s.n_players]):
            k = s.market_free[r] if s.market_free[r] < left else left
            if k > 0:
                s.market_free[r] -= k
                s.market_avail[r] += k
                trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] - k, s.market_free[r] + k,
                         s.market_avail[r], s.market_free[r])
            left -= k
    s.sheep[p] += db - ds
    s.coins[p] += gain - cost
    s.tile_sheep_sold[p] += ds
    s.tile_sheep_bought[p] += db
    trace_nb(trace, tn, EV_TRADE, p, 0, ds, db, gain - cost)


@njit(cache=True, error_model="numpy")
def push_upkeep_trades_nb(t, s, last):
    """Upkeep, before breeding: the owners of an Auction House or a Fodder Silo decide their
    trades (start player first), then the rest of the upkeep runs (T_UPKEEP). Returns False
    when nobody owns one (the upkeep then runs at once, as before)."""
    np_ = s.n_players
    tiles = t.effect_tiles[EF_AUCTION] | t.effect_tiles[EF_FODDER_SILO]
    anyone = False
    for p in range(np_):
        if s.owned[p] & tiles:
            anyone = True
    if not anyone:
        return False
    push_nb(s, T_UPKEEP, 0, 1 if last else 0, 0, 0, 0, 0, 0)
    for j in range(np_ - 1, -1, -1):                # pushed in reverse: the start player first
        p = (s.start_player + j) % np_
        if s.owned[p] & tiles:
            push_nb(s, T_UPKEEP_TRADE, p, 0, 0, 0, 0, 0, 0)
    return True


@njit(cache=True, error_model="numpy")
def market_hall_options_nb(t, s, p, x, options):
    """Market Hall, when built: buy up to `count` sheep from the supply at buy_price each
    (room and coins permitting) OR sell up to `count` to it at sell_price each; 0 = neither.
    code = sold * 16 + bought."""
    options[0] = 0
    n = 1
    room = capacity_nb(t, s, p) - s.sheep[p]
    for k in range(1, t.tile_count[x] + 1):
        if k <= room and k * t.tile_buy[x] <= s.coins[p]:
            options[n] = k
            n += 1
    for k in range(1, t.tile_count[x] + 1):
        if k <= s.sheep[p]:
            options[n] = k * 16
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_market_hall_nb(t, s, p, x, option, trace, tn):
    """The Market Hall's trade: its own prices only (no Shearer, no farmhand: rules text)."""
    ds = option // 16
    db = option % 16
    if ds == 0 and db == 0:
        return
    net = ds * t.tile_sell[x] - db * t.tile_buy[x]
    s.sheep[p] += db - ds
    s.coins[p] += net
    s.tile_sheep_sold[p] += ds
    s.tile_sheep_bought[p] += db
    trace_nb(trace, tn, EV_TRADE, p, 1, ds, db, net)
