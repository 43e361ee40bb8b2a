"""Grand Surfers: the rule options (component file `rules`), one scenario per option showing
that flipping it changes the behaviour as docs/games/grand-surfers.md says, and the boost-loop
rule: a boost may not end on a cell already visited in its chain (`boost_loop = no_revisit`),
players never choose a loop when there is a way out (`guard_push`, the earlier engine's rule).

Cells: line counted from the start (1 = bottom) + column letter; sheets beach line first.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.game_api import ComponentError
from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers import model as M
from sim.games.surfers.nb import apply_move_nb, boost_options_nb, move_options_nb
from strategies.surfers import choose_builtin_nb
from tests.surfers_helpers import (c, checked_chunk, fresh_state, model_steps_nb, no_trace,
                                   options_buf, put, sheet_tables, where)

GRID = """
B ===
4 ooo
3 ooo
2 ooo
1 ooo
"""


def move(T, st, seat, k, col, steps):
    tr, tn = no_trace()
    return apply_move_nb(T[0], st[0], seat, k * E.MAX_COLS + col, steps, tr, tn)


def boosts(T, st, who):
    opts = options_buf()
    n = boost_options_nb(T[0], st[0], who, opts)
    return [int(x) for x in opts[:n]]


def resolve(T, st, cand, names=("racer", "racer")):
    """Resolve seat 0's move's boost chain with the forward model (model.start_boosts_nb: each
    boost a DEC_BOOST decision of the surfer's owner) and built-in players."""
    p = SPEC.prepare(SPEC.load_components(), len(names), list(names), 1)
    tr, tn = no_trace()
    st[0].seat = 0
    M.start_boosts_nb(T[0], st[0], cand, E.AFTER_MOVE, tr, tn)
    buf = np.zeros(1, np.int64)
    while M.decision_nb(st[0]) == E.DEC_BOOST:
        assert M.check_state_nb(T[0], st[0]) == 0
        model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 1, buf)


# --- boost loops ---------------------------------------------------------------------------
# Surfer 1 waits on 2a; surfer 0 arrives there from the start (2 cells up column a) and is
# boosted. With "4a>3b", "3b>2a" a boost of 2 rides back onto 2a (a loop), a boost of 1 does not.
ONE_WAY_OUT = ["4a>3b", "3b>2a"]
# With "3a>2a", "4a>3a" every boost rides back onto 2a.
NO_WAY_OUT = ["3a>2a", "4a>3a"]


def loop_start(rule, channels):
    T = sheet_tables(GRID, channels=channels, boost_loop=f'"{rule}"')
    st = fresh_state(T, 2)
    put(T, st, 1, "2a")
    cand = move(T, st, 0, 0, 0, 2)
    assert cand == 0
    return T, st


def test_boost_loop_no_revisit_offers_no_distance_that_rides_back_onto_the_partner():
    T, st = loop_start("no_revisit", ONE_WAY_OUT)
    assert boosts(T, st, 0) == [1]                      # 2 -> 4a -> 3b -> 2a: visited
    resolve(T, st, 0, ("random", "random"))             # even a random player cannot loop
    assert (where(st, 0), where(st, 1)) == ("3a", "2a")
    assert st[0].boost_loops[0] == 0


def test_boost_loop_no_revisit_without_a_way_out_stops_where_the_boost_lands():
    T, st = loop_start("no_revisit", NO_WAY_OUT)
    assert boosts(T, st, 0) == [1 + E.BOOST_NO_RIDE, 2 + E.BOOST_NO_RIDE]
    resolve(T, st, 0)
    assert where(st, 0) == "4a" and where(st, 1) == "2a"     # the racer takes 2, no ride back
    assert st[0].boost_loops[0] == 0 and st[0].pushed[0] == 0


def test_boost_loop_guard_push_is_the_old_invented_rule_surfer_pushed_down_after_the_guard():
    T, st = loop_start("guard_push", NO_WAY_OUT)
    assert boosts(T, st, 0) == [1, 2]
    resolve(T, st, 0)
    assert st[0].boost_loops[0] == T[0].max_boost_chain
    assert where(st, 0) == "1a" and st[0].pushed[0] == 1   # pushed down by the guard


@pytest.mark.parametrize("strategy", ["racer", "blocker", "builder", "rider"])
def test_players_never_choose_a_boost_loop_when_there_is_a_way_out(strategy):
    # under guard_push both distances are legal, and the loop (2) looks better on the surface:
    # it "gains" a boost on the partner (1.5 lines) against 1 line for the way out
    T, st = loop_start("guard_push", ONE_WAY_OUT)
    assert boosts(T, st, 0) == [1, 2]
    resolve(T, st, 0, (strategy, strategy))
    assert where(st, 0) == "3a" and st[0].boost_loops[0] == 0


def test_no_boost_loop_in_thousands_of_games_under_the_default_rule():
    comp = SPEC.load_components()
    T = comp.tables
    p = SPEC.prepare(comp, 4, ["random", "builder", "blocker", "random"], 3)
    rec, fail = checked_chunk(T, 4, 3, 0, 1500, p.strategy_ids, p.strategy_params)
    assert fail[0] == 0
    assert rec["boost_loops"].sum() == 0 and rec["boosts"].sum() > 0


# --- which surfer a boost moves --------------------------------------------------------------
def test_boost_moves_option_is_validated_and_recorded():
    assert SPEC.load_components().tables[0].boost_moves == E.BOOST_ARRIVING
    comp = SPEC.load_components(None, ("rules.boost_moves=standing",))
    assert comp.tables[0].boost_moves == E.BOOST_STANDING
    with pytest.raises(ComponentError) as exc:
        SPEC.load_components(None, ("rules.boost_moves=both",))
    assert any("boost_moves" in ln and "'arriving'" in ln for ln in exc.value.lines), exc.value.lines


@pytest.mark.parametrize("key,good,code", [
    ("boost_moves", "standing", E.BOOST_STANDING),
    ("boost_loop", "guard_push", E.LOOP_GUARD_PUSH),
    ("second_surfer_reading", "on_or_above", E.SECOND_ON_OR_ABOVE),
    ("tide_on_move", "out", E.TIDE_OUT),
])
def test_rule_options_are_named_validated_and_reach_the_engine(key, good, code):
    default = SPEC.load_components()
    assert default.tables[0][key] == 0                          # the documented default
    assert f"{key} = " in SPEC.default_components_text()        # shown in the default file
    assert SPEC.load_components(None, (f"rules.{key}={good}",)).tables[0][key] == code
    with pytest.raises(ComponentError) as exc:
        SPEC.load_components(None, (f"rules.{key}=maybe",))
    assert len(exc.value.lines) == 1 and f"rules.{key} must be one of" in exc.value.lines[0]


# --- the second surfer's threshold -------------------------------------------------------------
def test_second_surfer_reading_on_or_above_lets_it_leave_with_the_first_on_the_third_line():
    tall = "B =\n" + "\n".join(f"{k} ." for k in range(6, 0, -1))
    for reading, allowed in (("above", [0]), ("on_or_above", [0, 1])):
        T = sheet_tables(tall, second_surfer_reading=f'"{reading}"')
        st = fresh_state(T, 2)
        put(T, st, 0, "3a")
        opts = options_buf()
        n = move_options_nb(T[0], st[0], 0, opts)
        assert sorted({int(o) // E.MAX_COLS for o in opts[:n]}) == allowed, reading
        put(T, st, 0, "2a")                               # the second line: never
        n = move_options_nb(T[0], st[0], 0, opts)
        assert sorted({int(o) // E.MAX_COLS for o in opts[:n]}) == [0], reading


# --- tide on a move ---------------------------------------------------------------------------
TIDE = """
B ==
3 ..
2 ~.
1 ..
"""


def test_tide_on_move_out_removes_a_surfer_ending_its_move_on_a_tide_cell():
    for rule, expect in (("harmless", "2a"), ("out", "tide")):
        T = sheet_tables(TIDE, tide_on_move=f'"{rule}"')
        st = fresh_state(T, 2)
        move(T, st, 0, 0, 0, 2)                           # start -> 1a -> 2a (tide)
        assert where(st, 0) == expect, rule
        assert st[0].progress[0] >= 0
        move(T, st, 1, 0, 0, 3)                           # passing over the tide is harmless
        assert where(st, 2) == "3a"


def test_players_avoid_ending_on_the_tide_when_it_removes():
    T = sheet_tables(TIDE, tide_on_move='"out"')
    st = fresh_state(T, 2)
    p = SPEC.prepare(SPEC.load_components(), 2, ["racer", "racer"], 1)
    opts = options_buf()
    n = move_options_nb(T[0], st[0], 0, opts)
    ctx = np.zeros(E.CTX_LEN, np.int64)
    ctx[E.CTX_STEPS] = 2
    i = choose_builtin_nb(p.strategy_ids[0], p.strategy_params[0], T[0], st[0], 0, E.DEC_MOVE,
                          opts, n, ctx, np.zeros(E.KEEP_LEN))
    assert int(opts[i]) % E.MAX_COLS == 1                 # column b: 2b is a square
