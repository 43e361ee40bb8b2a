"""The command line's last step stops loky's idle workers without waiting for them
(sim/processes.py release_workers): the exit of a pooled run no longer waits for each worker
to wind down; a process that never started a pool is left alone."""
from __future__ import annotations

import os
import time

from joblib import Parallel, delayed

from sim import processes


def _pid(_):
    return os.getpid()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:   # a zombie (killed, not yet reaped) counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_release_workers_stops_the_idle_pool():
    pids = set(Parallel(n_jobs=2, backend="loky")(delayed(_pid)(i) for i in range(8)))
    assert pids and os.getpid() not in pids
    assert all(_alive(p) for p in pids)          # loky keeps its workers for the next call
    processes.release_workers()
    deadline = time.monotonic() + 5.0
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids)
    processes.release_workers()                  # nothing left to stop: no error
    # a later pool in the same process starts afresh
    again = set(Parallel(n_jobs=2, backend="loky")(delayed(_pid)(i) for i in range(4)))
    assert again and not again & pids
