"""Figures and fits (issue 11, item 9): long strategy names (a full file path) are shortened in
the figures with a legend in the caption; no library warning reaches the terminal; a
degenerate Plackett-Luce fit is reported as not estimable, never as s.e. 0.000 with an
interval of zero width."""
from __future__ import annotations

import math
import warnings

import numpy as np

from reports.build import analyse_run
from analysis.ratings import fit_plackett_luce
from analysis.findings import Note
from reports.document import build_document
from reports.figures import make_figures, short_names
from reports.notes import note_text, why_text
from tests.test_report import write_run

LONG = "/home/designer/prototypes/sunset/players/my_waterfall_player.py:careful"


def test_a_fit_where_one_strategy_won_every_game_is_not_estimable():
    fit = fit_plackett_luce([((0, 1, 2), 100.0), ((0, 2, 1), 50.0)], 3)
    assert not fit.estimable
    assert (fit.why, fit.why_items) == ("never-behind", (0,))
    assert why_text(fit.why, ["greedy"]) == "greedy finished ahead of every other strategy in every game"
    assert np.isnan(fit.se).all()          # never a reassuring 0.000
    fit = fit_plackett_luce([((0, 1), 60.0), ((1, 0), 40.0)], 2)
    assert fit.estimable and fit.why == "" and (fit.se > 0).all()


def test_a_fit_with_two_groups_that_never_meet_the_other_way_is_not_estimable():
    # 0 and 1 beat each other, 2 and 3 beat each other, but {0,1} always ahead of {2,3}
    orders = [((0, 1, 2, 3), 10.0), ((1, 0, 3, 2), 10.0)]
    fit = fit_plackett_luce(orders, 4)
    assert not fit.estimable and fit.why == "split"
    assert fit.why_items == (2, 0)         # 2 never finished ahead of 0, even through others
    assert why_text(fit.why, ["c", "a"]) == ("the strategies split into groups that never "
                                           "finished behind each other (c never finished "
                                           "ahead of a, even through others)")


def _always_first_run(tmp_path, names):
    G = 600
    seat = np.tile([0, 1], G)
    win = (seat == 0).astype(float)                 # seat 1's strategy wins every game
    cols = {"game": np.repeat(np.arange(G), 2), "seat": seat, "win": win,
            "rank": np.where(win > 0, 1, 2).astype(np.int64), "score": 5 + 5 * win,
            "end_reason": np.zeros(2 * G, np.int64)}
    return write_run(tmp_path / "run", cols, names, chunk_games=300)


def test_the_report_says_the_ratings_are_not_estimable_instead_of_certain(tmp_path):
    run = _always_first_run(tmp_path, ["greedy", "random"])
    a = analyse_run(run, metadata={})
    assert a.ratings is None
    assert a.rating_note == Note("ratings-not-estimable", {"why": "never-behind",
                                                           "names": ["greedy"], "games": 600})
    assert note_text(a.rating_note).startswith("Plackett-Luce ratings not estimable: greedy "
                                               "finished ahead of every other strategy in every game")
    doc = build_document(a, [])
    blocks = [b for s in doc.sections for b in s.blocks]
    assert not any(getattr(b, "headers", None) and "s.e." in b.headers for b in blocks)
    assert any(isinstance(b, str) and b.startswith("No ratings: Plackett-Luce ratings not "
                                                   "estimable") for b in blocks)


def test_long_names_are_shortened_in_figures_with_a_legend():
    sn, legend = short_names([LONG, "greedy", "/tmp/other/my_waterfall_player.py:careful"])
    assert sn[LONG] == "careful" and sn["greedy"] == "greedy"
    assert sn["/tmp/other/my_waterfall_player.py:careful"] == "S1"   # unique labels
    assert legend == (f"Names shortened in the figure: careful = {LONG}; "
                      f"S1 = /tmp/other/my_waterfall_player.py:careful.")
    assert short_names(["greedy", "random"]) == ({"greedy": "greedy", "random": "random"}, "")


def test_a_report_with_a_file_path_strategy_makes_its_figures_without_a_warning(tmp_path):
    G = 600
    rng = np.random.default_rng(5)
    first = rng.integers(0, 2, G)
    seat = np.tile([0, 1], G)
    win = (np.repeat(first, 2) == seat).astype(float)
    cols = {"game": np.repeat(np.arange(G), 2), "seat": seat, "win": win,
            "rank": np.where(win > 0, 1, 2).astype(np.int64), "score": 5 + 5 * win,
            "end_reason": np.zeros(2 * G, np.int64)}
    run = write_run(tmp_path / "run", cols, [LONG, "greedy"], chunk_games=300)
    a = analyse_run(run, metadata={})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figs = {f.key: f for f in make_figures(a)}
    assert [str(w.message) for w in caught] == []
    assert f"careful = {LONG}" in figs["strategies"].caption
    assert f"careful = {LONG}" in figs["seats"].caption
    assert a.ratings is not None and not math.isnan(a.ratings["se"].iloc[0])


def test_a_library_warning_inside_a_command_does_not_reach_the_terminal(monkeypatch, capsys):
    from scripts import cli

    def noisy(args, out):
        warnings.warn("Tight layout not applied.", UserWarning)   # as matplotlib's
        return 0
    monkeypatch.setitem(cli.COMMANDS, "strategies", noisy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cli.main(["strategies", "sunset"]) == 0
    assert caught == []
    with warnings.catch_warnings(record=True) as caught:   # --debug shows them
        warnings.simplefilter("always")
        assert cli.main(["strategies", "sunset", "--debug"]) == 0
    assert [str(w.message) for w in caught] == ["Tight layout not applied."]
