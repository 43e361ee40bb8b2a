"""Dice: the built-in players (docs/adding-a-game.md, "Strategies"). Each reads only what
its seat may know: its own hand (the legal options) and the tables."""
from __future__ import annotations

from numba import njit

from sim.rng import randint_nb

from .catalog import GREEDY, RANDOM


@njit(cache=True, error_model="numpy")
def greedy_nb(tables, options, n_options):
    best = 0
    for i in range(1, n_options):
        if tables.points[options[i]] > tables.points[options[best]]:
            best = i
    return best


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if sid == GREEDY:
        return greedy_nb(tables, options, n_options)
    return -1
