"""One writer per folder: the lock every command that writes a folder holds, from the check
of the folder to its last write (run, report, compare, sweep, tune, cards, ladder).

The lock is the file `.balance-lock` inside the folder (LOCK_NAME). Two ways to hold it:

* **A kernel lock** (the default): `fcntl.lockf` (POSIX record locks, which NFS passes to
  the server's lock manager) on the lock file, kept open while the folder is held. The kernel
  (or the NFS server) drops the lock when its process ends, however it ends, so a lock left
  by a process killed with SIGKILL is free: the next command takes it over and says so. The
  file itself holds who holds it (pid, host, command, start time), which a refused command
  names in its one line.
* **An exclusively created file** (the fallback): where the file system cannot lock
  (`lockf` fails with ENOLCK / EOPNOTSUPP, e.g. an NFS mount without a lock manager, some
  FUSE or SMB mounts), or when `BALANCE_LOCK=file` is set (for an NFS mount with `nolock`,
  where each machine's locks are local to it and would not exclude another machine). The
  lock file is created with O_EXCL; a holder on this machine that no longer runs (its pid is
  gone, or belongs to a process started at another time) is detected and the lock taken over;
  a holder on another machine is assumed alive: the message names the machine and the file
  to delete once no command runs there.

Re-entrant within a process: a folder held by this process is held once (the API's `run`
inside the CLI's `run --report`; each sub-run of a sweep). `scope()` (and `@scoped`) keeps
the locks taken inside it with `keep(path)` until the outermost scope ends: the CLI holds a
command's folders until its last write, the report included. A lock that this command made
the folder for removes the folder again when nothing else was written in it (an error before
the first write leaves nothing behind).
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import functools
import json
import os
import sys
import threading
import time

from sim.game_api import ToolkitError

LOCK_NAME = ".balance-lock"
TOOL = "balance-toolkit"
_NO_LOCKS = {errno.ENOLCK, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", errno.EOPNOTSUPP),
             errno.ENOSYS, errno.EINVAL}
_READ_TRIES = 20          # a holder writes its record right after locking: wait that long
_READ_PAUSE = 0.05


class _Held:
    def __init__(self, path: str, fd: int, mode: str, created: list, thread: int):
        self.path, self.fd, self.mode, self.created, self.thread = path, fd, mode, created, thread


def _host() -> str:
    import socket
    return socket.gethostname()


_HELD: dict[str, _Held] = {}
_SCOPES: list[list[str]] = []
_GUARD = threading.Lock()


# --- who holds a lock -------------------------------------------------------------------------
def _proc_start(pid: int) -> str | None:
    """The start time of process `pid` (clock ticks since boot, /proc), which tells a pid
    reused by another process apart; None where /proc is not there."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


COMMAND: str | None = None   # the command line as the user typed it (set by the CLI)


def _record(mode: str) -> dict:
    command = COMMAND or " ".join(sys.argv) or "python"
    return {"tool": TOOL, "pid": os.getpid(), "host": _host(),
            "command": command[:300], "mode": mode, "proc_start": _proc_start(os.getpid()),
            "started": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")}


def _parse(data: bytes) -> dict | None:
    """The holder's record, {} for an empty file (being written), None for a file that is
    not a lock of this toolkit."""
    if not data.strip():
        return {}
    try:
        rec = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return rec if isinstance(rec, dict) and rec.get("tool") == TOOL else None


def _alive(rec: dict) -> bool:
    """Whether the holder named by `rec` may still run: another machine's holder is assumed
    to; here, its pid must exist and (where /proc says) have started when it locked."""
    if rec.get("host") != _host():
        return True
    try:
        pid = int(rec.get("pid"))
        os.kill(pid, 0)
    except (TypeError, ValueError, ProcessLookupError):
        return False
    except PermissionError:
        pass                       # another user's process: it exists
    want = rec.get("proc_start")
    have = _proc_start(pid)
    return want is None or have is None or want == have


def _holder_text(rec: dict) -> str:
    if not rec:
        return "another balance command"
    where = "" if rec.get("host") == _host() else f" on {rec.get('host')}"
    return (f"another balance command (pid {rec.get('pid')}{where}: `{rec.get('command')}`, "
            f"started {rec.get('started')})")


def _in_use(folder: str, rec: dict, lock_path: str) -> ToolkitError:
    hint = "wait until it ends or choose another folder"
    if rec and rec.get("host") != _host():
        hint += f" (if no balance command runs on {rec.get('host')} any more, delete {lock_path})"
    return ToolkitError(f"{folder} is in use by {_holder_text(rec)}; {hint}")


def _not_ours(lock_path: str) -> ToolkitError:
    return ToolkitError(f"{lock_path} is not a lock file of this toolkit; the toolkit does not "
                        f"overwrite files it did not write: move it away or choose another folder")


def _stale_note(folder: str, rec: dict) -> None:
    if rec:
        print(f"note: {folder}: the lock of pid {rec.get('pid')} (`{rec.get('command')}`, "
              f"started {rec.get('started')}) was left by a process that no longer runs; "
              f"taken over", file=sys.stderr)


# --- taking and dropping a lock -----------------------------------------------------------------
def _make_folder(path: str) -> list:
    """Create `path` and its missing parents; returns those this call created, deepest
    first (removed again if the command writes nothing there)."""
    missing = []                     # deepest first
    p = path
    while not os.path.exists(p):
        missing.append(p)
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    made = []
    try:
        for d in reversed(missing):
            try:
                os.mkdir(d)
                made.append(d)
            except FileExistsError:
                pass                 # made by another process meanwhile: not ours
    except OSError:
        _remove_folders(list(reversed(made)))
        raise
    return list(reversed(made))


def _use_file_locks() -> bool:
    return os.environ.get("BALANCE_LOCK", "").strip().lower() == "file"


def _open_lock_file(lock_path: str):
    """(fd, created): the lock file opened for writing, and whether this call created it."""
    try:
        return os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), True
    except FileExistsError:
        try:
            return os.open(lock_path, os.O_RDWR), False
        except FileNotFoundError:          # its holder released it meanwhile: create anew
            return _open_lock_file(lock_path)


def _lock_kernel(folder: str, lock_path: str):
    """(fd, None, created) holding the kernel lock; (None, record, False) when another holds
    it; (None, 'unsupported', False) where the file system cannot lock."""
    import fcntl
    while True:
        fd, created = _open_lock_file(lock_path)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EACCES, errno.EAGAIN):
                return None, _read_record(lock_path), False
            if exc.errno in _NO_LOCKS:
                return None, "unsupported", False
            raise
        try:   # the previous holder may have removed the file as we opened it: lock anew
            same = os.fstat(fd).st_ino == os.stat(lock_path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd, None, created
        os.close(fd)


def _read_record(lock_path: str) -> dict:
    for _ in range(_READ_TRIES):
        try:
            with open(lock_path, "rb") as fh:
                rec = _parse(fh.read())
        except FileNotFoundError:
            return {}
        if rec:
            return rec
        time.sleep(_READ_PAUSE)
    return rec or {}


def _write_record(fd: int, rec: dict) -> None:
    data = json.dumps(rec, indent=1).encode("utf-8") + b"\n"
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)
    os.fsync(fd)


def _acquire_kernel(folder: str, lock_path: str):
    for _ in range(_READ_TRIES):
        fd, other, created = _lock_kernel(folder, lock_path)
        if fd is None:
            if other == "unsupported":
                return None
            raise _in_use(folder, other, lock_path)
        if created or os.pread(fd, 1, 0):
            break
        # An empty file we did not create and nobody locks: another command between its
        # create and its lock (it gets the lock once we let go), or a file of the user's.
        os.close(fd)
        time.sleep(_READ_PAUSE)
    else:
        raise _not_ours(lock_path)
    try:
        old = _parse(os.pread(fd, 1 << 16, 0))
        if old is None:
            raise _not_ours(lock_path)
        if old and old.get("mode") == "file" and _alive(old):   # a fallback holder
            raise _in_use(folder, old, lock_path)
        if old:
            _stale_note(folder, old)
        _write_record(fd, _record("lockf"))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _acquire_file(folder: str, lock_path: str) -> int:
    """The fallback: the lock file created with O_EXCL; a dead holder's file taken over."""
    for _ in range(10):
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            rec = _read_record(lock_path)
            if rec is None:
                raise _not_ours(lock_path) from None
            if not rec or _alive(rec):
                raise _in_use(folder, rec, lock_path) from None
            _take_over(lock_path, rec)
            _stale_note(folder, rec)
            continue
        _write_record(fd, _record("file"))
        return fd
    raise _in_use(folder, _read_record(lock_path) or {}, lock_path)


def _take_over(lock_path: str, stale: dict) -> None:
    """Move a dead holder's lock file aside; if another process replaced it meanwhile (its
    record differs), put that one back."""
    aside = f"{lock_path}.{os.getpid()}.stale"
    try:
        os.rename(lock_path, aside)
    except FileNotFoundError:
        return
    try:
        with open(aside, "rb") as fh:
            moved = _parse(fh.read())
    except OSError:
        moved = None
    if moved != stale:
        with contextlib.suppress(OSError):
            os.link(aside, lock_path)   # fails if yet another process locked meanwhile
    with contextlib.suppress(OSError):
        os.remove(aside)


def acquire(path: str) -> bool:
    """Take the lock of folder `path` (made if missing); True when this call took it (the
    caller releases it), False when this thread holds it already. ToolkitError (one line)
    when another command holds it; OSError when the folder cannot be made or written."""
    folder = os.path.abspath(str(path))
    if os.path.exists(folder) and not os.path.isdir(folder):
        return False                 # the caller's folder check says what is wrong
    if _covered(folder):
        return False
    created = _make_folder(folder)
    key = os.path.realpath(folder)
    with _GUARD:
        held = _HELD.get(key)
        if held is not None:
            if held.thread == threading.get_ident():
                return False
            raise ToolkitError(f"{folder} is in use by another call in this process; "
                               f"choose another folder")
        lock_path = os.path.join(folder, LOCK_NAME)
        try:
            fd = None if _use_file_locks() else _acquire_kernel(folder, lock_path)
            mode = "lockf"
            if fd is None:
                fd, mode = _acquire_file(folder, lock_path), "file"
        except BaseException:
            _remove_folders(created)
            raise
        _HELD[key] = _Held(folder, fd, mode, created, threading.get_ident())
    return True


def _covered(folder: str) -> bool:
    """A folder inside one this thread holds (a sub-run of a sweep, tune, ladder...) is
    covered by that lock: a second command is refused at the outer folder. (A sweep of
    1,000 points holds one lock, not 1,000 open files.)"""
    real = os.path.realpath(folder)
    me = threading.get_ident()
    return any(h.thread == me and real.startswith(key + os.sep) for key, h in _HELD.items())


def release(path: str) -> None:
    """Drop the lock of folder `path`: the lock file is removed while still locked, then
    unlocked; folders the lock made and nothing else filled are removed."""
    key = os.path.realpath(os.path.abspath(str(path)))
    with _GUARD:
        held = _HELD.pop(key, None)
    if held is None:
        return
    with contextlib.suppress(OSError):
        os.remove(os.path.join(held.path, LOCK_NAME))
    with contextlib.suppress(OSError):
        os.close(held.fd)
    _remove_folders(held.created)


def _remove_folders(created: list) -> None:
    for d in created:                # deepest first; only when empty
        try:
            os.rmdir(d)
        except OSError:
            break


def holds(path: str) -> bool:
    return os.path.realpath(os.path.abspath(str(path))) in _HELD


@contextlib.contextmanager
def holding(path: str):
    """Hold the lock of folder `path` in this block (a no-op when already held)."""
    took = acquire(path)
    try:
        yield
    finally:
        if took:
            release(path)


@contextlib.contextmanager
def scope(own: bool = False):
    """Locks taken with keep() inside are released when the outermost scope ends (own=True:
    when this one ends, e.g. the runner's, whose caller holds what must last longer)."""
    _SCOPES.append([])
    try:
        yield
    finally:
        mine = _SCOPES.pop()
        target = _SCOPES[0] if _SCOPES and not own else None
        if target is not None:
            target.extend(mine)
        else:
            for p in reversed(mine):
                release(p)


def scoped(fn=None, *, own: bool = False):
    """Decorator: the function's keep() locks last until it returns (or, called inside an
    outer scope, until that one ends, unless own=True)."""
    def wrap(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            with scope(own):
                return f(*args, **kwargs)
        return wrapper
    return wrap(fn) if fn is not None else wrap


def keep(path: str) -> None:
    """Take the lock of folder `path` until the outermost scope ends (the command's last
    write); outside any scope, until the process exits."""
    if acquire(path):
        if _SCOPES:
            _SCOPES[-1].append(path)
        else:
            import atexit
            atexit.register(release, path)


def lock_file(path: str) -> str:
    return os.path.join(os.path.abspath(str(path)), LOCK_NAME)
