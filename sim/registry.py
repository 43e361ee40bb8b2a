"""The games the toolkit knows, by command-line name.

Adding a game: a subpackage of `sim.games` exposing `SPEC` (a `GameSpec` instance whose
`contract` says where each piece lives: sim/game_contract.py) and a function in
`SHIPPED_GAMES` that imports it.
A game kept outside the toolkit (`balance new-game`) is found through the game path: the
folders in the environment variable BALANCE_GAME_PATH (separated like PATH), or `--game-path`
on the command line, each a game package (a folder with `__init__.py`) or a folder of them.
Every game is checked against the contract when it is registered: a missing or misnamed piece
is one error line naming it. Modules are imported lazily, the first time a game is looked up,
so `balance games` and the tests do not pay for compiling every engine.
"""
from __future__ import annotations

import importlib
import os
import sys

from sim.game_api import GameSpec, ToolkitError
from sim.game_contract import validate

GAME_PATH_VARIABLE = "BALANCE_GAME_PATH"



# the shipped games, each a function importing its spec (a plain import a reader can follow;
# a spec module imports no numpy). Their order is the order `balance games` lists them.
def _sunset():
    from sim.games.sunset import SPEC
    return SPEC


def _sagrada():
    from sim.games.sagrada import SPEC
    return SPEC


def _surfers():
    from sim.games.surfers import SPEC
    return SPEC


def _lowlands():
    from sim.games.lowlands import SPEC
    return SPEC


SHIPPED_GAMES = (_sunset, _sagrada, _surfers, _lowlands)

GAMES: dict[str, GameSpec] = {}      # name -> spec, filled by _load()
_ALIASES: dict[str, str] = {}        # alias (lower case) -> name
_loaded = False
_load_errors: dict[str, str] = {}    # game -> why its spec could not be imported


def _register(spec: GameSpec) -> None:
    validate(spec)       # ToolkitError naming the missing piece and the docs section
    GAMES[spec.name] = spec
    _ALIASES[spec.name.lower()] = spec.name
    for alias in getattr(spec, "aliases", ()) or ():
        _ALIASES[str(alias).lower()] = spec.name


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for load_spec in SHIPPED_GAMES:
        try:
            spec = load_spec()
        except ImportError as exc:
            # a game whose engine is not there (yet) must not break the others
            _load_errors[load_spec.__name__.strip("_")] = f"{type(exc).__name__}: {exc}"
            continue
        _register(spec)
    for module_path in _game_path_modules():
        _register_outside(module_path)
    _loaded = True


def game_path() -> list:
    """The folders of BALANCE_GAME_PATH, in order (empty entries skipped)."""
    return [p for p in os.environ.get(GAME_PATH_VARIABLE, "").split(os.pathsep) if p.strip()]


def _game_path_modules() -> list:
    """The package names of the games on the game path; each folder's parent goes on
    sys.path so that the package imports by its own name."""
    names = []
    for folder in game_path():
        folder = os.path.abspath(os.path.expanduser(folder))
        if not os.path.isdir(folder):
            raise ToolkitError(f"{GAME_PATH_VARIABLE}: '{folder}' is not a folder")
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            packages = [folder]
        else:
            packages = [os.path.join(folder, d) for d in sorted(os.listdir(folder))
                        if os.path.isfile(os.path.join(folder, d, "__init__.py"))]
        for package in packages:
            _importable(os.path.dirname(package))
            names.append(os.path.basename(package))
    return names


def _importable(folder: str) -> None:
    """Packages in `folder` import here and in the run's worker processes (which unpickle
    the game's spec before anything else: they inherit PYTHONPATH)."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if folder not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([folder] + paths)


def add_game_path(folder: str) -> None:
    """`--game-path FOLDER`: put the folder first on the game path (inherited by the run's
    workers) and register its games now if the registry is already loaded."""
    folder = os.path.abspath(os.path.expanduser(folder))
    paths = [folder] + [p for p in game_path() if os.path.abspath(p) != folder]
    os.environ[GAME_PATH_VARIABLE] = os.pathsep.join(paths)
    if _loaded:
        for module_path in _game_path_modules():
            _register_outside(module_path)     # registering a game again changes nothing


def _register_outside(module_path: str) -> None:
    """A game from the game path: its import errors are the user's to see (one line)."""
    try:
        module = importlib.import_module(module_path)
    except ImportError as exc:
        raise ToolkitError(f"game path: package '{module_path}' could not be imported "
                           f"({type(exc).__name__}: {exc})") from None
    spec = getattr(module, "SPEC", None)
    if spec is None:
        raise ToolkitError(f"game path: package '{module_path}' has no SPEC "
                           f"(docs/adding-a-game.md, \"The game contract\")")
    _register(spec)


def register(spec: GameSpec) -> None:
    """Register a game spec directly (plugins, tests)."""
    _load()
    _register(spec)


def list_games() -> list[GameSpec]:
    """Every registered game, in registration order."""
    _load()
    return list(GAMES.values())


def get_game(name: str) -> GameSpec:
    """The spec of a game by name or alias (case-insensitive); ToolkitError otherwise."""
    _load()
    key = str(name).strip().lower()
    if key in _ALIASES:
        return GAMES[_ALIASES[key]]
    known = ", ".join(GAMES) or "(none)"
    msg = f"unknown game '{name}'; known games: {known}"
    for game, why in _load_errors.items():
        if game == key:
            msg = f"game '{name}' could not be loaded ({why}); known games: {known}"
    raise ToolkitError(msg)
