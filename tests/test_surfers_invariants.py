"""Grand Surfers: invariants of whole games.

  * Thousands of games for 2-4 players with every built-in player, played by the compiled loop
    with its checks on (play_checked_chunk_nb): after every applied decision nb.check_state_nb
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
from sim.games.surfers.nb import check_state_nb, new_state
from sim.games.surfers.play import (C_BROKEN, C_END_REASON, C_ILLEGAL, C_LENGTH, C_RANK,
                                    C_SCORE, play_checked_chunk_nb, trace_game_nb)
from sim.api.positions.surfers import c, fresh_state, put, sheet_tables

RUN_SEED = 8086


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


@pytest.fixture(scope="module")
def T(comp):
    return E.pack_tables(comp.tables)


MIXES = [(["random"], 2000), (["racer"], 600), (["rider", "blocker", "builder", "random"], 600)]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("names,games", MIXES)
def test_every_step_keeps_the_invariants_and_every_game_ends(comp, T, n, names, games):
    p = SPEC.prepare(comp, n, names if len(names) == 1 else names[:n], RUN_SEED)
    out, win = play_checked_chunk_nb(T, new_state(), n, np.uint64(RUN_SEED), 0, games,
                                     p.strategy_ids, p.strategy_params)
    assert (out[:, C_BROKEN] == 0).all(), np.unique(out[:, C_BROKEN], return_counts=True)
    assert (out[:, C_ILLEGAL] == 0).all()
    assert (out[:, C_END_REASON] == E.END_WAVE).all()
    assert out[:, C_LENGTH].max() < comp.tables.rules[E.R_TURN_LIMIT]
    assert np.allclose(win.reshape(games, n).sum(axis=1), 1.0)


@pytest.mark.parametrize("spread", ["[0.0]", "[3.0]", "[0.0,2.0,0.5,1.0]"])
def test_extreme_hands_keep_the_invariants(spread):
    comp = SPEC.load_components(None, (f"flick.spread={spread}",))
    T = E.pack_tables(comp.tables)
    p = SPEC.prepare(comp, 4, ["random", "racer", "blocker", "builder"], RUN_SEED)
    out, _ = play_checked_chunk_nb(T, new_state(), 4, np.uint64(RUN_SEED), 0, 500,
                                   p.strategy_ids, p.strategy_params)
    assert (out[:, C_BROKEN] == 0).all() and (out[:, C_END_REASON] == E.END_WAVE).all()


def naive_scores(tables, state, n):
    """The rulebook's scoring, written plainly: 2 for the marker, 3 for both surfers on the
    beach, plus the score of each surfer's finish cell."""
    scores = []
    for p in range(n):
        st = [int(state["status"][2 * p + k]) for k in range(2)]
        sc = 2 if int(state["g"][E.G_FASTEST]) == p else 0
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
        st = new_state()
        _, _, out, win = trace_game_nb(T, st, n, np.uint64(RUN_SEED), game, p.strategy_ids,
                                       p.strategy_params, 4000)
        s = st[0]
        scores = naive_scores(comp.tables, s, n)
        assert list(out[:, C_SCORE]) == scores
        order = naive_order(scores, int(s["g"][E.G_FASTEST]))
        best = order[0]
        assert out[best, C_RANK] == 1 and win[best] > 0
        # the end: nobody left on the sea, the wave over every line
        assert int(s["g"][E.G_WAVE]) == comp.tables.n_lines
        assert all(int(s["status"][w]) in (E.S_BEACH, E.S_WAVE, E.S_TIDE) for w in range(2 * n))
        taken = [int(s["slot"][w]) for w in range(2 * n) if int(s["status"][w]) == E.S_BEACH]
        for k in range(comp.tables.finish_holds.shape[0]):
            if comp.tables.finish_holds[k] == 1:
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
    st[0].g[E.G_WAVE] = 1                            # a surfer left under the wave (and at the start)
    assert check_state_nb(T[0], st[0]) == E.CHK_PLACE
    st = fresh_state(T, 2)
    for who in (0, 2):
        st[0].status[who] = E.S_BEACH
        st[0].slot[who] = 0                          # two in Grand
    st[0].finish[0] = 2
    assert check_state_nb(T[0], st[0]) == E.CHK_FINISH
