"""Assigned choices (issue 19, item 2): `--assign window=random` makes Sagrada's window an
experiment. The harness draws the window uniformly among the seat's dealt sides from its own
stream (sim/harness.py, sim/assign.py): the same logs on any workers and chunk size, the
same deals as without assignment, never the strategy's answer; the manifest records it, a
resume with another assignment is refused, reports say it, and windows are a card type."""
import json
import os

import numpy as np
import pyarrow.parquet as pq
import pytest

from scripts.cli import main
from sim import run
from sim.game_api import ToolkitError
from sim.registry import get_game

GAMES = 120
WINDOW = {"window": "random"}


def _frame(r):
    return r.logs.drop(columns=["run_id"]).sort_values(["game", "seat"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Four-player greedy Sagrada, seed 5: assigned (one worker, one chunk), assigned again
    (two workers, chunks of 7), and the same games with the players choosing."""
    root = tmp_path_factory.mktemp("assign")
    one = run("sagrada", players=4, games=GAMES, seed=5, out=str(root / "one"), assign=WINDOW,
              workers=1, chunk_size=GAMES)
    two = run("sagrada", players=4, games=GAMES, seed=5, out=str(root / "two"),
              assign=["window=random"], workers=2, chunk_size=7)
    chosen = run("sagrada", players=4, games=GAMES, seed=5, out=str(root / "chosen"), workers=1)
    return one, two, chosen


def _dealt_sides(n_players, seed, games):
    """Each seat's legal window options (the sides of its dealt cards), per game, from the
    model's own set-up with the run's game seeds."""
    from sim.games.sagrada import SPEC
    from sim.games.sagrada.nb import new_state, window_options_nb
    from sim.games.sagrada.model import setup_nb
    from sim.rng import game_seed_nb
    tables = SPEC.pack_tables(SPEC.load_components())
    state = new_state()
    opts = np.zeros(64, np.int64)
    out = {}
    for g in range(games):
        setup_nb(tables[0], state[0], n_players, np.uint64(game_seed_nb(np.uint64(seed), g)),
                 np.zeros((0, 6), np.int64), np.zeros(1, np.int64))
        for p in range(n_players):
            n = window_options_nb(tables[0], state[0], p, opts)
            out[g, p] = list(opts[:n])
    return out


def test_assigned_runs_give_the_same_logs_on_any_workers_and_chunk_size(runs):
    one, two, _ = runs
    assert _frame(one).equals(_frame(two))


def test_assignment_keeps_the_deals_and_changes_only_the_windows(runs):
    one, _, chosen = runs
    a, c = _frame(one), _frame(chosen)
    for col in ("private", "public_1", "public_2", "public_3", "tools_mask", "start_position"):
        assert a[col].equals(c[col]), col          # stream 0 (chance) is untouched
    assert (a["window"] != c["window"]).mean() > 0.4


def test_the_assigned_window_is_uniform_over_the_dealt_sides_not_the_strategys(runs):
    one, _, chosen = runs
    sides = _dealt_sides(4, 5, GAMES)
    a, c = _frame(one), _frame(chosen)
    pos, same = [], []
    for ra, rc in zip(a.itertuples(), c.itertuples()):
        legal = sides[ra.game, ra.seat]
        assert ra.window in legal and rc.window in legal
        pos.append(legal.index(ra.window))
        same.append(ra.window == rc.window)
    counts = np.bincount(pos, minlength=4)
    n = len(pos)
    chi2 = float(((counts - n / 4) ** 2 / (n / 4)).sum())
    assert chi2 < 16.27, counts                    # uniform over the 4 sides (p > 0.001, 3 df)
    # greedy's own choice is one fixed side; the draw agrees with it about 1 time in 4
    assert 0.15 < np.mean(same) < 0.35, np.mean(same)


def test_the_manifest_and_the_chunks_record_the_assignment(runs):
    one, _, chosen = runs
    m = one.manifest
    assert m["config"]["assigned"] == {"window": "random"}
    assert [x["choice"] for x in m["assigned"]] == ["window"]
    assert "difficulty" in m["assigned"][0]["columns"]
    assert chosen.manifest["assigned"] == [] and "assigned" not in chosen.manifest["config"]
    chunk = os.path.join(one.path, "chunks", m["chunks"][0]["file"])
    meta = pq.read_schema(chunk).metadata
    assert json.loads(meta[b"assigned"]) == {"window": "random"}


def test_summary_and_report_say_what_was_assigned_and_what_was_chosen(runs, tmp_path):
    one, _, chosen = runs
    assert "Window assigned at random" in one.summary_text()
    assert "Window chosen by the players" in chosen.summary_text()
    files = one.report(str(tmp_path / "rep"), formats=("md",), card_check=0)
    md = open(files.markdown, encoding="utf-8").read()
    assert "assigned at random (--assign window=random)" in md        # What was run
    # the window difficulty table and the windows card section
    assert md.count("this comparison is an experiment, the effect of the window itself") == 2


def test_a_resume_with_another_assignment_is_refused(runs):
    one, _, _ = runs
    with pytest.raises(ToolkitError, match="differs in: assigned"):
        run("sagrada", players=4, games=GAMES, seed=5, out=one.path, workers=1)


def test_the_replay_of_an_assigned_run_is_its_logged_game(runs):
    one, _, _ = runs
    lines = one.replay(3)       # replay_lines checks the replay against the logged game
    assert lines[0].startswith("assigned at random in this run, not chosen by the strategies: "
                               "window")


def test_an_unknown_choice_is_one_error_line_naming_the_valid_ones(capsys, tmp_path):
    code = main(["run", "sagrada", "--games", "10", "--assign", "windw=random",
                 "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0] == "balance: error: --assign windw: unknown choice of sagrada (valid: window)"
    assert not (tmp_path / "x").exists()
    code = main(["sweep", "lowlands", "--vary", "tiles[0].shields=1,2", "--assign",
                 "farm=random", "--out", str(tmp_path / "y")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "lowlands declares no assignable choice" in err[0]
    code = main(["run", "sagrada", "--games", "10", "--assign", "window=seat",
                 "--out", str(tmp_path / "z")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "valid: random" in err[0]


def test_every_game_declares_its_assignable_choices():
    from sim.registry import list_games
    for spec in list_games():
        for choice, d in spec.assignable().items():
            assert isinstance(d["decision"], int) and d["what"] and d["columns"], (spec.name,
                                                                                   choice)
    assert set(get_game("sagrada").assignable()) == {"window"}


def test_windows_are_a_card_type_that_cards_sweep_and_tune_accept():
    from analysis.designer import card_of_path
    spec = get_game("sagrada")
    comp = spec.load_components()
    meta = spec.report_metadata(comp)
    window = next(c for c in meta["cards"] if c["type"] == "window")
    assert window["value_path"] == "windows[{i}].difficulty"
    i = comp.card_names["window"].index("Ripples of Light")
    assert card_of_path(f"windows[{i}].difficulty", meta) is not None


def test_cards_only_window_is_accepted_and_plays_the_windows(tmp_path, capsys):
    code = main(["cards", "sagrada", "--takers", "--only", "window", "--players", "2", "-n", "20",
                 "--workers", "1", "--no-progress", "--assign", "window=random",
                 "--out", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert code == 0, err
    plan = json.loads((tmp_path / "c" / "designer.json").read_text())
    assert plan["assign"] == ["window=random"]
    cards = plan["result"]["cards"]
    assert {c["type"] for c in cards} == {"window"} and len(cards) == 24


def test_sweep_and_compare_play_every_configuration_with_the_assignment(tmp_path):
    from sim import compare, sweep
    s = sweep("sagrada", {"windows[Ripples of Light].difficulty": [5, 6]}, players=2, games=30,
              seed=2, out=str(tmp_path / "s"), workers=1, assign=WINDOW)
    c = compare("sagrada", players=2, strategies=["greedy", "random"], games=40, seed=2,
                out=str(tmp_path / "c"), workers=1, assign=["window=random"])
    for root in (s.path, c.path):
        plan = json.loads(open(os.path.join(root, "designer.json")).read())
        assert plan["assign"] == ["window=random"]
        subs = [d for d in os.listdir(root) if d.startswith(("point-", "seat-"))]
        assert len(subs) == 2
        for d in subs:
            m = json.loads(open(os.path.join(root, d, "manifest.json")).read())
            assert m["config"]["assigned"] == {"window": "random"}


def test_card_flags_of_an_assigned_choice_are_worded_as_an_experiment(runs):
    """A window flag of an assigned run is an experiment, never "this is an association"; the
    same flag of a run whose players chose keeps the association wording (issue 19)."""
    from reports.build import analyse_run
    from analysis.findings import Finding
    from reports.findings import flag_text
    one, _, chosen = runs
    detail = {"value_text": "5 favour tokens", "label": "Windows", "game": "sagrada",
              "choice": "window", "solo": False}
    flag = dict(kind="card", subject="Window 'Gravitas'", verdict="over-performs",
                statistic="takers_win_share", value=0.38, low=0.35, high=0.41, reference=0.24,
                reference_low=0.23, reference_high=0.25, effect=0.14, effect_low=0.11,
                effect_high=0.17, unit="pp")
    text = flag_text(Finding(**flag, detail={**detail, "assigned": True}))
    assert "this is an association" not in text
    assert "the window was assigned at random in this run" in text and "an experiment" in text
    assert "this is an association" in flag_text(Finding(**flag, detail={**detail,
                                                                        "assigned": False}))
    # the analysis marks the window findings of the assigned run (and only of that run)
    a, c = analyse_run(one.path), analyse_run(chosen.path)
    win_a = next(s for s in a.cards if s.type == "window")
    win_c = next(s for s in c.cards if s.type == "window")
    assert win_a.findings and win_c.findings
    for f in a.flags:
        if f.kind == "card" and f.get("choice") == "window" and f.effect is not None:
            assert "association" not in flag_text(f)
    chosen_windows = [f for f in c.flags if f.kind == "card" and f.get("choice") == "window"]
    assert chosen_windows and all(f.get("assigned") is False for f in chosen_windows)
