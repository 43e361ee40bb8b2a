"""Strong players by default (issue 21): each game's own defaults of `mcts` / `flatmc`
(GameSpec.search_defaults), the generic ones as `mcts-generic` / `flatmc-generic`, the
declared measurements, the ladder on the shipped mcts, the chunk size of search runs, and
card coverage. Everything here reads catalogs or plays the toy game, except the one strength
check of a shipped mcts, Lowlands' (a few seconds once compiled); the other games' checks
need hundreds of games: scripts/check_search_defaults.py (docs/search-players.md)."""
from __future__ import annotations

import math
import os
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from sim.stats import wilson_interval
from sim import registry
from sim.game_api import Measured, SearchDefault
from strategies import search
from strategies.registry import resolve_strategies

GAMES = [g.name for g in registry.list_games() if g.model() is not None]
DECLARING = [g for g in GAMES if registry.get_game(g).search_defaults]


def entry(spec, name):
    return next(e for e in spec.strategy_catalog() if e["name"] == name)


def test_sagrada_and_lowlands_declare_both_players_and_every_game_its_mcts():
    assert {"sagrada", "lowlands", "sunset", "surfers"} <= set(DECLARING)
    for game in ("sagrada", "lowlands"):
        assert set(registry.get_game(game).search_defaults) == {"mcts", "flatmc"}
    for game in DECLARING:
        assert "mcts" in registry.get_game(game).search_defaults


@pytest.mark.parametrize("game", DECLARING)
def test_shipped_players_play_the_declared_parameters(game):
    """`mcts` / `flatmc` resolve to the declared values (the rollout policy by name), the
    generic defaults stay reachable under `-generic`, with the same search id."""
    spec = registry.get_game(game)
    catalog = spec.strategy_catalog()
    plain = {e["name"]: int(e["id"]) for e in catalog if not e.get("search")}
    generic = {e["name"]: e for e in search.search_catalog(plain.get("random", 0))}
    for player, declared in spec.search_defaults.items():
        ids, params, info, _ = resolve_strategies(catalog, [player, f"{player}-generic"], 2)
        assert ids[0] == ids[1] == entry(spec, player)["id"]
        names = [p[0] for p in generic[player]["params"]]
        for k, pname in enumerate(names):
            want = declared.params.get(pname, generic[player]["params"][k][1])
            if isinstance(want, str):
                want = plain[want]
            assert params[0, k] == pytest.approx(float(want)), (player, pname)
            assert params[1, k] == pytest.approx(generic[player]["params"][k][1]), pname
        assert info[0]["params"] != info[1]["params"]


@pytest.mark.parametrize("game", DECLARING)
def test_declared_measurements_show_the_player_stronger(game):
    """Every measurement declared for a shipped search player shows it stronger than its
    opponent beyond the 95% Wilson interval (fair share 1/players), at 2 players at least, with
    a time per game and a date; a declaration that does not support "beats" fails here."""
    for player, declared in registry.get_game(game).search_defaults.items():
        assert isinstance(declared, SearchDefault) and declared.measured, player
        assert any(m.players == 2 for m in declared.measured), player
        for m in declared.measured:
            assert isinstance(m, Measured)
            lo, _ = wilson_interval(m.wins, m.games)
            assert lo > 1.0 / m.players, (player, m)
            assert m.seconds_per_game > 0 and len(m.date) == 10 and m.command, m


def test_a_wrong_declaration_is_refused():
    spec = registry.get_game("sagrada")

    class Bad(type(spec)):
        search_defaults = {"mcts": SearchDefault(params={"iterationz": 5})}
    with pytest.raises(ValueError, match="iterationz"):
        Bad().strategy_catalog()

    class BadRollout(type(spec)):
        search_defaults = {"flatmc": SearchDefault(params={"rollout": "nobody"})}
    with pytest.raises(ValueError, match="nobody"):
        BadRollout().strategy_catalog()


def test_strategies_listing_shows_the_game_defaults_and_the_time_per_game(capsys):
    from scripts.cli import main
    assert main(["strategies", "sagrada"]) == 0
    text = capsys.readouterr().out
    for words in ("iterations = 96", "worlds = 32", "rollouts = 32", "mcts-generic",
                  "flatmc-generic", "iterations = 200", "the game's own (Sagrada",
                  "65.50% (131 wins of 200 games) against planner at 2 players",
                  "1.4 s a game on 1 worker (2026-11-30"):
        assert words in text, words


# --- the ladder plays the shipped mcts ----------------------------------------------------
def test_ladder_levels_are_the_shipped_mcts():
    from sim.api.ladders import shipped_mcts, variants_text
    from strategies.registry import load_variants
    spec = registry.get_game("sagrada")
    shipped = shipped_mcts(spec)
    assert shipped["iterations"] == 96 and shipped["rollout"] == "planner"
    text = variants_text([96, 300], shipped)
    assert '[variants."mcts-96"]' in text and "worlds = 32" in text
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as fh:
        fh.write(text)
    catalog = spec.strategy_catalog()
    _, rows, _, _ = resolve_strategies(catalog, ["mcts-96", "mcts"], 2, fh.name)
    assert np.array_equal(rows[0], rows[1])      # level mcts-96 is `mcts` exactly
    _, rows, _, _ = resolve_strategies(catalog, ["mcts-300"], 2, fh.name)
    assert rows[0, search.P_BUDGET] == 300 and rows[0, search.P_WORLDS] == 32
    assert load_variants(fh.name, catalog)["mcts-300"]["base"] == "mcts"


# --- chunks of search runs ---------------------------------------------------------------
def test_search_runs_get_small_chunks_from_their_cost():
    from sim.runner import DEFAULT_CHUNKS, default_chunk_size
    assert default_chunk_size(160) == 500                   # built-ins: as before
    assert default_chunk_size(100_000) == 3125
    for secs in (0.3, 1.4, 8.1):
        c = default_chunk_size(160, secs)
        assert 1 <= c <= math.ceil(160 / DEFAULT_CHUNKS)         # every worker gets work
        assert c == 1 or c * secs <= 5.0                         # chunks of ~5 s at most
    assert default_chunk_size(10_000, 1.4) == 3                  # ~5 s a chunk
    spec = registry.get_game("sagrada")
    comp = spec.load_components(None)
    fast = spec.prepare(comp, 2, ["planner", "greedy"], 1)
    slow2 = spec.prepare(comp, 2, ["mcts", "planner"], 1)
    slow4 = spec.prepare(comp, 4, ["mcts", "planner", "planner", "planner"], 1)
    assert spec.estimated_seconds_per_game(fast) is None
    assert spec.estimated_seconds_per_game(slow2) == pytest.approx(1.4)   # as measured
    assert spec.estimated_seconds_per_game(slow4) == pytest.approx(2.9)
    twice = spec.prepare(comp, 2, ["mcts", "mcts"], 1)                    # two search seats
    assert spec.estimated_seconds_per_game(twice) == pytest.approx(2.8)


@pytest.fixture
def template_toy(toy_registry):
    assert toy_registry.model() is not None
    return toy_registry


def test_a_search_run_uses_every_worker_and_logs_the_same_games(template_toy, tmp_path):
    """A toy run with a search seat: the default chunking (from its cost) gives several
    chunks, so two workers share them, and the logs are those of one worker with one chunk."""
    from sim import runner
    spec = template_toy
    prepared = spec.prepare(spec.load_components(None), 2, ["mcts", "random"], 5)
    plan = runner.plan_run(prepared, 40, str(tmp_path / "plan"),
                           seconds_per_game=runner.seconds_per_game(spec, prepared))
    assert plan.chunk_size < 40 and len(plan.chunks) >= 2
    runner.run(spec, prepared, 40, str(tmp_path / "w2"), workers=2, progress=False)
    runner.run(spec, prepared, 40, str(tmp_path / "w1"), workers=1, chunk_size=40,
               progress=False)
    a, b = (runner.read_logs(str(tmp_path / d)) for d in ("w2", "w1"))
    cols = [c for c in a.columns if c != "run_id"]
    assert a[cols].equals(b[cols])
    manifest = runner.read_manifest(str(tmp_path / "w2"))
    assert manifest["timings"]["workers"] == 2 and manifest["n_chunks"] >= 2
    assert manifest["timings"]["games_per_second"] > 0


def test_rates_are_never_shown_as_zero():
    from sim.formatting import rate, workers
    assert rate(0.31) == "0.31" and rate(12331.4) == "12,331" and rate(45.27) == "45.3"
    assert workers(1) == "1 worker" and workers(2) == "2 workers"


# --- card coverage -------------------------------------------------------------------------
def test_coverage_counts_the_cards_each_strategy_ever_took():
    from analysis.coverage import coverage_table
    from analysis.tables import aggregate_frame
    meta = {"cards": [{"type": "tile", "label": "Tiles", "names": ["a", "b", "c", "d"],
                       "values": [1, 2, 3, 4], "mask_column": "tiles_mask", "unit": "points",
                       "kind": "card", "day_columns": [], "time_unit": "round",
                       "value_path": None}],
            "score_components": [], "length_column": None, "length_unit": "",
            "end_reason_names": []}
    # 3 games, 2 seats: x takes a (game 0) and c (game 2); y takes a and b; d is never taken
    logs = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
                         "strategy": ["x", "y", "y", "x", "x", "y"],
                         "score": [1, 2, 3, 4, 5, 6], "win": [0, 1, 0, 1, 0, 1],
                         "rank": [2, 1, 2, 1, 2, 1],
                         "tiles_mask": [0b0001, 0b0011, 0, 0, 0b0100, 0]})
    t = coverage_table(aggregate_frame(logs, meta)).set_index("strategy")
    assert t.loc["x", "taken"] == 2 and t.loc["x", "coverage"] == 0.5
    assert t.loc["x", "never"] == "b; d" and t.loc["x", "seat_games"] == 3
    assert t.loc["y", "taken"] == 2 and t.loc["y", "never"] == "c; d"


# --- the shipped mcts beats the planner (cheap enough for the suite: Lowlands only) ---------
def test_lowlands_default_mcts_beats_the_planner_at_two_players(tmp_path):
    """12 games (6 deals, each under both seatings), one mcts seat against the planner: a
    one-sided exact binomial test of "wins at most half" must reject at 1% (11 or 12 wins;
    the declared measurement, 39 of 40, expects 11.7). The other games' shipped players beat
    their planner by 15-25 points, which takes hundreds of games to show:
    scripts/check_search_defaults.py."""
    from sim.api import run
    r = run("lowlands", players=2, strategies=["mcts", "planner"], games=12, seed=21,
            rotate_seats=True, out=str(tmp_path / "duel"), workers=1)
    logs = r.logs
    wins = float(logs.loc[logs["strategy"] == "mcts", "win"].sum())
    games = int(logs["game"].nunique())
    assert games == 12
    p = binom.sf(math.floor(wins) - 1, games, 0.5)      # P(X >= wins | p = 1/2), ties down
    assert p < 0.01, (wins, games, p)


# --- Ctrl-C stops a search run within 2 seconds ----------------------------------------------
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_search_run_within_two_seconds(tmp_path, workers):
    """A Sunset mcts run (each chunk a few games of seconds each) interrupted in the middle of
    a chunk: the search kernels release the GIL (1 worker: the chunk plays in a thread and
    the main thread takes the signal) and the workers are killed (2 workers)."""
    import signal
    import subprocess
    import time

    from tests.test_processes_limits import ROOT, _children, _running
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scripts.cli", "run", "sunset", "--players", "2", "--strategies",
         "mcts,planner", "--games", "200", "--workers", str(workers), "--no-progress",
         "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids = []
    try:
        deadline = time.time() + 1800      # a cold compile of the engine first
        chunks = out / "chunks"
        while not (chunks.is_dir() and any(f.suffix == ".parquet" for f in chunks.iterdir())):
            assert proc.poll() is None, proc.communicate()
            assert time.time() < deadline, "no chunk was written"
            time.sleep(0.2)
        time.sleep(1.0)                    # inside the next chunks' games (4 games, ~5 s each)
        kids = [k for c in _children(proc.pid) for k in [c, *_children(c)]]
        t0 = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        took = time.time() - t0
        time.sleep(0.5)
        assert [k for k in kids if _running(k)] == [], "a process plays on after the parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for k in kids:
            if _running(k):
                os.kill(k, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert took < 2.0, took


def test_coverage_command_plays_each_builtin_or_reads_a_run(in_tmp, capsys):
    """`balance strategies sunset --coverage`: each built-in in every seat (a few games), one
    row per built-in and card type; `--run DIR` reads a run's strategies; mistakes are one
    line."""
    from scripts.cli import main
    from sim.api import coverage
    assert main(["strategies", "sunset", "--coverage", "--players", "2", "--games", "20",
                 "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "Card coverage: Sunset Over Water, 2 players" in text and "Commissions" in text
    r = coverage("sunset", players=2, games=20, workers=1)
    assert sorted(set(r.table["strategy"])) == ["greedy", "planner", "random"]
    assert set(r.table["type"]) == {"commission", "goal"}
    assert all(line in text for line in r.text().splitlines()[2:-1])   # the same table
    assert ((r.table["taken"] >= 1) & (r.table["coverage"] <= 1)).all()
    runs = [os.path.join(r.path, d) for d in sorted(os.listdir(r.path)) if d.startswith("point")]
    assert main(["strategies", "sunset", "--coverage", "--run", runs[0]]) == 0
    assert "the games of the run" in capsys.readouterr().out
    assert main(["strategies", "lowlands", "--coverage", "--run", runs[0]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not lowlands" in err[0]
