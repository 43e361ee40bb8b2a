"""The game contract: every piece a game gives the toolkit, in one typed object, checked when
the game is registered (docs/adding-a-game.md, "The game contract").

A game's `__init__.py` builds one `GameContract` naming where each piece lives, as
`"module"` or `"module:attribute"` strings, and hangs it on its spec:

    CONTRACT = GameContract(
        model="sim.games.sunset.model",               # the forward model (functions, constants)
        components="sim.games.sunset.components",     # load_components, default_components_text
        tables="sim.games.sunset.enums:pack_tables",  # component tables -> the kernels' record
        new_state="sim.games.sunset.nb:new_state",
        trace="sim.games.sunset.trace:format_trace",
        strategies="strategies.sunset",               # choose_builtin_nb
        catalog="strategies.sunset_catalog",          # CATALOG, N_PARAMS (plain Python)
        positions="sim.games.sunset.positions",       # optional
        snapshot="sim.games.sunset.snapshot",         # optional: the game over time
        test_vary="rules.return_home_bonus=1..2")     # optional

Why strings and not the objects: listing the games (`balance games`) must import no numpy or
numba, and the model and the tables builder are compiled code. So registration checks the
pieces without importing them: each module must exist and define the names the contract asks
for (read from its source, not executed). The same check runs on the imported module when the
game is first played, and that is where the optional model pieces get their defaults
(`load_model`). A missing or misnamed piece is one `ToolkitError` line naming the game, the
piece, the module and the docs section.
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
    """One entry of the contract: the field that locates it, the names its module must
    define, and who reads it (the table of docs/adding-a-game.md)."""
    field: str
    what: str
    names: tuple            # names the module defines ("module:attribute" fields: the attribute)
    section: str            # the docs section that explains it
    used_by: str
    required: bool = True


PIECES = (
    Piece("model", "the forward model",
          ("setup_nb", "is_over_nb", "to_move_nb", "decision_nb", "legal_nb", "context_nb",
           "apply_nb", "returns_nb", "evaluate_nb", "determinize_nb", "observe_nb",
           "check_state_nb", "record_nb", "MAX_OPTIONS", "OBS_LEN", "RECORD"),
          "The forward model", "sim/harness.py (the play loop), strategies/search.py, "
          "the conformance test"),
    Piece("components", "the component file module", ("load_components",
                                                      "default_components_text"),
          "What a game writes", "every command (--components, --set), the report"),
    Piece("tables", "the tables builder", (), "What a game writes",
          "every kernel call (component tables -> the kernels' record)"),
    Piece("new_state", "the state allocator", (), "What a game writes",
          "every kernel call, strategies/search.py (STATE_DTYPE)"),
    Piece("trace", "the trace formatter", (), "What a game writes", "`balance replay`"),
    Piece("strategies", "the built-in players", ("choose_builtin_nb",), "Strategies",
          "sim/harness.py (ids 0..n-1), the search players' rollouts"),
    Piece("catalog", "the strategy catalog", ("CATALOG", "N_PARAMS"), "Strategies",
          "`balance strategies`, --strategies, the ladder"),
    Piece("strategy_names", "the strategy-name resolver", ("resolve_strategies",),
          "Strategies", "`spec.prepare`: --strategies, variants files, user strategy files"),
    Piece("search_catalog", "the search players' catalog", ("catalog_for",), "Strategies",
          "`balance strategies`, --strategies (ids >= SEARCH_BASE; plain Python)",
          required=False),
    Piece("search", "the search players", ("search_choose_for", "estimated_seconds_per_game"),
          "Strategies", "sim/harness.py (ids >= SEARCH_BASE), the runner's chunk size",
          required=False),
    Piece("positions", "positions from text", (), "Everything else the game keeps",
          "`game(NAME).positions` (sim/api/games.py)", required=False),
    Piece("snapshot", "the per-round snapshot", ("ROWS", "PERIOD", "period_nb", "snapshot_nb"),
          "Everything else the game keeps",
          "`balance run --snapshots` (sim/snapshots.py), the report's game over time",
          required=False),
)
PIECE_BY_FIELD = {p.field: p for p in PIECES}
# fields that are data, not code: {field: docs line}
DATA_FIELDS = {
    "test_vary": "one `--vary` for the tests of sweep and tune (tests/test_game_defaults.py)",
    "rule_tests": "the game's rule-test files (the Makefile's coverage target)",
    "docs_page": "the game's docs page",
}

# the platform's players, handed to every game's spec unless its contract names others (or
# None: no search players). The engine (sim/) never imports strategies/: it is handed them here.
PLATFORM_PLAYERS = {
    "strategy_names": "strategies.registry",
    "search_catalog": "strategies.search_catalog",
    "search": "strategies.search",
}

# optional model pieces and their defaults (set on the model module by load_model)
MODEL_DEFAULTS = {
    "CTX_LEN": 1,                       # strategies read no context
    "KEEP_LEN": 1,                      # decisions keep nothing
    "PERFECT_INFORMATION": False,
    "CANONICAL_DETERMINIZE": False,
    "SEAT_ORDER_IS_TURN_ORDER": False,
}


class GameContract:
    """Where each piece of a game lives. Fields: the code pieces of PIECES ("module" or
    "module:attribute"; `positions` may be None) and the data of DATA_FIELDS."""
    model: str              # "module"
    components: str         # "module"
    tables: str             # "module:attribute"
    new_state: str          # "module:attribute"
    trace: str              # "module:attribute"
    strategies: str         # "module"
    catalog: str            # "module"
    strategy_names: str     # "module" (default: PLATFORM_PLAYERS)
    search_catalog: str | None   # "module", or None: no search players
    search: str | None      # "module", or None: no search players
    positions: str | None   # "module", or None: no positions from text
    snapshot: str | None    # "module", or None: no per-round snapshot (the game over time)
    test_vary: str | None   # a `--vary` of one rule option, e.g. "rules.x=1..2"
    rule_tests: tuple       # rule-test files
    docs_page: str | None

    def __init__(self, **fields):
        known = [p.field for p in PIECES] + list(DATA_FIELDS)
        for key in fields:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise ToolkitError(f"game contract: unknown piece '{key}'{hint}; the pieces are "
                                   f"{', '.join(known)} ({DOC}, \"The game contract\")")
        for p in PIECES:
            setattr(self, p.field, fields.get(p.field, PLATFORM_PLAYERS.get(p.field)))
        self.test_vary = fields.get("test_vary")
        self.rule_tests = tuple(fields.get("rule_tests") or ())
        self.docs_page = fields.get("docs_page")

    @classmethod
    def template(cls, package: str, strategies: str, **extra) -> "GameContract":
        """The layout of docs/adding-a-game.md: a package with model, components, enums,
        nb and trace modules; strategies/<name>.py and its plain catalog."""
        catalog = f"{strategies}_catalog"
        if importlib.util.find_spec(catalog) is None:
            catalog = strategies
        fields = dict(model=f"{package}.model", components=f"{package}.components",
                      tables=f"{package}.enums:pack_tables", new_state=f"{package}.nb:new_state",
                      trace=f"{package}.trace:format_trace", strategies=strategies,
                      catalog=catalog)
        fields.update(extra)
        return cls(**fields)

    @classmethod
    def single_module(cls, module: str, **extra) -> "GameContract":
        """A game written in one module (the tests' toy games)."""
        fields = dict(model=module, components=module, tables=f"{module}:pack_tables",
                      new_state=f"{module}:new_state", trace=f"{module}:format_trace",
                      strategies=module, catalog=module)
        fields.update(extra)
        return cls(**fields)

    def __repr__(self):
        return f"GameContract(model={self.model!r}, ...)"

    # -- loading (imports: used when the game is played, never by a listing) ------------
    def module(self, field: str):
        return importlib.import_module(_split(getattr(self, field))[0])

    def get(self, field: str):
        """The piece itself: the module of a "module" field, the attribute of a
        "module:attribute" one."""
        module_path, attr = _split(getattr(self, field))
        module = importlib.import_module(module_path)
        return module if attr is None else getattr(module, attr)


def _split(location: str):
    module, _, attr = str(location).partition(":")
    return module, (attr or None)


def _names_required(piece: Piece, location: str) -> tuple:
    attr = _split(location)[1]
    return piece.names + ((attr,) if attr else ())


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


def _problem(game: str, piece: Piece, location: str, defined) -> str | None:
    """The one line saying what is wrong with one piece, or None."""
    where = f'{DOC}, "{piece.section}"'
    module_path = _split(location)[0]
    if defined == "missing":
        return (f"game '{game}': {piece.what} ({piece.field}) names module '{module_path}', "
                f"which does not exist ({where})")
    if defined is None:
        return None
    missing = [n for n in _names_required(piece, location) if n not in defined]
    if not missing:
        return None
    hints = []
    for name in missing:
        close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=0.75)
        hints.append(f"{name} (is '{close[0]}' meant?)" if close else name)
    return (f"game '{game}': {piece.what} ({module_path}) has no {', '.join(hints)} "
            f"({where})")


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
    pieces = getattr(spec, "pieces", None)
    contract = pieces() if callable(pieces) else getattr(spec, "contract", None)
    if contract is None:
        raise_if(problems)
        return
    if not isinstance(contract, GameContract):
        problems.append(f"game '{spec.name}': `contract` must be a GameContract, got "
                        f"{type(contract).__name__} ({DOC}, \"The game contract\")")
        raise_if(problems)
    for piece in PIECES:
        location = getattr(contract, piece.field)
        if location is None:
            if piece.required:
                problems.append(f"game '{spec.name}': the contract names no {piece.what} "
                                f"({piece.field}) ({DOC}, \"{piece.section}\")")
            continue
        line = _problem(spec.name, piece, location, _defined_names(_split(location)[0]))
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
    model = contract.module("model")
    line = _problem(spec.name, PIECE_BY_FIELD["model"], contract.model, set(dir(model)))
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
        model.STATE_DTYPE = contract.get("new_state")().dtype
    return model


def rule_test_files(spec) -> list:
    """The game's rule-test files (contract `rule_tests`) as paths: relative to the toolkit's
    folder when they are there (a shipped game), else to the game's package folder (a game on
    the game path). Used by the Makefile's coverage target."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    contract = spec.pieces()
    found = importlib.util.find_spec(_split(contract.model)[0])
    package_dir = os.path.dirname(found.origin) if found and found.origin else root
    out = []
    for test in contract.rule_tests:
        in_root = os.path.join(root, test)
        out.append(in_root if os.path.isfile(in_root) else os.path.join(package_dir, test))
    return out
