"""Keeping a run's processes under the user's control: Ctrl-C, SIGTERM and a killed parent.

Numba-compiled code never returns to the Python interpreter while it runs, so a
KeyboardInterrupt raised by Ctrl-C waits until the compiled call ends, and a user strategy
that loops forever would make the run impossible to stop. Three pieces fix that:

* `call_interruptibly(fn, ...)`: the call runs in a daemon thread while the main thread waits
  in short joins, where signals are handled. The kernels compiled around user strategies
  and those with the search players release the GIL (`sim.harness.build_kernels` compiles
  them with `nogil=True`), so the main thread runs even while a strategy spins or a search
  chunk plays for seconds; the playing thread dies with the process. The cached kernels of
  the built-ins alone hold the GIL: Ctrl-C then takes effect when the current chunk ends
  (about a second), as before.
* `sigterm_as_interrupt()`: SIGTERM (e.g. `kill`, a batch system ending a job) raises
  `Terminated`, a KeyboardInterrupt, so it takes the Ctrl-C path: joblib kills its loky
  workers, the manifest stays "running" and the same command resumes.
* `guard_worker(parent_pid)`: called at the start of every task in a local worker process. It
  asks Linux to SIGKILL the worker when its parent dies (prctl PR_SET_PDEATHSIG), so a
  parent killed with SIGKILL leaves no worker playing on or writing chunk files. Elsewhere it
  falls back to a thread that polls the parent's pid (effective between compiled calls).

`CANCELLED` is set when the parent gives up a run: a chunk finishing in an abandoned thread
after that is not written.

A run's local workers (`ForkedPool`): on Linux they are forked from the run's own process
after it has loaded the play kernels, so a worker starts with numba, the game and its machine
code already in memory. A worker started fresh (joblib's loky, the pool used elsewhere)
imports numpy, pyarrow and numba and loads the kernels itself: about 1.4 s of CPU each
(measured 2026-12-02), paid by every worker on top of the parent's own start, which is what
kept two workers below 1.8x one on the 2-core machine (docs/architecture.md). `BALANCE_POOL`
= `loky` chooses loky's workers instead (and is the only choice where fork is not available).
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

CANCELLED = threading.Event()
_POLL_SECONDS = 0.1
_guarded_for: int | None = None


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C."""


def call_interruptibly(fn, *args, **kwargs):
    """fn(*args, **kwargs) in a daemon thread; Ctrl-C / SIGTERM in the caller's thread stop
    waiting for it (and set CANCELLED). Exceptions of fn are re-raised here."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args, **kwargs)  # signals are only delivered to the main thread anyway
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised in the caller
            box["error"] = exc

    thread = threading.Thread(target=target, name="balance-chunk", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(_POLL_SECONDS)
    except BaseException:
        CANCELLED.set()
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def _raise_terminated(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM raises `Terminated` (a KeyboardInterrupt) in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _set_pdeathsig() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except Exception:  # pragma: no cover - no libc/prctl: the polling thread does the job
        return False


def _poll_parent(parent_pid: int) -> None:  # pragma: no cover - non-Linux fallback
    import time
    while True:
        if os.getppid() != parent_pid:
            os._exit(1)
        time.sleep(1.0)


def guard_worker(parent_pid: int) -> None:
    """In a local worker process: die with the parent. Idempotent; a no-op in the parent."""
    global _guarded_for
    if os.getpid() == parent_pid or _guarded_for == parent_pid:
        return
    if not _set_pdeathsig():  # pragma: no cover
        threading.Thread(target=_poll_parent, args=(parent_pid,), daemon=True).start()
    _guarded_for = parent_pid
    if os.getppid() != parent_pid:  # the parent died before the guard was set
        os._exit(1)


def delayed(fn):
    """joblib.delayed for `one_worker`: fn(*args, **kwargs) as (fn, args, kwargs), so that a
    one-worker run imports no joblib (0.1-0.2 s of its start, loky and asyncio included)."""
    def call(*args, **kwargs):
        return fn, args, kwargs
    return call


def one_worker(calls):
    """A stand-in for joblib's Parallel with one worker: each delayed call runs in a thread of
    this process (`call_interruptibly`), results in order."""
    for fn, args, kwargs in calls:
        yield call_interruptibly(fn, *args, **kwargs)


def release_workers() -> None:
    """Stop loky's idle worker processes now, without waiting for them to leave. Left to the
    interpreter's exit, loky's own shutdown waits for each worker to wind down: 0.65 s after a
    2-worker Sunset run (measured 2026-12-02, 4 runs, idle machine: 1.12 s from the last line
    to the exit against 0.47 s). Only for the command line's last step, when nothing more will
    be played in this process; a process that never started a pool imports nothing here."""
    module = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(module, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=False, kill_workers=True)


POOL_ENV = "BALANCE_POOL"
POOL_CHOICES = ("fork", "loky")


def local_pool_kind() -> str:
    """"fork" (ForkedPool) or "loky" (joblib's loky workers) for a run's local workers: fork
    on Linux unless the environment's BALANCE_POOL says loky. Forking is what Linux's
    multiprocessing does by default; elsewhere (macOS, Windows) it is unsafe or absent."""
    chosen = os.environ.get(POOL_ENV, "").strip().lower()
    if chosen and chosen not in POOL_CHOICES:
        from sim.game_api import ToolkitError
        raise ToolkitError(f"{POOL_ENV}={chosen!r} is not a pool: use one of "
                           f"{', '.join(POOL_CHOICES)}")
    return "fork" if chosen != "loky" and fork_available() else "loky"


def fork_available() -> bool:
    """Linux with multiprocessing's fork start method: where ForkedPool may be used."""
    if not sys.platform.startswith("linux"):
        return False
    import multiprocessing
    return "fork" in multiprocessing.get_all_start_methods()


def _forked_worker_start() -> None:
    """In a forked worker: Ctrl-C is the parent's to handle (it stops the pool), and SIGTERM
    ends the worker (the handler the parent may have set, inherited by the fork, would raise
    in it instead)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class ForkedPool:
    """`n_jobs` worker processes forked from this one (concurrent.futures over a "fork"
    multiprocessing context), used as a context manager; `unordered(calls)` takes
    (fn, args, kwargs) triples (`delayed`) and yields each result as it finishes, like
    joblib's Parallel(return_as="generator_unordered"). Every call is submitted at once (a
    run's chunks are a few dozen small tasks). Interrupted (Ctrl-C, SIGTERM, an error), it
    kills its own workers, so that none plays on; it waits in short polls, where signals are
    handled."""

    def __init__(self, n_jobs: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        self._executor = ProcessPoolExecutor(n_jobs,
                                             mp_context=multiprocessing.get_context("fork"),
                                             initializer=_forked_worker_start)
        # fork now, while this process runs no other thread (a progress bar starts one)
        before = set(multiprocessing.active_children())
        self._executor.submit(int).result()
        self._workers = [p for p in multiprocessing.active_children() if p not in before]

    def unordered(self, calls):
        from concurrent.futures import FIRST_COMPLETED, wait
        try:
            pending = {self._executor.submit(fn, *args, **kwargs) for fn, args, kwargs in calls}
            while pending:
                done, pending = wait(pending, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Kill the workers now and drop what is queued (the run was given up)."""
        CANCELLED.set()
        for worker in self._workers:
            if worker.is_alive():
                worker.kill()
        self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        # idle workers leave at once on shutdown (a sentinel each): no wait worth saving
        self._executor.shutdown(wait=exc[0] is None, cancel_futures=True)
