"""Helpers for driving the Sunset Over Water kernels on hand-set positions (tests only).

    tables = default_tables()                   # the default tables (1-element record array)
    tables = tables_from_edits(("old", "new"))  # the same, from the default TOML with text edits
    st = fresh_state(tables, n_players)         # set-up done, then overwrite fields freely
    k = Kit()                                   # card ids by name (default components), option buffers
    t = card_tables(tables)                     # card arrays cut to the file's cards, rules as ints
    rec = play_games(tables, n, sids, params, seed, n_games)   # the platform's loop: records
    trace, n_ev, rec = trace_game(tables, st, n, seed, game, sids, params)

Kernels take `tables[0]` and `st[0]` (records passed by reference: they mutate `st`).
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

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


# each card array of the tables -> the field holding how many cards it has (the planning
# deck always has E.N_PLAN cards)
_CARD_COUNT = {"landscape_": "n_land", "commission_": "n_comm", "goal_": "n_goal",
               "ranger_cells": "n_ranger", "inspiration_feature": "n_insp", "band_": "n_band",
               "plan_": None}


def card_tables(tables) -> SimpleNamespace:
    """The tables record (a 1-element TABLES_DTYPE array) as plain values: every card array cut
    to the cards in the file (tables.commission_points[:n_comm]...), the counts and rules as
    ints. For tests that read the component file's numbers card by card."""
    t = tables[0]
    out = {}
    for name in E.TABLES_DTYPE.names:
        if E.TABLES_DTYPE[name].shape == ():
            out[name] = int(t[name])
            continue
        count = next(c for prefix, c in _CARD_COUNT.items() if name.startswith(prefix))
        n = E.N_PLAN if count is None else int(t[count])
        out[name] = np.array(t[name][:n])
    return SimpleNamespace(**out)


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


