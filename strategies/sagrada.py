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
keep      float64[MAX_OPTIONS] scratch the strategy may use
Randomness: the seat's own stream, randint_nb(s.streams, 1 + seat, n).
"""
import numpy as np
from numba import njit

from sim.rng import randint_nb
from sim.games.sagrada.enums import (
    COLS, DEC_ACTION, DEC_PLACE, DEC_TOOL, DEC_WINDOW, DIAG, G_DRAFTS_LEFT, G_HELD_COLOUR,
    G_HELD_VALUE, G_N_BAG, G_N_POOL, G_N_PRIVATE, G_N_PUBLIC, G_N_ROUNDS, G_N_TRACK, G_ROUND,
    G_SOLO, M_NOT_ADJACENT, MAX_TRACK, N_CELLS, N_COLOURS, N_VALUES, NO_COLOUR, NO_VALUE,
    OBJ_COL_COLOUR, OBJ_COL_SHADE, OBJ_COLOUR_DIAGONALS, OBJ_COLOUR_SET, OBJ_ROW_COLOUR,
    OBJ_ROW_SHADE, OBJ_SHADE_SET, OPT_END, OPT_TOOL, OPT_TOOL_STRIDE, ORTH, ROWS, T_CORK_BACKED,
    T_FLUX_BRUSH, T_GRINDING_STONE, T_GROZING_PLIERS, T_LENS_CUTTER, T_COPPER_FOIL,
    T_EGLOMISE_BRUSH, T_LATHEKIN, T_TAP_WHEEL, M_IGNORE_COLOUR, M_IGNORE_SHADE,
)
from sim.games.sagrada.nb import (can_place_nb, lift_nb, move_options_nb, tool_cost_nb,
                                  track_colours_nb, unlift_nb)

RANDOM, GREEDY, PLANNER = 0, 1, 2

P_FILL = 0         # value of filling an open space (an open space costs 1 point at the end)
P_PRIVATE = 1      # weight of a private-colour die's pips
P_PUBLIC = 2       # weight of public objective progress (partial credit, see value_nb)
P_DEAD = 3         # planner: cost of each open space the placement makes unfillable
P_RESTRICTED = 4   # planner: bonus for using a restricted space (blank ones stay easy)
P_TOKEN = 5        # planner: value of a favor token kept (tools cost 1 or 2)
P_TOOL_MARGIN = 6  # planner: a tool must beat the plain move by this much more than its cost
P_WIN_TOKENS = 7   # planner window choice: weight of the favor tokens (difficulty)
P_WIN_RESTRICT = 8 # planner window choice: cost per restricted space
P_WIN_PRIVATE = 9  # planner window choice: value per space restricted to its private colour
P_PASS = 10        # planner: pass rather than place a die worth less than this
N_PARAMS = 11

CATALOG = [
    {"name": "random", "id": RANDOM,
     "description": "Uniformly random legal choice at every decision (window side, draft and "
                    "cell, tool cards and their arguments, ending the turn).",
     "params": []},
    {"name": "greedy", "id": GREEDY,
     "description": "Best immediate placement by a score estimate (its private colour's pips, "
                    "progress on the public objectives, +1 for filling a space); takes the "
                    "window side with the most favor tokens; never uses tools, never passes "
                    "while a die can be placed.",
     "params": [("fill", 1.0, "value of filling an open space"),
                ("private", 1.0, "weight of a private-colour die's pips"),
                ("public", 1.0, "weight of public objective progress")]},
    {"name": "planner", "id": PLANNER,
     "description": "Values its private objective and the public objectives like greedy, and "
                    "keeps future placements open (penalises open spaces it makes unfillable, "
                    "prefers restricted spaces); chooses its window from favor tokens, "
                    "restrictions and its private colour; uses a tool card (Grozing Pliers, "
                    "Grinding Stone, Cork-backed Straightedge, Lens Cutter, Flux Brush, and the "
                    "moving tools) when the gain beats the tokens it costs.",
     "params": [("fill", 1.0, "value of filling an open space"),
                ("private", 1.0, "weight of a private-colour die's pips"),
                ("public", 1.0, "weight of public objective progress"),
                ("dead", 2.0, "cost of each open space made unfillable"),
                ("restricted", 0.6, "bonus for placing on a restricted space"),
                ("token", 1.2, "value of a favor token kept"),
                ("tool_margin", 0.5, "extra gain a tool must bring beyond its cost"),
                ("win_tokens", 1.0, "window choice: weight of favor tokens"),
                ("win_restrict", 0.3, "window choice: cost per restricted space"),
                ("win_private", 0.8, "window choice: value per space of its private colour"),
                ("pass", -1.0, "pass rather than place a die worth less than this")]},
]

NEG = -1e18


# ---------------------------------------------------------------------------------------
# the score estimate
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def prep_nb(s, p, prep):
    """Per-decision summary of seat p's window: prep[0:4] row colour masks, [4:8] row value
    masks, [8:12] row dice; [12:17] column colour masks, [17:22] column value masks, [22:27]
    column dice; [27:32] dice per colour; [32:38] dice per value."""
    for k in range(38):
        prep[k] = 0
    for cell in range(N_CELLS):
        c = s.win_colour[p, cell]
        if c == NO_COLOUR:
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
def set_gain_nb(prep, base, size, mask, x, points):
    """Change of points * (full sets + share of kinds above the minimum) when kind x is added."""
    m = popcount_nb(mask)
    if m == 0 or (mask >> x) & 1 == 0:
        return 0.0
    lo = 1 << 30
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] < lo:
            lo = prep[base + k]
    above = 0
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] > lo:
            above += 1
    before = float(lo) + float(above) / float(m)
    prep[base + x] += 1
    lo2 = 1 << 30
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] < lo2:
            lo2 = prep[base + k]
    above2 = 0
    for k in range(size):
        if (mask >> k) & 1 and prep[base + k] > lo2:
            above2 += 1
    prep[base + x] -= 1
    after = float(lo2) + float(above2) / float(m)
    return float(points) * (after - before)


@njit(cache=True, error_model="numpy")
def is_dead_nb(s, p, cell):
    """An open space no die can ever fill: its colour (value) restriction is the colour
    (value) of an orthogonal neighbour. (A blank space always stays fillable: at most 4
    neighbours cannot block all 5 colours.)"""
    rc = s.restr_colour[p, cell]
    rv = s.restr_value[p, cell]
    for k in range(4):
        q = ORTH[cell, k]
        if q >= 0 and s.win_colour[p, q] != NO_COLOUR:
            if rc != NO_COLOUR and s.win_colour[p, q] == rc:
                return True
            if rv != NO_VALUE and s.win_value[p, q] == rv:
                return True
    return False


@njit(cache=True, error_model="numpy")
def value_nb(tables, s, p, prep, cell, c, v, params, planner):
    """Estimated worth of putting die (c, v) on `cell` of seat p's window."""
    val = params[P_FILL]
    for k in range(s.g[G_N_PRIVATE]):
        card = s.priv[p, k]
        if card >= 0 and tables.private_colour[card] == c:
            val += params[P_PRIVATE] * float(v)
            break
    r = cell // COLS
    col = cell % COLS
    pub = 0.0
    for k in range(s.g[G_N_PUBLIC]):
        o = s.public[k]
        kind = tables.public_kind[o]
        pts = tables.public_points[o]
        if kind == OBJ_ROW_COLOUR:
            pub += line_gain_nb(prep[r], prep[8 + r], c, COLS, pts)
        elif kind == OBJ_ROW_SHADE:
            pub += line_gain_nb(prep[4 + r], prep[8 + r], v, COLS, pts)
        elif kind == OBJ_COL_COLOUR:
            pub += line_gain_nb(prep[12 + col], prep[22 + col], c, ROWS, pts)
        elif kind == OBJ_COL_SHADE:
            pub += line_gain_nb(prep[17 + col], prep[22 + col], v, ROWS, pts)
        elif kind == OBJ_SHADE_SET:
            pub += set_gain_nb(prep, 32, N_VALUES, tables.public_mask[o], v - 1, pts)
        elif kind == OBJ_COLOUR_SET:
            pub += set_gain_nb(prep, 27, N_COLOURS, tables.public_mask[o], c, pts)
        elif kind == OBJ_COLOUR_DIAGONALS:
            for j in range(4):
                q = DIAG[cell, j]
                if q >= 0 and s.win_colour[p, q] == c:
                    pub += float(pts)
                    # the partner scores too if it had no same-colour diagonal yet
                    alone = True
                    for m in range(4):
                        w = DIAG[q, m]
                        if w >= 0 and w != cell and s.win_colour[p, w] == c:
                            alone = False
                            break
                    if alone:
                        pub += float(pts)
    val += params[P_PUBLIC] * pub
    if planner:
        if s.restr_colour[p, cell] != NO_COLOUR or s.restr_value[p, cell] != NO_VALUE:
            val += params[P_RESTRICTED]
        dead = 0
        for j in range(4):
            q = ORTH[cell, j]
            if q < 0 or s.win_colour[p, q] != NO_COLOUR or is_dead_nb(s, p, q):
                continue
            if s.restr_colour[p, q] == c or s.restr_value[p, q] == v:
                dead += 1
        val -= params[P_DEAD] * float(dead)
    return val


@njit(cache=True, error_model="numpy")
def best_cell_nb(tables, s, p, prep, c, v, mode, params, planner):
    """(best value, cell) for die (c, v) under placement `mode`; (NEG, -1) if none."""
    best = NEG
    best_cell = -1
    for cell in range(N_CELLS):
        if can_place_nb(s, p, cell, c, v, mode):
            x = value_nb(tables, s, p, prep, cell, c, v, params, planner)
            if x > best:
                best = x
                best_cell = cell
    return best, best_cell


@njit(cache=True, error_model="numpy")
def window_worth_nb(tables, s, p, params):
    """Planner: dead spaces (x P_DEAD) and public line progress of seat p's window, for
    valuing tool moves."""
    total = 0.0
    for cell in range(N_CELLS):
        if s.win_colour[p, cell] == NO_COLOUR and is_dead_nb(s, p, cell):
            total -= params[P_DEAD]
    return total


# ---------------------------------------------------------------------------------------
# decisions
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def choose_window_nb(tables, s, p, params, planner, options, n_options):
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        pat = options[i]
        v = float(tables.pattern_difficulty[pat])
        if planner:
            v *= params[P_WIN_TOKENS]
            for cell in range(N_CELLS):
                rc = tables.pattern_colour[pat, cell]
                if rc != NO_COLOUR or tables.pattern_value[pat, cell] != NO_VALUE:
                    v -= params[P_WIN_RESTRICT]
                if rc != NO_COLOUR:
                    for k in range(s.g[G_N_PRIVATE]):
                        card = s.priv[p, k]
                        if card >= 0 and tables.private_colour[card] == rc:
                            v += params[P_WIN_PRIVATE]
                            break
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def move_gain_nb(tables, s, p, code, mode, params):
    """Planner: the change in window worth (dead spaces) from a tool move."""
    before = window_worth_nb(tables, s, p, params)
    frm = code // N_CELLS
    to = code % N_CELLS
    c, v = lift_nb(s, p, frm)
    unlift_nb(s, p, to, c, v)
    after = window_worth_nb(tables, s, p, params)
    lift_nb(s, p, to)
    unlift_nb(s, p, frm, c, v)
    return after - before


@njit(cache=True, error_model="numpy")
def tool_gain_nb(tables, s, p, slot, payer, prep, best_plain, params, scratch):
    """Planner: what using tool `slot` now is worth compared with the plain best draft
    (best_plain), before its cost; NEG if the planner does not use this tool."""
    effect = tables.tool_effect[s.tools[slot]]
    n_pool = s.g[G_N_POOL]
    draft_free = s.g[G_DRAFTS_LEFT] > 0
    plain = best_plain if best_plain > NEG else 0.0
    best = NEG
    if effect == T_GROZING_PLIERS or effect == T_GRINDING_STONE or effect == T_CORK_BACKED or effect == T_FLUX_BRUSH:
        if not draft_free:
            return NEG
        for i in range(n_pool):
            if i == payer:
                continue
            c = s.pool_colour[i]
            v = s.pool_value[i]
            if effect == T_GROZING_PLIERS:
                if v > 1:
                    x, _ = best_cell_nb(tables, s, p, prep, c, v - 1, 0, params, True)
                    best = max(best, x)
                if v < N_VALUES:
                    x, _ = best_cell_nb(tables, s, p, prep, c, v + 1, 0, params, True)
                    best = max(best, x)
            elif effect == T_GRINDING_STONE:
                x, _ = best_cell_nb(tables, s, p, prep, c, 7 - v, 0, params, True)
                best = max(best, x)
            elif effect == T_CORK_BACKED:
                x, _ = best_cell_nb(tables, s, p, prep, c, v, M_NOT_ADJACENT, params, True)
                best = max(best, x)
            else:
                total = 0.0
                for w in range(1, N_VALUES + 1):
                    x, _ = best_cell_nb(tables, s, p, prep, c, w, 0, params, True)
                    total += x if x > NEG else 0.0
                best = max(best, total / N_VALUES)
        return best - plain if best > NEG else NEG
    if effect == T_LENS_CUTTER:
        if not draft_free:
            return NEG
        for k in range(s.g[G_N_TRACK]):
            x, _ = best_cell_nb(tables, s, p, prep, s.track_colour[k], s.track_value[k], 0, params, True)
            best = max(best, x)
        return best - plain if best > NEG else NEG
    if effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL or effect == T_LATHEKIN or effect == T_TAP_WHEEL:
        mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else (M_IGNORE_SHADE if effect == T_COPPER_FOIL else 0)
        filt = track_colours_nb(s) if effect == T_TAP_WHEEL else -1
        n = move_options_nb(s, p, mode, filt, -1, scratch, 0)
        for i in range(n):
            x = move_gain_nb(tables, s, p, scratch[i], mode, params)
            best = max(best, x)
        return best
    return NEG


@njit(cache=True, error_model="numpy")
def choose_action_nb(tables, s, p, params, planner, options, n_options, keep):
    prep = np.zeros(40, np.int64)
    prep_nb(s, p, prep)
    best_i = -1
    best_v = NEG
    end_i = n_options - 1
    for i in range(n_options):
        code = options[i]
        if code == OPT_END or code >= OPT_TOOL:
            continue
        d = code // N_CELLS
        cell = code % N_CELLS
        x = value_nb(tables, s, p, prep, cell, s.pool_colour[d], s.pool_value[d], params, planner)
        if x > best_v:
            best_v = x
            best_i = i
    if not planner:
        return best_i if best_i >= 0 else end_i
    # the planner: a tool when it pays
    scratch = np.empty(512, np.int64)
    solo = s.g[G_SOLO] == 1
    tool_i = -1
    tool_v = 0.0
    for i in range(n_options):
        code = options[i]
        if code == OPT_END or code < OPT_TOOL:
            continue
        slot = (code - OPT_TOOL) // OPT_TOOL_STRIDE
        payer = (code - OPT_TOOL) % OPT_TOOL_STRIDE
        if solo:
            cost = params[P_TOKEN]
        else:
            cost = params[P_TOKEN] * float(tool_cost_nb(tables, s, slot))
            payer = -1
        gain = tool_gain_nb(tables, s, p, slot, payer, prep, best_v if best_i >= 0 else NEG, params, scratch)
        if gain > NEG and gain - cost - params[P_TOOL_MARGIN] > tool_v:
            tool_v = gain - cost - params[P_TOOL_MARGIN]
            tool_i = i
    if tool_i >= 0:
        return tool_i
    if best_i >= 0 and best_v >= params[P_PASS]:
        return best_i
    return end_i


@njit(cache=True, error_model="numpy")
def choose_tool_nb(tables, s, p, effect, step, params, planner, options, n_options):
    """A tool's argument: the one whose outcome is worth most by the same estimate."""
    prep = np.zeros(40, np.int64)
    prep_nb(s, p, prep)
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        code = options[i]
        x = NEG
        if effect == T_GROZING_PLIERS:
            d = code // 2
            v = s.pool_value[d] + (1 if code % 2 == 1 else -1)
            x, _ = best_cell_nb(tables, s, p, prep, s.pool_colour[d], v, 0, params, planner)
        elif effect == T_GRINDING_STONE:
            x, _ = best_cell_nb(tables, s, p, prep, s.pool_colour[code], 7 - s.pool_value[code], 0, params, planner)
        elif effect == T_CORK_BACKED:
            x, _ = best_cell_nb(tables, s, p, prep, s.pool_colour[code], s.pool_value[code], M_NOT_ADJACENT, params, planner)
        elif effect == T_FLUX_BRUSH:
            total = 0.0
            for w in range(1, N_VALUES + 1):
                y, _ = best_cell_nb(tables, s, p, prep, s.pool_colour[code], w, 0, params, planner)
                total += y if y > NEG else 0.0
            x = total
        elif effect == T_LENS_CUTTER:
            k = code % MAX_TRACK
            x, _ = best_cell_nb(tables, s, p, prep, s.track_colour[k], s.track_value[k], 0, params, planner)
            # give away the pool die worth least to us
            d = code // MAX_TRACK
            y, _ = best_cell_nb(tables, s, p, prep, s.pool_colour[d], s.pool_value[d], 0, params, planner)
            x -= 0.01 * (y if y > NEG else 0.0)
        elif step == 1 and s.g[G_HELD_COLOUR] >= 0 and code >= 1 and code <= N_VALUES and (effect != T_LATHEKIN and effect != T_TAP_WHEEL):
            x, _ = best_cell_nb(tables, s, p, prep, s.g[G_HELD_COLOUR], code, 0, params, planner)
        elif code == OPT_END:
            x = 0.0
        elif effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL or effect == T_LATHEKIN or effect == T_TAP_WHEEL:
            mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else (M_IGNORE_SHADE if effect == T_COPPER_FOIL else 0)
            x = move_gain_nb(tables, s, p, code, mode, params) if planner else 0.0
        if x > best_v:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_place_nb(tables, s, p, mode, params, planner, options, n_options):
    prep = np.zeros(40, np.int64)
    prep_nb(s, p, prep)
    c = s.g[G_HELD_COLOUR]
    v = s.g[G_HELD_VALUE]
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        x = value_nb(tables, s, p, prep, options[i], c, v, params, planner)
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
        return choose_tool_nb(tables, s, seat, ctx[0], ctx[1], params, planner, options, n_options)
    return choose_place_nb(tables, s, seat, ctx[2], params, planner, options, n_options)


# The play loop calls `choose_nb`; runs with user strategies rebind this name (see play.py).
choose_nb = choose_builtin_nb
