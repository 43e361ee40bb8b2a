"""Lowlands: the income board: the icons a fence or a building marker uncovers when it
leaves the board, and the icons paid at each upkeep.
"""
from numba import njit

from sim.games.lowlands.enums import (
    INC_CARD, INC_CARD_AND_COIN, INC_CARD_OR_COIN, INC_COIN, INC_FARMHAND, T_FARMHAND,
)
from sim.games.lowlands.tasks import push_nb


@njit(cache=True, error_model="numpy")
def uncover_nb(t, s, p, icon):
    """An icon uncovered on the income board: income icons count at upkeep (read from the
    board there); a farmhand icon lets the player place or move a farmhand at once."""
    if icon == INC_FARMHAND:
        push_nb(s, T_FARMHAND, p, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def take_fence_nb(t, s, p):
    """Take the leftmost fence off the income board (uncovering its slot)."""
    slot = t.n_fence_income - s.fence_supply[p]
    s.fence_supply[p] -= 1
    uncover_nb(t, s, p, t.fence_income[slot])


@njit(cache=True, error_model="numpy")
def income_icons_nb(t, s, p, out):
    """out = (cards, coins, card-or-coin choices) of p's uncovered income icons, base card
    included."""
    out[0] = 1
    out[1] = 0
    out[2] = 0
    nf = t.n_fence_income - s.fence_supply[p]
    for i in range(nf):
        _add_icon(t.fence_income[i], out)
    for i in range(s.n_buildings[p]):
        _add_icon(t.building_income[i], out)


@njit(cache=True, error_model="numpy")
def _add_icon(icon, out):
    if icon == INC_CARD:
        out[0] += 1
    elif icon == INC_COIN:
        out[1] += 1
    elif icon == INC_CARD_OR_COIN:
        out[2] += 1
    elif icon == INC_CARD_AND_COIN:
        out[0] += 1
        out[1] += 1
