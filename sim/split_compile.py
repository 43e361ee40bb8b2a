"""A cold compile on two cores: the players' code in a helper process, the rest here.

Numba compiles on one core per process, and a game's play loop is two large call trees that
meet only in the loop itself: the rules (setup, legal moves, apply, record: the model) and
the built-in players (`choose_builtin_nb` and everything it calls; the planner also calls
rules of its own). Every function of both is cached on disk as it is compiled, one entry per
argument types (sim/numba_calls.py keeps those of compiled callers apart), and a process
about to compile an entry another process is compiling waits for it and loads it
(sim/compile_claims.py). So when a play kernel is not in the cache:

1. a helper process (`python -m sim.split_helper GAME`) compiles the players: first a probe
   kernel calling `choose_builtin` alone (`_make_players_first_probe`, the seat, decision and
   option count given as int64), then one calling it with the play loop's own argument
   expressions (`_make_players_probe`: the same types, so the entry is the very one the
   play loop asks for; nothing new to compile when the rules return int64, as the contract
   says);
2. meanwhile this process compiles the rules: a probe calling the loop's rules in the
   loop's order (`_make_rules_probe`: setup, legal moves, apply, record), then the
   play kernel itself, which loads them and the players (waiting for the helper's claim
   on the players when they are not done yet);
3. the helper, done with the players, compiles the rules this process comes to last, in
   the reverse order (`_make_late_rules_probe`: record, apply, context, ...), until it finds
   one this process is compiling: there it stops.

No probe is ever run, emitted as machine code or cached: they are compiled as callees
(linked only: sim/numba_calls.py). If the helper fails (a game numba cannot find by name in
a new process, as a test's toy game), nothing is lost but time: the kernel compiles the
players itself. Same machine code, same logs: this only changes which process compiles a
callee first. `BALANCE_SPLIT_COMPILE=off` in the environment, or one core, compiles
everything here.

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


def _make_players_first_probe(token):
    def players_first_probe_nb(tables_rec, state_rec, sids, params, options, ctx, keep, seat,
                               dec, n):
        """choose_builtin alone, the seat, decision and option count given (int64, as the
        contract's to_move/decision/legal return them): the players compile before any rule
        of their own is asked for, while the other process is compiling the rules."""
        token
        return choose_builtin(sids[seat], params[seat], tables_rec[0], state_rec[0], seat,
                              dec, options, n, ctx, keep)
    return players_first_probe_nb


def _make_search_probe(token):
    def search_probe_nb(tables_rec, state_rec, sids, params, options, ctx, keep, seat, n):
        """mcts_nb called as search_choose_nb calls it, with others_nb's argument expressions
        (the seat and option count int64, as the contract's to_move/legal return them)."""
        token
        return MCTS(params[seat], tables_rec[0], state_rec[0], seat, options, n, ctx, keep)
    return search_probe_nb


def _make_rules_probe(token):
    def rules_probe_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids,
                       params, rec, assigned):
        """The play loop's calls of the rules (play_games_nb, play_on_nb: the same argument
        expressions), in the loop's order: what this process compiles first. Not
        check_state_nb: the play loop without checks does not call it."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        for g in range(n_games):
            game = first_game + g
            row0 = g * n_players
            setup_nb(tables, s, n_players, game_seed_nb(run_seed, game), no_trace, tn)
            is_over_nb(s)
            to_move_nb(s)
            decision_nb(s)
            legal_nb(tables, s, options)
            context_nb(tables, s, ctx, keep)
            apply_nb(tables, s, options[0], keep, no_trace, tn)
            record_nb(tables, s, n_players, game, rec, row0)
    return rules_probe_nb


def _make_late_rules_probe(token):
    def late_rules_probe_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games,
                            sids, params, rec, assigned):
        """rules_probe_nb's calls in the reverse order: what the other process comes to
        last."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        for g in range(n_games):
            game = first_game + g
            row0 = g * n_players
            record_nb(tables, s, n_players, game, rec, row0)
            apply_nb(tables, s, options[0], keep, no_trace, tn)
            context_nb(tables, s, ctx, keep)
            legal_nb(tables, s, options)
            decision_nb(s)
            to_move_nb(s)
            is_over_nb(s)
            setup_nb(tables, s, n_players, game_seed_nb(run_seed, game), no_trace, tn)
    return late_rules_probe_nb


def compile_linked_only(dispatcher, args) -> None:
    """Compile `dispatcher` for the types of `args` as a callee (no wrapper, never emitted:
    sim/numba_calls.py); nothing is run."""
    from sim import numba_calls
    numba_calls.compile_as_callee(dispatcher, [dispatcher.typeof_pyval(a) for a in args])


def compile_players(spec) -> None:
    """In the helper: the built-in players of `spec` compiled into its cache folder."""
    import numpy as np

    from sim import harness
    glb = harness.kernel_globals(spec.model(), spec.choose_builtin(), spec.n_builtin())
    prepared, args = _probe_arguments(spec)
    # the players first, then the probe with the play loop's own argument expressions: the
    # same players when the rules return int64 (the contract), which the rules process has
    # compiled by then (sim/compile_claims.py: waited for, not compiled twice)
    for make, name, extra in ((_make_players_first_probe, "players_first_probe_nb",
                               (np.int64(0),) * 3),
                              (_make_players_probe, "players_probe_nb", ())):
        probe = harness.instantiate(make("players-probe"), "players-probe", glb,
                                    f"{name}__{spec.name}", cache=False)
        compile_linked_only(probe, args + extra)
    # then the rules the other process comes to last, until it is found at work on one
    # (the rules take longer than the players in every game: README, "Compile claims")
    from sim import compile_claims
    play_chunk, kernel_args, _ = spec._play_call(prepared, 0, 1)
    try:
        with compile_claims.taking_only():
            compile_linked_only(_rules_probe(spec, glb, _make_late_rules_probe),
                                play_chunk.arguments(*kernel_args))
    except compile_claims.ClaimTaken:
        pass


def compile_search_player(spec) -> None:
    """In the helper of a search loop's compile: mcts_nb into the game's cache folder (the
    loop, compiling here, types flatmc_nb first: the two share their playouts, compiled once
    between the two processes: sim/compile_claims.py)."""
    import numpy as np

    from sim import harness
    model = spec.model()
    search = spec.pieces().players("search")
    mcts = search.mcts_of(spec.name, model, spec.choose_builtin())
    glb = {**harness.kernel_globals(model, spec.choose_builtin(), spec.n_builtin()),
           "MCTS": mcts}
    probe = harness.instantiate(_make_search_probe("search-probe"), "search-probe", glb,
                                f"search_probe_nb__{spec.name}", cache=False)
    _, args = _probe_arguments(spec)
    compile_linked_only(probe, args + (np.int64(0), np.int64(0)))


def _probe_arguments(spec) -> tuple:
    """(prepared, the probes' arguments): the packed tables and a fresh state (each a
    one-element record array), the seats' strategy ids and parameters, and the play loop's
    option, context and keep buffers, with the types play_games_nb gives them."""
    import numpy as np

    model = spec.model()
    prepared = spec.prepare(spec.load_components(), spec.min_players,
                            [spec.default_strategy_name()], 1)
    return prepared, (spec.pack_tables(prepared.components), spec.new_state(),
                      np.asarray(prepared.strategy_ids, np.int64),
                      np.ascontiguousarray(prepared.strategy_params, np.float64),
                      np.zeros(int(model.MAX_OPTIONS), np.int64),
                      np.zeros(max(int(model.CTX_LEN), 1), np.int64),
                      np.zeros(max(int(model.KEEP_LEN), 1), np.float64))


def _rules_probe(spec, glb, make):
    from sim import harness
    name = make.__name__.replace("_make_", "")
    return harness.instantiate(make(name), name, glb, f"{name}_nb__{spec.name}", cache=False)


def start_helper(game: str, part: str = "players"):
    """The helper process compiling `game`'s players (part "players") or its mcts player
    (part "search"), or None (it could not start)."""
    try:
        return subprocess.Popen([sys.executable, "-m", "sim.split_helper", game, part],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)   # never blocks on a full pipe
    except OSError:
        return None


def compile_on_two_cores(spec, kernel, kernel_args: tuple, part: str = "players") -> bool:
    """Compile the play `kernel` (a dispatcher) for the types of `kernel_args` here while a
    helper compiles `part` of it: "players", the built-in players (this process compiles the
    rules first), or "search", the mcts player of a search loop whose rules and built-in
    players are in the cache already. Returns once both are done. False: the helper did not
    finish (the kernel then compiled what it lacked itself)."""
    from sim import harness
    helper = start_helper(spec.name, part)
    try:
        try:
            if part == "players":
                glb = harness.kernel_globals(spec.model(), spec.choose_builtin(),
                                             spec.n_builtin())
                compile_linked_only(_rules_probe(spec, glb, _make_rules_probe), kernel_args)
            kernel.compile(tuple(kernel.typeof_pyval(a) for a in kernel_args))
        except Exception:   # noqa: BLE001 - the kernel's own call reports it, as ever
            pass
        if helper is None:
            return False
        return helper.wait() == 0
    finally:
        if helper is not None and helper.poll() is None:   # interrupted: not left running
            helper.kill()
            helper.wait()
