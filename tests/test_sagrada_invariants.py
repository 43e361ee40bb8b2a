"""Sagrada: invariants of whole games.

  * Thousands of games for 1-4 players with random, greedy and planner players, played by the
    forward model's loop with its checks on (checked_records): after every applied decision
    model.check_state_nb (nb.check_state_nb and the phase checks) verifies that the 90 dice are conserved colour by colour across bag,
    pool, windows, round track, spent (solo) and held dice; that every window die meets its
    cell's restrictions (or the tool exemption it was moved with); that no orthogonal
    neighbours share a colour or value; that the masks agree with the window; that favor
    tokens are >= 0 and all spent tokens lie on the tool cards.
  * A sample of games replayed with their final state: the window legality, the dice count
    and every score component recomputed by the naive rules (tests/naive_sagrada.py);
    rounds all played; the ranking follows the three-step tie-break.
  * check_state_nb itself catches each kind of broken state.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.sagrada import SPEC
from sim.games.sagrada import enums as E
from sim.games.sagrada.nb import check_state_nb
from tests import naive_sagrada as nv
from tests.sagrada_helpers import checked_records, fresh_state, set_pool, set_window, traced_game

PTS = ("pts_public_1", "pts_public_2", "pts_public_3", "pts_private", "pts_favor", "pts_empty")

RUN_SEED = 424242


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


@pytest.fixture(scope="module")
def T(comp):
    return E.pack_tables(comp.tables)


def prep(comp, names, n):
    return SPEC.prepare(comp, n, list(names), RUN_SEED)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("names,games", [(["random"], 2500), (["greedy"], 600), (["planner", "greedy", "random", "planner"], 300)])
def test_every_step_keeps_the_invariants(comp, T, n, names, games):
    p = prep(comp, names[:n] if len(names) > 1 else names, n)
    rec, broken = checked_records(T, n, RUN_SEED, 0, games, p.strategy_ids, p.strategy_params)
    assert broken == 0
    assert (rec["illegal"] == 0).all()
    if n > 1:
        assert np.allclose(rec["win"].reshape(games, n).sum(axis=1), 1.0)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_final_states_recompute_with_the_naive_rules(comp, T, n):
    names = ["random", "planner", "greedy", "random"][:n]
    p = prep(comp, names, n)
    t = comp.tables[0]
    data = comp.data
    for game in range(60):
        _, out, st = traced_game(T, n, RUN_SEED, game, p.strategy_ids, p.strategy_params, 4000)
        win = out["win"]
        s = st[0]
        assert s["over"] == 1 and s["round"] == 10
        # dice: 18 of each colour somewhere
        counts = np.zeros(5, np.int64)
        for arr, k in ((s["bag"], "n_bag"), (s["track_colour"], "n_track"),
                       (s["spent_colour"], "n_spent")):
            counts += np.bincount(arr[:s[k]], minlength=5)
        assert s["n_pool"] == 0 and s["held_colour"] == -1
        for q in range(n):
            w = nv.window_from_state(s, q)
            counts += np.bincount([d[0] for d in w if d], minlength=5)
            assert nv.window_ok(w, nv.restr_from_state(s, q), list(s["win_exempt"][q]))
            # score components
            pubs = []
            for k in range(3):
                o = int(s["public"][k])
                if o < 0:
                    pubs.append(0)
                    continue
                d = data["public"][o]
                pubs.append(nv.public_points(d["kind"], w, d["points"], d.get("values") or (),
                                             [E.COLOUR_NAMES.index(c) for c in d.get("colours") or ()]))
            priv = max(nv.private_points(w, int(t.private_colour[int(c)])) for c in s["priv"][q] if c >= 0)
            empty = sum(1 for d in w if d is None)
            penalty = 3 if n == 1 else 1
            tokens = int(s["tokens"][q])
            expect = pubs + [priv, tokens, -penalty * empty]
            assert [int(out[q][c]) for c in PTS] == expect
            assert out[q]["score"] == sum(expect)
            if n == 1:
                assert tokens == 0
                target = int(s["track_value"][:s["n_track"]].sum())
                assert out[q]["target"] == target and win[q] == (1.0 if sum(expect) > target else 0.0)
        assert list(counts) == [18] * 5
        if n > 1:
            # ranking: score, private, tokens, later seat in the last round's order
            last_start = (int(s["first_start_player"]) + 9) % n
            key = lambda q: (out[q]["score"], out[q]["pts_private"], int(s["tokens"][q]),
                             (q - last_start) % n)
            order = sorted(range(n), key=key, reverse=True)
            assert [int(out[q]["rank"]) for q in order] == list(range(1, n + 1))
            assert win[order[0]] == 1.0


def take_from_bag(st, colour_letters):
    """Remove dice of these colours from the bag (they are about to be put in a window)."""
    for ch in colour_letters:
        c = E.COLOUR_LETTERS.index(ch)
        n = int(st[0]["n_bag"])
        i = int(np.where(st[0]["bag"][:n] == c)[0][0])
        st[0]["bag"][i], st[0]["bag"][n - 1] = st[0]["bag"][n - 1], st[0]["bag"][i]
        st[0]["n_bag"] = n - 1


def test_the_checker_catches_broken_states(comp, T):
    st = fresh_state(T, 2)
    assert check_state_nb(T[0], st[0]) == 0
    st[0]["n_bag"] -= 1                       # a die vanished
    assert check_state_nb(T[0], st[0]) == E.CHK_DICE
    st = fresh_state(T, 2)
    take_from_bag(st, "RR")
    set_window(st, 0, ["R3 R4 .. .. ..", *[".. .. .. .. .."] * 3])   # same colour side by side
    assert check_state_nb(T[0], st[0]) == E.CHK_NEIGHBOUR
    st = fresh_state(T, 2)
    take_from_bag(st, "R")
    st[0]["restr_colour"][0, 0] = E.COLOUR_LETTERS.index("G")
    set_window(st, 0, ["R3 .. .. .. ..", *[".. .. .. .. .."] * 3])   # red on a green space
    assert check_state_nb(T[0], st[0]) == E.CHK_WINDOW
    st[0]["win_exempt"][0, 0] = E.M_IGNORE_COLOUR                    # moved by Eglomise Brush
    assert check_state_nb(T[0], st[0]) == 0
    st[0]["tokens"][1] -= 1                                          # a token vanished
    assert check_state_nb(T[0], st[0]) == E.CHK_TOKENS
