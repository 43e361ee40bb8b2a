"""Lowlands: one scenario per rule, each named after the rule it checks (rules text:
/work/shared/rules/lowlands.ko.txt; where each rule lives: docs/games/lowlands.md)."""
import numpy as np
import pytest

from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
from sim.games.lowlands.advance import advance_nb, run_auto_task_nb
from sim.games.lowlands.building import build_options_nb, tile_cells_nb
from sim.games.lowlands.cards import pay_plan_nb
from sim.games.lowlands.decisions import apply_task_nb, task_options_nb
from sim.games.lowlands.dike import (
    ahead_nb, dike_height_nb, dike_holds_nb, dike_points_nb, move_marker_nb,
)
from sim.games.lowlands.dike_action import dike_options_nb
from sim.games.lowlands.farm import capacity_nb, escape_nb, gain_sheep_nb, terrain_outside_nb
from sim.games.lowlands.fencing import end_fence_nb
from sim.games.lowlands.income import income_icons_nb
from sim.games.lowlands.market import apply_sheep_nb, sheep_options_nb
from sim.games.lowlands.pastures import in_pasture_mask_nb, n_pastures_nb, pastures_nb
from sim.games.lowlands.placement import place_value_nb
from sim.games.lowlands.storm_surge import storm_surge_nb
from sim.games.lowlands.tasks import is_decision_task_nb, push_nb
from sim.games.lowlands.tides import high_tide_nb, reveal_flood_nb
from sim.games.lowlands.upkeep import upkeep_nb
from tests.lowlands_helpers import bare_farm, enclose, fresh, h, names, no_trace, v  # noqa: F401 - names: a fixture

COLS = E.COLS


def tile_id(t_names, name):
    return t_names.index(name)


# --- enclosures ----------------------------------------------------------------------------
def test_enclosure_open_pasture_houses_no_sheep():
    t, s = fresh()
    bare_farm(s, 0)
    for e in (h(1, 1), h(2, 1), v(1, 1)):          # three sides of cell (1,1), right side open
        s.fence[0, e] = 1
    assert n_pastures_nb(t, s, 0) == 0
    assert capacity_nb(t, s, 0) == 0


def test_enclosure_pasture_closed_by_a_building_border(names):
    t, s = fresh()
    bare_farm(s, 0)
    for e in (h(1, 1), h(2, 1), v(1, 1)):          # the right side is a building's border
        s.fence[0, e] = 1
    s.tile_at[0, 1 * COLS + 2] = tile_id(names, "Dike Master")
    assert n_pastures_nb(t, s, 0) == 1
    assert capacity_nb(t, s, 0) == 1


def test_enclosure_facility_border_is_not_a_fence(names):
    t, s = fresh()
    bare_farm(s, 0)
    for e in (h(1, 1), h(2, 1), v(1, 1)):
        s.fence[0, e] = 1
    s.tile_at[0, 1 * COLS + 2] = tile_id(names, "Treasure Chest")   # a facility, no border fence
    assert n_pastures_nb(t, s, 0) == 0
    assert capacity_nb(t, s, 0) == 0


def test_enclosure_two_pastures_sharing_a_fence():
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(1, 1)])
    enclose(s, 0, [(1, 2)])                         # shares the edge between them
    assert s.fence[0].sum() == 7
    assert n_pastures_nb(t, s, 0) == 2
    assert capacity_nb(t, s, 0) == 2


def test_enclosure_one_sheep_per_pasture_cell():
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(r, c) for r in (1, 2) for c in (2, 3, 4)])
    assert n_pastures_nb(t, s, 0) == 1
    assert capacity_nb(t, s, 0) == 6


def test_farm_border_is_not_a_fence_unless_the_rule_option_says_so():
    for flag, closed in ((False, 0), (True, 1)):
        t, s = fresh(overrides=[f"rules.border_is_fence={'true' if flag else 'false'}"])
        bare_farm(s, 0)
        for e in (h(1, 0), h(1, 1), v(0, 2)):       # cells (0,0),(0,1) against the border
            s.fence[0, e] = 1
        assert (in_pasture_mask_nb(t, s, 0) & 0b11) == (0b11 if closed else 0)


def flood_fill_mask(t, s, p):
    """The cells in pastures by the explicit-stack flood fill (pastures_nb's closed regions)."""
    region = np.empty(E.N_CELLS, np.int64)
    closed = np.empty(E.N_CELLS, np.int64)
    pastures_nb(t, s, p, region, closed)
    return sum(1 << k for k in range(E.N_CELLS) if region[k] >= 0 and closed[region[k]] == 1)


@pytest.mark.parametrize("border", ["false", "true"])
def test_enclosure_bitmask_finds_the_same_pastures_as_the_flood_fill(names, border):
    """in_pasture_mask_nb (bitmasks, the hot path) must agree with the region flood fill on
    any farm: random fences (sparse to dense) and random buildings and facilities."""
    t, s = fresh(overrides=[f"rules.border_is_fence={border}"])
    rng = np.random.default_rng(13)
    buildings = [i for i in range(t.n_tiles) if t.tile_kind[i] != E.K_FACILITY]
    facilities = [i for i in range(t.n_tiles) if t.tile_kind[i] == E.K_FACILITY]
    seen = set()
    for trial in range(3000):
        bare_farm(s, 0)
        s.fence[0, :] = rng.random(E.N_EDGES) < rng.uniform(0.1, 0.9)
        for k in rng.choice(E.N_CELLS, rng.integers(0, 5), replace=False):
            s.tile_at[0, k] = rng.choice(buildings if rng.random() < 0.7 else facilities)
        mask = in_pasture_mask_nb(t, s, 0)
        assert mask == flood_fill_mask(t, s, 0), trial
        seen.add(mask)
    assert len(seen) > 500         # the farms drawn had many different pastures


def test_starting_pasture_houses_the_two_starting_sheep():
    t, s = fresh()
    for p in range(2):
        assert s.sheep[p] == 2
        assert capacity_nb(t, s, p) == 2
        assert s.fence[p].sum() + s.fence_supply[p] == 16


def test_sheep_escape_from_an_open_pasture_after_the_action():
    t, s = fresh()
    s.fence[0, h(0, 0)] = 0                          # open the starting pasture
    tr, tn = no_trace()
    escape_nb(t, s, 0, tr, tn)
    assert s.sheep[0] == 0
    assert s.sheep_escaped[0] == 2


def test_tiles_that_house_sheep_add_places(names):
    t, s = fresh()
    bare_farm(s, 0)
    s.tile_at[0, 10] = tile_id(names, "Barn")       # houses 4, in or out of a pasture
    assert capacity_nb(t, s, 0) == 4
    s.tile_at[0, 11] = tile_id(names, "Shelter")    # 2 outside a pasture, 3 inside
    assert capacity_nb(t, s, 0) == 6


# --- high tide ---------------------------------------------------------------------------
@pytest.mark.parametrize("segments, waves, holds", [
    (0, 0, True), (0, 1, False),
    (3, 12, True),     # level: wave layer 1 length 12, dike layer 1 length 12
    (3, 13, False),    # the sea is a layer higher
    (4, 15, True),     # level at layer 2: wave length 3, dike length 3
    (4, 16, False),    # same layer, the waves longer
    (2, 8, True), (2, 9, False),
    (7, 24, True),     # two full layers each
    (7, 25, False),    # the 25th piece starts the third layer
    (8, 26, True),     # layer 3: waves 2 long, one segment of 2
])
def test_high_tide_wave_against_dike_level_holds(segments, waves, holds):
    t, s = fresh()
    s.segments = segments
    s.waves = waves
    assert dike_holds_nb(t, s) == holds


def test_dike_segment_lengths_by_layer():
    t, s = fresh()
    for k, want in ((1, (1, 4)), (3, (1, 12)), (4, (2, 3)), (7, (2, 12)), (8, (3, 2)), (13, (3, 12))):
        s.segments = k
        assert dike_height_nb(t, s) == want


def test_high_tide_held_pays_coins_above_the_lowest_and_raises_the_price():
    t, s = fresh(n=3)
    s.segments = 3
    s.waves = 12
    s.dike_pos[:3] = (4, 4, 2)                       # dike points 2, 2, 1 (rules-text example)
    coins = s.coins.copy()
    price = s.price
    tr, tn = no_trace()
    high_tide_nb(t, s, tr, tn)
    assert list(s.coins[:3] - coins[:3]) == [1, 1, 0]
    assert s.price == price + 1
    assert s.breach[:3].sum() == 0


def test_high_tide_broken_gives_breach_tokens_below_the_highest_and_lowers_the_price():
    t, s = fresh(n=3)
    s.segments = 1
    s.waves = 9
    s.dike_pos[:3] = (6, 4, 2)                       # 3, 2, 1 points (rules-text example)
    price = s.price
    tr, tn = no_trace()
    high_tide_nb(t, s, tr, tn)
    assert list(s.breach[:3]) == [0, 1, 2]
    assert s.price == price - 1
    assert s.floods_broke == 1


def test_flood_insurance_halves_breach_tokens_rounding_up(names):
    t, s = fresh(n=2)
    s.waves = 9
    s.dike_pos[:2] = (6, 0)
    s.owned[1] |= 1 << tile_id(names, "Flood Insurance")
    tr, tn = no_trace()
    high_tide_nb(t, s, tr, tn)
    assert s.breach[1] == 2                          # 3 -> 2


# --- dike track --------------------------------------------------------------------------
def test_dike_track_wraps_around_adding_20_points():
    t, s = fresh()
    s.dike_pos[0] = 40
    move_marker_nb(t, s, 0, 3, False, *no_trace())
    assert (s.dike_pos[0], s.dike_lap[0]) == (3, 1)
    assert dike_points_nb(t, s, 0) == 21


def test_progress_token_passed_over_not_landed_on_gives_its_bonus():
    t, s = fresh()
    s.dike_pos[0] = 16
    coins = s.coins[0]
    move_marker_nb(t, s, 0, 4, True, *no_trace())              # passes 18 (5 coins), stops on 20
    assert s.dike_pos[0] == 20
    assert s.coins[0] == coins + 5


def test_progress_token_with_two_effects_is_a_choice_and_stays_for_others():
    t, s = fresh()
    for p in (0, 1):
        s.dike_pos[p] = 4
        n0 = s.n_tasks
        move_marker_nb(t, s, p, 3, True, *no_trace())          # passes 6: 2 coins or remove a wave
        assert s.n_tasks == n0 + 1
        assert s.task[n0, 0] == E.T_TOKEN and s.task[n0, 1] == p


def test_marker_arriving_goes_on_top_for_start_player_and_ties():
    t, s = fresh()
    s.dike_pos[:2] = (3, 2)
    move_marker_nb(t, s, 1, 1, False, *no_trace())             # seat 1 arrives on seat 0's space
    assert ahead_nb(t, s, 1, 0)


# --- dike building -----------------------------------------------------------------------
def test_dike_one_resource_per_segment_until_it_is_finished():
    t, s = fresh()
    s.site_res = 1
    s.site_pos = 2
    s.hand[0, :] = (3, 3, 3)
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = dike_options_nb(t, s, 0, 4, 0, 0, opts)
    assert sorted(opts[:n]) == [1 * 16 + 1, 1 * 16 + 2]     # clay only, at most 2 to finish


def test_dike_new_segment_in_the_same_action_takes_another_resource():
    t, s = fresh()
    s.site_res = 0
    s.site_pos = 4                             # completed (by wood) in this action
    s.hand[0, :] = (3, 3, 3)
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = dike_options_nb(t, s, 0, 3, 1, 0, opts)     # done_res = wood + 1
    assert all(o // 16 != 0 for o in opts[:n]) and n > 0
    n = dike_options_nb(t, s, 0, 3, 0, 0, opts)     # a later action: wood again is fine
    assert any(o // 16 == 0 for o in opts[:n])


def test_dike_support_request_builder_moves_one_before_the_supporter():
    t, s = fresh()
    s.n_tasks = 0
    s.hand[1, :] = (0, 4, 0)
    push_nb(s, E.T_DIKE, 1, 4, E.DIKE_SUPPORT, 0, 0, 0, 0)   # seat 1 asked by seat 0 (4 paid)
    s.site_res = -1
    tr, tn = no_trace()
    apply_task_nb(t, s, 1 * 16 + 2, tr, tn)          # pays 2 clay
    assert s.dike_pos[0] == 1                          # exactly 1 for the builder
    assert s.dike_pos[1] == 2
    assert s.support_given[1] == 1
    assert s.order_stamp[1] > s.order_stamp[0]         # the supporter moved after


def test_dike_support_request_is_compulsory_after_a_dike_action():
    t, s = fresh(n=3)
    s.n_tasks = 0
    s.hand[0, :] = (4, 0, 0)
    push_nb(s, E.T_DIKE, 0, 4, E.DIKE_OWN, 0, 0, 0, -1)
    tr, tn = no_trace()
    apply_task_nb(t, s, 0 * 16 + 3, tr, tn)          # 3 wood of a value-4 farmer
    apply_task_nb(t, s, E.STOP, tr, tn)
    kinds = [s.task[i, 0] for i in range(s.n_tasks)]
    assert kinds[-1] == E.T_CARDS and kinds[-2] == E.T_ASK   # cards first, then the request
    assert s.task[s.n_tasks - 2, 2] == 3


def test_two_player_support_rule_option_none_skips_the_request():
    t, s = fresh(n=2, overrides=['rules.two_player_support="none"'])
    s.n_tasks = 0
    s.hand[0, :] = (4, 0, 0)
    push_nb(s, E.T_DIKE, 0, 4, E.DIKE_OWN, 0, 0, 0, -1)
    tr, tn = no_trace()
    apply_task_nb(t, s, 0 * 16 + 4, tr, tn)
    apply_task_nb(t, s, E.STOP, tr, tn) if s.task[s.n_tasks - 1, 0] == E.T_DIKE else None
    kinds = [s.task[i, 0] for i in range(s.n_tasks)]
    assert E.T_ASK not in kinds


def test_farmhand_adds_one_value_to_dike_fence_and_cards_not_build():
    t, s = fresh()
    s.hands[0, :] = (1, 1, 1, 1, 1)
    assert place_value_nb(t, s, 0, E.A_DIKE, 0, 0, 0) == 3
    assert place_value_nb(t, s, 0, E.A_FENCE, 0, 0, 0) == 3
    assert place_value_nb(t, s, 0, E.A_CARDS, 0, 0, 0) == 3
    assert place_value_nb(t, s, 0, E.A_BUILD, 0, 0, 0) == 2
    assert place_value_nb(t, s, 0, E.A_SHEEP, 0, 0, 0) == 2


def test_farmer_plus_two_token_raises_the_value():
    t, s = fresh()
    assert place_value_nb(t, s, 0, E.A_CARDS, 2, 1, 0) == 6


# --- work phase --------------------------------------------------------------------------
def test_reusing_an_action_space_costs_a_coin_per_own_farmer_there():
    t, s = fresh()
    s.n_tasks = 0
    push_nb(s, E.T_PLACE, 0, 0, 0, 0, 0, 0, 0)
    s.uses[0, E.A_CARDS] = 2
    s.coins[0] = 1
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = task_options_nb(t, s, opts)
    assert all(o // 16 != E.A_CARDS for o in opts[:n])      # 2 coins needed, 1 held
    s.coins[0] = 2
    n = task_options_nb(t, s, opts)
    code = [o for o in opts[:n] if o // 16 == E.A_CARDS][0]
    tr, tn = no_trace()
    apply_task_nb(t, s, code, tr, tn)
    assert s.coins[0] == 0


def test_unspent_action_value_becomes_resource_cards():
    t, s = fresh()
    s.n_tasks = 0
    s.coins[0] = 10
    push_nb(s, E.T_SHEEP, 0, 4, 0, 0, 0, 0, 0)
    s.sheep[0] = 1                                     # room for 1
    tr, tn = no_trace()
    apply_task_nb(t, s, 0 * 100 + 0 * 10 + 1, tr, tn)   # buy 1 from row 0
    top = s.n_tasks - 1
    assert s.task[top, 0] == E.T_CARDS and s.task[top, 2] == 3


def test_take_cards_face_up_first_then_deck_and_refill():
    t, s = fresh()
    s.n_tasks = 0
    push_nb(s, E.T_CARDS, 0, 3, 0, 0, 0, 0, 0)
    before = s.hand[0].sum()
    deck = s.deck_n
    tr, tn = no_trace()
    apply_task_nb(t, s, 0b0011, tr, tn)              # two face-up, one from the deck
    assert s.hand[0].sum() == before + 3
    assert (s.display >= 0).all()
    assert s.deck_n == deck - 3                 # 1 drawn + 2 to refill the display


def test_exchange_two_for_one_pays_a_missing_resource():
    t, s = fresh()
    s.hand[0, :] = (2, 0, 1)
    out = np.empty(3, np.int64)
    assert pay_plan_nb(t, s, 0, np.array([0, 1, 1]), 0, out)
    assert list(out) == [2, 0, 1]
    s.hand[0, :] = (1, 0, 1)
    assert not pay_plan_nb(t, s, 0, np.array([0, 1, 1]), 0, out)


def test_sheep_market_rows_limit_buying_and_selling():
    t, s = fresh(n=2)
    s.coins[0] = 50
    bare_farm(s, 0)
    enclose(s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)])
    s.sheep[0] = 2
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = sheep_options_nb(t, s, 0, 4, opts)
    buys = {(o // 10 % 10, o % 10) for o in opts[:n] if o < 100}
    sells = {(o // 10 % 10, o % 10) for o in opts[:n] if o >= 100}
    assert buys == {(0, 1), (0, 2), (1, 1), (2, 1)}            # rows hold 2, 1, 1 sheep
    assert sells == {(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)}   # 2 sheep to sell


def test_farmhand_on_sheep_action_lowers_price_and_raises_sale():
    t, s = fresh()
    s.n_tasks = 0
    s.hands[0, E.A_SHEEP] = 1
    price = t.price_sheep[s.price]
    coins = s.coins[0]
    push_nb(s, E.T_SHEEP, 0, 2, 0, 0, 0, 0, 0)
    tr, tn = no_trace()
    apply_task_nb(t, s, 100 + 0 * 10 + 1, tr, tn)   # sell 1
    assert s.coins[0] == coins + price + 1


def test_fences_built_in_one_action_cost_one_resource_of_the_same_type():
    t, s = fresh()
    s.n_tasks = 0
    s.hand[0, :] = (0, 2, 1)
    push_nb(s, E.T_FENCE, 0, 2, E.FENCE_OWN, -1, 0, 0, 0)
    tr, tn = no_trace()
    apply_task_nb(t, s, h(2, 3), tr, tn)
    apply_task_nb(t, s, h(3, 3), tr, tn)
    assert list(s.hand[0]) == [0, 0, 1]                # both paid in clay
    assert s.fence_supply[0] == 8


def test_moving_a_fence_is_free_of_resources():
    t, s = fresh()
    s.n_tasks = 0
    s.hand[0, :] = (0, 0, 0)
    push_nb(s, E.T_FENCE, 0, 1, E.FENCE_OWN, -1, 0, 0, 0)
    tr, tn = no_trace()
    apply_task_nb(t, s, E.N_EDGES + h(0, 0), tr, tn)
    apply_task_nb(t, s, h(3, 5), tr, tn)
    assert s.fence[0, h(3, 5)] == 1 and s.fence[0, h(0, 0)] == 0
    assert s.fence[0].sum() == 6


# --- building ----------------------------------------------------------------------------
def test_building_limits_four_buildings_and_one_storm_building():
    t, s = fresh()
    s.hand[0, :] = (9, 9, 9)
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = build_options_nb(t, s, 0, 4, False, 0, opts)
    assert any(o // E.MAX_DISPLAY == E.K_STORM for o in opts[:n])
    s.storm_built[0] = 1
    n = build_options_nb(t, s, 0, 4, False, 0, opts)
    assert not any(o // E.MAX_DISPLAY == E.K_STORM for o in opts[:n])
    s.n_buildings[0] = 4
    n = build_options_nb(t, s, 0, 4, False, 0, opts)
    assert n > 0 and all(o // E.MAX_DISPLAY == E.K_FACILITY for o in opts[:n])


def test_tile_with_terrain_requirement_only_on_that_terrain(names):
    t, s = fresh()
    x = tile_id(names, "Lake Cabin")
    cells = np.empty(E.N_CELLS, np.int64)
    n = tile_cells_nb(t, s, 0, x, cells)
    lay = s.layout[0]
    assert n > 0 and all(t.layout_terrain[lay, k] & E.TERRAIN_LAKE for k in cells[:n])


def test_built_tile_is_refilled_from_its_pile_but_storm_buildings_are_not():
    t, s = fresh()
    s.n_tasks = 0
    s.hand[0, :] = (9, 9, 9)
    x = s.tile_display[E.K_FACILITY, 0]
    pile = s.tile_deck_n[E.K_FACILITY]
    push_nb(s, E.T_CELL, 0, x, 0, 0, 0, 0, 0)
    tr, tn = no_trace()
    cells = np.empty(E.N_CELLS, np.int64)
    tile_cells_nb(t, s, 0, x, cells)
    apply_task_nb(t, s, cells[0], tr, tn)
    assert s.tile_deck_n[E.K_FACILITY] == pile - 1 and s.tile_display[E.K_FACILITY, 0] >= 0
    y = s.tile_display[E.K_STORM, 0]
    s.n_tasks = 0
    push_nb(s, E.T_CELL, 0, y, 0, 0, 0, 0, 0)
    tile_cells_nb(t, s, 0, y, cells)
    apply_task_nb(t, s, cells[0], tr, tn)
    assert s.tile_display[E.K_STORM, 0] == -1


def test_income_board_uncovers_income_as_buildings_and_fences_leave_it():
    t, s = fresh()
    out = np.empty(3, np.int64)
    income_icons_nb(t, s, 0, out)
    assert list(out) == [1, 0, 0]                      # the base card
    s.n_buildings[0] = 2
    income_icons_nb(t, s, 0, out)
    assert list(out) == [2, 0, 0]                      # rules text: 2 buildings -> 2 cards
    s.n_buildings[0] = 4
    income_icons_nb(t, s, 0, out)
    assert list(out) == [3, 1, 0]                      # all 4: 3 cards and 1 coin
    s.fence_supply[0] -= 5
    income_icons_nb(t, s, 0, out)
    assert out[0] == 4                                 # 5 fences built: +1 card


# --- upkeep ------------------------------------------------------------------------------
def test_breeding_one_lamb_per_two_sheep_bound_by_capacity():
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)])      # 6 places
    s.sheep[0] = 5
    assert gain_sheep_nb(t, s, 0, s.sheep[0] // 2) == 1            # 2 lambs, room for 1
    assert s.sheep[0] == 6


def test_start_player_goes_to_the_most_advanced_dike_marker_at_upkeep():
    t, s = fresh(n=3)
    s.n_tasks = 0
    s.dike_pos[:3] = (2, 7, 7)
    s.order_stamp[:3] = (5, 3, 4)                      # seat 2 on top of seat 1
    tr, tn = no_trace()
    upkeep_nb(t, s, False, tr, tn)
    assert s.start_player == 2


def test_non_start_players_get_one_more_coin():
    t, s = fresh(n=4, seed=3)
    st = s.start_player
    for p in range(4):
        assert s.coins[p] == (4 if p == st else 5)
    assert s.order_stamp[st] == s.order_stamp[:4].max()   # the top marker starts


def test_hand_limit_of_eight_discards_at_the_turn_of_the_tide():
    t, s = fresh()
    s.hand[0, :] = (5, 3, 2)
    tr, tn = no_trace()
    advance_nb(t, s, tr, tn)
    assert s.dec == E.DEC_DISCARD and s.seat == 0
    apply_task_nb(t, s, 0, tr, tn)
    advance_nb(t, s, tr, tn)
    apply_task_nb(t, s, 0, tr, tn)
    assert s.hand[0].sum() == 8


def test_flood_cards_three_per_stage_revealed_one_at_a_time():
    t, s = fresh()
    s.hand[:, :] = 0
    s.discard[0] += 8                                   # keep the card count whole
    tr, tn = no_trace()
    advance_nb(t, s, tr, tn)                          # through the tide to the first placement
    assert s.sea_n == 3 and s.sea_shown == 1
    assert s.flood_n == 12 - 3
    assert s.waves == t.flood_value[s.sea[0]]


def test_first_game_variant_removes_the_6_flood_card():
    t, s = fresh(overrides=["rules.first_game=true"])
    vals = sorted(t.flood_value[s.flood_deck[i]] for i in range(s.flood_n))
    assert vals == [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5]


# --- storm surge and final scoring -------------------------------------------------------
def test_breach_penalties_fall_through_sheep_then_coins_then_points():
    t, s = fresh()
    s.waves = 20
    s.segments = 0                              # the dike breaks at the storm surge
    s.breach[0] = 5
    s.sheep[0] = 2
    s.coins[0] = 4
    s.hand[0, :] = 0
    price = t.price_sheep[s.price]
    assert price == 3
    tr, tn = no_trace()
    storm_surge_nb(t, s, tr, tn)
    assert s.sheep[0] == 0                             # 2 tokens paid in sheep
    assert s.coins[0] == 0                             # 3 tokens x 3 coins = 9 owed, 4 paid
    assert s.penalty_points[0] == 5
    assert s.pts[0, E.PTS_COINS] == -5                 # recorded in the coin column


def test_breach_tokens_are_discarded_when_the_final_dike_holds():
    t, s = fresh()
    s.waves = 3
    s.segments = 1
    s.breach[0] = 5
    sheep = s.sheep[0]
    tr, tn = no_trace()
    storm_surge_nb(t, s, tr, tn)
    assert s.breach[0] == 0 and s.sheep[0] == sheep


def test_final_score_dike_points_times_dike_value_sheep_times_sheep_value_and_cards(names):
    t, s = fresh()
    s.waves = 0
    s.dike_pos[0] = 9                                  # 4 dike points
    s.dike_lap[0] = 1                                  # +20
    s.sheep[0] = 2
    s.coins[0] = 7
    s.hand[0, :] = (1, 1, 3)
    s.owned[0] = 1 << tile_id(names, "Barn")
    tr, tn = no_trace()
    storm_surge_nb(t, s, tr, tn)
    pos = s.price
    assert s.pts[0, E.PTS_DIKE] == 24 * t.price_dike[pos]
    assert s.pts[0, E.PTS_SHEEP] == 2 * t.price_sheep[pos]
    assert s.pts[0, E.PTS_SHIELDS] == t.tile_shields[tile_id(names, "Barn")]
    assert s.pts[0, E.PTS_COINS] == 7 and s.pts[0, E.PTS_CARDS] == 2
    assert s.score[0] == s.pts[0].sum()


def test_bank_scores_one_point_per_four_coins_at_the_storm_surge(names):
    t, s = fresh()
    s.owned[0] = 1 << tile_id(names, "Bank")
    s.coins[0] = 13
    tr, tn = no_trace()
    storm_surge_nb(t, s, tr, tn)
    assert s.pts[0, E.PTS_BONUS] == 3


def test_tie_break_dike_track_then_the_marker_on_top():
    t, s = fresh()
    s.score[:2] = (50, 50)
    s.dike_pos[:2] = (4, 6)
    rank = np.zeros(4, np.int64)
    M.ranks_nb(t, s, 2, rank)
    assert list(rank[:2]) == [2, 1]
    s.dike_pos[:2] = (6, 6)
    s.order_stamp[:2] = (9, 8)
    M.ranks_nb(t, s, 2, rank)
    assert list(rank[:2]) == [1, 2]


def test_waves_never_exceed_three_layers_of_twelve():
    t, s = fresh()
    s.waves = 35
    s.sea[0] = int(np.argmax(t.flood_value[:t.n_flood]))
    s.sea_n = 1
    s.sea_shown = 0
    tr, tn = no_trace()
    reveal_flood_nb(t, s, tr, tn)
    assert s.waves == 36


# --- the rulebook read literally --------------------------------------------------------------
def trace_buffer():
    return np.zeros((256, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def events(tr, tn, ev):
    return [tuple(int(x) for x in row[1:]) for row in tr[:tn[0]] if row[0] == ev]


def corner_pens_farm(t, s, names):
    """Corner Pens on B3 (outside pastures); one pasture: the corner A1 alone."""
    bare_farm(s, 0)
    x = tile_id(names, "Corner Pens")
    s.tile_at[0, 1 * COLS + 2] = x
    s.owned[0] |= 1 << x
    enclose(s, 0, [(0, 0)])


def test_corner_pens_each_tile_free_corner_holds_exactly_one_sheep_in_or_out_of_a_pasture(names):
    """'자신의 농장 네 귀퉁이 중, 농장 확장 타일을 짓지 않은 칸마다 정확히 양을 1마리 수용할 수
    있습니다. 해당 칸이 목장 안에 있거나 바깥에 있거나 상관 없습니다.'"""
    t, s = fresh()
    corner_pens_farm(t, s, names)
    # A1 (in the pasture): exactly 1; the three other corners (outside): 1 each
    assert capacity_nb(t, s, 0) == 4
    s.tile_at[0, E.CORNERS[3]] = tile_id(names, "Treasure Chest")   # a tile on a corner: none
    assert capacity_nb(t, s, 0) == 3


def test_corner_pens_rule_option_one_more_adds_a_place_to_a_pasture_corner(names):
    t, s = fresh(overrides=["rules.corner_pens=one_more"])
    corner_pens_farm(t, s, names)
    assert capacity_nb(t, s, 0) == 5      # A1: its pasture place + 1; 3 corners outside


def with_terrain(t, s, bit):
    """Seat 0 gets the first farm board showing terrain `bit`."""
    s.layout[0] = [i for i in range(t.n_layouts) if (t.layout_terrain[i] & bit).any()][0]


def lake_cell_and_count(t, s):
    with_terrain(t, s, E.TERRAIN_LAKE)
    lay = s.layout[0]
    lakes = [k for k in range(E.N_CELLS) if t.layout_terrain[lay, k] & E.TERRAIN_LAKE]
    return lakes[0], len(lakes)


@pytest.mark.parametrize("tile", ["Sheep Row", "Dike Master", "Treasure Chest"])
def test_lake_cells_outside_pastures_count_whatever_tile_stands_on_them(names, tile):
    """'자신의 농장에서 목장의 바깥에 있는 호수 칸' (Lake View, and likewise the lake, forest and
    bush cells of Woodland, Bush Clearing, Lake Pumping Station, Lake Meadow): a lake cell
    under a building is still a lake cell outside a pasture."""
    t, s = fresh()
    bare_farm(s, 0)
    k, n = lake_cell_and_count(t, s)
    assert n >= 1
    s.tile_at[0, k] = tile_id(names, tile)
    assert terrain_outside_nb(t, s, 0, E.TERRAIN_LAKE, in_pasture_mask_nb(t, s, 0)) == n


def test_terrain_rule_option_hidden_leaves_out_cells_under_buildings(names):
    t, s = fresh(overrides=["rules.terrain_under_buildings=hidden"])
    bare_farm(s, 0)
    k, n = lake_cell_and_count(t, s)
    s.tile_at[0, k] = tile_id(names, "Sheep Row")            # a building
    assert terrain_outside_nb(t, s, 0, E.TERRAIN_LAKE, in_pasture_mask_nb(t, s, 0)) == n - 1
    s.tile_at[0, k] = tile_id(names, "Treasure Chest")       # a facility: still counted
    assert terrain_outside_nb(t, s, 0, E.TERRAIN_LAKE, in_pasture_mask_nb(t, s, 0)) == n


def test_timber_yard_takes_two_cards_from_the_resource_deck(names):
    """'해당 목장 안에 나무 칸이 하나 이상 포함되어 있으면 자원 카드 더미에서 2장을 가져옵니다':
    from the deck, never the face-up cards."""
    t, s = fresh()
    bare_farm(s, 0)
    x = tile_id(names, "Timber Yard")
    with_terrain(t, s, E.TERRAIN_TREE)
    lay = s.layout[0]
    tree = [k for k in range(E.N_CELLS) if t.layout_terrain[lay, k] & E.TERRAIN_TREE][0]
    s.owned[0] |= 1 << x
    s.tile_at[0, 3 * COLS + 5 if tree != 3 * COLS + 5 else 0] = x
    enclose(s, 0, [divmod(tree, COLS)])                      # the fence action closed it
    s.n_tasks = 0
    hand, display, deck = s.hand[0].sum(), s.display.copy(), s.deck_n
    end_fence_nb(t, s, 0, 0, E.FENCE_OWN, 4, 0)
    tr, tn = trace_buffer()
    while s.n_tasks > 0 and not is_decision_task_nb(s.task[s.n_tasks - 1, 0]):
        run_auto_task_nb(t, s, tr, tn)
    assert s.n_tasks == 0                               # nothing left to choose
    assert s.hand[0].sum() == hand + 2 and s.deck_n == deck - 2
    assert (s.display == display).all()
    assert events(tr, tn, E.EV_CARDS) == [(0, 0, 2, 0, 0)]


def sheep_action(t, s, p, value, option):
    tr, tn = trace_buffer()
    s.n_tasks = 0
    push_nb(s, E.T_SHEEP, p, value, 0, 0, 0, 0, 0)
    apply_sheep_nb(t, s, option, tr, tn)
    return tr, tn


def test_sheep_market_sold_sheep_go_into_the_rows_empty_places_and_bought_ones_free_them():
    """'선택한 줄의 빈칸을 초과하여 팔 수 없고, 그 줄의 빈칸에 판매한 양을 하나씩 놓습니다' and
    '선택한 줄에 있는 만큼만 살 수 있고': a sold sheep stands in the row (it can be bought),
    a bought sheep leaves its place empty (it can be sold into)."""
    t, s = fresh(n=2)
    bare_farm(s, 1)
    enclose(s, 1, [(r, c) for r in (1, 2) for c in (1, 2, 3)])
    s.sheep[1] = 0
    s.coins[:2] = 50
    bare_farm(s, 0)
    enclose(s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)])
    s.sheep[0] = 4
    sheep0, free0 = int(s.market_avail[1]), int(s.market_free[1])
    tr, tn = sheep_action(t, s, 0, 4, 100 + 1 * 10 + free0)   # seat 0 fills row 2
    assert (s.market_avail[1], s.market_free[1]) == (sheep0 + free0, 0)
    assert events(tr, tn, E.EV_MARKET) == [(1, sheep0, free0, sheep0 + free0, 0)]
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    n = sheep_options_nb(t, s, 1, 6, opts)
    buys = [o % 10 for o in opts[:n] if o < 100 and (o // 10) % 10 == 1]
    assert max(buys) == sheep0 + free0                        # the sold sheep can be bought
    sheep_action(t, s, 1, 6, 1 * 10 + sheep0 + free0)         # seat 1 buys them all
    assert (s.market_avail[1], s.market_free[1]) == (0, sheep0 + free0)
    n = sheep_options_nb(t, s, 1, 6, opts)
    sells = [o % 10 for o in opts[:n] if o >= 100 and (o // 10) % 10 == 1]
    assert max(sells) == min(6, sheep0 + free0)               # their places take sales


def test_breach_tokens_column_counts_the_tokens_before_the_dwelling_mound_discards_them(names):
    t, s = fresh()
    x = tile_id(names, "Dwelling Mound")
    s.owned[0] |= 1 << x
    s.tile_at[0, 3 * COLS + 5] = x
    s.breach[0] = 3
    tr, tn = trace_buffer()
    storm_surge_nb(t, s, tr, tn)
    assert s.breach[0] == 0                                   # the mound discarded them
    assert s.breach_tokens[0] == 3


# --- every step that changes the state is in the trace -----------------------------------
def test_trace_shows_the_coins_of_a_progress_token_passed():
    t, s = fresh()
    s.dike_pos[0] = 16
    tr, tn = trace_buffer()
    move_marker_nb(t, s, 0, 4, True, tr, tn)                # passes 18: 5 coins
    assert [e for e in events(tr, tn, E.EV_TOKEN) if e[0] == 0 and e[2] == 0 and e[3] == 5]


def test_trace_shows_income_choices_and_lambs_born():
    t, s = fresh()
    bare_farm(s, 0)
    enclose(s, 0, [(r, c) for r in (1, 2) for c in (1, 2, 3)])
    s.sheep[0] = 4
    tr, tn = trace_buffer()
    upkeep_nb(t, s, False, tr, tn)
    assert (0, 2, 6, 0, 0) in events(tr, tn, E.EV_BREED)      # 4 sheep: 2 lambs
    s.n_tasks = 0
    push_nb(s, E.T_INCOME, 1, 0, 0, 0, 0, 0, 0)
    coins = s.coins[1]
    apply_task_nb(t, s, 1, tr, tn)
    assert s.coins[1] == coins + 1
    assert events(tr, tn, E.EV_INCOME)[-1][:2] == (1, 1)


# --- seats are asked in the rulebook's order, not by seat number ----------------------------
def test_dike_support_request_lists_the_rivals_clockwise_from_the_asker():
    t, s = fresh(n=4)
    opts = np.empty(E.MAX_OPTIONS, np.int64)
    for p in range(4):
        s.n_tasks = 0
        push_nb(s, E.T_ASK, p, 2, 0, 0, 0, 0, 0)
        n = task_options_nb(t, s, opts)
        assert list(opts[:n]) == [(p + j) % 4 for j in (1, 2, 3)]
