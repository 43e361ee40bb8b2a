"""The contract's play loop over Sagrada's forward model, for the tests (until the platform's
harness, sim/harness.py, plays it): ask the seat's built-in strategy, count illegal answers
(option 0 is played instead) and real choices, apply, and in checked games verify the state
after every step (first failure in g[G_BROKEN])."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.rng import game_seed_nb
from sim.games.sagrada import model as M
from sim.games.sagrada.enums import G_BROKEN, G_BROKEN_TURN, G_TURNS, MAX_PLAYERS, TRACE_WIDTH
from sim.games.sagrada.nb import new_state
from strategies.sagrada import choose_builtin_nb


@njit(cache=True, error_model="numpy")
def play_game_nb(tables, s, n_players, game_seed, sids, params, trace, tn, check, illegal, choices):
    M.setup_nb(tables, s, n_players, game_seed, trace, tn)
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    for p in range(MAX_PLAYERS):
        illegal[p] = 0
        choices[p] = 0
    steps = 0
    while not M.is_over_nb(s):
        seat = M.to_move_nb(s)
        dec = M.decision_nb(s)
        n = M.legal_nb(tables, s, options)
        M.context_nb(tables, s, ctx, keep)
        if n > 1:
            choices[seat] += 1
        i = choose_builtin_nb(sids[seat], params[seat], tables, s, seat, dec, options, n, ctx, keep)
        if i < 0 or i >= n:
            illegal[seat] += 1
            i = 0
        M.apply_nb(tables, s, options[i], keep, trace, tn)
        steps += 1
        if check != 0 and s.g[G_BROKEN] == 0:
            code = M.check_state_nb(tables, s)
            if code != 0:
                s.g[G_BROKEN] = code
                s.g[G_BROKEN_TURN] = s.g[G_TURNS]
    return steps


@njit(cache=True, error_model="numpy")
def chunk_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids, params, check, rec,
             broken):
    tables = tables_rec[0]
    s = state_rec[0]
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    illegal = np.zeros(MAX_PLAYERS, np.int64)
    choices = np.zeros(MAX_PLAYERS, np.int64)
    for i in range(n_games):
        game = first_game + i
        play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, trace, tn,
                     check, illegal, choices)
        M.record_nb(tables, s, n_players, game, rec, i * n_players)
        broken[i] = s.g[G_BROKEN]
        for p in range(n_players):
            rec[i * n_players + p].illegal = illegal[p]
            rec[i * n_players + p].choices = choices[p]


def play_chunk(tables, n_players, run_seed, first_game, n_games, sids, params, check=0):
    """Records (RECORD's structured array) of games first_game.. of a run; with check=1,
    (records, first broken invariant code of each game, 0 = none)."""
    rec = np.zeros(n_games * n_players, M.RECORD.dtype)
    broken = np.zeros(n_games, np.int64)
    chunk_nb(tables, new_state(), n_players, np.uint64(run_seed), first_game, n_games,
             np.asarray(sids, np.int64), np.asarray(params, np.float64), check, rec, broken)
    return (rec, broken) if check else rec


@njit(cache=True, error_model="numpy")
def trace_nb_game(tables_rec, state_rec, n_players, run_seed, game, sids, params, max_events, rec):
    tables = tables_rec[0]
    s = state_rec[0]
    trace = np.zeros((max_events, TRACE_WIDTH), np.int64)
    tn = np.zeros(1, np.int64)
    illegal = np.zeros(MAX_PLAYERS, np.int64)
    choices = np.zeros(MAX_PLAYERS, np.int64)
    play_game_nb(tables, s, n_players, game_seed_nb(run_seed, game), sids, params, trace, tn, 1,
                 illegal, choices)
    M.record_nb(tables, s, n_players, game, rec, 0)
    return trace, tn[0]


def trace_game(tables, n_players, run_seed, game, sids, params, max_events=20000):
    """(events, records, final state) of one game played with its trace on."""
    rec = np.zeros(n_players, M.RECORD.dtype)
    st = new_state()
    trace, n = trace_nb_game(tables, st, n_players, np.uint64(run_seed), game,
                             np.asarray(sids, np.int64), np.asarray(params, np.float64),
                             max_events, rec)
    return trace[:n], rec, st


def records_digest(columns) -> str:
    """A digest of a chunk's records, column by column in RECORD's order (ints as int64, win as
    float64): equal digests = identical logs."""
    import hashlib
    h = hashlib.sha1()
    for name, typ, _ in M.RECORD_FIELDS:
        h.update(name.encode())
        h.update(np.ascontiguousarray(np.asarray(columns[name], "f8" if typ == "f8" else "i8")).tobytes())
    return h.hexdigest()[:16]


def trace_digest(events) -> str:
    import hashlib
    return hashlib.sha1(np.ascontiguousarray(np.asarray(events, np.int64)).tobytes()).hexdigest()[:16]


@njit(cache=True, error_model="numpy")
def advance_nb(tables_rec, state_rec, sids, params, steps):
    """Play up to `steps` decisions of the game in state_rec with the built-ins (no trace);
    returns the decisions played."""
    tables = tables_rec[0]
    s = state_rec[0]
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    k = 0
    while k < steps and not M.is_over_nb(s):
        seat = M.to_move_nb(s)
        n = M.legal_nb(tables, s, options)
        M.context_nb(tables, s, ctx, keep)
        i = choose_builtin_nb(sids[seat], params[seat], tables, s, seat, M.decision_nb(s),
                              options, n, ctx, keep)
        M.apply_nb(tables, s, options[i], keep, trace, tn)
        k += 1
    return k


@njit(cache=True, error_model="numpy")
def answer_nb(tables_rec, state_rec, sid, params):
    """The built-in `sid`'s answer (option code) to the pending decision of state_rec."""
    tables = tables_rec[0]
    s = state_rec[0]
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    seat = M.to_move_nb(s)
    n = M.legal_nb(tables, s, options)
    M.context_nb(tables, s, ctx, keep)
    i = choose_builtin_nb(sid, params, tables, s, seat, M.decision_nb(s), options, n, ctx, keep)
    return options[i]


def start(tables, n_players, game_seed):
    """A new game's state, set up to its first decision."""
    st = new_state()
    M.setup_nb(tables[0], st[0], n_players, np.uint64(game_seed), np.zeros((0, 6), np.int64),
               np.zeros(1, np.int64))
    return st
