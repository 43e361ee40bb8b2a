"""Every number the toolkit is given is checked here, before it is used, against the limits
documented in README.md ("Limits"): one line each (ToolkitError; `balance: error: ...`,
exit 2), and nothing is written. A count must be a whole number (an int: 2.5 is refused,
never truncated, and so is 2.0 or True) within its range.

* MAX_GAMES games per run (and per configuration of compare/sweep/tune/cards/ladder): a
  billion games is days of play on one machine and tens of gigabytes of logs; a bigger study
  is several runs (different seeds), which also fit the chunk file names (12 digits).
* MAX_CHUNKS chunks per run (games / chunk size): each chunk is a file and a manifest record,
  and the plan lists them before anything is played.
* MAX_SEED: a seed is a 64-bit integer below 2**63 (the logs' seed column).
* MAX_WORKERS worker processes.
* MAX_GRID_POINTS points in a sweep grid, and trials of a tune: each is a run folder of its own.
* MAX_VARY_VALUES values in one --vary (a range or a comma list, whose values may be lists).
* MAX_COMPONENT_VALUE: every number of a component file (after `--set` / `--vary`) is at most
  this in size. A score is a sum of such values over the cards and turns of a game, far fewer
  than 10**12 terms, so it can never overflow the logs' 64-bit integer columns; the report's
  score histograms (one bin per point) also stay small. Checked on the parsed file, before a
  game converts anything to 64-bit integers.
* MAX_SEARCH_BUDGET: a search player's counts (mcts iterations, `ladder --budgets`, flatmc
  rollouts, worlds, candidates, depth, tree): each decision allocates arrays of that size.
"""
from __future__ import annotations

import errno
import math
import numbers
import os

from sim.game_api import ComponentError, ToolkitError

MAX_GAMES = 1_000_000_000
MAX_CHUNKS = 100_000
MAX_SEED = 2**63 - 1
MAX_WORKERS = 1_024
MAX_GRID_POINTS = 1_000
MAX_VARY_VALUES = 200
MAX_COMPONENT_VALUE = 1_000_000
MAX_SEARCH_BUDGET = 1_000_000
MAX_SEATS = 16        # players of any game (a game's own range is checked against its spec)


def is_whole(value) -> bool:
    """An int (Python or numpy), not a bool: what a count must be."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def count(value, what: str, low: int, high: int) -> int:
    """`value` as an int within low..high, or one line saying what is wrong."""
    if not is_whole(value):
        raise ToolkitError(f"{what} must be a whole number, got {value!r}")
    v = int(value)
    if v < low:
        raise ToolkitError(f"{what} must be at least {low:,}, got {v:,}")
    if v > high:
        raise ToolkitError(f"{what} must be at most {high:,} (the toolkit's limit), got {v:,}")
    return v


def problems(*checks) -> list:
    """The lines of the checks (callables) that fail, in order: every problem at once."""
    out = []
    for check in checks:
        try:
            check()
        except ToolkitError as exc:
            out.extend(exc.lines)
    return out


def check_games(n_games, what: str = "--games") -> None:
    if n_games is None:
        return
    if not is_whole(n_games):
        raise ToolkitError(f"{what} must be a whole number, got {n_games!r}")
    if int(n_games) > MAX_GAMES:
        raise ToolkitError(f"{what} {int(n_games):,} is more than the toolkit's limit of "
                           f"{MAX_GAMES:,} games per run; split the study into runs with "
                           f"different seeds")
    if int(n_games) < 1:
        raise ToolkitError(f"{what} must be at least 1, got {int(n_games):,}")


def check_seed(seed, what: str = "--seed") -> int:
    if not is_whole(seed):
        raise ToolkitError(f"{what} must be a whole number, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ToolkitError(f"{what} must be between 0 and 2**63 - 1, got {int(seed):,}")
    return int(seed)


def check_workers(workers, what: str = "--workers") -> int | None:
    return None if workers is None else count(workers, what, 1, MAX_WORKERS)


def check_plan(n_games, chunk_size, what: str = "--chunk-size") -> None:
    """A run's plan (one chunk per `chunk_size` games) is refused before it is built when it
    would have more than MAX_CHUNKS chunks."""
    if chunk_size is None or not is_whole(chunk_size) or not is_whole(n_games):
        return
    n_chunks = -(-int(n_games) // max(1, int(chunk_size)))
    if n_chunks > MAX_CHUNKS:
        raise ToolkitError(f"{int(n_games):,} games in chunks of {int(chunk_size):,} make "
                           f"{n_chunks:,} chunk files; at most {MAX_CHUNKS:,} per run: give a "
                           f"larger {what}")


def check_budget(value, what: str) -> int:
    """A search player's count (iterations, rollouts, ...): a whole number up to
    MAX_SEARCH_BUDGET (`low` 1 for a budget)."""
    return count(value, what, 1, MAX_SEARCH_BUDGET)


def check_precision(precision, what: str = "--precision") -> None:
    if precision is None:
        return
    if isinstance(precision, bool) or not isinstance(precision, numbers.Real) \
            or not 0 < float(precision) < 0.5:
        raise ToolkitError(f"{what} must be between 0 and 0.5, got {precision!r}")


def check_grid(sizes: list, what: str = "the --vary grid") -> None:
    """sizes: the number of values of each --vary. Refused before the grid is built."""
    n = math.prod(int(s) for s in sizes) if sizes else 0
    if n > MAX_GRID_POINTS:
        shape = " x ".join(str(int(s)) for s in sizes)
        raise ToolkitError(f"{what} has {n:,} points ({shape}); at most {MAX_GRID_POINTS:,} "
                           f"points are run at once: vary fewer fields or fewer values")


def check_vary_values(n: int, what: str) -> None:
    """n: the number of values of one --vary; refused before the values are built."""
    if int(n) > MAX_VARY_VALUES:
        raise ToolkitError(f"{what}: {int(n):,} values; at most {MAX_VARY_VALUES}")


def _numbers(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _numbers(v, f"{path}.{k}" if path else str(k))
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _numbers(v, f"{path}[{i}]")
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, x


def check_numbers(data, label: str) -> None:
    """Every number of a parsed component file (`--set` / `--vary` applied, nothing converted
    yet) must be finite and at most MAX_COMPONENT_VALUE in size: one line per offending field,
    naming the file (`label`)."""
    if not isinstance(data, dict):
        return
    lines = []
    for path, v in _numbers(data):
        if isinstance(v, float) and not math.isfinite(v):
            lines.append(f"{label}: {path} = {v} is not a finite number")
        elif abs(v) > MAX_COMPONENT_VALUE:
            lines.append(f"{label}: {path} = {v:,} is beyond the toolkit's limit of "
                         f"{MAX_COMPONENT_VALUE:,} (scores must fit the logs' 64-bit integers)")
    if lines:
        raise ComponentError(lines[:20])


def check_component_values(components) -> None:
    """The same check on a loaded component file (its validated data)."""
    check_numbers(getattr(components, "data", None), components.path)


def workers_warning(workers) -> str | None:
    """A warning line when more local workers than cores are asked for, else None."""
    cores = os.cpu_count() or 1
    if is_whole(workers) and int(workers) > cores:
        return (f"balance: warning: --workers {int(workers)} is more than the {cores} cores of "
                f"this machine; the extra workers only share the same cores (and memory)")
    return None


_DISK_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


def os_error_line(exc: OSError) -> str | None:
    """One line for a disk that cannot take the files (None for other OS errors)."""
    where = exc.filename or "the output folder"
    if exc.errno in _DISK_FULL:
        return (f"no space left on the disk writing {where}; free some space (or choose "
                f"another --out) and run the same command again to resume")
    if exc.errno in _READ_ONLY:
        kind = "is on a read-only file system" if exc.errno == errno.EROFS else "is not writable"
        return f"cannot write {where}: it {kind}; choose another --out folder"
    if exc.errno == errno.ENOTDIR:
        return f"cannot write {where}: a part of that path is a file, not a folder; choose another --out folder"
    if exc.errno == errno.ENAMETOOLONG:
        where = str(where)
        shown = where if len(where) <= 80 else f"{where[:40]}...{where[-30:]}"
        return (f"cannot write {shown}: the path is too long for the file system ({len(where):,} "
                f"characters; a name may have at most 255 bytes); choose a shorter folder name")
    if exc.filename is not None:   # any other refusal of a path: one line, never a traceback
        return f"cannot use {where}: {exc.strerror or exc}"
    return None
