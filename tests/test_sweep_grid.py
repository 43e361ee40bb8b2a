"""Sweeps answered right (issue 11, item 8): a grid is drawn as a grid, paired steps change one
field at a time, the steps that move are named after Holm's correction, and a whole list can
be one value of --vary."""
from __future__ import annotations

import json

import pytest

from analysis.designer import grid_steps
from scripts.cli import main
from sim import designer
from sim.game_api import ToolkitError
from sim.runner import read_manifest


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def plain(md: str) -> str:
    """The Markdown report's text without its escapes."""
    for a, b in (("\\_", "_"), ("\\[", "["), ("\\]", "]"), ("&gt;", ">"), ("&lt;", "<")):
        md = md.replace(a, b)
    return md


def test_grid_steps_change_one_field_at_a_time():
    axes = [("a", [1, 2, 3]), ("b", ["x", "y"])]
    steps = grid_steps(axes, 6)
    # product order: (1,x)=0 (1,y)=1 (2,x)=2 (2,y)=3 (3,x)=4 (3,y)=5
    pairs = {(i, j) for i, j, _, _ in steps}
    assert pairs == {(0, 2), (2, 4), (1, 3), (3, 5), (0, 1), (2, 3), (4, 5)}
    assert (1, 2) not in pairs            # (1,y) -> (2,x) changes both fields: a diagonal
    named = {(i, j): (step, at) for i, j, step, at in steps}
    assert named[(0, 2)] == ("a: 1 -> 2", 'b="x"')
    assert named[(4, 5)] == ('b: "x" -> "y"', "a=3")


def test_a_grid_sweep_draws_a_grid_and_names_the_moving_steps_after_holm(toy_registry, in_tmp, capsys):
    """Greedy against random on 2..4 sides x 1..2 dice: with 2 or 3 sides greedy rerolls every
    die (equal players), with 4 it keeps its 4s. The step 3 -> 4 sides must be named as a
    move; no step changes both fields."""
    out = call(capsys, "sweep", "toy", "--players", "2", "--strategies", "greedy,random",
               "--vary", "dice.sides=2..4", "--vary", "dice.n_dice=1,2", "-n", "600",
               "--workers", "1", "--no-progress", "--out", in_tmp / "s")
    assert "Holm-corrected" in out
    assert "dice.sides: 3 -> 4 (at dice.n_dice=1): win share seat 1 +" in out
    moves = out.split("Holm-corrected")[1].splitlines()
    # equal players: no win share moves from 2 to 3 sides (the mean score does, and is named:
    # the sweep reports everything that moves, issue 19)
    assert not any("dice.sides: 2 -> 3" in x and "win share" in x for x in moves)
    assert any("dice.sides: 2 -> 3" in x and "mean score +" in x for x in moves)
    md = plain((in_tmp / "s" / "report" / "report.md").read_text())
    assert "The grid: dice.sides along x, one line per value of dice.n_dice" in md
    steps = [line for line in md.splitlines() if line.startswith("| dice.") and " -> " in line]
    # 7 one-field steps x (2 seats, 2 strategies, the mean score), nothing else
    assert len(steps) == 7 * 5
    for line in steps:
        step, at = line.split("|")[1:3]
        moved_field = step.split(":")[0].strip()
        assert moved_field not in at  # the other field is held fixed, named in 'at'
    assert (in_tmp / "s" / "report" / "figures" / "sweep-seat.png").stat().st_size > 0


def test_a_list_is_one_value_of_vary():
    path, values = designer.parse_vary("flick.spread=[0.5,1.4],[1.4,0.5]")
    assert path == "flick.spread" and values == [[0.5, 1.4], [1.4, 0.5]]
    assert designer.parse_vary('x.y=["a", "b,c"],["d"]')[1] == [["a", "b,c"], ["d"]]
    assert designer.grid([(path, values)]) == [["flick.spread=[0.5, 1.4]"],
                                               ["flick.spread=[1.4, 0.5]"]]
    with pytest.raises(ToolkitError, match="at most 200"):
        designer.parse_vary("x.y=" + ",".join(["[1]"] * 201))


def test_sweep_of_a_whole_list_plays_each_list(in_tmp, capsys):
    """Grand Surfers: each seat's skill is a list; the shakier hand must win less."""
    root = in_tmp / "s"
    call(capsys, "sweep", "surfers", "--players", "2", "--vary", "flick.spread=[0.2,1.4],[1.4,0.2]",
         "-n", "300", "--workers", "1", "--no-progress", "--out", root)
    overrides = [read_manifest(root / f"point-{i:02d}")["components"]["overrides"] for i in (0, 1)]
    assert overrides == [["flick.spread=[0.2, 1.4]"], ["flick.spread=[1.4, 0.2]"]]
    plan = json.loads((root / "designer.json").read_text())
    assert plan["points"] == overrides
    md = plain((root / "report" / "report.md").read_text())
    row = [line for line in md.splitlines()
           if line.startswith("| flick.spread: [0.2, 1.4] -> [1.4, 0.2] |") and "seat 1" in line]
    assert row and "| win share seat 1 | -" in row[0] and "| yes |" in row[0]  # seat 1 loses its edge


def test_step_p_values_are_two_sided_normal_and_nan_without_spread():
    from sim.stats import z_test_p
    assert abs(z_test_p(1.959964, 1.0) - 0.05) < 1e-6
    p = z_test_p([0.0, -3.0, 1.0], [1.0, 1.0, 0.0])
    assert p[0] == 1.0 and abs(p[1] - 0.0026998) < 1e-6 and p[2] != p[2]   # se 0: no test
