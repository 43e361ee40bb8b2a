"""The terminal and the report show the same numbers in the same form, to the printed digit,
on a fixed run: win shares and their intervals (seats and strategies), head-to-head shares
and intervals, ratings. One aggregation (analysis/aggregate.py), one definition of each
statistic (analysis/tables.py), one formatting module (sim/formatting.py)."""
from __future__ import annotations

import re

import pytest

from sim import formatting as F
from reports.findings import verdict_lines


def cells(line: str) -> list:
    return re.split(r"\s{2,}", line.strip())


def block(text: str, title: str) -> list:
    """The rows of the terminal table under `title` (after its header and rule lines)."""
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith(title))
    rows = []
    for x in lines[i + 3:]:
        if not x.strip():
            break
        rows.append(cells(x))
    return rows


def table(doc, header0: str, must: str):
    from reports.document import Table
    for s in doc.sections:
        for b in s.blocks:
            if isinstance(b, Table) and b.headers[0] == header0 and must in b.headers:
                return b
    raise AssertionError(f"no table {header0}/{must}")


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    from sim import run
    root = tmp_path_factory.mktemp("fixed")
    # three strategies close enough that each finishes ahead of each other at least once
    # (Plackett-Luce ratings estimable): greedy, a copy, and greedy blind to goals
    (root / "v.toml").write_text('[variants.no_goal]\nbase = "greedy"\n'
                                 'params = { goal = 0.0 }\n'
                                 '[variants.greedy_copy]\nbase = "greedy"\n')
    r = run("sunset", players=3, strategies=["greedy", "greedy_copy", "no_goal"], games=300,
            seed=5, rotate_seats=True, workers=1, variants=str(root / "v.toml"),
            out=str(root / "run"))
    from reports.document import build_document
    a = r.analysis()
    return r.summary_text(), build_document(a, figures=[]), a, r.summary()


def test_seat_and_strategy_win_shares_and_intervals_agree(fixed):
    text, doc, a, s = fixed
    seats = table(doc, "seat", "win share")
    for term, rep in zip(block(text, "By seat"), seats.rows):
        assert term[0] == f"seat {rep[0].split()[-1]}"
        assert term[2:6] == [rep[3], rep[4], rep[8], rep[9]]   # share, interval, mean ± s.e., rank
    strat = table(doc, "strategy", "seat-games")
    term = {r[0]: r for r in block(text, "By strategy")}
    assert len(term) == len(strat.rows) == 3
    for rep in strat.rows:
        assert term[rep[0]][2:6] == [rep[3], rep[4], rep[6], rep[7]]
    # the verdict sentences use the same strings
    r0 = a.seats.iloc[0]
    assert F.share_interval(r0.win_share, r0.win_low, r0.win_high) in "\n".join(verdict_lines(a))
    assert F.share(r0.win_share) in verdict_lines(a)[0]


def test_head_to_head_agrees(fixed):
    text, doc, a, s = fixed
    rep = table(doc, "strategy", "finishes ahead")
    assert block(text, "Head-to-head") == rep.rows and len(rep.rows) == 3
    # one definition: the summary's pooled shares are the report analysis's
    for row in s.head_to_head.itertuples():
        assert row.ahead == pytest.approx(a.h2h.loc[row.strategy, row.versus], abs=1e-12)
        assert row.low == pytest.approx(a.h2h_low.loc[row.strategy, row.versus], abs=1e-12)


def test_ratings_agree(fixed):
    text, doc, a, s = fixed
    assert a.ratings is not None, a.rating_note
    rep = table(doc, "strategy", "log strength")
    assert block(text, "Plackett-Luce ratings") == [r[:4] for r in rep.rows]
    assert len(rep.rows) == 3


def test_compare_uses_the_same_definitions_as_the_report(fixed):
    """compare's head-to-head and ratings on the same logs are the report's (one pooled
    head-to-head, one prior)."""
    from analysis.designer import analyse_compare
    text, doc, a, s = fixed
    from analysis.tables import aggregate_run
    names = ["greedy", "greedy_copy", "no_goal"]
    from sim.run_folder import open_run
    c = analyse_compare(aggregate_run(open_run(a.run_dir)), names, 300, 1)
    for x in names:
        for y in names:
            if x != y:
                assert c.h2h.loc[x, y] == pytest.approx(a.h2h.loc[x, y], abs=1e-12)
    ra = a.ratings.set_index("strategy")
    for x in names:
        assert c.ratings.loc[x, "theta"] == pytest.approx(ra.loc[x, "theta"], abs=1e-9)


def test_the_former_compare_functions_give_the_one_definition(fixed):
    """analysis.designer.head_to_head / pl_ratings (kept for callers) are the report's
    pooled head-to-head and its ratings, not a second definition."""
    from analysis.designer import head_to_head, pl_ratings
    from sim.runner import read_logs
    text, doc, a, s = fixed
    names = ["greedy", "greedy_copy", "no_goal"]
    logs = read_logs(a.run_dir)
    share, lo, hi, games = head_to_head(logs, names)
    assert share.loc["greedy", "no_goal"] == pytest.approx(a.h2h.loc["greedy", "no_goal"], abs=1e-12)
    assert hi.loc["no_goal", "greedy"] == pytest.approx(a.h2h_high.loc["no_goal", "greedy"], abs=1e-12)
    r = pl_ratings(logs, names)
    ra = a.ratings.set_index("strategy")
    assert r.loc["no_goal", "theta"] == pytest.approx(ra.loc["no_goal", "theta"], abs=1e-9)
