"""Helpers for driving the Sagrada kernels on hand-set positions (tests only).

    T = default_tables()                  # packed default tables (1-element recarray)
    st = fresh_state(T, n_players)        # set-up done, every seat on a blank window
    set_window(st, seat, rows)            # dice from text: ["G1 Y6 .. B4 P6", ...]
    set_pool(st, ["R3", "B6"]); set_track(st, ["G2"])
    K = Kit()                             # card ids by name

Kernels take `T[0]` and `st[0]` (records passed by reference: they mutate `st`).
Window text: 4 rows of 5 tokens; a die is colour letter + value, ".." an open space.
Restriction text (set_restrictions): "r." colour, ".3" shade, ".." none.
"""
from __future__ import annotations

import functools

import numpy as np

from sim.games.sagrada import enums as E
from sim.games.sagrada.components import components_from_text, default_components_text, load_components
from sim.games.sagrada.nb import new_state, setup_nb, sync_masks_nb
from sim.games.sagrada.positions import (  # noqa: F401 (the positions live in the package; tests use them from here too)
    LETTER, default_components, default_tables, tables_with, no_trace, new_trace, events, cell, die, fresh_state, _tokens, set_restrictions, set_pattern, set_window, window_text, set_pool, pool, set_track, track, set_tools, set_public, options_buf, Kit,
)

R, Y, G, B, P = range(5)


# ---------------------------------------------------------------------------------------
# whole games through the platform's play loop (sim/harness.py) over the forward model
# ---------------------------------------------------------------------------------------
def kernels():
    from sim.games.sagrada import SPEC
    return SPEC.kernels()


def play_records(tables, n_players, run_seed, first_game, n_games, sids, params):
    """The records (RECORD's structured array, n_games * n_players rows) of games
    first_game.. of a run."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_games * n_players)
    kernels().play_chunk(tables, new_state(), n_players, np.uint64(run_seed), first_game, n_games,
                         np.asarray(sids, np.int64), np.ascontiguousarray(params, np.float64), rec)
    return rec


def checked_records(tables, n_players, run_seed, first_game, n_games, sids, params):
    """(records, first broken invariant code, 0 = none) of games checked after every step
    (the harness's checked kernel)."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_games * n_players)
    fail = kernels().checked_chunk(tables, new_state(), n_players, np.uint64(run_seed), first_game,
                                   n_games, np.asarray(sids, np.int64),
                                   np.ascontiguousarray(params, np.float64), rec)
    return rec, int(fail[0])


def traced_game(tables, n_players, run_seed, game, sids, params, max_events=20000):
    """(trace events, records of its n_players seats, final state) of one game."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_players)
    st = new_state()
    trace, n = kernels().trace_game(tables, st, n_players, np.uint64(run_seed), game,
                                    np.asarray(sids, np.int64),
                                    np.ascontiguousarray(params, np.float64), max_events, rec)
    return trace[:n], rec, st
