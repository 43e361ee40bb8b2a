"""The report a designer would publish (issue 24): what was played under the title (the
component values changed from the shipped file, by card name; the players and their
parameters), the first screen's answers, verdicts folded, several runs side by side."""
from __future__ import annotations

import pytest

from analysis.played import component_changes, player_groups
from reports.build import write_report
from reports.document import Folded, build_document
from reports.figures import make_figures
from reports.first_screen import key_points
from tests.test_report import make_run, synthetic_meta

SHIPPED = '''
[rules]
start_handicap = 1
tiles = [
  { name = "Barn", shields = 2, cost = [1, 1, 0] },
  { name = "Mill", shields = 1, cost = [0, 1, 1] },
]
'''


def test_component_changes_are_named_by_card():
    played = SHIPPED.replace('"Barn", shields = 2', '"Barn", shields = 3').replace(
        "start_handicap = 1", "start_handicap = 0")
    t = component_changes(SHIPPED, played, {"tiles": "tile"})
    rows = {(r.item, r.kind, r.field): (r.shipped, r.played) for r in t.itertuples()}
    assert rows == {("", "", "rules.start_handicap"): ("1", "0"),
                    ("Barn", "tile", "shields"): ("2", "3")}
    assert component_changes(SHIPPED, SHIPPED).empty


def test_player_groups_keep_parameters():
    m = {"strategies": [{"name": "greedy", "params": {"card": 0.6}},
                        {"name": "planner", "params": {}},
                        {"name": "greedy", "params": {"card": 0.6}}]}
    t = player_groups(m)
    assert list(t.strategy) == ["greedy", "planner"]
    assert list(t.seats) == ["1, 3", "2"] and list(t.parameters) == ["card=0.6", ""]


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    from reports.build import analyse_run
    run, meta = make_run(tmp_path_factory.mktemp("rot") / "run", "rotated")
    return analyse_run(run, metadata=meta)


def test_the_first_screen_answers_with_intervals_and_charts(rotated):
    points = key_points(rotated)
    assert [p.heading for p in points[:2]] == ["Fairness: seats", "Strategies"]
    assert len(points) == 2 + 3
    fairness = points[0]
    assert fairness.figure is not None and fairness.figure.png[:4] == b"\x89PNG"
    assert " to " in fairness.line and "fair 25%" in fairness.line
    # Seat 1 is planted favoured in the rotated synthetic run
    assert fairness.line.startswith("Seat 1 wins ") and fairness.alert
    cards = points[2:]
    assert cards[0].line.startswith("Card 2 (commission, 4 points): ")   # the planted strong card
    assert all(p.figure is not None for p in cards)


def test_verdicts_are_folded_and_whole(rotated):
    from reports.findings import verdict_lines
    doc = build_document(rotated, make_figures(rotated))
    assert [s.anchor for s in doc.sections[:3]] == ["played", "summary", "verdicts"]
    folded = [b for b in doc.sections[2].blocks if isinstance(b, Folded)]
    assert folded[0].blocks[0] == verdict_lines(rotated)
    assert "flags" in folded[1].summary


def test_a_report_of_several_runs_side_by_side(tmp_path):
    """Run.report(others=...) as `balance report RUN1 RUN2`: one verdict table with a column
    per run, each run's own report linked."""
    from sim.api import open_run
    from tests.test_report import synthetic_logs, write_run
    dirs = []
    for k, n in enumerate((1500, 2100)):
        cols, strategies = synthetic_logs("rotated", n, seed=k + 3)
        dirs.append(str(write_run(tmp_path / f"run{k}", cols, strategies, chunk_games=700)))
    files = open_run(dirs[0]).report(str(tmp_path / "both"), card_check=0, others=[dirs[1]])
    html = open(files.html, encoding="utf-8").read()
    md = open(files.markdown, encoding="utf-8").read()
    assert "Verdicts, run by run" in html and "run 1" in html and "run 2" in html
    assert (tmp_path / "both" / "run-1" / "report.html").is_file()
    assert "](run-2/report.md)" in md and 'href="run-2/report.html"' in html
    assert "several-fairness" in md
    assert len(files.analyses) == 2
    # one row per verdict subject, one column per run
    line = next(x for x in md.splitlines() if x.startswith("| Seat 1 |"))
    assert line.count("|") == 4 and "favoured" in line


def test_what_was_played_sits_under_the_title(tmp_path):
    run, meta = make_run(tmp_path / "run", "mixed", n_games=1400)
    files = write_report(str(run), str(tmp_path / "rep"), metadata=meta, formats=("md",))
    md = open(files.markdown, encoding="utf-8").read()
    played = md[md.index("## What was played"):md.index("## At a glance")]
    assert "Synthetic Game, 4 players, 1,400 games (seed 7)" in played
    assert "planner in seat 1 (skill=1)" in played
    assert synthetic_meta()["cards"][0]["label"] in md


def test_what_was_played_names_the_changed_components(toy_registry, tmp_path):
    """A --set value reads under the title as the change from the shipped file."""
    from sim.api import run
    r = run("toy", players=2, games=200, seed=1, set=["dice.sides=8"], workers=1,
            out=str(tmp_path / "run"))
    files = r.report(str(tmp_path / "rep"), formats=("md",), card_check=0)
    md = open(files.markdown, encoding="utf-8").read()
    played = md[md.index("## What was played"):md.index("## At a glance")]
    assert "Changed from the shipped components (--set dice.sides=8): dice.sides: 6 -&gt; 8." \
        in played
