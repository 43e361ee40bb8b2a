"""A user's own @njit strategies: the strategy signature and their jitted form.

sim/harness.py builds a game's play loop around the user's functions
(`build_kernels(..., user_functions)`: nogil so that Ctrl-C stays possible, cached on disk per
version of the user's file), with `as_dispatcher` below; sim/user_check.py checks them before
a run.
"""
from __future__ import annotations

import inspect
import os

from numba import njit

# every strategy, built-in or user, has this signature (docs/adding-a-game.md)
ARGS = "sid, params, tables, s, seat, decision, options, n_options, ctx, keep"


_JITTED: dict = {}


def _has_source_file(fn) -> bool:
    try:
        path = inspect.getsourcefile(getattr(fn, "py_func", fn))
    except TypeError:
        return False
    return bool(path) and os.path.isfile(path)


def as_dispatcher(fn):
    """The user's function as a numba dispatcher (their @njit one, or one jitted here, once):
    the same object in the play loop and in the checks of sim/user_check.py. When it has a
    source file, its compiled code is kept in numba's disk cache too (a folder keyed on that
    file and what it imports: sim/compile_cache.py), so that the checks of a second run
    read its return type without compiling it again."""
    if hasattr(fn, "py_func"):
        if _has_source_file(fn) and getattr(fn, "_cache", None) is not None \
                and type(fn._cache).__name__ == "NullCache":
            fn.enable_caching()
        return fn
    if fn not in _JITTED:
        _JITTED[fn] = njit(fn, cache=True) if _has_source_file(fn) else njit(fn)
    return _JITTED[fn]
