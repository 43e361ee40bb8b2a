"""Compiled defaults of the optional forward-model pieces (sim/game_contract.py load_model):
kept apart so that the contract itself imports no numba (listings stay instant)."""
from __future__ import annotations

from numba import njit


@njit(cache=True, error_model="numpy")
def no_keep_nb(tables, s, keep):
    """default_keep_nb of a game whose decisions keep nothing."""
    return None
