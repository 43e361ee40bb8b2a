"""A game from Python (sim.api.game, sim/api/positions): a window scored from text by the
engine's own scoring kernel, a component file loaded with set=, a small run in memory equal
to the logged run."""
from __future__ import annotations

import pandas as pd


# four rows of five different colours, every value present: the Sagrada rulebook's examples
WINDOW = ["R1 Y2 G3 B4 P5",
          "Y3 G4 B5 P6 R1",
          "G5 B6 P1 R2 Y3",
          "B1 P2 R3 Y4 G5"]


def test_a_sagrada_window_scores_from_text_as_the_rulebook_says():
    from sim.games.sagrada.positions import default_components, score_window
    # Row Color Variety: 6 points per row without a repeated colour (4 rows); private red:
    # the red pips 1 + 1 + 2 + 3 = 7; two favor tokens: 2 points; no open space
    s = score_window(WINDOW, public=["Row Color Variety"], private="R", tokens=2)
    assert s == {"public": [24], "private": 7, "favor": 2, "empty": 0, "total": 33}
    # two open spaces cost one point each; the designer's own values are scored as played
    holes = [WINDOW[0].replace("R1", ".."), WINDOW[1].replace("R1", ".."), *WINDOW[2:]]
    s = score_window(holes, public=["Row Color Variety"], private="R")
    assert s["empty"] == -2 and s["private"] == 5 and s["public"] == [12]
    from sim import game
    comp = game("sagrada").load_components(set={"rules.token_points": 3})
    assert score_window(WINDOW, tokens=2, components=comp)["favor"] == 6
    assert default_components().data["rules"]["token_points"] == 1


def test_game_plays_a_small_run_in_memory_like_a_logged_run(tmp_path):
    from sim import game, run
    g = game("sunset")
    p = g.prepare(players=2, strategies="greedy,random", seed=4)
    mem = g.play(p, games=30)
    logged = run("sunset", players=2, strategies="greedy,random", games=30, seed=4, workers=1,
                 out=str(tmp_path / "r")).logs
    cols = [c for c in mem.columns if c in logged.columns]
    assert {"game", "seat", "strategy", "win", "score"} <= set(cols)
    pd.testing.assert_frame_equal(mem[cols].reset_index(drop=True),
                                  logged[cols].reset_index(drop=True), check_dtype=False,
                                  check_categorical=False)
    assert "game 3 " in g.replay(p, 3)[0]
