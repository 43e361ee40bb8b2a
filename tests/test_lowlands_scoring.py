"""The engine's storm surge and final scoring against the naive reference scorer
(tests/naive_lowlands.py), on states from played games (built tiles, pastures, breaches)."""
import numpy as np
import pytest

from sim.games.lowlands import enums as E
from sim.games.lowlands.storm_surge import storm_surge_nb
from sim.rng import game_seed_nb
from tests.lowlands_helpers import no_trace, params_for, play_steps_nb, tables
from tests.naive_lowlands import naive_final


@pytest.mark.parametrize("names", [["greedy", "random"], ["planner", "shepherd", "dike"],
                                   ["greedy", "planner", "random", "dike"]])
def test_engine_final_scoring_equals_the_naive_scorer(names):
    t = tables()[0]
    sids, params = params_for(names)
    s = E.new_state()
    checked = 0
    for g in range(60):
        steps = 20 + (37 * g) % 420      # decisions into the game (most end after more)
        play_steps_nb(t, s[0], len(names), np.uint64(game_seed_nb(11, g)), sids, params, steps)
        # as if the storm surge came now (mid-game states included: tiles, breaches, laps)
        s[0].breach[:len(names)] += g % 4
        naive = naive_final(t, s.copy()[0])
        tr, tn = no_trace()
        storm_surge_nb(t, s[0], tr, tn)
        for p in range(len(names)):
            assert tuple(int(x) for x in s[0].pts[p]) + (int(s[0].score[p]),) == naive[p], (g, p)
        checked += 1
    assert checked == 60
