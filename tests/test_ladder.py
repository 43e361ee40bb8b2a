"""`balance ladder` (scripts/cli_ladder.py, sim/api/ladders.py, analysis/ladder.py,
reports/ladder.py): the skill depth and the verdict comparison on known inputs, and the
command end to end on the toy game (small budgets, a few hundred games)."""
from __future__ import annotations

import json
import os
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analysis.ladder import analyse_ladder, compare_verdicts, skill_depth
from analysis.ratings import RATING_PRIOR
from reports.ladder import (ladder_table_text, ladder_verdict_lines, rating_note,
                            verdict_change_lines)
from scripts.cli import main
from sim.game_api import ToolkitError
from sim.registry import get_game


def test_skill_depth_counts_only_levels_separated_beyond_their_interval():
    names = ["a", "b", "c", "d"]
    theta = np.array([0.0, 0.05, 1.0, 2.0])
    cov = np.eye(4) * 0.01            # se of a difference: 0.14
    depth, steps = skill_depth(theta, cov, names)
    assert (depth, steps) == (3, ["a", "c", "d"])     # b is within a's interval
    depth, steps = skill_depth(theta, np.eye(4) * 0.25, names)   # se of a difference: 0.71
    assert depth == 2 and steps == ["a", "d"]         # wide intervals: fewer steps
    # covariance matters: strongly correlated estimates separate sooner
    cov = np.full((2, 2), 0.99) + np.eye(2) * 0.01
    assert skill_depth(np.array([0.0, 0.5]), cov, ["a", "b"])[0] == 2
    assert skill_depth(np.array([0.0, 0.5]), np.eye(2), ["a", "b"])[0] == 1


def _logs(level, ref, wins_level, n, players=2):
    """n games: the level wins the first wins_level, the reference the others."""
    rows = []
    for g in range(n):
        won = g < wins_level
        seat_l = g % players
        for s in range(players):
            mine = s == seat_l
            rows.append({"game": g, "seat": s, "strategy": level if mine else ref,
                         "rank": 1 if mine == won else 2,
                         "win": 1.0 if mine == won else 0.0})
    return pd.DataFrame(rows)


def test_ladder_ratings_order_levels_by_their_results_against_the_reference():
    levels = ["random", "planner", "mcts-50", "mcts-200"]
    logs = {"random": _logs("random", "planner", 20, 200),
            "mcts-50": _logs("mcts-50", "planner", 110, 200),
            "mcts-200": _logs("mcts-200", "planner", 160, 200)}
    res = analyse_ladder("toy", 2, "planner", levels, logs)
    t = res.table.set_index("level")
    assert list(res.table["level"]) == ["random", "planner", "mcts-50", "mcts-200"]
    assert t.loc["planner", "rating"] == 0.0
    assert t.loc["mcts-200", "win_share"] == pytest.approx(0.8)
    assert t.loc["mcts-200", "rating_low"] > 0 > t.loc["random", "rating_high"]
    # 55% of 200 games is not distinguishable from the reference: not a step of its own
    assert res.steps == ["random", "planner", "mcts-200"] and res.depth == 3
    # near the log odds against the reference (Bradley-Terry with two players), pulled a
    # little towards the other levels by the one prior (the exact value: the test below)
    assert 0.9 * np.log(0.8 / 0.2) < t.loc["mcts-200", "rating"] < np.log(0.8 / 0.2)


def test_two_player_rating_is_the_log_odds_with_one_virtual_game_each_way():
    """Bradley-Terry: one level against the reference, the rating is the log of its wins over
    its losses, each with the report's one prior (RATING_PRIOR virtual games) added."""
    res = analyse_ladder("toy", 2, "planner", ["planner", "mcts-200"],
                         {"mcts-200": _logs("mcts-200", "planner", 160, 200)})
    rating = res.table.set_index("level").loc["mcts-200", "rating"]
    assert RATING_PRIOR > 0
    assert rating == pytest.approx(np.log((160 + RATING_PRIOR) / (40 + RATING_PRIOR)), abs=1e-6)


def test_a_level_that_never_wins_still_gets_a_finite_rating_interval_and_a_skill_depth():
    """Sunset's ladder: random never beats the planner. No maximum-likelihood rating exists
    for it; the prior-regularised fit (the one prior) must still give every level a finite
    interval, mark random as held by the prior, and count the skill depth (before: no
    interval, no depth at all)."""
    levels = ["random", "planner", "mcts-50", "mcts-200"]
    logs = {"random": _logs("random", "planner", 0, 400),
            "mcts-50": _logs("mcts-50", "planner", 36, 400),
            "mcts-200": _logs("mcts-200", "planner", 119, 400)}
    res = analyse_ladder("sunset", 2, "planner", levels, logs)
    t = res.table.set_index("level")
    others = t.drop(index="planner")
    assert np.isfinite(others[["rating", "rating_se", "rating_low", "rating_high"]]).all().all()
    assert (others["rating_se"] > 0).all()
    assert list(t.index[t["prior_held"]]) == ["random"]
    # random is far below mcts-50, which is below mcts-200, below the planner: 4 steps
    assert t.loc["random", "rating_high"] < t.loc["mcts-50", "rating"]
    assert res.depth == 4 and res.steps == ["random", "mcts-50", "mcts-200", "planner"]
    assert res.fit["held"] == ["random"] and not res.fit["estimable"]
    note = rating_note(res)
    assert "random never finished ahead of another level" in note
    assert "prior" in note and "lower bound" in note
    text = ladder_table_text(res)
    row = next(line for line in text.splitlines() if line.startswith("random"))
    assert "*" in row and " to " in row          # the rating is shown with its interval
    assert text.splitlines()[-1].startswith("* random: never won or never lost")   # and why
    assert any(v.startswith("Skill depth: 4 distinguishable steps")
               for v in ladder_verdict_lines(res))


def test_the_regularised_interval_equals_the_plain_one_when_every_level_won_and_lost():
    """The prior-regularised covariance is the maximum-likelihood one when the fit is
    estimable: the fix for a level that never wins changes nothing elsewhere."""
    from analysis.ratings import fit_plackett_luce
    fit = fit_plackett_luce([((0, 1), 60.0), ((1, 0), 40.0), ((1, 2), 30.0), ((2, 1), 20.0)], 3)
    assert fit.estimable
    assert np.allclose(fit.se_prior, fit.se) and np.allclose(fit.cov_prior, fit.cov)
    never = fit_plackett_luce([((1, 0), 100.0)], 2)
    assert not never.estimable and np.isnan(never.se).all()
    assert np.isfinite(never.se_prior).all() and (never.se_prior > 0).all()


def test_the_ladder_compares_effects_not_flags():
    """Issue 19, items 3 and 6: a verdict has changed only when the difference of its effect
    between the two levels excludes 0 (a verdict lost with the same effect is less power); a
    card's effect is its advantage by counterfactual play (card-worth rows), not its takers'
    lead, and its levels (built-in players) are named apart from the seats' levels."""
    from sim.stats import wilson_interval

    def analysis(seat_wins, games):
        lo, hi = wilson_interval(np.asarray(seat_wins, float), np.full(2, games))
        share = np.asarray(seat_wins, float) / games
        seats = pd.DataFrame({"label": ["Seat 1", "Seat 2"], "wins": seat_wins,
                              "games": [games, games], "win_share": share, "win_low": lo,
                              "win_high": hi,
                              "verdict": ["favoured" if lo[0] > 0.5 else "fair",
                                          "disadvantaged" if hi[1] < 0.5 else "fair"]})
        return SimpleNamespace(seats=seats, solo=False, flags=[], cards=[], breakdowns=[],
                               players=2)

    def worth(cards):
        return [{"name": n, "type": "goal", "verdict": v, "win": w}
                for n, (v, w) in cards.items()]
    base = analysis([5_300, 4_700], 10_000)
    top = analysis([1_020, 980], 2_000)
    # Twin Falls helps with greedy, its interval holds 0 with planner: the same effect.
    # Harbour: no advantage with greedy, hurts with planner, beyond the interval.
    # Quiet Pond: no advantage at both levels: not listed. Hidden Cove: not chosen by greedy
    # and would help; chosen by planner and helps as much: holds.
    rows_b = worth({"Twin Falls": ("helps", (0.10, 0.06, 0.14)),
                    "Harbour": ("no-advantage", (0.01, -0.02, 0.04)),
                    "Quiet Pond": ("no-advantage", (0.0, -0.03, 0.03)),
                    "Hidden Cove": ("not-chosen-helps", (0.12, 0.08, 0.16))})
    rows_t = worth({"Twin Falls": ("no-advantage", (0.08, -0.01, 0.17)),
                    "Harbour": ("hurts", (-0.10, -0.14, -0.06)),
                    "Quiet Pond": ("no-advantage", (0.01, -0.03, 0.05)),
                    "Hidden Cove": ("helps", (0.11, 0.07, 0.15))})
    table = compare_verdicts(base, top, "greedy", "mcts-800",
                             worth=(rows_b, rows_t, "greedy", "planner")).set_index("verdict")
    # seat 1: favoured with greedy, "fair" with mcts-800 on fewer games: the effect is the
    # same within its interval, so the verdict holds
    seat = table.loc["Seat 1 fairness"]
    assert (seat["verdict_base"], seat["verdict_top"]) == ("favoured", "fair")
    assert (seat["level_base"], seat["level_top"]) == ("greedy", "mcts-800")
    assert not seat["changed"]
    assert seat["difference_low"] < 0 < seat["difference_high"]
    twin = table.loc["Twin Falls (goal)"]
    assert (twin["level_base"], twin["level_top"]) == ("greedy", "planner")
    assert twin["verdict_top"] == "no advantage" and not twin["changed"]
    assert twin["difference"] == pytest.approx(-0.02)
    harbour = table.loc["Harbour (goal)"]
    assert harbour["verdict_base"] == "no advantage" and harbour["changed"]
    assert harbour["difference_high"] < 0
    assert "Quiet Pond (goal)" not in table.index
    cove = table.loc["Hidden Cove (goal)"]
    assert cove["verdict_base"] == "not chosen, helps" and not cove["changed"]
    lines = verdict_change_lines(table.reset_index())
    assert lines[0].startswith("4 of 5 ")
    assert "cards (counterfactual play): greedy against planner" in lines[0]
    assert any("Twin Falls" in x and "the same effect within its interval" in x for x in lines)
    assert any("Harbour" in x and x.endswith("changed.") for x in lines)
    # without card-worth rows there are no card rows: takers' leads are never compared
    assert set(compare_verdicts(base, top, "greedy", "mcts-800")["verdict"]) == {
        "Seat 1 fairness", "Seat 2 fairness"}


LADDER = ["ladder", "toy", "--players", "2", "--games", "120", "--budgets", "8,40",
          "--verdict-games", "60", "--workers", "1", "--no-progress", "--seed", "3"]


@pytest.fixture
def template_toy(toy_registry):
    assert toy_registry.model() is not None   # the toy game is on the template
    return toy_registry


def test_ladder_end_to_end_on_the_toy_game(template_toy, in_tmp, capsys):
    out = str(in_tmp / "lad")
    assert main(LADDER + ["--out", out]) == 0
    text = capsys.readouterr().out
    for word in ("random", "greedy", "planner", "mcts-8", "mcts-40", "Skill depth",
                 "win share vs reference"):
        assert word in text
    for f in ("report/report.html", "report/report.md", "report/ladder.png",
              "designer.json", "ladder_variants.toml", "point-00/manifest.json"):
        assert os.path.isfile(os.path.join(out, f)), f
    plan = json.load(open(os.path.join(out, "designer.json")))
    assert plan["kind"] == "ladder" and plan["levels"][-2:] == ["mcts-8", "mcts-40"]
    assert plan["result"]["depth"] >= 1
    # the mcts levels really played mcts with their budgets (the manifests say so)
    man = json.load(open(os.path.join(out, "point-02", "manifest.json")))
    assert "mcts-8" in man["strategy_names"]
    assert any(s.get("base") == "mcts" and s["params"]["iterations"] == 8
               for s in man["strategies"])
    # the same command resumes (nothing to play, same table); another one is refused
    assert main(LADDER + ["--out", out]) == 0
    assert "Skill depth" in capsys.readouterr().out
    assert main(LADDER[:7] + ["200"] + LADDER[8:] + ["--out", out]) == 2
    assert "holds a different result" in capsys.readouterr().err


def test_ladder_refuses_a_folder_it_did_not_write(template_toy, in_tmp, capsys):
    folder = in_tmp / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert main(LADDER + ["--out", str(folder), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("balance: error:") and len(err.strip().splitlines()) == 1
    assert (folder / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("extra, words", [
    (["--budgets", "10,x"], "--budgets"),
    (["--budgets", "0"], "at least 1"),
    (["--rollout", "mcts"], "--rollout"),
    (["--reference", "nobody"], "--reference"),
    (["--assign", "window=random"], "toy declares no assignable choice"),
])
def test_ladder_mistakes_are_one_line(template_toy, in_tmp, capsys, extra, words):
    assert main(LADDER + extra + ["--out", str(in_tmp / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("balance: error:") and words in err[0]
    assert not os.path.exists(in_tmp / "x")


def test_a_game_declares_its_ladder_levels_and_the_strongest_is_the_reference():
    """Grand Surfers has no greedy or planner: its levels are the ones it declares, weakest
    first, and its strongest built-in (rider) is the opponent of every level by default."""
    from sim.api.ladders import levels_of
    spec = get_game("surfers")
    assert levels_of(spec, None, None) == (["random", "racer", "rider"], "rider")
    assert levels_of(spec, None, "racer") == (["random", "racer", "rider"], "racer")
    # a game that declares none: random, greedy, planner (those it has), planner the reference
    assert levels_of(get_game("sunset"), None, None) == (["random", "greedy", "planner"], "planner")


def test_a_declared_ladder_level_that_is_not_a_built_in_is_one_line(monkeypatch):
    from sim.api.ladders import levels_of
    spec = get_game("surfers")
    monkeypatch.setattr(type(spec), "skill_levels", ("random", "ryder"))
    with pytest.raises(ToolkitError, match="skill_levels names ryder, not a built-in"):
        levels_of(spec, None, None)
