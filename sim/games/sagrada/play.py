"""Sagrada: the play loop, where the rules (nb.py) meet the strategies.

`play_game_nb` plays one game: every seat chooses its window (one of the 4 sides of its two
dealt cards), then 10 rounds: the pool is drawn, the seats take their turns in snake order,
the leftover dice go onto the round track. A turn is a sequence of actions chosen from the
legal options nb.action_options_nb lists (draft a die onto a cell, use a tool card, end the
turn) until the seat ends it or nothing is left to do; a tool's arguments are further
decisions (DEC_TOOL, DEC_PLACE). A strategy returning anything but a legal index is counted
in ST_ILLEGAL and option 0 is played.

`check` (an int) makes the loop verify nb.check_state_nb after every applied decision and
record the first failure in g[G_BROKEN] (the invariant tests run thousands of games so).
"""

import numpy as np
from numba import njit

from sim.rng import game_seed_nb
from sim.user_strategies import compile_with_users, rebind
from sim.games.sagrada.enums import (
    CTX_LEN, DEC_ACTION, DEC_PLACE, DEC_TOOL, DEC_WINDOW, EV_PASS, EV_TURN, EV_WINDOW, G_BROKEN,
    G_BROKEN_TURN, G_DRAFTED, G_HELD_COLOUR, G_HELD_VALUE, G_N_PUBLIC,
    G_N_TOOLS, G_OVER, G_SEAT, G_SOLO, G_TURNS, G_END_REASON, G_FIRST_START,
    M_IGNORE_COLOUR, M_IGNORE_SHADE, M_NOT_ADJACENT, MAX_OPTIONS, MAX_PLAYERS, N_CELLS, OPT_END,
    OPT_TOOL, OPT_TOOL_STRIDE, ST_CHOICES, ST_ILLEGAL, ST_MOVES, ST_PASSES, ST_PLACED, ST_RETURNED,
    ST_TOKENS_SPENT, T_COPPER_FOIL, T_CORK_BACKED, T_EGLOMISE_BRUSH, T_FLUX_BRUSH,
    T_FLUX_REMOVER, T_GLAZING_HAMMER, T_GRINDING_STONE, T_GROZING_PLIERS, T_LATHEKIN,
    T_LENS_CUTTER, T_RUNNING_PLIERS, T_TAP_WHEEL, N_PUB_SLOTS,
)
from sim.games.sagrada.nb import (
    N_PTS, action_options_nb, apply_draft_nb, apply_flux_brush_nb, apply_flux_remover_nb,
    apply_glazing_nb, apply_grinding_nb, apply_grozing_nb, apply_lens_nb, apply_move_nb,
    apply_running_nb, apply_window_nb, begin_turn_nb, cell_options_nb, check_state_nb,
    draft_tool_options_nb, end_round_nb, final_position_nb, flux_value_options_nb,
    lathekin_options_nb, lens_options_nb, move_options_nb, pay_tool_nb, place_held_nb,
    rank_nb, return_held_nb, score_nb, set_flux_value_nb, setup_nb, start_round_nb,
    take_for_tool_nb, target_score_nb, trace_nb, track_colours_nb, window_options_nb,
)
from strategies.sagrada import choose_builtin_nb, choose_nb

RECORD_COLUMNS = (
    ("game", "game index in the run"),
    ("seat", "seat, 0-based"),
    ("score", "final score"),
    ("rank", "1 = winner (ties broken by the rulebook's three steps: ranks are distinct)"),
    ("win", "1 for the winner, else 0 (solo: 1 if the score beats the target score)"),
    ("length", "turns played in the game (skipped turns excluded)"),
    ("end_reason", "0 = all rounds played"),
    ("pts_public_1", "points from the first public objective (column public_1)"),
    ("pts_public_2", "points from the second public objective"),
    ("pts_public_3", "points from the third public objective (0 in solo)"),
    ("pts_private", "points from the private objective (solo: the better of the two)"),
    ("pts_favor", "points from unspent favor tokens"),
    ("pts_empty", "points lost for open spaces (negative)"),
    ("window", "pattern id chosen (file order)"),
    ("difficulty", "difficulty of the chosen pattern (favor tokens received)"),
    ("private", "private objective card id (solo: the first of the two)"),
    ("private_2", "solo: the second private objective card id, else -1"),
    ("public_1", "public objective id in slot 1"),
    ("public_2", "public objective id in slot 2"),
    ("public_3", "public objective id in slot 3 (-1 in solo)"),
    ("tools_mask", "bit t set = tool card t (file order) face up in this game"),
    ("tools_used_mask", "bit t set = this seat used tool card t"),
    ("tool_uses", "tool cards used by this seat"),
    ("tokens_spent", "favor tokens spent"),
    ("tokens_left", "favor tokens left"),
    ("empty_cells", "open spaces left in the window"),
    ("placed", "dice placed"),
    ("passes", "turns without a draft"),
    ("moves", "window dice moved by tools"),
    ("returned", "dice a tool returned to the pool"),
    ("start_position", "seat's place in round 1's clockwise order (0 = first start player)"),
    ("target", "solo: target score (round-track sum), else 0"),
    ("illegal", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("broken", "checked games only: first broken invariant code, 0 = none"),
    ("window_mask", "bit w set = window pattern w chosen (one bit)"),
    ("public_mask", "bit o set = public objective o face up in this game"),
    ("private_mask", "bit k set = private objective k held (solo: both)"),
    ("solo_tools", "solo: tool cards face up = the difficulty (1 hardest .. 5 easiest), else 0"),
    ("margin", "solo: score minus the target score (win = margin > 0), else 0"),
    ("choices", "decisions the seat took among 2 or more legal options (a strategy that never won despite many is suspect)"),
)
N_COLUMNS = len(RECORD_COLUMNS)
C_GAME, C_SEAT, C_SCORE, C_RANK, C_WIN, C_LENGTH, C_END_REASON = range(7)
C_PTS_PUBLIC_1 = 7
C_WINDOW = 13
C_DIFFICULTY = 14
C_PRIVATE = 15
C_PRIVATE_2 = 16
C_PUBLIC_1 = 17
C_TOOLS_MASK = 20
C_TOOLS_USED_MASK = 21
C_TOOL_USES = 22
C_TOKENS_SPENT = 23
C_TOKENS_LEFT = 24
C_EMPTY = 25
C_PLACED = 26
C_PASSES = 27
C_MOVES = 28
C_RETURNED = 29
C_START_POSITION = 30
C_TARGET = 31
C_ILLEGAL = 32
C_BROKEN = 33
C_WINDOW_MASK = 34
C_PUBLIC_MASK = 35
C_PRIVATE_MASK = 36
C_SOLO_TOOLS = 37
C_MARGIN = 38
C_CHOICES = 39
assert [n for n, _ in RECORD_COLUMNS][C_BROKEN] == "broken" and N_COLUMNS == C_CHOICES + 1
assert [n for n, _ in RECORD_COLUMNS][C_WINDOW] == "window"
assert [n for n, _ in RECORD_COLUMNS][C_TOOLS_MASK] == "tools_mask"


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
def place_held_decision_nb(tables, s, p, mode, sids, params, options, ctx, keep, trace, tn, check):
    """A tool's held die: the seat picks a legal cell (DEC_PLACE); with none it returns to the
    pool."""
    n = cell_options_nb(s, p, s.g[G_HELD_COLOUR], s.g[G_HELD_VALUE], mode, options)
    if n == 0:
        return_held_nb(s, p, trace, tn)
        return
    ctx[2] = mode
    cell = options[decide_nb(sids, params, tables, s, p, DEC_PLACE, options, n, ctx, keep)]
    place_held_nb(s, p, cell, trace, tn)
    checked_nb(tables, s, check)


@njit(cache=True, error_model="numpy")
def tool_decision_nb(tables, s, p, effect, step, sids, params, options, n, ctx, keep):
    ctx[0] = effect
    ctx[1] = step
    return options[decide_nb(sids, params, tables, s, p, DEC_TOOL, options, n, ctx, keep)]


@njit(cache=True, error_model="numpy")
def use_tool_nb(tables, s, p, slot, payer, sids, params, options, ctx, keep, trace, tn, check):
    """Pay for tool `slot` and carry out its effect, asking the seat for its arguments."""
    effect = tables.tool_effect[s.tools[slot]]
    pay_tool_nb(tables, s, p, slot, payer, trace, tn)
    checked_nb(tables, s, check)
    if effect == T_GROZING_PLIERS or effect == T_GRINDING_STONE or effect == T_CORK_BACKED \
            or effect == T_FLUX_BRUSH or effect == T_FLUX_REMOVER:
        n = draft_tool_options_nb(s, p, effect, options)
        code = tool_decision_nb(tables, s, p, effect, 0, sids, params, options, n, ctx, keep)
        mode = 0
        if effect == T_GROZING_PLIERS:
            apply_grozing_nb(s, code, trace, tn)
        elif effect == T_GRINDING_STONE:
            apply_grinding_nb(s, code, trace, tn)
        elif effect == T_CORK_BACKED:
            take_for_tool_nb(s, code)
            mode = M_NOT_ADJACENT
        elif effect == T_FLUX_BRUSH:
            apply_flux_brush_nb(s, code, trace, tn)
        else:
            apply_flux_remover_nb(s, code, trace, tn)
            checked_nb(tables, s, check)
            n = flux_value_options_nb(s, p, options)
            v = tool_decision_nb(tables, s, p, effect, 1, sids, params, options, n, ctx, keep)
            set_flux_value_nb(s, v, trace, tn)
        checked_nb(tables, s, check)
        place_held_decision_nb(tables, s, p, mode, sids, params, options, ctx, keep, trace, tn, check)
    elif effect == T_LENS_CUTTER:
        n = lens_options_nb(s, p, options)
        code = tool_decision_nb(tables, s, p, effect, 0, sids, params, options, n, ctx, keep)
        apply_lens_nb(s, code, trace, tn)
        checked_nb(tables, s, check)
        place_held_decision_nb(tables, s, p, 0, sids, params, options, ctx, keep, trace, tn, check)
    elif effect == T_GLAZING_HAMMER:
        apply_glazing_nb(s, trace, tn)
    elif effect == T_RUNNING_PLIERS:
        apply_running_nb(s, p)
    elif effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL:
        mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else M_IGNORE_SHADE
        n = move_options_nb(s, p, mode, -1, -1, options, 0)
        code = tool_decision_nb(tables, s, p, effect, 0, sids, params, options, n, ctx, keep)
        apply_move_nb(s, p, code, mode, trace, tn)
    elif effect == T_LATHEKIN:
        n = lathekin_options_nb(s, p, options)
        code = tool_decision_nb(tables, s, p, effect, 0, sids, params, options, n, ctx, keep)
        to = apply_move_nb(s, p, code, 0, trace, tn)
        checked_nb(tables, s, check)
        n = move_options_nb(s, p, 0, -1, to, options, 0)
        code = tool_decision_nb(tables, s, p, effect, 1, sids, params, options, n, ctx, keep)
        apply_move_nb(s, p, code, 0, trace, tn)
    elif effect == T_TAP_WHEEL:
        n = move_options_nb(s, p, 0, track_colours_nb(s), -1, options, 0)
        code = tool_decision_nb(tables, s, p, effect, 0, sids, params, options, n, ctx, keep)
        to = apply_move_nb(s, p, code, 0, trace, tn)
        checked_nb(tables, s, check)
        n = move_options_nb(s, p, 0, 1 << s.win_colour[p, to], to, options, 0)
        options[n] = OPT_END
        code = tool_decision_nb(tables, s, p, effect, 1, sids, params, options, n + 1, ctx, keep)
        if code != OPT_END:
            apply_move_nb(s, p, code, 0, trace, tn)
    checked_nb(tables, s, check)
    ctx[0] = -1


@njit(cache=True, error_model="numpy")
def play_turn_nb(tables, s, p, turn_in_round, sids, params, options, scratch, ctx, keep, trace, tn, check):
    """One turn: actions until the seat ends it or has nothing left to do."""
    begin_turn_nb(s, p, turn_in_round)
    trace_nb(trace, tn, EV_TURN, p, turn_in_round, 0, 0, 0)
    ctx[0] = -1
    ctx[3] = turn_in_round
    while True:
        n = action_options_nb(tables, s, p, options, scratch)
        if n == 1:
            break  # only "end the turn" is left
        code = options[decide_nb(sids, params, tables, s, p, DEC_ACTION, options, n, ctx, keep)]
        if code == OPT_END:
            break
        if code < OPT_TOOL:
            apply_draft_nb(s, p, code, trace, tn)
            checked_nb(tables, s, check)
        else:
            slot = (code - OPT_TOOL) // OPT_TOOL_STRIDE
            payer = (code - OPT_TOOL) % OPT_TOOL_STRIDE
            use_tool_nb(tables, s, p, slot, payer, sids, params, options, ctx, keep, trace, tn, check)
    if s.g[G_DRAFTED] == 0:
        s.stats[p, ST_PASSES] += 1
        trace_nb(trace, tn, EV_PASS, p, 0, 0, 0, 0)
    s.g[G_TURNS] += 1


@njit(cache=True, error_model="numpy")
def play_game_nb(tables, s, n_players, game_seed, sids, params, trace, tn, check):
    """Play one game to its end on state `s` (re-initialised here)."""
    setup_nb(tables, s, n_players, game_seed, trace, tn)
    g = s.g
    options = np.empty(MAX_OPTIONS, np.int64)
    scratch = np.empty(MAX_OPTIONS, np.int64)
    ctx = np.zeros(CTX_LEN, np.int64)
    keep = np.zeros(MAX_OPTIONS, np.float64)
    ctx[0] = -1
    # windows: every seat chooses one of the 4 sides of its 2 cards
    for p in range(n_players):
        n = window_options_nb(tables, s, p, options)
        pattern = options[decide_nb(sids, params, tables, s, p, DEC_WINDOW, options, n, ctx, keep)]
        apply_window_nb(tables, s, p, pattern)
        trace_nb(trace, tn, EV_WINDOW, p, pattern, 0, 0, 0)
    checked_nb(tables, s, check)
    while g[G_OVER] == 0:
        start_round_nb(tables, s, trace, tn)
        checked_nb(tables, s, check)
        for t in range(2 * n_players):
            p = s.order[t]
            second = 0 if t < n_players else 1
            if second == 1 and s.skip_second[p] == 1:
                continue  # Running Pliers: this turn was taken already
            play_turn_nb(tables, s, p, second, sids, params, options, scratch, ctx, keep, trace, tn, check)
        g[G_SEAT] = -1
        end_round_nb(tables, s, trace, tn)
        checked_nb(tables, s, check)


@njit(cache=True, error_model="numpy")
def record_game_nb(tables, s, n_players, game_index, out, fout, row0):
    """Write the records of a finished game: rows row0..row0+n_players-1."""
    pts = np.zeros(N_PTS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    privs = np.zeros(MAX_PLAYERS, np.int64)
    tokens = np.zeros(MAX_PLAYERS, np.int64)
    positions = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p, pts)
        privs[p] = pts[3]
        tokens[p] = s.tokens[p]
        positions[p] = final_position_nb(s, p)
        for k in range(N_PTS):
            out[row0 + p, C_PTS_PUBLIC_1 + k] = pts[k]
    rank_nb(scores, privs, tokens, positions, n_players, rank, win)
    solo = s.g[G_SOLO] == 1
    target = target_score_nb(s) if solo else 0
    tools_mask = 0
    for k in range(s.g[G_N_TOOLS]):
        tools_mask |= 1 << s.tools[k]
    for p in range(n_players):
        r = row0 + p
        out[r, C_GAME] = game_index
        out[r, C_SEAT] = p
        out[r, C_SCORE] = scores[p]
        out[r, C_RANK] = rank[p]
        fout[r] = (1.0 if scores[p] > target else 0.0) if solo else win[p]
        out[r, C_LENGTH] = s.g[G_TURNS]
        out[r, C_END_REASON] = s.g[G_END_REASON]
        out[r, C_WINDOW] = s.pattern[p]
        out[r, C_DIFFICULTY] = tables.pattern_difficulty[s.pattern[p]]
        out[r, C_PRIVATE] = s.priv[p, 0]
        out[r, C_PRIVATE_2] = s.priv[p, 1] if solo else -1
        for k in range(N_PUB_SLOTS):
            out[r, C_PUBLIC_1 + k] = s.public[k] if k < s.g[G_N_PUBLIC] else -1
        used = 0
        n_uses = 0
        for k in range(s.g[G_N_TOOLS]):
            if s.tool_uses[p, k] > 0:
                used |= 1 << s.tools[k]
                n_uses += s.tool_uses[p, k]
        out[r, C_TOOLS_MASK] = tools_mask
        out[r, C_TOOLS_USED_MASK] = used
        out[r, C_TOOL_USES] = n_uses
        out[r, C_TOKENS_SPENT] = s.stats[p, ST_TOKENS_SPENT]
        out[r, C_TOKENS_LEFT] = s.tokens[p]
        out[r, C_EMPTY] = N_CELLS - s.n_placed[p]
        out[r, C_PLACED] = s.stats[p, ST_PLACED]
        out[r, C_PASSES] = s.stats[p, ST_PASSES]
        out[r, C_MOVES] = s.stats[p, ST_MOVES]
        out[r, C_RETURNED] = s.stats[p, ST_RETURNED]
        out[r, C_START_POSITION] = (p - s.g[G_FIRST_START] + n_players) % n_players
        out[r, C_TARGET] = target
        out[r, C_SOLO_TOOLS] = s.g[G_N_TOOLS] if solo else 0
        out[r, C_MARGIN] = scores[p] - target if solo else 0
        out[r, C_ILLEGAL] = s.stats[p, ST_ILLEGAL]
        out[r, C_CHOICES] = s.stats[p, ST_CHOICES]
        out[r, C_BROKEN] = s.g[G_BROKEN]
        out[r, C_WINDOW_MASK] = 1 << s.pattern[p]
        pmask = 0
        for k in range(s.g[G_N_PUBLIC]):
            pmask |= 1 << s.public[k]
        out[r, C_PUBLIC_MASK] = pmask
        vmask = 0
        for k in range(2):
            if s.priv[p, k] >= 0:
                vmask |= 1 << s.priv[p, k]
        out[r, C_PRIVATE_MASK] = vmask


@njit(cache=True, error_model="numpy")
def _chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, check):
    """Games first_game..first_game+n_games-1; `check` = 1 verifies every invariant after
    every decision (column `broken`). state_rec: a 1-element STATE_DTYPE array owned by the
    caller."""
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
    """Play games first_game..first_game+n_games-1; returns (int64 records, win shares)."""
    return _chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, 0)


@njit(cache=True, error_model="numpy")
def play_checked_chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params):
    """play_chunk_nb with every invariant checked after every decision (column `broken`)."""
    return _chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, 1)


@njit(cache=True, error_model="numpy")
def trace_game_nb(tables_rec, state_rec, n_players, run_seed, game, sids, params, max_events):
    """Replay one game with its trace on; returns (events, count, records, win shares);
    the final state is left in state_rec."""
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
        place_held = rebind(place_held_decision_nb, decide_nb=decide)
        tool_dec = rebind(tool_decision_nb, decide_nb=decide)
        use_tool = rebind(use_tool_nb, tool_decision_nb=tool_dec, place_held_decision_nb=place_held)
        play_turn = rebind(play_turn_nb, decide_nb=decide, use_tool_nb=use_tool)
        play_game = rebind(play_game_nb, decide_nb=decide, play_turn_nb=play_turn)
        chunk = rebind(_chunk_nb, play_game_nb=play_game)
        return (rebind(play_chunk_nb, _chunk_nb=chunk),
                rebind(trace_game_nb, play_game_nb=play_game))

    return compile_with_users(_PLAYERS, user_functions, choose_builtin_nb, chain)
