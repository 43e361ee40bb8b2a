"""Lowlands positions by hand: a state after set-up whose farms the caller then edits, and
the board's edge numbering, so that a rule or a score can be checked from Python (the rule
tests use them; `game("lowlands").positions` finds this module through the game's contract).

    t, s = fresh(n=2, seed=1)          # tables record and state record after set-up
    bare_farm(s, 0)                    # seat 0: no fences, tiles or sheep
    enclose(s, 0, [(0, 0), (0, 1)])    # fence a pasture of two cells
    s.fence[0, h(0, 0)]                # the horizontal edge above cell (0, 0)

Kernels take `t` and `s` (records passed by reference: they mutate `s`).
"""
from __future__ import annotations

import numpy as np

from sim.games.lowlands import components as C
from sim.games.lowlands import enums as E
from sim.games.lowlands.setup import setup_state_nb

COLS = E.COLS


def tables(overrides=()):
    """The packed tables of the default component file with `--set` style overrides."""
    return C.load_components(overrides=tuple(overrides)).tables


def tile_names() -> list:
    """The farm expansion tiles' names, by id."""
    return C.load_components().card_names["tile"]


def no_trace():
    """An empty trace buffer and its counter (kernels that trace take both)."""
    return np.zeros((0, 6), np.int64), np.zeros(1, np.int64)


def h(r, c):
    """The horizontal edge above cell (r, c)."""
    return r * COLS + c


def v(r, c):
    """The vertical edge left of cell (r, c)."""
    return E.N_HEDGES + r * (COLS + 1) + c


def fresh(n=2, seed=1, overrides=()):
    """(tables record, state record) of an n-player game after set-up."""
    t = tables(overrides)[0]
    s = E.new_state()
    setup_state_nb(t, s[0], n, seed)
    return t, s[0]


def bare_farm(s, p):
    """An empty farm: no fences, tiles or sheep (all 16 fences on the income board)."""
    s.fence[p, :] = 0
    s.tile_at[p, :] = -1
    s.owned[p] = 0
    s.sheep[p] = 0
    s.n_buildings[p] = 0


def enclose(s, p, cells):
    """Fence the pasture made of `cells` [(row, col), ...] on seat p's farm."""
    for e in C.pasture_fences(cells):
        s.fence[p, e] = 1
