"""Typed log records: a game declares its log columns once, with names, types and meanings.

    RECORD = declare(
        ("game", "i8", "game index in the run"),
        ("seat", "i8", "seat, 0-based"),
        ("win", "f8", "win share"),
        ...
    )

`RECORD.dtype` is the numpy structured dtype the compiled `record_nb` writes into
(`rec[r].score = ...` or `rec["score"][r] = ...`; numba supports both), `RECORD.columns` the
[(name, description)] list that `GameSpec.columns()`, the docs and the analysis read,
`RECORD.names` the names in order, and `RECORD.empty(n)` a zeroed record array of n rows.

Types are numpy type strings ("i8", "f8", "u8", "i4", "b1", ...). Floats stay floats: a
value such as an average is stored with its real value, never as a x1000 integer.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# the columns the platform relies on in every game's record (sim/harness.py fills the last two)
REQUIRED_FIRST = ("game", "seat", "score", "rank", "win")
HARNESS_FILLED = ("illegal", "choices")


@dataclass(frozen=True)
class Record:
    dtype: np.dtype
    columns: tuple          # ((name, description), ...)

    @property
    def names(self) -> tuple:
        return tuple(name for name, _ in self.columns)

    def empty(self, n_rows: int) -> np.ndarray:
        """A record array of n_rows rows, every field zero. A np.recarray view: numba types it
        as the plain array (same kernels, same cache), and under NUMBA_DISABLE_JIT=1 (the
        interpreted side of scripts/bench_engine.py) its rows take `rec[i].field = x`."""
        return np.zeros(int(n_rows), dtype=self.dtype).view(np.recarray)

    def to_columns(self, rec: np.ndarray) -> dict:
        """{name: contiguous 1-d numpy column} of a record array (what play_chunk returns:
        one contiguous array per column converts to Arrow without a copy per row)."""
        return {name: np.ascontiguousarray(rec[name]) for name in self.names}

    def describe(self) -> list:
        """[(name, numpy type string, description)] for docs pages."""
        return [(name, self.dtype[name].str.lstrip("<>|="), desc) for name, desc in self.columns]


def declare(*fields) -> Record:
    """A Record from (name, numpy type string, description) triples, in column order.

    Raises ValueError for a duplicate or empty name, an unknown or non-scalar type, or a
    record that lacks one of the columns every game must have (game, seat, score, rank, win
    first; illegal and choices anywhere)."""
    names, types, columns = [], [], []
    for f in fields:
        if len(f) != 3:
            raise ValueError(f"record field {f!r}: expected (name, type, description)")
        name, typ, desc = f
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"record field {name!r}: the name must be an identifier")
        if name in names:
            raise ValueError(f"record field {name!r} declared twice")
        dt = np.dtype(typ)
        if dt.kind not in "biuf" or dt.shape:
            raise ValueError(f"record field {name!r}: type {typ!r} is not a scalar number type")
        names.append(name)
        types.append(dt)
        columns.append((name, str(desc)))
    if tuple(names[:len(REQUIRED_FIRST)]) != REQUIRED_FIRST:
        raise ValueError(f"a record starts with the columns {', '.join(REQUIRED_FIRST)}; "
                         f"got {', '.join(names[:len(REQUIRED_FIRST)])}")
    for name in HARNESS_FILLED:
        if name not in names:
            raise ValueError(f"a record must contain the column {name!r} (filled by the harness)")
    # aligned=False: a packed record; numba reads fields at their offsets either way
    return Record(dtype=np.dtype(list(zip(names, types))), columns=tuple(columns))
