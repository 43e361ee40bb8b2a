"""Sunset Over Water's forward model (model.py): the forward-model contract
(docs/adding-a-game.md), game by game.

Harms prevented:
  * a rule changed by the rewrite (the forward model must play exactly the games of the old
    play loop, seat by seat, column by column, with the same random streams);
  * a copied state that does not have the same future (search players would search a
    different game than the one played);
  * determinize_nb changing what the seat has seen, or not redrawing what it has not;
  * a built-in player peeking: its choice must not change when the hidden information is
    redrawn;
  * a state the rules never should reach going unnoticed (check_state_nb after every step,
    and a checker that can fail: planted corruptions are caught).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from sim.games.sunset import SPEC
from sim.games.sunset import enums as E
from sim.games.sunset import model as M
from sim.games.sunset.nb import new_state
from sim.rng import game_seed_nb
from strategies.sunset import choose_builtin_nb

RUN_SEED = 7


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


@pytest.fixture(scope="module")
def trec(comp):
    return comp.tables


def prepared(comp, n_players, names):
    return SPEC.prepare(comp, n_players, list(names), RUN_SEED)


def model_games(comp, trec, n_players, names, n_games, seed=RUN_SEED):
    """Games played by the platform's loop with check_state_nb after every step:
    (records, first failure (code, game, step))."""
    prep = prepared(comp, n_players, names)
    rec = M.RECORD.empty(n_games * n_players)
    fail = SPEC.kernels().checked_chunk(trec, new_state(), n_players, np.uint64(seed), 0, n_games,
                                        prep.strategy_ids, prep.strategy_params, rec)
    return rec, fail


CASES = [(1, ("random",)), (1, ("greedy",)), (1, ("planner",)),
         (2, ("random",)), (2, ("greedy",)), (2, ("planner",)),
         (3, ("random",)), (3, ("greedy",)), (3, ("planner",)),
         (4, ("random",)), (4, ("greedy",)), (4, ("planner",)),
         (4, ("random", "greedy", "planner", "greedy"))]   # the runs of scripts/sunset_same_logs.sh
CASE_IDS = [f"{n}p-{'-'.join(names)}" for n, names in CASES]


OLD_ENGINE = json.loads((Path(__file__).parent / "data" / "sunset_old_engine_logs.json").read_text())


def column_digest(values, name):
    v = np.asarray(values, np.float64 if name == "win" else np.int64)
    return hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("n_players,names", CASES, ids=CASE_IDS)
def test_forward_model_plays_the_old_engines_games(comp, trec, n_players, names):
    """The fixed runs of scripts/sunset_same_logs.sh (300 games, run seed 7) give, column by
    column, the logs of the engine that had its own play loop (play.py; digests in
    tests/data/sunset_old_engine_logs.json, written from that engine's Parquet logs with
    today's built-in random), and check_state_nb holds after every step of them."""
    key = f"p{n_players}-{names[0] if len(names) == 1 else 'mixed'}"
    want = OLD_ENGINE[key]
    rec, fail = model_games(comp, trec, n_players, names, want["games"])
    assert list(fail) == [0, 0, 0], f"check_state_nb code {fail[0]} in game {fail[1]} at step {fail[2]}"
    assert set(want["columns"]) == set(M.RECORD.names)
    assert [int(x) for x in rec["score"][:12]] == want["first_scores"]
    differ = [name for name in M.RECORD.names if column_digest(rec[name], name) != want["columns"][name]]
    assert not differ, f"columns that differ from the old engine: {differ}"


# ------------------------------------------------------------------------------------------
# stepping through games from Python: copies, determinize, no peeking
# ------------------------------------------------------------------------------------------
class Stepper:
    """One game advanced decision by decision with the model's functions (tables[0], s)."""

    def __init__(self, comp, trec, n_players, names, game):
        self.prep = prepared(comp, n_players, names)
        self.t = trec[0]
        self.st = new_state()
        self.n = n_players
        self.opts = np.zeros(M.MAX_OPTIONS, np.int64)
        self.ctx = np.zeros(M.CTX_LEN, np.int64)
        self.keep = np.zeros(M.KEEP_LEN, np.float64)
        self.trace = np.zeros((0, 6), np.int64)
        self.tn = np.zeros(1, np.int64)
        M.setup_nb(self.t, self.st[0], n_players, np.uint64(game_seed_nb(np.uint64(RUN_SEED), game)),
                   self.trace, self.tn)

    def choose(self, st=None):
        """(option index, keep values) the seat to move chooses on state st (a copy is used:
        a strategy draws from its own stream)."""
        work = (self.st if st is None else st).copy()
        s = work[0]
        seat = int(M.to_move_nb(s))
        n = M.legal_nb(self.t, s, self.opts)
        M.context_nb(self.t, s, self.ctx, self.keep)
        i = choose_builtin_nb(self.prep.strategy_ids[seat], self.prep.strategy_params[seat], self.t, s,
                              seat, M.decision_nb(s), self.opts, n, self.ctx, self.keep)
        return int(i), self.keep[:s["hand_n"][seat]].copy(), int(n)

    def step(self):
        """Let the seat to move choose (on the real state: its stream advances) and apply;
        returns (option, keep values) as applied."""
        s = self.st[0]
        seat = int(M.to_move_nb(s))
        n = M.legal_nb(self.t, s, self.opts)
        M.context_nb(self.t, s, self.ctx, self.keep)
        i = choose_builtin_nb(self.prep.strategy_ids[seat], self.prep.strategy_params[seat], self.t, s,
                              seat, M.decision_nb(s), self.opts, n, self.ctx, self.keep)
        option = int(self.opts[i])
        keep = self.keep.copy()
        M.apply_nb(self.t, s, option, self.keep, self.trace, self.tn)
        return option, keep

    def over(self):
        return bool(M.is_over_nb(self.st[0]))


def observation(trec, s, seat):
    out = np.zeros(M.OBS_LEN, np.int64)
    assert M.observe_nb(trec[0], s, seat, out) == M.OBS_LEN
    return out


def hidden(s, seat):
    n = int(s["n_players"])
    return (s["ldeck"][:s["n_ldeck"]].tolist(), s["cdeck"][:s["n_cdeck"]].tolist(),
            s["gdeck"][:s["n_gdeck"]].tolist(),
            [s["pdeck"][p, :s["pdeck_n"][p]].tolist() for p in range(n) if p != seat],
            [s["popen"][p].tolist() for p in range(n) if p != seat and n > 1],
            [int(s["plan_code"][p]) for p in range(n) if p != seat],
            int(s["streams"][0]))


DET_CASES = [(1, ("planner",)), (2, ("random",)), (3, ("greedy", "planner", "random")),
             (4, ("planner", "greedy", "random", "planner")), (4, ("random",))]


@pytest.mark.parametrize("n_players,names", DET_CASES,
                         ids=[f"{n}p-{'-'.join(x)}" for n, x in DET_CASES])
def test_determinize_keeps_what_the_seat_saw_and_redraws_the_rest(comp, trec, n_players, names):
    """At every decision of a few games, for every seat: the redrawn state shows that seat
    exactly what it saw (observe_nb), is a valid state, and differs in what the seat could
    not see (deck orders, the others' planning cards and pending choices, chance)."""
    changed = 0
    pending_redrawn = 0
    states = 0
    for game in range(6):
        run = Stepper(comp, trec, n_players, names, game)
        while not run.over():
            for seat in range(n_players):
                work = run.st.copy()
                M.determinize_nb(run.t, work[0], seat, np.uint64(1000 + states))
                states += 1
                assert np.array_equal(observation(trec, work[0], seat), observation(trec, run.st[0], seat))
                assert np.array_equal(work[0]["streams"][1:], run.st[0]["streams"][1:])  # the players' own
                assert M.check_state_nb(run.t, work[0]) == 0
                before, after = hidden(run.st[0], seat), hidden(work[0], seat)
                changed += before != after
                pending_redrawn += before[5] != after[5]
            run.step()
    assert changed >= 0.95 * states, (changed, states)
    if n_players > 1:  # pending planning choices of the others are redrawn too
        assert pending_redrawn > 0


@pytest.mark.parametrize("n_players,names", [(1, ("random", )), (1, ("greedy",)), (1, ("planner",)),
                                             (2, ("greedy", "planner")), (3, ("random", "greedy", "planner")),
                                             (4, ("planner", "greedy", "planner", "random"))])
def test_no_builtin_player_peeks(comp, trec, n_players, names):
    """Each built-in's answer (option and keep values) is unchanged when everything its seat
    cannot see is redrawn (three redraws per decision, over whole games)."""
    asked = 0
    for game in range(8):
        run = Stepper(comp, trec, n_players, names, game)
        while not run.over():
            seat = int(M.to_move_nb(run.st[0]))
            answer = run.choose()
            for k in range(3):
                work = run.st.copy()
                M.determinize_nb(run.t, work[0], seat, np.uint64(77 + 3 * asked + k))
                other = run.choose(work)
                assert other[0] == answer[0] and np.array_equal(other[1], answer[1]), (
                    f"{names[seat]} at seat {seat} (decision {M.decision_nb(run.st[0])}) answers "
                    f"{answer[:1]} but {other[:1]} on a redraw of what it cannot see")
            asked += 1
            run.step()
    assert asked > 50 * n_players


def test_a_copied_state_has_the_same_future(comp, trec):
    """Copy a state mid-game (a plain record copy), apply the same options and keep values to
    the copy: it reaches exactly the same final state, trace included."""
    for game in range(5):
        run = Stepper(comp, trec, 4, ("random", "planner", "greedy", "random"), game)
        run.trace, run.tn = np.zeros((3000, 6), np.int64), np.zeros(1, np.int64)
        for _ in range(40 + 7 * game):
            run.step()
        copy = run.st.copy()
        start_tn = int(run.tn[0])
        moves = []
        while not run.over():
            moves.append(run.step())
        trace, tn = np.zeros((3000, 6), np.int64), np.zeros(1, np.int64)
        opts = np.zeros(M.MAX_OPTIONS, np.int64)
        for option, keep in moves:
            assert not M.is_over_nb(copy[0])
            n = M.legal_nb(run.t, copy[0], opts)
            assert option in opts[:n].tolist()
            M.apply_nb(run.t, copy[0], option, keep, trace, tn)
        assert M.is_over_nb(copy[0]) and len(moves) > 10
        for name in E.STATE_DTYPE.names:  # the seats' own streams moved only in the original,
            a, b = copy[0][name], run.st[0][name]  # where the strategies chose
            assert np.array_equal(a[:1], b[:1]) if name == "streams" else np.array_equal(a, b), name
        assert np.array_equal(trace[:tn[0]], run.trace[start_tn:run.tn[0]])


def test_observation_shows_the_table_and_hides_the_rest(comp, trec):
    """observe_nb changes with what the seat can see (a painted card, its own planning hand)
    and not with what it cannot (the deck orders, another seat's planning cards)."""
    run = Stepper(comp, trec, 3, ("greedy",), 2)
    run.step()                                   # seat 0 has chosen its planning card
    s = run.st[0]
    base = [observation(trec, s, seat) for seat in range(3)]
    probe = run.st.copy()
    probe[0]["ldeck"][:5] = probe[0]["ldeck"][4::-1]
    probe[0]["popen"][0] = probe[0]["popen"][0][::-1]   # seat 0's hand (and pending choice)
    probe[0]["plan_code"][0] = (probe[0]["plan_code"][0] + 2) % 6
    for seat in (1, 2):
        assert np.array_equal(observation(trec, probe[0], seat), base[seat])
    assert not np.array_equal(observation(trec, probe[0], 0), base[0])
    probe = run.st.copy()
    probe[0]["hand"][2, 0] = probe[0]["hand"][2, 0] + 1
    probe[0]["hand_n"][2] = max(1, probe[0]["hand_n"][2])
    assert all(not np.array_equal(observation(trec, probe[0], seat), base[seat]) for seat in range(3))


def test_returns_and_evaluate(comp, trec):
    """Finished games: returns are the logged win shares (solo: a value in [0, 1) rising with
    the score); unfinished: evaluate_nb is in [0, 1] and favours the seat ahead."""
    out = np.zeros(E.MAX_PLAYERS)
    for n_players in (2, 3, 4):
        rec, _ = model_games(comp, trec, n_players, ("greedy",), 1)
        run = Stepper(comp, trec, n_players, ("greedy",), 0)
        spread = 0.0
        while not run.over():
            v = [M.evaluate_nb(run.t, run.st[0], p) for p in range(n_players)]
            assert all(0.0 <= x <= 1.0 for x in v)
            spread = max(spread, max(v) - min(v))
            run.step()
        assert spread > 0.2  # the heuristic tells seats apart during the game
        M.returns_nb(run.t, run.st[0], n_players, out)
        assert np.allclose(out[:n_players], rec["win"]) and abs(out[:n_players].sum() - 1) < 1e-12
        # at the end the points banked are the final scores: the top scorer is valued highest
        final = [M.evaluate_nb(run.t, run.st[0], p) for p in range(n_players)]
        assert final[int(np.argmax(rec["score"]))] == max(final)
    scores = []
    for game in range(30):
        run = Stepper(comp, trec, 1, ("planner",), game)
        while not run.over():
            run.step()
        M.returns_nb(run.t, run.st[0], 1, out)
        rec = M.RECORD.empty(1)
        M.record_nb(run.t, run.st[0], 1, 0, rec, 0)
        scores.append((int(rec["score"][0]), float(out[0])))
    scores.sort()
    assert all(0.0 <= v < 1.0 for _, v in scores)
    assert all(a[1] <= b[1] for a, b in zip(scores, scores[1:])) and scores[0][1] < scores[-1][1]


@pytest.mark.parametrize("corrupt,code", [
    ("duplicate_landscape", M.CHECK_LANDSCAPES), ("lost_commission", M.CHECK_COMMISSIONS),
    ("duplicate_goal", M.CHECK_GOALS), ("planning_card_twice", M.CHECK_PLANNING),
    ("artist_off_grid", M.CHECK_BOARD), ("wrong_seat", M.CHECK_PHASE),
    ("hand_overflow", M.CHECK_COUNTS), ("stale_sales", M.CHECK_SALES), ("bent_path", M.CHECK_PATH),
])
def test_state_checker_catches_planted_corruption(comp, trec, corrupt, code):
    """check_state_nb is not a check that cannot fail: each planted break is named."""
    run = Stepper(comp, trec, 3, ("greedy",), 1)
    want = E.DEC_SELL if corrupt == "stale_sales" else E.DEC_PAINT if corrupt == "bent_path" else None
    while want is not None and M.decision_nb(run.st[0]) != want:
        run.step()
    assert M.check_state_nb(run.t, run.st[0]) == 0
    s = run.st[0]
    if corrupt == "duplicate_landscape":
        s["grid"][0] = s["grid"][1]
    elif corrupt == "lost_commission":
        s["crow"][0] = -1
    elif corrupt == "duplicate_goal":
        s["goal"] = s["gdeck"][0]
    elif corrupt == "planning_card_twice":
        s["pdeck"][1, 0] = s["pdeck"][1, 1]
    elif corrupt == "artist_off_grid":
        s["pos"][2] = 25
    elif corrupt == "wrong_seat":
        s["to_move"] = (s["to_move"] + 1) % 3
    elif corrupt == "hand_overflow":
        s["hand_n"][0] = E.MAX_HAND + 1
    elif corrupt == "stale_sales":
        s["sell_opts"][0] = 4 if s["sell_opts"][0] != 4 else 3
    elif corrupt == "bent_path":
        s["n_path"] += 1
    assert M.check_state_nb(run.t, s) == code


def test_observe_shows_every_game_scalar_and_counter(comp, trec):
    """observe_nb lists the named game scalars and per-seat counters by hand: a change in
    any of them shows in what every seat sees."""
    run = Stepper(comp, trec, 3, ("greedy", "planner", "random"), 4)
    for _ in range(25):
        run.step()
    scalars = E.STATE_DTYPE.names[:E.STATE_DTYPE.names.index("grid")]
    counters = ("painted", "sold_landscapes", "steps", "goal_claims")
    seen = observation(trec, run.st[0], 0)
    for name in scalars + counters:
        changed = run.st.copy()
        changed[0][name] = changed[0][name] + 1
        assert not np.array_equal(observation(trec, changed[0], 0), seen), name
