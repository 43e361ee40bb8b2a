"""Sunset Over Water: the rules, as pure compiled functions over `STATE_DTYPE` record.

Each function here is one rule (or one piece of bookkeeping) of the rulebook; the docs page
`docs/games/sunset-over-water.md` maps every rule to its function. No function here calls a
strategy: `model.py` sequences these rules into the forward model (the current decision, its
legal options, applying the chosen one), and the platform's loop asks the strategies.

All tunable numbers come from `tables` (built from the component file); see enums.py.

Speed: the small rules run at every decision (legal options, paths, the hand's bitmasks,
Hall's test of a sale) are `inline="always"`: numba compiles each function apart and a call
between compiled functions is not inlined by LLVM, and those calls were about a sixth of a
4-player greedy game (docs/games/sunset-over-water.md, "Speed"). Scratch arrays live in the
caller's frame (intrinsics.frame_array), not on the heap.
"""
import numpy as np
from numba import njit

from sim.bits import mask_options_nb
from sim.events import trace_nb
from sim.outcomes import ranks_and_win_shares_nb
from sim.rng import CHANCE, init_streams_nb, randint_nb, shuffle_nb
from sim.games.sunset.intrinsics import bit_count, frame_array
from sim.games.sunset.enums import (
    ANY_FEATURE, CENTER, DIR_E, DIR_N, DIR_S, DIR_W, EMPTY, END_COMMISSIONS, END_DAYS,
    EV_DISCARD_COMM, EV_END, EV_GOAL, EV_GOAL_KEPT, EV_INSPIRATION, EV_NEW_GOAL, EV_PAINT,
    EV_REFILL, EV_RESHUFFLE, EV_ROW, EV_SELL_CARD, EV_SETUP_CELL, EV_SETUP_ROW, EV_SETUP_TOP,
    EV_TOP, GOAL_HIKE_AT_LEAST, GOAL_MOVE_DIAGONAL, GOAL_MOVE_HORIZONTAL, GOAL_MOVE_VERTICAL,
    GOAL_NO_HIKE, GOAL_PAINT_AT_LEAST, GOAL_PAINT_FEATURE, GOAL_SELL_AT_LEAST, GRID, MAX_COMM,
    MAX_FRAMES, MAX_GOAL, MAX_HAND, MAX_MOVE, MAX_PLAYERS, MAX_ROW, N_CELLS, N_DIRS, N_FEATURES,
    N_PLAN, PLAN_DRAW, RANGER, SHARED_STAY_MAY_STAY, STATE_DTYPE, STEP_CELL, WAKE_DISCARD_COMMISSIONS,
    WAKE_REFILL_WILDERNESS, WAKE_TIE_SEAT,
)

N_COUNTS = N_FEATURES + 1       # features a landscape shows: 0..N_FEATURES (each at most once)
FRAME_DEPTHS = MAX_FRAMES + 1   # the depths of the sale's search, "no frame filled" included

# Score components, in the order score_nb writes them (the log columns pts_*).
PTS_COMMISSIONS, PTS_GOALS, PTS_LANDSCAPES, PTS_INSPIRATION, PTS_HOME = range(5)
N_PTS = 5


# ---------------------------------------------------------------------------------------
# state and trace
# ---------------------------------------------------------------------------------------
def new_state():
    """A game record for the kernels (reused across the games of a chunk): a 1-element
    STATE_DTYPE array; kernels work on element 0. Allocated by Python on purpose: in numba a
    record taken from an array does not keep that array alive."""
    return np.zeros(1, STATE_DTYPE).view(np.recarray)  # attribute access when interpreted


# ---------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def clear_game_nb(s):
    """Every game scalar of the state (the fields before `grid`) back to 0."""
    s.n_players = 0
    s.solo = 0
    s.day = 0
    s.n_days = 0
    s.over = 0
    s.end_reason = 0
    s.goal = 0
    s.goal_owner = 0
    s.comm_top = 0
    s.n_ldeck = 0
    s.n_ldisc = 0
    s.n_cdeck = 0
    s.n_gdeck = 0
    s.row_len = 0
    s.inspiration = 0
    s.turns = 0
    s.selling_seat = 0
    s.n_cdisc = 0
    s.n_gdisc = 0
    s.phase = 0
    s.to_move = 0
    s.trek = 0
    clear_turn_nb(s)


@njit(cache=True, error_model="numpy", inline="always")
def clear_turn_nb(s):
    """The fields of the turn in progress back to 0: at set-up and when a turn begins."""
    s.hike = 0
    s.n_path = 0
    s.n_painted = 0
    s.painted_features = 0
    s.n_sold = 0
    s.n_sell_opts = 0


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    """Set-up: shuffle and deal the wilderness, the commission row and its revealed top card,
    the first daily goal, each player's shuffled planning deck; artists on the centre card.
    Solo (Wanderlust): ranger stations diagonal to the centre, no daily goals, one
    inspiration card at random, 8 days, a 3-card commission row. The decks are shuffled in
    this order from the chance stream (a seed always deals the same game)."""
    clear_game_nb(s)
    init_streams_nb(s.streams, game_seed)
    solo = n_players == 1
    s.n_players = n_players
    s.solo = 1 if solo else 0
    s.n_days = tables.solo_days if solo else tables.days
    s.row_len = tables.solo_row if solo else n_players + tables.row_extra
    s.selling_seat = -1
    s.goal = -1
    s.goal_owner = -1
    s.inspiration = -1
    deal_wilderness_nb(tables, s, trace, tn)
    deal_commissions_nb(tables, s, trace, tn)
    deal_goals_nb(tables, s, trace, tn)
    for p in range(MAX_PLAYERS):
        clear_seat_nb(s, p)
    deal_planning_nb(s)


@njit(cache=True, error_model="numpy")
def deal_wilderness_nb(tables, s, trace, tn):
    """Shuffle the landscapes and fill the 5x5 wilderness from the deck (solo: the ranger
    stations first, on their cells)."""
    n_land = tables.n_land
    for i in range(n_land):
        s.ldeck[i] = i
    shuffle_nb(s.streams, CHANCE, s.ldeck, n_land)
    s.n_ldeck = n_land
    s.n_ldisc = 0
    for c in range(N_CELLS):
        s.grid[c] = EMPTY
    if s.solo == 1:
        for k in range(tables.n_ranger):
            s.grid[tables.ranger_cells[k]] = RANGER
    for c in range(N_CELLS):
        if s.grid[c] == EMPTY:
            s.n_ldeck -= 1
            s.grid[c] = s.ldeck[s.n_ldeck]
        trace_nb(trace, tn, EV_SETUP_CELL, c, s.grid[c], 0, 0, 0)


@njit(cache=True, error_model="numpy")
def deal_commissions_nb(tables, s, trace, tn):
    """Shuffle the commissions, deal the row (s.row_len cards) and reveal the next card on
    top of the deck (available from day 2)."""
    n_comm = tables.n_comm
    for i in range(n_comm):
        s.cdeck[i] = i
    shuffle_nb(s.streams, CHANCE, s.cdeck, n_comm)
    s.n_cdeck = n_comm
    s.n_cdisc = 0
    for k in range(MAX_ROW):
        s.crow[k] = -1
    for k in range(s.row_len):
        s.n_cdeck -= 1
        s.crow[k] = s.cdeck[s.n_cdeck]
        trace_nb(trace, tn, EV_SETUP_ROW, k, s.crow[k], 0, 0, 0)
    s.n_cdeck -= 1
    s.comm_top = s.cdeck[s.n_cdeck]
    trace_nb(trace, tn, EV_SETUP_TOP, s.comm_top, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def deal_goals_nb(tables, s, trace, tn):
    """Shuffle the daily goals and reveal the first (solo: no daily goal, an inspiration
    card drawn at random instead)."""
    n_goal = tables.n_goal
    for i in range(n_goal):
        s.gdeck[i] = i
    shuffle_nb(s.streams, CHANCE, s.gdeck, n_goal)
    s.n_gdeck = n_goal
    s.n_gdisc = 0
    if s.solo == 0:
        reveal_goal_nb(s, trace, tn)
    else:
        s.inspiration = randint_nb(s.streams, CHANCE, tables.n_insp)
        trace_nb(trace, tn, EV_INSPIRATION, s.inspiration, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def clear_seat_nb(s, p):
    """Seat p before play: its artist on the centre card, nothing held, sold, kept, planned
    or counted."""
    s.pos[p] = CENTER
    s.hand_n[p] = 0
    s.plan_choice[p] = -1
    s.order[p] = p
    for k in range(MAX_COMM):
        s.comm_owned[p, k] = 0
    for k in range(MAX_GOAL):
        s.goal_owned[p, k] = 0
    for k in range(N_PLAN):
        s.plan_used[p, k] = 0
    for k in range(PLAN_DRAW):
        s.popen[p, k] = -1
    s.painted[p] = 0
    s.sold_landscapes[p] = 0
    s.steps[p] = 0
    s.goal_claims[p] = 0
    s.pdeck_n[p] = 0
    s.pdeck_unseen[p] = 0
    s.plan_code[p] = -1


@njit(cache=True, error_model="numpy")
def deal_planning_nb(s):
    """Each player's planning deck, shuffled face down (no one knows its order); solo
    (Wanderlust): the three cards drawn stay open between days."""
    for p in range(s.n_players):
        for k in range(N_PLAN):
            s.pdeck[p, k] = k
        s.pdeck_n[p] = N_PLAN
        s.pdeck_unseen[p] = N_PLAN
        shuffle_nb(s.streams, CHANCE, s.pdeck[p], N_PLAN)
    if s.solo == 1:
        for k in range(PLAN_DRAW):
            s.popen[0, k] = pop_plan_nb(s, 0)


# ---------------------------------------------------------------------------------------
# planning
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def pop_plan_nb(s, p):
    """Take the top card of p's planning deck (-1 if empty). Cards never drawn lie on top
    (returned cards go to the bottom), so drawing one shortens that unknown segment."""
    n = s.pdeck_n[p]
    if n == 0:
        return -1
    if s.pdeck_unseen[p] > 0:
        s.pdeck_unseen[p] -= 1
    top = s.pdeck[p, 0]
    for k in range(1, n):
        s.pdeck[p, k - 1] = s.pdeck[p, k]
    s.pdeck_n[p] = n - 1
    return top


@njit(cache=True, error_model="numpy", inline="always")
def draw_plans_nb(s, p):
    """Planning: draw the top 3 cards of the planning deck (multiplayer)."""
    for k in range(PLAN_DRAW):
        s.popen[p, k] = pop_plan_nb(s, p)


@njit(cache=True, error_model="numpy", inline="always")
def plan_options_nb(s, p, options):
    """Legal planning choices: code = slot * 2 + return order. In the multiplayer game the two
    cards not chosen go to the bottom of the deck "in either order" (order 0: lower slot
    first); in solo they stay open, so only order 0 exists."""
    n = 0
    solo = s.solo == 1
    for k in range(PLAN_DRAW):
        if s.popen[p, k] >= 0:
            options[n] = k * 2
            n += 1
            if not solo:
                options[n] = k * 2 + 1
                n += 1
    return n


@njit(cache=True, error_model="numpy", inline="always")
def apply_plan_nb(s, p, code):
    """Keep the chosen card face down; multiplayer: return the other two to the bottom of the
    deck in the chosen order; solo: leave them open for the next days."""
    slot = code // 2
    order = code % 2
    s.plan_choice[p] = s.popen[p, slot]
    s.popen[p, slot] = -1
    if s.solo == 1:
        return
    first = -1
    second = -1
    for k in range(PLAN_DRAW):
        if s.popen[p, k] >= 0:
            if first < 0:
                first = s.popen[p, k]
            else:
                second = s.popen[p, k]
            s.popen[p, k] = -1
    if order == 1:
        tmp = first
        first = second
        second = tmp
    for card in (first, second):
        if card >= 0:
            s.pdeck[p, s.pdeck_n[p]] = card
            s.pdeck_n[p] += 1


@njit(cache=True, error_model="numpy")
def turn_order_nb(tables, s):
    """Trek order: earliest wake-up time first. Equal times (common, since all decks are the
    same) are broken by rule option tables.wake_tie: at random (default) or lower seat first."""
    n = s.n_players
    keys = frame_array(MAX_PLAYERS, np.float64)
    for p in range(n):
        wake = tables.plan_wake[s.plan_choice[p]]
        if tables.wake_tie == WAKE_TIE_SEAT:
            tie = p / 8.0
        else:
            tie = randint_nb(s.streams, CHANCE, 1 << 20) / float(1 << 21)
        keys[p] = wake + tie
    for p in range(n):
        s.order[p] = p
    for i in range(1, n):  # insertion sort: at most 4 seats
        j = i
        while j > 0 and keys[s.order[j]] < keys[s.order[j - 1]]:
            tmp = s.order[j]
            s.order[j] = s.order[j - 1]
            s.order[j - 1] = tmp
            j -= 1


# ---------------------------------------------------------------------------------------
# hike
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def step_cell_nb(cell, d, k):
    """The cell k steps from `cell` in direction d, or -1 off the grid (enums.STEP_CELL)."""
    return STEP_CELL[cell, d, k]


@njit(cache=True, error_model="numpy", inline="always")
def others_cells_nb(s, p):
    """Bitmask of the cells another artist stands on (bit c = cell c): one pass over the
    seats, so a loop over many cells tests a bit instead of every seat each time."""
    m = 0
    for q in range(s.n_players):
        if q != p:
            m |= 1 << s.pos[q]
    return m


@njit(cache=True, error_model="numpy", inline="always")
def legal_hikes_nb(tables, s, p, card):
    """Legal hikes for planning card `card`, as a bitmask of hike codes (bit code set; code =
    dir * (MAX_MOVE + 1) + steps < 64): k steps (1..move) in one direction shown on the card,
    never entering or crossing an empty space or leaving the grid, passing artists freely but
    never ending on another artist's card; and staying put (code 0). Staying is ending the
    turn where the artist stands, so on a card shared with another artist (all start on the
    centre) it is legal only when no hike is (rule option tables.stay_on_shared_card;
    "may_stay": always legal). A mask, so that a player can test every hike of a card for
    legality without a list of options."""
    start = s.pos[p]
    others = others_cells_nb(s, p)
    may_stay = (tables.stay_on_shared_card == SHARED_STAY_MAY_STAY
                or (others >> start) & 1 == 0)
    legal = 1 if may_stay else 0
    dirs = tables.plan_dirs[card]
    move = tables.plan_move[card]
    for d in range(N_DIRS):
        if (dirs >> d) & 1 == 0:
            continue
        for k in range(1, move + 1):
            cell = step_cell_nb(start, d, k)
            if cell < 0 or s.grid[cell] == EMPTY:
                break  # no entering or crossing an empty space; the grid ends here
            if (others >> cell) & 1 == 0:
                legal |= 1 << (d * (MAX_MOVE + 1) + k)
    if legal == 0:  # boxed in: "you can not move even if you wish to"
        legal = 1
    return legal


@njit(cache=True, error_model="numpy", inline="always")
def hike_options_nb(tables, s, p, card, options):
    """The legal hikes of `card` (legal_hikes_nb) as options, in increasing code order:
    staying put (code 0) first when legal."""
    return mask_options_nb(legal_hikes_nb(tables, s, p, card), options)


@njit(cache=True, error_model="numpy", inline="always")
def path_nb(start, code, path):
    """Cells of the hike `code` from `start`, the start card included; returns its length."""
    d = code // (MAX_MOVE + 1)
    k = code % (MAX_MOVE + 1)
    path[0] = start
    for i in range(1, k + 1):
        path[i] = step_cell_nb(start, d, i)
    return k + 1


@njit(cache=True, error_model="numpy", inline="always")
def refill_cell_nb(tables, s, cell, trace, tn):
    """Place the next landscape of the deck on an empty cell (reshuffling the discards into a
    new deck when it runs out). With no card anywhere the space stays empty."""
    if s.n_ldeck == 0:
        nd = s.n_ldisc
        if nd > 0:
            for i in range(nd):
                s.ldeck[i] = s.ldisc[i]
            s.n_ldeck = nd
            s.n_ldisc = 0
            shuffle_nb(s.streams, CHANCE, s.ldeck, nd)
            trace_nb(trace, tn, EV_RESHUFFLE, nd, 0, 0, 0, 0)
    if s.n_ldeck == 0:
        return  # rule option tables.empty_deck_refill = 0: leave the space empty
    s.n_ldeck -= 1
    s.grid[cell] = s.ldeck[s.n_ldeck]
    trace_nb(trace, tn, EV_REFILL, cell, s.grid[cell], 0, 0, 0)


@njit(cache=True, error_model="numpy")
def refill_around_ranger_nb(tables, s, station, trace, tn):
    """Solo: an artist passing or landing on a ranger station refills the empty spaces around
    it, left to right, top to bottom."""
    r0 = station // GRID
    c0 = station % GRID
    for r in range(r0 - 1, r0 + 2):
        for c in range(c0 - 1, c0 + 2):
            if 0 <= r < GRID and 0 <= c < GRID:
                cell = r * GRID + c
                if s.grid[cell] == EMPTY:
                    refill_cell_nb(tables, s, cell, trace, tn)


@njit(cache=True, error_model="numpy", inline="always")
def apply_hike_nb(tables, s, p, code, trace, tn):
    """Move the artist; in solo, every ranger station passed or reached refills around it."""
    d = code // (MAX_MOVE + 1)
    k = code % (MAX_MOVE + 1)
    start = s.pos[p]
    for i in range(1, k + 1):
        cell = step_cell_nb(start, d, i)
        if s.grid[cell] == RANGER:
            refill_around_ranger_nb(tables, s, cell, trace, tn)
    if k > 0:
        s.pos[p] = step_cell_nb(start, d, k)
    s.steps[p] += k


# ---------------------------------------------------------------------------------------
# paint
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def paintable_mask_nb(s, p, path, n_path):
    """Path positions whose card may be painted: a landscape (not a ranger station, not an
    empty space) not under another artist. The start card counts."""
    mask = 0
    others = others_cells_nb(s, p)
    for i in range(n_path):
        cell = path[i]
        if s.grid[cell] >= 0 and (others >> cell) & 1 == 0:
            mask |= 1 << i
    return mask


@njit(cache=True, error_model="numpy", inline="always")
def popcount_nb(x):
    """The set bits of x >= 0 (a bitmask of cards, cells or path positions)."""
    return bit_count(x)


@njit(cache=True, error_model="numpy", inline="always")
def paint_options_nb(s, p, path, n_path, paint, options):
    """Legal paint choices: every subset of the paintable path positions with at most
    `paint` cards (the empty set included). Code = bitmask over path positions."""
    allowed = paintable_mask_nb(s, p, path, n_path)
    n = 0
    sub = allowed
    while True:  # enumerate the subsets of `allowed`
        if popcount_nb(sub) <= paint:
            options[n] = sub
            n += 1
        if sub == 0:
            break
        sub = (sub - 1) & allowed
    return n


@njit(cache=True, error_model="numpy", inline="always")
def apply_paint_nb(s, p, path, mask, trace, tn):
    """Pick up the chosen cards; their spaces stay empty until clean-up."""
    i = 0
    while mask:
        if mask & 1:
            cell = path[i]
            s.hand[p, s.hand_n[p]] = s.grid[cell]
            s.hand_n[p] += 1
            trace_nb(trace, tn, EV_PAINT, p, s.grid[cell], cell, 0, 0)
            s.grid[cell] = EMPTY
            s.painted[p] += 1
        mask >>= 1
        i += 1


# ---------------------------------------------------------------------------------------
# sell
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def frame_matches_nb(tables, frame, land):
    """A frame is filled by a landscape showing its feature; "?" by any landscape."""
    return frame == ANY_FEATURE or tables.landscape_features[land, frame] > 0


@njit(cache=True, error_model="numpy", inline="always")
def land_mask_nb(tables, land):
    """Bitmask of the features a landscape shows (bit f = feature f; components.py derives
    it from landscape_features when the file is loaded)."""
    return tables.landscape_mask[land]


@njit(cache=True, error_model="numpy", inline="always")
def hand_bits_nb(tables, s, p, showing, by_count):
    """Seat p's hand as bitmasks over its cards (bit j = hand card j; a hand holds at most
    MAX_HAND = 48 cards): showing[f] = the cards showing feature f, by_count[c] = the cards
    showing c features (c = 0..N_FEATURES). One pass over the hand, no branch per card."""
    for f in range(N_FEATURES):
        showing[f] = 0
    for c in range(N_COUNTS):
        by_count[c] = 0
    for j in range(s.hand_n[p]):
        land = s.hand[p, j]
        mask = land_mask_nb(tables, land)
        by_count[tables.landscape_n_features[land]] |= 1 << j
        for f in range(N_FEATURES):
            showing[f] |= ((mask >> f) & 1) << j


@njit(cache=True, error_model="numpy", inline="always")
def can_fill_nb(tables, comm, showing, hand_n):
    """Whether distinct hand cards can fill every frame of `comm` (one card per frame).
    Hall's theorem for this bipartite matching: every set S of specific frames must see at
    least |S| cards showing one of their features, and the hand must hold at least as many
    cards as there are frames ("?" frames take any card). `showing`: hand_bits_nb."""
    nf = tables.commission_n_frames[comm]
    if hand_n < nf:
        return False
    specific = 0  # bit i: frame i asks for a feature
    for i in range(nf):
        if tables.commission_frames[comm, i] != ANY_FEATURE:
            specific |= 1 << i
    sub = specific
    while sub:  # every non-empty subset of the specific frames
        seen = 0  # the hand cards showing a feature of one of the frames in S
        size = 0
        for i in range(nf):
            if (sub >> i) & 1:
                seen |= showing[tables.commission_frames[comm, i]]
                size += 1
        if popcount_nb(seen) < size:
            return False
        sub = (sub - 1) & specific
    return True


@njit(cache=True, error_model="numpy")
def match_search_nb(frames, nf, masks, n, keep, best):
    """The cheapest way to fill frames[:nf] with distinct hand cards (one per frame): writes
    the hand indices into best[:nf] and returns the total keep value (inf if impossible).
    Iterative depth-first search with branch and bound (numba cannot cache recursion);
    masks[j] = feature mask of hand card j."""
    best_cost = np.inf
    choice = frame_array(MAX_FRAMES, np.int64)       # hand index tried at each depth
    cost = frame_array(FRAME_DEPTHS, np.float64)     # cost of depths 0..f-1
    for i in range(MAX_FRAMES):
        choice[i] = -1
    cost[0] = 0.0
    used = 0
    f = 0
    while f >= 0:
        # advance the choice at depth f to the next usable card
        if choice[f] >= 0:
            used &= ~(1 << choice[f])
        j = choice[f] + 1
        frame = frames[f]
        while j < n:
            if (used >> j) & 1 == 0 and cost[f] + keep[j] < best_cost and (
                    frame == ANY_FEATURE or (masks[j] >> frame) & 1):
                break
            j += 1
        if j >= n:
            choice[f] = -1
            f -= 1
            continue
        choice[f] = j
        used |= 1 << j
        cost[f + 1] = cost[f] + keep[j]
        if f + 1 == nf:
            best_cost = cost[f + 1]
            for i in range(nf):
                best[i] = choice[i]
            # stay at this depth: try the next card here
        else:
            f += 1
    return best_cost


@njit(cache=True, error_model="numpy", inline="always")
def sellable_commission_nb(s, slot):
    """Commission at a sell slot: row slots 0..MAX_ROW-1, slot MAX_ROW = the revealed top card
    of the deck (solo, last day only)."""
    if slot == MAX_ROW:
        return s.comm_top
    return s.crow[slot]


@njit(cache=True, error_model="numpy")
def sell_options_nb(tables, s, p, options):
    """Legal sales: each commission of the row whose frames the hand can fill, plus, in solo
    on the last day, the commission on top of the deck; then -1 (stop selling)."""
    n = 0
    showing = frame_array(N_FEATURES, np.int64)
    by_count = frame_array(N_COUNTS, np.int64)
    hand_bits_nb(tables, s, p, showing, by_count)
    hand_n = s.hand_n[p]
    for slot in range(s.row_len):
        comm = s.crow[slot]
        if comm >= 0 and can_fill_nb(tables, comm, showing, hand_n):
            options[n] = slot
            n += 1
    if s.solo == 1 and s.day == s.n_days - 1:
        comm = s.comm_top
        if comm >= 0 and can_fill_nb(tables, comm, showing, hand_n):
            options[n] = MAX_ROW
            n += 1
    options[n] = -1
    return n + 1


@njit(cache=True, error_model="numpy", inline="always")
def default_keep_nb(tables, s, p, keep):
    """Default value of keeping each hand card: its features (what it scores unsold)."""
    for j in range(s.hand_n[p]):
        keep[j] = tables.landscape_n_features[s.hand[p, j]]


@njit(cache=True, error_model="numpy")
def apply_sell_nb(tables, s, p, slot, keep, trace, tn):
    """Sell landscapes for the commission at `slot`: the cheapest legal set by the seller's
    keep values fills its frames (one card per frame); they go to the discard pile and the
    commission to the seller. Its slot stays empty until clean-up. Returns the commission."""
    comm = sellable_commission_nb(s, slot)
    nf = tables.commission_n_frames[comm]
    best = frame_array(MAX_FRAMES, np.int64)
    for i in range(MAX_FRAMES):
        best[i] = -1
    masks = frame_array(MAX_HAND, np.int64)
    for j in range(s.hand_n[p]):
        masks[j] = land_mask_nb(tables, s.hand[p, j])
    match_search_nb(tables.commission_frames[comm], nf, masks, s.hand_n[p], keep, best)
    used = 0
    for i in range(nf):
        used |= 1 << best[i]
        land = s.hand[p, best[i]]
        s.ldisc[s.n_ldisc] = land
        s.n_ldisc += 1
        trace_nb(trace, tn, EV_SELL_CARD, p, comm, land, 0, 0)
    # compact the hand and the keep values alike
    k = 0
    for j in range(s.hand_n[p]):
        if (used >> j) & 1 == 0:
            s.hand[p, k] = s.hand[p, j]
            keep[k] = keep[j]
            k += 1
    s.hand_n[p] = k
    s.sold_landscapes[p] += nf
    s.comm_owned[p, comm] = s.day + 1
    if slot == MAX_ROW:
        s.comm_top = -1
    else:
        s.crow[slot] = -1
    return comm


# ---------------------------------------------------------------------------------------
# daily goal
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def goal_met_nb(tables, goal, hike_code, n_painted, painted_features, n_sold):
    """Whether this turn meets daily goal `goal` (a condition on the player's own turn)."""
    kind = tables.goal_kind[goal]
    param = tables.goal_param[goal]
    d = hike_code // (MAX_MOVE + 1)
    steps = hike_code % (MAX_MOVE + 1)
    if kind == GOAL_MOVE_HORIZONTAL:
        return steps > 0 and (d == DIR_E or d == DIR_W)
    if kind == GOAL_MOVE_VERTICAL:
        return steps > 0 and (d == DIR_N or d == DIR_S)
    if kind == GOAL_MOVE_DIAGONAL:
        return steps > 0 and d % 2 == 1
    if kind == GOAL_HIKE_AT_LEAST:
        return steps >= param
    if kind == GOAL_PAINT_AT_LEAST:
        return n_painted >= param
    if kind == GOAL_SELL_AT_LEAST:
        return n_sold >= param
    if kind == GOAL_PAINT_FEATURE:
        return (painted_features >> param) & 1 == 1
    if kind == GOAL_NO_HIKE:
        return steps == 0
    return False


@njit(cache=True, error_model="numpy", inline="always")
def check_goal_nb(tables, s, p, hike_code, n_painted, painted_features, n_sold, trace, tn):
    """After a turn: a player meeting today's goal takes the card, from whoever held it."""
    goal = s.goal
    if goal < 0:
        return
    if goal_met_nb(tables, goal, hike_code, n_painted, painted_features, n_sold):
        s.goal_owner = p
        s.goal_claims[p] += 1
        trace_nb(trace, tn, EV_GOAL, p, goal, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def reveal_goal_nb(s, trace, tn):
    if s.n_gdeck > 0:
        s.n_gdeck -= 1
        s.goal = s.gdeck[s.n_gdeck]
        trace_nb(trace, tn, EV_NEW_GOAL, s.goal, 0, 0, 0, 0)
    else:
        s.goal = -1
    s.goal_owner = -1


# ---------------------------------------------------------------------------------------
# solo wake-up effects
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def discard_top_commissions_nb(tables, s, count, trace, tn):
    """Discard the `count` highest-point commissions of the row (ties: the leftmost), without
    replacing them."""
    for _ in range(count):
        best = -1
        for slot in range(s.row_len):
            comm = s.crow[slot]
            if comm >= 0 and (best < 0 or tables.commission_points[comm] > tables.commission_points[s.crow[best]]):
                best = slot
        if best < 0:
            return
        trace_nb(trace, tn, EV_DISCARD_COMM, s.crow[best], 0, 0, 0, 0)
        s.crow[best] = -1
        s.n_cdisc += 1


@njit(cache=True, error_model="numpy")
def wake_effect_nb(tables, s, card, trace, tn):
    """Solo: the wake-up band of the chosen card decides the day's effect. Returns the band
    index (-1 if the time is in no band)."""
    wake = tables.plan_wake[card]
    for b in range(tables.n_band):
        if tables.band_from[b] <= wake <= tables.band_to[b]:
            effect = tables.band_effect[b]
            if effect == WAKE_REFILL_WILDERNESS:
                for cell in range(N_CELLS):
                    if s.grid[cell] == EMPTY:
                        refill_cell_nb(tables, s, cell, trace, tn)
            elif effect == WAKE_DISCARD_COMMISSIONS:
                discard_top_commissions_nb(tables, s, tables.band_param[b], trace, tn)
            return b
    return -1


# ---------------------------------------------------------------------------------------
# clean-up and the end
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def keep_goal_nb(s, trace, tn):
    """End of the day: whoever met the goal last keeps it; an unclaimed goal is discarded."""
    goal = s.goal
    if goal < 0:
        return
    owner = s.goal_owner
    if owner >= 0:
        s.goal_owned[owner, goal] = s.day + 1
        trace_nb(trace, tn, EV_GOAL_KEPT, owner, goal, 0, 0, 0)
    else:
        s.n_gdisc += 1
    s.goal = -1
    s.goal_owner = -1


@njit(cache=True, error_model="numpy")
def refill_commissions_nb(s, trace, tn):
    """Refill the empty row slots, the revealed top card first, then reveal a new top card.
    Solo: the remaining cards first slide left. Returns False (and changes nothing) if there
    are not enough commissions to fill the row: the game then ends at once."""
    row_len = s.row_len
    if s.solo == 1:
        k = 0
        for slot in range(row_len):
            if s.crow[slot] >= 0:
                s.crow[k] = s.crow[slot]
                k += 1
        for slot in range(k, row_len):
            s.crow[slot] = -1
    empty = 0
    for slot in range(row_len):
        if s.crow[slot] < 0:
            empty += 1
    available = s.n_cdeck + (1 if s.comm_top >= 0 else 0)
    if available < empty:
        return False
    for slot in range(row_len):
        if s.crow[slot] < 0:
            if s.comm_top >= 0:
                s.crow[slot] = s.comm_top
                s.comm_top = -1
                trace_nb(trace, tn, EV_ROW, slot, s.crow[slot], 1, 0, 0)
            else:
                s.n_cdeck -= 1
                s.crow[slot] = s.cdeck[s.n_cdeck]
                trace_nb(trace, tn, EV_ROW, slot, s.crow[slot], 0, 0, 0)
    if s.comm_top < 0 and s.n_cdeck > 0:
        s.n_cdeck -= 1
        s.comm_top = s.cdeck[s.n_cdeck]
        trace_nb(trace, tn, EV_TOP, s.comm_top, 0, 0, 0, 0)
    return True


@njit(cache=True, error_model="numpy")
def end_game_nb(s, reason, trace, tn):
    s.over = 1
    s.end_reason = reason
    trace_nb(trace, tn, EV_END, reason, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def cleanup_nb(tables, s, trace, tn):
    """Clean-up: the goal is kept; after the last day the game ends. Otherwise refill the
    wilderness row by row (not in solo), reveal a new goal (not in solo), refill the
    commission row (the game ends at once if it cannot be refilled), solo: draw a planning
    card to have three open."""
    keep_goal_nb(s, trace, tn)
    for p in range(s.n_players):
        s.plan_choice[p] = -1
    if s.day + 1 >= s.n_days:
        end_game_nb(s, END_DAYS, trace, tn)
        return
    solo = s.solo == 1
    if not solo:
        for cell in range(N_CELLS):
            if s.grid[cell] == EMPTY:
                refill_cell_nb(tables, s, cell, trace, tn)
        reveal_goal_nb(s, trace, tn)
    if not refill_commissions_nb(s, trace, tn):
        end_game_nb(s, END_COMMISSIONS, trace, tn)
        return
    if solo:
        for k in range(PLAN_DRAW):
            if s.popen[0, k] < 0:
                s.popen[0, k] = pop_plan_nb(s, 0)
    s.day += 1


@njit(cache=True, error_model="numpy")
def score_nb(tables, s, p, pts):
    """Final score of seat p into pts[N_PTS]; returns the total.
    Commissions + daily goals + unsold landscapes (1 point per tables.features_per_point features,
    rounded down); solo adds the inspiration bonus and the return-home bonus."""
    for k in range(N_PTS):
        pts[k] = 0
    n_comm = tables.n_comm
    insp = -1
    if s.solo == 1:
        insp = tables.inspiration_feature[s.inspiration]
    for c in range(n_comm):
        if s.comm_owned[p, c] > 0:
            pts[PTS_COMMISSIONS] += tables.commission_points[c]
            if insp >= 0:
                for f in range(tables.commission_n_frames[c]):
                    if tables.commission_frames[c, f] == insp:
                        pts[PTS_INSPIRATION] += tables.inspiration_points
                        break
    for gl in range(tables.n_goal):
        if s.goal_owned[p, gl] > 0:
            pts[PTS_GOALS] += tables.goal_points[gl]
    features = 0
    for j in range(s.hand_n[p]):
        features += tables.landscape_n_features[s.hand[p, j]]
    pts[PTS_LANDSCAPES] = features // tables.features_per_point
    if s.solo == 1 and s.pos[p] == CENTER:
        pts[PTS_HOME] = tables.return_home_bonus
    total = 0
    for k in range(N_PTS):
        total += pts[k]
    return total


@njit(cache=True, error_model="numpy")
def goals_held_nb(s, p):
    n = 0
    for gl in range(MAX_GOAL):
        if s.goal_owned[p, gl] > 0:
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def rank_nb(scores, goals, n, rank, win):
    """Highest score wins; ties go to most daily goals; still tied: a shared victory.
    rank[p] = 1 + number of seats strictly ahead; win[p] = 1/k for the k seats ranked 1."""
    keys = np.empty((2, n), np.float64)
    for p in range(n):
        keys[0, p] = scores[p]
        keys[1, p] = goals[p]
    ranks_and_win_shares_nb(keys, n, rank, win)
