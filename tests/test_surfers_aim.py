"""Grand Surfers: the players re-aim at every flick.

A seat aims at the wave cell whose landing chances under its OWN hand give the turn the best
expected worth in the present state. Harms prevented: one aim locked for the whole game, and
a perfect hand that never draws a channel (it always aimed at a pips cell).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers.nb import action_options_nb, new_state
from strategies.surfers import (best_move_nb, channel_value_nb, choose_builtin_nb,
                                kind_values_nb)
from tests.surfers_helpers import (fresh_state, model_start_nb, model_steps_nb, options_buf, put,
                                   sheet_tables)

# 12 lines: column a circles (a chain of upward arrows 4a -> ... -> 8a), column b squares
LONG = "B ==\n" + "\n".join(f"{(k - 1) % 6 + 1} o." for k in range(12, 0, -1))
CHAIN = ["4a>5a", "5a>6a", "6a>7a", "7a>8a"]


def aim_of(T, st, seat, name, keep):
    p = SPEC.prepare(SPEC.load_components(), 2, [name, name], 1)
    opts = options_buf()
    n = 0
    for w in range(E.MAX_WAVE):
        if T[0].wave_kind[w] != E.W_NONE:
            opts[n] = w
            n += 1
    i = choose_builtin_nb(p.strategy_ids[seat], p.strategy_params[seat], T[0], st[0], seat,
                          E.DEC_AIM, opts, n, np.zeros(E.CTX_LEN, np.int64), keep)
    return "U+"[int(opts[i])]


@pytest.mark.parametrize("name", ["racer", "builder"])
def test_players_re_aim_every_flick_a_perfect_hand_aims_at_a_channel_cell_when_an_arrow_pays(name):
    T = sheet_tables(LONG, wave="U+", channels=CHAIN, spread=(0.0,))
    keep = np.zeros(E.KEEP_LEN)                      # one game: the same scratch throughout
    st = fresh_state(T, 2)
    put(T, st, 0, "3a")                              # an arrow 3a -> 4a rides it to 8a
    assert aim_of(T, st, 0, name, keep) == "U"
    st[0].status[0] = E.S_SEA
    st[0].occ[2 * E.MAX_COLS] = -1
    put(T, st, 0, "3b")                              # on a square: no arrow carries it
    assert aim_of(T, st, 0, name, keep) == "+"       # the aim is not locked for the game


def test_a_perfect_hand_draws_channels_in_real_games():
    comp = SPEC.load_components(None, ("flick.spread=[0.0]",))
    p = SPEC.prepare(comp, 2, ["racer", "builder"], 4)
    cols = SPEC.play_chunk(p, 0, 300)
    assert (cols["aim_hits"] == cols["flicks"]).all()
    drawn = (cols["channels_up"] + cols["channels_down"]).reshape(300, 2).sum(axis=0)
    assert (drawn > 0).all(), drawn                  # the locked aim drew none


def mid_game_states(n_states=40, seed=7):
    """States met in real 3-player games (mixed players), a few turns apart."""
    comp = SPEC.load_components()
    T = comp.tables
    p = SPEC.prepare(comp, 3, ["builder", "blocker", "random"], seed)
    out = []
    game = 0
    buf = np.zeros(1, np.int64)
    while len(out) < n_states:
        st = new_state()
        model_start_nb(T, st, 3, np.uint64(seed * 1000 + game))
        while st[0].over == 0 and len(out) < n_states:
            turn = st[0].turn
            model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 1, buf)
            if st[0].turn > turn and st[0].turn % 5 == 0 and st[0].over == 0:
                out.append((st.copy(), int(st[0].seat)))     # the next seat to aim
        game += 1
    return comp, T, p, out


def test_aim_values_each_landing_as_the_action_choice_values_it():
    """kind_values_nb (the aim's fast path) against the slow definition: for every pips, the
    best of the options choose_action_nb weighs, each valued its own way (channel_value_nb for
    every legal arrow, best_move_nb for moves)."""
    comp, T, p, states = mid_game_states()
    t = T[0]
    w = np.diff(np.concatenate([[0.0], t.pip_cum]))
    opts = options_buf()
    d = int(t.pips_change)
    checked_arrows = 0
    for st, seat in states:
        s = st[0]
        prm = p.strategy_params[seat]
        vk = np.zeros(E.N_WAVE_KINDS)
        kind_values_nb(t, s, seat, prm, vk)
        bm = [0.0] + [best_move_nb(t, s, seat, q, prm) for q in range(1, 7)]
        ref = dict.fromkeys(range(E.N_WAVE_KINDS), 0.0)
        again = 0.9 * sum(w[q - 1] * bm[q] for q in range(1, 7))
        for q in range(1, 7):
            ref[E.W_PLAIN] += w[q - 1] * bm[q]
            ref[E.W_HALF] += w[q - 1] * bm[q // 2]
            ref[E.W_PIPS] += w[q - 1] * max([bm[q]] + [bm[q + k] for k in (d, -d) if 1 <= q + k <= 6])
            ref[E.W_REFLICK] += w[q - 1] * max(bm[q], again)
            for kind in (E.W_UP, E.W_DOWN, E.W_EITHER):
                landed = list(t.wave_kind).index(kind)        # a cell of that kind
                n = action_options_nb(t, s, landed, q, 0, opts)
                vals = [bm[q]]
                for code in opts[1:n]:
                    a, b = divmod(int(code) - E.OPT_CHANNEL, E.MAX_CELLS)
                    vals.append(channel_value_nb(t, s, seat, a, b, q, prm))
                    checked_arrows += 1
                ref[kind] += w[q - 1] * max(vals)
        ref[E.W_NONE] = ref[E.W_HALF]
        for k in range(E.N_WAVE_KINDS):
            assert vk[k] == pytest.approx(ref[k], abs=1e-9), (E.WAVE_KIND_NAMES[k], vk, ref)
    assert checked_arrows > 500


def test_aim_kind_sums_the_landing_chances_by_cell_kind():
    T = SPEC.load_components(None, ("flick.spread=[0.3,1.2]",)).tables
    t = T[0]
    for seat in (0, 1):
        for aim in range(E.MAX_WAVE):
            if t.wave_kind[aim] == E.W_NONE:
                continue
            assert t.aim_kind[seat, aim].sum() == pytest.approx(1.0)
            for k in range(1, E.N_WAVE_KINDS):
                cells = [w for w in range(E.MAX_WAVE) if t.wave_kind[w] == k]
                assert t.aim_kind[seat, aim, k] == pytest.approx(t.aim_prob[seat, aim, cells].sum())
