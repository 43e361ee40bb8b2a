"""numba's bookkeeping made cheap (sim/numba_frontend.py) gives what numba's own gave: compile
timers of each compile (nested ones too), numba's own event listeners still served, compile
flags equal exactly when numba's values say so, record type names as numba formats them."""
from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import njit

from sim import numba_calls, numba_frontend

pytestmark = pytest.mark.skipif(
    not numba_calls.supported(numba.__version__),
    reason="numba is left as it is on versions sim/numba_calls.py was not tested with")


@pytest.fixture(autouse=True)
def _installed():
    assert numba_calls.install()
    assert numba_frontend._installed


def test_compile_timers_of_a_kernel_and_its_callee():
    @njit
    def inner_nb(x):
        return x * 2 + 1

    @njit
    def outer_nb(x):
        return inner_nb(x) - 1

    assert outer_nb(3) == 6
    timers = outer_nb.get_metadata(outer_nb.signatures[0])["timers"]
    assert set(timers) == {"compiler_lock", "llvm_lock"}
    # the compile holds the compiler lock throughout; LLVM's calls are a part of it
    assert 0.0 < timers["llvm_lock"] < timers["compiler_lock"]
    callee = next(iter(inner_nb.overloads.values()))     # compiled for the call (no wrapper)
    inner = callee.metadata["timers"]
    assert 0.0 < inner["compiler_lock"] < timers["compiler_lock"]


def test_numba_listeners_still_hear_every_lock_event():
    from numba.core import event

    @njit
    def heard_nb(x):
        return x + 41

    with event.install_recorder("numba:llvm_lock") as llvm, \
            event.install_recorder("numba:compiler_lock") as compiler:
        assert heard_nb(1) == 42
    for recorder in (llvm, compiler):
        kinds = [ev.kind for _, ev in recorder.buffer]
        starts = sum(ev.is_start for _, ev in recorder.buffer)
        assert starts > 0 and starts * 2 == len(kinds)   # every start has its end


def test_flag_values_and_equality_as_numba_has_them():
    from numba.core.compiler import Flags

    stock_values = numba_frontend.stock["values"]
    plain, tuned, tuned_again, default_set = Flags(), Flags(), Flags(), Flags()
    for flags in (tuned, tuned_again):
        flags.no_cpython_wrapper = True
        flags.error_model = "numpy"
    default_set.no_cpython_wrapper = False      # set, to the default
    for flags in (plain, tuned, default_set):
        assert flags.values() == stock_values(flags)
    assert tuned == tuned_again and hash(tuned) == hash(tuned_again)
    assert plain == default_set                 # numba compares values, not what was set
    assert plain != tuned
    tuned_again.error_model = "python"
    assert tuned != tuned_again


def test_record_names_as_numba_formats_them():
    dtype = np.dtype([("a", np.int64), ("b", np.float64, (3,)), ("c", np.int8)])
    record = numba.from_dtype(dtype)
    expected = numba_frontend.stock["record_repr"](record)
    assert repr(record) == expected
    assert repr(record) == expected            # the second time from the names kept
    assert repr(numba.types.Array(record, 1, "C")).startswith(f"Array({expected}, 1")


def test_no_full_collection_while_the_compiler_lock_is_held():
    import gc

    from numba.core.compiler_lock import global_compiler_lock
    before = gc.get_threshold()
    seen = []

    @njit
    def collected_nb(x):
        return x - 1

    def spy(phase, info):   # the thresholds each collection during the compile saw
        if phase == "start":
            seen.append((info["generation"], gc.get_threshold()[2]))

    gc.callbacks.append(spy)
    try:
        with global_compiler_lock:
            assert gc.get_threshold()[2] == numba_frontend.FULL_PASS_NEVER
            with global_compiler_lock:          # nested holds: still paused
                assert gc.get_threshold()[2] == numba_frontend.FULL_PASS_NEVER
            assert gc.get_threshold()[2] == numba_frontend.FULL_PASS_NEVER
            assert collected_nb(5) == 4          # a compile (takes the lock again)
            gc.collect(0)                        # a young pass is still made
        assert gc.get_threshold() == before      # the process's own thresholds are back
    finally:
        gc.callbacks.remove(spy)
    assert (0, numba_frontend.FULL_PASS_NEVER) in seen


def test_young_collections_only_for_a_short_process():
    import subprocess
    import sys
    code = ("import gc; from sim import numba_frontend as f; t = gc.get_threshold(); "
            "f.young_collections_only(); u = gc.get_threshold(); "
            "assert u[:2] == t[:2] and u[2] == f.FULL_PASS_NEVER, (t, u); "
            "import sys; assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
