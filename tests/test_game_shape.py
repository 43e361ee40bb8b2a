"""The game over time (issue 24): the game-shape measures on hand-made frames with known
values (analysis/game_shape.py), and the snapshots of real runs: the same seed gives the
same snapshots on any workers or chunk size, the replay reproduces the logged games, and one
run end to end through the command line to the report."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from analysis import game_shape as gs
from sim.stats import z_value


def frame(games: dict) -> pd.DataFrame:
    """rounds frame from {game: (scores [rounds][seats], win [seats])}."""
    rows = []
    for g, (scores, win) in games.items():
        for r, line in enumerate(scores):
            for seat, v in enumerate(line):
                rows.append({"game": g, "round": r, "seat": seat, "score": v,
                             "strategy": f"s{seat}", "win": win[seat], "position": seat + 1})
    return pd.DataFrame(rows)


# seat 0 leads at round 1, seat 1 at round 2, a tie at round 3 (seat 1 keeps the lead),
# seat 0 at round 4 and wins: exactly 2 lead changes; the winner leads for good from round 4
TWO_CHANGES = ([[0, 0], [3, 1], [3, 5], [6, 6], [9, 6]], [1.0, 0.0])


def test_two_lead_changes():
    scores = np.array(TWO_CHANGES[0], float)
    assert list(gs.leaders(scores)) == [-1, 0, 1, 1, 0]
    assert gs.lead_changes(scores) == 2
    assert gs.lead_for_good(scores, 0) == pytest.approx(4 / 4)


def test_wire_to_wire_and_no_changes():
    scores = np.array([[0, 0, 0], [2, 1, 0], [4, 1, 3], [7, 2, 3]], float)
    assert gs.lead_changes(scores) == 0
    assert gs.lead_for_good(scores, 0) == pytest.approx(1 / 3)   # from round 1 of 3


def test_lead_for_good_undefined_for_shared_or_tie_break_wins():
    scores = np.array([[0, 0], [1, 2], [3, 3]], float)
    assert np.isnan(gs.lead_for_good(scores, gs.winner_of(np.array([0.5, 0.5]))))
    assert np.isnan(gs.lead_for_good(scores, 0))      # won on a tie-break: no score lead


def test_decisiveness_threshold_and_round():
    # game A: seat 0's early lead of 2 is lost, seat 1 wins; B and C: the leader always wins
    a = (np.array([[0, 0], [2, 0], [2, 3], [3, 7], [3, 8]], float), 1)
    b = (np.array([[0, 0], [0, 4], [1, 6], [2, 9]], float), 1)
    c = (np.array([[0, 0], [1, 0], [2, 0], [5, 0]], float), 0)
    # leads before the end (leader right?): A 2 (no), 1 (yes), 4 (yes); B 4, 5; C 1, 2 (yes)
    # lead >= 1: 6/7 right; >= 2: 4/5; >= 4: 3/3 -> threshold 4 at 95%, 1 at 75%
    t = gs.decisiveness_threshold([a, b, c], share=0.95)
    assert t == 4
    assert gs.decisiveness(a[0], t) == pytest.approx(3 / 4)
    assert gs.decisiveness(b[0], t) == pytest.approx(1 / 3)
    assert gs.decisiveness(c[0], t) == pytest.approx(1.0)    # never that far ahead: the end
    assert gs.decisiveness_threshold([a, b, c], share=0.75) == 1
    assert gs.decisiveness_threshold([a], share=0.95) == 4
    assert gs.decisiveness_threshold([(a[0], 0)], share=0.95) == float("inf")


def test_per_game_and_summary_on_frames():
    games = {0: TWO_CHANGES, 1: ([[0, 0], [1, 0], [2, 0]], [1.0, 0.0])}
    rounds = frame(games)
    per = gs.per_game(rounds)
    assert list(per["lead_changes"]) == [2, 0]
    assert list(per["rounds"]) == [4, 2]
    assert list(per["winner_strategy"]) == ["s0", "s0"]
    decisions = pd.DataFrame({"game": [0, 0, 0, 1], "step": [0, 1, 2, 0],
                              "round": [1, 1, 2, 1], "seat": [0, 1, 0, 0],
                              "decision": [0, 0, 0, 0], "options": [2, 4, 5, 3]})
    s = gs.summary(rounds, decisions).set_index("measure")
    assert s.loc["lead_changes", "mean"] == pytest.approx(1.0)
    assert s.loc["branching_factor", "mean"] == pytest.approx(3.5)
    assert s.loc["branching_factor", "n"] == 4
    assert list(s.columns) == ["mean", "low", "high", "n"]      # tidy: no tuples in cells
    b = gs.branching(decisions)
    assert list(b["round"]) == [1, 2]
    assert list(b["mean"]) == pytest.approx([3.0, 5.0])
    assert list(b["n"]) == [3, 1]


def test_mean_curves_band_is_the_normal_interval_of_the_mean():
    rounds = frame({0: ([[0, 0], [2, 4]], [0, 1]), 1: ([[0, 0], [4, 8]], [0, 1])})
    c = gs.mean_curves(rounds, "score", None)
    last = c[c["round"] == 1].iloc[0]
    v = np.array([2, 4, 4, 8], float)
    half = z_value(0.95) * v.std(ddof=1) / 2
    assert last["mean"] == pytest.approx(4.5)
    assert (last["low"], last["high"]) == pytest.approx((4.5 - half, 4.5 + half))
    by = gs.mean_curves(rounds, "score", "strategy")
    assert list(by[by["round"] == 1]["mean"]) == pytest.approx([3.0, 6.0])


# --- real runs --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sunset_runs(tmp_path_factory):
    from sim.api import run
    base = tmp_path_factory.mktemp("snap")
    one = run("sunset", players=3, strategies="planner,greedy,random", games=60, seed=5,
              out=str(base / "one"), workers=1, chunk_size=60, snapshots=12)
    two = run("sunset", players=3, strategies="planner,greedy,random", games=60, seed=5,
              out=str(base / "two"), workers=2, chunk_size=7, snapshots=12)
    return one.path, two.path


def test_same_seed_same_snapshots_on_any_workers_or_chunks(sunset_runs):
    from sim.snapshots import read_snapshots
    a, b = (read_snapshots(p) for p in sunset_runs)
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_frame_equal(a[1], b[1])
    assert a[0]["game"].nunique() == 12
    from sim.games.sunset import snapshot
    assert a[2]["rows"] == [tuple(r) for r in snapshot.ROWS] and a[2]["period"] == "day"
    final = a[0].sort_values("round").groupby(["game", "seat"]).tail(1)
    from sim import runner
    logs = runner.read_logs(sunset_runs[0])
    logs = logs[logs["game"] < 12].sort_values(["game", "seat"])
    final = final.sort_values(["game", "seat"])
    assert list(final["score"]) == list(logs["score"])      # the last snapshot is the logged end
    # one snapshot per day and the set-up: rounds 0..days, none twice
    per_game = a[0][a[0]["seat"] == 0].groupby("game")["round"].apply(list)
    days = logs[logs["seat"] == 0].set_index("game")["days"]
    for game, seen in per_game.items():
        assert seen == list(range(int(days[game]) + 1)), (game, seen)


def test_replay_differs_from_logs_is_an_error(sunset_runs):
    from sim.game_api import ToolkitError
    from sim.games.sunset import SPEC
    from sim.snapshots import check_against_logs, record_games
    from sim.api.runs import prepared_from_manifest
    spec, prepared, _ = prepared_from_manifest(sunset_runs[0])
    got = record_games(spec, prepared, range(3))
    check_against_logs(sunset_runs[0], got["records"])     # the replay is the logged game
    rec = got["records"].copy()
    rec["score"][1] += 1
    with pytest.raises(ToolkitError, match="differ"):
        check_against_logs(sunset_runs[0], rec)
    python = record_games(SPEC, prepared, range(3), compiled=False)
    for k, v in got["rounds"].items():                       # the Python replay is the same
        assert np.array_equal(v, python["rounds"][k]), k


def test_end_to_end_command_line_to_report(tmp_path):
    from scripts.cli import main
    out = tmp_path / "run"
    assert main(["run", "sunset", "--players", "2", "--strategies", "greedy,random",
                 "--games", "20", "--seed", "3", "--snapshots", "8", "--out", str(out),
                 "--workers", "1", "--no-progress"]) == 0
    assert os.path.isfile(out / "snapshots" / "rounds.parquet")
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## The game over time" in md
    for key in ("over-time-score-strategy", "over-time-lead-changes", "over-time-branching"):
        assert os.path.isfile(tmp_path / "rep" / "figures" / f"{key}.png")


def test_snapshots_bad_count_is_a_clear_error(tmp_path, capsys):
    from scripts.cli import main
    assert main(["run", "sunset", "--games", "10", "--snapshots", "x",
                 "--out", str(tmp_path / "r")]) == 2
    assert "balance: error: argument --snapshots: --snapshots must be an integer" in \
        capsys.readouterr().err


def test_api_frames_of_the_game_over_time_are_tidy(sunset_runs):
    from sim.api import open_run
    from tests.test_tidy_tables import untidy
    r = open_run(sunset_runs[0])
    frames = {"snapshots": r.snapshots(), "decisions": r.decisions(), "curves": r.curves(),
              "curves by position": r.curves("commissions", "position"),
              "game_shape": r.game_shape(), "per game": r.game_shape(per_game=True)}
    for name, f in frames.items():
        assert isinstance(f, pd.DataFrame) and len(f), name
        assert not untidy(f), (name, untidy(f))


def test_a_foreign_file_is_not_overwritten_and_stale_snapshots_are_not_read(sunset_runs,
                                                                            tmp_path):
    import shutil

    from sim.api import open_run
    from sim.game_api import ToolkitError
    from sim.snapshots import read_snapshots
    folder = tmp_path / "copy"
    shutil.copytree(sunset_runs[0], folder)
    mine = folder / "snapshots" / "rounds.parquet"
    mine.write_text("a file the user put here")
    with pytest.raises(ToolkitError, match="not overwritten"):
        open_run(str(folder)).record_snapshots(5)
    assert mine.read_text() == "a file the user put here"
    shutil.copy(os.path.join(sunset_runs[0], "snapshots", "rounds.parquet"), mine)
    assert read_snapshots(str(folder)) is not None
    manifest = folder / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"run_id": "', '"run_id": "x', 1))
    assert read_snapshots(str(folder)) is None      # another configuration's snapshots


def test_overwrite_removes_the_runs_own_snapshots(sunset_runs, tmp_path):
    import shutil

    from sim.run_folder import read_manifest, run_owned
    folder = tmp_path / "copy"
    shutil.copytree(sunset_runs[0], folder)
    owned, _ = run_owned(str(folder), read_manifest(str(folder)))
    assert str(folder / "snapshots" / "rounds.parquet") in owned
    assert str(folder / "snapshots" / "decisions.parquet") in owned
    (folder / "snapshots" / "rounds.parquet").write_text("the user's file now")
    owned, _ = run_owned(str(folder), read_manifest(str(folder)))
    assert str(folder / "snapshots" / "rounds.parquet") not in owned


def test_every_game_declares_its_snapshot():
    """Every game's contract names a snapshot module whose rows start with the score per
    seat and say their scope."""
    from sim.registry import get_game
    for game in ("sunset", "sagrada", "surfers", "lowlands"):
        module = get_game(game).pieces().snapshot()
        assert module.__name__ == f"sim.games.{game}.snapshot"
        rows = module.ROWS
        assert rows[0][:3] == ("score", rows[0][1], "seat")
        assert all(len(r) == 4 and r[2] in ("seat", "game") for r in rows)
        assert module.PERIOD in ("day", "round", "half-stage")


def test_a_game_without_snapshots_is_refused_before_playing(toy_registry, tmp_path):
    from sim.api import run
    from sim.game_api import ToolkitError
    with pytest.raises(ToolkitError, match="declares no per-round snapshot"):
        run(toy_registry.name, games=10, out=str(tmp_path / "r"), snapshots=5)
    assert not (tmp_path / "r").exists()
