"""`balance cards` and the card verdicts of `balance report` on the real engines (issue 11,
item 2): causal answers (a paired +/-1 step on shared seeds), one baseline everywhere."""
import json
import os

import pytest

from reports.build import analyse_run
from analysis.cards import baseline_name
from analysis.designer import analyse_sweep, card_of_path, objective_rows, objective_value
from analysis.metadata import game_metadata
from scripts.cli import main
from sim.registry import get_game
from sim.runner import read_logs
from reports.findings import flag_text


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


@pytest.fixture(scope="module")
def sunset_run(tmp_path_factory):
    """1,000 four-player greedy games, seed 1: Gallery Day's takers are ahead of the takers of
    the other daily goals beyond the interval (the association the issue describes)."""
    d = tmp_path_factory.mktemp("sunset") / "run"
    assert main(["run", "sunset", "--games", "1000", "--seed", "1", "--workers", "1",
                 "--out", str(d)]) == 0
    return str(d)


def test_gallery_days_verdict_carries_its_counterfactual_advantage(sunset_run, capsys, tmp_path):
    """The report's card check: the takers' lead stays as a description of play (an
    association); the verdict is the card's advantage by counterfactual play (issue 19)."""
    # Gallery Day is an option in about 5% of games: the run's 1,000 games give ~50 states
    out, _ = run_cli(capsys, "report", sunset_run, "--out", tmp_path / "rep", "--card-check",
                     "1000", "--no-progress")
    md = (tmp_path / "rep" / "report.md").read_text()
    line = next(v for v in md.splitlines() if "Gallery Day (" in v and "performs" in v)
    assert "against" in line and "for the takers of the other daily goals" in line
    assert "an association (a description of play); by counterfactual play" in line
    assert "against its best alternative (" in line and "sampled decisions)" in line
    assert "do not respond" not in line


def test_without_the_check_a_card_flag_says_it_is_an_association_not_measured(sunset_run):
    a = analyse_run(sunset_run)
    texts = [flag_text(f) for f in a.flags if f.subject.startswith("Gallery Day (")]
    assert texts and "not measured by one run (`balance cards sunset` measures it)" in texts[0]
    assert "do not respond" not in texts[0]


def test_a_card_whose_value_steers_the_players_is_not_called_ignored(sunset_run):
    from sim.api.card_check import response_check
    a = analyse_run(sunset_run)
    # Sketchbook (the tune example): its take rate moves ~5 pp per point
    resp, _ = response_check(sunset_run, a, games=300, cards=[("commission", 25)])
    step = resp["commission"][25]
    assert step["response"] == "players respond", step["take"]
    assert step["take"][1] > 0


def test_run_sweep_and_tune_use_one_baseline_and_agree_on_the_same_games(sunset_run):
    spec = get_game("sunset")
    a = analyse_run(sunset_run)
    logs = read_logs(sunset_run)
    meta = game_metadata(spec, spec.load_components())
    path = "commissions[12].points"
    card_info = card_of_path(path, meta)
    sweep = analyse_sweep([logs], [[f"{path}=8"]], ["8"], meta, [path])
    run_gap = a.cards[0].table.loc[12, "vs_peers"]
    assert sweep.card["gap"].iloc[0] == pytest.approx(run_gap)
    # the take rate too: share of games in which some seat took it
    assert sweep.card["take_rate"].iloc[0] == pytest.approx(
        a.cards[0].table.loc[12, "taken_share_games"])
    tune_value, _ = objective_value(objective_rows(logs, "card-parity", card_infos=[card_info]))
    assert tune_value == pytest.approx(abs(run_gap))
    # and they name it the same way
    assert sweep.card_baseline == baseline_name("Commissions") == \
        "the takers of the other commissions"
    flags = [flag_text(f) for f in a.flags if f.kind == "card" and "performs" in flag_text(f)]
    assert flags and all("for the takers of the other " in t for t in flags)


def test_cards_table_covers_every_goal_and_keeps_to_the_sweep_folder_rules(tmp_path, capsys):
    out_dir = tmp_path / "cards"
    out, _ = run_cli(capsys, "cards", "sunset", "--takers", "--only", "goal", "-n", "200", "--workers", "1",
                     "--no-progress", "--out", out_dir)
    plan = json.loads((out_dir / "designer.json").read_text())
    assert plan["tool"] and plan["kind"] == "cards"
    names = [c["name"] for c in plan["result"]["cards"]]
    assert len(names) == 7 and "Gallery Day" in names
    gallery = next(c for c in plan["result"]["cards"] if c["name"] == "Gallery Day")
    assert gallery["response"] == "players do not respond"
    md = (out_dir / "report" / "report.md").read_text()
    assert "take rate per point" in md and "Gallery Day" in md
    assert (out_dir / "report" / "report.html").is_file()
    assert os.listdir(out_dir / "report" / "figures")
    # another plan in the same folder needs --overwrite, which keeps a user's file
    (out_dir / "my-notes.txt").write_text("mine")
    code = main(["cards", "sunset", "--takers", "--only", "goal", "-n", "100", "--workers", "1",
                 "--no-progress", "--out", str(out_dir)])
    assert code == 2
    assert "--overwrite" in capsys.readouterr().err
    run_cli(capsys, "cards", "sunset", "--takers", "--only", "goal", "-n", "100", "--workers", "1",
            "--no-progress", "--out", out_dir, "--overwrite")
    assert (out_dir / "my-notes.txt").read_text() == "mine"
    assert json.loads((out_dir / "designer.json").read_text())["games"] == 100


def test_cards_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    d = tmp_path / "theirs"
    d.mkdir()
    (d / "thesis.tex").write_text("x")
    code = main(["cards", "sunset", "--takers", "--only", "goal", "-n", "50", "--workers", "1",
                 "--no-progress", "--out", str(d), "--overwrite"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("balance: error:")
    assert (d / "thesis.tex").read_text() == "x" and os.listdir(d) == ["thesis.tex"]


def test_cards_names_an_unknown_card_type_in_one_line(capsys):
    code = main(["cards", "sunset", "--only", "meeple", "-n", "50"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown card type(s) meeple" in err and "commission" in err


def test_cards_works_for_another_game_with_declared_card_values(tmp_path, capsys):
    out_dir = tmp_path / "sagrada"
    out, _ = run_cli(capsys, "cards", "sagrada", "--takers", "--players", "2", "-n", "100", "--workers", "1",
                     "--only", "public", "--no-progress", "--out", out_dir)
    plan = json.loads((out_dir / "designer.json").read_text())
    cards = plan["result"]["cards"]
    assert {c["type"] for c in cards} == {"public"} and len(cards) == 10
    assert all(c["response"] in ("players respond", "players do not respond", "unclear")
               for c in cards)


def test_a_sweep_says_whether_the_players_respond_to_the_varied_cards_value(tmp_path, capsys):
    out, _ = run_cli(capsys, "sweep", "sunset", "--vary", "goals[5].points=1..3", "-n", "200",
                     "--workers", "1", "--no-progress", "--out", tmp_path / "s")
    line = next(v for v in out.splitlines() if "Gallery Day" in v)
    assert "against the takers of the other daily goals" in line
    assert "the players do not respond to its value" in line
