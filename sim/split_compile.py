"""A cold compile on two cores: the players' code in a helper process, the rules here.

Numba compiles on one core per process, and a game's play loop is two large call trees that
meet only in the loop itself: the rules (setup, legal moves, apply, record: the model) and
the built-in players (`choose_builtin_nb` and everything it calls; the planner also calls
rules of its own). Every function of both is cached on disk as it is compiled, one entry per
argument types (sim/numba_calls.py keeps those of compiled callers apart). So when a play
kernel is not in the cache:

1. a helper process (`python -m sim.split_helper GAME`) compiles the players: a small probe
   kernel (`_make_players_probe`) that calls `choose_builtin` exactly as the play loop does
   (the same argument expressions, hence the same argument types), so that its entry in
   the game's cache folder is the very one the play loop asks for;
2. meanwhile this process compiles the rules: the play loop's twin with a player that
   answers 0 (`_rules_twin`), whose callees are the play loop's own;
3. it waits for the helper and compiles the play loop, which then types and lowers only the
   loop itself: the players load from the cache the helper wrote, the rules are in memory.

Neither the probe nor the twin is ever run, emitted as machine code or cached: they are
compiled as callees (linked only: sim/numba_calls.py). If the helper fails (a game numba
cannot find by name in a new process, as a test's toy game), nothing is lost but time: the
play loop compiles the players itself. Same machine code, same logs: this only changes
which process compiles a callee first. `BALANCE_SPLIT_COMPILE=off` in the environment, or
one core, compiles everything here.

Both processes write one cache folder at once: numba names each entry's file after its
index key (sim/numba_calls.py, `_install_data_names`), so two entries never share a file.
"""
from __future__ import annotations

import os
import subprocess
import sys

SWITCH = "BALANCE_SPLIT_COMPILE"   # "off": compile in one process


def enabled() -> bool:
    return os.environ.get(SWITCH, "").strip().lower() not in ("off", "0", "no") \
        and (os.cpu_count() or 1) >= 2


def _make_players_probe(token):
    def players_probe_nb(tables_rec, state_rec, sids, params, options, ctx, keep):
        """choose_builtin called with the play loop's argument expressions (play_on_nb)."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        seat = to_move_nb(s)
        dec = decision_nb(s)
        n = legal_nb(tables, s, options)
        context_nb(tables, s, ctx, keep)
        return choose_builtin(sids[seat], params[seat], tables, s, seat, dec, options, n,
                              ctx, keep)
    return players_probe_nb


def compile_linked_only(dispatcher, args) -> None:
    """Compile `dispatcher` for the types of `args` as a callee (no wrapper, never emitted:
    sim/numba_calls.py); nothing is run."""
    from sim import numba_calls
    numba_calls.compile_as_callee(dispatcher, [dispatcher.typeof_pyval(a) for a in args])


def compile_players(spec) -> None:
    """In the helper: the built-in players of `spec` compiled into its cache folder."""
    import numpy as np

    from sim import harness
    model = spec.model()
    glb = harness.kernel_globals(model, spec.choose_builtin(), spec.n_builtin())
    probe = harness.instantiate(_make_players_probe("players-probe"), "players-probe", glb,
                                f"players_probe_nb__{spec.name}", cache=False)
    prepared = spec.prepare(spec.load_components(), spec.min_players,
                            [spec.default_strategy_name()], 1)
    compile_linked_only(probe, (
        spec.pack_tables(prepared.components), spec.new_state(),
        np.asarray(prepared.strategy_ids, np.int64),
        np.ascontiguousarray(prepared.strategy_params, np.float64),
        np.zeros(int(model.MAX_OPTIONS), np.int64),
        np.zeros(max(int(model.CTX_LEN), 1), np.int64),
        np.zeros(max(int(model.KEEP_LEN), 1), np.float64)))


def start_helper(game: str):
    """The helper process compiling `game`'s players, or None (it could not start)."""
    try:
        return subprocess.Popen([sys.executable, "-m", "sim.split_helper", game],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)   # never blocks on a full pipe
    except OSError:
        return None


def compile_on_two_cores(spec, kernel_args: tuple, twin) -> bool:
    """Compile the rules of a play kernel here (`twin`: its rules-only twin, to be compiled
    for the types of `kernel_args`, the kernel's own arguments) while a helper compiles the
    players; returns once both are done (the play kernel's own compile, which follows, then
    loads the players from the cache). False: the helper did not finish (the play kernel
    compiles the players itself)."""
    helper = start_helper(spec.name)
    try:
        try:
            compile_linked_only(twin, kernel_args)
        except Exception:   # noqa: BLE001 - the play kernel's own compile reports it, as ever
            pass
        if helper is None:
            return False
        return helper.wait() == 0
    finally:
        if helper is not None and helper.poll() is None:   # interrupted: not left running
            helper.kill()
            helper.wait()
