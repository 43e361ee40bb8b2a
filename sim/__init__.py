"""The compiled core of the balance toolkit.

Numba's on-disk cache (`cache=True`) keys each kernel on its own source file only: a kernel
that calls into another file keeps stale machine code when only that other file changes. We
therefore point numba at a cache folder named after a hash of every source file of the
compiled packages (sim/ and strategies/), so any edit to the toolkit's code gets fresh
kernels while an unchanged install loads its kernels from disk (a warm start in seconds).
Set NUMBA_CACHE_DIR yourself to override.

The library API (docs/api.md) is importable from here without loading anything heavy:

    from sim import run, open_run, compare, sweep, tune, ladder, game

(`cards`, the sensitivity table, is `sim.api.cards`: `sim.cards` is the engine's module.)

Each name is loaded on first use from sim/api/ (PEP 562 module __getattr__), so `import sim`
stays light (no numba, pandas or matplotlib) and the layering holds: sim/api is the facade
above reports/ (docs/architecture.md), the rest of sim/ never imports it.
"""
import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def _source_hash() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            if path.relative_to(root).parts[:2] == ("sim", "api"):
                continue   # the facade holds no kernel: editing it must not recompile
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


KEEP_CACHES = 32  # compile caches of older sources kept (other checkouts, recent versions;
#                   with 8, several checkouts on one machine pruned each other mid-run)


def _prune_old_caches(root: str, current: str) -> None:
    """When a new source version first runs, drop all but the newest KEEP_CACHES folders."""
    import shutil
    try:
        folders = [os.path.join(root, d) for d in os.listdir(root)]
        folders = sorted((f for f in folders if os.path.isdir(f) and f != current),
                         key=os.path.getmtime, reverse=True)
    except OSError:
        return
    for old in folders[KEEP_CACHES - 1:]:
        shutil.rmtree(old, ignore_errors=True)  # another process may be pruning too


TOOL_CACHE_ROOT = None   # ~/.cache/balance-toolkit when the toolkit chose the cache folder

if "NUMBA_CACHE_DIR" not in os.environ:
    _base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    TOOL_CACHE_ROOT = os.path.join(_base, "balance-toolkit")
    _root = os.path.join(TOOL_CACHE_ROOT, "numba")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(_root, _source_hash())
    if not os.path.isdir(os.environ["NUMBA_CACHE_DIR"]):
        _prune_old_caches(_root, os.environ["NUMBA_CACHE_DIR"])
    if "numba" in sys.modules:  # numba read its settings already: tell it directly
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


API = ("run", "open_run", "compare", "sweep", "tune", "ladder", "game", "Run", "coverage")


def __getattr__(name):   # PEP 562: the API is imported on first use
    if name in API:
        import importlib
        return getattr(importlib.import_module("sim.api"), name)
    raise AttributeError(f"module 'sim' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(API))
