"""Sunset Over Water: the built-in players react to the numbers of the component file.

The harm prevented: a designer sweeping or tuning `rules.inspiration_points` or
`rules.return_home_bonus` sees only the scores shift, because the players ignored those
rules (before this test, inspiration_points from 1 to 10 left every solo game identical).
The players must read those values from the tables (never a number written in their code)
and use only what their seat may know: the solo inspiration card lies face up in front of
the player, its own open planning cards are its own.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.sunset import SPEC
from sim.games.sunset import enums as E
from sim.games.sunset.components import components_from_text
from strategies.sunset import choose_builtin_nb
from tests.sunset_helpers import Kit, edited_text, fresh_state, play_games, set_hand, set_row

K = Kit()
SEED = 11
N_GAMES = 300


def solo_components(inspiration_points=1, return_home_bonus=2):
    return components_from_text(edited_text(
        ("inspiration_points = 1 ", f"inspiration_points = {inspiration_points} "),
        ("return_home_bonus = 2 ", f"return_home_bonus = {return_home_bonus} ")))


def solo_games(name, comp, n=N_GAMES, seed=SEED):
    """n solo games of strategy `name` on the shared seeds of run seed `seed`."""
    prep = SPEC.prepare(comp, 1, [name], seed)
    return play_games(comp.tables, 1, prep.strategy_ids, prep.strategy_params,
                      seed, n)


def paired_z(diff):
    diff = np.asarray(diff, np.float64)
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    return diff.mean() / se if se > 0 else 0.0


@pytest.mark.parametrize("name", ["greedy", "planner"])
def test_solo_players_take_more_inspiring_commissions_when_inspiration_pays_more(name):
    """Raising rules.inspiration_points from 1 to 10 changes decisions on the same seeds:
    more commissions showing the inspiration card's feature are sold, and some games are
    played differently (not only re-scored)."""
    low = solo_games(name, solo_components(inspiration_points=1))
    high = solo_games(name, solo_components(inspiration_points=10))
    inspiring_low = low["pts_inspiration"] / 1
    inspiring_high = high["pts_inspiration"] / 10
    z = paired_z(inspiring_high - inspiring_low)
    assert z > 3, (f"{name}: inspiring commissions per game {inspiring_low.mean():.3f} -> "
                   f"{inspiring_high.mean():.3f} (paired z {z:.1f})")
    assert (low["steps"] != high["steps"]).sum() >= 10  # whole games are played differently


@pytest.mark.parametrize("name", ["greedy", "planner"])
def test_solo_players_return_home_more_when_the_bonus_pays_more(name):
    """Raising rules.return_home_bonus from 1 to 10 makes the artist end the game on the
    centre more often on the same seeds."""
    low = solo_games(name, solo_components(return_home_bonus=1))
    high = solo_games(name, solo_components(return_home_bonus=10))
    home_low = (low["pts_home"] > 0).astype(np.float64)
    home_high = (high["pts_home"] > 0).astype(np.float64)
    z = paired_z(home_high - home_low)
    assert z > 3, f"{name}: home {home_low.mean():.3f} -> {home_high.mean():.3f} (paired z {z:.1f})"


def test_random_player_ignores_the_bonuses():
    """Control: the random player's games are identical whatever the bonuses (only the
    scores move), so the differences above come from the players' valuations."""
    a = solo_games("random", solo_components(1, 1), n=100)
    b = solo_games("random", solo_components(10, 10), n=100)
    assert (a["steps"] == b["steps"]).all()


@pytest.mark.parametrize("name", ["greedy", "planner"])
@pytest.mark.parametrize("points,expect_inspiring", [(0, False), (1, False), (2, True), (5, True)])
def test_solo_sale_counts_the_inspiration_bonus_read_from_the_tables(name, points, expect_inspiring):
    """Two commissions can be sold: "Peak and Shore" (lake + mountain, 4 points) and
    "Cascade Diptych" (waterfall + ?, 3 points) with the inspiration card Waterfall. The
    player sells first the one worth more to it: 3 + inspiration_points against 4 (a tie
    keeps the row's order)."""
    comp = solo_components(inspiration_points=points)
    tables = comp.tables
    st = fresh_state(tables, 1, seed=3)
    s = st[0]
    s["inspiration"] = K.names["inspiration"].index("Inspiration: Waterfall")
    plain, inspiring = K.comm("Peak and Shore"), K.comm("Cascade Diptych")
    set_row(st, [plain, inspiring, -1])
    set_hand(st, 0, [K.land("Mirror Lake"), K.land("Granite Spire"), K.land("Silver Cascade"),
                     K.land("Poppy Field")])
    options = np.array([0, 1, -1] + [0] * (E.MAX_OPTIONS - 3), np.int64)
    keep = np.zeros(E.MAX_HAND, np.float64)
    prep = SPEC.prepare(comp, 1, [name], SEED)
    ctx = np.zeros(2 + E.MAX_PATH, np.int64)
    i = choose_builtin_nb(prep.strategy_ids[0], prep.strategy_params[0], tables[0], s, 0,
                          E.DEC_SELL, options, 3, ctx, keep)
    assert i == (1 if expect_inspiring else 0)
