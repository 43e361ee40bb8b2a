"""A user's strategy file, imported once per process: the one way the toolkit runs a user's
code, and only because the user named the file on the command line or in the API (a data file
never names code that is run).

Plain Python (no numba): `strategies/registry.py` resolves the names a user typed with it, and
the engine (sim/compiled_game.py, sim/user_check.py) loads the functions in each worker.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from typing import Any

from sim.game_api import ToolkitError

_USER_CACHE: dict[tuple[str, str], Any] = {}
_MODULE_CACHE: dict[str, Any] = {}


_TOOLKIT_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def _user_module_name(path: str) -> str:
    """The module name a user's file is imported under.

    A compiled kernel that calls the user's function names that module, and the compile cache
    keys a file inside the toolkit on its path relative to the toolkit (sim/compile_cache.py).
    So the module name of such a file is made from that relative path too: a kernel cached
    by another clone of the same sources (CI's, a colleague's) then finds its module. A file
    outside the toolkit is named, like its cache entry, from its absolute path."""
    real = os.path.realpath(path)
    inside = os.path.commonpath([real, _TOOLKIT_ROOT]) == _TOOLKIT_ROOT
    shown = os.path.relpath(real, _TOOLKIT_ROOT).replace(os.sep, "/") if inside else path
    return "balance_user_" + hashlib.sha1(shown.encode()).hexdigest()[:12]


def _import_user_file(path: str):
    path = os.path.abspath(path)
    if path in _MODULE_CACHE:
        return _MODULE_CACHE[path]
    if not os.path.isfile(path):
        raise ToolkitError(f"user strategy file {path}: not found")
    mod_name = _user_module_name(path)
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ToolkitError(f"user strategy file {path}: cannot be imported as a python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's code: any error is theirs to fix
        sys.modules.pop(mod_name, None)
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ToolkitError(f"user strategy file {path}: importing it failed: "
                           f"{type(exc).__name__}: {first}") from None
    _MODULE_CACHE[path] = module
    return module


def load_user_function(path: str, name: str):
    """Import the user's file (once per process) and return its object `name`."""
    key = (os.path.abspath(path), name)
    if key in _USER_CACHE:
        return _USER_CACHE[key]
    module = _import_user_file(key[0])
    if not hasattr(module, name):
        raise ToolkitError(f"user strategy file {key[0]}: defines no '{name}'")
    obj = getattr(module, name)
    if not callable(obj):
        raise ToolkitError(f"user strategy file {key[0]}: '{name}' is not a function")
    _USER_CACHE[key] = obj
    return obj
