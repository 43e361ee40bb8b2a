"""One compile per cache entry across processes (sim/compile_claims.py, used by
sim/numba_calls.py for every callee compiled with a disk cache): a second process asking for
an entry another is compiling waits, then loads it; `taking_only` stops at the first claim
held elsewhere; a claim dies with its process.

Every side of a claim is a process of its own (POSIX record locks are per process)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HOLDER = '''
import sys, time
sys.path.insert(0, sys.argv[1])
from sim import compile_claims
with compile_claims.claim(sys.argv[2], "entry"):
    open(sys.argv[3], "w").close()          # claimed
    time.sleep(float(sys.argv[4]))
'''

ASKER = '''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from sim import compile_claims
t0 = time.perf_counter()
try:
    if sys.argv[3] == "taking-only":
        with compile_claims.taking_only(), compile_claims.claim(sys.argv[2], "entry"):
            pass
    else:
        with compile_claims.claim(sys.argv[2], "entry"):
            pass
    out = {"claimed": True}
except compile_claims.ClaimTaken:
    out = {"claimed": False}
out["seconds"] = time.perf_counter() - t0
out["waits"] = len(compile_claims.WAITS)
print(json.dumps(out))
'''


def _start(script: str, *args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, ROOT, *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _held(tmp_path, seconds: float):
    flag = tmp_path / "claimed"
    holder = _start(HOLDER, tmp_path / "cache", flag, seconds)
    deadline = time.monotonic() + 60
    while not flag.exists():
        assert holder.poll() is None, holder.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return holder


def _ask(tmp_path, mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", ASKER, ROOT, str(tmp_path / "cache"), mode],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_second_process_waits_for_the_claim(tmp_path):
    holder = _held(tmp_path, 1.5)
    out = _ask(tmp_path, "wait")
    assert holder.wait(30) == 0
    assert out["claimed"] and out["waits"] == 1 and out["seconds"] > 0.5


def test_taking_only_stops_at_a_claim_held_elsewhere(tmp_path):
    holder = _held(tmp_path, 30)
    try:
        out = _ask(tmp_path, "taking-only")
        assert not out["claimed"] and out["seconds"] < 10   # at once, not after the holder
    finally:
        holder.kill()
        holder.wait()


def test_a_claim_dies_with_its_process(tmp_path):
    holder = _held(tmp_path, 600)
    holder.kill()                      # a helper killed mid-compile
    holder.wait()
    out = _ask(tmp_path, "taking-only")
    assert out["claimed"] and out["waits"] == 0


def test_a_nested_claim_of_the_same_entry_is_free(tmp_path):
    from sim import compile_claims
    with compile_claims.claim(str(tmp_path), "entry"):
        with compile_claims.taking_only(), compile_claims.claim(str(tmp_path), "entry"):
            pass   # this process holds it: no wait, no ClaimTaken
    assert compile_claims.place_of("entry") != compile_claims.place_of("entry2")


MODULE = '''
from numba import njit


@njit(cache=True)
def callee_nb(x):
    return x * 3 + 1


@njit(cache=True)
def caller_nb(x):
    return callee_nb(x) + 1
'''

COMPILER = '''
import json, os, sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import sim.compile_cache   # installs the patch, as numba does for any toolkit run
from numba import types
from sim import compile_claims, numba_calls
import claims_module as m
out = {"installed": numba_calls.install()}
if sys.argv[3] == "first":
    # holds the callee's claim, says so, lets the other process come to it, then compiles
    with numba_calls.callee_claim(m.callee_nb, (types.int64,)):
        open(sys.argv[4], "w").close()
        while not os.path.exists(sys.argv[4] + ".asking"):
            time.sleep(0.02)
        time.sleep(1.5)           # the other process's typing of caller_nb reaches the claim
        out["result"] = int(m.caller_nb(2))
else:
    open(sys.argv[4] + ".asking", "w").close()
    out["result"] = int(m.caller_nb(2))
out["callee_compiled"] = sum(m.callee_nb.stats.cache_misses.values())
out["callee_loaded"] = sum(m.callee_nb.stats.cache_hits.values())
out["waits"] = [round(s, 2) for _, s in compile_claims.WAITS]
print(json.dumps(out))
'''


def test_two_processes_compile_a_callee_once(tmp_path):
    """The second process waits for the first's compile of the callee and loads it from the
    disk cache: one compile between them, the same result."""
    import numba

    from sim import numba_calls
    if not numba_calls.supported(numba.__version__):
        pytest.skip("numba is left as it is on this version: no claims")
    (tmp_path / "claims_module.py").write_text(MODULE)
    script = tmp_path / "compiler.py"
    script.write_text(textwrap.dedent(COMPILER))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("NUMBA_DISABLE_JIT", None)
    flag = tmp_path / "claimed"

    def start(role):
        return subprocess.Popen([sys.executable, str(script), ROOT, str(tmp_path), role,
                                 str(flag)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
    first = start("first")
    deadline = time.monotonic() + 120
    while not flag.exists():
        assert first.poll() is None, first.stderr.read()[-2000:]
        assert time.monotonic() < deadline
        time.sleep(0.02)
    second = start("second")
    outs = []
    for p in (first, second):
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr[-3000:]
        outs.append(json.loads(stdout.strip().splitlines()[-1]))
    one, two = outs
    assert one["installed"] and two["installed"]
    assert one["result"] == two["result"] == 8
    assert one["callee_compiled"] == 1 and one["callee_loaded"] == 0
    assert two["callee_compiled"] == 0 and two["callee_loaded"] == 1
    assert len(two["waits"]) == 1 and one["waits"] == []
