"""Lowlands: the sheep-trading tiles: the Auction House and the Fodder Silo at each upkeep
(before breeding), the Market Hall once, when it is built.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    AUCTION_TO_MARKET, EF_AUCTION, EF_FODDER_SILO, EV_MARKET, EV_TRADE, TRADE_MAX, T_UPKEEP,
    T_UPKEEP_TRADE,
)
from sim.games.lowlands.farm import capacity_nb
from sim.games.lowlands.market import shearer_bonus_nb, sheep_price_nb
from sim.games.lowlands.tasks import push_nb
from sim.numba_calls import plain_constants


@plain_constants
@njit(cache=True, error_model="numpy")
def trade_slots_nb(t, s, p, effect, out):
    """One entry per sheep p's tiles with `effect` may trade at an upkeep, best first: the
    Auction House's coins above the price (param, descending), the Fodder Silo's price
    (buy_price, ascending). Returns how many (at most TRADE_MAX)."""
    n = 0
    m = s.owned[p] & t.effect_tiles[effect]
    if m == 0:
        return 0
    for x in range(t.n_tiles):
        if not (m >> x) & 1:
            continue
        v = t.tile_param[x] if effect == EF_AUCTION else t.tile_buy[x]
        for _ in range(t.tile_count[x]):
            if n >= TRADE_MAX:
                break
            j = n                          # insertion: auction descending, silo ascending
            while j > 0 and ((effect == EF_AUCTION and out[j - 1] < v) or
                             (effect != EF_AUCTION and out[j - 1] > v)):
                out[j] = out[j - 1]
                j -= 1
            out[j] = v
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def market_free_total_nb(t, s):
    c = 0
    for r in range(t.n_market_rows[s.n_players]):
        c += s.market_free[r]
    return c


@njit(cache=True, error_model="numpy")
def upkeep_trade_coins_nb(t, s, p, sold, bought, aslots, fslots):
    """Coins received for `sold` sheep at the Auction House(s) (the sheep price + its bonus +
    the Shearer's; no farmhand: rules text) and paid for `bought` at the Fodder Silo(s)."""
    gain = 0
    if sold > 0:
        each = sheep_price_nb(t, s) + shearer_bonus_nb(t, s, p)
        for j in range(sold):
            gain += each + aslots[j]
    cost = 0
    for j in range(bought):
        cost += fslots[j]
    return gain, cost


@njit(cache=True, error_model="numpy")
def upkeep_trade_options_nb(t, s, p, options):
    """Before breeding: sell up to the Auction Houses' sheep and buy up to the Fodder Silos'
    (code = sold * 16 + bought; 0 = neither). A combination is legal when the sales then the
    purchases, or the purchases then the sales, can be made: sheep to sell, room for the
    bought ones (rules text: not if they cannot be housed), coins to pay; with the rule option
    auction_house_sells_to = "market", a free place on a market row per sheep sold."""
    aslots = np.empty(TRADE_MAX, np.int64)
    fslots = np.empty(TRADE_MAX, np.int64)
    na = trade_slots_nb(t, s, p, EF_AUCTION, aslots)
    nf = trade_slots_nb(t, s, p, EF_FODDER_SILO, fslots)
    if t.auction_house_sells_to == AUCTION_TO_MARKET:
        free = market_free_total_nb(t, s)
        if free < na:
            na = free
    sheep = s.sheep[p]
    room = capacity_nb(t, s, p) - sheep
    n = 0
    for ds in range(na + 1):
        for db in range(nf + 1):
            gain, cost = upkeep_trade_coins_nb(t, s, p, ds, db, aslots, fslots)
            sb = ds <= sheep and db <= room + ds and cost <= s.coins[p] + gain
            bs = db <= room and cost <= s.coins[p] and ds <= sheep + db
            if (ds == 0 and db == 0) or sb or bs:
                options[n] = ds * 16 + db
                n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_upkeep_trade_nb(t, s, p, option, trace, tn):
    ds = option // 16
    db = option % 16
    if ds == 0 and db == 0:
        return
    aslots = np.empty(TRADE_MAX, np.int64)
    fslots = np.empty(TRADE_MAX, np.int64)
    trade_slots_nb(t, s, p, EF_AUCTION, aslots)
    trade_slots_nb(t, s, p, EF_FODDER_SILO, fslots)
    gain, cost = upkeep_trade_coins_nb(t, s, p, ds, db, aslots, fslots)
    if t.auction_house_sells_to == AUCTION_TO_MARKET:       # the sold sheep fill market places, row by row
        left = ds
        for r in range(t.n_market_rows[s.n_players]):
            k = s.market_free[r] if s.market_free[r] < left else left
            if k > 0:
                s.market_free[r] -= k
                s.market_avail[r] += k
                trace_nb(trace, tn, EV_MARKET, r, s.market_avail[r] - k, s.market_free[r] + k,
                         s.market_avail[r], s.market_free[r])
            left -= k
    s.sheep[p] += db - ds
    s.coins[p] += gain - cost
    s.tile_sheep_sold[p] += ds
    s.tile_sheep_bought[p] += db
    trace_nb(trace, tn, EV_TRADE, p, 0, ds, db, gain - cost)


@njit(cache=True, error_model="numpy")
def push_upkeep_trades_nb(t, s, last):
    """Upkeep, before breeding: the owners of an Auction House or a Fodder Silo decide their
    trades (start player first), then the rest of the upkeep runs (T_UPKEEP). Returns False
    when nobody owns one (the upkeep then runs at once, as before)."""
    np_ = s.n_players
    tiles = t.effect_tiles[EF_AUCTION] | t.effect_tiles[EF_FODDER_SILO]
    anyone = False
    for p in range(np_):
        if s.owned[p] & tiles:
            anyone = True
    if not anyone:
        return False
    push_nb(s, T_UPKEEP, 0, 1 if last else 0, 0, 0, 0, 0, 0)
    for j in range(np_ - 1, -1, -1):                # pushed in reverse: the start player first
        p = (s.start_player + j) % np_
        if s.owned[p] & tiles:
            push_nb(s, T_UPKEEP_TRADE, p, 0, 0, 0, 0, 0, 0)
    return True


@njit(cache=True, error_model="numpy")
def market_hall_options_nb(t, s, p, x, options):
    """Market Hall, when built: buy up to `count` sheep from the supply at buy_price each
    (room and coins permitting) OR sell up to `count` to it at sell_price each; 0 = neither.
    code = sold * 16 + bought."""
    options[0] = 0
    n = 1
    room = capacity_nb(t, s, p) - s.sheep[p]
    for k in range(1, t.tile_count[x] + 1):
        if k <= room and k * t.tile_buy[x] <= s.coins[p]:
            options[n] = k
            n += 1
    for k in range(1, t.tile_count[x] + 1):
        if k <= s.sheep[p]:
            options[n] = k * 16
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_market_hall_nb(t, s, p, x, option, trace, tn):
    """The Market Hall's trade: its own prices only (no Shearer, no farmhand: rules text)."""
    ds = option // 16
    db = option % 16
    if ds == 0 and db == 0:
        return
    net = ds * t.tile_sell[x] - db * t.tile_buy[x]
    s.sheep[p] += db - ds
    s.coins[p] += net
    s.tile_sheep_sold[p] += ds
    s.tile_sheep_bought[p] += db
    trace_nb(trace, tn, EV_TRADE, p, 1, ds, db, net)
