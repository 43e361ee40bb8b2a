"""A user's own @njit strategies: the strategy signature and their jitted form.

sim/harness.py builds a game's play loop around the user's functions
(`build_kernels(..., user_functions)`: uncached, nogil so that Ctrl-C stays possible), with
`as_dispatcher` below; sim/user_check.py checks them before a run.
"""
from __future__ import annotations

from numba import njit

# every strategy, built-in or user, has this signature (docs/adding-a-game.md)
ARGS = "sid, params, tables, s, seat, decision, options, n_options, ctx, keep"


_JITTED: dict = {}


def as_dispatcher(fn):
    """The user's function as a numba dispatcher (their @njit one, or one jitted here, once):
    the same object in the play loop and in the checks of sim/user_check.py."""
    if hasattr(fn, "py_func"):
        return fn
    if fn not in _JITTED:
        _JITTED[fn] = njit(fn)
    return _JITTED[fn]
