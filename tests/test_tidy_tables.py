"""Every DataFrame the API returns is tidy (issue 24, item 5): one column per quantity, named
by a string; an interval as `low`/`high` (or `X_low`/`X_high`) columns, never `lo`/`hi`;
never a tuple, list, dict or array in a cell. Played on Toy Cards (tests/toycards.py), small
runs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim import registry
from tests.toycards import SPEC as CARDS

CONTAINERS = (tuple, list, dict, set, np.ndarray)
SHORT_BOUNDS = ("lo", "hi")     # the names an interval's bounds never have: low, high


def untidy(frame: pd.DataFrame) -> list:
    """What makes a table not tidy (empty: tidy)."""
    problems = []
    if isinstance(frame.columns, pd.MultiIndex):
        problems.append("MultiIndex columns")
    for col in frame.columns:
        if not isinstance(col, str):
            problems.append(f"column name {col!r} is not a string")
        elif col.lower().rsplit("_", 1)[-1] in SHORT_BOUNDS:
            problems.append(f"column {col!r}: an interval's bound is named lo/hi, not "
                            f"low/high")
        bad = [c for c in frame[col] if isinstance(c, CONTAINERS)]
        if bad:
            problems.append(f"column {col!r} holds {type(bad[0]).__name__} cells ({bad[0]!r})")
    cols = set(map(str, frame.columns))
    for col in cols:
        if col.endswith("_low") and col[:-4] + "_high" not in cols:
            problems.append(f"{col} without {col[:-4]}_high")
        if col == "low" and "high" not in cols:
            problems.append("low without high")
    return problems


def frames_of(obj, names) -> dict:
    out = {}
    for name in names:
        value = getattr(obj, name)
        value = value() if callable(value) else value
        if value is not None:
            assert isinstance(value, pd.DataFrame), f"{name} is not a DataFrame"
            out[name] = value
    return out


def test_the_checker_catches_tuples_and_lone_bounds():
    assert untidy(pd.DataFrame({"gap": [(0.1, 0.0, 0.2)]}))
    assert untidy(pd.DataFrame({"x": [1.0], "x_low": [0.5]}))
    assert untidy(pd.DataFrame({0: [1.0]}))
    assert untidy(pd.DataFrame({"x": [1.0], "lo": [0.5], "hi": [1.5]}))
    assert untidy(pd.DataFrame({"x": [1.0], "x_lo": [0.5], "x_hi": [1.5]}))
    assert untidy(pd.DataFrame({"x": [1.0], "x_low": [0.5], "x_high": [1.5],
                                "names": [["a", "b"]]}))
    assert not untidy(pd.DataFrame({"x": [1.0], "x_low": [0.5], "x_high": [1.5]}))
    assert not untidy(pd.DataFrame({"x": [1.0], "low": [0.5], "high": [1.5], "hint": ["a"]}))


def test_tidy_splits_estimate_low_high_cells():
    from analysis.tables import tidy
    t = tidy(pd.DataFrame({"name": ["a", "b"], "gap": [(0.1, 0.0, 0.2), None]}))
    assert list(t.columns) == ["name", "gap", "gap_low", "gap_high"]
    assert t.loc[0, "gap_high"] == 0.2 and np.isnan(t.loc[1, "gap"])
    assert not untidy(t)


@pytest.fixture(scope="module")
def toycards(tmp_path_factory):
    reg = pytest.MonkeyPatch()
    for name, value in (("GAMES", {}), ("_ALIASES", {}), ("_load_errors", {}), ("_loaded", True)):
        reg.setattr(registry, name, value)
    registry._register(CARDS)
    yield tmp_path_factory.mktemp("tidy")
    reg.undo()


def test_every_dataframe_of_the_api_is_tidy(toycards):
    from sim.api import card_worth, cards, compare, coverage, game, open_run, run, sweep, tune
    root = toycards
    r = run("toycards", players=3, strategies="greedy,fan,greedy", games=300, seed=1,
            workers=1, out=str(root / "run"))
    r = open_run(r.path)
    s = r.summary()
    frames = {"logs": r.logs, "findings": r.findings(),
              **{f"summary.{k}": v for k, v in frames_of(s, ["seats", "strategies",
                                                             "end_reasons", "head_to_head",
                                                             "ratings"]).items()}}
    for b in s.extra.get("breakdowns") or []:
        frames[f"summary.breakdown.{b.column}"] = b.table
    c = compare("toycards", players=3, strategies=["greedy", "fan"], games=60, seed=1,
                workers=1, out=str(root / "compare"))
    frames.update({f"compare.{k}": v for k, v in
                   frames_of(c, ["shares", "seats", "head_to_head", "ratings"]).items()})
    w = sweep("toycards", vary={"cards[0].points": [2, 4]}, players=3, strategies="greedy",
              games=60, seed=1, workers=1, out=str(root / "sweep"))
    for name in ("seat", "strategy", "components", "card", "paired", "start", "outcomes"):
        value = getattr(w, name, None)
        if isinstance(value, pd.DataFrame):
            frames[f"sweep.{name}"] = value
    k = cards("toycards", players=3, strategies="greedy", games=60, seed=1, workers=1,
              out=str(root / "cards"))
    frames["cards.table"] = k.table
    t = tune("toycards", vary="cards[0].points=2,4", players=3, strategies="greedy",
             games=60, confirm_games=60, seed=1, workers=1, out=str(root / "tune"))
    frames["tune.trials"] = t.trials
    if isinstance(t.moves, pd.DataFrame):
        frames["tune.moves"] = t.moves
    p = tune("toycards", vary="cards[0].points=2,4", objective="card-parity", players=3,
             strategies="greedy", games=40, seed=1, workers=1, out=str(root / "parity"))
    frames["tune.trials (card-parity)"] = p.trials
    assert {"advantage", "advantage_low", "advantage_high"} <= set(p.trials.columns)
    w = card_worth("toycards", players=3, strategies="greedy", scan_games=40, states=20,
                   workers=1, out=str(root / "worth"))
    frames["card_worth.table"] = w.table
    v = coverage("toycards", players=3, games=30, workers=1, out=str(root / "coverage"))
    frames["coverage.table"] = v.table
    g = game("toycards")
    frames["game.play"] = g.play(g.prepare(players=3), games=5)
    assert {"cards.table", "tune.trials", "findings", "summary.seats", "sweep.seat",
            "sweep.card", "sweep.paired", "compare.ratings", "card_worth.table",
            "coverage.table"} <= set(frames)
    assert {"gap_low", "gap_high", "take_low", "take_high"} <= set(k.table.columns)
    assert {"win", "win_low", "win_high", "score_low", "score_high"} <= set(w.table.columns)
    assert {"win_low", "win_high"} <= set(frames["sweep.seat"].columns)
    assert {"low", "high"} <= set(frames["sweep.paired"].columns)
    assert {"take_rate_low", "take_rate_high", "gap_low"} <= set(frames["sweep.card"].columns)
    assert "cards[0].points" in t.trials.columns
    problems = {name: untidy(f) for name, f in frames.items()}
    assert {n: p for n, p in problems.items() if p} == {}
