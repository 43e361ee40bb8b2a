"""Every CLI command gives the numbers of the library call it wraps (sim/api): the command
line only parses, calls and prints, so a designer in a notebook and one in a terminal read
the same results. One test per command, on small runs."""
from __future__ import annotations

import os
import re

import pandas as pd
import pytest

from sim import formatting as F
from scripts.cli import main

GAME = "sunset"
RUN = ["--players", "3", "--strategies", "planner,greedy,random", "--seed", "11",
       "--workers", "1", "--no-progress"]
API = dict(players=3, strategies=["planner", "greedy", "random"], seed=11, workers=1)


def cli(capsys, *argv) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def after(text: str, marker: str) -> str:
    return text[text.index(marker):]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """The same run made by the CLI and by the API."""
    import io
    import contextlib
    from sim import run
    root = tmp_path_factory.mktemp("pair")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["run", GAME, "--games", "240", *RUN, "--out", str(root / "cli")]) == 0
    api = run(GAME, games=240, out=str(root / "api"), **API)
    return root / "cli", api, buf.getvalue()


def test_run_command_prints_the_summary_of_the_api_run(pair):
    cli_dir, api, out = pair
    from sim.runner import read_logs
    a, b = read_logs(str(cli_dir)), api.logs
    cols = [c for c in a.columns if c != "run_id"]
    pd.testing.assert_frame_equal(a[cols], b[cols])          # the same games
    # the printed tables are the API's summary, cell for cell
    assert after(out, "By seat") == after(api.summary_text(), "By seat") + "\n"
    s = api.summary()
    for seat, r in s.seats.iterrows():
        line = next(x for x in out.splitlines() if x.startswith(f"seat {seat + 1} "))
        assert F.share(r.win_share) in line and F.interval(r.win_low, r.win_high) in line


def test_summary_command_equals_open_run_summary(pair, capsys):
    cli_dir, _, _ = pair
    from sim import open_run
    out = cli(capsys, "summary", cli_dir)
    r = open_run(str(cli_dir))
    assert after(out, "By seat") == after(r.summary_text(), "By seat") + "\n"
    h2h = r.summary().head_to_head
    assert len(h2h) == 3
    for row in h2h.itertuples():   # every head-to-head pair, as the API computes it
        assert re.search(rf"{row.strategy}\s+{row.versus}\s+{re.escape(F.share(row.ahead))}\s+"
                         rf"{re.escape(F.interval(row.low, row.high))}", out)


def test_report_command_equals_run_report(pair, capsys, tmp_path):
    cli_dir, _, _ = pair
    from sim import open_run
    out = cli(capsys, "report", cli_dir, "--out", tmp_path / "r1", "--card-check", "0",
              "--no-progress")
    files = open_run(str(cli_dir)).report(str(tmp_path / "r2"), card_check=0)
    table = lambda p: [x for x in open(p).read().splitlines() if x.startswith("|")  # noqa: E731
                       and not x.startswith(("| report built in", "| time taken"))]
    assert table(tmp_path / "r1" / "report.md") == table(files.markdown)
    for v in files.verdicts[:8]:
        assert v in out


def test_run_findings_are_the_report_verdicts_as_data(pair, tmp_path):
    """`Run.findings()` hands the report's verdicts and flags to Python as a DataFrame (one
    row per finding, numbers as numbers); its sentences are the lines the report prints."""
    cli_dir, _, _ = pair
    from sim import open_run
    r = open_run(str(cli_dir))
    t = r.findings(card_check=0)
    files = r.report(str(tmp_path / "rep"), card_check=0)
    assert list(t.sentence[t.is_verdict]) == files.verdicts
    # three strategies, each in its own seat: no seat verdict, the seating says why
    assert t.iloc[0].kind == "seating" and t.iloc[0].verdict == "confounded"
    strat = t[(t.kind == "strategy") & t.is_verdict].set_index("subject")
    assert {"planner", "greedy", "random"} <= set(strat.index)
    shares = r.summary().strategies["win_share"]      # indexed by strategy
    for name in ("planner", "greedy", "random"):
        assert strat.loc[name, "value"] == pytest.approx(shares[name], abs=1e-12)
    assert t.is_flag.dtype == bool and t.value.dtype == float


def test_replay_command_equals_run_replay(pair, capsys):
    cli_dir, _, _ = pair
    from sim import open_run
    out = cli(capsys, "replay", cli_dir, "--game", "7")
    assert out.splitlines() == open_run(str(cli_dir)).replay(7)


def test_compare_command_equals_compare_call(capsys, tmp_path):
    from sim import compare
    out = cli(capsys, "compare", GAME, "--players", "2", "--strategies", "greedy,random",
              "-n", "200", "--workers", "1", "--no-progress", "--out", tmp_path / "c1")
    r = compare(GAME, players=2, strategies="greedy,random", games=200, workers=1,
                out=str(tmp_path / "c2"))
    assert r.verdicts and all(line in out for line in r.verdicts)
    h = r.head_to_head.iloc[0]
    assert F.share_interval(h.ahead, h.low, h.high) in out
    assert os.path.isfile(tmp_path / "c1" / "report" / "report.html")


def test_sweep_command_equals_sweep_call(capsys, tmp_path):
    from sim import sweep
    out = cli(capsys, "sweep", GAME, "--players", "2", "--strategies", "greedy",
              "--vary", "commissions[0].points=3,6", "-n", "150", "--workers", "1",
              "--no-progress", "--out", tmp_path / "s1")
    r = sweep(GAME, vary={"commissions[0].points": [3, 6]}, players=2, strategies="greedy",
              games=150, workers=1, out=str(tmp_path / "s2"))
    lines = [x for block in r.document().sections[0].blocks for x in block]
    assert lines and all(x in out for x in lines)
    assert len(r.seat) == 4 and set(r.seat["point"]) == {0, 1}


def test_tune_command_equals_tune_call(capsys, tmp_path):
    from sim import tune
    out = cli(capsys, "tune", GAME, "--players", "2", "--strategies", "greedy",
              "--vary", "commissions[0].points=3,6", "-n", "100", "--confirm-games", "100",
              "--workers", "1", "--no-progress", "--out", tmp_path / "t1")
    r = tune(GAME, vary="commissions[0].points=3,6", players=2, strategies="greedy",
             games=100, confirm_games=100, workers=1, out=str(tmp_path / "t2"))
    for t in r.trials.itertuples():
        assert f"tune trial {t.trial}: {t.label}: seat-fairness {t.value:.4f}" in out
    assert r.decision.split(str(tmp_path / "t2"))[0] in out


def test_cards_command_equals_cards_call(capsys, tmp_path):
    from sim import game
    from sim.api import cards   # sim.cards is the engine's module: the call lives in sim.api
    meta = game(GAME).spec.report_metadata(game(GAME).load_components())
    kind = [c["type"] for c in meta["cards"] if c.get("value_path")][-1]
    out = cli(capsys, "cards", GAME, "--takers", "--players", "2", "--strategies", "greedy", "--only", kind,
              "-n", "60", "--workers", "1", "--no-progress", "--out", tmp_path / "k1")
    r = cards(GAME, players=2, strategies="greedy", only=kind, games=60, workers=1,
              out=str(tmp_path / "k2"))
    lines = r.document().sections[0].blocks[0]
    assert lines and all(x in out for x in lines)
    assert len(r.table) == len(r.steps) > 0


def test_ladder_command_equals_ladder_call(toy_registry, capsys, tmp_path):
    """`balance ladder` prints the table, verdicts and notes of `sim.ladder(...)` with the
    same options, and its folder holds the same plan and ratings (the toy game, small
    budgets: a few hundred quick games, as tests/test_ladder.py)."""
    import json
    from sim import ladder
    out = cli(capsys, "ladder", "toy", "--players", "2", "--games", "120", "--budgets", "8,40",
              "--verdict-games", "60", "--seed", "3", "--workers", "1", "--no-progress",
              "--out", tmp_path / "l1")
    kw = dict(players=2, games=120, budgets=[8, 40], verdict_games=60, seed=3, workers=1)
    r = ladder("toy", out=str(tmp_path / "l2"), **kw)
    assert r.levels[-2:] == ["mcts-8", "mcts-40"] and r.games == 120
    assert r.table_text() in out                      # the ladder table, cell for cell
    assert r.verdicts and all(line in out for line in r.verdicts + r.notes)
    assert any(line.startswith("Skill depth:") for line in r.verdicts)
    plan = json.load(open(tmp_path / "l1" / "designer.json"))
    assert plan["result"] == {"games": r.games, "depth": r.depth, "strongest": r.strongest}
    # the API on the CLI's folder resumes its plan (nothing left to play) and reads the CLI's
    # games: the very numbers of the API's own games
    again = ladder("toy", out=str(tmp_path / "l1"), **kw)
    pd.testing.assert_frame_equal(again.table, r.table)
    if r.verdict_table is not None:
        pd.testing.assert_frame_equal(again.verdict_table, r.verdict_table)
    assert os.path.isfile(tmp_path / "l1" / "report" / "report.html")
    files = r.report()
    assert files["png"] == str(tmp_path / "l2" / "report" / "ladder.png")
    assert os.path.isfile(files["html"]) and os.path.isfile(files["md"])


def test_out_none_writes_a_temporary_folder():
    import tempfile
    from sim import run
    r = run(GAME, players=2, games=20, seed=3, workers=1)
    assert r.temporary and r.path.startswith(os.path.realpath(tempfile.gettempdir()))
    assert len(r.logs) == 40 and r.manifest["games"] == 20


def test_set_dict_equals_cli_set_texts(tmp_path):
    from sim import game
    g = game(GAME)
    a = g.load_components(set={"commissions[0].points": 9, "rules.wake_tie": "seat"})
    b = g.load_components(set=["commissions[0].points=9", 'rules.wake_tie="seat"'])
    assert a.data == b.data and a.data["commissions"][0]["points"] == 9
