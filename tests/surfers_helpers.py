"""Helpers for driving the Grand Surfers kernels on hand-drawn small sheets (tests only).

    T = sheet_tables(SEA, wave=".", channels=[...], **rules)   # packed tables (1-element recarray)
    st = fresh_state(T, n_players)          # set-up done: every surfer at the start
    put(T, st, who, "3b")                   # a surfer on a cell (status sea, circle held)
    c("3b")                                 # cell id: line 3 from the start (1-based), column b

Kernels take `T[0]` and `st[0]` (records passed by reference: they mutate `st`). Surfer ids
are seat * 2 + k (k = 0 the first surfer).
"""
from __future__ import annotations

import numpy as np

from sim.games.surfers import enums as E
from sim.games.surfers.components import components_from_text
from sim.games.surfers.nb import new_state, setup_nb
from sim.games.surfers.positions import (  # noqa: F401 (the positions live in the package; tests use them from here too)
    RULES, TEMPLATE, sheet_text, sheet_components, sheet_tables, fresh_state, c, put, where, no_trace, options_buf,
)


# ---------------------------------------------------------------------------------------
# the forward model (sim/games/surfers/model.py) through the platform's harness
# (sim/harness.py: SPEC.kernels()), and small stepping kernels for the model's own tests
# ---------------------------------------------------------------------------------------
from numba import njit  # noqa: E402

from sim.rng import game_seed_nb  # noqa: E402
from sim.games.surfers import SPEC  # noqa: E402
from sim.games.surfers import model as M  # noqa: E402
from strategies.surfers import choose_builtin_nb  # noqa: E402


def checked_chunk(T, n_players, seed, first, n_games, sids, params):
    """(records, first failure) of games first..first+n_games-1 played by the harness with
    the model's check_state_nb after set-up and every step; failure = (code, game, step),
    code 0 when every state held."""
    rec = M.RECORD.empty(n_games * n_players)
    fail = SPEC.kernels().checked_chunk(T, new_state(), n_players, np.uint64(seed), first,
                                        n_games, np.asarray(sids, np.int64),
                                        np.ascontiguousarray(params, np.float64), rec)
    return rec, tuple(int(x) for x in fail)


def model_chunk(T, n_players, seed, first, n_games, sids, params):
    """checked_chunk's records, asserting that every state held."""
    rec, fail = checked_chunk(T, n_players, seed, first, n_games, sids, params)
    assert fail[0] == 0, f"check_state_nb code {fail[0]} in game {fail[1]} after step {fail[2]}"
    return rec


def trace_game(T, n_players, seed, game, sids, params, max_events=20000):
    """(events, records, final state) of one game replayed by the harness."""
    st = new_state()
    rec = M.RECORD.empty(n_players)
    events, n = SPEC.kernels().trace_game(T, st, n_players, np.uint64(seed), game,
                                          np.asarray(sids, np.int64),
                                          np.ascontiguousarray(params, np.float64),
                                          max_events, rec)
    return events[:n], rec, st


@njit(cache=True, error_model="numpy")
def model_start_nb(tables_rec, state_rec, n_players, game_seed):
    trace = np.zeros((0, E.TRACE_WIDTH), np.int64)
    tn = np.zeros(1, np.int64)
    M.setup_nb(tables_rec[0], state_rec[0], n_players, game_seed, trace, tn)


@njit(cache=True, error_model="numpy")
def model_steps_nb(tables_rec, state_rec, sids, params, max_steps, chosen):
    """Play up to max_steps decisions from the state as it stands, with built-in players;
    chosen[k] = the option applied at step k. Returns the steps played."""
    tables = tables_rec[0]
    s = state_rec[0]
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    trace = np.zeros((0, E.TRACE_WIDTH), np.int64)
    tn = np.zeros(1, np.int64)
    k = 0
    while k < max_steps and not M.is_over_nb(s):
        seat = M.to_move_nb(s)
        n = M.legal_nb(tables, s, options)
        M.context_nb(tables, s, ctx, keep)
        i = choose_builtin_nb(sids[seat], params[seat], tables, s, seat, M.decision_nb(s),
                              options, n, ctx, keep)
        chosen[k] = options[i]
        M.apply_nb(tables, s, options[i], keep, trace, tn)
        k += 1
    return k


@njit(cache=True, error_model="numpy")
def model_no_peek_nb(tables_rec, state_rec, n_players, run_seed, n_games, sids, params,
                     all_sids, all_params, det_seed):
    """Play n_games on the forward model; at every decision ask each built-in (all_sids) what it
    would choose, then redraw what the seat cannot know (determinize_nb, a new seed each time)
    and ask again. Returns (questions asked, answers that changed). The game itself goes on
    with the true state (streams and keep restored after each question)."""
    tables = tables_rec[0]
    s = state_rec[0]
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    trace = np.zeros((0, E.TRACE_WIDTH), np.int64)
    tn = np.zeros(1, np.int64)
    asked = 0
    changed = 0
    for g in range(n_games):
        M.setup_nb(tables, s, n_players, game_seed_nb(run_seed, g), trace, tn)
        keep[:] = 0.0
        while not M.is_over_nb(s):
            seat = M.to_move_nb(s)
            dec = M.decision_nb(s)
            n = M.legal_nb(tables, s, options)
            streams = s.streams.copy()
            keep0 = keep.copy()
            for j in range(all_sids.shape[0]):
                M.context_nb(tables, s, ctx, keep)
                a = choose_builtin_nb(all_sids[j], all_params[j], tables, s, seat, dec, options,
                                      n, ctx, keep)
                s.streams[:] = streams
                keep[:] = keep0
                M.determinize_nb(tables, s, seat, np.uint64(det_seed + asked))
                M.context_nb(tables, s, ctx, keep)
                b = choose_builtin_nb(all_sids[j], all_params[j], tables, s, seat, dec, options,
                                      n, ctx, keep)
                s.streams[:] = streams
                keep[:] = keep0
                asked += 1
                if a != b:
                    changed += 1
            M.context_nb(tables, s, ctx, keep)
            i = choose_builtin_nb(sids[seat], params[seat], tables, s, seat, dec, options, n,
                                  ctx, keep)
            M.apply_nb(tables, s, options[i], keep, trace, tn)
    return asked, changed
