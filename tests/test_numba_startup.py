"""sim/numba_startup.py: numba's first compile in a process imports no scipy, and a function
that uses BLAS still gets it (each case in a fresh process: the patch acts once per process)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIRST_COMPILE = """
import json, sys
import numpy as np
from numba import njit
import sim.compile_cache   # installs the patches, as any toolkit kernel's decoration does

@njit
def total(a):
    return a.sum()

out = {"total": int(total(np.arange(5)))}
from numba.np import arraymath, linalg
out["scipy_linalg_after_compile"] = "scipy.linalg" in sys.modules
out["have_blas"] = bool(arraymath._HAVE_BLAS)
out["numba_check_restored"] = arraymath.ensure_blas is linalg.ensure_blas

@njit
def dot(a, b):
    return np.dot(a, b)

out["dot"] = float(dot(np.arange(3.0), np.arange(3.0)))
out["scipy_linalg_after_dot"] = "scipy.linalg" in sys.modules
print(json.dumps(out))
"""


def _run(env_extra: dict) -> dict:
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-c", FIRST_COMPILE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_first_compile_imports_no_scipy_and_blas_still_works():
    out = _run({"BALANCE_NUMBA_CALLS": ""})
    assert out["total"] == 10
    assert out["scipy_linalg_after_compile"] is False
    # the same answer numba's own check gives where scipy is installed (it is, for the tests)
    assert out["have_blas"] is True
    assert out["numba_check_restored"] is True
    # np.dot of floats goes through BLAS: numba's own ensure_blas imports scipy then
    assert out["dot"] == 5.0
    assert out["scipy_linalg_after_dot"] is True


def test_stock_numba_imports_scipy_at_first_compile():
    """The switch leaves numba as it is: then the first compile does import scipy.linalg (what
    the first test shows the patch avoids)."""
    out = _run({"BALANCE_NUMBA_CALLS": "stock"})
    assert out["total"] == 10
    assert out["scipy_linalg_after_compile"] is True
    assert out["have_blas"] is True


def test_blas_extension_found_where_scipy_has_it():
    from sim.numba_startup import blas_extension_found
    import scipy.linalg.cython_blas as blas
    assert blas_extension_found() == os.path.basename(blas.__file__).startswith("cython_blas.")
