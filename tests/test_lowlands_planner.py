"""The Lowlands planner (strategies/lowlands.py, the value model): it beats greedy at 2 players
with a 95% Wilson interval above parity, and it values a tile by what the tile scores on the
farm as it stands (no hand-made bonus for a tile worth 0 shields)."""
import math

import numpy as np

from sim.games.lowlands import enums as E
from sim.games.lowlands import model as M
from strategies import lowlands as S
from tests.lowlands_helpers import bare_farm, enclose, fresh, params_for, play_many_nb, tables


def wilson(wins, n, z=1.96):
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, mid - half, mid + half


def test_planner_beats_greedy_at_two_players_beyond_the_interval():
    """80 deals, each played with the planner in either seat (160 games): the lower end of
    the planner's 95% Wilson interval must lie above 1/2 (measured: about 0.97)."""
    t = tables()[0]
    s = E.new_state()
    wins = 0.0
    n = 0
    for seat in (0, 1):
        names = ["planner", "greedy"] if seat == 0 else ["greedy", "planner"]
        sids, params = params_for(names)
        rec = np.zeros(80 * 2, M.RECORD.dtype)
        assert play_many_nb(t, s[0], 2, 2121, 0, 80, sids, params, rec, False) == 0
        mine = rec["win"][rec["seat"] == seat]
        wins += float(mine.sum())
        n += len(mine)
    p, lo, hi = wilson(wins, n)
    assert lo > 0.5, (p, lo, hi)


def lake_view_worth(inside_lakes):
    """The planner's worth of Lake View (0 shields; '!' 10 points with 4 lake cells outside
    pastures, 7 with 3) for seat 0 on a bare farm, with `inside_lakes` of the farm's lake cells
    fenced into pastures, cards given to pay it."""
    t, s = fresh(2, seed=3)
    from sim.games.lowlands import components as C
    x = C.load_components().card_names["tile"].index("Lake View")
    bare_farm(s, 0)
    lakes = [k for k in range(E.N_CELLS) if t.layout_terrain[s.layout[0], k] & E.TERRAIN_LAKE]
    cells = [(k // E.COLS, k % E.COLS) for k in lakes[:inside_lakes]]
    for c in cells:
        enclose(s, 0, [c])
    s.hand[0, :] = 3
    sids, params = params_for(["planner"])
    return S.tile_worth_nb(t, s, 0, x, params[0], 0), len(lakes)


def test_planner_values_lake_view_by_the_lakes_outside_pastures():
    """With every lake outside pastures Lake View scores 10 (the farms have 3-4 lakes: 7 or
    10); with all but two lakes fenced in it scores nothing, and the planner's worth falls by
    what the storm surge would have paid: the tile's worth is the game's, not a bonus."""
    free, n_lakes = lake_view_worth(0)
    fenced, _ = lake_view_worth(n_lakes - 2)
    points = 10.0 if n_lakes >= 4 else 7.0
    assert abs((free - fenced) - points) < 1.0, (free, fenced, n_lakes)
