"""One compile of a function per cache entry, however many processes want it at once.

A cold compile on two cores (sim/split_compile.py) compiles the players in a helper process
while this one compiles the rules; the players call rules of their own (Lowlands' planner
lists the legal options as the rules do), so both processes compiled those functions, each
for itself: 58 functions, 7-8 s of each process's 17-22 s (Lowlands, measured 2026-12-04).
So a process about to compile a callee for a cache entry first claims it: an exclusive lock
on one byte of a lock file in the entry's cache folder, the byte's place a hash of the
entry's index file and argument types. A process that finds the entry claimed waits until the
claim is released, which happens once the other process has saved the entry, and then
loads it from the cache as any cache hit (numba's own lookup, after the wait).

Why byte locks (POSIX `fcntl` record locks): the kernel releases a process's locks when it
ends, however it ends (a helper killed mid-compile leaves no stale claim), and it refuses a
wait that would close a cycle of waiting processes (EDEADLK): the caller then compiles
without the claim. A call tree is acyclic, so two processes can only wait on each other
through two entries hashed to one byte (60-bit places: never seen), and then nothing worse
than today's double compile happens. What is claimed changes nothing compiled: the entry is
the same whichever process writes it, and a process that finds no entry after the wait (the
other failed, or its index write was lost to a concurrent one) compiles it itself.

The lock file (`compile-claims.lock`, empty) lives in the toolkit's own cache folders,
next to numba's index files. One descriptor per lock file stays open for the life of the
process: closing any descriptor of a file drops every lock the process holds on it.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import os

LOCK_NAME = "compile-claims.lock"
_PLACES = 1 << 60            # byte offsets a claim may take (a 60-bit hash)

_files: dict = {}            # lock file path -> its descriptor, open for the process' life
_held: set = set()           # (path, place) claimed by this process (a nested ask is free)
WAITS: list = []             # (what, seconds) this process waited for another's compile
_taking_only = [False]       # inside taking_only(): a claim held elsewhere ends the compile


class ClaimTaken(BaseException):
    """Raised inside `taking_only()` at the first claim another process holds. A
    BaseException, as KeyboardInterrupt: numba's typing turns an Exception into a typing
    error and may try the call again with other argument types; this must end the compile."""


@contextlib.contextmanager
def taking_only():
    """Compile only what no other process is compiling: the first claim found held raises
    ClaimTaken (the caller stops there; what it compiled so far is saved). For work taken
    from the other end of another process's list (sim/split_compile.py)."""
    _taking_only[0] = True
    try:
        yield
    finally:
        _taking_only[0] = False


def _descriptor(folder: str):
    path = os.path.join(folder, LOCK_NAME)
    fd = _files.get(path)
    if fd is None:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        _files[path] = fd
    return path, fd


def place_of(what: str) -> int:
    return int.from_bytes(hashlib.sha256(what.encode("utf-8")).digest()[:8], "big") % _PLACES


@contextlib.contextmanager
def claim(folder: str, what: str):
    """Hold the claim on `what` (a cache entry of `folder`) for the body: the body runs once
    no other process holds it. Any failure to claim (an unwritable folder, a file system
    without record locks, a wait that would deadlock) runs the body unclaimed."""
    import time
    try:
        import fcntl
    except ImportError:   # no POSIX record locks (Windows): compile unclaimed, as before
        yield
        return
    try:
        path, fd = _descriptor(folder)
    except OSError:
        yield
        return
    place = place_of(what)
    if (path, place) in _held:
        yield
        return
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, place)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EAGAIN):
                raise
            if _taking_only[0]:
                raise ClaimTaken(what) from None
            t0 = time.perf_counter()
            fcntl.lockf(fd, fcntl.LOCK_EX, 1, place)   # the other process is compiling it
            WAITS.append((what, time.perf_counter() - t0))
    except OSError:   # EDEADLK, ENOLCK, a file system without locks: compile unclaimed
        yield
        return
    _held.add((path, place))
    try:
        yield
    finally:
        _held.discard((path, place))
        try:
            fcntl.lockf(fd, fcntl.LOCK_UN, 1, place)
        except OSError:   # pragma: no cover - unlocking a held lock does not fail
            pass
