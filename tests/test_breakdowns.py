"""Game-declared breakdowns in the report (analysis/breakdowns.py): win share and mean score
by a log column, and per-strategy means, equal to a direct pandas computation."""
import numpy as np

from reports.build import analyse_run
from reports.build import write_report
from sim import runner
from sim.registry import get_game


def test_sagrada_breakdowns_match_pandas(tmp_path):
    spec = get_game("sagrada")
    prepared = spec.prepare(spec.load_components(), 3, ["planner", "greedy", "random"], 3)
    out = str(tmp_path / "run")
    runner.run(spec, prepared, 300, out, workers=1, chunk_size=70, progress=False)
    a = analyse_run(out)
    by = {b.column: b for b in a.breakdowns}
    assert {"difficulty", "start_position", "tool_uses", "empty_cells", "tokens_left"} <= set(by)
    assert not {"solo_tools", "margin", "target"} & set(by)   # solo-only entries ("players": [1])
    logs = runner.read_logs(out)
    d = by["difficulty"].table.set_index("value")
    g = logs.groupby("difficulty")
    assert list(d.index) == sorted(g.groups)
    assert np.allclose(d["win_share"], g["win"].mean().to_numpy())
    assert np.allclose(d["mean_score"], g["score"].mean().to_numpy())
    assert (d["win_low"] <= d["win_share"]).all() and (d["win_share"] <= d["win_high"]).all()
    e = by["empty_cells"].table.set_index("value")
    assert np.allclose(e["mean"], logs.groupby("strategy", observed=True)["empty_cells"].mean()
                       .reindex(e.index).to_numpy())
    files = write_report(out, str(tmp_path / "rep"))
    text = open(files.markdown).read()
    assert "## Window difficulty" in text and "Do the favor tokens of a hard window" in text
    assert "figures/breakdown-difficulty.png" in text


def test_a_card_several_seats_hold_counts_once_per_game(tmp_path):
    """Grand Surfers' 'actions' can be used by every seat in one game: the share of games a
    card appears in is at most 100% and equals a direct count."""
    spec = get_game("surfers")
    prepared = spec.prepare(spec.load_components(), 4, ["racer", "blocker", "builder", "random"], 2)
    out = str(tmp_path / "run")
    runner.run(spec, prepared, 200, out, workers=1, progress=False)
    a = analyse_run(out)
    logs = runner.read_logs(out)
    for sec in a.cards:
        card = next(c for c in a.meta["cards"] if c["type"] == sec.type)
        masks = logs[card["mask_column"]].to_numpy(np.int64).reshape(-1, 4)
        for r in sec.table.itertuples():
            any_seat = ((masks >> np.int64(r.card)) & 1).any(axis=1).mean()
            assert r.taken_share_games <= 1.0 and abs(r.taken_share_games - any_seat) < 1e-12


def test_sagrada_solo_balance_in_the_summary_and_the_report(tmp_path, capsys):
    """Solo: the win rate against the target by difficulty (tool cards) with its Wilson
    interval, the margin against the target and the target's distribution, printed by the
    summary and in the report, equal to a direct computation from the logs."""
    import re

    from sim.stats import wilson_interval
    from scripts.cli import main
    out = str(tmp_path / "solo")
    assert main(["run", "sagrada", "--players", "1", "--games", "400", "--strategies", "planner",
                 "--seed", "3", "--out", out, "--no-progress", "--workers", "1",
                 "--set", "rules.solo_tools=5"]) == 0
    text = capsys.readouterr().out
    logs = runner.read_logs(out)
    assert (logs["solo_tools"] == 5).all()
    assert (logs["margin"] == logs["score"] - logs["target"]).all()
    assert (logs["win"] == (logs["margin"] > 0)).all()
    wins, n = logs["win"].sum(), len(logs)
    lo, hi = wilson_interval(wins, n)
    row = re.search(r"^5\s+400\s+([0-9.]+)%\s+([0-9.]+) to ([0-9.]+)", text, re.M)
    assert "Solo difficulty" in text and row, text
    assert [float(x) for x in row.groups()] == [round(wins / n * 100, 2), round(lo * 100, 2),
                                                round(hi * 100, 2)]
    m = re.search(r"^planner\s+400\s+(-?[0-9.]+)\s+-?[0-9.]+ to ", text.split("Solo margin")[1], re.M)
    assert m and float(m.group(1)) == round(logs["margin"].mean(), 2)

    a = analyse_run(out)
    by = {(b.kind, b.column): b for b in a.breakdowns}
    assert ("breakdown", "start_position") not in by and ("per_strategy", "tokens_left") not in by
    d = by[("breakdown", "solo_tools")].table
    assert list(d["value"]) == [5] and np.isclose(d["win_share"].iloc[0], wins / n)
    assert np.isclose(d["win_low"].iloc[0], lo) and np.isclose(d["win_high"].iloc[0], hi)
    t = by[("breakdown", "target")].table
    bins = (logs["target"] // 5) * 5
    expect = bins.value_counts().sort_index()
    assert list(t["value"]) == [f"{b} to {b + 4}" for b in expect.index]
    assert list(t["rows"]) == list(expect.to_numpy()) and t["rows"].sum() == n
    assert np.isclose(by[("per_strategy", "margin")].table["mean"].iloc[0], logs["margin"].mean())
    files = write_report(out, str(tmp_path / "rep"))
    md = open(files.markdown).read()
    assert "## Solo difficulty" in md and "## Solo target score" in md


def test_a_breakdowns_codes_are_shown_by_their_declared_names(tmp_path):
    """Every code a reader sees has a name (issue 24, item 6): a breakdown declaring
    "value_names" shows the names in its table (in code order) and in the sweep's quantities."""
    import pandas as pd

    from analysis.breakdowns import compute, declared
    from analysis.designer import per_game_quantities
    meta = {"breakdowns": [{"column": "route", "label": "Route", "grouping": "after",
                            "value_names": {"0": "dike", 1: "sheep", 2: "neither"}}]}
    logs = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
                         "strategy": ["a"] * 6, "win": [1.0, 0, 0, 1, 1, 0],
                         "score": [3, 1, 2, 4, 5, 5], "route": [0, 1, 1, 0, 2, 1]})
    path = str(tmp_path / "chunk.parquet")
    logs.to_parquet(path)
    by_value, _, _ = declared(meta, list(logs.columns), 2)
    from sim.run_folder import Logs
    t = compute(Logs([path]), by_value, [])[0].table
    assert list(t["value"]) == ["dike", "sheep", "neither"]
    assert list(t["rows"]) == [2, 3, 1] and list(t["wins"]) == [2.0, 0.0, 1.0]
    names = [q[0] for q in per_game_quantities(logs, meta, 2)]
    assert {"seats with route: dike", "seats with route: sheep",
            "seats with route: neither"} <= set(names)
