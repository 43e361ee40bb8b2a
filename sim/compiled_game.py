"""The GameSpec of a game built the toolkit's way (docs/adding-a-game.md): everything but the
game's own facts is the same for every such game, so it lives here once.

A game's `__init__.py` subclasses `CompiledGameSpec`, names its package and its strategies
module, and adds what is its own: name, title, player range, variants, `report_metadata()`.
The package must provide `components` (default_components_text, load_components), `enums`
(pack_tables), `nb` (new_state), `play` (RECORD_COLUMNS, C_WIN, build_player) and `trace`
(format_trace); the strategies module CATALOG and N_PARAMS.
"""
from __future__ import annotations

import importlib

import numpy as np

from sim.game_api import Components, GameSpec, Prepared, ToolkitError

MAX_TRACE_EVENTS = 20000


def kernel_needs_compile(dispatcher) -> bool:
    """True when calling this numba dispatcher will compile: it has no machine code in this
    process, and numba's on-disk cache index holds no entry for this machine and this
    function's bytecode (numba's own cache key; its own staleness check on the source file).
    Reads the index only (a small pickle): no compilation. Unknown (a numba without these
    internals): False, so that nothing misleading is said."""
    try:
        if dispatcher.overloads:
            return False
        cache = dispatcher._cache
        index_file = getattr(cache, "_cache_file", None)
        if index_file is None:          # not cached on disk (e.g. a loop around a user strategy)
            return True
        want = cache._index_key(None, dispatcher.targetctx.codegen())
        return not any(key[1:] == want[1:] for key in index_file._load_index())
    except Exception:
        return False


class CompiledGameSpec(GameSpec):
    package: str = ""            # e.g. "sim.games.sunset"
    strategies_module: str = ""  # e.g. "strategies.sunset"

    def _module(self, part: str):
        return importlib.import_module(f"{self.package}.{part}")

    def _strategies(self):
        return importlib.import_module(self.strategies_module)

    # -- components -------------------------------------------------------------------
    def default_components_text(self) -> str:
        return self._module("components").default_components_text()

    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        from sim.limits import check_component_values
        components = self._module("components").load_components(path, overrides)
        check_component_values(components)  # no value that could overflow a score
        return components

    # -- strategies -------------------------------------------------------------------
    def strategy_catalog(self) -> list:
        return self._strategies().CATALOG

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        from strategies.registry import resolve_strategies
        n_players = int(n_players)
        if not self.min_players <= n_players <= self.max_players:
            raise ToolkitError(f"{self.name}: --players must be {self.min_players}.."
                               f"{self.max_players}, got {n_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      n_players, variants_file)
        self._check_user_signatures(users)
        # every built-in reads the same parameter vector layout: pad to the game's full width
        full = np.zeros((n_players, max(self._strategies().N_PARAMS, params.shape[1])), np.float64)
        full[:, :params.shape[1]] = params
        return Prepared(game=self.name, n_players=n_players, seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=np.asarray(ids, np.int64), strategy_params=full,
                        strategy_info=info, user_strategies=list(users),
                        variant=self.variant_for(n_players))

    @staticmethod
    def _check_user_signatures(users) -> None:
        """A user function that cannot take a decision's 10 arguments: one line per function
        (the compile and a real decision are tried by sim/user_check.py before a run)."""
        from sim.user_check import signature_problem
        from strategies.registry import load_user_function
        problems = []
        for path, fn in users:
            problem = signature_problem(load_user_function(path, fn))
            if problem:
                problems.append(f"user strategy {path}:{fn}: {problem}")
        if problems:
            raise ToolkitError(problems)

    # -- playing ----------------------------------------------------------------------
    def columns(self) -> list:
        return list(self._module("play").RECORD_COLUMNS)

    def _kernels(self, prepared: Prepared):
        """(play_chunk, trace_game): the cached kernels, or copies compiled around the run's
        user strategies."""
        from strategies.registry import load_user_function
        users = tuple(load_user_function(path, fn) for path, fn in prepared.user_strategies)
        return self._module("play").build_player(users)

    def compile_note(self, prepared: Prepared) -> str | None:
        """Says so when the play kernel is neither loaded in this process nor in the on-disk
        cache for this machine and these sources (so the first chunk will compile it)."""
        play_chunk, _ = self._kernels(prepared)
        if not kernel_needs_compile(play_chunk):
            return None
        if prepared.user_strategies:
            return (f"compiling the {self.title} play loop around your own strategy "
                    f"(about 30 s, at every run with a strategy file)...")
        return (f"compiling the {self.title} engine for this machine (first run after an "
                f"install or an edit: about 30 s; later runs start in seconds)...")

    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        play = self._module("play")
        play_chunk, _ = self._kernels(prepared)
        out, win = play_chunk(self._module("enums").pack_tables(prepared.components.tables),
                              self._module("nb").new_state(), prepared.n_players,
                              np.uint64(prepared.seed), first_game, n_games,
                              prepared.strategy_ids, prepared.strategy_params)
        out = np.ascontiguousarray(out.T)  # one contiguous array per column: fast into Arrow
        return {name: (win if k == play.C_WIN else out[k])
                for k, (name, _) in enumerate(play.RECORD_COLUMNS)}

    def replay(self, prepared: Prepared, game_index: int) -> list:
        _, trace_game = self._kernels(prepared)
        state = self._module("nb").new_state()
        from sim.processes import call_interruptibly  # Ctrl-C stops a looping user strategy
        trace, n, out, win = call_interruptibly(
            trace_game, self._module("enums").pack_tables(prepared.components.tables), state,
            prepared.n_players, np.uint64(prepared.seed), int(game_index), prepared.strategy_ids,
            prepared.strategy_params, MAX_TRACE_EVENTS)
        return self._module("trace").format_trace(prepared, int(game_index), trace[:n], out, win,
                                                  state[0])
