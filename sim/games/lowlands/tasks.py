"""Lowlands: the explicit task stack (`s.task[:s.n_tasks]`, rows (T_*, seat, a..f)) and
the decision each waiting task asks for. The game's whole progress lives here, so a copied
state record has the same future.
"""
from numba import njit

from sim.numba_calls import plain_constants

from sim.games.lowlands.enums import (
    DEC_ASK, DEC_BUILD, DEC_CARDS, DEC_CELL, DEC_DIKE, DEC_DISCARD, DEC_FARMHAND, DEC_FENCE,
    DEC_FENCE_TO, DEC_INCOME, DEC_MARKET_HALL, DEC_PLACE, DEC_SHEEP, DEC_TOKEN,
    DEC_UPKEEP_TRADE, MAX_TASKS, T_AFTER, T_ASK, T_BUILD, T_CARDS, T_CELL, T_DECK_CARDS, T_DIKE,
    T_ESCAPE, T_FARMHAND, T_FENCE, T_FENCE_TO, T_FLOOD, T_INCOME, T_MARKET_HALL, T_PLACE,
    T_SHEEP, T_SHEEP_GAIN, T_TOKEN, T_UPKEEP, T_UPKEEP_TRADE,
)


@plain_constants
@njit(cache=True, error_model="numpy")
def push_nb(s, kind, seat, a, b, c, d, e, f):
    n = s.n_tasks
    if n >= MAX_TASKS:  # cannot happen in a legal game; check_state_nb reports it
        s.n_tasks = MAX_TASKS + 1
        return
    s.task[n, 0] = kind
    s.task[n, 1] = seat
    s.task[n, 2] = a
    s.task[n, 3] = b
    s.task[n, 4] = c
    s.task[n, 5] = d
    s.task[n, 6] = e
    s.task[n, 7] = f
    s.n_tasks = n + 1


@njit(cache=True, error_model="numpy")
def pop_nb(s):
    s.n_tasks -= 1


@njit(cache=True, error_model="numpy")
def is_decision_task_nb(kind):
    return not (kind == T_AFTER or kind == T_ESCAPE or kind == T_SHEEP_GAIN or kind == T_FLOOD
                or kind == T_UPKEEP or kind == T_DECK_CARDS)


@njit(cache=True, error_model="numpy")
def kind_to_dec_nb(kind):
    """Task kind -> the decision code strategies read (DEC_*)."""
    if kind == T_PLACE:
        return DEC_PLACE
    if kind == T_BUILD:
        return DEC_BUILD
    if kind == T_CELL:
        return DEC_CELL
    if kind == T_DIKE:
        return DEC_DIKE
    if kind == T_FENCE:
        return DEC_FENCE
    if kind == T_FENCE_TO:
        return DEC_FENCE_TO
    if kind == T_SHEEP:
        return DEC_SHEEP
    if kind == T_CARDS:
        return DEC_CARDS
    if kind == T_ASK:
        return DEC_ASK
    if kind == T_TOKEN:
        return DEC_TOKEN
    if kind == T_FARMHAND:
        return DEC_FARMHAND
    if kind == T_INCOME:
        return DEC_INCOME
    if kind == T_UPKEEP_TRADE:
        return DEC_UPKEEP_TRADE
    if kind == T_MARKET_HALL:
        return DEC_MARKET_HALL
    return DEC_DISCARD
