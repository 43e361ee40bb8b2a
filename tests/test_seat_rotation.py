"""`balance run --rotate-seats`: each strategy sits in each seat equally often on shared deals,
in one run folder that summary, report and replay read like any other (sim/rotation.py).

The harm prevented: the main job's headline ("Seat 1 favoured") was the planner's strength,
because the planner always sat in seat 1.
"""
from __future__ import annotations

import json
import os
import re
import shlex
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from reports.build import analyse_run
from scripts.cli import main as cli_main
from sim import rotation, runner
from tests.toygame import SPEC as TOY
from reports.findings import verdict_lines

MIXED = ["planner", "greedy", "greedy", "random"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def toy_rotated(names=MIXED):
    return rotation.rotated(TOY.prepare(TOY.load_components(), len(names), list(names), 1))


# --- which seatings ---------------------------------------------------------------------------
def test_rotation_puts_every_strategy_in_every_seat_equally_often():
    rot = rotation.seat_rotations(MIXED)
    assert len(rot) == 12                         # 4! / 2! distinct orders of the seat list
    assert rot[0] == [0, 1, 2, 3]                 # the run's own seating comes first
    seatings = {tuple(MIXED[i] for i in perm) for perm in rot}
    assert len(seatings) == 12                    # no seating played twice
    for seat in range(4):
        assert Counter(MIXED[perm[seat]] for perm in rot) == {"planner": 3, "greedy": 6, "random": 3}
    assert len(rotation.seat_rotations(["a", "b", "c", "d"])) == 24
    assert rotation.seat_rotations(["greedy"] * 4) == [[0, 1, 2, 3]]


def test_games_are_whole_rotations():
    p = toy_rotated()
    assert [rotation.whole_rotations(n, p) for n in (1, 12, 13, 200000)] == [12, 12, 24, 200004]


# --- the logs -----------------------------------------------------------------------------
def test_rotated_game_is_its_deal_played_under_its_seating(tmp_path):
    """Common random numbers: game d*S + r of the rotated run is game d of a plain run whose
    seats hold seating r, row for row; so every deal is played under every seating, and the
    logged strategy is the one that sat there."""
    p = toy_rotated()
    S = len(p.rotation)
    n_deals = 15
    runner.run(TOY, p, n_deals * S, str(tmp_path / "rot"), workers=1, chunk_size=50,
               progress=False)
    rot = runner.read_logs(str(tmp_path / "rot")).drop(columns=["run_id"])
    assert len(rot) == n_deals * S * 4
    for r in range(S):
        plain_prep = rotation.seated(p, r)
        out = str(tmp_path / f"plain{r}")
        runner.run(TOY, plain_prep, n_deals, out, workers=1, progress=False)
        plain = runner.read_logs(out).drop(columns=["run_id"])
        mine = rot[rot.game % S == r].copy()
        mine["game"] //= S
        mine = mine.reset_index(drop=True)
        mine["strategy"] = mine["strategy"].astype(str)
        plain["strategy"] = plain["strategy"].astype(str)
        pd.testing.assert_frame_equal(mine, plain)
        assert list(mine.strategy[:4]) == [MIXED[i] for i in p.rotation[r]]
    counts = rot.groupby(["seat", "strategy"], observed=True).size().unstack()
    assert (counts["planner"] == n_deals * 3).all() and (counts["greedy"] == n_deals * 6).all()
    assert (counts["random"] == n_deals * 3).all()


def test_rotated_logs_same_for_any_workers_and_chunk_size(tmp_path):
    p = toy_rotated()
    logs = []
    for workers, chunk in [(1, 120), (2, 7), (2, 50), (1, 13)]:
        out = str(tmp_path / f"w{workers}-c{chunk}")
        runner.run(TOY, p, 120, out, workers=workers, chunk_size=chunk, progress=False)
        df = runner.read_logs(out)
        df["strategy"] = df["strategy"].astype(str)
        logs.append(df.drop(columns=["run_id"]))
    for other in logs[1:]:
        pd.testing.assert_frame_equal(logs[0], other)


def test_rotated_run_resumes_and_refuses_an_unrotated_one(tmp_path):
    out = str(tmp_path / "run")
    p = toy_rotated()
    runner.run(TOY, p, 120, out, workers=1, chunk_size=25, progress=False)
    full = runner.read_logs(out)
    files = sorted(os.listdir(os.path.join(out, "chunks")))
    os.remove(os.path.join(out, "chunks", files[1]))
    m = runner.run(TOY, p, 120, out, workers=2, progress=False)
    assert m["status"] == "complete" and m["timings"]["chunks_played_this_session"] == 1
    pd.testing.assert_frame_equal(runner.read_logs(out), full)
    plain = TOY.prepare(TOY.load_components(), 4, MIXED, 1)
    with pytest.raises(runner.ToolkitError, match="differs in: rotation"):
        runner.run(TOY, plain, 120, out, workers=1, progress=False)


# --- the command line: run, summary, replay, report ----------------------------------------------
def test_run_rotate_seats_then_summary_replay_report(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--games", "50", "--strategies",
                          ",".join(MIXED), "--rotate-seats", "--workers", "1", "--no-progress",
                          "--out", "r", "--chunk-size", "17")
    assert code == 0, err
    assert "seats rotated: 12 seatings" in out and "60 games (50 rounded up" in out
    assert "seat rows measure the seats" in out
    m = json.load(open("r/manifest.json"))
    assert m["games"] == 60 and len(m["config"]["rotation"]) == 12
    code, out2, err = call(capsys, "summary", "r")
    assert code == 0 and "seats rotated (12 seatings" in out2

    # replay shows the game that was logged: its seating, and the logged scores
    logs = runner.read_logs("r")
    for g in (0, 13, 59):
        code, text, err = call(capsys, "replay", "r", "--game", str(g))
        assert code == 0, err
        d, r = divmod(g, 12)
        assert text.startswith(f"game {g} of a seat-rotated run: deal {d} played under "
                               f"seating {r + 1} of 12")
        rows = logs[logs.game == g]
        for seat, (strategy, score) in enumerate(zip(rows.strategy.astype(str), rows.score)):
            assert f"seat {seat} ({strategy}): score {score}," in text

    # the report: seat verdicts (not confounded), strategies averaged over the seats
    code, out3, err = call(capsys, "report", "r", "--no-progress")
    assert code == 0, err
    first = out3.splitlines()[1].strip()
    assert re.match(r"Seat 1 wins .* against a fair 25%: (fair|favoured|disadvantaged)", first)
    assert "No seat verdict" not in out3 and "not rotated" not in out3
    md = open("r/report/report.md", encoding="utf-8").read()
    assert "rotated (--rotate-seats): 12 seatings" in md


def test_unrotated_mixed_run_gives_no_seat_verdict(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--games", "60", "--strategies", ",".join(MIXED),
                          "--workers", "1", "--no-progress", "--out", "u", "--report")
    assert code == 0, err
    verdicts = out.split("balance report of 60 games")[1]
    assert verdicts.splitlines()[1].strip().startswith("No seat verdict")
    assert not re.search(r"Seat \d wins", verdicts)
    assert "each seat kept its strategy" in out          # the summary says so too


def test_rotate_with_precision_grows_by_whole_rotations(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--games", "30", "--strategies", "greedy,random",
                          "--players", "2", "--rotate-seats", "--precision", "0.2",
                          "--max-games", "101", "--workers", "1", "--no-progress", "--out", "p")
    assert code == 0, err
    m = json.load(open("p/manifest.json"))
    assert m["games"] % 2 == 0 and m["chunk_size"] % 2 == 0
    logs = runner.read_logs("p")
    counts = logs.groupby(["seat", "strategy"], observed=True).size()
    assert counts.nunique() == 1                       # every seat, every strategy: equal
    code, out, err = call(capsys, "run", "toy", "--games", "30", "--strategies", "greedy,random",
                          "--players", "2", "--rotate-seats", "--precision", "0.2",
                          "--chunk-size", "5", "--workers", "1", "--no-progress", "--out", "q")
    assert code == 2 and "multiple of the 2 seatings" in err and not os.path.exists("q")


# --- the main job ----------------------------------------------------------------------------
def _main_job_argv(games: int) -> list:
    """The Makefile's `run` recipe (the README's first command), with fewer games: its
    `balance run` line (the lines before it compile the engine: `balance warm`)."""
    text = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", text, re.M).group(1)
    recipe = next(line.strip() for line in recipe.splitlines()
                  if line.strip().startswith("$(BIN)/balance run "))
    argv = shlex.split(recipe.replace("$(GAMES)", str(games)).replace("$(WORKERS_ARG)", ""))
    assert argv[0] == "$(BIN)/balance"
    return argv[1:]


def test_main_job_report_opens_with_verdicts_that_are_not_confounded(in_tmp, capsys):
    """`make run` on a few games: the seats are rotated, so its first verdicts are about the
    seats alone, then the strategies averaged over the seats; nothing is marked confounded."""
    argv = _main_job_argv(48)
    assert "--rotate-seats" in argv
    argv[argv.index("--out") + 1] = "main"
    code, out, err = call(capsys, *argv, "--workers", "1", "--no-progress")
    assert code == 0, err
    a = analyse_run("main")
    assert a.seats_rotated and not a.seat_confounded
    assert all(re.match(rf"Seat {i + 1} wins .* against a fair 25%: ", verdict_lines(a)[i])
               for i in range(4))
    assert verdict_lines(a)[4].startswith("Seats were rotated (12 seatings")
    assert any(v.startswith("planner wins") and "every seat, rotated" in v for v in verdict_lines(a))
    assert not any("not rotated" in v or "No seat verdict" in v for v in verdict_lines(a))
    logs = runner.read_logs("main")
    counts = logs.groupby(["seat", "strategy"], observed=True).size().unstack()
    np.testing.assert_array_equal(counts.nunique().to_numpy(), [1, 1, 1])
    # replay of a real game of the rotated run: the logged seating and the logged scores
    code, text, err = call(capsys, "replay", "main", "--game", "13")
    assert code == 0, err
    assert text.startswith("game 13 of a seat-rotated run: deal 1 played under seating 2 of 12")
    for r in logs[logs.game == 13].itertuples():
        assert f"seat {r.seat + 1} ({r.strategy}): score {r.score} (rank {r.rank}," in text
