"""Ranks and win shares of a finished game, for the compiled core.

Every game ranks its seats the same way and differs only in what breaks a tie: the game's own
`rank_nb` puts its criteria, most important first, into the rows of a key matrix and calls
`ranks_and_win_shares_nb`. Seats equal on every criterion share their rank and split the win,
so a game whose last criterion is strict (a seat order) never produces a shared win.
"""
import numpy as np
from numba import njit


@njit(cache=True, error_model="numpy")
def key_ahead_nb(keys, q, p):
    """Is seat q ahead of seat p: a higher keys[0] or, equal there, a higher next row..."""
    for k in range(keys.shape[0]):
        if keys[k, q] != keys[k, p]:
            return keys[k, q] > keys[k, p]
    return False


@njit(cache=True, error_model="numpy")
def ranks_and_win_shares_nb(keys, n, rank, win):
    """rank[p] = 1 + the seats ahead of p (key_ahead_nb on keys[criterion, seat], higher is
    better); win[p] = 1/k for the k seats ranked 1, else 0, for the seats p < n. Returns k."""
    n_first = 0
    for p in range(n):
        ahead = 0
        for q in range(n):
            if q != p and key_ahead_nb(keys, q, p):
                ahead += 1
        rank[p] = ahead + 1
        if ahead == 0:
            n_first += 1
    for p in range(n):
        win[p] = 1.0 / n_first if rank[p] == 1 else 0.0
    return n_first


@njit(cache=True, error_model="numpy")
def rank_by_score_nb(scores, n, rank, win):
    """ranks_and_win_shares_nb with one criterion: the highest score wins, ties share."""
    keys = np.empty((1, n), np.float64)   # exact for any integer score below 2**53
    for p in range(n):
        keys[0, p] = scores[p]
    return ranks_and_win_shares_nb(keys, n, rank, win)
