"""The games the toolkit knows, by command-line name.

Adding a game: a subpackage of `sim.games` exposing `SPEC` (a `GameSpec` instance) and one
line in `GAME_MODULES`. Modules are imported lazily, the first time a game is looked up, so
`balance games` and the tests do not pay for compiling every engine.
"""
from __future__ import annotations

import importlib

from sim.game_api import GameSpec, ToolkitError

# module path -> its SPEC; order is the order `balance games` lists them
GAME_MODULES: list[str] = [
    "sim.games.sunset",
    "sim.games.sagrada",
    "sim.games.surfers",
    "sim.games.lowlands",
]

GAMES: dict[str, GameSpec] = {}      # name -> spec, filled by _load()
_ALIASES: dict[str, str] = {}        # alias (lower case) -> name
_loaded = False
_load_errors: dict[str, str] = {}    # module path -> why it could not be imported


def _register(spec: GameSpec) -> None:
    if not spec.name:
        raise ToolkitError(f"game spec {type(spec).__name__} has no name")
    GAMES[spec.name] = spec
    _ALIASES[spec.name.lower()] = spec.name
    for alias in getattr(spec, "aliases", ()) or ():
        _ALIASES[str(alias).lower()] = spec.name


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for module_path in GAME_MODULES:
        try:
            module = importlib.import_module(module_path)
        except ImportError as exc:
            # a game whose engine is not there (yet) must not break the others
            _load_errors[module_path] = f"{type(exc).__name__}: {exc}"
            continue
        spec = getattr(module, "SPEC", None)
        if spec is None:
            _load_errors[module_path] = "module has no SPEC"
            continue
        _register(spec)
    _loaded = True


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
    for module_path, why in _load_errors.items():
        if module_path.rsplit(".", 1)[-1] == key:
            msg = f"game '{name}' could not be loaded ({why}); known games: {known}"
    raise ToolkitError(msg)
