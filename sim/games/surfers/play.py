"""Grand Surfers: the play loop, where the rules (nb.py) meet the strategies.

`play_game_nb` plays one game: seat 0 first, then clockwise, until the Great Wave has covered
every sea line (or the turn-limit guard). A turn: the seat aims (DEC_AIM), the flick lands
(nb.flick_nb: aim + noise) and shows its pips; the landed cell's action may be used
(DEC_ACTION: pips +/-1, re-flick -> back to aiming, draw a channel); then one surfer moves
(DEC_MOVE) by the pips, halved when the die landed off the sheet or in a 1/2 cell. Stops on
one's own surfer's circle ask that surfer's owner how far to boost it (DEC_BOOST). At the end
of the turn the fastest marker is handed over and its holder's turns fold the wave.

A strategy returning anything but a legal index is counted in ST_ILLEGAL and option 0 is
played. `check` (an int) makes the loop verify nb.check_state_nb after every applied
decision and record the first failure in g[G_BROKEN].
"""

import numpy as np
from numba import njit

from sim.rng import game_seed_nb
from sim.user_strategies import compile_with_users, rebind
from sim.games.surfers.enums import (
    ACT_CHANNEL_DOWN, ACT_CHANNEL_UP, ACT_MINUS, ACT_PLUS, ACT_REFLICK, CTX_BOOSTED,
    CTX_HALF, CTX_LANDED, CTX_LEN, CTX_PIPS, CTX_STEPS, DEC_ACTION, DEC_AIM, DEC_BOOST,
    DEC_MOVE, EV_ACTION, EV_FLICK, EV_PASS, EV_TURN, G_BROKEN, G_BROKEN_TURN, G_END_REASON,
    G_FASTEST, G_FASTEST_TURN, G_HALF, G_LANDED, G_OVER, G_PIPS, G_SEAT, G_TURNS, KEEP_LEN,
    MAX_OPTIONS, MAX_PLAYERS, OPT_CHANNEL, OPT_MINUS, OPT_NO_ACTION, OPT_PLUS, OPT_REFLICK,
    ST_BOOST_CHAIN, R_MAX_CHAIN, R_TURN_LIMIT, S_BEACH, S_TIDE, S_WAVE, ST_ACTION_CELLS, ST_AIM_HIT,
    ST_BOOSTS, ST_CHAN_DOWN, ST_CHAN_UP, ST_FLICKS, ST_CHOICES, ST_HALF, ST_ILLEGAL, ST_KILLS, ST_MINUS,
    ST_MOVES, ST_OFF, ST_PASS, ST_PLUS, ST_PROGRESS, ST_PUSHED, ST_PUSHES, ST_REFLICK,
    ST_RIDES, ST_SHORT, ST_TURNS, W_HALF, W_PLAIN,
)
from sim.games.surfers.nb import (
    N_PTS, action_options_nb, aim_options_nb, apply_boost_nb, apply_channel_nb,
    apply_move_nb, apply_pips_nb, boost_blocked_nb, boost_options_nb, check_state_nb,
    draw_pips_nb, end_turn_nb, flick_nb, is_half_nb, move_options_nb, rank_nb, score_nb,
    setup_nb, stop_game_nb, trace_nb,
)
from strategies.surfers import choose_builtin_nb, choose_nb

RECORD_COLUMNS = (
    ("game", "game index in the run"),
    ("seat", "seat, 0-based (seat 0 plays first)"),
    ("score", "final score"),
    ("rank", "1 = winner; equal scores: the seat without the fastest marker is ahead; still equal: shared rank"),
    ("win", "1 for the winner, 1/k for k seats sharing the win, else 0"),
    ("length", "turns played in the game (all seats)"),
    ("end_reason", "0 = the wave covered the sea, 1 = turn-limit guard"),
    ("pts_fastest", "points of the fastest marker"),
    ("pts_duo", "points for both surfers on the beach"),
    ("pts_cells", "points of the finish cells the seat's surfers hold"),
    ("spread_milli", "the seat's flick spread (its skill setting; 0 = perfect aim) x 1000"),
    ("edge_milli", "mean spread of the other seats minus this seat's, x 1000 (> 0: steadier hand)"),
    ("turns", "turns this seat played"),
    ("fastest", "1 if the seat holds the fastest marker"),
    ("fastest_turn", "game turn at which the marker was won (-1 never; same on every row)"),
    ("on_beach", "the seat's surfers on the beach at the end (0-2)"),
    ("out_wave", "the seat's surfers taken by the Great Wave"),
    ("out_tide", "the seat's surfers pushed into tide cells"),
    ("finish_best", "best finish cell held (0 = Grand...), -1 none"),
    ("flicks", "flicks (re-flicks included, short flicks repeated not)"),
    ("short_flicks", "flicks that did not cross the start line (repeated)"),
    ("off_sheet", "flicks landing off the wave sheet"),
    ("aim_hits", "flicks landing in the cell aimed at"),
    ("action_cells", "flicks landing on a cell with an action"),
    ("half_moves", "turns whose move was halved (off the sheet or 1/2 cell)"),
    ("plus", "pips +1 used"),
    ("minus", "pips -1 used"),
    ("reflicks", "re-flicks used"),
    ("channels_up", "channels drawn upward"),
    ("channels_down", "channels drawn downward"),
    ("moves", "normal moves"),
    ("passes", "turns without a move (0 pips or no surfer to move)"),
    ("progress", "lines gained by own surfers through moves, rides and boosts (beach = the line count)"),
    ("pushes", "opponent surfers pushed (first of each chain)"),
    ("pushed", "times the seat's surfers were pushed"),
    ("kills", "opponent surfers the seat's pushes put out of the game"),
    ("boosts", "boosts"),
    ("rides", "channel rides by the seat's surfers"),
    ("boost_loops", "boosts set off by a boost: a ride back onto the partner (0 under the default rules.boost_loop)"),
    ("illegal", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("broken", "checked games only: first broken invariant code, 0 = none"),
    ("actions_mask", "bit a set = action a used at least once (pips +1, pips -1, re-flick, channel up, channel down)"),
    ("finish_mask", "bit k set = a surfer of the seat ends in finish cell k"),
    ("edge_mask", "one bit: 0 steadier than the table mean, 1 as steady, 2 less steady"),
    ("fastest_mask", "bit 0 set = the seat holds the fastest marker"),
    ("lost_mask", "bit 0: lost a surfer to the wave, bit 1: to the tide, bit 2: lost none"),
    ("choices", "decisions the seat took among 2 or more legal options (a strategy that never won despite many is suspect)"),
)
N_COLUMNS = len(RECORD_COLUMNS)
_NAMES = [n for n, _ in RECORD_COLUMNS]
C_GAME, C_SEAT, C_SCORE, C_RANK, C_WIN, C_LENGTH, C_END_REASON = range(7)
C_PTS_FASTEST = _NAMES.index("pts_fastest")
C_SPREAD = _NAMES.index("spread_milli")
C_EDGE = _NAMES.index("edge_milli")
C_TURNS = _NAMES.index("turns")
C_FASTEST = _NAMES.index("fastest")
C_FASTEST_TURN = _NAMES.index("fastest_turn")
C_ON_BEACH = _NAMES.index("on_beach")
C_OUT_WAVE = _NAMES.index("out_wave")
C_OUT_TIDE = _NAMES.index("out_tide")
C_FINISH_BEST = _NAMES.index("finish_best")
C_FLICKS = _NAMES.index("flicks")
C_ILLEGAL = _NAMES.index("illegal")
C_BOOSTS = _NAMES.index("boosts")
C_BOOST_LOOPS = _NAMES.index("boost_loops")
C_BROKEN = _NAMES.index("broken")
C_ACTIONS_MASK = _NAMES.index("actions_mask")
C_FINISH_MASK = _NAMES.index("finish_mask")
C_EDGE_MASK = _NAMES.index("edge_mask")
C_FASTEST_MASK = _NAMES.index("fastest_mask")
C_LOST_MASK = _NAMES.index("lost_mask")
C_CHOICES = _NAMES.index("choices")
# stats copied one to one, in column order from "flicks" to "boost_loops"
_STAT_COLS = np.array([ST_FLICKS, ST_SHORT, ST_OFF, ST_AIM_HIT, ST_ACTION_CELLS, ST_HALF,
                       ST_PLUS, ST_MINUS, ST_REFLICK, ST_CHAN_UP, ST_CHAN_DOWN, ST_MOVES,
                       ST_PASS, ST_PROGRESS, ST_PUSHES, ST_PUSHED, ST_KILLS, ST_BOOSTS,
                       ST_RIDES, ST_BOOST_CHAIN], np.int64)
assert _NAMES[C_FLICKS + len(_STAT_COLS) - 1] == "boost_loops" and _NAMES[C_FLICKS + len(_STAT_COLS)] == "illegal"


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
def checked_nb(tables, s, check):
    if check != 0 and s.g[G_BROKEN] == 0:
        code = check_state_nb(tables, s)
        if code != 0:
            s.g[G_BROKEN] = code
            s.g[G_BROKEN_TURN] = s.g[G_TURNS]


@njit(cache=True, error_model="numpy")
def resolve_boosts_nb(tables, s, cand, sids, params, options, ctx, keep, trace, tn, check):
    """Boost the surfer `cand` (its owner chooses how far), and any boost that sets off. Under
    the default loop rule (LOOP_NO_REVISIT) boost_options_nb offers no distance that rides back
    onto the partner, so a chain never goes on; under LOOP_GUARD_PUSH (the earlier engine's
    invented rule, kept as an option) it may, up to R_MAX_CHAIN boosts, after which the boosted
    surfer is pushed down. (The guard is checked under both rules so that no game can hang;
    under LOOP_NO_REVISIT it is unreachable: ST_BOOST_CHAIN counts chains longer than one.)"""
    chain = 0
    while cand >= 0:
        if chain >= 1:
            s.stats[cand // 2, ST_BOOST_CHAIN] += 1
        if chain >= tables.rules[R_MAX_CHAIN]:
            boost_blocked_nb(tables, s, cand, trace, tn)
            break
        n = boost_options_nb(tables, s, cand, options)
        if n == 0:
            boost_blocked_nb(tables, s, cand, trace, tn)
            break
        ctx[CTX_BOOSTED] = cand
        owner = cand // 2
        d = options[decide_nb(sids, params, tables, s, owner, DEC_BOOST, options, n, ctx, keep)]
        cand = apply_boost_nb(tables, s, cand, d, trace, tn)
        chain += 1
    checked_nb(tables, s, check)


@njit(cache=True, error_model="numpy")
def play_turn_nb(tables, s, p, sids, params, options, ctx, keep, trace, tn, check):
    """One turn of seat p: flick (and re-flicks), the action, the move, the end of turn."""
    g = s.g
    g[G_SEAT] = p
    s.stats[p, ST_TURNS] += 1
    trace_nb(trace, tn, EV_TURN, p, g[G_TURNS], 0, 0, 0)
    n_reflicks = 0
    pips = 0
    half = False
    while True:
        n = aim_options_nb(tables, options)
        aim = options[decide_nb(sids, params, tables, s, p, DEC_AIM, options, n, ctx, keep)]
        short0 = s.stats[p, ST_SHORT]
        landed = flick_nb(tables, s, p, aim)
        pips = draw_pips_nb(tables, s)
        s.stats[p, ST_FLICKS] += 1
        if landed == aim:
            s.stats[p, ST_AIM_HIT] += 1
        if landed < 0:
            s.stats[p, ST_OFF] += 1
        elif tables.wave_kind[landed] != W_PLAIN and tables.wave_kind[landed] != W_HALF:
            s.stats[p, ST_ACTION_CELLS] += 1
        half = is_half_nb(tables, landed)
        trace_nb(trace, tn, EV_FLICK, p, aim, landed, pips, s.stats[p, ST_SHORT] - short0)
        ctx[CTX_PIPS] = pips
        ctx[CTX_HALF] = 1 if half else 0
        ctx[CTX_LANDED] = landed
        n = action_options_nb(tables, s, landed, pips, n_reflicks, options)
        if n > 1:
            code = options[decide_nb(sids, params, tables, s, p, DEC_ACTION, options, n, ctx, keep)]
            if code != OPT_NO_ACTION:
                trace_nb(trace, tn, EV_ACTION, p, code, 0, 0, 0)
            if code == OPT_REFLICK:
                n_reflicks += 1
                s.stats[p, ST_REFLICK] += 1
                continue
            if code == OPT_PLUS or code == OPT_MINUS:
                pips = apply_pips_nb(tables, s, p, code, pips)
            elif code >= OPT_CHANNEL:
                cand = apply_channel_nb(tables, s, p, code, trace, tn)
                resolve_boosts_nb(tables, s, cand, sids, params, options, ctx, keep, trace, tn, check)
            checked_nb(tables, s, check)
        break
    g[G_PIPS] = pips
    g[G_HALF] = 1 if half else 0
    g[G_LANDED] = ctx[CTX_LANDED]
    steps = pips // 2 if half else pips
    if half:
        s.stats[p, ST_HALF] += 1
    moved = False
    if steps > 0:
        n = move_options_nb(tables, s, p, options)
        if n > 0:
            ctx[CTX_PIPS] = pips
            ctx[CTX_STEPS] = steps
            code = options[decide_nb(sids, params, tables, s, p, DEC_MOVE, options, n, ctx, keep)]
            cand = apply_move_nb(tables, s, p, code, steps, trace, tn)
            # (no check here: a surfer about to be boosted still shares the circle)
            resolve_boosts_nb(tables, s, cand, sids, params, options, ctx, keep, trace, tn, check)
            moved = True
    if not moved:
        s.stats[p, ST_PASS] += 1
        trace_nb(trace, tn, EV_PASS, p, 0, 0, 0, 0)
    end_turn_nb(tables, s, p, trace, tn)
    g[G_TURNS] += 1
    checked_nb(tables, s, check)


@njit(cache=True, error_model="numpy")
def play_game_nb(tables, s, n_players, game_seed, sids, params, trace, tn, check):
    """Play one game to its end on state `s` (re-initialised here)."""
    setup_nb(tables, s, n_players, game_seed)
    options = np.empty(MAX_OPTIONS, np.int64)
    ctx = np.zeros(CTX_LEN, np.int64)
    keep = np.zeros(KEEP_LEN, np.float64)
    checked_nb(tables, s, check)
    p = 0
    while s.g[G_OVER] == 0:
        play_turn_nb(tables, s, p, sids, params, options, ctx, keep, trace, tn, check)
        if s.g[G_OVER] == 0 and s.g[G_TURNS] >= tables.rules[R_TURN_LIMIT]:
            stop_game_nb(s, trace, tn)
        p = (p + 1) % n_players


@njit(cache=True, error_model="numpy")
def record_game_nb(tables, s, n_players, game_index, out, fout, row0):
    """Write the records of a finished game: rows row0..row0+n_players-1."""
    pts = np.zeros(N_PTS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    fastest = s.g[G_FASTEST]
    total_spread = 0.0
    for p in range(n_players):
        total_spread += tables.skill[p]
    for p in range(n_players):
        r = row0 + p
        scores[p] = score_nb(tables, s, p, pts)
        for k in range(N_PTS):
            out[r, C_PTS_FASTEST + k] = pts[k]
    rank_nb(scores, fastest, n_players, rank, win)
    for p in range(n_players):
        r = row0 + p
        out[r, C_GAME] = game_index
        out[r, C_SEAT] = p
        out[r, C_SCORE] = scores[p]
        out[r, C_RANK] = rank[p]
        fout[r] = win[p]
        out[r, C_LENGTH] = s.g[G_TURNS]
        out[r, C_END_REASON] = s.g[G_END_REASON]
        own = tables.skill[p]
        others = (total_spread - own) / float(n_players - 1) if n_players > 1 else own
        out[r, C_SPREAD] = int(round(own * 1000.0))
        edge = int(round((others - own) * 1000.0))
        out[r, C_EDGE] = edge
        out[r, C_TURNS] = s.stats[p, ST_TURNS]
        out[r, C_FASTEST] = 1 if fastest == p else 0
        out[r, C_FASTEST_TURN] = s.g[G_FASTEST_TURN]
        on_beach = 0
        wave = 0
        tide = 0
        best = -1
        fmask = 0
        for k in range(2):
            who = 2 * p + k
            st = s.status[who]
            if st == S_BEACH:
                on_beach += 1
                fmask |= 1 << s.slot[who]
                if best < 0 or s.slot[who] < best:
                    best = s.slot[who]
            elif st == S_WAVE:
                wave += 1
            elif st == S_TIDE:
                tide += 1
        out[r, C_ON_BEACH] = on_beach
        out[r, C_OUT_WAVE] = wave
        out[r, C_OUT_TIDE] = tide
        out[r, C_FINISH_BEST] = best
        for j in range(_STAT_COLS.shape[0]):
            out[r, C_FLICKS + j] = s.stats[p, _STAT_COLS[j]]
        out[r, C_ILLEGAL] = s.stats[p, ST_ILLEGAL]
        out[r, C_CHOICES] = s.stats[p, ST_CHOICES]
        out[r, C_BROKEN] = s.g[G_BROKEN]
        amask = 0
        if s.stats[p, ST_PLUS] > 0:
            amask |= 1 << ACT_PLUS
        if s.stats[p, ST_MINUS] > 0:
            amask |= 1 << ACT_MINUS
        if s.stats[p, ST_REFLICK] > 0:
            amask |= 1 << ACT_REFLICK
        if s.stats[p, ST_CHAN_UP] > 0:
            amask |= 1 << ACT_CHANNEL_UP
        if s.stats[p, ST_CHAN_DOWN] > 0:
            amask |= 1 << ACT_CHANNEL_DOWN
        out[r, C_ACTIONS_MASK] = amask
        out[r, C_FINISH_MASK] = fmask
        out[r, C_EDGE_MASK] = 1 if edge > 0 else (2 if edge == 0 else 4)
        out[r, C_FASTEST_MASK] = 1 if fastest == p else 0
        lmask = 0
        if wave > 0:
            lmask |= 1
        if tide > 0:
            lmask |= 2
        if wave == 0 and tide == 0:
            lmask |= 4
        out[r, C_LOST_MASK] = lmask


@njit(cache=True, error_model="numpy")
def _play_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, check):
    tables = tables_rec[0]
    s = state_rec[0]
    out = np.zeros((n_games * n_players, N_COLUMNS), np.int64)
    fout = np.zeros(n_games * n_players, np.float64)
    no_trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    for i in range(n_games):
        game = first_game + i
        play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, no_trace, tn, check)
        record_game_nb(tables, s, n_players, game, out, fout, i * n_players)
    return out, fout


@njit(cache=True, error_model="numpy")
def play_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params):
    """Play games first_game..first_game+n_games-1; returns (int64 records, win shares).
    state_rec: a 1-element STATE_DTYPE array owned by the caller."""
    return _play_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, 0)


@njit(cache=True, error_model="numpy")
def play_checked_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params):
    """play_chunk_nb with every invariant checked after every decision (column `broken`)."""
    return _play_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, 1)


@njit(cache=True, error_model="numpy")
def trace_game_nb(tables_rec, state_rec, n_players, run_seed, game, sids, params, max_events):
    """Replay one game with its trace on; returns (events, count, records, win shares); the
    final state is left in state_rec."""
    tables = tables_rec[0]
    s = state_rec[0]
    trace = np.zeros((max_events, 6), np.int64)
    tn = np.zeros(1, np.int64)
    play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, trace, tn, 1)
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
        resolve = rebind(resolve_boosts_nb, decide_nb=decide)
        play_turn = rebind(play_turn_nb, decide_nb=decide, resolve_boosts_nb=resolve)
        play_game = rebind(play_game_nb, play_turn_nb=play_turn)
        chunk = rebind(_play_chunk_nb, play_game_nb=play_game)
        return (rebind(play_chunk_nb, _play_chunk_nb=chunk),
                rebind(trace_game_nb, play_game_nb=play_game))

    return compile_with_users(_PLAYERS, user_functions, choose_builtin_nb, chain)
