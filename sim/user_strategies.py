"""A user's own @njit strategies: the strategy signature and their jitted form.

A game on the template needs nothing from its side: sim/harness.py builds the play loop
around the user's functions (`build_kernels(..., user_functions)`, uncached, nogil), with
`as_dispatcher` below. A game not yet on the template still rebinds its own kernels
(`compile_with_users` and `rebind`, with its `play.build_player`): that old path goes when
every game is ported.
"""
from __future__ import annotations

import types

from numba import njit

# every strategy, built-in or user, has this signature (docs/adding-a-game.md)
ARGS = "sid, params, tables, s, seat, decision, options, n_options, ctx, keep"


def rebind(dispatcher, **names):
    """A fresh (uncached) jitted copy of `dispatcher` whose global `names` are replaced."""
    fn = dispatcher.py_func
    glb = dict(fn.__globals__)
    glb.update(names)
    copy = types.FunctionType(fn.__code__, glb, fn.__name__, fn.__defaults__, fn.__closure__)
    # nogil: a user strategy that loops forever must not lock the interpreter, so that the
    # parent's main thread can still take Ctrl-C / SIGTERM (sim/processes.py)
    return njit(copy, error_model="numpy", nogil=True)


_JITTED: dict = {}


def as_dispatcher(fn):
    """The user's function as a numba dispatcher (their @njit one, or one jitted here, once):
    the same object in the play loop and in the checks of sim/user_check.py."""
    if hasattr(fn, "py_func"):
        return fn
    if fn not in _JITTED:
        _JITTED[fn] = njit(fn)
    return _JITTED[fn]


def user_dispatcher(builtin, user_functions):
    """A jitted `choose` sending ids >= 0 to `builtin` and id -1-k to user_functions[k]."""
    lines = [f"def choose_user({ARGS}):", "    if sid >= 0:", f"        return builtin({ARGS})"]
    env = {"builtin": builtin}
    for k, fn in enumerate(user_functions):
        env[f"user{k}"] = as_dispatcher(fn)
        lines += [f"    if sid == {-1 - k}:", f"        return user{k}({ARGS})"]
    lines.append("    return 0")
    exec("\n".join(lines), env)
    return njit(env["choose_user"], error_model="numpy")


def compile_with_users(cache: dict, user_functions, builtin, chain):
    """(play_chunk, trace_game) around `user_functions`, built once per process and set of
    functions: `chain(choose_user)` rebinds the game's kernels that lead to its dispatcher."""
    key = tuple(id(f) for f in user_functions)
    if key not in cache:
        cache[key] = chain(user_dispatcher(builtin, user_functions))
    return cache[key]
