"""Heuristic players for Sagrada.

Every strategy has the signature

    choose(sid, params, tables, s, seat, decision, options, n_options, ctx, keep) -> int

and returns the index of the option it takes. It reads only what the seat can see: every
window, the pool, the round track, the tool cards and their tokens, the public objectives,
and its OWN private objective(s) (s.priv[seat]); never the bag's order or another seat's
private objective.

decision  DEC_WINDOW / DEC_ACTION / DEC_TOOL / DEC_PLACE (option codes: see enums.py)
ctx       int64[CTX_LEN]: ctx[0] = tool effect being carried out (DEC_TOOL / DEC_PLACE; -1
          otherwise), ctx[1] = the tool's step, ctx[2] = placement mode of a held die
          (M_* bits, DEC_PLACE), ctx[3] = 0 on the seat's first turn of the round, 1 on its second
keep      float64[MAX_OPTIONS] scratch the strategy may use (Sagrada has no keep values:
          the rules never read it); the planner's work_nb tables live there
Randomness: the seat's own stream, randint_nb(s.streams, 1 + seat, n).
"""
import numpy as np
from numba import njit

from sim.rng import randint_nb
from sim.games.sagrada.enums import (
    COLS, DEC_ACTION, DEC_PLACE, DEC_TOOL, DEC_WINDOW, DIAG, FULL_MASK, M_NOT_ADJACENT,
    MAX_OPTIONS, MAX_TRACK, N_CELLS, N_COLOURS, N_PUB_SLOTS, N_VALUES, NO_COLOUR, NO_VALUE,
    OBJ_COL_COLOUR, OBJ_COL_SHADE, OBJ_COLOUR_DIAGONALS, OBJ_COLOUR_SET, OBJ_ROW_COLOUR,
    OBJ_ROW_SHADE, OBJ_SHADE_SET, OPT_END, OPT_TOOL, OPT_TOOL_STRIDE, ROWS, T_CORK_BACKED,
    T_FLUX_BRUSH, T_FLUX_REMOVER, T_GLAZING_HAMMER, T_GRINDING_STONE, T_GROZING_PLIERS,
    T_LENS_CUTTER, T_COPPER_FOIL, T_EGLOMISE_BRUSH, T_LATHEKIN, T_RUNNING_PLIERS, T_TAP_WHEEL,
    M_IGNORE_COLOUR, M_IGNORE_SHADE,
)
from sim.games.sagrada.nb import (dilate4_nb, legal_mask_nb, lift_nb, move_options_nb,
                                  tool_cost_nb, track_colours_nb, unlift_nb)

from strategies.sagrada_catalog import (  # noqa: F401  (ids, parameter slots, CATALOG)
    RANDOM, GREEDY, PLANNER, P_FILL, P_PRIVATE, P_PUBLIC, P_DEAD, P_RESTRICTED, P_TOKEN,
    P_TOOL_MARGIN, P_WIN_TOKENS, P_WIN_RESTRICT, P_WIN_PRIVATE, P_PASS, P_TARGET,
    P_WIN_PUBLIC, P_SOLO_CARD, P_PLIERS_LATER, P_PRIV_TRAIL, N_PARAMS, CATALOG,
)

NEG = -1e18
# prep_nb's summary of a window: counts and masks of the dice ([0:43]), then bitmasks of cells
PREP_OPEN = 43         # open spaces
PREP_DEAD = 44         # open spaces no die can fill (dead_space_nb's)
PREP_RESTRICTED = 45   # spaces with a colour or shade restriction
PREP_RC = 46           # [46:51] spaces restricted to each colour
PREP_RV = 51 - 1       # [51:57] spaces restricted to each value (index PREP_RV + value)
PREP_HIT_C = 57        # [57:62] spaces restricted to colour k next to a die of colour k
PREP_HIT_V = 62 - 1    # [62:68] the same for each value (index PREP_HIT_V + value)
PREP_N_PUB = 68        # public objectives face up
PREP_KIND = 69         # [69:72] kind of the public objective in slot k
PREP_PTS = PREP_KIND + N_PUB_SLOTS   # [72:75] its points
PREP_LEN = PREP_PTS + N_PUB_SLOTS

# work_nb's tables of one decision (the window does not change while a strategy weighs its
# options): each holds a number value_nb would otherwise compute again and again
DIE = N_VALUES + 1                   # index of die (c, v) in a per-die table: c * DIE + v
W_MEMO = 0                           # best_memo_nb: best plain placement worth of each die
W_BASE = W_MEMO + N_COLOURS * DIE    # filling a space + the die's private-objective pips
W_SET = W_BASE + N_COLOURS * DIE     # public slot k, set objectives: gain of kind x (k * DIE + x)
MAX_LINES = max(ROWS, COLS)
W_LINE = W_SET + N_PUB_SLOTS * DIE   # public slot k, line objectives: gain in line l of a new
#                                      kind ([(k * MAX_LINES + l) * 2]) or a repeat ([.. + 1])
W_DEAD = W_LINE + N_PUB_SLOTS * MAX_LINES * 2  # planner: window worth with n dead spaces
W_PUBLIC = W_DEAD + N_CELLS + 1      # the parameter P_PUBLIC
W_RESTRICTED = W_PUBLIC + 1          # the parameter P_RESTRICTED
W_DEAD_COST = W_RESTRICTED + 1       # P_DEAD x the empty-space penalty (one dead neighbour)
W_ANY = W_DEAD_COST + 1              # best_any_value_nb: best of best_memo_nb over the values, per colour
WORK_LEN = W_ANY + N_COLOURS
if WORK_LEN > MAX_OPTIONS:   # work lives in the strategies' scratch keep (float64[MAX_OPTIONS])
    raise ValueError("strategies.sagrada: WORK_LEN exceeds the scratch keep (MAX_OPTIONS)")
UNKNOWN = np.inf


# ---------------------------------------------------------------------------------------
# the score estimate
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def prep_nb(tables, s, p, prep):
    """Per-decision summary of seat p's window: prep[0:4] row colour masks, [4:8] row value
    masks, [8:12] row dice; [12:17] column colour masks, [17:22] column value masks, [22:27]
    column dice; [27:32] dice per colour; [32:38] dice per value; [38:43] pips per colour;
    then the cell masks PREP_OPEN .. PREP_HIT_V + N_VALUES (see their names); then the
    public objectives face up (PREP_N_PUB, PREP_KIND, PREP_PTS)."""
    for k in range(PREP_LEN):
        prep[k] = 0
    prep[PREP_N_PUB] = s.n_public
    for k in range(s.n_public):
        prep[PREP_KIND + k] = tables.public_kind[s.public[k]]
        prep[PREP_PTS + k] = tables.public_points[s.public[k]]
    for cell in range(N_CELLS):
        bit = 1 << cell
        rc = s.restr_colour[p, cell]
        rv = s.restr_value[p, cell]
        if rc != NO_COLOUR:
            prep[PREP_RC + rc] |= bit
        if rv != NO_VALUE:
            prep[PREP_RV + rv] |= bit
        if rc != NO_COLOUR or rv != NO_VALUE:
            prep[PREP_RESTRICTED] |= bit
        c = s.win_colour[p, cell]
        if c == NO_COLOUR:
            prep[PREP_OPEN] |= bit
            continue
        v = s.win_value[p, cell]
        r = cell // COLS
        k = cell % COLS
        prep[r] |= 1 << c
        prep[4 + r] |= 1 << v
        prep[8 + r] += 1
        prep[12 + k] |= 1 << c
        prep[17 + k] |= 1 << v
        prep[22 + k] += 1
        prep[27 + c] += 1
        prep[32 + v - 1] += 1
        prep[38 + c] += v
    hit = 0
    for k in range(N_COLOURS):
        prep[PREP_HIT_C + k] = prep[PREP_RC + k] & dilate4_nb(s.cmask[p, k])
        hit |= prep[PREP_HIT_C + k]
    for v in range(1, N_VALUES + 1):
        prep[PREP_HIT_V + v] = prep[PREP_RV + v] & dilate4_nb(s.vmask[p, v])
        hit |= prep[PREP_HIT_V + v]
    prep[PREP_DEAD] = hit & prep[PREP_OPEN]


@njit(cache=True, error_model="numpy")
def dead_after_move_nb(s, p, prep, frm, to):
    """The number of open spaces no die can fill (dead_space_nb's test: a colour or value
    restriction met by an orthogonal neighbour) once seat p's die on `frm` moves to `to`;
    prep is of the window before the move."""
    c = s.win_colour[p, frm]
    v = s.win_value[p, frm]
    moved = (1 << frm) | (1 << to)
    hit = prep[PREP_RC + c] & dilate4_nb(s.cmask[p, c] ^ moved)
    hit |= prep[PREP_RV + v] & dilate4_nb(s.vmask[p, v] ^ moved)
    for k in range(N_COLOURS):
        if k != c:
            hit |= prep[PREP_HIT_C + k]
    for w in range(1, N_VALUES + 1):
        if w != v:
            hit |= prep[PREP_HIT_V + w]
    return popcount_nb(hit & ~(s.wmask[p] ^ moved) & FULL_MASK)


@njit(cache=True, error_model="numpy")
def popcount_nb(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def line_gain_nb(mask, n, x, length, points):
    """Change of the partial credit points * dice / length of a line still free of repeats
    when a die of colour/value x joins it (the whole credit is lost if x repeats)."""
    ok = popcount_nb(mask) == n
    if not ok:
        return 0.0
    if (mask >> x) & 1:
        return -float(points) * float(n) / float(length)
    return float(points) / float(length)


@njit(cache=True, error_model="numpy")
def empty_penalty_nb(tables, s):
    """Points lost per open space at the end (rules: 1; solo 3)."""
    if s.solo == 1:
        return float(tables.solo_empty_penalty)
    return float(tables.empty_penalty)


@njit(cache=True, error_model="numpy")
def private_weight_nb(tables, s, p, prep, c, params, planner):
    """Weight of colour c's pips for seat p: 1 for its private colour. Solo, only the better
    of the two private objectives counts: the planner gives the colour behind in pips (so
    far) the weight P_PRIV_TRAIL."""
    lead = -1
    mine = False
    for k in range(s.n_private):
        card = s.priv[p, k]
        if card < 0:
            continue
        col = tables.private_colour[card]
        if col == c:
            mine = True
        elif prep[38 + col] > lead:
            lead = prep[38 + col]
    if not mine:
        return 0.0
    if planner and lead > prep[38 + c]:
        return params[P_PRIV_TRAIL]
    return 1.0


@njit(cache=True, error_model="numpy")
def work_nb(tables, s, p, prep, params, planner, work):
    """The tables of this decision for value_nb (see W_*) into work[:WORK_LEN] (the
    strategy's scratch `keep`: no allocation per decision); each entry computed once, by the
    expression value_nb would evaluate for it."""
    pen = empty_penalty_nb(tables, s)
    for c in range(N_COLOURS):
        work[W_ANY + c] = UNKNOWN
        weight = private_weight_nb(tables, s, p, prep, c, params, planner)
        for v in range(1, N_VALUES + 1):
            work[W_MEMO + c * DIE + v] = UNKNOWN
            val = params[P_FILL] * pen
            val += params[P_PRIVATE] * float(v) * weight
            work[W_BASE + c * DIE + v] = val
    for k in range(s.n_public):
        o = s.public[k]
        kind = tables.public_kind[o]
        pts = tables.public_points[o]
        if kind == OBJ_SHADE_SET:
            set_gains_nb(work, W_SET + k * DIE, prep, 32, N_VALUES, tables.public_mask[o], pts)
        elif kind == OBJ_COLOUR_SET:
            set_gains_nb(work, W_SET + k * DIE, prep, 27, N_COLOURS, tables.public_mask[o], pts)
        elif kind == OBJ_ROW_COLOUR or kind == OBJ_ROW_SHADE:
            for r in range(ROWS):
                line_gains_nb(work, W_LINE + (k * MAX_LINES + r) * 2,
                              prep[r] if kind == OBJ_ROW_COLOUR else prep[4 + r], prep[8 + r], COLS, pts)
        elif kind == OBJ_COL_COLOUR or kind == OBJ_COL_SHADE:
            for col in range(COLS):
                line_gains_nb(work, W_LINE + (k * MAX_LINES + col) * 2,
                              prep[12 + col] if kind == OBJ_COL_COLOUR else prep[17 + col], prep[22 + col],
                              ROWS, pts)
    work[W_PUBLIC] = params[P_PUBLIC]
    work[W_RESTRICTED] = params[P_RESTRICTED]
    work[W_DEAD_COST] = params[P_DEAD] * pen
    if planner:
        total = 0.0
        work[W_DEAD] = total
        for n in range(1, N_CELLS + 1):
            total -= params[P_DEAD] * pen
            work[W_DEAD + n] = total
    return work


@njit(cache=True, error_model="numpy")
def set_level_nb(prep, base, size, mask, m):
    """Full sets + share of kinds above the minimum (the measure of a set objective's partial credit)."""
    lo = 1 << 30
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] < lo:
            lo = prep[base + k]
    above = 0
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] > lo:
            above += 1
    return float(lo) + float(above) / float(m)


@njit(cache=True, error_model="numpy")
def set_gains_nb(work, at, prep, base, size, mask, points):
    """work[at + x]: the change of points * set_level_nb when a die of kind x is added (0 for a
    kind outside the set)."""
    m = popcount_nb(mask)
    before = set_level_nb(prep, base, size, mask, m) if m > 0 else 0.0
    for x in range(size):
        if m == 0 or (mask >> x) & 1 == 0:
            work[at + x] = 0.0
            continue
        prep[base + x] += 1
        after = set_level_nb(prep, base, size, mask, m)
        prep[base + x] -= 1
        work[at + x] = float(points) * (after - before)


@njit(cache=True, error_model="numpy")
def line_gains_nb(work, at, mask, n, length, points):
    """work[at]: line_gain_nb's value for a kind new to the line, work[at + 1] for a repeat."""
    x = 0
    while (mask >> x) & 1:
        x += 1
    work[at] = line_gain_nb(mask, n, x, length, points)
    if mask == 0:
        work[at + 1] = 0.0      # nothing can repeat in an empty line
    else:
        x = 0
        while (mask >> x) & 1 == 0:
            x += 1
        work[at + 1] = line_gain_nb(mask, n, x, length, points)


@njit(cache=True, error_model="numpy")
def line_value_nb(work, k, line, mask, x):
    return work[W_LINE + (k * MAX_LINES + line) * 2 + ((mask >> x) & 1)]


@njit(cache=True, error_model="numpy", inline="always")
def value_nb(s, p, prep, work, cell, c, v, planner):
    """Estimated worth of putting die (c, v) on `cell` of seat p's window. Filling a space (and
    a space made unfillable) counts per point of the empty-space penalty (solo: 3). prep,
    work: prep_nb's and work_nb's for this decision and `planner`. Inlined into its callers
    (best_cell_nb's loop runs it thousands of times a game: a call costs as much as the sum)."""
    val = work[W_BASE + c * DIE + v]
    r = cell // COLS
    col = cell % COLS
    pub = 0.0
    for k in range(prep[PREP_N_PUB]):
        kind = prep[PREP_KIND + k]
        if kind == OBJ_ROW_COLOUR:
            pub += line_value_nb(work, k, r, prep[r], c)
        elif kind == OBJ_ROW_SHADE:
            pub += line_value_nb(work, k, r, prep[4 + r], v)
        elif kind == OBJ_COL_COLOUR:
            pub += line_value_nb(work, k, col, prep[12 + col], c)
        elif kind == OBJ_COL_SHADE:
            pub += line_value_nb(work, k, col, prep[17 + col], v)
        elif kind == OBJ_SHADE_SET:
            pub += work[W_SET + k * DIE + v - 1]
        elif kind == OBJ_COLOUR_SET:
            pub += work[W_SET + k * DIE + c]
        elif kind == OBJ_COLOUR_DIAGONALS:
            pts = float(prep[PREP_PTS + k])
            for j in range(4):
                q = DIAG[cell, j]
                if q >= 0 and s.win_colour[p, q] == c:
                    pub += pts
                    # the partner scores too if it had no same-colour diagonal yet
                    alone = True
                    for m in range(4):
                        w = DIAG[q, m]
                        if w >= 0 and w != cell and s.win_colour[p, w] == c:
                            alone = False
                            break
                    if alone:
                        pub += pts
    val += work[W_PUBLIC] * pub
    if planner:
        if (prep[PREP_RESTRICTED] >> cell) & 1:
            val += work[W_RESTRICTED]
        # open, still fillable neighbours restricted to this die's colour or value
        near = dilate4_nb(1 << cell) & prep[PREP_OPEN] & ~prep[PREP_DEAD]
        dead = popcount_nb(near & (prep[PREP_RC + c] | prep[PREP_RV + v]))
        val -= work[W_DEAD_COST] * float(dead)
    return val


@njit(cache=True, error_model="numpy")
def best_cell_nb(s, p, prep, work, c, v, mode, planner):
    """(best value, cell) for die (c, v) under placement `mode`; (NEG, -1) if none."""
    best = NEG
    best_cell = -1
    m = legal_mask_nb(s, p, c, v, mode)
    cell = 0
    while m:
        if m & 1:
            x = value_nb(s, p, prep, work, cell, c, v, planner)
            if x > best:
                best = x
                best_cell = cell
        m >>= 1
        cell += 1
    return best, best_cell


@njit(cache=True, error_model="numpy", inline="always")
def best_memo_nb(s, p, prep, work, c, v):
    """Planner: best_cell_nb's value for die (c, v), plain placement; computed once per
    decision (work: work_nb's with planner on)."""
    k = W_MEMO + c * DIE + v
    if work[k] == UNKNOWN:
        x, _ = best_cell_nb(s, p, prep, work, c, v, 0, True)
        work[k] = x
    return work[k]


@njit(cache=True, error_model="numpy")
def window_worth_nb(work, n_dead):
    """Planner: a window with n_dead dead spaces (x P_DEAD per point of the empty-space
    penalty), for valuing tool moves."""
    return work[W_DEAD + n_dead]


@njit(cache=True, error_model="numpy")
def line_spoiled_nb(tables, pat, start, step, length, by_colour):
    """1 if two restrictions of one line of pattern `pat` ask for the same colour (by_colour)
    or value: the line can never score a variety objective."""
    seen = 0
    for k in range(length):
        c = start + k * step
        x = tables.pattern_colour[pat, c] if by_colour else tables.pattern_value[pat, c]
        if (by_colour and x == NO_COLOUR) or (not by_colour and x == NO_VALUE):
            continue
        if (seen >> x) & 1:
            return 1
        seen |= 1 << x
    return 0


@njit(cache=True, error_model="numpy")
def window_public_fit_nb(tables, s, pat):
    """Planner window choice: how pattern `pat` suits the public objectives face up, in
    objective points: minus the points of each row / column variety line its restrictions
    spoil (two alike); plus, for sets, each restricted space whose value / colour belongs to
    the set (points / kinds in the set); plus, for colour diagonals, each colour space with a
    diagonal space of its colour."""
    fit = 0.0
    for k in range(s.n_public):
        o = s.public[k]
        kind = tables.public_kind[o]
        pts = float(tables.public_points[o])
        mask = tables.public_mask[o]
        if kind == OBJ_ROW_COLOUR or kind == OBJ_ROW_SHADE:
            for r in range(ROWS):
                fit -= pts * line_spoiled_nb(tables, pat, r * COLS, 1, COLS, kind == OBJ_ROW_COLOUR)
        elif kind == OBJ_COL_COLOUR or kind == OBJ_COL_SHADE:
            for c in range(COLS):
                fit -= pts * line_spoiled_nb(tables, pat, c, COLS, ROWS, kind == OBJ_COL_COLOUR)
        elif kind == OBJ_SHADE_SET or kind == OBJ_COLOUR_SET:
            m = popcount_nb(mask)
            if m == 0:
                continue
            for cell in range(N_CELLS):
                if kind == OBJ_SHADE_SET:
                    x = tables.pattern_value[pat, cell]
                    if x != NO_VALUE and (mask >> (x - 1)) & 1:
                        fit += pts / float(m)
                else:
                    x = tables.pattern_colour[pat, cell]
                    if x != NO_COLOUR and (mask >> x) & 1:
                        fit += pts / float(m)
        elif kind == OBJ_COLOUR_DIAGONALS:
            for cell in range(N_CELLS):
                x = tables.pattern_colour[pat, cell]
                if x == NO_COLOUR:
                    continue
                for j in range(4):
                    q = DIAG[cell, j]
                    if q >= 0 and tables.pattern_colour[pat, q] == x:
                        fit += pts
                        break
    return fit


# ---------------------------------------------------------------------------------------
# decisions
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def choose_window_nb(tables, s, p, params, planner, options, n_options):
    """Greedy: the side with the most favor tokens (solo, where no tokens are given: the
    easiest side). Planner: favor tokens (not in solo), restrictions, spaces of its private
    colour(s) and the public objectives' fit."""
    solo = s.solo == 1
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        pat = options[i]
        diff = float(tables.pattern_difficulty[pat])
        if not planner:
            v = -diff if solo else diff
        else:
            v = 0.0 if solo else diff * params[P_WIN_TOKENS]
            for cell in range(N_CELLS):
                rc = tables.pattern_colour[pat, cell]
                if rc != NO_COLOUR or tables.pattern_value[pat, cell] != NO_VALUE:
                    v -= params[P_WIN_RESTRICT]
                if rc != NO_COLOUR:
                    for k in range(s.n_private):
                        card = s.priv[p, k]
                        if card >= 0 and tables.private_colour[card] == rc:
                            v += params[P_WIN_PRIVATE]
                            break
            v += params[P_WIN_PUBLIC] * window_public_fit_nb(tables, s, pat)
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy", inline="always")
def move_gain_nb(s, p, prep, work, code):
    """Planner: the change in window worth (dead spaces) from a tool move (code: from *
    N_CELLS + to)."""
    after = window_worth_nb(work, dead_after_move_nb(s, p, prep, code // N_CELLS, code % N_CELLS))
    return after - window_worth_nb(work, popcount_nb(prep[PREP_DEAD]))


@njit(cache=True, error_model="numpy")
def bag_counts_nb(tables, s, counts):
    """Dice of each colour still in the bag, counted from what every seat sees (the box minus
    the pool, the round track, the spent dice, the windows and a held die); never the bag."""
    for c in range(N_COLOURS):
        counts[c] = tables.dice_per_colour[c]
    for k in range(s.n_pool):
        counts[s.pool_colour[k]] -= 1
    for k in range(s.n_track):
        counts[s.track_colour[k]] -= 1
    for k in range(s.n_spent):
        counts[s.spent_colour[k]] -= 1
    for q in range(s.n_players):
        for cell in range(N_CELLS):
            if s.win_colour[q, cell] != NO_COLOUR:
                counts[s.win_colour[q, cell]] -= 1
    if s.held_colour >= 0:
        counts[s.held_colour] -= 1


@njit(cache=True, error_model="numpy", inline="always")
def best_any_value_nb(s, p, prep, work, c, tw):
    """Flux Remover's drawn die of colour c, whose value the seat chooses: the best placement
    over the six values (computed once per decision); with no legal space it goes to the pool
    (solo: as a 1, the least target)."""
    if work[W_ANY + c] == UNKNOWN:
        best = NEG
        for w in range(1, N_VALUES + 1):
            best = max(best, best_memo_nb(s, p, prep, work, c, w))
        work[W_ANY + c] = best
    best = work[W_ANY + c]
    return best if best > NEG else -tw


@njit(cache=True, error_model="numpy", inline="always")
def flux_remover_worth_nb(s, p, prep, work, i, tw, counts):
    """Planner: expected worth of returning pool die i to the bag and drawing one (colours in
    proportion to the bag's counts, known from the public dice: counts, bag_counts_nb's; the
    returned die's colour included) whose value the seat then chooses."""
    counts[s.pool_colour[i]] += 1
    total = 0.0
    n = 0.0
    for c in range(N_COLOURS):
        if counts[c] > 0:
            total += float(counts[c]) * best_any_value_nb(s, p, prep, work, c, tw)
            n += float(counts[c])
    counts[s.pool_colour[i]] -= 1
    return total / n + tw * float(s.pool_value[i])


@njit(cache=True, error_model="numpy", inline="always")
def reroll_worth_nb(s, p, prep, work, c, tw):
    """Planner: expected worth of a die of colour c re-rolled and then drafted (Flux Brush):
    placed if it can be, else back to the pool (solo: on its way to the target)."""
    total = 0.0
    for w in range(1, N_VALUES + 1):
        x = best_memo_nb(s, p, prep, work, c, w)
        total += x if x > NEG else -tw * float(w)
    return total / N_VALUES


@njit(cache=True, error_model="numpy", inline="always")
def plain_best_nb(s, p, prep, work, skip, tw):
    """Planner: the best plain draft (placement worth + solo target bonus) from the pool
    without die `skip` (-1: none); NEG if no die has a legal space."""
    best = NEG
    for i in range(s.n_pool):
        if i == skip:
            continue
        x = best_memo_nb(s, p, prep, work, s.pool_colour[i], s.pool_value[i])
        if x > NEG:
            best = max(best, x + tw * float(s.pool_value[i]))
    return best


@njit(cache=True, error_model="numpy", inline="always")
def drafted_die_best_nb(s, p, prep, work, effect, payer, tw):
    """Planner: the best outcome of a tool that changes the die it drafts (Grozing Pliers,
    Grinding Stone, Cork-backed Straightedge, Flux Brush) over the pool dice but the payer,
    solo target bonus included; NEG if none can be placed."""
    best = NEG
    for i in range(s.n_pool):
        if i == payer:
            continue
        c = s.pool_colour[i]
        v = s.pool_value[i]
        bonus = tw * float(v)   # solo: the die drafted is one pip-count less on the track
        if effect == T_GROZING_PLIERS:
            if v > 1:
                x = best_memo_nb(s, p, prep, work, c, v - 1)
                if x > NEG:
                    best = max(best, x + bonus)
            if v < N_VALUES:
                x = best_memo_nb(s, p, prep, work, c, v + 1)
                if x > NEG:
                    best = max(best, x + bonus)
        elif effect == T_GRINDING_STONE:
            x = best_memo_nb(s, p, prep, work, c, 7 - v)
            if x > NEG:
                best = max(best, x + bonus)
        elif effect == T_CORK_BACKED:
            x, _ = best_cell_nb(s, p, prep, work, c, v, M_NOT_ADJACENT, True)
            if x > NEG:
                best = max(best, x + bonus)
        else:
            best = max(best, reroll_worth_nb(s, p, prep, work, c, tw) + bonus)
    return best


@njit(cache=True, error_model="numpy", inline="always")
def flux_remover_best_nb(tables, s, p, prep, work, payer, tw):
    """Planner: Flux Remover's best expected outcome over the pool dice it may return (the
    payer excepted); NEG with no such die."""
    best = NEG
    counts = np.zeros(N_COLOURS, np.int64)
    bag_counts_nb(tables, s, counts)
    for i in range(s.n_pool):
        if i != payer:
            best = max(best, flux_remover_worth_nb(s, p, prep, work, i, tw, counts))
    return best


@njit(cache=True, error_model="numpy", inline="always")
def lens_cutter_best_nb(s, p, prep, work, payer, tw):
    """Planner: Lens Cutter's best swap: the best placement of a round-track die, giving away
    the lowest pool die (solo: it joins the track, whose sum is the target); NEG if no
    round-track die can be placed or no pool die but the payer is left to give."""
    best = NEG
    give = 1 << 30
    for i in range(s.n_pool):
        if i != payer and s.pool_value[i] < give:
            give = s.pool_value[i]
    if give == 1 << 30:
        return NEG
    for k in range(s.n_track):
        x = best_memo_nb(s, p, prep, work, s.track_colour[k], s.track_value[k])
        if x > NEG:
            best = max(best, x + tw * float(s.track_value[k] - give))
    return best


@njit(cache=True, error_model="numpy", inline="always")
def glazing_hammer_gain_nb(s, p, prep, work, payer, tw, plain, pay):
    """Planner: Glazing Hammer re-rolls every pool die but the payer before this turn's draft:
    the best expected placement after against the best draft now (plain), plus what the payer
    is worth (pay); solo: the dice not drafted go to the track, after the re-roll at the mean
    value. NEG if no die is left."""
    mean = float(N_VALUES + 1) / 2.0
    after = NEG
    left = 0.0
    n_left = 0
    for i in range(s.n_pool):
        if i == payer:
            continue
        after = max(after, reroll_worth_nb(s, p, prep, work, s.pool_colour[i], 0.0))
        left += float(s.pool_value[i])
        n_left += 1
    if after == NEG:
        return NEG
    return after - plain + tw * (left - mean * float(n_left - 1)) + pay


@njit(cache=True, error_model="numpy", inline="always")
def running_pliers_gain_nb(s, p, prep, work, payer, tw, solo, pliers_later, pay):
    """Planner: Running Pliers drafts a second die now and skips the second turn; when nobody
    drafts in between (solo, or the last seat of the snake, whose two turns are back to back)
    the second turn would offer the same dice (payer included), else the loss of the second
    turn counts pliers_later (P_PLIERS_LATER) of the best draft now; plus what the payer is
    worth (pay). NEG without a second draft."""
    second = plain_best_nb(s, p, prep, work, payer, tw)
    if second == NEG:
        return NEG
    anyway = plain_best_nb(s, p, prep, work, -1, tw)
    back_to_back = solo or s.order[s.n_players - 1] == p
    later = 1.0 if back_to_back else pliers_later
    return second - later * anyway + pay


@njit(cache=True, error_model="numpy", inline="always")
def move_gain_bound_nb(prep, work):
    """Planner: the most a move of a window die can gain: a move's gain is the worth of some
    dead-space count minus the worth now (move_gain_nb)."""
    now = window_worth_nb(work, popcount_nb(prep[PREP_DEAD]))
    top = NEG
    for k in range(N_CELLS + 1):
        top = max(top, window_worth_nb(work, k) - now)
    return top


@njit(cache=True, error_model="numpy", inline="always")
def move_tool_best_nb(s, p, prep, work, effect):
    """Planner: the best gain in window worth of a move tool's move (Eglomise Brush, Copper
    Foil Burnisher, Lathekin's first move, Tap Wheel's); NEG without a move."""
    mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else (M_IGNORE_SHADE if effect == T_COPPER_FOIL else 0)
    filt = track_colours_nb(s) if effect == T_TAP_WHEEL else -1
    best = NEG
    scratch = np.empty(N_CELLS * N_CELLS, np.int64)   # room for every move
    n = move_options_nb(s, p, mode, filt, -1, scratch, 0)
    for i in range(n):
        x = move_gain_nb(s, p, prep, work, scratch[i])
        best = max(best, x)
    return best


@njit(cache=True, error_model="numpy", inline="always")
def tool_gain_nb(tables, s, p, slot, payer, prep, work, best_plain, params, cost, beat):
    """Planner: what using tool `slot` now is worth compared with the plain best draft
    (best_plain, solo target bonus included), before its cost; NEG if the planner does not
    use this tool. payer: solo, the pool die that pays (it leaves play: it can no longer be
    drafted, and its pips no longer count in the target); -1 otherwise. work: work_nb()'s
    of this decision, planner on. cost, beat: the tool is used only if gain - cost -
    P_TOOL_MARGIN > beat (choose_action_nb); when a bound shows it cannot be, NEG without
    valuing it (beat = NEG: always valued)."""
    effect = tables.tool_effect[s.tools[slot]]
    solo = s.solo == 1
    tw = params[P_TARGET] if solo else 0.0
    draft_free = s.drafts_left > 0
    plain = best_plain if best_plain > NEG else 0.0
    # a non-drafting tool leaves the turn's draft to come, from a pool without the payer
    plain_after = plain
    pay = 0.0
    if payer >= 0:
        pay = tw * float(s.pool_value[payer])
        if draft_free:
            x = plain_best_nb(s, p, prep, work, payer, tw)
            plain_after = x if x > NEG else 0.0
    if effect == T_GROZING_PLIERS or effect == T_GRINDING_STONE or effect == T_CORK_BACKED or effect == T_FLUX_BRUSH:
        if not draft_free:
            return NEG
        best = drafted_die_best_nb(s, p, prep, work, effect, payer, tw)
        return best - plain + pay if best > NEG else NEG
    if effect == T_FLUX_REMOVER:
        if not draft_free:
            return NEG
        best = flux_remover_best_nb(tables, s, p, prep, work, payer, tw)
        return best - plain + pay if best > NEG else NEG
    if effect == T_LENS_CUTTER:
        if not draft_free:
            return NEG
        best = lens_cutter_best_nb(s, p, prep, work, payer, tw)
        return best - plain + pay if best > NEG else NEG
    if effect == T_GLAZING_HAMMER:
        return glazing_hammer_gain_nb(s, p, prep, work, payer, tw, plain, pay)
    if effect == T_RUNNING_PLIERS:
        return running_pliers_gain_nb(s, p, prep, work, payer, tw, solo, params[P_PLIERS_LATER],
                                      pay)
    if effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL or effect == T_LATHEKIN or effect == T_TAP_WHEEL:
        # when even the best move could not beat `beat`, listing the moves is of no use
        top = move_gain_bound_nb(prep, work)
        if not (top + pay + plain_after - plain - cost - params[P_TOOL_MARGIN] > beat):
            return NEG
        best = move_tool_best_nb(s, p, prep, work, effect)
        return best + pay + plain_after - plain if best > NEG else NEG
    return NEG


@njit(cache=True, error_model="numpy")
def choose_action_nb(tables, s, p, params, planner, options, n_options, keep):
    prep = np.empty(PREP_LEN, np.int64)
    prep_nb(tables, s, p, prep)
    work = work_nb(tables, s, p, prep, params, planner, keep)
    solo = s.solo == 1
    # solo: a die drafted is a die less on the round track, whose sum is the target to beat
    tw = params[P_TARGET] if planner and solo else 0.0
    best_i = -1
    best_v = NEG
    end_i = n_options - 1
    for i in range(n_options):
        code = options[i]
        if code == OPT_END or code >= OPT_TOOL:
            continue
        d = code // N_CELLS
        cell = code % N_CELLS
        c = s.pool_colour[d]
        v = s.pool_value[d]
        x = value_nb(s, p, prep, work, cell, c, v, planner)
        if planner:
            # a die's options are all its legal cells: their best is best_memo_nb's value,
            # which the tools ask for again
            k = W_MEMO + c * DIE + v
            if work[k] == UNKNOWN or x > work[k]:
                work[k] = x
        x += tw * float(v)
        if x > best_v:
            best_v = x
            best_i = i
    if not planner:
        return best_i if best_i >= 0 else end_i
    # the planner: a tool when it pays
    tool_i = -1
    tool_v = 0.0
    for i in range(n_options):
        code = options[i]
        if code == OPT_END or code < OPT_TOOL:
            continue
        slot = (code - OPT_TOOL) // OPT_TOOL_STRIDE
        payer = (code - OPT_TOOL) % OPT_TOOL_STRIDE
        if solo:
            cost = params[P_SOLO_CARD]   # the paying die is valued inside tool_gain_nb
        else:
            cost = params[P_TOKEN] * float(tool_cost_nb(tables, s, slot))
            payer = -1
        gain = tool_gain_nb(tables, s, p, slot, payer, prep, work, best_v if best_i >= 0 else NEG, params,
                            cost, tool_v)
        if gain > NEG and gain - cost - params[P_TOOL_MARGIN] > tool_v:
            tool_v = gain - cost - params[P_TOOL_MARGIN]
            tool_i = i
    if tool_i >= 0:
        return tool_i
    if best_i >= 0 and best_v >= params[P_PASS]:
        return best_i
    return end_i


@njit(cache=True, error_model="numpy")
def choose_tool_nb(tables, s, p, effect, step, params, planner, options, n_options, keep):
    """A tool's argument: the one whose outcome is worth most by the same estimate (solo: with
    the target bonus of the dice it takes off the round track)."""
    prep = np.empty(PREP_LEN, np.int64)
    prep_nb(tables, s, p, prep)
    tw = params[P_TARGET] if planner and s.solo == 1 else 0.0
    best_i = 0
    best_v = NEG
    work = work_nb(tables, s, p, prep, params, planner, keep)
    move = effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL or effect == T_LATHEKIN or effect == T_TAP_WHEEL
    for i in range(n_options):
        code = options[i]
        x = NEG
        if effect == T_GROZING_PLIERS:
            d = code // 2
            v = s.pool_value[d] + (1 if code % 2 == 1 else -1)
            x, _ = best_cell_nb(s, p, prep, work, s.pool_colour[d], v, 0, planner)
            x += tw * float(s.pool_value[d])
        elif effect == T_GRINDING_STONE:
            x, _ = best_cell_nb(s, p, prep, work, s.pool_colour[code], 7 - s.pool_value[code], 0, planner)
            x += tw * float(s.pool_value[code])
        elif effect == T_CORK_BACKED:
            x, _ = best_cell_nb(s, p, prep, work, s.pool_colour[code], s.pool_value[code], M_NOT_ADJACENT, planner)
            x += tw * float(s.pool_value[code])
        elif effect == T_FLUX_BRUSH:
            x = reroll_worth_nb(s, p, prep, work, s.pool_colour[code], tw) + tw * float(s.pool_value[code])
        elif effect == T_FLUX_REMOVER and step == 0:
            # the die to return: the one worth least to draft later (solo: plus its pips,
            # which leave the track)
            y, _ = best_cell_nb(s, p, prep, work, s.pool_colour[code], s.pool_value[code], 0, planner)
            x = tw * float(s.pool_value[code]) - (y if y > 0.0 else 0.0)
        elif effect == T_FLUX_REMOVER:
            # the drawn die's value: its best placement; unplaceable (any value offered): it
            # goes to the pool, solo as low as it can (the target)
            x, _ = best_cell_nb(s, p, prep, work, s.held_colour, code, 0, planner)
            if x == NEG:
                x = -tw * float(code)
        elif effect == T_LENS_CUTTER:
            k = code % MAX_TRACK
            x, _ = best_cell_nb(s, p, prep, work, s.track_colour[k], s.track_value[k], 0, planner)
            # give away the pool die worth least to us (solo: the lowest, it joins the track)
            d = code // MAX_TRACK
            y, _ = best_cell_nb(s, p, prep, work, s.pool_colour[d], s.pool_value[d], 0, planner)
            x -= 0.01 * (y if y > NEG else 0.0)
            x += tw * float(s.track_value[k] - s.pool_value[d])
        elif code == OPT_END:
            x = 0.0
        elif move:
            x = move_gain_nb(s, p, prep, work, code) if planner else 0.0
        if x > best_v:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_place_nb(tables, s, p, mode, params, planner, options, n_options, keep):
    prep = np.empty(PREP_LEN, np.int64)
    prep_nb(tables, s, p, prep)
    work = work_nb(tables, s, p, prep, params, planner, keep)
    c = s.held_colour
    v = s.held_value
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        x = value_nb(s, p, prep, work, options[i], c, v, planner)
        if x > best_v:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Dispatch to a built-in strategy by id."""
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if n_options == 1:
        return 0
    planner = sid == PLANNER
    if decision == DEC_WINDOW:
        return choose_window_nb(tables, s, seat, params, planner, options, n_options)
    if decision == DEC_ACTION:
        return choose_action_nb(tables, s, seat, params, planner, options, n_options, keep)
    if decision == DEC_TOOL:
        return choose_tool_nb(tables, s, seat, ctx[0], ctx[1], params, planner, options, n_options, keep)
    return choose_place_nb(tables, s, seat, ctx[2], params, planner, options, n_options, keep)
