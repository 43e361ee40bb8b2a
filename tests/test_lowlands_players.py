"""Lowlands built-in players: greedy beats random and the planner beats greedy, with 95%
intervals that exclude parity (2 players, each strategy in each seat)."""
import math

import numpy as np

from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
from strategies import lowlands as S
from tests.lowlands_helpers import params_for, play_many_nb, tables


def win_share(a, b, n_games):
    """Win share of strategy a against b over n_games per seating (a in seat 0, then seat 1),
    with its 95% normal interval."""
    t = tables()[0]
    s = E.new_state()
    wins = []
    for seat_a in (0, 1):
        names = [a, b] if seat_a == 0 else [b, a]
        sids, params = params_for(names)
        rec = np.zeros(n_games * 2, M.RECORD.dtype)
        assert play_many_nb(t, s[0], 2, 40 + seat_a, 0, n_games, sids, params, rec, False) == 0
        wins.append(rec["win"][rec["seat"] == seat_a])
    w = np.concatenate(wins)
    p = w.mean()
    half = 1.96 * math.sqrt(p * (1 - p) / len(w))
    return p, p - half, p + half


def test_greedy_beats_random_with_an_interval_excluding_parity():
    p, lo, hi = win_share("greedy", "random", 200)
    assert lo > 0.5, (p, lo, hi)


def test_planner_beats_greedy_with_an_interval_excluding_parity():
    p, lo, hi = win_share("planner", "greedy", 500)
    assert lo > 0.5, (p, lo, hi)


def test_every_builtin_plays_legal_options_only():
    t = tables()[0]
    s = E.new_state()
    names = [c["name"] for c in S.CATALOG][1:]
    sids, params = params_for(names)
    rec = np.zeros(30 * len(names), M.RECORD.dtype)
    assert play_many_nb(t, s[0], len(names), 3, 0, 30, sids, params, rec, True) == 0
