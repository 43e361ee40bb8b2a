"""The designer's workflow on the real Sunset engine: compare, sweep, tune, --precision."""
import json
import os

import numpy as np
import pytest

from scripts.cli import main
from sim import designer
from sim.runner import read_logs, read_manifest

VARIANTS = """
[variants.lazy]
base = "greedy"
params = { landscape = 0.0, complete = 0.0, goal = 0.0 }
description = "a greedy player made deliberately weak: it values nothing"

[variants.greedy_copy]
base = "greedy"
description = "the same player under another name"
"""


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_seatings_put_every_strategy_in_every_seat_equally_often():
    for names, players in ((["a", "b", "c"], 4), (["a", "b"], 2), (["a", "b", "c", "d"], 4),
                           (["a", "b", "c", "d", "e"], 3)):
        seats = designer.seatings(names, players)
        counts = np.zeros((len(names), players), int)
        for s in seats:
            assert len(set(s)) == min(len(names), players)
            for p, name in enumerate(s):
                counts[names.index(name), p] += 1
        assert (counts == counts[0, 0]).all(), (names, players, counts)


def test_parse_vary():
    assert designer.parse_vary("commissions[12].points=2..7") == (
        "commissions[12].points", [2, 3, 4, 5, 6, 7])
    assert designer.parse_vary("x.y=1..2:0.5")[1] == [1.0, 1.5, 2.0]
    assert designer.parse_vary("rules.wake_tie=random,seat")[1] == ["random", "seat"]
    with pytest.raises(Exception):
        designer.parse_vary("commissions[12].points=7..2")


def test_compare_declares_a_weakened_strategy_dominated_and_copies_indistinguishable(tmp_path, capsys):
    v = tmp_path / "v.toml"
    v.write_text(VARIANTS)
    out = run_cli(capsys, "compare", "sunset", "--players", "2", "--strategies", "greedy,lazy",
                  "--variants", v, "-n", "600", "--workers", "1", "--no-progress",
                  "--out", tmp_path / "c1")
    plan = json.loads((tmp_path / "c1" / "designer.json").read_text())
    assert plan["result"]["status"] == {"greedy": "dominant", "lazy": "dominated"}
    assert "greedy finishes ahead of lazy" in out
    assert os.path.isfile(tmp_path / "c1" / "report" / "report.html")

    out = run_cli(capsys, "compare", "sunset", "--players", "2", "--strategies", "greedy,greedy_copy",
                  "--variants", v, "-n", "600", "--workers", "1", "--no-progress",
                  "--out", tmp_path / "c2")
    assert "greedy and greedy_copy are indistinguishable" in out
    plan = json.loads((tmp_path / "c2" / "designer.json").read_text())
    assert plan["result"]["status"] == {"greedy": "not separated", "greedy_copy": "not separated"}


def test_sweep_over_an_unused_value_gives_identical_games(tmp_path, capsys):
    # the inspiration bonus is a solo rule: a 4-player game never reads it
    run_cli(capsys, "sweep", "sunset", "--players", "4", "--strategies", "planner,greedy,greedy,random",
            "--vary", "rules.inspiration_points=0,1,7", "-n", "300", "--workers", "1",
            "--no-progress", "--out", tmp_path / "s")
    logs = [read_logs(tmp_path / "s" / f"point-{i:02d}").drop(columns=["run_id"]) for i in range(3)]
    assert logs[0].equals(logs[1]) and logs[0].equals(logs[2])
    sha = {read_manifest(tmp_path / "s" / f"point-{i:02d}")["components"]["sha256"] for i in range(3)}
    assert len(sha) == 3  # yet the three configurations really differ


def test_sweep_of_a_commissions_points_moves_its_take_rate(tmp_path, capsys):
    from analysis.designer import analyse_sweep
    from sim.registry import get_game
    out = run_cli(capsys, "sweep", "sunset", "--players", "4", "--strategies", "greedy",
                  "--vary", "commissions[12].points=1,9", "-n", "1500", "--workers", "1",
                  "--no-progress", "--out", tmp_path / "s")
    spec = get_game("sunset")
    meta = spec.report_metadata()
    logs = [read_logs(tmp_path / "s" / f"point-{i:02d}") for i in range(2)]
    r = analyse_sweep(logs, [["a"], ["b"]], ["points=1", "points=9"], meta, ["commissions[12].points"])
    assert r.card["take_rate"].iloc[1] > r.card["take_rate"].iloc[0]
    step = r.paired[r.paired["quantity"] == "take rate"].iloc[0]
    assert step["low"] > 0, step  # the paired difference excludes zero
    assert "Cascade Diptych" in out


def test_tune_removes_a_planted_overpowered_card(tmp_path, capsys):
    out = run_cli(capsys, "tune", "sunset", "--players", "4", "--strategies", "planner,greedy,greedy,greedy",
                  "--set", "commissions[12].points=20", "--vary", "commissions[12].points=2,4,8,20",
                  "--objective", "takers-parity", "-n", "1000", "--workers", "1", "--no-progress",
                  "--out", tmp_path / "t")
    plan = json.loads((tmp_path / "t" / "designer.json").read_text())
    best = int(plan["result"]["best"].split("=")[1])
    assert 2 <= best <= 8
    assert "before (commissions[12].points=20): Cascade Diptych (commission, 20 points) over-performs" in out
    assert "Cascade Diptych (commission) is not flagged" in out
    from sim.games.sunset.components import load_components
    suggested = load_components(str(tmp_path / "t" / "suggested_components.toml"))
    assert suggested.tables[0].commission_points[12] == best
    assert "Suggested by `balance tune`" in (tmp_path / "t" / "suggested_components.toml").read_text()


def test_run_with_precision_stops_when_the_width_is_reached(tmp_path, capsys):
    out = run_cli(capsys, "run", "sunset", "--players", "2", "--strategies", "greedy,random",
                  "--games", "200", "--precision", "0.03", "--workers", "1", "--no-progress",
                  "--out", tmp_path / "p")
    assert "precision +/-0.0300 reached" in out
    m = read_manifest(tmp_path / "p")
    assert m["status"] == "complete" and m["games"] > 200
    halfwidth = designer.headline_halfwidth([str(tmp_path / "p")], ("seat", "strategy"))
    assert halfwidth <= 0.03

    out = run_cli(capsys, "run", "sunset", "--players", "2", "--strategies", "greedy,greedy",
                  "--games", "200", "--precision", "0.001", "--max-games", "2000", "--workers", "1",
                  "--no-progress", "--out", tmp_path / "q")
    assert "NOT reached (cap)" in out and read_manifest(tmp_path / "q")["games"] == 2000
