"""Sagrada: one scenario test per rule, on hand-set positions.

Expected values come from the rules (/work/shared/rules/sagrada.ko.txt, completed by
sagrada-components.md), written out here, not read from the engine. Windows are written as
4 rows of 5 tokens (top row A first): "G1" a green 1, ".." an open space; cells are named in
the rulebook's notation (row letter A-D, column 1-5).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.sagrada import enums as E
from sim.games.sagrada.nb import (
    N_PTS, PTS_EMPTY, PTS_FAVOR, PTS_PRIVATE, PTS_PUBLIC_1, PTS_PUBLIC_2, PTS_PUBLIC_3,
    action_options_nb, apply_draft_nb, apply_flux_brush_nb, apply_flux_remover_nb,
    apply_glazing_nb, apply_grinding_nb, apply_grozing_nb, apply_lens_nb, apply_move_nb,
    apply_running_nb, apply_window_nb, begin_turn_nb, cell_options_nb, check_state_nb,
    draft_tool_options_nb, end_round_nb, final_position_nb, flux_value_options_nb,
    lathekin_options_nb, legal_mask_nb, lens_options_nb, move_options_nb, pay_tool_nb,
    public_score_nb, rank_nb, score_nb, start_round_nb, target_score_nb, take_for_tool_nb,
    tool_cost_nb, tool_usable_nb, track_colours_nb, window_options_nb,
)
from tests import naive_sagrada as nv
from tests.sagrada_helpers import (
    B, G, P, R, Y, Kit, cell, default_components, default_tables, die, events, fresh_state, new_trace,
    checked_records, no_trace, options_buf, play_records, pool, set_pattern, set_pool, set_public, set_restrictions,
    set_tools, set_track, set_window, traced_game, track, window_text,
)

T = default_tables()
K = Kit()
EMPTY_ROWS = [".. .. .. .. .."] * 4


def legal_cells(st, seat, d, mode=0):
    c, v = die(d)
    m = legal_mask_nb(st[0], seat, c, v, mode)
    return {f"{'ABCD'[x // 5]}{x % 5 + 1}" for x in range(E.N_CELLS) if (m >> x) & 1}


def opts(n, buf):
    return [int(x) for x in buf[:n]]


# ---------------------------------------------------------------------------------------
# components: the real data
# ---------------------------------------------------------------------------------------
def test_component_file_holds_the_real_box():
    comp = default_components()
    t = comp.tables[0]
    assert len(comp.card_names["window"]) == 24
    assert (t.n_patterns, t.n_cards, t.n_public, t.n_private, t.n_tools, t.n_dice) == (24, 12, 10, 5, 12, 90)
    difficulty = t.pattern_difficulty[:t.n_patterns]
    diffs = sorted(int(x) for x in difficulty)
    assert {d: diffs.count(d) for d in set(diffs)} == {3: 4, 4: 4, 5: 12, 6: 4}
    # 12 physical cards, each with a difficulty-5 side
    for a, b in t.card_sides[:t.n_cards]:
        assert 5 in (difficulty[a], difficulty[b])
    # spot checks of grids: Sun Catcher ".B2.Y" / ".4.R." / "..5Y." / "G3..P", difficulty 3
    sc = K.window("Sun Catcher")
    assert t.pattern_difficulty[sc] == 3
    assert t.pattern_colour[sc, 1] == B and t.pattern_value[sc, 2] == 2 and t.pattern_colour[sc, 4] == Y
    assert t.pattern_colour[sc, 15] == G and t.pattern_value[sc, 16] == 3 and t.pattern_colour[sc, 19] == P
    assert t.card_sides[t.pattern_card[sc]].tolist().count(K.window("Shadow Thief")) == 1
    assert list(t.dice_per_colour) == [18] * 5
    assert [int(x) for x in t.tool_number[:t.n_tools]] == list(range(1, 13))
    assert "".join(E.COLOUR_LETTERS[c] for c in t.tool_colour[:t.n_tools]) == "PBRYGPBRYGPB"
    assert [int(x) for x in t.public_points[:t.n_public]] == [6, 5, 5, 4, 2, 2, 2, 5, 4, 1]
    assert sorted(int(x) for x in t.private_colour[:t.n_private]) == [0, 1, 2, 3, 4]
    # the rules as the file writes them
    assert (t.rounds, t.tool_first_cost, t.tool_later_cost, t.solo_tools) == (10, 1, 2, 3)


def test_component_errors_are_one_line_each():
    from sim.game_api import ComponentError
    from sim.games.sagrada.components import components_from_text, default_components_text
    text = default_components_text().replace('grid = [".B2.Y"', 'grid = [".B2.X"', 1)
    text = text.replace("rounds = 10", "rounds = 0")
    text = text.replace('{ name = "Tap Wheel", rule = 12, colour = "blue" }',
                        '{ name = "Tap Wheel", rule = 13, colour = "blue" }')
    with pytest.raises(ComponentError) as exc:
        components_from_text(text, "mine.toml")
    lines = exc.value.lines
    assert any('windows[3] "Sun Catcher"' in ln and "'X'" in ln for ln in lines), lines
    assert any("rules.rounds" in ln for ln in lines), lines
    assert any('tools[11] "Tap Wheel"' in ln and "rule" in ln for ln in lines), lines
    assert all(ln.startswith("mine.toml: ") for ln in lines) and len(lines) == 3


def test_component_card_with_one_side_is_refused():
    from sim.game_api import ComponentError
    from sim.games.sagrada.components import components_from_text, default_components_text
    text = default_components_text().replace('{ name = "Firelight", card = 1,', '{ name = "Firelight", card = 13,', 1)
    with pytest.raises(ComponentError) as exc:
        components_from_text(text, "f.toml")
    assert any("card 1 has 1 side" in ln for ln in exc.value.lines)


# ---------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_cards_and_fills_the_bag(n):
    st = fresh_state(T, n, seed=7, blank=False)
    s = st[0]
    assert s["n_bag"] == 90
    assert s["n_tools"] == 3 and s["n_public"] == 3
    assert len(set(s["tools"][:3])) == 3 and len(set(s["public"][:3])) == 3
    privs = [int(s["priv"][p, 0]) for p in range(n)]
    assert len(set(privs)) == n and all(s["priv"][p, 1] == -1 for p in range(n))
    dealt = [int(s["dealt"][p, k]) for p in range(n) for k in range(2)]
    assert len(set(dealt)) == 2 * n                      # distinct physical cards
    starts = {int(fresh_state(T, n, seed=k)[0]["first_start_player"]) for k in range(40)}
    assert starts == set(range(n))                       # random start player


def test_window_choice_is_one_of_four_sides_and_gives_favor_tokens():
    st = fresh_state(T, 2, seed=3, blank=False)
    buf = options_buf()
    n = window_options_nb(T[0], st[0], 1, buf)
    sides = opts(n, buf)
    cards = [int(x) for x in st[0]["dealt"][1, :2]]
    assert n == 4 and sorted(sides) == sorted(int(x) for c in cards for x in T[0]["card_sides"][c])
    for pat in sides:
        apply_window_nb(T[0], st[0], 1, pat)
        assert st[0]["tokens"][1] == T[0]["pattern_difficulty"][pat]
        assert list(st[0]["restr_colour"][1]) == list(T[0]["pattern_colour"][pat, :20])


def test_solo_setup():
    st = fresh_state(T, 1, seed=3, blank=False)
    s = st[0]
    assert s["n_public"] == 2 and s["public"][2] == -1
    assert s["n_tools"] == 3                       # default difficulty: 3 tools
    assert s["priv"][0, 0] >= 0 and s["priv"][0, 1] >= 0 and s["priv"][0, 0] != s["priv"][0, 1]
    assert s["tokens"][0] == 0                            # no favor tokens in solo
    assert fresh_state(tables_with_solo_tools(5), 1)[0]["n_tools"] == 5


def tables_with_solo_tools(k):
    from tests.sagrada_helpers import tables_with
    return tables_with(f"rules.solo_tools={k}")


# ---------------------------------------------------------------------------------------
# rounds
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,dice", [(1, 4), (2, 5), (3, 7), (4, 9)])
def test_dice_drawn_per_round(n, dice):
    st = fresh_state(T, n)
    trace, tn = no_trace()
    start_round_nb(T[0], st[0], trace, tn)
    assert st[0]["n_pool"] == dice and st[0]["n_bag"] == 90 - dice
    assert all(1 <= v <= 6 for v in st[0]["pool_value"][:dice])


def test_snake_order_from_the_start_player():
    st = fresh_state(T, 3)
    st[0]["start_player"] = 1
    trace, tn = no_trace()
    start_round_nb(T[0], st[0], trace, tn)
    # rulebook: 1, 2, 3, then 3, 2, 1 (the last player plays twice in a row)
    assert list(st[0]["order"][:6]) == [1, 2, 0, 0, 2, 1]
    st1 = fresh_state(T, 1)
    start_round_nb(T[0], st1[0], trace, tn)
    assert list(st1[0]["order"][:2]) == [0, 0]


def test_round_end_leftovers_to_track_and_bag_passes_clockwise():
    st = fresh_state(T, 4)
    st[0]["start_player"] = 3
    set_pool(st, ["R1", "B6"])
    trace, tn = no_trace()
    end_round_nb(T[0], st[0], trace, tn)
    assert track(st) == ["R1", "B6"] and list(st[0]["track_round"][:2]) == [0, 0]
    assert st[0]["n_pool"] == 0 and st[0]["start_player"] == 0 and st[0]["round"] == 1


def test_game_ends_after_ten_rounds():
    st = fresh_state(T, 2)
    trace, tn = no_trace()
    for r in range(10):
        assert st[0]["over"] == 0
        start_round_nb(T[0], st[0], trace, tn)
        end_round_nb(T[0], st[0], trace, tn)
    assert st[0]["over"] == 1 and st[0]["n_track"] == 50


# ---------------------------------------------------------------------------------------
# placement
# ---------------------------------------------------------------------------------------
def test_first_die_on_an_edge_or_corner():
    st = fresh_state(T, 2)
    edge = {f"{r}{c}" for r in "ABCD" for c in range(1, 6) if r in "AD" or c in (1, 5)}
    assert legal_cells(st, 0, "R3") == edge
    assert "B2" not in legal_cells(st, 0, "R3") and len(edge) == 14


def test_later_dice_touch_a_placed_die_orthogonally_or_diagonally():
    st = fresh_state(T, 2)
    set_window(st, 0, ["R3 .. .. .. ..", *EMPTY_ROWS[1:]])
    assert legal_cells(st, 0, "B5") == {"A2", "B1", "B2"}
    set_window(st, 0, [".. .. .. .. ..", ".. R3 .. .. ..", *EMPTY_ROWS[2:]])
    assert legal_cells(st, 0, "B5") == {"A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"}


def test_colour_and_shade_restrictions():
    st = fresh_state(T, 2)
    set_restrictions(st, 0, ["r. .4 .. .. ..", *EMPTY_ROWS[1:]])
    assert "A1" in legal_cells(st, 0, "R2") and "A1" not in legal_cells(st, 0, "G2")
    assert "A2" in legal_cells(st, 0, "G4") and "A2" not in legal_cells(st, 0, "G5")
    assert "A3" in legal_cells(st, 0, "P6")  # blank takes anything


def test_no_orthogonal_neighbour_of_the_same_colour_or_value():
    st = fresh_state(T, 2)
    set_window(st, 0, [".. .. .. .. ..", ".. R3 .. .. ..", *EMPTY_ROWS[2:]])
    assert not {"A2", "B1", "B3", "C2"} & legal_cells(st, 0, "R5")   # same colour
    assert not {"A2", "B1", "B3", "C2"} & legal_cells(st, 0, "G3")   # same value
    assert {"A1", "A3", "C1", "C3"} <= legal_cells(st, 0, "R3")      # diagonals may match


def test_legality_matches_the_naive_rules_on_a_real_pattern():
    st = fresh_state(T, 2)
    set_pattern(st, T, 0, K.window("Firelight"))
    set_window(st, 0, [".. .. .. .. ..", ".. .. .. .. Y1", ".. .. .. .. ..", ".. .. .. .. .."])
    w = nv.window_from_state(st[0], 0)
    rs = nv.restr_from_state(st[0], 0)
    for c in range(5):
        for v in range(1, 7):
            for mode in (0, 1, 2, 4):
                m = legal_mask_nb(st[0], 0, c, v, mode)
                assert [bool((m >> x) & 1) for x in range(20)] == [nv.legal(w, rs, x, (c, v), mode) for x in range(20)]


def test_draft_options_list_identical_dice_once_and_end_turn_last():
    st = fresh_state(T, 2)
    set_pool(st, ["R3", "R3", "B2"])
    set_tools(st, T, [])
    begin_turn_nb(st[0], 0, 0)
    buf = options_buf()
    n = action_options_nb(T[0], st[0], 0, buf)
    codes = opts(n, buf)
    assert codes[-1] == E.OPT_END
    assert {c // 20 for c in codes[:-1]} == {0, 2} and len(codes) == 1 + 14 + 14
    apply_draft_nb(st[0], 0, codes[0], *no_trace())
    n = action_options_nb(T[0], st[0], 0, buf)
    assert opts(n, buf) == [E.OPT_END]  # one draft per turn


# ---------------------------------------------------------------------------------------
# tool cards
# ---------------------------------------------------------------------------------------
def tool_state(names, n_players=2, tokens=5):
    st = fresh_state(T, n_players)
    set_tools(st, T, names)
    for p in range(n_players):
        st[0]["tokens"][p] = tokens
        st[0]["tokens_spent"][p] = 0
    begin_turn_nb(st[0], 0, 0)
    return st


def test_tool_cost_one_then_two_and_tokens_on_the_card():
    st = tool_state(["Glazing Hammer"])
    assert tool_cost_nb(T[0], st[0], 0) == 1
    pay_tool_nb(T[0], st[0], 0, 0, E.OPT_NO_PAYER, *no_trace())
    assert st[0]["tokens"][0] == 4 and st[0]["tool_tokens"][0] == 1
    assert tool_cost_nb(T[0], st[0], 0) == 2
    begin_turn_nb(st[0], 1, 0)
    pay_tool_nb(T[0], st[0], 1, 0, E.OPT_NO_PAYER, *no_trace())
    assert st[0]["tokens"][1] == 3 and st[0]["tool_tokens"][0] == 3


def test_tool_needs_tokens_and_only_one_per_turn():
    st = tool_state(["Grinding Stone", "Grozing Pliers"], tokens=0)
    set_pool(st, ["R3"])
    buf = options_buf()
    n = action_options_nb(T[0], st[0], 0, buf)
    assert all(c < E.OPT_TOOL for c in opts(n, buf))         # no tokens: no tool
    st[0]["tokens"][0] = 1
    n = action_options_nb(T[0], st[0], 0, buf)
    assert sum(c >= E.OPT_TOOL for c in opts(n, buf)) == 2
    pay_tool_nb(T[0], st[0], 0, 0, E.OPT_NO_PAYER, *no_trace())
    n = action_options_nb(T[0], st[0], 0, buf)
    assert all(c < E.OPT_TOOL for c in opts(n, buf))         # one tool per turn


def test_solo_tools_paid_by_a_die_of_their_colour_and_used_once():
    st = fresh_state(T, 1)
    set_tools(st, T, ["Grinding Stone"])  # green
    set_pool(st, ["G2", "R5", "G2", "G4"])
    begin_turn_nb(st[0], 0, 0)
    buf = options_buf()
    n = action_options_nb(T[0], st[0], 0, buf)
    payers = [c - E.OPT_TOOL for c in opts(n, buf) if c >= E.OPT_TOOL]
    assert payers == [0, 3]   # a green die pays (identical dice once), never the red one
    pay_tool_nb(T[0], st[0], 0, 0, 3, *no_trace())
    assert pool(st) == ["G2", "R5", "G2"] and st[0]["tool_gone"][0] == 1
    assert st[0]["n_spent"] == 1 and st[0]["tokens"][0] == 0
    begin_turn_nb(st[0], 0, 1)
    n = action_options_nb(T[0], st[0], 0, buf)
    assert all(c < E.OPT_TOOL for c in opts(n, buf))         # used once


def test_grozing_pliers_plus_or_minus_one_never_wraps():
    st = tool_state(["Grozing Pliers"])
    set_pool(st, ["R1", "B6", "G3"])
    buf = options_buf()
    n = draft_tool_options_nb(st[0], 0, E.T_GROZING_PLIERS, buf)
    assert opts(n, buf) == [0 * 2 + 1, 1 * 2 + 0, 2 * 2 + 0, 2 * 2 + 1]  # R1 only up, B6 only down
    apply_grozing_nb(st[0], 1 * 2 + 0, *no_trace())
    assert (st[0]["held_colour"], st[0]["held_value"]) == (B, 5)
    assert pool(st) == ["R1", "G3"] and st[0]["drafts_left"] == 0


def test_grozing_pliers_only_offers_changes_that_can_be_placed():
    st = tool_state(["Grozing Pliers"])
    set_restrictions(st, 0, [".4 .4 .4 .4 .4", ".4 .. .. .. .4", ".4 .. .. .. .4", ".4 .4 .4 .4 .4"])
    set_pool(st, ["R3", "R6"])
    buf = options_buf()
    n = draft_tool_options_nb(st[0], 0, E.T_GROZING_PLIERS, buf)
    assert opts(n, buf) == [0 * 2 + 1]  # only R3 -> R4 fits the edge


def test_eglomise_brush_moves_ignoring_colour_only():
    st = tool_state(["Eglomise Brush"])
    set_restrictions(st, 0, ["g. .. .. .. ..", ".. .. .. .. ..", ".. .. .. .. ..", ".. .. .. .. .5"])
    set_window(st, 0, [".. R3 .. .. ..", *EMPTY_ROWS[1:]])
    buf = options_buf()
    n = move_options_nb(st[0], 0, E.M_IGNORE_COLOUR, -1, -1, buf, 0)
    moves = {(c // 20, c % 20) for c in opts(n, buf)}
    # the only die moves; alone in the window it must go to an edge: A1 (green: ignored) ok,
    # D5 (shade 5) not; interior cells not
    assert (cell("A2"), cell("A1")) in moves and (cell("A2"), cell("D5")) not in moves
    assert (cell("A2"), cell("B2")) not in moves
    to = apply_move_nb(st[0], 0, cell("A2") * 20 + cell("A1"), E.M_IGNORE_COLOUR, *no_trace())
    assert window_text(st, 0)[0] == "R3 .. .. .. .." and st[0]["win_exempt"][0, to] == E.M_IGNORE_COLOUR
    w = nv.window_from_state(st[0], 0)
    rs = nv.restr_from_state(st[0], 0)
    assert not nv.window_ok(w, rs) and nv.window_ok(w, rs, list(st[0]["win_exempt"][0]))


def test_copper_foil_burnisher_moves_ignoring_shade_only():
    st = tool_state(["Copper Foil Burnisher"])
    set_restrictions(st, 0, [".. .. .. .. ..", "b. .6 .. .. ..", *EMPTY_ROWS[2:]])
    set_window(st, 0, ["R3 G4 .. .. ..", *EMPTY_ROWS[1:]])
    buf = options_buf()
    n = move_options_nb(st[0], 0, E.M_IGNORE_SHADE, -1, -1, buf, 0)
    moves = {(c // 20, c % 20) for c in opts(n, buf)}
    assert (cell("A1"), cell("B2")) in moves        # shade 6 ignored
    assert (cell("A1"), cell("B1")) not in moves    # blue still required
    assert (cell("A2"), cell("A3")) not in moves    # a moved die must still touch another die
    assert (cell("A2"), cell("B1")) not in moves    # (B1 touches A1 but is blue-only: G4 cannot go)


def test_lathekin_moves_exactly_two_dice():
    st = tool_state(["Lathekin"])
    set_window(st, 0, ["R3 .. .. .. ..", *EMPTY_ROWS[1:]])
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # one die: cannot move two
    set_window(st, 0, ["R3 G4 .. .. ..", *EMPTY_ROWS[1:]])
    assert tool_usable_nb(T[0], st[0], 0, 0)
    buf = options_buf()
    n = lathekin_options_nb(st[0], 0, buf)
    first = opts(n, buf)
    assert first and all(c // 20 in (cell("A1"), cell("A2")) for c in first)
    to = apply_move_nb(st[0], 0, first[0], 0, *no_trace())
    n = move_options_nb(st[0], 0, 0, -1, to, buf, 0)
    assert n > 0 and all(c // 20 != to for c in opts(n, buf))      # the other die moves second


def test_lens_cutter_swaps_with_the_round_track():
    st = tool_state(["Lens Cutter"])
    set_pool(st, ["R3", "B2"])
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # empty round track
    set_track(st, ["G5", "P1"])
    buf = options_buf()
    n = lens_options_nb(st[0], 0, buf)
    assert sorted(opts(n, buf)) == sorted([i * E.MAX_TRACK + k for i in (0, 1) for k in (0, 1)])
    apply_lens_nb(st[0], 1 * E.MAX_TRACK + 0, *no_trace())
    assert pool(st) == ["R3"] and track(st) == ["B2", "P1"]
    assert (st[0]["held_colour"], st[0]["held_value"]) == (G, 5)


def test_flux_brush_rerolls_and_an_unplaceable_die_returns_to_the_pool():
    from sim.games.sagrada import model as M
    st = tool_state(["Flux Brush"])
    set_pool(st, ["R3"])
    apply_flux_brush_nb(st[0], 0, *no_trace())
    assert st[0]["held_colour"] == R and 1 <= st[0]["held_value"] <= 6
    assert st[0]["n_pool"] == 0
    # a die that fits nowhere goes back to the pool, without a placement decision: the
    # forward model's Flux Brush argument (DEC_TOOL) with every space blue
    st = tool_state(["Flux Brush"])
    set_pool(st, ["R3"])
    set_restrictions(st, 0, ["b. b. b. b. b."] * 4)
    st[0]["decision"] = E.DEC_TOOL
    st[0]["effect_in_use"] = E.T_FLUX_BRUSH
    trace, tn = new_trace()
    M.apply_nb(T[0], st[0], 0, np.zeros(M.KEEP_LEN), trace, tn)
    assert [e[0] for e in events(trace, tn)][:2] == [E.EV_SET, E.EV_RETURN]
    assert pool(st)[0][0] == "R" and st[0]["held_colour"] == -1 and st[0]["n_placed"][0] == 0


def test_glazing_hammer_only_on_the_second_turn_before_drafting():
    st = tool_state(["Glazing Hammer"])
    set_pool(st, ["R1", "B1", "G1", "Y1", "P1", "R1", "B1", "G1"])
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # first turn
    begin_turn_nb(st[0], 0, 1)
    assert tool_usable_nb(T[0], st[0], 0, 0)
    apply_glazing_nb(st[0], *no_trace())
    assert [d[0] for d in pool(st)] == list("RBGYPRBG") and any(d[1] != "1" for d in pool(st))
    st[0]["drafted_this_turn"] = 1
    st[0]["tool_used_this_turn"] = 0
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # after drafting


def test_running_pliers_second_draft_now_and_skip_second_turn():
    st = tool_state(["Running Pliers"])
    set_pool(st, ["R1", "B2", "G3"])
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # not before drafting
    apply_draft_nb(st[0], 0, 0 * 20 + cell("A1"), *no_trace())
    assert tool_usable_nb(T[0], st[0], 0, 0)
    apply_running_nb(st[0], 0)
    assert st[0]["drafts_left"] == 1 and st[0]["skip_second"][0] == 1
    begin_turn_nb(st[0], 0, 1)
    st[0]["drafted_this_turn"] = 1
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # second turn: no


def test_running_pliers_skips_the_second_turn_in_play():
    """Every use of Running Pliers costs its user that round's second turn: over traced random
    games, turns played = 2 x players x 10 rounds - uses of Running Pliers."""
    from sim.games.sagrada.components import load_components
    from sim.games.sagrada.enums import pack_tables
    comp = load_components()
    tables = pack_tables(comp.tables)
    pliers = comp.card_names["tool"].index("Running Pliers")
    players = 2
    sids = np.zeros(players, np.int64)                # random players use every tool
    params = np.zeros((players, 16))
    games_with_pliers = 0
    for game in range(400):
        trace, out, _ = traced_game(tables, players, 11, game, sids, params)
        uses = int(np.sum((trace[:, 0] == E.EV_TOOL) & (trace[:, 2] == pliers)))
        games_with_pliers += uses > 0
        assert out[0]["length"] == 2 * players * 10 - uses, (game, uses, out[0]["length"])
    assert games_with_pliers >= 5  # the rule was really exercised


def test_cork_backed_straightedge_places_next_to_no_die():
    st = tool_state(["Cork-backed Straightedge"])
    set_window(st, 0, ["R3 .. .. .. ..", *EMPTY_ROWS[1:]])
    set_pool(st, ["B5"])
    got = legal_cells(st, 0, "B5", E.M_NOT_ADJACENT)
    assert "A2" not in got and "B2" not in got and "A3" in got and "B3" in got and "C2" in got
    buf = options_buf()
    assert opts(draft_tool_options_nb(st[0], 0, E.T_CORK_BACKED, buf), buf) == [0]


def test_grinding_stone_flips_to_the_opposite_face():
    st = tool_state(["Grinding Stone"])
    set_pool(st, ["R6", "B2"])
    apply_grinding_nb(st[0], 1, *no_trace())
    assert (st[0]["held_colour"], st[0]["held_value"]) == (B, 5)
    for v in range(1, 7):
        st2 = tool_state(["Grinding Stone"])
        set_pool(st2, [f"R{v}"])
        apply_grinding_nb(st2[0], 0, *no_trace())
        assert st2[0]["held_value"] == 7 - v


def test_flux_remover_die_back_to_the_bag_and_a_new_die_with_a_chosen_value():
    st = tool_state(["Flux Remover"])
    set_pool(st, ["R3"])
    bag0 = np.bincount(st[0]["bag"][:st[0]["n_bag"]], minlength=5)
    apply_flux_remover_nb(st[0], 0, *no_trace())
    held = st[0]["held_colour"]
    bag1 = np.bincount(st[0]["bag"][:st[0]["n_bag"]], minlength=5)
    expect = bag0.copy()
    expect[R] += 1
    expect[held] -= 1
    assert list(bag1) == list(expect) and st[0]["n_pool"] == 0
    buf = options_buf()
    n = flux_value_options_nb(st[0], 0, buf)
    assert opts(n, buf) == [1, 2, 3, 4, 5, 6]  # empty window: any value fits an edge
    set_restrictions(st, 0, [".2 .2 .2 .2 .2", ".2 .. .. .. .2", ".2 .. .. .. .2", ".2 .2 .2 .2 .2"])
    assert opts(flux_value_options_nb(st[0], 0, buf), buf) == [2]


def test_flux_remover_with_an_empty_bag_returns_the_die_and_draws_it_again():
    """Card 11: "return the die to the Dice Bag and pull 1 die from the bag". With the bag
    empty (round 10 of a 4-player game) the returned die is the only die in it: the card stays
    usable and the same die comes back, its value chosen anew."""
    st = tool_state(["Flux Remover"])
    set_pool(st, ["R3", "B5"])
    st[0]["n_bag"] = 0
    assert tool_usable_nb(T[0], st[0], 0, 0)
    trace, tn = new_trace()
    apply_flux_remover_nb(st[0], 0, trace, tn)
    assert (st[0]["held_colour"], st[0]["n_bag"]) == (R, 0)
    assert pool(st) == ["B5"]
    assert events(trace, tn, E.EV_BAG) == [(E.EV_BAG, R, R, 3, 0, 0)]


def test_flux_remover_is_used_in_round_ten_of_four_player_games():
    """Random 4-player games draw the last of the 90 dice in round 10; Flux Remover is still
    used then, draws back the die it returned, and every invariant holds."""
    from sim.games.sagrada.components import load_components
    from sim.games.sagrada.enums import pack_tables
    comp = load_components()
    tables = pack_tables(comp.tables)
    flux = comp.card_names["tool"].index("Flux Remover")
    sids = np.zeros(4, np.int64)                      # random players try every tool
    params = np.zeros((4, 16))
    late_uses = 0
    for game in range(300):
        trace, out, _ = traced_game(tables, 4, 5, game, sids, params)
        rows = [tuple(int(x) for x in ev) for ev in trace]
        rnd = -1
        for i, ev in enumerate(rows):
            if ev[0] == E.EV_ROUND:
                rnd = ev[1]
            elif ev[0] == E.EV_TOOL and ev[2] == flux and rnd == 9:
                late_uses += 1
                bag = next(r for r in rows[i:] if r[0] == E.EV_BAG)
                assert bag[1] == bag[2]          # the bag held only the returned die
    assert late_uses >= 3, late_uses
    # the same games with the state checked after every step
    assert checked_records(tables, 4, 5, 0, 300, sids, params)[1] == 0


def test_glazing_hammer_traces_every_new_value():
    """The replay shows each pool die's old and new value after Glazing Hammer."""
    st = tool_state(["Glazing Hammer"])
    set_pool(st, ["R1", "B1", "G1", "Y1"])
    trace, tn = new_trace()
    apply_glazing_nb(st[0], trace, tn)
    evs = events(trace, tn)
    assert evs[0] == (E.EV_REROLL, 4, 0, 0, 0, 0)
    assert [(e[0], e[1], e[2], e[3]) for e in evs[1:]] == [
        (E.EV_SET, die(d)[0], 1, die(d)[1]) for d in pool(st)]


def test_tap_wheel_moves_dice_of_a_colour_on_the_round_track():
    st = tool_state(["Tap Wheel"])
    set_window(st, 0, ["R3 G4 R5 .. ..", *EMPTY_ROWS[1:]])
    assert not tool_usable_nb(T[0], st[0], 0, 0)   # no track yet
    set_track(st, ["R1"])
    assert track_colours_nb(st[0]) == 1 << R
    buf = options_buf()
    n = move_options_nb(st[0], 0, 0, track_colours_nb(st[0]), -1, buf, 0)
    assert n > 0 and {c // 20 for c in opts(n, buf)} <= {cell("A1"), cell("A3")}


def test_drafting_tools_need_the_turns_draft():
    st = tool_state(["Grinding Stone"])
    set_pool(st, ["R3", "B2"])
    assert tool_usable_nb(T[0], st[0], 0, 0)
    take_for_tool_nb(st[0], 0)
    st[0]["held_colour"] = -1
    assert not tool_usable_nb(T[0], st[0], 0, 0)


# ---------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------
# The rulebook's example (Korean text): column colour variety 10 (columns 4 and 5; column 2
# repeats green; 1 and 3 incomplete), light shades 4 (two sets of 1 & 2; a third 2 left over),
# colour variety 12 (three sets), private purple C1 + C4 + A5 = 5 + 6 + 6 = 17, no favor
# tokens, open spaces A1, B3, C3: -3. Total 40.
EXAMPLE = ["..  G1 Y6 B4 P6".replace("  ", " "),
           "B1 R4 .. R5 B3",
           "P5 Y2 .. P6 G5",
           "B6 G3 B2 Y4 R2"]


def example_state():
    st = fresh_state(T, 2)
    set_window(st, 0, EXAMPLE)
    set_public(st, ["Column Color Variety", "Light Shades", "Color Variety"])
    st[0]["priv"][0, 0] = K.private("Shades of Purple")
    st[0]["tokens"][0] = 0
    return st


def test_rulebook_scoring_example_scores_40():
    st = example_state()
    w = nv.window_from_state(st[0], 0)
    assert nv.window_ok(w, nv.restr_from_state(st[0], 0))       # a legal window
    assert [w[cell(c)] for c in ("A1", "B3", "C3")] == [None] * 3
    assert [w[cell(c)] for c in ("C1", "C4", "A5")] == [(P, 5), (P, 6), (P, 6)]
    assert sum(1 for d in w if d and d[0] == P) == 3
    pts = np.zeros(N_PTS, np.int64)
    total = score_nb(T[0], st[0], 0, pts)
    assert list(pts) == [10, 4, 12, 17, 0, -3]
    assert total == 40


def W(rows):
    st = fresh_state(T, 2)
    set_window(st, 0, rows)
    return st[0]["win_colour"][0], st[0]["win_value"][0], nv.window_from_state(st[0], 0)


def pub(name, rows):
    o = K.public(name)
    wc, wv, w = W(rows)
    got = public_score_nb(T[0]["public_kind"][o], T[0]["public_mask"][o], T[0]["public_points"][o], wc, wv)
    comp = default_components().data["public"][o]
    assert got == nv.public_points(comp["kind"], w, comp["points"], comp.get("values") or (),
                                   [E.COLOUR_NAMES.index(c) for c in comp.get("colours") or ()])
    return got


FULL_ROW_DISTINCT = "R1 Y2 G3 B4 P5"


def test_row_color_variety_counts_complete_rows_only():
    assert pub("Row Color Variety", [FULL_ROW_DISTINCT, "R2 Y3 G4 B5 ..", "R1 Y2 G3 B4 R5", EMPTY_ROWS[0]]) == 6
    assert pub("Row Color Variety", [FULL_ROW_DISTINCT, "P2 B3 G4 Y5 R6", *EMPTY_ROWS[:2]]) == 12


def test_column_color_variety_counts_complete_columns_only():
    rows = ["R1 .. .. .. ..", "Y2 .. .. .. ..", "G3 .. .. .. ..", "B4 .. .. .. .."]
    assert pub("Column Color Variety", rows) == 5
    assert pub("Column Color Variety", ["R1 .. .. .. ..", "Y2 .. .. .. ..", "G3 .. .. .. ..", ".. .. .. .. .."]) == 0
    assert pub("Column Color Variety", ["R1 .. .. .. ..", "Y2 .. .. .. ..", "R3 .. .. .. ..", "B4 .. .. .. .."]) == 0


def test_row_shade_variety():
    assert pub("Row Shade Variety", ["R1 Y2 G3 B4 P5", "R1 Y1 .. .. ..", "R1 Y2 G3 B4 P1", EMPTY_ROWS[0]]) == 5


def test_column_shade_variety():
    rows = ["R1 G1 .. .. ..", "Y2 B2 .. .. ..", "G3 R3 .. .. ..", "B4 P2 .. .. .."]
    assert pub("Column Shade Variety", rows) == 4


@pytest.mark.parametrize("name,a,b", [("Light Shades", 1, 2), ("Medium Shades", 3, 4), ("Deep Shades", 5, 6)])
def test_shade_pairs_score_per_set(name, a, b):
    rows = [f"R{a} Y{a} G{a} B{b} P{b}", *EMPTY_ROWS[1:]]
    assert pub(name, rows) == 2 * 2
    assert pub(name, [f"R{a} Y{a} G{a} .. ..", *EMPTY_ROWS[1:]]) == 0


def test_shade_variety_sets_of_all_six_values():
    assert pub("Shade Variety", ["R1 Y2 G3 B4 P5", "R6 Y1 G2 B3 P4", "R5 .. .. .. ..", EMPTY_ROWS[0]]) == 5
    assert pub("Shade Variety", ["R1 Y2 G3 B4 P5", "R6 Y1 G2 B3 P4", "R5 Y6 .. .. ..", EMPTY_ROWS[0]]) == 10


def test_color_variety_sets_of_all_five_colours():
    assert pub("Color Variety", [FULL_ROW_DISTINCT, "R2 Y3 G4 B5 ..", *EMPTY_ROWS[:2]]) == 4


def test_color_diagonals_count_each_die_once():
    # R at A1, B2, C1: B2 touches both diagonally (counted once), A1 and C1 once each -> 3
    rows = ["R1 .. .. .. ..", ".. R2 .. .. ..", "R3 .. .. .. ..", ".. .. .. .. .."]
    assert pub("Color Diagonals", rows) == 3
    assert pub("Color Diagonals", ["R1 R2 .. .. ..", *EMPTY_ROWS[1:]]) == 0   # orthogonal does not count


def test_private_objective_is_the_sum_of_its_colour():
    st = example_state()
    st[0]["priv"][0, 0] = K.private("Shades of Blue")
    pts = np.zeros(N_PTS, np.int64)
    score_nb(T[0], st[0], 0, pts)
    assert pts[PTS_PRIVATE] == 4 + 1 + 3 + 6 + 2


def test_favor_tokens_and_empty_spaces():
    st = example_state()
    st[0]["tokens"][0] = 3
    pts = np.zeros(N_PTS, np.int64)
    assert score_nb(T[0], st[0], 0, pts) == 43 and pts[PTS_FAVOR] == 3


def test_solo_scoring_minus_three_per_space_best_private_and_target():
    st = fresh_state(T, 1)
    set_window(st, 0, EXAMPLE)
    set_public(st, ["Column Color Variety", "Light Shades"])
    st[0]["priv"][0, 0] = K.private("Shades of Red")       # 4 + 5 + 2 = 11
    st[0]["priv"][0, 1] = K.private("Shades of Purple")    # 17: the player's choice
    pts = np.zeros(N_PTS, np.int64)
    total = score_nb(T[0], st[0], 0, pts)
    assert list(pts) == [10, 4, 0, 17, 0, -9] and total == 22
    set_track(st, ["R6", "B5", "G1"])
    assert target_score_nb(st[0]) == 12


def test_tie_break_private_then_tokens_then_reverse_final_order():
    scores = np.array([40, 40, 40, 30])
    rank = np.zeros(4, np.int64)
    win = np.zeros(4)
    positions = np.array([0, 1, 2, 3])
    rank_nb(scores, np.array([10, 12, 12, 0]), np.array([1, 0, 2, 0]), positions, 4, rank, win)
    assert list(rank) == [3, 2, 1, 4] and list(win) == [0, 0, 1, 0]     # private, then tokens
    rank_nb(scores, np.array([12, 12, 12, 0]), np.array([1, 1, 1, 0]), positions, 4, rank, win)
    assert list(rank) == [3, 2, 1, 4]                                    # later in the final round
    st = fresh_state(T, 4)
    st[0]["first_start_player"] = 1    # round 10's start player: (1 + 9) % 4 = 2
    assert [final_position_nb(st[0], p) for p in range(4)] == [2, 3, 0, 1]


# ---------------------------------------------------------------------------------------
# whole games
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_whole_games_place_at_most_twenty_dice_and_use_all_turns(n):
    from sim.games.sagrada import SPEC
    prep = SPEC.prepare(default_components(), n, ["random"], 5)
    out = play_records(T, n, 5, 0, 50, prep.strategy_ids, prep.strategy_params)
    assert (out["placed"] + out["empty_cells"] == 20).all()
    assert (out["length"] <= 20 * n).all() and (out["length"] >= 19 * n - 10).all()
