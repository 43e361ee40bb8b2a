"""Lowlands: the upkeep after each work phase: income, breeding, the sheep market's reset.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    EV_BREED, EV_UPKEEP, T_FLOOD, T_INCOME,
)
from sim.games.lowlands.cards import draw_card_nb
from sim.games.lowlands.dike import ahead_nb
from sim.games.lowlands.farm import gain_sheep_nb
from sim.games.lowlands.income import income_icons_nb
from sim.games.lowlands.market import market_reset_nb
from sim.games.lowlands.tasks import push_nb


@njit(cache=True, error_model="numpy")
def upkeep_nb(t, s, last, trace, tn):
    """Upkeep: breeding (1 lamb per 2 sheep, as housed), income (start player first; a
    card-or-coin icon is a choice), farmers home, market reset, start player by dike position
    (skipped in the last upkeep), then the next flood card."""
    np_ = s.n_players
    inc = np.empty(3, np.int64)
    push_nb(s, T_FLOOD, 0, 0, 0, 0, 0, 0, 0)       # revealed after the rest
    for j in range(np_):
        p = (s.start_player + j) % np_
        lambs = s.sheep[p] // t.breed_per
        got = gain_sheep_nb(t, s, p, lambs)
        s.sheep_bred[p] += got
        trace_nb(trace, tn, EV_BREED, p, got, s.sheep[p], 0, 0)
    for j in range(np_ - 1, -1, -1):                # pushed in reverse: the start player first
        p = (s.start_player + j) % np_
        income_icons_nb(t, s, p, inc)
        for _ in range(inc[2]):
            push_nb(s, T_INCOME, p, 0, 0, 0, 0, 0, 0)
    for j in range(np_):
        p = (s.start_player + j) % np_
        income_icons_nb(t, s, p, inc)
        for _ in range(inc[0]):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
        s.coins[p] += inc[1]
        trace_nb(trace, tn, EV_UPKEEP, p, 0, inc[0], inc[1], 0)
    if not last:
        for p in range(np_):
            s.farmer_on[p, :] = -1
            s.uses[p, :] = 0
            s.coin_plus_used[p] = 0
        market_reset_nb(t, s)
        best = 0
        for p in range(1, np_):
            if ahead_nb(t, s, p, best):
                best = p
        s.start_player = best
