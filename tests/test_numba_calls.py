"""Calls between compiled functions (sim/numba_calls.py): no Python wrapper for a function only
compiled code calls, never a wrapper-less function handed to a Python call (in the same
process or loaded from the disk cache in another), and the typing of the calls unchanged
(constants stay literal).

Each case runs in a child process with a cache folder of its own: the patch is process-wide
and numba keeps what it compiled."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODULE = '''
import numpy as np
from numba import njit

from sim.numba_calls import plain_constants

SEVEN = 7
RECORD = np.dtype([("a", np.int64), ("b", np.float64)])


@njit(cache=True)
def add_nb(a, b):
    return a + b


@njit(cache=True)
def field_nb(rec, name):
    return rec[name]          # types only with the literal field name


@njit(cache=True)
def pick_nb(t, i):
    return t[i]               # a tuple of two types: types only with the literal index


@njit(cache=True)
def flagged_nb(x, double):
    return 2 * x if double else x


@njit(cache=True)
def checked_nb(x):
    if x < 0:
        raise ValueError("negative", x)
    return x


@njit(cache=True)
def raising_nb(x):
    return checked_nb(x) + 1


@plain_constants
@njit(cache=True)
def stored_nb(out, i, code):
    out[i] = code


@njit(cache=True)
def storing_nb(out):
    stored_nb(out, 0, 11)
    stored_nb(out, 1, 12)
    stored_nb(out, 2, 13)
    return out.sum()


@njit(cache=True)
def second_caller_nb(x):
    return add_nb(x, x) * 10


@njit(cache=True)
def caller_nb(x, rec):
    # three constants (numba compiles add_nb once per value: kept, it folds the constant)
    # and one plain call
    return (add_nb(x, SEVEN) + add_nb(x, 3) + add_nb(x, 5) + add_nb(x, x)
            + field_nb(rec, "b") + pick_nb((1, 0.25), 1) + flagged_nb(x, True))
'''

SCRIPT = '''
import json, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import numpy as np
import sim.compile_cache   # installs the patch, as numba does for any toolkit run
from sim import numba_calls
import calls_module as m
rec = np.zeros(1, m.RECORD)[0]
rec["b"] = 2.5
out = {"installed": numba_calls.install()}
for step in sys.argv[3].split(","):
    if step == "caller":
        out["caller"] = float(m.caller_nb(1, rec))
    elif step == "add":
        out["add"] = int(m.add_nb(2, 3))
    elif step == "storing":
        out["storing"] = int(m.storing_nb(np.zeros(3, np.int64)))
        out["stored_signatures"] = [str(k) for k in m.stored_nb.overloads]
    elif step == "second":
        out["second"] = int(m.second_caller_nb(4))
    elif step == "raising":
        out["raising"] = [int(m.raising_nb(2))]
        try:
            m.raising_nb(-3)
        except ValueError as e:
            out["raising"].append(list(e.args))
lib = lambda cres: cres.library
out["add_linked_only"] = sorted(str(k) for k, c in m.add_nb.overloads.items()
                                if getattr(lib(c), "_balance_linked_only", False))
out["add_emitted"] = sorted(str(k) for k, c in m.add_nb.overloads.items()
                            if getattr(lib(c), "_compiled", False))
out["kernels_emitted"] = all(getattr(lib(c), "_compiled", False)
                             for d in (m.caller_nb, m.second_caller_nb, m.raising_nb)
                             for c in d.overloads.values())
out["add_signatures"] = [str(k) for k in m.add_nb.overloads]
out["add_wrapperless"] = [str(k) for k in getattr(m.add_nb, "_balance_wrapperless", ())]
out["field_signatures"] = [str(k) for k in m.field_nb.overloads]
out["pick_signatures"] = [str(k) for k in m.pick_nb.overloads]
out["flag_signatures"] = [str(k) for k in m.flagged_nb.overloads]
out["add_cache_hits"] = sum(m.add_nb.stats.cache_hits.values())
print(json.dumps(out))
'''


def _patched(out: dict) -> None:
    """The patch is installed exactly where numba is a version it was tested with; on any
    other version numba is left as it is (test_stock_numba_when_asked checks that side)."""
    import numba

    from sim import numba_calls
    supported = numba_calls.supported(numba.__version__)
    assert out["installed"] == supported
    if not supported:
        pytest.skip(f"numba {numba.__version__} is not in sim.numba_calls.TESTED_NUMBA: "
                    "numba is left as it is there")


def _child(tmp_path, steps: str, env_extra=None) -> dict:
    (tmp_path / "calls_module.py").write_text(MODULE)
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), **(env_extra or {}))
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, str(script), ROOT, str(tmp_path), steps],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_wrapper_for_compiled_callers_and_the_same_typing(tmp_path):
    out = _child(tmp_path, "caller")
    _patched(out)
    assert out["caller"] == 1 + 7 + 1 + 3 + 1 + 5 + 2 + 2.5 + 0.25 + 2
    # numba's typing: one compile per constant value, and the plain call; none has a wrapper
    assert sorted(out["add_signatures"]) == sorted(
        ["(int64, Literal[int](7))", "(int64, Literal[int](3))", "(int64, Literal[int](5))",
         "(int64, int64)"])
    assert sorted(out["add_wrapperless"]) == sorted(out["add_signatures"])
    # callees that need a literal get it (a tuple index, a record field), flags stay literal
    assert len(out["pick_signatures"]) == 1 and "Literal[int](1)" in out["pick_signatures"][0]
    assert len(out["field_signatures"]) == 1 and "Literal[str](b)" in out["field_signatures"][0]
    assert out["flag_signatures"] == ["(int64, Literal[bool](True))"]


def test_a_python_call_after_a_compiled_one_gets_a_wrapper(tmp_path):
    out = _child(tmp_path, "caller,add")
    _patched(out)
    assert out["add"] == 5
    assert "(int64, int64)" in out["add_signatures"]
    assert "(int64, int64)" not in out["add_wrapperless"]   # compiled again, with its wrapper
    assert len(out["add_wrapperless"]) == 3                 # the literal ones untouched


def test_the_disk_cache_keeps_compiled_only_callees_apart(tmp_path):
    first = _child(tmp_path, "caller")           # saves add_nb without wrapper
    _patched(first)
    # a new process calling add_nb from Python must not load the wrapper-less code (it would
    # crash): a cache miss, then a compile with the wrapper, which the third process loads
    second = _child(tmp_path, "add")
    assert second["add"] == 5 and second["add_cache_hits"] == 0
    third = _child(tmp_path, "add")
    assert third["add"] == 5 and third["add_cache_hits"] == 1
    # and the caller's kernel, loaded from the cache, needs no callee at all
    fourth = _child(tmp_path, "caller")
    assert fourth["caller"] == first["caller"] and fourth["add_signatures"] == []


def test_stock_numba_when_asked(tmp_path):
    out = _child(tmp_path, "caller", {"BALANCE_NUMBA_CALLS": "stock"})
    assert out["installed"] is False
    assert out["caller"] == 1 + 7 + 1 + 3 + 1 + 5 + 2 + 2.5 + 0.25 + 2
    # numba's own way: every compile has its wrappers
    assert len(out["add_signatures"]) == 4 and out["add_wrapperless"] == []


def test_functions_made_at_run_time(tmp_path):
    """A function made with types.FunctionType (the harness's kernels, a user's strategy
    spliced into the loop) has no __module__: compiled as a callee all the same."""
    script = tmp_path / "made.py"
    script.write_text(textwrap.dedent('''
        import sys, types
        sys.path.insert(0, sys.argv[1])
        import sim.compile_cache
        from numba import njit

        @njit
        def inner_nb(x):
            return x + 1

        def outer(x):
            return INNER(x) * 2

        made = types.FunctionType(outer.__code__, {"INNER": inner_nb}, "outer")
        made.__module__ = None
        made_nb = njit(types.FunctionType(
            (lambda x: MADE(x)).__code__, {"MADE": njit(made)}, "top"))
        print(made_nb(3))
    '''))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, str(script), ROOT], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["8"]


def test_supported_versions():
    from sim import numba_calls
    assert numba_calls.supported("0.68.1")
    assert not numba_calls.supported("0.70.0")


def test_callees_are_linked_never_emitted(tmp_path):
    """A function compiled for compiled callers only is linked into them as LLVM IR: its own
    machine code is never made (only the kernels called from Python are emitted), and the
    disk cache keeps its IR, which a kernel compiled in another process links."""
    first = _child(tmp_path, "caller")
    _patched(first)
    assert first["add_linked_only"] == sorted(first["add_signatures"])
    assert first["add_emitted"] == [] and first["kernels_emitted"]
    # a new kernel in a new process: add_nb(int64, int64) comes from the cache, as IR
    second = _child(tmp_path, "second")
    assert second["second"] == 80 and second["add_cache_hits"] == 1
    assert second["add_linked_only"] == ["(int64, int64)"] and second["add_emitted"] == []
    # a Python call of that signature still compiles it with its wrapper, emitted
    third = _child(tmp_path, "add,second")
    assert third["add"] == 5 and third["second"] == 80
    assert third["add_emitted"] == ["(int64, int64)"] and third["add_linked_only"] == []


def test_exceptions_raised_in_linked_callees(tmp_path):
    """An exception raised (with run-time values) in a callee that was never emitted reaches
    Python through its caller: compiled here, and loaded from the disk cache."""
    for _ in range(2):
        out = _child(tmp_path, "raising")
        _patched(out)
        assert out["raising"] == [3, ["negative", -3]]


def test_inlined_blocks_share_one_scope_copy():
    """numba's inliner copies a callee's IR block by block; with the patch the copies share
    one scope (as the blocks of the original do), and a new copy starts afresh."""
    import numba
    from numba.core import inline_closurecall, ir
    from numba.core.compiler import run_frontend

    from sim import numba_calls
    # installed exactly where numba is a tested version (as _patched checks in the children)
    assert numba_calls.install() == numba_calls.supported(numba.__version__)
    if not numba_calls.supported(numba.__version__):
        pytest.skip(f"numba {numba.__version__} is not in sim.numba_calls.TESTED_NUMBA: "
                    "numba is left as it is there")

    def several_blocks(x):
        if x > 1:
            x += 1
        else:
            x -= 1
        for i in range(3):
            x += i
        return x

    func_ir = run_frontend(several_blocks)
    assert len(func_ir.blocks) > 2
    scopes = {id(b.scope) for b in func_ir.blocks.values()}
    assert len(scopes) == 1

    def copy_blocks(the_ir):      # what the inliner's copy does
        the_ir.copy()
        return [inline_closurecall.copy.deepcopy(b) for b in the_ir.blocks.values()]

    first = copy_blocks(func_ir)
    assert len({id(b.scope) for b in first}) == 1
    assert first[0].scope is not func_ir.blocks[min(func_ir.blocks)].scope
    second = copy_blocks(func_ir)
    assert second[0].scope is not first[0].scope
    # and inlining still compiles the same function
    helper = numba.njit(inline="always")(several_blocks)
    user = numba.njit(lambda x: helper(x) * 2 + helper(x + 1))
    assert user(0) == several_blocks(0) * 2 + several_blocks(1)
    assert user(5) == several_blocks(5) * 2 + several_blocks(6)


def test_compile_flags_values_unchanged():
    """The patched TargetConfig.values gives what reading every option's property gives."""
    from numba.core.compiler import Flags

    flags = Flags()
    flags.no_cpython_wrapper = True
    flags.error_model = "numpy"
    by_property = {name: getattr(flags, name) for name in flags.options}
    assert flags.values() == by_property
    assert flags == Flags(flags) and hash(flags) == hash(Flags(flags))
    assert flags != Flags()


def test_plain_constants_compile_once(tmp_path):
    """A function marked plain_constants is compiled once for its argument types, however
    many constant values its callers pass; the values still arrive."""
    out = _child(tmp_path, "storing")
    _patched(out)
    assert out["storing"] == 36
    assert len(out["stored_signatures"]) == 1
    assert out["stored_signatures"][0].endswith(", int64, int64)")   # no Literal[int]


DATA_NAMES = r'''
import json, os, sys
import sim.compile_cache   # installs the patch
from numba.core import caching
from sim import numba_calls
folder = sys.argv[1]
make = lambda: caching.IndexDataCacheFile(folder, "module.f-10.py311", ("stamp", 1))
first, second = make(), make()
# two processes that loaded the index before either saved: each adds its own entry
first._load_index = second._load_index = lambda: {}
first.save(("sig a",), "machine code a")
second.save(("sig b",), "machine code b")
files = lambda: sorted(f for f in os.listdir(folder) if f.endswith(".nbc"))
both = files()
make().save(("sig a",), "machine code a, again")   # the same key: its own file again
print(json.dumps({"installed": numba_calls.install(), "both": both, "files": files()}))
'''


def test_cache_entries_of_two_processes_never_share_a_file(tmp_path):
    """Two processes adding different signatures of one function to one cache folder at once
    (sim/split_compile.py) each write a data file of their own, named after the entry's
    key: numba's numbered names gave both `f.1.nbc`, and an index could name the other
    process's machine code. The same key is written to the same file again."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", DATA_NAMES, str(tmp_path)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    _patched(out)
    assert len(out["both"]) == 2, out["both"]     # numba's numbering: both wrote f.1.nbc
    assert out["files"] == out["both"]            # "again" rewrote its own file
    assert all(f.startswith("module.f-10.py311.") for f in out["files"])
    import pickle
    contents = sorted(pickle.loads((tmp_path / f).read_bytes()) for f in out["files"])
    assert contents == ["machine code a, again", "machine code b"]
