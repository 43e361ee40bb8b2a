"""Lowlands: the sheep market: the price track's sheep price, the market rows and the
sheep action (buy or sell on one row).
"""
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    A_SHEEP, EF_SHEARER, EV_MARKET, EV_SHEEP, T_CARDS,
)
from sim.games.lowlands.farm import capacity_nb
from sim.games.lowlands.tasks import pop_nb, push_nb


@njit(cache=True, error_model="numpy")
def sheep_price_nb(t, s):
    return t.price_sheep[s.price]


@njit(cache=True, error_model="numpy")
def market_reset_nb(t, s):
    np_ = s.n_players
    for r in range(s.market_avail.shape[0]):
        if r < t.n_market_rows[np_]:
            s.market_avail[r] = t.market_buy[np_, r]
            s.market_free[r] = t.market_sell[np_, r]
        else:
            s.market_avail[r] = 0
            s.market_free[r] = 0


@njit(cache=True, error_model="numpy")
def shearer_bonus_nb(t, s, p):
    """Coins the Shearer(s) add per sheep sold to the market (its param)."""
    b = 0
    m = s.owned[p] & t.effect_tiles[EF_SHEARER]
    if m == 0:
        return 0
    for x in range(t.n_tiles):
        if (m >> x) & 1:
            b += t.tile_param[x]
    return b


@njit(cache=True, error_model="numpy")
def sheep_options_nb(t, s, p, value, options):
    """Buy from one market row (its sheep, room on the farm, coins) or sell to one row (its
    empty places): up to the action value. code = mode*100 + row*10 + count."""
    n = 0
    np_ = s.n_players
    hand = s.hands[p, A_SHEEP]
    price = sheep_price_nb(t, s)
    buy = price - hand
    if buy < 0:
        buy = 0
    room = capacity_nb(t, s, p) - s.sheep[p]
    for r in range(t.n_market_rows[np_]):
        kmax = value
        if s.market_avail[r] < kmax:
            kmax = s.market_avail[r]
        if room < kmax:
            kmax = room
        for k in range(1, kmax + 1):
            if k * buy > s.coins[p]:
                break
            options[n] = r * 10 + k
            n += 1
    for r in range(t.n_market_rows[np_]):
        kmax = value
        if s.market_free[r] < kmax:
            kmax = s.market_free[r]
        if s.sheep[p] < kmax:
            kmax = s.sheep[p]
        for k in range(1, kmax + 1):
            options[n] = 100 + r * 10 + k
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_sheep_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    value = s.task[i, 2]
    pop_nb(s)
    mode = option // 100
    r = (option % 100) // 10
    k = option % 10
    price = sheep_price_nb(t, s)
    hand = s.hands[p, A_SHEEP]
    if mode == 0:
        each = price - hand
        if each < 0:
            each = 0
        s.coins[p] -= k * each
        s.sheep[p] += k
        s.market_avail[r] -= k     # the bought sheep leave empty places to sell into
        s.market_free[r] += k
        s.sheep_bought[p] += k
    else:
        each = price + hand + shearer_bonus_nb(t, s, p)
        s.coins[p] += k * each
        s.sheep[p] -= k
        s.market_free[r] -= k      # the sold sheep stand in the row, for sale
        s.market_avail[r] += k
        s.sheep_sold[p] += k
    trace_nb(trace, tn, EV_SHEEP, p, mode, r, k, each)
    if mode == 0:
        trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] + k, s.market_free[r] - k,
                 s.market_avail[r], s.market_free[r])
    else:
        trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] - k, s.market_free[r] + k,
                 s.market_avail[r], s.market_free[r])
    if value - k > 0:
        push_nb(s, T_CARDS, p, value - k, 0, 0, 0, 0, 0)
