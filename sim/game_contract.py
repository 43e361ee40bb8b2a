"""The game contract: every piece a game gives the toolkit, in one typed object, checked when
the game is registered (docs/adding-a-game.md, "The game contract").

A game's `__init__.py` subclasses `GameContract` and hangs an instance on its spec:

    class SunsetContract(GameContract):
        # the engine's pieces: each method imports its piece and returns it
        def model(self):                    # the forward model (functions, constants)
            from sim.games.sunset import model
            return model

        def tables(self):                   # component tables -> the kernels' record
            from sim.games.sunset.enums import pack_tables
            return pack_tables
        ...                                 # components, new_state, trace, positions, snapshot

        # the players, by module name
        strategies = "strategies.sunset"            # choose_builtin_nb
        catalog = "strategies.sunset_catalog"       # CATALOG, N_PARAMS (plain Python)
        # data
        test_vary = "rules.return_home_bonus=1..2"
        rule_tests = ("tests/test_sunset_rules.py",)
        docs_page = "docs/games/sunset-over-water.md"

Why a method with a plain import for each engine piece: the call from the command line to the
game's tables builder (or its model, its trace) is a chain of plain calls and imports that a
reader, or an editor's "go to definition", follows; the import sits inside the method because
listing the games must import no numpy or numba, and the model and the tables builder are
compiled code. Why module names for the players: the engine (sim/) may not import the players'
layer (strategies/, tests/test_layering.py), so a game's spec is handed its players by name.

Registration checks every piece without running it: the import each piece method makes is read
from the method's source (`from M import N`, then `return N`), and module M must exist and
define N and the names the piece needs, read from M's source, not executed; a player module is
checked the same way. A piece method that imports nothing (a toy game written in one module
returns what that module holds) is called at registration and its result checked. The same
check runs on the imported model when the game is first played, and that is where the
optional model pieces get their defaults (`load_model`). A missing or misnamed piece is one
`ToolkitError` line naming the game, the piece, the module and the docs section.
"""
from __future__ import annotations

import ast
import difflib
import functools
import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass

from sim.game_api import ToolkitError

DOC = "docs/adding-a-game.md"


@dataclass(frozen=True)
class Piece:
    """One entry of the contract: its field, what it is, the names its module must define,
    who reads it (the table of docs/adding-a-game.md) and how it is given: "module" (an
    engine method returning a module), "function" (an engine method returning a function) or
    "players" (a module name)."""
    field: str
    what: str
    names: tuple            # names its module must define
    section: str            # the docs section that explains it
    used_by: str
    kind: str
    required: bool = True


PIECES = (
    Piece("model", "the forward model",
          ("setup_nb", "is_over_nb", "to_move_nb", "decision_nb", "legal_nb", "context_nb",
           "apply_nb", "returns_nb", "evaluate_nb", "determinize_nb", "observe_nb",
           "check_state_nb", "record_nb", "MAX_OPTIONS", "OBS_LEN", "RECORD"),
          "The forward model", "sim/harness.py (the play loop), strategies/search.py, "
          "the conformance test", "module"),
    Piece("components", "the component file module", ("load_components",
                                                      "default_components_text"),
          "What a game writes", "every command (--components, --set), the report", "module"),
    Piece("tables", "the tables builder", (), "What a game writes",
          "every kernel call (component tables -> the kernels' record)", "function"),
    Piece("new_state", "the state allocator", (), "What a game writes",
          "every kernel call, strategies/search.py (STATE_DTYPE)", "function"),
    Piece("trace", "the trace formatter", (), "What a game writes", "`balance replay`",
          "function"),
    Piece("positions", "positions from text", (), "Everything else the game keeps",
          "`game(NAME).positions` (sim/api/games.py)", "module", required=False),
    Piece("snapshot", "the per-round snapshot", ("ROWS", "PERIOD", "period_nb", "snapshot_nb"),
          "Everything else the game keeps",
          "`balance run --snapshots` (sim/snapshots.py), the report's game over time",
          "module", required=False),
    Piece("strategies", "the built-in players", ("choose_builtin_nb",), "Strategies",
          "sim/harness.py (ids 0..n-1), the search players' rollouts", "players"),
    Piece("catalog", "the strategy catalog", ("CATALOG", "N_PARAMS"), "Strategies",
          "`balance strategies`, --strategies, the ladder", "players"),
    Piece("strategy_names", "the strategy-name resolver", ("resolve_strategies",),
          "Strategies", "`spec.prepare`: --strategies, variants files, user strategy files",
          "players"),
    Piece("search_catalog", "the search players' catalog", ("catalog_for",), "Strategies",
          "`balance strategies`, --strategies (ids >= SEARCH_BASE; plain Python)", "players",
          required=False),
    Piece("search", "the search players", ("search_choose_for", "estimated_seconds_per_game"),
          "Strategies", "sim/harness.py (ids >= SEARCH_BASE), the runner's chunk size",
          "players", required=False),
)
PIECE_BY_FIELD = {p.field: p for p in PIECES}
# fields that are data, not code: {field: docs line}
DATA_FIELDS = {
    "test_vary": "one `--vary` for the tests of sweep and tune (tests/test_game_defaults.py)",
    "rule_tests": "the game's rule-test files (the Makefile's coverage target)",
    "docs_page": "the game's docs page",
}

# optional model pieces and their defaults (set on the model module by load_model)
MODEL_DEFAULTS = {
    "CTX_LEN": 1,                       # strategies read no context
    "KEEP_LEN": 1,                      # decisions keep nothing
    "PERFECT_INFORMATION": False,
    "CANONICAL_DETERMINIZE": False,
    "SEAT_ORDER_IS_TURN_ORDER": False,
}


def _unknown_fields(names) -> list:
    known = [p.field for p in PIECES] + list(DATA_FIELDS)
    out = []
    for key in names:
        if key.startswith("_") or key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        out.append(f"game contract: unknown piece '{key}'{hint}; the pieces are "
                   f"{', '.join(known)} ({DOC}, \"The game contract\")")
    return out


class GameContract:
    """Where each piece of a game lives: subclass it (the module doc). The engine's pieces
    are methods that import and return them (not overridden: the game has none); the
    players are module names (None: none); the rest is data."""

    # -- the engine's pieces: override each with a method importing the piece -----------
    def model(self):
        return None

    def components(self):
        return None

    def tables(self):
        return None

    def new_state(self):
        return None

    def trace(self):
        return None

    def positions(self):
        return None

    def snapshot(self):
        return None

    # -- the players, by module name (the engine does not import strategies/) -----------
    strategies: str | None = None
    catalog: str | None = None
    strategy_names: str | None = "strategies.registry"
    search_catalog: str | None = "strategies.search_catalog"    # None: no search players
    search: str | None = "strategies.search"                    # None: no search players

    # -- data -----------------------------------------------------------------------------
    test_vary: str | None = None    # a `--vary` of one rule option, e.g. "rules.x=1..2"
    rule_tests: tuple = ()          # rule-test files
    docs_page: str | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = [k for k in vars(cls) if k not in vars(GameContract)]   # a misspelled piece
        problems = _unknown_fields(own)
        if problems:
            raise ToolkitError(problems)

    def offers(self, field: str) -> bool:
        """Whether the game gives this piece (without importing it)."""
        if PIECE_BY_FIELD[field].kind == "players":
            return getattr(self, field) is not None
        return getattr(type(self), field) is not getattr(GameContract, field)

    def players(self, field: str):
        """A player piece's module (imported by the name the contract gives it)."""
        return importlib.import_module(getattr(self, field))

    def folder(self) -> str:
        """The folder of the module that defines this contract (the game's package)."""
        return os.path.dirname(os.path.abspath(sys.modules[type(self).__module__].__file__))

    def __repr__(self):
        return f"{type(self).__name__}()"

    @staticmethod
    def single_module(module, **players) -> "GameContract":
        """A game written in one module (the tests' toy games): every engine piece is that
        module or one of its functions (pack_tables, new_state, format_trace), the players
        are the module too unless `players` names others."""
        contract = _OneModuleContract(module)
        for field, value in players.items():
            if field not in PIECE_BY_FIELD or PIECE_BY_FIELD[field].kind != "players":
                raise ToolkitError(f"game contract: single_module takes only the players "
                                   f"({', '.join(p.field for p in PIECES if p.kind == 'players')}"
                                   f"), got '{field}'")
            setattr(contract, field, value)
        return contract


class _OneModuleContract(GameContract):
    """single_module's contract: the pieces are what the one module holds."""

    def __init__(self, module):
        self._module = module
        self.strategies = self.catalog = module.__name__

    def model(self):
        return self._module

    def components(self):
        return self._module

    def tables(self):
        return self._module.pack_tables

    def new_state(self):
        return self._module.new_state

    def trace(self):
        return self._module.format_trace

    def folder(self) -> str:
        return os.path.dirname(os.path.abspath(self._module.__file__))


# -- reading a piece method's import (registration runs no piece) -------------------------
def imported_piece(method):
    """(module, name) of the piece a method imports and returns: `from M import N` then
    `return N` gives (M, N); `import M as N` gives (M, None). None when the method imports
    nothing. A method that imports but does not return a name it imported: ToolkitError."""
    code = method.__code__
    node = _function_node(code.co_filename, code.co_firstlineno, method.__name__)
    if node is None:
        return None
    package = sys.modules[method.__module__].__package__ or ""
    bound = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.ImportFrom):
            module = _absolute(sub.module, sub.level, package)
            bound.update({a.asname or a.name: (module, a.name) for a in sub.names})
        elif isinstance(sub, ast.Import):
            bound.update({a.asname or a.name: (a.name, None) for a in sub.names
                          if a.asname or "." not in a.name})
    if not bound:
        return None
    returned = [r.value.id for r in ast.walk(node)
                if isinstance(r, ast.Return) and isinstance(r.value, ast.Name)]
    for name in returned:
        if name in bound:
            return bound[name]
    raise ToolkitError(f"game contract: {method.__qualname__} must import its piece and "
                       f"return it (`from M import N`, then `return N`) ({DOC}, "
                       f"\"The game contract\")")


def _absolute(module: str | None, level: int, package: str) -> str:
    if not level:
        return module or ""
    parts = package.split(".")
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _function_node(filename: str, first_line: int, name: str):
    if not os.path.isfile(filename):
        return None
    st = os.stat(filename)
    for node in _functions(filename, st.st_mtime_ns, st.st_size):
        lines = [node.lineno] + [d.lineno for d in node.decorator_list]
        if node.name == name and first_line in lines:
            return node
    return None


@functools.lru_cache(maxsize=None)
def _functions(filename: str, mtime_ns: int, size: int) -> tuple:
    with open(filename, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), filename)
    return tuple(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                              ast.AsyncFunctionDef)))


def _defined_names(module_path: str):
    """The names a module defines at top level, read from its source without running it
    (an imported module: its attributes); None when that cannot be told from the source
    (a star import, a module-level __getattr__, no source)."""
    if module_path in sys.modules:
        return set(vars(sys.modules[module_path]))
    try:
        spec = importlib.util.find_spec(module_path)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return "missing"
    origin = spec.origin
    if not origin or not origin.endswith(".py") or not os.path.isfile(origin):
        return None
    stat = os.stat(origin)
    key = f"{stat.st_mtime_ns}:{stat.st_size}"
    stored = _stored_names().get(origin)
    if isinstance(stored, list) and len(stored) == 2 and stored[0] == key:
        return None if stored[1] is None else set(stored[1])
    names = _names_in_source(origin, stat.st_mtime_ns, stat.st_size)
    _store_names(origin, key, names)
    return names


# The names each source file defines, kept in the toolkit's cache folder per version of the
# file (modification time and size): parsing every piece of every game costs about 0.4 s, which
# every listing would pay at registration; a file changed since is parsed again.
_NAMES_FILE = "contract-names.json"
_STORED: dict = {}


def _names_path():
    import sim
    return None if sim.TOOL_CACHE_ROOT is None else os.path.join(sim.TOOL_CACHE_ROOT,
                                                                 _NAMES_FILE)


def _stored_names() -> dict:
    if "loaded" not in _STORED:
        _STORED["loaded"] = {}
        path = _names_path()
        try:
            import json
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            _STORED["loaded"] = data if isinstance(data, dict) else {}
        except (OSError, TypeError, ValueError):
            pass          # none yet, unreadable or no cache folder: parse the sources
    return _STORED["loaded"]


def _store_names(origin: str, key: str, names) -> None:
    _stored_names()[origin] = [key, None if names is None else sorted(names)]
    _STORED["changed"] = True


def _write_names() -> None:
    """The names parsed by this registration, written once (not once per file parsed)."""
    path = _names_path()
    if path is None or not _STORED.pop("changed", False):
        return
    stored = _stored_names()
    try:
        import json
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(stored, fh)
        os.replace(tmp, path)     # atomic: a concurrent command reads the old or the new file
    except OSError:
        pass                      # a speed-up only: registration still checks every piece


@functools.lru_cache(maxsize=None)
def _names_in_source(origin: str, mtime_ns: int, size: int):
    """_defined_names of one source file, parsed (once per version of the file)."""
    with open(origin, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), origin)
    names = set()
    for node in tree.body:
        for sub in ([node] if not isinstance(node, ast.If) else node.body + node.orelse):
            names |= _bound(sub)
            if isinstance(sub, ast.ImportFrom) and any(a.name == "*" for a in sub.names):
                return None
    return None if "__getattr__" in names else names


def _bound(node) -> set:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        out = set()
        for t in targets:
            out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        return out
    if isinstance(node, ast.Try):
        out = set()
        for sub in node.body + node.orelse + node.finalbody:
            out |= _bound(sub)
        return out
    return set()


def _problem(game: str, piece: Piece, module_path: str, defined,
             names: tuple) -> str | None:
    """The one line saying what is wrong with one piece (module_path must define `names`),
    or None."""
    where = f'{DOC}, "{piece.section}"'
    if defined == "missing":
        return (f"game '{game}': {piece.what} ({piece.field}) names module '{module_path}', "
                f"which does not exist ({where})")
    if defined is None:
        return None
    missing = [n for n in names if n not in defined]
    if not missing:
        return None
    hints = []
    for name in missing:
        close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=0.75)
        hints.append(f"{name} (is '{close[0]}' meant?)" if close else name)
    return (f"game '{game}': {piece.what} ({module_path}) has no {', '.join(hints)} "
            f"({where})")


def _piece_problem(game: str, piece: Piece, contract: GameContract) -> str | None:
    """What is wrong with one piece the contract gives, read without running it."""
    if piece.kind == "players":
        module_path = getattr(contract, piece.field)
        return _problem(game, piece, module_path, _defined_names(module_path), piece.names)
    method = getattr(contract, piece.field)
    target = imported_piece(method)
    if target is None:       # imports nothing: what it returns is already loaded
        return _loaded_problem(game, piece, method())
    module_path, name = target
    if name is None:
        return _problem(game, piece, module_path, _defined_names(module_path), piece.names)
    if piece.kind == "module" and _is_package(module_path):
        submodule = f"{module_path}.{name}"     # `from package import module`
        defined = _defined_names(submodule)
        if defined != "missing":
            return _problem(game, piece, submodule, defined, piece.names)
    return _problem(game, piece, module_path, _defined_names(module_path), (name,))


def _is_package(module_path: str) -> bool:
    try:
        found = importlib.util.find_spec(module_path)
    except (ImportError, ValueError):
        return False
    return found is not None and found.submodule_search_locations is not None


def _loaded_problem(game: str, piece: Piece, value) -> str | None:
    if value is None:
        return (f"game '{game}': {piece.what} ({piece.field}) is None "
                f"({DOC}, \"{piece.section}\")")
    if piece.kind == "function":
        return None if callable(value) else (
            f"game '{game}': {piece.what} ({piece.field}) is not a function "
            f"({DOC}, \"{piece.section}\")")
    return _problem(game, piece, getattr(value, "__name__", "?"), set(dir(value)), piece.names)


def spec_problems(spec) -> list:
    """What is wrong with a spec's own facts (plain attributes, no import)."""
    game = getattr(spec, "name", "") or type(spec).__name__
    out = []
    if not isinstance(getattr(spec, "name", None), str) or not spec.name:
        out.append(f"game spec {type(spec).__name__} has no name ({DOC}, \"The game contract\")")
    if not getattr(spec, "title", ""):
        out.append(f"game '{game}': the spec has no title ({DOC}, \"The game contract\")")
    lo, hi = getattr(spec, "min_players", None), getattr(spec, "max_players", None)
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        out.append(f"game '{game}': the player range must be 1 <= min_players <= max_players, "
                   f"got {lo}..{hi} ({DOC}, \"The game contract\")")
    return out


def validate(spec) -> None:
    """Check a spec and its contract at registration: ToolkitError, one line per broken
    piece, when anything is missing or misnamed. Imports nothing of the game's engine."""
    problems = spec_problems(spec)
    contract = getattr(spec, "contract", None)
    if contract is None:
        raise_if(problems)
        return
    if not isinstance(contract, GameContract):
        problems.append(f"game '{spec.name}': `contract` must be a GameContract, got "
                        f"{type(contract).__name__} ({DOC}, \"The game contract\")")
        raise_if(problems)
    for piece in PIECES:
        if not contract.offers(piece.field):
            if piece.required:
                problems.append(f"game '{spec.name}': the contract gives no "
                                f"{piece.what.removeprefix('the ')} ({piece.field}) ({DOC}, "
                                f"\"{piece.section}\")")
            continue
        line = _piece_problem(spec.name, piece, contract)
        if line:
            problems.append(line)
    _write_names()
    raise_if(problems)


def raise_if(problems: list) -> None:
    if problems:
        raise ToolkitError(problems)


def load_model(spec, contract: GameContract):
    """The game's model module, checked on its real attributes, with the optional pieces
    filled in (MODEL_DEFAULTS, and default_keep_nb = a no-op, MAX_PLAYERS = the spec's
    max_players, STATE_DTYPE = the dtype of new_state()). Called once per process, when the
    game is first played."""
    model = contract.model()
    piece = PIECE_BY_FIELD["model"]
    line = _problem(spec.name, piece, model.__name__, set(dir(model)), piece.names)
    if line:
        raise ToolkitError(line)
    for name, value in MODEL_DEFAULTS.items():
        if not hasattr(model, name):
            setattr(model, name, value)
    if not hasattr(model, "default_keep_nb"):
        from sim.contract_defaults import no_keep_nb
        model.default_keep_nb = no_keep_nb
    if not hasattr(model, "MAX_PLAYERS"):
        model.MAX_PLAYERS = int(spec.max_players)
    if not hasattr(model, "STATE_DTYPE"):
        model.STATE_DTYPE = contract.new_state()().dtype
    return model


def rule_test_files(spec) -> list:
    """The game's rule-test files (contract `rule_tests`) as paths: relative to the toolkit's
    folder when they are there (a shipped game), else to the game's package folder (a game on
    the game path). Used by the Makefile's coverage target."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    contract = spec.contract
    out = []
    for test in contract.rule_tests:
        in_root = os.path.join(root, test)
        out.append(in_root if os.path.isfile(in_root) else os.path.join(contract.folder(), test))
    return out
