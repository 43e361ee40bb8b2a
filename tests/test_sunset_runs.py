"""Sunset Over Water through the real SPEC, runner and command line: reproducibility, resume,
replay, user strategies, variants, and the strength order of the built-in strategies."""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pandas as pd
import pytest

from sim.stats import wilson_interval
from scripts.cli import main
from sim import runner
from sim.games.sunset import SPEC

N = 300
NAMES = ["planner", "greedy", "greedy", "random"]


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


def prep(comp, names=NAMES, seed=11, variants=None):
    return SPEC.prepare(comp, len(names), list(names), seed, variants)


def play(p, out, **kw):
    kw.setdefault("workers", 1)
    kw.setdefault("progress", False)
    return runner.run(SPEC, p, kw.pop("n_games", N), str(out), **kw)


def logs(out):
    return runner.read_logs(str(out))


@pytest.fixture(scope="module")
def reference(comp, tmp_path_factory):
    """300 4-player games, one worker, chunks of 100."""
    out = tmp_path_factory.mktemp("ref") / "run"
    m = play(prep(comp), out, chunk_size=100)
    assert m["status"] == "complete"
    return out, logs(out)


def test_same_seed_same_logs_any_workers_and_chunks(comp, reference, tmp_path):
    out_ref, ref = reference
    assert len(ref) == N * 4 and list(ref["game"].unique()) == list(range(N))
    assert ref["illegal"].sum() == 0
    assert ref.groupby("game")["win"].sum().round(9).eq(1.0).all()
    assert ref["score"].nunique() > 5  # real games, not a constant
    for workers, chunk in [(2, 37), (1, 37), (2, 100)]:
        out = tmp_path / f"w{workers}-c{chunk}"
        m = play(prep(comp), out, workers=workers, chunk_size=chunk)
        assert m["status"] == "complete" and m["n_chunks"] == -(-N // chunk)
        assert m["timings"]["workers"] == workers
        pd.testing.assert_frame_equal(logs(out).drop(columns=["run_id"]), ref.drop(columns=["run_id"]))
    # and another seed gives other games
    out = tmp_path / "seed12"
    play(prep(comp, seed=12), out, chunk_size=100)
    assert not logs(out)["score"].equals(ref["score"])


def test_interrupted_run_resumes_to_the_same_logs(comp, reference, tmp_path):
    _, ref = reference
    out = tmp_path / "run"
    m = play(prep(comp), out, chunk_size=100, _max_chunks=1)
    assert m["status"] == "running" and m["chunks_missing"] == 2
    assert len(logs(out)) == 100 * 4
    m = play(prep(comp), out, workers=2)  # resumes with the run's own chunk size
    assert m["status"] == "complete"
    assert m["timings"]["games_played_this_session"] == 200
    pd.testing.assert_frame_equal(logs(out), ref)

    # a lost chunk file: only that chunk is played again
    files = sorted(os.listdir(out / "chunks"))
    os.remove(out / "chunks" / files[1])
    man = json.loads((out / "manifest.json").read_text())
    man["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(man))
    m = play(prep(comp), out)
    assert m["status"] == "complete" and m["timings"]["chunks_played_this_session"] == 1
    assert sorted(os.listdir(out / "chunks")) == files
    pd.testing.assert_frame_equal(logs(out), ref)


def replay_scores(capsys, out, game, *extra):
    code = main(["replay", str(out), "--game", str(game), *map(str, extra)])
    text, err = capsys.readouterr()
    assert code == 0, err
    # the trace numbers seats from 1, the logs from 0
    scores = {int(s) - 1: int(v) for s, v in re.findall(r"^seat (\d+) \(.*?\): score (-?\d+) ", text, re.M)}
    return text, scores


def test_replay_prints_the_logged_game(reference, capsys):
    out, ref = reference
    for game in (0, 137, N - 1):
        text, scores = replay_scores(capsys, out, game)
        assert f"game {game} of run seed 11" in text and "-- game over" in text
        assert text.count("-- day ") == ref.loc[ref.game == game, "days"].iloc[0]
        logged = ref[ref.game == game].set_index("seat")["score"].to_dict()
        assert scores == {int(k): int(v) for k, v in logged.items()}
        hikes = len(re.findall(r"^  seat \d .*(hikes|stays on)", text, re.M))
        assert hikes == ref.loc[ref.game == game, "length"].iloc[0]


USER_FILE = '''
from numba import njit
from sim.games.sunset.enums import DEC_SELL


@njit
def first(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Always the first option (for a sale: the first commission offered, or stop)."""
    if decision == DEC_SELL:
        return 0
    return 0


@njit
def out_of_range(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    return n_options
'''


def test_user_strategy_plugs_in(tmp_path, in_tmp, capsys):
    path = tmp_path / "mybots.py"
    path.write_text(USER_FILE)
    code = main(["run", "sunset", "--players", "3", "--games", "60", "--workers", "1", "--no-progress",
                 "--strategies", f"{path}:first,{path}:out_of_range,greedy", "--out", "u", "--seed", "5"])
    out, err = capsys.readouterr()
    assert code == 0, err
    df = logs(in_tmp / "u")
    assert len(df) == 60 * 3
    by_seat = df.groupby("seat")["illegal"]
    assert by_seat.sum()[0] == 0 and by_seat.sum()[2] == 0
    # every decision of the broken strategy is counted (at least a plan and a hike per day)
    assert (df.loc[df.seat == 1, "illegal"] >= 2 * df.loc[df.seat == 1, "days"]).all()
    # shown by their function names (the full path stays in the manifest)
    assert list(df.loc[df.game == 0, "strategy"].astype(str)) == ["first", "out_of_range", "greedy"]
    # the user's functions really decide: option 0 of a hike is staying put whenever staying
    # is legal, and an illegal answer is replaced by option 0. Staying is not legal on a card
    # shared with another artist (the centre on day 1, where the three start), so the first
    # user seat to trek on day 1 hikes away (option 0 is then its first legal hike); once
    # alone on a card, option 0 keeps it there for good: each user seat hikes at most once
    # (<= 4 steps) in a game, and in every game at least one of them hikes.
    users = df[df.seat < 2]
    assert (users["steps"] <= 4).all()
    assert (users.groupby("game")["steps"].sum() > 0).all()
    assert (df.loc[df.seat == 2, "steps"] > 4).all()
    # and the trace replays it, from the file the user names (never from the one the run
    # folder names: that would run code because a data file says so)
    text, scores = replay_scores(capsys, in_tmp / "u", 3, "--strategy-file", path)
    assert scores == df[df.game == 3].set_index("seat")["score"].astype(int).to_dict()


def test_named_variant(comp, tmp_path):
    vfile = tmp_path / "v.toml"
    vfile.write_text('[variants.timid]\nbase = "planner"\n'
                     'params = { complete = 0.0, progress = 0.0, tomorrow = 0.0, goal = 0.0 }\n')
    p = prep(comp, ["timid", "planner"], seed=3, variants=str(vfile))
    assert p.strategy_names == ["timid", "planner"]
    assert p.strategy_ids[0] == p.strategy_ids[1]
    m = play(p, tmp_path / "v", n_games=400)
    assert m["status"] == "complete" and m["strategies"][0]["params"]["complete"] == 0.0
    df = logs(tmp_path / "v")
    assert list(df.loc[df.game == 0, "strategy"].astype(str)) == ["timid", "planner"]
    assert df["illegal"].sum() == 0
    # the parameters reach the engine: a planner that ignores commissions sells less
    sold = df.groupby("seat")["n_commissions"].mean()
    assert sold[0] < sold[1]
    assert os.path.isfile(tmp_path / "v" / "variants.toml")


def seat_swapped_share(comp, tmp_path, a, b, n):
    """Win share of strategy a against b over 2n 2-player games, seats swapped for half."""
    total = 0.0
    for k, names in enumerate(([a, b], [b, a])):
        out = tmp_path / f"{a}-{b}-{k}"
        play(prep(comp, names, seed=7), out, n_games=n, chunk_size=n)
        df = logs(out)
        assert len(df) == 2 * n and df["illegal"].sum() == 0
        total += df.loc[df.strategy.astype(str) == a, "win"].sum()
    return total, 2 * n


def test_greedy_beats_random_and_planner_beats_greedy(comp, tmp_path):
    wins, n = seat_swapped_share(comp, tmp_path, "greedy", "random", 1000)
    low, high = wilson_interval(wins, n)
    assert low > 0.5, f"greedy vs random: {wins / n:.3f} [{low:.3f}, {high:.3f}]"
    assert wins / n > 0.9

    wins, n = seat_swapped_share(comp, tmp_path, "planner", "greedy", 10000)
    low, high = wilson_interval(wins, n)
    assert low > 0.5, f"planner vs greedy: {wins / n:.3f} [{low:.3f}, {high:.3f}]"


def test_four_seats_mixed_strength_order(comp, tmp_path):
    """planner, greedy, greedy, random in all four seat rotations."""
    wins = {"planner": 0.0, "greedy": 0.0, "random": 0.0}
    seats = {"planner": 0, "greedy": 0, "random": 0}
    n = 2000
    for r in range(4):
        names = NAMES[r:] + NAMES[:r]
        out = tmp_path / f"rot{r}"
        play(prep(comp, names, seed=9), out, n_games=n, chunk_size=n)
        df = logs(out)
        assert df["illegal"].sum() == 0
        for name in wins:
            wins[name] += df.loc[df.strategy.astype(str) == name, "win"].sum()
            seats[name] += n * names.count(name)
    iv = {k: wilson_interval(wins[k], seats[k]) for k in wins}
    share = {k: wins[k] / seats[k] for k in wins}
    msg = ", ".join(f"{k} {share[k]:.3f} [{iv[k][0]:.3f}, {iv[k][1]:.3f}]" for k in wins)
    assert iv["planner"][0] > iv["greedy"][1], msg
    assert iv["greedy"][0] > iv["random"][1], msg
    assert iv["planner"][0] > 0.25 and iv["random"][1] < 0.25, msg  # parity is 1/4
