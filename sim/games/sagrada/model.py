"""Sagrada as a forward model: the platform's contract over the rules of nb.py.

The rules stay in nb.py; this module only sequences them. The state record carries where the
game stands, so that `apply_nb` goes from one decision to the next with nothing on the call
stack and a copied state (`state_rec.copy()`) has the same future:

- s.decision      the pending decision (DEC_WINDOW / DEC_ACTION / DEC_TOOL / DEC_PLACE; -1 over)
- s.to_move       the seat that takes it
- s.order_pos     the turn being played: index into this round's snake order s.order
- s.effect_in_use, s.tool_step, s.first_move_to, s.place_mode: a tool being carried out
  (its argument decisions DEC_TOOL, then the held die's cell DEC_PLACE)
- s.held_colour, s.held_value: the die a tool holds
- s.pending_window: the window choice is simultaneous in the rulebook: the seats choose one
  after the other (DEC_WINDOW for seat 0, 1, ...), each choice kept hidden here and applied to
  every seat at once after the last one
- s.opts[:s.n_opts]: the pending decision's legal options, computed once when the decision
  is reached, copied out by legal_nb

Phases: window choice (one DEC_WINDOW per seat) -> 10 rounds: the round starts (pool drawn),
then the turns in snake order; a turn is DEC_ACTION decisions (draft a die onto a cell, use a
tool, end the turn) until the seat ends it or only "end the turn" is left; a tool asks its
arguments (DEC_TOOL step 0 / 1) and then the held die's cell (DEC_PLACE) -> the round ends
(leftovers onto the round track) -> after the last round, over.

Which decisions are asked fixes how the random streams are consumed (the random player draws
for every decision it is asked), so the same seed gives the same game only while these stay
as they are: a turn whose only option is "end the turn" is not asked, a tool's argument is
asked even when it has a single option, and a held die with no legal cell goes back to the
pool without a decision.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.records import declare
from sim.rng import deal_unseen_nb, init_streams_nb, mix64_nb, randint_nb, redraw_nb
from sim.games.sagrada.enums import (
    DEC_ACTION, DEC_PLACE, DEC_TOOL, DEC_WINDOW, EV_PASS, EV_TURN, EV_WINDOW, CTX_LEN,
    GAME_SCALARS, SEAT_COUNTERS,
    MAX_DEAL, MAX_OPTIONS, MAX_PLAYERS, M_IGNORE_COLOUR, M_IGNORE_SHADE, M_NOT_ADJACENT,
    N_CELLS, N_PUB_SLOTS, OPT_END, OPT_TOOL, OPT_TOOL_STRIDE, N_COLOURS, NO_COLOUR, NO_VALUE,
    ORTH, ROWS, COLS, OBJ_ROW_COLOUR, OBJ_ROW_SHADE, OBJ_COL_COLOUR, OBJ_COL_SHADE,
    MAX_IN_PLAY, MAX_POOL, MAX_TRACK, N_PRIV_SLOTS, N_VALUES, T_COPPER_FOIL, T_CORK_BACKED,
    T_EGLOMISE_BRUSH, T_FLUX_BRUSH, T_FLUX_REMOVER, T_GLAZING_HAMMER, T_GRINDING_STONE,
    T_GROZING_PLIERS, T_LATHEKIN, T_LENS_CUTTER, T_RUNNING_PLIERS, T_TAP_WHEEL,
)
from sim.games.sagrada.nb import (
    N_PTS, PTS_PRIVATE, action_options_nb, apply_draft_nb, apply_flux_brush_nb, apply_flux_remover_nb,
    apply_glazing_nb, apply_grinding_nb, apply_grozing_nb, apply_lens_nb, apply_move_nb,
    apply_running_nb, apply_window_nb, begin_turn_nb, cell_options_nb,
    check_state_nb as rules_check_state_nb, draft_tool_options_nb, end_round_nb,
    final_position_nb, flux_value_options_nb, lathekin_options_nb, lens_options_nb,
    move_options_nb, pay_tool_nb, place_held_nb, rank_nb, return_held_nb, score_nb,
    set_flux_value_nb, setup_nb as rules_setup_nb, start_round_nb, take_for_tool_nb,
    target_score_nb, track_colours_nb, window_options_nb,
)

KEEP_LEN = MAX_OPTIONS   # the strategies' scratch `keep` (Sagrada has no keep values)
PERFECT_INFORMATION = False   # other seats' private objectives, the bag's order, hidden window choices
# determinize_nb's redraw depends only on what the seat saw and the seed (docs/search-players.md)
CANONICAL_DETERMINIZE = True


# ---------------------------------------------------------------------------------------
# the typed log record
# ---------------------------------------------------------------------------------------
RECORD_FIELDS = (
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based"),
    ("score", "i8", "final score"),
    ("rank", "i8", "1 = winner (ties broken by the rulebook's three steps: ranks are distinct)"),
    ("win", "f8", "1 for the winner, else 0 (solo: 1 if the score beats the target score)"),
    ("length", "i8", "turns played in the game (skipped turns excluded)"),
    ("end_reason", "i8", "0 = all rounds played"),
    ("pts_public_1", "i8", "points from the first public objective (column public_1)"),
    ("pts_public_2", "i8", "points from the second public objective"),
    ("pts_public_3", "i8", "points from the third public objective (0 in solo)"),
    ("pts_private", "i8", "points from the private objective (solo: the better of the two)"),
    ("pts_favor", "i8", "points from unspent favor tokens"),
    ("pts_empty", "i8", "points lost for open spaces (negative)"),
    ("window", "i8", "pattern id chosen (file order)"),
    ("difficulty", "i8", "difficulty of the chosen pattern (favor tokens received)"),
    ("private", "i8", "private objective card id (solo: the first of the two)"),
    ("private_2", "i8", "solo: the second private objective card id, else -1"),
    ("public_1", "i8", "public objective id in slot 1"),
    ("public_2", "i8", "public objective id in slot 2"),
    ("public_3", "i8", "public objective id in slot 3 (-1 in solo)"),
    ("tools_mask", "i8", "bit t set = tool card t (file order) face up in this game"),
    ("tools_used_mask", "i8", "bit t set = this seat used tool card t"),
    ("tool_uses", "i8", "tool cards used by this seat"),
    ("tokens_spent", "i8", "favor tokens spent"),
    ("tokens_left", "i8", "favor tokens left"),
    ("empty_cells", "i8", "open spaces left in the window"),
    ("placed", "i8", "dice placed"),
    ("passes", "i8", "turns without a draft"),
    ("moves", "i8", "window dice moved by tools"),
    ("returned", "i8", "dice a tool returned to the pool"),
    ("start_position", "i8", "seat's place in round 1's clockwise order (0 = first start player)"),
    ("target", "i8", "solo: target score (round-track sum), else 0"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("window_mask", "i8", "bit w set = window pattern w chosen (one bit)"),
    ("public_mask", "i8", "bit o set = public objective o face up in this game"),
    ("private_mask", "i8", "bit k set = private objective k held (solo: both)"),
    ("solo_tools", "i8", "solo: tool cards face up = the difficulty (1 hardest .. 5 easiest), else 0"),
    ("margin", "i8", "solo: score minus the target score (win = margin > 0), else 0"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options (a strategy that "
                      "never won despite many is suspect)"),
)


RECORD = declare(*RECORD_FIELDS)

# extra state-checker codes (nb.check_state_nb's CHK_* are 1..5)
CHK_PHASE = 6          # the pending decision is inconsistent with where the game stands
CHK_OPTIONS = 7        # a pending decision with no legal option, or options out of capacity
CHK_PRIVATE = 8        # two seats hold the same private objective


# ---------------------------------------------------------------------------------------
# sequencing: from one decision to the next
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def ask_nb(s, dec, seat, n):
    """Make the options in s.opts[:n] the pending decision `dec` of `seat`."""
    s.decision = dec
    s.to_move = seat
    s.n_opts = n


@njit(cache=True, error_model="numpy")
def end_turn_nb(s, p, trace, tn):
    """The turn ends: a turn without a draft is a pass."""
    if s.drafted_this_turn == 0:
        s.passes[p] += 1
        trace_nb(trace, tn, EV_PASS, p, 0, 0, 0, 0)
    s.turns += 1


@njit(cache=True, error_model="numpy")
def action_point_nb(tables, s, trace, tn):
    """The seat in turn chooses its next action; when only "end the turn" is left the turn
    ends without asking (no decision: the random player draws nothing there). Returns True if
    a decision is pending."""
    p = s.seat
    n = action_options_nb(tables, s, p, s.opts)
    if n == 1:
        end_turn_nb(s, p, trace, tn)
        return False
    ask_nb(s, DEC_ACTION, p, n)
    return True


@njit(cache=True, error_model="numpy")
def next_turn_nb(tables, s, trace, tn):
    """After a turn: the next turn of the snake order that has a decision; at the end of the
    order the round ends and the next one starts; after the last round the game is over."""
    n = s.n_players
    while True:
        t = s.order_pos + 1
        if t >= 2 * n:
            s.seat = -1
            end_round_nb(tables, s, trace, tn)
            if s.over != 0:
                s.decision = -1
                s.to_move = -1
                s.n_opts = 0
                return
            start_round_nb(tables, s, trace, tn)
            s.order_pos = -1
            continue
        s.order_pos = t
        p = s.order[t]
        second = 0 if t < n else 1
        if second == 1 and s.skip_second[p] == 1:
            continue  # Running Pliers: this turn was taken already
        begin_turn_nb(s, p, second)
        trace_nb(trace, tn, EV_TURN, p, second, 0, 0, 0)
        if action_point_nb(tables, s, trace, tn):
            return


@njit(cache=True, error_model="numpy")
def after_action_nb(tables, s, trace, tn):
    """An action (draft or whole tool) is done: the seat's next action, or the next turn."""
    if not action_point_nb(tables, s, trace, tn):
        next_turn_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def finish_tool_nb(tables, s, trace, tn):
    s.effect_in_use = -1
    s.tool_step = 0
    s.first_move_to = -1
    s.place_mode = 0
    after_action_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def place_point_nb(tables, s, mode, trace, tn):
    """A tool's held die: the seat picks a legal cell (DEC_PLACE); with none it returns to the
    pool and the tool is done."""
    p = s.seat
    n = cell_options_nb(s, p, s.held_colour, s.held_value, mode, s.opts)
    if n == 0:
        return_held_nb(s, p, trace, tn)
        finish_tool_nb(tables, s, trace, tn)
        return
    s.place_mode = mode
    ask_nb(s, DEC_PLACE, p, n)


@njit(cache=True, error_model="numpy")
def tool_ask_nb(s, step, n):
    s.tool_step = step
    ask_nb(s, DEC_TOOL, s.seat, n)


@njit(cache=True, error_model="numpy")
def start_tool_nb(tables, s, code, trace, tn):
    """Pay for the tool of action `code` and carry out its effect up to its first argument."""
    p = s.seat
    slot = (code - OPT_TOOL) // OPT_TOOL_STRIDE
    payer = (code - OPT_TOOL) % OPT_TOOL_STRIDE
    effect = tables.tool_effect[s.tools[slot]]
    pay_tool_nb(tables, s, p, slot, payer, trace, tn)
    s.effect_in_use = effect
    s.tool_step = 0
    s.first_move_to = -1
    if effect == T_GROZING_PLIERS or effect == T_GRINDING_STONE or effect == T_CORK_BACKED \
            or effect == T_FLUX_BRUSH or effect == T_FLUX_REMOVER:
        tool_ask_nb(s, 0, draft_tool_options_nb(s, p, effect, s.opts))
    elif effect == T_LENS_CUTTER:
        tool_ask_nb(s, 0, lens_options_nb(s, p, s.opts))
    elif effect == T_GLAZING_HAMMER:
        apply_glazing_nb(s, trace, tn)
        finish_tool_nb(tables, s, trace, tn)
    elif effect == T_RUNNING_PLIERS:
        apply_running_nb(s, p)
        finish_tool_nb(tables, s, trace, tn)
    elif effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL:
        mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else M_IGNORE_SHADE
        tool_ask_nb(s, 0, move_options_nb(s, p, mode, -1, -1, s.opts, 0))
    elif effect == T_LATHEKIN:
        tool_ask_nb(s, 0, lathekin_options_nb(s, p, s.opts))
    elif effect == T_TAP_WHEEL:
        tool_ask_nb(s, 0, move_options_nb(s, p, 0, track_colours_nb(s), -1, s.opts, 0))
    else:
        finish_tool_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def tool_argument_nb(tables, s, code, trace, tn):
    """Apply a tool's argument (DEC_TOOL) and go on to its next step."""
    p = s.seat
    effect = s.effect_in_use
    step = s.tool_step
    if effect == T_GROZING_PLIERS:
        apply_grozing_nb(s, code, trace, tn)
        place_point_nb(tables, s, 0, trace, tn)
    elif effect == T_GRINDING_STONE:
        apply_grinding_nb(s, code, trace, tn)
        place_point_nb(tables, s, 0, trace, tn)
    elif effect == T_CORK_BACKED:
        take_for_tool_nb(s, code)
        place_point_nb(tables, s, M_NOT_ADJACENT, trace, tn)
    elif effect == T_FLUX_BRUSH:
        apply_flux_brush_nb(s, code, trace, tn)
        place_point_nb(tables, s, 0, trace, tn)
    elif effect == T_FLUX_REMOVER:
        if step == 0:
            apply_flux_remover_nb(s, code, trace, tn)
            tool_ask_nb(s, 1, flux_value_options_nb(s, p, s.opts))
        else:
            set_flux_value_nb(s, code, trace, tn)
            place_point_nb(tables, s, 0, trace, tn)
    elif effect == T_LENS_CUTTER:
        apply_lens_nb(s, code, trace, tn)
        place_point_nb(tables, s, 0, trace, tn)
    elif effect == T_EGLOMISE_BRUSH or effect == T_COPPER_FOIL:
        mode = M_IGNORE_COLOUR if effect == T_EGLOMISE_BRUSH else M_IGNORE_SHADE
        apply_move_nb(s, p, code, mode, trace, tn)
        finish_tool_nb(tables, s, trace, tn)
    elif effect == T_LATHEKIN:
        to = apply_move_nb(s, p, code, 0, trace, tn)
        if step == 0:
            s.first_move_to = to
            tool_ask_nb(s, 1, move_options_nb(s, p, 0, -1, to, s.opts, 0))
        else:
            finish_tool_nb(tables, s, trace, tn)
    elif effect == T_TAP_WHEEL:
        if step == 0:
            to = apply_move_nb(s, p, code, 0, trace, tn)
            s.first_move_to = to
            n = move_options_nb(s, p, 0, 1 << s.win_colour[p, to], to, s.opts, 0)
            s.opts[n] = OPT_END   # the second die is optional
            tool_ask_nb(s, 1, n + 1)
        else:
            if code != OPT_END:
                apply_move_nb(s, p, code, 0, trace, tn)
            finish_tool_nb(tables, s, trace, tn)
    else:
        finish_tool_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def reveal_windows_nb(tables, s, trace, tn):
    """Every seat has chosen: the windows are turned face up together (pattern, favor
    tokens), then the first round starts."""
    n = s.n_players
    for p in range(n):
        pattern = s.pending_window[p]
        apply_window_nb(tables, s, p, pattern)
        trace_nb(trace, tn, EV_WINDOW, p, pattern, 0, 0, 0)
        s.pending_window[p] = -1
    start_round_nb(tables, s, trace, tn)
    s.order_pos = -1
    next_turn_nb(tables, s, trace, tn)


# ---------------------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    """Set-up (nb.setup_nb: streams, bag, cards, windows dealt, start player), then seat 0's
    window choice is pending."""
    rules_setup_nb(tables, s, n_players, game_seed, trace, tn)
    for p in range(MAX_PLAYERS):
        s.pending_window[p] = -1
    s.order_pos = -1
    s.effect_in_use = -1
    s.tool_step = 0
    s.first_move_to = -1
    s.place_mode = 0
    ask_nb(s, DEC_WINDOW, 0, window_options_nb(tables, s, 0, s.opts))


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over != 0


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.to_move if s.over == 0 else -1


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return s.decision


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    """The pending decision's legal options (computed when it was reached), in this order
    (the random player's draw depends on it): window sides; actions (drafts die * N_CELLS + cell, tools, OPT_END last); a tool's
    arguments; the held die's cells."""
    n = s.n_opts
    for i in range(n):
        options[i] = s.opts[i]
    return n


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    """ctx[0] = tool effect being carried out (DEC_TOOL / DEC_PLACE; -1 otherwise), ctx[1] =
    its step, ctx[2] = the held die's placement mode (M_* bits; DEC_PLACE), ctx[3] = 0 on the
    seat's first turn of the round, 1 on its second; the rest 0. `keep` is not used."""
    for k in range(CTX_LEN):
        ctx[k] = 0
    ctx[0] = s.effect_in_use
    ctx[1] = s.tool_step
    ctx[2] = s.place_mode
    ctx[3] = s.turn_in_round


@njit(cache=True, error_model="numpy")
def default_keep_nb(tables, s, keep):
    """Sagrada has no keep values."""
    return


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    """Apply `option` (one of legal_nb's) of the pending decision, then everything automatic
    (round ends and starts, dice drawn and rolled from s.streams[0], turns with nothing to
    decide) up to the next decision or the end."""
    dec = s.decision
    if dec == DEC_WINDOW:
        p = s.to_move
        s.pending_window[p] = option   # hidden until every seat has chosen
        if p + 1 < s.n_players:
            ask_nb(s, DEC_WINDOW, p + 1, window_options_nb(tables, s, p + 1, s.opts))
        else:
            reveal_windows_nb(tables, s, trace, tn)
    elif dec == DEC_ACTION:
        p = s.seat
        if option == OPT_END:
            end_turn_nb(s, p, trace, tn)
            next_turn_nb(tables, s, trace, tn)
        elif option < OPT_TOOL:
            apply_draft_nb(s, p, option, trace, tn)
            after_action_nb(tables, s, trace, tn)
        else:
            start_tool_nb(tables, s, option, trace, tn)
    elif dec == DEC_TOOL:
        tool_argument_nb(tables, s, option, trace, tn)
    elif dec == DEC_PLACE:
        place_held_nb(s, s.seat, option, trace, tn)
        finish_tool_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def scores_nb(tables, s, n_players, pts, scores, rank, win):
    """Every seat's score now (scores[p]; its points by source in pts[p, :N_PTS]) and the
    rulebook's ranking (rank, win). Each seat is scored once (record_nb reads pts too)."""
    tie = np.empty((3, MAX_PLAYERS), np.int64)   # private points, favor tokens, final position
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p, pts[p])
        tie[0, p] = pts[p, PTS_PRIVATE]
        tie[1, p] = s.tokens[p]
        tie[2, p] = final_position_nb(s, p)
    rank_nb(scores, tie[0], tie[1], tie[2], n_players, rank, win)


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    """Win shares of a finished game: 1 for the winner (the ranking breaks every tie); solo: 1
    if the score beats the target (the round-track sum), else 0."""
    pts = np.zeros((MAX_PLAYERS, N_PTS), np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    scores_nb(tables, s, n_players, pts, scores, rank, win)
    for p in range(MAX_PLAYERS):
        out[p] = 0.0
    if s.solo == 1:
        out[0] = 1.0 if scores[0] > target_score_nb(s) else 0.0
    else:
        for p in range(n_players):
            out[p] = win[p]


@njit(cache=True, error_model="numpy")
def dead_space_nb(s, p, cell):
    """An open space of seat p no die can ever fill: its colour (value) restriction is the
    colour (value) of an orthogonal neighbour. (A blank space always stays fillable: at most 4
    neighbours cannot block all 5 colours.) Used by evaluate_nb and the planner."""
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
def line_outlook_nb(s, p, start, step, length, by_colour):
    """Share of an unfinished line of seat p already filled with no repeated colour (by_colour)
    or value, squared (a line nearly done is much likelier to score than one begun); 0 if the
    line is complete (score_nb counts it), already spoiled, or holds a dead space or an open
    space restricted to a colour (value) the line already has."""
    seen = 0
    filled = 0
    for k in range(length):
        c = start + k * step
        if s.win_colour[p, c] == NO_COLOUR:
            continue
        x = s.win_colour[p, c] if by_colour else s.win_value[p, c]
        if (seen >> x) & 1:
            return 0.0
        seen |= 1 << x
        filled += 1
    if filled == length:
        return 0.0
    for k in range(length):
        c = start + k * step
        if s.win_colour[p, c] != NO_COLOUR:
            continue
        if dead_space_nb(s, p, c):
            return 0.0
        r = s.restr_colour[p, c] if by_colour else s.restr_value[p, c]
        if by_colour and r != NO_COLOUR and (seen >> r) & 1:
            return 0.0
        if not by_colour and r != NO_VALUE and (seen >> r) & 1:
            return 0.0
    f = float(filled) / float(length)
    return f * f


@njit(cache=True, error_model="numpy")
def projected_score_nb(tables, s, p, pts):
    """Seat p's final score as it stands (nb.score_nb: open spaces count as lost, the sets and
    diagonals count what is placed) plus the promise of its unfinished rows and columns: each
    one still able to score a variety objective adds the objective's points times the square
    of the share already filled (a finished game: its final score). (Counting open spaces as lost keeps a placement better than
    a pass: every die not drafted is a space less at the end.)"""
    total = float(score_nb(tables, s, p, pts))
    if s.over != 0:
        return total       # the final score: nothing is promised any more
    for k in range(s.n_public):
        o = s.public[k]
        kind = tables.public_kind[o]
        pts_o = float(tables.public_points[o])
        if kind == OBJ_ROW_COLOUR or kind == OBJ_ROW_SHADE:
            for r in range(ROWS):
                total += pts_o * line_outlook_nb(s, p, r * COLS, 1, COLS, kind == OBJ_ROW_COLOUR)
        elif kind == OBJ_COL_COLOUR or kind == OBJ_COL_SHADE:
            for c in range(COLS):
                total += pts_o * line_outlook_nb(s, p, c, COLS, ROWS, kind == OBJ_COL_COLOUR)
    return total


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """A rough chance of winning for `seat` in an unfinished game (the search players' depth
    cut-off): a logistic of its projected score (projected_score_nb) minus the best other
    seat's, 8 points = one unit. Solo: the score now (open spaces count as lost) minus the
    round track's sum so far (the target). Before the windows are revealed: an even share."""
    n = s.n_players
    if s.pattern[0] < 0:
        return 0.5 if n == 1 else 1.0 / n
    pts = np.zeros(N_PTS, np.int64)
    if n == 1:
        lead = float(score_nb(tables, s, 0, pts) - target_score_nb(s))
    else:
        best = -1e300
        mine = 0.0
        for q in range(n):
            v = projected_score_nb(tables, s, q, pts)
            if q == seat:
                mine = v
            elif v > best:
                best = v
        lead = mine - best
    return 1.0 / (1.0 + np.exp(-lead / 8.0))


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Redraw what `seat` cannot see, consistently with what it saw, then reseed chance:
    - the bag's order (its contents per colour are known: the box minus every visible die);
    - the other seats' private objectives, from the cards the seat does not hold;
    - during the window choice: the window cards dealt to the other seats (from the cards not
      dealt to `seat`) and the hidden choices of those who already chose (a side of their new
      cards, at random);
    - s.streams[0] (future rolls and draws) from `seed`.
    Nothing else changes: windows, pool, round track, tools, tokens, public objectives, the
    seat's own cards and choice, and every seat's strategy stream. Canonical: the bag is
    sorted before it is shuffled and the cards are dealt from lists in card order, so the
    result depends only on what the seat has seen and `seed`, not on the hidden arrangement
    it replaces (a search player's answer never changes when the hidden cards are redrawn)."""
    rs = np.zeros(2, np.uint64)
    init_streams_nb(rs, mix64_nb(np.uint64(seed)))
    n = s.n_players
    redraw_nb(rs, 0, s.bag, s.n_bag)   # sorted first: canonical (see the docstring)
    # others' private objectives and, during the window choice, window cards: dealt again
    # from the cards `seat` does not hold
    if n > 1:
        deal_unseen_nb(rs, 0, s.priv, seat, n, s.n_private, tables.n_private)
    if s.decision == DEC_WINDOW and n > 1:
        n_deal = tables.window_cards
        deal_unseen_nb(rs, 0, s.dealt, seat, n, n_deal, tables.n_cards)
        for q in range(n):   # the hidden choices of those who already chose
            if q != seat and s.pending_window[q] >= 0:
                k = randint_nb(rs, 0, n_deal)
                s.pending_window[q] = tables.card_sides[s.dealt[q, k], randint_nb(rs, 0, 2)]
        if s.to_move != seat:   # the options listed are the chooser's: its new cards
            p = s.to_move
            s.n_opts = window_options_nb(tables, s, p, s.opts)
    s.streams[0] = rs[1]


# what a seat sees (observe_nb): every public field, the bag's contents per colour, its own
# cards, its own hidden window choice, its own strategy stream, and the pending decision's
# options unless they are another seat's window choice
OBS_LEN = (len(GAME_SCALARS) + 2 * MAX_POOL + 3 * MAX_TRACK + 2 * MAX_TRACK
           + MAX_PLAYERS * N_CELLS * 5 + MAX_PLAYERS * (3 + N_COLOURS * 2 + (N_VALUES + 1) * 2)
           + MAX_PLAYERS * (1 + 1 + MAX_IN_PLAY + len(SEAT_COUNTERS)) + N_PUB_SLOTS
           + 3 * MAX_IN_PLAY + 2 * MAX_PLAYERS + N_COLOURS + N_PRIV_SLOTS + MAX_DEAL + 2
           + MAX_OPTIONS)


@njit(cache=True, error_model="numpy")
def put_game_nb(out, n, s):
    """The game scalars (enums.GAME_SCALARS), in STATE_DTYPE's order."""
    out[n] = s.n_players
    out[n + 1] = s.solo
    out[n + 2] = s.round
    out[n + 3] = s.n_rounds
    out[n + 4] = s.start_player
    out[n + 5] = s.first_start_player
    out[n + 6] = s.over
    out[n + 7] = s.end_reason
    out[n + 8] = s.turns
    out[n + 9] = s.n_bag
    out[n + 10] = s.n_pool
    out[n + 11] = s.n_track
    out[n + 12] = s.n_spent
    out[n + 13] = s.held_colour
    out[n + 14] = s.held_value
    out[n + 15] = s.n_public
    out[n + 16] = s.n_tools
    out[n + 17] = s.n_private
    out[n + 18] = s.seat
    out[n + 19] = s.turn_in_round
    out[n + 20] = s.drafts_left
    out[n + 21] = s.tool_used_this_turn
    out[n + 22] = s.drafted_this_turn
    out[n + 23] = s.decision
    out[n + 24] = s.to_move
    out[n + 25] = s.order_pos
    out[n + 26] = s.effect_in_use
    out[n + 27] = s.tool_step
    out[n + 28] = s.place_mode
    out[n + 29] = s.first_move_to
    out[n + 30] = s.n_opts
    return n + 31


@njit(cache=True, error_model="numpy")
def put_counters_nb(out, n, s):
    """The per-seat counters (enums.SEAT_COUNTERS), seat by seat."""
    for p in range(MAX_PLAYERS):
        out[n] = s.placed[p]
        out[n + 1] = s.passes[p]
        out[n + 2] = s.tool_cards_used[p]
        out[n + 3] = s.tokens_spent[p]
        out[n + 4] = s.moves[p]
        out[n + 5] = s.returned[p]
        n += 6
    return n


@njit(cache=True, error_model="numpy")
def put_nb(out, n, arr):
    for i in range(arr.shape[0]):
        out[n + i] = arr[i]
    return n + arr.shape[0]


@njit(cache=True, error_model="numpy")
def put2_nb(out, n, arr):
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            out[n] = arr[i, j]
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """What `seat` has seen, as int64s in out[:n] (returns n <= OBS_LEN): the game scalars,
    the pool, the round track, the spent dice, every window (dice, restrictions, masks,
    pattern), favor tokens, tool cards and their use, the public objectives, the turn order,
    the counters; the bag's contents per colour (not its order); its own private objectives,
    dealt window cards, hidden window choice and strategy stream; the pending decision's
    options unless they are another seat's window choice (its dealt cards)."""
    n = put_game_nb(out, 0, s)
    n = put_nb(out, n, s.pool_colour)
    n = put_nb(out, n, s.pool_value)
    n = put_nb(out, n, s.track_colour)
    n = put_nb(out, n, s.track_value)
    n = put_nb(out, n, s.track_round)
    n = put_nb(out, n, s.spent_colour)
    n = put_nb(out, n, s.spent_value)
    n = put2_nb(out, n, s.win_colour)
    n = put2_nb(out, n, s.win_value)
    n = put2_nb(out, n, s.win_exempt)
    n = put2_nb(out, n, s.restr_colour)
    n = put2_nb(out, n, s.restr_value)
    n = put_nb(out, n, s.n_placed)
    n = put_nb(out, n, s.wmask)
    n = put_nb(out, n, s.pattern)
    n = put2_nb(out, n, s.cmask)
    n = put2_nb(out, n, s.okc)
    n = put2_nb(out, n, s.vmask)
    n = put2_nb(out, n, s.okv)
    n = put_nb(out, n, s.tokens)
    n = put_nb(out, n, s.skip_second)
    n = put2_nb(out, n, s.tool_uses)
    n = put_counters_nb(out, n, s)
    n = put_nb(out, n, s.public)
    n = put_nb(out, n, s.tools)
    n = put_nb(out, n, s.tool_tokens)
    n = put_nb(out, n, s.tool_gone)
    n = put_nb(out, n, s.order)
    for c in range(N_COLOURS):
        k = 0
        for i in range(s.n_bag):
            if s.bag[i] == c:
                k += 1
        out[n] = k
        n += 1
    n = put_nb(out, n, s.priv[seat])
    n = put_nb(out, n, s.dealt[seat])
    out[n] = s.pending_window[seat]
    out[n + 1] = np.int64(s.streams[1 + seat] >> np.uint64(1))   # as an int64
    n += 2
    if not (s.decision == DEC_WINDOW and s.to_move != seat):
        for i in range(s.n_opts):
            out[n] = s.opts[i]
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 if the state is sound, else the first broken invariant: nb.check_state_nb's CHK_*
    codes 1..5 (dice conserved, windows legal, masks, tokens); CHK_PHASE: the pending
    decision does not match where the game stands (a seat out of range, a held die outside a
    tool's placement, a tool decision without a tool, a window pending after the windows are
    revealed); CHK_OPTIONS: a pending decision with no option or more than the capacity;
    CHK_PRIVATE: a private objective held twice."""
    code = rules_check_state_nb(tables, s)
    if code != 0:
        return code
    n = s.n_players
    for p in range(n):
        for k in range(s.n_private):
            for q in range(n):
                for j in range(s.n_private):
                    if (q != p or j != k) and s.priv[p, k] >= 0 and s.priv[p, k] == s.priv[q, j]:
                        return CHK_PRIVATE
    if s.over != 0:
        if s.decision != -1 or s.held_colour >= 0:
            return CHK_PHASE
        return 0
    dec = s.decision
    if s.to_move < 0 or s.to_move >= n:
        return CHK_PHASE
    if s.n_opts < 1 or s.n_opts > MAX_OPTIONS:
        return CHK_OPTIONS
    held = s.held_colour >= 0
    if dec == DEC_WINDOW:
        if s.pattern[s.to_move] >= 0 or held:
            return CHK_PHASE
        for p in range(s.to_move):
            if s.pending_window[p] < 0:
                return CHK_PHASE
    elif dec == DEC_ACTION:
        if held or s.effect_in_use != -1 or s.to_move != s.seat:
            return CHK_PHASE
    elif dec == DEC_TOOL:
        if s.effect_in_use < 0 or s.to_move != s.seat:
            return CHK_PHASE
        # only Flux Remover's value (step 1) is chosen for a held die
        if held != (s.effect_in_use == T_FLUX_REMOVER and s.tool_step == 1):
            return CHK_PHASE
    elif dec == DEC_PLACE:
        if not held or s.effect_in_use < 0 or s.to_move != s.seat:
            return CHK_PHASE
    else:
        return CHK_PHASE
    if dec != DEC_WINDOW:
        for p in range(n):
            if s.pattern[p] < 0 or s.pending_window[p] >= 0:
                return CHK_PHASE
    return 0


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    """The finished game's rows rec[row0 + seat] (every column but illegal and choices)."""
    pts = np.zeros((MAX_PLAYERS, N_PTS), np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    scores_nb(tables, s, n_players, pts, scores, rank, win)
    solo = s.solo == 1
    target = target_score_nb(s) if solo else 0
    tools_mask = 0
    for k in range(s.n_tools):
        tools_mask |= 1 << s.tools[k]
    pmask = 0
    for k in range(s.n_public):
        pmask |= 1 << s.public[k]
    for p in range(n_players):
        r = row0 + p
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = scores[p]
        rec[r].rank = rank[p]
        rec[r].win = (1.0 if scores[p] > target else 0.0) if solo else win[p]
        rec[r].length = s.turns
        rec[r].end_reason = s.end_reason
        rec[r].pts_public_1 = pts[p, 0]
        rec[r].pts_public_2 = pts[p, 1]
        rec[r].pts_public_3 = pts[p, 2]
        rec[r].pts_private = pts[p, 3]
        rec[r].pts_favor = pts[p, 4]
        rec[r].pts_empty = pts[p, 5]
        rec[r].window = s.pattern[p]
        rec[r].difficulty = tables.pattern_difficulty[s.pattern[p]]
        rec[r].private = s.priv[p, 0]
        rec[r].private_2 = s.priv[p, 1] if solo else -1
        rec[r].public_1 = s.public[0] if 0 < s.n_public else -1
        rec[r].public_2 = s.public[1] if 1 < s.n_public else -1
        rec[r].public_3 = s.public[2] if 2 < s.n_public else -1
        used = 0
        n_uses = 0
        for k in range(s.n_tools):
            if s.tool_uses[p, k] > 0:
                used |= 1 << s.tools[k]
                n_uses += s.tool_uses[p, k]
        rec[r].tools_mask = tools_mask
        rec[r].tools_used_mask = used
        rec[r].tool_uses = n_uses
        rec[r].tokens_spent = s.tokens_spent[p]
        rec[r].tokens_left = s.tokens[p]
        rec[r].empty_cells = N_CELLS - s.n_placed[p]
        rec[r].placed = s.placed[p]
        rec[r].passes = s.passes[p]
        rec[r].moves = s.moves[p]
        rec[r].returned = s.returned[p]
        rec[r].start_position = (p - s.first_start_player + n_players) % n_players
        rec[r].target = target
        rec[r].solo_tools = s.n_tools if solo else 0
        rec[r].margin = scores[p] - target if solo else 0
        rec[r].window_mask = 1 << s.pattern[p]
        rec[r].public_mask = pmask
        vmask = 0
        for k in range(2):
            if s.priv[p, k] >= 0:
                vmask |= 1 << s.priv[p, k]
        rec[r].private_mask = vmask
