"""Numba's first compile or cache load in a process, without an import it does not need.

The first time numba compiles or loads a function in a process, it imports its
implementations of numpy (`CPUContext.load_additional_registries`). One of them,
`numba.np.arraymath`, asks at import whether BLAS is available by importing
`scipy.linalg.cython_blas`, which imports most of scipy's core: 0.11-0.16 s on the 2-core
machine (2026-12-03), in the parent of every `balance run` before its first game and in every
worker process started fresh, though no kernel of the toolkit calls BLAS (nothing in the
summary imports scipy either).

`install()` has that one question answered without the import, by whether scipy's package
folder holds the `cython_blas` extension module (the same answer, unless scipy is broken),
and only while numba loads those implementations. A function that really uses BLAS
(`np.dot` of float arrays, a user's strategy) still goes through numba's own
`ensure_blas()` when it compiles: scipy is imported then, and its LAPACK integer width
checked, as numba does. sim/compile_cache.py installs it only when sim/numba_calls.py
patched numba (its `install()` says so): `BALANCE_NUMBA_CALLS=stock`, or a numba version it was
not tested against, leaves numba as it is.
"""
from __future__ import annotations

import importlib.util
import os
import sys

_installed = False


def blas_extension_found() -> bool:
    """Whether scipy's `linalg` folder holds a `cython_blas` extension module (no import)."""
    try:
        spec = importlib.util.find_spec("scipy")
    except (ImportError, ValueError):
        return False
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            names = os.listdir(os.path.join(folder, "linalg"))
        except OSError:
            continue
        if any(n.startswith("cython_blas.") and not n.endswith((".pxd", ".pyi")) for n in names):
            return True
    return False


def install() -> bool:
    """Patch numba's registry loading (once per process; the caller has checked that numba
    is the version sim/numba_calls.py patches); False when its numpy implementations are
    already imported (nothing left to answer)."""
    global _installed
    if _installed:
        return True
    if "numba.np.arraymath" in sys.modules:
        return False
    from numba.core import cpu
    from numba.np import linalg

    load = cpu.CPUContext.load_additional_registries

    def load_additional_registries(self):
        if "numba.np.arraymath" in sys.modules:   # loaded before: nothing to answer
            return load(self)
        ensure_blas = linalg.ensure_blas

        def blas_available():
            if not blas_extension_found():
                raise ImportError("scipy's cython_blas was not found")

        linalg.ensure_blas = blas_available   # what arraymath imports and asks, at its import
        try:
            return load(self)
        finally:
            linalg.ensure_blas = ensure_blas
            arraymath = sys.modules.get("numba.np.arraymath")
            if arraymath is not None and getattr(arraymath, "ensure_blas", None) is blas_available:
                arraymath.ensure_blas = ensure_blas   # numba's own check for real BLAS use

    cpu.CPUContext.load_additional_registries = load_additional_registries
    _installed = True
    return True
