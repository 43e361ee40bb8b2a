"""Verdicts answer the question the game asks (issue 11, item 3; issue 19, items 1 and 5): a
game declares which of its breakdowns are headline questions and how their seats are grouped;
a grouping fixed before play (the start position) is tested against the fair share, Holm
across its values; one made after the game is an association; a game-level outcome gets its
distribution, no test. When the start player is not seat 1 (Sagrada), the fairness verdict is
about start position and opens the report, seat numbers second."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.breakdowns import Breakdown, headline_tests
from sim.stats import holm, proportion_test
from reports.findings import verdict_lines


def _bd(column, rows, wins, fairness=False, grouping="after"):
    rows, wins = np.asarray(rows, float), np.asarray(wins, float)
    t = pd.DataFrame({"value": range(len(rows)), "rows": rows, "wins": wins,
                      "win_share": wins / rows, "win_low": np.nan, "win_high": np.nan})
    return Breakdown(column, column, "", t, "breakdown", headline=True, fairness=fairness,
                     grouping="before" if fairness else grouping)


def test_headline_values_are_tested_against_the_fair_share_with_holm_across_each_question():
    a = _bd("start_position", [10_000, 10_000], [5_600, 4_400], fairness=True)
    # 53% of 2,000: p = 0.007 alone, still below 5% after Holm across its own two values
    b = _bd("difficulty", [2_000, 2_000], [1_060, 940])
    heads = headline_tests([a, b], players=2)
    assert heads == [a, b]
    for x in (a, b):   # Holm across the values of one question (the positions, the routes)
        raw = proportion_test(x.table["wins"], x.table["rows"], 0.5)[1]
        assert np.allclose(x.table["p_holm"], holm(raw))
    assert list(a.table["verdict"]) == ["favoured", "disadvantaged"]
    # grouped after the game: an association, never "favoured"
    assert list(b.table["verdict"]) == ["more wins", "fewer wins"]


def test_a_game_level_outcome_gets_its_distribution_and_no_fair_share_test():
    """Every seat of a game has the same value (high tides that broke the dike): each value
    wins exactly 1/players, so a test against the fair share says nothing (issue 19, 5)."""
    c = _bd("floods_broke", [4_000, 2_000, 2_000], [1_000, 500, 500], grouping="game")
    headline_tests([c], players=4)
    assert c.table["p_holm"].isna().all() and (c.table["verdict"] == "").all()
    assert list(c.table["games"]) == [1_000, 500, 500]
    assert np.allclose(c.table["game_share"], [0.5, 0.25, 0.25])
    assert (c.table["game_low"] < c.table["game_share"]).all()


def test_nothing_is_tested_in_a_solo_run():
    a = _bd("start_position", [100], [70], fairness=True)
    assert headline_tests([a], players=1) == []
    assert "verdict" not in a.table


@pytest.fixture(scope="module")
def sagrada_report(tmp_path_factory):
    from reports.build import write_report
    from scripts.cli import main
    root = tmp_path_factory.mktemp("sagrada3")
    code = main(["run", "sagrada", "--players", "3", "--games", "300", "--strategies", "greedy",
                 "--workers", "1", "--no-progress", "--out", str(root / "run")])
    assert code == 0
    return write_report(str(root / "run"), str(root / "report"), formats=("md",))


def test_sagradas_three_player_report_opens_with_the_start_position_verdict(sagrada_report):
    a = sagrada_report.analysis
    assert verdict_lines(a)[0].startswith("Start position 1 wins ")   # 1 = the start player
    assert "against a fair 33.3%" in verdict_lines(a)[0]
    assert [v.split(" wins")[0] for v in verdict_lines(a)[:3]] == [f"Start position {i}"
                                                                   for i in (1, 2, 3)]
    assert verdict_lines(a)[3].startswith("Seat numbers come second: the start player is chosen at random")
    assert verdict_lines(a)[4].startswith("Seat 1 wins ")
    md = open(sagrada_report.markdown, encoding="utf-8").read()
    verdicts = md[md.index("Verdicts"):]
    first_bullet = next(line for line in verdicts.splitlines() if line.lstrip().startswith(("-", "*")))
    assert "Start position 1 wins" in first_bullet
    # the breakdown table carries the test: Holm-adjusted p and a verdict per value
    start = next(b for b in a.breakdowns if b.column == "start_position")
    assert start.headline and {"p_holm", "verdict"} <= set(start.table.columns)
    assert "| p (Holm) | verdict |" in md


def test_other_headline_questions_get_verdict_lines_after_the_seats(sagrada_report):
    a = sagrada_report.analysis
    diff = next(b for b in a.breakdowns if b.column == "difficulty")
    assert diff.headline and diff.grouping == "after"   # the seats chose their windows
    lines = [v for v in verdict_lines(a) if v.startswith("Window difficulty (favor tokens) ")]
    assert len(lines) == len(diff.table)
    assert not any("favoured" in v or "disadvantaged" in v for v in lines)
    assert verdict_lines(a).index(lines[0]) > verdict_lines(a).index(next(v for v in verdict_lines(a)
                                                              if v.startswith("Seat 1 wins")))
