"""Grand Surfers as a forward model: the game advances from decision to decision inside
`apply_nb`, with where it stands kept in the state (the fields phase .. after_boosts, the
strategies' side inputs in `s.ctx`), so a copied state resumes at the same decision. The rules
live in nb.py; this module only sequences them (the random draws in a fixed order, one trace
event per step), so a seed always plays the same game.

A turn of seat p (s.seat):
    DEC_AIM     p aims (every wave cell); apply: the flick lands (chance: nb.flick_nb, then the
                pips, nb.draw_pips_nb, both from the chance stream s.streams[0])
    DEC_ACTION  only when the landed cell offers an action (no strategy is asked when "no
                action" is the only option): pips +/-1, re-flick (back to
                DEC_AIM), draw a channel (a surfer standing on it rides: boosts may follow)
    DEC_MOVE    only when the move has cells (pips, halved off the sheet / on a 1/2 cell) and
                the seat has a surfer to move; else the turn passes
    DEC_BOOST   a surfer stopped on its partner's circle: its owner (which may not be the seat
                whose turn it is: a channel can carry an opponent's surfer) picks the distance;
                under rules.boost_loop = guard_push a boost may set off another
    end of turn the fastest marker, the folds of the Great Wave, the turn-limit guard; then the
                next seat's DEC_AIM, or the end.

Nothing is hidden in this dexterity race but the future (PERFECT_INFORMATION): every seat
sees the whole table (`observe_nb`: the state but its random streams), and `determinize_nb`
only reseeds the chance stream (future flicks and pips).
"""
import math

import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.records import declare
from sim.rng import mix64_nb, STREAM_SALT
from sim.games.surfers import nb
from sim.games.surfers.enums import (
    ACT_CHANNEL_DOWN, ACT_CHANNEL_UP, ACT_MINUS, ACT_PLUS, ACT_REFLICK, AFTER_ACTION,
    AFTER_MOVE, CTX_BOOSTED, CTX_HALF, CTX_LANDED, CTX_LEN, CTX_PIPS,
    CTX_STEPS, DEC_ACTION, DEC_AIM, DEC_BOOST, DEC_MOVE, EV_ACTION, EV_FLICK, EV_PASS,
    EV_TURN, KEEP_LEN, MAX_COLS, MAX_OPTIONS, MAX_PLAYERS, SEAT_COUNTERS, STATE_DTYPE,
    OPT_CHANNEL, OPT_MINUS, OPT_NO_ACTION, OPT_PLUS, OPT_REFLICK, PH_OVER, S_BEACH, S_SEA,
    S_TIDE, S_WAVE, W_HALF, W_PLAIN,
)

__all__ = ["MAX_OPTIONS", "MAX_PLAYERS", "CTX_LEN", "KEEP_LEN", "OBS_LEN",
           "PERFECT_INFORMATION", "CANONICAL_DETERMINIZE", "RECORD", "RECORD_FIELDS", "setup_nb", "is_over_nb",
           "to_move_nb", "decision_nb", "legal_nb", "context_nb", "apply_nb", "default_keep_nb",
           "returns_nb", "evaluate_nb", "observe_nb", "determinize_nb", "check_state_nb",
           "record_nb"]

# a dexterity race: the seats hide nothing from each other; only the future is unknown
PERFECT_INFORMATION = True
# seats play in seat order from seat 0 (the rulebook: whoever folded the wave sheet starts), so
# a seat's number is its turn position: there is no seat identity apart from the turn order
# for the seat-symmetry conformance test to check (tests/test_every_game.py)
SEAT_ORDER_IS_TURN_ORDER = True
# determinize_nb only reseeds chance from the seed: canonical (tests/test_every_game.py)
CANONICAL_DETERMINIZE = True

# ---------------------------------------------------------------------------------------
# the typed log record: the columns, names and meanings (spread and edge are floats with their
# real values; a broken invariant is not a column: the harness's checked_chunk returns it)
# ---------------------------------------------------------------------------------------
RECORD_FIELDS = (
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based (seat 0 plays first)"),
    ("score", "i8", "final score"),
    ("rank", "i8", "1 = winner; equal scores: the seat without the fastest marker is ahead; still equal: shared rank"),
    ("win", "f8", "1 for the winner, 1/k for k seats sharing the win, else 0"),
    ("length", "i8", "turns played in the game (all seats)"),
    ("end_reason", "i8", "0 = the wave covered the sea, 1 = turn-limit guard"),
    ("pts_fastest", "i8", "points of the fastest marker"),
    ("pts_duo", "i8", "points for both surfers on the beach"),
    ("pts_cells", "i8", "points of the finish cells the seat's surfers hold"),
    ("spread", "f8", "the seat's flick spread (its skill setting; 0 = perfect aim)"),
    ("edge", "f8", "mean spread of the other seats minus this seat's (> 0: steadier hand)"),
    ("turns", "i8", "turns this seat played"),
    ("fastest", "i8", "1 if the seat holds the fastest marker"),
    ("fastest_turn", "i8", "game turn at which the marker was won (-1 never; same on every row)"),
    ("on_beach", "i8", "the seat's surfers on the beach at the end (0-2)"),
    ("out_wave", "i8", "the seat's surfers taken by the Great Wave"),
    ("out_tide", "i8", "the seat's surfers pushed into tide cells"),
    ("finish_best", "i8", "best finish cell held (0 = Grand...), -1 none"),
    ("flicks", "i8", "flicks (re-flicks included, short flicks repeated not)"),
    ("short_flicks", "i8", "flicks that did not cross the start line (repeated)"),
    ("off_sheet", "i8", "flicks landing off the wave sheet"),
    ("aim_hits", "i8", "flicks landing in the cell aimed at"),
    ("action_cells", "i8", "flicks landing on a cell with an action"),
    ("half_moves", "i8", "turns whose move was halved (off the sheet or 1/2 cell)"),
    ("plus", "i8", "pips +1 used"),
    ("minus", "i8", "pips -1 used"),
    ("reflicks", "i8", "re-flicks used"),
    ("channels_up", "i8", "channels drawn upward"),
    ("channels_down", "i8", "channels drawn downward"),
    ("moves", "i8", "normal moves"),
    ("passes", "i8", "turns without a move (0 pips or no surfer to move)"),
    ("progress", "i8", "lines gained by own surfers through moves, rides and boosts (beach = the line count)"),
    ("pushes", "i8", "opponent surfers pushed (first of each chain)"),
    ("pushed", "i8", "times the seat's surfers were pushed"),
    ("kills", "i8", "opponent surfers the seat's pushes put out of the game"),
    ("boosts", "i8", "boosts"),
    ("rides", "i8", "channel rides by the seat's surfers"),
    ("boost_loops", "i8", "boosts set off by a boost: a ride back onto the partner (0 under the default rules.boost_loop)"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("actions_mask", "i8", "bit a set = action a used at least once (pips +1, pips -1, re-flick, channel up, channel down)"),
    ("finish_mask", "i8", "bit k set = a surfer of the seat ends in finish cell k"),
    ("edge_mask", "i8", "one bit: 0 steadier than the table mean, 1 as steady (within 0.0005), 2 less steady"),
    ("fastest_mask", "i8", "bit 0 set = the seat holds the fastest marker"),
    ("lost_mask", "i8", "bit 0: lost a surfer to the wave, bit 1: to the tide, bit 2: lost none"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options (a strategy that never won despite many is suspect)"),
)

RECORD = declare(*RECORD_FIELDS)

# the per-seat counters copied one to one into the columns "flicks" .. "boost_loops", in
# column order (record_nb)
_COUNTER_COLUMNS = ("flicks", "short_flicks", "off_sheet", "aim_hits", "action_cells",
                    "half_moves", "plus", "minus", "reflicks", "channels_up", "channels_down",
                    "moves", "passes", "progress", "pushes", "pushed", "kills", "boosts", "rides",
                    "boost_loops")
_names = [n for n, _, _ in RECORD_FIELDS]
_F_FLICKS = _names.index("flicks")
assert tuple(_names[_F_FLICKS:_F_FLICKS + len(_COUNTER_COLUMNS)]) == _COUNTER_COLUMNS
assert set(_COUNTER_COLUMNS) <= set(SEAT_COUNTERS)


# ---------------------------------------------------------------------------------------
# set-up and the questions the harness asks
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    """A new game from game_seed (nb.setup_nb: streams, every surfer at the start), then seat
    0's first turn: the game stands at its DEC_AIM."""
    nb.setup_nb(tables, s, n_players, game_seed)
    s.phase = DEC_AIM
    s.to_move = 0
    s.turn_reflicks = 0
    s.landed = -1
    s.pips = 0
    s.half = 0
    s.steps = 0
    s.boost_surfer = -1
    s.boost_chain = 0
    s.after_boosts = AFTER_ACTION
    for k in range(CTX_LEN):
        s.ctx[k] = 0
    begin_turn_nb(tables, s, 0, trace, tn)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over != 0


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.to_move


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return s.phase


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    """The legal options of the current decision (the codes of nb's *_options_nb). 0 when the
    game is over (the harness asks nothing then)."""
    ph = s.phase
    if ph == DEC_AIM:
        return nb.aim_options_nb(tables, options)
    if ph == DEC_ACTION:
        return nb.action_options_nb(tables, s, s.landed, s.pips,
                                    s.turn_reflicks, options)
    if ph == DEC_MOVE:
        return nb.move_options_nb(tables, s, s.seat, options)
    if ph == DEC_BOOST:
        return nb.boost_options_nb(tables, s, s.boost_surfer, options)
    return 0


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    """The strategies' side inputs at this decision (pips, half, landed cell, steps, boosted
    surfer; a value not renewed for this decision is the one an earlier decision left, which
    the built-in players were tuned on). `keep` is the strategies' own scratch (the rider
    caches its slow aim there): not touched."""
    for k in range(CTX_LEN):
        ctx[k] = s.ctx[k]


@njit(cache=True, error_model="numpy")
def default_keep_nb(tables, s, keep):
    """Grand Surfers has no keep values (a no-op)."""
    return


# ---------------------------------------------------------------------------------------
# advancing: apply an option, then everything automatic up to the next decision
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def begin_turn_nb(tables, s, p, trace, tn):
    s.seat = p
    s.seat_turns[p] += 1
    trace_nb(trace, tn, EV_TURN, p, s.turn, 0, 0, 0)
    s.turn_reflicks = 0
    s.pips = 0
    s.half = 0
    s.phase = DEC_AIM
    s.to_move = p


@njit(cache=True, error_model="numpy")
def finish_turn_nb(tables, s, moved, trace, tn):
    """The end of seat p's turn: a pass if nothing moved, the marker and the folds
    (nb.end_turn_nb), the turn-limit guard; then the next seat's turn or the end."""
    p = s.seat
    if not moved:
        s.passes[p] += 1
        trace_nb(trace, tn, EV_PASS, p, 0, 0, 0, 0)
    nb.end_turn_nb(tables, s, p, trace, tn)
    s.turn += 1
    if s.over == 0 and s.turn >= tables.turn_limit:
        nb.stop_game_nb(s, trace, tn)
    if s.over != 0:
        s.phase = PH_OVER
        s.to_move = -1
        return
    begin_turn_nb(tables, s, (p + 1) % s.n_players, trace, tn)


@njit(cache=True, error_model="numpy")
def to_move_phase_nb(tables, s, trace, tn):
    """The flicking is over (no action, or pips +/-1 / a channel done): the move is halved off
    the sheet or on a 1/2 cell; the seat moves a surfer if it has cells to go and a surfer to
    move (DEC_MOVE), else the turn passes."""
    p = s.seat
    pips = s.pips
    half = s.half == 1
    steps = pips // 2 if half else pips
    if half:
        s.half_moves[p] += 1
    if steps > 0 and nb.has_move_nb(tables, s, p):
        s.ctx[CTX_PIPS] = pips
        s.ctx[CTX_STEPS] = steps
        s.steps = steps
        s.phase = DEC_MOVE
        s.to_move = p
        return
    finish_turn_nb(tables, s, False, trace, tn)


@njit(cache=True, error_model="numpy")
def resolve_boosts_nb(tables, s, trace, tn):
    """Resolve the pending boost chain (s.boost_surfer) up to its next decision, or to its end
    and on with the turn. A surfer that cannot be boosted (no distance moves it, or the
    guard_push loop guard tables.max_boost_chain reached) is pushed down (nb.boost_blocked_nb).
    Under the default rules.boost_loop = no_revisit a chain never goes past one boost
    (s.boost_loops counts the boosts set off by a boost)."""
    cand = s.boost_surfer
    chain = s.boost_chain
    while cand >= 0:
        if chain >= 1:
            s.boost_loops[cand // 2] += 1
        if chain >= tables.max_boost_chain:
            nb.boost_blocked_nb(tables, s, cand, trace, tn)
            break
        if not nb.has_boost_nb(tables, s, cand):
            nb.boost_blocked_nb(tables, s, cand, trace, tn)
            break
        s.ctx[CTX_BOOSTED] = cand
        s.phase = DEC_BOOST
        s.to_move = cand // 2
        return
    s.boost_surfer = -1
    s.boost_chain = 0
    if s.after_boosts == AFTER_ACTION:
        to_move_phase_nb(tables, s, trace, tn)
    else:
        finish_turn_nb(tables, s, True, trace, tn)


@njit(cache=True, error_model="numpy")
def start_boosts_nb(tables, s, cand, after, trace, tn):
    s.boost_surfer = cand
    s.boost_chain = 0
    s.after_boosts = after
    resolve_boosts_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def apply_aim_nb(tables, s, aim, trace, tn):
    """The flick at `aim` lands (chance), the pips show (chance); the landed cell's action is a
    decision only if it offers one."""
    p = s.seat
    short0 = s.short_flicks[p]
    landed = nb.flick_nb(tables, s, p, aim)
    pips = nb.draw_pips_nb(tables, s)
    s.flicks[p] += 1
    if landed == aim:
        s.aim_hits[p] += 1
    if landed < 0:
        s.off_sheet[p] += 1
    elif tables.wave_kind[landed] != W_PLAIN and tables.wave_kind[landed] != W_HALF:
        s.action_cells[p] += 1
    half = nb.is_half_nb(tables, landed)
    trace_nb(trace, tn, EV_FLICK, p, aim, landed, pips, s.short_flicks[p] - short0)
    s.ctx[CTX_PIPS] = pips
    s.ctx[CTX_HALF] = 1 if half else 0
    s.ctx[CTX_LANDED] = landed
    s.landed = landed
    s.pips = pips
    s.half = 1 if half else 0
    if nb.has_action_nb(tables, s, landed, pips, s.turn_reflicks):
        s.phase = DEC_ACTION
        s.to_move = p
        return
    to_move_phase_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def apply_action_nb(tables, s, code, trace, tn):
    p = s.seat
    if code != OPT_NO_ACTION:
        trace_nb(trace, tn, EV_ACTION, p, code, 0, 0, 0)
    if code == OPT_REFLICK:
        s.turn_reflicks += 1
        s.reflicks[p] += 1
        s.phase = DEC_AIM
        s.to_move = p
        return
    if code == OPT_PLUS or code == OPT_MINUS:
        s.pips = nb.apply_pips_nb(tables, s, p, code, s.pips)
    elif code >= OPT_CHANNEL:
        cand = nb.apply_channel_nb(tables, s, p, code, trace, tn)
        start_boosts_nb(tables, s, cand, AFTER_ACTION, trace, tn)
        return
    to_move_phase_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    """Apply `option` (a code legal_nb listed) of the current decision, then resolve every
    chance event and automatic step up to the next decision or the end. `keep` is unused."""
    ph = s.phase
    if ph == DEC_AIM:
        apply_aim_nb(tables, s, option, trace, tn)
    elif ph == DEC_ACTION:
        apply_action_nb(tables, s, option, trace, tn)
    elif ph == DEC_MOVE:
        cand = nb.apply_move_nb(tables, s, s.seat, option, s.steps, trace, tn)
        start_boosts_nb(tables, s, cand, AFTER_MOVE, trace, tn)
    elif ph == DEC_BOOST:
        s.boost_surfer = nb.apply_boost_nb(tables, s, s.boost_surfer, option, trace, tn)
        s.boost_chain += 1
        resolve_boosts_nb(tables, s, trace, tn)


# ---------------------------------------------------------------------------------------
# results, a heuristic value, information sets, the checker
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def scores_nb(tables, s, n_players, scores, rank, win):
    pts = np.zeros(nb.N_PTS, np.int64)
    for p in range(n_players):
        scores[p] = nb.score_nb(tables, s, p, pts)
    nb.rank_nb(scores, s.fastest, n_players, rank, win)


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    """Each seat's win share of a finished game (1/k for k seats sharing the win)."""
    scores = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    scores_nb(tables, s, n_players, scores, rank, win)
    for p in range(out.shape[0]):
        out[p] = win[p] if p < n_players else 0.0


@njit(cache=True, error_model="numpy")
def outlook_nb(tables, s, p):
    """A rough expected final score of seat p: its points so far (marker, beach cells, both on
    the beach) plus, for each surfer still at sea, its share of the way (lines climbed /
    lines) of the mean finish cell score; a surfer at the start or out counts nothing."""
    n = tables.n_lines
    mean_cell = 0.0
    for k in range(tables.n_finish):
        mean_cell += tables.finish_score[k]
    mean_cell /= max(1, tables.n_finish)
    v = float(tables.fastest_points) if s.fastest == p else 0.0
    reach = 1.0
    for k in range(2):
        who = 2 * p + k
        st = s.status[who]
        if st == S_BEACH:
            v += tables.finish_score[s.slot[who]]
        elif st == S_SEA:
            f = float(s.cell[who] // MAX_COLS + 1) / float(n + 1)
            v += f * mean_cell
            reach *= f
        else:
            reach = 0.0
    v += reach * tables.duo_points
    return v


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """A heuristic chance that `seat` wins a game not yet over: a logistic of its outlook
    (outlook_nb) minus the best other seat's, on the scale of a mean finish cell."""
    n_players = s.n_players
    mine = outlook_nb(tables, s, seat)
    best = -1e18
    for q in range(n_players):
        if q != seat:
            x = outlook_nb(tables, s, q)
            if x > best:
                best = x
    if n_players < 2:
        best = 0.0
    scale = 0.0
    for k in range(tables.n_finish):
        scale += tables.finish_score[k]
    scale = max(1.0, scale / max(1, tables.n_finish))
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))


# what a seat sees: every field of the state but the random streams (all public), written by
# observe_nb in STATE_DTYPE's order (tests/test_surfers_model.py checks it writes OBS_LEN)
_OBS_FIELDS = tuple(f for f in STATE_DTYPE.names if f != "streams")
OBS_LEN = int(sum(np.prod(STATE_DTYPE[f].shape, dtype=np.int64) for f in _OBS_FIELDS))


@njit(cache=True, error_model="numpy")
def _put_nb(out, n, a):
    for i in range(a.shape[0]):
        out[n + i] = a[i]
    return n + a.shape[0]


@njit(cache=True, error_model="numpy")
def _put_game_nb(out, n, s):
    """The game's scalars, in STATE_DTYPE's order."""
    out[n] = s.n_players
    out[n + 1] = s.turn
    out[n + 2] = s.seat
    out[n + 3] = s.wave
    out[n + 4] = s.fastest
    out[n + 5] = s.fastest_pending
    out[n + 6] = s.fastest_turn
    out[n + 7] = s.over
    out[n + 8] = s.end_reason
    out[n + 9] = s.arrivals
    out[n + 10] = s.folds
    out[n + 11] = s.phase
    out[n + 12] = s.to_move
    out[n + 13] = s.turn_reflicks
    out[n + 14] = s.landed
    out[n + 15] = s.pips
    out[n + 16] = s.half
    out[n + 17] = s.steps
    out[n + 18] = s.boost_surfer
    out[n + 19] = s.boost_chain
    out[n + 20] = s.after_boosts
    return n + 21


@njit(cache=True, error_model="numpy")
def _put_counters_nb(out, n, s):
    """The per-seat counters (enums.SEAT_COUNTERS), in STATE_DTYPE's order."""
    n = _put_nb(out, n, s.seat_turns)
    n = _put_nb(out, n, s.flicks)
    n = _put_nb(out, n, s.short_flicks)
    n = _put_nb(out, n, s.off_sheet)
    n = _put_nb(out, n, s.aim_hits)
    n = _put_nb(out, n, s.action_cells)
    n = _put_nb(out, n, s.half_moves)
    n = _put_nb(out, n, s.plus)
    n = _put_nb(out, n, s.minus)
    n = _put_nb(out, n, s.reflicks)
    n = _put_nb(out, n, s.channels_up)
    n = _put_nb(out, n, s.channels_down)
    n = _put_nb(out, n, s.rides_given)
    n = _put_nb(out, n, s.moves)
    n = _put_nb(out, n, s.passes)
    n = _put_nb(out, n, s.progress)
    n = _put_nb(out, n, s.pushes)
    n = _put_nb(out, n, s.pushed)
    n = _put_nb(out, n, s.kills)
    n = _put_nb(out, n, s.boosts)
    n = _put_nb(out, n, s.rides)
    return _put_nb(out, n, s.boost_loops)


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """What `seat` has seen: the whole table (surfers, circles, channels, finish cells, the
    wave, the marker, the counters), the decision under way and its side inputs; everything
    but the random streams. Writes out[:OBS_LEN], returns OBS_LEN."""
    n = _put_game_nb(out, 0, s)
    n = _put_nb(out, n, s.ctx)
    n = _put_nb(out, n, s.status)
    n = _put_nb(out, n, s.cell)
    n = _put_nb(out, n, s.slot)
    n = _put_nb(out, n, s.no_ride)
    n = _put_nb(out, n, s.left_start)
    n = _put_nb(out, n, s.occ)
    n = _put_nb(out, n, s.chan)
    n = _put_nb(out, n, s.chan_by)
    n = _put_nb(out, n, s.finish)
    return _put_counters_nb(out, n, s)


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Everything on the table is public; what `seat` cannot know is the future: the flicks'
    noise and the pips. The chance stream is reseeded from `seed`; nothing else changes (the
    strategy streams, the seat's and the others', are the players' own)."""
    s.streams[0] = mix64_nb(mix64_nb(np.uint64(seed)) ^ STREAM_SALT)


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 when the state is consistent, else the first broken invariant (nb.check_state_nb:
    CHK_PLACE 1 a surfer's place, CHK_CIRCLE 2 one surfer per circle, CHK_LOOP 3 the channels,
    CHK_FINISH 4 the finish cells); a surfer waiting for its boost decision may share its
    partner's circle (nb.check_state_boosting_nb)."""
    boosting = s.boost_surfer if s.phase == DEC_BOOST else -1
    return nb.check_state_boosting_nb(tables, s, boosting)


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    """The finished game's rows rec[row0 + seat] (every column but illegal and choices)."""
    scores = np.zeros(MAX_PLAYERS, np.int64)
    rank = np.zeros(MAX_PLAYERS, np.int64)
    win = np.zeros(MAX_PLAYERS, np.float64)
    pts = np.zeros(nb.N_PTS, np.int64)
    for p in range(n_players):
        r = rec[row0 + p]
        scores[p] = nb.score_nb(tables, s, p, pts)
        r.pts_fastest = pts[nb.PTS_FASTEST]
        r.pts_duo = pts[nb.PTS_DUO]
        r.pts_cells = pts[nb.PTS_CELLS]
    nb.rank_nb(scores, s.fastest, n_players, rank, win)
    for p in range(n_players):
        r = rec[row0 + p]
        r.game = game_index
        r.seat = p
        r.score = scores[p]
        r.rank = rank[p]
        r.win = win[p]
        r.length = s.turn
        r.end_reason = s.end_reason
        r.turns = s.seat_turns[p]
        r.fastest = 1 if s.fastest == p else 0
        r.fastest_mask = 1 if s.fastest == p else 0
        r.fastest_turn = s.fastest_turn
        record_skill_nb(tables, n_players, p, rec, row0 + p)
        record_surfers_nb(s, p, rec, row0 + p)
        record_counters_nb(s, p, rec, row0 + p)


@njit(cache=True, error_model="numpy")
def record_skill_nb(tables, n_players, p, rec, row):
    """Columns spread, edge and edge_mask of seat p: its flick spread against the mean of the
    other seats'."""
    r = rec[row]
    total_spread = 0.0
    for q in range(n_players):
        total_spread += tables.skill[q]
    own = tables.skill[p]
    others = (total_spread - own) / float(n_players - 1) if n_players > 1 else own
    r.spread = own
    # to 1e-9: no float noise (0.2 - 0.2000000000000001) in a column people group by
    r.edge = np.rint((others - own) * 1e9) / 1e9
    edge_milli = int(round((others - own) * 1000.0))   # the mask's "as steady" band: 0.0005
    r.edge_mask = 1 if edge_milli > 0 else (2 if edge_milli == 0 else 4)


@njit(cache=True, error_model="numpy")
def record_surfers_nb(s, p, rec, row):
    """Where seat p's two surfers ended: on_beach, out_wave, out_tide, finish_best and the
    masks finish_mask and lost_mask."""
    r = rec[row]
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
    r.on_beach = on_beach
    r.out_wave = wave
    r.out_tide = tide
    r.finish_best = best
    r.finish_mask = fmask
    lmask = 0
    if wave > 0:
        lmask |= 1
    if tide > 0:
        lmask |= 2
    if wave == 0 and tide == 0:
        lmask |= 4
    r.lost_mask = lmask


@njit(cache=True, error_model="numpy")
def record_counters_nb(s, p, rec, row):
    """Seat p's counters, one column each (flicks .. boost_loops), and actions_mask (bit a:
    action a used at least once)."""
    r = rec[row]
    r.flicks = s.flicks[p]
    r.short_flicks = s.short_flicks[p]
    r.off_sheet = s.off_sheet[p]
    r.aim_hits = s.aim_hits[p]
    r.action_cells = s.action_cells[p]
    r.half_moves = s.half_moves[p]
    r.plus = s.plus[p]
    r.minus = s.minus[p]
    r.reflicks = s.reflicks[p]
    r.channels_up = s.channels_up[p]
    r.channels_down = s.channels_down[p]
    r.moves = s.moves[p]
    r.passes = s.passes[p]
    r.progress = s.progress[p]
    r.pushes = s.pushes[p]
    r.pushed = s.pushed[p]
    r.kills = s.kills[p]
    r.boosts = s.boosts[p]
    r.rides = s.rides[p]
    r.boost_loops = s.boost_loops[p]
    amask = 0
    if s.plus[p] > 0:
        amask |= 1 << ACT_PLUS
    if s.minus[p] > 0:
        amask |= 1 << ACT_MINUS
    if s.reflicks[p] > 0:
        amask |= 1 << ACT_REFLICK
    if s.channels_up[p] > 0:
        amask |= 1 << ACT_CHANNEL_UP
    if s.channels_down[p] > 0:
        amask |= 1 << ACT_CHANNEL_DOWN
    r.actions_mask = amask
