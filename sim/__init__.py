"""The compiled core of the balance toolkit.

Numba's on-disk cache (`cache=True`) keys each kernel on its own source file only: a kernel
that calls into another file would keep stale machine code when only that other file
changes. Every cached function therefore goes to a folder named after its game (or module)
and a hash of the sources it may compile in (sim/compile_cache.py): editing one game
recompiles that game only, a user's strategy file is compiled once per version of the file,
and an unchanged install loads its kernels from disk (a warm start in seconds). The folders
live under ~/.cache/balance-toolkit/kernels; set NUMBA_CACHE_DIR to put them elsewhere (the
toolkit then removes nothing there).

The library API (docs/api.md) is importable from here without loading anything heavy:

    from sim import run, open_run, compare, sweep, tune, ladder, game

(`cards`, the sensitivity table, is `sim.api.cards`: `sim.cards` is the engine's module.)

Each name is loaded on first use from sim/api/ (PEP 562 module __getattr__), so `import sim`
stays light (no numba, pandas or matplotlib) and the layering holds: sim/api is the facade
above reports/ (docs/architecture.md), the rest of sim/ never imports it.
"""
import os
import sys

__version__ = "0.1.0"

TOOL_CACHE_ROOT = None   # ~/.cache/balance-toolkit when the toolkit chose the cache folder
LOCATORS = ("sim.compile_cache.FolderPerGameLocator,UserProvidedCacheLocator,"
            "InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")

_base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
_own = os.path.join(_base, "balance-toolkit")
if "NUMBA_CACHE_DIR" not in os.environ:
    TOOL_CACHE_ROOT = _own
    # the same folder as sim.compile_cache.tool_folder() (which pruning compares against)
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(TOOL_CACHE_ROOT, "kernels")
elif os.path.realpath(os.environ["NUMBA_CACHE_DIR"]) == os.path.realpath(
        os.path.join(_own, "kernels")):
    # the toolkit's own folder, inherited (a worker process, `balance warm`'s processes) or
    # named: its small caches too (each of them parsed every game's sources again: 0.2 s)
    TOOL_CACHE_ROOT = _own
os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", LOCATORS)
if "numba" in sys.modules:  # numba read its settings already: tell it directly
    sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
    sys.modules["numba"].config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]


API = ("run", "open_run", "compare", "sweep", "tune", "ladder", "game", "Run", "coverage")


def __getattr__(name):   # PEP 562: the API is imported on first use
    if name in API:
        import importlib
        return getattr(importlib.import_module("sim.api"), name)
    raise AttributeError(f"module 'sim' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(API))
