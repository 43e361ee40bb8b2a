"""Sunset Over Water as a forward model: the template every game copies (docs/adding-a-game.md).

The rules are in nb.py; this module only sequences them. The state record (enums.STATE_DTYPE)
carries where the game stands, so the platform's loop (sim/harness.py) advances it one
decision at a time and a search player can copy it and play on:

    s.phase    the pending decision (DEC_PLAN, DEC_HIKE, DEC_PAINT, DEC_SELL), PHASE_OVER
    s.to_move  whose decision it is
    plan_code     planning choices already made this round, hidden until all are made
    s.trek, s.hike, path, s.n_painted, s.painted_features, s.n_sold
                  what the turn being played has done (the paint decision needs the path,
                  the daily goal needs the hike, the paintings and the sales)
    sell_opts     the legal sales of the sale loop, computed once when it is (re)entered

One day, as a sequence of decisions (the patterns other games copy are named in capitals):

    planning  DEC_PLAN for seat 0, 1, ..., n-1. SIMULTANEOUS HIDDEN CHOICES as sequential
              decisions: each seat draws its 3 cards when its turn to plan comes (so the
              cards drawn never depend on another seat's choice) and its choice is only stored (plan_code, a PENDING EFFECT); when
              the last seat has chosen, reveal_plans_nb applies them all at once, then the
              solo wake-up effect and the wake-up order (CHANCE: ties drawn from s.streams).
    trek      for each seat in wake-up order: DEC_HIKE, then DEC_PAINT on that hike's path,
              then the sale loop: DEC_SELL while a sale is legal, each applied with the
              strategy's KEEP SIDE-OUTPUT (which paintings pay); "stop" or nothing left to
              sell ends the turn (the daily goal is checked).
    clean-up  automatic (cleanup_nb); the next day's planning opens, or the game is over.

Every chance event happens inside apply_nb (or setup_nb) from s.streams[0], in a fixed order,
so a seed always plays the same game (the fixed runs of scripts/sunset_same_logs.sh check it
across changes) and a copied state has the same future unless determinize_nb reseeds it.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.records import declare
from sim.rng import init_streams_nb, randint_nb, redraw_nb
from sim.games.sunset.enums import (
    DEC_HIKE, DEC_PAINT, DEC_PLAN, DEC_SELL, EV_DAY, EV_HIKE, EV_PLAN, EV_SELL, EV_WAKE,
    MAX_COMM, MAX_GOAL, MAX_HAND, MAX_LAND, MAX_MOVE, MAX_OPTIONS, MAX_PATH, MAX_PLAYERS,
    MAX_ROW, N_CELLS, N_PLAN, PHASE_OVER, PLAN_DRAW, RANGER, STATE_DTYPE,
)
from sim.games.sunset.nb import (
    N_PTS, apply_hike_nb, apply_paint_nb, apply_plan_nb, apply_sell_nb, check_goal_nb,
    cleanup_nb, clear_turn_nb, draw_plans_nb, goals_held_nb, hike_options_nb, land_mask_nb,
    paint_options_nb, path_nb,
    plan_options_nb, rank_nb, score_nb, sell_options_nb, turn_order_nb, wake_effect_nb,
)
from sim.games.sunset.nb import default_keep_nb as hand_keep_nb
from sim.games.sunset.nb import setup_nb as deal_nb

# What the platform's loop allocates for every decision (docs/adding-a-game.md).
CTX_LEN = 2 + MAX_PATH   # ctx[0] = today's planning card, ctx[1] = path length, ctx[2:] = path
KEEP_LEN = MAX_HAND      # keep[j] = value of keeping hand card j (DEC_SELL)
# determinize_nb's redraw depends only on what the seat saw and the seed (docs/search-players.md)
CANONICAL_DETERMINIZE = True

# ---------------------------------------------------------------------------------------
# the typed log record: one row per (game, seat); the column names and meanings
# ---------------------------------------------------------------------------------------
RECORD_FIELDS = (
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based (seat 0 is listed first; all seats start on the centre card)"),
    ("score", "i8", "final score"),
    ("rank", "i8", "1 = winner; tied seats share a rank"),
    ("win", "f8", "win share: 1 for a sole winner, 1/k for k tied winners, else 0"),
    ("length", "i8", "player turns played in the game"),
    ("days", "i8", "days played"),
    ("end_reason", "i8", "0 = all days played, 1 = commission row could not be refilled"),
    ("pts_commissions", "i8", "points from commissions"),
    ("pts_goals", "i8", "points from daily goals"),
    ("pts_landscapes", "i8", "points from unsold landscapes"),
    ("pts_inspiration", "i8", "solo: inspiration bonus"),
    ("pts_home", "i8", "solo: return-home bonus"),
    ("n_commissions", "i8", "commissions sold"),
    ("n_goals", "i8", "daily goals kept"),
    ("commissions_mask", "i8", "bit c set = commission card c (file order) taken"),
    ("goals_mask", "i8", "bit g set = daily goal card g kept"),
    ("landscapes_left", "i8", "unsold landscapes at the end"),
    ("painted", "i8", "landscapes painted"),
    ("sold_landscapes", "i8", "landscapes sold"),
    ("steps", "i8", "hiking steps"),
    ("goal_claims", "i8", "times the seat took the daily goal card"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("comm_day_0", "i8", "day each commission 0-15 was taken: 4 bits per card (bits 4c..4c+3), "
                         "1-based, 0 = not taken"),
    ("comm_day_1", "i8", "the same for commissions 16-31"),
    ("comm_day_2", "i8", "the same for commissions 32-47"),
    ("comm_day_3", "i8", "the same for commissions 48-62"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options (a strategy that "
                      "never won despite many is suspect)"),
)


# Column indices, `columns()` and the docs all derive from this one declaration.
RECORD = declare(*RECORD_FIELDS)


# ---------------------------------------------------------------------------------------
# the flow of a day (automatic steps between decisions)
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def open_plan_nb(s, p):
    """Seat p's planning decision is next: multiplayer, it draws its 3 cards now (solo: its
    open cards stay). Drawing here, not for every seat at once, keeps the chance draws in
    the order the fixed-run logs were made with (the draws of seat p come after the choices
    of the seats before it)."""
    s.phase = DEC_PLAN
    s.to_move = p
    if s.solo == 0:
        draw_plans_nb(s, p)


@njit(cache=True, error_model="numpy")
def start_day_nb(s, trace, tn):
    trace_nb(trace, tn, EV_DAY, s.day, 0, 0, 0, 0)
    for p in range(s.n_players):
        s.plan_code[p] = -1
    open_plan_nb(s, 0)


@njit(cache=True, error_model="numpy", inline="always")
def start_turn_nb(s, t):
    """The t-th turn of the trek (wake-up order) begins with its hike decision."""
    p = s.order[t]
    s.trek = t
    s.selling_seat = p
    s.to_move = p
    s.phase = DEC_HIKE
    clear_turn_nb(s)


@njit(cache=True, error_model="numpy")
def reveal_plans_nb(tables, s, trace, tn):
    """Every seat has chosen: the pending choices take effect together (cards face up, the
    others back under the deck), then the solo wake-up effect and the wake-up order."""
    n = s.n_players
    for p in range(n):
        apply_plan_nb(s, p, s.plan_code[p])
        s.plan_code[p] = -1
        card = s.plan_choice[p]
        trace_nb(trace, tn, EV_PLAN, p, card, tables.plan_wake[card], 0, 0)
    if s.solo == 1:
        band = wake_effect_nb(tables, s, s.plan_choice[0], trace, tn)
        trace_nb(trace, tn, EV_WAKE, 0, band, 0, 0, 0)
    turn_order_nb(tables, s)  # chance: equal wake-up times are ordered at random
    start_turn_nb(s, 0)


@njit(cache=True, error_model="numpy")
def end_turn_nb(tables, s, trace, tn):
    """The turn's daily goal; then the next turn, or clean-up and the next day (or the end)."""
    p = s.to_move
    check_goal_nb(tables, s, p, s.hike, s.n_painted, s.painted_features, s.n_sold,
                  trace, tn)
    s.plan_used[p, s.plan_choice[p]] = s.day + 1
    s.turns += 1
    t = s.trek + 1
    if t < s.n_players:
        start_turn_nb(s, t)
        return
    s.selling_seat = -1
    s.n_path = 0
    s.n_sell_opts = 0
    cleanup_nb(tables, s, trace, tn)
    if s.over == 1:
        s.phase = PHASE_OVER
        s.to_move = -1
    else:
        start_day_nb(s, trace, tn)


@njit(cache=True, error_model="numpy", inline="always")
def open_sales_nb(tables, s, trace, tn):
    """(Re-)enter the sale loop: a DEC_SELL decision when a sale is legal, else the turn ends
    (a decision whose only option is "stop" is not asked: no strategy can change it)."""
    n = sell_options_nb(tables, s, s.to_move, s.sell_opts)
    s.n_sell_opts = n
    if n == 1:
        end_turn_nb(tables, s, trace, tn)
    else:
        s.phase = DEC_SELL


# ---------------------------------------------------------------------------------------
# the forward model (the contract, docs/adding-a-game.md)
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    """Deal (nb.setup_nb: every set-up shuffle from the chance stream) and open day 1."""
    deal_nb(tables, s, n_players, game_seed, trace, tn)
    start_day_nb(s, trace, tn)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over == 1


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.to_move


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return s.phase


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    """The legal options of the pending decision (codes: enums.DEC_*); 0 once over."""
    p = s.to_move
    phase = s.phase
    if phase == DEC_PLAN:
        return plan_options_nb(s, p, options)
    if phase == DEC_HIKE:
        return hike_options_nb(tables, s, p, s.plan_choice[p], options)
    if phase == DEC_PAINT:
        return paint_options_nb(s, p, s.path, s.n_path, tables.plan_paint[s.plan_choice[p]],
                                options)
    if phase == DEC_SELL:
        n = s.n_sell_opts
        for i in range(n):
            options[i] = s.sell_opts[i]
        return n
    return 0


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    """ctx = [today's planning card, path length, path cells...] (-1: none; the planning
    decision has no card yet), keep[j] = the default value of keeping hand card j (its
    features) for a sale. All read from the state: a copied state gives the same context."""
    p = s.to_move
    for i in range(ctx.shape[0]):
        ctx[i] = -1
    ctx[1] = 0
    if p < 0:
        return
    if s.phase != DEC_PLAN:
        ctx[0] = s.plan_choice[p]
        n_path = s.n_path
        ctx[1] = n_path
        for i in range(n_path):
            ctx[2 + i] = s.path[i]
    if s.phase == DEC_SELL:
        default_keep_nb(tables, s, keep)


@njit(cache=True, error_model="numpy", inline="always")
def default_keep_nb(tables, s, keep):
    """Default keep values of the seat to move: each hand card's features (what it scores
    unsold); the rest of the buffer 0."""
    p = s.to_move
    for j in range(keep.shape[0]):
        keep[j] = 0.0
    if p >= 0:
        hand_keep_nb(tables, s, p, keep)


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    """Apply the chosen option of the pending decision, then everything automatic up to the
    next decision or the end."""
    p = s.to_move
    phase = s.phase
    if phase == DEC_PLAN:
        s.plan_code[p] = option  # hidden: applied when every seat has chosen
        if p + 1 < s.n_players:
            open_plan_nb(s, p + 1)
        else:
            reveal_plans_nb(tables, s, trace, tn)
    elif phase == DEC_HIKE:
        start = s.pos[p]
        s.hike = option
        s.n_path = path_nb(start, option, s.path)  # the path, before the solo refills
        apply_hike_nb(tables, s, p, option, trace, tn)
        trace_nb(trace, tn, EV_HIKE, p, option // (MAX_MOVE + 1), option % (MAX_MOVE + 1), start,
                 s.pos[p])
        s.phase = DEC_PAINT
    elif phase == DEC_PAINT:
        features = 0
        n_painted = 0
        for i in range(s.n_path):
            if (option >> i) & 1:
                n_painted += 1
                features |= land_mask_nb(tables, s.grid[s.path[i]])
        s.n_painted = n_painted
        s.painted_features = features
        apply_paint_nb(s, p, s.path, option, trace, tn)
        open_sales_nb(tables, s, trace, tn)
    elif phase == DEC_SELL:
        if option < 0:  # stop selling
            end_turn_nb(tables, s, trace, tn)
        else:
            # the strategy's keep values choose which paintings pay (cheapest legal set)
            comm = apply_sell_nb(tables, s, p, option, keep, trace, tn)
            trace_nb(trace, tn, EV_SELL, p, comm, option, 0, 0)
            s.n_sold += 1
            open_sales_nb(tables, s, trace, tn)


# ---------------------------------------------------------------------------------------
# outcomes: returns (finished games), a heuristic value (unfinished ones), the log record
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def score_scale_nb(tables, s):
    """A score difference worth "one average commission" (the mean printed points of the
    commission cards): the unit of the logistic values below, read from the tables so that
    a prototype with bigger or smaller commissions keeps the same meaning."""
    total = 0.0
    for c in range(tables.n_comm):
        total += tables.commission_points[c]
    return max(1.0, total / max(1, tables.n_comm))


@njit(cache=True, error_model="numpy")
def solo_value_nb(tables, s, score):
    """Solo has no opponent (its logged win is always 1), so a search player needs another
    signal: score / (score + a half-game of average commissions), in [0, 1), rising with the
    score."""
    half = 0.5 * s.n_days * score_scale_nb(tables, s)
    return score / (score + half) if score > 0 else 0.0


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    """Win shares of a finished game (rank_nb: ties split). Solo: solo_value_nb of the score
    (the logged win share is 1 in every solo game; see docs)."""
    pts = np.zeros(N_PTS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    goals = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    for p in range(out.shape[0]):
        out[p] = 0.0
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p, pts)
        goals[p] = goals_held_nb(s, p)
    if n_players == 1:
        out[0] = solo_value_nb(tables, s, float(scores[0]))
        return
    rank_nb(scores, goals, n_players, rank, win)
    for p in range(n_players):
        out[p] = win[p]


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """Heuristic chance that `seat` wins from an unfinished state: a logistic of its lead over
    the best other seat in points banked so far (today's daily goal counted for its holder),
    one average commission of lead = 1 unit, widened by the square root of the days left
    (more can change). Solo: solo_value_nb of its score so far."""
    n = s.n_players
    pts = np.zeros(N_PTS, np.int64)
    own = 0.0
    best_other = -1e18
    for p in range(n):
        v = float(score_nb(tables, s, p, pts))
        if s.goal >= 0 and s.goal_owner == p:
            v += tables.goal_points[s.goal]
        if p == seat:
            own = v
        elif v > best_other:
            best_other = v
    if n == 1:
        return solo_value_nb(tables, s, own)
    days_left = max(0, s.n_days - 1 - s.day)
    scale = score_scale_nb(tables, s) * np.sqrt(1.0 + days_left)
    return 1.0 / (1.0 + np.exp(-(own - best_other) / scale))


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    """The finished game's rows rec[row0 + seat]: every RECORD column but illegal and
    choices (the harness counts those)."""
    pts = np.zeros(N_PTS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    goals = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p, pts)
        goals[p] = goals_held_nb(s, p)
        r = rec[row0 + p]
        r.pts_commissions = pts[0]   # the PTS_* order of score_nb
        r.pts_goals = pts[1]
        r.pts_landscapes = pts[2]
        r.pts_inspiration = pts[3]
        r.pts_home = pts[4]
    rank_nb(scores, goals, n_players, rank, win)
    for p in range(n_players):
        r = rec[row0 + p]
        r.game = game_index
        r.seat = p
        r.score = scores[p]
        r.rank = rank[p]
        r.win = win[p]
        r.length = s.turns
        r.days = s.day + 1
        r.end_reason = s.end_reason
        n_c = 0
        cmask = 0
        days = np.zeros(4, np.int64)  # comm_day_0..3: 4 bits per commission, 16 per column
        for c in range(tables.n_comm):
            day = s.comm_owned[p, c]
            if day > 0:
                n_c += 1
                cmask |= 1 << c
                days[c // 16] |= day << (4 * (c % 16))
        r.comm_day_0 = days[0]
        r.comm_day_1 = days[1]
        r.comm_day_2 = days[2]
        r.comm_day_3 = days[3]
        gmask = 0
        for gl in range(tables.n_goal):
            if s.goal_owned[p, gl] > 0 and gl < 63:
                gmask |= 1 << gl
        r.n_commissions = n_c
        r.n_goals = goals[p]
        r.commissions_mask = cmask
        r.goals_mask = gmask
        r.landscapes_left = s.hand_n[p]
        r.painted = s.painted[p]
        r.sold_landscapes = s.sold_landscapes[p]
        r.steps = s.steps[p]
        r.goal_claims = s.goal_claims[p]


# ---------------------------------------------------------------------------------------
# information sets: what a seat cannot see, redrawn
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Redraw everything `seat` cannot see, keeping what it has seen:
      * the order of the landscape, commission and daily goal decks (face down; their
        counts, the revealed top commission, the discards and the row stay);
      * each other seat's planning cards not played: which of them it holds this round
        (the same slots stay filled) and its deck order; a choice it already made this
        round (plan_code) is redrawn among its legal options on the redrawn cards. The
        seat knows only the cards the other played (face up: plan_used, plan_choice);
      * the order of its own planning cards never drawn (pdeck[seat, :pdeck_unseen]): it
        knows its own returned cards and their order, not the shuffled rest;
      * the future: the chance stream is reseeded from `seed` (the strategies' own streams
        are the platform's: kept).
    Each redraw is uniform over the arrangements of the hidden cards (not the exact
    posterior given what the other players' choices revealed). It is canonical: every pile
    is sorted before it is shuffled (sim.rng.redraw_nb), so the result depends only on what
    the seat has seen and `seed`, not on the hidden order it replaces (a search player's
    answer then never changes when the hidden cards are redrawn)."""
    n = s.n_players
    fresh = np.zeros(2, np.uint64)
    init_streams_nb(fresh, seed)
    rs = 1                        # fresh[0] becomes the chance stream, fresh[1] draws here
    redraw_nb(fresh, rs, s.ldeck, s.n_ldeck)
    redraw_nb(fresh, rs, s.cdeck, s.n_cdeck)
    redraw_nb(fresh, rs, s.gdeck, s.n_gdeck)
    pool = np.zeros(N_PLAN, np.int64)
    options = np.zeros(MAX_OPTIONS, np.int64)
    for q in range(n):
        if q == seat:
            redraw_nb(fresh, rs, s.pdeck[q], s.pdeck_unseen[q])
            continue
        if s.solo == 1:
            continue
        k = 0
        for i in range(PLAN_DRAW):
            if s.popen[q, i] >= 0:
                pool[k] = s.popen[q, i]
                k += 1
        for i in range(s.pdeck_n[q]):
            pool[k] = s.pdeck[q, i]
            k += 1
        redraw_nb(fresh, rs, pool, k)
        k = 0
        for i in range(PLAN_DRAW):
            if s.popen[q, i] >= 0:
                s.popen[q, i] = pool[k]
                k += 1
        for i in range(s.pdeck_n[q]):
            s.pdeck[q, i] = pool[k]
            k += 1
        if s.plan_code[q] >= 0:
            m = plan_options_nb(s, q, options)
            s.plan_code[q] = options[randint_nb(fresh, rs, m)]
    s.streams[0] = fresh[0]


# What a seat has seen (observe_nb), in fixed positions: the whole table and where the game
# stands, then the seat's own planning cards. Everything else is hidden from it.
N_GAME = STATE_DTYPE.names.index("grid")   # the game scalars: the fields before `grid`
N_COUNTERS = 4                               # painted, sold_landscapes, steps, goal_claims
OBS_LEN = (N_GAME + N_CELLS + MAX_ROW + MAX_PATH + (MAX_ROW + 2) + MAX_LAND
           + MAX_PLAYERS * (6 + MAX_HAND + MAX_COMM + MAX_GOAL + N_PLAN + N_COUNTERS)
           + PLAN_DRAW + 1 + 2 * N_PLAN)


@njit(cache=True, error_model="numpy")
def _put_game_nb(out, k, s):
    """The game scalars (STATE_DTYPE's fields before `grid`, in order) at out[k:]; the next k."""
    out[k + 0] = s.n_players
    out[k + 1] = s.solo
    out[k + 2] = s.day
    out[k + 3] = s.n_days
    out[k + 4] = s.over
    out[k + 5] = s.end_reason
    out[k + 6] = s.goal
    out[k + 7] = s.goal_owner
    out[k + 8] = s.comm_top
    out[k + 9] = s.n_ldeck
    out[k + 10] = s.n_ldisc
    out[k + 11] = s.n_cdeck
    out[k + 12] = s.n_gdeck
    out[k + 13] = s.row_len
    out[k + 14] = s.inspiration
    out[k + 15] = s.turns
    out[k + 16] = s.selling_seat
    out[k + 17] = s.n_cdisc
    out[k + 18] = s.n_gdisc
    out[k + 19] = s.phase
    out[k + 20] = s.to_move
    out[k + 21] = s.trek
    out[k + 22] = s.hike
    out[k + 23] = s.n_path
    out[k + 24] = s.n_painted
    out[k + 25] = s.painted_features
    out[k + 26] = s.n_sold
    out[k + 27] = s.n_sell_opts
    return k + 28


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """Write what `seat` has seen into out[:OBS_LEN] and return OBS_LEN:
      public: the game scalars (day, phase, seat to move, deck sizes, the revealed top
        commission, today's goal and its holder, the turn's hike, paintings and sales), the
        wilderness, the row, the turn's path and legal sales, the landscape discards, and per
        seat its position, hand (painted landscapes lie face up), commissions sold, goals
        kept, planning cards played (face up) and today's revealed card, deck size, the
        number of planning cards it holds, whether it has chosen this round, its counters;
      own: its planning cards in hand, its pending choice, the order of the cards it
        returned under its deck, and which cards lie unseen on top (not their order).
    Not in it: deck orders, other seats' planning cards and pending choices, the streams."""
    n = s.n_players
    k = 0
    for i in range(out.shape[0]):
        out[i] = -2  # unused positions (seats beyond n, empty slots) read -2
    k = _put_game_nb(out, k, s)
    for c in range(N_CELLS):
        out[k + c] = s.grid[c]
    k += N_CELLS
    for i in range(MAX_ROW):
        out[k + i] = s.crow[i]
    k += MAX_ROW
    for i in range(s.n_path):
        out[k + i] = s.path[i]
    k += MAX_PATH
    for i in range(s.n_sell_opts):
        out[k + i] = s.sell_opts[i]
    k += MAX_ROW + 2
    for i in range(s.n_ldisc):
        out[k + i] = s.ldisc[i]
    k += MAX_LAND
    for p in range(MAX_PLAYERS):
        if p < n:
            out[k] = s.pos[p]
            out[k + 1] = s.hand_n[p]
            out[k + 2] = s.pdeck_n[p]
            out[k + 3] = s.plan_choice[p]
            out[k + 4] = 1 if s.plan_code[p] >= 0 else 0
            held = 0
            for i in range(PLAN_DRAW):
                if s.popen[p, i] >= 0:
                    held += 1
            out[k + 5] = held
            for j in range(s.hand_n[p]):
                out[k + 6 + j] = s.hand[p, j]
            base = k + 6 + MAX_HAND
            for c in range(MAX_COMM):
                out[base + c] = s.comm_owned[p, c]
            base += MAX_COMM
            for gl in range(MAX_GOAL):
                out[base + gl] = s.goal_owned[p, gl]
            base += MAX_GOAL
            for c in range(N_PLAN):
                out[base + c] = s.plan_used[p, c]
            base += N_PLAN
            out[base] = s.painted[p]
            out[base + 1] = s.sold_landscapes[p]
            out[base + 2] = s.steps[p]
            out[base + 3] = s.goal_claims[p]
        k += 6 + MAX_HAND + MAX_COMM + MAX_GOAL + N_PLAN + N_COUNTERS
    if 0 <= seat < n:
        for i in range(PLAN_DRAW):
            out[k + i] = s.popen[seat, i]
        out[k + PLAN_DRAW] = s.plan_code[seat]
        base = k + PLAN_DRAW + 1
        unseen = s.pdeck_unseen[seat]
        for i in range(unseen, s.pdeck_n[seat]):  # returned cards, in their order
            out[base + i - unseen] = s.pdeck[seat, i]
        base += N_PLAN
        for c in range(N_PLAN):
            out[base + c] = 0
        for i in range(unseen):                   # never drawn: which cards, not the order
            out[base + s.pdeck[seat, i]] = 1
    return OBS_LEN


# ---------------------------------------------------------------------------------------
# the state checker (check_state_nb): 0 = consistent, else the first broken invariant
# ---------------------------------------------------------------------------------------
CHECK_LANDSCAPES = 1      # a landscape is missing or in two places (grid, deck, discards, hands)
CHECK_COMMISSIONS = 2     # a commission is missing or in two places (deck, top, row, owned, discarded)
CHECK_GOALS = 3           # a daily goal is missing or in two places (deck, today's, kept, discarded)
CHECK_PLANNING = 4        # a seat's 8 planning cards are not each in exactly one place
CHECK_BOARD = 5           # an artist off the grid; a ranger station outside solo or misplaced
CHECK_COUNTS = 6          # a count out of its range (decks, hands, row, day)
CHECK_PHASE = 7           # the pending decision does not fit the state (seat, phase, pending plans)
CHECK_PATH = 8            # the trek path is not the hike taken from where the artist started
CHECK_SALES = 9           # the stored sale options differ from the rules' (or leave no choice)
CHECK_OVER = 10           # a finished game still names a seat or a decision


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 when the state is consistent, else the CHECK_* code of the first broken invariant
    (the conservation and phase checks of tests/test_sunset_invariants.py, compiled)."""
    if not counts_ok_nb(s):     # first: the checks below index with the counts
        return CHECK_COUNTS
    if not landscapes_ok_nb(tables, s):
        return CHECK_LANDSCAPES
    if not commissions_ok_nb(tables, s):
        return CHECK_COMMISSIONS
    if not goals_ok_nb(tables, s):
        return CHECK_GOALS
    for p in range(s.n_players):
        if not planning_ok_nb(s, p):
            return CHECK_PLANNING
    if not board_ok_nb(tables, s):
        return CHECK_BOARD
    return standing_check_nb(tables, s)


@njit(cache=True, error_model="numpy")
def counts_ok_nb(s):
    """Every count (players, decks, discards, row, day, hands, planning decks) in its range."""
    if not (1 <= s.n_players <= MAX_PLAYERS and 0 <= s.n_ldeck <= MAX_LAND
            and 0 <= s.n_ldisc <= MAX_LAND and 0 <= s.n_cdeck <= MAX_COMM
            and 0 <= s.n_gdeck <= MAX_GOAL and 0 <= s.row_len <= MAX_ROW
            and 0 <= s.day < s.n_days):
        return False
    for p in range(s.n_players):
        if not (0 <= s.hand_n[p] <= MAX_HAND and 0 <= s.pdeck_n[p] <= N_PLAN
                and 0 <= s.pdeck_unseen[p] <= s.pdeck_n[p]):
            return False
    return True


@njit(cache=True, error_model="numpy")
def landscapes_ok_nb(tables, s):
    """Every landscape in exactly one place: the grid, the deck, the discards, a hand."""
    seen = np.zeros(MAX_LAND, np.int64)
    for c in range(N_CELLS):
        if s.grid[c] >= 0:
            seen[s.grid[c]] += 1
    for i in range(s.n_ldeck):
        seen[s.ldeck[i]] += 1
    for i in range(s.n_ldisc):
        seen[s.ldisc[i]] += 1
    for p in range(s.n_players):
        for j in range(s.hand_n[p]):
            seen[s.hand[p, j]] += 1
    for i in range(tables.n_land):
        if seen[i] != 1:
            return False
    return True


@njit(cache=True, error_model="numpy")
def commissions_ok_nb(tables, s):
    """Every commission in at most one place (the deck, the revealed top, the row within its
    length, a seat's sold cards), and those plus the discarded ones make the file's count."""
    seen = np.zeros(MAX_COMM, np.int64)
    for i in range(s.n_cdeck):
        seen[s.cdeck[i]] += 1
    if s.comm_top >= 0:
        seen[s.comm_top] += 1
    for k in range(MAX_ROW):
        if s.crow[k] >= 0:
            if k >= s.row_len:
                return False
            seen[s.crow[k]] += 1
    for p in range(s.n_players):
        for c in range(MAX_COMM):
            if s.comm_owned[p, c] > 0:
                seen[c] += 1
    return once_each_nb(seen, tables.n_comm, s.n_cdisc)


@njit(cache=True, error_model="numpy")
def goals_ok_nb(tables, s):
    """Every daily goal in at most one place (the deck, today's, a seat's kept goals), and
    those plus the discarded ones make the file's count."""
    seen = np.zeros(MAX_GOAL, np.int64)
    for i in range(s.n_gdeck):
        seen[s.gdeck[i]] += 1
    if s.goal >= 0:
        seen[s.goal] += 1
    for p in range(s.n_players):
        for gl in range(MAX_GOAL):
            if s.goal_owned[p, gl] > 0:
                seen[gl] += 1
    return once_each_nb(seen, tables.n_goal, s.n_gdisc)


@njit(cache=True, error_model="numpy")
def once_each_nb(seen, n_cards, n_discarded):
    """seen[c] (places card c was found) at most 1, 0 past the file's n_cards, and the cards
    found plus the n_discarded ones (kept by count only) are all n_cards."""
    total = 0
    for c in range(seen.shape[0]):
        if seen[c] > 1 or (seen[c] == 1 and c >= n_cards):
            return False
        total += seen[c]
    return total + n_discarded == n_cards


@njit(cache=True, error_model="numpy")
def planning_ok_nb(s, p):
    """Each of seat p's planning cards in exactly one place: the deck, the hand, played
    today (revealed, not yet marked used), or played on an earlier day."""
    seen = np.zeros(N_PLAN, np.int64)
    for i in range(s.pdeck_n[p]):
        seen[s.pdeck[p, i]] += 1
    for i in range(PLAN_DRAW):
        if s.popen[p, i] >= 0:
            seen[s.popen[p, i]] += 1
    today = s.plan_choice[p]
    if today >= 0 and s.plan_used[p, today] == 0:
        seen[today] += 1
    for c in range(N_PLAN):
        if s.plan_used[p, c] > 0:
            seen[c] += 1
    for c in range(N_PLAN):
        if seen[c] != 1:
            return False
    return True


@njit(cache=True, error_model="numpy")
def board_ok_nb(tables, s):
    """Every artist on the grid; the file's ranger stations on it in solo, none otherwise."""
    for p in range(s.n_players):
        if not 0 <= s.pos[p] < N_CELLS:
            return False
    n_ranger = 0
    for c in range(N_CELLS):
        if s.grid[c] == RANGER:
            n_ranger += 1
    return n_ranger == (tables.n_ranger if s.solo == 1 else 0)


@njit(cache=True, error_model="numpy")
def standing_check_nb(tables, s):
    """Where the game stands fits the state: a finished game names no seat or decision; a
    planning decision comes after the earlier seats' hidden choices; a trek decision is the
    turn's seat's, with its path and its sale options as the rules make them. 0 or CHECK_*."""
    if s.over == 1:
        if s.phase != PHASE_OVER or s.to_move != -1:
            return CHECK_OVER
        return 0
    p = s.to_move
    if not 0 <= p < s.n_players:
        return CHECK_PHASE
    if s.phase == DEC_PLAN:
        return 0 if planning_turn_ok_nb(s, p) else CHECK_PHASE
    if s.phase != DEC_HIKE and s.phase != DEC_PAINT and s.phase != DEC_SELL:
        return CHECK_PHASE
    if not trek_turn_ok_nb(s, p):
        return CHECK_PHASE
    if s.phase == DEC_HIKE:
        return 0
    if not path_ok_nb(s, p):
        return CHECK_PATH
    if s.phase == DEC_SELL and not sales_ok_nb(tables, s, p):
        return CHECK_SALES
    return 0


@njit(cache=True, error_model="numpy")
def planning_turn_ok_nb(s, p):
    """Seat p plans: no trek under way, the seats before p have chosen (hidden) and the
    others not yet, nothing revealed, and p has a planning card to choose from."""
    if s.selling_seat != -1:
        return False
    for q in range(s.n_players):
        if (s.plan_code[q] >= 0) != (q < p) or s.plan_choice[q] >= 0:
            return False
    for i in range(PLAN_DRAW):
        if s.popen[p, i] >= 0:
            return True
    return False


@njit(cache=True, error_model="numpy")
def trek_turn_ok_nb(s, p):
    """Seat p treks: it is the turn `s.trek` of the wake-up order, every seat's card is
    revealed and none is pending."""
    t = s.trek
    if not (0 <= t < s.n_players and s.order[t] == p and s.selling_seat == p
            and s.plan_choice[p] >= 0):
        return False
    for q in range(s.n_players):
        if s.plan_code[q] >= 0 or s.plan_choice[q] < 0:
            return False
    return True


@njit(cache=True, error_model="numpy")
def path_ok_nb(s, p):
    """The stored path is the hike taken (s.hike) from its first cell, and ends where the
    artist stands."""
    n_path = s.n_path
    if not 1 <= n_path <= MAX_PATH or n_path != s.hike % (MAX_MOVE + 1) + 1:
        return False
    path = np.zeros(MAX_PATH, np.int64)
    path_nb(s.path[0], s.hike, path)
    for i in range(n_path):
        if path[i] != s.path[i]:
            return False
    return s.pos[p] == s.path[n_path - 1]


@njit(cache=True, error_model="numpy")
def sales_ok_nb(tables, s, p):
    """The stored sale options are the rules' (sell_options_nb), with a real choice (a sale
    besides "stop")."""
    opts = np.zeros(MAX_ROW + 2, np.int64)
    m = sell_options_nb(tables, s, p, opts)
    if m != s.n_sell_opts or m < 2:
        return False
    for i in range(m):
        if opts[i] != s.sell_opts[i]:
            return False
    return True
