"""The one play loop of every game, built from the game's forward model (docs/adding-a-game.md).

A game provides its rules as compiled functions in `sim/games/<game>/model.py` (setup_nb,
is_over_nb, to_move_nb, decision_nb, legal_nb, context_nb, apply_nb, returns_nb,
check_state_nb, record_nb, ...; the contract is in docs/adding-a-game.md) and its built-in
players as `choose_builtin_nb`. `build_kernels` turns these into the kernels the platform
runs:

    k = build_kernels(game_key, model, choose_builtin, n_builtin,
                      user_functions=(), search_choose=None)
    k.play_chunk(tables_rec, state_rec, n_players, run_seed, first_game, n_games,
                 sids, params, rec)                         -> None (rec filled)
    k.checked_chunk(tables_rec, state_rec, n_players, run_seed, first_game, n_games,
                    sids, params, rec)                      -> int64[3]
                    (first broken invariant: check_state_nb code, game, step; 0 = none)
    k.trace_game(tables_rec, state_rec, n_players, run_seed, game, sids, params,
                 max_events, rec)                           -> (events int64[max, 6], count)
                    (the final state is left in state_rec[0])
    k.play_assigned(..., rec, assigned), k.trace_assigned(..., max_events, rec, assigned)
                    play_chunk / trace_game with choices assigned at random (below)

The entry kernels, compiled per game and variant on first use: `play_games` (play_chunk and
play_assigned call it, with an `assigned` array of zeros when nothing is assigned), the same
code with the state checks compiled in (checked_chunk) and `trace_assigned` (trace_game:
assigned all zeros). Each level
of kernels costs a compile of its own (numba optimises a callee's code again in every kernel
it is linked into), so there are few levels and no wrapper kernels.
    k.rollout(tables, s, n_players, sids, params, out)      -> decisions taken
                    (from state record s play to the end with built-in players only,
                     out[:n_players] = win shares; callable from other compiled code)

`rec` is a record array of the game's `model.RECORD.dtype` with n_games * n_players rows
(`RECORD.empty(n)`): the game's `record_nb` writes its columns, the harness the `illegal` and
`choices` columns. `sids` is int64[n_players], `params` float64[n_players, n_params].

Strategy ids (the dispatch; one place for every game):
    0 .. n_builtin-1          the game's `choose_builtin_nb`
    -1, -2, ... (-1-k)        the k-th user function (`user_functions[k]`)
    >= SEARCH_BASE (1000)     `search_choose` (strategies/search.py), when given
    any other id              unknown: counted in `illegal` and option 0 is played (never a
                              silent fallback to a built-in)
An answer outside 0..n_options-1 is counted in `illegal` and option 0 is played. `choices`
counts the decisions a seat took among 2 or more legal options. Every decision the model
presents is asked, even with one option (so `random` draws there too: a seat's stream
advances once per decision it is asked).

Assigned choices (an experiment instead of an observation: `--assign window=random`):
`assigned` is int64[k], one flag per decision code (`DEC_*`); at a decision whose code has a
non-zero flag the harness plays a legal option drawn uniformly from the game's assignment
stream (`sim.rng.assign_stream_nb`, seeded from the game's seed) and asks no strategy. That
stream is not one of the state's: the deals (stream 0) and every other draw of the game stay
those of the same run without assignment, and the draw depends only on (run seed, game), so
the logs stay the same for any workers or chunk size. An assigned decision is not counted in
`choices` (the seat did not take it), and it must not read `keep` (no strategy wrote it).

Why the kernels are built this way (numba's on-disk cache): the generic loop must be
compiled once per game, and a worker process must load that machine code from the cache
(a cold compile of a game costs 30-90 s). Numba's cache index key holds a function's
bytecode and the pickled contents of its closure cells, but not its globals; a closure over
numba dispatchers never hits the cache across processes (a dispatcher pickles with a
per-process id). So each kernel is written once, as the nested function of a maker
`_make_*(token)` that mentions the plain string `token` (the game key, the variant and a
hash of the game's model and strategy sources), and is re-created with `types.FunctionType`
on globals holding that game's functions, under a per-game `__qualname__`: its closure
holds only that string, so each game (and variant) gets its own cache entry, stable across
processes. The cache folder is the game's own, keyed on the sources its kernels compile in
(sim/compile_cache.py), so an edited rule never loads stale code and an edit of another game
recompiles nothing here. Kernels around user strategies are built from the same makers with
nogil=True
(Ctrl-C stays possible: sim/processes.py), cached in a folder per game and user file; the
cached kernels with the search players release the GIL too (a search chunk plays for seconds).
"""
from __future__ import annotations

import hashlib
import inspect
import os
import re
import types
from dataclasses import dataclass

import numpy as np
from numba import njit

from sim import numba_calls
from sim.rng import assign_stream_nb, game_seed_nb, randint_nb

numba_calls.install()   # before any kernel compiles (sim/numba_calls.py)

SEARCH_BASE = 1000          # strategy ids >= SEARCH_BASE are search players (strategies/search.py)
HARNESS_SEATS = 8           # capacity of the harness's per-seat scratch arrays (>= any game's seats)


def user_id(k: int) -> int:
    """The strategy id of the k-th user function (0-based): -1, -2, ..."""
    return -1 - int(k)


# the functions every model.py exports (docs/adding-a-game.md); optional ones get a no-op
MODEL_FUNCTIONS = ("setup_nb", "is_over_nb", "to_move_nb", "decision_nb", "legal_nb",
                   "context_nb", "apply_nb", "returns_nb", "check_state_nb", "record_nb")
MODEL_CONSTANTS = ("MAX_OPTIONS", "CTX_LEN", "KEEP_LEN")
MAX_DECISION_KINDS = 64     # length of the `assigned` flags (decision codes 0..63)


def assigned_flags(decisions=()) -> np.ndarray:
    """The harness's `assigned` argument: a flag for each decision code in `decisions`."""
    flags = np.zeros(MAX_DECISION_KINDS, np.int64)
    for d in decisions:
        if not 0 <= int(d) < MAX_DECISION_KINDS:
            raise ValueError(f"decision code {d} is outside 0..{MAX_DECISION_KINDS - 1}")
        flags[int(d)] = 1
    return flags


@njit(cache=True, error_model="numpy")
def unknown_choose_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    """The dispatcher's answer for an id nothing handles: illegal (counted, option 0)."""
    return -1


# ---------------------------------------------------------------------------------------
# The generic kernels. Each `_make_*(token)` returns one kernel whose only closure cell is
# `token`, which marks the game (and variant) in the closure (see the module doc);
# `build_kernels` re-creates it on globals naming that game's functions. A kernel calls
# another through an upper-case global name (DECIDE, OTHERS, PLAY_ON), never by the
# callee's own name: that would make the callee a closure cell. Globals they read (bound per
# game by `kernel_globals` and `build_kernels`): the model's functions and constants,
# `choose_builtin`, `user_choose`, `search_choose`, N_BUILTIN, SEARCH_BASE, SEATS, CHECK,
# and the kernels built before them.
# ---------------------------------------------------------------------------------------

def _make_decide(token):
    def decide_nb(sids, params, tables, s, seat, decision, options, n_options, ctx, keep):
        """Index of the seat's answer into options[:n_options], or -1 when it is illegal: a
        built-in's here, any other id's from OTHERS (others_nb)."""
        token
        sid = sids[seat]
        if sid < 0 or sid >= N_BUILTIN:
            return OTHERS(sids, params, tables, s, seat, decision, options, n_options, ctx, keep)
        i = choose_builtin(sid, params[seat], tables, s, seat, decision, options, n_options,
                           ctx, keep)
        if i < 0 or i >= n_options:
            return -1
        return i
    return decide_nb


def _make_others(token):
    def others_nb(sids, params, tables, s, seat, decision, options, n_options, ctx, keep):
        """decide_nb for the ids play_on_nb does not answer itself (search players, user
        functions, unknown ids): without the built-ins' code, which play_on_nb calls
        directly (numba optimises a callee's code again in every kernel it is linked into)."""
        token
        sid = sids[seat]
        if sid >= SEARCH_BASE:
            i = search_choose(sid, params[seat], tables, s, seat, decision, options, n_options,
                              ctx, keep)
        elif sid < 0:
            i = user_choose(sid, params[seat], tables, s, seat, decision, options, n_options,
                            ctx, keep)
        else:
            i = -1
        if i < 0 or i >= n_options:
            return -1
        return i
    return others_nb


def _make_play_on(token):
    def play_on_nb(tables, s, n_players, sids, params, options, ctx, keep, trace, tn,
                   illegal, choices, fail, assigned, astream):
        """Play state s to its end; returns the number of decisions taken. With the global
        CHECK (a compile-time constant, so that the loop without checks does not even
        compile check_state_nb: a second of Lowlands' cold compile), check_state_nb runs
        after every apply and the first failure goes to fail[0] (code) and fail[1] (step). A
        decision whose code is flagged in `assigned` takes a uniform legal option from
        `astream` (the module doc)."""
        token
        steps = 0
        while not is_over_nb(s):
            seat = to_move_nb(s)
            dec = decision_nb(s)
            n = legal_nb(tables, s, options)
            context_nb(tables, s, ctx, keep)
            sid = sids[seat]
            drawn = dec >= 0 and dec < assigned.shape[0] and assigned[dec] != 0
            if drawn:
                i = randint_nb(astream, 0, n)
            elif sid >= 0 and sid < N_BUILTIN:
                # the built-ins (every decision of most runs) without the call through DECIDE:
                # that call cost Sagrada's random player about 4% of its speed
                i = choose_builtin(sid, params[seat], tables, s, seat, dec, options, n, ctx,
                                   keep)
                if i >= n:
                    i = -1
            else:
                i = DECIDE(sids, params, tables, s, seat, dec, options, n, ctx, keep)
            if n > 1 and not drawn:
                choices[seat] += 1
            if i < 0:
                illegal[seat] += 1
                i = 0
            apply_nb(tables, s, options[i], keep, trace, tn)
            steps += 1
            if CHECK and fail[0] == 0:
                c = check_state_nb(tables, s)
                if c != 0:
                    fail[0] = c
                    fail[1] = steps
        return steps
    return play_on_nb


def _make_play_games(token):
    def play_games_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids,
                      params, rec, assigned):
        """Games first_game..first_game+n_games-1 into rec; with the global CHECK (a
        compile-time constant: the unchecked kernel has no check code in its loop)
        check_state_nb after setup and every apply, the first failure returned as (code,
        game, step)."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        illegal = np.zeros(SEATS, np.int64)
        choices = np.zeros(SEATS, np.int64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        fail = np.zeros(2, np.int64)
        first_fail = np.zeros(3, np.int64)
        astream = np.zeros(1, np.uint64)
        for g in range(n_games):
            game = first_game + g
            seed = game_seed_nb(run_seed, game)
            assign_stream_nb(astream, seed)
            setup_nb(tables, s, n_players, seed, no_trace, tn)
            illegal[:] = 0
            choices[:] = 0
            fail[:] = 0
            if CHECK:
                fail[0] = check_state_nb(tables, s)   # step 0: the state after setup
            PLAY_ON(tables, s, n_players, sids, params, options, ctx, keep, no_trace, tn,
                    illegal, choices, fail, assigned, astream)
            if CHECK and fail[0] != 0 and first_fail[0] == 0:
                first_fail[0] = fail[0]
                first_fail[1] = game
                first_fail[2] = fail[1]
            row0 = g * n_players
            record_nb(tables, s, n_players, game, rec, row0)
            for p in range(n_players):
                rec[row0 + p].illegal = illegal[p]
                rec[row0 + p].choices = choices[p]
        return first_fail
    return play_games_nb


def _make_trace_assigned(token):
    def trace_assigned_nb(tables_rec, state_rec, n_players, run_seed, game, sids, params,
                          max_events, rec, assigned):
        """trace_game with the decisions flagged in `assigned` drawn at random."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        trace = np.zeros((max_events, 6), np.int64)
        tn = np.zeros(1, np.int64)
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        illegal = np.zeros(SEATS, np.int64)
        choices = np.zeros(SEATS, np.int64)
        fail = np.zeros(2, np.int64)
        astream = np.zeros(1, np.uint64)
        seed = game_seed_nb(run_seed, game)
        assign_stream_nb(astream, seed)
        setup_nb(tables, s, n_players, seed, trace, tn)
        PLAY_ON(tables, s, n_players, sids, params, options, ctx, keep, trace, tn,
                illegal, choices, fail, assigned, astream)
        record_nb(tables, s, n_players, game, rec, 0)
        for p in range(n_players):
            rec[p].illegal = illegal[p]
            rec[p].choices = choices[p]
        return trace, tn[0]
    return trace_assigned_nb


def _make_rollout(token):
    def rollout_nb(tables, s, n_players, sids, params, out):
        """From state record s (modified: pass a copy), play to the end with the built-in
        players sids (ids 0..n_builtin-1; anything else plays option 0); out[:n_players] =
        win shares (out needs the game's MAX_PLAYERS entries, or SEATS). Returns the number
        of decisions taken."""
        token
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        illegal = np.zeros(SEATS, np.int64)
        choices = np.zeros(SEATS, np.int64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        fail = np.zeros(2, np.int64)
        steps = PLAY_ON(tables, s, n_players, sids, params, options, ctx, keep, no_trace,
                        tn, illegal, choices, fail, np.zeros(1, np.int64),
                        np.zeros(1, np.uint64))
        returns_nb(tables, s, n_players, out)
        return steps
    return rollout_nb


_SAFE = re.compile(r"[^A-Za-z0-9_]")


def instantiate(fn, token: str, glb: dict, qualname: str, cache: bool = True,
                nogil: bool = False, group=None, inline: str = "never"):
    """`fn` (a nested function of a maker whose only closure cell is `token`, rebuilt here
    with this very token) re-created on globals `glb` and jitted: with cache=True each
    (qualname, token) gets its own entry in numba's disk cache, in the folder of `group`
    ((label, source files): sim/compile_cache.py; by default found from `glb`). Reusable by
    other makers (strategies/search.py builds its per-game players the same way).
    inline="always": numba inlines the kernel into its callers (a step split out of a hot
    loop for the reader, compiled as if written in place)."""
    copy = types.FunctionType(fn.__code__, glb, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = _SAFE.sub("_", qualname)
    copy.__module__ = __name__
    copy.__doc__ = fn.__doc__
    if group is not None:
        setattr(copy, "_compile_group", group)
    if cache:
        return njit(cache=True, error_model="numpy", nogil=nogil, inline=inline)(copy)
    return njit(error_model="numpy", nogil=nogil, inline=inline)(copy)


def source_file(obj) -> str | None:
    """The source file of a function, dispatcher or module, or None (defined interactively)."""
    obj = getattr(obj, "py_func", obj)
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    return path if path and os.path.isfile(path) else None


def kernel_group(game_key: str, objects, user_functions=()) -> tuple:
    """(label, files) of the cache folder of a game's kernels (sim/compile_cache.py): the
    game's folder, or with user functions one folder per game and user file."""
    from sim import compile_cache
    files = [source_file(o) for o in objects] + [__file__]
    files = [f for f in files if f]
    game = next((g for g in map(compile_cache.game_of, files) if g), None)
    seeds = files + [f for f in map(source_file, user_functions) if f]
    if game is not None:
        seeds += list(compile_cache.game_files(game))
    label = game or str(game_key)
    stems = sorted({os.path.splitext(os.path.basename(f))[0]
                    for f in map(source_file, user_functions) if f})
    if stems:
        label = f"{label}+{'+'.join(stems)}"
    return label, compile_cache.closure(seeds)


def source_token(game_key: str, *objects) -> str:
    """The cache token of a game: its key and a hash of the source files of `objects` (its
    model and strategy modules / functions). The cache folder is keyed on sim/ and
    strategies/ already; the hash also covers a game defined elsewhere (the tests' toy)."""
    digest = hashlib.sha256()
    for obj in objects:
        obj = getattr(obj, "py_func", obj)
        try:
            path = inspect.getsourcefile(obj)
            with open(path, "rb") as fh:
                digest.update(fh.read())
        except (TypeError, OSError):
            digest.update(repr(obj).encode())
    return f"{game_key}-{digest.hexdigest()[:12]}"


# the `assigned` of a chunk that assigns nothing: one zero (play_on_nb reads a flag only for
# a decision code below its length, so a decision costs no load of a flag)
NO_ASSIGNMENT = np.zeros(1, np.int64)


class Entry:
    """A kernel's face with fixed trailing arguments `extra` (e.g. play_games with no
    assignment); the compiled kernel's attributes (stats, overloads, nopython_signatures,
    ...) read through."""

    def __init__(self, kernel, extra=()):
        self.kernel = kernel
        self.extra = tuple(extra)

    def arguments(self, *args) -> tuple:
        """The kernel's own arguments for a call of this face with `args`."""
        return args + self.extra

    def __call__(self, *args):
        return self.kernel(*args, *self.extra)

    def __getattr__(self, name):
        return getattr(self.kernel, name)


@dataclass(frozen=True)
class Kernels:
    """The compiled kernels of one game (see the module doc for their signatures)."""
    play_chunk: object
    checked_chunk: object
    trace_game: object
    play_assigned: object    # play_chunk(..., rec, assigned): flagged decisions drawn at random
    trace_assigned: object   # trace_game(..., max_events, rec, assigned)
    rollout: object          # built-in players only: usable inside search players
    decide: object           # the dispatcher (ids as in the module doc); -1 = illegal
    token: str


def user_choose_for(user_functions):
    """A jitted dispatcher sending id -1-k to user_functions[k]; any other id: -1."""
    from sim.user_strategies import ARGS, as_dispatcher
    if not user_functions:
        return unknown_choose_nb
    lines = [f"def user_choose({ARGS}):"]
    env = {}
    for k, fn in enumerate(user_functions):
        env[f"user{k}"] = as_dispatcher(fn)
        lines += [f"    if sid == {user_id(k)}:", f"        return user{k}({ARGS})"]
    lines.append("    return -1")
    exec("\n".join(lines), env)
    return njit(env["user_choose"], error_model="numpy", nogil=True)


def model_globals(model) -> dict:
    """The contract's functions (MODEL_FUNCTIONS) and constants (MODEL_CONSTANTS, as ints) of
    `model` by name: the part of a kernel's globals that names the game."""
    glb = {name: getattr(model, name) for name in MODEL_FUNCTIONS}
    glb.update({name: int(getattr(model, name)) for name in MODEL_CONSTANTS})
    return glb


def kernel_globals(model, choose_builtin, n_builtin: int) -> dict:
    """The globals every harness kernel of a game reads: the model's names, the built-ins'
    dispatcher and the harness's own constants (the kernels' callees are added per kernel)."""
    seats = max(HARNESS_SEATS, int(getattr(model, "MAX_PLAYERS", 0)))
    return {"np": np, "game_seed_nb": game_seed_nb, "assign_stream_nb": assign_stream_nb,
            "randint_nb": randint_nb, "SEARCH_BASE": SEARCH_BASE, "SEATS": seats,
            "N_BUILTIN": int(n_builtin), "choose_builtin": choose_builtin,
            **model_globals(model)}


def _kernel(maker, token, glb, extra, group, cache=True, nogil=False, name=None):
    """maker(token)'s kernel jitted on the globals glb and extra (its callees), under the
    qualname `<name>__<token>` (name: the kernel's own by default)."""
    fn = maker(token)
    return instantiate(fn, token, {**glb, **extra}, f"{name or fn.__name__}__{token}",
                       cache=cache, nogil=nogil, group=group)


def _rollout_kernel(glb, token, group):
    """rollout_nb over its own play loop, which answers the built-in ids only: shared by every
    variant of the game (a search player calls it), so always cached, in the game's folder."""
    no_other = {"user_choose": unknown_choose_nb, "search_choose": unknown_choose_nb}
    others = _kernel(_make_others, token, glb, no_other, group)
    play_on = _kernel(_make_play_on, token, glb, {"DECIDE": others, "CHECK": False}, group)
    return _kernel(_make_rollout, token, glb, {"PLAY_ON": play_on}, group)


def _variant(user_functions, search_choose, cache_users: bool) -> tuple:
    """(the variant's part of the token, whether its kernels are cached on disk): built-ins
    only or with user functions, with or without the search players. Kernels around user
    functions are cached (the token then holds a hash of the user files) unless a function
    has no source file or cache_users is off."""
    users = bool(user_functions)
    variant = ("user" if users else "builtin") + ("+search" if search_choose is not None else "")
    cache = not users or (cache_users and all(source_file(f) for f in user_functions))
    if users and cache:
        variant += "-" + source_token("u", *user_functions)
    return variant, cache


def _entry_kernels(glb, token, chooser, group, cache: bool, nogil: bool) -> tuple:
    """(decide, play_games, checked_games, trace_assigned) of one variant, over the play loop
    that asks the players of `chooser` (user and search dispatchers). Every way of playing a
    chunk is play_games (an `assigned` array of zeros when nothing is assigned; the checked
    one is the same code with CHECK on), every trace trace_assigned; a command compiles only
    what it calls."""
    others = _kernel(_make_others, token, glb, chooser, group, cache, nogil)
    decide = _kernel(_make_decide, token, glb, {"OTHERS": others}, group, cache, nogil)
    play_on = _kernel(_make_play_on, token, glb, {"DECIDE": others, "CHECK": False}, group,
                      cache, nogil)
    checked_play_on = _kernel(_make_play_on, token, glb, {"DECIDE": others, "CHECK": True},
                              group, cache, nogil, name="checked_play_on_nb")
    play_games = _kernel(_make_play_games, token, glb, {"PLAY_ON": play_on, "CHECK": False},
                         group, cache, nogil)
    checked_games = _kernel(_make_play_games, token, glb,
                            {"PLAY_ON": checked_play_on, "CHECK": True},
                            group, cache, nogil, name="checked_games_nb")
    trace_assigned = _kernel(_make_trace_assigned, token, glb, {"PLAY_ON": play_on}, group,
                             cache, nogil)
    return decide, play_games, checked_games, trace_assigned


_BUILT: dict = {}


def build_kernels(game_key: str, model, choose_builtin, n_builtin: int, user_functions=(),
                  search_choose=None, cache_users: bool = True) -> Kernels:
    """The kernels of game `game_key` from its `model` module and built-in dispatcher
    `choose_builtin` (ids 0..n_builtin-1), once per process and argument set.

    The kernels are cached on disk, one entry per game and variant (built-ins only, with the
    search players, with user functions), in the game's cache folder (sim/compile_cache.py).
    Around user functions they go to a folder per game and user file, keyed on the user's
    file and the files it imports (next to it or in the toolkit): the second run of the same
    file loads its loop from disk. They are compiled without the cache only when a user
    function has no source file (defined interactively) or with `cache_users=False`. The
    rollout kernel never includes user or search players (a search player calls it)."""
    key = (game_key, id(model), id(choose_builtin), int(n_builtin),
           tuple(id(f) for f in user_functions), id(search_choose), bool(cache_users))
    if key in _BUILT:
        return _BUILT[key]
    missing = [n for n in MODEL_FUNCTIONS + MODEL_CONSTANTS if not hasattr(model, n)]
    if missing:
        raise AttributeError(f"{getattr(model, '__name__', model)} lacks {', '.join(missing)}")
    base_token = source_token(game_key, model, choose_builtin)
    variant, cache = _variant(user_functions, search_choose, cache_users)
    platform = (model, choose_builtin) + ((search_choose,) if search_choose is not None else ())
    game_group = kernel_group(game_key, platform)
    group = kernel_group(game_key, platform, user_functions) if user_functions else game_group
    glb = kernel_globals(model, choose_builtin, n_builtin)
    rollout = _rollout_kernel(glb, f"{base_token}-rollout", game_group)
    # kernels that may run long inside one call release the GIL, so that Ctrl-C reaches the
    # main thread while a chunk plays in another (sim/processes.py): a user's strategy (it
    # may loop), the search players (a chunk of a few games takes seconds)
    nogil = bool(user_functions) or search_choose is not None
    chooser = {"user_choose": user_choose_for(tuple(user_functions)),
               "search_choose": search_choose if search_choose is not None else unknown_choose_nb}
    token = f"{base_token}-{variant}"
    decide, play_games, checked_games, trace_assigned = _entry_kernels(
        glb, token, chooser, group, cache, nogil)
    kernels = Kernels(
        play_chunk=Entry(play_games, (NO_ASSIGNMENT,)),
        checked_chunk=Entry(checked_games, (NO_ASSIGNMENT,)),
        trace_game=Entry(trace_assigned, (NO_ASSIGNMENT,)),
        play_assigned=Entry(play_games),
        trace_assigned=trace_assigned,
        rollout=rollout, decide=decide, token=token)
    _BUILT[key] = kernels
    return kernels
