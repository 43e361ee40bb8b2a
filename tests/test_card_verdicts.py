"""Card verdicts that separate cause from association (issue 11, item 2): one baseline (the
takers of the other cards of its type) in run, sweep and tune, the same numbers on the same
data, and a paired +/-1 step that says whether the players respond to a card's value."""
import math

import numpy as np
import pandas as pd
import pytest

from analysis import cards as ac

CARD = {"type": "goal", "label": "Daily goals", "names": ["A", "B", "C"], "values": [2, 2, 2],
        "mask_column": "goals_mask", "value_path": "goals[{i}].points"}


def _logs(take_prob_a, n_games=3000, players=2, seed=0, win_bonus_a=0.0):
    """Synthetic logs: each seat takes card A with probability take_prob_a (from a per-game
    uniform draw shared across configurations: common random numbers), B and C with fixed
    probabilities; exactly one winner per game, a taker of A more likely."""
    rng = np.random.default_rng(seed)
    u = rng.random((n_games, players, 3))
    taken = u < np.array([take_prob_a, 0.4, 0.3])
    mask = (taken * (1 << np.arange(3))).sum(axis=2)
    strength = rng.random((n_games, players)) + win_bonus_a * taken[:, :, 0]
    winner = strength.argmax(axis=1)
    win = np.zeros((n_games, players))
    win[np.arange(n_games), winner] = 1
    return pd.DataFrame({"game": np.repeat(np.arange(n_games), players),
                         "seat": np.tile(np.arange(players), n_games),
                         "win": win.ravel(), "goals_mask": mask.ravel().astype(np.int64)})


def test_a_card_whose_value_the_players_ignore_is_reported_as_players_do_not_respond():
    # same games, same draws: the take rate of A is the same at both values
    lo, hi = _logs(0.5, win_bonus_a=0.3), _logs(0.5, win_bonus_a=0.3)
    step = ac.paired_step(ac.per_game(lo, CARD), ac.per_game(hi, CARD), 0, 2.0)
    assert step["take"][0] == 0.0
    assert ac.response_word(step["take"][1], step["take"][2]) == "players do not respond"


def test_a_card_whose_value_changes_behaviour_is_reported_as_players_respond():
    lo, hi = _logs(0.3), _logs(0.5)   # one more point: taken more often, on the same draws
    step = ac.paired_step(ac.per_game(lo, CARD), ac.per_game(hi, CARD), 0, 2.0)
    assert step["take"][1] > 0
    assert ac.response_word(step["take"][1], step["take"][2]) == "players respond"


def test_a_measurable_but_negligible_change_in_take_rate_is_not_called_a_response():
    # +0.1 pp per point, interval excluding 0: still "do not respond" (below 0.5 pp per point)
    assert ac.response_word(0.0005, 0.0015) == "players do not respond"
    assert ac.response_word(0.004, 0.007) == "players respond"


def test_a_noisy_take_rate_is_unclear_rather_than_a_verdict():
    lo, hi = _logs(0.5, n_games=60, seed=1), _logs(0.5, n_games=60, seed=2)
    step = ac.paired_step(ac.per_game(lo, CARD), ac.per_game(hi, CARD), 0, 2.0)
    assert ac.response_word(step["take"][1], step["take"][2]) == "unclear"


def test_paired_interval_of_the_take_rate_covers_the_truth_and_is_narrower_than_unpaired():
    lo, hi = _logs(0.3, n_games=4000), _logs(0.5, n_games=4000)
    step = ac.paired_step(ac.per_game(lo, CARD), ac.per_game(hi, CARD), 0, 2.0)
    # truth: P(any of 2 seats takes A) = 1 - (1-p)^2 -> (0.75 - 0.51) / 2 points
    truth = ((1 - 0.5 ** 2) - (1 - 0.7 ** 2)) / 2
    assert step["take"][1] < truth < step["take"][2]
    a = ac.per_game(lo, CARD)["any"][:, 0].astype(float)
    b = ac.per_game(hi, CARD)["any"][:, 0].astype(float)
    unpaired_se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size) / 2
    assert (step["take"][2] - step["take"][1]) / (2 * 1.96) < unpaired_se


def test_the_gap_is_measured_against_the_takers_of_the_other_cards_not_the_non_takers():
    logs = _logs(0.5, win_bonus_a=0.3)
    w, n = ac.card_sums(logs, CARD)
    g = ac.taker_gap(w, n)
    t = ac.taken_matrix(logs, CARD)
    win = logs["win"].to_numpy(float)
    # pooled takers of B and C (a seat-game counted once per other card it took)
    peers = (win[t[:, 1]].sum() + win[t[:, 2]].sum()) / (t[:, 1].sum() + t[:, 2].sum())
    assert g["base"][0] == pytest.approx(peers)
    assert g["gap"][0] == pytest.approx(win[t[:, 0]].mean() - peers)
    assert g["gap_low"][0] > 0   # the planted advantage of A's takers is found
    assert ac.baseline_name("Daily goals") == "the takers of the other daily goals"
    # the vectorised form (tune's bootstrap replicates) is the same number
    assert ac.gap_from_sums(w, n, 0) == pytest.approx(g["gap"][0])
    reps = np.stack([w, w * 0.5])
    assert ac.gap_from_sums(reps, np.stack([n, n]), 0)[0] == pytest.approx(g["gap"][0])


def test_value_change_to_parity_only_when_gap_and_slope_are_both_beyond_their_intervals():
    assert ac.points_to_parity((0.10, 0.05, 0.15), (0.05, 0.03, 0.07)) == pytest.approx(-2.0)
    assert ac.points_to_parity((0.10, -0.01, 0.15), (0.05, 0.03, 0.07)) is None
    assert ac.points_to_parity((0.10, 0.05, 0.15), (0.0, -0.01, 0.01)) is None
