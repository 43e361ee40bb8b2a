"""Grand Surfers: invariants of whole games.

  * Thousands of games for 2-4 players with every built-in player, played by the harness with
    its checks on (checked_chunk): after every applied decision model.check_state_nb
    verifies that every surfer is on a sea cell above the wave, at the start (before the first
    fold), on the beach in a finish cell, or out; that no circle holds two surfers and the
    circle register agrees with the surfers; that every channel arrow joins two circles on
    neighbouring lines at most one column apart, above the wave, and that the arrows form no
    loop; that the one-surfer finish cells hold at most one.
  * Every game ends by the wave (the turn-limit guard is never reached).
  * A sample of games replayed with their final state: the scores recomputed by the naive
    rules below, the win shares and ranks by the tie-break.
  * check_state_nb itself catches each kind of broken state.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers.nb import check_state_nb
from tests.surfers_helpers import c, checked_chunk, fresh_state, put, sheet_tables, trace_game

RUN_SEED = 8086


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


@pytest.fixture(scope="module")
def T(comp):
    return comp.tables


MIXES = [(["random"], 2000), (["racer"], 600), (["rider", "blocker", "builder", "random"], 600)]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("names,games", MIXES)
def test_every_step_keeps_the_invariants_and_every_game_ends(comp, T, n, names, games):
    p = SPEC.prepare(comp, n, names if len(names) == 1 else names[:n], RUN_SEED)
    rec, fail = checked_chunk(T, n, RUN_SEED, 0, games, p.strategy_ids, p.strategy_params)
    assert fail[0] == 0, f"check_state_nb code {fail[0]} in game {fail[1]} after step {fail[2]}"
    assert (rec["illegal"] == 0).all()
    assert (rec["end_reason"] == E.END_WAVE).all()
    assert rec["length"].max() < comp.tables[0].turn_limit
    assert np.allclose(rec["win"].reshape(games, n).sum(axis=1), 1.0)


@pytest.mark.parametrize("spread", ["[0.0]", "[3.0]", "[0.0,2.0,0.5,1.0]"])
def test_extreme_hands_keep_the_invariants(spread):
    comp = SPEC.load_components(None, (f"flick.spread={spread}",))
    T = comp.tables
    p = SPEC.prepare(comp, 4, ["random", "racer", "blocker", "builder"], RUN_SEED)
    rec, fail = checked_chunk(T, 4, RUN_SEED, 0, 500, p.strategy_ids, p.strategy_params)
    assert fail[0] == 0 and (rec["end_reason"] == E.END_WAVE).all()


def naive_scores(tables, state, n):
    """The rulebook's scoring, written plainly: 2 for the marker, 3 for both surfers on the
    beach, plus the score of each surfer's finish cell."""
    scores = []
    for p in range(n):
        st = [int(state["status"][2 * p + k]) for k in range(2)]
        sc = 2 if int(state["fastest"]) == p else 0
        sc += 3 if st == [E.S_BEACH, E.S_BEACH] else 0
        for k in range(2):
            if st[k] == E.S_BEACH:
                sc += int(tables.finish_score[int(state["slot"][2 * p + k])])
        scores.append(sc)
    return scores


def naive_order(scores, fastest):
    """Seats sorted best first: higher score, then the seat without the marker."""
    return sorted(range(len(scores)), key=lambda p: (-scores[p], 1 if p == fastest else 0))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_final_states_recompute_with_the_naive_rules(comp, T, n):
    names = ["random", "rider", "racer", "blocker"][:n]
    p = SPEC.prepare(comp, n, names, RUN_SEED)
    for game in range(60):
        _, rec, st = trace_game(T, n, RUN_SEED, game, p.strategy_ids, p.strategy_params, 4000)
        s = st[0]
        scores = naive_scores(comp.tables[0], s, n)
        assert list(rec["score"]) == scores
        order = naive_order(scores, int(s["fastest"]))
        best = order[0]
        assert rec["rank"][best] == 1 and rec["win"][best] > 0
        # the end: nobody left on the sea, the wave over every line
        assert int(s["wave"]) == comp.tables[0].n_lines
        assert all(int(s["status"][w]) in (E.S_BEACH, E.S_WAVE, E.S_TIDE) for w in range(2 * n))
        taken = [int(s["slot"][w]) for w in range(2 * n) if int(s["status"][w]) == E.S_BEACH]
        for k in range(comp.tables[0].n_finish):
            if comp.tables[0].finish_holds[k] == 1:
                assert taken.count(k) <= 1


SMALL = """
B ===
3 ooo
2 ooo
1 o.o
"""


def test_check_state_catches_each_broken_state():
    T = sheet_tables(SMALL)
    st = fresh_state(T, 2)
    assert check_state_nb(T[0], st[0]) == 0
    put(T, st, 0, "2a")
    put(T, st, 2, "2a")                              # two surfers on a circle
    st[0].occ[c("2a")] = 0
    assert check_state_nb(T[0], st[0]) == E.CHK_CIRCLE
    st = fresh_state(T, 2)
    st[0].chan[c("1a")] = c("2a")
    st[0].chan[c("2a")] = c("1a")                    # a loop
    assert check_state_nb(T[0], st[0]) == E.CHK_LOOP
    st = fresh_state(T, 2)
    st[0].chan[c("1a")] = c("3a")                    # skips a line
    assert check_state_nb(T[0], st[0]) == E.CHK_LOOP
    st = fresh_state(T, 2)
    put(T, st, 0, "1b")
    st[0].wave = 1                            # a surfer left under the wave (and at the start)
    assert check_state_nb(T[0], st[0]) == E.CHK_PLACE
    st = fresh_state(T, 2)
    for who in (0, 2):
        st[0].status[who] = E.S_BEACH
        st[0].slot[who] = 0                          # two in Grand
    st[0].finish[0] = 2
    assert check_state_nb(T[0], st[0]) == E.CHK_FINISH
