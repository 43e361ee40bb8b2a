"""Sizes the toolkit refuses before doing any work, and the one-line messages for a disk
that cannot take a run's files. The limits are documented in README.md ("Limits").

* MAX_GAMES games per run (and per configuration of compare/sweep/tune): a billion games
  is days of play on one machine and tens of gigabytes of logs; a bigger study is several
  runs (different seeds), which also fit the chunk file names (12 digits of game index).
* MAX_GRID_POINTS points in a sweep grid, and trials of a tune: each is a run folder of its own.
* MAX_VARY_VALUES values in one --vary (a range or a comma list, whose values may be lists).
* MAX_COMPONENT_VALUE: every number of a component file (after `--set` / `--vary`) is at most
  this in size. A score is a sum of such values over the cards and turns of a game, far fewer
  than 10**12 terms, so it can never overflow the logs' 64-bit integer columns; the report's
  score histograms (one bin per point) also stay small.
"""
from __future__ import annotations

import errno
import math
import os

from sim.game_api import ComponentError, ToolkitError

MAX_GAMES = 1_000_000_000
MAX_GRID_POINTS = 1_000
MAX_VARY_VALUES = 200
MAX_COMPONENT_VALUE = 1_000_000


def check_games(n_games, what: str = "--games") -> None:
    if n_games is not None and int(n_games) > MAX_GAMES:
        raise ToolkitError(f"{what} {int(n_games):,} is more than the toolkit's limit of "
                           f"{MAX_GAMES:,} games per run; split the study into runs with "
                           f"different seeds")


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


def check_component_values(components) -> None:
    """Every number of a loaded component file must be finite and at most
    MAX_COMPONENT_VALUE in size (one line per offending field, naming the file)."""
    data = getattr(components, "data", None)
    if not isinstance(data, dict):
        return
    problems = []
    for path, v in _numbers(data):
        if isinstance(v, float) and not math.isfinite(v):
            problems.append(f"{components.path}: {path} = {v} is not a finite number")
        elif abs(v) > MAX_COMPONENT_VALUE:
            problems.append(f"{components.path}: {path} = {v:,} is beyond the toolkit's limit of "
                            f"{MAX_COMPONENT_VALUE:,} (scores must fit the logs' 64-bit integers)")
    if problems:
        raise ComponentError(problems[:20])


def workers_warning(workers) -> str | None:
    """A warning line when more local workers than cores are asked for, else None."""
    cores = os.cpu_count() or 1
    if workers is not None and int(workers) > cores:
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
    return None
