"""Grand Surfers: the rules, as pure compiled functions over a `STATE_DTYPE` record.

Each function is one rule (or one piece of bookkeeping); docs/games/grand-surfers.md maps
every rule of the rulebook to its function. Nothing here calls a strategy: the forward model
(model.py) lists the legal options enumerated here (`*_options_nb`) for the harness, which asks
a strategy, and applies the choice with the `apply_*` functions here. Decisions a rule needs in
the middle (the distance of a boost) are returned to model.py as "the surfer to boost", never
decided here.

Surfer ids: seat * 2 + k, k = 0 the first surfer (the one that leaves the start first), k = 1
the second. Lines are 0-based from the start (line index 2 is the rulebook's third line).
"""
import math

import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.outcomes import ranks_and_win_shares_nb
from sim.rng import CHANCE, init_streams_nb, uniform_nb
from sim.games.surfers.enums import (
    BOOST_ARRIVING, BOOST_NO_RIDE, CHK_CIRCLE, CHK_FINISH, CHK_LOOP, CHK_PLACE, END_TURN_LIMIT,
    END_WAVE, EV_BOOST, EV_END, EV_FASTEST, EV_FINISH, EV_FOLD, EV_MOVE, EV_PUSH, EV_REMOVED,
    EV_RIDE, K_CIRCLE, K_NONE, K_TIDE, LOOP_NO_REVISIT, MAX_CELLS, MAX_COLS, MAX_FINISH,
    MAX_PLAYERS, MAX_WAVE_COLS, N_PIPS, NO_CELL, OPT_CHANNEL, OPT_MINUS, OPT_NO_ACTION, OPT_PLUS,
    OPT_REFLICK, S_BEACH, S_SEA, S_START, S_TIDE, S_WAVE, SECOND_ON_OR_ABOVE, STATE_DTYPE,
    TIDE_OUT, UP_BEACH, UP_BLOCKED, W_DOWN, W_EITHER, W_HALF, W_NONE, W_PIPS, W_REFLICK, W_UP,
)

PTS_FASTEST, PTS_DUO, PTS_CELLS = range(3)
N_PTS = 3
TWO_PI = 2.0 * math.pi


# ---------------------------------------------------------------------------------------
# state and trace
# ---------------------------------------------------------------------------------------
def new_state():
    """A game record for the kernels: a 1-element STATE_DTYPE recarray owned by the caller."""
    return np.zeros(1, STATE_DTYPE).view(np.recarray)


@njit(cache=True, error_model="numpy")
def line_of_nb(cell):
    return cell // MAX_COLS


@njit(cache=True, error_model="numpy")
def height_nb(tables, s, who):
    """How far up a surfer is: -1 at the start, its line on the sea, n_lines on the beach,
    -2 if removed."""
    st = s.status[who]
    if st == S_SEA:
        return s.cell[who] // MAX_COLS
    if st == S_START:
        return -1
    if st == S_BEACH:
        return tables.n_lines
    return -2


# ---------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed):
    """Set-up: every surfer at the start, the pre-drawn channels of the sheet, no wave, no
    marker. Seat 0 plays first (the rulebook: whoever folded the wave sheet)."""
    s.n_players = n_players
    s.turn = 0
    s.seat = 0
    s.wave = 0
    s.fastest = -1
    s.fastest_pending = -1
    s.fastest_turn = -1
    s.over = 0
    s.end_reason = 0
    s.arrivals = 0
    s.folds = 0
    init_streams_nb(s.streams, game_seed)
    for i in range(s.status.shape[0]):
        s.status[i] = S_START
        s.cell[i] = -1
        s.slot[i] = -1
        s.no_ride[i] = 0
        s.left_start[i] = 0
    for c in range(MAX_CELLS):
        s.occ[c] = -1
        s.chan[c] = -1
        s.chan_by[c] = -1
    for k in range(MAX_FINISH):
        s.finish[k] = -1
    clear_counters_nb(s)
    for i in range(tables.n_channels):
        s.chan[tables.channels[i, 0]] = tables.channels[i, 1]


@njit(cache=True, error_model="numpy")
def clear_counters_nb(s):
    """Every per-seat counter (enums.SEAT_COUNTERS) back to 0."""
    for p in range(MAX_PLAYERS):
        s.seat_turns[p] = 0
        s.flicks[p] = 0
        s.short_flicks[p] = 0
        s.off_sheet[p] = 0
        s.aim_hits[p] = 0
        s.action_cells[p] = 0
        s.half_moves[p] = 0
        s.plus[p] = 0
        s.minus[p] = 0
        s.reflicks[p] = 0
        s.channels_up[p] = 0
        s.channels_down[p] = 0
        s.rides_given[p] = 0
        s.moves[p] = 0
        s.passes[p] = 0
        s.progress[p] = 0
        s.pushes[p] = 0
        s.pushed[p] = 0
        s.kills[p] = 0
        s.boosts[p] = 0
        s.rides[p] = 0
        s.boost_loops[p] = 0


# ---------------------------------------------------------------------------------------
# the flick model
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def normal_nb(streams):
    """A standard normal draw from the chance stream (Box-Muller, two uniforms)."""
    u1 = uniform_nb(streams, CHANCE)
    u2 = uniform_nb(streams, CHANCE)
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(TWO_PI * u2)


@njit(cache=True, error_model="numpy")
def flick_nb(tables, s, p, aim):
    """Flick the die at the centre of wave cell `aim`. The landing point is the aim plus
    normal noise: sd along the distance = spread * (noise[0] + noise[1] * aimed distance),
    sideways = spread * (noise[2] + noise[3] * aimed distance), spread = the seat's skill
    setting (0 = lands exactly on the aim). A flick that does not cross the start line
    (distance < 0) does not count and is flicked again (at most tables.max_short_flicks times, then it
    counts as off the sheet). Returns the wave cell landed in, -1 off the sheet (beyond the
    last row, beyond either side, or in a hole '#'). Always draws 4 uniforms per try."""
    r = aim // MAX_WAVE_COLS
    c = aim % MAX_WAVE_COLS
    cy = float(r) + 0.5
    cx = float(c) + 0.5
    sk = tables.skill[p]
    sdy = sk * (tables.noise[0] + tables.noise[1] * cy)
    sdx = sk * (tables.noise[2] + tables.noise[3] * cy)
    retries = 0
    y = cy
    x = cx
    while True:
        zy = normal_nb(s.streams)
        zx = normal_nb(s.streams)
        y = cy + sdy * zy
        x = cx + sdx * zx
        if y >= 0.0:
            break
        retries += 1
        s.short_flicks[p] += 1
        if retries >= tables.max_short_flicks:
            return -1
    if y >= float(tables.wave_rows) or x < 0.0 or x >= float(tables.wave_cols):
        return -1
    cell = int(y) * MAX_WAVE_COLS + int(x)
    if tables.wave_kind[cell] == W_NONE:
        return -1
    return cell


@njit(cache=True, error_model="numpy")
def flick_hits_nb(tables, s, p, aim, n):
    """Flick n times at `aim` with seat p's hand (the chance stream of `s`): how many land in
    the aimed cell. The engine's own draws, for `balance calibrate` and its tests."""
    hits = 0
    for _ in range(n):
        if flick_nb(tables, s, p, aim) == aim:
            hits += 1
    return hits


@njit(cache=True, error_model="numpy")
def draw_pips_nb(tables, s):
    """The face seen from the start line: 1..6 with the file's pip weights (uniform by default)."""
    u = uniform_nb(s.streams, CHANCE)
    for k in range(N_PIPS):
        if u < tables.pip_cum[k]:
            return k + 1
    return N_PIPS


@njit(cache=True, error_model="numpy")
def is_half_nb(tables, landed):
    """Off the sheet or in a 1/2 cell: the move is halved (rounded down)."""
    return landed < 0 or tables.wave_kind[landed] == W_HALF


@njit(cache=True, error_model="numpy")
def aim_options_nb(tables, options):
    """Every wave cell (holes excluded) can be aimed at."""
    n = 0
    for r in range(tables.wave_rows):
        for c in range(tables.wave_cols):
            w = r * MAX_WAVE_COLS + c
            if tables.wave_kind[w] != W_NONE:
                options[n] = w
                n += 1
    return n


# ---------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def makes_loop_nb(s, a, b):
    """Would the arrow a -> b close a loop (does following the arrows from b reach a)?"""
    c = b
    for _ in range(MAX_CELLS + 1):
        if c == a:
            return True
        c = s.chan[c]
        if c < 0:
            return False
    return True


@njit(cache=True, error_model="numpy")
def channel_options_nb(tables, s, up, down, pips, options, n):
    """Arrows that may be drawn (the channel rules): from a circle to a circle on the next line
    (up or down as the cell allows), at most one column sideways; the arrow's start or end is
    on a line numbered `pips`; its start cell has no outgoing arrow yet; it closes no loop;
    neither end is under the wave. Codes OPT_CHANNEL + from * MAX_CELLS + to, appended at n."""
    return scan_channels_nb(tables, s, up, down, pips, options, n, False)


@njit(cache=True, error_model="numpy")
def scan_channels_nb(tables, s, up, down, pips, options, n, first_only):
    """channel_options_nb's rule; with first_only it stops at the first legal arrow and returns
    n + 1 without writing `options` (the forward model asks only whether a choice exists)."""
    wave = s.wave
    for la in range(wave, tables.n_lines):
        for ca in range(tables.n_cols):
            a = la * MAX_COLS + ca
            if tables.cell_kind[a] != K_CIRCLE or s.chan[a] >= 0:
                continue
            for d in (1, -1):
                if (d == 1 and not up) or (d == -1 and not down):
                    continue
                lb = la + d
                if lb < wave or lb >= tables.n_lines:
                    continue
                if tables.line_label[la] != pips and tables.line_label[lb] != pips:
                    continue
                for dc in (-1, 0, 1):
                    cb = ca + dc
                    if cb < 0 or cb >= tables.n_cols:
                        continue
                    b = lb * MAX_COLS + cb
                    if tables.cell_kind[b] != K_CIRCLE or makes_loop_nb(s, a, b):
                        continue
                    if first_only:
                        return n + 1
                    options[n] = OPT_CHANNEL + a * MAX_CELLS + b
                    n += 1
    return n


@njit(cache=True, error_model="numpy")
def action_options_nb(tables, s, landed, pips, n_reflicks, options):
    """The landed cell's action, always optional: option 0 is OPT_NO_ACTION; '+' cells add
    OPT_PLUS / OPT_MINUS when the result stays 1..6; 'R' cells OPT_REFLICK (while the per-turn
    guard allows); 'U' / 'D' / 'X' cells every legal arrow in their direction."""
    options[0] = OPT_NO_ACTION
    n = 1
    if landed < 0:
        return n
    kind = tables.wave_kind[landed]
    if kind == W_PIPS:
        d = tables.pips_change
        if pips + d <= N_PIPS:
            options[n] = OPT_PLUS
            n += 1
        if pips - d >= 1:
            options[n] = OPT_MINUS
            n += 1
    elif kind == W_REFLICK:
        if n_reflicks < tables.max_reflicks:
            options[n] = OPT_REFLICK
            n += 1
    elif kind == W_UP or kind == W_DOWN or kind == W_EITHER:
        n = channel_options_nb(tables, s, kind != W_DOWN, kind != W_UP, pips, options, n)
    return n


@njit(cache=True, error_model="numpy")
def has_action_nb(tables, s, landed, pips, n_reflicks):
    """Does the landed cell offer an action besides OPT_NO_ACTION (action_options_nb would list
    2 or more options)? Only then is the action a decision: no strategy is asked when "no
    action" is the only option (asking could not change the game, and would count a choice)."""
    if landed < 0:
        return False
    kind = tables.wave_kind[landed]
    if kind == W_PIPS:
        d = tables.pips_change
        return pips + d <= N_PIPS or pips - d >= 1
    if kind == W_REFLICK:
        return n_reflicks < tables.max_reflicks
    if kind == W_UP or kind == W_DOWN or kind == W_EITHER:
        none = np.empty(0, np.int64)    # never written with first_only
        return scan_channels_nb(tables, s, kind != W_DOWN, kind != W_UP, pips, none, 0, True) > 0
    return False


@njit(cache=True, error_model="numpy")
def apply_pips_nb(tables, s, p, code, pips):
    """Pips +1 / -1: the new pips."""
    d = tables.pips_change
    if code == OPT_PLUS:
        s.plus[p] += 1
        return pips + d
    s.minus[p] += 1
    return pips - d


@njit(cache=True, error_model="numpy")
def apply_channel_nb(tables, s, p, code, trace, tn):
    """Draw the arrow; a surfer standing on its start rides it at once (unless it was pushed
    and has not moved since), and its stop is resolved (push / boost). Returns the surfer to
    boost (-1 none), to be decided by its owner."""
    a = (code - OPT_CHANNEL) // MAX_CELLS
    b = (code - OPT_CHANNEL) % MAX_CELLS
    s.chan[a] = b
    s.chan_by[a] = p
    if line_of_nb(b) > line_of_nb(a):
        s.channels_up[p] += 1
    else:
        s.channels_down[p] += 1
    o = s.occ[a]
    if o >= 0 and s.no_ride[o] == 0:
        if o // 2 != p:
            s.rides_given[p] += 1
        h0 = line_of_nb(a)
        s.occ[a] = -1
        cand = settle_nb(tables, s, o, a, trace, tn)
        if s.status[o] == S_SEA:
            s.progress[o // 2] += height_nb(tables, s, o) - h0
        return cand
    return -1


# ---------------------------------------------------------------------------------------
# moving
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def walk_up_nb(tables, cell, steps):
    """`steps` cells up the column from `cell` (rocks skipped): the cell reached, UP_BEACH if
    the move passes the last line of an open column, or the top cell of a closed column."""
    for _ in range(steps):
        nxt = tables.up[cell]
        if nxt == UP_BEACH:
            return UP_BEACH
        if nxt == UP_BLOCKED:
            return cell
        cell = nxt
    return cell


@njit(cache=True, error_model="numpy")
def second_may_leave_nb(tables, s, p):
    """The second surfer leaves the start only while the first surfer is above the rulebook's
    third line, or on the beach; once it has left, it moves freely. Assumption: a first surfer
    out of the game no longer holds the second back. The reading of "above" is a rule option
    (tables.second_surfer_reading): SECOND_ABOVE (default) the first must be beyond the line
    (line index >= tables.second_surfer_line, 0-based), SECOND_ON_OR_ABOVE the line itself
    counts (>= second_surfer_line - 1)."""
    first = 2 * p
    if s.left_start[first + 1] == 1:
        return True
    st = s.status[first]
    if st == S_BEACH or st == S_WAVE or st == S_TIDE:
        return True
    if st == S_SEA:
        threshold = tables.second_surfer_line
        if tables.second_surfer_reading == SECOND_ON_OR_ABOVE:
            threshold -= 1
        return line_of_nb(s.cell[first]) >= threshold
    return False


@njit(cache=True, error_model="numpy")
def has_move_nb(tables, s, p):
    """Has seat p a surfer to move (would move_options_nb list any option)?"""
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_SEA:
            return True
        if st == S_START:
            if k == 1 and not second_may_leave_nb(tables, s, p):
                continue
            for col in range(tables.n_cols):
                if tables.col_first[col] >= 0:
                    return True
    return False


@njit(cache=True, error_model="numpy")
def move_options_nb(tables, s, p, options):
    """Surfers seat p may move: k * MAX_COLS + column. A surfer on the sea moves up its column
    (its own column is the only option); a surfer leaving the start enters any column. While
    both surfers are at the start and neither has left, only the first (k = 0) may leave."""
    n = 0
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_SEA:
            options[n] = k * MAX_COLS + s.cell[who] % MAX_COLS
            n += 1
        elif st == S_START:
            if k == 1 and not second_may_leave_nb(tables, s, p):
                continue
            for col in range(tables.n_cols):
                if tables.col_first[col] >= 0:
                    options[n] = k * MAX_COLS + col
                    n += 1
    return n


@njit(cache=True, error_model="numpy")
def landing_nb(tables, s, who, col, steps):
    """Where a normal move of `steps` cells ends before any ride: a cell or UP_BEACH."""
    if s.status[who] == S_START:
        return walk_up_nb(tables, tables.col_first[col], steps - 1)
    return walk_up_nb(tables, s.cell[who], steps)


@njit(cache=True, error_model="numpy")
def ride_end_nb(s, cell):
    """Follow the arrows from `cell` until a cell with none: (end cell, arrows ridden)."""
    n = 0
    for _ in range(MAX_CELLS):
        nxt = s.chan[cell]
        if nxt < 0:
            break
        cell = nxt
        n += 1
    return cell, n


@njit(cache=True, error_model="numpy")
def leave_nb(s, who):
    """Take a surfer off its cell (its circle becomes free if it held it)."""
    c = s.cell[who]
    if c >= 0 and s.occ[c] == who:
        s.occ[c] = -1
    s.cell[who] = -1


@njit(cache=True, error_model="numpy")
def remove_nb(s, who, status, trace, tn):
    """A surfer leaves the game (under the wave, or pushed into a tide cell)."""
    leave_nb(s, who)
    s.status[who] = status
    s.no_ride[who] = 0
    trace_nb(trace, tn, EV_REMOVED, who, status, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def arrive_nb(tables, s, who, trace, tn):
    """A surfer reaches the finish: it takes the best cell, and the surfers there are pushed
    one cell down the finish (Grand -> Great -> Good...) until a cell that holds any number.
    The first arrival of the game makes its seat the holder of the fastest marker at the end
    of this turn."""
    leave_nb(s, who)
    s.status[who] = S_BEACH
    s.no_ride[who] = 0
    carry = who
    for k in range(tables.n_finish):
        if tables.finish_holds[k] == 0:
            s.slot[carry] = k
            break
        prev = s.finish[k]
        s.finish[k] = carry
        s.slot[carry] = k
        if prev < 0:
            break
        carry = prev
    trace_nb(trace, tn, EV_FINISH, who, s.slot[who], 0, 0, 0)
    s.arrivals += 1
    if s.fastest < 0 and s.fastest_pending < 0:
        s.fastest_pending = who // 2


@njit(cache=True, error_model="numpy")
def push_nb(tables, s, o, pusher, trace, tn):
    """Push surfer `o` straight down to the nearest cell below in its column; if that is a
    circle holding another surfer (any seat), that one is pushed down the same way (a chain).
    A surfer pushed into a tide cell, or onto a line under the wave, is out; one pushed below
    the first line goes back to the start (out if the wave has covered the start). Pushed
    surfers cannot ride a channel until they move. `pusher` is credited (-1: nobody). The
    cell `o` stood on already belongs to the surfer that pushed it."""
    cur = o
    first = True
    wave = s.wave
    for _ in range(4 * MAX_PLAYERS):
        c = s.cell[cur]
        b = tables.below[c]
        s.no_ride[cur] = 1
        s.pushed[cur // 2] += 1
        if pusher >= 0 and first:
            s.pushes[pusher] += 1
        first = False
        s.cell[cur] = -1  # its old circle is already someone else's
        if b == NO_CELL:
            if wave == 0:
                s.status[cur] = S_START
                trace_nb(trace, tn, EV_PUSH, cur, c, -1, S_START, 0)
            else:
                s.status[cur] = S_WAVE
                trace_nb(trace, tn, EV_PUSH, cur, c, -1, S_WAVE, 0)
                if pusher >= 0 and pusher != cur // 2:
                    s.kills[pusher] += 1
            break
        if line_of_nb(b) < wave or tables.cell_kind[b] == K_TIDE:
            st = S_WAVE if line_of_nb(b) < wave else S_TIDE
            s.status[cur] = st
            s.no_ride[cur] = 0
            trace_nb(trace, tn, EV_PUSH, cur, c, b, st, 0)
            if pusher >= 0 and pusher != cur // 2:
                s.kills[pusher] += 1
            break
        s.cell[cur] = b
        trace_nb(trace, tn, EV_PUSH, cur, c, b, S_SEA, 0)
        if tables.cell_kind[b] == K_CIRCLE:
            nxt = s.occ[b]
            s.occ[b] = cur
            if nxt >= 0:
                cur = nxt
                continue
        break


@njit(cache=True, error_model="numpy")
def stop_nb(tables, s, who, cell, trace, tn):
    """A surfer stops on `cell` (after its move and rides). On a circle held by an opponent it
    pushes that surfer down; on a circle held by its own other surfer, a boost: the surfer to
    boost is returned (the caller asks the owner how far, then calls apply_boost_nb). Which
    surfer is tables.boost_moves: BOOST_ARRIVING (the rulebook: "도착한 자신의 서퍼 말을 1~2칸
    앞으로", the arriving surfer moves on; the partner keeps the circle) or BOOST_STANDING (the
    partner moves on, the arriving surfer takes the circle). Squares and tide cells hold any
    number; with tables.tide_on_move = TIDE_OUT a surfer stopping on a tide cell is out."""
    s.status[who] = S_SEA
    s.cell[who] = cell
    kind = tables.cell_kind[cell]
    if kind == K_TIDE and tables.tide_on_move == TIDE_OUT:
        remove_nb(s, who, S_TIDE, trace, tn)
        return -1
    if kind == K_CIRCLE:
        o = s.occ[cell]
        if o >= 0 and o != who and o // 2 == who // 2:
            if tables.boost_moves == BOOST_ARRIVING:
                return who     # it shares the circle only until its boost
            s.occ[cell] = who
            return o
        s.occ[cell] = who
        if o >= 0 and o != who:
            push_nb(tables, s, o, who // 2, trace, tn)
    return -1


@njit(cache=True, error_model="numpy")
def settle_nb(tables, s, who, cell, trace, tn):
    """A surfer arrives at `cell`: it rides the channel there (unless pushed and not moved
    since) to its end, then stops. Returns the surfer to boost, -1 none."""
    if s.no_ride[who] == 0 and s.chan[cell] >= 0:
        end, _ = ride_end_nb(s, cell)
        s.rides[who // 2] += 1
        trace_nb(trace, tn, EV_RIDE, who, cell, end, 0, 0)
        cell = end
    return stop_nb(tables, s, who, cell, trace, tn)


@njit(cache=True, error_model="numpy")
def apply_move_nb(tables, s, p, code, steps, trace, tn):
    """Seat p's normal move (option `code` of move_options_nb) of `steps` cells. Returns the
    surfer to boost (-1 none)."""
    k = code // MAX_COLS
    col = code % MAX_COLS
    who = 2 * p + k
    h0 = height_nb(tables, s, who)
    frm = s.cell[who]
    dest = landing_nb(tables, s, who, col, steps)
    leave_nb(s, who)
    s.left_start[who] = 1
    s.no_ride[who] = 0
    s.moves[p] += 1
    trace_nb(trace, tn, EV_MOVE, who, frm, dest if dest != UP_BEACH else -1, steps, 0)
    if dest == UP_BEACH:
        arrive_nb(tables, s, who, trace, tn)
        s.progress[p] += tables.n_lines - h0
        return -1
    cand = settle_nb(tables, s, who, dest, trace, tn)
    if s.status[who] == S_SEA:
        s.progress[p] += height_nb(tables, s, who) - h0
    return cand


@njit(cache=True, error_model="numpy")
def boost_returns_nb(s, dest, start):
    """Would a boost reaching `dest` ride the arrows back onto `start`, the cell it left? That
    is the only way a boost chain can go on (the partner stays there), so it is the loop."""
    if s.chan[dest] < 0:
        return False
    end, _ = ride_end_nb(s, dest)
    return end == start


@njit(cache=True, error_model="numpy")
def boost_options_nb(tables, s, who, options):
    """Boost distances (tables.boost_min..boost_max cells) that move the surfer (a closed column
    top can stop it). With tables.boost_loop = LOOP_NO_REVISIT a boost may not end on a cell already
    visited in its chain: a chain can only go on by riding back onto the cell the boost left
    (the partner is there), so distances whose ride returns there are not offered; if every
    distance would, each is offered as distance + BOOST_NO_RIDE: the surfer moves that far and
    does not ride the arrow back."""
    n = 0
    c = s.cell[who]
    no_revisit = tables.boost_loop == LOOP_NO_REVISIT
    for d in range(tables.boost_min, tables.boost_max + 1):
        dest = walk_up_nb(tables, c, d)
        if d <= 0 or dest == c:
            continue
        if no_revisit and dest != UP_BEACH and boost_returns_nb(s, dest, c):
            continue
        options[n] = d
        n += 1
    if n == 0 and no_revisit:
        for d in range(tables.boost_min, tables.boost_max + 1):
            if d > 0 and walk_up_nb(tables, c, d) != c:
                options[n] = d + BOOST_NO_RIDE
                n += 1
    return n


@njit(cache=True, error_model="numpy")
def has_boost_nb(tables, s, who):
    """Would boost_options_nb offer any option? Exactly when some distance moves the surfer
    (under no_revisit, distances that would all ride back are still offered, without the
    ride)."""
    c = s.cell[who]
    for d in range(tables.boost_min, tables.boost_max + 1):
        if d > 0 and walk_up_nb(tables, c, d) != c:
            return True
    return False


@njit(cache=True, error_model="numpy")
def apply_boost_nb(tables, s, who, opt, trace, tn):
    """Boost: surfer `who` (see stop_nb for which one) moves forward by the option's distance;
    it then rides and pushes like any arriving surfer (or, with the option's BOOST_NO_RIDE
    flag, stops where the boost lands without riding). Returns the next surfer to boost (only
    possible under LOOP_GUARD_PUSH: a ride back onto the partner)."""
    p = who // 2
    dist = opt % BOOST_NO_RIDE
    ride = opt < BOOST_NO_RIDE
    c = s.cell[who]
    h0 = line_of_nb(c)
    dest = walk_up_nb(tables, c, dist)
    s.cell[who] = -1      # the circle belongs to the other surfer (the partner or the arrival)
    s.no_ride[who] = 0
    s.boosts[p] += 1
    trace_nb(trace, tn, EV_BOOST, who, dist, c, dest, 0 if ride else 1)
    if dest == UP_BEACH:
        arrive_nb(tables, s, who, trace, tn)
        s.progress[p] += tables.n_lines - h0
        return -1
    if ride:
        cand = settle_nb(tables, s, who, dest, trace, tn)
    else:
        cand = stop_nb(tables, s, who, dest, trace, tn)
    if s.status[who] == S_SEA:
        s.progress[p] += height_nb(tables, s, who) - h0
    return cand


@njit(cache=True, error_model="numpy")
def boost_blocked_nb(tables, s, who, trace, tn):
    """A surfer that cannot be boosted (the top of a closed column, or the guard_push loop guard
    reached) is pushed down instead, so that a circle never holds two surfers (an assumption;
    the default sheet has no closed column)."""
    push_nb(tables, s, who, -1, trace, tn)


# ---------------------------------------------------------------------------------------
# the fastest marker and the Great Wave
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def fold_nb(tables, s, trace, tn):
    """Fold the wave sheet: tables.lines_per_fold more sea lines (from the start) are under the
    Great Wave. Surfers at the start or on covered lines are out; arrows touching a covered
    line vanish. The game ends when every line is covered (only the beach is left)."""
    wave = min(tables.n_lines, s.wave + tables.lines_per_fold)
    s.wave = wave
    s.folds += 1
    removed = 0
    for who in range(2 * s.n_players):
        st = s.status[who]
        if st == S_START or (st == S_SEA and line_of_nb(s.cell[who]) < wave):
            remove_nb(s, who, S_WAVE, trace, tn)
            removed += 1
    gone = 0
    for a in range(tables.n_lines * MAX_COLS):
        b = s.chan[a]
        if b >= 0 and (line_of_nb(a) < wave or line_of_nb(b) < wave):
            s.chan[a] = -1
            s.chan_by[a] = -1
            gone += 1
    trace_nb(trace, tn, EV_FOLD, wave, removed, gone, 0, 0)
    if wave >= tables.n_lines:
        s.over = 1
        s.end_reason = END_WAVE
        trace_nb(trace, tn, EV_END, END_WAVE, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def end_turn_nb(tables, s, p, trace, tn):
    """End of seat p's turn: the seat that brought the first surfer to the beach receives the
    fastest marker now; at the end of each later turn of the marker's holder the wave folds
    (tables.fold_on_marker_turn = 1: also at the end of the turn it was won)."""
    if s.fastest < 0 and s.fastest_pending >= 0:
        s.fastest = s.fastest_pending
        s.fastest_turn = s.turn
        trace_nb(trace, tn, EV_FASTEST, s.fastest, 0, 0, 0, 0)
        if tables.fold_on_marker_turn == 1 and s.fastest == p:
            fold_nb(tables, s, trace, tn)
    elif s.fastest == p:
        fold_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def stop_game_nb(s, trace, tn):
    """The turn-limit guard (not in the rulebook): a game that has not ended stops here."""
    s.over = 1
    s.end_reason = END_TURN_LIMIT
    trace_nb(trace, tn, EV_END, END_TURN_LIMIT, 0, 0, 0, 0)


# ---------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def score_nb(tables, s, p, pts):
    """Fastest marker (2), both surfers on the beach (3), plus each surfer's finish cell."""
    pts[PTS_FASTEST] = tables.fastest_points if s.fastest == p else 0
    both = s.status[2 * p] == S_BEACH and s.status[2 * p + 1] == S_BEACH
    pts[PTS_DUO] = tables.duo_points if both else 0
    cells = 0
    for k in range(2):
        who = 2 * p + k
        if s.status[who] == S_BEACH:
            cells += tables.finish_score[s.slot[who]]
    pts[PTS_CELLS] = cells
    return pts[PTS_FASTEST] + pts[PTS_DUO] + pts[PTS_CELLS]


@njit(cache=True, error_model="numpy")
def rank_nb(scores, fastest, n, rank, win):
    """Highest score wins; equal scores: the seat WITHOUT the fastest marker is ahead. Seats
    still equal share the rank and split the win (1/k each)."""
    keys = np.empty((2, n), np.float64)
    for p in range(n):
        keys[0, p] = scores[p]
        keys[1, p] = 0.0 if p == fastest else 1.0
    ranks_and_win_shares_nb(keys, n, rank, win)


# ---------------------------------------------------------------------------------------
# invariants (checked games)
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 if the state is sound, else the CHK_* code of the first broken invariant."""
    return check_state_boosting_nb(tables, s, -1)


@njit(cache=True, error_model="numpy")
def check_state_boosting_nb(tables, s, boosting):
    """check_state_nb while surfer `boosting` (-1: none) waits for its owner's boost decision:
    it stands on the circle its partner holds (stop_nb: the circle is the partner's, under
    either rules.boost_moves), so it is exempt from "one surfer per circle" but must share
    the partner's circle exactly."""
    wave = s.wave
    n_surf = 2 * s.n_players
    count = np.zeros(MAX_CELLS, np.int64)
    for who in range(n_surf):
        st = s.status[who]
        c = s.cell[who]
        if st == S_SEA:
            if c < 0 or c >= tables.n_lines * MAX_COLS or tables.cell_kind[c] == K_NONE:
                return CHK_PLACE
            if line_of_nb(c) < wave:
                return CHK_PLACE
            if tables.cell_kind[c] == K_CIRCLE:
                if who == boosting:
                    mate = who ^ 1
                    if s.occ[c] != mate or s.status[mate] != S_SEA or s.cell[mate] != c:
                        return CHK_CIRCLE
                    continue
                count[c] += 1
                if s.occ[c] != who:
                    return CHK_CIRCLE
        elif st == S_START:
            if c != -1 or wave > 0:
                return CHK_PLACE
        elif st == S_BEACH:
            if c != -1 or s.slot[who] < 0 or s.slot[who] >= tables.n_finish:
                return CHK_PLACE
        elif st == S_WAVE or st == S_TIDE:
            if c != -1:
                return CHK_PLACE
        else:
            return CHK_PLACE
    for c in range(MAX_CELLS):
        if count[c] > 1:
            return CHK_CIRCLE
        o = s.occ[c]
        if o >= 0 and (o >= n_surf or s.status[o] != S_SEA or s.cell[o] != c):
            return CHK_CIRCLE
    for a in range(MAX_CELLS):
        b = s.chan[a]
        if b < 0:
            continue
        if tables.cell_kind[a] != K_CIRCLE or tables.cell_kind[b] != K_CIRCLE:
            return CHK_LOOP
        dl = line_of_nb(b) - line_of_nb(a)
        dc = b % MAX_COLS - a % MAX_COLS
        if (dl != 1 and dl != -1) or dc < -1 or dc > 1:
            return CHK_LOOP
        if line_of_nb(a) < wave or line_of_nb(b) < wave:
            return CHK_LOOP
        c = b
        ok = False
        for _ in range(MAX_CELLS + 1):
            if c < 0:
                ok = True
                break
            if c == a:
                break
            c = s.chan[c]
        if not ok:
            return CHK_LOOP
    for k in range(tables.n_finish):
        o = s.finish[k]
        if tables.finish_holds[k] == 1:
            held = 0
            for who in range(n_surf):
                if s.status[who] == S_BEACH and s.slot[who] == k:
                    held += 1
                    if o != who:
                        return CHK_FINISH
            if held > 1 or (held == 0 and o >= 0):
                return CHK_FINISH
    return 0
