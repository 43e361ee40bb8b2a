"""Heuristic players for Sunset Over Water.

A strategy answers one kind of question at a time: given the state (read only what a player
at that seat can see: the wilderness, the rows, hands and scores on the table, its own
planning cards) and the legal options the engine enumerated, return the index of the option
it takes. Every strategy has the same signature:

    choose(sid, params, tables, s, seat, decision, options, n_options, ctx, keep) -> int

sid       built-in id (dispatch below) or a negative id for a user strategy
params    float64 vector of the seat's parameters (names in CATALOG)
tables    the packed tables record (enums.TABLES_DTYPE, from the component file); s: the state record (enums.STATE_DTYPE)
decision  DEC_PLAN / DEC_HIKE / DEC_PAINT / DEC_SELL (codes of the options: see enums.py)
ctx       int64 context (sim/games/sunset/model.py, context_nb): ctx[0] = today's planning
          card (hike, paint, sell; -1 while planning), ctx[1] = path length and
          ctx[2:2+ctx[1]] = the hike's path cells (paint, sell; 0 at the hike)
keep      float64[MAX_HAND]: for DEC_SELL the engine fills it with each hand card's feature
          count; a strategy may overwrite it: the engine sells the legal set of landscapes
          with the lowest total keep value.
Randomness: the seat's own stream, `randint_nb(s.streams, 1 + seat, n)`.

Speed (every decision of every greedy and planner game runs through here): the helpers
called in the loops over commissions, cells and hikes are `inline="always"` (a call between
numba-compiled functions is not inlined and costs more than the work of most of them), the
scratch arrays live in the deciding function's frame (frame_array), and the hand is read as
bitmasks once per valuation (hand_bits_nb). docs/games/sunset-over-water.md, "Speed".
"""
import numpy as np
from numba import njit

from sim.rng import randint_nb
from sim.games.sunset.enums import (
    ANY_FEATURE, CENTER, DEC_HIKE, DEC_PAINT, DEC_PLAN, EMPTY, MAX_FRAMES, MAX_MOVE, MAX_ROW,
    N_CELLS, N_DIRS, N_FEATURES, N_PLAN, PLAN_DRAW,
)
from sim.games.sunset.nb import (
    N_COUNTS, goal_met_nb, hand_bits_nb, land_mask_nb, legal_hikes_nb, others_cells_nb,
    popcount_nb,
    sellable_commission_nb, step_cell_nb,
)
from sim.games.sunset.intrinsics import frame_array

from strategies.sunset_catalog import (  # noqa: F401  (ids, parameter slots, CATALOG)
    RANDOM, GREEDY, PLANNER, P_LANDSCAPE, P_COMPLETE, P_PROGRESS, P_TOMORROW, P_GOAL,
    P_CONTEST, P_HOME, N_PARAMS, CATALOG,
)


# ---------------------------------------------------------------------------------------
# what a commission is worth to the seat
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def comm_value_nb(tables, s, comm):
    """Points a commission brings its seller: its printed points, plus in solo the inspiration
    bonus (rule number tables.inspiration_points) when one of its frames shows the feature of the
    player's inspiration card (face up in front of the solo player)."""
    value = float(tables.commission_points[comm])
    if s.solo == 1 and s.inspiration >= 0:
        insp = tables.inspiration_feature[s.inspiration]
        for fi in range(tables.commission_n_frames[comm]):
            if tables.commission_frames[comm, fi] == insp:
                value += float(tables.inspiration_points)
                break
    return value


# ---------------------------------------------------------------------------------------
# what the hand still lacks for each visible commission, and what a painting is worth
# ---------------------------------------------------------------------------------------
# a bit beside the feature bits: "a "?" frame is open", which any painting fills
ANY_BIT = 1 << ANY_FEATURE
N_BITS = ANY_FEATURE + 1         # the feature bits and ANY_BIT
N_MASKS = 1 << N_FEATURES        # the feature masks of a landscape (bit f = feature f)
N_CODES = N_DIRS * (MAX_MOVE + 1)


@njit(cache=True, error_model="numpy", inline="always")
def slot_demand_nb(tables, s, p, k, showing, by_count, enough):
    """(missing, fills) of commission slot k (slot MAX_ROW: the revealed top commission) for
    seat p's hand (hand_bits_nb): the frames the hand cannot fill yet (-1 when the slot
    is empty) and the features that fill one of them (bit f; ANY_BIT when a "?" frame is
    open). A quick greedy assignment: specific frames first, each by the hand card with the
    fewest features showing it (the first such card on a tie), then "?" frames by any
    remaining card. Stops counting once `enough` frames are missing (a seat that values
    only commissions it completes today need not count on)."""
    comm = sellable_commission_nb(s, k) if k < s.row_len or k == MAX_ROW else -1
    if comm < 0:
        return -1, 0
    used = 0
    missing = 0
    fills = 0
    n_any = 0
    for fi in range(tables.commission_n_frames[comm]):
        frame = tables.commission_frames[comm, fi]
        if frame == ANY_FEATURE:
            n_any += 1
            continue
        card = fewest_features_nb(showing[frame] & ~used, by_count)
        if card:
            used |= card
            continue
        fills |= 1 << frame
        missing += 1
        if missing >= enough:
            return missing, fills
    free = s.hand_n[p] - popcount_nb(used)
    if free < n_any:
        fills |= ANY_BIT
        missing += n_any - free
    return missing, fills


@njit(cache=True, error_model="numpy", inline="always")
def fewest_features_nb(candidates, by_count):
    """The hand card among `candidates` (bitmasks over the hand, hand_bits_nb) with the
    fewest features, the lowest index on a tie, as its bit; 0 if none."""
    if candidates == 0:
        return 0
    for c in range(N_COUNTS):
        cards = candidates & by_count[c]
        if cards:
            return cards & -cards
    return 0


@njit(cache=True, error_model="numpy", inline="always")
def slot_gain_nb(tables, s, k, missing, fills, params, planner):
    """What a painting that fills one open frame of commission slot k is worth to a seat
    missing `missing` of its frames, and the features that fill one (slot_demand_nb; 0.0
    and 0: nothing). The same for every painting that fills one: bit_gains_nb keeps the
    best slot a painting fills."""
    if missing <= 0:
        return 0.0, 0
    solo = s.solo == 1
    if not planner and (missing != 1 or (k == MAX_ROW and not solo)):
        return 0.0, 0  # greedy values only what it can complete today
    comm = sellable_commission_nb(s, k)
    # the solo inspiration bonus only in solo: this is hot in every game
    pts = comm_value_nb(tables, s, comm) if solo else float(tables.commission_points[comm])
    if k == MAX_ROW and not solo:
        gain = params[P_TOMORROW] * pts / float(missing) if planner else 0.0
    elif missing == 1:
        gain = params[P_COMPLETE] * pts
    elif planner:
        gain = params[P_PROGRESS] * pts / float(missing)
        if k == MAX_ROW:
            gain *= params[P_TOMORROW]
    else:
        gain = 0.0
    return gain, fills


@njit(cache=True, error_model="numpy", inline="always")
def bit_gains_nb(tables, s, p, params, planner, best):
    """best[b] = the most a painting showing feature b (b = ANY_FEATURE: any painting) gains
    towards one visible commission for seat p (0.0: nothing), so a painting showing the
    features `mask` gains mask_gain_nb(best, mask): the best of the slots it fills. One
    pass over the row per valuation."""
    showing = frame_array(N_FEATURES, np.int64)
    by_count = frame_array(N_COUNTS, np.int64)
    hand_bits_nb(tables, s, p, showing, by_count)
    for b in range(N_BITS):
        best[b] = 0.0
    solo = s.solo == 1
    enough = MAX_FRAMES + 1 if planner else 2   # greedy: one frame missing or worthless
    for k in range(MAX_ROW + 1):
        if not planner and k == MAX_ROW and not solo:
            continue  # greedy: tomorrow's commission gains nothing today
        missing, fills = slot_demand_nb(tables, s, p, k, showing, by_count, enough)
        gain, fills = slot_gain_nb(tables, s, k, missing, fills, params, planner)
        if fills == 0 or not gain > 0.0:
            continue
        for b in range(N_BITS):
            if (fills >> b) & 1 and gain > best[b]:
                best[b] = gain


@njit(cache=True, error_model="numpy", inline="always")
def mask_gain_nb(best, mask):
    """The commission gain of a painting showing the features `mask` (bit_gains_nb)."""
    gain = best[ANY_FEATURE]
    for f in range(N_FEATURES):
        if (mask >> f) & 1 and best[f] > gain:
            gain = best[f]
    return gain


@njit(cache=True, error_model="numpy", inline="always")
def mask_gains_nb(best, gain_by_mask):
    """gain_by_mask[m] = mask_gain_nb(best, m) for every feature mask m, each from the mask
    without its highest bit."""
    gain_by_mask[0] = best[ANY_FEATURE]
    for f in range(N_FEATURES):
        for m in range(1 << f, 2 << f):
            below = gain_by_mask[m - (1 << f)]
            gain_by_mask[m] = best[f] if best[f] > below else below


@njit(cache=True, error_model="numpy", inline="always")
def end_value_nb(tables, land, params):
    """What landscape `land` is worth unsold at the end: features / features per point
    (float() first: numba's int / int is slow), weighted by the seat's P_LANDSCAPE."""
    return params[P_LANDSCAPE] * float(tables.landscape_n_features[land]) / float(
        tables.features_per_point)


@njit(cache=True, error_model="numpy")
def cell_values_nb(tables, s, p, params, planner, vals):
    """vals[cell] = value of painting that cell's card for seat p (its end-of-game value plus
    its best commission gain), or -1 when it cannot be painted (empty space, ranger station,
    another artist on it). Computed once per decision, then every hike is valued from it."""
    best = frame_array(N_BITS, np.float64)
    gain_by_mask = frame_array(N_MASKS, np.float64)
    end_by_count = frame_array(N_COUNTS, np.float64)
    bit_gains_nb(tables, s, p, params, planner, best)
    mask_gains_nb(best, gain_by_mask)
    for c in range(N_COUNTS):  # end_value_nb of a card showing c features
        end_by_count[c] = params[P_LANDSCAPE] * float(c) / float(tables.features_per_point)
    others = others_cells_nb(s, p)
    for cell in range(N_CELLS):
        land = s.grid[cell]
        if land < 0 or (others >> cell) & 1:
            vals[cell] = -1.0
            continue
        vals[cell] = (end_by_count[tables.landscape_n_features[land]]
                      + gain_by_mask[land_mask_nb(tables, land)])


@njit(cache=True, error_model="numpy")
def reaches_centre_nb(tables, s, cell, card):
    """Whether planning card `card` can end a hike on the centre from `cell` on today's
    wilderness (a straight line along one of its arrows, within its movement points, over
    no empty space); staying put counts when `cell` is the centre."""
    if cell == CENTER:
        return True
    for d in range(N_DIRS):
        if (tables.plan_dirs[card] >> d) & 1 == 0:
            continue
        for k in range(1, tables.plan_move[card] + 1):
            c = step_cell_nb(cell, d, k)
            if c < 0 or s.grid[c] == EMPTY:
                break
            if c == CENTER:
                return True
    return False


@njit(cache=True, error_model="numpy")
def home_value_nb(tables, s, end, params, planner, last_card):
    """Solo: the return-home bonus (rule number tables.return_home_bonus) a hike ending on `end`
    is worth. Last day: the bonus if `end` is the centre (greedy and planner). The day
    before (planner only): the bonus if `last_card`, the one planning card left for the last
    day, can reach the centre from `end`."""
    if s.solo != 1:
        return 0.0
    bonus = params[P_HOME] * float(tables.return_home_bonus)
    day = s.day
    last = s.n_days - 1
    if day == last:
        return bonus if end == CENTER else 0.0
    if planner and day == last - 1 and last_card >= 0:
        return bonus if reaches_centre_nb(tables, s, end, last_card) else 0.0
    return 0.0


@njit(cache=True, error_model="numpy", inline="always")
def top4_push_nb(t0, t1, t2, t3, v):
    """The best four values (decreasing) once v is added to them."""
    if v > t3:
        if v > t0:
            return v, t0, t1, t2
        if v > t1:
            return t0, v, t1, t2
        if v > t2:
            return t0, t1, v, t2
        return t0, t1, t2, v
    return t0, t1, t2, t3


@njit(cache=True, error_model="numpy", inline="always")
def hike_total_nb(tables, s, card, code, end, t0, t1, t2, t3, params, planner, last_card):
    """hike_value_nb from the best four painting values of the hike's path (t0..t3,
    decreasing) and the card it ends on."""
    paint = min(tables.plan_paint[card], 4)
    total = t0
    if paint >= 2:
        total += t1
    if paint >= 3:
        total += t2
    if paint >= 4:
        total += t3
    if paint == 0:
        total = 0.0
    goal = s.goal
    if goal >= 0 and goal_met_nb(tables, goal, code, tables.plan_paint[card], 0x1F, 0):
        total += params[P_GOAL] * tables.goal_points[goal]
    if s.solo == 1:
        total += home_value_nb(tables, s, end, params, planner, last_card)
    return total


@njit(cache=True, error_model="numpy", inline="always")
def hike_values_nb(tables, s, p, card, vals, params, planner, last_card, legal, out):
    """out[code] = the value of hike `code` with planning card `card` (the best `paint`
    paintings along its path, start card included, plus the daily goal if the hike meets
    it, plus in solo the return-home bonus it secures: hike_total_nb; `last_card`: the card
    left for the last day, -1 if unknown), for staying put and for every hike of the card
    along its arrows up to the first gap or the grid's edge (a superset of the legal hikes):
    one walk per arrow, each step adding one card to the best four of the shorter hike.
    Returns the best value among the codes in `legal` (a bitmask, legal_hikes_nb), 0.0 if
    none is better."""
    start = s.pos[p]
    v0 = vals[start]
    a0, a1, a2, a3 = top4_push_nb(0.0, 0.0, 0.0, 0.0, v0)
    out[0] = hike_total_nb(tables, s, card, 0, start, a0, a1, a2, a3, params, planner, last_card)
    best = out[0] if legal & 1 and out[0] > 0.0 else 0.0
    dirs = tables.plan_dirs[card]
    move = tables.plan_move[card]
    for d in range(N_DIRS):
        if (dirs >> d) & 1 == 0:
            continue
        t0, t1, t2, t3 = a0, a1, a2, a3
        for k in range(1, move + 1):
            cell = step_cell_nb(start, d, k)
            if cell < 0 or s.grid[cell] == EMPTY:
                break
            t0, t1, t2, t3 = top4_push_nb(t0, t1, t2, t3, vals[cell])
            code = d * (MAX_MOVE + 1) + k
            v = hike_total_nb(tables, s, card, code, cell, t0, t1, t2, t3, params, planner,
                              last_card)
            out[code] = v
            if (legal >> code) & 1 and v > best:
                best = v
    return best


@njit(cache=True, error_model="numpy")
def last_card_nb(s, p, chosen_slot):
    """Solo: the open planning card that will be left for the last day if the card in
    `chosen_slot` (-1: the card already chosen today) is played now, or -1 if that is not
    one card (only meaningful the day before the last, when two cards are open)."""
    left = -1
    n_left = 0
    for k in range(PLAN_DRAW):
        if k != chosen_slot and s.popen[p, k] >= 0:
            left = s.popen[p, k]
            n_left += 1
    return left if n_left == 1 else -1


# ---------------------------------------------------------------------------------------
# the decisions
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def rivals_earlier_nb(tables, s, p, card):
    """Expected number of rivals waking before `card`: for each rival, the share of its
    unplayed planning cards (public: played cards lie face up) with an earlier time."""
    n = s.n_players
    total = 0.0
    for q in range(n):
        if q == p:
            continue
        earlier = 0
        left = 0
        for c in range(N_PLAN):
            if s.plan_used[q, c] == 0:
                left += 1
                if tables.plan_wake[c] < tables.plan_wake[card]:
                    earlier += 1
        if left > 0:
            total += float(earlier) / float(left)
    return total


@njit(cache=True, error_model="numpy")
def choose_plan_nb(tables, s, p, params, planner, options, n_options):
    vals = frame_array(N_CELLS, np.float64)
    by_code = frame_array(N_CODES, np.float64)
    card_value = frame_array(PLAN_DRAW, np.float64)
    cell_values_nb(tables, s, p, params, planner, vals)
    for slot in range(PLAN_DRAW):
        card_value[slot] = np.nan
    best_i = 0
    best_v = -1e18
    for i in range(n_options):
        slot = options[i] // 2
        order = options[i] % 2
        card = s.popen[p, slot]
        if np.isnan(card_value[slot]):  # the best legal hike of the card
            last = last_card_nb(s, p, slot) if s.solo == 1 else -1
            card_value[slot] = hike_values_nb(tables, s, p, card, vals, params, planner, last,
                                              legal_hikes_nb(tables, s, p, card), by_code)
        v = card_value[slot]
        if planner:
            v *= 1.0 - params[P_CONTEST] * rivals_earlier_nb(tables, s, p, card) / float(max(1, s.n_players - 1))
            # Returning the stronger of the other two first brings it back sooner.
            other_a = -1
            other_b = -1
            for k in range(PLAN_DRAW):
                if k != slot and s.popen[p, k] >= 0:
                    if other_a < 0:
                        other_a = s.popen[p, k]
                    else:
                        other_b = s.popen[p, k]
            if other_b >= 0:
                first = other_b if order == 1 else other_a
                second = other_a if order == 1 else other_b
                strength_first = tables.plan_move[first] + tables.plan_paint[first]
                strength_second = tables.plan_move[second] + tables.plan_paint[second]
                if strength_first >= strength_second:
                    v += 1e-6
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_hike_nb(tables, s, p, card, params, planner, options, n_options):
    vals = frame_array(N_CELLS, np.float64)
    by_code = frame_array(N_CODES, np.float64)
    cell_values_nb(tables, s, p, params, planner, vals)
    last = last_card_nb(s, p, -1) if s.solo == 1 else -1
    hike_values_nb(tables, s, p, card, vals, params, planner, last, 0, by_code)
    best_i = 0
    best_v = -1e18
    for i in range(n_options):
        v = by_code[options[i]]
        if v > best_v + 1e-9:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_paint_nb(tables, s, p, params, planner, options, n_options, ctx):
    """Pick paintings one at a time, best value first, re-evaluating the demand after each
    (so two paintings do not both count for the same frame); take the matching option."""
    n_path = ctx[1]
    best_gain = frame_array(N_BITS, np.float64)
    allowed = 0
    for i in range(n_options):
        allowed |= options[i]
    paint = 0
    for i in range(n_options):
        c = popcount_nb(options[i])
        if c > paint:
            paint = c
    chosen = 0
    hand_n0 = s.hand_n[p]
    for _ in range(paint):
        if allowed & ~chosen == 0:
            break  # every paintable card is picked: nothing left to value
        bit_gains_nb(tables, s, p, params, planner, best_gain)
        best_pos = -1
        best_v = 0.0
        for i in range(n_path):
            if (allowed >> i) & 1 == 0 or (chosen >> i) & 1:
                continue
            land = s.grid[ctx[2 + i]]
            v = end_value_nb(tables, land, params) + mask_gain_nb(best_gain,
                                                                  land_mask_nb(tables, land))
            if v > best_v:
                best_v = v
                best_pos = i
        if best_pos < 0:
            break
        chosen |= 1 << best_pos
        # pretend to hold it while valuing the next one
        s.hand[p, s.hand_n[p]] = s.grid[ctx[2 + best_pos]]
        s.hand_n[p] += 1
    s.hand_n[p] = hand_n0
    for i in range(n_options):
        if options[i] == chosen:
            return i
    return 0


@njit(cache=True, error_model="numpy")
def choose_sell_nb(tables, s, p, params, planner, options, n_options, keep):
    """Sell the most valuable commission available (printed points, plus the solo inspiration
    bonus); the planner also protects the paintings that the other visible commissions still
    need."""
    best_i = n_options - 1  # the last option is "stop"
    best_pts = -1.0
    for i in range(n_options - 1):
        v = comm_value_nb(tables, s, sellable_commission_nb(s, options[i]))
        if v > best_pts:
            best_pts = v
            best_i = i
    if planner and best_i < n_options - 1:
        for j in range(s.hand_n[p]):
            land = s.hand[p, j]
            demand = 0.0
            for k in range(MAX_ROW + 1):
                comm = sellable_commission_nb(s, k) if k < s.row_len or k == MAX_ROW else -1
                if comm < 0 or k == options[best_i]:
                    continue
                for fi in range(tables.commission_n_frames[comm]):
                    frame = tables.commission_frames[comm, fi]
                    if frame != ANY_FEATURE and tables.landscape_features[land, frame] > 0:
                        demand += comm_value_nb(tables, s, comm) / float(tables.commission_n_frames[comm])
                        break
            keep[j] = params[P_LANDSCAPE] * tables.landscape_n_features[land] + params[P_PROGRESS] * demand
    return best_i


@njit(cache=True, error_model="numpy")
def choose_random_nb(s, seat, decision, n_options, keep):
    """One draw from the seat's stream per decision, nothing else: exactly what a user file
    doing `return randint_nb(s.streams, 1 + seat, n_options)` plays (the platform's
    conformance test compares the two). So the paintings that pay for a sale are the
    engine's default (`keep` left alone: the fewest features), and random play costs one
    draw per decision whatever the decision (docs/games/sunset-over-water.md)."""
    return randint_nb(s.streams, 1 + seat, n_options)


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Dispatch to a built-in strategy by id."""
    if sid == RANDOM or n_options == 1:
        if sid == RANDOM:
            return choose_random_nb(s, seat, decision, n_options, keep)
        return 0
    planner = sid == PLANNER
    if decision == DEC_PLAN:
        return choose_plan_nb(tables, s, seat, params, planner, options, n_options)
    if decision == DEC_HIKE:
        return choose_hike_nb(tables, s, seat, ctx[0], params, planner, options, n_options)
    if decision == DEC_PAINT:
        return choose_paint_nb(tables, s, seat, params, planner, options, n_options, ctx)
    return choose_sell_nb(tables, s, seat, params, planner, options, n_options, keep)
