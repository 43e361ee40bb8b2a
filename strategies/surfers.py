"""Heuristic players for Grand Surfers.

Every strategy has the signature

    choose(sid, params, tables, s, seat, decision, options, n_options, ctx, keep) -> int

and returns the index of the option it takes. Everything on the table is public. A seat's
dexterity is NOT a strategy parameter: it is the seat's flick spread, `[flick] spread` in the
component file (tables.skill[seat]); a strategy only chooses where to aim, and may read its
own spread (tables.aim_prob[seat]: where each aim lands) like a player knows their own hand.

decision  DEC_AIM / DEC_ACTION / DEC_MOVE / DEC_BOOST (option codes: see enums.py)
ctx       int64[CTX_LEN]: ctx[CTX_PIPS] the pips, ctx[CTX_HALF] 1 if the move is halved,
          ctx[CTX_LANDED] the wave cell landed in (-1 off), ctx[CTX_STEPS] cells of this move
          (DEC_MOVE), ctx[CTX_BOOSTED] the surfer being boosted (DEC_BOOST)
keep      float64[KEEP_LEN]: scratch; keep[MAX_OPTIONS + 4 + seat] caches the rider's slow aim
          for the game (it depends only on the sheet and the seat's own spread)
Randomness: the seat's own stream, randint_nb(s.streams, 1 + seat, n).

The built-ins share one evaluation of "where a surfer ends and what it does there"
(eval_dest_nb: lines gained, the beach, pushes and kills, boosts) and differ in weights. Every
built-in but random re-aims at every flick (choose_aim_nb): the aim whose landing chances
under the seat's OWN hand (tables.aim_kind[seat]) give the best expected worth of the turn in
the present state: the move kept or halved, the pips +/-1, a re-flick, the best arrow the cell
allows, each valued as the action choice values it. So a steady hand aims at a channel cell
when an arrow pays, and at a pips cell or a plain cell otherwise.
  racer    races: takes the action and the move that gain the most;
  blocker  values pushes and knock-outs, and arrows that send opponents down;
  builder  values upward arrows ahead of its own surfers;
  rider    races until the wave starts, then keeps a safe margin above it and slows down.
"""
import numpy as np
from numba import njit

from sim.rng import randint_nb
from sim.games.surfers.enums import (
    AIM_OFF, CTX_BOOSTED, CTX_HALF, CTX_PIPS, CTX_STEPS, DEC_ACTION, DEC_AIM, DEC_BOOST,
    DEC_MOVE, K_CIRCLE, K_TIDE, MAX_CELLS, MAX_COLS, MAX_OPTIONS, MAX_WAVE_COLS,
    NO_CELL, N_PIPS, OPT_CHANNEL, OPT_MINUS, OPT_NO_ACTION, OPT_PLUS, OPT_REFLICK,
    S_SEA, S_START, UP_BEACH, W_DOWN, W_EITHER, W_HALF, W_NONE, W_PIPS, W_UP,
)
from sim.games.surfers.enums import (BOOST_NO_RIDE, N_WAVE_KINDS, TIDE_OUT,
                                     UP_BLOCKED, W_NONE, W_PLAIN, W_REFLICK)
from sim.games.surfers.nb import (boost_returns_nb, landing_nb, makes_loop_nb, ride_end_nb,
                                  second_may_leave_nb, walk_up_nb)

from strategies.surfers_catalog import (  # noqa: F401  (ids, parameter slots, CATALOG)
    RANDOM, RACER, BLOCKER, BUILDER, RIDER, P_PROGRESS, P_BEACH, P_PUSH, P_KILL, P_OWN_CHAN,
    P_HOSTILE, P_REAR, P_PATIENCE, P_MARGIN, N_PARAMS, CATALOG,
)

NEG = -1e18


# ---------------------------------------------------------------------------------------
# evaluation
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def height0_nb(s, who):
    st = s.status[who]
    if st == S_SEA:
        return s.cell[who] // MAX_COLS
    return -1


@njit(cache=True, error_model="numpy")
def projected_finish_nb(tables, s, who):
    """The score a surfer arriving now can expect to keep: each later arrival pushes it one
    finish cell down, so count the other surfers still on the sea clear of the wave (at least
    3 lines above it) as later arrivals."""
    later = 0
    wave = s.wave
    for o in range(2 * s.n_players):
        if o != who and s.status[o] == S_SEA and s.cell[o] // MAX_COLS >= wave + 3:
            later += 1
    k = later if later < tables.n_finish else tables.n_finish - 1
    return tables.finish_score[k]


@njit(cache=True, error_model="numpy")
def eval_dest_nb(tables, s, p, who, h0, dest, params):
    """Value for seat p of its surfer `who` (from height h0) ending a move at `dest` (a cell
    or UP_BEACH), after riding any channel there: lines gained, the beach, and what it does
    to the surfer on the circle it stops on (push / kill an opponent, boost its partner)."""
    if dest == UP_BEACH:
        return params[P_PROGRESS] * float(tables.n_lines - h0) + params[P_BEACH] \
            + float(projected_finish_nb(tables, s, who))
    end = dest
    if s.chan[dest] >= 0:
        end, _ = ride_end_nb(s, dest)
    return eval_end_nb(tables, s, p, who, h0, end, params)


@njit(cache=True, error_model="numpy")
def eval_end_nb(tables, s, p, who, h0, end, params):
    """eval_dest_nb once the rides are done: the surfer stops on sea cell `end`."""
    if tables.cell_kind[end] == K_TIDE and tables.tide_on_move == TIDE_OUT:
        return -params[P_KILL] - params[P_PROGRESS] * float(h0 + 1)   # the surfer is lost
    w = params[P_PROGRESS]
    if s.fastest >= 0 and float(h0 - s.wave) > params[P_MARGIN]:
        w *= 1.0 - params[P_PATIENCE]   # safe from the wave: no hurry
    v = w * float(end // MAX_COLS - h0)
    if tables.cell_kind[end] == K_CIRCLE:
        o = s.occ[end]
        if o >= 0 and o != who:
            if o // 2 == p:
                v += params[P_PROGRESS] * 1.5       # a boost of 1-2 cells
            else:
                b = tables.below[end]
                if (b == NO_CELL and s.wave > 0) or (b != NO_CELL and (
                        tables.cell_kind[b] == K_TIDE or b // MAX_COLS < s.wave)):
                    v += params[P_KILL]
                else:
                    v += params[P_PUSH]
    return v


@njit(cache=True, error_model="numpy")
def move_value_nb(tables, s, p, code, steps, params):
    k = code // MAX_COLS
    col = code % MAX_COLS
    who = 2 * p + k
    h0 = height0_nb(s, who)
    dest = landing_nb(tables, s, who, col, steps)
    v = eval_dest_nb(tables, s, p, who, h0, dest, params)
    # the surfer nearest the wave is in danger once the wave moves
    danger = 4 - (h0 - s.wave)
    if danger > 0:
        v += params[P_REAR] * float(danger)
    return v


@njit(cache=True, error_model="numpy")
def best_move_nb(tables, s, p, steps, params):
    """(value, index into a fresh list of move codes) of seat p's best move of `steps`."""
    if steps <= 0:
        return 0.0
    best = NEG
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_SEA:
            x = move_value_nb(tables, s, p, k * MAX_COLS + s.cell[who] % MAX_COLS, steps, params)
            if x > best:
                best = x
        elif st == S_START:
            if k == 1 and not second_may_leave_nb(tables, s, p):
                continue
            for col in range(tables.n_cols):
                if tables.col_first[col] >= 0:
                    x = move_value_nb(tables, s, p, k * MAX_COLS + col, steps, params)
                    if x > best:
                        best = x
    return best if best > NEG else 0.0


@njit(cache=True, error_model="numpy")
def steps_of(pips, half):
    return pips // 2 if half else pips


@njit(cache=True, error_model="numpy")
def arrow_base_nb(tables, s, p, a, params):
    """The part of an arrow's value that does not depend on this turn's move (the arrow a ->
    s.chan[a] is in place): the immediate ride of a surfer standing on a, the arrow's future
    use by surfers below it in its column, a small bonus for any upward arrow."""
    end, _ = ride_end_nb(s, a)
    dy = float(end // MAX_COLS - a // MAX_COLS)
    v = 0.0
    o = s.occ[a]
    if o >= 0 and s.no_ride[o] == 0:
        if o // 2 == p:
            v += params[P_PROGRESS] * dy
        else:
            v -= params[P_HOSTILE] * dy
    col = a % MAX_COLS
    la = a // MAX_COLS
    n_surf = s.status.shape[0]
    for who in range(n_surf):
        if s.status[who] != S_SEA or who == o:
            continue
        c = s.cell[who]
        d = la - c // MAX_COLS
        if c % MAX_COLS == col and d >= 1 and d <= N_PIPS:
            if who // 2 == p:
                v += params[P_OWN_CHAN] * dy / 6.0
            else:
                v -= params[P_HOSTILE] * dy / 6.0
    if dy > 0:
        v += 0.05 * params[P_OWN_CHAN] * dy   # an upward arrow helps whoever comes later
    return v


@njit(cache=True, error_model="numpy")
def channel_value_nb(tables, s, p, a, b, steps, params):
    """Value of drawing a -> b now: arrow_base_nb plus the best move with the arrow in place."""
    s.chan[a] = b
    v = arrow_base_nb(tables, s, p, a, params) + best_move_nb(tables, s, p, steps, params)
    s.chan[a] = -1
    return v


# ---------------------------------------------------------------------------------------
# aiming: the expected worth of a flick, re-computed for every flick
# ---------------------------------------------------------------------------------------
MAX_MOVES = 2 * MAX_COLS      # move options of one seat at most (two surfers x every column)


@njit(cache=True, error_model="numpy")
def fill_moves_nb(tables, s, p, params, mv_val, mv_end, mv_code, n_moves, bm):
    """Every move seat p may make (as move_options_nb lists them) for every number of cells
    q = 1..6 at once, each surfer walked up its column once: row q of mv_val / mv_end / mv_code
    holds each move's value (move_value_nb's, operation for operation), where it stops after its
    rides (-1: the beach) and its code; bm[q] = the best value (0 if none, like best_move_nb)."""
    for q in range(N_PIPS + 1):
        n_moves[q] = 0
        bm[q] = NEG
    wave = s.wave
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_SEA:
            c0 = s.cell[who] % MAX_COLS
            c1 = c0 + 1
        elif st == S_START and (k == 0 or second_may_leave_nb(tables, s, p)):
            c0 = 0
            c1 = tables.n_cols
        else:
            continue
        h0 = height0_nb(s, who)
        extra = 0.0
        danger = 4 - (h0 - wave)        # as move_value_nb: the surfer nearest the wave
        if danger > 0:
            extra = params[P_REAR] * float(danger)
        beach_v = eval_dest_nb(tables, s, p, who, h0, UP_BEACH, params) + extra
        for col in range(c0, c1):
            if st == S_START and tables.col_first[col] < 0:
                continue
            code = k * MAX_COLS + col
            cur = s.cell[who]
            started = st == S_SEA
            beach = False
            for q in range(1, N_PIPS + 1):
                if not beach:
                    if not started:
                        cur = tables.col_first[col]
                        started = True
                    else:
                        nxt = tables.up[cur]
                        if nxt == UP_BEACH:
                            beach = True
                        elif nxt != UP_BLOCKED:
                            cur = nxt
                m = n_moves[q]
                if beach:
                    v = beach_v
                    mv_end[q, m] = -1
                else:
                    end = cur
                    if s.chan[cur] >= 0:
                        end, _ = ride_end_nb(s, cur)
                    v = eval_end_nb(tables, s, p, who, h0, end, params) + extra
                    mv_end[q, m] = end
                mv_val[q, m] = v
                mv_code[q, m] = code
                n_moves[q] = m + 1
                if v > bm[q]:
                    bm[q] = v
    bm[0] = 0.0
    for q in range(1, N_PIPS + 1):
        if n_moves[q] == 0:
            bm[q] = 0.0


@njit(cache=True, error_model="numpy")
def arrow_coef_nb(tables, s, p, params, coef):
    """arrow_base_nb is linear in the lines an arrow out of `a` carries a surfer (dy): coef[a]
    = its factor from the surfer standing on a and the surfers below a in its column (the
    upward bonus apart), for every cell at once."""
    for c in range(tables.n_lines * MAX_COLS):
        coef[c] = 0.0
    n_surf = s.status.shape[0]
    for who in range(n_surf):
        if s.status[who] != S_SEA:
            continue
        c = s.cell[who]
        own = who // 2 == p
        if s.occ[c] == who and s.no_ride[who] == 0:
            coef[c] += params[P_PROGRESS] if own else -params[P_HOSTILE]
        for d in range(1, N_PIPS + 1):     # the cells 1..6 lines above it in its column
            a = c + d * MAX_COLS
            if a >= tables.n_lines * MAX_COLS:
                break
            coef[a] += params[P_OWN_CHAN] / 6.0 if own else -params[P_HOSTILE] / 6.0


@njit(cache=True, error_model="numpy")
def kind_values_nb(tables, s, p, params, vk):
    """vk[k]: the expected worth of landing in a wave cell of kind k (W_*; vk[W_NONE] = off
    the sheet), over the pips (the file's pip weights), with the best action there valued as
    choose_action_nb values it: the move (halved on 'h' and off the sheet), the pips +/-1, a
    re-flick, every legal arrow the cell allows (channel_value_nb, computed arrow by arrow
    once for all pips: arrow_base_nb through arrow_coef_nb, and only the moves that stopped on
    the arrow's start re-valued)."""
    # two scratch buffers (rows are views), not a dozen small arrays: this runs every flick
    fbuf = np.empty((2 * N_PIPS + 8, MAX_CELLS))
    ibuf = np.empty((2 * N_PIPS + 8, MAX_CELLS), np.int64)
    mv_val = fbuf[0:N_PIPS + 1]
    mv_end = ibuf[0:N_PIPS + 1]
    mv_code = ibuf[N_PIPS + 1:2 * N_PIPS + 2]
    bm = fbuf[N_PIPS + 1]
    wp = fbuf[N_PIPS + 2]
    second = fbuf[N_PIPS + 3]
    best_up = fbuf[N_PIPS + 4]
    best_dn = fbuf[N_PIPS + 5]
    extrak = fbuf[N_PIPS + 6]
    coef = fbuf[N_PIPS + 7]
    n_moves = ibuf[2 * N_PIPS + 2]
    top_end = ibuf[2 * N_PIPS + 3]
    h0k = ibuf[2 * N_PIPS + 4]
    ends = ibuf[2 * N_PIPS + 5]
    fill_moves_nb(tables, s, p, params, mv_val, mv_end, mv_code, n_moves, bm)
    best_elsewhere_nb(mv_val, mv_end, n_moves, bm, top_end, second)
    surfer_figures_nb(s, p, params, h0k, extrak)
    pip_weights_nb(tables, wp)
    action_values_nb(tables, wp, bm, vk)
    arrow_coef_nb(tables, s, p, params, coef)
    move_stops_nb(tables, mv_end, mv_code, n_moves, ends)
    best_arrows_nb(tables, s, p, params, bm, coef, ends, top_end, second, h0k, extrak,
                   best_up, best_dn)
    up = 0.0
    down = 0.0
    either = 0.0
    for q in range(1, N_PIPS + 1):
        up += wp[q] * best_up[q]
        down += wp[q] * best_dn[q]
        either += wp[q] * (best_up[q] if best_up[q] > best_dn[q] else best_dn[q])
    vk[W_UP] = up
    vk[W_DOWN] = down
    vk[W_EITHER] = either


@njit(cache=True, error_model="numpy")
def best_elsewhere_nb(mv_val, mv_end, n_moves, bm, top_end, second):
    """For an arrow out of a move's stop, the best of the other moves (those not stopping on
    it) is bm[q], unless the best move stops there: top_end[q] = where the (first) best move
    of q pips stops (-2 none), second[q] = the best move of q pips stopping elsewhere."""
    for q in range(N_PIPS + 1):
        top_end[q] = -2
        second[q] = NEG
    for q in range(1, N_PIPS + 1):
        for m in range(n_moves[q]):
            if mv_val[q, m] == bm[q] and top_end[q] == -2:
                top_end[q] = mv_end[q, m]
        for m in range(n_moves[q]):
            if mv_end[q, m] != top_end[q] and mv_val[q, m] > second[q]:
                second[q] = mv_val[q, m]


@njit(cache=True, error_model="numpy")
def surfer_figures_nb(s, p, params, h0k, extrak):
    """Seat p's surfers' own figures, as move_value_nb computes them: h0k[k] the height of
    surfer k, extrak[k] the bonus for getting it away from the wave (params P_REAR)."""
    for k in range(2):
        extrak[k] = 0.0
        h0k[k] = height0_nb(s, 2 * p + k)
        danger = 4 - (h0k[k] - s.wave)
        if danger > 0:
            extrak[k] = params[P_REAR] * float(danger)


@njit(cache=True, error_model="numpy")
def pip_weights_nb(tables, wp):
    """wp[q]: the chance of q pips (the file's pip weights); wp[0] = 0."""
    wp[0] = 0.0
    for q in range(1, N_PIPS + 1):
        wp[q] = tables.pip_cum[q - 1] - (tables.pip_cum[q - 2] if q >= 2 else 0.0)


@njit(cache=True, error_model="numpy")
def action_values_nb(tables, wp, bm, vk):
    """vk of the cells without a channel: plain (the best move), half (the move halved, and
    off the sheet), pips (the best of q and q +/- pips_change), re-flick (the best move or
    choose_action_nb's estimate of flicking again, 0.9 of a plain cell)."""
    d = tables.pips_change
    plain = 0.0
    for q in range(1, N_PIPS + 1):
        plain += wp[q] * bm[q]
    again = 0.9 * plain
    half = 0.0
    pips = 0.0
    reflick = 0.0
    for q in range(1, N_PIPS + 1):
        half += wp[q] * bm[q // 2]
        x = bm[q]
        if q + d <= N_PIPS and bm[q + d] > x:
            x = bm[q + d]
        if q - d >= 1 and bm[q - d] > x:
            x = bm[q - d]
        pips += wp[q] * x
        reflick += wp[q] * (bm[q] if bm[q] > again else again)
    vk[W_NONE] = half
    vk[W_PLAIN] = plain
    vk[W_HALF] = half
    vk[W_PIPS] = pips
    vk[W_REFLICK] = reflick


@njit(cache=True, error_model="numpy")
def move_stops_nb(tables, mv_end, mv_code, n_moves, ends):
    """ends[c], bit q + 8k: a move of q cells of surfer k stops on cell c."""
    for c in range(tables.n_lines * MAX_COLS):
        ends[c] = 0
    for q in range(1, N_PIPS + 1):
        for m in range(n_moves[q]):
            if mv_end[q, m] >= 0:
                ends[mv_end[q, m]] |= 1 << (q + 8 * (mv_code[q, m] // MAX_COLS))


@njit(cache=True, error_model="numpy")
def best_arrows_nb(tables, s, p, params, bm, coef, ends, top_end, second, h0k, extrak,
                   best_up, best_dn):
    """best_up[q] / best_dn[q]: the best of "no action" (bm[q]) and every legal arrow up /
    down a channel cell allows with q pips (an arrow from or to a line printed q): the
    arrow's base value plus the best move with it in place (the moves that stopped on its
    start ride on; the others keep their value)."""
    up_bonus = 0.05 * params[P_OWN_CHAN]
    for q in range(N_PIPS + 1):
        best_up[q] = bm[q]
        best_dn[q] = bm[q]
    wave = s.wave
    chan = s.chan               # (local views: the loop below is the hot spot of a game)
    labels = tables.line_label
    arrows = tables.arrows
    for i in range(tables.n_arrows):
        a = arrows[i, 0]
        b = arrows[i, 1]
        la = a // MAX_COLS
        lb = b // MAX_COLS
        if la < wave or lb < wave or chan[a] >= 0:
            continue
        qa = labels[la]
        qb = labels[lb]
        dl = lb - la
        end = b
        if chan[b] >= 0:
            if makes_loop_nb(s, a, b):
                continue
            end, _ = ride_end_nb(s, b)
        dy = float(end // MAX_COLS - la)
        base = dy * (coef[a] + (up_bonus if dy > 0 else 0.0))
        for j in range(2):
            q = qa if j == 0 else qb
            if q < 1 or q > N_PIPS or (j == 1 and qb == qa):
                continue
            hit = (ends[a] >> q) & 0x101
            if hit == 0:
                v = base + bm[q]
            else:
                # with the arrow, the moves that stopped on a ride on to `end`:
                # their value is the surfer's eval there (move_value_nb's sum)
                x = bm[q] if top_end[q] != a else second[q]
                for k in range(2):
                    if (hit >> (8 * k)) & 1:
                        y = eval_end_nb(tables, s, p, 2 * p + k, h0k[k], end,
                                        params) + extrak[k]
                        if y > x:
                            x = y
                v = base + x
            if dl == 1:
                if v > best_up[q]:
                    best_up[q] = v
            elif v > best_dn[q]:
                best_dn[q] = v


# ---------------------------------------------------------------------------------------
# decisions
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def hurry_nb(s, p, params):
    """Rider: hurry before the wave starts, or when one of its surfers still in the race is
    within the margin of the wave."""
    if s.fastest < 0:
        return True
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_START:
            return True
        if st == S_SEA and float(s.cell[who] // MAX_COLS - s.wave) <= params[P_MARGIN]:
            return True
    return False


@njit(cache=True, error_model="numpy")
def slow_aim_nb(tables, s, p, params, options, n_options, keep):
    """Rider's slow aim: the most likely 1/2 cell or pips cell (pips -1), cached per game."""
    slot = MAX_OPTIONS + 4 + p
    if keep[slot] > 0.0:
        return int(keep[slot]) - 1
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        aim = options[i]
        v = tables.aim_prob[p, aim, AIM_OFF]
        for r in range(tables.wave_rows):
            for c in range(tables.wave_cols):
                w = r * MAX_WAVE_COLS + c
                kind = tables.wave_kind[w]
                if kind == W_HALF:
                    v += tables.aim_prob[p, aim, w]
                elif kind == W_PIPS:
                    v += 0.5 * tables.aim_prob[p, aim, w]
        if v > best_v:
            best_v = v
            best_i = i
    keep[slot] = float(best_i + 1)
    return best_i


@njit(cache=True, error_model="numpy")
def choose_aim_nb(tables, s, p, params, options, n_options, keep):
    """Re-aimed at every flick: the aim with the best expected worth under the seat's own
    hand, sum over the kinds of cell it may land in of P(land there | aim) (tables.aim_kind,
    from the seat's own spread) x the worth of landing there in the present state
    (kind_values_nb). Ties: the first aim listed."""
    vk = np.zeros(N_WAVE_KINDS)
    kind_values_nb(tables, s, p, params, vk)
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        aim = options[i]
        v = 0.0
        for k in range(N_WAVE_KINDS):
            v += tables.aim_kind[p, aim, k] * vk[k]
        if v > best_v + 1e-12:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_action_nb(tables, s, p, params, options, n_options, ctx):
    pips = ctx[CTX_PIPS]
    half = ctx[CTX_HALF] == 1
    d = tables.pips_change
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        code = options[i]
        if code == OPT_NO_ACTION:
            x = best_move_nb(tables, s, p, steps_of(pips, half), params)
        elif code == OPT_PLUS:
            x = best_move_nb(tables, s, p, steps_of(pips + d, half), params)
        elif code == OPT_MINUS:
            x = best_move_nb(tables, s, p, steps_of(pips - d, half), params)
        elif code == OPT_REFLICK:
            total = 0.0
            for q in range(1, N_PIPS + 1):
                wq = tables.pip_cum[q - 1] - (tables.pip_cum[q - 2] if q >= 2 else 0.0)
                total += wq * best_move_nb(tables, s, p, q, params)
            x = 0.9 * total
        else:
            a = (code - OPT_CHANNEL) // MAX_CELLS
            b = (code - OPT_CHANNEL) % MAX_CELLS
            x = channel_value_nb(tables, s, p, a, b, steps_of(pips, half), params)
        if x > best_v + 1e-12:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_move_nb(tables, s, p, params, options, n_options, ctx):
    steps = ctx[CTX_STEPS]
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        x = move_value_nb(tables, s, p, options[i], steps, params)
        if x > best_v:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_boost_nb(tables, s, p, params, options, n_options, ctx):
    """The boost distance worth most; never one that rides back onto the cell the boost left
    (a loop, possible under rules.boost_loop = guard_push) while another distance exists."""
    who = ctx[CTX_BOOSTED]
    c = s.cell[who]
    h0 = c // MAX_COLS
    best_i = 0
    best_v = NEG
    for i in range(n_options):
        opt = options[i]
        dest = walk_up_nb(tables, c, opt % BOOST_NO_RIDE)
        if dest == UP_BEACH:
            x = eval_dest_nb(tables, s, p, who, h0, dest, params)
        elif opt >= BOOST_NO_RIDE:
            x = eval_end_nb(tables, s, p, who, h0, dest, params)
        elif boost_returns_nb(s, dest, c):
            x = NEG / 2.0       # a loop: only if nothing else is left
        else:
            x = eval_dest_nb(tables, s, p, who, h0, dest, params)
        if x > best_v:
            best_v = x
            best_i = i
    return best_i


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Dispatch to a built-in strategy by id."""
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if decision == DEC_AIM:
        if sid == RIDER and not hurry_nb(s, seat, params):
            return slow_aim_nb(tables, s, seat, params, options, n_options, keep)
        return choose_aim_nb(tables, s, seat, params, options, n_options, keep)
    if n_options == 1:
        return 0
    if decision == DEC_ACTION:
        return choose_action_nb(tables, s, seat, params, options, n_options, ctx)
    if decision == DEC_MOVE:
        return choose_move_nb(tables, s, seat, params, options, n_options, ctx)
    return choose_boost_nb(tables, s, seat, params, options, n_options, ctx)
