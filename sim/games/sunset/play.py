"""Sunset Over Water: the play loop, where the rules (nb.py) meet the strategies.

`play_game_nb` plays one game: each day a planning phase (choices simultaneous and hidden:
all seats choose before any choice is applied), the trek in wake-up order (hike, paint, sell,
daily goal), then clean-up. Every decision is a choice among the legal options enumerated by
the rules; a strategy returning anything else is counted in ST_ILLEGAL and its first option
is played, so a broken user strategy shows up in the logs instead of corrupting a game.

`play_chunk_nb` plays games first..first+n-1 of a run and returns one record per (game, seat).
A run with user strategies compiles a copy of these two functions in which `choose_nb` is
the user's dispatcher (see `build_player`).
"""

import numpy as np
from numba import njit

from sim.rng import game_seed_nb
from sim.user_strategies import compile_with_users, rebind
from sim.games.sunset.enums import (
    DEC_HIKE, DEC_PAINT, DEC_PLAN, DEC_SELL, EV_DAY, EV_HIKE, EV_PLAN, EV_SELL, EV_WAKE, G_DAY,
    G_END_REASON, G_OVER, G_SELLING_SEAT, G_SOLO, G_TURNS, MAX_HAND, MAX_MOVE,
    MAX_OPTIONS, MAX_PATH, MAX_PLAYERS, N_FEATURES, ST_CHOICES, ST_GOALS_CLAIMED, ST_ILLEGAL,
    ST_PAINTED, ST_SOLD_LANDSCAPES, ST_STEPS,
)
from sim.games.sunset.nb import (
    N_PTS, apply_hike_nb, apply_paint_nb, apply_plan_nb, apply_sell_nb,
    check_goal_nb, cleanup_nb, default_keep_nb, draw_plans_nb, goals_held_nb, hike_options_nb,
    paint_options_nb, path_nb, plan_options_nb, rank_nb, score_nb, sell_options_nb, setup_nb,
    trace_nb, turn_order_nb, wake_effect_nb,
)
from strategies.sunset import choose_builtin_nb, choose_nb

# Columns of play_chunk_nb's records, in order (all int64 except win: float64).
RECORD_COLUMNS = (
    ("game", "game index in the run"),
    ("seat", "seat, 0-based (seat 0 is listed first; all seats start on the centre card)"),
    ("score", "final score"),
    ("rank", "1 = winner; tied seats share a rank"),
    ("win", "win share: 1 for a sole winner, 1/k for k tied winners, else 0"),
    ("length", "player turns played in the game"),
    ("days", "days played"),
    ("end_reason", "0 = all days played, 1 = commission row could not be refilled"),
    ("pts_commissions", "points from commissions"),
    ("pts_goals", "points from daily goals"),
    ("pts_landscapes", "points from unsold landscapes"),
    ("pts_inspiration", "solo: inspiration bonus"),
    ("pts_home", "solo: return-home bonus"),
    ("n_commissions", "commissions sold"),
    ("n_goals", "daily goals kept"),
    ("commissions_mask", "bit c set = commission card c (file order) taken"),
    ("goals_mask", "bit g set = daily goal card g kept"),
    ("landscapes_left", "unsold landscapes at the end"),
    ("painted", "landscapes painted"),
    ("sold_landscapes", "landscapes sold"),
    ("steps", "hiking steps"),
    ("goal_claims", "times the seat took the daily goal card"),
    ("illegal", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("comm_day_0", "day each commission 0-15 was taken: 4 bits per card (bits 4c..4c+3), 1-based, 0 = not taken"),
    ("comm_day_1", "the same for commissions 16-31"),
    ("comm_day_2", "the same for commissions 32-47"),
    ("comm_day_3", "the same for commissions 48-62"),
    ("choices", "decisions the seat took among 2 or more legal options (a strategy that never won despite many is suspect)"),
)
N_COLUMNS = len(RECORD_COLUMNS)
# column indices (jitted code cannot read a dict)
C_GAME = 0
C_SEAT = 1
C_SCORE = 2
C_RANK = 3
C_WIN = 4
C_LENGTH = 5
C_DAYS = 6
C_END_REASON = 7
C_PTS_COMMISSIONS = 8
C_PTS_GOALS = 9
C_PTS_LANDSCAPES = 10
C_PTS_INSPIRATION = 11
C_PTS_HOME = 12
C_N_COMMISSIONS = 13
C_N_GOALS = 14
C_COMMISSIONS_MASK = 15
C_GOALS_MASK = 16
C_LANDSCAPES_LEFT = 17
C_PAINTED = 18
C_SOLD_LANDSCAPES = 19
C_STEPS = 20
C_GOAL_CLAIMS = 21
C_ILLEGAL = 22
C_COMM_DAY_0 = 23
C_CHOICES = 27
assert [n for n, _ in RECORD_COLUMNS] == [
    "game", "seat", "score", "rank", "win", "length", "days", "end_reason", "pts_commissions", "pts_goals", "pts_landscapes", "pts_inspiration", "pts_home", "n_commissions", "n_goals", "commissions_mask", "goals_mask", "landscapes_left", "painted", "sold_landscapes", "steps", "goal_claims", "illegal", "comm_day_0", "comm_day_1", "comm_day_2", "comm_day_3", "choices"]


@njit(cache=True, error_model="numpy")
def decide_nb(sids, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Ask the seat's strategy; an out-of-range answer is logged and replaced by option 0."""
    if n_options > 1:  # a real choice: the summary warns about a user strategy that never wins
        s.stats[seat, ST_CHOICES] += 1
    i = choose_nb(sids[seat], params[seat], tables, s, seat, decision, options, n_options, ctx, keep)
    if i < 0 or i >= n_options:
        s.stats[seat, ST_ILLEGAL] += 1
        return 0
    return i


@njit(cache=True, error_model="numpy")
def play_game_nb(tables, s, n_players, game_seed, sids, params, trace, tn):
    """Play one game to its end on state `s` (re-initialised here)."""
    setup_nb(tables, s, n_players, game_seed, trace, tn)
    g = s.g
    options = np.empty(MAX_OPTIONS, np.int64)
    ctx = np.zeros(2 + MAX_PATH, np.int64)
    keep = np.zeros(MAX_HAND, np.float64)
    path = np.zeros(MAX_PATH, np.int64)
    codes = np.zeros(MAX_PLAYERS, np.int64)
    solo = g[G_SOLO] == 1
    while g[G_OVER] == 0:
        trace_nb(trace, tn, EV_DAY, g[G_DAY], 0, 0, 0, 0)
        # --- planning: everyone chooses before anything is revealed -------------------
        for p in range(n_players):
            if not solo:
                draw_plans_nb(s, p)
            n = plan_options_nb(s, p, options)
            codes[p] = options[decide_nb(sids, params, tables, s, p, DEC_PLAN, options, n, ctx, keep)]
        for p in range(n_players):
            apply_plan_nb(s, p, codes[p])
            card = s.plan_choice[p]
            trace_nb(trace, tn, EV_PLAN, p, card, tables.plan_wake[card], 0, 0)
        if solo:
            band = wake_effect_nb(tables, s, s.plan_choice[0], trace, tn)
            trace_nb(trace, tn, EV_WAKE, 0, band, 0, 0, 0)
        turn_order_nb(tables, s)
        # --- trek, in wake-up order ----------------------------------------------------
        for t in range(n_players):
            p = s.order[t]
            g[G_SELLING_SEAT] = p
            card = s.plan_choice[p]
            ctx[0] = card
            ctx[1] = 0
            n = hike_options_nb(tables, s, p, card, options)
            hike = options[decide_nb(sids, params, tables, s, p, DEC_HIKE, options, n, ctx, keep)]
            start = s.pos[p]
            n_path = path_nb(start, hike, path)
            apply_hike_nb(tables, s, p, hike, trace, tn)
            trace_nb(trace, tn, EV_HIKE, p, hike // (MAX_MOVE + 1), hike % (MAX_MOVE + 1), start, s.pos[p])

            ctx[1] = n_path
            for i in range(n_path):
                ctx[2 + i] = path[i]
            n = paint_options_nb(s, p, path, n_path, tables.plan_paint[card], options)
            mask = options[decide_nb(sids, params, tables, s, p, DEC_PAINT, options, n, ctx, keep)]
            painted_features = 0
            n_painted = 0
            for i in range(n_path):
                if (mask >> i) & 1:
                    n_painted += 1
                    land = s.grid[path[i]]
                    for f in range(N_FEATURES):
                        if tables.landscape_features[land, f] > 0:
                            painted_features |= 1 << f
            apply_paint_nb(s, p, path, mask, trace, tn)

            n_sold = 0
            while True:
                n = sell_options_nb(tables, s, p, options)
                if n == 1:
                    break  # only "stop" is left
                default_keep_nb(tables, s, p, keep)
                slot = options[decide_nb(sids, params, tables, s, p, DEC_SELL, options, n, ctx, keep)]
                if slot < 0:
                    break
                comm = apply_sell_nb(tables, s, p, slot, keep, trace, tn)
                trace_nb(trace, tn, EV_SELL, p, comm, slot, 0, 0)
                n_sold += 1

            check_goal_nb(tables, s, p, hike, n_painted, painted_features, n_sold, trace, tn)
            s.plan_used[p, card] = g[G_DAY] + 1
            g[G_TURNS] += 1
        g[G_SELLING_SEAT] = -1
        cleanup_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def record_game_nb(tables, s, n_players, game_index, out, fout, row0):
    """Write the records of a finished game: rows row0..row0+n_players-1."""
    pts = np.zeros(N_PTS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    goals = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p, pts)
        goals[p] = goals_held_nb(s, p)
        r = row0 + p
        for k in range(N_PTS):  # pts_* columns follow the PTS_* order of score_nb
            out[r, C_PTS_COMMISSIONS + k] = pts[k]
    rank_nb(scores, goals, n_players, rank, win)
    for p in range(n_players):
        r = row0 + p
        out[r, C_GAME] = game_index
        out[r, C_SEAT] = p
        out[r, C_SCORE] = scores[p]
        out[r, C_RANK] = rank[p]
        fout[r] = win[p]
        out[r, C_LENGTH] = s.g[G_TURNS]
        out[r, C_DAYS] = s.g[G_DAY] + 1
        out[r, C_END_REASON] = s.g[G_END_REASON]
        n_c = 0
        cmask = 0
        for k in range(4):
            out[r, C_COMM_DAY_0 + k] = 0
        for c in range(tables.n_comm):
            day = s.comm_owned[p, c]
            if day > 0:
                n_c += 1
                cmask |= 1 << c
                out[r, C_COMM_DAY_0 + c // 16] |= day << (4 * (c % 16))
        gmask = 0
        for gl in range(tables.n_goal):
            if s.goal_owned[p, gl] > 0 and gl < 63:
                gmask |= 1 << gl
        out[r, C_N_COMMISSIONS] = n_c
        out[r, C_N_GOALS] = goals[p]
        out[r, C_COMMISSIONS_MASK] = cmask
        out[r, C_GOALS_MASK] = gmask
        out[r, C_LANDSCAPES_LEFT] = s.hand_n[p]
        out[r, C_PAINTED] = s.stats[p, ST_PAINTED]
        out[r, C_SOLD_LANDSCAPES] = s.stats[p, ST_SOLD_LANDSCAPES]
        out[r, C_STEPS] = s.stats[p, ST_STEPS]
        out[r, C_GOAL_CLAIMS] = s.stats[p, ST_GOALS_CLAIMED]
        out[r, C_ILLEGAL] = s.stats[p, ST_ILLEGAL]
        out[r, C_CHOICES] = s.stats[p, ST_CHOICES]


@njit(cache=True, error_model="numpy")
def play_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params):
    """Play games first_game..first_game+n_games-1; returns (int64 records, win shares).
    tables_rec: the packed tables (enums.pack_tables); state_rec: a 1-element STATE_DTYPE
    array owned by the caller (a record view does not keep its array alive in numba, so
    the arrays must outlive this call)."""
    tables = tables_rec[0]
    s = state_rec[0]
    out = np.zeros((n_games * n_players, N_COLUMNS), np.int64)
    fout = np.zeros(n_games * n_players, np.float64)
    no_trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    for i in range(n_games):
        game = first_game + i
        play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, no_trace, tn)
        record_game_nb(tables, s, n_players, game, out, fout, i * n_players)
    return out, fout


@njit(cache=True, error_model="numpy")
def trace_game_nb(tables_rec, state_rec, n_players, run_seed, game, sids, params, max_events):
    """Replay one game with its trace on; returns (events, count, records, win shares);
    the final state is left in state_rec."""
    tables = tables_rec[0]
    s = state_rec[0]
    trace = np.zeros((max_events, 6), np.int64)
    tn = np.zeros(1, np.int64)
    play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, trace, tn)
    out = np.zeros((n_players, N_COLUMNS), np.int64)
    fout = np.zeros(n_players, np.float64)
    record_game_nb(tables, s, n_players, game, out, fout, 0)
    return trace, tn[0], out, fout


# ---------------------------------------------------------------------------------------
# user strategies: recompile the loop with the user's functions in the dispatch
# ---------------------------------------------------------------------------------------
_PLAYERS = {}


def build_player(user_functions=()):
    """(play_chunk, trace_game) for a run: the cached kernels, or, with user strategies,
    copies of the loop whose dispatcher sends id -1-k to user_functions[k]
    (sim/user_strategies.py)."""
    if not user_functions:
        return play_chunk_nb, trace_game_nb

    def chain(choose_user):
        decide = rebind(decide_nb, choose_nb=choose_user)
        play_game = rebind(play_game_nb, decide_nb=decide)
        return (rebind(play_chunk_nb, play_game_nb=play_game),
                rebind(trace_game_nb, play_game_nb=play_game))

    return compile_with_users(_PLAYERS, user_functions, choose_builtin_nb, chain)
