"""Stepping Sagrada's forward model from the tests, as the platform's loop (sim/harness.py)
does: play a few decisions with the built-ins (advance_nb), ask a built-in its answer
(answer_nb), start a game (start); digests of logs and traces."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.sagrada import model as M
from sim.games.sagrada.nb import new_state
from strategies.sagrada import choose_builtin_nb


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
