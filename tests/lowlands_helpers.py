"""Helpers for the Lowlands tests: a small compiled play loop that follows the template's
loop (until the platform's harness is merged), and state/tables factories."""
import numpy as np
from numba import njit

from sim.games.lowlands import components as C
from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
from sim.rng import game_seed_nb, randint_nb


def tables(overrides=()):
    return C.load_components(overrides=tuple(overrides)).tables


def no_trace():
    return np.zeros((0, 6), np.int64), np.zeros(1, np.int64)


@njit(cache=True, error_model="numpy")
def play_random_nb(t, s, n_players, seed, check, max_steps):
    """Play one game with uniformly random choices from the seats' streams; with `check`,
    run check_state_nb after every step. Returns (first failing code or 0, steps)."""
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    M.setup_nb(t, s, n_players, seed, trace, tn)
    if check:
        c = M.check_state_nb(t, s)
        if c != 0:
            return c, 0
    steps = 0
    while not M.is_over_nb(s) and steps < max_steps:
        seat = M.to_move_nb(s)
        n = M.legal_nb(t, s, options)
        M.context_nb(t, s, ctx, keep)
        i = randint_nb(s.streams, 1 + seat, n)
        M.apply_nb(t, s, options[i], keep, trace, tn)
        steps += 1
        if check:
            c = M.check_state_nb(t, s)
            if c != 0:
                return c, steps
    return 0, steps
