"""User strategies for the conformance test (tests/test_every_game.py), generic over games:
they read only the arguments every strategy gets and the state's random streams (`s.streams`,
stream 1 + seat is the seat's own), as a user's file would."""
from numba import njit

from sim.rng import randint_nb


@njit
def uniform(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Uniformly random among the legal options, from the seat's own stream: exactly what
    every game's built-in `random` does."""
    return randint_nb(s.streams, 1 + seat, n_options)


@njit
def out_of_range(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Always one past the last option: every answer is illegal."""
    return n_options


@njit
def first(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """Always the first option (what the harness plays in place of an illegal answer)."""
    return 0
