"""Sunset Over Water: one scenario test per rule of the rulebook, on hand-set positions.

Every expected value below is derived from the rules text
(/work/shared/rules/sunset-over-water.en.txt, checked against the Korean text), not from what
the engine happens to do. Cards are looked up by name in the shipped default component file;
where a rule depends on a number the rulebook gives (6 days, 8 solo days, 2 features per
point, 2 points for returning home...) the number is written out here, not read from tables.

Grid cells: cell = row * 5 + col, row 0 at the top; the centre is cell 12.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.sunset import enums as E
from sim.games.sunset.enums import (CENTER, DIR_E, DIR_N, DIR_NE, DIR_NW, DIR_S, DIR_SE, DIR_SW,
                                    DIR_W, EMPTY, MAX_ROW, RANGER)
from sim.games.sunset.nb import (
    N_PTS, PTS_COMMISSIONS, PTS_GOALS, PTS_HOME, PTS_INSPIRATION, PTS_LANDSCAPES, apply_hike_nb,
    apply_paint_nb, apply_plan_nb, apply_sell_nb, check_goal_nb, cleanup_nb, default_keep_nb,
    draw_plans_nb, hike_options_nb, paint_options_nb, path_nb, plan_options_nb, rank_nb,
    score_nb, sell_options_nb, turn_order_nb, wake_effect_nb,
)
from tests.sunset_helpers import (Kit, cell, default_tables, events, fresh_state, hand,
                                  hike_code, new_trace, no_trace, row, set_cdeck, set_hand,
                                  set_ldeck, set_ldisc, set_row, tables_from_edits)

T = default_tables()
K = Kit()

# Planning cards of the default file, by name (their values are asserted where a test relies on them).
DAWN = K.plan("Dawn")                # 5:00, horizontal, move 1, paint 1
FIRST_LIGHT = K.plan("First Light")  # 6:15, vertical, move 2, paint 1
SUNRISE = K.plan("Sunrise")          # 7:30, diagonal, move 2, paint 2
EARLY_START = K.plan("Early Start")  # 8:00, orthogonal, move 2, paint 2
BREAKFAST = K.plan("Breakfast")      # 9:15, diagonal, move 3, paint 2
MID_MORNING = K.plan("Mid Morning")  # 10:30, any, move 3, paint 3
LATE_RISER = K.plan("Late Riser")    # 11:45, orthogonal, move 4, paint 3
NOON = K.plan("Noon")                # 12:45, any, move 4, paint 4


def dirs_of(card):
    return {d for d in range(8) if (int(T[0]["plan_dirs"][card]) >> d) & 1}


def test_default_planning_cards_used_below():
    t = T[0]
    assert dirs_of(DAWN) == {DIR_E, DIR_W} and t["plan_move"][DAWN] == 1 and t["plan_paint"][DAWN] == 1
    assert dirs_of(BREAKFAST) == {DIR_NE, DIR_SE, DIR_SW, DIR_NW} and t["plan_move"][BREAKFAST] == 3
    assert dirs_of(LATE_RISER) == {DIR_N, DIR_E, DIR_S, DIR_W} and t["plan_move"][LATE_RISER] == 4
    assert len(dirs_of(NOON)) == 8 and t["plan_move"][NOON] == 4 and t["plan_paint"][NOON] == 4
    assert [t["plan_wake"][c] for c in (DAWN, SUNRISE, EARLY_START, BREAKFAST, MID_MORNING,
                                        LATE_RISER, NOON)] == [300, 450, 480, 555, 630, 705, 765]


# --- positions --------------------------------------------------------------------------
def board(n_players, seed=1, tables=T):
    """A set-up game whose wilderness is landscapes 0..24 (cell c holds card c) and whose
    landscape deck is 25..59 (59 on top); every artist off the centre unless moved."""
    st = fresh_state(tables, n_players, seed)
    if n_players == 1:
        for c in range(25):
            if st[0]["grid"][c] != RANGER:
                st[0]["grid"][c] = c
        st[0]["grid"][[6, 8, 16, 18]] = RANGER
    else:
        st[0]["grid"][:] = np.arange(25)
    set_ldeck(st, range(25, 60))
    set_ldisc(st, [])
    return st


def hikes(st, seat, card, tables=T):
    opts = K.options()
    n = hike_options_nb(tables[0], st[0], seat, card, opts)
    got = [int(x) for x in opts[:n]]
    assert len(set(got)) == n, f"duplicate hike options {got}"
    return set(got)


def H(d, k):
    return hike_code(d, k)


def path_of(start, code):
    path = np.zeros(E.MAX_PATH, np.int64)
    n = path_nb(start, code, path)
    return path, n


def paints(st, seat, path, n_path, paint):
    opts = K.options()
    n = paint_options_nb(st[0], seat, path, n_path, paint, opts)
    got = [int(x) for x in opts[:n]]
    assert len(set(got)) == n
    return set(got)


def sells(st, seat, tables=T):
    opts = K.options()
    n = sell_options_nb(tables[0], st[0], seat, opts)
    got = [int(x) for x in opts[:n]]
    assert got[-1] == -1, "stop selling must be the last option"
    return set(got)


def sell(st, seat, slot, keep=None):
    trace, tn = no_trace()
    if keep is None:
        keep = np.zeros(E.MAX_HAND, np.float64)
        default_keep_nb(T[0], st[0], seat, keep)
    return int(apply_sell_nb(T[0], st[0], seat, slot, keep, trace, tn))


def hike(st, seat, code, tables=T, trace=None):
    if trace is None:
        trace = no_trace()
    apply_hike_nb(tables[0], st[0], seat, code, *trace)


def cleanup(st, tables=T, trace=None):
    if trace is None:
        trace = no_trace()
    cleanup_nb(tables[0], st[0], *trace)


def g(st, name):
    """A game scalar of the state (STATE_DTYPE's field `name`)."""
    return int(st[0][name])


def owned_commissions(st, seat):
    return {c for c in range(int(T[0]["n_comm"])) if st[0]["comm_owned"][seat, c] > 0}


# =========================================================================================
# Set-up
# =========================================================================================
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_row_one_more_than_players_one_revealed_one_goal(n_players):
    st = fresh_state(T, n_players, seed=21)
    assert g(st, "row_len") == n_players + 1 and min(row(st)) >= 0
    top = g(st, "comm_top")
    assert top >= 0 and top not in row(st)                  # revealed on the deck, not in the row
    assert g(st, "n_cdeck") == 30 - (n_players + 2)
    assert g(st, "goal") >= 0 and g(st, "n_gdeck") == 6  # one daily goal face up
    grid = [int(x) for x in st[0]["grid"]]
    assert len(set(grid)) == 25 and min(grid) >= 0          # 25 landscapes, 5 x 5
    assert g(st, "n_ldeck") == 60 - 25
    assert list(st[0]["pos"][:n_players]) == [CENTER] * n_players
    for p in range(n_players):
        assert sorted(st[0]["pdeck"][p, :st[0]["pdeck_n"][p]]) == list(range(8))
        assert not st[0]["hand_n"][p]


# =========================================================================================
# Hike
# =========================================================================================
def test_hike_one_direction_only_from_planning_card():
    st = board(2)
    st[0]["pos"][:2] = [CENTER, cell(0, 0)]
    # Dawn: horizontal arrows, 1 point -> stay, one step east or one step west; nothing else
    assert hikes(st, 0, DAWN) == {0, H(DIR_E, 1), H(DIR_W, 1)}
    # Late Riser: orthogonal arrows, 4 points, from the centre: 2 steps at most each way
    assert hikes(st, 0, LATE_RISER) == {0} | {H(d, k) for d in (DIR_N, DIR_E, DIR_S, DIR_W)
                                               for k in (1, 2)}
    # Breakfast: diagonal arrows, 3 points, from the top-right corner: only south-west
    st[0]["pos"][0] = cell(0, 4)
    assert hikes(st, 0, BREAKFAST) == {0, H(DIR_SW, 1), H(DIR_SW, 2), H(DIR_SW, 3)}


def test_hike_passes_through_artists():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(2, 1)]
    opts = hikes(st, 0, LATE_RISER)
    assert {H(DIR_E, 2), H(DIR_E, 3), H(DIR_E, 4)} <= opts
    path, n = path_of(cell(2, 0), H(DIR_E, 3))
    assert list(path[:n]) == [cell(2, 0), cell(2, 1), cell(2, 2), cell(2, 3)]


def test_hike_cannot_end_on_another_artist():
    st = board(3)
    st[0]["pos"][:3] = [cell(2, 0), cell(2, 1), cell(2, 3)]
    assert hikes(st, 0, LATE_RISER) == {0, H(DIR_E, 2), H(DIR_E, 4), H(DIR_N, 1), H(DIR_N, 2),
                                        H(DIR_S, 1), H(DIR_S, 2)}


def test_hike_stops_at_empty_space():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(4, 4)]
    st[0]["grid"][cell(2, 2)] = EMPTY   # two steps east: cannot enter it nor pass it
    st[0]["grid"][cell(0, 2)] = EMPTY   # two steps north-east
    assert hikes(st, 0, NOON) == {0, H(DIR_E, 1), H(DIR_NE, 1), H(DIR_N, 1), H(DIR_N, 2),
                                  H(DIR_S, 1), H(DIR_S, 2), H(DIR_SE, 1), H(DIR_SE, 2)}


def test_staying_put_is_legal_on_a_card_the_artist_has_alone():
    st = board(2)
    st[0]["pos"][:2] = [cell(0, 0), cell(4, 4)]
    for c in (cell(0, 1), cell(1, 0), cell(1, 1)):  # boxed in the corner by empty spaces
        st[0]["grid"][c] = EMPTY
    for card in range(8):
        assert hikes(st, 0, card) == {0}
    # and with every way open, staying put is still offered
    st = board(2)
    st[0]["pos"][:2] = [CENTER, cell(0, 0)]
    for card in range(8):
        assert 0 in hikes(st, 0, card)


def test_may_not_finish_on_another_artists_card_staying_put_included():
    """Rulebook: an artist "may not finish on the same card" as another; staying put is
    finishing where it stands. All artists start on the centre: the first to trek must leave
    it, the last one (alone there) may stay, as "only the final player to move from the center
    card may pick it up" implies."""
    st = fresh_state(T, 3, seed=5)
    assert list(st[0]["pos"][:3]) == [CENTER] * 3
    opts = hikes(st, 0, LATE_RISER)
    assert 0 not in opts                                   # two others on the centre: must leave
    assert opts == {H(d, k) for d in (DIR_N, DIR_E, DIR_S, DIR_W) for k in (1, 2)}
    hike(st, 0, H(DIR_E, 1))
    opts = hikes(st, 1, LATE_RISER)
    assert 0 not in opts and H(DIR_E, 1) not in opts       # seat 2 is still on the centre
    hike(st, 1, H(DIR_W, 2))
    opts = hikes(st, 2, LATE_RISER)
    assert 0 in opts                                       # alone on the centre now: may stay
    assert H(DIR_E, 1) not in opts and H(DIR_W, 2) not in opts and H(DIR_E, 2) in opts
    # a hike option list never starts with a stay it does not allow (option 0 is a hike)
    st2 = fresh_state(T, 2, seed=5)
    o = K.options()
    n = hike_options_nb(T[0], st2[0], 0, DAWN, o)
    assert n == 2 and set(o[:n].tolist()) == {H(DIR_E, 1), H(DIR_W, 1)}


def test_boxed_in_artist_on_a_shared_card_stays():
    """"There also may be situations where you can not move even if you wish to": an artist
    sharing its card with no legal hike stays put (the only exception to not finishing on
    another artist's card)."""
    st = fresh_state(T, 4, seed=5)
    st[0]["pos"][:4] = [CENTER, CENTER + 1, CENTER - 1, CENTER]   # seats 1, 2 took both Dawn steps
    assert hikes(st, 0, DAWN) == {0}
    assert hikes(st, 0, FIRST_LIGHT) == {H(DIR_N, 1), H(DIR_N, 2), H(DIR_S, 1), H(DIR_S, 2)}


def test_rule_option_may_stay_on_a_shared_card():
    """Rule option stay_on_shared_card = "may_stay": staying put is always legal, so two
    artists may stay together on the centre on day 1."""
    loose = tables_from_edits(('stay_on_shared_card = "must_leave"', 'stay_on_shared_card = "may_stay"'))
    st = fresh_state(loose, 3, seed=5)
    assert 0 in hikes(st, 0, LATE_RISER, tables=loose)
    assert 0 not in hikes(st, 0, LATE_RISER)               # the default reading forbids it


# =========================================================================================
# Paint
# =========================================================================================
def test_paint_includes_start_card():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(4, 4)]
    path, n = path_of(cell(2, 0), 0)                       # stayed put: the start card only
    assert list(path[:n]) == [cell(2, 0)]
    assert paints(st, 0, path, n, 1) == {0, 1}
    path, n = path_of(cell(2, 0), H(DIR_E, 1))             # Dawn: start + one card, paint 1
    hike(st, 0, H(DIR_E, 1))
    assert paints(st, 0, path, n, 1) == {0, 0b01, 0b10}
    trace, tn = no_trace()
    apply_paint_nb(st[0], 0, path, 0b01, trace, tn)        # the card the trek began on
    assert hand(st, 0) == [cell(2, 0)]                      # card id == its cell on this board
    assert st[0]["grid"][cell(2, 0)] == EMPTY


def test_paint_not_under_another_artist():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(2, 1)]
    hike(st, 0, H(DIR_E, 3))
    path, n = path_of(cell(2, 0), H(DIR_E, 3))
    opts = paints(st, 0, path, n, 4)
    # positions 0, 2, 3 (start, (2,2), (2,3)); never position 1 under the other artist
    assert opts == {m for m in range(16) if not m & 0b0010}


def test_first_day_only_last_to_leave_centre_can_paint_it():
    st = fresh_state(T, 3, seed=7)
    assert list(st[0]["pos"][:3]) == [CENTER] * 3          # set-up: every artist on the centre
    moves = [H(DIR_E, 1), H(DIR_W, 1), H(DIR_N, 1)]
    for seat, code in enumerate(moves):
        hike(st, seat, code)
        path, n = path_of(CENTER, code)
        opts = paints(st, seat, path, n, 2)
        start_paintable = any(m & 1 for m in opts)
        assert start_paintable == (seat == 2), f"seat {seat}"


def test_paint_at_most_card_paint_value():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(4, 4)]
    path, n = path_of(cell(2, 0), H(DIR_E, 4))
    assert n == 5
    opts = paints(st, 0, path, n, 4)                        # Noon paints 4: any 0..4 of the 5
    assert opts == {m for m in range(32) if bin(m).count("1") <= 4}
    opts = paints(st, 0, path, n, 1)                        # paint 1: one card at most
    assert opts == {0, 1, 2, 4, 8, 16}


def test_painted_spaces_stay_empty_until_cleanup():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 0), cell(2, 4)]
    n_deck = g(st, "n_ldeck")
    hike(st, 0, H(DIR_E, 2))
    path, n = path_of(cell(2, 0), H(DIR_E, 2))
    trace, tn = no_trace()
    apply_paint_nb(st[0], 0, path, 0b010, trace, tn)        # paints (2,1), ends on (2,2)
    assert st[0]["grid"][cell(2, 1)] == EMPTY
    assert g(st, "n_ldeck") == n_deck                     # nothing refilled now
    # the next artist, from (2,4) going west: (2,3) ok, (2,2) has an artist, (2,1) is empty
    assert {c for c in hikes(st, 1, LATE_RISER) if c // 5 == DIR_W} == {H(DIR_W, 1)}
    cleanup(st)
    assert st[0]["grid"][cell(2, 1)] == 59                 # refilled at clean-up (deck top)
    assert st[0]["pos"][0] == cell(2, 2)


# =========================================================================================
# Sell
# =========================================================================================
def sell_state(row_names, hand_names, n_players=2):
    st = board(n_players)
    set_row(st, [K.comm(nm) for nm in row_names])
    set_hand(st, 0, [K.land(nm) for nm in hand_names])
    return st


def test_sell_two_feature_landscape_fills_either_frame():
    st = sell_state(["Mountain Sketch", "Flower Study", "Waterfall Sketch"], ["Alpine Meadow"])
    assert sells(st, 0) == {0, 1, -1}
    assert sell(st, 0, 1) == K.comm("Flower Study")
    assert hand(st, 0) == []


def test_question_frame_takes_any_landscape():
    st = sell_state(["Garden Pair", "Ridge Line", "Traveller's Triptych"],
                    ["Mirror Lake", "Poppy Field"])
    # Garden Pair (flower, ?): flower + the lake; Ridge Line needs a mountain; the triptych 3 cards
    assert sells(st, 0) == {0, -1}
    set_hand(st, 0, [K.land("Mirror Lake"), K.land("Poppy Field"), K.land("Cedar Hollow")])
    assert sells(st, 0) == {0, 2, -1}
    assert sell(st, 0, 2) == K.comm("Traveller's Triptych")
    assert hand(st, 0) == []


def test_one_landscape_fills_one_frame():
    st = sell_state(["Alpine Bouquet", "Twin Falls", "Mountain Sketch"], ["Alpine Meadow"])
    # Alpine Meadow shows mountain and flower, but fills only one of Alpine Bouquet's frames
    assert sells(st, 0) == {2, -1}
    set_hand(st, 0, [K.land("Hidden Falls"), K.land("Bridal Veil Falls")])
    assert sells(st, 0) == {-1}                             # Twin Falls has 3 frames: 2 cards
    set_hand(st, 0, [K.land("Alpine Meadow"), K.land("Poppy Field")])
    assert sells(st, 0) == {0, 2, -1}
    sell(st, 0, 0)
    assert hand(st, 0) == []                                # both cards were needed
    # Twin Falls (waterfall, waterfall, forest): three distinct cards, each matching its frame
    for cards, ok in ((["Hidden Falls", "Mossy Chute", "Bridal Veil Falls"], True),
                      (["Hidden Falls", "Mossy Chute", "Granite Spire"], False),
                      (["Bridal Veil Falls", "Thunder Falls", "Ribbon Falls"], False)):
        set_hand(st, 0, [K.land(nm) for nm in cards])
        set_row(st, [K.comm("Twin Falls"), -1, -1])
        assert (0 in sells(st, 0)) == ok, cards


def test_sell_several_commissions_in_one_turn():
    st = sell_state(["Mountain Sketch", "Flower Study", "Lakeside Study"],
                    ["Granite Spire", "Poppy Field", "Mirror Lake"])
    sold = []
    for slot in (0, 1, 2):
        assert slot in sells(st, 0)
        sold.append(sell(st, 0, slot))
    assert owned_commissions(st, 0) == {K.comm("Mountain Sketch"), K.comm("Flower Study"),
                                        K.comm("Lakeside Study")}
    assert row(st) == [-1, -1, -1]                          # not refilled before the next day
    assert hand(st, 0) == []


def test_sold_landscapes_go_to_discard():
    st = sell_state(["Alpine Bouquet", "Flower Study", "Lakeside Study"],
                    ["Granite Spire", "Poppy Field", "Evergreen Tarn"])
    set_ldisc(st, [K.land("Still Pond")])
    sell(st, 0, 0)
    assert g(st, "n_ldisc") == 3
    assert sorted(st[0]["ldisc"][:3]) == sorted([K.land("Still Pond"), K.land("Granite Spire"),
                                                 K.land("Poppy Field")])
    assert hand(st, 0) == [K.land("Evergreen Tarn")]


def test_sell_uses_cheapest_set_by_keep_values():
    st = sell_state(["Mountain Sketch", "Flower Study", "Lakeside Study"],
                    ["Alpine Meadow", "Granite Spire"])
    sell(st, 0, 0)                                          # default keep = features: 2 vs 1
    assert hand(st, 0) == [K.land("Alpine Meadow")]
    st = sell_state(["Mountain Sketch", "Flower Study", "Lakeside Study"],
                    ["Alpine Meadow", "Granite Spire"])
    keep = np.zeros(E.MAX_HAND, np.float64)
    keep[:2] = [0.0, 5.0]                                   # the seller values the single more
    sell(st, 0, 0, keep)
    assert hand(st, 0) == [K.land("Granite Spire")]
    # Ridge Line (mountain, ?): the cheapest legal pair is Granite Spire (1) + Poppy Field (1)
    st = sell_state(["Ridge Line", "Flower Study", "Lakeside Study"],
                    ["Paradise Valley", "Alpine Meadow", "Granite Spire", "Poppy Field"])
    sell(st, 0, 0)
    assert hand(st, 0) == [K.land("Paradise Valley"), K.land("Alpine Meadow")]


def test_revealed_commission_not_available_today():
    st = sell_state(["Flower Study", "Lakeside Study", "Forest Study"], ["Granite Spire"])
    set_cdeck(st, [K.comm("Grand Tour")], top=K.comm("Mountain Sketch"))
    for day in range(6):
        st[0]["day"] = day
        assert sells(st, 0) == {-1}


# =========================================================================================
# Daily goal
# =========================================================================================
def test_daily_goal_goes_to_last_player_to_meet_it():
    st = board(3)
    horizon = K.goal("Horizon")                             # "Be the last person to move horizontally."
    st[0]["goal"] = horizon
    st[0]["goal_owner"] = -1
    trace, tn = no_trace()
    check_goal_nb(T[0], st[0], 0, H(DIR_E, 1), 0, 0, 0, trace, tn)
    assert g(st, "goal_owner") == 0
    assert g(st, "goal") == horizon                       # not replaced when claimed
    check_goal_nb(T[0], st[0], 1, H(DIR_W, 2), 0, 0, 0, trace, tn)
    assert g(st, "goal_owner") == 1                       # taken from seat 0
    check_goal_nb(T[0], st[0], 2, H(DIR_N, 1), 0, 0, 0, trace, tn)
    assert g(st, "goal_owner") == 1                       # seat 2 did not meet it
    cleanup(st)
    assert st[0]["goal_owned"][1, horizon] > 0
    assert st[0]["goal_owned"][0, horizon] == 0 and st[0]["goal_owned"][2, horizon] == 0
    assert g(st, "goal") not in (-1, horizon)             # a new goal is revealed


def test_unclaimed_goal_is_discarded():
    st = board(2)
    gdeck_n = g(st, "n_gdeck")
    first = g(st, "goal")
    assert first >= 0 and g(st, "goal_owner") == -1
    next_goal = int(st[0]["gdeck"][gdeck_n - 1])
    cleanup(st)
    assert not st[0]["goal_owned"].any()
    assert g(st, "n_gdisc") == 1
    assert g(st, "goal") == next_goal and g(st, "n_gdeck") == gdeck_n - 1


# =========================================================================================
# Planning
# =========================================================================================
def test_planning_draw_three_return_two_to_bottom_in_chosen_order():
    results = {}
    for order in (0, 1):
        st = board(2)
        st[0]["pdeck"][0, :] = np.arange(8)
        st[0]["pdeck_n"][0] = 8
        draw_plans_nb(st[0], 0)
        assert list(st[0]["popen"][0]) == [0, 1, 2]
        assert st[0]["pdeck_n"][0] == 5
        opts = K.options()
        n = plan_options_nb(st[0], 0, opts)
        assert sorted(opts[:n]) == [0, 1, 2, 3, 4, 5]      # 3 cards x 2 return orders
        apply_plan_nb(st[0], 0, 1 * 2 + order)              # play card 1
        assert st[0]["plan_choice"][0] == 1
        assert st[0]["pdeck_n"][0] == 7
        assert list(st[0]["pdeck"][0, :5]) == [3, 4, 5, 6, 7]
        results[order] = tuple(st[0]["pdeck"][0, 5:7])
        assert list(st[0]["popen"][0]) == [-1, -1, -1]
    assert {results[0], results[1]} == {(0, 2), (2, 0)}     # either order, player's choice


def test_six_days_leave_two_planning_cards():
    st = fresh_state(T, 2, seed=3)
    played = []
    for day in range(6):
        assert st[0]["pdeck_n"][0] == 8 - day
        draw_plans_nb(st[0], 0)
        if day == 5:
            assert st[0]["pdeck_n"][0] == 0 and min(st[0]["popen"][0]) >= 0  # exactly 3 left
        apply_plan_nb(st[0], 0, 0)
        played.append(int(st[0]["plan_choice"][0]))
    assert st[0]["pdeck_n"][0] == 2
    assert len(set(played)) == 6                            # each card used once
    # the game ends at the clean-up of day 6, not before
    st[0]["day"] = 4
    cleanup(st)
    assert g(st, "over") == 0 and g(st, "day") == 5
    cleanup(st)
    assert g(st, "over") == 1 and g(st, "end_reason") == E.END_DAYS


# =========================================================================================
# Turn order
# =========================================================================================
def test_turn_order_by_wake_up_time():
    st = board(4)
    st[0]["plan_choice"][:4] = [NOON, DAWN, BREAKFAST, LATE_RISER]
    turn_order_nb(T[0], st[0])
    assert list(st[0]["order"][:4]) == [1, 2, 3, 0]


def test_wake_tie_rule_option_seat():
    tables = tables_from_edits(('wake_tie = "random"', 'wake_tie = "seat"'))
    st = board(4, tables=tables)
    st[0]["plan_choice"][:4] = [NOON, DAWN, NOON, DAWN]
    for _ in range(20):
        turn_order_nb(tables[0], st[0])
        assert list(st[0]["order"][:4]) == [1, 3, 0, 2]


def test_wake_tie_rule_option_random():
    assert T[0]["wake_tie"] == E.WAKE_TIE_RANDOM  # the default
    st = board(4)
    st[0]["plan_choice"][:4] = [NOON, DAWN, NOON, DAWN]
    seen = {}
    for _ in range(400):
        turn_order_nb(T[0], st[0])
        o = tuple(int(x) for x in st[0]["order"][:4])
        assert set(o[:2]) == {1, 3} and set(o[2:]) == {0, 2}  # earlier time still goes first
        seen[o] = seen.get(o, 0) + 1
    assert len(seen) == 4
    assert all(60 <= v <= 140 for v in seen.values()), seen


# =========================================================================================
# Clean-up
# =========================================================================================
def test_cleanup_refills_row_by_row_left_to_right():
    st = board(2)
    st[0]["pos"][:2] = [cell(2, 2), cell(0, 0)]
    empties = [cell(4, 0), cell(2, 2), cell(0, 3), cell(1, 2)]  # listed out of order on purpose
    st[0]["grid"][empties] = EMPTY
    cleanup(st)
    # deck top first (59, 58, ...), into (0,3), (1,2), (2,2) [under an artist], (4,0)
    assert st[0]["grid"][cell(0, 3)] == 59
    assert st[0]["grid"][cell(1, 2)] == 58
    assert st[0]["grid"][cell(2, 2)] == 57
    assert st[0]["grid"][cell(4, 0)] == 56
    assert (st[0]["grid"] >= 0).all()                      # a full 5 x 5 grid
    assert g(st, "n_ldeck") == 35 - 4
    assert list(st[0]["pos"][:2]) == [cell(2, 2), cell(0, 0)]  # artists stay put


def test_cleanup_reshuffles_discards_when_deck_runs_out():
    st = board(2)
    set_ldeck(st, [40])
    set_ldisc(st, [41, 42, 43])
    st[0]["grid"][[cell(1, 0), cell(1, 1)]] = EMPTY
    trace = new_trace()
    cleanup(st, trace=trace)
    assert st[0]["grid"][cell(1, 0)] == 40                 # the last deck card first
    second = int(st[0]["grid"][cell(1, 1)])
    assert second in (41, 42, 43)                          # then from the reshuffled discards
    assert g(st, "n_ldisc") == 0 and g(st, "n_ldeck") == 2
    assert sorted([second] + list(st[0]["ldeck"][:2])) == [41, 42, 43]
    assert [e[1] for e in events(*trace, ev=E.EV_RESHUFFLE)] == [3]


def test_commission_row_refilled_from_revealed_top_card_first():
    A, B, X, Y, Z = (K.comm(n) for n in ("Mountain Sketch", "Flower Study", "Grand Tour",
                                         "Sketchbook", "Twin Falls"))
    st = board(2)
    set_row(st, [A, -1, B])
    set_cdeck(st, [Z, Y], top=X)
    cleanup(st)
    assert row(st) == [A, X, B]
    assert g(st, "comm_top") == Y and g(st, "n_cdeck") == 1
    # two empty slots: the revealed card and then the deck's top card fill them
    st = board(2)
    set_row(st, [-1, A, -1])
    set_cdeck(st, [Z, Y], top=X)
    cleanup(st)
    r = row(st)
    assert r[1] == A and sorted([r[0], r[2]]) == sorted([X, Y])
    assert g(st, "comm_top") == Z and g(st, "n_cdeck") == 0


def test_game_ends_when_commission_row_cannot_be_refilled():
    A, B, X = (K.comm(n) for n in ("Mountain Sketch", "Flower Study", "Grand Tour"))
    st = board(2)
    set_row(st, [-1, -1, A])
    set_cdeck(st, [], top=X)                               # 1 card for 2 empty slots
    cleanup(st)
    assert g(st, "over") == 1 and g(st, "end_reason") == E.END_COMMISSIONS
    assert g(st, "day") == 0
    # exactly enough cards: the row is filled and the game goes on
    st = board(2)
    set_row(st, [-1, A, B])
    set_cdeck(st, [], top=X)
    cleanup(st)
    assert g(st, "over") == 0 and row(st) == [X, A, B] and g(st, "day") == 1


# =========================================================================================
# Scoring
# =========================================================================================
def test_score_commissions_goals_and_features_halved_rounded_down():
    st = board(2)
    st[0]["comm_owned"][0, K.comm("Alpine Bouquet")] = 1      # 4
    st[0]["comm_owned"][0, K.comm("Twin Falls")] = 2          # 7
    st[0]["goal_owned"][0, K.goal("Horizon")] = 1             # 2
    # unsold: 3 + 3 + 1 = 7 features -> 3 points (1 per 2 features, rounded down)
    set_hand(st, 0, [K.land("Paradise Valley"), K.land("Crater Rim"), K.land("Lonely Summit")])
    st[0]["pos"][0] = CENTER                                  # no home bonus outside solo
    pts = np.zeros(N_PTS, np.int64)
    total = score_nb(T[0], st[0], 0, pts)
    assert pts[PTS_COMMISSIONS] == 11 and pts[PTS_GOALS] == 2 and pts[PTS_LANDSCAPES] == 3
    assert pts[PTS_INSPIRATION] == 0 and pts[PTS_HOME] == 0
    assert total == 16
    # seat 1 holds nothing
    assert score_nb(T[0], st[0], 1, pts) == 0


def test_tie_break_most_daily_goals_then_shared():
    rank = np.zeros(4, np.int64)
    win = np.zeros(4, np.float64)
    rank_nb(np.array([10, 10, 8, 0]), np.array([1, 2, 3, 0]), 3, rank, win)
    assert list(rank[:3]) == [2, 1, 3] and list(win[:3]) == [0.0, 1.0, 0.0]
    rank_nb(np.array([10, 10, 8, 0]), np.array([2, 2, 3, 0]), 3, rank, win)
    assert list(rank[:3]) == [1, 1, 3] and list(win[:3]) == [0.5, 0.5, 0.0]
    rank_nb(np.array([7, 12, 9, 12]), np.array([0, 0, 0, 0]), 4, rank, win)
    assert list(rank) == [4, 1, 3, 1] and list(win) == [0.0, 0.5, 0.0, 0.5]


# =========================================================================================
# Solo (Wanderlust)
# =========================================================================================
RANGERS = [cell(1, 1), cell(1, 3), cell(3, 1), cell(3, 3)]


def test_solo_ranger_stations_diagonal_to_centre():
    st = fresh_state(T, 1, seed=11)
    grid = [int(x) for x in st[0]["grid"]]
    assert sorted(c for c in range(25) if grid[c] == RANGER) == RANGERS
    lands = [x for x in grid if x != RANGER]
    assert len(lands) == 21 and len(set(lands)) == 21 and min(lands) >= 0
    assert g(st, "n_ldeck") == 60 - 21
    assert st[0]["pos"][0] == CENTER
    assert g(st, "row_len") == 3 and min(row(st)) >= 0     # 3 commissions, like 2 players
    assert g(st, "comm_top") >= 0 and g(st, "n_cdeck") == 30 - 4
    assert 0 <= g(st, "inspiration") < 5


def test_solo_passing_ranger_refills_around_it():
    st = board(1)
    st[0]["pos"][0] = cell(0, 0)
    around = [cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 2), cell(2, 1)]
    st[0]["grid"][around] = EMPTY
    st[0]["grid"][cell(4, 4)] = EMPTY                       # far away: stays empty
    assert H(DIR_SE, 2) in hikes(st, 0, BREAKFAST)
    hike(st, 0, H(DIR_SE, 2))                               # through (1,1) to the centre
    assert st[0]["pos"][0] == CENTER
    # left to right, top to bottom: (0,0), (0,1), (1,0), (1,2), (2,1) get 59, 58, 57, 56, 55
    assert [int(st[0]["grid"][c]) for c in around] == [59, 58, 57, 56, 55]
    assert st[0]["grid"][cell(4, 4)] == EMPTY
    # landing on a station refills around it too
    st = board(1)
    st[0]["pos"][0] = cell(4, 4)
    st[0]["grid"][[cell(2, 3), cell(4, 3), cell(0, 0)]] = EMPTY
    hike(st, 0, H(DIR_NW, 1))
    assert st[0]["pos"][0] == cell(3, 3)
    assert [int(st[0]["grid"][c]) for c in (cell(2, 3), cell(4, 3))] == [59, 58]
    assert st[0]["grid"][cell(0, 0)] == EMPTY
    # leaving the station it stands on is neither passing nor landing: nothing refilled
    st[0]["grid"][cell(4, 3)] = EMPTY
    hike(st, 0, H(DIR_N, 1))
    assert st[0]["grid"][cell(4, 3)] == EMPTY and st[0]["grid"][cell(2, 3)] == 59


def test_solo_cannot_paint_ranger_station():
    st = board(1)
    st[0]["pos"][0] = cell(0, 0)
    hike(st, 0, H(DIR_SE, 2))
    path, n = path_of(cell(0, 0), H(DIR_SE, 2))
    assert list(path[:n]) == [cell(0, 0), cell(1, 1), CENTER]
    assert paints(st, 0, path, n, 2) == {0, 0b001, 0b100, 0b101}


def test_solo_planning_cards_stay_open():
    st = fresh_state(T, 1, seed=5)
    opened = [int(x) for x in st[0]["popen"][0]]
    assert min(opened) >= 0 and len(set(opened)) == 3      # 3 cards face up
    assert st[0]["pdeck_n"][0] == 5
    deck_top = int(st[0]["pdeck"][0, 0])
    opts = K.options()
    n = plan_options_nb(st[0], 0, opts)
    assert sorted(opts[:n]) == [0, 2, 4]                    # one choice per open card
    apply_plan_nb(st[0], 0, 2)
    assert st[0]["plan_choice"][0] == opened[1]
    assert list(st[0]["popen"][0]) == [opened[0], -1, opened[2]]
    assert st[0]["pdeck_n"][0] == 5                         # nothing returned to the deck
    cleanup(st)
    assert list(st[0]["popen"][0]) == [opened[0], deck_top, opened[2]]
    assert st[0]["pdeck_n"][0] == 4


WAKE_EDGES = (('wake = "7:30"', 'wake = "7:45"'), ('wake = "10:30"', 'wake = "10:45"'),
              ('wake = "11:45"', 'wake = "11:00"'))
T_EDGE = tables_from_edits(*WAKE_EDGES)   # Sunrise 7:45, Mid Morning 10:45, Late Riser 11:00


def wake(st, card, tables=T):
    trace, tn = no_trace()
    return int(wake_effect_nb(tables[0], st[0], card, trace, tn))


def test_solo_early_morning_refills_wilderness():
    for tables, card in ((T, DAWN), (T_EDGE, SUNRISE)):    # 5:00 and 7:45
        st = board(1, tables=tables)
        st[0]["grid"][[cell(4, 4), cell(0, 0), cell(2, 3)]] = EMPTY
        before_row = row(st)
        wake(st, card, tables)
        assert [int(st[0]["grid"][c]) for c in (cell(0, 0), cell(2, 3), cell(4, 4))] == [59, 58, 57]
        assert sorted(c for c in range(25) if st[0]["grid"][c] == RANGER) == RANGERS
        assert row(st) == before_row


def test_solo_mid_morning_discards_highest_commission_leftmost_on_tie():
    ab, mlp, sh = K.comm("Alpine Bouquet"), K.comm("Mountain Lake Panorama"), K.comm("Spring Hike")
    for tables, card in ((T, EARLY_START), (T, BREAKFAST), (T_EDGE, MID_MORNING)):  # 8:00..10:45
        st = board(1, tables=tables)
        set_row(st, [ab, mlp, sh])                          # 4, 6, 6 points
        top, n_deck = g(st, "comm_top"), g(st, "n_cdeck")
        st[0]["grid"][cell(0, 0)] = EMPTY
        wake(st, card, tables)
        assert row(st) == [ab, -1, sh]                      # not replaced
        assert g(st, "comm_top") == top and g(st, "n_cdeck") == n_deck
        assert st[0]["grid"][cell(0, 0)] == EMPTY           # no wilderness refill


def test_solo_late_morning_discards_two():
    ms, hl, gt = K.comm("Mountain Sketch"), K.comm("Highlands and Lochs"), K.comm("Grand Tour")
    sh, wg = K.comm("Spring Hike"), K.comm("Water Garden")
    for tables, card in ((T_EDGE, LATE_RISER), (T, NOON)):   # 11:00 and 12:45
        st = board(1, tables=tables)
        set_row(st, [ms, hl, gt])                           # 2, 9, 8
        wake(st, card, tables)
        assert row(st) == [ms, -1, -1]
        set_row(st, [sh, ms, wg])                           # 6, 2, 6
        wake(st, card, tables)
        assert row(st) == [-1, ms, -1]
    # a card between the bands (10:45 < wake < 11:00) has no effect
    t2 = tables_from_edits(('wake = "11:45"', 'wake = "10:50"'))
    st = board(1, tables=t2)
    set_row(st, [ms, hl, gt])
    st[0]["grid"][cell(0, 0)] = EMPTY
    assert wake(st, LATE_RISER, t2) == -1
    assert row(st) == [ms, hl, gt] and st[0]["grid"][cell(0, 0)] == EMPTY


def test_solo_no_wilderness_refill_at_cleanup():
    st = board(1)
    st[0]["grid"][[cell(0, 0), cell(2, 3)]] = EMPTY
    n_deck = g(st, "n_ldeck")
    cleanup(st)
    assert st[0]["grid"][cell(0, 0)] == EMPTY and st[0]["grid"][cell(2, 3)] == EMPTY
    assert g(st, "n_ldeck") == n_deck and g(st, "over") == 0


def test_solo_commission_row_slides_left_then_refills():
    A, X, Y, Z = (K.comm(n) for n in ("Mountain Sketch", "Grand Tour", "Sketchbook", "Twin Falls"))
    st = board(1)
    set_row(st, [-1, A, -1])
    set_cdeck(st, [Z, Y], top=X)
    cleanup(st)
    assert row(st) == [A, X, Y]
    assert g(st, "comm_top") == Z


def test_solo_day_eight_may_sell_top_of_deck():
    ms = K.comm("Mountain Sketch")
    st = sell_state(["Flower Study", "Lakeside Study", "Forest Study"], ["Granite Spire"], 1)
    set_cdeck(st, [K.comm("Grand Tour")], top=ms)
    st[0]["day"] = 6                                 # day 7: not yet
    assert sells(st, 0) == {-1}
    st[0]["day"] = 7                                 # day 8
    assert sells(st, 0) == {MAX_ROW, -1}
    assert sell(st, 0, MAX_ROW) == ms
    assert owned_commissions(st, 0) == {ms}
    assert g(st, "comm_top") == -1 and hand(st, 0) == []


def test_solo_inspiration_bonus_once_per_commission():
    st = board(1)
    st[0]["inspiration"] = K.names["inspiration"].index("Inspiration: Waterfall")
    for name in ("Twin Falls", "Cascade Diptych", "Traveller's Triptych", "Mountain Sketch"):
        st[0]["comm_owned"][0, K.comm(name)] = 1            # 7 + 3 + 3 + 2 points
    set_hand(st, 0, [])
    st[0]["pos"][0] = cell(0, 0)
    pts = np.zeros(N_PTS, np.int64)
    total = score_nb(T[0], st[0], 0, pts)
    # Twin Falls (2 waterfalls) scores 1, Cascade Diptych 1; "?" frames never score
    assert pts[PTS_INSPIRATION] == 2 and pts[PTS_COMMISSIONS] == 15
    assert total == 17


def test_solo_return_home_bonus():
    st = board(1)
    set_hand(st, 0, [K.land("Granite Spire")])              # 1 feature: 0 points
    pts = np.zeros(N_PTS, np.int64)
    st[0]["pos"][0] = CENTER
    assert score_nb(T[0], st[0], 0, pts) == 2 and pts[PTS_HOME] == 2
    st[0]["pos"][0] = cell(2, 3)
    assert score_nb(T[0], st[0], 0, pts) == 0 and pts[PTS_HOME] == 0


def test_solo_lasts_eight_days():
    st = fresh_state(T, 1, seed=9)
    assert g(st, "n_days") == 8
    played = []
    opts = K.options()
    for day in range(8):
        assert g(st, "day") == day and g(st, "over") == 0
        n = plan_options_nb(st[0], 0, opts)
        assert n >= 1, f"no planning card on day {day + 1}"
        apply_plan_nb(st[0], 0, int(opts[0]))
        played.append(int(st[0]["plan_choice"][0]))
        cleanup(st)
    assert g(st, "over") == 1 and g(st, "end_reason") == E.END_DAYS
    assert sorted(played) == list(range(8))                 # every planning card, once each
    # multiplayer: 6 days
    assert g(fresh_state(T, 2), "n_days") == 6


def test_no_daily_goals_in_solo():
    st = fresh_state(T, 1, seed=2)
    assert g(st, "goal") == -1
    n_goals = g(st, "n_gdeck")
    trace, tn = no_trace()
    check_goal_nb(T[0], st[0], 0, H(DIR_E, 1), 3, 0b11111, 2, trace, tn)
    assert g(st, "goal_owner") == -1
    cleanup(st)
    assert g(st, "goal") == -1 and g(st, "n_gdeck") == n_goals
    assert not st[0]["goal_owned"].any()


# =========================================================================================
# The platform's loop on the forward model (model.py) follows the same rules in whole games
# =========================================================================================
@pytest.mark.parametrize("n_players", [1, 2, 3, 4])
def test_play_loop_keeps_turn_order_hike_paint_and_planning_rules(n_players):
    from strategies.sunset import GREEDY, N_PARAMS, RANDOM
    from tests.sunset_helpers import trace_game
    from sim.games.sunset.nb import new_state
    t = T[0]
    for game in range(6):
        sids = np.array([RANDOM if (game + p) % 2 else GREEDY for p in range(n_players)], np.int64)
        params = np.ones((n_players, N_PARAMS), np.float64)
        st = new_state()
        trace, n, _ = trace_game(T, st, n_players, 77, game, sids, params)
        evs = [tuple(int(x) for x in trace[i]) for i in range(n)]
        assert evs[-1][0] == E.EV_END
        pos = [CENTER] * n_players
        played = {p: [] for p in range(n_players)}
        days = 0
        card = {}
        last_wake = None
        painted = 0
        for ev in evs:
            kind = ev[0]
            if kind == E.EV_DAY:
                days += 1
                last_wake = None
            elif kind == E.EV_PLAN:
                card[ev[1]] = ev[2]
                played[ev[1]].append(ev[2])
            elif kind == E.EV_HIKE:
                seat, d, k, frm, to = ev[1:]
                c = card[seat]
                wake_t = int(t["plan_wake"][c])
                assert last_wake is None or wake_t >= last_wake, "earliest wake-up goes first"
                last_wake = wake_t
                assert frm == pos[seat]
                assert k <= t["plan_move"][c]
                if k:
                    assert (int(t["plan_dirs"][c]) >> d) & 1, "a direction shown on the card"
                    assert to not in [pos[q] for q in range(n_players) if q != seat]
                pos[seat] = to
                painted = 0
            elif kind == E.EV_PAINT:
                painted += 1
                seat = ev[1]
                assert painted <= t["plan_paint"][card[seat]]
                assert ev[3] not in [pos[q] for q in range(n_players) if q != seat]
            elif kind in (E.EV_GOAL, E.EV_GOAL_KEPT, E.EV_NEW_GOAL):
                assert n_players > 1, "no daily goals in solo"
        full = 8 if n_players == 1 else 6
        if evs[-1][1] == E.END_DAYS:
            assert days == full
        else:
            assert days < full
        for p in range(n_players):
            assert len(played[p]) == days and len(set(played[p])) == days  # each card once
        assert [int(x) for x in st[0]["pos"][:n_players]] == pos
