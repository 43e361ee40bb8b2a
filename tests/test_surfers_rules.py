"""Grand Surfers: one scenario test per rule, on hand-drawn small sheets.

Expected values come from the rulebook (/work/shared/rules/grand-surfers.ko.txt) and the
interpretations in docs/games/grand-surfers.md, written out here, not read from the engine.
Cells are named as in the docs: line counted from the start (1 = bottom line) + column letter.
Sheets are drawn beach line first, start side last (the file format).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.game_api import ComponentError
from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers.components import components_from_text
from sim.games.surfers.nb import (
    N_PTS, PTS_CELLS, PTS_DUO, PTS_FASTEST, action_options_nb, aim_options_nb, apply_boost_nb,
    apply_channel_nb, apply_move_nb, arrive_nb, channel_options_nb, check_state_nb,
    end_turn_nb, flick_nb, fold_nb, is_half_nb, move_options_nb, rank_nb,
    score_nb,
)
from tests.surfers_helpers import (c, fresh_state, model_chunk, no_trace, options_buf, put,
                                   sheet_components, sheet_tables, sheet_text, where)

COLUMN = """
B ===
4 o.o
3 o.o
2 o~o
1 o.o
"""


def move(T, st, seat, k, col, steps):
    """A normal move; returns the surfer to boost (-1 none)."""
    tr, tn = no_trace()
    return apply_move_nb(T[0], st[0], seat, k * E.MAX_COLS + col, steps, tr, tn)


def ok(T, st):
    assert check_state_nb(T[0], st[0]) == 0


# --- moving ------------------------------------------------------------------------------
def test_a_move_counts_cells_up_the_column_skipping_rocks():
    T = sheet_tables("""
B ==
3 .o
2 #.
1 o.
""")
    st = fresh_state(T, 2)
    move(T, st, 0, 0, 0, 2)          # from the start into column a: 1a, (rock), 3a
    assert where(st, 0) == "3a"
    ok(T, st)


def test_a_move_past_the_last_line_reaches_the_beach_and_a_closed_column_stops_at_its_top():
    T = sheet_tables("""
B =#
1 ..
""")
    st = fresh_state(T, 2)
    move(T, st, 0, 0, 0, 6)
    assert where(st, 0) == "beach:0"
    move(T, st, 1, 0, 1, 6)          # column b has no beach end
    assert where(st, 2) == "1b"


def test_the_second_surfer_leaves_only_while_the_first_is_above_the_third_line():
    T = sheet_tables("""
B =
6 .
5 .
4 .
3 .
2 .
1 .
""")
    st = fresh_state(T, 2)
    opts = options_buf()
    n = move_options_nb(T[0], st[0], 0, opts)
    assert [o // E.MAX_COLS for o in opts[:n]] == [0]          # both at the start: the first leaves
    put(T, st, 0, "3a")
    n = move_options_nb(T[0], st[0], 0, opts)
    assert [o // E.MAX_COLS for o in opts[:n]] == [0]          # on the third line: not above it
    put(T, st, 0, "4a")
    n = move_options_nb(T[0], st[0], 0, opts)
    assert sorted(o // E.MAX_COLS for o in opts[:n]) == [0, 1]
    move(T, st, 0, 1, 0, 1)
    put(T, st, 0, "1a")                                         # the first falls back: the second is out already
    n = move_options_nb(T[0], st[0], 0, opts)
    assert sorted(o // E.MAX_COLS for o in opts[:n]) == [0, 1]


# --- circles: pushing and boosting ----------------------------------------------------------
def test_stopping_on_an_opponent_pushes_it_down_and_the_push_chains():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    put(T, st, 0, "1a")
    put(T, st, 3, "2a")
    put(T, st, 2, "3a")
    assert move(T, st, 0, 0, 0, 2) == -1
    assert (where(st, 0), where(st, 2), where(st, 3)) == ("3a", "2a", "1a")
    assert st[0].no_ride[2] == 1 and st[0].no_ride[3] == 1 and st[0].no_ride[0] == 0
    assert st[0].pushes[0] == 1 and st[0].pushed[1] == 2
    ok(T, st)


def test_squares_hold_many_surfers_and_nobody_is_pushed_there():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    put(T, st, 2, "1b")
    move(T, st, 0, 0, 1, 1)
    assert where(st, 0) == "1b" and where(st, 2) == "1b"
    ok(T, st)


def test_a_surfer_pushed_into_a_tide_cell_is_out():
    T2 = sheet_tables("""
B =
3 o
2 ~
1 .
""")
    st = fresh_state(T2, 2)
    put(T2, st, 2, "3a")
    move(T2, st, 0, 0, 0, 3)
    assert where(st, 0) == "3a" and where(st, 2) == "tide"
    assert st[0].kills[0] == 1
    ok(T2, st)


def test_a_surfer_pushed_below_the_first_line_goes_back_to_the_start():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    put(T, st, 2, "1c")
    move(T, st, 0, 0, 2, 1)
    assert where(st, 0) == "1c" and where(st, 2) == "start"
    ok(T, st)


def test_a_boost_moves_the_arriving_surfer_as_the_rulebook_says_and_it_can_push():
    # "도착한 자신의 서퍼 말을 1~2칸 앞으로": the surfer that arrived moves on; its partner stays
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    put(T, st, 1, "2a")
    put(T, st, 2, "4a")
    cand = move(T, st, 0, 0, 0, 2)                   # the first surfer lands on its partner
    assert cand == 0                                 # ... and is the one boosted
    assert st[0].occ[c("2a")] == 1                   # the partner keeps the circle
    tr, tn = no_trace()
    assert apply_boost_nb(T[0], st[0], 0, 2, tr, tn) == -1
    assert (where(st, 0), where(st, 1), where(st, 2)) == ("4a", "2a", "3a")
    assert st[0].boosts[0] == 1 and st[0].pushes[0] == 1
    ok(T, st)


def test_boost_moves_standing_option_moves_the_partner_instead():
    for rule, boosted, stays in (("arriving", 0, 1), ("standing", 1, 0)):
        T = sheet_tables(COLUMN, boost_moves=f'"{rule}"')
        st = fresh_state(T, 2)
        put(T, st, 1, "3a")
        put(T, st, 0, "1a")
        assert move(T, st, 0, 0, 0, 2) == boosted
        tr, tn = no_trace()
        apply_boost_nb(T[0], st[0], boosted, 1, tr, tn)
        assert (where(st, boosted), where(st, stays)) == ("4a", "3a"), rule
        assert st[0].occ[c("3a")] == stays and st[0].occ[c("4a")] == boosted
        ok(T, st)


def test_a_boost_past_the_last_line_reaches_the_beach():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    put(T, st, 1, "4a")
    put(T, st, 0, "3a")
    assert move(T, st, 0, 0, 0, 1) == 0
    tr, tn = no_trace()
    apply_boost_nb(T[0], st[0], 0, 1, tr, tn)
    assert where(st, 0) == "beach:0" and where(st, 1) == "4a"
    ok(T, st)


# --- channels ------------------------------------------------------------------------------
def test_riding_a_channel_into_a_push():
    with pytest.raises(ComponentError, match="3b is a square"):
        sheet_components(COLUMN, channels=["2a>3b"])
    T = sheet_tables("""
B ===
4 ooo
3 ooo
2 o.o
1 o.o
""", channels=["2a>3b"])
    st = fresh_state(T, 2)
    put(T, st, 2, "3b")
    move(T, st, 0, 0, 0, 2)                           # 1a, 2a: rides 2a -> 3b, pushes
    assert where(st, 0) == "3b" and where(st, 2) == "2b"
    assert st[0].rides[0] == 1
    ok(T, st)


def test_a_pushed_surfer_does_not_ride_until_it_has_moved():
    T = sheet_tables("""
B ===
4 ooo
3 ooo
2 ooo
1 o.o
""", channels=["2a>3b"])
    st = fresh_state(T, 2)
    put(T, st, 2, "3a")
    put(T, st, 1, "4c")
    move(T, st, 0, 0, 0, 3)                           # lands 3a, pushes surfer 2 onto 2a (a channel)
    assert where(st, 2) == "2a"                       # ... where it does not ride
    move(T, st, 1, 0, 0, 1)                           # it moves one cell: 3a holds surfer 0 -> push
    assert where(st, 2) == "3a" and where(st, 0) == "2a"
    # surfer 0 was pushed onto the channel cell: it stays there too
    assert st[0].no_ride[0] == 1
    ok(T, st)


def test_a_surfer_under_a_newly_drawn_channel_rides_at_once():
    T = sheet_tables("""
B ===
2 ooo
1 ooo
""", wave="X")
    st = fresh_state(T, 2)
    put(T, st, 2, "1b")
    tr, tn = no_trace()
    code = E.OPT_CHANNEL + c("1b") * E.MAX_CELLS + c("2c")
    apply_channel_nb(T[0], st[0], 0, code, tr, tn)
    assert where(st, 2) == "2c" and st[0].chan[c("1b")] == c("2c")
    assert st[0].channels_up[0] == 1 and st[0].rides_given[0] == 1
    ok(T, st)


def channel_set(T, st, up, down, pips):
    opts = options_buf()
    n = channel_options_nb(T[0], st[0], up, down, pips, opts, 0)
    out = set()
    for code in opts[:n]:
        a, b = divmod(int(code) - E.OPT_CHANNEL, E.MAX_CELLS)
        out.add((f"{a // E.MAX_COLS + 1}{'abc'[a % E.MAX_COLS]}", f"{b // E.MAX_COLS + 1}{'abc'[b % E.MAX_COLS]}"))
    return out


def test_channel_rules_circles_next_line_one_column_sideways_pips_line():
    T = sheet_tables("""
B ===
3 o.o
2 oo.
1 .oo
""")
    st = fresh_state(T, 2)
    up = channel_set(T, st, True, False, 1)           # arrows touching line 1 (numbered 1), upward
    assert up == {("1b", "2a"), ("1b", "2b"), ("1c", "2b")}   # 1c -> 2c: a square
    down = channel_set(T, st, False, True, 3)         # touching line 3 (numbered 3), downward
    assert down == {("3a", "2a"), ("3a", "2b"), ("3c", "2b")}
    assert channel_set(T, st, True, True, 5) == set()  # no line numbered 5


def test_channel_rules_one_outgoing_arrow_per_cell_and_no_loop():
    T = sheet_tables("""
B ==
2 oo
1 oo
""")
    st = fresh_state(T, 2)
    st[0].chan[c("1a")] = c("2a")
    arrows = channel_set(T, st, True, True, 1)
    assert not any(a == "1a" for a, _ in arrows)      # 1a already has its arrow
    assert ("2a", "1a") not in arrows                 # would close 1a -> 2a -> 1a
    assert ("2b", "1a") in arrows and ("2a", "1b") in arrows


def test_action_cells_pips_reflick_and_channel_directions():
    T = sheet_tables("""
B ==
2 oo
1 oo
""", wave="+RUDX.")
    st = fresh_state(T, 2)
    opts = options_buf()

    def acts(col, pips, reflicks=0):
        n = action_options_nb(T[0], st[0], col, pips, reflicks, opts)
        return [int(x) for x in opts[:n]]

    assert acts(0, 3) == [E.OPT_NO_ACTION, E.OPT_PLUS, E.OPT_MINUS]
    assert acts(0, 6) == [E.OPT_NO_ACTION, E.OPT_MINUS]          # the result stays 1..6
    assert acts(0, 1) == [E.OPT_NO_ACTION, E.OPT_PLUS]
    assert acts(1, 3) == [E.OPT_NO_ACTION, E.OPT_REFLICK]
    assert acts(1, 3, reflicks=5) == [E.OPT_NO_ACTION]           # the per-turn guard
    ups = acts(2, 1)[1:]
    downs = acts(3, 2)[1:]
    both = acts(4, 1)[1:]
    assert ups and downs and set(both) >= set(ups)
    assert all((x - E.OPT_CHANNEL) // E.MAX_CELLS < (x - E.OPT_CHANNEL) % E.MAX_CELLS for x in ups)
    assert acts(5, 3) == [E.OPT_NO_ACTION] and acts(-1, 3) == [E.OPT_NO_ACTION]


# --- the flick -------------------------------------------------------------------------------
def test_zero_noise_meets_every_aim_exactly():
    T = sheet_tables(COLUMN, wave="h.+\n.R.\nX.U", spread=(0.0,))
    st = fresh_state(T, 2)
    opts = options_buf()
    n = aim_options_nb(T[0], opts)
    assert n == 9
    for aim in opts[:n]:
        for _ in range(20):
            assert flick_nb(T[0], st[0], 0, aim) == aim


def test_landing_off_the_sheet_or_in_a_half_cell_halves_the_move():
    T = sheet_tables(COLUMN, wave="h.\n..", spread=(3.0,))
    st = fresh_state(T, 2)
    landed = [flick_nb(T[0], st[0], 0, 0) for _ in range(400)]
    assert -1 in landed                                # a shaky hand leaves the sheet
    assert is_half_nb(T[0], -1) and is_half_nb(T[0], 1 * E.MAX_WAVE_COLS + 0)
    assert not is_half_nb(T[0], 0)


def test_the_spread_of_the_landing_grows_with_the_seat_spread():
    T = sheet_tables(COLUMN, wave=".....\n.....\n.....\n.....\n.....", spread=(0.2, 1.0))
    st = fresh_state(T, 2)
    aim = 2 * E.MAX_WAVE_COLS + 2
    hit0 = np.mean([flick_nb(T[0], st[0], 0, aim) == aim for _ in range(2000)])
    hit1 = np.mean([flick_nb(T[0], st[0], 1, aim) == aim for _ in range(2000)])
    assert hit0 > 0.9 and hit1 < 0.6
    # the strategies' table of landing chances agrees with the engine's draws
    p = T[0].aim_prob
    assert abs(p[1, aim, aim] - hit1) < 0.05 and abs(p[0, aim, aim] - hit0) < 0.05


# --- the finish, the marker, the wave, the end --------------------------------------------------
def test_finish_cells_new_arrivals_push_earlier_ones_down():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 4)
    tr, tn = no_trace()
    for who in (0, 2, 4, 6):
        arrive_nb(T[0], st[0], who, tr, tn)
    # Grand, Great hold one; Good any number: 0 and 2 end in Good
    assert [where(st, w) for w in (6, 4, 2, 0)] == ["beach:0", "beach:1", "beach:2", "beach:2"]
    assert st[0].fastest_pending == 0
    ok(T, st)


def test_the_fastest_marker_then_the_wave_folds_at_the_end_of_its_holders_turns():
    T = sheet_tables("""
B ===
3 o.o
2 o.o
1 o.o
""", channels=["1a>2a", "2c>3c"])
    st = fresh_state(T, 2)
    tr, tn = no_trace()
    put(T, st, 0, "3a")
    put(T, st, 2, "1c")                      # seat 1: one surfer on line 1, one at the start
    move(T, st, 0, 0, 0, 1)                  # to the beach
    end_turn_nb(T[0], st[0], 0, tr, tn)
    assert st[0].fastest == 0 and st[0].wave == 0   # marker now, no fold yet
    end_turn_nb(T[0], st[0], 1, tr, tn)
    assert st[0].wave == 0                          # not the holder's turn
    end_turn_nb(T[0], st[0], 0, tr, tn)
    assert st[0].wave == 1
    assert where(st, 2) == "wave" and where(st, 3) == "wave" and where(st, 1) == "wave"
    assert st[0].chan[c("1a")] == -1 and st[0].chan[c("2c")] == c("3c")   # the arrow touching the wave vanished
    ok(T, st)


def test_fold_on_marker_turn_option_folds_at_once():
    T = sheet_tables(COLUMN, fold_on_marker_turn="true")
    st = fresh_state(T, 2)
    tr, tn = no_trace()
    put(T, st, 0, "4a")
    move(T, st, 0, 0, 0, 1)
    end_turn_nb(T[0], st[0], 0, tr, tn)
    assert st[0].wave == 1


def test_a_push_onto_a_covered_line_puts_the_surfer_out():
    T = sheet_tables("""
B ==
3 oo
2 oo
1 oo
""", channels=["3a>2b"])
    st = fresh_state(T, 2)
    st[0].wave = 1                         # line 1 is under the wave
    st[0].status[1] = st[0].status[3] = E.S_WAVE
    put(T, st, 0, "2a")
    put(T, st, 2, "2b")
    move(T, st, 0, 0, 0, 1)                       # 3a, rides down to 2b, pushes onto line 1
    assert where(st, 0) == "2b" and where(st, 2) == "wave"
    ok(T, st)


def test_the_game_ends_when_the_wave_covers_every_line():
    T = sheet_tables(COLUMN, lines_per_fold=3)
    st = fresh_state(T, 2)
    tr, tn = no_trace()
    fold_nb(T[0], st[0], tr, tn)
    assert st[0].over == 0
    fold_nb(T[0], st[0], tr, tn)
    assert st[0].wave == 4 and st[0].over == 1
    assert st[0].end_reason == E.END_WAVE


def test_scoring_fastest_duo_and_cells():
    T = sheet_tables(COLUMN)
    st = fresh_state(T, 2)
    tr, tn = no_trace()
    for who in (0, 2, 1):                 # seat 0 first, then seat 1, then seat 0's second
        arrive_nb(T[0], st[0], who, tr, tn)
    st[0].fastest = 0
    st[0].status[3] = E.S_WAVE
    pts = np.zeros(N_PTS, np.int64)
    assert score_nb(T[0], st[0], 0, pts) == 2 + 3 + (5 + 1)    # surfer 1 Grand, surfer 0 Good
    assert (pts[PTS_FASTEST], pts[PTS_DUO], pts[PTS_CELLS]) == (2, 3, 6)
    assert score_nb(T[0], st[0], 1, pts) == 3                  # Great, no duo


def test_tie_break_equal_scores_go_to_the_seat_without_the_marker():
    rank = np.zeros(4, np.int64)
    win = np.zeros(4)
    rank_nb(np.array([7, 7, 3, 0]), 0, 3, rank, win)
    assert list(rank[:3]) == [2, 1, 3] and list(win[:3]) == [0.0, 1.0, 0.0]
    rank_nb(np.array([7, 7, 7, 0]), 0, 3, rank, win)           # two without it: shared
    assert list(rank[:3]) == [3, 1, 1] and list(win[:3]) == [0.0, 0.5, 0.5]


def test_every_game_of_a_hand_drawn_sheet_ends():
    T = sheet_tables(COLUMN, wave="h+\nRX", spread=(0.7,))
    p = SPEC.prepare(SPEC.load_components(), 3, ["random", "racer", "blocker"], 5)
    rec = model_chunk(T, 3, 5, 0, 300, p.strategy_ids, p.strategy_params)   # checked
    assert (rec["end_reason"] == E.END_WAVE).all()
    assert np.allclose(rec["win"].reshape(-1, 3).sum(axis=1), 1.0)


# --- the component file ------------------------------------------------------------------------
def test_the_default_file_loads_and_draws_what_the_docs_say():
    comp = SPEC.load_components()
    t = comp.tables[0]
    assert (t.n_lines, t.n_cols) == (10, 6) and (t.wave_rows, t.wave_cols) == (6, 5)
    assert comp.card_names["finish"] == ["Grand", "Great", "Good"]
    kinds = {int(t.cell_kind[line * E.MAX_COLS + col])
             for line in range(t.n_lines) for col in range(t.n_cols)}
    assert kinds == {E.K_NONE, E.K_SQUARE, E.K_CIRCLE, E.K_TIDE}
    waves = {int(t.wave_kind[row * E.MAX_WAVE_COLS + col])
             for row in range(t.wave_rows) for col in range(t.wave_cols)}
    assert waves == {E.W_PLAIN, E.W_HALF, E.W_PIPS, E.W_REFLICK, E.W_UP, E.W_DOWN, E.W_EITHER}


@pytest.mark.parametrize("sea,kw,message", [
    ("B ==\n1 ox", {}, "unknown cell 'x' at column b"),
    ("B ##\n1 oo", {}, "no path to the beach"),
    ("B ==\n1 o", {}, "1 cells, the beach line has 2"),
    ("B ==\n2 o.\n1 oo", {"channels": ["1b>2b"]}, "cell 2b is a square; channels connect circle cells only"),
    ("B ==\n2 oo\n1 oo", {"channels": ["1a>2a", "2a>1a"]}, "closed loop"),
    ("B ==\n2 oo\n1 oo", {"channels": ["1a>2a", "1a>2b"]}, "already has an outgoing arrow"),
    ("B ==\n3 oo\n2 oo\n1 oo", {"channels": ["1a>3a"]}, "next line up or down"),
    ("B ==\n7 oo", {}, "must start with the line's number"),
    ("1 oo", {}, "the first line must be the beach"),
    ("B ==\n1 oo", {"wave": "..q"}, "unknown cell 'q' at column 3"),
])
def test_sheet_errors_are_one_clear_line(sea, kw, message):
    with pytest.raises(ComponentError) as exc:
        sheet_components(sea, **kw)
    assert any(message in line for line in exc.value.lines), exc.value.lines
    assert all(line.startswith("<test>: ") for line in exc.value.lines)


def test_a_sheet_may_live_in_a_text_file_and_the_run_copy_is_self_contained(tmp_path):
    (tmp_path / "sea.txt").write_text("B ==\n2 oo\n1 .o\n")
    text = sheet_text("B ==\n1 oo").replace('sheet = """\nB ==\n1 oo\n"""', 'file = "sea.txt"')
    (tmp_path / "c.toml").write_text(text)
    comp = SPEC.load_components(str(tmp_path / "c.toml"))
    assert comp.tables[0].n_lines == 2
    again = components_from_text(comp.text, "<copy>")
    assert again.tables.tobytes() == comp.tables.tobytes()


def test_spread_override_sets_per_seat_skill():
    comp = SPEC.load_components(None, ("flick.spread=[0.1,0.9]",))
    assert list(comp.tables[0].skill) == [0.1, 0.9, 0.9, 0.9]
    with pytest.raises(ComponentError, match="spread"):
        SPEC.load_components(None, ("flick.spread=[-1.0]",))
