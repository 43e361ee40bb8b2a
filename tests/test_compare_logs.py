"""scripts/compare_logs.py: the "no rule changed" check of the game ports (issue 12).

The harm prevented: a port that changes a rule passing as identical, or a renamed / retyped
column (x1000 integers becoming floats) reported as a difference when the values agree."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd

from scripts.compare_logs import compare, main
from sim import runner
from tests.toygame import SPEC as TOY


def frame(**cols):
    base = {"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1]}
    base.update(cols)
    return pd.DataFrame(base)


def test_renamed_and_x1000_columns_compare_by_value():
    old = frame(score=[3, 4, 5, 6], avg_x1000=[1500, 333, 0, 2667])
    new = frame(score=[3.0, 4.0, 5.0, 6.0], avg=[1.5, 1 / 3, 0.0, 8 / 3])
    out = io.StringIO()
    assert compare(old, new, rename={"avg_x1000": "avg"}, scale={"avg": 1000}, out=out) == 0
    assert "identical by value" in out.getvalue()


def test_a_changed_value_a_missing_column_and_a_missing_row_are_differences():
    old = frame(score=[3, 4, 5, 6], extra=[1, 1, 1, 1])
    out = io.StringIO()
    assert compare(old, frame(score=[3, 4, 5, 7], extra=[1, 1, 1, 1]), out=out) == 1
    assert "column score: 1 of 4 rows differ" in out.getvalue()
    assert "game 1 seat 1: A 6" in out.getvalue()
    assert compare(old, frame(score=[3, 4, 5, 6]), out=io.StringIO()) == 1
    assert compare(old, frame(score=[3, 4, 5, 6], extra=[1, 1, 1, 1]).iloc[:3],
                   out=io.StringIO()) >= 1
    # a scaled value off by more than the integer's rounding is a difference
    assert compare(frame(v=[1500, 0, 0, 0]), frame(v=[1.502, 0, 0, 0]), scale={"v": 1000},
                   out=io.StringIO()) == 1


def test_exit_codes_on_run_folders(tmp_path, capsys):
    p = TOY.prepare(TOY.load_components(), 3, ["greedy", "random", "planner"], 5)
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        p.seed = seed
        runner.run(TOY, p, 20, str(tmp_path / name), workers=1, progress=False)
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert main([str(tmp_path / "a"), str(tmp_path / "c")]) == 1
    assert "rows differ" not in capsys.readouterr().out
    assert main([str(tmp_path / "a"), str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.startswith("compare_logs: error: ")
