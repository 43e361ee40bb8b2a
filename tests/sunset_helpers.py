"""Helpers for driving the Sunset Over Water kernels on hand-set positions (tests only).

    tables = default_tables()                   # packed default tables (1-element array)
    tables = tables_from_edits(("old", "new"))  # default TOML with text edits, packed
    st = fresh_state(tables, n_players)         # set-up done, then overwrite fields freely
    k = Kit(tables)                             # card ids by name, option buffers, a trace
    rec = play_games(tables, n, sids, params, seed, n_games)   # the platform's loop: records
    trace, n_ev, rec = trace_game(tables, st, n, seed, game, sids, params)

Kernels take `tables[0]` and `st[0]` (records passed by reference: they mutate `st`).
"""
from __future__ import annotations

import functools

import numpy as np

from sim.games.sunset import SPEC
from sim.games.sunset import enums as E
from sim.games.sunset.model import RECORD
from sim.games.sunset.components import (components_from_text, default_components_text,
                                         load_components)
from sim.games.sunset.nb import new_state, setup_nb
from sim.games.sunset.positions import (  # noqa: F401 (the positions live in the package; tests use them from here too)
    TRACE_ROWS, default_components, default_tables, edited_text, tables_from_edits, no_trace, new_trace, events, fresh_state, cell, hike_code, Kit, set_hand, hand, set_ldeck, set_ldisc, set_cdeck, set_row, row,
)


def play_games(tables, n_players, sids, params, seed, n_games, first_game=0) -> np.ndarray:
    """Games first_game.. of run seed `seed` played by the platform's loop (sim/harness.py)
    on the game's forward model: RECORD rows, n_players per game."""
    rec = RECORD.empty(n_games * n_players)
    SPEC.kernels().play_chunk(tables, new_state(), n_players, np.uint64(seed), first_game, n_games,
                              np.asarray(sids, np.int64), np.ascontiguousarray(params, np.float64), rec)
    return rec


def trace_game(tables, st, n_players, seed, game, sids, params, max_events=20000):
    """One game replayed with its trace: (events, count, RECORD rows); final state in st."""
    rec = RECORD.empty(n_players)
    trace, n = SPEC.kernels().trace_game(tables, st, n_players, np.uint64(seed), game,
                                         np.asarray(sids, np.int64),
                                         np.ascontiguousarray(params, np.float64), max_events, rec)
    return trace, n, rec


