"""Benchmark of the search players (strategies/search.py), one worker, per game on the
forward-model template:

  1. the chunk loop: games of `random` in every seat played by the harness (spec.play_chunk),
     seconds per decision (decisions counted on the same games by the harness's rollout);
  2. rollouts from mid-game copies (the playout kernel the search uses, `random` in every
     seat): rollouts per second and seconds per decision, with and without the
     determinization each search rollout starts with; the ratio to the chunk loop's cost
     per decision;
  3. mcts cost per decision at 100 and 1,000 iterations (mean over mid-game decisions).

Usage: python scripts/bench_search.py [--game sunset --game toy ...] [--players 2]
           [--games 2000] [--states 40] [--rollouts 200] [--json out.json]
`toy` is the tests' template game (tests/toygame.py). Default: every registered game on the
template. Figures depend on the machine and its load: say so when quoting them.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _spec(name):
    from sim import registry
    if name == "toy":
        from tests.toygame import SPEC
        registry.register(SPEC)
    return registry.get_game(name)


def _step_random(spec, tables, s, n):
    """Play n decisions of `random` on s (Python loop over the compiled pieces)."""
    model = spec.model()
    choose = spec.choose_builtin()
    opts = np.zeros(model.MAX_OPTIONS, np.int64)
    ctx = np.zeros(max(model.CTX_LEN, 1), np.int64)
    keep = np.zeros(max(model.KEEP_LEN, 1), np.float64)
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    params = np.zeros(64)
    for _ in range(n):
        if model.is_over_nb(s):
            return
        p = model.to_move_nb(s)
        d = model.decision_nb(s)
        k = model.legal_nb(tables, s, opts)
        model.context_nb(tables, s, ctx, keep)
        i = choose(0, params, tables, s, p, d, opts, k, ctx, keep)
        model.apply_nb(tables, s, opts[i if 0 <= i < k else 0], keep, trace, tn)


def _bench_chunk_loop(spec, model, tables, prep, players, games, seed) -> tuple:
    """Part 1: seconds of `games` games of the chunk loop (warmed up on 2 games first), and
    the decisions of the same games counted by the harness's rollout, in total and per game
    (the per-game counts say how far to play the mid-game states)."""
    from sim.rng import game_seed_nb
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    sids = np.asarray(prep.strategy_ids, np.int64)
    params = np.ascontiguousarray(prep.strategy_params, np.float64)
    k = spec.kernels()
    spec.play_chunk(prep, 0, 2)
    t0 = time.perf_counter()
    spec.play_chunk(prep, 0, games)
    chunk_secs = time.perf_counter() - t0
    st = spec.new_state()
    out = np.zeros(64)
    decisions, lengths = 0, []
    for g in range(games):
        model.setup_nb(tables, st[0], players, np.uint64(game_seed_nb(np.uint64(seed), g)), trace, tn)
        n = k.rollout(tables, st[0], players, sids, params, out)
        decisions += n
        lengths.append(n)
    return chunk_secs, decisions, lengths


def _mid_game_states(spec, model, tables, players, lengths, n_states, seed) -> list:
    """Each of the first `n_states` games played halfway by `random`: the states a search
    decides from (games already over are left out)."""
    from sim.rng import game_seed_nb
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    states = []
    for g in range(n_states):
        st = spec.new_state()
        model.setup_nb(tables, st[0], players, np.uint64(game_seed_nb(np.uint64(seed), g)), trace, tn)
        _step_random(spec, tables, st[0], lengths[g] // 2)
        if not model.is_over_nb(st[0]):
            states.append(st)
    return states


def _bench_rollouts(spec, model, tables, states, players, rid, rparams, n_rollouts,
                    chunk_per_dec, res) -> None:
    """Part 2: `n_rollouts` playouts from each mid-game state, without and with the
    determinization each search rollout starts with (warmed up first), into `res`."""
    from strategies import search
    bench = search.bench_kernel(spec.name, model, spec.choose_builtin())
    wins = np.zeros(64)
    for det in (False, True):
        s0 = states[0][0]
        bench(tables, s0, model.to_move_nb(s0), players, rid, rparams, 2, 1, det, wins)
        steps, t0 = 0, time.perf_counter()
        for j, st in enumerate(states):
            s = st[0]
            steps += bench(tables, s, model.to_move_nb(s), players, rid, rparams, n_rollouts,
                           1000 + j, det, wins)
        secs = time.perf_counter() - t0
        tag = "determinized" if det else "plain"
        res[f"rollouts_per_s_{tag}"] = len(states) * n_rollouts / secs
        res[f"rollout_s_per_decision_{tag}"] = secs / max(steps, 1)
        res[f"rollout_vs_chunk_per_decision_{tag}"] = (secs / max(steps, 1)) / chunk_per_dec


def _bench_mcts(spec, model, tables, states, row, res) -> None:
    """Part 3: mcts seconds per decision at 100 iterations (every state) and 1,000 (a
    quarter of them), decisions with one legal option left out, the first call outside the
    timing (it compiles or loads the kernel); into `res`."""
    from strategies import search
    choose = search.build_search(spec.name, model, spec.choose_builtin())
    opts = np.zeros(model.MAX_OPTIONS, np.int64)
    ctx = np.zeros(max(model.CTX_LEN, 1), np.int64)
    keep = np.zeros(max(model.KEEP_LEN, 1), np.float64)
    for iters, n_dec in ((100, len(states)), (1000, max(1, len(states) // 4))):
        row[search.P_BUDGET] = iters
        secs, counted = 0.0, 0
        for st in states[:n_dec]:
            s = st.copy()[0]
            p = model.to_move_nb(s)
            d = model.decision_nb(s)
            n = model.legal_nb(tables, s, opts)
            model.context_nb(tables, s, ctx, keep)
            if n < 2:
                continue
            if counted == 0:
                choose(search.MCTS, row, tables, st.copy()[0], p, d, opts, n, ctx, keep)
            t0 = time.perf_counter()
            choose(search.MCTS, row, tables, s, p, d, opts, n, ctx, keep)
            secs += time.perf_counter() - t0
            counted += 1
        res[f"mcts_{iters}_s_per_decision"] = secs / max(counted, 1)
        res[f"mcts_{iters}_decisions"] = counted


def bench_game(name, players, games, n_states, n_rollouts, seed=1) -> dict:
    """The three measurements of one game (the module's docstring) as a dict of figures, or
    {"game", "skipped"} for a game not on the forward-model template."""
    from strategies import search

    spec = _spec(name)
    model = spec.model()
    if model is None:
        return {"game": name, "skipped": "not on the forward-model template"}
    comp = spec.load_components()
    tables = spec.pack_tables(comp)[0]
    prep = spec.prepare(comp, players, ["random"], seed)
    chunk_secs, decisions, lengths = _bench_chunk_loop(spec, model, tables, prep, players,
                                                       games, seed)
    chunk_per_dec = chunk_secs / decisions
    states = _mid_game_states(spec, model, tables, players, lengths, n_states, seed)
    # the rollout policy: the generic search entries' default (flatmc's `rollout`)
    rid = int(search.search_catalog()[0]["params"][1][1])
    mprep = spec.prepare(comp, players, ["mcts"], seed)
    row = np.ascontiguousarray(mprep.strategy_params[0], np.float64)
    rparams = row[search.P_ROLL_PARAMS:].copy()
    res = {"game": spec.name, "players": players, "chunk_games": games,
           "chunk_decisions": decisions, "chunk_s_per_decision": chunk_per_dec,
           "chunk_games_per_s": games / chunk_secs}
    _bench_rollouts(spec, model, tables, states, players, rid, rparams, n_rollouts,
                    chunk_per_dec, res)
    _bench_mcts(spec, model, tables, states, row, res)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", default=[])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--states", type=int, default=40)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    names = args.game
    if not names:
        from sim.registry import list_games
        names = [g.name for g in list_games() if getattr(g, "model", lambda: None)() is not None]
    results = []
    for name in names:
        r = bench_game(name, args.players, args.games, args.states, args.rollouts)
        results.append(r)
        if "skipped" in r:
            print(f"{name}: skipped ({r['skipped']})")
            continue
        print(f"{r['game']} ({r['players']} players, 1 worker):")
        print(f"  chunk loop (random): {r['chunk_games_per_s']:,.0f} games/s, "
              f"{1e6 * r['chunk_s_per_decision']:.2f} us per decision "
              f"({r['chunk_decisions'] / r['chunk_games']:.1f} decisions per game)")
        for tag in ("plain", "determinized"):
            print(f"  rollouts from mid-game copies ({tag}): "
                  f"{r[f'rollouts_per_s_{tag}']:,.0f} rollouts/s, "
                  f"{1e6 * r[f'rollout_s_per_decision_{tag}']:.2f} us per decision "
                  f"({r[f'rollout_vs_chunk_per_decision_{tag}']:.2f} x the chunk loop's)")
        for iters in (100, 1000):
            print(f"  mcts {iters:>5} iterations: "
                  f"{1e3 * r[f'mcts_{iters}_s_per_decision']:.2f} ms per decision "
                  f"(mean of {r[f'mcts_{iters}_decisions']} mid-game decisions)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
