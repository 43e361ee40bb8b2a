"""Helpers for the Lowlands tests: a small compiled play loop, and the board positions of
sim/games/lowlands/positions.py."""
import numpy as np
import pytest
from numba import njit

from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
# the board positions for the rule scenarios live in the package (the game's `positions`)
from sim.games.lowlands.positions import (COLS, bare_farm, enclose, fresh, h,  # noqa: F401
                                          no_trace, tables, tile_names, v)
from sim.rng import game_seed_nb, randint_nb


@pytest.fixture(scope="module")
def names():
    return tile_names()


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


from strategies import lowlands as S  # noqa: E402


@njit(cache=True, error_model="numpy")
def play_with_nb(t, s, n_players, seed, sids, params, check):
    """One game with the built-in strategies sids[seat] (params[seat]), the template's loop.
    Returns the first check_state_nb failure (0 if none or not checking)."""
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    M.setup_nb(t, s, n_players, seed, trace, tn)
    while not M.is_over_nb(s):
        seat = M.to_move_nb(s)
        dec = M.decision_nb(s)
        n = M.legal_nb(t, s, options)
        M.context_nb(t, s, ctx, keep)
        i = S.choose_builtin_nb(sids[seat], params[seat], t, s, seat, dec, options, n, ctx, keep)
        if i < 0 or i >= n:
            return -1
        M.apply_nb(t, s, options[i], keep, trace, tn)
        if check:
            c = M.check_state_nb(t, s)
            if c != 0:
                return c
    return 0


@njit(cache=True, error_model="numpy")
def play_many_nb(t, s, n_players, run_seed, first, n_games, sids, params, rec, check):
    """n_games games (seats as given), their records into rec; returns the first failure."""
    for g in range(first, first + n_games):
        c = play_with_nb(t, s, n_players, game_seed_nb(run_seed, g), sids, params, check)
        if c != 0:
            return c
        M.record_nb(t, s, n_players, g, rec, (g - first) * n_players)
    return 0


def params_for(names):
    """(sids, params) arrays for a list of catalog names."""
    by = {c["name"]: c for c in S.CATALOG}
    sids = np.array([by[n]["id"] for n in names], np.int64)
    params = np.zeros((len(names), S.N_PARAMS), np.float64)
    for i, n in enumerate(names):
        for j, (_, v, _) in enumerate(by[n]["params"]):
            params[i, j] = v
    return sids, params


def run(names, n_games, seed=7, check=False, overrides=()):
    """Records of n_games games of the strategies `names` (one per seat)."""
    t = tables(overrides)[0]
    s = E.new_state()
    sids, params = params_for(names)
    rec = np.zeros(n_games * len(names), M.RECORD.dtype)
    c = play_many_nb(t, s[0], len(names), seed, 0, n_games, sids, params, rec, check)
    return c, rec


@njit(cache=True, error_model="numpy")
def play_steps_nb(t, s, n_players, seed, sids, params, max_steps):
    """Play up to max_steps decisions of a game (built-in strategies); returns steps played."""
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    options = np.empty(M.MAX_OPTIONS, np.int64)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    keep = np.zeros(M.KEEP_LEN, np.float64)
    M.setup_nb(t, s, n_players, seed, trace, tn)
    k = 0
    while not M.is_over_nb(s) and k < max_steps:
        seat = M.to_move_nb(s)
        n = M.legal_nb(t, s, options)
        M.context_nb(t, s, ctx, keep)
        i = S.choose_builtin_nb(sids[seat], params[seat], t, s, seat, M.decision_nb(s), options, n, ctx, keep)
        M.apply_nb(t, s, options[i], keep, trace, tn)
        k += 1
    return k
