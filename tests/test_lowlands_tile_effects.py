"""Lowlands: the four farm-expansion tile effects that need a decision or a relaxed enclosure
test, one scenario per rule, each named after the rulebook text it checks
(/work/shared/rules/lowlands.ko.txt, "2. 양 건물" and "4. 설비"; where each lives:
docs/games/lowlands.md):

- Auction House (경매장): at each upkeep, before breeding, sell 1 sheep for the sheep price + 1
  coin (+1 more with the Shearer), without the sheep action's farmhand bonus;
- Fodder Silo: at each upkeep, before breeding, buy 1 sheep from the supply for 1 coin, not
  if it cannot be housed;
- Market Hall (재래시장): when built, buy up to 3 sheep at 2 coins OR sell up to 3 at 4 coins,
  with no other tile's bonus and no farmhand bonus;
- Dog Kennel (개집): houses 1 sheep; one pasture short of one fence counts as closed, its
  cells inside a pasture.
"""
import numpy as np
import pytest

from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
from sim.games.lowlands.advance import advance_nb
from sim.games.lowlands.decisions import apply_task_nb
from sim.games.lowlands.farm import capacity_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb, n_pastures_nb
from sim.games.lowlands.setup import setup_state_nb
from sim.games.lowlands.storm_surge import storm_surge_nb
from sim.games.lowlands.tasks import push_nb
from strategies import lowlands as S
from tests.lowlands_helpers import (bare_farm, enclose, fresh, h, names, no_trace,  # noqa: F401 - names: a fixture
                                    params_for, play_many_nb, tables, v)
from tests.naive_lowlands import naive_final, pasture_cells

COLS = E.COLS


def own(s, p, x, cell):
    s.tile_at[p, cell] = x
    s.owned[p] |= 1 << x


def to_upkeep(t, s):
    """Start upkeep I of stage 1 and run up to its first decision."""
    s.n_tasks = 0
    s.step = E.STEP_UP1
    s.step_started = 0
    tr, tn = no_trace()
    advance_nb(t, s, tr, tn)


def legal(t, s):
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = M.legal_nb(t, s, opts)
    return sorted(int(o) for o in opts[:n])


def farm_with_pasture(t, s, p, cells, sheep):
    bare_farm(s, p)
    enclose(s, p, cells)
    s.sheep[p] = sheep


# --- Auction House ---------------------------------------------------------------------
def test_auction_house_sells_one_sheep_before_breeding_for_the_price_plus_one(names):
    t, s = fresh()
    x = names.index("Auction House")
    assert t.tile_param[x] == 1 and t.tile_count[x] == 1          # numbers from the file
    farm_with_pasture(t, s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)], 4)   # 6 places
    own(s, 0, x, 0)
    s.hands[0, E.A_SHEEP] = 1                   # the sheep action's farmhand: no bonus here
    to_upkeep(t, s)
    assert s.dec == E.DEC_UPKEEP_TRADE and s.seat == 0
    assert legal(t, s) == [0, 16]               # keep, or sell 1 (no more than 1)
    price = t.price_sheep[s.price]
    coins = s.coins[0]
    tr, tn = no_trace()
    M.apply_nb(t, s, 16, np.zeros(1), tr, tn)
    assert s.coins[0] - coins == price + 1
    # breeding came after the sale: 3 sheep -> 1 lamb (4 would have given 2)
    assert s.sheep[0] == 4 and s.sheep_bred[0] == 1
    assert s.tile_sheep_sold[0] == 1 and s.sheep_sold[0] == 0


def test_auction_house_pays_one_more_coin_with_the_shearer(names):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)
    own(s, 0, names.index("Auction House"), 0)
    own(s, 0, names.index("Shearer"), 5)
    to_upkeep(t, s)
    price = t.price_sheep[s.price]
    coins = s.coins[0]
    tr, tn = no_trace()
    M.apply_nb(t, s, 16, np.zeros(1), tr, tn)
    assert s.coins[0] - coins == price + 1 + 1


def test_auction_house_is_asked_at_every_upkeep_and_declining_changes_nothing(names):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)
    own(s, 0, names.index("Auction House"), 0)
    to_upkeep(t, s)
    coins = s.coins[0]
    tr, tn = no_trace()
    M.apply_nb(t, s, 0, np.zeros(1), tr, tn)
    assert s.coins[0] >= coins and s.sheep[0] == 2      # full pasture: no lamb, nothing sold
    assert s.tile_sheep_sold[0] == 0
    # no sheep: nothing to sell, the seat is not asked
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 0)
    own(s, 0, names.index("Auction House"), 0)
    s.hand[:, :] = 0                                    # no discards at the tide
    to_upkeep(t, s)
    assert s.dec != E.DEC_UPKEEP_TRADE


def test_auction_house_rule_option_market_needs_a_free_market_place(names):
    t, s = fresh(overrides=["rules.auction_house_sells_to=market"])
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)
    own(s, 0, names.index("Auction House"), 0)
    s.market_free[:] = 0
    s.hand[:, :] = 0
    to_upkeep(t, s)
    assert s.dec != E.DEC_UPKEEP_TRADE           # the market is full: no sale
    t, s = fresh(overrides=["rules.auction_house_sells_to=market"])
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)
    own(s, 0, names.index("Auction House"), 0)
    s.market_free[:] = 0
    s.market_free[1] = 2
    to_upkeep(t, s)
    tr, tn = no_trace()
    apply_task_nb(t, s, 16, tr, tn)
    assert s.market_free[1] == 1                          # the sheep took a market place


# --- Fodder Silo -----------------------------------------------------------------------
def test_fodder_silo_buys_one_sheep_for_one_coin_before_breeding(names):
    t, s = fresh()
    x = names.index("Fodder Silo")
    assert t.tile_buy[x] == 1 and t.tile_count[x] == 1
    farm_with_pasture(t, s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)], 3)   # 6 places
    own(s, 0, x, 0)
    to_upkeep(t, s)
    assert s.dec == E.DEC_UPKEEP_TRADE and legal(t, s) == [0, 1]
    coins = s.coins[0]
    tr, tn = no_trace()
    M.apply_nb(t, s, 1, np.zeros(1), tr, tn)
    assert s.coins[0] - coins == -1 + 0                   # paid 1 (upkeep income: a card)
    assert s.sheep[0] == 6 and s.sheep_bred[0] == 2    # 4 sheep bred 2 lambs
    assert s.tile_sheep_bought[0] == 1 and s.sheep_bought[0] == 0


def test_fodder_silo_cannot_buy_a_sheep_that_cannot_be_housed(names):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)        # full
    own(s, 0, names.index("Fodder Silo"), 0)
    s.hand[:, :] = 0
    to_upkeep(t, s)
    assert s.dec != E.DEC_UPKEEP_TRADE and s.sheep[0] == 2
    # no coin: no purchase either
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2), (1, 3)], 2)
    own(s, 0, names.index("Fodder Silo"), 0)
    s.coins[0] = 0
    s.hand[:, :] = 0
    to_upkeep(t, s)
    assert s.dec != E.DEC_UPKEEP_TRADE


def test_auction_house_and_fodder_silo_together_sell_then_buy_with_a_full_farm(names):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)        # full: buying needs the sale first
    own(s, 0, names.index("Auction House"), 0)
    own(s, 0, names.index("Fodder Silo"), 5)
    to_upkeep(t, s)
    assert legal(t, s) == [0, 16, 17]                       # no purchase without a sale
    price = t.price_sheep[s.price]
    coins = s.coins[0]
    tr, tn = no_trace()
    apply_task_nb(t, s, 17, tr, tn)
    assert s.sheep[0] == 2 and s.coins[0] - coins == price + 1 - 1


# --- Market Hall -----------------------------------------------------------------------
def build(t, s, p, x, cell):
    s.n_tasks = 0
    s.hand[p, :] = (9, 9, 9)
    push_nb(s, E.T_CELL, p, x, 0, 0, 0, 0, 0)
    tr, tn = no_trace()
    apply_task_nb(t, s, cell, tr, tn)
    advance_nb(t, s, tr, tn)


def test_market_hall_buys_up_to_three_sheep_at_two_coins_when_built(names):
    t, s = fresh()
    x = names.index("Market Hall")
    assert (t.tile_count[x], t.tile_buy[x], t.tile_sell[x]) == (3, 2, 4)
    farm_with_pasture(t, s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)], 2)   # room 4
    s.coins[0] = 5                                           # 2 sheep affordable, not 3
    build(t, s, 0, x, 0)
    assert s.dec == E.DEC_MARKET_HALL and s.seat == 0
    assert legal(t, s) == [0, 1, 2, 16, 32]                 # buy 1-2, or sell 1-2 (2 sheep)
    tr, tn = no_trace()
    apply_task_nb(t, s, 2, tr, tn)
    assert s.sheep[0] == 4 and s.coins[0] == 1


def test_market_hall_sells_up_to_three_sheep_at_four_coins_without_other_bonuses(names):
    t, s = fresh()
    x = names.index("Market Hall")
    farm_with_pasture(t, s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)], 5)
    own(s, 0, names.index("Shearer"), 23)                    # no Shearer bonus here
    s.hands[0, E.A_SHEEP] = 1                                # no farmhand bonus either
    s.coins[0] = 0
    build(t, s, 0, x, 0)
    assert legal(t, s) == [0, 16, 32, 48]                   # no coins: selling only, up to 3
    tr, tn = no_trace()
    apply_task_nb(t, s, 48, tr, tn)
    assert s.sheep[0] == 2 and s.coins[0] == 12
    assert s.tile_sheep_sold[0] == 3


# --- Dog Kennel ------------------------------------------------------------------------
def test_dog_kennel_counts_a_pasture_short_of_one_fence_as_closed(names):
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(1, 1), (1, 2)])
    s.fence[0, v(1, 3)] = 0                 # the right side open, into the open farm
    assert n_pastures_nb(t, s, 0) == 0 and capacity_nb(t, s, 0) == 0
    own(s, 0, names.index("Dog Kennel"), 3 * COLS + 5)
    assert n_pastures_nb(t, s, 0) == 1
    assert in_pasture_mask_nb(t, s, 0) == (1 << (COLS + 1)) | (1 << (COLS + 2))
    assert capacity_nb(t, s, 0) == 2 + 1  # its 2 cells + the kennel's own sheep
    # short of two fences: still open
    s.fence[0, h(1, 1)] = 0
    assert n_pastures_nb(t, s, 0) == 0 and capacity_nb(t, s, 0) == 1


def test_dog_kennel_closes_only_one_pasture_the_one_housing_most(names):
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(0, 0)])
    enclose(s, 0, [(2, 2), (2, 3), (3, 2), (3, 3)])
    s.fence[0, h(0, 0)] = 0                 # against the farm's border, one fence missing
    s.fence[0, v(2, 4)] = 0                 # one fence missing in the middle of the farm
    own(s, 0, names.index("Dog Kennel"), 5)
    assert n_pastures_nb(t, s, 0) == 1
    mask = in_pasture_mask_nb(t, s, 0)
    assert mask == sum(1 << (r * COLS + c) for r in (2, 3) for c in (2, 3))
    assert capacity_nb(t, s, 0) == 4 + 1


def test_dog_kennel_pasture_is_inside_for_the_storm_surge_and_the_naive_scorer(names):
    t = tables()[0]
    arr = E.new_state()
    setup_state_nb(t, arr[0], 2, 1)
    s = arr[0]
    bare_farm(s, 0)
    enclose(s, 0, [(1, 1), (1, 2)])
    s.fence[0, v(1, 1)] = 0
    own(s, 0, names.index("Dog Kennel"), 3 * COLS + 5)
    own(s, 0, names.index("Estate"), 3 * COLS + 0)          # 3 points per pasture
    s.n_buildings[0] = 1
    inside, n_past = pasture_cells(t, s, 0)
    assert inside == {COLS + 1, COLS + 2} and n_past == 1
    naive = naive_final(t, arr.copy()[0])
    tr, tn = no_trace()
    storm_surge_nb(t, s, tr, tn)
    assert s.pts[0, E.PTS_BONUS] == t.tile_param[names.index("Estate")] * 1
    assert tuple(int(x) for x in s.pts[0]) + (int(s.score[0]),) == naive[0]


# --- the players' policies -------------------------------------------------------------
def choose(t, s, name):
    sids, params = params_for([name])
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = M.legal_nb(t, s, opts)
    ctx = np.zeros(M.CTX_LEN, np.int64)
    M.context_nb(t, s, ctx, np.zeros(1))
    seat = M.to_move_nb(s)
    i = S.choose_builtin_nb(sids[0], params[0], t, s, seat, M.decision_nb(s), opts, n, ctx,
                            np.zeros(1))
    return int(opts[i])


@pytest.mark.parametrize("name", ["greedy", "planner", "dike", "shepherd"])
def test_players_sell_at_the_auction_house_when_the_farm_has_no_room(names, name):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)         # full: the sheep would not breed
    own(s, 0, names.index("Auction House"), 0)
    to_upkeep(t, s)
    assert choose(t, s, name) == 16


@pytest.mark.parametrize("name", ["greedy", "planner", "shepherd"])
def test_players_buy_at_the_fodder_silo_when_the_farm_has_room(names, name):
    t, s = fresh()
    farm_with_pasture(t, s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)], 3)
    own(s, 0, names.index("Fodder Silo"), 0)
    to_upkeep(t, s)
    assert choose(t, s, name) == 1


# --- invariants with the four tiles everywhere -----------------------------------------
def tiles_everywhere():
    """The default tables with every facility a Dog Kennel and every sheep building an
    Auction House, Market Hall or Fodder Silo (so that they are built in most games)."""
    from sim.games.lowlands import components as C
    comp = C.load_components()
    t = comp.tables.copy()
    nm = comp.card_names["tile"]
    src = [nm.index(n) for n in ("Auction House", "Market Hall", "Fodder Silo")]
    kennel = nm.index("Dog Kennel")
    t0 = t[0]
    j = 0
    for x in range(t0.n_tiles):
        model = None
        if t0.tile_kind[x] == E.K_FACILITY:
            model = kennel
        elif t0.tile_kind[x] == E.K_SHEEP:
            model = src[j % 3]
            j += 1
        if model is not None:
            for f in ("tile_effect", "tile_param", "tile_count", "tile_buy", "tile_sell",
                      "tile_cap_in", "tile_cap_out"):
                t0[f][x] = t0[f][model]
    t0.effect_tiles[:] = 0
    for x in range(t0.n_tiles):
        t0.effect_tiles[t0.tile_effect[x]] |= 1 << x
    return t


@pytest.mark.parametrize("names_", [["random"] * 2, ["random"] * 4, ["greedy", "planner"],
                                    ["dike", "shepherd", "greedy", "random"]])
def test_invariants_hold_with_the_four_tiles_in_every_game(names_):
    t = tiles_everywhere()[0]
    s = E.new_state()
    sids, params = params_for(names_)
    n = len(names_)
    rec = np.zeros(100 * n, M.RECORD.dtype)
    assert play_many_nb(t, s[0], n, 13, 0, 100, sids, params, rec, True) == 0
    # the tiles were played: trades happened
    assert rec["tile_sheep_sold"].sum() + rec["tile_sheep_bought"].sum() > 0


# --- the component file ----------------------------------------------------------------
@pytest.mark.parametrize("override, expected", [
    ('tiles["Auction House"].count=0', 'tiles[28] "Auction House": count: effect \'auction_house\' needs'),
    ('tiles["Market Hall"].count=12', 'tiles[29] "Market Hall": count must be <= 9'),
    ('tiles["Fodder Silo"].buy_price=-1', 'tiles[34] "Fodder Silo": buy_price must be >= 0'),
    ('rules.auction_house_sells_to="auction"', "rules.auction_house_sells_to must be one of"),
])
def test_trading_tile_numbers_are_validated_one_line_per_problem(override, expected):
    from sim.game_api import ComponentError
    from sim.games.lowlands import components as C
    with pytest.raises(ComponentError) as exc:
        C.load_components(overrides=(override,))
    assert len(exc.value.lines) == 1 and expected in exc.value.lines[0], exc.value.lines


def test_trading_tile_numbers_come_from_the_file_not_the_code(names):
    t = tables(['tiles["Market Hall"].sell_price=7', 'tiles["Auction House"].param=3'])[0]
    x = names.index("Market Hall")
    assert t.tile_sell[x] == 7
    s_arr = E.new_state()
    setup_state_nb(t, s_arr[0], 2, 1)
    s = s_arr[0]
    farm_with_pasture(t, s, 0, [(1, 1), (1, 2)], 2)
    own(s, 0, names.index("Auction House"), 0)
    to_upkeep(t, s)
    coins = s.coins[0]
    tr, tn = no_trace()
    apply_task_nb(t, s, 16, tr, tn)
    assert s.coins[0] - coins == t.price_sheep[s.price] + 3
