"""Grand Surfers as a forward model (sim/games/surfers/model.py), played by the platform's
harness (sim/harness.py; tests/surfers_helpers.checked_chunk) or stepped by small kernels:

  * no rule changed: the model plays the very games the old play loop logged (the fixed runs
    of scripts/surfers_same_logs.sh, first 30 games of five of them, kept in
    tests/data/surfers_before_logs.npz), column by column; spread/edge by value (x1000 before;
    `broken`, always 0 there, is gone: the harness's checked chunk reports a failure);
    and traces the same events as the old loop's replay of 6 of them (same file);
  * a copied state has the same future: copy mid-game, play on both, same game;
  * determinize_nb keeps everything on the table (observe_nb) and the players' streams, and
    redraws the future (the chance stream);
  * no peeking: every built-in's answer is unchanged when what the seat cannot know is redrawn;
  * the checker holds after every step, and accepts a surfer waiting for its boost on its
    partner's circle (and only there);
  * a boost is decided by the boosted surfer's owner, even in another seat's turn.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers import model as M
from sim.games.surfers.nb import check_state_nb, new_state
from strategies.surfers import CATALOG
from tests.surfers_helpers import (c, fresh_state, model_chunk, model_no_peek_nb,
                                   model_start_nb, model_steps_nb, no_trace, put, sheet_tables,
                                   trace_game, where)

BEFORE = os.path.join(os.path.dirname(__file__), "data", "surfers_before_logs.npz")
# the runs of scripts/surfers_same_logs.sh kept in BEFORE: (players, strategies, --set)
RUNS = {
    "p2-random": (2, ["random"] * 2, ()),
    "p3-rider": (3, ["rider"] * 3, ()),
    "p4-mixed": (4, ["rider", "racer", "blocker", "builder"], ()),
    "p4-guard-standing": (4, ["random", "racer", "blocker", "builder"],
                          ("rules.boost_loop=guard_push", "rules.boost_moves=standing")),
    "p3-guard-tideout": (3, ["random", "builder", "rider"],
                         ("rules.boost_loop=guard_push", "rules.tide_on_move=out",
                          "flick.spread=[0.2,1.0,2.0]")),
}
RENAMED = {"spread_milli": "spread", "edge_milli": "edge"}
DROPPED = {"broken"}


def prepared(run):
    n, names, sets = RUNS[run]
    comp = SPEC.load_components(None, sets)
    return comp, SPEC.prepare(comp, n, names, 7)


@pytest.mark.parametrize("run", sorted(RUNS))
def test_the_model_plays_the_games_the_old_loop_logged(run):
    before = np.load(BEFORE)
    comp, p = prepared(run)
    games = 30
    rec = model_chunk(comp.tables, p.n_players, 7, 0, games, p.strategy_ids,
                      p.strategy_params)                    # checked: every state held
    cols = [k.split("/", 1)[1] for k in before.files if k.startswith(run + "/")]
    assert set(RENAMED.get(x, x) for x in cols) - DROPPED == set(M.RECORD.names)
    for col in cols:
        old = before[f"{run}/{col}"]
        if col in DROPPED:
            assert (old == 0).all()
        elif col in RENAMED:
            new = rec[RENAMED[col]]
            assert np.array_equal(np.round(new * 1000).astype(np.int64), old), col
        else:
            assert np.array_equal(rec[col], old), col


@pytest.mark.parametrize("run", ["p4-guard-standing", "p4-mixed"])
@pytest.mark.parametrize("game", [0, 1, 2])
def test_the_model_traces_the_events_the_old_loop_traced(run, game):
    """The replay's events (turns, flicks, actions, moves, rides, pushes, boosts, folds) in the
    same order as the old loop's trace of the same game (kept in the same file)."""
    before = np.load(BEFORE)
    comp, p = prepared(run)
    tr, _, _ = trace_game(comp.tables, p.n_players, 7, game, p.strategy_ids,
                          p.strategy_params)
    assert np.array_equal(tr, before[f"trace/{run}/{game}"])


def test_the_record_is_typed_floats_as_floats():
    assert M.RECORD.dtype["win"].kind == "f"
    assert M.RECORD.dtype["spread"].kind == "f" and M.RECORD.dtype["edge"].kind == "f"
    assert all(M.RECORD.dtype[n].kind == "i" for n in M.RECORD.names
               if n not in ("win", "spread", "edge"))
    assert M.RECORD.names[:5] == ("game", "seat", "score", "rank", "win")
    assert "illegal" in M.RECORD.names and "choices" in M.RECORD.names


def test_spread_and_edge_carry_their_real_values():
    comp = SPEC.load_components(None, ("flick.spread=[0.25,1.0,0.5]",))
    p = SPEC.prepare(comp, 3, ["racer"], 7)
    rec = model_chunk(comp.tables, 3, 7, 0, 2, p.strategy_ids, p.strategy_params)
    assert list(rec["spread"][:3]) == [0.25, 1.0, 0.5]
    assert list(rec["edge"][:3]) == [0.5, -0.625, 0.125]
    assert list(rec["edge_mask"][:3]) == [1, 4, 1]


@pytest.fixture(scope="module")
def mixed():
    comp = SPEC.load_components()
    return comp.tables, SPEC.prepare(comp, 4, ["random", "racer", "rider", "blocker"], 3)


@pytest.mark.parametrize("game,fraction", [(0, 0.0), (1, 0.3), (2, 0.6), (3, 0.95)])
def test_a_copied_state_has_the_same_future(mixed, game, fraction):
    T, p = mixed
    st = new_state()
    buf = np.zeros(5000, np.int64)
    model_start_nb(T, st, 4, np.uint64(1000 + game))
    length = model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 5000, buf)
    model_start_nb(T, st, 4, np.uint64(1000 + game))
    model_steps_nb(T, st, p.strategy_ids, p.strategy_params, int(fraction * length), buf)
    assert st[0].over == 0
    copy = st.copy()
    a = np.zeros(5000, np.int64)
    b = np.zeros(5000, np.int64)
    na = model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 5000, a)
    nb_ = model_steps_nb(T, copy, p.strategy_ids, p.strategy_params, 5000, b)
    assert na == nb_ and na > 0 and np.array_equal(a[:na], b[:nb_])
    assert st.tobytes() == copy.tobytes() and st[0].over == 1


def mid_game_states(T, p, n_states=60, seed=5):
    """States reached by the mixed players at various points of several games."""
    rng = np.random.default_rng(seed)
    buf = np.zeros(5000, np.int64)
    out = []
    while len(out) < n_states:
        st = new_state()
        model_start_nb(T, st, 4, np.uint64(rng.integers(1 << 40)))
        model_steps_nb(T, st, p.strategy_ids, p.strategy_params, int(rng.integers(0, 120)), buf)
        if st[0].over == 0:
            out.append(st)
    return out


def test_determinize_keeps_the_table_and_redraws_the_future(mixed):
    T, p = mixed
    later_differs = 0
    buf = np.zeros(5000, np.int64)
    for i, st in enumerate(mid_game_states(T, p)):
        seat = int(M.to_move_nb(st[0]))
        d = st.copy()
        M.determinize_nb(T[0], d[0], seat, np.uint64(77 + i))
        for name in E.STATE_DTYPE.names:
            if name != "streams":
                assert np.array_equal(d[0][name], st[0][name]), name
        assert d[0].streams[0] != st[0].streams[0]                 # future flicks and pips
        assert (d[0].streams[1:] == st[0].streams[1:]).all()       # the players' own streams
        seen = np.zeros(M.OBS_LEN, np.int64)
        assert M.observe_nb(T[0], st[0], seat, seen) == M.OBS_LEN
        after = np.zeros(M.OBS_LEN, np.int64)
        M.observe_nb(T[0], d[0], seat, after)
        assert np.array_equal(seen, after)
        assert M.check_state_nb(T[0], d[0]) == 0
        again = st.copy()
        M.determinize_nb(T[0], again[0], seat, np.uint64(77 + i))
        assert again.tobytes() == d.tobytes()                      # the seed decides it
        model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 5000, buf)
        model_steps_nb(T, d, p.strategy_ids, p.strategy_params, 5000, buf)
        later_differs += st.tobytes() != d.tobytes()
        M.observe_nb(T[0], st[0], seat, after)
        assert not np.array_equal(seen, after)                     # it sees the table move
    assert later_differs >= 50     # a redrawn future plays out differently (almost always)


def test_no_built_in_peeks_at_what_its_seat_cannot_know(mixed):
    T, p = mixed
    comp = SPEC.load_components()
    all_sids = np.array([x["id"] for x in CATALOG], np.int64)
    all_params = np.vstack([SPEC.prepare(comp, 2, [x["name"]] * 2, 1).strategy_params[0]
                            for x in CATALOG])
    asked, changed = model_no_peek_nb(T, new_state(), 4, np.uint64(11), 20, p.strategy_ids,
                                      p.strategy_params, all_sids, all_params, np.uint64(5))
    assert asked > 5000
    assert changed == 0


def test_the_checker_accepts_a_surfer_waiting_for_its_boost_only_on_its_partners_circle():
    T = sheet_tables("B ===\n4 ooo\n3 ooo\n2 ooo\n1 ooo\n")
    st = fresh_state(T, 2)
    put(T, st, 1, "2a")
    tr, tn = no_trace()
    from sim.games.surfers.nb import apply_move_nb
    cand = apply_move_nb(T[0], st[0], 0, 0, 2, tr, tn)       # surfer 0 stops on 2a: a boost
    assert cand == 0
    s = st[0]
    s.phase = E.DEC_BOOST
    s.boost_surfer = 0
    assert M.check_state_nb(T[0], s) == 0
    assert check_state_nb(T[0], s) == E.CHK_CIRCLE            # two surfers on a circle...
    s.boost_surfer = 1
    assert M.check_state_nb(T[0], s) == E.CHK_CIRCLE          # ...only the boosted one may
    s.boost_surfer = 0
    s.occ[c("2a")] = -1                                       # the partner must hold it
    assert M.check_state_nb(T[0], s) == E.CHK_CIRCLE


def test_a_channel_that_carries_an_opponent_onto_its_partner_asks_that_opponent_to_boost():
    # seat 0 lands on an 'U' cell with pips 2 and draws 2a -> 3a under seat 1's surfer (id 2),
    # whose partner (id 3) holds 3a: surfer 2 rides onto 3a and seat 1 decides its boost
    T = sheet_tables("B ===\n4 ooo\n3 ooo\n2 ooo\n1 ooo\n", wave="U")
    st = new_state()
    model_start_nb(T, st, 2, np.uint64(1))
    put(T, st, 2, "2a")
    put(T, st, 3, "3a")
    put(T, st, 0, "1c")
    s = st[0]
    assert (M.decision_nb(s), M.to_move_nb(s)) == (E.DEC_AIM, 0)
    s.phase = E.DEC_ACTION     # as if the flick had landed on the 'U' cell, pips 2
    s.landed = 0
    s.pips = 2
    opts = np.zeros(E.MAX_OPTIONS, np.int64)
    n = M.legal_nb(T[0], s, opts)
    code = E.OPT_CHANNEL + c("2a") * E.MAX_CELLS + c("3a")
    assert code in opts[:n]
    tr, tn = no_trace()
    keep = np.zeros(E.KEEP_LEN)
    M.apply_nb(T[0], s, code, keep, tr, tn)
    assert (M.decision_nb(s), M.to_move_nb(s)) == (E.DEC_BOOST, 1)
    assert M.check_state_nb(T[0], s) == 0
    n = M.legal_nb(T[0], s, opts)
    assert list(opts[:n]) == [1, 2]
    M.apply_nb(T[0], s, 2, keep, tr, tn)                      # seat 1 boosts it 2 cells
    assert where(st, 2) == "beach:0"
    # back to seat 0's turn: its move of 2 cells
    assert (M.decision_nb(s), M.to_move_nb(s)) == (E.DEC_MOVE, 0)
    assert s.ctx[E.CTX_STEPS] == 2


def test_returns_share_the_win_and_evaluate_favours_the_leader(mixed):
    T, p = mixed
    rec = model_chunk(T, 4, 3, 0, 40, p.strategy_ids, p.strategy_params)
    assert np.allclose(rec["win"].reshape(40, 4).sum(axis=1), 1.0)
    st = new_state()
    model_start_nb(T, st, 4, np.uint64(9))
    buf = np.zeros(5000, np.int64)
    model_steps_nb(T, st, p.strategy_ids, p.strategy_params, 5000, buf)
    out = np.zeros(E.MAX_PLAYERS)
    M.returns_nb(T[0], st[0], 4, out)
    assert abs(out.sum() - 1.0) < 1e-12
    # mid-game: a seat with both surfers on the beach and the marker is far ahead
    st = new_state()
    model_start_nb(T, st, 2, np.uint64(9))
    s = st[0]
    for who, slot in ((0, 0), (1, 1)):
        s.status[who] = E.S_BEACH
        s.slot[who] = slot
        s.finish[slot] = who
    s.fastest = 0
    v0, v1 = M.evaluate_nb(T[0], s, 0), M.evaluate_nb(T[0], s, 1)
    assert 0.0 <= v1 < 0.5 < v0 <= 1.0


def test_set_up_leaves_nothing_of_an_earlier_game(mixed):
    """Every named field is set by the set-up: a state buffer full of an earlier game's
    leftovers (here: every byte 0x5a) starts the same game as a fresh one."""
    T, _ = mixed
    fresh = new_state()
    used = new_state()
    used.view(np.uint8)[:] = 0x5A
    model_start_nb(T, fresh, 3, np.uint64(11))
    model_start_nb(T, used, 3, np.uint64(11))
    for name in E.STATE_DTYPE.names:
        assert np.array_equal(fresh[0][name], used[0][name]), name


def test_observe_shows_every_field_but_the_random_streams(mixed):
    """observe_nb lists the fields by hand: a change in any field but `streams` shows."""
    T, p = mixed
    st = mid_game_states(T, p, n_states=1)[0]
    seen = np.zeros(M.OBS_LEN, np.int64)
    M.observe_nb(T[0], st[0], 0, seen)
    for name in E.STATE_DTYPE.names:
        changed = st.copy()
        changed[0][name] = changed[0][name] + 1
        after = np.zeros(M.OBS_LEN, np.int64)
        assert M.observe_nb(T[0], changed[0], 0, after) == M.OBS_LEN
        assert np.array_equal(seen, after) == (name == "streams"), name
