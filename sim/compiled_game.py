"""The GameSpec of a game built the toolkit's way (docs/adding-a-game.md): everything but the
game's own facts is the same for every such game, so it lives here once.

A game's `__init__.py` subclasses `CompiledGameSpec`, hangs its `GameContract` on it (where
each piece lives: sim/game_contract.py, checked at registration) and adds what is its own:
name, title, player range, variants, `report_metadata()`. Every piece below is reached
through the contract.
"""
from __future__ import annotations

import os

from sim.game_api import Components, GameSpec, Prepared, ToolkitError
from sim.game_contract import GameContract, load_model

MAX_TRACE_EVENTS = 20000
_MODELS: dict = {}   # the model module's name -> the module (defaults filled in)
_SEARCH: dict = {}   # game name -> its search players' dispatcher (None: none)


def _compile_times_file():
    """Where the last compile time of each game is kept: a file of the toolkit's own cache
    folder (None when the user chose NUMBA_CACHE_DIR: then nothing is written)."""
    import os
    import sim
    return None if sim.TOOL_CACHE_ROOT is None else os.path.join(sim.TOOL_CACHE_ROOT,
                                                                 "compile_seconds.json")


def last_compile_seconds(key: str):
    """Seconds the last cold compile of `key` took on this machine, or None (never measured,
    or the file is unreadable: it only feeds a message)."""
    import json
    path = _compile_times_file()
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f).get(key)
        return float(value) if isinstance(value, (int, float)) and value > 0 else None
    except (OSError, TypeError, ValueError, AttributeError):
        return None


def remember_compile_seconds(key: str, seconds: float) -> None:
    import json
    import os
    path = _compile_times_file()
    if path is None:
        return
    try:
        with open(path, encoding="utf-8") as f:
            times = json.load(f)
        times = times if isinstance(times, dict) else {}
    except (OSError, ValueError):
        times = {}
    times[key] = round(float(seconds), 1)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(times, f, indent=1, sort_keys=True)
        os.replace(tmp, path)       # atomic: a concurrent run reads the old or the new file
    except OSError:
        pass                        # a message's estimate is not worth failing a run for


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    return f"about {seconds / 60:.0f} min" if seconds >= 570 else \
        f"about {int(seconds // 60)} min {round(seconds % 60):02d} s"


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
    contract: GameContract | None = None   # where each piece lives (the game's __init__.py)

    def pieces(self) -> GameContract:
        """The game's contract (sim/game_contract.py)."""
        if self.contract is None:
            raise ToolkitError(f"game '{self.name}' has no contract (docs/adding-a-game.md, "
                               f"\"The game contract\")")
        return self.contract

    def _strategies(self):
        return self.pieces().players("strategies")

    def catalog_module(self):
        """The module holding the built-ins' CATALOG and N_PARAMS (plain Python: listing the
        strategies compiles nothing)."""
        return self.pieces().players("catalog")

    # -- components -------------------------------------------------------------------
    def default_components_text(self) -> str:
        """The shipped default file, read as it is (`default_components.toml` in the game's
        package folder: no validation, no numpy), else from the components module."""
        path = os.path.join(self.pieces().folder(), "default_components.toml")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        return self.pieces().components().default_components_text()

    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        from sim.limits import check_component_values
        components = self.pieces().components().load_components(path, overrides)
        check_component_values(components)  # no value that could overflow a score
        return components

    # -- strategies -------------------------------------------------------------------
    def strategy_catalog(self) -> list:
        """The game's built-ins, then (for a game on the template) the search players of
        strategies/search.py (`catalog_for(spec)`, ids >= SEARCH_BASE); plain Python, from
        the catalog modules (no numba)."""
        catalog = list(self.catalog_module().CATALOG)
        if self.pieces().offers("search_catalog"):
            catalog += list(self.pieces().players("search_catalog").catalog_for(self))
        return catalog

    def estimated_seconds_per_game(self, prepared: Prepared) -> float | None:
        """A rough cost of one game when a seat plays a search player (strategies/search.py
        estimated_seconds_per_game: the runner's chunk size follows from it), else None."""
        if not self.pieces().offers("search"):
            return None
        return self.pieces().players("search").estimated_seconds_per_game(
            self.strategy_catalog(), prepared)

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        import numpy as np

        resolve_strategies = self.pieces().players("strategy_names").resolve_strategies
        n_players = int(n_players)
        if not self.min_players <= n_players <= self.max_players:
            raise ToolkitError(f"{self.name}: --players must be {self.min_players}.."
                               f"{self.max_players}, got {n_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      n_players, variants_file)
        self._check_user_signatures(users)
        # every built-in reads the same parameter vector layout: pad to the game's full width
        full = np.zeros((n_players, max(self.catalog_module().N_PARAMS, params.shape[1])),
                        np.float64)
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
        from sim.user_files import load_user_function
        problems = []
        for path, fn in users:
            problem = signature_problem(load_user_function(path, fn))
            if problem:
                problems.append(f"user strategy {path}:{fn}: {problem}")
        if problems:
            raise ToolkitError(problems)

    # -- playing ----------------------------------------------------------------------
    # Every game is played by the one loop of sim/harness.py, built from its forward model
    # (`model.py`: docs/adding-a-game.md).
    def model(self):
        """The game's forward model module."""
        # kept outside the instance: a spec is pickled to the workers, a module is not
        model = self.pieces().model()
        if model.__name__ not in _MODELS:
            _MODELS[model.__name__] = load_model(self, self.pieces())
        return _MODELS[model.__name__]

    def pack_tables(self, components: Components):
        """The kernels' record of the component tables (the contract's tables builder)."""
        pack_tables = self.pieces().tables()
        return pack_tables(components.tables)

    def new_state(self):
        return self.pieces().new_state()()

    def format_trace(self, prepared: Prepared, game_index: int, events, rec, state) -> list:
        """A template game's trace.format_trace(prepared, game_index, events, rec, state):
        rec is the game's record array (one row per seat, RECORD's columns by name)."""
        format_trace = self.pieces().trace()
        return format_trace(prepared, game_index, events, rec, state)

    def choose_builtin(self):
        return self._strategies().choose_builtin_nb

    def n_builtin(self) -> int:
        """Built-in ids are 0..n_builtin-1 (catalog entries below the search players' ids)."""
        from sim.harness import SEARCH_BASE
        ids = [int(e["id"]) for e in self.catalog_module().CATALOG if int(e["id"]) < SEARCH_BASE]
        return max(ids) + 1 if ids else 0

    def search_choose(self):
        """The search players' dispatcher for this game (ids >= SEARCH_BASE), built by
        strategies/search.py (`search_choose_for(spec)`), or None when there is none."""
        if self.name not in _SEARCH:   # once per process: the kernels are keyed on it
            offers = self.pieces().offers("search")
            _SEARCH[self.name] = (self.pieces().players("search").search_choose_for(self)
                                  if offers else None)
        return _SEARCH[self.name]

    def kernels(self, user_functions=(), search: bool = False, cache_users: bool = True):
        """The harness kernels of this (template) game (sim.harness.Kernels)."""
        from sim.harness import build_kernels
        return build_kernels(self.name, self.model(), self.choose_builtin(), self.n_builtin(),
                             user_functions=tuple(user_functions),
                             search_choose=self.search_choose() if search else None,
                             cache_users=cache_users)

    def columns(self) -> list:
        return list(self.model().RECORD.columns)

    def _user_functions(self, prepared: Prepared) -> tuple:
        from sim.user_files import load_user_function
        return tuple(load_user_function(path, fn) for path, fn in prepared.user_strategies)

    def _run_kernels(self, prepared: Prepared):
        """The cached kernels, or copies compiled around the run's user strategies (and,
        when a seat plays one, the search players)."""
        return self.kernels(self._user_functions(prepared), self._has_search(prepared))

    @staticmethod
    def _has_search(prepared: Prepared) -> bool:
        """A seat of `prepared` plays a search player (the harness's ids from SEARCH_BASE)."""
        import numpy as np

        from sim.harness import SEARCH_BASE
        return bool((np.asarray(prepared.strategy_ids) >= SEARCH_BASE).any())

    def compile_note(self, prepared: Prepared) -> str | None:
        """Says so when the play kernel is neither loaded in this process nor in the on-disk
        cache for this machine and these sources (so the first chunk will compile it)."""
        play_chunk, _, _ = self._assigned_kernels(prepared)
        if not kernel_needs_compile(play_chunk):
            return None
        took = last_compile_seconds(self._compile_key(prepared))
        how_long = (f"{_duration(took)} last time on this machine" if took is not None
                    else "30 s to a few minutes, by game")
        if prepared.user_strategies:
            return (f"compiling the {self.title} play loop around your own strategy "
                    f"({how_long}, once per version of your file)...")
        return (f"compiling the {self.title} engine for this machine (first run after an "
                f"install or an edit: {how_long}; later runs start in seconds)...")

    def _compile_key(self, prepared: Prepared) -> str:
        return self.name + (" with a strategy file" if prepared.user_strategies else "")

    def compiled(self, prepared: Prepared, seconds: float) -> None:
        """The runner's warm-up compiled the play loop in `seconds`: kept for the next note."""
        remember_compile_seconds(self._compile_key(prepared), seconds)

    def _assigned_kernels(self, prepared: Prepared):
        """(play, trace, extra arguments): the plain kernels, or, when the run assigns
        choices at random (sim/assign.py), those taking the harness's `assigned` flags."""
        k = self._run_kernels(prepared)
        if not getattr(prepared, "assigned", None):
            return k.play_chunk, k.trace_game, ()
        from sim.assign import decisions
        from sim.harness import assigned_flags
        return (k.play_assigned, k.trace_assigned,
                (assigned_flags(decisions(self, prepared.assigned)),))

    def _play_call(self, prepared: Prepared, first_game: int, n_games: int) -> tuple:
        """(play kernel, its arguments, the record array they fill) for these games."""
        import numpy as np
        play_chunk, _, extra = self._assigned_kernels(prepared)
        rec = self.model().RECORD.empty(n_games * prepared.n_players)
        args = (self.pack_tables(prepared.components), self.new_state(),
                prepared.n_players, np.uint64(prepared.seed), first_game, n_games,
                np.asarray(prepared.strategy_ids, np.int64),
                np.ascontiguousarray(prepared.strategy_params, np.float64), rec, *extra)
        return play_chunk, args, rec

    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        play_chunk, args, rec = self._play_call(prepared, first_game, n_games)
        play_chunk(*args)
        return self.model().RECORD.to_columns(rec)  # one array per column: fast into Arrow

    def compile_on_two_cores(self, prepared: Prepared) -> bool:
        """A cold compile of the play kernel of `prepared` on two cores (sim/split_compile.py):
        the game's players in a helper process while the kernel compiles here, when the
        game's built-in loop is not in the cache either (else its players are cached
        already); or, for a search loop around cached rules and players, the mcts player in
        the helper. True if it ran."""
        from sim import split_compile
        if not split_compile.enabled():
            return False
        play_chunk, args, _ = self._play_call(prepared, 0, 1)
        if kernel_needs_compile(self.kernels().play_chunk):
            part = "players"
        elif (kernel_needs_compile(play_chunk.kernel) and not prepared.user_strategies
              and self._has_search(prepared) and self.search_choose() is not None):
            part = "search"     # the rules and players are cached: mcts in the helper
        else:
            return False
        split_compile.compile_on_two_cores(self, play_chunk.kernel, play_chunk.arguments(*args),
                                           part)
        return True

    def replay(self, prepared: Prepared, game_index: int) -> list:
        import numpy as np

        from sim.processes import call_interruptibly  # Ctrl-C stops a looping user strategy
        model = self.model()
        _, trace_game, extra = self._assigned_kernels(prepared)
        state = self.new_state()
        rec = model.RECORD.empty(prepared.n_players)
        trace, n = call_interruptibly(
            trace_game, self.pack_tables(prepared.components), state, prepared.n_players,
            np.uint64(prepared.seed), int(game_index),
            np.asarray(prepared.strategy_ids, np.int64),
            np.ascontiguousarray(prepared.strategy_params, np.float64), MAX_TRACE_EVENTS, rec,
            *extra)
        return self.format_trace(prepared, int(game_index), trace[:n], rec, state[0])
