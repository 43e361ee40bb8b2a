"""Counterfactual play continues the real game (issue 19): play-on 0 of the branch that holds
the seat's real choice is the real game, so with deterministic players it must end as the run
recorded it (the same win and score for the deciding seat).

Lowlands at 2 players is the regression test of the branch kernel playing a state whose
memory had been freed (docs/card-worth.md, "Known problems"): its branches then ended
anywhere (and crashed at 4 players)."""

import numpy as np

from analysis.card_worth import select_states
from sim import counterfactual as cf
from sim.registry import get_game
from tests.toycards import SPEC as CARDS

COLUMNS = {name: i for i, name in enumerate(cf.SCAN_COLUMNS)}


def _real_choice_branch_matches_the_game(spec, n_players, strategies, n_games, per_card):
    comp = spec.load_components()
    prepared = spec.prepare(comp, n_players, strategies, 1)
    masks = [c["mask_column"] for c in spec.report_metadata(comp)["cards"]
             if c.get("mask_column")]
    scan = cf.scan(spec, prepared, masks, 0, n_games, workers=1)
    states = select_states(scan, per_card, 1)
    states = states[np.lexsort((states[:, 1], states[:, 0]))]
    out, valid = cf.play_states(spec, prepared, [comp], states,
                                np.zeros((len(states), 1), np.int64), masks, 1, workers=1)
    assert (valid == 1).all() and len(states) > 2 * n_games
    games = spec.play_chunk(prepared, 0, n_games)
    for r, row in enumerate(states):
        took = row[COLUMNS["chosen"]] == 1       # the real choice brought the card
        win, score = out[r, 0, 0, [0, 2]] if took else out[r, 0, 0, [1, 3]]
        i = row[COLUMNS["game"]] * n_players + row[COLUMNS["seat"]]
        assert (win, score) == (games["win"][i], games["score"][i]), (
            f"state {r} (game {row[0]}, step {row[1]}): the branch of the real choice ended "
            f"with win {win}, score {score}; the game with {games['win'][i]}, "
            f"{games['score'][i]}")


def test_the_real_choice_branch_is_the_real_game_in_the_toy_card_game():
    _real_choice_branch_matches_the_game(CARDS, 3, ["fan", "greedy", "fan"], 20, 12)


def test_the_real_choice_branch_is_the_real_game_in_lowlands():
    # the old kernel played freed memory from about the 220th state on (game 13): the
    # corruption needs the heap churn of many branches before it shows
    _real_choice_branch_matches_the_game(get_game("lowlands"), 2, ["greedy"], 16, 100)
