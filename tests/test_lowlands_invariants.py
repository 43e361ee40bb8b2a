"""Lowlands invariants after every step of random and built-in games (check_state_nb):
66 resource cards conserved, fences per player conserved, every housed sheep in a closed
pasture or on a tile that houses sheep, wave pieces within 0..36, farmhands conserved,
logged scores equal to the sum of their components. 10,000 checked games per player
count run in scripts/lowlands_invariants.py (too long for the suite)."""
import numpy as np
import pytest

from sim.games.lowlands import model as M
from tests.lowlands_helpers import run

SCORE_PARTS = ["pts_dike", "pts_sheep", "pts_shields", "pts_coins", "pts_cards", "pts_bonus"]


@pytest.mark.parametrize("names", [["random"] * 2, ["random"] * 3, ["random"] * 4,
                                   ["greedy", "planner"], ["dike", "shepherd", "greedy", "random"]])
def test_invariants_hold_after_every_step(names):
    code, rec = run(names, 150, seed=5, check=True)
    assert code == 0, f"check_state_nb failed with code {code}"
    assert len(rec) == 150 * len(names)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_logged_score_equals_the_sum_of_its_components(n):
    code, rec = run(["random", "greedy", "planner", "dike"][:n], 200, seed=9)
    assert code == 0
    parts = sum(rec[c] for c in SCORE_PARTS)
    assert (rec["score"] == parts).all()
    assert (rec["win"].reshape(-1, n).sum(axis=1) == 1).all()
    assert set(np.unique(rec["rank"])) <= set(range(1, n + 1))


def test_first_game_variant_never_lays_more_than_30_waves():
    code, rec = run(["random"] * 4, 100, seed=3, check=True, overrides=["rules.first_game=true"])
    assert code == 0 and (rec["first_game"] == 1).all()
