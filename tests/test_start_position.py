"""Start position is a first-class factor (issue 19, items 1, 5, 7 and the edge of a tune's
range), on a copy of the toy game whose start player is drawn at random and pays a handicap
(tests/toystart.py, `rules.start_handicap`): the seat numbers stay fair, so only a tool that
tests the start position sees the planted disadvantage. Also: every built-in declares how its
start player is chosen."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim import registry
from tests.toystart import SPEC as TOYSTART


@pytest.fixture
def start_registry(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_loaded", True)
    registry._register(TOYSTART)
    return TOYSTART


def test_every_game_declares_how_its_start_player_is_chosen():
    """Lowlands and Sagrada draw the start player at random: start position leads, from its
    log column; Grand Surfers always starts with seat 1 and Sunset Over Water has no start
    player (the wake-up cards order each day): the seat number is their fairness question."""
    from analysis.metadata import start_declaration
    from sim.registry import get_game
    want = {"lowlands": ("random", "start_order", True), "sagrada": ("random", "start_position", True),
            "surfers": ("seat 1", None, False), "sunset": ("chosen", None, False)}
    for game, (how, column, leads) in want.items():
        spec = get_game(game)
        columns = [c[0] for c in spec.columns()]
        d = start_declaration(spec.report_metadata(), columns, 4)
        assert (d["how"], d["column"], d["leads"]) == (how, column, leads), game
        assert d["note"]
        assert column is None or column in columns
    # Sagrada solo: no start position
    assert start_declaration(get_game("sagrada").report_metadata(), ["start_position"], 1)[
        "column"] is None


def test_lowlands_declares_its_game_level_outcomes_and_after_the_fact_groupings():
    from analysis.breakdowns import declared
    from sim.registry import get_game
    spec = get_game("lowlands")
    by_value, _, _ = declared(spec.report_metadata(), [c[0] for c in spec.columns()], 4)
    grouping = {b["column"]: b["grouping"] for b in by_value}
    assert grouping["start_order"] == "before" and by_value[0]["column"] == "start_order"
    assert grouping["floods_broke"] == "game" and grouping["final_breach"] == "game"
    assert grouping["route"] == "after"


def test_fair_share_table_words_each_grouping():
    from analysis.tables import fair_share_table
    before = fair_share_table([10_000, 10_000], [4_000, 6_000], 2)
    assert list(before["verdict"]) == ["disadvantaged", "favoured"]
    after = fair_share_table([10_000, 10_000], [4_000, 6_000], 2, grouping="after")
    assert list(after["verdict"]) == ["fewer wins", "more wins"]
    game = fair_share_table([10_000, 10_000], [5_000, 5_000], 2, grouping="game")
    assert game["p_holm"].isna().all()


def test_association_is_never_worded_favoured():
    from analysis.findings import Finding
    from reports.findings import flag_text, sentence
    f = Finding("association", "Route (route) 0", "more wins", "win_share", 0.40, 0.39, 0.41,
                0.25, p_holm=1e-20)
    line = sentence(f)
    assert "favoured" not in line and "association" in line and "not an effect" in line
    g = Finding("outcome", "High tides that broke the dike (count) 0", "", "game_share", 0.4,
                0.39, 0.41, detail={"games": 400, "mean_score": 50.0})
    assert "no fair share to test" in sentence(g) and "25.00%" not in sentence(g)
    assert flag_text(f)


def test_sweep_detects_a_planted_start_position_disadvantage(start_registry, tmp_path):
    from sim.api import sweep
    r = sweep("toystart", ["rules.start_handicap=0,3"], players=3, strategies="greedy",
              games=2000, out=str(tmp_path / "s"), workers=1)
    step = r.paired.set_index("quantity")
    start1 = step.loc["win share start position 1"]
    assert start1["moves"] and start1["high"] < -0.10         # the start player loses ground
    assert step.loc["win share start position 2", "moves"]
    # the largest move is the start position's, the seats' are small: random start player
    seat_moves = step.loc[[f"win share seat {s}" for s in (1, 2, 3)], "diff"].abs()
    assert seat_moves.max() < abs(start1["diff"]) / 4
    # the score moves too (a certain change: every game loses the handicap)
    assert step.loc["mean score", "moves"] and step.loc["mean score", "unit"] == "points"
    # per point: fair at 0, the start player disadvantaged at 3 (Holm across the positions)
    t = r.start.set_index(["point", "position"])
    assert t.loc[(0, 0), "verdict"] == "fair" and t.loc[(1, 0), "verdict"] == "disadvantaged"
    lines = r.document().sections[0].blocks[0]
    assert lines[0].startswith("rules.start_handicap=0: start positions fair")
    assert lines[1].startswith("rules.start_handicap=3: start position 1 (start player) ")
    assert "disadvantaged" in lines[1] and "seats fair within their intervals" in lines[1]
    assert any("win share start position 1 -" in x for x in lines)


def test_tune_balances_the_start_position_and_says_the_best_is_on_the_edge(start_registry,
                                                                          tmp_path):
    from sim.api import tune
    r = tune("toystart", ["rules.start_handicap=0..3"], objective="start-fairness", players=3,
             strategies="greedy", games=1500, set=["rules.start_handicap=3"],
             out=str(tmp_path / "t"), workers=1)
    assert r.best["label"] == "rules.start_handicap=0" and r.suggested is not None
    lines = r.lines()
    assert any("is the lower end of the range tried (0 to 3)" in x and "Widen the range" in x
               for x in lines)
    moved = r.moves[r.moves["moves"]]
    assert "win share start position 1" in set(moved["quantity"])
    # seat-fairness cannot see it: the seat numbers are fair whatever the handicap, and the
    # tune says that the start position is the game's fairness question
    s = tune("toystart", ["rules.start_handicap=0..3"], objective="seat-fairness", players=3,
             strategies="greedy", games=1500, set=["rules.start_handicap=3"],
             out=str(tmp_path / "t2"), workers=1)
    assert s.suggested is None
    assert any("--objective start-fairness balances it" in x for x in s.lines())


def test_start_fairness_is_refused_where_seat_1_always_starts():
    from sim.api import tune
    from sim.game_api import ToolkitError
    with pytest.raises(ToolkitError, match="seat 1 always starts"):
        tune("surfers", ["finish[0].score=1,2"], objective="start-fairness", players=2,
             games=10)


def test_summary_and_compare_lead_with_the_start_position(start_registry, tmp_path):
    from sim.api import compare, run
    r = run("toystart", players=3, strategies=["greedy"], games=1500,
            set={"rules.start_handicap": 2}, out=str(tmp_path / "r"), workers=1)
    text = r.summary_text()
    assert text.index("Start position") < text.index("By seat")
    start = next(b for b in r.summary().extra["breakdowns"] if b.start)
    assert start.table.loc[0, "verdict"] == "disadvantaged" and start.table.loc[0, "value"] == 1
    c = compare("toystart", players=3, strategies="greedy,planner", games=1500,
                set=["rules.start_handicap=2"], out=str(tmp_path / "c"), workers=1)
    assert c.verdicts[0].startswith("Start position 1 (start player) wins ")
    assert "disadvantaged" in c.verdicts[0]
    assert any(v.startswith("Seat numbers come second") for v in c.verdicts)


def test_a_grid_sweep_draws_the_start_position_panel_first(start_registry, tmp_path):
    """A two-field sweep of a game whose start player is not always seat 1 draws the start
    positions as a grid too (issue 19, item 5), before the seats."""
    from sim.api import sweep
    r = sweep("toystart", ["rules.start_handicap=0,3", "dice.sides=5,6"], players=2,
              strategies="greedy", games=200, out=str(tmp_path / "g"), workers=1)
    figs = [b for s in r.document().sections for b in s.blocks if hasattr(b, "png")]
    keys = [f.key for f in figs]
    assert keys.index("sweep-start") < keys.index("sweep-seat")
    start = next(f for f in figs if f.key == "sweep-start")
    assert "Position 1 is the start player" in start.caption
    assert "The grid: rules.start_handicap along x" in start.caption
